// SPDX-License-Identifier: GPL-2.0-or-later
#include "executorconnection.h"

#include "connectdialog.h"
#include "tokenstore.h"
#include "uilogging.h"

#include <QSettings>

namespace Trainyard {

namespace {
constexpr int MinBackoffMs = 500;
constexpr int MaxBackoffMs = 8000;
} // namespace

ExecutorConnection::ExecutorConnection(QObject* parent)
    : QObject(parent)
    , m_locator(new ExecutorLocator(this))
{
    m_locator->setAutoStart(true);
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &ExecutorConnection::locate);
    connect(m_locator, &ExecutorLocator::located, this, &ExecutorConnection::onLocated);
    connect(m_locator, &ExecutorLocator::failed, this, &ExecutorConnection::onFailed);
    connect(m_locator, &ExecutorLocator::starting, this,
        [this](const QString& binary) { emit message(tr("Starting the executor (%1)…").arg(binary)); });
}

ExecutorConnection::~ExecutorConnection() = default;

void ExecutorConnection::setExplicitUrl(const QString& url)
{
    m_locator->setExplicitUrl(url);
}

void ExecutorConnection::setAutoStart(bool enabled)
{
    m_locator->setAutoStart(enabled);
}

void ExecutorConnection::start()
{
    locate();
}

void ExecutorConnection::connectTo(const QUrl& url, const QByteArray& token, const TlsTrust& trust)
{
    m_locator->setExplicitUrl(url.toString());
    m_locator->setExplicitToken(token);
    m_locator->setExplicitTrust(trust);
    m_locator->setAutoStart(false);
    m_retry.stop();
    m_backoffMs = MinBackoffMs;
    if (m_locating) {
        m_relocate = true; // the locator answers for the old executor first
        return;
    }
    locate();
}

void ExecutorConnection::startWithSavedExecutor(TokenStore* keyring)
{
    const QSettings settings;
    const QString url = settings.value(ConnectDialog::urlKey()).toString();
    if (url.isEmpty()) {
        start();
        return;
    }
    TlsTrust trust; // empty: the locator looks the pin up in known_executors
    const QString caFile = settings.value(ConnectDialog::caFileKey()).toString();
    QString problem;
    if (!caFile.isEmpty() && !TlsTrust::loadCaFile(caFile, &trust, &problem))
        qCWarning(lcUi).noquote() << problem;
    keyring->read(url, [this, url, trust](const QByteArray& token, const QString& error) {
        if (token.isEmpty()) {
            emit message(error.isEmpty()
                    ? tr("No token for %1 in the desktop keyring; using this computer's executor. File > Connect to "
                         "Executor… connects to it again.")
                          .arg(url)
                    : tr("The desktop keyring did not give the token for %1 (%2); using this computer's executor. "
                         "File > Connect to Executor… connects to it again.")
                          .arg(url, error));
            start();
            return;
        }
        connectTo(QUrl(url), token, trust);
    });
}

void ExecutorConnection::connectToLocal()
{
    m_locator->setExplicitUrl({});
    m_locator->setExplicitToken({});
    m_locator->setExplicitTrust({});
    m_locator->setAutoStart(true);
    m_retry.stop();
    m_backoffMs = MinBackoffMs;
    if (m_locating)
        m_relocate = true;
    else
        locate();
}

void ExecutorConnection::locate()
{
    if (m_locating)
        return;
    m_locating = true;
    setState(State::Locating);
    m_locator->locate();
}

void ExecutorConnection::onLocated(const ExecutorEndpoint& endpoint)
{
    m_locating = false;
    if (std::exchange(m_relocate, false)) {
        locate(); // connectTo() came while the old executor was being located
        return;
    }
    m_backoffMs = MinBackoffMs;
    m_lastError.clear();
    const bool changed = !m_client || endpoint.url != m_endpoint.url || endpoint.token != m_endpoint.token
        || !(endpoint.trust == m_endpoint.trust);
    m_endpoint = endpoint;
    if (changed) {
        if (m_client)
            m_client->deleteLater();
        m_client = new ApiClient(endpoint.url, endpoint.token, this);
        m_client->setTlsTrust(endpoint.trust);
        qCInfo(lcUi) << "connected to executor" << endpoint.url.toString();
    }
    const bool wasLost = m_everConnected && m_state != State::Connected;
    m_everConnected = true;
    setState(State::Connected);
    if (changed)
        emit clientChanged(m_client);
    if (wasLost) {
        emit message(tr("Reconnected to executor"));
        emit reconnected();
    }
}

void ExecutorConnection::onFailed(const QString& text)
{
    m_locating = false;
    if (std::exchange(m_relocate, false)) {
        locate();
        return;
    }
    m_lastError = text;
    qCInfo(lcUi) << "executor not available:" << text;
    setState(State::Disconnected);
    emit message(tr("Executor not available: %1").arg(text));
    scheduleRetry();
}

void ExecutorConnection::reportError(const ApiError& error)
{
    const bool gone = error.httpStatus == 0 || error.httpStatus == 401;
    if (!gone || m_state != State::Connected)
        return;
    m_lastError = error.message;
    setState(State::Disconnected);
    emit message(tr("Lost the connection to the executor: %1").arg(error.message));
    scheduleRetry();
}

void ExecutorConnection::scheduleRetry()
{
    if (m_retry.isActive())
        return;
    m_retry.start(m_backoffMs);
    m_backoffMs = std::min(m_backoffMs * 2, MaxBackoffMs);
}

void ExecutorConnection::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged(state);
}

} // namespace Trainyard
