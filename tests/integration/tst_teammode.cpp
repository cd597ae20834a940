// SPDX-License-Identifier: GPL-2.0-or-later
// Team mode (README "Team mode", app/executor/API.md "Team mode"): the real trainyard-executor serving HTTPS with a
// self-signed certificate made at test time by the openssl CLI, and the real trainyardctl connecting to it with a
// token file and a pin, known_executors or a CA file. Refusals: plain HTTP on a non-loopback address, a key of
// another certificate, a wrong pin (both fingerprints named), an untrusted certificate on first use (its fingerprint
// named), no token (401), a viewer cancelling (403), plain HTTP sent to the TLS port, a connection that never
// starts its handshake (closed by the header timeout).
#include "childprocess.h"
#include "executortrust.h"
#include "httpapi.h"
#include "jobstore.h"
#include "logstore.h"
#include "requireddependencies.h"
#include "scheduler.h"
#include "tlsexecutor.h"
#include "tlsserver.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QSignalSpy>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

struct CtlRun {
    int code = -1;
    QString out;
    QString err;
};

} // namespace

class TestTeamMode : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_cert; ///< the executor's certificate (its own CA)
    QString m_key;
    QString m_otherCert; ///< another self-signed certificate: a CA file that does not vouch for the executor
    QString m_otherKey;
    Test::TlsExecutor m_executor;
    QString m_adminTokenFile; ///< a copy of the admin's token, as a colleague would have a token in a file
    int m_configs = 0;

    /// A fresh XDG_CONFIG_HOME, so that each client starts without known_executors.
    QString freshConfig()
    {
        const QString dir = m_root.filePath(QStringLiteral("config-%1").arg(++m_configs));
        QDir().mkpath(dir);
        return dir;
    }

    CtlRun ctl(const QStringList& args, const QString& configHome, const QByteArray& envToken = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome);
        // No local executor for these clients: the runtime folder is empty, so nothing local answers for them.
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root.filePath(QStringLiteral("client-run")));
        env.remove(QStringLiteral("TRAINYARD_EXECUTOR"));
        env.remove(QStringLiteral("TRAINYARD_TOKEN"));
        if (!envToken.isEmpty())
            env.insert(QStringLiteral("TRAINYARD_TOKEN"), QString::fromLatin1(envToken));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(TRAINYARD_CTL_BIN), args);
        CtlRun run;
        if (!p.waitForStarted() || !QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning; }, 120000)) {
            p.kill();
            p.waitForFinished();
            run.err = QStringLiteral("timed out: ") + args.join(QLatin1Char(' '));
            return run;
        }
        run.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        run.out = QString::fromUtf8(p.readAllStandardOutput());
        run.err = QString::fromUtf8(p.readAllStandardError());
        return run;
    }

    QStringList remote(const QStringList& args) const
    {
        return QStringList { QStringLiteral("--executor"), m_executor.url.toString() } + args;
    }

    QString writeToken(const QString& name, const QByteArray& token)
    {
        const QString path = m_root.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(token + '\n');
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        return path;
    }

    /// Starts the executor binary with `args` and returns its exit code and stderr (for refusals at start).
    static std::pair<int, QString> refusal(const QStringList& args, const QString& root)
    {
        QProcess p;
        Trainyard::Test::dieWithParent(&p);
        p.start(QStringLiteral(TRAINYARD_EXECUTOR_BIN),
            args
                + QStringList { QStringLiteral("--runtime-dir"), root + QStringLiteral("/refused-run"),
                    QStringLiteral("--data-dir"), root + QStringLiteral("/refused-data") });
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return { -1, QStringLiteral("still running") };
        }
        return { p.exitCode(), QString::fromLocal8Bit(p.readAllStandardError()) };
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QString error;
        if (!Test::makeSelfSignedCertificate(
                m_root.path(), QStringLiteral("executor"), QStringLiteral("trainyard-team"), &error))
            TRAINYARD_SKIP_OR_FAIL_BECAUSE(error);
        QVERIFY2(Test::makeSelfSignedCertificate(
                     m_root.path(), QStringLiteral("other"), QStringLiteral("someone-else"), &error),
            qPrintable(error));
        m_cert = m_root.filePath(QStringLiteral("executor.pem"));
        m_key = m_root.filePath(QStringLiteral("executor.key"));
        m_otherCert = m_root.filePath(QStringLiteral("other.pem"));
        m_otherKey = m_root.filePath(QStringLiteral("other.key"));
        QDir().mkpath(m_root.filePath(QStringLiteral("client-run")));
        QFile::setPermissions(
            m_root.filePath(QStringLiteral("client-run")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY2(m_executor.start(m_root.path(), QStringLiteral("team"),
                     { QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--tls-cert"), m_cert,
                         QStringLiteral("--tls-key"), m_key },
                     &error),
            qPrintable(error));
        m_adminTokenFile = writeToken(QStringLiteral("admin.token"), m_executor.adminToken);
        QVERIFY(!m_adminTokenFile.isEmpty());
    }

    void runtimeFileSaysHttpsAndTheFingerprint()
    {
        QCOMPARE(m_executor.url.scheme(), QStringLiteral("https"));
        QCOMPARE(m_executor.url.host(), QStringLiteral("127.0.0.1"));
        const QByteArray expected = Test::opensslSha256(m_cert);
        QCOMPARE(expected.size(), 64);
        QCOMPARE(m_executor.sha256, expected);
    }

    void localClientsVerifyThroughTheRuntimeFile()
    {
        // trainyardctl on the executor's host, as its user: the runtime file gives the URL, the token and the
        // certificate's fingerprint, so no flag and no known_executors line is needed; the same for --executor with
        // the runtime file's URL.
        const QString xdg = m_root.filePath(QStringLiteral("local-xdg"));
        QVERIFY(QDir().mkpath(xdg));
        QFile::setPermissions(xdg, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(QFile::link(m_executor.runtimeDir, xdg + QStringLiteral("/trainyard")));
        for (const QStringList& args : { QStringList { QStringLiteral("jobs"), QStringLiteral("list") },
                 remote({ QStringLiteral("jobs"), QStringLiteral("list") }) }) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("XDG_CONFIG_HOME"), freshConfig());
            env.insert(QStringLiteral("XDG_RUNTIME_DIR"), xdg);
            env.insert(QStringLiteral("TRAINYARD_EXECUTOR_BIN"), QStringLiteral("/nonexistent")); // never start one
            env.remove(QStringLiteral("TRAINYARD_EXECUTOR"));
            env.remove(QStringLiteral("TRAINYARD_TOKEN"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(TRAINYARD_CTL_BIN), args);
            QVERIFY(p.waitForFinished(120000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        }
    }

    void refusesAtStart_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QStringList>("words");
        QTest::addRow("plain HTTP on every IPv4 interface")
            << QStringList { QStringLiteral("--listen"), QStringLiteral("0.0.0.0:0") } << 2
            << QStringList { QStringLiteral("without TLS"), QStringLiteral("loopback"), QStringLiteral("--tls-cert") };
        QTest::addRow("plain HTTP on every IPv6 interface")
            << QStringList { QStringLiteral("--listen"), QStringLiteral("[::]:0") } << 2
            << QStringList { QStringLiteral("without TLS"), QStringLiteral("--tls-key") };
        QTest::addRow("a certificate without its key") << QStringList { QStringLiteral("--listen"),
            QStringLiteral("0.0.0.0:0"), QStringLiteral("--tls-cert"),
            QStringLiteral("x.pem") } << 2 << QStringList { QStringLiteral("both --tls-cert and --tls-key") };
    }

    void refusesAtStart()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QStringList, words);
        const auto [code, err] = refusal(args, m_root.path());
        QCOMPARE(code, exitCode);
        for (const QString& word : words)
            QVERIFY2(err.contains(word), qPrintable(err));
    }

    void refusesBadCertificateFiles()
    {
        // The key of another certificate, a missing certificate, a key file that holds a certificate: each named.
        auto [code, err] = refusal({ QStringLiteral("--listen"), QStringLiteral("0.0.0.0:0"),
                                       QStringLiteral("--tls-cert"), m_cert, QStringLiteral("--tls-key"), m_otherKey },
            m_root.path());
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(m_otherKey) && err.contains(QLatin1String("does not belong")), qPrintable(err));
        const QString missing = m_root.filePath(QStringLiteral("missing.pem"));
        std::tie(code, err) = refusal({ QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                          QStringLiteral("--tls-cert"), missing, QStringLiteral("--tls-key"), m_key },
            m_root.path());
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(missing) && err.contains(QLatin1String("cannot read")), qPrintable(err));
        std::tie(code, err) = refusal({ QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                          QStringLiteral("--tls-cert"), m_cert, QStringLiteral("--tls-key"), m_cert },
            m_root.path());
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QLatin1String("--tls-key ") + m_cert) && err.contains(QLatin1String("private key")),
            qPrintable(err));
    }

    void ctlPinsOnRequestThenRemembers()
    {
        const QString config = freshConfig();
        // First use: refused, with the certificate and the flag to accept it.
        CtlRun r = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile, QStringLiteral("jobs"),
                           QStringLiteral("list") }),
            config);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("not trusted")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QString::fromLatin1(m_executor.sha256)), qPrintable(r.err));
        QVERIFY2(
            r.err.contains(QLatin1String("--pin-sha256=") + QString::fromLatin1(m_executor.sha256)), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("CN=trainyard-team")), qPrintable(r.err));
        QVERIFY(!QFile::exists(config + QStringLiteral("/trainyard/known_executors")));

        // Accepted with the fingerprint as openssl prints it (upper case, colons).
        const QString colons = displaySha256(m_executor.sha256).toUpper();
        r = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile, QStringLiteral("--pin-sha256"), colons,
                    QStringLiteral("jobs"), QStringLiteral("list") }),
            config);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("Pinned the certificate")), qPrintable(r.err));
        QFile known(config + QStringLiteral("/trainyard/known_executors"));
        QVERIFY(known.open(QIODevice::ReadOnly));
        const QByteArray line
            = QStringLiteral("127.0.0.1:%1 ").arg(m_executor.url.port()).toLatin1() + m_executor.sha256;
        QVERIFY(known.readAll().contains(line));
        QCOMPARE(known.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());

        // Later runs: known, no flag, the token from the environment.
        r = ctl(remote({ QStringLiteral("jobs"), QStringLiteral("list") }), config, m_executor.adminToken);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!r.err.contains(QLatin1String("Pinned")));
    }

    void atATerminalCtlAsksAsSshDoes_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<bool>("accepted");
        QTest::addRow("yes") << QByteArray("yes\n") << true;
        QTest::addRow("the fingerprint, as openssl prints it") << QByteArray("FINGERPRINT\n") << true;
        QTest::addRow("no") << QByteArray("no\n") << false;
        QTest::addRow("another fingerprint") << QByteArray(QByteArray(64, 'f') + '\n') << false;
    }

    void atATerminalCtlAsksAsSshDoes()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, accepted);
        answer.replace("FINGERPRINT", displaySha256(m_executor.sha256).toUpper().toLatin1());
        const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
        if (script.isEmpty())
            TRAINYARD_SKIP_OR_FAIL("the script command (util-linux's bsdutils) gives trainyardctl a terminal");
        // script(1) runs trainyardctl on a pseudo-terminal, as a person at a shell would.
        auto quoted = [](const QString& word) -> QString { return QLatin1Char('\'') + word + QLatin1Char('\''); };
        const QString command = QStringList { quoted(QStringLiteral(TRAINYARD_CTL_BIN)), QStringLiteral("--executor"),
            quoted(m_executor.url.toString()), QStringLiteral("--token-file"), quoted(m_adminTokenFile),
            QStringLiteral("jobs"), QStringLiteral("list") }
                                    .join(QLatin1Char(' '));
        const QString config = freshConfig();
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root.filePath(QStringLiteral("client-run")));
        env.remove(QStringLiteral("TRAINYARD_TOKEN"));
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(script, { QStringLiteral("-qec"), command, QStringLiteral("/dev/null") });
        QVERIFY(p.waitForStarted());
        QString output;
        QTRY_VERIFY_WITH_TIMEOUT(
            (output += QString::fromLocal8Bit(p.readAll())).contains(QLatin1String("(yes/no")), 60000);
        QVERIFY2(output.contains(QString::fromLatin1(m_executor.sha256)), qPrintable(output));
        QVERIFY2(output.contains(QLatin1String("CN=trainyard-team")), qPrintable(output));
        p.write(answer);
        QTRY_COMPARE_WITH_TIMEOUT(p.state(), QProcess::NotRunning, 60000);
        output += QString::fromLocal8Bit(p.readAll());
        QCOMPARE(p.exitCode() == 0, accepted);
        QCOMPARE(KnownExecutors(config + QStringLiteral("/trainyard/known_executors")).lookup(m_executor.url),
            accepted ? m_executor.sha256 : QByteArray());
        QVERIFY2(output.contains(accepted ? QLatin1String("Pinned the certificate") : QLatin1String("not accepted")),
            qPrintable(output));
    }

    void knownExecutorWithAnotherCertificateIsRefused()
    {
        const QString config = freshConfig();
        const QByteArray stale(64, 'c');
        QString error;
        QVERIFY2(KnownExecutors(config + QStringLiteral("/trainyard/known_executors"))
                     .remember(m_executor.url, stale, &error),
            qPrintable(error));
        const CtlRun r = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile, QStringLiteral("jobs"),
                                 QStringLiteral("list") }),
            config);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QString::fromLatin1(stale)) && r.err.contains(QString::fromLatin1(m_executor.sha256)),
            qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("known_executors line 2")), qPrintable(r.err));
    }

    void wrongPinNamesBothFingerprints()
    {
        const QByteArray wrong(64, 'a');
        const CtlRun r = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile, QStringLiteral("--pin-sha256"),
                                 QString::fromLatin1(wrong), QStringLiteral("jobs"), QStringLiteral("list") }),
            freshConfig());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QString::fromLatin1(wrong)), qPrintable(r.err));
        QVERIFY2(r.err.contains(QString::fromLatin1(m_executor.sha256)), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("is pinned")), qPrintable(r.err));
    }

    void malformedPinIsRefused()
    {
        const CtlRun r = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile,
                                 QStringLiteral("--pin-sha256=abc"), QStringLiteral("jobs"), QStringLiteral("list") }),
            freshConfig());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("--pin-sha256 abc")), qPrintable(r.err));
        const CtlRun both
            = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile,
                      QStringLiteral("--pin-sha256=") + QString::fromLatin1(m_executor.sha256),
                      QStringLiteral("--ca-file"), m_cert, QStringLiteral("jobs"), QStringLiteral("list") }),
                freshConfig());
        QCOMPARE(both.code, 1);
        QVERIFY2(both.err.contains(QLatin1String("not both")), qPrintable(both.err));
    }

    void caFile()
    {
        CtlRun r = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile, QStringLiteral("--ca-file"), m_cert,
                           QStringLiteral("jobs"), QStringLiteral("list") }),
            freshConfig());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // A CA file that does not vouch for the executor: refused, naming the file and the presented fingerprint.
        r = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile, QStringLiteral("--ca-file"), m_otherCert,
                    QStringLiteral("jobs"), QStringLiteral("list") }),
            freshConfig());
        QCOMPARE(r.code, 1);
        QVERIFY2(
            r.err.contains(m_otherCert) && r.err.contains(QString::fromLatin1(m_executor.sha256)), qPrintable(r.err));
    }

    void tokensForAColleague()
    {
        // The admin creates a viewer's token over HTTPS; the viewer reads but cannot cancel (403).
        const QString pin = QStringLiteral("--pin-sha256=") + QString::fromLatin1(m_executor.sha256);
        CtlRun r
            = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile, pin, QStringLiteral("auth"),
                      QStringLiteral("tokens"), QStringLiteral("create"),
                      QStringLiteral("--member=user:viewer@example.org"), QStringLiteral("--role=roles/ml.viewer") }),
                freshConfig());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QByteArray viewer = r.out.trimmed().toLatin1();
        QVERIFY2(viewer.startsWith("tyk_"), viewer.constData());
        const QString viewerFile = writeToken(QStringLiteral("viewer.token"), viewer);

        const QString config = freshConfig();
        r = ctl(
            remote({ QStringLiteral("--token-file"), viewerFile, pin, QStringLiteral("jobs"), QStringLiteral("list") }),
            config);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = ctl(remote({ QStringLiteral("--token-file"), viewerFile, QStringLiteral("jobs"), QStringLiteral("cancel"),
                    QStringLiteral("somejob") }),
            config);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("PERMISSION_DENIED")) && r.err.contains(QLatin1String("ml.jobs.cancel")),
            qPrintable(r.err));
    }

    void noTokenIsUnauthenticated()
    {
        // Over HTTPS with the pin, but no Authorization header: 401 in Google's shape.
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        TlsTrustGuard guard(&nam);
        TlsTrust trust;
        trust.pinSha256 = m_executor.sha256;
        guard.setTrust(trust);
        QUrl url = m_executor.url;
        url.setPath(QStringLiteral("/v1/projects/local/jobs"));
        QNetworkRequest request(url);
        guard.prepare(&request);
        QNetworkReply* reply = nam.get(request);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(30000));
        reply->deleteLater();
        QVERIFY2(TlsTrustGuard::problem(reply).isEmpty(), qPrintable(TlsTrustGuard::problem(reply)));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 401);
        const QJsonObject error
            = QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("error")).toObject();
        QCOMPARE(error.value(QStringLiteral("status")).toString(), QStringLiteral("UNAUTHENTICATED"));

        // trainyardctl with a token the executor does not know: the 401, in words.
        const QString bogus = writeToken(QStringLiteral("bogus.token"), "tyk_notatoken");
        const CtlRun r
            = ctl(remote({ QStringLiteral("--token-file"), bogus, QStringLiteral("--pin-sha256"),
                      QString::fromLatin1(m_executor.sha256), QStringLiteral("jobs"), QStringLiteral("list") }),
                freshConfig());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("401")), qPrintable(r.err));
        // The token file that cannot be read is named.
        const CtlRun missing = ctl(remote({ QStringLiteral("--token-file"), m_root.filePath(QStringLiteral("nope")),
                                       QStringLiteral("jobs"), QStringLiteral("list") }),
            freshConfig());
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains(m_root.filePath(QStringLiteral("nope"))), qPrintable(missing.err));
    }

    void plainHttpToTheTlsPortFailsCleanly()
    {
        QTcpSocket socket;
        socket.connectToHost(m_executor.url.host(), quint16(m_executor.url.port()));
        QVERIFY(socket.waitForConnected(10000));
        socket.write("GET /v1/projects/local/host HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_executor.adminToken
            + "\r\n\r\n");
        // The handshake fails and the connection is dropped; no HTTP answer, nothing served.
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), QAbstractSocket::UnconnectedState, 30000);
        QVERIFY(!socket.readAll().startsWith("HTTP/"));
        // The executor goes on serving.
        const CtlRun r
            = ctl(remote({ QStringLiteral("--token-file"), m_adminTokenFile, QStringLiteral("--pin-sha256"),
                      QString::fromLatin1(m_executor.sha256), QStringLiteral("jobs"), QStringLiteral("list") }),
                freshConfig());
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    void silentConnectionIsClosedByTheHeaderTimeout()
    {
        // Connects and never starts the handshake: closed once the header timeout (10 s by default) passes.
        QTcpSocket socket;
        socket.connectToHost(m_executor.url.host(), quint16(m_executor.url.port()));
        QVERIFY(socket.waitForConnected(10000));
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), QAbstractSocket::UnconnectedState, 60000);
    }

    void ipv6()
    {
        Test::TlsExecutor v6;
        QString error;
        if (!v6.start(m_root.path(), QStringLiteral("v6"),
                { QStringLiteral("--listen"), QStringLiteral("[::1]:0"), QStringLiteral("--tls-cert"), m_cert,
                    QStringLiteral("--tls-key"), m_key },
                &error)) {
            if (error.contains(QLatin1String("cannot listen")))
                QSKIP("this host has no IPv6 loopback address");
            QFAIL(qPrintable(error));
        }
        QCOMPARE(v6.url.host(), QStringLiteral("::1"));
        QVERIFY(v6.url.toString().startsWith(QLatin1String("https://[::1]:")));
        const QString tokenFile = writeToken(QStringLiteral("v6.token"), v6.adminToken);
        // The certificate names ::1: the CA file verifies it, host name included.
        const CtlRun r
            = ctl({ QStringLiteral("--executor"), v6.url.toString(), QStringLiteral("--token-file"), tokenFile,
                      QStringLiteral("--ca-file"), m_cert, QStringLiteral("jobs"), QStringLiteral("list") },
                freshConfig());
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    void tlsTransportInProcess()
    {
        // The transport itself (HttpApi over TlsTcpServer): a request over TLS, a connection over the per-address
        // limit answered 429 over TLS (after its handshake, not in plain text), an idle connection closed by the
        // idle timeout and a silent one by the header timeout, all counted as connections until they close.
        // A connection takes the options in force when it is accepted: the limit is checked with long timeouts (on a
        // loaded machine the first connection must not go idle before the second arrives, nor a handshake miss its
        // deadline), the timeouts then with short ones on connections opened after.
        TlsIdentity identity;
        QString error;
        QVERIFY2(TlsIdentity::load(m_cert, m_key, &identity, &error), qPrintable(error));
        QCOMPARE(identity.sha256(), m_executor.sha256);
        const QString dataDir = m_root.filePath(QStringLiteral("inprocess"));
        QVERIFY(QDir().mkpath(dataDir));
        JobStore store;
        QVERIFY2(store.open(dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        LogStore logs(dataDir);
        HostInventory host;
        host.cpus = 4;
        host.memoryBytes = 1LL << 34;
        Scheduler scheduler(&store, &logs, host, dataDir);
        const QByteArray token = "inprocess-token";
        HttpApi api(&store, &logs, &scheduler, host, token);
        HttpApi::TransportOptions options;
        options.headerTimeoutMs = 10000;
        options.idleTimeoutMs = 60000;
        options.lingerMs = 500;
        options.maxConnectionsPerAddress = 1;
        api.setTransportOptions(options);
        auto* server = new TlsTcpServer(identity.serverConfiguration(), &api);
        QVERIFY(server->listen(QHostAddress::LocalHost, 0));
        api.bind(server);

        auto request = [&](QSslSocket* socket) {
            socket->setPeerVerifyMode(QSslSocket::VerifyNone);
            socket->connectToHostEncrypted(QStringLiteral("127.0.0.1"), server->serverPort());
            QObject::connect(socket, &QSslSocket::encrypted, socket, [socket, token] {
                socket->write("GET /v1/projects/local/host HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + token + "\r\n\r\n");
            });
        };
        QByteArray first;
        QSslSocket one;
        QObject::connect(&one, &QSslSocket::readyRead, &one, [&] { first += one.readAll(); });
        request(&one);
        QTRY_VERIFY_WITH_TIMEOUT(first.contains("\r\n\r\n"), 15000);
        QVERIFY2(first.startsWith("HTTP/1.1 200"), first.constData());
        QCOMPARE(api.openConnections(), 1); // kept alive

        // A second connection from the same address while the first is open: over the limit of one.
        QByteArray second;
        QSslSocket two;
        QObject::connect(&two, &QSslSocket::readyRead, &two, [&] { second += two.readAll(); });
        request(&two);
        QTRY_VERIFY_WITH_TIMEOUT(second.contains("RESOURCE_EXHAUSTED"), 15000);
        QVERIFY2(second.startsWith("HTTP/1.1 429"), second.constData());

        // The refused one closes after its linger; the first is closed by its client.
        one.disconnectFromHost();
        QTRY_COMPARE_WITH_TIMEOUT(api.openConnections(), 0, 15000);

        // Short timeouts from here on. A connection that was answered and then says nothing is closed by the idle
        // timeout (its handshake and request still have 10 s: the header timeout covers the handshake).
        options.idleTimeoutMs = 500;
        api.setTransportOptions(options);
        QByteArray third;
        QSslSocket three;
        QObject::connect(&three, &QSslSocket::readyRead, &three, [&] { third += three.readAll(); });
        request(&three);
        QTRY_VERIFY_WITH_TIMEOUT(third.contains("\r\n\r\n"), 15000);
        QVERIFY2(third.startsWith("HTTP/1.1 200"), third.constData());
        QTRY_COMPARE_WITH_TIMEOUT(three.state(), QAbstractSocket::UnconnectedState, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(api.openConnections(), 0, 15000);

        // A silent connection by the header timeout.
        options.headerTimeoutMs = 500;
        api.setTransportOptions(options);
        QTcpSocket silent;
        silent.connectToHost(QHostAddress::LocalHost, server->serverPort());
        QVERIFY(silent.waitForConnected(10000));
        QTRY_COMPARE_WITH_TIMEOUT(silent.state(), QAbstractSocket::UnconnectedState, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(api.openConnections(), 0, 15000);
    }

    void cleanupTestCase()
    {
        m_executor.stop();
        QCOMPARE(m_executor.process.exitStatus(), QProcess::NormalExit);
    }
};

QTEST_GUILESS_MAIN(TestTeamMode)
#include "tst_teammode.moc"
