// SPDX-License-Identifier: GPL-2.0-or-later
#include "tlsserver.h"
#include "apicommon.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QSslSocket>
#include <QTimer>

namespace Trainyard {

QByteArray TlsIdentity::sha256() const
{
    return chain.isEmpty() ? QByteArray() : chain.first().digest(QCryptographicHash::Sha256).toHex();
}

QSslConfiguration TlsIdentity::serverConfiguration() const
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificateChain(chain);
    configuration.setPrivateKey(key);
    configuration.setProtocol(QSsl::TlsV1_2OrLater);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone); // clients authenticate with bearer tokens
    return configuration;
}

namespace {

/// Completes a TLS handshake between a server socket with `identity` and a client that verifies nothing, over a
/// loopback connection, within 10 s. Returns the server side's error ("" when the handshake succeeded).
QString handshakeProblem(const TlsIdentity& identity)
{
    TlsTcpServer listener(identity.serverConfiguration());
    if (!listener.listen(QHostAddress::LocalHost, 0))
        return QStringLiteral("cannot open a loopback socket to check the certificate: %1").arg(listener.errorString());
    QEventLoop loop;
    QString problem;
    bool serverDone = false;
    bool clientDone = false;
    auto finish = [&] {
        if (serverDone && clientDone)
            loop.quit();
    };
    QObject::connect(&listener, &QTcpServer::newConnection, &loop, [&] {
        auto* server = qobject_cast<QSslSocket*>(listener.nextPendingConnection());
        if (!server)
            return;
        QObject::connect(server, &QSslSocket::encrypted, &loop, [&] {
            serverDone = true;
            finish();
        });
        QObject::connect(server, &QSslSocket::errorOccurred, &loop, [&, server](QAbstractSocket::SocketError) {
            if (serverDone)
                return;
            problem = server->errorString();
            loop.quit();
        });
        server->startServerEncryption();
    });
    QSslSocket client;
    client.setPeerVerifyMode(QSslSocket::VerifyNone);
    QObject::connect(&client, &QSslSocket::encrypted, &loop, [&] {
        clientDone = true;
        finish();
    });
    QObject::connect(&client, &QSslSocket::errorOccurred, &loop, [&](QAbstractSocket::SocketError) {
        if (clientDone || !problem.isEmpty())
            return;
        // The server's own error, when it has one, says more; let its signal come first.
        QTimer::singleShot(200, &loop, [&] {
            if (problem.isEmpty())
                problem = client.errorString();
            loop.quit();
        });
    });
    QTimer::singleShot(10000, &loop, [&] {
        if (problem.isEmpty())
            problem = QStringLiteral("the TLS handshake over loopback did not complete within 10 s");
        loop.quit();
    });
    client.connectToHostEncrypted(QStringLiteral("127.0.0.1"), listener.serverPort());
    loop.exec();
    client.abort();
    return problem;
}

} // namespace

bool TlsIdentity::load(const QString& certFile, const QString& keyFile, TlsIdentity* identity, QString* error)
{
    QFile cert(certFile);
    if (!cert.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("--tls-cert %1: cannot read the certificate: %2").arg(certFile, cert.errorString());
        return false;
    }
    const QList<QSslCertificate> chain = QSslCertificate::fromData(cert.readAll(), QSsl::Pem);
    if (chain.isEmpty() || chain.first().isNull()) {
        *error
            = QStringLiteral("--tls-cert %1: holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\")").arg(certFile);
        return false;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (chain.first().expiryDate() < now) {
        *error = QStringLiteral("--tls-cert %1: the certificate expired on %2")
                     .arg(certFile, chain.first().expiryDate().toString(Qt::ISODate));
        return false;
    }
    QFile key(keyFile);
    if (!key.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("--tls-key %1: cannot read the private key: %2").arg(keyFile, key.errorString());
        return false;
    }
    const QByteArray pem = key.readAll();
    QSslKey privateKey;
    for (const QSsl::KeyAlgorithm algorithm : { QSsl::Rsa, QSsl::Ec, QSsl::Dsa }) {
        privateKey = QSslKey(pem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!privateKey.isNull())
            break;
    }
    if (privateKey.isNull()) {
        *error = QStringLiteral("--tls-key %1: holds no unencrypted PEM private key (RSA, EC or DSA); a key with a "
                                "passphrase must be decrypted first (openssl pkey -in KEY -out PLAIN)")
                     .arg(keyFile);
        return false;
    }
    TlsIdentity candidate { chain, privateKey };
    if (const QString problem = handshakeProblem(candidate); !problem.isEmpty()) {
        // OpenSSL's words for a key of another certificate are "Unable to init SSL Context" with nothing after.
        QString detail = problem.trimmed();
        while (detail.endsWith(QLatin1Char(':')))
            detail.chop(1);
        *error = QStringLiteral("--tls-key %1 does not belong to the certificate in --tls-cert %2: a TLS handshake "
                                "with the pair failed (%3)")
                     .arg(keyFile, certFile, detail);
        return false;
    }
    *identity = std::move(candidate);
    return true;
}

TlsTcpServer::TlsTcpServer(const QSslConfiguration& configuration, QObject* parent)
    : QTcpServer(parent)
    , m_configuration(configuration)
{
}

void TlsTcpServer::incomingConnection(qintptr descriptor)
{
    auto* socket = new QSslSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        qCWarning(Api::lcApi) << "cannot take a connection:" << socket->errorString();
        delete socket;
        return;
    }
    socket->setSslConfiguration(m_configuration);
    addPendingConnection(socket);
}

} // namespace Trainyard
