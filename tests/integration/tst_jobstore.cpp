// SPDX-License-Identifier: GPL-2.0-or-later
// JobStore on a real SQLite file: durability across reopen, duplicates, transitions, etags, jobChanged.
#include "jobstore.h"

#include <QFile>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {
Job makeJob(const QString& id)
{
    Job job;
    job.jobId = id;
    job.labels.insert(QStringLiteral("team"), QStringLiteral("vision"));
    job.trainingInput.scaleTier = QStringLiteral("CUSTOM");
    job.trainingInput.masterType = QStringLiteral("n1-standard-4");
    job.trainingInput.workerType = QStringLiteral("n1-standard-4");
    job.trainingInput.workerCount = 2;
    job.trainingInput.packageUris = { QStringLiteral("/tmp/pkg") };
    job.trainingInput.pythonModule = QStringLiteral("trainer.task");
    job.trainingInput.args = { QStringLiteral("--epochs"), QStringLiteral("2") };
    job.trainingInput.region = QStringLiteral("us-central1");
    return job;
}
} // namespace

class TestJobStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_path = m_dir->filePath(QStringLiteral("data/trainyard.sqlite"));
    }

    void openCreatesWalDatabase()
    {
        {
            JobStore store;
            QString error;
            QVERIFY2(store.open(m_path, &error), qPrintable(error));
            QVERIFY(QFile::exists(m_path));
            QVERIFY(store.jobs().isEmpty());
        }
        // An independent connection sees the journal mode the store set (WAL is persistent in the file).
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("probe"));
            db.setDatabaseName(m_path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("PRAGMA journal_mode")));
            QVERIFY(query.next());
            QCOMPARE(query.value(0).toString(), QStringLiteral("wal"));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("probe"));
    }

    void openFailsClearly()
    {
        // A folder that is a file: the store cannot create its database there.
        QFile blocker(m_dir->filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        JobStore store;
        QString error;
        QVERIFY(!store.open(m_dir->filePath(QStringLiteral("blocker/trainyard.sqlite")), &error));
        QVERIFY2(error.contains(QStringLiteral("blocker")), qPrintable(error));
        QVERIFY(!store.insert(makeJob(QStringLiteral("a")), &error));
        QVERIFY(!store.contains(QStringLiteral("a")));
    }

    void reopenSeesData()
    {
        Job original = makeJob(QStringLiteral("census_1"));
        QString etag;
        {
            JobStore store;
            QString error;
            QVERIFY2(store.open(m_path, &error), qPrintable(error));
            QVERIFY2(store.insert(original, &error), qPrintable(error));
            const auto stored = store.job(original.jobId);
            QVERIFY(stored);
            QCOMPARE(stored->state, JobState::Queued);
            QVERIFY(!stored->createTime.isEmpty());
            QVERIFY(!stored->etag.isEmpty());
            etag = stored->etag;
        }
        JobStore reopened;
        QString error;
        QVERIFY2(reopened.open(m_path, &error), qPrintable(error));
        const auto job = reopened.job(original.jobId);
        QVERIFY(job);
        QCOMPARE(job->trainingInput, original.trainingInput);
        QCOMPARE(job->labels, original.labels);
        QCOMPARE(job->etag, etag);
        QVERIFY(reopened.contains(original.jobId));
        QCOMPARE(reopened.transitions(original.jobId).size(), 1);
    }

    void duplicateInsertFails()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY2(store.insert(makeJob(QStringLiteral("dup")), &error), qPrintable(error));
        Job second = makeJob(QStringLiteral("dup"));
        second.labels.insert(QStringLiteral("other"), QStringLiteral("x"));
        error.clear();
        QVERIFY(!store.insert(second, &error));
        QVERIFY2(error.contains(QStringLiteral("dup")), qPrintable(error));
        // The first record is untouched.
        QCOMPARE(store.job(QStringLiteral("dup"))->labels.size(), 1);
        QCOMPARE(store.jobs().size(), 1);
    }

    void updateRecordsTransitions()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY2(store.insert(makeJob(QStringLiteral("t1")), &error), qPrintable(error));
        QSignalSpy changed(&store, &JobStore::jobChanged);

        Job job = *store.job(QStringLiteral("t1"));
        const QString firstEtag = job.etag;
        const QStringList states = { JobState::Preparing, JobState::Running, JobState::Running, JobState::Succeeded };
        for (const QString& state : states) {
            job.state = state;
            QVERIFY2(store.update(job, &error), qPrintable(error));
        }
        QCOMPARE(changed.size(), states.size());
        const Job last = changed.last().first().value<Job>();
        QCOMPARE(last.state, JobState::Succeeded);
        QVERIFY(last.etag != firstEtag);
        QCOMPARE(store.job(QStringLiteral("t1"))->etag, last.etag);

        const auto transitions = store.transitions(QStringLiteral("t1"));
        QStringList seen;
        for (const auto& [state, time] : transitions) {
            seen << state;
            QVERIFY2(QDateTime::fromString(time, Qt::ISODateWithMs).isValid(), qPrintable(time));
        }
        // RUNNING twice is one transition: only changes of state are recorded.
        QCOMPARE(seen, (QStringList { JobState::Queued, JobState::Preparing, JobState::Running, JobState::Succeeded }));
    }

    void etagChangesWithLabels()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY2(store.insert(makeJob(QStringLiteral("e1")), &error), qPrintable(error));
        Job job = *store.job(QStringLiteral("e1"));
        const QString before = job.etag;
        job.labels.insert(QStringLiteral("stage"), QStringLiteral("prod"));
        job.etag = QStringLiteral("ignored-by-the-store");
        QVERIFY(store.update(job, &error));
        const Job after = *store.job(QStringLiteral("e1"));
        QVERIFY(after.etag != before);
        QVERIFY(after.etag != QStringLiteral("ignored-by-the-store"));
        QCOMPARE(after.etag, JobStore::computeEtag(after));
        QCOMPARE(store.transitions(QStringLiteral("e1")).size(), 1); // labels are not a state change
    }

    void updateUnknownFails()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QSignalSpy changed(&store, &JobStore::jobChanged);
        QVERIFY(!store.update(makeJob(QStringLiteral("ghost")), &error));
        QVERIFY2(error.contains(QStringLiteral("ghost")), qPrintable(error));
        QCOMPARE(changed.size(), 0);
        QVERIFY(!store.contains(QStringLiteral("ghost")));
    }

    void liveJobs_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<bool>("live");
        QTest::addRow("queued") << JobState::Queued << true;
        QTest::addRow("preparing") << JobState::Preparing << true;
        QTest::addRow("running") << JobState::Running << true;
        QTest::addRow("cancelling") << JobState::Cancelling << true;
        QTest::addRow("succeeded") << JobState::Succeeded << false;
        QTest::addRow("failed") << JobState::Failed << false;
        QTest::addRow("cancelled") << JobState::Cancelled << false;
    }

    void liveJobs()
    {
        QFETCH(QString, state);
        QFETCH(bool, live);
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY(store.insert(makeJob(QStringLiteral("first")), &error));
        Job job = makeJob(QStringLiteral("second"));
        QVERIFY(store.insert(job, &error));
        job = *store.job(QStringLiteral("second"));
        job.state = state;
        QVERIFY(store.update(job, &error));

        QStringList all;
        for (const Job& j : store.jobs())
            all << j.jobId;
        QCOMPARE(all, (QStringList { QStringLiteral("first"), QStringLiteral("second") })); // creation order
        QStringList liveIds;
        for (const Job& j : store.liveJobs())
            liveIds << j.jobId;
        QCOMPARE(liveIds.contains(QStringLiteral("second")), live);
        QVERIFY(liveIds.contains(QStringLiteral("first")));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

QTEST_GUILESS_MAIN(TestJobStore)
#include "tst_jobstore.moc"
