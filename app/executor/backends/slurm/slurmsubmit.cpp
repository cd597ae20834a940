// SPDX-License-Identifier: GPL-2.0-or-later
// SlurmBackend's placement and submission: the cluster's nodes, a run's tasks, its batch script and het job
// submitted through slurmrestd, and the placeholder hosts until Slurm names the nodes. The rest of the backend is
// slurmbackend.cpp's; its private part slurmbackend_p.h.
#include "slurmbackend_p.h"

namespace Trainyard::Slurm {

using namespace BackendDetail;

void SlurmBackend::Private::refreshNodes(const std::function<void(const Result<QList<Node>>&)>& then)
{
    if (!then && nodesInFlight)
        return;
    nodesInFlight = true;
    client->nodes(q, [this, then](const Result<QList<Node>>& result) {
        nodesInFlight = false;
        if (result.ok()) {
            nodes = result.value();
            nodesTime = QDateTime::currentDateTimeUtc();
        }
        if (then)
            then(result);
    });
}

void SlurmBackend::Private::failPlacement(Run* run, const QString& message)
{
    qCWarning(lcSlurmBackend, "%s: %s", qPrintable(run->id.text()), qPrintable(message));
    const RunId id = run->id;
    if (run->jobId > 0)
        client->cancel(run->jobId, q, [](const Result<Acknowledged>&) {});
    stopTimer(run);
    runs.erase(id);
    Q_EMIT q->placementFailed(id, message);
}

QString SlurmBackend::Private::batchScript(const Run& run)
{
    QList<BatchTask> tasks;
    for (const Task& t : run.tasks)
        tasks << BatchTask { t.name, t.group, t.index };
    return Slurm::batchScript(run.id.text(), RunFiles(run.slurmDir), tasks, run.groupSizes);
}

void SlurmBackend::Private::buildTasks(Run* run, const Launch::ReplicaSet& set)
{
    QList<QString> roles;
    for (const Launch::ReplicaSlot& slot : set.replicas) {
        if (!roles.contains(slot.role))
            roles << slot.role;
    }
    std::stable_sort(
        roles.begin(), roles.end(), [](const QString& a, const QString& b) { return roleOrder(a) < roleOrder(b); });
    run->groupSizes = QList<int>(roles.size(), 0);
    run->tasks.clear();
    for (const Launch::ReplicaSlot& slot : set.replicas) {
        const int group = int(roles.indexOf(slot.role));
        run->tasks << Task { slot.taskName, slot.role, group, run->groupSizes[group]++, false, false, 0, 0, {} };
    }
}

void SlurmBackend::Private::place(const RunId& id, const Launch::ReplicaSet& set)
{
    Run& run = runs[id];
    stopTimer(&run);
    run = Run {};
    run.id = id;
    run.attempt = ++attempts;
    if (auto it = plans.find(id); it != plans.end())
        run.plan = it->second;
    run.slurmDir = RunFiles::ofRunFolder(QFileInfo(set.replicaRoot).path()).dir();
    const quint64 attempt = run.attempt;

    buildTasks(&run, set);
    // Placement answers come from the event loop, never from inside place().
    auto fail = [this, id, attempt](const QString& message) {
        QTimer::singleShot(0, q, [this, id, attempt, message] {
            if (Run* r = current(id, attempt))
                failPlacement(r, message);
        });
    };
    if (set.replicas.size() > PortsPerJob) {
        fail(QStringLiteral("%1 cannot place %2 replicas: at most %3 per job.")
                 .arg(clusterText())
                 .arg(set.replicas.size())
                 .arg(PortsPerJob));
        return;
    }
    QDir(run.slurmDir).removeRecursively();
    if (!makeSharedFolder(run.slurmDir)) {
        fail(QStringLiteral("%1: cannot create %2.").arg(clusterText(), run.slurmDir));
        return;
    }
    QList<Launch::ReplicaSlot> replicaSlots = set.replicas;
    const qint64 runLimitMs = set.runLimitMs;
    run.askingNodes = true;
    refreshNodes([this, id, attempt, replicaSlots, runLimitMs](const Result<QList<Node>>& result) {
        Run* r = current(id, attempt);
        if (!r)
            return;
        r->askingNodes = false;
        if (r->stopRequested) {
            finishStop(r);
            return;
        }
        if (!result.ok()) {
            failPlacement(r, QStringLiteral("%1 is not available: %2").arg(clusterText(), result.error().message));
            return;
        }
        submit(r, replicaSlots, runLimitMs);
    });
}

int SlurmBackend::Private::timeLimitMinutes(qint64 runLimitMs) const
{
    if (runLimitMs < 0)
        return cluster.timeLimitMinutes;
    const qint64 minutes = std::min<qint64>((runLimitMs + 59999) / 60000 + 1, std::numeric_limits<int>::max());
    return cluster.timeLimitMinutes > 0 ? std::min(cluster.timeLimitMinutes, int(minutes)) : int(minutes);
}

void SlurmBackend::Private::submit(Run* run, const QList<Launch::ReplicaSlot>& replicaSlots, qint64 runLimitMs)
{
    // Het components never share a node (Slurm 22.05): a job needing more nodes than the partition has
    // would stay PENDING for ever.
    int usable = 0;
    int maxCpus = 0;
    qint64 maxMemory = 0;
    for (const Node& n : std::as_const(nodes)) {
        if (!cluster.partition.isEmpty() && !n.partitions.contains(cluster.partition))
            continue;
        ++usable;
        maxCpus = std::max(maxCpus, n.cpus);
        maxMemory = std::max(maxMemory, n.realMemory.bytes());
    }
    int needed = 0;
    for (int n : std::as_const(run->groupSizes))
        needed += n;
    if (needed > usable) {
        failPlacement(run,
            QStringLiteral("%1 has %2 nodes%3, but the job needs %4: each replica gets its own node, and Slurm "
                           "never puts two roles on one node.")
                .arg(clusterText())
                .arg(usable)
                .arg(cluster.partition.isEmpty() ? QString()
                                                 : QStringLiteral(" in partition '%1'").arg(cluster.partition))
                .arg(needed));
        return;
    }
    QList<JobComponentRequest> components;
    for (qsizetype g = 0; g < run->groupSizes.size(); ++g) {
        const Launch::ReplicaSlot* slot = nullptr;
        for (qsizetype i = 0; i < run->tasks.size(); ++i) {
            if (run->tasks.at(i).group == g) {
                slot = &replicaSlots.at(i);
                break;
            }
        }
        JobComponentRequest c;
        c.name = QStringLiteral("trainyard-") + run->id.job.jobId;
        c.partition = cluster.partition;
        c.nodes = run->groupSizes.at(g);
        c.tasks = c.nodes;
        c.tasksPerNode = 1;
        const RolePlan* role = nullptr;
        for (const RolePlan& rp : std::as_const(run->plan.roles)) {
            if (rp.role == slot->role)
                role = &rp;
        }
        const int vcpus = role ? role->vcpus : slot->vcpus;
        c.cpusPerTask = maxCpus > 0 ? std::clamp(vcpus, 1, maxCpus) : std::max(1, vcpus);
        const qint64 memory = role ? role->memory.bytes() : 0;
        if (memory > 0)
            c.memoryPerNode = Bytes::fromBytes(maxMemory > 0 ? std::min(memory, maxMemory) : memory);
        c.gpusPerNode = role ? role->acceleratorCount : 0;
        if (role && c.gpusPerNode > 0)
            c.gpuType = cluster.gpuTypes.value(role->acceleratorType); // empty: any GPU

        c.timeLimitMinutes = timeLimitMinutes(runLimitMs);
        c.account = cluster.account;
        c.qos = cluster.qos;
        if (slot)
            c.constraints = cluster.constraints.value(slot->machineType);
        c.currentWorkingDirectory = run->slurmDir;
        c.standardOutput = RunFiles(run->slurmDir).batchOutput();
        c.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
        components << c;
    }
    writeFile(RunFiles(run->slurmDir).taskLauncher(), taskLauncherScript(RunFiles(run->slurmDir)));
    run->submitting = true;
    const RunId id = run->id;
    const quint64 attempt = run->attempt;
    client->submitHetJob(batchScript(*run), components, q, [this, id, attempt](const Result<SubmitResult>& result) {
        Run* r = current(id, attempt);
        if (!result.ok()) {
            if (r) {
                r->submitting = false;
                if (r->stopRequested)
                    finishStop(r);
                else
                    failPlacement(
                        r, QStringLiteral("%1 refused the job: %2").arg(clusterText(), result.error().message));
            }
            return;
        }
        const qint64 jobId = result.value().jobId;
        if (!r) {
            // Stopped or replaced meanwhile (or shutting down): the job must not run unwatched.
            client->cancel(jobId, q, [](const Result<Acknowledged>&) {});
            return;
        }
        r->submitting = false;
        r->jobId = jobId;
        writeFile(RunFiles(r->slurmDir).jobIdFile(), QByteArray::number(jobId) + '\n');
        qCInfo(
            lcSlurmBackend, "%s: Slurm job %lld on cluster %s", qPrintable(id.text()), jobId, qPrintable(cluster.name));
        for (const RestError& e : result.value().errors) {
            if (e.number == 2014 || e.number == 2015) {
                failPlacement(r,
                    QStringLiteral("%1 cannot ever run the job (Slurm job %2): %3")
                        .arg(clusterText())
                        .arg(jobId)
                        .arg(e.text()));
                return;
            }
        }
        if (r->stopRequested) {
            cancelJob(r);
            return;
        }
        startTimer(r);
        placeWithPendingHosts(r);
    });
}

void SlurmBackend::Private::placeWithPendingHosts(Run* run)
{
    run->hostToken
        = QStringLiteral("@trainyard-host-%1-").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    Launch::Placement placement;
    placement.hostsPending = true;
    for (qsizetype i = 0; i < run->tasks.size(); ++i)
        placement.addresses << Launch::Address { run->hostToken + QString::number(i) + QLatin1Char('@'),
            replicaPort(run->jobId, i) };
    run->phase = Phase::Placed;
    Q_EMIT q->placed(run->id, placement);
}

} // namespace Trainyard::Slurm
