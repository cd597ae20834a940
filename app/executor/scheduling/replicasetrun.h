// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "apitypes.h"
#include "backend.h"
#include "jobfolder.h"
#include "launchspec.h"
#include "logentry.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <chrono>
#include <optional>
#include <vector>

namespace Trainyard {

/// One run of a job's cluster: the replicas of one Launch::ReplicaSet (a plain job's cluster, or one trial's of a
/// tuning job) above its Backend, from placement to its end (ARCHITECTURE.md "A job's life", steps 3–6):
/// - start(): the replica slots (Launch::slotsFor() with the reservation's GPUs), then place(); placed() builds
///   the launches (Launch::buildLaunch() with the Owner's context) and launches them;
/// - it judges each exit: the master's 0 ends it well (Succeeded); 1–127 of any replica is a permanent failure
///   (Failed, with the replica's last stderr lines); a signal or ≥ 128 is retryable: the whole cluster is stopped and
///   placed again (new ports, same job dir) at most MaxRestarts times, counted in its folder's restarts file (so
///   across executor restarts); a replica the backend lost is a permanent failure;
/// - stop() asks the backend to stop it (SIGTERM, SIGKILL after the grace period); its outcome is decided only in
///   stopped(), once no process of it is left (the backend's contract), and then Owner::runEnded() is called;
/// - attach(): after an executor restart, it takes over replicas a previous executor launched where they run.
///
/// It knows nothing of studies, of the job's stored state or of the queue: its job (the Scheduler) answers what it
/// needs and hears what happens through Owner. It never releases its reservation itself: its owner does, when the
/// job (or the trial) ends. Owned by the executor's main thread.
class ReplicaSetRun {
public:
    /// The service restarts a cluster after a retryable failure at most this many times.
    static constexpr int MaxRestarts = 3;
    /// Bytes of a replica's stderr kept for the error message of a failed run.
    static constexpr qsizetype StderrTailBytes = 2048;

    enum class Phase { Idle, Placing, Running, Stopping, Done };
    /// Why it stops (and, once Done, how it ended).
    enum class StopReason { None, Succeeded, Failed, Retry, Cancelled, Shutdown, StoppedEarly };

    /// One replica as the run supervises it.
    struct Replica {
        Launch::ReplicaSlot slot;
        Launch::Address address;
        ReplicaState state = ReplicaState::Pending;
        bool alive = false; ///< launched and not yet exited
        qint64 pid = 0;
        std::optional<int> exitCode;
        std::optional<int> exitSignal;
        QByteArray stderrTail; ///< the last StderrTailBytes of its stderr
        /// When the replica started (the backend's time, else when this executor heard of it); invalid before, and
        /// for a replica taken over from a previous executor whose backend cannot tell.
        QDateTime startTime;

        /// It started or already ended (its exit was reported): it has run.
        bool hasRun() const { return pid != 0 || exitCode || exitSignal; }
    };

    /// What a run needs from the job that owns it, and what it tells it. Every call comes from the main thread,
    /// from within a ReplicaSetRun method.
    class Owner {
    public:
        /// A line of the job's `service` log about `run` (its trial's when run.id().trialId is set).
        virtual void runLog(const ReplicaSetRun& run, const QString& message, LogSeverity severity) = 0;
        /// The same, as an action of the executor's own (`method`: trainyard.v1.JobLifecycle's, e.g. "RestartJob").
        virtual void runAction(
            const ReplicaSetRun& run, const char* method, const QString& message, LogSeverity severity)
            = 0;
        /// What the placed replicas are launched with (the run sets jobMarker and containers itself). Called once per
        /// placement, before Launch::buildLaunch(): the job dir must exist when it returns.
        virtual Launch::LaunchContext launchContext(const ReplicaSetRun& run) = 0;
        /// What is left of the job's scheduling.maxRunningTime (ms, ≥ 0), -1 without one: the backend's time limit.
        virtual qint64 runLimitLeft(const ReplicaSetRun& run) const = 0;
        /// True while the executor shuts down: nothing is judged or restarted then.
        virtual bool shuttingDown() const = 0;
        /// Between SIGTERM and SIGKILL when the run's replicas are stopped.
        virtual std::chrono::seconds gracePeriod() const = 0;
        /// Its replicas changed (states, addresses, processes).
        virtual void runReplicasChanged(const ReplicaSetRun& run) = 0;
        /// The line the job's log gets when the run's replicas are placed and about to start ("Waiting for training
        /// program to start.", the service's words for a training job).
        virtual QString runStartingMessage(const ReplicaSetRun& run) const = 0;
        /// The replicas are about to be launched (after runStartingMessage()'s line).
        virtual void runLaunching(ReplicaSetRun& run) = 0;
        /// A replica started, and now every replica of the run has run: called on each such start.
        virtual void runAllStarted(ReplicaSetRun& run) = 0;
        /// The run is Done and no process of it is left: stopReason() and stopMessage() say how it ended (Retry: the
        /// restarts were used up; Failed: also when it could not be placed or launched).
        virtual void runEnded(ReplicaSetRun& run) = 0;

    protected:
        ~Owner() = default;
    };

    /// `backend`: where its replicas run (not owned); `folder`: its replicas and restarts file (the job's folder, or
    /// the trial's: JobFolder::trial()); the restarts count so far is read from it.
    ReplicaSetRun(Owner* owner, Backend* backend, RunId id, RunFolder folder);

    const RunId& id() const { return m_id; }
    const QString& trialId() const { return m_id.trialId; }
    const RunFolder& folder() const { return m_folder; }
    Backend* backend() const { return m_backend; }
    Phase phase() const { return m_phase; }
    StopReason stopReason() const { return m_stopReason; }
    const QString& stopMessage() const { return m_stopMessage; }
    int restarts() const { return m_restarts; }
    /// Taken over from a previous executor (attach()): its replicas were not launched by this one.
    bool attached() const { return m_attached; }
    /// The set as placed and launched (its slots once started; a trial's hyperparameters).
    const Launch::ReplicaSet& replicaSet() const { return m_set; }
    const std::vector<Replica>& replicas() const { return m_replicas; }

    /// A trial's values (`--name=value` arguments): set before start().
    void setHyperparameters(const QList<std::pair<QString, QString>>& values) { m_set.hyperparameters = values; }

    /// What admission set aside for it (held from admission until its owner releases it).
    const std::optional<Reservation>& reservation() const { return m_reservation; }
    void setReservation(std::optional<Reservation> reservation) { m_reservation = std::move(reservation); }
    /// The run succeeds when every replica exited 0 (a batch prediction job's workers, each with its own share),
    /// instead of when the master did (the service's rule for training, where the master's end is the job's).
    void setSucceedsWithEveryReplica(bool on) { m_everyReplicaMustSucceed = on; }
    /// Forgets the reservation and has the backend release it.
    void release();

    /// It holds resources or processes: placing, running, stopping, or admitted and waiting for its start.
    bool isActive() const;

    /// Starts the run that admission let in: its slots for `plan` (the first time), then place().
    void start(const ClusterPlan& plan);
    /// Takes over replicas a previous executor launched (Backend::attach()): their slots for `plan`, the backend's
    /// placement, output after what `storedLines` says the log store holds, a reservation, and the run Running.
    /// False, holding nothing, when the backend has nothing to attach to (a local backend never does) or answers
    /// for other replicas than the set's.
    bool attach(const ClusterPlan& plan, const Backend::StoredLines& storedLines);
    /// What recover() did with a set that a previous executor ran.
    enum class Recovery {
        Attached, ///< its replicas were taken over where they run (attach()); it is Running
        Restart, ///< nothing to take over (or not asked to): the restart is counted, the owner queues it again
        Exhausted, ///< nothing to take over, and its restarts reached MaxRestarts: the owner fails it
    };
    /// The one recovery rule after an executor restart, for a job's cluster and a trial's alike. With `tryAttach`
    /// (the job was PREPARING or RUNNING and no outcome file says it ended) the backend takes the replicas over where
    /// they run (attach()). Otherwise, or when that finds nothing, whatever outlived the previous executor is
    /// reclaimed (Backend::reclaim(): stopped, its resources given back); the executor's restart then counts as a
    /// retryable failure of the cluster (countRestart()), unless the set was restarted MaxRestarts times already.
    Recovery recover(const ClusterPlan& plan, const Backend::StoredLines& storedLines, bool tryAttach);
    /// Stops it for `reason` (SIGTERM, SIGKILL after Owner::gracePeriod()); Owner::runEnded() follows once no process
    /// is left. A run that is stopping already keeps its first reason, unless this one is a cancel or a shutdown.
    void stop(StopReason reason, const QString& message);
    /// Ends a run that never launched (its job ended while it waited): Done, nothing to stop.
    void markDone() { m_phase = Phase::Done; }
    /// The executor stops: every live replica counts as stopped (Backend::stopAll() stopped them).
    void markAllStopped();
    /// Counts one more restart (an executor restart while it ran: a retryable failure) in the restarts file.
    void countRestart();

    /// Its replicas as `…/replicas` reports them; `nodes`: a cluster's run, whose addresses name nodes.
    QList<ReplicaInfo> replicaInfos(bool nodes) const;

    // The backend's reports for this run (Backend's signals, dispatched by RunId).
    void placed(const Launch::Placement& placement);
    void hostsKnown(const Launch::Placement& placement);
    void placementFailed(const QString& message);
    void started(const QString& taskName, qint64 pid, const QDateTime& startTime);
    /// Keeps the tail of a replica's stderr for the message of a failure.
    void output(const QString& taskName, const QByteArray& bytes, bool isStderr);
    /// True when `taskName` is a replica of the run that is alive (its exit is awaited).
    bool awaitsExit(const QString& taskName) const;
    void exited(const QString& taskName, const ReplicaExit& exit);
    void stopped();

private:
    Replica* replica(const QString& taskName);
    void place();
    void setAddresses(const Launch::Placement& placement);
    /// Done without a process left to stop (it could not be placed or launched): Failed with `message`.
    void fail(const QString& message);
    void log(const QString& message, LogSeverity severity);

    Owner* m_owner;
    Backend* m_backend;
    RunId m_id;
    RunFolder m_folder;
    Launch::ReplicaSet m_set;
    std::vector<Replica> m_replicas;
    Phase m_phase = Phase::Idle;
    StopReason m_stopReason = StopReason::None;
    QString m_stopMessage;
    int m_restarts = 0;
    std::optional<Reservation> m_reservation;
    bool m_attached = false;
    bool m_everyReplicaMustSucceed = false;
};

} // namespace Trainyard
