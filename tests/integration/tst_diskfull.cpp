// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 15: the executor's data dir on a small filesystem that fills up. A job's log output fills it while the job
// runs: its lines are dropped and counted (never half a line), the job's end is kept until it can be stored, a new
// job is refused with 429 RESOURCE_EXHAUSTED naming the full disk, and nothing is corrupt. Once space is freed:
// the end is stored, the log says how many lines it is missing, new jobs run, and `PRAGMA integrity_check` is ok.
//
// Needs root (a 6 MiB tmpfs is mounted for the data dir); skips without, fails instead under TRAINYARD_REQUIRE_ALL=1.
#include "accessclient.h"
#include "apiclient.h"
#include "executorenvironment.h"
#include "executorprocess.h"
#include "requireddependencies.h"
#include "sqliteintegrity.h"
#include "statenames.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStorageInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <unistd.h>

using namespace Trainyard;

namespace {

const QString TrainerDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");

} // namespace

class TestDiskFull : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_mount;
    Test::ExecutorProcess m_executor { m_root.path() };
    std::unique_ptr<ApiClient> m_client;

    QString path(const QString& relative) const { return m_root.filePath(relative); }
    QString dataDir() const { return m_mount + QStringLiteral("/data"); }

    Job spamJob(const QString& id, int lines)
    {
        Job job;
        job.jobId = id;
        job.trainingInput.scaleTier = QStringLiteral("BASIC");
        job.trainingInput.region = QStringLiteral("local");
        job.trainingInput.pythonModule = QStringLiteral("tytest.spammer");
        job.trainingInput.args = { QStringLiteral("--lines"), QString::number(lines) };
        job.trainingInput.jobDir = path(QStringLiteral("jobs/") + id);
        job.trainingInput.packageUris = { TrainerDir };
        return job;
    }

    qint64 freeBytes() const { return QStorageInfo(m_mount).bytesAvailable(); }

    QString logText(const QString& id)
    {
        QString text;
        QString token;
        do {
            const ApiResult<LogPage> page = m_client->logsBlocking(id, {}, {}, 10000, token);
            if (!page.ok())
                break;
            for (const LogEntry& e : page.value.entries)
                text += e.severity + QLatin1Char(' ') + e.taskName + QStringLiteral(": ") + e.message
                    + QLatin1Char('\n');
            token = page.value.nextPageToken;
        } while (!token.isEmpty());
        return text;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (::geteuid() != 0)
            TRAINYARD_SKIP_OR_FAIL("mounting the small filesystem for the data dir needs root");
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(
            m_root, { QStringLiteral("jobs"), QStringLiteral("run/trainyard"), QStringLiteral("small") }));
        m_mount = path(QStringLiteral("small"));
        QCOMPARE(QProcess::execute(QStringLiteral("mount"),
                     { QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"), QStringLiteral("size=6m"),
                         QStringLiteral("tmpfs"), m_mount }),
            0);
        qputenv("PYTHONPATH", QFile::encodeName(TrainerDir));
        m_executor.setLogFile(path(QStringLiteral("executor.log")));
        QString error;
        QVERIFY2(
            m_executor.start({ QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--data-dir"),
                                 dataDir(), QStringLiteral("--runtime-dir"), path(QStringLiteral("run/trainyard")),
                                 QStringLiteral("--job-dir-root"), path(QStringLiteral("jobs")) },
                &error),
            qPrintable(error));
        m_client = std::make_unique<ApiClient>(m_executor.url(), m_executor.token());
    }

    void cleanupTestCase()
    {
        // What the executor said about its log files (why a report is missing, when it is).
        QFile log(path(QStringLiteral("executor.log")));
        if (log.open(QIODevice::ReadOnly)) {
            for (const QByteArray& line : log.readAll().split('\n')) {
                if (line.contains("log file") || line.contains("disk"))
                    qInfo("executor: %s", line.left(300).constData());
            }
        }
        m_executor.stop(30000);
        if (!m_mount.isEmpty())
            QProcess::execute(QStringLiteral("umount"), { m_mount });
    }

    /// Issue 26, item 4: on a full disk a call that changes something is refused before it takes effect, as the
    /// audit log could not record it: a cancel answered 200 and stopped the job with no CancelJob entry, and
    /// setIamPolicy answered 500. Now both are refused with 429 naming the full disk, the job runs on, and once
    /// space is back the cancel is made and recorded.
    void changesWaitForRoomInTheAuditLog()
    {
        Job sleeper = spamJob(QStringLiteral("full_sleeper"), 0);
        sleeper.trainingInput.pythonModule = QStringLiteral("tytest.sleeper");
        sleeper.trainingInput.args.clear();
        QVERIFY(m_client->createJobBlocking(sleeper).ok());
        QTRY_COMPARE_WITH_TIMEOUT(m_client->getJobBlocking(sleeper.jobId).value.state, JobState::Running, 60000);
        const QString ballast = m_mount + QStringLiteral("/ballast-audit");
        {
            QFile f(ballast);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
            const QByteArray kib(4096, 'x');
            while (f.write(kib) == kib.size()) { }
        }
        QVERIFY(freeBytes() < 64 * 1024);
        const ApiResult<bool> cancel = m_client->cancelJobBlocking(sleeper.jobId);
        QVERIFY(!cancel.ok());
        QCOMPARE(cancel.error.httpStatus, 429);
        QCOMPARE(cancel.error.status, QStringLiteral("RESOURCE_EXHAUSTED"));
        QVERIFY2(cancel.error.message.contains(QLatin1String("data disk is full")), qPrintable(cancel.error.message));
        QCOMPARE(m_client->getJobBlocking(sleeper.jobId).value.state, JobState::Running);
        IamPolicy policy;
        policy.addBinding(QStringLiteral("roles/ml.viewer"), QStringLiteral("user:viewer@example.org"));
        const ApiResult<IamPolicy> set
            = AccessClient(m_client.get()).setIamPolicyBlocking(AccessClient::Resource::Project, QStringLiteral("local"), policy);
        QVERIFY(!set.ok());
        QCOMPARE(set.error.httpStatus, 429);
        QVERIFY(QFile::remove(ballast));
        const ApiResult<bool> again = m_client->cancelJobBlocking(sleeper.jobId);
        QVERIFY2(again.ok(), qPrintable(again.error.summary()));
        QTRY_COMPARE_WITH_TIMEOUT(m_client->getJobBlocking(sleeper.jobId).value.state, JobState::Cancelled, 60000);
        const ApiResult<Audit::Page> entries = m_client->auditLogsBlocking(QStringLiteral("local"),
            QStringLiteral("protoPayload.methodName=google.cloud.ml.v1.JobService.CancelJob AND "
                           "resource.labels.job_id=full_sleeper"),
            100, QString());
        QVERIFY2(entries.ok(), qPrintable(entries.error.summary()));
        const QList<Audit::Entry>& cancels = entries.value.entries;
        QCOMPARE(cancels.size(), 1);
        // The cancel that succeeded: `"status": {}`, no code.
        QVERIFY(
            cancels.first().json.value(QStringLiteral("protoPayload")).toObject().contains(QStringLiteral("status")));
        QVERIFY(!cancels.first().statusCode && cancels.first().statusMessage.isEmpty());
    }

    void fillsUpAndRecovers()
    {
        // Leave about 1.5 MiB: the ballast is what a user frees later.
        const QString ballast = m_mount + QStringLiteral("/ballast");
        {
            QFile f(ballast);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray mib(1024 * 1024, 'x');
            while (freeBytes() > 3 * 512 * 1024 && f.write(mib) == mib.size())
                f.flush();
        }
        // The spammer writes about 14 MB of log lines (its small package is staged in the data dir first).
        const Job a = spamJob(QStringLiteral("full_a"), 200000);
        ApiResult<Job> created = m_client->createJobBlocking(a);
        if (!created.ok() && created.error.status == QLatin1String("RESOURCE_EXHAUSTED"))
            QFAIL("the disk was full before the first job");
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));
        // Its replica ends; the disk is full.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const ApiResult<QList<ReplicaInfo>> r = m_client->replicasBlocking(QStringLiteral("full_a"));
                return r.ok() && !r.value.isEmpty() && r.value.first().exitCode.has_value();
            }(),
            120000);
        // The executor saw the disk full (it cut the failed batch off again, so a little space is free).
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QFile log(path(QStringLiteral("executor.log")));
                return log.open(QIODevice::ReadOnly) && log.readAll().contains("its lines are dropped");
            }(),
            30000);
        // Whatever is left fills up too, as other writers on the same disk would do.
        const QString ballast2 = m_mount + QStringLiteral("/ballast2");
        {
            QFile f(ballast2);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
            const QByteArray kib(4096, 'x');
            while (f.write(kib) == kib.size()) { }
        }
        QVERIFY(freeBytes() < 64 * 1024);
        // A new job cannot be stored: a clear 429, not a 500, and nothing half-written.
        const ApiResult<Job> refused = m_client->createJobBlocking(spamJob(QStringLiteral("full_b"), 10));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error.httpStatus, 429);
        QCOMPARE(refused.error.status, QStringLiteral("RESOURCE_EXHAUSTED"));
        QVERIFY2(refused.error.message.contains(QLatin1String("data disk is full")), qPrintable(refused.error.message));
        QVERIFY(!m_client->getJobBlocking(QStringLiteral("full_b")).ok());

        // Space comes back: the end is stored (the scheduler retries it), the log says what it lost.
        QVERIFY(QFile::remove(ballast));
        QVERIFY(QFile::remove(ballast2));
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(m_client->getJobBlocking(QStringLiteral("full_a")).value.state), 30000);
        QCOMPARE(m_client->getJobBlocking(QStringLiteral("full_a")).value.state, JobState::Succeeded);
        // The report of the dropped lines follows within the stream's retry (2 s), where they are missing.
        const QLatin1String report(
            "log line(s) of master-replica-0 could not be stored (No space left on device) and are missing here.");
        QTRY_VERIFY2_WITH_TIMEOUT(logText(QStringLiteral("full_a")).contains(report),
            qPrintable(logText(QStringLiteral("full_a")).right(2000)), 15000);
        // A new job runs.
        QVERIFY(m_client->createJobBlocking(spamJob(QStringLiteral("full_c"), 100)).ok());
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(m_client->getJobBlocking(QStringLiteral("full_c")).value.state), 60000);
        QCOMPARE(m_client->getJobBlocking(QStringLiteral("full_c")).value.state, JobState::Succeeded);
        QVERIFY(logText(QStringLiteral("full_c")).contains(QLatin1String("step 99 ")));

        m_executor.stop(); // SIGTERM: it must end by itself (a SIGKILL after 60 s is a crash exit)
        QCOMPARE(m_executor.process().exitStatus(), QProcess::NormalExit);
        for (const char* db : { "trainyard.sqlite", "metrics.sqlite" })
            QCOMPARE(Test::sqliteIntegrity(dataDir() + QLatin1Char('/') + QLatin1String(db), Test::OpenMode::ReadWrite),
                QStringLiteral("ok"));
        // Every line of the replica's log file is whole JSON (a failed batch was cut off, not left half written).
        QFile log(dataDir() + QStringLiteral("/projects/local/jobs/full_a/logs/master-replica-0.jsonl"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        int lines = 0;
        while (!log.atEnd()) {
            const QByteArray line = log.readLine();
            QVERIFY2(line.endsWith('\n') && QJsonDocument::fromJson(line).isObject(), line.left(200).constData());
            ++lines;
        }
        qInfo("the full job's log kept %d lines", lines);
        QVERIFY(lines > 0);
    }
};

QTEST_GUILESS_MAIN(TestDiskFull)
#include "tst_diskfull.moc"
