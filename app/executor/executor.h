// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "machinecatalog.h"
#include "sandbox.h"

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>

namespace Trainyard {

class HttpApi;
class JobStore;
class LogStore;
class Scheduler;

/// How the daemon was asked to run (`trainyard-executor --help`).
struct ExecutorOptions {
    /// A loopback address, or any address when TLS is on (team mode; `0.0.0.0` / `::` = every interface).
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0; ///< 0 = any free port
    QString dataDir; ///< empty = defaultDataDir()
    QString runtimeDir; ///< empty = defaultRuntimeDir()
    int gracePeriodSeconds = 10; ///< SIGTERM → SIGKILL delay for replicas
    QStringList jobDirRoots; ///< where job dirs may lie (PathPolicy); empty = PathPolicy::defaultRoots()
    /// TLS (team mode, README "Team mode"): PEM certificate (chain) and its unencrypted PEM private key; both or
    /// neither. With them the API speaks HTTPS only (TlsIdentity, TlsTcpServer).
    QString tlsCertFile;
    QString tlsKeyFile;
    /// false (`--access-control=off`, for measurements only: bench_api compares the two): the admin's token alone
    /// authenticates and no route's IAM permission is checked; access tokens and policies are not read.
    bool accessControl = true;
    /// Write Data Access audit entries too (reads: get, list, logs, metrics, checkpoints, getIamPolicy, …); Admin
    /// Activity entries are always written (`--audit-data-access`, app/executor/API.md "Audit logs").
    bool auditDataAccess = false;
    /// Seconds a prediction node beyond its version's autoScaling.minNodes may idle before it is stopped
    /// (`--prediction-idle-seconds`; API.md "Models and versions").
    int predictionIdleSeconds = 60;
    /// A warm spare prediction node per runtime for versions that scale to zero (serving/sparenodes.h); off with
    /// `--no-warm-spares`: each cold start then starts an interpreter and imports the framework.
    bool warmSpares = true;
    /// Where user code runs (`--sandbox`, app/launch/sandbox.h): Auto uses bubblewrap where it works and warns where
    /// not; On refuses to start without it; Off runs user code with the executor's rights. With TLS (team mode) only
    /// a working sandbox or Off, said explicitly, is accepted.
    Sandbox::Mode sandbox = Sandbox::Mode::Auto;
    /// The account user code runs as when the executor runs as root (`--sandbox-user`).
    QString sandboxUser = QStringLiteral("trainyard");
};

/// The trainyard-executor daemon: owns the job store, the log store, the scheduler and the HTTP API,
/// and publishes where it listens.
///
/// Runtime file (contract, see API.md): `<runtimeDir>/executor.json` =
/// {"url":"http://127.0.0.1:PORT","pid":N,"tokenFile":"<abs>","dataDir":"<abs>","version":"0.1.0"} — with TLS the
/// url is "https://…" and "tlsCertificateSha256" holds the certificate's SHA-256 (64 hex characters), which local
/// clients pin; a wildcard listen address (0.0.0.0, ::) is published as its loopback address — and the
/// token in `<runtimeDir>/token` (64 hex characters, no newline; file 0600, folder 0700). Both are
/// written atomically (QSaveFile) after the server listens, and removed by shutdown() when they are
/// still ours. `<runtimeDir>/executor.lock` (QLockFile) is held while running, so two executors
/// started at once for the same user cannot both win.
///
/// Data: `<dataDir>/trainyard.sqlite` (JobStore), `<dataDir>/metrics.sqlite` (MetricsStore, filled by the
/// MetricsCollector), `<dataDir>/access.sqlite` (AccessStore: access tokens and IAM policies), `<dataDir>/audit.sqlite`
/// (AuditStore: the audit log's hash chain; the executor's start and stop are entries of it),
/// `<dataDir>/projects/<project>/jobs/<jobId>/…` (JobKey::folder(): logs, staging), after adoptLegacyLayout() moved any
/// data of the older `<dataDir>/jobs/<jobId>` layout there.
class Executor : public QObject {
    Q_OBJECT
public:
    explicit Executor(const ExecutorOptions& options, QObject* parent = nullptr);
    ~Executor() override;

    /// Starts everything: refuses (false, *error) when another live executor owns the runtime folder,
    /// when the address is not loopback and there is no TLS certificate, when the certificate or key cannot be
    /// loaded or do not match (the message names the file), when the database cannot be opened or the port not
    /// bound.
    /// On success the API answers, the runtime file exists, and jobs left live by a previous run are
    /// recovered (restarted or re-queued).
    bool start(QString* error);
    /// Clean shutdown: streams closed, every replica stopped (jobs stay RUNNING in the database so the
    /// next start restarts them), logs flushed, runtime and token files removed. Idempotent.
    void shutdown();

    QUrl url() const;
    /// The TLS certificate's SHA-256 (TlsIdentity::sha256()); empty without TLS.
    QByteArray tlsCertificateSha256() const;
    QString runtimeFilePath() const;
    QString tokenFilePath() const;
    QString dataDir() const;

    JobStore* jobStore() const;
    LogStore* logStore() const;
    Scheduler* scheduler() const;
    HttpApi* api() const;

    /// `$XDG_DATA_HOME/trainyard` (~/.local/share/trainyard).
    static QString defaultDataDir();
    /// `$XDG_RUNTIME_DIR/trainyard`, or `/tmp/trainyard-<uid>` when XDG_RUNTIME_DIR is unset.
    static QString defaultRuntimeDir();
    /// The executor's version ("0.1.0"), written to the runtime file.
    static QString version();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// Turns SIGTERM, SIGINT and SIGHUP into a Qt signal on the main thread (self-pipe through a
/// socketpair and a QSocketNotifier: the handler itself only write()s, which is async-signal-safe).
/// One instance per process.
class UnixSignalWatcher : public QObject {
    Q_OBJECT
public:
    explicit UnixSignalWatcher(QObject* parent = nullptr);
    ~UnixSignalWatcher() override;

Q_SIGNALS:
    void terminationRequested(int signalNumber);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard
