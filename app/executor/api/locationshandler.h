// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

namespace Trainyard {

class Scheduler;

/// The handler of the service's project resources that say where work can run (app/executor/API.md "Locations and
/// the project's config"): `projects.locations.list` and `.get` (`GET /v1/projects/{p}/locations[/{location}]`,
/// google.cloud.ml.v1 Location: `name` and `capabilities`, each a Capability with its `type` — TRAINING,
/// BATCH_PREDICTION, ONLINE_PREDICTION — and `availableAccelerators`) and `projects.getConfig`
/// (`GET /v1/projects/{p}:getConfig`, GetConfigResponse). The locations are this executor's: this host (`local`:
/// training, batch and online prediction, with its GPUs' accelerator types) and each Slurm cluster of clusters.yaml
/// (training and batch prediction, with the accelerator types its `gpuTypes` maps; prediction nodes run on this host
/// only). Main thread.
class LocationsHandler {
public:
    /// `scheduler` (its backends) is not owned and outlives the handler.
    explicit LocationsHandler(Scheduler* scheduler);

    HttpApi::Reply listLocations(const ApiRequest& request, const QString& project);
    HttpApi::Reply getLocation(const QString& project, const QString& location);
    /// The service account as the service shapes it (`service-{number}@cloud-ml.google.com.iam.gserviceaccount.com`)
    /// and `serviceAccountProject` (an int64 as a string): a 12-digit number derived from the SHA-256 of the project
    /// ID, stable for a project, since this executor has no project numbers; `config` is empty (no TPUs here).
    HttpApi::Reply getConfig(const QString& project);

private:
    QList<QJsonObject> locations(const QString& project) const;

    Scheduler* m_scheduler;
};

} // namespace Trainyard
