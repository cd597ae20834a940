// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

#include <QObject>

namespace Trainyard {

class ApiContext;
class JobStore;
class Scheduler;
/// The handler of `…/regions` and `…/regions/{region}` (ours, app/executor/API.md "Regions (under the project)"): this host and each Slurm
/// cluster of clusters.yaml with its nodes, partitions and the jobs of the project there, answered once every cluster
/// asked has said how it is. Main thread.
class RegionsHandler : public QObject {
public:
    /// `context`, `store` and `scheduler` are not owned and outlive the handler.
    RegionsHandler(ApiContext* context, JobStore* store, Scheduler* scheduler, QObject* parent = nullptr);

    /// `region` empty: every region.
    HttpApi::Reply regions(
        const QString& project, const QString& region, const HttpChannelPtr& channel, bool* deferred);

private:
    ApiContext* m_context;
    JobStore* m_store;
    Scheduler* m_scheduler;
};

} // namespace Trainyard
