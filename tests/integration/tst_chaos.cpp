// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 15's chaos test: job lifecycles (plain, distributed 1 + 2, and tuning jobs of 2 trials, 2 at a time) run
// while the executor is SIGKILLed at seeded random moments and started again, and replicas are SIGKILLed at
// random. At the end:
// - every accepted job is there, in a final state consistent with its times and message;
// - no task of a job ran twice at once (each replica holds a flock on its task while it runs: tytest.chaos);
// - no log line the executor had served before a crash is missing afterwards;
// - `PRAGMA integrity_check` is ok for the job and metrics databases;
// - no process of any job is left.
// TRAINYARD_CHAOS_JOBS (default 100) sets the number of lifecycles, TRAINYARD_CHAOS_SEED the seed (printed, so
// that a failing run can be replayed).
#include "apiclient.h"
#include "executorenvironment.h"
#include "executorprocess.h"
#include "sqliteintegrity.h"
#include "statenames.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>
#include <memory>

using namespace Trainyard;

namespace {

const QString TrainerDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");

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

} // namespace

class TestChaos : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    Test::ExecutorProcess m_executor { m_root.path() };
    std::unique_ptr<ApiClient> m_client;
    QRandomGenerator m_random;
    int m_executorKills = 0;
    int m_replicaKills = 0;

    QString path(const QString& relative) const { return m_root.filePath(relative); }
    QString dataDir() const { return path(QStringLiteral("data")); }

    bool startExecutor()
    {
        m_executor.setLogFile(path(QStringLiteral("executor.log")));
        QString error;
        if (!m_executor.start({ QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--data-dir"),
                                  dataDir(), QStringLiteral("--runtime-dir"), path(QStringLiteral("run/trainyard")),
                                  QStringLiteral("--grace-period"), QStringLiteral("1"),
                                  QStringLiteral("--job-dir-root"), path(QStringLiteral("jobs")) },
                &error)) {
            qWarning().noquote() << error;
            return false;
        }
        m_client = std::make_unique<ApiClient>(m_executor.url(), m_executor.token());
        return m_client->hostBlocking().ok();
    }

    void killExecutor()
    {
        m_executor.kill();
        ++m_executorKills;
    }

    /// A job of `kind`: 0 plain (BASIC), 1 distributed (1 master + 2 workers), 2 tuning (2 trials, 2 at a time).
    Job chaosJob(const QString& id, int kind)
    {
        Job job = Test::customJob(id, QStringLiteral("tytest.chaos"), kind == 1 ? 2 : 0);
        if (kind != 1) {
            job.trainingInput = TrainingInput {};
            job.trainingInput.scaleTier = QStringLiteral("BASIC");
            job.trainingInput.pythonModule = QStringLiteral("tytest.chaos");
            job.trainingInput.region = QStringLiteral("local");
        }
        job.trainingInput.jobDir = path(QStringLiteral("jobs/") + id);
        job.trainingInput.packageUris = { TrainerDir };
        job.trainingInput.args = { QStringLiteral("--lines"), QString::number(4 + m_random.bounded(8)),
            QStringLiteral("--pause"), QStringLiteral("0.03") };
        if (kind == 2) {
            HyperparameterSpec spec;
            spec.goal = QStringLiteral("MAXIMIZE");
            spec.maxTrials = 2;
            spec.maxParallelTrials = 2;
            ParameterSpec x;
            x.parameterName = QStringLiteral("x");
            x.type = QStringLiteral("DOUBLE");
            x.minValue = 0;
            x.maxValue = 1;
            spec.params = { x };
            job.trainingInput.hyperparameters = spec;
        }
        return job;
    }

    /// Every log entry of a job the executor serves now, as "task|trial|message" (empty when it cannot be read).
    QSet<QString> logLines(const QString& id)
    {
        QSet<QString> lines;
        QString token;
        do {
            const ApiResult<LogPage> page = m_client->logsBlocking(id, {}, {}, 10000, token);
            if (!page.ok())
                return lines;
            for (const LogEntry& e : page.value.entries)
                lines.insert(e.taskName + QLatin1Char('|') + e.trialId + QLatin1Char('|') + e.message);
            token = page.value.nextPageToken;
        } while (!token.isEmpty());
        return lines;
    }

    /// The pids of processes of this test's jobs (their environment names a folder of the data dir).
    QStringList jobProcesses()
    {
        QStringList found;
        const QByteArray marker = "TRAINYARD_JOB_FOLDER=" + QFile::encodeName(dataDir());
        for (const QString& e : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            bool ok = false;
            const qint64 pid = e.toLongLong(&ok);
            if (!ok || !processAlive(pid))
                continue;
            QFile env(QStringLiteral("/proc/%1/environ").arg(pid));
            if (env.open(QIODevice::ReadOnly) && env.readAll().contains(marker))
                found << e;
        }
        return found;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("jobs"), QStringLiteral("run/trainyard") }));
        qputenv("PYTHONPATH", QFile::encodeName(TrainerDir));
        bool seedSet = false;
        const quint32 seed = quint32(qEnvironmentVariableIntValue("TRAINYARD_CHAOS_SEED", &seedSet));
        const quint32 used = seedSet ? seed : quint32(QDateTime::currentMSecsSinceEpoch() & 0x7fffffff);
        m_random.seed(used);
        qInfo("chaos seed %u (TRAINYARD_CHAOS_SEED=%u replays it)", used, used);
        QVERIFY(startExecutor());
    }

    void lifecycles()
    {
        bool set = false;
        const int wanted = qEnvironmentVariableIntValue("TRAINYARD_CHAOS_JOBS", &set);
        const int jobs = set && wanted > 0 ? wanted : 100;
        QStringList accepted;
        std::map<QString, QSet<QString>> servedBeforeCrash; // job → lines served before some executor SIGKILL
        QElapsedTimer clock;
        clock.start();
        int submitted = 0;
        while (submitted < jobs) {
            // Keep a few jobs live: submit while fewer than 4 are not final.
            QStringList live;
            for (const QString& id : std::as_const(accepted)) {
                const ApiResult<Job> j = m_client->getJobBlocking(id);
                if (j.ok() && !isFinal(j.value.state))
                    live << id;
            }
            if (live.size() < 4) {
                const QString id = QStringLiteral("chaos_%1").arg(submitted, 3, 10, QLatin1Char('0'));
                const ApiResult<Job> created = m_client->createJobBlocking(chaosJob(id, submitted % 3));
                QVERIFY2(created.ok(),
                    qPrintable(created.error.summary() + QStringLiteral(" ")
                        + (created.error.violations.isEmpty() ? QString()
                                                              : created.error.violations.first().field
                                    + QStringLiteral(": ") + created.error.violations.first().description)));
                accepted << id;
                ++submitted;
            }
            // Then a fault, at random, or a short pause.
            // Half-way through with no executor death yet (a run with few iterations can draw none): one now.
            const quint32 dice = m_random.bounded(100);
            if (dice < 4 || (m_executorKills == 0 && submitted >= jobs / 2)) {
                // What the executor serves now must survive its death.
                for (const QString& id : std::as_const(accepted))
                    servedBeforeCrash[id].unite(logLines(id));
                QTest::qWait(int(m_random.bounded(400)));
                killExecutor();
                QVERIFY(startExecutor());
            } else if (dice < 30 && !live.isEmpty()) {
                // A random replica of a random live job.
                const QString id = live.at(int(m_random.bounded(quint32(live.size()))));
                const ApiResult<QList<ReplicaInfo>> reps = m_client->replicasBlocking(id);
                if (reps.ok() && !reps.value.isEmpty()) {
                    const ReplicaInfo& r = reps.value.at(int(m_random.bounded(quint32(reps.value.size()))));
                    if (r.state == ReplicaState::Running && r.pid > 0
                        && ::kill(static_cast<pid_t>(r.pid), SIGKILL) == 0)
                        ++m_replicaKills;
                }
            } else {
                QTest::qWait(int(50 + m_random.bounded(250)));
            }
        }
        // The last faults are over: everything ends.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QString& id : std::as_const(accepted)) {
                    const ApiResult<Job> j = m_client->getJobBlocking(id);
                    if (!j.ok() || !isFinal(j.value.state))
                        return false;
                }
                return true;
            }(),
            600000);
        QMap<QString, int> byState;
        for (const QString& id : std::as_const(accepted)) {
            const ApiResult<Job> r = m_client->getJobBlocking(id);
            QVERIFY2(r.ok(), qPrintable(id));
            const Job& j = r.value;
            byState[jobStateName(j.state)] += 1;
            // Consistent: created ≤ started ≤ ended; a failure says why; a success has no error.
            QVERIFY2(!j.createTime.isEmpty() && !j.endTime.isEmpty(), qPrintable(id));
            QVERIFY2(
                j.startTime.isEmpty() || (j.createTime <= j.startTime && j.startTime <= j.endTime), qPrintable(id));
            if (j.state == JobState::Failed)
                QVERIFY2(!j.errorMessage.isEmpty(), qPrintable(id));
            if (j.state == JobState::Succeeded)
                QVERIFY2(j.errorMessage.isEmpty(), qPrintable(id + QStringLiteral(": ") + j.errorMessage));
            // No task ran twice at once.
            QVERIFY2(
                !QFile::exists(path(QStringLiteral("jobs/") + id + QStringLiteral("/overlap.log"))), qPrintable(id));
            // No line served before a crash is gone.
            const auto before = servedBeforeCrash.find(id);
            if (before != servedBeforeCrash.end()) {
                const QSet<QString> now = logLines(id);
                QSet<QString> lost = before->second;
                lost.subtract(now);
                QVERIFY2(lost.isEmpty(),
                    qPrintable(id + QStringLiteral(" lost: ") + QStringList(lost.values()).join(QLatin1Char('\n'))));
            }
        }
        QStringList summary;
        for (auto it = byState.cbegin(); it != byState.cend(); ++it)
            summary << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
        qInfo("%lld jobs in %.0f s with %d executor SIGKILLs and %d replica SIGKILLs: %s", qint64(accepted.size()),
            clock.elapsed() / 1000.0, m_executorKills, m_replicaKills, qPrintable(summary.join(QStringLiteral(", "))));
        QCOMPARE(accepted.size(), jobs);
        QVERIFY(m_executorKills > 0);

        // A clean stop; then the databases and the process table.
        QVERIFY(m_executor.stop());
        for (const char* db : { "trainyard.sqlite", "metrics.sqlite" })
            QCOMPARE(Test::sqliteIntegrity(dataDir() + QLatin1Char('/') + QLatin1String(db)), QStringLiteral("ok"));
        QTRY_VERIFY2_WITH_TIMEOUT(jobProcesses().isEmpty(), qPrintable(jobProcesses().join(QLatin1Char(' '))), 30000);
    }

    void cleanupTestCase() { m_executor.stop(30000); }
};

QTEST_GUILESS_MAIN(TestChaos)
#include "tst_chaos.moc"
