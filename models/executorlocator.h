// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Finding (and when needed starting) the per-user trainyard-executor, as ARCHITECTURE.md says: clients
// start the bundled executor themselves so that a user never starts a daemon by hand.

#include "executortrust.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

namespace Trainyard {

/// Where an executor answers and how to authenticate to it.
struct ExecutorEndpoint {
    QUrl url; ///< "http://127.0.0.1:PORT", or "https://HOST:PORT" in team mode
    QByteArray token; ///< bearer token
    qint64 pid = 0; ///< from the runtime file; 0 when unknown (an --executor URL)
    QString dataDir;
    QString version;
    /// How its HTTPS certificate is checked (the runtime file's `tlsCertificateSha256`, `--pin-sha256`,
    /// known_executors or `--ca-file`); empty for http.
    TlsTrust trust;
    bool isValid() const { return url.isValid() && !url.isEmpty(); }
};

/// Locates the executor:
/// 1. an explicit URL (setExplicitUrl, i.e. `--executor URL`, http or https) or the `TRAINYARD_EXECUTOR` environment
///    variable; its token is setExplicitToken()'s, else `TRAINYARD_TOKEN`'s, else — for a loopback host only, so
///    that the local admin token never goes to another machine — the runtime file's token file. An https
///    executor's certificate is checked with setExplicitTrust()'s pin or CA file, else the pin of its line in
///    known_executors (KnownExecutors), else — when the URL is the runtime file's — the runtime file's fingerprint,
///    else the system's CAs. An explicit executor is never auto-started;
/// 2. else the runtime file `$XDG_RUNTIME_DIR/trainyard/executor.json` (contract in the preamble:
///    {"url","pid","tokenFile","dataDir","version"[,"tlsCertificateSha256"]}; `/tmp/trainyard-<uid>/` when
///    XDG_RUNTIME_DIR is unset); a TLS executor's certificate must have the SHA-256 the file names;
/// 3. a candidate counts only when `GET /v1/projects/local/host` answers 200 with its token;
/// 4. if none answers and auto-start is on, the bundled `trainyard-executor` is started detached
///    (its own session, so it outlives this client and a terminal's Ctrl-C) and the locator waits,
///    bounded by startTimeout, for its runtime file and a healthy answer.
///
/// The binary is `TRAINYARD_EXECUTOR_BIN` when set, else `<appdir>/../executor/trainyard-executor` (the
/// build tree: build/<preset>/app/ctl → app/executor), `<appdir>/trainyard-executor` (an install), then
/// PATH. Its stdout/stderr go to `<runtime dir>/executor.log`.
///
/// Async: locate() emits exactly one of located()/failed(). Blocking: locateBlocking() (local event loop).
class ExecutorLocator : public QObject {
    Q_OBJECT
public:
    explicit ExecutorLocator(QObject* parent = nullptr);
    ~ExecutorLocator() override;

    /// `--executor URL`; takes precedence over TRAINYARD_EXECUTOR. Empty = none.
    void setExplicitUrl(const QString& url);
    /// The explicit executor's bearer token (`--token-file`, the console's keyring); empty = as above.
    void setExplicitToken(const QByteArray& token);
    /// How the explicit https executor's certificate is checked (`--pin-sha256`, `--ca-file`); empty = as above.
    void setExplicitTrust(const TlsTrust& trust);
    void setAutoStart(bool enabled);
    /// Bound on waiting for a started executor, milliseconds (default 10000).
    void setStartTimeout(int ms);

    void locate();
    /// Runs locate() in a local event loop. Returns an invalid endpoint and sets *error on failure.
    ExecutorEndpoint locateBlocking(QString* error);

    /// `$XDG_RUNTIME_DIR/trainyard` or `/tmp/trainyard-<uid>`.
    static QString runtimeDir();
    static QString runtimeFilePath();
    /// Reads the runtime file and its token. Returns an invalid endpoint (and *error) when absent or malformed.
    static ExecutorEndpoint readRuntimeFile(QString* error);
    /// The executor binary to start, per the search order above; empty when none is found.
    static QString findExecutorBinary();

Q_SIGNALS:
    void located(const Trainyard::ExecutorEndpoint& endpoint);
    void failed(const QString& message);
    /// Emitted when no executor answered and `binary` is being started (for a status line).
    void starting(const QString& binary);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard
