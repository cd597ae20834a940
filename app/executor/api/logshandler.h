// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

#include <QObject>

namespace Trainyard {

class ApiContext;
class JobStore;
class LogStore;
/// The handler of a job's logs, `GET …/jobs/{job}/logs` (app/executor/API.md "Logs"): a page of the replicas' lines and
/// the executor's own (filtered by task, trial, severity and text; read on the thread pool from LogStore's files and
/// line index), or with `follow=true` a stream of the backlog and then every new line until the job is final. Main
/// thread; the reads run on the pool.
class LogsHandler : public QObject {
public:
    /// `context`, `store` and `logs` are not owned and outlive the handler.
    LogsHandler(ApiContext* context, JobStore* store, LogStore* logs, QObject* parent = nullptr);

    HttpApi::Reply logs(const ApiRequest& request, const QString& project, const QString& jobId,
        const HttpChannelPtr& channel, bool* streaming);

private:
    ApiContext* m_context;
    JobStore* m_store;
    LogStore* m_logs;
};

} // namespace Trainyard
