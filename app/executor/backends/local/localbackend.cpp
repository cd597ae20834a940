// SPDX-License-Identifier: GPL-2.0-or-later
#include "localbackend.h"

#include "admission.h"
#include "containerhost.h"
#include "outputpipe.h"
#include "processgroup.h"
#include "sandbox.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QTcpServer>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <vector>

namespace Trainyard {

namespace {

Q_LOGGING_CATEGORY(lcLocal, "trainyard.executor")

/// How often a stopping run looks for processes that are still alive after SIGKILL.
constexpr int GonePollMs = 20;
/// A SIGKILLed process that is still listed after this long is stuck in the kernel (uninterruptible
/// I/O): the run is reported stopped anyway, with a warning, so the job does not stay live forever.
constexpr qint64 GoneLimitMs = 30000;

} // namespace

struct LocalBackend::Private {
    LocalBackend* q = nullptr;
    HostInventory host;
    int outputBatchMs = 5;
    bool shuttingDown = false;
    Launch::ContainerRuntime containers;
    Sandbox sandbox;

    struct Replica {
        QString taskName;
        QProcess* process = nullptr; // null once exited
        OutputPipe* out = nullptr; // children of `process`
        OutputPipe* err = nullptr;
        qint64 pid = 0; // process group id, kept after exit to kill stragglers
        QString containerName; // non-empty: `process` is the podman client of this container
        bool sandboxed = false; // `process` is bubblewrap around the replica (Sandbox)
        bool startedSent = false;
        QProcess* inspect = nullptr; // `podman inspect` of the container's init pid, while it runs
        QElapsedTimer inspectClock;
    };

    struct Run {
        ClusterPlan plan;
        std::optional<Reservation> reservation;
        std::vector<std::unique_ptr<Replica>> replicas;
        QString marker;
        bool stopping = false;
        bool stoppedSent = false;
        QTimer* killTimer = nullptr;
        QTimer* goneTimer = nullptr;
        QElapsedTimer goneClock;
        QList<qint64> dying; // SIGKILLed, not yet gone
        qint64 launchedTicks = 0; // bootTicksNow() just before the launch: the run's processes are younger
        QProcess* removing = nullptr; // `podman rm -f` of the run's containers, while it runs
        bool containersRemoved = false;
    };
    std::map<RunId, Run> runs;
    struct NodeReservation {
        int vcpus = 0;
        Bytes memory;
    };
    std::map<QString, NodeReservation> nodes; ///< prediction nodes' reservations, by node ID (NodeCapacity)

    /// What runs (but `except`) and prediction nodes reserve. Nodes add to the load, never to the holders: a run alone
    /// beside deployed versions still starts (NodeCapacity's rule).
    HostLoad loadExcept(const RunId& except) const
    {
        HostLoad load;
        for (const auto& [id, node] : nodes) {
            load.vcpus += node.vcpus;
            load.memory += node.memory;
        }
        for (const auto& [id, run] : runs) {
            if (id == except || !run.reservation)
                continue;
            load.vcpus += run.plan.totalVcpus();
            load.memory += run.plan.totalMemory();
            load.gpus += run.reservation->gpus;
            ++load.holders;
        }
        return load;
    }

    /// Free loopback ports, one per replica: each is bound (port 0) and held until all are picked, so
    /// no two replicas get the same one. Empty when the host has none left.
    static QList<int> freePorts(qsizetype n)
    {
        std::vector<std::unique_ptr<QTcpServer>> servers;
        QList<int> ports;
        for (qsizetype i = 0; i < n; ++i) {
            auto server = std::make_unique<QTcpServer>();
            if (!server->listen(QHostAddress::LocalHost, 0))
                return {};
            ports << server->serverPort();
            servers.push_back(std::move(server));
        }
        return ports;
    }

    void onFinished(const RunId& id, Replica* replica, QProcess* process, const ReplicaExit& exit)
    {
        if (replica->process != process)
            return;
        // What the replica wrote before it exited is in the pipes: deliver it before the exit.
        if (replica->out)
            replica->out->drain();
        if (replica->err)
            replica->err->drain();
        replica->out = replica->err = nullptr;
        replica->process = nullptr;
        process->deleteLater();
        if (shuttingDown)
            return;
        if (replica->inspect) {
            replica->inspect->disconnect(q);
            replica->inspect->kill();
            replica->inspect->deleteLater();
            replica->inspect = nullptr;
        }
        ReplicaExit reported = exit;
        // `podman run` exits 125 when podman itself fails (no such image, a runtime error) and 126 when the
        // container's command cannot be invoked: the replica never ran (podman's error is in its log).
        if (!replica->containerName.isEmpty() && exit.kind == ReplicaExit::Kind::Exited
            && (exit.code == 125 || exit.code == 126)) {
            reported.kind = ReplicaExit::Kind::FailedToStart;
            reported.error = LocalBackend::tr("podman could not run the container %1 (exit %2); podman's error is "
                                              "in the replica's log")
                                 .arg(replica->containerName)
                                 .arg(exit.code);
        }
        // A container that ended before its pid was known still ran (unless podman failed to run it).
        if (reported.kind != ReplicaExit::Kind::FailedToStart && !replica->startedSent
            && exit.kind != ReplicaExit::Kind::FailedToStart)
            sendStarted(id, replica, replica->pid);
        Q_EMIT q->exited(id, replica->taskName, reported);
        auto it = runs.find(id);
        if (it != runs.end() && it->second.stopping)
            checkGone(id);
    }

    void sendStarted(const RunId& id, Replica* r, qint64 pid)
    {
        if (r->startedSent || shuttingDown)
            return;
        r->startedSent = true;
        Q_EMIT q->started(id, r->taskName, pid);
    }

    /// A container replica is started once its container runs: its pid is then the container's init (a host pid
    /// whose tree is the trainer), which the resource samples and `…/replicas` report, not the podman client's
    /// (whose tree holds only the client: conmon parents the container). Asks `podman inspect` every
    /// InspectRetryMs until the container has a pid; after InspectLimitMs it reports the client instead.
    static constexpr int InspectRetryMs = 100;
    static constexpr qint64 InspectLimitMs = 30000;
    void inspectContainer(const RunId& id, Replica* r)
    {
        if (!r->process || r->startedSent || shuttingDown)
            return;
        if (r->inspectClock.elapsed() > InspectLimitMs) {
            qCWarning(lcLocal, "container %s has no pid after %lld ms; reporting its podman client",
                qPrintable(r->containerName), InspectLimitMs);
            sendStarted(id, r, r->pid);
            return;
        }
        r->inspect = new QProcess(q);
        r->inspect->setWorkingDirectory(QDir::tempPath());
        r->inspect->setStandardErrorFile(QProcess::nullDevice());
        QProcess* inspect = r->inspect;
        QObject::connect(
            inspect, &QProcess::finished, q, [this, id, r, inspect](int code, QProcess::ExitStatus status) {
                if (r->inspect != inspect)
                    return;
                r->inspect = nullptr;
                inspect->deleteLater();
                const qint64 pid = status == QProcess::NormalExit && code == 0
                    ? inspect->readAllStandardOutput().trimmed().toLongLong()
                    : 0;
                if (pid > 0) {
                    sendStarted(id, r, pid);
                    return;
                }
                QTimer::singleShot(InspectRetryMs, q, [this, id, r] {
                    // The run may be gone (stopped and cleared): look the replica up again.
                    auto it = runs.find(id);
                    if (it == runs.end())
                        return;
                    for (const auto& replica : it->second.replicas) {
                        if (replica.get() == r)
                            inspectContainer(id, r);
                    }
                });
            });
        QObject::connect(inspect, &QProcess::errorOccurred, q, [this, id, r, inspect](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart && r->inspect == inspect) {
                r->inspect = nullptr;
                inspect->deleteLater();
                sendStarted(id, r, r->pid);
            }
        });
        inspect->start(containers.podman,
            containers.globalArgs
                + QStringList { QStringLiteral("inspect"), QStringLiteral("--format"), QStringLiteral("{{.State.Pid}}"),
                    r->containerName });
    }

    /// The names of the run's container replicas.
    static QStringList containerNames(const Run& run)
    {
        QStringList names;
        for (const auto& r : run.replicas) {
            if (!r->containerName.isEmpty())
                names << r->containerName;
        }
        return names;
    }

    /// Starts `podman rm -f` of the run's containers (a container whose client was SIGKILLed keeps running under
    /// conmon, and `--rm` removes only one that exited). Returns true once they are removed (or there are none).
    bool removeContainers(const RunId& id, Run& run)
    {
        const QStringList names = containerNames(run);
        if (names.isEmpty() || run.containersRemoved || containers.podman.isEmpty())
            return true;
        if (run.removing)
            return false;
        run.removing = new QProcess(q);
        run.removing->setWorkingDirectory(QDir::tempPath());
        run.removing->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        run.removing->setStandardOutputFile(QProcess::nullDevice());
        QObject::connect(run.removing, &QProcess::finished, q, [this, id] { onContainersRemoved(id); });
        QObject::connect(run.removing, &QProcess::errorOccurred, q, [this, id](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                onContainersRemoved(id);
        });
        run.removing->start(containers.podman,
            containers.globalArgs
                + QStringList { QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("--ignore"),
                    QStringLiteral("-t"), QStringLiteral("0") }
                + names);
        return false;
    }

    void onContainersRemoved(const RunId& id)
    {
        auto it = runs.find(id);
        if (it == runs.end() || !it->second.removing)
            return;
        it->second.removing->deleteLater();
        it->second.removing = nullptr;
        it->second.containersRemoved = true;
        checkGone(id);
    }

    /// After stop(): once every replica exited, kill what they left and report stopped() when /proc
    /// shows nothing of the run.
    void checkGone(const RunId& id)
    {
        auto it = runs.find(id);
        if (it == runs.end() || !it->second.stopping || it->second.stoppedSent)
            return;
        Run& run = it->second;
        if (std::any_of(run.replicas.begin(), run.replicas.end(), [](const auto& r) { return r->process; }))
            return;
        if (run.killTimer)
            run.killTimer->stop();
        if (!removeContainers(id, run))
            return; // checkGone() again when podman is done
        // What a replica started in its group (or its group's stragglers) dies with the run, and so does
        // what left the group (setsid) but carries the run's marker. Then wait until all of it is gone.
        QList<qint64> groups;
        for (const auto& r : run.replicas) {
            if (r->pid) {
                signalGroup(r->pid, SIGKILL);
                groups << r->pid;
            }
        }
        if (!run.marker.isEmpty() || !groups.isEmpty()) {
            const QList<qint64> killed = killJobLeftovers(run.marker, groups, run.launchedTicks);
            run.dying += killed;
            run.dying.removeIf([](qint64 pid) { return processGone(pid); });
            // A scan that found nothing to kill already showed nothing of the run: no second one is needed.
            if (!run.dying.isEmpty()
                || (!killed.isEmpty() && !jobProcesses(run.marker, groups, run.launchedTicks).isEmpty())) {
                if (!run.goneClock.isValid())
                    run.goneClock.start();
                if (run.goneClock.elapsed() < GoneLimitMs) {
                    if (!run.goneTimer) {
                        run.goneTimer = new QTimer(q);
                        run.goneTimer->setSingleShot(true);
                        QObject::connect(run.goneTimer, &QTimer::timeout, q, [this, id] { checkGone(id); });
                    }
                    run.goneTimer->start(GonePollMs);
                    return;
                }
                qCWarning(lcLocal, "processes of %s survive SIGKILL for %lld ms; reporting the run stopped",
                    qPrintable(id.text()), GoneLimitMs);
            }
        }
        run.dying.clear();
        run.stoppedSent = true;
        run.containersRemoved = false;
        for (QTimer* t : { run.killTimer, run.goneTimer }) {
            if (t)
                t->deleteLater();
        }
        run.killTimer = run.goneTimer = nullptr;
        run.replicas.clear();
        run.stopping = false;
        Q_EMIT q->stopped(id);
    }
};

Backend::~Backend() = default;

void Backend::regionStatus(QObject* context, std::function<void(const RegionStatus&)> done)
{
    // From the event loop, as every answer of a backend.
    QTimer::singleShot(0, context, [done = std::move(done)] {
        RegionStatus status;
        status.kind = QStringLiteral("LOCAL");
        done(status);
    });
}

LocalBackend::LocalBackend(const HostInventory& host, int outputBatchMs, QObject* parent)
    : Backend(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->host = host;
    d->outputBatchMs = outputBatchMs;
    d->containers = ContainerHost::detect();
}

LocalBackend::~LocalBackend()
{
    stopAll(std::chrono::milliseconds(0));
}

QString LocalBackend::name() const
{
    return QStringLiteral("local");
}

QStringList LocalBackend::acceleratorTypes() const
{
    QStringList types;
    for (const GpuInfo& gpu : d->host.gpus) {
        if (!types.contains(gpu.acceleratorType))
            types << gpu.acceleratorType;
    }
    types.sort();
    return types;
}

std::optional<Reservation> LocalBackend::admit(const RunId& run, const ClusterPlan& plan)
{
    const Admission verdict = Trainyard::admit(plan, d->host, d->loadExcept(run), MachineCatalog::builtin());
    if (!verdict.fits())
        return std::nullopt;
    Private::Run& r = d->runs[run];
    r.plan = plan;
    r.reservation = Reservation { verdict.gpus };
    return r.reservation;
}

void LocalBackend::release(const RunId& run)
{
    auto it = d->runs.find(run);
    if (it == d->runs.end())
        return;
    it->second.reservation.reset();
    if (it->second.replicas.empty() && !it->second.stopping)
        d->runs.erase(it);
}

void LocalBackend::place(const RunId& run, const Launch::ReplicaSet& set)
{
    const QList<int> ports = Private::freePorts(set.replicas.size());
    Launch::Placement placement;
    for (int port : ports)
        placement.addresses << Launch::Address { QStringLiteral("127.0.0.1"), port };
    const bool ok = ports.size() == set.replicas.size();
    // Answered from the event loop, as the contract says, never from inside this call.
    QMetaObject::invokeMethod(
        this,
        [this, run, placement, ok] {
            if (ok)
                Q_EMIT placed(run, placement);
            else
                Q_EMIT placementFailed(run, tr("cannot find free loopback ports for the replicas"));
        },
        Qt::QueuedConnection);
}

void LocalBackend::launch(const RunId& id, const QList<Launch::ReplicaLaunch>& replicas)
{
    Private::Run& run = d->runs[id];
    run.replicas.clear();
    run.stopping = false;
    run.stoppedSent = false;
    run.goneClock.invalidate();
    run.containersRemoved = false;
    run.marker = replicas.isEmpty() ? QString() : replicas.first().set.value(jobMarkerVariable());
    // One tick of margin: the uptime is rounded down, a process's start time to the tick it started in.
    run.launchedTicks = std::max<qint64>(0, bootTicksNow() - 1);
    const QProcessEnvironment base = QProcessEnvironment::systemEnvironment();
    QList<QProcess*> toStart;
    for (const Launch::ReplicaLaunch& l : replicas) {
        QDir().mkpath(l.workingDirectory);
        QDir().mkpath(QFileInfo(l.hypertuneFile).absolutePath());
        auto replica = std::make_unique<Private::Replica>();
        replica->taskName = l.taskName;
        replica->containerName = l.containerName;
        auto* process = new QProcess(this);
        process->setProcessEnvironment(l.environment(base));
        process->setWorkingDirectory(l.workingDirectory);
        process->setProgram(l.program);
        process->setArguments(l.arguments);
        // A container is a sandbox of its own: only a process replica runs in ours, in folders its account may write.
        const bool sandboxed = d->sandbox.isActive() && l.containerName.isEmpty();
        if (sandboxed) {
            d->sandbox.handOver(l.workingDirectory);
            replica->sandboxed = true;
        }
        Private::Replica* r = replica.get();
        const QString taskName = l.taskName;
        // Output through our own batched pipes (see OutputPipe); QProcess's channels go to /dev/null.
        r->out = new OutputPipe(
            [this, id, taskName](const QByteArray& bytes) { Q_EMIT output(id, taskName, bytes, false); },
            d->outputBatchMs, process);
        r->err = new OutputPipe(
            [this, id, taskName](const QByteArray& bytes) { Q_EMIT output(id, taskName, bytes, true); },
            d->outputBatchMs, process);
        ChildSetup setup;
        if (r->out->open() && r->err->open()) {
            process->setStandardOutputFile(QProcess::nullDevice());
            process->setStandardErrorFile(QProcess::nullDevice());
            setup.stdoutFd = r->out->writeFd();
            setup.stderrFd = r->err->writeFd();
        } else {
            qCWarning(lcLocal, "cannot create output pipes for %s: %s", qPrintable(taskName), std::strerror(errno));
        }
        QString sandboxError;
        if (sandboxed) {
            if (!d->sandbox.prepare(process, l.program, l.arguments, l.sandbox, setup, &sandboxError))
                makeOwnProcessGroup(process, setup); // it does not start: see below
        } else {
            makeOwnProcessGroup(process, setup);
        }
        r->process = process;
        QObject::connect(process, &QProcess::started, this, [this, id, process, r] {
            r->pid = process->processId();
            if (r->out)
                r->out->closeWriteEnd();
            if (r->err)
                r->err->closeWriteEnd();
            if (r->containerName.isEmpty() || d->containers.podman.isEmpty()) {
                d->sendStarted(id, r, r->pid);
            } else {
                r->inspectClock.start();
                d->inspectContainer(id, r);
            }
        });
        QObject::connect(
            process, &QProcess::finished, this, [this, id, process, r](int code, QProcess::ExitStatus status) {
                ReplicaExit exit;
                // Qt reports the signal number as the exit code of a crashed process; bubblewrap reports its command's
                // signal as 128 + N.
                if (status == QProcess::CrashExit) {
                    exit.kind = ReplicaExit::Kind::Signalled;
                    exit.signal = code;
                } else if (const int signal = r->sandboxed ? Sandbox::exitSignal(code) : 0) {
                    exit.kind = ReplicaExit::Kind::Signalled;
                    exit.signal = signal;
                } else {
                    exit.code = code;
                }
                d->onFinished(id, r, process, exit);
            });
        QObject::connect(process, &QProcess::errorOccurred, this, [this, id, process, r](QProcess::ProcessError e) {
            if (e != QProcess::FailedToStart)
                return;
            ReplicaExit exit;
            exit.kind = ReplicaExit::Kind::FailedToStart;
            exit.error = process->errorString();
            d->onFinished(id, r, process, exit);
        });
        if (!sandboxError.isEmpty()) {
            // Never run unconfined what should run confined: the replica fails to start, with the reason.
            r->process = process;
            run.replicas.push_back(std::move(replica));
            QTimer::singleShot(0, this, [this, id, process, r, sandboxError] {
                ReplicaExit exit;
                exit.kind = ReplicaExit::Kind::FailedToStart;
                exit.error = sandboxError;
                d->onFinished(id, r, process, exit);
            });
            continue;
        }
        run.replicas.push_back(std::move(replica));
        toStart << process;
    }
    // Start them only now: every replica's environment already names every address.
    for (QProcess* p : std::as_const(toStart))
        p->start();
}

void LocalBackend::stop(const RunId& id, std::chrono::milliseconds grace)
{
    Private::Run& run = d->runs[id];
    if (run.stopping)
        return; // the first deadline stands
    run.stopping = true;
    run.stoppedSent = false;
    for (const auto& r : run.replicas) {
        if (r->process && r->pid)
            signalGroup(r->pid, SIGTERM);
        else if (r->process && r->process->state() == QProcess::Starting)
            r->process->kill();
    }
    if (!run.killTimer) {
        run.killTimer = new QTimer(this);
        run.killTimer->setSingleShot(true);
        connect(run.killTimer, &QTimer::timeout, this, [this, id] {
            auto it = d->runs.find(id);
            if (it == d->runs.end())
                return;
            for (const auto& r : it->second.replicas) {
                if (r->pid)
                    signalGroup(r->pid, SIGKILL);
            }
            // A SIGKILLed client does not take its container along: kill the containers themselves.
            const QStringList names = Private::containerNames(it->second);
            if (!names.isEmpty() && !d->containers.podman.isEmpty())
                QProcess::startDetached(d->containers.podman,
                    d->containers.globalArgs
                        + QStringList { QStringLiteral("kill"), QStringLiteral("--signal"), QStringLiteral("KILL") }
                        + names,
                    QDir::tempPath());
        });
    }
    run.killTimer->start(int(grace.count()));
    // Even with nothing running, stopped() comes from the event loop.
    QMetaObject::invokeMethod(
        this, [this, id] { d->checkGone(id); }, Qt::QueuedConnection);
}

void LocalBackend::stopAll(std::chrono::milliseconds budget)
{
    // Executor shutdown: SIGTERM everything, wait up to `budget`, then SIGKILL what is left. Synchronous;
    // no signal is emitted (the scheduler above is going away too).
    d->shuttingDown = true;
    QList<QProcess*> alive;
    for (auto& [id, run] : d->runs) {
        for (const auto& r : run.replicas) {
            if (!r->process)
                continue;
            if (r->pid)
                signalGroup(r->pid, SIGTERM);
            alive << r->process;
        }
    }
    QElapsedTimer clock;
    clock.start();
    for (QProcess* p : std::as_const(alive)) {
        const qint64 left = budget.count() - clock.elapsed();
        if (left > 0)
            p->waitForFinished(int(left));
    }
    for (auto& [id, run] : d->runs) {
        for (const auto& r : run.replicas) {
            if (r->pid)
                signalGroup(r->pid, SIGKILL);
            if (r->process)
                r->process->waitForFinished(1000);
        }
        QList<qint64> groups;
        for (const auto& r : run.replicas) {
            if (r->pid)
                groups << r->pid;
        }
        if (!Private::containerNames(run).isEmpty())
            ContainerHost::removeRunContainers(d->containers, run.marker, 10000);
        killJobLeftovers(run.marker, groups);
        run.replicas.clear();
    }
}

void LocalBackend::reclaim(const RunId& run, const QString& jobMarker)
{
    if (jobMarker.isEmpty())
        return;
    // Containers first: their clients died with the previous executor, they did not.
    const int removed = ContainerHost::removeRunContainers(d->containers, jobMarker);
    if (removed > 0)
        qCInfo(lcLocal, "removed %d container(s) a previous executor left of %s", removed, qPrintable(run.text()));
    QElapsedTimer clock;
    clock.start();
    // Whatever survived the previous executor (a replica that escaped PR_SET_PDEATHSIG) goes first, and is
    // gone before the run starts again.
    QList<qint64> dying;
    while (true) {
        dying += killJobLeftovers(jobMarker);
        dying.removeIf([](qint64 pid) { return processGone(pid); });
        if (dying.isEmpty() && jobProcesses(jobMarker).isEmpty())
            return;
        if (clock.elapsed() > GoneLimitMs) {
            qCWarning(lcLocal, "leftovers of %s survive SIGKILL", qPrintable(run.text()));
            return;
        }
        QThread::msleep(GonePollMs);
    }
}

Launch::ContainerRuntime LocalBackend::containers() const
{
    return d->containers;
}

void LocalBackend::setContainerRuntime(const Launch::ContainerRuntime& runtime)
{
    d->containers = runtime;
}

void LocalBackend::setSandbox(const Sandbox& sandbox)
{
    d->sandbox = sandbox;
}

const Sandbox& LocalBackend::sandbox() const
{
    return d->sandbox;
}

QString LocalBackend::adoptJobDir(const QString& path)
{
    QString error;
    if (d->sandbox.isActive() && !d->sandbox.handOver(path, &error))
        return tr("The job dir %1 could not be handed to the account the trainer runs as (%2): the trainer may not be "
                  "able to write to it.")
            .arg(path, error);
    return QString();
}

BackendUsage LocalBackend::usage() const
{
    BackendUsage u;
    u.host = d->host;
    const HostLoad load = d->loadExcept(RunId {}); // no run has an empty key: every reservation counts
    u.vcpusInUse = load.vcpus;
    u.memoryInUse = load.memory;
    u.gpusInUse = load.gpus;
    std::sort(u.gpusInUse.begin(), u.gpusInUse.end());
    u.runsHolding = load.holders;
    u.predictionNodes = int(d->nodes.size());
    return u;
}

NodeCapacity::Grant LocalBackend::reserveNode(const QString& node, int vcpus, Bytes memory, Need need)
{
    d->nodes.erase(node);
    // The one admission rule, for a cluster of one replica of the node's machine type.
    RolePlan role;
    role.role = QStringLiteral("node");
    role.taskPrefix = QStringLiteral("node");
    role.count = 1;
    role.vcpus = vcpus;
    role.memory = memory;
    const ClusterPlan plan { { role } };
    const HostLoad held = d->loadExcept(RunId {});
    // Need::IfFits is a job's rule exactly: it fits beside every reservation, or no run holds one (nodes are never
    // holders). Beside every reservation is what "oversubscribes" is measured against.
    const bool admitted = Trainyard::admit(plan, d->host, held, MachineCatalog::builtin()).fits();
    HostLoad besideAll = held;
    besideAll.holders = qMax(1, held.holders);
    const bool fits = Trainyard::admit(plan, d->host, besideAll, MachineCatalog::builtin()).fits();
    // The version's log is the executor's text, as the job log's service lines are (not translated).
    const QString reserved
        = QStringLiteral("it asks for %1 vCPU(s) and %2 GB; %3 of this host's %4 vCPUs and %5 of its "
                         "%6 GB are reserved (jobs or trials running: %7; prediction nodes: %8)")
              .arg(vcpus)
              .arg(memory.gb(), 0, 'f', 1)
              .arg(held.vcpus)
              .arg(d->host.cpus)
              .arg(held.memory.gb(), 0, 'f', 1)
              .arg(Bytes::fromBytes(d->host.memoryBytes).gb(), 0, 'f', 1)
              .arg(held.holders)
              .arg(d->nodes.size());
    Grant grant;
    if (!admitted && need == Need::IfFits) {
        grant.refused = reserved;
        return grant;
    }
    d->nodes[node] = Private::NodeReservation { vcpus, memory };
    grant.granted = true;
    if (!fits)
        grant.oversubscribes = reserved;
    return grant;
}

void LocalBackend::releaseNode(const QString& node)
{
    if (d->nodes.erase(node) > 0)
        QMetaObject::invokeMethod(this, &LocalBackend::nodeReleased, Qt::QueuedConnection);
}

} // namespace Trainyard
