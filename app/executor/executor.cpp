// SPDX-License-Identifier: GPL-2.0-or-later
#include "executor.h"

#include "accessstore.h"
#include "auditlog.h"
#include "auditstore.h"
#include "gpuinventory.h"
#include "httpapi.h"
#include "pathpolicy.h"
#include "jobstore.h"
#include "legacylayout.h"
#include "logstore.h"
#include "metricscollector.h"
#include "metricsstore.h"
#include "modelstore.h"
#include "predictionservice.h"
#include "scheduler.h"
#include "slurmbackend.h"
#include "staging.h"
#include "tlsserver.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TRAINYARD_VERSION
#define TRAINYARD_VERSION "0.1.0"
#endif

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcDaemon, "trainyard.executor")

/// Creates `path` (and parents) and makes it private: mode 0700 and owned by us. Refuses a folder
/// owned by someone else (a shared /tmp must not let another user plant our runtime files).
bool ensurePrivateDir(const QString& path, QString* error)
{
    if (!QDir().mkpath(path)) {
        *error = QStringLiteral("cannot create folder %1").arg(path);
        return false;
    }
    const QByteArray native = QFile::encodeName(path);
    struct stat st { };
    if (::stat(native.constData(), &st) != 0) {
        *error = QStringLiteral("cannot inspect folder %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    if (st.st_uid != ::getuid()) {
        *error
            = QStringLiteral("folder %1 belongs to another user (uid %2); refusing to use it").arg(path).arg(st.st_uid);
        return false;
    }
    if ((st.st_mode & 0777) != 0700 && ::chmod(native.constData(), 0700) != 0) {
        *error = QStringLiteral("cannot make folder %1 private: %2")
                     .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    return true;
}

/// Writes `data` to `path` atomically with mode 0600 (the temporary file is chmod-ed before the rename).
bool writePrivateFile(const QString& path, const QByteArray& data, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        *error = QStringLiteral("cannot restrict the permissions of %1: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    if (file.write(data) != data.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool processAlive(qint64 pid)
{
    if (pid <= 0)
        return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

/// 32 random bytes from the system's CSPRNG, as 64 lowercase hex characters.
QByteArray makeToken()
{
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char*>(words), sizeof(words)).toHex();
}

/// Where local clients reach an executor listening on `address`: a wildcard address as its loopback one.
QString urlFor(const QHostAddress& address, quint16 port, bool tls)
{
    QHostAddress host = address;
    if (address == QHostAddress::AnyIPv4 || address == QHostAddress::Any)
        host = QHostAddress(QHostAddress::LocalHost);
    else if (address == QHostAddress::AnyIPv6)
        host = QHostAddress(QHostAddress::LocalHostIPv6);
    QUrl url;
    url.setScheme(tls ? QStringLiteral("https") : QStringLiteral("http"));
    url.setHost(host.toString());
    url.setPort(port);
    return url.toString();
}
/// What every sandbox sees read-only besides the system folders (Sandbox::setSharedReadable): an interpreter's
/// installation outside them (TRAINYARD_PYTHON in a virtual environment: its folder above bin/), and the executor's
/// own PYTHONPATH folders, which user code inherits.
QStringList sandboxSharedPaths()
{
    QStringList paths;
    const auto system = [](const QString& path) {
        for (const char* folder : { "/usr/", "/bin/", "/sbin/", "/lib", "/opt/", "/etc/" }) {
            if (path.startsWith(QLatin1String(folder)))
                return true;
        }
        return false;
    };
    for (const RuntimeVersion& r : runtimeVersions()) {
        const QString prefix = QFileInfo(QFileInfo(r.interpreter).absolutePath()).absolutePath();
        if (!system(r.interpreter) && prefix != QLatin1String("/") && !paths.contains(prefix))
            paths << prefix;
    }
    for (const QString& entry : qEnvironmentVariable("PYTHONPATH").split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        if (entry.startsWith(QLatin1Char('/')) && !system(entry + QLatin1Char('/')) && !paths.contains(entry))
            paths << entry;
    }
    return paths;
}

} // namespace

struct Executor::Private {
    ExecutorOptions options;
    QString dataDir;
    QString runtimeDir;
    std::unique_ptr<QLockFile> lock;
    std::unique_ptr<JobStore> store;
    std::unique_ptr<LogStore> logs;
    std::unique_ptr<Scheduler> scheduler;
    std::unique_ptr<MetricsStore> metrics;
    std::unique_ptr<MetricsCollector> collector;
    std::unique_ptr<AccessStore> access; ///< before the API, which uses it until it is destroyed
    std::unique_ptr<AuditStore> audit; ///< before the API, which uses it until it is destroyed
    std::unique_ptr<ModelStore> models; ///< before the prediction service and the API, which use it
    std::unique_ptr<PredictionService> prediction; ///< before the API, which uses it until it is destroyed
    std::unique_ptr<HttpApi> api;
    TlsIdentity tls;
    QUrl url;
    bool publishedRuntimeFile = false;
    bool running = false;

    QString runtimeFile() const { return runtimeDir + QStringLiteral("/executor.json"); }
    /// What no request's path may reach and no user code may see (PathPolicy, Sandbox): the data folder (databases,
    /// access tokens, the audit log, versions' copies), the runtime folder (token, executor.json, the audit head),
    /// the config folder (clusters.yaml, executor.env, known_executors) and the TLS certificate and key.
    QStringList executorFolders() const
    {
        return { dataDir, runtimeDir,
            QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/trainyard"),
            options.tlsCertFile, options.tlsKeyFile };
    }
    QString tokenFile() const { return runtimeDir + QStringLiteral("/token"); }

    /// True when the runtime file names a live process whose URL accepts connections.
    bool liveExecutorOwnsRuntimeFile(QString* description) const
    {
        QFile file(runtimeFile());
        if (!file.open(QIODevice::ReadOnly))
            return false;
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        const qint64 pid = json.value(QStringLiteral("pid")).toInteger();
        const QUrl url(json.value(QStringLiteral("url")).toString());
        if (pid == QCoreApplication::applicationPid() || !processAlive(pid) || !url.isValid() || url.port() <= 0)
            return false;
        QTcpSocket socket;
        socket.connectToHost(url.host(), quint16(url.port()));
        if (!socket.waitForConnected(2000))
            return false;
        socket.abort();
        *description = QStringLiteral("pid %1 at %2").arg(pid).arg(url.toString());
        return true;
    }
};

namespace {
/// Raises the soft limit on open files to the hard one and returns the soft limit in force. The default soft limit
/// (1024) is below what the API's connection limit, the job logs and the databases need together; at the limit
/// accept() fails, and a flood of connections must meet the API's 429 instead.
rlim_t raiseOpenFileLimit()
{
    rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 1024;
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            return raised.rlim_cur;
    }
    return limit.rlim_cur;
}
} // namespace

Executor::Executor(const ExecutorOptions& options, QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->options = options;
    d->dataDir = QDir(options.dataDir.isEmpty() ? defaultDataDir() : options.dataDir).absolutePath();
    d->runtimeDir = QDir(options.runtimeDir.isEmpty() ? defaultRuntimeDir() : options.runtimeDir).absolutePath();
}

Executor::~Executor()
{
    shutdown();
}

QString Executor::defaultDataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/trainyard");
}

QString Executor::defaultRuntimeDir()
{
    const QString xdg = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!xdg.isEmpty())
        return xdg + QStringLiteral("/trainyard");
    return QStringLiteral("/tmp/trainyard-%1").arg(::getuid());
}

QString Executor::version()
{
    return QStringLiteral(TRAINYARD_VERSION);
}

bool Executor::start(QString* error)
{
    auto fail = [this, error](const QString& message) {
        if (error)
            *error = message;
        d->api.reset();
        d->audit.reset();
        d->access.reset();
        d->collector.reset();
        d->metrics.reset();
        d->scheduler.reset();
        d->logs.reset();
        d->store.reset();
        d->lock.reset();
        return false;
    };
    if (d->running)
        return fail(QStringLiteral("the executor is already running"));
    const bool wantsTls = !d->options.tlsCertFile.isEmpty() || !d->options.tlsKeyFile.isEmpty();
    if (wantsTls && (d->options.tlsCertFile.isEmpty() || d->options.tlsKeyFile.isEmpty()))
        return fail(QStringLiteral("TLS needs both --tls-cert and --tls-key"));
    if (!d->options.address.isLoopback() && !wantsTls)
        return fail(QStringLiteral("refusing to listen on %1 without TLS: plain HTTP is served on a loopback address "
                                   "only (127.0.0.1 or ::1), because the API runs code as you and its bearer tokens "
                                   "would cross the network in clear text; give --tls-cert and --tls-key "
                                   "(README, \"Team mode\")")
                        .arg(d->options.address.toString()));
    QString tlsProblem;
    if (wantsTls && !TlsIdentity::load(d->options.tlsCertFile, d->options.tlsKeyFile, &d->tls, &tlsProblem))
        return fail(tlsProblem);

    QString problem;
    if (!ensurePrivateDir(d->runtimeDir, &problem))
        return fail(problem);
    d->lock = std::make_unique<QLockFile>(d->runtimeDir + QStringLiteral("/executor.lock"));
    // 0 = never stale by age: a long-running executor keeps its lock; a dead one's lock is taken over
    // because QLockFile checks whether its pid still runs.
    d->lock->setStaleLockTime(0);
    if (!d->lock->tryLock(0)) {
        qint64 pid = 0;
        QString hostName, appName;
        d->lock->getLockInfo(&pid, &hostName, &appName);
        return fail(QStringLiteral("another trainyard-executor (pid %1) is already running for this user (lock %2)")
                        .arg(pid)
                        .arg(d->runtimeDir + QStringLiteral("/executor.lock")));
    }
    QString owner;
    if (d->liveExecutorOwnsRuntimeFile(&owner))
        return fail(QStringLiteral("another trainyard-executor is already running (%1; runtime file %2)")
                        .arg(owner, d->runtimeFile()));

    if (!QDir().mkpath(d->dataDir))
        return fail(QStringLiteral("cannot create the data folder %1").arg(d->dataDir));
    d->store = std::make_unique<JobStore>();
    if (!d->store->open(d->dataDir + QStringLiteral("/trainyard.sqlite"), &problem))
        return fail(QStringLiteral("cannot open the job database: ") + problem);

    const HostInventory host = detectHostInventory();
    qCInfo(lcDaemon).noquote() << QStringLiteral("host: %1 CPUs, %2 GiB memory, %3 GPU(s)")
                                      .arg(host.cpus)
                                      .arg(double(host.memoryBytes) / (1024.0 * 1024 * 1024), 0, 'f', 1)
                                      .arg(host.gpus.size());
    d->logs = std::make_unique<LogStore>(d->dataDir);
    d->scheduler = std::make_unique<Scheduler>(d->store.get(), d->logs.get(), host, d->dataDir);
    d->scheduler->setGracePeriodSeconds(d->options.gracePeriodSeconds);
    // Slurm clusters: a job whose region names one runs there. A broken clusters.yaml costs the clusters, not the
    // executor: local jobs still run, and the warning says what to fix.
    {
        QStringList errors;
        const QString path = Slurm::ClusterConfig::defaultPath();
        if (const std::optional<QList<Slurm::ClusterConfig>> clusters = Slurm::ClusterConfig::loadFile(path, &errors)) {
            for (const Slurm::ClusterConfig& cluster : *clusters) {
                qCInfo(lcDaemon).noquote() << QStringLiteral("Slurm cluster '%1': slurmrestd %2, shared folder %3")
                                                  .arg(cluster.name, cluster.restUrl.toString(), cluster.sharedDir);
                d->scheduler->addBackend(std::make_unique<Slurm::SlurmBackend>(cluster));
            }
        } else {
            qCWarning(lcDaemon).noquote() << QStringLiteral("%1 is not valid; no Slurm cluster is used:\n  %2")
                                                 .arg(path, errors.join(QStringLiteral("\n  ")));
        }
    }
    d->metrics = std::make_unique<MetricsStore>();
    if (!d->metrics->open(d->dataDir + QStringLiteral("/metrics.sqlite"), &problem))
        return fail(QStringLiteral("cannot open the metrics database: ") + problem);
    // Before anything reads a job's folder or series: data of executors that keyed jobs by ID alone.
    if (!adoptLegacyLayout(d->dataDir, *d->store, *d->metrics, &problem))
        return fail(QStringLiteral("cannot move the data folder to the per-project layout: ") + problem);
    d->collector = std::make_unique<MetricsCollector>(
        d->metrics.get(), d->store.get(), d->logs.get(), d->scheduler.get(), d->dataDir, !host.gpus.isEmpty());

    d->models = std::make_unique<ModelStore>();
    if (!d->models->open(d->dataDir + QStringLiteral("/models.sqlite"), &problem))
        return fail(QStringLiteral("cannot open the models database: ") + problem);
    d->prediction = std::make_unique<PredictionService>(d->models.get(), d->dataDir);
    d->prediction->setIdleStopMs(d->options.predictionIdleSeconds * 1000);
    d->prediction->setWarmSpares(d->options.warmSpares);
    // Nodes reserve their machine types in the host's admission, beside the jobs' replicas.
    d->prediction->setNodeCapacity(d->scheduler->nodeCapacity());
    {
        QString why;
        Sandbox sandbox = Sandbox::detect(d->options.sandbox, d->executorFolders(), d->options.sandboxUser, &why);
        if (!sandbox.isActive()) {
            // Where other people deploy and submit code (team mode), a deploy right would be an admin right.
            if (d->options.sandbox == Sandbox::Mode::On
                || (d->options.sandbox == Sandbox::Mode::Auto && !d->tls.isNull()))
                return fail(QStringLiteral("user code cannot run in a sandbox here: %1. Install bubblewrap, or start "
                                           "the executor with --sandbox=off to run it with the executor's rights.")
                                .arg(why));
            qCWarning(lcDaemon).noquote() << why;
        } else {
            sandbox.setSharedReadable(sandboxSharedPaths());
            if (!why.isEmpty())
                qCWarning(lcDaemon).noquote() << why;
            qCInfo(lcDaemon).noquote()
                << QStringLiteral("user code runs in a bubblewrap sandbox (%1)%2")
                       .arg(sandbox.bwrap(),
                           sandbox.account() ? QStringLiteral(" as %1 (uid %2)")
                                                   .arg(sandbox.account()->name)
                                                   .arg(sandbox.account()->uid)
                                             : QString());
        }
        d->scheduler->setSandbox(sandbox);
        d->prediction->setSandbox(sandbox);
    }

    d->access = std::make_unique<AccessStore>();
    if (!d->access->open(d->dataDir + QStringLiteral("/access.sqlite"), &problem))
        return fail(QStringLiteral("cannot open the access database: ") + problem);

    d->audit = std::make_unique<AuditStore>();
    // The head as the last executor left it, kept outside the log: a log that now ends before it was cut short
    // while no executor ran. That goes on record in the Start entry, before the chain goes on from the cut.
    const QString anchor = Audit::headAnchorPath(d->runtimeDir, d->dataDir);
    const std::optional<Audit::Head> anchored = Audit::readHeadAnchor(anchor, d->dataDir);
    d->audit->setHeadAnchor(anchor, d->dataDir);
    if (!d->audit->open(d->dataDir + QStringLiteral("/audit.sqlite"), &problem))
        return fail(QStringLiteral("cannot open the audit database: ") + problem);
    QString auditWarning;
    if (anchored) {
        const std::optional<Audit::Head> now = d->audit->head();
        const qint64 was = Audit::sequenceOf(anchored->insertId);
        const qint64 is = now ? Audit::sequenceOf(now->insertId) : 0;
        if (is < was || (is == was && now && now->hash != anchored->hash)) {
            auditWarning = is < was
                ? QStringLiteral(" The audit log ends at entry %1, but it ended at entry %2 (SHA-256 %3) when an "
                                 "executor last wrote it: entries were removed from its end.")
                      .arg(Audit::insertIdFor(is), anchored->insertId, QString::fromLatin1(anchored->hash))
                : QStringLiteral(" The audit log's last entry %1 is not the one an executor last wrote (SHA-256 %2): "
                                 "it was changed.")
                      .arg(anchored->insertId, QString::fromLatin1(anchored->hash));
            qCCritical(lcDaemon).noquote() << auditWarning.trimmed();
        }
    }

    const QByteArray token = makeToken();
    d->api = std::make_unique<HttpApi>(d->store.get(), d->logs.get(), d->scheduler.get(), host, token);
    // The token file's holder is the user who runs the executor: its admin (app/executor/API.md, "Access control").
    if (d->options.accessControl) {
        d->api->setAccessControl(d->access.get());
    } else {
        // For measurements (bench_api): what access control costs per request is the difference to this mode.
        d->api->setPermissionChecks(false);
        qCWarning(lcDaemon).noquote() << QStringLiteral(
            "access control is off (--access-control=off, for measurements): the token file's token alone "
            "authenticates and no permission is checked");
    }
    d->api->setAuditLog(d->audit.get(), d->options.auditDataAccess);
    qCInfo(lcDaemon).noquote()
        << QStringLiteral("the token file authenticates %1 (roles/ml.admin)").arg(d->api->adminMember());
    {
        // Connections get what open files are left after a reserve for the stores, job logs and replicas' pipes.
        constexpr rlim_t Reserve = 512;
        const rlim_t files = raiseOpenFileLimit();
        HttpApi::TransportOptions transport;
        if (files < rlim_t(transport.maxConnections) + 100 + Reserve) {
            transport.maxConnections = int(qMax<rlim_t>(64, files > Reserve + 100 ? files - Reserve - 100 : 0));
            transport.maxConnectionsPerAddress = qMin(transport.maxConnectionsPerAddress, transport.maxConnections);
            transport.maxStreamsPerPrincipal = qMin(transport.maxStreamsPerPrincipal, transport.maxConnections);
            qCWarning(lcDaemon).noquote() << QStringLiteral("only %1 open files allowed: the API takes at most %2 "
                                                            "connections")
                                                 .arg(files)
                                                 .arg(transport.maxConnections);
        }
        d->api->setTransportOptions(transport);
    }
    QTcpServer* server
        = d->tls.isNull() ? new QTcpServer(d->api.get()) : new TlsTcpServer(d->tls.serverConfiguration(), d->api.get());
    if (!server->listen(d->options.address, d->options.port))
        return fail(QStringLiteral("cannot listen on %1:%2: %3")
                        .arg(d->options.address.toString())
                        .arg(d->options.port)
                        .arg(server->errorString()));
    d->api->setMetricsStore(d->metrics.get());
    d->api->setPredictionService(d->prediction.get());
    PathPolicy jobDirs(d->options.jobDirRoots.isEmpty() ? PathPolicy::defaultRoots() : d->options.jobDirRoots);
    // The default data folder lies in the default root ($HOME): no path a request gives may reach it, nor the
    // runtime folder (token, executor.json), the config folder (clusters.yaml, known_executors) or the TLS files.
    jobDirs.setExecutorFolders(d->executorFolders());
    jobDirs.setLegacyJobDirs(d->dataDir + QStringLiteral("/job-dirs"));
    d->api->setPathPolicy(jobDirs);
    d->collector->setPathPolicy(jobDirs);
    d->scheduler->setPathPolicy(jobDirs);
    qCInfo(lcDaemon).noquote()
        << QStringLiteral("job dirs may lie in: %1").arg(jobDirs.roots().join(QStringLiteral(", ")));
    d->api->bind(server);
    d->url = QUrl(urlFor(d->options.address, server->serverPort(), !d->tls.isNull()));

    if (!writePrivateFile(d->tokenFile(), token, &problem))
        return fail(problem);
    QJsonObject runtime {
        { QStringLiteral("url"), d->url.toString() },
        { QStringLiteral("pid"), QCoreApplication::applicationPid() },
        { QStringLiteral("tokenFile"), d->tokenFile() },
        { QStringLiteral("dataDir"), d->dataDir },
        { QStringLiteral("version"), version() },
    };
    // Local clients pin the certificate from here: the runtime folder is the user's own (0700).
    if (!d->tls.isNull())
        runtime.insert(QStringLiteral("tlsCertificateSha256"), QString::fromLatin1(d->tls.sha256()));
    if (!writePrivateFile(d->runtimeFile(), QJsonDocument(runtime).toJson(QJsonDocument::Indented), &problem)) {
        QFile::remove(d->tokenFile());
        return fail(problem);
    }
    d->publishedRuntimeFile = true;
    d->running = true;
    qCInfo(lcDaemon).noquote() << QStringLiteral("trainyard-executor %1 listening on %2 (data %3, runtime file %4)")
                                      .arg(version(), d->url.toString(), d->dataDir, d->runtimeFile());
    if (!d->tls.isNull()) {
        const QHostAddress& address = d->options.address;
        qCInfo(lcDaemon).noquote() << QStringLiteral("TLS on %1 port %2; certificate %3, SHA-256 %4")
                                          .arg(address.toString())
                                          .arg(server->serverPort())
                                          .arg(d->tls.chain.first().subjectDisplayName(),
                                              QString::fromLatin1(d->tls.sha256()));
    }
    // The executor's start is on record before anything it recovers; the scheduler's own actions follow it, queued
    // so that an entry is never written from inside another call's.
    if (!d->api->auditSystemAction(QString(), QString(), Audit::executorStartMethod(),
            QStringLiteral("trainyard-executor %1 started (pid %2, data %3; Data Access audit logs %4).%5")
                .arg(version())
                .arg(QCoreApplication::applicationPid())
                .arg(d->dataDir, d->options.auditDataAccess ? QStringLiteral("on") : QStringLiteral("off"),
                    auditWarning),
            QString(), &problem,
            anchored ? QJsonObject { { QStringLiteral("previousHead"),
                QJsonObject { { QStringLiteral("insertId"), anchored->insertId },
                    { QStringLiteral("hash"), QString::fromLatin1(anchored->hash) } } } }
                     : QJsonObject())) {
        shutdown();
        return fail(QStringLiteral("cannot write the audit log: ") + problem);
    }
    connect(
        d->scheduler.get(), &Scheduler::systemAction, d->api.get(),
        [api = d->api.get()](const JobKey& key, const QString& method, const QString& message, const QString& trialId) {
            api->auditSystemAction(key.project, key.jobId, method, message, trialId);
        },
        Qt::QueuedConnection);
    d->scheduler->recover();
    // Deployed versions are served again (an executor's prediction nodes die with it).
    d->prediction->recover();
    d->collector->start();
    return true;
}

void Executor::shutdown()
{
    if (!d->running)
        return;
    d->running = false;
    qCInfo(lcDaemon) << "shutting down";
    if (d->api) {
        d->api->closeStreams();
        const auto servers = d->api->servers();
        for (QTcpServer* server : servers)
            server->close();
    }
    if (d->collector)
        d->collector->shutdown();
    if (d->scheduler)
        d->scheduler->shutdown();
    if (d->prediction)
        d->prediction->shutdown();
    if (d->logs)
        d->logs->flush();
    if (d->api)
        d->api->auditSystemAction(QString(), QString(), QStringLiteral("trainyard.v1.Executor.Stop"),
            QStringLiteral("trainyard-executor %1 stopped (pid %2).")
                .arg(version())
                .arg(QCoreApplication::applicationPid()));
    if (d->publishedRuntimeFile) {
        // Remove only what is still ours: a newer executor may have replaced the file.
        QFile file(d->runtimeFile());
        if (file.open(QIODevice::ReadOnly)) {
            const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
            file.close();
            if (json.value(QStringLiteral("pid")).toInteger() == QCoreApplication::applicationPid()) {
                QFile::remove(d->runtimeFile());
                QFile::remove(d->tokenFile());
            }
        }
        d->publishedRuntimeFile = false;
    }
    d->api.reset();
    d->audit.reset();
    d->access.reset();
    d->collector.reset();
    d->metrics.reset();
    d->scheduler.reset();
    d->logs.reset();
    d->store.reset();
    d->lock.reset();
    qCInfo(lcDaemon) << "stopped";
}

QUrl Executor::url() const
{
    return d->url;
}

QByteArray Executor::tlsCertificateSha256() const
{
    return d->tls.sha256();
}

QString Executor::runtimeFilePath() const
{
    return d->runtimeFile();
}

QString Executor::tokenFilePath() const
{
    return d->tokenFile();
}

QString Executor::dataDir() const
{
    return d->dataDir;
}

JobStore* Executor::jobStore() const
{
    return d->store.get();
}

LogStore* Executor::logStore() const
{
    return d->logs.get();
}

Scheduler* Executor::scheduler() const
{
    return d->scheduler.get();
}

HttpApi* Executor::api() const
{
    return d->api.get();
}

// --- UnixSignalWatcher ---

namespace {
int g_signalFds[2] = { -1, -1 };

extern "C" void forwardSignal(int signalNumber)
{
    const int savedErrno = errno;
    const unsigned char byte = static_cast<unsigned char>(signalNumber);
    [[maybe_unused]] const ssize_t written = ::write(g_signalFds[0], &byte, 1);
    errno = savedErrno;
}
} // namespace

struct UnixSignalWatcher::Private {
    std::unique_ptr<QSocketNotifier> notifier;
};

UnixSignalWatcher::UnixSignalWatcher(QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    if (g_signalFds[0] < 0 && ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_signalFds) != 0) {
        qCWarning(lcDaemon) << "cannot create the signal socketpair:" << std::strerror(errno);
        return;
    }
    d->notifier = std::make_unique<QSocketNotifier>(g_signalFds[1], QSocketNotifier::Read);
    connect(d->notifier.get(), &QSocketNotifier::activated, this, [this] {
        unsigned char byte = 0;
        if (::read(g_signalFds[1], &byte, 1) == 1)
            Q_EMIT terminationRequested(int(byte));
    });
    struct sigaction action { };
    action.sa_handler = forwardSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int sig : { SIGTERM, SIGINT, SIGHUP })
        ::sigaction(sig, &action, nullptr);
}

UnixSignalWatcher::~UnixSignalWatcher()
{
    for (int sig : { SIGTERM, SIGINT, SIGHUP })
        ::signal(sig, SIG_DFL);
}

} // namespace Trainyard
