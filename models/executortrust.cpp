// SPDX-License-Identifier: GPL-2.0-or-later
#include "executortrust.h"

#include <QCryptographicHash>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QSaveFile>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTimer>
#include <QUrl>

#include <memory>

namespace Trainyard {

namespace {
constexpr const char* ProblemProperty = "trainyardTlsProblem";
constexpr const char* PresentedProperty = "trainyardTlsPresented";

QString errorList(const QList<QSslError>& errors)
{
    QStringList texts;
    for (const QSslError& e : errors)
        texts.append(e.errorString());
    texts.removeDuplicates();
    return texts.join(QStringLiteral("; "));
}

QString names(const QSslCertificate& certificate, bool issuer)
{
    // The distinguished name as openssl prints it, most significant last ("CN=host, O=Team").
    QStringList parts;
    for (const QByteArray& attribute :
        issuer ? certificate.issuerInfoAttributes() : certificate.subjectInfoAttributes()) {
        const QStringList values = issuer ? certificate.issuerInfo(attribute) : certificate.subjectInfo(attribute);
        for (const QString& value : values)
            parts.append(QString::fromLatin1(attribute) + QLatin1Char('=') + value);
    }
    return parts.join(QStringLiteral(", "));
}
} // namespace

QByteArray TlsTrust::normalizeSha256(QStringView text)
{
    QString s = text.trimmed().toString().toLower();
    for (const QString& prefix : { QStringLiteral("sha256:"), QStringLiteral("sha256="), QStringLiteral("sha256 ") }) {
        if (s.startsWith(prefix))
            s = s.mid(prefix.size()).trimmed();
    }
    s.remove(QLatin1Char(':'));
    if (s.size() != 64)
        return {};
    for (const QChar c : s) {
        if (!((c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f'))))
            return {};
    }
    return s.toLatin1();
}

bool TlsTrust::loadCaFile(const QString& path, TlsTrust* trust, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("--ca-file %1: cannot read it: %2").arg(path, file.errorString());
        return false;
    }
    const QList<QSslCertificate> certificates = QSslCertificate::fromData(file.readAll(), QSsl::Pem);
    if (certificates.isEmpty()) {
        *error = QStringLiteral("--ca-file %1: holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\")").arg(path);
        return false;
    }
    trust->caCertificates = certificates;
    trust->caFile = QFileInfo(path).absoluteFilePath();
    return true;
}

QByteArray certificateSha256(const QSslCertificate& certificate)
{
    return certificate.digest(QCryptographicHash::Sha256).toHex();
}

QString displaySha256(const QByteArray& hex)
{
    QStringList pairs;
    for (qsizetype i = 0; i + 1 < hex.size(); i += 2)
        pairs.append(QString::fromLatin1(hex.mid(i, 2)));
    return pairs.join(QLatin1Char(':'));
}

QString PresentedCertificate::subject() const
{
    return chain.isEmpty() ? QString() : names(chain.first(), false);
}

QString PresentedCertificate::issuer() const
{
    return chain.isEmpty() ? QString() : names(chain.first(), true);
}

QString PresentedCertificate::describe() const
{
    return QStringLiteral("  Subject: %1\n  Issuer:  %2\n  Valid:   %3 to %4 (UTC)\n  SHA-256: %5")
        .arg(subject(), issuer(), notBefore().toUTC().toString(Qt::ISODate), notAfter().toUTC().toString(Qt::ISODate),
            QString::fromLatin1(sha256()));
}

CertificateProbe::CertificateProbe(QObject* parent)
    : QObject(parent)
{
}

void CertificateProbe::fetch(const QString& host, quint16 port, int timeoutMs)
{
    delete m_attempt; // a newer fetch replaces the one under way
    auto* attempt = new QObject(this);
    m_attempt = attempt;
    auto* socket = new QSslSocket(attempt);
    auto errors = std::make_shared<QList<QSslError>>();
    auto done = [this, attempt](const std::function<void()>& emitResult) {
        if (m_attempt != attempt)
            return;
        m_attempt = nullptr;
        emitResult();
        attempt->deleteLater();
    };
    // Errors are collected, not fatal: the point is to show the certificate whatever the system's CAs think of it.
    connect(socket, &QSslSocket::sslErrors, attempt, [socket, errors](const QList<QSslError>& list) {
        *errors += list;
        socket->ignoreSslErrors();
    });
    connect(socket, &QSslSocket::encrypted, attempt, [this, socket, errors, done] {
        PresentedCertificate result;
        result.chain = socket->peerCertificateChain();
        result.errors = *errors;
        socket->abort();
        done([this, result] { Q_EMIT presented(result); });
    });
    connect(
        socket, &QSslSocket::errorOccurred, attempt, [this, socket, host, port, done](QAbstractSocket::SocketError) {
            const QString message
                = QStringLiteral("No TLS handshake with %1:%2: %3").arg(host).arg(port).arg(socket->errorString());
            done([this, message] { Q_EMIT failed(message); });
        });
    QTimer::singleShot(timeoutMs, attempt, [this, host, port, timeoutMs, done] {
        const QString message
            = QStringLiteral("No TLS handshake with %1:%2 within %3 s").arg(host).arg(port).arg(timeoutMs / 1000.0);
        done([this, message] { Q_EMIT failed(message); });
    });
    socket->connectToHostEncrypted(host, port);
}

bool CertificateProbe::fetchBlocking(
    const QString& host, quint16 port, PresentedCertificate* result, QString* error, int timeoutMs)
{
    CertificateProbe probe;
    QEventLoop loop;
    bool ok = false;
    connect(&probe, &CertificateProbe::presented, &loop, [&](const PresentedCertificate& c) {
        *result = c;
        ok = true;
        loop.quit();
    });
    connect(&probe, &CertificateProbe::failed, &loop, [&](const QString& m) {
        *error = m;
        loop.quit();
    });
    probe.fetch(host, port, timeoutMs);
    loop.exec();
    return ok;
}

TlsTrustGuard::TlsTrustGuard(QNetworkAccessManager* manager, QObject* parent)
    : QObject(parent)
{
    connect(manager, &QNetworkAccessManager::sslErrors, this, &TlsTrustGuard::onSslErrors);
    connect(manager, &QNetworkAccessManager::encrypted, this, &TlsTrustGuard::onEncrypted);
}

void TlsTrustGuard::prepare(QNetworkRequest* request) const
{
    if (m_trust.caCertificates.isEmpty() || request->url().scheme() != QLatin1String("https"))
        return;
    QSslConfiguration configuration = request->sslConfiguration();
    configuration.setCaCertificates(m_trust.caCertificates);
    request->setSslConfiguration(configuration);
}

QString TlsTrustGuard::problem(const QNetworkReply* reply)
{
    return reply->property(ProblemProperty).toString();
}

QSslCertificate TlsTrustGuard::presented(const QNetworkReply* reply)
{
    return reply->property(PresentedProperty).value<QSslCertificate>();
}

void TlsTrustGuard::onSslErrors(QNetworkReply* reply, const QList<QSslError>& errors)
{
    const QSslCertificate certificate = reply->sslConfiguration().peerCertificate();
    const QByteArray presented = certificateSha256(certificate);
    const QString url = reply->url().adjusted(QUrl::RemovePath | QUrl::RemoveQuery).toString();
    reply->setProperty(PresentedProperty, QVariant::fromValue(certificate));
    if (!m_trust.pinSha256.isEmpty()) {
        if (!certificate.isNull() && presented == m_trust.pinSha256) {
            // The pin is the identity: CA and host name errors of a self-signed certificate do not matter.
            reply->ignoreSslErrors(errors);
            return;
        }
        reply->setProperty(ProblemProperty,
            QStringLiteral("The executor at %1 presented a certificate with SHA-256 %2, but %3 is pinned for it (%4). "
                           "Someone may be intercepting the connection, or the executor has a new certificate: if you "
                           "know it has, pin the new one.")
                .arg(url, QString::fromLatin1(presented), QString::fromLatin1(m_trust.pinSha256), m_trust.pinSource));
        return;
    }
    PresentedCertificate shown;
    shown.chain = reply->sslConfiguration().peerCertificateChain();
    reply->setProperty(ProblemProperty,
        QStringLiteral("The executor at %1 presented a certificate that is not trusted%2 (%3):\n%4\nIf this is the "
                       "certificate the executor logged at its start (or `openssl x509 -noout -fingerprint -sha256 -in "
                       "CERT` shows on its host), pin it with --pin-sha256=%5, or verify it with --ca-file=FILE.")
            .arg(url,
                m_trust.caFile.isEmpty() ? QStringLiteral(" by this system's CAs")
                                         : QStringLiteral(" by the CA file %1").arg(m_trust.caFile),
                errorList(errors), shown.describe(), QString::fromLatin1(presented)));
}

void TlsTrustGuard::onEncrypted(QNetworkReply* reply)
{
    // A certificate the system's CAs trust raises no sslErrors: the pin must still hold.
    if (m_trust.pinSha256.isEmpty())
        return;
    const QSslCertificate certificate = reply->sslConfiguration().peerCertificate();
    const QByteArray presented = certificateSha256(certificate);
    if (presented == m_trust.pinSha256)
        return;
    reply->setProperty(PresentedProperty, QVariant::fromValue(certificate));
    reply->setProperty(ProblemProperty,
        QStringLiteral("The executor at %1 presented a certificate with SHA-256 %2, but %3 is pinned for it (%4). "
                       "Someone may be intercepting the connection, or the executor has a new certificate: if you "
                       "know it has, pin the new one.")
            .arg(reply->url().adjusted(QUrl::RemovePath | QUrl::RemoveQuery).toString(), QString::fromLatin1(presented),
                QString::fromLatin1(m_trust.pinSha256), m_trust.pinSource));
    reply->abort();
}

QString KnownExecutors::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
        + QStringLiteral("/trainyard/known_executors");
}

KnownExecutors::KnownExecutors(QString path)
    : m_path(std::move(path))
{
}

QString KnownExecutors::key(const QUrl& url)
{
    const QString host = url.host().toLower();
    const QString shown = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return shown + QLatin1Char(':') + QString::number(url.port(443));
}

QByteArray KnownExecutors::lookup(const QUrl& url, int* line) const
{
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString wanted = key(url);
    int number = 0;
    while (!file.atEnd()) {
        ++number;
        const QString text = QString::fromUtf8(file.readLine()).trimmed();
        if (text.isEmpty() || text.startsWith(QLatin1Char('#')))
            continue;
        const QStringList fields = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (fields.size() >= 2 && fields.at(0).toLower() == wanted) {
            if (line)
                *line = number;
            return TlsTrust::normalizeSha256(fields.at(1));
        }
    }
    return {};
}

bool KnownExecutors::remember(const QUrl& url, const QByteArray& sha256, QString* error)
{
    QStringList lines;
    {
        QFile file(m_path);
        if (file.open(QIODevice::ReadOnly))
            lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    }
    while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty())
        lines.removeLast();
    if (lines.isEmpty())
        lines.append(QStringLiteral("# Executors' TLS certificates (SHA-256) this user accepted: HOST:PORT SHA256"));
    const QString wanted = key(url);
    const QString entry = wanted + QLatin1Char(' ') + QString::fromLatin1(sha256);
    bool replaced = false;
    for (QString& line : lines) {
        const QStringList fields = line.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (!line.trimmed().startsWith(QLatin1Char('#')) && !fields.isEmpty() && fields.at(0).toLower() == wanted) {
            line = entry;
            replaced = true;
        }
    }
    if (!replaced)
        lines.append(entry);
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath())) {
        *error = QStringLiteral("cannot create the folder of %1").arg(m_path);
        return false;
    }
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString());
        return false;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
    if (!file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Trainyard
