// SPDX-License-Identifier: GPL-2.0-or-later
#include "localtrain.h"

#include "argparser.h"
#include "ctlsession.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSocketNotifier>
#include <QStandardPaths>
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
    QStringList userArgs = p.userArgs();
    if (p.isSet(QStringLiteral("job-dir")))
        userArgs << QStringLiteral("--job-dir") << QFileInfo(p.value(QStringLiteral("job-dir"))).absoluteFilePath();

    std::vector<Replica> replicas;
    QJsonObject cluster;
    if (distributed) {
        // local_train.py RunDistributed: master first, then ps, then workers, on contiguous ports.
        int port = startPort;
        const auto address = [](int port) { return QStringLiteral("localhost:%1").arg(port); };
        cluster.insert(QStringLiteral("master"), QJsonArray { address(port++) });
        QJsonArray psList;
        for (int i = 0; i < ps; ++i)
            psList.append(address(port++));
        QJsonArray workerList;
        for (int i = 0; i < workers; ++i)
            workerList.append(address(port++));
        cluster.insert(QStringLiteral("ps"), psList);
        cluster.insert(QStringLiteral("worker"), workerList);
        replicas.push_back(
            Replica { QStringLiteral("master-replica-0"), QStringLiteral("master"), 0, {}, {}, {}, false, 0, false });
        for (int i = 0; i < workers; ++i)
            replicas.push_back(Replica {
                QStringLiteral("worker-replica-%1").arg(i), QStringLiteral("worker"), i, {}, {}, {}, false, 0, false });
        for (int i = 0; i < ps; ++i)
            replicas.push_back(Replica {
                QStringLiteral("ps-replica-%1").arg(i), QStringLiteral("ps"), i, {}, {}, {}, false, 0, false });
        for (int i = 0; i < evaluators; ++i)
            replicas.push_back(Replica { QStringLiteral("evaluator-replica-%1").arg(i), QStringLiteral("evaluator"), i,
                {}, {}, {}, false, 0, false });
    } else {
        replicas.push_back(
            Replica { QStringLiteral("master-replica-0"), QStringLiteral("master"), 0, {}, {}, {}, false, 0, false });
    }

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
        for (Replica& r : replicas) {
            if (!r.finished && r.process->state() != QProcess::NotRunning)
                r.process->terminate();
        }
        killTimer.start();
        if (allFinished())
            loop.quit();
    };
    QObject::connect(&killTimer, &QTimer::timeout, &loop, [&]() {
        for (Replica& r : replicas) {
            if (!r.finished && r.process->state() != QProcess::NotRunning)
                r.process->kill();
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

    const int worldSize = 1 + (distributed ? workers : 0);
    QString masterPort = QString::number(startPort);
    for (Replica& r : replicas) {
        QJsonObject tfConfig;
        tfConfig.insert(QStringLiteral("job"),
            QJsonObject { { QStringLiteral("job_name"), module },
                { QStringLiteral("args"), QJsonArray::fromStringList(userArgs) } });
        tfConfig.insert(QStringLiteral("task"),
            distributed ? QJsonObject { { QStringLiteral("type"), r.type }, { QStringLiteral("index"), r.index } }
                        : QJsonObject());
        tfConfig.insert(QStringLiteral("cluster"), cluster);
        tfConfig.insert(QStringLiteral("environment"), QStringLiteral("cloud"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(
            QStringLiteral("TF_CONFIG"), QString::fromUtf8(QJsonDocument(tfConfig).toJson(QJsonDocument::Compact)));
        env.insert(QStringLiteral("CLUSTER_SPEC"),
            QString::fromUtf8(QJsonDocument(QJsonObject { { QStringLiteral("cluster"), cluster },
                                                { QStringLiteral("task"), tfConfig.value(QStringLiteral("task")) } })
                                  .toJson(QJsonDocument::Compact)));
        env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
        const QString pythonPath = env.value(QStringLiteral("PYTHONPATH"));
        env.insert(QStringLiteral("PYTHONPATH"),
            pythonPath.isEmpty() ? packageRoot : packageRoot + QLatin1Char(':') + pythonPath);
        if (r.type == QLatin1String("master") || r.type == QLatin1String("worker")) {
            env.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("localhost"));
            env.insert(QStringLiteral("MASTER_PORT"), masterPort);
            env.insert(QStringLiteral("WORLD_SIZE"), QString::number(worldSize));
            env.insert(QStringLiteral("RANK"), QString::number(r.type == QLatin1String("master") ? 0 : r.index + 1));
        }
        r.process = std::make_unique<QProcess>();
        QProcess* proc = r.process.get();
        proc->setProgram(python);
        proc->setArguments(QStringList { QStringLiteral("-m"), module } + userArgs);
        proc->setWorkingDirectory(packageRoot);
        proc->setProcessEnvironment(env);
        Replica* replica = &r;
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
