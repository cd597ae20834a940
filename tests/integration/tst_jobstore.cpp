// SPDX-License-Identifier: GPL-2.0-or-later
// JobStore on a real SQLite file: durability across reopen, duplicates, transitions, etags, jobChanged,
// projects in the key, the migration of a schema 1 file, list pages in SQL and the change feed.
#include "jobkeys.h"
#include "jobstore.h"
#include "legacylayout.h"
#include "metricsstore.h"
#include "outcomejournal.h"
#include "statenames.h"

#include "jobfilter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

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
        QVERIFY(!store.contains(Test::localJob(QStringLiteral("a"))));
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
            const auto stored = store.job(Test::localJob(original.jobId));
            QVERIFY(stored);
            QCOMPARE(stored->state, JobState::Queued);
            QVERIFY(!stored->createTime.isEmpty());
            QVERIFY(!stored->etag.isEmpty());
            etag = stored->etag;
        }
        JobStore reopened;
        QString error;
        QVERIFY2(reopened.open(m_path, &error), qPrintable(error));
        const auto job = reopened.job(Test::localJob(original.jobId));
        QVERIFY(job);
        QCOMPARE(job->trainingInput, original.trainingInput);
        QCOMPARE(job->labels, original.labels);
        QCOMPARE(job->etag, etag);
        QVERIFY(reopened.contains(Test::localJob(original.jobId)));
        QCOMPARE(reopened.transitions(Test::localJob(original.jobId)).size(), 1);
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
        QCOMPARE(store.job(Test::localJob(QStringLiteral("dup")))->labels.size(), 1);
        QCOMPARE(store.jobs().size(), 1);
    }

    void updateRecordsTransitions()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY2(store.insert(makeJob(QStringLiteral("t1")), &error), qPrintable(error));
        QSignalSpy changed(&store, &JobStore::jobChanged);

        Job job = *store.job(Test::localJob(QStringLiteral("t1")));
        const QString firstEtag = job.etag;
        const QList<JobState> states
            = { JobState::Preparing, JobState::Running, JobState::Running, JobState::Succeeded };
        for (const JobState state : states) {
            job.state = state;
            QVERIFY2(store.update(JobStore::defaultProject(), job, &error), qPrintable(error));
        }
        QCOMPARE(changed.size(), states.size());
        const Job last = changed.last().at(1).value<Job>();
        QCOMPARE(last.state, JobState::Succeeded);
        QVERIFY(last.etag != firstEtag);
        QCOMPARE(store.job(Test::localJob(QStringLiteral("t1")))->etag, last.etag);

        const auto transitions = store.transitions(Test::localJob(QStringLiteral("t1")));
        QList<JobState> seen;
        for (const auto& [state, time] : transitions) {
            seen << state;
            QVERIFY2(QDateTime::fromString(time, Qt::ISODateWithMs).isValid(), qPrintable(time));
        }
        // RUNNING twice is one transition: only changes of state are recorded.
        QCOMPARE(
            seen, (QList<JobState> { JobState::Queued, JobState::Preparing, JobState::Running, JobState::Succeeded }));
    }

    void stateColumnsHoldNames()
    {
        // The file keeps the service's names (readable with sqlite3, filtered in SQL); a name this build
        // does not know reads as StateUnspecified, and is logged.
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY2(store.insert(makeJob(QStringLiteral("n1")), &error), qPrintable(error));
        Job job = *store.job(Test::localJob(QStringLiteral("n1")));
        job.state = JobState::Cancelling;
        QVERIFY2(store.update(JobStore::defaultProject(), job, &error), qPrintable(error));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
            db.setDatabaseName(m_path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("SELECT state FROM jobs WHERE job_id = 'n1'")) && query.next());
            QCOMPARE(query.value(0).toString(), QStringLiteral("CANCELLING"));
            QStringList names;
            QVERIFY(query.exec(QStringLiteral("SELECT state FROM transitions WHERE job_id = 'n1' ORDER BY rowid")));
            while (query.next())
                names << query.value(0).toString();
            QCOMPARE(names, (QStringList { QStringLiteral("QUEUED"), QStringLiteral("CANCELLING") }));
            query.prepare(QStringLiteral("INSERT INTO transitions(project, job_id, state, time) VALUES (?, 'n1', "
                                         "'PAUSED', '2026-11-22T05:00:00.000Z')"));
            query.addBindValue(JobStore::defaultProject());
            QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("unknown state.*PAUSED")));
        const auto transitions = store.transitions(Test::localJob(QStringLiteral("n1")));
        QCOMPARE(transitions.size(), 3);
        QCOMPARE(transitions.last().first, JobState::StateUnspecified);
        QCOMPARE(store.liveJobs().size(), 1); // CANCELLING is not final
    }

    void etagChangesWithLabels()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY2(store.insert(makeJob(QStringLiteral("e1")), &error), qPrintable(error));
        Job job = *store.job(Test::localJob(QStringLiteral("e1")));
        const QString before = job.etag;
        job.labels.insert(QStringLiteral("stage"), QStringLiteral("prod"));
        job.etag = QStringLiteral("ignored-by-the-store");
        QVERIFY(store.update(JobStore::defaultProject(), job, &error));
        const Job after = *store.job(Test::localJob(QStringLiteral("e1")));
        QVERIFY(after.etag != before);
        QVERIFY(after.etag != QStringLiteral("ignored-by-the-store"));
        QCOMPARE(after.etag, JobStore::computeEtag(after));
        QCOMPARE(store.transitions(Test::localJob(QStringLiteral("e1"))).size(), 1); // labels are not a state change
    }

    /// The stored record is the job's JSON with its etag exactly as QJsonDocument writes it, and the etag is the hash
    /// of that JSON without it (computeEtag()), for strings that JSON escapes (quotes, backslashes, control
    /// characters, non-ASCII), a label named "etag", and records with many trials.
    void storedBytesAreTheJobsJson()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        Job job = makeJob(QStringLiteral("b1"));
        job.labels.insert(QStringLiteral("etag"), QStringLiteral("\"etag\":\"x\""));
        job.labels.insert(QStringLiteral("a"), QString::fromUtf8("back\\slash \u00e9 \x01 tab\t"));
        job.errorMessage = QStringLiteral("{\"etag\":\"\\u0001\\u0002\\u0003\\u0004\"}");
        QVERIFY2(store.insert(job, &error), qPrintable(error));
        Job stored = *store.job(Test::localJob(QStringLiteral("b1")));
        stored.trainingOutput.emplace();
        for (int i = 0; i < 50; ++i) {
            HyperparameterOutput trial;
            trial.trialId = QString::number(i + 1);
            trial.hyperparameters.insert(QStringLiteral("lr"), QString::number(0.001 * i));
            stored.trainingOutput->trials.append(trial);
        }
        QVERIFY(store.update(JobStore::defaultProject(), stored, &error));
        for (const QString& id : { QStringLiteral("b1") }) {
            const std::optional<JobRecord> record = store.record(JobStore::defaultProject(), id);
            QVERIFY(record);
            const Job decoded = *store.job(Test::localJob(id));
            QCOMPARE(record->json, QJsonDocument(JobJson::toJson(decoded)).toJson(QJsonDocument::Compact));
            QCOMPARE(decoded.etag, JobStore::computeEtag(decoded));
            QCOMPARE(decoded.labels.value(QStringLiteral("etag")), QStringLiteral("\"etag\":\"x\""));
            QCOMPARE(decoded.errorMessage, job.errorMessage);
            QVERIFY(decoded.trainingOutput);
            QCOMPARE(decoded.trainingOutput->trials.size(), 50);
        }
    }

    /// A tuning job's trials are encoded once and their bytes kept between writes (JobRecordEncoder): after every
    /// kind of change a study makes (a trial added, its reports and outcome, the list re-sorted, a trial gone, two of
    /// one ID) the stored bytes are still exactly the job's JSON encoded whole, its etag that of those bytes, the
    /// text stored as TEXT (json_extract reads it), and a second store reads the same job back.
    void keptTrialBytesAreTheJobsJson()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        Job job = makeJob(QStringLiteral("t1"));
        // Strings that spell the placeholders' escapes, before and inside the trials.
        job.labels.insert(QStringLiteral("trials"), QString::fromUtf8("\x01\x02\x03\x05"));
        job.errorMessage = QStringLiteral("\"trials\":\"\\u0001\\u0002\\u0003\\u0005\"}}");
        QVERIFY2(store.insert(job, &error), qPrintable(error));
        const JobKey key = Test::localJob(QStringLiteral("t1"));

        auto trial = [](int n) {
            HyperparameterOutput t;
            t.trialId = QString::number(n);
            t.hyperparameters.insert(QStringLiteral("lr"), QString::number(0.001 * n));
            t.hyperparameters.insert(QStringLiteral("note"), QStringLiteral("\"trials\":\"\\u0001\"} é\t"));
            t.startTime = QStringLiteral("2026-12-04T10:00:00Z");
            t.state = JobState::Preparing;
            return t;
        };
        auto check = [&](const Job& written) {
            const std::optional<JobRecord> record = store.record(key.project, key.jobId);
            QVERIFY(record);
            const Job decoded = *store.job(key);
            Job expected = written;
            expected.etag = decoded.etag;
            QCOMPARE(decoded, expected);
            QCOMPARE(record->json, QJsonDocument(JobJson::toJson(decoded)).toJson(QJsonDocument::Compact));
            QCOMPARE(decoded.etag, JobStore::computeEtag(decoded));
            JobStore other;
            QVERIFY2(other.open(m_path, &error), qPrintable(error));
            QCOMPARE(*other.job(key), decoded);
        };

        Job stored = *store.job(key);
        stored.trainingOutput.emplace();
        stored.trainingOutput->isHyperparameterTuningJob = true;
        stored.trainingOutput->hyperparameterMetricTag = QStringLiteral("accuracy");
        for (int n = 1; n <= 30; ++n) { // trials added one write at a time
            stored.trainingOutput->trials.append(trial(n));
            QVERIFY2(store.update(key.project, stored, &error), qPrintable(error));
        }
        check(stored);
        if (QTest::currentTestFailed())
            return;
        // Reports and outcomes of some, then the list sorted best first.
        QList<HyperparameterOutput>& trials = stored.trainingOutput->trials;
        for (int i = 0; i < trials.size(); i += 3) {
            trials[i].allMetrics.append(HyperparameterMetric { 10, 0.5 + 0.01 * i });
            trials[i].finalMetric = trials[i].allMetrics.last();
            trials[i].state = JobState::Succeeded;
            trials[i].endTime = QStringLiteral("2026-12-04T10:01:00Z");
        }
        trials[4].isTrialStoppedEarly = true;
        trials[7].builtInAlgorithmOutput = BuiltInAlgorithmOutput { QStringLiteral("XGBoost"), QStringLiteral("2.11"),
            QStringLiteral("3.7"), QStringLiteral("/tmp/job/8/model") };
        QVERIFY2(store.update(key.project, stored, &error), qPrintable(error));
        check(stored);
        if (QTest::currentTestFailed())
            return;
        std::reverse(trials.begin(), trials.end());
        stored.trainingOutput->completedTrialCount = 10;
        QVERIFY2(store.update(key.project, stored, &error), qPrintable(error));
        check(stored);
        if (QTest::currentTestFailed())
            return;
        // A trial gone, one changed back, one with the ID of another.
        trials.removeAt(5);
        trials[0].state = JobState::Running;
        trials.append(trials[2]);
        trials.last().hyperparameters.insert(QStringLiteral("lr"), QStringLiteral("7"));
        QVERIFY2(store.update(key.project, stored, &error), qPrintable(error));
        check(stored);
        if (QTest::currentTestFailed())
            return;
        // The whole output's own fields change, then the trials go.
        stored.trainingOutput->builtInAlgorithmOutput = BuiltInAlgorithmOutput { QStringLiteral("XGBoost"),
            QStringLiteral("2.11"), QStringLiteral("3.7"), QStringLiteral("/tmp/job/model") };
        stored.state = JobState::Succeeded;
        QVERIFY2(store.update(key.project, stored, &error), qPrintable(error));
        check(stored);
        if (QTest::currentTestFailed())
            return;
        trials.clear();
        QVERIFY2(store.update(key.project, stored, &error), qPrintable(error));
        check(stored);
        if (QTest::currentTestFailed())
            return;

        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("keptTrialBytes"));
        {
            db.setDatabaseName(m_path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("SELECT typeof(json), json_extract(json, '$.labels.trials') FROM jobs "
                                              "WHERE job_id = 't1'")));
            QVERIFY(query.next());
            QCOMPARE(query.value(0).toString(), QStringLiteral("text"));
            QCOMPARE(query.value(1).toString(), QString::fromUtf8("\x01\x02\x03\x05"));
        }
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("keptTrialBytes"));
    }

    /// Reads are answered from the last decoded record while its row is unchanged: what a read returns is
    /// what a fresh decode gives (another store opened on the file decodes the same Job), and the store's own
    /// writes are seen.
    void readCacheFollowsTheRow()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY2(store.insert(makeJob(QStringLiteral("c1")), &error), qPrintable(error));
        Job job = *store.job(Test::localJob(QStringLiteral("c1")));
        job.state = JobState::Running;
        QVERIFY(store.update(JobStore::defaultProject(), job, &error));
        const Job cached = *store.job(Test::localJob(QStringLiteral("c1"))); // the record as update() wrote it
        {
            JobStore other;
            QVERIFY2(other.open(m_path, &error), qPrintable(error));
            QCOMPARE(cached, *other.job(Test::localJob(QStringLiteral("c1")))); // a fresh decode gives the same Job
        }
        QCOMPARE(*store.job(JobStore::defaultProject(), QStringLiteral("c1")), cached);

        Job changed = *store.job(Test::localJob(QStringLiteral("c1")));
        changed.labels.insert(QStringLiteral("stage"), QStringLiteral("prod"));
        QVERIFY(store.update(JobStore::defaultProject(), changed, &error));
        const Job seen = *store.job(Test::localJob(QStringLiteral("c1")));
        QCOMPARE(seen.labels.value(QStringLiteral("stage")), QStringLiteral("prod"));
        JobStore other;
        QVERIFY2(other.open(m_path, &error), qPrintable(error));
        QCOMPARE(seen.etag, other.job(Test::localJob(QStringLiteral("c1")))->etag);
    }

    /// What reads found is kept until the next write (the API's GET of a job, its existence check and the list's
    /// pages run no statement while nothing changed), and every write empties it: a job that was not there, a
    /// record and a page read before an insert or an update read as SQLite has them after it, a failed write
    /// included. Checked against a second store on the file, which reads afresh.
    void readsKeptUntilTheNextWrite()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        const QString project = JobStore::defaultProject();
        const std::optional<JobFilter> all = JobFilter::parse(QString(), &error);
        QVERIFY(all);
        auto pageIds = [&](const JobStore& s) -> QString {
            QList<JobRecord> page;
            bool more = false;
            QString listError;
            [&] { QVERIFY2(s.listPage(project, *all, 2, {}, &page, &more, &listError), qPrintable(listError)); }();
            QStringList ids;
            for (const JobRecord& r : page)
                ids << r.jobId + QLatin1Char('@') + QString::fromUtf8(r.json);
            return ids.join(QLatin1Char('|')) + (more ? QStringLiteral("+more") : QString());
        };
        auto fresh = [&] {
            auto other = std::make_unique<JobStore>();
            QString openError;
            [&] { QVERIFY2(other->open(m_path, &openError), qPrintable(openError)); }();
            return other;
        };

        QVERIFY(!store.contains(project, QStringLiteral("k1")));
        QVERIFY(!store.record(project, QStringLiteral("k1")));
        QCOMPARE(pageIds(store), QString());
        QVERIFY2(store.insert(makeJob(QStringLiteral("k1")), &error), qPrintable(error));
        QVERIFY(store.contains(project, QStringLiteral("k1")));
        QVERIFY(store.record(project, QStringLiteral("k1")));
        QCOMPARE(pageIds(store), pageIds(*fresh()));
        QVERIFY(pageIds(store).startsWith(QStringLiteral("k1@")));

        // Read twice (the second from memory), then changed: the record and the page follow.
        const QByteArray before = store.record(project, QStringLiteral("k1"))->json;
        QCOMPARE(store.record(project, QStringLiteral("k1"))->json, before);
        QVERIFY2(store.insert(makeJob(QStringLiteral("k2")), &error), qPrintable(error));
        QVERIFY2(store.insert(makeJob(QStringLiteral("k3")), &error), qPrintable(error));
        QCOMPARE(pageIds(store), pageIds(*fresh()));
        QVERIFY(pageIds(store).endsWith(QStringLiteral("+more")));
        Job job = *store.job(project, QStringLiteral("k3"));
        job.state = JobState::Running;
        QVERIFY(store.update(project, job, &error));
        QVERIFY(store.record(project, QStringLiteral("k3"))->json != store.record(project, QStringLiteral("k1"))->json);
        QCOMPARE(store.record(project, QStringLiteral("k3"))->json, fresh()->record(project, QStringLiteral("k3"))->json);
        QCOMPARE(pageIds(store), pageIds(*fresh()));
        QVERIFY(pageIds(store).contains(QLatin1String("RUNNING")));

        // A write that fails (a duplicate ID) leaves what SQLite has, and the reads say so.
        QVERIFY(!store.insert(makeJob(QStringLiteral("k3")), &error));
        QCOMPARE(store.job(project, QStringLiteral("k3"))->state, JobState::Running);
        QCOMPARE(pageIds(store), pageIds(*fresh()));
    }

    void updateUnknownFails()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QSignalSpy changed(&store, &JobStore::jobChanged);
        QVERIFY(!store.update(JobStore::defaultProject(), makeJob(QStringLiteral("ghost")), &error));
        QVERIFY2(error.contains(QStringLiteral("ghost")), qPrintable(error));
        QCOMPARE(changed.size(), 0);
        QVERIFY(!store.contains(Test::localJob(QStringLiteral("ghost"))));
    }

    void liveJobs_data()
    {
        QTest::addColumn<JobState>("state");
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
        QFETCH(JobState, state);
        QFETCH(bool, live);
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY(store.insert(makeJob(QStringLiteral("first")), &error));
        Job job = makeJob(QStringLiteral("second"));
        QVERIFY(store.insert(job, &error));
        job = *store.job(Test::localJob(QStringLiteral("second")));
        job.state = state;
        QVERIFY(store.update(JobStore::defaultProject(), job, &error));

        QStringList all;
        for (const StoredJob& j : store.jobs())
            all << j.job.jobId;
        QCOMPARE(all, (QStringList { QStringLiteral("first"), QStringLiteral("second") })); // creation order
        QStringList liveIds;
        for (const StoredJob& j : store.liveJobs())
            liveIds << j.job.jobId;
        QCOMPARE(liveIds.contains(QStringLiteral("second")), live);
        QVERIFY(liveIds.contains(QStringLiteral("first")));
    }

    void legacyLayoutIsAdopted()
    {
        // A data folder as executors before project-scoped keys left it: job folders under <dataDir>/jobs/<id>
        // and metric rows keyed by the bare job ID.
        const QString dataDir = m_dir->filePath(QStringLiteral("data"));
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY(store.insert(QStringLiteral("alpha"), makeJob(QStringLiteral("a1")), &error));
        QVERIFY(store.insert(makeJob(QStringLiteral("l1")), &error));
        auto write = [](const QString& path, const QByteArray& bytes) {
            QDir().mkpath(QFileInfo(path).absolutePath());
            QFile file(path);
            return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
        };
        QVERIFY(write(dataDir + QStringLiteral("/jobs/a1/logs/master-replica-0.jsonl"), "{}\n"));
        QVERIFY(write(dataDir + QStringLiteral("/jobs/l1/restarts"), "2"));
        QVERIFY(write(dataDir + QStringLiteral("/jobs/ghost/restarts"), "1"));
        MetricsStore metrics;
        QVERIFY2(metrics.open(dataDir + QStringLiteral("/metrics.sqlite"), &error), qPrintable(error));
        MetricBatch batch;
        batch.job = JobKey { QStringLiteral("alpha"), QStringLiteral("a1") };
        batch.append(batch.seriesIndex(MetricSeriesKey {
                         QStringLiteral("scalar"), QStringLiteral("."), QStringLiteral("loss"), QString(), QString() }),
            1, 100.0, 0.5);
        batch.fileOffsets.push_back({ QStringLiteral("/tmp/events.out"), 42 });
        QVERIFY2(metrics.apply(batch, &error), qPrintable(error));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("legacy-rows"));
            db.setDatabaseName(dataDir + QStringLiteral("/metrics.sqlite"));
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("UPDATE series SET job_id = 'a1'")));
            QVERIFY(q.exec(QStringLiteral("UPDATE event_files SET job_id = 'a1'")));
            q = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("legacy-rows"));
        QCOMPARE(metrics.legacyJobIds(), QStringList { QStringLiteral("a1") });

        QVERIFY2(adoptLegacyLayout(dataDir, store, metrics, &error), qPrintable(error));
        QVERIFY(QFileInfo::exists(dataDir + QStringLiteral("/projects/alpha/jobs/a1/logs/master-replica-0.jsonl")));
        QVERIFY(QFileInfo::exists(dataDir + QStringLiteral("/projects/local/jobs/l1/restarts")));
        QVERIFY(QFileInfo::exists(dataDir + QStringLiteral("/jobs.unclaimed/ghost/restarts")));
        QVERIFY(!QFileInfo::exists(dataDir + QStringLiteral("/jobs")));
        QVERIFY(!QFileInfo::exists(dataDir + QStringLiteral("/jobs.v1-migrating")));
        QVERIFY(metrics.legacyJobIds().isEmpty());
        const JobKey a1 { QStringLiteral("alpha"), QStringLiteral("a1") };
        QCOMPARE(metrics.series(a1).size(), 1);
        QCOMPARE(metrics.series(a1).first().job, a1);
        QCOMPARE(metrics.eventFileOffsets(a1).value(QStringLiteral("/tmp/events.out")), 42);
        // Nothing left to do: a second start changes nothing.
        QVERIFY2(adoptLegacyLayout(dataDir, store, metrics, &error), qPrintable(error));

        // A start that died half way (the old folder already renamed) finishes the move.
        QVERIFY(store.insert(QStringLiteral("beta"), makeJob(QStringLiteral("b1")), &error));
        QVERIFY(write(dataDir + QStringLiteral("/jobs.v1-migrating/b1/restarts"), "1"));
        QVERIFY2(adoptLegacyLayout(dataDir, store, metrics, &error), qPrintable(error));
        QVERIFY(QFileInfo::exists(dataDir + QStringLiteral("/projects/beta/jobs/b1/restarts")));
        QVERIFY(!QFileInfo::exists(dataDir + QStringLiteral("/jobs.v1-migrating")));
    }

    void projectsAreInTheKey()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY2(store.insert(QStringLiteral("alpha"), makeJob(QStringLiteral("p1")), &error), qPrintable(error));
        QVERIFY(store.job(QStringLiteral("alpha"), QStringLiteral("p1")));
        QVERIFY(store.contains(QStringLiteral("alpha"), QStringLiteral("p1")));
        // The wrong project finds nothing, as the service answers NOT_FOUND.
        QVERIFY(!store.job(QStringLiteral("beta"), QStringLiteral("p1")));
        QVERIFY(!store.contains(JobStore::defaultProject(), QStringLiteral("p1")));
        // The same ID in another project is another job (as in the service); twice in one project is refused.
        QVERIFY2(store.insert(QStringLiteral("beta"), makeJob(QStringLiteral("p1")), &error), qPrintable(error));
        QVERIFY(!store.insert(QStringLiteral("beta"), makeJob(QStringLiteral("p1")), &error));
        QVERIFY2(error.contains(QStringLiteral("already exists")), qPrintable(error));
        // update() changes the job of its project only.
        Job job = *store.job(QStringLiteral("alpha"), QStringLiteral("p1"));
        job.state = JobState::Running;
        QVERIFY2(store.update(QStringLiteral("alpha"), job, &error), qPrintable(error));
        QCOMPARE(store.job(QStringLiteral("alpha"), QStringLiteral("p1"))->state, JobState::Running);
        QCOMPARE(store.job(QStringLiteral("beta"), QStringLiteral("p1"))->state, JobState::Queued);
        QCOMPARE(store.transitions(QStringLiteral("alpha"), QStringLiteral("p1")).size(), 2);
        QCOMPARE(store.transitions(QStringLiteral("beta"), QStringLiteral("p1")).size(), 1);
        QVERIFY(!store.update(JobStore::defaultProject(), job, &error));
        QCOMPARE(store.jobs().size(), 2);
    }

    void migratesSchema1()
    {
        // A schema 1 file as the previous JobStore wrote it (the statements are its own).
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
            QVERIFY(QDir().mkpath(QFileInfo(m_path).absolutePath()));
            db.setDatabaseName(m_path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            const QStringList statements = {
                QStringLiteral("PRAGMA journal_mode=WAL"),
                QStringLiteral("CREATE TABLE jobs (job_id TEXT PRIMARY KEY NOT NULL, json TEXT NOT NULL, "
                               "state TEXT NOT NULL, create_time TEXT NOT NULL, seq INTEGER NOT NULL UNIQUE)"),
                QStringLiteral("CREATE TABLE transitions (job_id TEXT NOT NULL REFERENCES jobs(job_id), "
                               "state TEXT NOT NULL, time TEXT NOT NULL)"),
                QStringLiteral("CREATE INDEX transitions_job ON transitions(job_id)"),
                QStringLiteral("CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT)"),
                QStringLiteral("INSERT INTO meta VALUES ('schemaVersion', '1')"),
            };
            for (const QString& statement : statements)
                QVERIFY2(query.exec(statement), qPrintable(query.lastError().text()));
            int seq = 0;
            for (const QString& id : { QStringLiteral("old_a"), QStringLiteral("old_b") }) {
                Job job = makeJob(id);
                job.state = JobState::Succeeded;
                job.createTime = QStringLiteral("2026-01-0%1T00:00:00.000Z").arg(++seq);
                job.etag = JobStore::computeEtag(job);
                query.prepare(QStringLiteral("INSERT INTO jobs VALUES (?, ?, ?, ?, ?)"));
                query.addBindValue(id);
                query.addBindValue(
                    QString::fromUtf8(QJsonDocument(JobJson::toJson(job)).toJson(QJsonDocument::Compact)));
                query.addBindValue(jobStateName(job.state));
                query.addBindValue(job.createTime);
                query.addBindValue(seq);
                QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
                for (const JobState state : { JobState::Queued, JobState::Succeeded }) {
                    query.prepare(QStringLiteral("INSERT INTO transitions VALUES (?, ?, ?)"));
                    query.addBindValue(id);
                    query.addBindValue(jobStateName(state));
                    query.addBindValue(job.createTime);
                    QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
                }
            }
            query = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v1"));

        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        // Existing jobs are in the project every client has used so far.
        QVERIFY(store.job(JobStore::defaultProject(), QStringLiteral("old_a")));
        QCOMPARE(store.job(JobStore::defaultProject(), QStringLiteral("old_b"))->state, JobState::Succeeded);
        QCOMPARE(store.transitions(Test::localJob(QStringLiteral("old_b"))).size(), 2);
        QCOMPARE(store.jobs().size(), 2);
        // Revisions follow creation order, and new writes go on from there.
        const QList<JobRecord> records = store.changedSince(JobStore::defaultProject(), 0);
        QCOMPARE(records.size(), 2);
        QCOMPARE(records.first().jobId, QStringLiteral("old_a"));
        QCOMPARE(store.revision(), 2);
        QVERIFY2(store.insert(makeJob(QStringLiteral("new_c")), &error), qPrintable(error));
        QCOMPARE(store.revision(), 3);
    }

    void migratesSchema3()
    {
        // A schema 3 file as the previous JobStore wrote it (its own statements): no creator column.
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v3"));
            QVERIFY(QDir().mkpath(QFileInfo(m_path).absolutePath()));
            db.setDatabaseName(m_path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            const QStringList statements = {
                QStringLiteral("PRAGMA journal_mode=WAL"),
                QStringLiteral("CREATE TABLE jobs (project TEXT NOT NULL, job_id TEXT NOT NULL, "
                               "json TEXT NOT NULL, state TEXT NOT NULL, create_time TEXT NOT NULL, "
                               "seq INTEGER NOT NULL UNIQUE, revision INTEGER NOT NULL UNIQUE, "
                               "PRIMARY KEY (project, job_id))"),
                QStringLiteral("CREATE TABLE transitions (project TEXT NOT NULL, job_id TEXT NOT NULL, "
                               "state TEXT NOT NULL, time TEXT NOT NULL, "
                               "FOREIGN KEY (project, job_id) REFERENCES jobs(project, job_id))"),
                QStringLiteral("CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT)"),
                QStringLiteral("INSERT INTO meta VALUES ('schemaVersion', '3')"),
                QStringLiteral("INSERT INTO meta VALUES ('storeId', 'store-v3')"),
            };
            for (const QString& statement : statements)
                QVERIFY2(query.exec(statement), qPrintable(query.lastError().text()));
            Job job = makeJob(QStringLiteral("old_a"));
            job.createTime = QStringLiteral("2026-01-01T00:00:00.000Z");
            job.etag = JobStore::computeEtag(job);
            query.prepare(QStringLiteral("INSERT INTO jobs VALUES ('local', 'old_a', ?, 'QUEUED', ?, 1, 1)"));
            query.addBindValue(QString::fromUtf8(QJsonDocument(JobJson::toJson(job)).toJson(QJsonDocument::Compact)));
            query.addBindValue(job.createTime);
            QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
            query = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v3"));

        QString error;
        {
            JobStore store;
            QVERIFY2(store.open(m_path, &error), qPrintable(error));
            QCOMPARE(store.storeId(), QStringLiteral("store-v3"));
            // The job is kept, with no recorded creator; new jobs keep theirs.
            QVERIFY(store.job(JobStore::defaultProject(), QStringLiteral("old_a")));
            QCOMPARE(store.creator(JobStore::defaultProject(), QStringLiteral("old_a")), QString());
            QVERIFY2(store.insert(JobStore::defaultProject(), makeJob(QStringLiteral("new_b")), &error,
                         QStringLiteral("user:alice@example.org")),
                qPrintable(error));
            QCOMPARE(store.creator(JobStore::defaultProject(), QStringLiteral("new_b")),
                QStringLiteral("user:alice@example.org"));
            QCOMPARE(store.creator(QStringLiteral("other"), QStringLiteral("new_b")), QString());
            // The creator is not part of the job's JSON (the service's Job has no such field).
            QVERIFY(!store.changedSince(JobStore::defaultProject(), 1).first().json.contains("alice"));
            // An update keeps it.
            Job changed = *store.job(JobStore::defaultProject(), QStringLiteral("new_b"));
            changed.state = JobState::Running;
            QVERIFY(store.update(JobStore::defaultProject(), changed, &error));
            QCOMPARE(store.creator(JobStore::defaultProject(), QStringLiteral("new_b")),
                QStringLiteral("user:alice@example.org"));
        }
        // Reopened (now schema 4): nothing changes, the version says 4.
        JobStore store;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QCOMPARE(store.creator(JobStore::defaultProject(), QStringLiteral("new_b")),
            QStringLiteral("user:alice@example.org"));
        QCOMPARE(store.jobs().size(), 2);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v4"));
            db.setDatabaseName(m_path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schemaVersion'")) && query.next());
            QCOMPARE(query.value(0).toString(), QStringLiteral("4"));
            query = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v4"));
    }

    void refusesNewerSchema()
    {
        {
            JobStore store;
            QString error;
            QVERIFY2(store.open(m_path, &error), qPrintable(error));
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("newer"));
            db.setDatabaseName(m_path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("UPDATE meta SET value = '99' WHERE key = 'schemaVersion'")));
            query = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("newer"));
        JobStore store;
        QString error;
        QVERIFY(!store.open(m_path, &error));
        QVERIFY2(error.contains(QStringLiteral("newer")), qPrintable(error));
    }

    void listPage_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addRow("all") << QString();
        QTest::addRow("state") << QStringLiteral("state:FAILED");
        QTest::addRow("state prefix") << QStringLiteral("state:SUCC*");
        QTest::addRow("not state") << QStringLiteral("state!=FAILED");
        QTest::addRow("jobId prefix") << QStringLiteral("jobId:run_1*");
        QTest::addRow("jobId exact") << QStringLiteral("jobId=run_17");
        QTest::addRow("jobId with wildcard characters") << QStringLiteral("jobId:run_%*");
        QTest::addRow("label") << QStringLiteral("labels.team=vision");
        QTest::addRow("label prefix") << QStringLiteral("labels.owner:al*");
        QTest::addRow("has label") << QStringLiteral("labels.owner:*");
        QTest::addRow("label not equal") << QStringLiteral("labels.owner!=alice");
        QTest::addRow("dashed label key") << QStringLiteral("labels.cost-center=r-d");
        QTest::addRow("time (decoded)") << QStringLiteral("createTime>=\"2026-01-01T00:00:20Z\"");
        QTest::addRow("mixed") << QStringLiteral(
            "state:FAILED AND labels.owner:* AND createTime<\"2026-01-01T00:00:40Z\"");
        QTest::addRow("nothing") << QStringLiteral("labels.owner=nobody");
    }

    void listPage()
    {
        // 50 jobs in two projects; every page of every filter equals JobFilter::matches over all jobs.
        QFETCH(QString, filter);
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QList<Job> mine;
        for (int i = 0; i < 50; ++i) {
            Job job = makeJob(QStringLiteral("run_%1").arg(i));
            job.createTime = QStringLiteral("2026-01-01T00:00:%1.000Z").arg(i, 2, 10, QLatin1Char('0'));
            job.state = i % 3 == 0 ? JobState::Failed : JobState::Succeeded;
            if (i % 4 == 0)
                job.labels.insert(
                    QStringLiteral("owner"), i % 8 == 0 ? QStringLiteral("alice") : QStringLiteral("bob"));
            if (i % 5 == 0)
                job.labels.insert(QStringLiteral("cost-center"), QStringLiteral("r-d"));
            const QString project = i % 2 ? QStringLiteral("other") : JobStore::defaultProject();
            QVERIFY2(store.insert(project, job, &error), qPrintable(error));
            if (project == JobStore::defaultProject())
                mine.prepend(*store.job(Test::localJob(job.jobId))); // newest first
        }
        const std::optional<JobFilter> parsed = JobFilter::parse(filter, &error);
        QVERIFY2(parsed, qPrintable(error));
        QStringList expected;
        for (const Job& job : std::as_const(mine)) {
            if (parsed->matches(job))
                expected << job.jobId;
        }
        QStringList paged;
        QString after;
        int pages = 0;
        while (true) {
            QList<JobRecord> page;
            bool more = false;
            QVERIFY2(
                store.listPage(JobStore::defaultProject(), *parsed, 4, after, &page, &more, &error), qPrintable(error));
            QVERIFY(page.size() <= 4);
            for (const JobRecord& record : std::as_const(page)) {
                paged << record.jobId;
                QCOMPARE(record.project, JobStore::defaultProject());
                // The record is the job's API JSON.
                QCOMPARE(QJsonDocument::fromJson(record.json).object(),
                    JobJson::toJson(*store.job(Test::localJob(record.jobId))));
            }
            ++pages;
            if (!more)
                break;
            QVERIFY(!page.isEmpty());
            after = page.last().jobId;
            QVERIFY(pages < 30);
        }
        QCOMPARE(paged, expected);
        QCOMPARE(pages, std::max<int>(1, (expected.size() + 3) / 4));

        // Decoding happens only for terms SQL cannot answer (the times).
        const qint64 before = JobStore::decodeCount();
        QList<JobRecord> page;
        bool more = false;
        QVERIFY(store.listPage(JobStore::defaultProject(), *parsed, 4, {}, &page, &more, &error));
        if (!filter.contains(QStringLiteral("Time")))
            QCOMPARE(JobStore::decodeCount(), before);

        // A page token of another project (or no job) is refused.
        QVERIFY(!store.listPage(JobStore::defaultProject(), *parsed, 4, QStringLiteral("run_1"), &page, &more, &error));
    }

    void changeFeed()
    {
        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY(!store.storeId().isEmpty());
        QSignalSpy stored(&store, &JobStore::jobStored);
        QVERIFY(store.insert(makeJob(QStringLiteral("f1")), &error));
        QVERIFY(store.insert(QStringLiteral("elsewhere"), makeJob(QStringLiteral("f2")), &error));
        QVERIFY(store.insert(makeJob(QStringLiteral("f3")), &error));
        QCOMPARE(stored.size(), 3);
        const qint64 mark = store.revision();
        QCOMPARE(mark, 3);

        Job job = *store.job(Test::localJob(QStringLiteral("f1")));
        job.state = JobState::Running;
        QVERIFY(store.update(JobStore::defaultProject(), job, &error));
        QCOMPARE(stored.size(), 4);
        const JobRecord record = stored.last().at(0).value<JobRecord>();
        QCOMPARE(record.project, JobStore::defaultProject());
        QCOMPARE(record.revision, 4);
        QCOMPARE(stored.last().at(1).value<Job>().state, JobState::Running);

        // Since the mark: only f1, which changed; everything: f3 then f1 (the order of their last writes).
        QList<JobRecord> since = store.changedSince(JobStore::defaultProject(), mark);
        QCOMPARE(since.size(), 1);
        QCOMPARE(since.first().jobId, QStringLiteral("f1"));
        QCOMPARE(since.first().json, record.json);
        const QList<JobRecord> all = store.changedSince(JobStore::defaultProject(), 0);
        QCOMPARE(all.size(), 2);
        QCOMPARE(all.at(0).jobId, QStringLiteral("f3"));
        QCOMPARE(all.at(1).jobId, QStringLiteral("f1"));
        QCOMPARE(store.changedSince(QStringLiteral("elsewhere"), 0).size(), 1);
    }

    /// OutcomeJournal: a job's end kept in a file reads back, anything else in the file is no outcome, and record()
    /// stores it on the job as the scheduler's finish() would.
    void outcomeJournal()
    {
        const QString file = m_dir->filePath(QStringLiteral("projects/p/jobs/census_1/outcome.json"));
        QVERIFY(!OutcomeJournal::read(file));
        const JobOutcome failed { JobState::Failed, QStringLiteral("The replica master-replica-0 exited with 1."),
            QStringLiteral("2026-11-28T10:00:00.000Z") };
        QVERIFY(OutcomeJournal::write(file, failed)); // makes the job's folder
        QCOMPARE(OutcomeJournal::read(file), std::optional<JobOutcome>(failed));
        QVERIFY(!QFile::exists(file + QStringLiteral(".tmp")));

        QVERIFY(OutcomeJournal::write(file, JobOutcome { JobState::Running, {}, {} }));
        QVERIFY(!OutcomeJournal::read(file)); // not a final state
        QFile garbage(file);
        QVERIFY(garbage.open(QIODevice::WriteOnly | QIODevice::Truncate));
        garbage.write("{\"state\":");
        garbage.close();
        QVERIFY(!OutcomeJournal::read(file));

        JobStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        Job job = makeJob(QStringLiteral("census_1"));
        job.state = JobState::Running;
        job.errorMessage = QStringLiteral("kept by a cancel without a message");
        QVERIFY2(store.insert(job, &error), qPrintable(error));
        const JobKey key = Test::localJob(QStringLiteral("census_1"));
        QVERIFY2(OutcomeJournal::record(store, key, failed, &error), qPrintable(error));
        std::optional<Job> stored = store.job(key);
        QVERIFY(stored);
        QCOMPARE(stored->state, JobState::Failed);
        QCOMPARE(stored->endTime, failed.endTime);
        QCOMPARE(stored->errorMessage, failed.errorMessage);
        QVERIFY(OutcomeJournal::record(
            store, key, JobOutcome { JobState::Cancelled, {}, QStringLiteral("2026-11-28T10:00:01.000Z") }, &error));
        QCOMPARE(store.job(key)->errorMessage, failed.errorMessage); // a cancel without a message keeps the old one
        // A job that is gone: nothing to record it on, and nothing fails.
        QVERIFY(OutcomeJournal::record(store, Test::localJob(QStringLiteral("gone")), failed, &error));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

QTEST_GUILESS_MAIN(TestJobStore)
#include "tst_jobstore.moc"
