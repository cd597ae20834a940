// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 2's "Done when" list, end to end with the real programs: the bundled executor started by the
// client library (ExecutorLocator), jobs through ApiClient and through the trainyardctl binary, the real
// Fashion-MNIST sample trainer on a 1 master + 2 workers + 1 ps cluster, cancel, a permanent failure, a
// retryable failure (a worker SIGKILLed), the executor SIGKILLed mid-job and started again, malformed and
// unauthorized requests, and no process left behind.
#include "apiclient.h"
#include "processgroup.h"
#include "executorenvironment.h"
#include "executorlocator.h"
#include "statenames.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace Trainyard;

namespace {

bool processAlive(qint64 pid)
{
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close < 0 || text.mid(close + 2, 1) != "Z";
}

QByteArray procFile(qint64 pid, const char* name)
{
    QFile f(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(name)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestEndToEnd : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    std::unique_ptr<ApiClient> m_client;
    ExecutorEndpoint m_endpoint;

    QString path(const QString& relative) const { return m_root.filePath(relative); }

    bool connectExecutor()
    {
        ExecutorLocator locator;
        locator.setStartTimeout(30000);
        QString error;
        m_endpoint = locator.locateBlocking(&error);
        if (!m_endpoint.isValid()) {
            qWarning() << "locate failed:" << error;
            return false;
        }
        m_client = std::make_unique<ApiClient>(m_endpoint.url, m_endpoint.token);
        return true;
    }

    Job clusterJob(const QString& jobId, const QString& package, const QString& module, int workers, int ps) const
    {
        Job job = Test::customJob(jobId, module, workers, ps);
        job.trainingInput.packageUris = { package };
        job.trainingInput.jobDir = path(QStringLiteral("jobs/") + jobId);
        return job;
    }

    static QString tytest() { return QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest"); }
    static QString ctltest() { return QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers_ctl/ctltest"); }

    Job job(const QString& jobId)
    {
        const ApiResult<Job> r = m_client->getJobBlocking(jobId);
        return r.ok() ? r.value : Job {};
    }

    JobState state(const QString& jobId) { return job(jobId).state; }

    QList<ReplicaInfo> replicas(const QString& jobId)
    {
        const ApiResult<QList<ReplicaInfo>> r = m_client->replicasBlocking(jobId);
        return r.ok() ? r.value : QList<ReplicaInfo> {};
    }

    /// True when every replica of the job runs with a process (and there are `count`).
    bool allRunning(const QString& jobId, int count)
    {
        const QList<ReplicaInfo> list = replicas(jobId);
        if (list.size() != count)
            return false;
        for (const ReplicaInfo& r : list) {
            if (r.state != ReplicaState::Running || r.pid <= 0)
                return false;
        }
        return true;
    }

    /// Logs of a job so far (all pages).
    QString logText(const QString& jobId)
    {
        QString text;
        QString token;
        do {
            const ApiResult<LogPage> page = m_client->logsBlocking(jobId, {}, {}, 10000, token);
            if (!page.ok())
                break;
            for (const LogEntry& l : page.value.entries)
                text += l.taskName + QStringLiteral(": ") + l.message + QLatin1Char('\n');
            token = page.value.nextPageToken;
        } while (!token.isEmpty());
        return text;
    }

    /// Follows the job's logs over SSE until its `end` event; returns the final state (StateUnspecified when none).
    JobState followToEnd(const QString& jobId, QList<LogEntry>* lines = nullptr)
    {
        std::unique_ptr<ApiStream> stream(m_client->followLogs(jobId));
        QSignalSpy ended(stream.get(), &ApiStream::ended);
        QSignalSpy finished(stream.get(), &ApiStream::finished);
        if (lines) {
            connect(stream.get(), &ApiStream::logEntries, this,
                [lines](const QList<LogEntry>& batch) { lines->append(batch); });
        }
        if (!finished.wait(280000) && finished.isEmpty())
            return JobState::StateUnspecified;
        return ended.isEmpty() ? JobState::StateUnspecified : ended.first().first().value<JobState>();
    }

    QStringList livePidsOf(const QList<ReplicaInfo>& list)
    {
        QStringList out;
        for (const ReplicaInfo& r : list) {
            if (processAlive(r.pid))
                out << QString::number(r.pid);
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const char* d : { "run", "data", "config", "jobs" })
            QVERIFY(QDir().mkpath(m_root.filePath(QLatin1String(d))));
        QFile::setPermissions(
            path(QStringLiteral("run")), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        // The executor started by the locator inherits this environment: everything stays in m_root.
        qputenv("XDG_RUNTIME_DIR", path(QStringLiteral("run")).toUtf8());
        qputenv("XDG_DATA_HOME", path(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", path(QStringLiteral("config")).toUtf8());
        qputenv("TRAINYARD_EXECUTOR_BIN", TRAINYARD_EXECUTOR_BIN);
        qunsetenv("TRAINYARD_EXECUTOR");
        qunsetenv("TRAINYARD_TOKEN");
        QVERIFY(!ExecutorLocator::readRuntimeFile(nullptr).isValid());
        QVERIFY(connectExecutor());
        QVERIFY(processAlive(m_endpoint.pid));
        QCOMPARE(ExecutorLocator::runtimeFilePath(), path(QStringLiteral("run/trainyard/executor.json")));
    }

    void cleanupTestCase()
    {
        const qint64 pid = ExecutorLocator::readRuntimeFile(nullptr).pid;
        if (pid > 0) {
            ::kill(static_cast<pid_t>(pid), SIGTERM);
            QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 30000);
        }
        // No process left behind: none has this test's folder in its command line or environment
        // (the executor and every replica inherit XDG_RUNTIME_DIR=<root>/run).
        const QByteArray marker = m_root.path().toUtf8();
        QStringList leftovers;
        auto scan = [&]() {
            leftovers.clear();
            const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
            for (const QString& e : entries) {
                bool ok = false;
                const qint64 p = e.toLongLong(&ok);
                if (!ok || p == QCoreApplication::applicationPid() || !processAlive(p))
                    continue;
                const QByteArray cmd = procFile(p, "cmdline");
                if (cmd.contains(marker) || procFile(p, "environ").contains(marker))
                    leftovers << QStringLiteral("%1 %2").arg(p).arg(
                        QString::fromUtf8(cmd).replace(QChar(u'\0'), QLatin1Char(' ')));
            }
            return leftovers.isEmpty();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(scan(), qPrintable(leftovers.join(QLatin1Char('\n'))), 30000);
    }

    // The real sample trainer on 1 master + 2 workers + 1 ps through the CLI, streaming its logs.
    void sampleTrainerThroughCli()
    {
        const QString jobDir = path(QStringLiteral("jobs/fmnist_e2e"));
        QProcess ctl;
        ctl.setProgram(QStringLiteral(TRAINYARD_CTL_BIN));
        ctl.setArguments({ QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"),
            QStringLiteral("fmnist_e2e"), QStringLiteral("--package-path"), QStringLiteral(TRAINYARD_SAMPLE_TRAINER),
            QStringLiteral("--module-name"), QStringLiteral("trainer.task"), QStringLiteral("--scale-tier"),
            QStringLiteral("custom"), QStringLiteral("--master-machine-type"), QStringLiteral("n1-standard-4"),
            QStringLiteral("--worker-count"), QStringLiteral("2"), QStringLiteral("--worker-machine-type"),
            QStringLiteral("n1-standard-4"), QStringLiteral("--parameter-server-count"), QStringLiteral("1"),
            QStringLiteral("--parameter-server-machine-type"), QStringLiteral("n1-standard-4"),
            QStringLiteral("--job-dir"), jobDir, QStringLiteral("--stream-logs"), QStringLiteral("--"),
            QStringLiteral("--epochs"), QStringLiteral("1") });
        ctl.start();
        QVERIFY(ctl.waitForFinished(480000));
        const QString out = QString::fromUtf8(ctl.readAllStandardOutput());
        const QString err = QString::fromUtf8(ctl.readAllStandardError());
        QVERIFY2(ctl.exitCode() == 0, qPrintable(err.right(4000)));
        QVERIFY(out.contains(QLatin1String("state: SUCCEEDED")));
        QVERIFY(err.contains(QLatin1String("Job [fmnist_e2e] submitted successfully.")));
        for (const char* task :
            { "\tmaster-replica-0\t", "\tworker-replica-0\t", "\tworker-replica-1\t", "\tps-replica-0\t" })
            QVERIFY2(err.contains(QLatin1String(task)), task);
        QVERIFY2(err.contains(QLatin1String("epoch 1 test_accuracy ")), qPrintable(err.right(4000)));
        QVERIFY(QFile::exists(jobDir + QStringLiteral("/checkpoints/ckpt-epoch-1.pt")));
        QCOMPARE(state(QStringLiteral("fmnist_e2e")), JobState::Succeeded);
    }

    // The same cluster shape through the API with a trivial module; the replicas endpoint shows the topology.
    void clusterThroughApi()
    {
        const ApiResult<Job> created = m_client->createJobBlocking(
            clusterJob(QStringLiteral("api_ok"), tytest(), QStringLiteral("tytest.ok"), 2, 1));
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));
        QCOMPARE(created.value.jobId, QStringLiteral("api_ok"));
        QVERIFY(!created.value.etag.isEmpty());
        QList<LogEntry> lines;
        QCOMPARE(followToEnd(QStringLiteral("api_ok"), &lines), JobState::Succeeded);
        QSet<QString> tasks;
        for (const LogEntry& l : lines) {
            tasks.insert(l.taskName);
            QVERIFY(l.timestampUs > 0);
        }
        for (const char* t : { "master-replica-0", "worker-replica-0", "worker-replica-1", "ps-replica-0", "service" })
            QVERIFY2(tasks.contains(QLatin1String(t)), t);
        const Job done = job(QStringLiteral("api_ok"));
        QCOMPARE(done.state, JobState::Succeeded);
        QVERIFY(!done.startTime.isEmpty());
        QVERIFY(!done.endTime.isEmpty());
        // Listing with a filter through the client.
        const ApiResult<JobPage> page = m_client->listJobsBlocking(QStringLiteral("jobId:api_*"), 10, {});
        QVERIFY(page.ok());
        QCOMPARE(page.value.jobs.size(), 1);
        // Labels with the etag; a stale etag is refused with ABORTED.
        const ApiResult<Job> patched = m_client->patchLabelsBlocking(
            QStringLiteral("api_ok"), { { QStringLiteral("stage"), QStringLiteral("e2e") } }, done.etag);
        QVERIFY2(patched.ok(), qPrintable(patched.error.summary()));
        QCOMPARE(patched.value.labels.value(QStringLiteral("stage")), QStringLiteral("e2e"));
        const ApiResult<Job> stale = m_client->patchLabelsBlocking(QStringLiteral("api_ok"), {}, done.etag);
        QCOMPARE(stale.error.status, QStringLiteral("ABORTED"));
        QCOMPARE(stale.error.httpStatus, 409);
        // Catalogs and host answer.
        QVERIFY(m_client->hostBlocking().ok());
        QVERIFY(m_client->hostBlocking().value.cpus > 0);
    }

    void cancel()
    {
        const QString id = QStringLiteral("api_cancel");
        QVERIFY(m_client->createJobBlocking(clusterJob(id, tytest(), QStringLiteral("tytest.sleeper"), 1, 0)).ok());
        std::unique_ptr<ApiStream> events(m_client->followEvents(id));
        QSignalSpy jobEvents(events.get(), &ApiStream::jobChanged);
        QTRY_VERIFY_WITH_TIMEOUT(allRunning(id, 2), 120000);
        QVERIFY(!jobEvents.isEmpty());
        // The sleepers each start a child (a process tree to stop) and then record their pids: the whole tree must go.
        // The pids they record are their sandbox's (its own PID namespace), so the tree is found as the executor finds
        // it: by the job's marker (processgroup.h), each sleeper and its child, not the bubblewrap processes around them.
        const QString pidsDir = path(QStringLiteral("jobs/") + id + QStringLiteral("/pids"));
        QTRY_COMPARE_WITH_TIMEOUT(QDir(pidsDir).entryList(QDir::Files).size(), 2, 60000);
        const QString folder = path(QStringLiteral("data/trainyard/projects/local/jobs/") + id);
        QList<qint64> pids;
        for (const qint64 pid : jobProcesses(folder)) {
            QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
            if (cmdline.open(QIODevice::ReadOnly) && !cmdline.readAll().split('\0').first().endsWith("bwrap"))
                pids << pid;
        }
        QCOMPARE(pids.size(), 4);
        const ApiResult<bool> cancelled = m_client->cancelJobBlocking(id);
        QVERIFY2(cancelled.ok(), qPrintable(cancelled.error.summary()));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Cancelled, 60000);
        for (qint64 pid : pids)
            QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 30000);
        // The events stream saw the job go CANCELLED and then closed.
        QTRY_VERIFY_WITH_TIMEOUT(events->isFinished(), 30000);
        QCOMPARE(jobEvents.last().first().value<Job>().state, JobState::Cancelled);
        const ApiResult<bool> again = m_client->cancelJobBlocking(id);
        QCOMPARE(again.error.status, QStringLiteral("FAILED_PRECONDITION"));
    }

    void permanentFailure()
    {
        const QString id = QStringLiteral("api_exit3");
        QVERIFY(m_client->createJobBlocking(clusterJob(id, tytest(), QStringLiteral("tytest.fail_exit3"), 2, 0)).ok());
        QCOMPARE(followToEnd(id), JobState::Failed);
        const Job failed = job(id);
        // The service names the replica by type and index.
        QVERIFY2(failed.errorMessage.contains(QLatin1String("The replica worker 1 exited with a non-zero status of 3")),
            qPrintable(failed.errorMessage));
        QVERIFY2(failed.errorMessage.contains(QLatin1String("3")), qPrintable(failed.errorMessage));
        QVERIFY(logText(id).contains(QLatin1String("ValueError: bad input shard 7")));
        for (const ReplicaInfo& r : replicas(id))
            QVERIFY(!processAlive(r.pid));
    }

    // A worker SIGKILLed by the test: a retryable failure, the whole cluster restarts and the job succeeds.
    void retryableFailure()
    {
        const QString id = QStringLiteral("api_sigkill");
        QVERIFY(m_client->createJobBlocking(clusterJob(id, ctltest(), QStringLiteral("ctltest.gate"), 2, 0)).ok());
        QTRY_VERIFY_WITH_TIMEOUT(allRunning(id, 3), 120000);
        const QList<ReplicaInfo> before = replicas(id);
        qint64 victim = 0;
        for (const ReplicaInfo& r : before) {
            if (r.taskName == QLatin1String("worker-replica-1"))
                victim = r.pid;
        }
        QVERIFY(victim > 0);
        QVERIFY(::kill(static_cast<pid_t>(victim), SIGKILL) == 0);
        // The cluster restarts: every replica runs again, with new processes, and a restart counted.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QList<ReplicaInfo> now = replicas(id);
                if (!allRunning(id, 3))
                    return false;
                for (const ReplicaInfo& r : now) {
                    if (r.restarts < 1 || r.pid == victim)
                        return false;
                }
                return true;
            }(),
            120000);
        for (const ReplicaInfo& r : before)
            QTRY_VERIFY_WITH_TIMEOUT(!processAlive(r.pid), 30000);
        QFile release(path(QStringLiteral("jobs/") + id + QStringLiteral("/release")));
        QVERIFY(release.open(QIODevice::WriteOnly));
        release.close();
        QCOMPARE(followToEnd(id), JobState::Succeeded);
    }

    // The executor SIGKILLed mid-job and started again: the job is restarted and finishes.
    void executorKilledMidJob()
    {
        const QString id = QStringLiteral("api_executor_kill");
        QVERIFY(m_client->createJobBlocking(clusterJob(id, ctltest(), QStringLiteral("ctltest.gate"), 1, 0)).ok());
        QTRY_VERIFY_WITH_TIMEOUT(allRunning(id, 2), 120000);
        const QList<ReplicaInfo> before = replicas(id);
        const qint64 executor = ExecutorLocator::readRuntimeFile(nullptr).pid;
        QVERIFY(executor > 0);
        QVERIFY(::kill(static_cast<pid_t>(executor), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(executor), 30000);
        // A client finds no executor and starts one (the runtime file names a dead pid).
        QVERIFY(connectExecutor());
        QVERIFY(m_endpoint.pid != executor);
        QVERIFY(processAlive(m_endpoint.pid));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                if (!allRunning(id, 2))
                    return false;
                for (const ReplicaInfo& r : replicas(id)) {
                    for (const ReplicaInfo& old : before) {
                        if (r.pid == old.pid)
                            return false;
                    }
                }
                return true;
            }(),
            120000);
        // The orphaned replicas of the killed executor do not survive the restart.
        for (const ReplicaInfo& r : before)
            QTRY_VERIFY_WITH_TIMEOUT(!processAlive(r.pid), 60000);
        QFile release(path(QStringLiteral("jobs/") + id + QStringLiteral("/release")));
        QVERIFY(release.open(QIODevice::WriteOnly));
        release.close();
        QCOMPARE(followToEnd(id), JobState::Succeeded);
        // Jobs finished before the crash are still there.
        QCOMPARE(state(QStringLiteral("api_ok")), JobState::Succeeded);
    }

    void badRequests_data()
    {
        QTest::addColumn<QByteArray>("verb");
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<int>("http");
        QTest::addColumn<QString>("status");
        const QByteArray good = "<token>";
        QTest::addRow("no token") << QByteArray("GET") << QStringLiteral("/jobs") << QByteArray() << QByteArray() << 401
                                  << QStringLiteral("UNAUTHENTICATED");
        QTest::addRow("wrong token") << QByteArray("GET") << QStringLiteral("/jobs") << QByteArray()
                                     << QByteArray("Bearer 0000") << 401 << QStringLiteral("UNAUTHENTICATED");
        QTest::addRow("not bearer") << QByteArray("GET") << QStringLiteral("/host") << QByteArray()
                                    << QByteArray("Basic dXNlcjpwYXNz") << 401 << QStringLiteral("UNAUTHENTICATED");
        QTest::addRow("malformed json") << QByteArray("POST") << QStringLiteral("/jobs") << QByteArray("{\"jobId\": ")
                                        << good << 400 << QStringLiteral("INVALID_ARGUMENT");
        QTest::addRow("not an object") << QByteArray("POST") << QStringLiteral("/jobs") << QByteArray("[1,2]") << good
                                       << 400 << QStringLiteral("INVALID_ARGUMENT");
        QTest::addRow("unknown field") << QByteArray("POST") << QStringLiteral("/jobs")
                                       << QByteArray("{\"jobId\":\"x1\",\"trainingInput\":{\"bogus\":1}}") << good
                                       << 400 << QStringLiteral("INVALID_ARGUMENT");
        QTest::addRow("binary garbage") << QByteArray("POST") << QStringLiteral("/jobs")
                                        << QByteArray("\x00\xff\xfe garbage", 11) << good << 400
                                        << QStringLiteral("INVALID_ARGUMENT");
        QTest::addRow("unknown job") << QByteArray("GET") << QStringLiteral("/jobs/nope") << QByteArray() << good << 404
                                     << QStringLiteral("NOT_FOUND");
        QTest::addRow("bad page size") << QByteArray("GET") << QStringLiteral("/jobs?pageSize=-3") << QByteArray()
                                       << good << 400 << QStringLiteral("INVALID_ARGUMENT");
    }

    void badRequests()
    {
        QFETCH(QByteArray, verb);
        QFETCH(QString, suffix);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, authorization);
        QFETCH(int, http);
        QFETCH(QString, status);
        const qsizetype q = suffix.indexOf(QLatin1Char('?'));
        QUrl url = m_client->projectUrl(q < 0 ? suffix : suffix.left(q), q < 0 ? QString() : suffix.mid(q + 1));
        QNetworkRequest request(url);
        if (authorization == "<token>")
            request.setRawHeader("Authorization", "Bearer " + m_endpoint.token);
        else if (!authorization.isEmpty())
            request.setRawHeader("Authorization", authorization);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        std::unique_ptr<QNetworkReply> reply(nam.sendCustomRequest(request, verb, body));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(finished.wait(30000));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), http);
        const ApiError error = ApiError::fromBody(http, reply->readAll(), {});
        QCOMPARE(error.status, status);
        QVERIFY(!error.message.isEmpty());
        // The executor is still up and answers a good request.
        QVERIFY(m_client->hostBlocking().ok());
    }
};

QTEST_GUILESS_MAIN(TestEndToEnd)
#include "tst_endtoend.moc"
