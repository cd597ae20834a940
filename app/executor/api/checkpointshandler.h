// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

#include <QObject>

#include <memory>

namespace Trainyard {

class ApiContext;
class CheckpointIndex;
class JobStore;
/// The handler of a job's checkpoints, `GET …/jobs/{job}/checkpoints` and `…/checkpoints/{name=**}[?tensor=]`
/// (app/executor/API.md "Checkpoints"): the checkpoints found in the job dir (CheckpointIndex's scan, kept between
/// calls) and one checkpoint's tensors, shapes, statistics and first values, read by formats/' readers. Only files
/// inside the job dir the path rule allows are read; every read runs on the thread pool. Main thread.
class CheckpointsHandler : public QObject {
public:
    /// `context` and `store` are not owned and outlive the handler.
    CheckpointsHandler(ApiContext* context, JobStore* store, QObject* parent = nullptr);

    HttpApi::Reply checkpoints(
        const QString& project, const QString& jobId, const HttpChannelPtr& channel, bool* deferred);
    HttpApi::Reply checkpoint(const ApiRequest& request, const QString& project, const QString& jobId,
        const QString& name, const HttpChannelPtr& channel, bool* deferred);

private:
    /// The job and its job dir on this host, inside the path rule (localJobDir()); false with *error (NOT_FOUND, or
    /// why the dir may not be read) otherwise.
    bool jobDir(const QString& project, const QString& jobId, Job* job, QString* dir, HttpApi::Reply* error) const;

    ApiContext* m_context;
    JobStore* m_store;
    /// Shared with the scans in flight, which may outlive this object at shutdown.
    std::shared_ptr<CheckpointIndex> m_checkpoints;
};

} // namespace Trainyard
