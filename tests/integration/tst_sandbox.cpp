// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 42, item 1: code that users deploy or submit runs outside the executor's reach (app/launch/sandbox.h). A
// trainer, a custom prediction routine (and pip building its package), a pickled model (unpickling runs code) and a
// batch prediction worker each try to read the token file, executor.json, the config folder and the TLS key, open
// the SQLite files, write into the data folder, list the executor's /proc/PID/fd, attach to it and signal it
// (tests/integration/sandbox_probe.py): every attempt fails, and the job, the versions and the batch job still work.
//
// Run twice: with the executor as the test's user (root in CI: user code then runs as the `trainyard` account, or
// nobody), and, when the test runs as root, with the executor as an unprivileged user (nobody), whose user code runs
// as that same user, kept out by the namespaces alone. Needs bubblewrap; skipped without it (failed under
// TRAINYARD_REQUIRE_ALL=1).
#include "apirequest.h"
#include "requireddependencies.h"
#include "tlsexecutor.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <grp.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

using namespace Trainyard;
using Trainyard::Test::ApiResponse;

namespace {

QByteArray json(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// Every "SANDBOX-PROBE {…}" report in `text` (a job's JSONL log lines, or a version's nodes.log), by its "where".
QMap<QString, QJsonObject> reportsIn(const QByteArray& text)
{
    QMap<QString, QJsonObject> reports;
    for (QByteArray line : text.split('\n')) {
        // A job's log line is an entry whose message holds the report.
        if (line.startsWith('{'))
            line = QJsonDocument::fromJson(line).object().value(QStringLiteral("message")).toString().toUtf8();
        const qsizetype at = line.indexOf("SANDBOX-PROBE ");
        if (at < 0)
            continue;
        const QJsonObject report = QJsonDocument::fromJson(line.mid(at + 14)).object();
        reports.insert(report.value(QStringLiteral("where")).toString(), report);
    }
    return reports;
}

/// All files under `folder`, concatenated.
QByteArray readTree(const QString& folder)
{
    QByteArray all;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly))
            all += f.readAll() + '\n';
    }
    return all;
}

} // namespace

class TestSandbox : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QNetworkAccessManager m_nam;
    QProcess m_executor;
    QUrl m_url;
    QByteArray m_token;
    QString m_dataDir;

    QString path(const QString& relative) const { return m_root.filePath(relative); }

    ApiResponse send(const QByteArray& verb, const QString& apiPath, const QByteArray& body = {})
    {
        return Test::sendApiRequest(
            m_nam, verb, Test::apiUrl(m_url, apiPath), body, { { "Authorization", "Bearer " + m_token } }, 120000);
    }

    /// Starts the executor (TLS on loopback: its key is one more thing to keep out of reach) with its folders under
    /// `home`, as `account` (empty: the test's own user).
    void startExecutor(const QString& home, const QString& account)
    {
        const QString run = QString(home + QStringLiteral("/run"));
        QVERIFY(QDir().mkpath(run + QStringLiteral("/trainyard")));
        QVERIFY(QDir().mkpath(QString(home + QStringLiteral("/config/trainyard"))));
        QVERIFY(QDir().mkpath(QString(home + QStringLiteral("/data"))));
        QVERIFY(QDir().mkpath(QString(home + QStringLiteral("/jobs"))));
        // What the config folder keeps: the console's pins and a cluster list.
        for (const char* name : { "known_executors", "clusters.yaml" }) {
            QFile f(QString(home + QStringLiteral("/config/trainyard/")) + QLatin1String(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("# secret of the executor's user\n");
        }
        QString error;
        QVERIFY2(Test::makeSelfSignedCertificate(QString(home + QStringLiteral("/config/trainyard")), QStringLiteral("tls"),
                     QStringLiteral("trainyard-sandbox"), &error),
            qPrintable(error));
        int uid = -1;
        int gid = -1;
        if (!account.isEmpty()) {
            const passwd* pw = ::getpwnam(account.toLocal8Bit().constData());
            QVERIFY(pw);
            uid = int(pw->pw_uid);
            gid = int(pw->pw_gid);
            // The executor's own folders are its user's.
            QProcess chown;
            chown.start(QStringLiteral("chown"), { QStringLiteral("-R"), QStringLiteral("%1:%2").arg(uid).arg(gid), home });
            QVERIFY(chown.waitForFinished(30000) && chown.exitCode() == 0);
        }
        QFile::setPermissions(run, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), run);
        env.insert(QStringLiteral("XDG_DATA_HOME"), QString(home + QStringLiteral("/data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), QString(home + QStringLiteral("/config")));
        env.insert(QStringLiteral("HOME"), home);
        env.remove(QStringLiteral("TRAINYARD_TOKEN"));
        m_executor.setProcessEnvironment(env);
        m_executor.setProcessChannelMode(QProcess::ForwardedChannels);
        const pid_t parent = ::getpid();
        m_executor.setChildProcessModifier([parent, uid, gid] {
            if (gid >= 0 && (::setgroups(0, nullptr) != 0 || ::setgid(gid_t(gid)) != 0))
                _exit(126);
            if (uid >= 0 && ::setuid(uid_t(uid)) != 0)
                _exit(126);
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent)
                _exit(1);
        });
        m_executor.start(QStringLiteral(TRAINYARD_EXECUTOR_BIN),
            { QStringLiteral("--grace-period"), QStringLiteral("2"), QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:0"), QStringLiteral("--tls-cert"),
                QString(home + QStringLiteral("/config/trainyard/tls.pem")), QStringLiteral("--tls-key"),
                QString(home + QStringLiteral("/config/trainyard/tls.key")), QStringLiteral("--job-dir-root"),
                QString(home + QStringLiteral("/jobs")), QStringLiteral("--sandbox"), QStringLiteral("on") });
        const QString runtime = run + QStringLiteral("/trainyard/executor.json");
        QVERIFY2(QTest::qWaitFor(
                     [&] { return QFile::exists(runtime) || m_executor.state() == QProcess::NotRunning; }, 60000)
                && QFile::exists(runtime),
            "the executor did not start");
        QFile file(runtime);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject runtimeJson = QJsonDocument::fromJson(file.readAll()).object();
        m_url = QUrl(runtimeJson.value(QStringLiteral("url")).toString());
        QFile token(runtimeJson.value(QStringLiteral("tokenFile")).toString());
        QVERIFY(token.open(QIODevice::ReadOnly));
        m_token = token.readAll().trimmed();
        m_dataDir = runtimeJson.value(QStringLiteral("dataDir")).toString();
        // The test trusts the executor's own certificate (self-signed, its own CA).
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(QSslCertificate::fromPath(QString(home + QStringLiteral("/config/trainyard/tls.pem"))));
        QSslConfiguration::setDefaultConfiguration(tls);
    }

    void stopExecutor()
    {
        m_executor.terminate();
        if (!m_executor.waitForFinished(60000))
            m_executor.kill();
        m_executor.waitForFinished(5000);
    }

    /// What must stay out of reach, for the probes.
    QJsonObject targets(const QString& home) const
    {
        return { { QStringLiteral("token"), QString(home + QStringLiteral("/run/trainyard/token")) },
            { QStringLiteral("runtimeFile"), QString(home + QStringLiteral("/run/trainyard/executor.json")) },
            { QStringLiteral("configDir"), QString(home + QStringLiteral("/config/trainyard")) },
            { QStringLiteral("tlsKey"), QString(home + QStringLiteral("/config/trainyard/tls.key")) },
            { QStringLiteral("dataDir"), m_dataDir }, { QStringLiteral("executorPid"), qint64(m_executor.processId()) } };
    }

    static void verifyBlocked(const QJsonObject& report, const QString& where)
    {
        QVERIFY2(!report.isEmpty(), qPrintable(where + QStringLiteral(": no report")));
        const QJsonObject attempts = report.value(QStringLiteral("attempts")).toObject();
        QVERIFY2(attempts.size() >= 13,
            qPrintable(where + QStringLiteral(": ") + QString::fromUtf8(QJsonDocument(attempts).toJson())));
        for (auto it = attempts.begin(); it != attempts.end(); ++it) {
            // "need:…" is what user code must still do inside (shared memory in /dev/shm); the rest must be blocked.
            const bool need = it.key().startsWith(QLatin1String("need:"));
            QVERIFY2(need ? it.value().toString() == QLatin1String("ok")
                          : it.value().toString().startsWith(QLatin1String("blocked:")),
                qPrintable(QStringLiteral("%1, %2: %3").arg(where, it.key(), it.value().toString())));
        }
        QVERIFY2(attempts.contains(QLatin1String("need:sharedMemory")), qPrintable(where));
        QVERIFY2(report.value(QStringLiteral("uid")).toInt() != 0, qPrintable(where + QStringLiteral(" ran as root")));
    }

    QString waitForJob(const QString& jobId)
    {
        return Test::pollUntil(
            [&] { return send("GET", QStringLiteral("/v1/projects/local/jobs/") + jobId).json; }, Test::jobStateIsFinal,
            300000)
            .value(QStringLiteral("state"))
            .toString();
    }

    QJsonObject waitForOperation(const QString& name)
    {
        return Test::pollUntil([&] { return send("GET", QStringLiteral("/v1/") + name).json; },
            [](const QJsonObject& op) { return op.value(QStringLiteral("done")).toBool(); }, 300000);
    }

    /// Everything a scenario runs: a training job, a pickled model's version, a custom routine's version (pip
    /// included), a batch prediction job over the pickled model; each probes, and each works.
    void everyKindOfUserCode(const QString& home)
    {
        QProcess python;
        python.setProcessChannelMode(QProcess::ForwardedChannels);
        python.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/sandbox_probe.py"), QString(home + QStringLiteral("/jobs/code")),
                QString::fromUtf8(json(targets(home))) });
        QVERIFY(python.waitForFinished(120000));
        QCOMPARE(python.exitCode(), 0);
        const QString code = QString(home + QStringLiteral("/jobs/code"));
        if (::geteuid() == 0) {
            QProcess chown;
            chown.start(QStringLiteral("chmod"), { QStringLiteral("-R"), QStringLiteral("a+rX"), QString(home + QStringLiteral("/jobs")) });
            QVERIFY(chown.waitForFinished(30000));
        }

        // A trainer.
        const QJsonObject job { { QStringLiteral("jobId"), QStringLiteral("probe_trainer") },
            { QStringLiteral("trainingInput"),
                QJsonObject { { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
                    { QStringLiteral("packageUris"), QJsonArray { QString(code + QStringLiteral("/package")) } },
                    { QStringLiteral("pythonModule"), QStringLiteral("sandboxprobe.task") },
                    { QStringLiteral("jobDir"), QString(home + QStringLiteral("/jobs/probe_trainer")) } } } };
        ApiResponse r = send("POST", QStringLiteral("/v1/projects/local/jobs"), json(job));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(waitForJob(QStringLiteral("probe_trainer")), QStringLiteral("SUCCEEDED"));
        QVERIFY(QFile::exists(QString(home + QStringLiteral("/jobs/probe_trainer/trained.txt")))); // it wrote its job dir
        QMap<QString, QJsonObject> reports
            = reportsIn(readTree(QString(m_dataDir + QStringLiteral("/projects/local/jobs/probe_trainer"))));
        verifyBlocked(reports.value(QStringLiteral("trainer")), QStringLiteral("trainer"));

        // A pickled model and a custom prediction routine.
        r = send("POST", QStringLiteral("/v1/projects/local/models"), json({ { QStringLiteral("name"), QStringLiteral("probe") } }));
        QVERIFY2(r.status == 200, r.body.constData());
        const QList<QJsonObject> versions {
            { { QStringLiteral("name"), QStringLiteral("pickled") }, { QStringLiteral("deploymentUri"), QString(code + QStringLiteral("/pickled")) },
                { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } },
            { { QStringLiteral("name"), QStringLiteral("routine") }, { QStringLiteral("deploymentUri"), QString(code + QStringLiteral("/routine")) },
                { QStringLiteral("predictionClass"), QStringLiteral("sandboxprobe.routine.Predictor") },
                { QStringLiteral("packageUris"), QJsonArray { QString(code + QStringLiteral("/package")) } } },
        };
        for (const QJsonObject& v : versions) {
            r = send("POST", QStringLiteral("/v1/projects/local/models/probe/versions"), json(v));
            QVERIFY2(r.status == 200, r.body.constData());
            const QJsonObject op = waitForOperation(r.json.value(QStringLiteral("name")).toString());
            QVERIFY2(!op.contains(QLatin1String("error")), json(op).constData());
        }
        r = send("POST", QStringLiteral("/v1/projects/local/models/probe/versions/pickled:predict"),
            json({ { QStringLiteral("instances"), QJsonArray { QJsonArray { 0.5 }, QJsonArray { 2.5 } } } }));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.json.value(QStringLiteral("predictions")).toArray(), (QJsonArray { 0, 1 }));
        r = send("POST", QStringLiteral("/v1/projects/local/models/probe/versions/routine:predict"),
            json({ { QStringLiteral("instances"), QJsonArray { 1, 2 } } }));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.json.value(QStringLiteral("predictions")).toArray(), (QJsonArray { 2, 4 }));
        const QString versionsDir = QString(m_dataDir + QStringLiteral("/projects/local/models/probe/versions/"));
        reports = reportsIn(readTree(versionsDir));
        verifyBlocked(reports.value(QStringLiteral("pickled model")), QStringLiteral("pickled model"));
        verifyBlocked(reports.value(QStringLiteral("custom routine")), QStringLiteral("custom routine"));

        // A batch prediction worker, loading the pickle from its folder (uri).
        const QJsonObject batch { { QStringLiteral("jobId"), QStringLiteral("probe_batch") },
            { QStringLiteral("predictionInput"),
                QJsonObject { { QStringLiteral("uri"), QString(code + QStringLiteral("/pickled")) },
                    { QStringLiteral("dataFormat"), QStringLiteral("JSON") },
                    { QStringLiteral("inputPaths"), QJsonArray { QString(code + QStringLiteral("/input.json")) } },
                    { QStringLiteral("outputPath"), QString(home + QStringLiteral("/jobs/probe_batch_out")) } } } };
        r = send("POST", QStringLiteral("/v1/projects/local/jobs"), json(batch));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(waitForJob(QStringLiteral("probe_batch")), QStringLiteral("SUCCEEDED"));
        QFile results(QString(home + QStringLiteral("/jobs/probe_batch_out/prediction.results-00000-of-00001")));
        QVERIFY(results.open(QIODevice::ReadOnly));
        QCOMPARE(results.readAll().count('\n'), 2);
        reports = reportsIn(readTree(QString(m_dataDir + QStringLiteral("/projects/local/jobs/probe_batch"))));
        verifyBlocked(reports.value(QStringLiteral("pickled model")), QStringLiteral("batch worker"));
        QVERIFY(!QFile::exists(QString(m_dataDir + QStringLiteral("/planted-by-user-code"))));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            TRAINYARD_SKIP_OR_FAIL("bubblewrap is not installed (packaging/setup-deps.sh installs it)");
        // Folders an unprivileged executor must reach.
        QFile::setPermissions(m_root.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
                | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
    }

    void asTheTestsUser()
    {
        startExecutor(path(QStringLiteral("self")), QString());
        everyKindOfUserCode(path(QStringLiteral("self")));
        stopExecutor();
    }

    void asAnUnprivilegedUser()
    {
        if (::geteuid() != 0)
            QSKIP("the test runs as an unprivileged user already (asTheTestsUser)");
        startExecutor(path(QStringLiteral("nobody")), QStringLiteral("nobody"));
        everyKindOfUserCode(path(QStringLiteral("nobody")));
        stopExecutor();
    }

    void cleanupTestCase() { stopExecutor(); }
};

QTEST_GUILESS_MAIN(TestSandbox)
#include "tst_sandbox.moc"
