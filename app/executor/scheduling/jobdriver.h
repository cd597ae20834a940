// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "logentry.h"
#include "replicasetrun.h"
#include "sandbox.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace Trainyard {

class JobStore;
class PathPolicy;
struct BatchPlan;
struct JobRun;

/// What differs between the kinds of job the Scheduler runs, one implementation per kind (ARCHITECTURE.md "Rules
/// every feature follows": a driver per job kind):
/// - TrainingJob (trainingjob.h): a training job's one cluster; a built-in algorithm is a launch detail of it (its
///   bundled package in place of the image);
/// - StudyRun (studyrun.h): a tuning job (`trainingInput.hyperparameters`), one run per trial, chosen by its study;
/// - BatchPredictionJob (batchpredictionjob.h): a batch prediction job (`predictionInput`), its workers one cluster
///   of a plan made once, by the API, that travels with the job.
///
/// A driver owns its job's replica-set runs (runs()), decides what its queue entries stand for, how its packages are
/// staged, what its replicas' sandbox sees, what a run's end means for the job, what it reports while it runs, and
/// what it stores when the job ends. The Scheduler keeps the queue, admission, the job's one phase (JobRun::phase: it
/// is its only writer), cancel and timers, the recovery rule (ReplicaSetRun::recover()'s outcomes are handled once, in
/// Scheduler::recover()) and the outcome journal; a driver ends its job only through Host::finishJob(). Every call
/// comes from the main thread.
class JobDriver {
public:
    /// What a driver may ask of the scheduler.
    class Host {
    public:
        /// A line of the job's `service` log (a trial's when `trialId` is set).
        virtual void jobLog(const JobKey& key, const QString& message, LogSeverity severity, const QString& trialId)
            = 0;
        /// The same, as an action of the executor's own (Scheduler::systemAction's `method`).
        virtual void jobAction(
            const JobKey& key, const char* method, const QString& message, LogSeverity severity, const QString& trialId)
            = 0;
        /// Applies `change` to the stored job (read fresh) and writes it; the job as written, nothing when it is gone.
        virtual std::optional<Job> updateJob(const JobKey& key, const std::function<void(Job&)>& change) = 0;
        /// Queue entries of the job: every one, or only the slots for new runs (entries without a trial ID).
        virtual int queuedFor(const JobKey& key, bool newRunsOnly) const = 0;
        /// Queues a slot for the job's next run (behind what waits).
        virtual void queueNewRun(const JobKey& key) = 0;
        /// Takes the job's entries out of the queue: every one, or only the slots for new runs.
        virtual void dropQueued(const JobKey& key, bool newRunsOnly) = 0;
        /// Ends the job with its final state (the scheduler's finish(), which calls ending()).
        virtual void finishJob(JobRun* job, JobState state, const QString& message) = 0;
        /// Runs the queue again once the event loop is back (a run freed its resources).
        virtual void scheduleSoon() = 0;
        /// The job's replicas changed (`…/replicas`).
        virtual void jobReplicasChanged(const JobRun& job) = 0;
        /// The owner of the job's replica-set runs.
        virtual ReplicaSetRun::Owner* runOwner() = 0;
        /// The rule for the paths a job names (PathPolicy).
        virtual const PathPolicy& pathPolicy() const = 0;

    protected:
        ~Host() = default;
    };

    /// How a job's packages are made importable before its replicas start.
    enum class StagingMode {
        Pip, ///< `pip install` of packageUris into the job's staging folder (Staging)
        CopyBundled, ///< the bundled pure-Python package, copied as it is (Staging::copyModule)
    };

    /// The driver of `stored` (a job of `run`), by its kind. `batchPlan`: a batch prediction job's plan as the API
    /// made it at create (BatchPlan::make); without one (an executor restart) the plan its folder keeps is read.
    /// When the job cannot be driven at all (a hyperparameter spec that cannot be searched), *error says why and the
    /// driver has no runs: the scheduler fails the job at once. A job that can be driven but not run (its model is
    /// gone) gets a driver whose setupError() says why, and fails when it would start.
    static std::unique_ptr<JobDriver> create(Host* host, JobStore* store, JobRun* run, const Job& stored,
        std::optional<BatchPlan> batchPlan, QString* error);

    virtual ~JobDriver();

    /// The job's replica-set runs: its cluster, or its trials in trial order.
    const std::vector<std::unique_ptr<ReplicaSetRun>>& runs() const { return m_runs; }
    ReplicaSetRun* findRun(const RunId& id) const;

    // ---- the queue --------------------------------------------------------------------------------

    /// The queue entries a new job takes (a study: as many trials as may run at once).
    virtual int firstSlots() const { return 1; }
    /// The queue entry for `trialId` (empty: a new run) still stands; the scheduler drops one that does not (its
    /// trial is gone, the study stops).
    virtual bool entryStands(const QString& trialId) const = 0;
    /// The run a standing entry waits for: an existing run, or null with *next the ID a new run would have.
    virtual ReplicaSetRun* queuedRun(const QString& trialId, RunId* next) = 0;
    /// Admission let a new run in: it is made now (a trial's values are chosen now). Null when nothing is left to run:
    /// the scheduler gives the admission back and calls nothingLeftToRun().
    virtual ReplicaSetRun* makeRun(const RunId& id);
    /// makeRun() found nothing left: the driver drops the job's slots for new runs and moves on.
    virtual void nothingLeftToRun() { }

    // ---- preparing ---------------------------------------------------------------------------------

    /// Why the job cannot run, found before it was queued (its model or input is gone, the bundled package is not
    /// installed): prepare() fails it with this. Empty when it can.
    virtual QString setupError() const { return {}; }
    virtual StagingMode stagingMode() const { return StagingMode::Pip; }
    /// Staging is done: the job's admitted runs start.
    virtual void staged() { }

    // ---- running -----------------------------------------------------------------------------------

    /// What `run`'s replicas see besides their own folders (Sandbox), made before they are launched (called once per
    /// placement): by default the paths the job's arguments name (argumentPaths()).
    virtual SandboxView launchView(const ReplicaSetRun& run);
    /// `run`'s replicas are about to be launched.
    virtual void launching(ReplicaSetRun& run) { Q_UNUSED(run) }
    /// The job log's line when `run`'s replicas are about to start: trainingStartingMessage() unless the job kind
    /// says otherwise (a batch prediction names its workers and why that many).
    virtual QString startingMessage(const ReplicaSetRun& run) const { return trainingStartingMessage(run); }
    /// "Waiting for training program to start." (a trial's: "Trial N: waiting …"), the service's line.
    static QString trainingStartingMessage(const ReplicaSetRun& run);
    /// Every replica of `run` has run; `stored` is the job's stored state before the scheduler moves it to RUNNING.
    virtual void runRunning(ReplicaSetRun& run, JobState stored) = 0;
    /// `run` ended (ReplicaSetRun::Owner::runEnded()): what its outcome means for the job (the job's end, or the
    /// study goes on).
    virtual void runEnded(ReplicaSetRun& run) = 0;
    /// The job is being cancelled; its runs were asked to stop.
    virtual void cancelling() { }
    /// Every 2 s while the job runs (not cancelling): what it reports (a batch job's progress).
    virtual void poll() { }
    /// The job ends with `state` (before the end is stored): what it made is stored with it.
    virtual void ending(JobState state) { Q_UNUSED(state) }

    // ---- recovery after an executor restart -------------------------------------------------------

    /// A job stored as QUEUED that holds runs already (a study whose trial was recorded before the executor died) is
    /// recovered as running, so that no trial ID is given twice.
    virtual bool recoversWhenQueued(const Job& stored) const
    {
        Q_UNUSED(stored)
        return false;
    }
    /// The runs of a PREPARING or RUNNING job to recover (ReplicaSetRun::recover(), by the scheduler), made from the
    /// stored job; what a previous executor left of runs that do not go on (an ended trial, a trial folder with no
    /// record) is reclaimed here. `trialFolders`: the trial folders on disk.
    virtual QList<ReplicaSetRun*> runsToRecover(const Job& stored, const QStringList& trialFolders) = 0;
    /// How recovery messages name `run`: "the job was running" / "trial 2 was running", and "the job's" / "the
    /// trial's".
    struct RunWords {
        QString was;
        QString whose;
    };
    virtual RunWords words(const ReplicaSetRun& run, JobState stored) const = 0;
    /// `run` was taken over where it runs.
    virtual void runAttached(ReplicaSetRun& run) { Q_UNUSED(run) }
    /// `run`'s restarts were spent (it is Done): `message` says so.
    virtual void runExhausted(ReplicaSetRun& run, const QString& message) = 0;
    /// Every run was recovered (`running` of them go on): what else to queue ahead of the waiting jobs (an empty ID
    /// per slot for a new run). The job may end here (nothing is left to run).
    virtual QStringList recovered(int running)
    {
        Q_UNUSED(running)
        return {};
    }

    /// The paths `args` name that the job's replicas' sandbox binds: each full path in an argument or after its '='
    /// (comma-separated lists too) that exists, else its folder; written when the job dir's rule allows it (inside
    /// the roots), read only when only a package's does (elsewhere, never the executor's own folders or /proc).
    static SandboxView argumentPaths(const QStringList& args, const PathPolicy& paths);

protected:
    JobDriver(Host* host, JobRun* job);

    ReplicaSetRun* addRun(std::unique_ptr<ReplicaSetRun> run);
    void log(const QString& message, LogSeverity severity = LogSeverity::Info, const QString& trialId = QString());

    Host* m_host;
    JobRun* m_job;
    std::vector<std::unique_ptr<ReplicaSetRun>> m_runs;
};

} // namespace Trainyard
