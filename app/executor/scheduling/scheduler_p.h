// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
// The Scheduler's private part (scheduler.cpp, schedulerqueue.cpp): the runs, the queue, and what the scheduler does
// for them as their owner (ReplicaSetRun::Owner) and as their drivers' host (JobDriver::Host). Only those two files
// include it.
#include "scheduler.h"

#include "backend.h"
#include "jobfolder.h"
#include "jobrun.h"
#include "jobstore.h"
#include "launchspec.h"
#include "localbackend.h"
#include "logstore.h"
#include "machinecatalog.h"
#include "outcomejournal.h"
#include "pathpolicy.h"
#include "replicasetrun.h"
#include "rfc3339.h"
#include "runtimelogging.h"
#include "staging.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMetaMethod>
#include <QSysInfo>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <deque>
#include <limits>

namespace Trainyard {

struct Scheduler::Private final : ReplicaSetRun::Owner, JobDriver::Host {
    static constexpr int MaxRestarts = ReplicaSetRun::MaxRestarts;
    /// Final jobs whose replicas (exit codes, restarts) stay in memory for `…/replicas`.
    static constexpr size_t MaxFinishedRuns = 200;

    Scheduler* q = nullptr;
    JobStore* store = nullptr;
    LogStore* logs = nullptr;
    Backend* backend = nullptr; // the default: every run whose region names no cluster backend
    std::vector<std::unique_ptr<Backend>> ownedBackends; // the default first, then addBackend()'s
    QString dataDir;
    int graceSeconds = 10;
    PathPolicy paths;
    Sandbox sandbox; ///< pip's (the local backend has its own copy for the replicas)
    QTimer* pollTimer = nullptr; ///< every 2 s: the running jobs' drivers report (JobDriver::poll())
    bool shuttingDownNow = false;

    using Run = JobRun;
    using Phase = JobRun::Phase;
    using SetRun = ReplicaSetRun;
    using SetPhase = ReplicaSetRun::Phase;
    using StopReason = ReplicaSetRun::StopReason;

    /// What waits in the queue: a job's cluster (`trialId` empty, not a tuning job), a slot for a tuning
    /// job's next trial (`trialId` empty), or a tuning job's existing trial that needs resources again
    /// (after an executor restart). What an entry stands for is its driver's (JobDriver::queuedRun()).
    struct QueueEntry {
        JobKey job;
        QString trialId;
    };

    std::map<JobKey, std::unique_ptr<Run>> runs;
    std::deque<QueueEntry> queue; // FIFO of runs waiting for resources
    std::deque<JobKey> finished; // final jobs whose replicas are still answered, oldest first

    // ---- store helpers -------------------------------------------------------------------------

    /// Applies `change` to the stored job (read fresh, so that a concurrent labels PATCH survives) and
    /// writes it. Returns the job as written.
    /// A job whose project or job ID is no safe folder name (JobKey::folder() is empty: it was stored before every
    /// route checked them) has no job folder inside the data folder, so it cannot run: it fails, and nothing is made
    /// outside the data folder. True when `key` was such a job.
    bool failWithoutFolder(const JobKey& key, const QString& folder);

    /// Every 2 s, what the running jobs report (a batch prediction job's progress: the job list's and the console's).
    void pollRuns()
    {
        for (auto& [key, run] : runs) {
            if (run->phase == Phase::Running && !run->cancelRequested)
                run->driver->poll();
        }
    }

    template <typename F> std::optional<Job> mutate(const JobKey& key, F change)
    {
        std::optional<Job> job = store->job(key);
        if (!job)
            return job;
        change(*job);
        QString error;
        if (!store->update(key.project, *job, &error))
            qCWarning(lcRuntime, "cannot update job %s: %s", qPrintable(key.name()), qPrintable(error));
        return job;
    }

    /// A `service` log line that also goes to the audit log as the executor's own action (Scheduler::systemAction).
    void system(const JobKey& key, const char* method, const QString& message, LogSeverity severity = LogSeverity::Info,
        const QString& trialId = QString())
    {
        service(key, message, severity, trialId);
        Q_EMIT q->systemAction(
            key, QStringLiteral("trainyard.v1.JobLifecycle.") + QLatin1String(method), message, trialId);
    }

    void service(const JobKey& key, const QString& message, LogSeverity severity = LogSeverity::Info,
        const QString& trialId = QString())
    {
        LogEntry e;
        e.severity = logSeverityString(severity);
        e.taskName = QStringLiteral("service");
        e.trialId = trialId;
        e.message = message;
        logs->append(key, e);
    }

    /// The backend a job's region names (a cluster's name), else the default one (local: "local", empty, or one
    /// of the service's regions such as us-central1).
    Backend* backendFor(const QString& region) const
    {
        for (const auto& b : ownedBackends) {
            if (b.get() != backend && b->name() == region)
                return b.get();
        }
        return backend;
    }

    Backend* backendOf(const RunId& id) const
    {
        const Run* run = find(id.job);
        return run && run->backend ? run->backend : backend;
    }

    Run* find(const JobKey& key) const
    {
        auto it = runs.find(key);
        return it == runs.end() ? nullptr : it->second.get();
    }

    SetRun* findSet(const RunId& id) const;

    // ---- queue --------------------------------------------------------------------------------

    void updatePositions();

    /// Starts queued runs in order while the head fits (the backend's admission). Strict FIFO (no
    /// backfilling), so a big job is never starved by small ones that keep slipping past it; a tuning job's
    /// trials queue like jobs (one entry per trial), behind what was queued before them.
    void schedule();

    /// The run of `job` with its driver (JobDriver::create(): `batchPlan` is a batch prediction job's, from the API).
    /// When the job cannot be driven, *error says why (the caller fails it).
    Run* createRun(const JobKey& key, const Job& job, std::optional<BatchPlan> batchPlan, QString* error);

    void armWaitTimer(Run* run, const Job& job);

    // ---- prepare ------------------------------------------------------------------------------

    void prepare(Run* run);

    // ---- run ----------------------------------------------------------------------------------

    QString executorId() const
    {
        // TF_CONFIG's task.cloud names the service deployment; here it names this host's executor.
        return QStringLiteral("trainyard-") + QSysInfo::machineHostName();
    }

    /// Staging is done: every run that holds its resources starts.
    void startSets(Run* run);

    // ---- the runs' owner (ReplicaSetRun::Owner) -------------------------------------------------

    void runLog(const ReplicaSetRun& set, const QString& message, LogSeverity severity) override
    {
        service(set.id().job, message, severity, set.trialId());
    }

    void runAction(const ReplicaSetRun& set, const char* method, const QString& message, LogSeverity severity) override
    {
        system(set.id().job, method, message, severity, set.trialId());
    }

    Launch::LaunchContext launchContext(const ReplicaSetRun& set) override;

    qint64 runLimitLeft(const ReplicaSetRun& set) const override
    {
        const Run* run = find(set.id().job);
        return run ? runLimitLeft(*run) : -1;
    }

    bool shuttingDown() const override { return shuttingDownNow; }

    std::chrono::seconds gracePeriod() const override { return std::chrono::seconds(graceSeconds); }

    void runReplicasChanged(const ReplicaSetRun& set) override
    {
        if (const Run* run = find(set.id().job))
            emitReplicas(*run);
    }

    /// The job's replicas as `…/replicas` reports them: every run's, in trial order.
    QList<ReplicaInfo> replicaInfos(const Run& run) const
    {
        QList<ReplicaInfo> list;
        // A cluster's placement addresses name its nodes (the Slurm backend's, once it knows them).
        const bool nodes = run.backend && run.backend != backend;
        for (const auto& set : run.driver->runs())
            list << set->replicaInfos(nodes);
        return list;
    }

    /// Scheduler::replicasChanged() with the job's whole list, built only when something listens: a study's list
    /// holds every trial's replicas and changes several times a trial, and an in-process scheduler (bench_study,
    /// the tests) has no listener.
    void emitReplicas(const Run& run)
    {
        static const QMetaMethod signal = QMetaMethod::fromSignal(&Scheduler::replicasChanged);
        if (q->isSignalConnected(signal))
            Q_EMIT q->replicasChanged(run.key, replicaInfos(run));
    }

    QString runStartingMessage(const ReplicaSetRun& set) const override
    {
        if (const Run* run = find(set.id().job))
            return run->driver->startingMessage(set);
        return JobDriver::trainingStartingMessage(set);
    }

    void runLaunching(ReplicaSetRun& set) override
    {
        if (Run* run = find(set.id().job))
            run->driver->launching(set);
    }

    /// Every replica of `set` has run: the trial, or the job, is RUNNING.
    void runAllStarted(ReplicaSetRun& set) override;

    /// A run ended: what it means for the job is its driver's (JobDriver::runEnded()).
    void runEnded(ReplicaSetRun& set) override;

    /// What is left of the job's scheduling.maxRunningTime now (ms, ≥ 0), -1 without one: all of it before the job
    /// runs (the timer starts then), what the timer has left after.
    qint64 runLimitLeft(const Run& run) const
    {
        if (run.runTimer && run.runTimer->isActive())
            return std::max(0, run.runTimer->remainingTime());
        return run.input.scheduling ? run.input.scheduling->maxRunningTime.milliseconds() : -1;
    }

    /// Starts the job's scheduling.maxRunningTime timer once it runs.
    void armRunTimer(Run* run, const Job& job);

    void cancelRun(Run* run, const QString& message);

    /// Writes the final state, frees the job's resources and schedules what waits. Called only when no
    /// process of the job is left (the backend said stopped(), or none was ever launched).
    void finish(Run* run, JobState state, const QString& message);

    // ---- a job's end, stored for sure -----------------------------------------------------------

    /// Stores the job's end (OutcomeJournal::record()). False when the store refused the write (the job is as it
    /// was there).
    bool recordOutcome(const JobKey& key, const JobOutcome& outcome)
    {
        QString error;
        if (OutcomeJournal::record(*store, key, outcome, &error))
            return true;
        qCWarning(lcRuntime, "cannot store the end of job %s: %s", qPrintable(key.name()), qPrintable(error));
        return false;
    }

    /// Stores `outcome` again every 2 s until the store takes it, then removes `file`. The timer belongs to the
    /// scheduler, not to the run, which may be forgotten meanwhile; a shutdown drops it, and the next start
    /// reads the file instead.
    void retryOutcome(const JobKey& key, const JobOutcome& outcome, const QString& file);

    // ---- recovery ---------------------------------------------------------------------------------

    /// Queues what `run` waits for: its cluster, or its first trials (as many as may run at once).
    void enqueue(Run* run)
    {
        for (int i = run->driver->firstSlots(); i > 0; --i)
            queue.push_back(QueueEntry { run->key, QString() });
    }

    /// Recovers the runs of a job that goes on after an executor restart, each by the one rule (ReplicaSetRun::
    /// recover(): taken over where it runs when `tryAttach`, its output after what the log store holds; else
    /// reclaimed, and restarted or exhausted), and handles each outcome once. Appends what to queue ahead of the
    /// waiting jobs to `restarted`.
    void recoverRuns(
        Run* run, const Job& job, bool tryAttach, const QStringList& trialFolders, std::deque<QueueEntry>* restarted);

    // ---- the drivers' host (JobDriver::Host) --------------------------------------------------------

    void jobLog(const JobKey& key, const QString& message, LogSeverity severity, const QString& trialId) override
    {
        service(key, message, severity, trialId);
    }

    void jobAction(const JobKey& key, const char* method, const QString& message, LogSeverity severity,
        const QString& trialId) override
    {
        system(key, method, message, severity, trialId);
    }

    std::optional<Job> updateJob(const JobKey& key, const std::function<void(Job&)>& change) override
    {
        return mutate(key, change);
    }

    int queuedFor(const JobKey& key, bool newRunsOnly) const override
    {
        return int(std::count_if(queue.begin(), queue.end(),
            [&](const QueueEntry& e) { return e.job == key && (!newRunsOnly || e.trialId.isEmpty()); }));
    }

    void queueNewRun(const JobKey& key) override { queue.push_back(QueueEntry { key, QString() }); }

    void dropQueued(const JobKey& key, bool newRunsOnly) override
    {
        std::erase_if(
            queue, [&](const QueueEntry& e) { return e.job == key && (!newRunsOnly || e.trialId.isEmpty()); });
    }

    void finishJob(JobRun* job, JobState state, const QString& message) override { finish(job, state, message); }

    void scheduleSoon() override
    {
        QMetaObject::invokeMethod(
            q, [this] { schedule(); }, Qt::QueuedConnection);
    }

    void jobReplicasChanged(const JobRun& job) override { emitReplicas(job); }

    ReplicaSetRun::Owner* runOwner() override { return this; }

    const PathPolicy& pathPolicy() const override { return paths; }

    void stopAllNow();

    /// The backend's reports go to the run they name (a run this executor forgot is ignored).
    void connectBackend(Backend* backend);
};

} // namespace Trainyard
