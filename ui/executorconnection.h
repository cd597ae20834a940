// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The console's link to its executor: finds (or starts) it with ExecutorLocator, owns the ApiClient, and
// reconnects by itself with backoff when calls fail because the executor went away. A restarted executor
// has a new port and token, so reconnecting means locating again, not just retrying the old URL; views
// that hold streams listen to clientChanged() and reopen them.

#include "apiclient.h"
#include "executorlocator.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace Trainyard {

class TokenStore;

class ExecutorConnection : public QObject {
    Q_OBJECT
public:
    enum class State { Locating, Connected, Disconnected };
    Q_ENUM(State)

    explicit ExecutorConnection(QObject* parent = nullptr);
    ~ExecutorConnection() override;

    /// `--executor URL` (never auto-started); empty = the runtime file / auto-start.
    void setExplicitUrl(const QString& url);
    void setAutoStart(bool enabled);
    /// Starts locating (once; later reconnects are automatic).
    void start();
    /// Team mode (ConnectDialog): from now on the executor at `url` (never auto-started), with `token` and `trust`;
    /// drops the current client and locates again.
    void connectTo(const QUrl& url, const QByteArray& token, const TlsTrust& trust);
    /// Back to this computer's own executor (the runtime file, auto-started).
    void connectToLocal();
    /// The console's start: the team executor of the last File > Connect to Executor… (QSettings
    /// ConnectDialog::urlKey()), with its token from `keyring` and its certificate checked against its pin in
    /// known_executors or the saved CA file; when none is saved, or the keyring has no token for it (message() says
    /// why), start() as before.
    void startWithSavedExecutor(TokenStore* keyring);

    /// The current client, or nullptr before the first connection. Replaced on reconnect (the old one is
    /// deleted later, so a pointer taken from it stays valid until the event loop runs).
    ApiClient* client() const { return m_client; }
    State state() const { return m_state; }
    ExecutorEndpoint endpoint() const { return m_endpoint; }
    QString lastError() const { return m_lastError; }

    /// Every API caller reports failures here: a transport failure (no HTTP answer) or 401 means the
    /// executor is gone or was replaced, so the connection drops and reconnects.
    void reportError(const ApiError& error);

Q_SIGNALS:
    void clientChanged(Trainyard::ApiClient* client);
    void stateChanged(Trainyard::ExecutorConnection::State state);
    /// A short status message for the status bar ("Starting the executor…").
    void message(const QString& text);
    /// Connected again after a loss.
    void reconnected();

private:
    void locate();
    void onLocated(const ExecutorEndpoint& endpoint);
    void onFailed(const QString& message);
    void setState(State state);
    void scheduleRetry();

    ExecutorLocator* m_locator;
    QPointer<ApiClient> m_client;
    ExecutorEndpoint m_endpoint;
    State m_state = State::Disconnected;
    QTimer m_retry;
    int m_backoffMs = 500;
    bool m_everConnected = false;
    bool m_locating = false;
    bool m_relocate = false; ///< connectTo() or connectToLocal() came while locating: locate again when it ends
    QString m_lastError;
};

} // namespace Trainyard
