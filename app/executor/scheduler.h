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
