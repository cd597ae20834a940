// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// How a client (console, trainyardctl) trusts an executor that serves HTTPS (team mode, README "Team mode"): a pinned
// certificate fingerprint (trust on first use, as ssh's known_hosts), or a CA file, or else the system's CAs.

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QNetworkReply>
#include <QObject>
#include <QSslCertificate>
#include <QSslError>
#include <QString>

class QNetworkAccessManager;
class QNetworkRequest;

namespace Trainyard {

/// The trust a client puts in an HTTPS executor. With a pin, the server's (leaf) certificate must have that SHA-256
/// and nothing else is checked (no CA, no host name: the pin is the identity, as an ssh host key). With CA
/// certificates, the chain must lead to one of them and name the URL's host (OpenSSL's verification, Qt's
/// QSslConfiguration::setCaCertificates()); the system's CAs are then not used. With neither, the system's CAs.
struct TlsTrust {
    QByteArray pinSha256; ///< 64 lowercase hex characters, or empty
    QList<QSslCertificate> caCertificates;
    QString caFile; ///< where caCertificates came from (for messages)
    /// Where the pin came from, for messages: "--pin-sha256", "known_executors line 3", "the runtime file", …
    QString pinSource;

    bool operator==(const TlsTrust& other) const
    {
        return pinSha256 == other.pinSha256 && caCertificates == other.caCertificates;
    }

    /// `text` as 64 lowercase hex characters: accepts upper case and the colons of `openssl x509 -fingerprint
    /// -sha256` ("AB:CD:…"), with an optional "sha256:" / "SHA256=" prefix; empty when it is not a SHA-256.
    static QByteArray normalizeSha256(QStringView text);
    /// Loads the PEM certificates of `path` as the CAs to verify against. False and *error (naming the file) when it
    /// cannot be read or holds no certificate.
    static bool loadCaFile(const QString& path, TlsTrust* trust, QString* error);
};

/// SHA-256 of `certificate`'s DER encoding, 64 lowercase hex characters (what TlsTrust::pinSha256 holds).
QByteArray certificateSha256(const QSslCertificate& certificate);
/// "ab:cd:…" (lower case, colon-separated pairs) for reading aloud and comparing by eye.
QString displaySha256(const QByteArray& hex);

/// What a server presented, as the console's connect dialog and trainyardctl's first-use message show it.
struct PresentedCertificate {
    QList<QSslCertificate> chain; ///< the server's first
    QList<QSslError> errors; ///< why the system's CAs do not trust it; empty when they do
    QByteArray sha256() const { return chain.isEmpty() ? QByteArray() : certificateSha256(chain.first()); }
    QString subject() const;
    QString issuer() const;
    QDateTime notBefore() const { return chain.isEmpty() ? QDateTime() : chain.first().effectiveDate(); }
    QDateTime notAfter() const { return chain.isEmpty() ? QDateTime() : chain.first().expiryDate(); }
    /// Several lines: subject, issuer, validity (UTC) and SHA-256.
    QString describe() const;
};

/// Connects to `host`:`port` over TLS and reports the certificate chain the server presents, without trusting it
/// (the handshake completes, nothing is sent, the connection is closed). Asynchronous: fetch() emits exactly one of
/// presented() or failed(). Used to show a certificate before the user pins it.
class CertificateProbe : public QObject {
    Q_OBJECT
public:
    explicit CertificateProbe(QObject* parent = nullptr);
    /// `timeoutMs`: for the TCP connection and the handshake together.
    void fetch(const QString& host, quint16 port, int timeoutMs = 10000);
    /// fetch() in a local event loop; false and *error when it failed.
    static bool fetchBlocking(
        const QString& host, quint16 port, PresentedCertificate* result, QString* error, int timeoutMs = 10000);

Q_SIGNALS:
    void presented(const Trainyard::PresentedCertificate& certificate);
    void failed(const QString& message);

private:
    QObject* m_attempt = nullptr;
};

/// Applies a TlsTrust to the requests of one QNetworkAccessManager: prepare() sets a request's CA certificates;
/// the manager's sslErrors/encrypted signals are checked against the pin (a matching pin ignores the CA and host
/// name errors; a mismatch aborts the reply before any request byte, the bearer token included, is sent). When a
/// reply fails for TLS, problem() gives the message to show: a pin mismatch names the expected and the presented
/// SHA-256, an untrusted certificate the presented one and how to trust it.
class TlsTrustGuard : public QObject {
    Q_OBJECT
public:
    TlsTrustGuard(QNetworkAccessManager* manager, QObject* parent = nullptr);

    void setTrust(const TlsTrust& trust) { m_trust = trust; }
    const TlsTrust& trust() const { return m_trust; }
    /// Sets `request`'s CA certificates when the trust has a CA file.
    void prepare(QNetworkRequest* request) const;
    /// Why `reply` failed TLS verification (set before it finishes); empty when it did not.
    static QString problem(const QNetworkReply* reply);
    /// The certificate `reply`'s server presented when verification failed (for a first-use prompt).
    static QSslCertificate presented(const QNetworkReply* reply);

private:
    void onSslErrors(QNetworkReply* reply, const QList<QSslError>& errors);
    void onEncrypted(QNetworkReply* reply);

    TlsTrust m_trust;
};

/// trainyardctl's and the console's pins: `$XDG_CONFIG_HOME/trainyard/known_executors`, one "HOST:PORT SHA256" line
/// per executor (IPv6 hosts in brackets, "#" starts a comment), as ssh's known_hosts keeps host keys. A user adds a
/// line by accepting a certificate (`trainyardctl --pin-sha256=…`, the console's connect dialog); a changed
/// certificate is then an error until its line is removed or replaced. The file is written owner-only (0600).
class KnownExecutors {
public:
    /// The default path (QStandardPaths::GenericConfigLocation + "/trainyard/known_executors").
    static QString defaultPath();
    explicit KnownExecutors(QString path = defaultPath());

    /// "host:port" of `url` as the file keys it ("[::1]:8443"); the port defaults to 443.
    static QString key(const QUrl& url);
    /// The pinned SHA-256 of `url`'s executor and its line number (1-based), or empty.
    QByteArray lookup(const QUrl& url, int* line = nullptr) const;
    /// Records (or replaces) the pin of `url`'s executor. False and *error when the file cannot be written.
    bool remember(const QUrl& url, const QByteArray& sha256, QString* error);
    QString path() const { return m_path; }

private:
    QString m_path;
};

} // namespace Trainyard

Q_DECLARE_METATYPE(Trainyard::PresentedCertificate)
