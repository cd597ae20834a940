// SPDX-License-Identifier: GPL-2.0-or-later
#include "localtrain.h"

#include "argparser.h"
#include "ctlsession.h"
#include "launchspec.h"
#include "processgroup.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace Trainyard {

namespace {

const QString kCommand = QStringLiteral("trainyardctl.local.train");

int g_signalPipe[2] = { -1, -1 };

void onTerminationSignal(int signal)
{
    const char byte = static_cast<char>(signal);
    [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &byte, 1);
}

struct Replica {
    QString taskName;
    QString type; ///< TF_CONFIG task type
    int index = 0;
    std::unique_ptr<QProcess> process;
    qint64 pid = 0; ///< its process group, kept after exit to kill stragglers
    QByteArray stdoutTail;
    QByteArray stderrTail;
    bool finished = false;
    int exitCode = 0;
    bool crashed = false;
};

// Prints complete lines of `bytes` (keeping a partial last line in `tail`) with the task prefix.
void printLines(QTextStream& stream, const QString& taskName, QByteArray* tail, const QByteArray& bytes, bool flushAll)
{
    tail->append(bytes);
    qsizetype start = 0;
    while (true) {
        const qsizetype nl = tail->indexOf('\n', start);
        if (nl < 0)
            break;
        stream << taskName << ": " << QString::fromUtf8(tail->constData() + start, nl - start) << '\n';
        start = nl + 1;
    }
    tail->remove(0, start);
    if (flushAll && !tail->isEmpty()) {
        stream << taskName << ": " << QString::fromUtf8(*tail) << '\n';
        tail->clear();
    }
    stream.flush();
}

QString pythonInterpreter()
{
    const QString env = qEnvironmentVariable("TRAINYARD_PYTHON");
    if (!env.isEmpty())
        return env;
    // Debian's interpreter has the packages (python3-torch …); a python3 earlier on PATH may not.
    if (QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable())
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

} // namespace

int LocalTrain::run(CtlSession& s, const QStringList& args)
{
    ArgParser p(kCommand,
        QStringLiteral("trainyardctl local train --module-name=MODULE_NAME [--distributed] "
                       "[--evaluator-count=EVALUATOR_COUNT] [--job-dir=JOB_DIR] [--package-path=PACKAGE_PATH] "
                       "[--parameter-server-count=PARAMETER_SERVER_COUNT] [--start-port=START_PORT] "
                       "[--worker-count=WORKER_COUNT] [-- USER_ARGS ...]"),
        QStringLiteral("run an AI Platform training job locally\n"
                       "Runs the trainer as child processes of this command, without the executor, with the "
                       "TF_CONFIG that `gcloud ai-platform local train` sets. Each output line is prefixed "
                       "with its task name; the exit code is the master's."));
    p.addFlag(
        QStringLiteral("module-name"), QStringLiteral("MODULE_NAME"), QStringLiteral("Name of the module to run."));
    p.addFlag(QStringLiteral("package-path"), QStringLiteral("PACKAGE_PATH"),
        QStringLiteral("Path to the Python package (a directory with __init__.py: its parent becomes the "
                       "working directory; a project directory with setup.py: itself)."));
    p.addFlag(
        QStringLiteral("job-dir"), QStringLiteral("JOB_DIR"), QStringLiteral("Passed to the trainer as --job-dir."));
    p.addSwitch(QStringLiteral("distributed"),
        QStringLiteral("Run as a cluster: a master, workers, parameter servers and evaluators."));
    p.addFlag(QStringLiteral("worker-count"), QStringLiteral("WORKER_COUNT"),
        QStringLiteral("Workers, with --distributed (default 2)."));
    p.addFlag(QStringLiteral("parameter-server-count"), QStringLiteral("PARAMETER_SERVER_COUNT"),
        QStringLiteral("Parameter servers, with --distributed (default 2)."));
    p.addFlag(QStringLiteral("evaluator-count"), QStringLiteral("EVALUATOR_COUNT"),
        QStringLiteral("Evaluators, with --distributed (default 0)."));
    p.addFlag(QStringLiteral("start-port"), QStringLiteral("START_PORT"),
        QStringLiteral("First of the contiguous ports of the cluster (default 27182)."));
    p.allowUserArgs(QStringLiteral("Additional arguments passed to the trainer."));
    if (!p.parse(args)) {
        if (p.helpRequested()) {
            s.out() << p.helpText();
            return ExitCode::Ok;
        }
        s.err() << p.usageError(p.errorText());
        return ExitCode::Usage;
    }
    if (!p.isSet(QStringLiteral("module-name"))) {
        s.err() << p.usageError(QStringLiteral("argument --module-name: Must be specified."));
        return ExitCode::Usage;
    }
    const bool distributed = p.isTrue(QStringLiteral("distributed"));
    int workers = 2;
    int ps = 2;
    int evaluators = 0;
    int startPort = 27182;
    QString error;
    const struct {
        const char* flag;
        int* value;
        int minimum;
    } ints[] = { { "worker-count", &workers, 0 }, { "parameter-server-count", &ps, 0 },
        { "evaluator-count", &evaluators, 0 }, { "start-port", &startPort, 1 } };
    for (const auto& i : ints) {
        const QString flag = QLatin1String(i.flag);
        if (p.isSet(flag) && !ArgParser::parseInt(flag, p.value(flag), i.minimum, i.value, &error)) {
            s.err() << p.usageError(error);
            return ExitCode::Usage;
        }
    }
    if (startPort + ps + workers >= 65536) {
        s.err() << p.usageError(QStringLiteral("argument --start-port: the cluster's ports would pass 65535."));
        return ExitCode::Usage;
    }

    QString packageRoot = QDir::currentPath();
    if (p.isSet(QStringLiteral("package-path"))) {
        const QFileInfo dir(p.value(QStringLiteral("package-path")));
        if (!dir.isDir()) {
            s.err() << p.usageError(QStringLiteral("argument --package-path: [%1] is not a directory.")
                                        .arg(p.value(QStringLiteral("package-path"))));
            return ExitCode::Usage;
        }
        // gcloud runs from the parent of the Python package; a setup.py project directory is the root itself.
        packageRoot = QFileInfo::exists(dir.absoluteFilePath() + QStringLiteral("/__init__.py"))
            ? dir.absolutePath()
            : dir.absoluteFilePath();
    }
    const QString python = pythonInterpreter();
    if (python.isEmpty()) {
        s.printError(kCommand, QStringLiteral("No Python interpreter found (/usr/bin/python3 or python3 on PATH)."));
        return ExitCode::Error;
    }
    const QString module = p.value(QStringLiteral("module-name"));

    // The replicas and their contract come from app/launch, the code the executor runs them with; only
    // the ports (gcloud's contiguous ones) and TF_CONFIG's empty task without --distributed are gcloud's.
    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/trainyard-local-train-XXXXXX"));
    if (!scratch.isValid()) {
        s.printError(kCommand, QStringLiteral("Cannot create a temporary folder: %1").arg(scratch.errorString()));
        return ExitCode::Error;
    }
    Launch::ReplicaSet set;
    set.replicaRoot = scratch.path(); // each replica's hypertune file; the replicas run in the package root
    const auto slot = [](const QString& role, const QString& prefix, int index) {
        Launch::ReplicaSlot r;
        r.role = role;
        r.index = index;
        r.taskName = prefix + QLatin1Char('-') + QString::number(index);
        return r;
    };
    set.replicas << slot(QStringLiteral("master"), QStringLiteral("master-replica"), 0);
    if (distributed) {
        for (int i = 0; i < workers; ++i)
            set.replicas << slot(QStringLiteral("worker"), QStringLiteral("worker-replica"), i);
        for (int i = 0; i < ps; ++i)
            set.replicas << slot(QStringLiteral("ps"), QStringLiteral("ps-replica"), i);
        for (int i = 0; i < evaluators; ++i)
            set.replicas << slot(QStringLiteral("evaluator"), QStringLiteral("evaluator-replica"), i);
    }
    // gcloud's local_train.py: master first, then parameter servers, then workers, on contiguous ports;
    // evaluators are not in the cluster and get none.
    Launch::Placement placement;
    const int psBase = startPort + 1;
    const int workerBase = psBase + ps;
    for (const Launch::ReplicaSlot& r : std::as_const(set.replicas)) {
        int port = 0;
        if (r.role == QLatin1String("master"))
            port = startPort;
        else if (r.role == QLatin1String("ps"))
            port = psBase + r.index;
        else if (r.role == QLatin1String("worker"))
            port = workerBase + r.index;
        placement.addresses << Launch::Address { QStringLiteral("localhost"), port };
    }
    Launch::LaunchContext context;
    context.input.pythonModule = module;
    context.input.args = p.userArgs();
    if (p.isSet(QStringLiteral("job-dir")))
        context.input.jobDir = QFileInfo(p.value(QStringLiteral("job-dir"))).absoluteFilePath();
    context.interpreter = python;
    context.pythonPath = { packageRoot };
    context.cloud = QStringLiteral("local");
    context.jobMarker = scratch.path(); // unique to this run: what carries it dies with it
    context.standalone = !distributed;
    QString launchError;
    const QList<Launch::ReplicaLaunch> launches = Launch::buildLaunch(context, set, placement, &launchError);
    if (launches.isEmpty()) {
        s.printError(kCommand, launchError);
        return ExitCode::Error;
    }
    std::vector<Replica> replicas;
    for (const Launch::ReplicaSlot& r : std::as_const(set.replicas))
        replicas.push_back(Replica { r.taskName, r.role, r.index, {}, 0, {}, {}, false, 0, false });

    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0) {
        s.printError(kCommand, QStringLiteral("Cannot create the signal pipe."));
        return ExitCode::Error;
    }
    struct sigaction action = {};
    action.sa_handler = onTerminationSignal;
    ::sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    struct sigaction oldInt = {};
    struct sigaction oldTerm = {};
    ::sigaction(SIGINT, &action, &oldInt);
    ::sigaction(SIGTERM, &action, &oldTerm);

    QEventLoop loop;
    int masterExit = -1;
    QString failure;
    bool stopping = false;
    QTimer killTimer;
    killTimer.setSingleShot(true);
    killTimer.setInterval(5000);
    auto allFinished = [&]() {
        for (const Replica& r : replicas) {
            if (!r.finished)
                return false;
        }
        return true;
    };
    auto stopAll = [&]() {
        if (stopping)
            return;
        stopping = true;
        // The whole process group of each replica: a trainer's own children (data loaders, a `sleep`)
        // get the signal too.
        for (Replica& r : replicas) {
            if (!r.finished && r.pid)
                signalGroup(r.pid, SIGTERM);
            else if (!r.finished && r.process->state() != QProcess::NotRunning)
                r.process->kill();
        }
        killTimer.start();
        if (allFinished())
            loop.quit();
    };
    QObject::connect(&killTimer, &QTimer::timeout, &loop, [&]() {
        for (Replica& r : replicas) {
            if (!r.finished && r.pid)
                signalGroup(r.pid, SIGKILL);
        }
    });
    QSocketNotifier signalNotifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&signalNotifier, &QSocketNotifier::activated, &loop, [&]() {
        char byte = 0;
        [[maybe_unused]] const auto n = ::read(g_signalPipe[0], &byte, 1);
        if (failure.isEmpty())
            failure = QStringLiteral("Interrupted; stopping the replicas.");
        stopAll();
    });

    for (size_t i = 0; i < replicas.size(); ++i) {
        Replica& r = replicas[i];
        const Launch::ReplicaLaunch& l = launches.at(qsizetype(i));
        QDir().mkpath(QFileInfo(l.hypertuneFile).absolutePath());
        r.process = std::make_unique<QProcess>();
        QProcess* proc = r.process.get();
        proc->setProgram(l.program);
        proc->setArguments(l.arguments);
        proc->setWorkingDirectory(packageRoot);
        proc->setProcessEnvironment(l.environment(QProcessEnvironment::systemEnvironment()));
        // Its own process group, killed with this command (PR_SET_PDEATHSIG) even when it is SIGKILLed.
        makeOwnProcessGroup(proc);
        Replica* replica = &r;
        QObject::connect(proc, &QProcess::started, &loop, [replica, proc]() { replica->pid = proc->processId(); });
        QObject::connect(proc, &QProcess::readyReadStandardOutput, &loop, [&s, replica, proc]() {
            printLines(s.out(), replica->taskName, &replica->stdoutTail, proc->readAllStandardOutput(), false);
        });
        QObject::connect(proc, &QProcess::readyReadStandardError, &loop, [&s, replica, proc]() {
            printLines(s.err(), replica->taskName, &replica->stderrTail, proc->readAllStandardError(), false);
        });
        QObject::connect(proc, &QProcess::finished, &loop, [&, replica, proc](int code, QProcess::ExitStatus status) {
            printLines(s.out(), replica->taskName, &replica->stdoutTail, proc->readAllStandardOutput(), true);
            printLines(s.err(), replica->taskName, &replica->stderrTail, proc->readAllStandardError(), true);
            replica->finished = true;
            replica->exitCode = code;
            replica->crashed = status == QProcess::CrashExit;
            if (replica->type == QLatin1String("master")) {
                masterExit = replica->crashed ? 1 : code;
                stopAll();
            } else if (!stopping && (replica->crashed || code != 0)) {
                failure = replica->crashed
                    ? QStringLiteral("The replica %1 exited abnormally; stopping the others.").arg(replica->taskName)
                    : QStringLiteral("The replica %1 exited with non-zero status of %2; stopping the others.")
                          .arg(replica->taskName)
                          .arg(code);
                stopAll();
            }
            if (stopping && allFinished())
                loop.quit();
        });
        QObject::connect(proc, &QProcess::errorOccurred, &loop, [&, replica, proc](QProcess::ProcessError e) {
            if (e != QProcess::FailedToStart)
                return;
            replica->finished = true;
            replica->exitCode = 1;
            failure = QStringLiteral("Cannot start %1 for %2: %3").arg(python, replica->taskName, proc->errorString());
            stopAll();
            if (allFinished())
                loop.quit();
        });
    }
    // Servers first and the master last, as gcloud does, so the master finds its cluster listening.
    for (auto it = replicas.rbegin(); it != replicas.rend() && !stopping; ++it)
        it->process->start();
    if (!allFinished())
        loop.exec();

    // What a replica started outside its group (setsid) dies too, and is gone before we return.
    QList<qint64> groups;
    for (const Replica& r : replicas) {
        if (r.pid) {
            signalGroup(r.pid, SIGKILL);
            groups << r.pid;
        }
    }
    QList<qint64> dying;
    for (int attempt = 0; attempt < 1500; ++attempt) { // at most 30 s
        dying += killJobLeftovers(context.jobMarker, groups);
        dying.removeIf([](qint64 pid) { return processGone(pid); });
        if (dying.isEmpty() && jobProcesses(context.jobMarker, groups).isEmpty())
            break;
        QThread::msleep(20);
    }
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGTERM, &oldTerm, nullptr);
    ::close(g_signalPipe[0]);
    ::close(g_signalPipe[1]);
    g_signalPipe[0] = g_signalPipe[1] = -1;

    if (!failure.isEmpty()) {
        s.printError(kCommand, failure);
        if (masterExit <= 0) {
            for (const Replica& r : replicas) {
                if (r.type != QLatin1String("master") && r.finished && !r.crashed && r.exitCode != 0)
                    return r.exitCode;
            }
            return ExitCode::Error;
        }
    }
    return masterExit < 0 ? ExitCode::Error : masterExit;
}

} // namespace Trainyard
