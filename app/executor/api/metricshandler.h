// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

#include <QObject>

namespace Trainyard {

class ApiContext;
class JobStore;
class MetricsStore;
/// The handler of a job's metrics, `GET …/jobs/{job}/metrics` (app/executor/API.md "Metrics"): the series a job has
/// (hypertune, event files, CPU/RSS, GPUs), one series' points paged by step, or with `follow=true` a stream of new
/// points, from MetricsStore. Main thread.
class MetricsHandler : public QObject {
public:
    /// `context`, `store` and `metrics` are not owned and outlive the handler.
    MetricsHandler(ApiContext* context, JobStore* store, MetricsStore* metrics, QObject* parent = nullptr);

    HttpApi::Reply metrics(const ApiRequest& request, const QString& project, const QString& jobId,
        const HttpChannelPtr& channel, bool* streaming);

private:
    ApiContext* m_context;
    JobStore* m_store;
    MetricsStore* m_metrics;
};

} // namespace Trainyard
