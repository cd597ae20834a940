// SPDX-License-Identifier: GPL-2.0-or-later
// Scheduler + JobStore + LogStore in process (no HTTP), with the real test trainers of
// tests/integration/trainers staged by pip: the replica contract, success, permanent and retryable
// failures, cancel (no process left), queueing, recovery after a restart, staging failure, time limits.
#include "executorenvironment.h"
#include "jobkeys.h"
#include "jobstore.h"
#include "logstore.h"
#include "nodecapacity.h"
#include "processgroup.h"
#include "scheduler.h"
#include "statenames.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Trainyard;

namespace {

const QString TrainerDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");
const QString BrokenDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/broken");
constexpr int JobTimeoutMs = 90000;

/// True while `pid` exists and is not a zombie.
bool alive(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close < 0 || text.mid(close + 2, 1) != "Z";
}

} // namespace

class TestScheduler : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_dataDir;
    std::unique_ptr<JobStore> m_store;
    std::unique_ptr<LogStore> m_logs;
    std::unique_ptr<Scheduler> m_scheduler;

    void startScheduler(const HostInventory& host)
    {
        m_scheduler = std::make_unique<Scheduler>(m_store.get(), m_logs.get(), host, m_dataDir);
        m_scheduler->setGracePeriodSeconds(3);
    }

    QString jobDir(const QString& id) const { return m_tmp.path() + QStringLiteral("/jobdirs/") + id; }

    Job makeJob(const QString& id, const QString& module, int workers = 0, int ps = 0, int evaluators = 0) const
    {
        Job job = Test::customJob(id, module, workers, ps, evaluators);
        TrainingInput& in = job.trainingInput;
        in.packageUris = QStringList { TrainerDir };
        in.runtimeVersion = QStringLiteral("2.11");
        in.pythonVersion = QStringLiteral("3.7");
        in.jobDir = jobDir(id);
        return job;
    }

    void submit(const Job& job)
    {
        QString error;
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        m_scheduler->submit(JobStore::defaultProject(), *m_store->job(Test::localJob(job.jobId)));
    }

    JobState state(const QString& id) const
    {
        const std::optional<Job> job = m_store->job(Test::localJob(id));
        return job ? job->state : JobState::StateUnspecified;
    }

    QStringList messages(const QString& id, const QString& task) const
    {
        QStringList list;
        for (const LogEntry& e : m_logs->read(Test::localJob(id), task, QString(), 0, 100000))
            list << e.message;
        return list;
    }

    /// The CONTRACT line a replica printed, parsed.
    QJsonObject contract(const QString& id, const QString& task) const
    {
        for (const QString& m : messages(id, task)) {
            if (m.startsWith(QLatin1String("CONTRACT ")))
                return QJsonDocument::fromJson(m.mid(9).toUtf8()).object();
        }
        return {};
    }

    /// Pids a sleeper replica recorded: {replica, its child}.
    QList<qint64> sleeperPids(const QString& id, const QString& task) const
    {
        QFile f(jobDir(id) + QStringLiteral("/pids/") + task);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QList<qint64> pids;
        for (const QByteArray& p : f.readAll().trimmed().split(' '))
            pids << p.toLongLong();
        return pids;
    }

    ReplicaInfo replica(const QString& id, const QString& task) const
    {
        for (const ReplicaInfo& r : m_scheduler->replicas(Test::localJob(id))) {
            if (r.taskName == task)
                return r;
        }
        return {};
    }

    /// Makes the job database refuse writes, as a full disk does (SQLite's query_only on the store's
    /// connection, which lives on this thread), or take them again.
    void setStoreWritable(bool writable) const
    {
        for (const QString& name : QSqlDatabase::connectionNames()) {
            if (!name.startsWith(QLatin1String("trainyard-jobstore-")))
                continue;
            QSqlQuery query(QSqlDatabase::database(name));
            QVERIFY(query.exec(
                writable ? QStringLiteral("PRAGMA query_only = OFF") : QStringLiteral("PRAGMA query_only = ON")));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_tmp.path() + QStringLiteral("/run")));
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_tmp.path() + QStringLiteral("/data")));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_tmp.path() + QStringLiteral("/config")));
        m_dataDir = m_tmp.path() + QStringLiteral("/data/trainyard");
        QVERIFY(QDir().mkpath(m_dataDir));
        m_store = std::make_unique<JobStore>();
        QString error;
        QVERIFY2(m_store->open(m_dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        m_logs = std::make_unique<LogStore>(m_dataDir);
    }

    void init() { startScheduler(Test::bigHost()); }

    void cleanup()
    {
        if (m_scheduler) {
            // Nothing of a test may survive it.
            for (const StoredJob& stored : m_store->liveJobs())
                m_scheduler->cancel(stored.key());
            QTRY_VERIFY_WITH_TIMEOUT(m_store->liveJobs().isEmpty(), 30000);
        }
        m_scheduler.reset();
    }

    void cleanupTestCase()
    {
        m_scheduler.reset();
        m_logs.reset();
        m_store.reset();
    }

    void contract_data()
    {
        QTest::addColumn<bool>("useChief");
        QTest::addRow("master") << false;
        QTest::addRow("chief") << true;
    }
    void contract()
    {
        QFETCH(bool, useChief);
        const QString id = useChief ? QStringLiteral("contract_chief") : QStringLiteral("contract_master");
        Job job = makeJob(id, QStringLiteral("tytest.ok"), 2, 1, 1);
        job.trainingInput.args = QStringList { QStringLiteral("--epochs"), QStringLiteral("2") };
        if (useChief)
            job.trainingInput.useChiefInTfConfig = true;
        submit(job);
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Succeeded, JobTimeoutMs);

        const QStringList tasks { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0"),
            QStringLiteral("worker-replica-1"), QStringLiteral("ps-replica-0"), QStringLiteral("evaluator-replica-0") };
        const QString masterKey = useChief ? QStringLiteral("chief") : QStringLiteral("master");
        QSet<QString> metricFiles;
        QString masterAddress;
        for (const QString& task : tasks) {
            const QJsonObject c = contract(id, task);
            QVERIFY2(!c.isEmpty(), qPrintable(task));
            const QJsonObject env = c.value(QLatin1String("env")).toObject();
            const QJsonArray argv = c.value(QLatin1String("argv")).toArray();
            QCOMPARE(argv,
                (QJsonArray {
                    QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--job-dir"), jobDir(id) }));
            const QJsonObject tf
                = QJsonDocument::fromJson(env.value(QLatin1String("TF_CONFIG")).toString().toUtf8()).object();
            QCOMPARE(
                env.value(QLatin1String("CLUSTER_SPEC")).toString(), env.value(QLatin1String("TF_CONFIG")).toString());
            QCOMPARE(tf.value(QLatin1String("environment")).toString(), QStringLiteral("cloud"));
            QCOMPARE(tf.value(QLatin1String("job")).toObject().value(QLatin1String("pythonModule")).toString(),
                QStringLiteral("tytest.ok"));
            const QJsonObject cluster = tf.value(QLatin1String("cluster")).toObject();
            const QStringList keys = cluster.keys();
            QCOMPARE(QSet<QString>(keys.begin(), keys.end()),
                (QSet<QString> { masterKey, QStringLiteral("worker"), QStringLiteral("ps") }));
            QCOMPARE(cluster.value(masterKey).toArray().size(), 1);
            QCOMPARE(cluster.value(QLatin1String("worker")).toArray().size(), 2);
            QCOMPARE(cluster.value(QLatin1String("ps")).toArray().size(), 1);
            QSet<QString> addresses;
            for (const QString& key : cluster.keys()) {
                for (const QJsonValue& a : cluster.value(key).toArray()) {
                    QVERIFY(a.toString().startsWith(QLatin1String("127.0.0.1:")));
                    addresses.insert(a.toString());
                }
            }
            QCOMPARE(addresses.size(), 4); // every replica its own port
            masterAddress = cluster.value(masterKey).toArray().at(0).toString();

            const QJsonObject t = tf.value(QLatin1String("task")).toObject();
            const QString role = task.section(QLatin1Char('-'), 0, 0);
            const int index = task.section(QLatin1Char('-'), 2, 2).toInt();
            QCOMPARE(t.value(QLatin1String("type")).toString(), role == QLatin1String("master") ? masterKey : role);
            QCOMPARE(t.value(QLatin1String("index")).toInt(), index);
            QVERIFY(!t.value(QLatin1String("cloud")).toString().isEmpty());
            QVERIFY(!t.contains(QLatin1String("trial")));

            QCOMPARE(env.value(QLatin1String("MASTER_ADDR")).toString(), QStringLiteral("127.0.0.1"));
            QCOMPARE(QStringLiteral("127.0.0.1:") + env.value(QLatin1String("MASTER_PORT")).toString(), masterAddress);
            QCOMPARE(env.value(QLatin1String("WORLD_SIZE")).toString(), QStringLiteral("3"));
            if (role == QLatin1String("master"))
                QCOMPARE(env.value(QLatin1String("RANK")).toString(), QStringLiteral("0"));
            else if (role == QLatin1String("worker"))
                QCOMPARE(env.value(QLatin1String("RANK")).toString(), QString::number(index + 1));
            else
                QVERIFY(env.value(QLatin1String("RANK")).isNull());
            QCOMPARE(env.value(QLatin1String("CLOUD_ML_JOB_ID")).toString(), id);
            QVERIFY(env.value(QLatin1String("CLOUD_ML_TRIAL_ID")).isNull());
            const QString metrics = env.value(QLatin1String("CLOUD_ML_HP_METRIC_FILE")).toString();
            QVERIFY2(metrics.endsWith(task + QStringLiteral("/hypertune/output.metrics")), qPrintable(metrics));
            metricFiles.insert(metrics);
            QCOMPARE(env.value(QLatin1String("CUDA_VISIBLE_DEVICES")).toString(QStringLiteral("<unset>")), QString());
            QCOMPARE(env.value(QLatin1String("OMP_NUM_THREADS")).toString(), QStringLiteral("4"));
            QCOMPARE(env.value(QLatin1String("PYTHONUNBUFFERED")).toString(), QStringLiteral("1"));
            QVERIFY(env.value(QLatin1String("PYTHONPATH"))
                        .toString()
                        .startsWith(Test::localJob(id).folder(m_dataDir) + QStringLiteral("/staging")));
        }
        QCOMPARE(metricFiles.size(), tasks.size());

        // Python logging's prefix gives the severity, and leaves the message.
        bool warned = false;
        for (const LogEntry& e :
            m_logs->read(Test::localJob(id), QStringLiteral("worker-replica-1"), QStringLiteral("WARNING")))
            warned
                |= e.message == QLatin1String("a warning from worker-replica-1") && e.stream == QLatin1String("stderr");
        QVERIFY(warned);

        const QStringList service = messages(id, QStringLiteral("service"));
        const QStringList expected { QStringLiteral("Validating job requirements..."),
            QStringLiteral("Job creation request has been successfully validated."),
            QStringLiteral("Job %1 is queued.").arg(id), QStringLiteral("Waiting for job to be provisioned."),
            QStringLiteral("Job is preparing."), QStringLiteral("Job is running."),
            QStringLiteral("Job completed successfully.") };
        qsizetype at = 0;
        for (const QString& line : expected) {
            at = service.indexOf(line, at);
            QVERIFY2(at >= 0, qPrintable(line));
        }
        const Job done = *m_store->job(Test::localJob(id));
        QVERIFY(!done.startTime.isEmpty());
        QVERIFY(!done.endTime.isEmpty());
        QVERIFY(done.errorMessage.isEmpty());
        QList<JobState> states;
        for (const auto& t : m_store->transitions(Test::localJob(id)))
            states << t.first;
        QCOMPARE(states.mid(states.size() - 3),
            (QList<JobState> { JobState::Preparing, JobState::Running, JobState::Succeeded }));
        QCOMPARE(replica(id, QStringLiteral("master-replica-0")).exitCode, std::optional<int>(0));
        QCOMPARE(replica(id, QStringLiteral("master-replica-0")).state, ReplicaState::Succeeded);
    }

    void permanentFailure()
    {
        const QString id = QStringLiteral("permanent_failure");
        submit(makeJob(id, QStringLiteral("tytest.fail_exit3"), 2));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Failed, JobTimeoutMs);
        const Job job = *m_store->job(Test::localJob(id));
        QVERIFY2(job.errorMessage.startsWith(QLatin1String("The replica worker 1 exited with a non-zero status of 3.")),
            qPrintable(job.errorMessage));
        QVERIFY2(
            job.errorMessage.contains(QLatin1String("ValueError: bad input shard 7")), qPrintable(job.errorMessage));
        const ReplicaInfo failed = replica(id, QStringLiteral("worker-replica-1"));
        QCOMPARE(failed.state, ReplicaState::Failed);
        QCOMPARE(failed.exitCode, std::optional<int>(3));
        QCOMPARE(replica(id, QStringLiteral("master-replica-0")).state, ReplicaState::Stopped);
        QCOMPARE(replica(id, QStringLiteral("master-replica-0")).restarts, 0);
        QVERIFY(messages(id, QStringLiteral("service")).contains(QStringLiteral("Job failed.")));
    }

    void endIsStoredOnceTheStoreTakesWritesAgain()
    {
        // The job ends while the job database refuses writes: its end must not be lost or taken for "still running".
        const QString id = QStringLiteral("end_unstored");
        const Job job = makeJob(id, QStringLiteral("tytest.fail_exit3"), 2);
        QString error;
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        setStoreWritable(false);
        m_scheduler->submit(JobStore::defaultProject(), *m_store->job(Test::localJob(id)));
        const QString outcome = Test::localJob(id).folder(m_dataDir) + QStringLiteral("/outcome.json");
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(outcome), JobTimeoutMs);
        QVERIFY(!isFinal(state(id))); // the store did not take it
        QFile file(outcome);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("state")).toString(),
            QStringLiteral("FAILED"));
        setStoreWritable(true);
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Failed, 10000);
        QVERIFY(
            m_store->job(Test::localJob(id))
                ->errorMessage.startsWith(QLatin1String("The replica worker 1 exited with a non-zero status of 3.")));
        QTRY_VERIFY(!QFile::exists(outcome));
        QVERIFY(messages(id, QStringLiteral("service"))
                    .contains(QStringLiteral("The end of the job (FAILED) is stored now.")));
    }

    void recoveryDoesNotRunAnEndedJobAgain()
    {
        // A job stored as RUNNING whose end an earlier executor kept on disk only (it stopped before the store
        // took it): recovery stores that end instead of restarting the job.
        const QString id = QStringLiteral("ended_unrecorded");
        Job job = makeJob(id, QStringLiteral("tytest.sleeper"));
        QString error;
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        job = *m_store->job(Test::localJob(id));
        job.state = JobState::Running;
        QVERIFY2(m_store->update(JobStore::defaultProject(), job, &error), qPrintable(error));
        const QString folder = Test::localJob(id).folder(m_dataDir);
        QVERIFY(QDir().mkpath(folder));
        QFile file(folder + QStringLiteral("/outcome.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"state":"SUCCEEDED","errorMessage":"","endTime":"2026-11-24T06:00:00.000Z"})");
        file.close();

        m_scheduler->recover();
        QTRY_COMPARE(state(id), JobState::Succeeded);
        QCOMPARE(m_store->job(Test::localJob(id))->endTime, QStringLiteral("2026-11-24T06:00:00.000Z"));
        QVERIFY(!QFile::exists(folder + QStringLiteral("/outcome.json")));
        QVERIFY(!QFile::exists(folder + QStringLiteral("/restarts"))); // not restarted
        QVERIFY(m_scheduler->replicas(Test::localJob(id)).isEmpty());
        QVERIFY(!QFile::exists(jobDir(id) + QStringLiteral("/pids/master-replica-0")));
    }

    void retryableFailure()
    {
        const QString id = QStringLiteral("retryable_failure");
        submit(makeJob(id, QStringLiteral("tytest.crash_once"), 2));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Succeeded, JobTimeoutMs);
        QVERIFY(QFile::exists(jobDir(id) + QStringLiteral("/crashed-once")));
        const QStringList service = messages(id, QStringLiteral("service"));
        QVERIFY(service.contains(QStringLiteral("The replica worker 0 was killed by signal 9 (SIGKILL).")));
        QVERIFY(service.contains(QStringLiteral("Restarting the cluster (restart 1 of 3).")));
        QCOMPARE(replica(id, QStringLiteral("worker-replica-0")).restarts, 1);
        QCOMPARE(replica(id, QStringLiteral("master-replica-0")).exitCode, std::optional<int>(0));
        // The same job dir across the restart: both runs printed to the same worker log.
        QCOMPARE(messages(id, QStringLiteral("worker-replica-0")).count(QStringLiteral("replica worker 0 up")), 2);
    }

    void cancel()
    {
        const QString id = QStringLiteral("cancel_me");
        submit(makeJob(id, QStringLiteral("tytest.sleeper"), 1));
        QTRY_COMPARE_WITH_TIMEOUT(sleeperPids(id, QStringLiteral("worker-replica-0")).size(), 2, JobTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(sleeperPids(id, QStringLiteral("master-replica-0")).size(), 2, JobTimeoutMs);
        QTRY_COMPARE(state(id), JobState::Running);
        const QList<qint64> pids
            = sleeperPids(id, QStringLiteral("master-replica-0")) + sleeperPids(id, QStringLiteral("worker-replica-0"));
        for (qint64 pid : pids)
            QVERIFY(alive(pid));
        QCOMPARE(replica(id, QStringLiteral("master-replica-0")).pid, pids[0]);
        QVERIFY(m_scheduler->cancel(Test::localJob(id)));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Cancelled, 30000);
        for (qint64 pid : pids)
            QTRY_VERIFY2(!alive(pid), qPrintable(QString::number(pid)));
        QList<JobState> states;
        for (const auto& t : m_store->transitions(Test::localJob(id)))
            states << t.first;
        QCOMPARE(states.mid(states.size() - 2), (QList<JobState> { JobState::Cancelling, JobState::Cancelled }));
        QVERIFY(!m_store->job(Test::localJob(id))->endTime.isEmpty());
        // The service says why a job ended: a cancelled job's errorMessage names the cancel.
        QCOMPARE(m_store->job(Test::localJob(id))->errorMessage,
            QStringLiteral("Job was cancelled by a request to cancel it (projects.jobs.cancel)."));
        QVERIFY(!m_scheduler->cancel(Test::localJob(id))); // final
        QVERIFY(!m_scheduler->cancel(Test::localJob(QStringLiteral("no_such_job"))));
        QCOMPARE(m_scheduler->usage().vcpusInUse, 0);
    }

    /// A job is final only when none of its processes is left: not the replicas, not a grandchild that left
    /// their process groups and ignores SIGTERM (issue 12: a replica of a job already shown SUCCEEDED or
    /// FAILED was seen alive 2 s later). Checked at the very moment the store records the final state.
    void finalOnlyWhenNothingIsLeft_data()
    {
        QTest::addColumn<bool>("cancel");
        QTest::addRow("master succeeds") << false;
        QTest::addRow("cancelled, SIGTERM ignored") << true;
    }

    void finalOnlyWhenNothingIsLeft()
    {
        QFETCH(bool, cancel);
        const QString id = cancel ? QStringLiteral("stubborn_cancel") : QStringLiteral("stubborn_success");
        const QString folder = Test::localJob(id).folder(m_dataDir);
        QList<qint64> leftAtFinal { -1 };
        connect(m_store.get(), &JobStore::jobChanged, this, [&](const QString&, const Job& job) {
            if (job.jobId == id && isFinal(job.state) && leftAtFinal == QList<qint64> { -1 })
                leftAtFinal = jobProcesses(folder);
        });
        Job job = makeJob(id, QStringLiteral("tytest.stubborn"), 1);
        if (!cancel)
            job.trainingInput.args = { QStringLiteral("--exit") };
        submit(job);
        const QString stubbornFile = jobDir(id) + QStringLiteral("/master-replica-0.stubborn");
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(stubbornFile), JobTimeoutMs);
        QFile f(stubbornFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const qint64 stubborn = f.readAll().trimmed().toLongLong();
        QVERIFY(stubborn > 0);
        if (cancel) {
            QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Running, JobTimeoutMs);
            QVERIFY(alive(stubborn));
            QVERIFY(m_scheduler->cancel(Test::localJob(id)));
        }
        const JobState expected = cancel ? JobState::Cancelled : JobState::Succeeded;
        QTRY_COMPARE_WITH_TIMEOUT(state(id), expected, JobTimeoutMs);
        QCOMPARE(leftAtFinal, QList<qint64>());
        QVERIFY(!alive(stubborn));
    }

    void queueing()
    {
        HostInventory small;
        small.cpus = 4; // one n1-standard-4 master at a time
        small.memoryBytes = 32LL << 30;
        startScheduler(small);
        const QString a = QStringLiteral("queue_a"), b = QStringLiteral("queue_b"), c = QStringLiteral("queue_c");
        submit(makeJob(a, QStringLiteral("tytest.sleeper")));
        submit(makeJob(b, QStringLiteral("tytest.sleeper")));
        submit(makeJob(c, QStringLiteral("tytest.sleeper")));
        QCOMPARE(state(b), JobState::Queued);
        QCOMPARE(m_store->job(Test::localJob(b))->jobPosition, std::optional<qint64>(1));
        QCOMPARE(m_store->job(Test::localJob(c))->jobPosition, std::optional<qint64>(2));
        QCOMPARE(m_scheduler->usage().queuedJobs, 2);
        QCOMPARE(m_scheduler->usage().vcpusInUse, 4);
        QTRY_COMPARE_WITH_TIMEOUT(state(a), JobState::Running, JobTimeoutMs);
        QCOMPARE(state(b), JobState::Queued);

        QVERIFY(m_scheduler->cancel(Test::localJob(a)));
        QTRY_COMPARE_WITH_TIMEOUT(state(b), JobState::Running, JobTimeoutMs);
        QVERIFY(!m_store->job(Test::localJob(b))->jobPosition.has_value());
        QCOMPARE(m_store->job(Test::localJob(c))->jobPosition, std::optional<qint64>(1));
        // A queued job is cancelled without ever running.
        QVERIFY(m_scheduler->cancel(Test::localJob(c)));
        QTRY_COMPARE(state(c), JobState::Cancelled);
        QVERIFY(m_store->job(Test::localJob(c))->startTime.isEmpty());
    }

    /// Prediction nodes reserve their machine type in the host's admission (backends/nodecapacity.h): counted in
    /// usage(), never keeping a job from starting alone, keeping a job from starting beside another one when they do
    /// not fit, and letting it start as soon as they are released; a node for load follows a job's rule.
    void predictionNodesShareTheHost()
    {
        HostInventory host;
        host.cpus = 8; // two n1-standard-4 masters, or one and up to four 1-vCPU nodes
        host.memoryBytes = 64LL << 30;
        startScheduler(host);
        NodeCapacity* nodes = m_scheduler->nodeCapacity();
        QVERIFY(nodes);
        using Need = NodeCapacity::Need;
        // Nodes alone: granted, counted, and never the reason a job cannot start alone.
        for (int i = 0; i < 3; ++i)
            QVERIFY(
                nodes->reserveNode(QStringLiteral("v#1/node-%1").arg(i), 1, Bytes::fromGb(2), Need::IfFits).granted);
        QCOMPARE(m_scheduler->usage().predictionNodes, 3);
        QCOMPARE(m_scheduler->usage().vcpusInUse, 3);
        QCOMPARE(m_scheduler->usage().memoryInUse.gb(), 6.0);
        // While no job runs, a node for load starts as a job alone would, saying that it oversubscribes the host.
        const NodeCapacity::Grant alone
            = nodes->reserveNode(QStringLiteral("v#0/node-1"), 8, Bytes::fromGb(2), Need::IfFits);
        QVERIFY(alone.granted);
        QVERIFY2(alone.oversubscribes.contains(QStringLiteral("3 of this host's 8 vCPUs")),
            qPrintable(alone.oversubscribes));
        nodes->releaseNode(QStringLiteral("v#0/node-1"));
        QCOMPARE(m_scheduler->usage().vcpusInUse, 3);
        const QString a = QStringLiteral("nodes_a"), b = QStringLiteral("nodes_b");
        submit(makeJob(a, QStringLiteral("tytest.sleeper")));
        QCOMPARE(m_scheduler->usage().runningJobs, 1);
        QCOMPARE(m_scheduler->usage().vcpusInUse, 7);
        // A second job fits beside the first (8 CPUs) but not beside the first and the nodes: it waits.
        submit(makeJob(b, QStringLiteral("tytest.sleeper")));
        QCOMPARE(state(b), JobState::Queued);
        QCOMPARE(m_scheduler->usage().queuedJobs, 1);
        // A node for load does not fit now; a required one (a version's first) is granted and says it oversubscribes.
        const NodeCapacity::Grant refused = nodes->reserveNode(QStringLiteral("v#2/node-1"), 2, Bytes::fromGb(2),
            Need::IfFits); // an mls1-c4-m2 would not either
        QVERIFY(!refused.granted);
        QVERIFY2(refused.refused.contains(QStringLiteral("7 of this host's 8 vCPUs")), qPrintable(refused.refused));
        const NodeCapacity::Grant required
            = nodes->reserveNode(QStringLiteral("v#2/node-0"), 4, Bytes::fromGb(2), Need::Required);
        QVERIFY(required.granted);
        QVERIFY(!required.oversubscribes.isEmpty());
        QCOMPARE(m_scheduler->usage().vcpusInUse, 11);
        // The nodes go: the queued job starts without any job ending.
        nodes->releaseNode(QStringLiteral("v#2/node-0"));
        for (int i = 0; i < 3; ++i)
            nodes->releaseNode(QStringLiteral("v#1/node-%1").arg(i));
        QTRY_COMPARE(m_scheduler->usage().runningJobs, 2);
        QCOMPARE(m_scheduler->usage().predictionNodes, 0);
        QCOMPARE(m_scheduler->usage().vcpusInUse, 8);
        QVERIFY(m_scheduler->cancel(Test::localJob(a)));
        QVERIFY(m_scheduler->cancel(Test::localJob(b)));
        QTRY_COMPARE_WITH_TIMEOUT(state(a), JobState::Cancelled, JobTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(state(b), JobState::Cancelled, JobTimeoutMs);
    }

    void maxWaitAndRunningTime()
    {
        HostInventory small;
        small.cpus = 4;
        small.memoryBytes = 32LL << 30;
        startScheduler(small);
        Job runner = makeJob(QStringLiteral("limit_running"), QStringLiteral("tytest.sleeper"));
        runner.trainingInput.scheduling = Scheduling { ProtoDuration(QStringLiteral("2s")), {}, std::nullopt };
        Job waiter = makeJob(QStringLiteral("limit_waiting"), QStringLiteral("tytest.sleeper"));
        waiter.trainingInput.scheduling = Scheduling { {}, ProtoDuration(QStringLiteral("1s")), std::nullopt };
        submit(runner);
        submit(waiter);
        QTRY_COMPARE_WITH_TIMEOUT(state(waiter.jobId), JobState::Cancelled, JobTimeoutMs);
        QVERIFY2(m_store->job(Test::localJob(waiter.jobId))->errorMessage.contains(QLatin1String("maxWaitTime")),
            qPrintable(m_store->job(Test::localJob(waiter.jobId))->errorMessage));
        QTRY_COMPARE_WITH_TIMEOUT(state(runner.jobId), JobState::Cancelled, JobTimeoutMs);
        QVERIFY(m_store->job(Test::localJob(runner.jobId))->errorMessage.contains(QLatin1String("maxRunningTime")));
        QVERIFY(!m_store->job(Test::localJob(runner.jobId))->startTime.isEmpty());
    }

    void recoverAfterRestart()
    {
        const QString id = QStringLiteral("recover_running");
        submit(makeJob(id, QStringLiteral("tytest.sleeper")));
        QTRY_COMPARE_WITH_TIMEOUT(sleeperPids(id, QStringLiteral("master-replica-0")).size(), 2, JobTimeoutMs);
        QTRY_COMPARE(state(id), JobState::Running);
        const QList<qint64> before = sleeperPids(id, QStringLiteral("master-replica-0"));
        // A job stored as QUEUED that the old executor never started.
        Job queued = makeJob(QStringLiteral("recover_queued"), QStringLiteral("tytest.ok"));
        QString error;
        QVERIFY2(m_store->insert(queued, &error), qPrintable(error));

        m_scheduler->shutdown(); // the executor goes away; the job stays RUNNING in the store
        m_scheduler.reset();
        QCOMPARE(state(id), JobState::Running);
        for (qint64 pid : before)
            QTRY_VERIFY(!alive(pid));
        QFile::remove(jobDir(id) + QStringLiteral("/pids/master-replica-0"));

        startScheduler(Test::bigHost());
        m_scheduler->recover();
        QTRY_COMPARE_WITH_TIMEOUT(sleeperPids(id, QStringLiteral("master-replica-0")).size(), 2, JobTimeoutMs);
        QTRY_COMPARE(replica(id, QStringLiteral("master-replica-0")).state, ReplicaState::Running);
        QCOMPARE(state(id), JobState::Running);
        QCOMPARE(replica(id, QStringLiteral("master-replica-0")).restarts, 1);
        QVERIFY(sleeperPids(id, QStringLiteral("master-replica-0")) != before);
        bool said = false;
        for (const QString& m : messages(id, QStringLiteral("service")))
            said |= m.startsWith(
                QLatin1String("The executor restarted while the job was running; restarting it (restart 1 of 3)."));
        QVERIFY(said);
        QTRY_COMPARE_WITH_TIMEOUT(state(queued.jobId), JobState::Succeeded, JobTimeoutMs);
    }

    void stagingFailure()
    {
        const QString id = QStringLiteral("staging_failure");
        Job job = makeJob(id, QStringLiteral("tytest.ok"));
        job.trainingInput.packageUris = QStringList { BrokenDir };
        submit(job);
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Failed, JobTimeoutMs);
        const QString message = m_store->job(Test::localJob(id))->errorMessage;
        QVERIFY2(
            message.startsWith(QLatin1String("Installing the training package with pip failed")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("setup.py refuses to build")), qPrintable(message));
        QVERIFY(messages(id, QStringLiteral("service")).contains(message));
        QVERIFY(m_scheduler->replicas(Test::localJob(id)).isEmpty());
        // The user's folder stays clean: pip built a copy.
        QVERIFY(!QDir(BrokenDir).exists(QStringLiteral("build")));
        QVERIFY(QDir(TrainerDir).entryList({ QStringLiteral("*.egg-info") }, QDir::Dirs).isEmpty());
    }

    /// Staging reuses what pip installed for the same package and interpreter (the cache under the data dir) and
    /// runs pip again when a file of the package changes.
    void stagingCache()
    {
        startScheduler(Test::bigHost());
        // A package of its own: the other tests' jobs in this data dir may have cached the trainers already.
        QTemporaryDir package;
        QVERIFY(package.isValid());
        QVERIFY(QProcess::execute(
                    QStringLiteral("cp"), { QStringLiteral("-r"), TrainerDir + QStringLiteral("/."), package.path() })
            == 0);
        const QString okPy = package.path() + QStringLiteral("/tytest/ok.py");
        const auto appendLine = [&okPy](const QByteArray& line) {
            QFile f(okPy);
            QVERIFY(f.open(QIODevice::Append));
            f.write(line);
        };
        appendLine("# staging cache test " + QByteArray::number(QCoreApplication::applicationPid()) + '\n');
        const QString cache = m_dataDir + QStringLiteral("/staging-cache");
        const auto entries = [&cache] {
            QStringList list;
            for (const QString& e : QDir(cache).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                if (!e.contains(QLatin1String(".tmp")))
                    list << e;
            }
            return list;
        };
        const QStringList before = entries();
        const auto run = [&](const QString& id) {
            Job job = makeJob(id, QStringLiteral("tytest.ok"));
            job.trainingInput.packageUris = QStringList { package.path() };
            submit(job);
            QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Succeeded, JobTimeoutMs);
        };
        const auto reused = [this](const QString& id) {
            return messages(id, QStringLiteral("service")).filter(QStringLiteral("Reusing the install")).size() == 1;
        };
        const auto pipRan = [this](const QString& id) {
            return !messages(id, QStringLiteral("service")).filter(QStringLiteral("-m pip install")).isEmpty();
        };

        run(QStringLiteral("staging_cache_1"));
        QVERIFY(pipRan(QStringLiteral("staging_cache_1")));
        QVERIFY(!reused(QStringLiteral("staging_cache_1")));
        // The install goes into the cache in the background, under one new name.
        QTRY_COMPARE_WITH_TIMEOUT(entries().size(), before.size() + 1, 30000);
        QString entry;
        for (const QString& e : entries()) {
            if (!before.contains(e))
                entry = e;
        }
        QCOMPARE(entry.size(), 64); // SHA-256, hex
        QVERIFY(QFileInfo::exists(cache + QLatin1Char('/') + entry + QStringLiteral("/tytest/ok.py")));

        // The same package again: a copy, no pip; the replica imports it as before.
        run(QStringLiteral("staging_cache_2"));
        QVERIFY2(reused(QStringLiteral("staging_cache_2")),
            qPrintable(messages(QStringLiteral("staging_cache_2"), QStringLiteral("service")).join(QLatin1Char('\n'))));
        QVERIFY(!pipRan(QStringLiteral("staging_cache_2")));
        QFile staged(Test::localJob(QStringLiteral("staging_cache_2")).folder(m_dataDir)
            + QStringLiteral("/staging/tytest/ok.py"));
        QVERIFY(staged.open(QIODevice::ReadOnly));
        QVERIFY(staged.readAll().contains("# staging cache test"));

        // A changed file: pip again, and the job runs the new file.
        appendLine("# changed\n");
        run(QStringLiteral("staging_cache_3"));
        QVERIFY(pipRan(QStringLiteral("staging_cache_3")));
        QVERIFY(!reused(QStringLiteral("staging_cache_3")));
        QFile changed(Test::localJob(QStringLiteral("staging_cache_3")).folder(m_dataDir)
            + QStringLiteral("/staging/tytest/ok.py"));
        QVERIFY(changed.open(QIODevice::ReadOnly));
        QVERIFY(changed.readAll().endsWith("# changed\n"));
        QTRY_COMPARE_WITH_TIMEOUT(entries().size(), before.size() + 2, 30000);
    }

    void gpuAssignment()
    {
        // An inventory as NVML would report two T4s: each replica gets its own GPU, nobody else's.
        HostInventory host = Test::bigHost();
        host.gpus = { GpuInfo { 0, QStringLiteral("GPU-a"), QStringLiteral("Tesla T4"),
                          QStringLiteral("NVIDIA_TESLA_T4"), 16LL << 30 },
            GpuInfo { 1, QStringLiteral("GPU-b"), QStringLiteral("Tesla T4"), QStringLiteral("NVIDIA_TESLA_T4"),
                16LL << 30 } };
        startScheduler(host);
        Job job = makeJob(QStringLiteral("gpu_job"), QStringLiteral("tytest.ok"), 1);
        job.trainingInput.masterConfig = ReplicaConfig {};
        job.trainingInput.masterConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_T4") };
        job.trainingInput.workerConfig = ReplicaConfig {};
        job.trainingInput.workerConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_T4") };
        Job second = makeJob(QStringLiteral("gpu_waits"), QStringLiteral("tytest.ok"));
        second.trainingInput.masterConfig = job.trainingInput.masterConfig;
        submit(job);
        submit(second);
        QCOMPARE(m_scheduler->usage().gpusInUse, (QList<int> { 0, 1 }));
        QCOMPARE(state(second.jobId), JobState::Queued);
        QTRY_COMPARE_WITH_TIMEOUT(state(job.jobId), JobState::Succeeded, JobTimeoutMs);
        const auto gpuOf = [&](const QString& id, const QString& task) {
            return contract(id, task)
                .value(QLatin1String("env"))
                .toObject()
                .value(QLatin1String("CUDA_VISIBLE_DEVICES"))
                .toString();
        };
        QCOMPARE(QSet<QString>({ gpuOf(job.jobId, QStringLiteral("master-replica-0")),
                     gpuOf(job.jobId, QStringLiteral("worker-replica-0")) }),
            (QSet<QString> { QStringLiteral("0"), QStringLiteral("1") }));
        QTRY_COMPARE_WITH_TIMEOUT(state(second.jobId), JobState::Succeeded, JobTimeoutMs);
        QCOMPARE(gpuOf(second.jobId, QStringLiteral("master-replica-0")).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestScheduler)
#include "tst_scheduler.moc"
