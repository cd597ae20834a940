// SPDX-License-Identifier: GPL-2.0-or-later
// SlurmBackend: its public calls, attach and the region's status, and a run's life once submitted (polling the job,
// its hosts, launch, reading the tasks' files, stop). Placement and submission are slurmsubmit.cpp's; the private
// part's declaration is slurmbackend_p.h.
#include "slurmbackend_p.h"

namespace Trainyard::Slurm {

Q_LOGGING_CATEGORY(lcSlurmBackend, "trainyard.executor")

namespace BackendDetail {

/// Why Slurm keeps a job pending, in words, for the job's log; empty for a code without them. The codes are slurm.h's
/// enum job_state_reason as squeue and slurmrestd name them.
QString pendingReasonText(const QString& reason)
{
    static const QMap<QString, QString> words {
        { QStringLiteral("Resources"), QStringLiteral("waiting for nodes to be free") },
        { QStringLiteral("Priority"), QStringLiteral("jobs of higher priority go first") },
        { QStringLiteral("ReqNodeNotAvail"), QStringLiteral("nodes it needs are down, drained or reserved") },
        { QStringLiteral("PartitionDown"), QStringLiteral("the partition is down") },
        { QStringLiteral("PartitionInactive"), QStringLiteral("the partition is inactive") },
        { QStringLiteral("JobHeldUser"), QStringLiteral("held by its user (scontrol release)") },
        { QStringLiteral("JobHeldAdmin"), QStringLiteral("held by an administrator") },
        { QStringLiteral("BeginTime"), QStringLiteral("its start time has not come") },
        { QStringLiteral("Dependency"), QStringLiteral("waiting for another job") },
        { QStringLiteral("Reservation"), QStringLiteral("waiting for its reservation") },
        { QStringLiteral("Licenses"), QStringLiteral("waiting for licenses") },
    };
    if (const auto it = words.constFind(reason); it != words.cend())
        return it.value();
    if (reason.startsWith(QLatin1String("QOS")) || reason.startsWith(QLatin1String("Assoc")))
        return QStringLiteral("a limit of its QOS or account");
    return QString();
}

/// The port of replica `i` (ReplicaSet order) of Slurm job `jobId` (see SlurmBackend's "Addresses").
int replicaPort(qint64 jobId, qsizetype i)
{
    return PortBase + int(jobId % PortBlocks) * PortsPerJob + int(i);
}

bool writeFile(const QString& path, const QByteArray& data, QFileDevice::Permissions extra)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(data);
    if (!file.commit())
        return false;
    if (extra)
        QFile::setPermissions(path, QFile::permissions(path) | extra);
    return true;
}

/// A folder the job's user may write to: the executor may run as another user than the cluster's `user` (the
/// test cluster: root and slurmci), so the folders that tasks write into are world-writable with the sticky
/// bit, like the shared folder they live in.
bool makeSharedFolder(const QString& path)
{
    if (!QDir().mkpath(path))
        return false;
    return QFile::setPermissions(path,
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup
            | QFile::ReadOther | QFile::WriteOther | QFile::ExeOther);
}

/// The byte offset right after the `lines`-th newline of the file at `path` (0 lines: 0). A file with fewer lines
/// gives the offset after its last newline, so that a partial last line is read again whole.
qint64 offsetAfterLines(const QString& path, qint64 lines)
{
    QFile file(path);
    if (lines <= 0 || !file.open(QIODevice::ReadOnly))
        return 0;
    qint64 seen = 0;
    qint64 offset = 0;
    qint64 pos = 0;
    while (true) {
        const QByteArray chunk = file.read(1 << 16);
        if (chunk.isEmpty())
            return offset;
        for (qsizetype i = 0; i < chunk.size(); ++i) {
            if (chunk.at(i) != '\n')
                continue;
            offset = pos + i + 1;
            if (++seen == lines)
                return offset;
        }
        pos += chunk.size();
    }
}

/// GPUs in a GRES string as Slurm reports one ("gpu:t4:2", "gpu:2,mps:100", "gpu:t4:0(IDX:N/A)"): the sum of
/// the counts of its `gpu` entries (a `gpu` entry without a count is one).
int gpuCount(const QString& gres)
{
    int total = 0;
    for (QString item : gres.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        item = item.section(QLatin1Char('('), 0, 0).trimmed();
        const QStringList parts = item.split(QLatin1Char(':'));
        if (parts.value(0) != QLatin1String("gpu"))
            continue;
        bool ok = false;
        const int n = parts.size() > 1 ? parts.last().toInt(&ok) : 1;
        total += parts.size() > 1 ? (ok ? n : 1) : n;
    }
    return total;
}

/// The role's component (het group) in the order components are submitted.
int roleOrder(const QString& role)
{
    static const QStringList order
        = { QStringLiteral("master"), QStringLiteral("worker"), QStringLiteral("ps"), QStringLiteral("evaluator") };
    const qsizetype i = order.indexOf(role);
    return i < 0 ? int(order.size()) : int(i);
}

} // namespace BackendDetail

using namespace BackendDetail;

namespace {

/// Pending reasons that mean the job can never start as submitted (slurm.h enum job_state_reason), as opposed to
/// those that pass (Resources, Priority, ReqNodeNotAvail, PartitionDown, QOS limits on running jobs …): then the job
/// waits in Slurm's queue for as long as the cluster makes it.
const QStringList NeverRunsReasons = {
    QStringLiteral("PartitionNodeLimit"),
    QStringLiteral("PartitionConfig"),
    QStringLiteral("PartitionTimeLimit"),
    QStringLiteral("BadConstraints"),
    QStringLiteral("InvalidAccount"),
    QStringLiteral("InvalidQOS"),
    QStringLiteral("AccountNotAllowed"),
};

} // namespace

void SlurmBackend::Private::startTimer(Run* run)
{
    run->timer = new QTimer(q);
    run->timer->setInterval(pollMs);
    const RunId id = run->id;
    const quint64 attempt = run->attempt;
    QObject::connect(run->timer, &QTimer::timeout, q, [this, id, attempt] {
        if (Run* r = current(id, attempt))
            tick(r);
    });
    run->timer->start();
}

void SlurmBackend::Private::tick(Run* run)
{
    if (run->phase == Phase::Stopping && !run->cancelSent)
        cancelJob(run); // an earlier cancel failed (slurmrestd unreachable): try again
    if (run->launched)
        readFiles(run);
    if (run->pollInFlight || run->jobId <= 0)
        return;
    run->pollInFlight = true;
    const RunId id = run->id;
    const quint64 attempt = run->attempt;
    client->job(run->jobId, q, [this, id, attempt](const Result<QList<JobComponent>>& result) {
        Run* r = current(id, attempt);
        if (!r)
            return;
        r->pollInFlight = false;
        onJob(r, result);
    });
}

void SlurmBackend::Private::onJob(Run* run, const Result<QList<JobComponent>>& result)
{
    const bool vanished = !result.ok() && result.error().kind == ClientError::Kind::NoSuchJob;
    if (!result.ok() && !vanished)
        return; // slurmrestd hiccup: ask again at the next tick
    const QList<JobComponent> components = vanished ? QList<JobComponent>() : result.value();
    const JobComponent* leader = components.isEmpty() ? nullptr : &components.first();
    const bool finished = vanished || !leader || leader->isFinished();
    if (!run->hostsKnown && run->phase != Phase::Stopping) {
        if (!finished) {
            if (leader->state == QLatin1String("PENDING")) {
                if (NeverRunsReasons.contains(leader->stateReason)) {
                    failPlacement(run,
                        QStringLiteral("%1 cannot ever run the job (Slurm job %2 is pending: %3).")
                            .arg(clusterText())
                            .arg(run->jobId)
                            .arg(leader->stateReason));
                    return;
                }
                // "None": Slurm has not looked at the job yet.
                const QString& reason = leader->stateReason;
                if (!reason.isEmpty() && reason != QLatin1String("None") && reason != run->pendingReason) {
                    run->pendingReason = reason;
                    const QString why = pendingReasonText(reason);
                    Q_EMIT q->notice(run->id, LogSeverity::Info,
                        why.isEmpty() ? QStringLiteral("Slurm job %1 is pending on %2 (%3).")
                                            .arg(run->jobId)
                                            .arg(clusterText(), reason)
                                      : QStringLiteral("Slurm job %1 is pending on %2: %3 (%4).")
                                            .arg(run->jobId)
                                            .arg(clusterText(), why, reason));
                }
                return;
            }
            if (leader->state == QLatin1String("RUNNING"))
                resolveHosts(run, components);
            return;
        }
        // Over between two polls: its replicas may have run whole (they start without the executor).
        const RunId id = run->id;
        const quint64 attempt = run->attempt;
        if (run->launched)
            readStarted(run);
        if (!current(id, attempt))
            return;
        const bool ran = std::any_of(run->tasks.cbegin(), run->tasks.cend(), [](const Task& t) { return t.started; });
        if (!ran) {
            failPlacement(run,
                QStringLiteral("Slurm job %1 on %2 %3 before it ran.")
                    .arg(run->jobId)
                    .arg(clusterText(),
                        leader ? QStringLiteral("ended (%1, %2)").arg(leader->state, leader->stateReason)
                               : QStringLiteral("vanished")));
            return;
        }
    }
    if (!finished)
        return;
    // The job is over: whatever the tasks wrote is complete now, and read to its end.
    readFiles(run, true);
    const QString state = leader ? leader->state : QString();
    for (Task& t : run->tasks) {
        if (t.exited)
            continue;
        t.exited = true;
        ReplicaExit exit;
        if (vanished && run->attached) {
            // Nobody watched the job when it ended: without the replica's exit file its end is unknown.
            exit.kind = ReplicaExit::Kind::Lost;
            exit.error = QStringLiteral("%1 no longer knows Slurm job %2 (it ended while the executor was not "
                                        "running and was purged after MinJobAge, or slurmctld lost it), and "
                                        "the replica left no exit status in %3.")
                             .arg(clusterText())
                             .arg(run->jobId)
                             .arg(RunFiles(run->slurmDir).exitDir());
        } else if (vanished || state == QLatin1String("NODE_FAIL") || state == QLatin1String("PREEMPTED")
            || state == QLatin1String("BOOT_FAIL") || state == QLatin1String("OUT_OF_MEMORY")) {
            exit.kind = ReplicaExit::Kind::Signalled;
            exit.signal = SIGKILL;
        } else if (state == QLatin1String("TIMEOUT") || state == QLatin1String("CANCELLED")
            || state == QLatin1String("DEADLINE")) {
            exit.kind = ReplicaExit::Kind::Signalled;
            exit.signal = SIGTERM;
        } else {
            exit.kind = ReplicaExit::Kind::Exited;
            exit.code = 1;
        }
        if (run->launched) { // replicas that never ran were never reported either
            qCInfo(lcSlurmBackend, "%s: %s ended with Slurm job %lld (%s) without an exit file",
                qPrintable(run->id.text()), qPrintable(t.name), run->jobId,
                qPrintable(vanished ? QStringLiteral("vanished") : state));
            Q_EMIT q->exited(run->id, t.name, exit);
            if (!current(run->id, run->attempt))
                return;
        }
    }
    if (run->phase == Phase::Stopping)
        finishStop(run);
}

void SlurmBackend::Private::resolveHosts(Run* run, const QList<JobComponent>& components)
{
    QList<QStringList> hosts;
    for (qsizetype g = 0; g < run->groupSizes.size(); ++g) {
        const JobComponent* c = nullptr;
        for (const JobComponent& jc : components) {
            if (jc.hetJobOffset == g)
                c = &jc;
        }
        QString error;
        const std::optional<QStringList> nodeNames
            = c ? expandHostlist(c->nodes, &error) : std::optional<QStringList>();
        const std::optional<QStringList> perTask
            = nodeNames ? hostsPerTask(*nodeNames, QList<int>(nodeNames->size(), 1)) : std::optional<QStringList>();
        if (!perTask || perTask->size() != run->groupSizes.at(g)) {
            failPlacement(run,
                QStringLiteral("%1 gave Slurm job %2 component %3 the nodes '%4', not one per task.")
                    .arg(clusterText())
                    .arg(run->jobId)
                    .arg(g)
                    .arg(c ? c->nodes : QString()));
            return;
        }
        hosts << *perTask;
    }
    QStringList taskHosts;
    for (const Task& t : std::as_const(run->tasks))
        taskHosts << hosts.at(t.group).at(t.index);
    knowHosts(run, taskHosts);
}

void SlurmBackend::Private::knowHosts(Run* run, const QStringList& taskHosts)
{
    Launch::Placement placement;
    QByteArray placementText;
    for (qsizetype i = 0; i < run->tasks.size(); ++i) {
        placement.addresses << Launch::Address { taskHosts.at(i), replicaPort(run->jobId, i) };
        placementText += run->tasks.at(i).name.toUtf8() + ' ' + taskHosts.at(i).toUtf8() + ' '
            + QByteArray::number(placement.addresses.last().port) + '\n';
    }
    // For attach() after an executor restart: the addresses cannot be worked out again without the job.
    writeFile(RunFiles(run->slurmDir).placementFile(), placementText);
    run->hostsKnown = true;
    const RunId id = run->id;
    const quint64 attempt = run->attempt;
    Q_EMIT q->notice(id, LogSeverity::Info,
        QStringLiteral("Slurm job %1 runs on %2 of %3.")
            .arg(run->jobId)
            .arg(taskHosts.join(QStringLiteral(", ")), clusterText()));
    if (current(id, attempt))
        Q_EMIT q->hostsKnown(id, placement);
}

void SlurmBackend::Private::launch(const RunId& id, const QList<Launch::ReplicaLaunch>& replicas)
{
    Run* run = find(id);
    if (!run || run->phase != Phase::Placed)
        return;
    const QString dir = run->slurmDir;
    const RunFiles files(dir);
    bool ok = QDir().mkpath(dir + QStringLiteral("/tasks"));
    for (const QString& sub : RunFiles::replicaWrittenFolders())
        ok = ok && makeSharedFolder(dir + QLatin1Char('/') + sub);
    for (const Launch::ReplicaLaunch& spec : replicas) {
        const auto t = std::find_if(
            run->tasks.cbegin(), run->tasks.cend(), [&](const Task& x) { return x.name == spec.taskName; });
        if (t == run->tasks.cend())
            continue;
        bool gpus = false;
        for (const RolePlan& rp : std::as_const(run->plan.roles))
            gpus = gpus || (rp.role == t->role && rp.acceleratorCount > 0);
        // The replica's folder: made here, writable by the job's user (see makeSharedFolder).
        makeSharedFolder(QFileInfo(spec.workingDirectory).path());
        makeSharedFolder(spec.workingDirectory);
        ok = ok
            && writeFile(files.replicaScript(t->group, t->index),
                replicaScript(run->id.text(), files, spec, gpus, run->hostToken, run->tasks.size()).toUtf8());
    }
    // Its content is when the replicas were let go (µs since the epoch): attach() counts the output lines the
    // log store holds from then on, as earlier placements' lines are in the same log.
    ok = ok && writeFile(files.launchReady(), QByteArray::number(QDateTime::currentMSecsSinceEpoch() * 1000) + '\n');
    run->launched = true;
    run->phase = Phase::Launched;
    if (!ok) {
        // The replicas cannot start: report it from the event loop, as every signal.
        QTimer::singleShot(0, q, [this, id, attempt = run->attempt, dir] {
            Run* r = current(id, attempt);
            if (!r)
                return;
            for (Task& t : r->tasks) {
                if (t.exited || t.started)
                    continue;
                t.exited = true;
                Q_EMIT q->exited(id, t.name,
                    ReplicaExit { ReplicaExit::Kind::FailedToStart, 0, 0,
                        QStringLiteral("cannot write the launch scripts under %1").arg(dir) });
                if (!current(id, attempt))
                    return;
            }
        });
    }
}

void SlurmBackend::Private::readStarted(Run* run)
{
    const RunId id = run->id;
    const quint64 attempt = run->attempt;
    for (Task& t : run->tasks) {
        if (t.started || t.exited)
            continue;
        QFile f(RunFiles(run->slurmDir).startedFile(t.name));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> parts = f.readAll().trimmed().split(' ');
        t.started = true;
        t.host = QString::fromUtf8(parts.value(0));
        // The file appeared when the replica started (up to a poll before now, or before an executor restart).
        Q_EMIT q->started(
            id, t.name, parts.size() > 1 ? parts.at(1).toLongLong() : 0, QFileInfo(f).lastModified().toUTC());
        if (!current(id, attempt))
            return;
    }
    if (run->hostsKnown)
        return;
    QStringList taskHosts;
    for (const Task& t : std::as_const(run->tasks)) {
        if (t.host.isEmpty())
            return;
        taskHosts << t.host;
    }
    knowHosts(run, taskHosts);
}

void SlurmBackend::Private::readFiles(Run* run, bool jobOver)
{
    const RunId id = run->id;
    const quint64 attempt = run->attempt;
    readStarted(run);
    if (!current(id, attempt))
        return;
    for (qsizetype i = 0; i < run->tasks.size(); ++i) {
        Task& t = run->tasks[i];
        if (t.exited || !t.started)
            continue;
        const RunFiles files(run->slurmDir);
        QFile exitFile(files.exitFile(t.name));
        const bool done = exitFile.open(QIODevice::ReadOnly);
        // Read to the end when the task is done, so that all its output comes before its exited().
        for (bool isStderr : { false, true }) {
            qint64& offset = isStderr ? run->tasks[i].stderrOffset : run->tasks[i].stdoutOffset;
            QFile log(isStderr ? files.stderrFile(t.name) : files.stdoutFile(t.name));
            if (!log.open(QIODevice::ReadOnly) || log.size() <= offset)
                continue;
            log.seek(offset);
            while (true) {
                const QByteArray chunk = log.read(MaxReadPerPoll);
                if (chunk.isEmpty())
                    break;
                offset += chunk.size();
                Q_EMIT q->output(id, t.name, chunk, isStderr);
                if (!current(id, attempt))
                    return;
                if (!done && !jobOver)
                    break;
            }
        }
        if (!done)
            continue;
        bool ok = false;
        const int code = exitFile.readAll().trimmed().toInt(&ok);
        run->tasks[i].exited = true;
        Q_EMIT q->exited(id, run->tasks[i].name, ReplicaExit { ReplicaExit::Kind::Exited, ok ? code : 1, 0, {} });
        if (!current(id, attempt))
            return;
    }
}

void SlurmBackend::Private::cancelJob(Run* run)
{
    if (run->cancelSent || run->jobId <= 0)
        return;
    run->cancelSent = true;
    const RunId id = run->id;
    const quint64 attempt = run->attempt;
    client->cancel(run->jobId, q, [this, id, attempt](const Result<Acknowledged>& result) {
        Run* r = current(id, attempt);
        if (!r || result.ok() || result.error().kind == ClientError::Kind::NoSuchJob)
            return;
        qCWarning(lcSlurmBackend, "%s: cancelling Slurm job %lld failed: %s", qPrintable(id.text()), r->jobId,
            qPrintable(result.error().message));
        r->cancelSent = false; // the next tick tries again
    });
    if (!run->timer)
        startTimer(run);
}

void SlurmBackend::Private::stop(const RunId& id)
{
    Run* run = find(id);
    if (!run || run->phase == Phase::Done) {
        QTimer::singleShot(0, q, [this, id] {
            if (!shuttingDown && !find(id))
                Q_EMIT q->stopped(id);
        });
        return;
    }
    run->stopRequested = true;
    if (!run->launched)
        writeFile(RunFiles(run->slurmDir).launchCancel(), QByteArray());
    run->phase = Phase::Stopping;
    if (run->jobId > 0)
        cancelJob(run);
    else if (!run->submitting && !run->askingNodes) {
        const quint64 attempt = run->attempt;
        QTimer::singleShot(0, q, [this, id, attempt] {
            if (Run* r = current(id, attempt))
                finishStop(r);
        });
    }
    // Otherwise the nodes or submit answer in flight sees stopRequested.
}

void SlurmBackend::Private::finishStop(Run* run)
{
    const RunId id = run->id;
    for (Task& t : run->tasks) {
        if (run->launched && !t.exited) {
            t.exited = true;
            Q_EMIT q->exited(id, t.name, ReplicaExit { ReplicaExit::Kind::Signalled, 0, SIGTERM, {} });
        }
    }
    if (Run* r = find(id)) {
        stopTimer(r);
        runs.erase(id);
    }
    Q_EMIT q->stopped(id);
}

void SlurmBackend::Private::cancelAndWait(const QList<qint64>& jobIds, std::chrono::milliseconds budget)
{
    if (jobIds.isEmpty())
        return;
    QEventLoop loop;
    int pending = int(jobIds.size());
    for (qint64 jobId : jobIds) {
        client->cancel(jobId, &loop, [&pending, &loop, jobId, this](const Result<Acknowledged>& result) {
            if (!result.ok() && result.error().kind != ClientError::Kind::NoSuchJob)
                qCWarning(lcSlurmBackend, "cannot cancel Slurm job %lld on cluster %s: %s", jobId,
                    qPrintable(cluster.name), qPrintable(result.error().message));
            if (--pending == 0)
                loop.quit();
        });
    }
    QTimer::singleShot(budget, &loop, &QEventLoop::quit);
    loop.exec(QEventLoop::ExcludeUserInputEvents);
}

SlurmBackend::SlurmBackend(const ClusterConfig& cluster, QObject* parent)
    : Backend(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->cluster = cluster;
    d->client = new SlurmRestClient(cluster, this);
}

SlurmBackend::~SlurmBackend()
{
    d->shuttingDown = true;
}

const ClusterConfig& SlurmBackend::cluster() const
{
    return d->cluster;
}

QString SlurmBackend::name() const
{
    return d->cluster.name;
}

QStringList SlurmBackend::acceleratorTypes() const
{
    return d->cluster.gpuTypes.keys(); // a QMap's keys: sorted
}

QString SlurmBackend::runFolderRoot(const QString&) const
{
    return d->cluster.sharedDir;
}

QString SlurmBackend::interpreter() const
{
    return d->cluster.python;
}

QString SlurmBackend::adoptJobDir(const QString& path)
{
    const QString user = d->cluster.user;
    const QByteArray name = user.toLocal8Bit();
    const passwd* account = name.isEmpty() ? nullptr : ::getpwnam(name.constData());
    const uid_t self = ::geteuid();
    if (account && account->pw_uid == self)
        return QString(); // the replicas run as the executor
    struct stat info { };
    if (::stat(QFile::encodeName(path).constData(), &info) != 0 || info.st_uid != self)
        return QString(); // not the executor's folder: whoever made it decided who writes to it
    if (!account)
        return QStringLiteral("The job dir %1 belongs to the executor's user, and Slurm cluster '%2' runs the replicas "
                              "as %3, which is not a user of this host: the trainer may not be able to write to it.")
            .arg(path, d->cluster.name, user);
    if (self == 0 && ::chown(QFile::encodeName(path).constData(), account->pw_uid, account->pw_gid) == 0)
        return QString();
    return QStringLiteral("The job dir %1 belongs to the executor's user, and Slurm cluster '%2' runs the replicas as "
                          "%3: the trainer may not be able to write to it (%4).")
        .arg(path, d->cluster.name, user,
            self == 0 ? QString::fromLocal8Bit(std::strerror(errno))
                      : QStringLiteral("only an executor run as root hands it over"));
}

std::optional<Reservation> SlurmBackend::admit(const RunId& run, const ClusterPlan& plan)
{
    // Slurm queues the job itself; the executor's FIFO only orders submissions.
    d->plans[run] = plan;
    return Reservation {};
}

void SlurmBackend::release(const RunId& run)
{
    d->plans.erase(run);
}

void SlurmBackend::place(const RunId& run, const Launch::ReplicaSet& set)
{
    d->place(run, set);
}

void SlurmBackend::launch(const RunId& run, const QList<Launch::ReplicaLaunch>& replicas)
{
    d->launch(run, replicas);
}

void SlurmBackend::stop(const RunId& run, std::chrono::milliseconds)
{
    d->stop(run);
}

void SlurmBackend::stopAll(std::chrono::milliseconds budget)
{
    d->shuttingDown = true;
    QList<qint64> jobIds;
    for (auto& [id, run] : d->runs) {
        d->stopTimer(&run);
        if (!run.launched && !run.slurmDir.isEmpty())
            writeFile(RunFiles(run.slurmDir).launchCancel(), QByteArray());
        // Cancelled below: the next executor must not re-attach to it, but start the run again.
        if (!run.slurmDir.isEmpty())
            writeFile(RunFiles(run.slurmDir).stoppedMark(), QByteArray());
        if (run.jobId > 0)
            jobIds << run.jobId;
    }
    d->runs.clear();
    d->cancelAndWait(jobIds, budget);
}

void SlurmBackend::reclaim(const RunId& run, const QString& jobMarker)
{
    QFile file(RunFiles::ofRunFolder(jobMarker).jobIdFile());
    if (!file.open(QIODevice::ReadOnly))
        return;
    bool ok = false;
    const qint64 jobId = file.readAll().trimmed().toLongLong(&ok);
    if (!ok || jobId <= 0)
        return;
    qCInfo(lcSlurmBackend, "%s: cancelling Slurm job %lld left by a previous executor", qPrintable(run.text()), jobId);
    d->cancelAndWait({ jobId }, std::chrono::seconds(10));
}

std::optional<Launch::Placement> SlurmBackend::attach(
    const RunId& run, const Launch::ReplicaSet& set, const QString& jobMarker, const StoredLines& storedLines)
{
    const RunFiles files = RunFiles::ofRunFolder(jobMarker);
    const QString dir = files.dir();
    auto readText = [](const QString& path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    bool ok = false;
    const qint64 jobId = readText(files.jobIdFile()).trimmed().toLongLong(&ok);
    const QByteArray ready = readText(files.launchReady());
    const qint64 launchedUs = ready.trimmed().toLongLong();
    // Only a job whose replicas were let go can be taken over: one still placing is simply submitted again.
    if (!ok || jobId <= 0 || launchedUs <= 0 || QFile::exists(files.stoppedMark()))
        return std::nullopt;
    Private::Run fresh;
    fresh.id = run;
    fresh.slurmDir = dir;
    fresh.jobId = jobId;
    Private::buildTasks(&fresh, set);
    // The addresses resolveHosts() wrote, one line per replica in ReplicaSet order: "<task> <host> <port>". No
    // such file: the previous executor never saw the job run (it was still queued, or its replicas had only just
    // started): the ports are the job's, and the hosts come once the job is seen running.
    Launch::Placement placement;
    const QByteArray placementText = readText(files.placementFile());
    if (placementText.isEmpty()) {
        placement.hostsPending = true;
        for (qsizetype i = 0; i < fresh.tasks.size(); ++i)
            placement.addresses << Launch::Address { QString(), replicaPort(jobId, i) };
    } else {
        const QList<QByteArray> lines = placementText.trimmed().split('\n');
        if (lines.size() != fresh.tasks.size())
            return std::nullopt;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QList<QByteArray> parts = lines.at(i).split(' ');
            const int port = parts.size() == 3 ? parts.at(2).toInt() : 0;
            if (port <= 0 || QString::fromUtf8(parts.at(0)) != fresh.tasks.at(i).name)
                return std::nullopt;
            placement.addresses << Launch::Address { QString::fromUtf8(parts.at(1)), port };
        }
        fresh.hostsKnown = true;
    }
    for (Private::Task& t : fresh.tasks) {
        t.stdoutOffset = offsetAfterLines(files.stdoutFile(t.name), storedLines(t.name, false, launchedUs));
        t.stderrOffset = offsetAfterLines(files.stderrFile(t.name), storedLines(t.name, true, launchedUs));
    }
    fresh.phase = Private::Phase::Launched;
    fresh.launched = true;
    fresh.attached = true;
    fresh.attempt = ++d->attempts;
    Private::Run& slot = d->runs[run];
    d->stopTimer(&slot);
    slot = std::move(fresh);
    qCInfo(lcSlurmBackend, "%s: re-attached to Slurm job %lld on cluster %s", qPrintable(run.text()), jobId,
        qPrintable(d->cluster.name));
    // Everything it reports comes from the timer: started files, output after what is stored, exits, the job's state.
    d->startTimer(&slot);
    return placement;
}

void SlurmBackend::regionStatus(QObject* context, std::function<void(const RegionStatus&)> done)
{
    struct Answers {
        std::optional<Result<QList<ControllerPing>>> ping;
        std::optional<Result<QList<Node>>> nodes;
        std::optional<Result<QList<Partition>>> partitions;
        std::function<void(const RegionStatus&)> done;
    };
    auto answers = std::make_shared<Answers>();
    answers->done = std::move(done);
    const ClusterConfig cluster = d->cluster;
    auto finish = [answers, cluster] {
        if (!answers->ping || !answers->nodes || !answers->partitions)
            return;
        RegionStatus status;
        status.kind = QStringLiteral("SLURM");
        status.endpoint = cluster.restUrl.toString();
        status.user = cluster.user;
        status.partition = cluster.partition;
        // The first error of the three, an authentication one before the others (it says more).
        std::optional<ClientError> error;
        for (const ClientError* e : { answers->ping->ok() ? nullptr : &answers->ping->error(),
                 answers->nodes->ok() ? nullptr : &answers->nodes->error(),
                 answers->partitions->ok() ? nullptr : &answers->partitions->error() }) {
            if (!e)
                continue;
            const bool auth
                = e->kind == ClientError::Kind::Authentication || e->kind == ClientError::Kind::TokenCommand;
            const bool errorIsAuth = error
                && (error->kind == ClientError::Kind::Authentication || error->kind == ClientError::Kind::TokenCommand);
            if (!error || (auth && !errorIsAuth))
                error = *e;
        }
        const bool refused = error
            && (error->kind == ClientError::Kind::Authentication || error->kind == ClientError::Kind::TokenCommand);
        const bool unreachable = error && !refused && error->kind != ClientError::Kind::SlurmError;
        const QString url = cluster.restUrl.toString();
        status.checks << RegionCheck { QStringLiteral("reachable"), !unreachable,
            unreachable ? error->message : QStringLiteral("slurmrestd at %1 answers.").arg(url) };
        status.checks << RegionCheck { QStringLiteral("authenticated"), !unreachable && !refused,
            unreachable   ? QStringLiteral("Not checked: slurmrestd cannot be reached.")
                : refused ? error->message
                          : QStringLiteral("slurmrestd accepts user '%1''s token.").arg(cluster.user) };
        bool controllerUp = false;
        if (answers->ping->ok()) {
            for (const ControllerPing& p : answers->ping->value())
                controllerUp = controllerUp || p.isUp();
        }
        const QString controllerMessage = answers->ping->ok()
            ? (controllerUp ? QStringLiteral("slurmctld answers.")
                            : QStringLiteral("slurmctld does not answer slurmrestd's ping (every controller is DOWN)."))
            : QStringLiteral("Not checked: %1").arg(answers->ping->error().message);
        status.checks << RegionCheck { QStringLiteral("controller"), controllerUp, controllerMessage };
        if (answers->partitions->ok()) {
            for (const Partition& p : answers->partitions->value())
                status.partitions << RegionPartition { p.name, p.state, p.nodes, p.totalNodes, p.totalCpus };
        }
        if (answers->nodes->ok()) {
            for (const Node& n : answers->nodes->value()) {
                const int gpus = gpuCount(n.gres);
                status.nodes << RegionNode { n.name, n.state, n.cpus, n.allocatedCpus, gpus,
                    std::min(gpus, gpuCount(n.gresUsed)), n.realMemory, n.partitions, n.allocatedMemory };
            }
        }
        // The partition jobs go to: there, and UP (a cluster without a configured one uses its default).
        RegionCheck partition { QStringLiteral("partition"), false, QString() };
        if (!answers->partitions->ok()) {
            partition.message = QStringLiteral("Not checked: %1").arg(answers->partitions->error().message);
        } else if (cluster.partition.isEmpty()) {
            partition.ok = !status.partitions.isEmpty();
            partition.message = partition.ok
                ? QStringLiteral("No partition configured: jobs go to the cluster's default.")
                : QStringLiteral("The cluster has no partition.");
        } else {
            const auto it = std::find_if(status.partitions.cbegin(), status.partitions.cend(),
                [&](const RegionPartition& p) { return p.name == cluster.partition; });
            QStringList names;
            for (const RegionPartition& p : std::as_const(status.partitions))
                names << p.name;
            if (it == status.partitions.cend()) {
                partition.message
                    = QStringLiteral("Partition '%1' does not exist on the cluster (it has: %2).")
                          .arg(cluster.partition,
                              names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")));
            } else if (!it->state.isEmpty() && !it->state.contains(QStringLiteral("UP"))) {
                partition.message = QStringLiteral("Partition '%1' is %2: it takes no jobs.")
                                        .arg(cluster.partition, it->state.join(QLatin1Char('+')));
            } else {
                partition.ok = true;
                partition.message = QStringLiteral("Partition '%1' has %2 nodes, %3 CPUs.")
                                        .arg(cluster.partition)
                                        .arg(it->totalNodes)
                                        .arg(it->totalCpus);
            }
        }
        status.checks << partition;
        if (refused) {
            status.state = RegionStatus::State::Unauthenticated;
            status.message = error->message;
        } else if (unreachable || !controllerUp) {
            status.state = RegionStatus::State::Down;
            status.message = unreachable ? error->message : controllerMessage;
        } else if (error) {
            status.message = error->message; // answered, but one call failed: Up, with what went wrong
        } else if (!partition.ok) {
            status.message = partition.message;
        }
        auto done = std::move(answers->done);
        answers->done = nullptr;
        if (done)
            done(status);
    };
    d->client->ping(context, [answers, finish](const Result<QList<ControllerPing>>& r) {
        answers->ping.emplace(r);
        finish();
    });
    d->client->nodes(context, [answers, finish](const Result<QList<Node>>& r) {
        answers->nodes.emplace(r);
        finish();
    });
    d->client->partitions(context, [answers, finish](const Result<QList<Partition>>& r) {
        answers->partitions.emplace(r);
        finish();
    });
}

BackendUsage SlurmBackend::usage() const
{
    if (!d->nodesTime.isValid() || d->nodesTime.secsTo(QDateTime::currentDateTimeUtc()) > 5)
        d->refreshNodes();
    BackendUsage u;
    for (const Node& n : std::as_const(d->nodes)) {
        u.host.cpus += n.cpus;
        u.host.memoryBytes += n.realMemory.bytes();
    }
    return u;
}

QString SlurmBackend::clusterJobId(const RunId& run) const
{
    const qint64 id = slurmJobId(run);
    return id > 0 ? QString::number(id) : QString();
}

qint64 SlurmBackend::slurmJobId(const RunId& run) const
{
    auto it = d->runs.find(run);
    return it == d->runs.end() ? 0 : it->second.jobId;
}

void SlurmBackend::setPollInterval(std::chrono::milliseconds interval)
{
    d->pollMs = int(interval.count());
}

} // namespace Trainyard::Slurm
