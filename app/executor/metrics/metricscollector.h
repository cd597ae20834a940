// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "pathpolicy.h"

#include <QObject>
#include <QString>

#include <memory>

namespace Trainyard {

class JobStore;
class LogStore;
class MetricsStore;
class Scheduler;

/// Collects the metrics of running jobs into the MetricsStore (ARCHITECTURE.md "Inside the executor",
/// Metrics), once per interval (default 1 s) while a job is RUNNING or CANCELLING, and once more after it
/// became final:
/// - event files: every `*tfevents*` file at or below the job dir (TensorBoard's runs, findEventRuns()), found
///   as it appears and tailed with one EventFileReader per file (a partial record at the end is read on a
///   later tick). TensorBoard's restart rules apply as ScalarRun (scalarseriesstore.h) applies them: a summary
///   whose step went back purges its tags' points with step ≥ it; a SessionLog START purges the whole run.
///   A damaged record (CRC mismatch, lost framing, not an Event) is skipped and reported once in the job's log
///   as a WARNING `service` line.
/// - hypertune reports: `<job folder>/replicas/<task>/hypertune/output.metrics` of every replica
///   (CLOUD_ML_HP_METRIC_FILE), de-duplicated by (global_step, timestamp) as HypertuneReader does.
/// - resources: per replica, CPU % and RSS of its process tree (/proc) and, when the host has NVML, GPU
///   utilisation and memory (ResourceSampler); step = sample number.
///
/// Reading and sampling run on a private thread pool (at most one tick per job in flight); each tick's
/// findings are written by the main thread in one transaction (MetricsStore::apply). The offsets of event
/// files are stored with the points, so after an executor restart a job's files are read again but only
/// records past the stored offset are stored (the records before it replay the restart rule's state only),
/// and hypertune reports and sample numbers continue from what is stored.
///
/// Owned by the executor's main thread.
class MetricsCollector : public QObject {
    Q_OBJECT
public:
    /// `dataDir`: the executor's data folder (each job's folder is JobKey::folder()).
    /// `sampleGpus`: whether to load NVML for GPU samples (the host has GPUs).
    MetricsCollector(MetricsStore* metrics, JobStore* jobs, LogStore* logs, Scheduler* scheduler,
        const QString& dataDir, bool sampleGpus, QObject* parent = nullptr);
    /// Waits for ticks in flight; their results are dropped (the next executor reads them again).
    ~MetricsCollector() override;

    /// Attaches to the jobs that are running now and starts the timer. Call after Scheduler::recover().
    void start();
    /// Milliseconds between ticks (default 1000).
    void setInterval(int ms);
    /// Event files are read only from job dirs this policy allows (a job stored before job dirs were checked
    /// may name "/" or "$HOME"); for another, the job's log gets one WARNING saying why.
    void setPathPolicy(const PathPolicy& policy);
    /// Stops the timer and waits for ticks in flight (executor shutdown; jobs are not finished).
    void shutdown();

private:
    void onJobChanged(const QString& project, const Trainyard::Job& job);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard
