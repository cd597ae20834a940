// SPDX-License-Identifier: GPL-2.0-or-later
#include "connectdialog.h"
#include "screenfit.h"

#include "apiclient.h"
#include "tokenstore.h"
#include "uilogging.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QVBoxLayout>

namespace Trainyard {

namespace {
QLabel* selectableLabel()
{
    auto* label = new QLabel;
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}
} // namespace

QString ConnectDialog::urlKey()
{
    return QStringLiteral("executor/url");
}

QString ConnectDialog::trustKey()
{
    return QStringLiteral("executor/trust");
}

QString ConnectDialog::caFileKey()
{
    return QStringLiteral("executor/caFile");
}

ConnectDialog::ConnectDialog(TokenStore* keyring, QWidget* parent)
    : QDialog(parent)
    , m_keyring(keyring)
    , m_probe(new CertificateProbe(this))
{
    setWindowTitle(tr("Connect to Executor"));
    setObjectName(QStringLiteral("connectDialog"));

    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(tr("https://host:port"));
    m_token = new QLineEdit;
    m_token->setObjectName(QStringLiteral("token"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("tyk_… (from trainyardctl auth tokens create)"));
    auto* form = new QFormLayout;
    form->addRow(tr("Executor &URL:"), m_url);
    form->addRow(tr("&Token:"), m_token);

    auto* trustBox = new QGroupBox(tr("Trust the executor's certificate"));
    m_firstUse = new QRadioButton(tr("Trust on &first use (pin the certificate)"));
    m_firstUse->setObjectName(QStringLiteral("trustFirstUse"));
    m_firstUse->setChecked(true);
    m_caFileChoice = new QRadioButton(tr("Verify with a &CA file"));
    m_caFileChoice->setObjectName(QStringLiteral("trustCaFile"));
    m_caFile = new QLineEdit;
    m_caFile->setObjectName(QStringLiteral("caFile"));
    m_caFile->setPlaceholderText(tr("PEM file of the CA that signed the executor's certificate"));
    m_browse = new QPushButton(tr("&Browse…"));
    auto* caRow = new QHBoxLayout;
    caRow->addWidget(m_caFile);
    caRow->addWidget(m_browse);
    auto* explanation = new QLabel(
        tr("<b>Trust on first use</b>: the console shows the certificate the executor presents. Compare its SHA-256 "
           "fingerprint with the one the executor printed when it started (or that its admin sends you); once you "
           "trust it, it is pinned, and a different certificate later is refused, as ssh does with host keys.<br>"
           "<b>CA file</b>: for executors whose certificate your team's CA signed; the certificate must be signed by "
           "that CA and name the host in the URL. Nothing is pinned."));
    explanation->setObjectName(QStringLiteral("trustExplanation"));
    explanation->setWordWrap(true);
    auto* trustLayout = new QVBoxLayout(trustBox);
    trustLayout->addWidget(m_firstUse);
    trustLayout->addWidget(m_caFileChoice);
    trustLayout->addLayout(caRow);
    trustLayout->addWidget(explanation);

    m_certificateBox = new QGroupBox(tr("Presented certificate"));
    m_certificateBox->setObjectName(QStringLiteral("certificate"));
    m_subject = selectableLabel();
    m_subject->setObjectName(QStringLiteral("certificateSubject"));
    m_issuer = selectableLabel();
    m_issuer->setObjectName(QStringLiteral("certificateIssuer"));
    m_validity = selectableLabel();
    m_validity->setObjectName(QStringLiteral("certificateValidity"));
    m_fingerprint = selectableLabel();
    m_fingerprint->setObjectName(QStringLiteral("certificateSha256"));
    m_fingerprint->setFont(QFont(QStringLiteral("monospace")));
    m_pinNote = selectableLabel();
    m_pinNote->setObjectName(QStringLiteral("pinNote"));
    m_acceptPin = new QCheckBox(tr("I compared the fingerprint: trust this certificate and &pin it"));
    m_acceptPin->setObjectName(QStringLiteral("acceptPin"));
    auto* certificateForm = new QFormLayout(m_certificateBox);
    certificateForm->addRow(tr("Subject:"), m_subject);
    certificateForm->addRow(tr("Issuer:"), m_issuer);
    certificateForm->addRow(tr("Valid:"), m_validity);
    certificateForm->addRow(tr("SHA-256:"), m_fingerprint);
    certificateForm->addRow(m_pinNote);
    certificateForm->addRow(m_acceptPin);
    m_certificateBox->setVisible(false);

    m_status = selectableLabel();
    m_status->setObjectName(QStringLiteral("status"));
    m_test = new QPushButton(tr("&Test Connection"));
    m_test->setObjectName(QStringLiteral("testConnection"));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Connect"));
    m_buttons->addButton(m_test, QDialogButtonBox::ActionRole);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(trustBox);
    layout->addWidget(m_certificateBox);
    layout->addWidget(m_status);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    resizeWithinScreen(this, QSize(720, sizeHint().height()));

    const QSettings settings;
    m_url->setText(settings.value(urlKey()).toString());
    const bool ca = settings.value(trustKey()).toString() == QLatin1String("caFile");
    m_caFileChoice->setChecked(ca);
    m_caFile->setText(settings.value(caFileKey()).toString());

    connect(m_url, &QLineEdit::textChanged, this, &ConnectDialog::invalidate);
    connect(m_token, &QLineEdit::textChanged, this, &ConnectDialog::invalidate);
    connect(m_caFile, &QLineEdit::textChanged, this, &ConnectDialog::invalidate);
    connect(m_firstUse, &QRadioButton::toggled, this, &ConnectDialog::invalidate);
    connect(m_acceptPin, &QCheckBox::toggled, this, [this](bool checked) {
        m_verified = false;
        updateButtons();
        if (checked && !m_presented.chain.isEmpty())
            checkApi();
    });
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("CA Certificate"), m_caFile->text(), tr("PEM certificates (*.pem *.crt);;All files (*)"));
        if (!path.isEmpty())
            m_caFile->setText(path);
    });
    connect(m_test, &QPushButton::clicked, this, &ConnectDialog::testConnection);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);
    connect(m_probe, &CertificateProbe::presented, this, &ConnectDialog::onPresented);
    connect(m_probe, &CertificateProbe::failed, this, [this](const QString& message) {
        setStatus(message, true);
        Q_EMIT tested(false, message);
    });
    invalidate();
}

ConnectDialog::~ConnectDialog() = default;

QUrl ConnectDialog::url() const
{
    return QUrl(m_url->text().trimmed(), QUrl::StrictMode);
}

QByteArray ConnectDialog::token() const
{
    return m_token->text().trimmed().toUtf8();
}

TlsTrust ConnectDialog::trust() const
{
    return m_trust;
}

bool ConnectDialog::useCaFile() const
{
    return m_caFileChoice->isChecked();
}

void ConnectDialog::invalidate()
{
    ++m_generation;
    m_verified = false;
    m_keyringFailed = false;
    m_presented = {};
    m_certificateBox->setVisible(false);
    m_acceptPin->setChecked(false);
    m_caFile->setEnabled(useCaFile());
    m_browse->setEnabled(useCaFile());
    m_status->clear();
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Connect"));
    updateButtons();
}

void ConnectDialog::updateButtons()
{
    const QUrl u = url();
    m_test->setEnabled(u.isValid() && !u.host().isEmpty() && !token().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_verified);
}

void ConnectDialog::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    fitContents();
}

void ConnectDialog::fitContents()
{
    // Wrapped labels need the height their text takes at the dialog's width; a top-level layout's minimum size does
    // not ask for it (QLayout::totalHeightForWidth does).
    QLayout* top = layout();
    if (!top || !top->hasHeightForWidth())
        return;
    const int needed = top->totalHeightForWidth(width());
    setMinimumHeight(needed);
    if (height() < needed)
        resize(width(), needed);
}

void ConnectDialog::showEvent(QShowEvent* event)
{
    QDialog::showEvent(event);
    fitContents();
}

void ConnectDialog::testConnection()
{
    ++m_generation;
    m_verified = false;
    updateButtons();
    const QUrl u = url();
    const bool loopback = u.host() == QLatin1String("localhost") || QHostAddress(u.host()).isLoopback();
    if (u.scheme() != QLatin1String("https") && !(u.scheme() == QLatin1String("http") && loopback)) {
        const QString message = tr("The URL must be https://HOST:PORT (plain http only for this computer's own "
                                   "executor: the token would cross the network in clear text).");
        setStatus(message, true);
        Q_EMIT tested(false, message);
        return;
    }
    if (u.scheme() == QLatin1String("http")) {
        m_trust = {};
        checkApi();
        return;
    }
    if (useCaFile()) {
        TlsTrust trust;
        QString problem;
        if (!TlsTrust::loadCaFile(m_caFile->text().trimmed(), &trust, &problem)) {
            setStatus(problem, true);
            Q_EMIT tested(false, problem);
            return;
        }
        m_trust = trust;
        checkApi();
        return;
    }
    setStatus(tr("Fetching the certificate of %1…").arg(u.authority()), false);
    m_probe->fetch(u.host(), quint16(u.port(443)));
}

void ConnectDialog::onPresented(const PresentedCertificate& certificate)
{
    m_presented = certificate;
    m_subject->setText(certificate.subject());
    m_issuer->setText(certificate.issuer());
    m_validity->setText(tr("%1 to %2")
                            .arg(QLocale().toString(certificate.notBefore().toLocalTime(), QLocale::ShortFormat),
                                QLocale().toString(certificate.notAfter().toLocalTime(), QLocale::ShortFormat)));
    // 32 pairs do not fit one line of a dialog; two lines of 16 are read aloud and compared more easily anyway.
    const QString pairs = displaySha256(certificate.sha256());
    m_fingerprint->setText(pairs.left(47) + QLatin1Char('\n') + pairs.mid(48));
    m_certificateBox->setVisible(true);
    fitContents();

    int line = 0;
    const KnownExecutors known;
    const QByteArray pinned = known.lookup(url(), &line);
    const QSignalBlocker blocker(m_acceptPin);
    if (pinned.isEmpty()) {
        m_pinNote->setText(certificate.errors.isEmpty()
                ? tr("This computer's CAs trust this certificate; pinning it also refuses any other one later.")
                : tr("No certificate is pinned for %1 yet. Compare the fingerprint with the one the executor printed "
                     "at its start before you trust it.")
                      .arg(KnownExecutors::key(url())));
        m_pinNote->setStyleSheet(QString());
        m_acceptPin->setChecked(false);
        setStatus(tr("Check the certificate, then trust it to test the token."), false);
    } else if (pinned == certificate.sha256()) {
        m_pinNote->setText(tr("This is the certificate you pinned for %1.").arg(KnownExecutors::key(url())));
        m_pinNote->setStyleSheet(QString());
        m_acceptPin->setChecked(true);
    } else {
        m_pinNote->setText(tr("WARNING: this is not the certificate pinned for %1 (%2 line %3): pinned %4. Someone may "
                              "be intercepting the connection; trust the new certificate only if you know the "
                              "executor's certificate was replaced.")
                               .arg(KnownExecutors::key(url()), known.path())
                               .arg(line)
                               .arg(displaySha256(pinned)));
        m_pinNote->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_acceptPin->setChecked(false);
        const QString message = tr("The certificate differs from the pinned one.");
        setStatus(message, true);
        Q_EMIT tested(false, message);
        return;
    }
    if (m_acceptPin->isChecked())
        checkApi();
}

void ConnectDialog::checkApi()
{
    const QUrl u = url();
    if (u.scheme() == QLatin1String("https") && !useCaFile()) {
        m_trust = {};
        m_trust.pinSha256 = m_presented.sha256();
        m_trust.pinSource = tr("the certificate you accepted");
    }
    const int generation = ++m_generation;
    if (m_client)
        m_client->deleteLater();
    m_client = new ApiClient(u, token(), this);
    m_client->setTlsTrust(m_trust);
    m_client->setTimeout(15000);
    setStatus(tr("Testing the token with %1…").arg(u.authority()), false);
    m_client->host(this, [this, generation](const HostStatus& host, const ApiError& error) {
        if (generation != m_generation)
            return;
        QString message;
        if (!error.isNull()) {
            message = error.httpStatus == 401
                ? tr("The executor refused the token (401 UNAUTHENTICATED): %1").arg(error.message)
                : error.message;
            setStatus(message, true);
            Q_EMIT tested(false, message);
            return;
        }
        m_verified = true;
        message = tr("Connected: the executor accepted the token (%n CPU(s), %1 job(s) running).", nullptr, host.cpus)
                      .arg(host.runningJobs);
        setStatus(message, false);
        updateButtons();
        Q_EMIT tested(true, message);
    });
}

void ConnectDialog::accept()
{
    if (!m_verified)
        return;
    const QUrl u = url();
    QString problem;
    if (!m_trust.pinSha256.isEmpty() && KnownExecutors().lookup(u) != m_trust.pinSha256
        && !KnownExecutors().remember(u, m_trust.pinSha256, &problem)) {
        setStatus(tr("Cannot pin the certificate: %1").arg(problem), true);
        return;
    }
    QSettings settings;
    settings.setValue(urlKey(), u.toString());
    settings.setValue(trustKey(), useCaFile() ? QStringLiteral("caFile") : QStringLiteral("firstUse"));
    settings.setValue(caFileKey(), useCaFile() ? m_trust.caFile : QString());
    if (m_keyringFailed) {
        // The user read why and chose to connect for this session only.
        m_persisted = false;
        QDialog::accept();
        return;
    }
    m_buttons->setEnabled(false);
    const int generation = m_generation;
    m_keyring->write(u.toString(), token(), [this, generation](const QString& error) {
        m_buttons->setEnabled(true);
        if (generation != m_generation)
            return;
        if (!error.isEmpty()) {
            qCWarning(lcUi) << "the keyring did not take the token:" << error;
            m_keyringFailed = true;
            setStatus(tr("The desktop keyring did not store the token (%1). Is a keyring service (GNOME Keyring, "
                         "KWallet) running? You can connect anyway: the token is then kept in memory for this "
                         "session only, never written to disk, and asked for again next time.")
                          .arg(error),
                true);
            m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect for This &Session"));
            return;
        }
        m_persisted = true;
        QDialog::accept();
    });
}

} // namespace Trainyard
