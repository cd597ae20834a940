// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "machinecatalog.h"

#include <QObject>
#include <QString>

#include <memory>

namespace Trainyard {

class JobStore;
class LogStore;

/// Live state of one replica, served by `…/jobs/{id}/replicas`.
/// JSON: {"taskName","role","index","state": STARTING|RUNNING|RESTARTING|SUCCEEDED|FAILED|STOPPED|PENDING,
/// "pid": "123" (int64 as string, absent when none),"address":"127.0.0.1:PORT","gpus":[0,1],
/// "restarts": N,"exitCode": N (absent while running),"exitSignal": N (absent unless killed),
/// "machineType","trialId"}
struct ReplicaStatus {
    QString taskName;
    QString role;
    int index = 0;
    QString state;
    qint64 pid = 0;
    QString address;
    QList<int> gpus;
    int restarts = 0;
    std::optional<int> exitCode;
    std::optional<int> exitSignal;
    QString machineType;
    QString trialId;
};

/// What the scheduler holds right now (status bar, `/v1/projects/{p}/host`).
struct HostUsage {
    HostInventory host;
    int vcpusInUse = 0;
    double memoryGbInUse = 0;
    QList<int> gpusInUse;
    int runningJobs = 0;
    int queuedJobs = 0;
};

/// Runs jobs on this host: queueing (jobPosition), staging with pip, replica processes under the
/// service's contract (TF_CONFIG, CLUSTER_SPEC, PyTorch variables, CLOUD_ML_*, CUDA_VISIBLE_DEVICES),
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
///   dir), at most 3 times (counted in `<dataDir>/jobs/<id>/restarts`, across executor restarts).
/// - Every replica runs in its own process group with PR_SET_PDEATHSIG=SIGKILL and the environment marker
///   TRAINYARD_JOB_FOLDER; after a job ends (and in recover()) any process still carrying its marker is
///   killed, so no replica or replica child outlives its job.
/// - A job without packageUris is not staged: its module must be importable as it is (PYTHONPATH is
///   `<staging>` followed by the executor's own PYTHONPATH).
class Scheduler : public QObject
{
    Q_OBJECT
public:
    /// `dataDir`: the executor's data folder (staging under `<dataDir>/jobs/<jobId>/staging`).
    Scheduler(JobStore* store, LogStore* logs, const HostInventory& host, const QString& dataDir,
              QObject* parent = nullptr);
    ~Scheduler() override;

    /// Takes a validated job that is already stored in state QUEUED and runs it when the host can.
    void submit(const Job& job);
    /// Cancels a live job: CANCELLING, replicas stopped (SIGTERM, SIGKILL after the grace period), CANCELLED.
    /// Returns false when the job is unknown or already final.
    bool cancel(const QString& jobId);
    /// On executor start: jobs stored as PREPARING/RUNNING/CANCELLING are restarted (a retryable
    /// failure: counts toward the 3 restarts) or finished cancelling; QUEUED ones are queued again.
    void recover();
    /// Stops every replica of every job (executor shutdown); jobs stay RUNNING in the store so that
    /// recover() restarts them next time.
    void shutdown();

    QList<ReplicaStatus> replicas(const QString& jobId) const;
    HostUsage usage() const;

    /// Seconds between SIGTERM and SIGKILL when stopping replicas (default 10).
    void setGracePeriodSeconds(int seconds);

Q_SIGNALS:
    void replicasChanged(const QString& jobId);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard
