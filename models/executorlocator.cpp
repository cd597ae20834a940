// SPDX-License-Identifier: GPL-2.0-or-later
#include "executorlocator.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

namespace Trainyard {

Q_LOGGING_CATEGORY(lcLocator, "trainyard.models")

namespace {

bool processAlive(qint64 pid)
{
    if (pid <= 0)
        return false;
    if (::kill(static_cast<pid_t>(pid), 0) == 0)
        return true;
    return errno == EPERM;
}

// A pid in the runtime file may have been reused by an unrelated process after a crash.
bool isExecutorProcess(qint64 pid)
{
    if (!processAlive(pid))
        return false;
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!cmdline.open(QIODevice::ReadOnly))
        return true; // no /proc: trust the pid
    const QByteArray argv0 = cmdline.readAll().split('\0').value(0);
    // A zombie has an empty cmdline: it is gone for our purposes.
    return argv0.contains("trainyard-executor");
}

QByteArray readToken(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().trimmed();
}

QString tailOfFile(const QString& path, int maxLines)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    if (f.size() > 8192)
        f.seek(f.size() - 8192);
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() > maxLines)
        lines = lines.mid(lines.size() - maxLines);
    return lines.join(QLatin1Char('\n'));
}

bool isLoopbackHost(const QString& host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

} // namespace

struct ExecutorLocator::Private {
    ExecutorLocator* q;
    QString explicitUrl;
    QByteArray explicitToken;
    TlsTrust explicitTrust;
    TlsTrustGuard* tls = nullptr;
    bool autoStart = true;
    int startTimeoutMs = 10000;

    QNetworkAccessManager* nam = nullptr;
    QTimer pollTimer;
    QDeadlineTimer deadline;
    std::unique_ptr<QLockFile> startLock;
    bool running = false;
    bool probing = false;
    bool started = false;
    qint64 startedPid = 0;
    QString logPath;
    QString lastProblem;

    void finishOk(const ExecutorEndpoint& endpoint)
    {
        cleanup();
        Q_EMIT q->located(endpoint);
    }
    void finishFailed(const QString& message)
    {
        cleanup();
        Q_EMIT q->failed(message);
    }
    void cleanup()
    {
        pollTimer.stop();
        running = false;
        probing = false;
        if (startLock)
            startLock->unlock();
        startLock.reset();
    }

    // GET /v1/projects/local/host with the token: 200 means a working executor that accepts us.
    void probe(const ExecutorEndpoint& endpoint, std::function<void(bool ok, const QString& problem)> done)
    {
        QUrl url = endpoint.url;
        url.setPath(QStringLiteral("/v1/projects/local/host"));
        QNetworkRequest req(url);
        tls->setTrust(endpoint.trust);
        tls->prepare(&req);
        req.setRawHeader("Authorization", "Bearer " + endpoint.token);
        req.setTransferTimeout(3000);
        QNetworkReply* reply = nam->get(req);
        probing = true;
        QObject::connect(reply, &QNetworkReply::finished, q, [this, reply, endpoint, done = std::move(done)]() {
            reply->deleteLater();
            probing = false;
            const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QString tlsProblem = TlsTrustGuard::problem(reply);
            if (!tlsProblem.isEmpty()) {
                done(false, tlsProblem);
            } else if (http == 200) {
                done(true, {});
            } else if (http == 401) {
                done(false,
                    QStringLiteral("The executor at %1 refused the token (401 UNAUTHENTICATED); set TRAINYARD_TOKEN "
                                   "(or --token-file) or check the token file")
                        .arg(endpoint.url.toString()));
            } else if (http != 0) {
                done(false,
                    QStringLiteral("The executor at %1 answered HTTP %2").arg(endpoint.url.toString()).arg(http));
            } else {
                done(false,
                    QStringLiteral("No executor answers at %1 (%2)")
                        .arg(endpoint.url.toString(), reply->errorString()));
            }
        });
    }

    void locateExplicit(const QString& urlText)
    {
        const QUrl url(urlText, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
            || url.host().isEmpty()) {
            finishFailed(QStringLiteral("Invalid executor URL [%1]: expected http://HOST:PORT or https://HOST:PORT")
                             .arg(urlText));
            return;
        }
        ExecutorEndpoint endpoint;
        endpoint.url = url;
        if (url.scheme() == QLatin1String("https")) {
            endpoint.trust = explicitTrust;
            if (endpoint.trust.pinSha256.isEmpty() && endpoint.trust.caCertificates.isEmpty()) {
                const KnownExecutors known;
                int line = 0;
                endpoint.trust.pinSha256 = known.lookup(url, &line);
                if (!endpoint.trust.pinSha256.isEmpty())
                    endpoint.trust.pinSource = QStringLiteral("%1 line %2").arg(known.path()).arg(line);
            }
            if (endpoint.trust.pinSha256.isEmpty() && endpoint.trust.caCertificates.isEmpty()) {
                // This user's own executor, named by its URL: its runtime file says which certificate it has.
                QString ignored;
                const ExecutorEndpoint local = readRuntimeFile(&ignored);
                if (local.url == url)
                    endpoint.trust = local.trust;
            }
        }
        endpoint.token = explicitToken.isEmpty() ? qgetenv("TRAINYARD_TOKEN") : explicitToken;
        // The local executor's admin token goes to a loopback executor only, never over the network.
        if (endpoint.token.isEmpty() && isLoopbackHost(url.host())) {
            QString ignored;
            const ExecutorEndpoint local = readRuntimeFile(&ignored);
            endpoint.token = local.token.isEmpty() ? readToken(runtimeDir() + QStringLiteral("/token")) : local.token;
        }
        probe(endpoint, [this, endpoint](bool ok, const QString& problem) {
            if (ok)
                finishOk(endpoint);
            else
                finishFailed(problem);
        });
    }

    void locateLocal()
    {
        QString error;
        const ExecutorEndpoint endpoint = readRuntimeFile(&error);
        if (!endpoint.isValid()) {
            lastProblem = error;
            startOrWait();
            return;
        }
        probe(endpoint, [this, endpoint](bool ok, const QString& problem) {
            if (ok) {
                finishOk(endpoint);
                return;
            }
            lastProblem = problem;
            startOrWait();
        });
    }

    // No executor answered. Start one unless another client is starting one right now (the lock) or
    // the runtime file names a live executor process that may still be coming up; then wait.
    void startOrWait()
    {
        if (!autoStart) {
            finishFailed(lastProblem.isEmpty() ? QStringLiteral("No executor is running") : lastProblem);
            return;
        }
        deadline = QDeadlineTimer(startTimeoutMs);
        const QString dir = runtimeDir();
        if (!QDir().mkpath(dir)) {
            finishFailed(QStringLiteral("Cannot create the runtime folder %1").arg(dir));
            return;
        }
        ::chmod(QFile::encodeName(dir).constData(), 0700);
        startLock = std::make_unique<QLockFile>(dir + QStringLiteral("/executor-start.lock"));
        startLock->setStaleLockTime(startTimeoutMs + 5000);
        tryStart();
        pollTimer.start();
    }

    void tryStart()
    {
        if (started)
            return;
        if (!startLock->tryLock(0))
            return; // another client is starting it; keep polling the runtime file
        QString ignored;
        const ExecutorEndpoint current = readRuntimeFile(&ignored);
        if (current.isValid() && current.pid != 0 && isExecutorProcess(current.pid)) {
            // Alive but not (yet) healthy: probably still starting. Give it the wait.
            started = true;
            startedPid = current.pid;
            return;
        }
        const QString binary = findExecutorBinary();
        if (binary.isEmpty()) {
            finishFailed(QStringLiteral("No executor answers and trainyard-executor was not found (set "
                                        "TRAINYARD_EXECUTOR_BIN, or put it next to this program or on PATH)"));
            return;
        }
        Q_EMIT q->starting(binary);
        logPath = runtimeDir() + QStringLiteral("/executor.log");
        QProcess process;
        process.setProgram(binary);
        process.setStandardOutputFile(logPath, QIODevice::Append);
        process.setStandardErrorFile(logPath, QIODevice::Append);
        process.setStandardInputFile(QProcess::nullDevice());
        process.setWorkingDirectory(QDir::homePath());
        // startDetached forks twice and calls setsid(): the executor gets its own session, is re-parented
        // to init and outlives this client.
        qint64 pid = 0;
        if (!process.startDetached(&pid)) {
            finishFailed(QStringLiteral("Cannot start %1: %2").arg(binary, process.errorString()));
            return;
        }
        qCInfo(lcLocator) << "started" << binary << "pid" << pid;
        started = true;
        startedPid = pid;
    }

    void poll()
    {
        if (!running || probing)
            return;
        if (deadline.hasExpired()) {
            QString message
                = QStringLiteral("The executor did not become ready within %1 s").arg(startTimeoutMs / 1000.0);
            const QString tail = logPath.isEmpty() ? QString() : tailOfFile(logPath, 5);
            if (!tail.isEmpty())
                message += QStringLiteral("; the end of %1:\n").arg(logPath) + tail;
            finishFailed(message);
            return;
        }
        if (!started) {
            tryStart();
            if (!running)
                return;
        }
        if (started && startedPid > 0 && !processAlive(startedPid)) {
            // The executor we started (or waited for) is gone: report its own words.
            QString ignored;
            const ExecutorEndpoint current = readRuntimeFile(&ignored);
            if (!current.isValid() || current.pid == startedPid || !isExecutorProcess(current.pid)) {
                QString message = QStringLiteral("The executor (pid %1) exited during start").arg(startedPid);
                const QString tail = logPath.isEmpty() ? QString() : tailOfFile(logPath, 10);
                if (!tail.isEmpty())
                    message += QStringLiteral(":\n") + tail;
                finishFailed(message);
                return;
            }
            startedPid = current.pid;
        }
        QString ignored;
        const ExecutorEndpoint endpoint = readRuntimeFile(&ignored);
        if (!endpoint.isValid())
            return;
        probe(endpoint, [this, endpoint](bool ok, const QString& problem) {
            if (!running)
                return;
            if (ok)
                finishOk(endpoint);
            else
                lastProblem = problem;
        });
    }
};

ExecutorLocator::ExecutorLocator(QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->nam = new QNetworkAccessManager(this);
    d->nam->setProxy(QNetworkProxy::NoProxy);
    d->tls = new TlsTrustGuard(d->nam, this);
    d->pollTimer.setInterval(100);
    connect(&d->pollTimer, &QTimer::timeout, this, [this]() { d->poll(); });
}

ExecutorLocator::~ExecutorLocator()
{
    d->cleanup();
}

void ExecutorLocator::setExplicitUrl(const QString& url)
{
    d->explicitUrl = url;
}

void ExecutorLocator::setExplicitToken(const QByteArray& token)
{
    d->explicitToken = token;
}

void ExecutorLocator::setExplicitTrust(const TlsTrust& trust)
{
    d->explicitTrust = trust;
}

void ExecutorLocator::setAutoStart(bool enabled)
{
    d->autoStart = enabled;
}

void ExecutorLocator::setStartTimeout(int ms)
{
    d->startTimeoutMs = ms;
}

void ExecutorLocator::locate()
{
    if (d->running)
        return;
    d->running = true;
    d->started = false;
    d->startedPid = 0;
    d->logPath.clear();
    d->lastProblem.clear();
    QString url = d->explicitUrl;
    if (url.isEmpty())
        url = qEnvironmentVariable("TRAINYARD_EXECUTOR");
    if (!url.isEmpty())
        d->locateExplicit(url);
    else
        d->locateLocal();
}

ExecutorEndpoint ExecutorLocator::locateBlocking(QString* error)
{
    ExecutorEndpoint result;
    QString message;
    bool done = false;
    QEventLoop loop;
    const auto c1 = connect(this, &ExecutorLocator::located, &loop, [&](const ExecutorEndpoint& e) {
        result = e;
        done = true;
        loop.quit();
    });
    const auto c2 = connect(this, &ExecutorLocator::failed, &loop, [&](const QString& m) {
        message = m;
        done = true;
        loop.quit();
    });
    locate();
    if (!done)
        loop.exec();
    disconnect(c1);
    disconnect(c2);
    if (error)
        *error = message;
    return result;
}

QString ExecutorLocator::runtimeDir()
{
    const QString xdg = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!xdg.isEmpty())
        return xdg + QStringLiteral("/trainyard");
    return QStringLiteral("/tmp/trainyard-%1").arg(::getuid());
}

QString ExecutorLocator::runtimeFilePath()
{
    return runtimeDir() + QStringLiteral("/executor.json");
}

ExecutorEndpoint ExecutorLocator::readRuntimeFile(QString* error)
{
    ExecutorEndpoint endpoint;
    QFile file(runtimeFilePath());
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("No executor runtime file at %1").arg(file.fileName());
        return endpoint;
    }
    QJsonParseError parseError;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll(), &parseError).object();
    const QUrl url(o.value(QLatin1String("url")).toString(), QUrl::StrictMode);
    if (parseError.error != QJsonParseError::NoError || !url.isValid() || url.isEmpty()) {
        // Also the case while the executor is writing it: callers poll again.
        if (error)
            *error = QStringLiteral("The executor runtime file %1 is malformed").arg(file.fileName());
        return endpoint;
    }
    endpoint.url = url;
    const QJsonValue pid = o.value(QLatin1String("pid"));
    endpoint.pid = pid.isString() ? pid.toString().toLongLong() : static_cast<qint64>(pid.toDouble());
    endpoint.dataDir = o.value(QLatin1String("dataDir")).toString();
    endpoint.version = o.value(QLatin1String("version")).toString();
    QString tokenFile = o.value(QLatin1String("tokenFile")).toString();
    if (tokenFile.isEmpty())
        tokenFile = runtimeDir() + QStringLiteral("/token");
    endpoint.token = qEnvironmentVariableIsSet("TRAINYARD_TOKEN") ? qgetenv("TRAINYARD_TOKEN") : readToken(tokenFile);
    if (url.scheme() == QLatin1String("https")) {
        endpoint.trust.pinSha256 = TlsTrust::normalizeSha256(o.value(QLatin1String("tlsCertificateSha256")).toString());
        endpoint.trust.pinSource = QStringLiteral("the runtime file %1").arg(file.fileName());
    }
    return endpoint;
}

QString ExecutorLocator::findExecutorBinary()
{
    const QString env = qEnvironmentVariable("TRAINYARD_EXECUTOR_BIN");
    if (!env.isEmpty())
        return QFileInfo(env).isExecutable() ? QFileInfo(env).absoluteFilePath() : QString();
    const QString name = QStringLiteral("trainyard-executor");
    if (QCoreApplication::instance()) {
        const QString appDir = QCoreApplication::applicationDirPath();
        const QStringList candidates { appDir + QStringLiteral("/../executor/") + name,
            appDir + QLatin1Char('/') + name };
        for (const QString& c : candidates) {
            const QFileInfo info(c);
            if (info.isFile() && info.isExecutable())
                return info.canonicalFilePath();
        }
    }
    return QStandardPaths::findExecutable(name);
}

} // namespace Trainyard
