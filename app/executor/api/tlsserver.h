// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Team mode (README "Team mode"): the executor's API over TLS, so that it may listen on a non-loopback address.

#include <QByteArray>
#include <QList>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QString>
#include <QTcpServer>

namespace Trainyard {

/// The executor's TLS identity: its certificate (with any intermediates that follow it in the PEM file) and the
/// certificate's private key.
struct TlsIdentity {
    QList<QSslCertificate> chain; ///< the leaf first, as the PEM file lists them
    QSslKey key;

    bool isNull() const { return chain.isEmpty() || key.isNull(); }
    /// SHA-256 of the leaf certificate's DER encoding, 64 lowercase hex characters: what clients pin
    /// (`trainyardctl --pin-sha256`, the runtime file's `tlsCertificateSha256`); the same digest as
    /// `openssl x509 -noout -fingerprint -sha256` prints, without the colons.
    QByteArray sha256() const;
    /// A server configuration with this identity: TLS 1.2 or later, no client certificate asked for.
    QSslConfiguration serverConfiguration() const;

    /// Loads `certFile` (PEM: one or more certificates, the server's first) and `keyFile` (PEM, unencrypted
    /// RSA, EC or DSA private key) and checks that the key belongs to the certificate with a TLS handshake over
    /// loopback (OpenSSL's own check, so the error is the one a client would otherwise meet). Returns false and sets
    /// *error, naming the file and what is wrong with it, when a file cannot be read, holds no certificate or key, the
    /// certificate has expired, or the two do not match.
    static bool load(const QString& certFile, const QString& keyFile, TlsIdentity* identity, QString* error);
};

/// A QTcpServer whose connections are QSslSockets in server mode, handed out before their handshake: the
/// transport (HttpConnection) starts the handshake itself and counts it in its header timeout and connection limits,
/// so that a client that connects and stays silent (or completes the handshake slowly) holds a connection no longer
/// than one that sends no request. QSslServer, by contrast, keeps sockets to itself until their handshake is done.
class TlsTcpServer : public QTcpServer {
public:
    explicit TlsTcpServer(const QSslConfiguration& configuration, QObject* parent = nullptr);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    QSslConfiguration m_configuration;
};

} // namespace Trainyard
