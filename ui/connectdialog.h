// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// File > Connect to Executor…: the console's way into team mode (README "Team mode").

#include "executortrust.h"

#include <QDialog>
#include <QPointer>
#include <QUrl>

class QCheckBox;
class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace Trainyard {

class ApiClient;
class TokenStore;

/// Asks for an executor's URL, a bearer token and how to trust its certificate, tests the connection, and on Connect
/// records the choice:
/// - Trust on first use: "Test Connection" shows the certificate the executor presents (subject, issuer, validity,
///   SHA-256); the user compares the fingerprint with the one the executor logged at its start and ticks "Trust this
///   certificate", which pins it in known_executors (KnownExecutors, shared with trainyardctl). A certificate that
///   differs from a pinned one is shown with both fingerprints and must be accepted again.
/// - CA file: the certificate must lead to a CA in a PEM file and name the URL's host.
/// The token goes to `keyring` (the desktop keyring), never to a settings file; when the keyring fails, the dialog says
/// so and offers to connect with the token kept for this session only (tokenPersisted() false). The URL, the trust
/// choice and the CA file go to QSettings (group "executor").
///
/// Connect is enabled once a test with the current URL, token and trust succeeded (the executor accepted the token).
class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(TokenStore* keyring, QWidget* parent = nullptr);
    ~ConnectDialog() override;

    /// The executor to connect to, after accept().
    QUrl url() const;
    QByteArray token() const;
    TlsTrust trust() const;
    /// Whether the token was stored in the keyring (false: this session only).
    bool tokenPersisted() const { return m_persisted; }

    /// The settings keys ("executor/url", "executor/trust": "firstUse" | "caFile", "executor/caFile").
    static QString urlKey();
    static QString trustKey();
    static QString caFileKey();

    void accept() override;

protected:
    void showEvent(QShowEvent* event) override;

Q_SIGNALS:
    /// A connection test ended: `ok` when the executor accepted the token over a trusted connection.
    void tested(bool ok, const QString& message);

private:
    void testConnection();
    void onPresented(const PresentedCertificate& certificate);
    void checkApi();
    void invalidate();
    void setStatus(const QString& text, bool error);
    void updateButtons();
    void fitContents();
    bool useCaFile() const;

    TokenStore* m_keyring;
    QLineEdit* m_url;
    QLineEdit* m_token;
    QRadioButton* m_firstUse;
    QRadioButton* m_caFileChoice;
    QLineEdit* m_caFile;
    QPushButton* m_browse;
    QGroupBox* m_certificateBox;
    QLabel* m_subject;
    QLabel* m_issuer;
    QLabel* m_validity;
    QLabel* m_fingerprint;
    QLabel* m_pinNote;
    QCheckBox* m_acceptPin;
    QLabel* m_status;
    QPushButton* m_test;
    QDialogButtonBox* m_buttons;
    CertificateProbe* m_probe;
    QPointer<ApiClient> m_client;
    PresentedCertificate m_presented;
    TlsTrust m_trust; ///< what the last successful test used
    bool m_verified = false;
    bool m_persisted = false;
    bool m_keyringFailed = false;
    int m_generation = 0; ///< bumped whenever an input changes: late answers of older tests are dropped
};

} // namespace Trainyard
