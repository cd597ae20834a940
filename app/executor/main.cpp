// SPDX-License-Identifier: GPL-2.0-or-later
// trainyard-executor: the per-user daemon that runs training jobs (see app/executor/API.md).
#include "executor.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QHostAddress>
#include <QLoggingCategory>

#include <cstdio>

using namespace Trainyard;

namespace {
/// Parses "HOST:PORT", "[V6]:PORT" or "PORT"; "localhost" means 127.0.0.1. A non-loopback address only with `tls`.
bool parseListen(const QString& text, bool tls, QHostAddress* address, quint16* port, QString* error)
{
    QString host = QStringLiteral("127.0.0.1");
    QString portText = text;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1String("]:"));
        if (close < 0) {
            *error = QStringLiteral("--listen %1: expected [ADDRESS]:PORT").arg(text);
            return false;
        }
        host = text.mid(1, close - 1);
        portText = text.mid(close + 2);
    } else if (const qsizetype colon = text.lastIndexOf(QLatin1Char(':')); colon >= 0) {
        host = text.left(colon);
        portText = text.mid(colon + 1);
    }
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    bool ok = false;
    const uint value = portText.toUInt(&ok);
    if (!ok || value > 65535) {
        *error = QStringLiteral("--listen %1: the port must be a number from 0 to 65535").arg(text);
        return false;
    }
    if (!address->setAddress(host)) {
        *error = QStringLiteral("--listen %1: \"%2\" is not an IP address").arg(text, host);
        return false;
    }
    if (!address->isLoopback() && !tls) {
        *error = QStringLiteral("--listen %1: without TLS the executor listens on a loopback address only "
                                "(127.0.0.1 or [::1]), because its API runs code as you and bearer tokens must not "
                                "cross the network in clear text; give --tls-cert and --tls-key to listen on %2 "
                                "(README, \"Team mode\")")
                     .arg(text, address->toString());
        return false;
    }
    *port = quint16(value);
    return true;
}
} // namespace

int main(int argc, char* argv[])
{
    // Qt's own event dispatcher, not GLib's: a daemon integrates with no GLib main loop, and GLib's writes its
    // wake-up eventfd on every event posted (two or three write() syscalls per API request, each waking the
    // loop for another poll round), where Qt's writes it only when the loop is asleep. An explicit setting wins.
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("trainyard-executor"));
    QCoreApplication::setApplicationVersion(Executor::version());
    if (qEnvironmentVariableIsEmpty("QT_MESSAGE_PATTERN"))
        qSetMessagePattern(QStringLiteral("%{time yyyy-MM-ddThh:mm:ss.zzz} %{category} "
                                          "%{if-warning}warning: %{endif}%{if-critical}error: %{endif}%{message}"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Runs AI Platform Training jobs on this workstation and serves the REST v1 API "
                       "(projects.jobs) on a loopback address, or over HTTPS on any address (team mode). Clients "
                       "(trainyard, trainyardctl) find it "
                       "through $XDG_RUNTIME_DIR/trainyard/executor.json and start it when none runs."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption listen(QStringLiteral("listen"),
        QStringLiteral("Address and port to listen on ([V6]:PORT for IPv6; port 0 = any free port). A loopback "
                       "address unless --tls-cert and --tls-key are given (0.0.0.0 / [::] = every interface)."),
        QStringLiteral("ADDRESS:PORT"), QStringLiteral("127.0.0.1:0"));
    const QCommandLineOption tlsCert(QStringLiteral("tls-cert"),
        QStringLiteral("Serve HTTPS with this PEM certificate (the server's first, then any intermediates)."),
        QStringLiteral("FILE"));
    const QCommandLineOption tlsKey(QStringLiteral("tls-key"),
        QStringLiteral("The certificate's private key (PEM, unencrypted RSA, EC or DSA)."), QStringLiteral("FILE"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
        QStringLiteral("Folder of the job database and job records "
                       "(default $XDG_DATA_HOME/trainyard)."),
        QStringLiteral("DIR"));
    const QCommandLineOption runtimeDir(QStringLiteral("runtime-dir"),
        QStringLiteral("Folder of the runtime file and token "
                       "(default $XDG_RUNTIME_DIR/trainyard)."),
        QStringLiteral("DIR"));
    const QCommandLineOption grace(QStringLiteral("grace-period"),
        QStringLiteral("Seconds between SIGTERM and SIGKILL when stopping replicas."), QStringLiteral("S"),
        QStringLiteral("10"));
    const QCommandLineOption jobDirRoot(QStringLiteral("job-dir-root"),
        QStringLiteral("A folder that job dirs may lie in (repeat for several; default: your home folder and the "
                       "temporary folder). A job whose trainingInput.jobDir is outside all of them is refused, "
                       "and no file outside them is served."),
        QStringLiteral("DIR"));
    const QCommandLineOption accessControl(QStringLiteral("access-control"),
        QStringLiteral("on (default) or off. Off is for measurements only (tests/bench/bench_api compares the two): "
                       "the token file's token alone authenticates, access tokens are refused and no IAM "
                       "permission is checked."),
        QStringLiteral("on|off"), QStringLiteral("on"));
    const QCommandLineOption auditDataAccess(QStringLiteral("audit-data-access"),
        QStringLiteral("Write Data Access audit log entries too: every read (get, list, logs, metrics, checkpoints, "
                       "getIamPolicy, testIamPermissions, …), not only the Admin Activity entries of calls that "
                       "change something, which are always written (<data-dir>/audit.sqlite; trainyardctl audit "
                       "list). Off by default: a busy console reads many times a second."));
    const QCommandLineOption predictionIdle(QStringLiteral("prediction-idle-seconds"),
        QStringLiteral(
            "Seconds a deployed version's prediction node beyond its autoScaling.minNodes may answer nothing "
            "before it is stopped (minNodes 0: the version scales to zero, and the next request starts a "
            "node)."),
        QStringLiteral("S"), QStringLiteral("60"));
    const QCommandLineOption noWarmSpares(QStringLiteral("no-warm-spares"),
        QStringLiteral("Keep no warm spare prediction node: by default, while a version that scales to zero "
                       "(autoScaling.minNodes 0) is deployed, one node process of its runtime waits with its framework "
                       "imported, in the nodes' sandbox and counted on the host, so that the version's next cold start "
                       "only loads the model."));
    const QCommandLineOption sandbox(QStringLiteral("sandbox"),
        QStringLiteral("Where user code runs (a training job's replicas, batch prediction workers, prediction nodes, "
                       "pip building packages): auto (default) runs it in a bubblewrap sandbox where this host allows "
                       "one: its own user and PID namespaces, the system folders read only, and only the folders its "
                       "job names, never the executor's data, runtime or config folders. on: refuse to start "
                       "without one. off: user code runs with the executor's rights. With TLS, where other people "
                       "deploy code, auto refuses to start without a sandbox: only an explicit off runs there "
                       "unsandboxed."),
        QStringLiteral("auto|on|off"), QStringLiteral("auto"));
    const QCommandLineOption sandboxUser(QStringLiteral("sandbox-user"),
        QStringLiteral("When the executor runs as root: the account user code runs as (the .deb's trainyard system "
                       "user; nobody when it does not exist)."),
        QStringLiteral("NAME"), QStringLiteral("trainyard"));
    const QCommandLineOption verbose(QStringLiteral("verbose"),
        QStringLiteral("Also print debug messages: every API request's method, path and status, transport and TLS "
                       "events, Slurm calls. Off by default, as a web server's access log would cost each request a "
                       "write (QT_LOGGING_RULES, when set, decides instead)."));
    parser.addOptions({ listen, tlsCert, tlsKey, dataDir, runtimeDir, grace, jobDirRoot, accessControl, auditDataAccess,
        predictionIdle, noWarmSpares, sandbox, sandboxUser, verbose });
    parser.process(app);
    // Qt prints a category's debug messages unless a rule says otherwise; the environment's QT_LOGGING_RULES still
    // overrides this (Qt applies it after setFilterRules()).
    if (!parser.isSet(verbose))
        QLoggingCategory::setFilterRules(QStringLiteral("trainyard.*.debug=false"));
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "trainyard-executor: unexpected argument \"%s\" (see --help)\n",
            qPrintable(parser.positionalArguments().first()));
        return 2;
    }

    ExecutorOptions options;
    QString error;
    options.tlsCertFile = parser.value(tlsCert);
    options.tlsKeyFile = parser.value(tlsKey);
    if (options.tlsCertFile.isEmpty() != options.tlsKeyFile.isEmpty()) {
        std::fprintf(stderr, "trainyard-executor: TLS needs both --tls-cert and --tls-key\n");
        return 2;
    }
    if (!parseListen(parser.value(listen), !options.tlsCertFile.isEmpty(), &options.address, &options.port, &error)) {
        std::fprintf(stderr, "trainyard-executor: %s\n", qPrintable(error));
        return 2;
    }
    bool ok = false;
    options.gracePeriodSeconds = parser.value(grace).toInt(&ok);
    if (!ok || options.gracePeriodSeconds < 0 || options.gracePeriodSeconds > 3600) {
        std::fprintf(stderr, "trainyard-executor: --grace-period %s: expected whole seconds from 0 to 3600\n",
            qPrintable(parser.value(grace)));
        return 2;
    }
    options.predictionIdleSeconds = parser.value(predictionIdle).toInt(&ok);
    if (!ok || options.predictionIdleSeconds < 1 || options.predictionIdleSeconds > 86400) {
        std::fprintf(stderr,
            "trainyard-executor: --prediction-idle-seconds %s: expected whole seconds from 1 to 86400\n",
            qPrintable(parser.value(predictionIdle)));
        return 2;
    }
    options.warmSpares = !parser.isSet(noWarmSpares);
    options.dataDir = parser.value(dataDir);
    for (const QString& root : parser.values(jobDirRoot)) {
        if (!QFileInfo(root).isAbsolute() || !QFileInfo(root).isDir()) {
            std::fprintf(stderr, "trainyard-executor: --job-dir-root %s: expected an absolute path of a folder\n",
                qPrintable(root));
            return 2;
        }
        options.jobDirRoots.append(root);
    }
    options.runtimeDir = parser.value(runtimeDir);
    if (const QString mode = parser.value(accessControl); mode == QLatin1String("off")) {
        options.accessControl = false;
    } else if (mode != QLatin1String("on")) {
        std::fprintf(stderr, "trainyard-executor: --access-control %s: expected on or off\n", qPrintable(mode));
        return 2;
    }
    options.auditDataAccess = parser.isSet(auditDataAccess);
    const QString sandboxMode = parser.value(sandbox);
    if (sandboxMode == QLatin1String("auto")) {
        options.sandbox = Sandbox::Mode::Auto;
    } else if (sandboxMode == QLatin1String("on")) {
        options.sandbox = Sandbox::Mode::On;
    } else if (sandboxMode == QLatin1String("off")) {
        options.sandbox = Sandbox::Mode::Off;
    } else {
        std::fprintf(stderr, "trainyard-executor: --sandbox must be auto, on or off, not \"%s\"\n",
            qPrintable(sandboxMode));
        return 2;
    }
    options.sandboxUser = parser.value(sandboxUser);

    UnixSignalWatcher signalWatcher;
    Executor executor(options);
    if (!executor.start(&error)) {
        std::fprintf(stderr, "trainyard-executor: %s\n", qPrintable(error));
        return 1;
    }
    QObject::connect(
        &signalWatcher, &UnixSignalWatcher::terminationRequested, &app, [](int) { QCoreApplication::quit(); });
    const int rc = app.exec();
    executor.shutdown();
    return rc;
}
