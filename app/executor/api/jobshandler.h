// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "batchplan.h"
#include "httpapi.h"
#include "pathpolicy.h"

#include <QObject>

namespace Trainyard {

class ApiContext;
class Backend;
class JobStore;
class Scheduler;

/// The handler of `projects.jobs` (app/executor/API.md "Jobs"): create (a training job, a tuning job and its resume
/// rules, a batch prediction job whose model and inputs are checked now; validated against the host or the cluster
/// its region names, every path against the path rule; stored QUEUED and handed to the Scheduler), get, list (a page
/// filtered with JobFilter, or with `follow=true` the project's job stream from a cursor), cancel, patch (labels;
/// an `etag` is checked) and the job's replicas. The records are JobStore's. The router has authenticated the caller,
/// checked the route's permission and validated the path's IDs before any of these runs. Main thread.
class JobsHandler : public QObject {
public:
    /// `context`, `store` and `scheduler` are not owned and outlive the handler.
    JobsHandler(ApiContext* context, JobStore* store, Scheduler* scheduler, QObject* parent = nullptr);

    /// `jobs.create`: `caller` becomes the job's creator (its owner in the job's IAM policy).
    HttpApi::Reply createJob(const ApiRequest& request, const QString& project, const HttpApi::Caller& caller);
    HttpApi::Reply getJob(const QString& project, const QString& jobId);
    /// `jobs.list`, or with `follow=true` the project's job stream (watchJobs).
    HttpApi::Reply listJobs(
        const ApiRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming);
    HttpApi::Reply cancelJob(const QString& project, const QString& jobId);
    HttpApi::Reply patchJob(const ApiRequest& request, const QString& project, const QString& jobId);
    /// `…/jobs/{job}/replicas` (ours): the replicas as the Scheduler knows them.
    HttpApi::Reply replicas(const QString& project, const QString& jobId);

private:
    /// Why `spec.resumePreviousJobId` cannot be resumed in `project` (no such job, not a tuning job, other
    /// params or goal, still running), as field violations; empty when it can.
    FieldViolations resumeViolations(const QString& project, const HyperparameterSpec& spec) const;
    /// A batch prediction job's create (predictionInput): validatePredictionInput(), outputPath and uri inside the
    /// job-dir roots, the model resolved and the input paths matched now; then stored and submitted as any job.
    HttpApi::Reply createPredictionJob(const QString& project, Job job, const HttpApi::Caller& caller);
    /// Stores a validated new job (its ID unique in `project`; createTime and QUEUED set) and submits it.
    /// Stores a validated job and hands it to the scheduler (with a batch prediction job's plan).
    HttpApi::Reply storeNewJob(const QString& project, Job job, const HttpApi::Caller& caller,
        std::optional<BatchPlan> batchPlan = std::nullopt);
    /// The path rule for a job in `cluster`'s region (its shared folder the only root) or on this host (null: the
    /// server's); the executor's own folders are refused either way.
    PathPolicy pathsFor(const Backend* cluster) const;
    /// The project's job stream: the jobs written after the cursor `since`, then every write.
    HttpApi::Reply watchJobs(
        const ApiRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming);

    ApiContext* m_context;
    JobStore* m_store;
    Scheduler* m_scheduler;
};

} // namespace Trainyard
