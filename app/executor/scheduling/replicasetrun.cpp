// SPDX-License-Identifier: GPL-2.0-or-later
#include "replicasetrun.h"

#include "jobstore.h"

#include <algorithm>
#include <cstring>

namespace Trainyard {

namespace {

QString signalName(int sig)
{
    const char* abbrev = sigabbrev_np(sig);
    return abbrev ? QStringLiteral("SIG") + QString::fromLatin1(abbrev) : QString::number(sig);
}

QString replicaName(const ReplicaSetRun::Replica& r)
{
    return r.slot.role + QLatin1Char(' ') + QString::number(r.slot.index);
}

/// The stderr tail as text; a tail that was cut loses its first, partial line.
QString tailText(const QByteArray& tail)
{
    QString text = QString::fromUtf8(tail).trimmed();
    const qsizetype nl = text.indexOf(QLatin1Char('\n'));
    if (tail.size() >= ReplicaSetRun::StderrTailBytes && nl >= 0)
        text = text.mid(nl + 1);
    return text;
}

} // namespace

ReplicaSetRun::ReplicaSetRun(Owner* owner, Backend* backend, RunId id, RunFolder folder)
    : m_owner(owner)
    , m_backend(backend)
    , m_id(std::move(id))
    , m_folder(std::move(folder))
    , m_restarts(m_folder.readRestarts())
{
}

void ReplicaSetRun::release()
{
    m_reservation.reset();
    m_backend->release(m_id);
}

bool ReplicaSetRun::isActive() const
{
    return m_phase == Phase::Placing || m_phase == Phase::Running || m_phase == Phase::Stopping
        || (m_phase == Phase::Idle && m_reservation);
}

void ReplicaSetRun::log(const QString& message, LogSeverity severity)
{
    m_owner->runLog(*this, message, severity);
}

ReplicaSetRun::Replica* ReplicaSetRun::replica(const QString& taskName)
{
    for (Replica& r : m_replicas) {
        if (r.slot.taskName == taskName)
            return &r;
    }
    return nullptr;
}

void ReplicaSetRun::start(const ClusterPlan& plan)
{
    if (m_replicas.empty()) {
        m_set.jobId = m_id.job.jobId;
        m_set.trialId = m_id.trialId;
        m_set.replicaRoot = m_folder.replicaRoot();
        m_set.replicas = Launch::slotsFor(plan, m_reservation ? m_reservation->gpus : QList<int>());
        for (const Launch::ReplicaSlot& slot : std::as_const(m_set.replicas))
            m_replicas.push_back(Replica { slot, {}, ReplicaState::Pending, false, 0, {}, {}, {}, {} });
    }
    place();
}

/// Asks the backend where the replicas go; placed() launches them.
void ReplicaSetRun::place()
{
    m_set.runLimitMs = m_owner->runLimitLeft(*this);
    m_phase = Phase::Placing;
    m_stopReason = StopReason::None;
    m_stopMessage.clear();
    m_attached = false; // a placement of this executor's own from now on
    m_backend->place(m_id, m_set);
}

bool ReplicaSetRun::attach(const ClusterPlan& plan, const Backend::StoredLines& storedLines)
{
    m_set.jobId = m_id.job.jobId;
    m_set.trialId = m_id.trialId;
    m_set.replicaRoot = m_folder.replicaRoot();
    m_set.replicas = Launch::slotsFor(plan, QList<int>());
    const std::optional<Launch::Placement> placement = m_backend->attach(m_id, m_set, m_folder.path(), storedLines);
    if (!placement || placement->addresses.size() != m_set.replicas.size() || m_set.replicas.isEmpty()) {
        if (placement) // a backend that answers for other replicas than the set's: let it go
            m_backend->reclaim(m_id, m_folder.path());
        return false;
    }
    // Admitted when it first ran; a cluster backend holds nothing for it (a local one never attaches).
    m_reservation = m_backend->admit(m_id, plan).value_or(Reservation {});
    m_attached = true;
    for (const Launch::ReplicaSlot& slot : std::as_const(m_set.replicas))
        m_replicas.push_back(Replica { slot, {}, ReplicaState::Starting, true, 0, {}, {}, {}, {} });
    setAddresses(*placement);
    m_phase = Phase::Running;
    return true;
}

ReplicaSetRun::Recovery ReplicaSetRun::recover(
    const ClusterPlan& plan, const Backend::StoredLines& storedLines, bool tryAttach)
{
    if (tryAttach && attach(plan, storedLines))
        return Recovery::Attached;
    // A replica that escaped PR_SET_PDEATHSIG, or a cluster's job that nothing can take over: it goes first.
    m_backend->reclaim(m_id, m_folder.path());
    if (m_restarts >= MaxRestarts)
        return Recovery::Exhausted;
    countRestart();
    return Recovery::Restart;
}

void ReplicaSetRun::fail(const QString& message)
{
    m_stopReason = StopReason::Failed;
    m_stopMessage = message;
    m_phase = Phase::Done;
    m_owner->runEnded(*this);
}

void ReplicaSetRun::placed(const Launch::Placement& placement)
{
    if (m_phase != Phase::Placing || m_owner->shuttingDown())
        return;
    Launch::LaunchContext context = m_owner->launchContext(*this);
    context.jobMarker = m_folder.path();
    context.containers = m_backend->containers();
    QString error;
    const QList<Launch::ReplicaLaunch> launches = Launch::buildLaunch(context, m_set, placement, &error);
    if (launches.isEmpty()) {
        log(error, LogSeverity::Error);
        fail(error);
        return;
    }
    setAddresses(placement);
    for (Replica& r : m_replicas) {
        r.state = ReplicaState::Starting;
        r.alive = true;
        r.pid = 0;
        r.exitCode.reset();
        r.exitSignal.reset();
        r.stderrTail.clear();
        r.startTime = QDateTime();
    }
    m_phase = Phase::Running;
    log(m_owner->runStartingMessage(*this), LogSeverity::Info);
    m_owner->runLaunching(*this);
    m_backend->launch(m_id, launches);
    m_owner->runReplicasChanged(*this);
}

/// The replicas' addresses from a placement; a pending host (Launch::Placement::hostsPending) is not shown.
void ReplicaSetRun::setAddresses(const Launch::Placement& placement)
{
    for (size_t i = 0; i < m_replicas.size() && qsizetype(i) < placement.addresses.size(); ++i) {
        m_replicas[i].address = placement.addresses.at(qsizetype(i));
        if (placement.hostsPending)
            m_replicas[i].address.host.clear();
    }
}

void ReplicaSetRun::hostsKnown(const Launch::Placement& placement)
{
    if (placement.addresses.size() != qsizetype(m_replicas.size()))
        return;
    setAddresses(placement);
    m_owner->runReplicasChanged(*this);
}

void ReplicaSetRun::placementFailed(const QString& message)
{
    // After placed() too while no replica has started: a backend that placed before its cluster allocated
    // (Backend's contract).
    const bool noneStarted
        = std::none_of(m_replicas.begin(), m_replicas.end(), [](const Replica& r) { return r.hasRun(); });
    if (!(m_phase == Phase::Placing || (m_phase == Phase::Running && noneStarted)))
        return;
    log(message, LogSeverity::Error);
    fail(message);
}

void ReplicaSetRun::started(const QString& taskName, qint64 pid, const QDateTime& startTime)
{
    Replica* r = replica(taskName);
    if (!r)
        return;
    r->pid = pid;
    if (r->state == ReplicaState::Starting) {
        r->state = ReplicaState::Running;
        // Taken over from a previous executor: only the backend knows since when it runs.
        if (startTime.isValid() || !m_attached)
            r->startTime = startTime.isValid() ? startTime.toUTC() : QDateTime::currentDateTimeUtc();
    }
    m_owner->runReplicasChanged(*this);
    const bool all = std::all_of(m_replicas.begin(), m_replicas.end(), [](const Replica& x) { return x.hasRun(); });
    if (all && m_phase == Phase::Running)
        m_owner->runAllStarted(*this);
}

void ReplicaSetRun::output(const QString& taskName, const QByteArray& bytes, bool isStderr)
{
    Replica* r = isStderr ? replica(taskName) : nullptr;
    if (!r)
        return;
    r->stderrTail += bytes;
    if (r->stderrTail.size() > StderrTailBytes)
        r->stderrTail.remove(0, r->stderrTail.size() - StderrTailBytes);
}

bool ReplicaSetRun::awaitsExit(const QString& taskName) const
{
    return std::any_of(
        m_replicas.begin(), m_replicas.end(), [&](const Replica& r) { return r.slot.taskName == taskName && r.alive; });
}

/// Judges a replica's exit (ARCHITECTURE.md "A job's life", step 5): the master's 0 ends the run well (every
/// replica's, with setSucceedsWithEveryReplica()); 1–127 of
/// any replica is a permanent failure; a signal, ≥ 128 or a replica that never ran is retryable (a replica that could
/// not start: exit 127, permanent, as a shell reports it).
void ReplicaSetRun::exited(const QString& taskName, const ReplicaExit& exit)
{
    Replica* r = replica(taskName);
    if (!r || !r->alive)
        return;
    const JobKey& key = m_id.job;
    r->alive = false;
    int code = exit.code;
    bool crashed = false;
    switch (exit.kind) {
    case ReplicaExit::Kind::Exited:
        r->exitCode = code;
        break;
    case ReplicaExit::Kind::Signalled:
        crashed = true;
        code = exit.signal;
        r->exitSignal = exit.signal;
        break;
    case ReplicaExit::Kind::FailedToStart:
        log(QStringLiteral("The replica %1 could not be started: %2").arg(taskName, exit.error), LogSeverity::Error);
        code = 127;
        r->exitCode = code;
        break;
    case ReplicaExit::Kind::Lost:
        break;
    }
    const bool ending = m_phase == Phase::Stopping || m_owner->shuttingDown();
    if (exit.kind == ReplicaExit::Kind::Lost) {
        // Its end is unknown: not a success, and nothing says a restart would help.
        r->state = ReplicaState::Failed;
        if (!ending) {
            const QString message = QStringLiteral("The replica %1 was lost: %2").arg(replicaName(*r), exit.error);
            log(message, LogSeverity::Error);
            stop(StopReason::Failed, message);
        }
        m_owner->runReplicasChanged(*this);
        return;
    }
    if (ending) {
        r->state = (!crashed && code == 0) ? ReplicaState::Succeeded : ReplicaState::Stopped;
        m_owner->runReplicasChanged(*this);
        return;
    }
    const QString name = replicaName(*r);
    if (crashed || code >= 128) {
        r->state = ReplicaState::Failed;
        const int sig = crashed ? code : code - 128;
        const QString message = crashed
            ? QStringLiteral("The replica %1 was killed by signal %2 (%3).").arg(name).arg(sig).arg(signalName(sig))
            : QStringLiteral("The replica %1 exited with a non-zero status of %2 (signal %3, %4).")
                  .arg(name)
                  .arg(code)
                  .arg(sig)
                  .arg(signalName(sig));
        log(message, LogSeverity::Error);
        stop(StopReason::Retry, message);
    } else if (code != 0) {
        r->state = ReplicaState::Failed;
        QString message
            = QStringLiteral("The replica %1 exited with a non-zero status of %2. Termination reason: Error.")
                  .arg(name)
                  .arg(code);
        const QString tail = tailText(r->stderrTail);
        if (!tail.isEmpty())
            message += QLatin1Char('\n') + tail;
        message += QStringLiteral("\nTo find out more about why your job exited please check the logs: "
                                  "trainyardctl jobs stream-logs %1")
                       .arg(key.jobId);
        if (key.project != JobStore::defaultProject())
            message += QStringLiteral(" --project %1").arg(key.project);
        if (!m_id.trialId.isEmpty())
            message += QStringLiteral(" --trial %1").arg(m_id.trialId);
        log(QStringLiteral("The replica %1 exited with a non-zero status of %2.").arg(name).arg(code),
            LogSeverity::Error);
        stop(StopReason::Failed, message);
    } else {
        r->state = ReplicaState::Succeeded;
        const bool done = m_everyReplicaMustSucceed ? std::all_of(m_replicas.begin(), m_replicas.end(),
                              [](const Replica& other) { return other.state == ReplicaState::Succeeded; })
                                                    : r->slot.role == QLatin1String("master");
        if (done)
            stop(StopReason::Succeeded, QString());
    }
    m_owner->runReplicasChanged(*this);
}

void ReplicaSetRun::stop(StopReason reason, const QString& message)
{
    if (m_phase == Phase::Stopping) {
        // A cancel beats whatever was stopping the cluster; nothing else overrides the first reason.
        if (reason == StopReason::Cancelled || reason == StopReason::Shutdown) {
            m_stopReason = reason;
            m_stopMessage = message;
        }
        return;
    }
    m_phase = Phase::Stopping;
    m_stopReason = reason;
    m_stopMessage = message;
    if (reason != StopReason::Succeeded && reason != StopReason::Shutdown)
        log(m_id.trialId.isEmpty() ? QStringLiteral("Tearing down training program.")
                                   : QStringLiteral("Trial %1: tearing down training program.").arg(m_id.trialId),
            LogSeverity::Info);
    m_backend->stop(m_id, m_owner->gracePeriod());
}

void ReplicaSetRun::stopped()
{
    if (m_phase != Phase::Stopping || m_owner->shuttingDown())
        return;
    // Every replica has exited by now (the backend's contract): any not seen exiting was stopped.
    for (Replica& r : m_replicas) {
        if (r.alive) {
            r.alive = false;
            r.state = ReplicaState::Stopped;
        }
    }
    if (m_stopReason == StopReason::Retry && m_restarts < MaxRestarts) {
        ++m_restarts;
        m_folder.writeRestarts(m_restarts);
        m_owner->runAction(*this, "RestartJob",
            m_id.trialId.isEmpty()
                ? QStringLiteral("Restarting the cluster (restart %1 of %2).").arg(m_restarts).arg(MaxRestarts)
                : QStringLiteral("Trial %1: restarting the cluster (restart %2 of %3).")
                      .arg(m_id.trialId)
                      .arg(m_restarts)
                      .arg(MaxRestarts),
            LogSeverity::Warning);
        for (Replica& r : m_replicas)
            r.state = ReplicaState::Restarting;
        m_owner->runReplicasChanged(*this);
        // New addresses, same job dir: trainers resume from their latest checkpoint.
        place();
        return;
    }
    if (m_stopReason == StopReason::Shutdown || m_stopReason == StopReason::None)
        return;
    m_phase = Phase::Done;
    m_owner->runEnded(*this);
}

void ReplicaSetRun::markAllStopped()
{
    for (Replica& r : m_replicas) {
        if (r.alive) {
            r.alive = false;
            r.state = ReplicaState::Stopped;
        }
    }
}

void ReplicaSetRun::countRestart()
{
    ++m_restarts;
    m_folder.writeRestarts(m_restarts);
}

QList<ReplicaInfo> ReplicaSetRun::replicaInfos(bool nodes) const
{
    QList<ReplicaInfo> list;
    list.reserve(qsizetype(m_replicas.size()));
    for (const Replica& r : m_replicas) {
        ReplicaInfo s;
        s.taskName = r.slot.taskName;
        s.role = r.slot.role;
        s.index = r.slot.index;
        s.state = r.state;
        s.pid = r.alive ? r.pid : 0;
        const bool known = r.address.port && !r.address.host.isEmpty();
        s.address = known ? r.address.text() : QString();
        // A cluster's placement addresses name its nodes (the Slurm backend's, once it knows them).
        if (nodes && known)
            s.node = r.address.host;
        s.gpus = r.slot.gpus;
        s.restarts = m_restarts;
        s.exitCode = r.exitCode;
        s.exitSignal = r.exitSignal;
        s.machineType = r.slot.machineType;
        s.trialId = m_id.trialId;
        s.startTime = r.startTime;
        list << s;
    }
    return list;
}

} // namespace Trainyard
