// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Team mode in tests (tests/integration/tst_teammode.cpp, tests/gui/tst_connectdialog.cpp): a self-signed certificate
// made at test time with the openssl CLI, and a trainyard-executor process serving HTTPS with it.

#include "childprocess.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTest>
#include <QUrl>

namespace Trainyard::Test {

/// Writes `dir`/`name`.pem (a self-signed certificate for `commonName`, valid 30 days, naming 127.0.0.1, ::1 and
/// localhost as its subject alternative names, CA:TRUE so that it can be its own --ca-file) and `dir`/`name`.key (its
/// unencrypted EC P-256 key) with `openssl req -x509`. False and *error (openssl's words) when openssl is missing or
/// fails.
inline bool makeSelfSignedCertificate(
    const QString& dir, const QString& name, const QString& commonName, QString* error)
{
    const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    if (openssl.isEmpty()) {
        *error = QStringLiteral("the openssl command is not installed (Debian package openssl)");
        return false;
    }
    QProcess p;
    p.start(openssl,
        { QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
            QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
            QStringLiteral("-days"), QStringLiteral("30"), QStringLiteral("-subj"), QStringLiteral("/CN=") + commonName,
            QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost"),
            QStringLiteral("-addext"), QStringLiteral("basicConstraints=critical,CA:TRUE"), QStringLiteral("-keyout"),
            QDir(dir).filePath(name + QStringLiteral(".key")), QStringLiteral("-out"),
            QDir(dir).filePath(name + QStringLiteral(".pem")) });
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QStringLiteral("openssl req failed: ") + QString::fromLocal8Bit(p.readAllStandardError());
        return false;
    }
    return true;
}

/// What `openssl x509 -noout -fingerprint -sha256` says of `certFile`, as 64 lowercase hex characters: the
/// fingerprint computed by another implementation than Qt's. Empty on failure.
inline QByteArray opensslSha256(const QString& certFile)
{
    QProcess p;
    p.start(QStringLiteral("openssl"),
        { QStringLiteral("x509"), QStringLiteral("-noout"), QStringLiteral("-fingerprint"), QStringLiteral("-sha256"),
            QStringLiteral("-in"), certFile });
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    // "sha256 Fingerprint=AB:CD:…" (OpenSSL 3) or "SHA256 Fingerprint=…" (1.1)
    const QByteArray out = p.readAllStandardOutput().trimmed();
    return out.mid(out.indexOf('=') + 1).replace(':', "").toLower();
}

/// A trainyard-executor process serving HTTPS: its own runtime and data folders under `root`/`name`-run and -data,
/// stopped (SIGTERM, then waited for) when this is destroyed.
class TlsExecutor {
public:
    ~TlsExecutor() { stop(); }

    /// Starts the executor of this build with `arguments` (--listen, --tls-cert, --tls-key, …) and waits up to
    /// 60 s for its runtime file. False and *error (with the executor's stderr) when it exits or does not publish one.
    bool start(const QString& root, const QString& name, const QStringList& arguments, QString* error)
    {
        runtimeDir = QDir(root).filePath(name + QStringLiteral("-run"));
        dataDir = QDir(root).filePath(name + QStringLiteral("-data"));
        QDir().mkpath(runtimeDir);
        QFile::setPermissions(runtimeDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        process.setProcessChannelMode(QProcess::SeparateChannels);
        dieWithParent(&process);
        process.start(QStringLiteral(TRAINYARD_EXECUTOR_BIN),
            arguments
                + QStringList { QStringLiteral("--runtime-dir"), runtimeDir, QStringLiteral("--data-dir"), dataDir });
        const QString runtimeFile = runtimeDir + QStringLiteral("/executor.json");
        // Waits on the condition, not a fixed interval (qWaitFor processes events while it polls).
        const bool published = QTest::qWaitFor(
            [&] { return QFile::exists(runtimeFile) || process.state() == QProcess::NotRunning; }, 60000);
        if (!published || !QFile::exists(runtimeFile)) {
            process.waitForFinished(1000);
            *error = QStringLiteral("the executor did not start: ")
                + QString::fromLocal8Bit(process.readAllStandardError());
            return false;
        }
        QFile file(runtimeFile);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read ") + runtimeFile;
            return false;
        }
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        url = QUrl(json.value(QStringLiteral("url")).toString());
        sha256 = json.value(QStringLiteral("tlsCertificateSha256")).toString().toLatin1();
        tokenFile = json.value(QStringLiteral("tokenFile")).toString();
        QFile token(tokenFile);
        if (!token.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read ") + tokenFile;
            return false;
        }
        adminToken = token.readAll().trimmed();
        return url.isValid();
    }

    void stop()
    {
        if (process.state() == QProcess::NotRunning)
            return;
        process.terminate();
        if (!process.waitForFinished(30000))
            process.kill();
        process.waitForFinished(5000);
    }

    QProcess process;
    QString runtimeDir;
    QString dataDir;
    QUrl url; ///< the runtime file's: "https://127.0.0.1:PORT"
    QByteArray sha256; ///< the runtime file's tlsCertificateSha256
    QString tokenFile; ///< the admin's token
    QByteArray adminToken;
};

} // namespace Trainyard::Test
