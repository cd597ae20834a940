// SPDX-License-Identifier: GPL-2.0-or-later
// JobFilterProxyModel: the service's filter syntax, quick state filters, sorting by the sort role.

#include "jobfilterproxymodel.h"
#include "joblistmodel.h"
#include "statenames.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Trainyard;

namespace {
Job makeJob(const QString& id, JobState state, const QString& created, const QString& owner)
{
    Job job;
    job.jobId = id;
    job.state = state;
    job.createTime = created;
    job.labels.insert(QStringLiteral("owner"), owner);
    job.trainingInput.scaleTier = QStringLiteral("BASIC");
    return job;
}

QStringList ids(const QAbstractItemModel& model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, 0).data(JobListModel::JobIdRole).toString();
    return out;
}
} // namespace

class TestJobFilterProxyModel : public QObject {
    Q_OBJECT
    JobListModel m_model;

private Q_SLOTS:
    void initTestCase()
    {
        m_model.setJobs({ makeJob(QStringLiteral("fmnist_1"), JobState::Running, QStringLiteral("2026-11-22T05:00:00Z"),
                              QStringLiteral("alice")),
            makeJob(QStringLiteral("fmnist_2"), JobState::Failed, QStringLiteral("2026-11-22T06:00:00Z"),
                QStringLiteral("bob")),
            makeJob(QStringLiteral("census_1"), JobState::Queued, QStringLiteral("2026-11-22T07:00:00Z"),
                QStringLiteral("alice")),
            makeJob(QStringLiteral("census_2"), JobState::Cancelled, QStringLiteral("2026-11-22T04:00:00Z"),
                QStringLiteral("carol")) });
    }

    void filterText_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("empty") << QString()
                               << QStringList { QStringLiteral("census_1"), QStringLiteral("census_2"),
                                      QStringLiteral("fmnist_1"), QStringLiteral("fmnist_2") };
        QTest::addRow("prefix") << QStringLiteral("jobId:fmnist*")
                                << QStringList { QStringLiteral("fmnist_1"), QStringLiteral("fmnist_2") };
        QTest::addRow("and state") << QStringLiteral("jobId:fmnist* AND state:RUNNING")
                                   << QStringList { QStringLiteral("fmnist_1") };
        QTest::addRow("label") << QStringLiteral("labels.owner=alice")
                               << QStringList { QStringLiteral("census_1"), QStringLiteral("fmnist_1") };
        QTest::addRow("createTime") << QStringLiteral("createTime>2026-11-22T05:30:00Z")
                                    << QStringList { QStringLiteral("census_1"), QStringLiteral("fmnist_2") };
    }
    void filterText()
    {
        QFETCH(QString, filter);
        QFETCH(QStringList, expected);
        JobFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&m_model);
        proxy.sort(JobListModel::JobIdColumn, Qt::AscendingOrder);
        proxy.setFilterText(filter);
        QVERIFY2(proxy.filterError().isEmpty(), qPrintable(proxy.filterError()));
        QCOMPARE(ids(proxy), expected);
    }

    void badFilterKeepsPrevious()
    {
        JobFilterProxyModel proxy;
        proxy.setSourceModel(&m_model);
        proxy.setFilterText(QStringLiteral("jobId:census*"));
        QCOMPARE(proxy.rowCount(), 2);
        QSignalSpy errors(&proxy, &JobFilterProxyModel::filterErrorChanged);
        proxy.setFilterText(QStringLiteral("nosuchfield:x"));
        QCOMPARE(errors.count(), 1);
        QVERIFY(!proxy.filterError().isEmpty());
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setFilterText(QString());
        QVERIFY(proxy.filterError().isEmpty());
        QCOMPARE(proxy.rowCount(), 4);
    }

    void stateGroups_data()
    {
        QTest::addColumn<int>("group");
        QTest::addColumn<QStringList>("expected");
        using G = JobFilterProxyModel::StateGroup;
        QTest::addRow("running") << int(G::Running) << QStringList { QStringLiteral("fmnist_1") };
        QTest::addRow("queued") << int(G::Queued) << QStringList { QStringLiteral("census_1") };
        QTest::addRow("failed") << int(G::Failed) << QStringList { QStringLiteral("fmnist_2") };
        QTest::addRow("cancelled") << int(G::Cancelled) << QStringList { QStringLiteral("census_2") };
        QTest::addRow("succeeded") << int(G::Succeeded) << QStringList {};
    }
    void stateGroups()
    {
        QFETCH(int, group);
        QFETCH(QStringList, expected);
        JobFilterProxyModel proxy;
        proxy.setSourceModel(&m_model);
        proxy.setStateGroup(JobFilterProxyModel::StateGroup(group));
        QCOMPARE(ids(proxy), expected);
    }

    void sortsByCreateTime()
    {
        JobFilterProxyModel proxy;
        proxy.setSourceModel(&m_model);
        proxy.sort(JobListModel::CreatedColumn, Qt::DescendingOrder);
        QCOMPARE(ids(proxy),
            (QStringList { QStringLiteral("census_1"), QStringLiteral("fmnist_2"), QStringLiteral("fmnist_1"),
                QStringLiteral("census_2") }));
        QVERIFY(!proxy.index(0, JobListModel::StateColumn).data(Qt::DecorationRole).isNull());
        // The state column shows the state's display name, not the service's.
        QCOMPARE(proxy.index(0, JobListModel::StateColumn).data().toString(), QStringLiteral("Queued"));
    }
};

QTEST_MAIN(TestJobFilterProxyModel)
#include "tst_jobfilterproxymodel.moc"
