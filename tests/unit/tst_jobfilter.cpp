// SPDX-License-Identifier: GPL-2.0-or-later
// JobFilter: the service's list filter syntax.
#include "jobfilter.h"
#include "statenames.h"

#include <QTest>

using namespace Trainyard;

namespace {

QList<Job> jobs()
{
    auto make = [](const char* id, JobState state, const char* created, QMap<QString, QString> labels) {
        Job j;
        j.jobId = QString::fromLatin1(id);
        j.state = state;
        j.createTime = QString::fromLatin1(created);
        j.labels = labels;
        return j;
    };
    return {
        make("census_1", JobState::Succeeded, "2026-11-20T10:00:00Z",
            { { QStringLiteral("owner"), QStringLiteral("alice") } }),
        make("census_2", JobState::Failed, "2026-11-21T10:00:00.500Z",
            { { QStringLiteral("owner"), QStringLiteral("bob") }, { QStringLiteral("team"), QStringLiteral("ml") } }),
        make("fmnist_1", JobState::Running, "2026-11-22T10:00:00Z",
            { { QStringLiteral("team"), QStringLiteral("ml") } }),
        make("Census_3", JobState::Queued, "", {}),
        make("legacy", JobState::StateUnspecified, "", {}),
    };
}

} // namespace

class TestJobFilter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matching_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QStringList>("ids");
        auto row = [](const char* filter, std::initializer_list<const char*> ids) {
            QStringList l;
            for (const char* id : ids)
                l.append(QString::fromLatin1(id));
            QTest::addRow("%s", filter) << QString::fromUtf8(filter) << l;
        };
        row("", { "census_1", "census_2", "fmnist_1", "Census_3", "legacy" });
        row("   ", { "census_1", "census_2", "fmnist_1", "Census_3", "legacy" });
        row("jobId:census*", { "census_1", "census_2" });
        row("jobId:census", {});
        row("jobId:census_1", { "census_1" });
        row("jobId=census_2", { "census_2" });
        row("jobId!=census_2", { "census_1", "fmnist_1", "Census_3", "legacy" });
        row("jobId:*", { "census_1", "census_2", "fmnist_1", "Census_3", "legacy" });
        row("state:FAILED", { "census_2" });
        row("state=failed", { "census_2" });
        row("state:CANCEL*", {});
        row("state:SUCC*", { "census_1" });
        row("state:*", { "census_1", "census_2", "fmnist_1", "Census_3", "legacy" });
        row("state!=RUNNING", { "census_1", "census_2", "Census_3", "legacy" });
        row("state:STATE_UNSPECIFIED", { "legacy" });
        row("labels.owner=alice", { "census_1" });
        row("labels.owner:*", { "census_1", "census_2" });
        row("labels.owner!=alice", { "census_2", "fmnist_1", "Census_3", "legacy" });
        row("labels.team:ml AND jobId:census*", { "census_2" });
        row("labels.team:ml jobId:fm*", { "fmnist_1" });
        row("labels.owner = \"bob\"", { "census_2" });
        row("createTime>=\"2026-11-21T00:00:00Z\"", { "census_2", "fmnist_1" });
        row("createTime<2026-11-21T10:00:00.5Z", { "census_1" });
        row("createTime<=2026-11-21T10:00:00.5Z", { "census_1", "census_2" });
        row("createTime>2026-11-20T10:00:00Z AND state:RUNNING", { "fmnist_1" });
        row("createTime=2026-11-20T10:00:00Z", { "census_1" });
        row("createTime!=2026-11-20T10:00:00Z", { "census_2", "fmnist_1", "Census_3", "legacy" });
    }

    void stateTermsNameStates_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QList<JobState>>("states");
        QTest::addRow("exact") << QStringLiteral("state:RUNNING") << QStringLiteral("RUNNING")
                               << QList<JobState> { JobState::Running };
        QTest::addRow("lower case") << QStringLiteral("state=cancelled") << QStringLiteral("CANCELLED")
                                    << QList<JobState> { JobState::Cancelled };
        QTest::addRow("prefix") << QStringLiteral("state:CANCEL*") << QStringLiteral("CANCEL")
                                << QList<JobState> { JobState::Cancelling, JobState::Cancelled };
        QTest::addRow("prefix of none") << QStringLiteral("state:DONE*") << QStringLiteral("DONE")
                                        << QList<JobState> {};
    }

    void stateTermsNameStates()
    {
        // The text stays a name (a store that keeps names compares it); matching uses the parsed states.
        QFETCH(QString, filter);
        QFETCH(QString, value);
        QFETCH(QList<JobState>, states);
        QString error;
        const std::optional<JobFilter> f = JobFilter::parse(filter, &error);
        QVERIFY2(f, qPrintable(error));
        QCOMPARE(f->terms().size(), 1);
        QCOMPARE(f->terms().first().value, value);
        QCOMPARE(f->terms().first().states, states);
    }

    void matching()
    {
        QFETCH(QString, filter);
        QFETCH(QStringList, ids);
        QString error;
        const std::optional<JobFilter> f = JobFilter::parse(filter, &error);
        QVERIFY2(f, qPrintable(error));
        QCOMPARE(f->text(), filter);
        QStringList got;
        for (const Job& j : jobs()) {
            if (f->matches(j))
                got.append(j.jobId);
        }
        QCOMPARE(got, ids);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("mentions");
        QTest::addRow("unknown field") << QStringLiteral("owner=alice") << QStringLiteral("unknown field");
        QTest::addRow("no operator") << QStringLiteral("jobId") << QStringLiteral("operator");
        QTest::addRow("bad operator") << QStringLiteral("jobId=>a") << QStringLiteral("unknown operator");
        QTest::addRow("no value") << QStringLiteral("jobId:") << QStringLiteral("value");
        QTest::addRow("OR") << QStringLiteral("state:FAILED OR state:CANCELLED") << QStringLiteral("OR");
        QTest::addRow("NOT") << QStringLiteral("NOT state:FAILED") << QStringLiteral("NOT");
        QTest::addRow("parentheses") << QStringLiteral("(state:FAILED)") << QStringLiteral("parentheses");
        QTest::addRow("dangling AND") << QStringLiteral("state:FAILED AND") << QStringLiteral("AND");
        QTest::addRow("leading AND") << QStringLiteral("AND state:FAILED") << QStringLiteral("AND");
        QTest::addRow("unknown state") << QStringLiteral("state:DONE") << QStringLiteral("unknown state");
        QTest::addRow("ordering on id") << QStringLiteral("jobId<b") << QStringLiteral("jobId takes");
        QTest::addRow("has on time") << QStringLiteral("createTime:2026") << QStringLiteral("createTime takes");
        QTest::addRow("bad time") << QStringLiteral("createTime>yesterday") << QStringLiteral("RFC 3339");
        QTest::addRow("unterminated") << QStringLiteral("labels.a=\"x") << QStringLiteral("unterminated");
    }

    void errors()
    {
        QFETCH(QString, filter);
        QFETCH(QString, mentions);
        QString error;
        QVERIFY(!JobFilter::parse(filter, &error));
        QVERIFY2(error.contains(mentions) && error.contains(QLatin1String("position")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestJobFilter)
#include "tst_jobfilter.moc"
