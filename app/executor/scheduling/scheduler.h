// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "apitypes.h"
#include "batchplan.h"
#include "job.h"
#include "jobkey.h"
#include "launchspec.h"
#include "machinecatalog.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace Trainyard {

class PathPolicy;
class Sandbox;

class Backend;
class NodeCapacity;
class JobStore;
class LogStore;

/// Runs jobs through a Backend (local processes by default): queueing (jobPosition), staging with pip,
/// replicas under the service's contract (built by Launch::buildLaunch once the backend placed them),
/// supervision (permanent vs retryable failures, whole-cluster restarts ≤ 3, maxRunningTime,
/// maxWaitTime), cancel, and recovery after an executor restart. See ARCHITECTURE.md "A job's life".
///
/// Every state change is written to the JobStore (which emits jobChanged); replica output goes to the
/// LogStore. Owned by the executor's main thread.
///
/// Decisions where the service leaves room (implemented in scheduler.cpp):
/// - Queue: strict FIFO, no backfilling. GPUs are exclusive (each GPU to one replica of one job, matched
///   by acceleratorType). vCPUs and memory are reservations against the host's totals, except that a job
///   alone on the host always starts (validation already refused what the host can never hold, and
///   3 × n1-standard-4 on a 4-core workstation is normal). `jobPosition` = 1 for the next queued job,
///   2 for the one after …; absent once the job leaves QUEUED.
/// - submit() writes the service lines "Validating job requirements...", "Job creation request has been
///   successfully validated.", "Job <id> is queued.", "Waiting for job to be provisioned." (callers must
///   not write them again); later "Job is preparing.", pip's output (DEBUG), "Waiting for training
///   program to start.", "Job is running.", and at the end "Job completed successfully.", "Job failed."
///   or "Job was cancelled.".
/// - startTime is set when the job leaves QUEUED (PREPARING begins), as the service shows a startTime
///   for jobs that failed while preparing; endTime when it becomes final.
/// - maxRunningTime (measured from RUNNING) and maxWaitTime (measured from createTime while QUEUED or
///   PREPARING) cancel the job as the service does: CANCELLING → CANCELLED, with errorMessage naming the
///   limit ("Job was cancelled: it ran longer than scheduling.maxRunningTime (7200s).").
/// - Exit status: 0 of the master → SUCCEEDED; 1–127 of any replica → FAILED, errorMessage "The replica
///   worker 1 exited with a non-zero status of 3. Termination reason: Error." plus the replica's last
///   stderr lines; a signal or ≥ 128 → the whole cluster is stopped and started again (new ports, same job
///   dir), at most 3 times (counted in `<job folder>/restarts`, across executor restarts).
/// - A job owns replica-set runs (ReplicaSetRun: placement, launch, judging exits, restarts, attach), each with its
///   own restart count and supervision; the backend reports each run's replicas by RunId, and the scheduler hands
///   the report to that run. A job without `hyperparameters` has one: its cluster. A tuning job has one per
///   trial (RunId::trialId "1", "2", …; folder `<job folder>/trials/<trialId>`), each the job's whole
///   cluster, admitted like a job (its own queue entry, so trials queue against the host and GPUs stay
///   exclusive) and given its values by the study (tuning/study.h) only when it is admitted, so that they
///   learn from every trial that ended meanwhile. At most maxParallelTrials run or wait at once; staging
///   happens once per job. The objective is read once a second from each running trial's master
///   (TrialObjectiveReader) into `trainingOutput.trials` (live, best first); a trial that ends without it
///   failed. Trial failures count against maxFailedTrials (Study::failureVerdict()); reaching it stops the
///   running trials (CANCELLED) and fails the job. enableTrialEarlyStopping applies the median stopping rule
///   (SIGTERM; the trial is SUCCEEDED with isTrialStoppedEarly). The job SUCCEEDS when no trial is left to
///   run and at least one succeeded. recover() keeps ended trials and restarts running ones with their
///   stored values (each counts toward its own 3 restarts); the study's whole state is the job record.
/// - A job's end is written to `<job folder>/outcome.json` before the JobStore. When the store refuses the write
///   (a full disk), the scheduler writes it again every 2 s until it is stored, and recover() stores an end kept
///   in that file instead of restarting the job: an ended job never runs again because its end was not recorded.
/// - Every replica carries the environment marker TRAINYARD_JOB_FOLDER=<job folder>; a job becomes
///   final only after the backend says stopped(), i.e. when no process carrying it is left, and recover()
///   has the backend reclaim (kill) what a previous executor left, so no replica or replica child
///   outlives its job.
/// - A job without packageUris is not staged: its module must be importable as it is (PYTHONPATH is
///   `<staging>` followed by the executor's own PYTHONPATH).
class Scheduler : public QObject {
    Q_OBJECT
public:
    /// Runs replicas as local processes (LocalBackend on `host`). `dataDir`: the executor's data folder
    /// (each job's folder is JobKey::folder(): `<dataDir>/projects/<project>/jobs/<jobId>`, staging in
    /// `<job folder>/staging`).
    Scheduler(
        JobStore* store, LogStore* logs, const HostInventory& host, const QString& dataDir, QObject* parent = nullptr);
    /// Runs replicas through `backend` (owned).
    Scheduler(JobStore* store, LogStore* logs, std::unique_ptr<Backend> backend, const QString& dataDir,
        QObject* parent = nullptr);
    ~Scheduler() override;

    /// Adds a cluster backend (owned; a Slurm cluster's). A job whose `trainingInput.region` is the backend's
    /// name() runs there, with its folder under the backend's runFolderRoot() and its interpreter; every other
    /// job (region "local", empty, or a region of the service such as us-central1) runs on the default backend.
    /// Call before submit() and recover().
    void addBackend(std::unique_ptr<Backend> backend);
    /// The cluster backend a job's `region` names (one added by addBackend()); nullptr for the default backend's.
    const Backend* clusterBackend(const QString& region) const;
    /// The default backend: this host's (LocalBackend), or a test's fake.
    const Backend* hostBackend() const;
    /// The cluster backends added by addBackend(), in the order they were added (for `…/regions`).
    QList<Backend*> clusterBackends() const;
    /// The jobs in the cluster's own scheduler that run the job's cluster or trials now (Backend::clusterJobId():
    /// Slurm job IDs), in trial order; empty for a job on this host or one not running there.
    QStringList clusterJobIds(const JobKey& key) const;

    /// How the default backend runs container replicas (ContainerHost::detect() on this host for the local one).
    Launch::ContainerRuntime containerRuntime() const;

    /// Takes a validated job that is already stored in `project` in state QUEUED and runs it when the host can, by
    /// its kind's driver (jobdriver.h). A batch prediction job comes with the plan the API made when it validated it
    /// (BatchPlan::make(): its model, input files and workers), which is kept in the job's folder for restarts; one
    /// without a plan fails when it would start. A batch prediction job is another run of the same queue: its workers
    /// are the replicas of a cluster (a master and workers) running the bundled
    /// `trainyard_algorithms.batch_prediction`, with a job's states, queueing, cancel, logs and restarts; its
    /// predictionOutput is stored from the workers' progress files every 2 s while it runs, and when it ends.
    void submit(const QString& project, const Job& job, std::optional<BatchPlan> batchPlan = std::nullopt);
    /// Cancels a live job: CANCELLING, replicas stopped (SIGTERM, SIGKILL after the grace period), CANCELLED.
    /// Returns false when the job is unknown or already final.
    bool cancel(const JobKey& key);
    /// On executor start: a job's cluster stored as PREPARING/RUNNING whose replicas outlived the previous
    /// executor (a Slurm job that it launched and did not cancel: Backend::attach()) is taken over where it runs,
    /// not restarted; other jobs stored as PREPARING/RUNNING are restarted (a retryable failure: counts toward the
    /// 3 restarts), CANCELLING ones finished cancelling; QUEUED ones are queued again. A tuning job's trials are
    /// restarted, not taken over.
    void recover();
    /// Stops every replica of every job (executor shutdown); jobs stay RUNNING in the store so that
    /// recover() restarts them next time.
    void shutdown();

    /// The job's replicas as `…/replicas` reports them (final jobs: the last 200 that ended).
    QList<ReplicaInfo> replicas(const JobKey& key) const;
    /// What the default backend's host has and holds (prediction nodes' reservations included), and how many jobs run
    /// and wait (`…/host`).
    HostStatus usage() const;
    /// Where prediction nodes reserve their machine types on this host (the local backend's admission,
    /// backends/nodecapacity.h); a node's release tries the queue again. Null when the default backend is not this
    /// host's (tests with a fake backend).
    NodeCapacity* nodeCapacity() const;

    /// Seconds between SIGTERM and SIGKILL when stopping replicas (default 10).
    void setGracePeriodSeconds(int seconds);

    /// The rule every path a job gives follows (PathPolicy), for what the scheduler finds itself: the files a batch
    /// prediction job's kept plan names after a restart, the inputs a training job's arguments name (bound into
    /// its replicas' sandbox). Default: PathPolicy's default roots.
    void setPathPolicy(const PathPolicy& paths);
    /// Where user code runs (app/launch/sandbox.h; inactive by default): the local backend's process replicas and
    /// batch workers, and pip staging every job's packages (a cluster job's too: pip runs on this host).
    void setSandbox(const Sandbox& sandbox);

Q_SIGNALS:
    /// The job's replicas changed (a state, an address, a process, a restart): `replicas` is the whole list as
    /// replicas() answers it now, so that listeners need not ask back.
    void replicasChanged(const Trainyard::JobKey& key, const QList<Trainyard::ReplicaInfo>& replicas);
    /// The scheduler acted on a job on its own (the audit log's principal `system`, app/executor/API.md "Audit
    /// logs"): `methodName` is trainyard.v1.JobLifecycle.ExpireJob (maxRunningTime or maxWaitTime passed: the job is
    /// cancelled), .RestartJob (a retryable failure: the cluster or a trial's cluster restarts), .StopTrialEarly (the
    /// median stopping rule) or .RecoverJob (at start: a job left live by the previous executor is queued again,
    /// restarted, taken over or ended); `message` is what the job's `service` log line says, `trialId` the trial.
    void systemAction(
        const Trainyard::JobKey& key, const QString& methodName, const QString& message, const QString& trialId);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard
