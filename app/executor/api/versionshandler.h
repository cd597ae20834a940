// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

namespace Trainyard {

class ApiContext;
class PredictionService;

/// The handler of `projects.models.versions` (app/executor/API.md "Models and versions"): list, create (the runtime
/// version, the model folder inside the path rule, node counts the host can hold, a custom routine's packages;
/// a CREATE_VERSION operation), get, patch (description, labels, predictionTimeout, scaling: an UPDATE_VERSION
/// operation), delete, setDefault, and ours: a version's input columns, request metrics and log. A version's life
/// (copy, nodes, operations) is PredictionService's; this checks requests and shapes answers. The router has
/// authenticated the caller and checked the route's permission before any of these runs. Main thread.
class VersionsHandler {
public:
    /// `context` and `prediction` are not owned and outlive the handler.
    VersionsHandler(ApiContext* context, PredictionService* prediction);

    HttpApi::Reply listVersions(const ApiRequest& request, const QString& project, const QString& model);
    HttpApi::Reply createVersion(const ApiRequest& request, const QString& project, const QString& model);
    HttpApi::Reply getVersion(const QString& project, const QString& model, const QString& version);
    /// PATCH a version (`updateMask`: description, labels, predictionTimeout, manualScaling.nodes,
    /// autoScaling.minNodes|maxNodes): an UPDATE_VERSION operation (PredictionService::updateVersion()).
    HttpApi::Reply patchVersion(
        const ApiRequest& request, const QString& project, const QString& model, const QString& version);
    HttpApi::Reply deleteVersion(const QString& project, const QString& model, const QString& version);
    HttpApi::Reply setDefaultVersion(const QString& project, const QString& model, const QString& version);
    /// GET a version's input columns (ours): for a built-in algorithm's model, the training table's columns as its
    /// preprocessing recorded them (`{"task", "labels", "numColumns", "columns": [{"column": CSV number (the target
    /// is 1), "type": "numeric"|"categorical"|"key"|"constant", "mean"?, "vocabulary"?, "treatment"?}]}`), so that a
    /// client can offer a form of them; `{}` for any other model.
    HttpApi::Reply versionInputSchema(const QString& project, const QString& model, const QString& version);
    /// GET a version's request metrics (ours): requests/s, errors/s and latency percentiles over the last hour in
    /// 10 s points (RequestStats), for the console's charts.
    HttpApi::Reply versionMetrics(const QString& project, const QString& model, const QString& version);
    /// `GET …/versions/{version}/logs?pageSize=N`: the version's log (its nodes' starts, exits, scaling, output, and
    /// with onlinePredictionLogging each request's record), the last N lines.
    HttpApi::Reply versionLogs(
        const ApiRequest& request, const QString& project, const QString& model, const QString& version);

private:
    ApiContext* m_context;
    PredictionService* m_prediction;
};

} // namespace Trainyard
