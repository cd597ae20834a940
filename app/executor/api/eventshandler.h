// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

#include <QObject>

namespace Trainyard {

class ApiContext;
class JobStore;
class Scheduler;
/// The handler of a job's event stream, `GET …/jobs/{job}:events[?follow=true]` (app/executor/API.md "Events"): the
/// job and its replicas now, then (following) every change of either until the job is final, then `end`. The job
/// records are JobStore's and the replicas the Scheduler's; this turns their signals into Server-Sent Events. Main
/// thread.
class EventsHandler : public QObject {
public:
    /// `context`, `store` and `scheduler` are not owned and outlive the handler.
    EventsHandler(ApiContext* context, JobStore* store, Scheduler* scheduler, QObject* parent = nullptr);

    HttpApi::Reply events(const ApiRequest& request, const QString& project, const QString& jobId,
        const HttpChannelPtr& channel, bool* streaming);

private:
    ApiContext* m_context;
    JobStore* m_store;
    Scheduler* m_scheduler;
};

} // namespace Trainyard
