// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

namespace Trainyard {

class ApiContext;
class PredictionService;

/// The handler of `projects.models` (app/executor/API.md "Models and versions"): list (and, with `follow=true`, the
/// models stream, ModelsStream), create, get, patch (description and labels; an UPDATE_MODEL operation done at
/// once) and delete (a model without versions; its IAM policy goes with it). It checks requests and shapes answers
/// in the service's JSON; the records are PredictionService's ModelStore. The router has authenticated the caller,
/// checked the route's permission and validated the path's IDs before any of these runs. Main thread.
class ModelsHandler {
public:
    /// `context` and `prediction` are not owned and outlive the handler.
    ModelsHandler(ApiContext* context, PredictionService* prediction);

    /// `GET …/models` (a page: `filter`, `pageSize`, `pageToken`), or with `follow=true` the models stream.
    HttpApi::Reply listModels(
        const ApiRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming);
    HttpApi::Reply createModel(const ApiRequest& request, const QString& project);
    HttpApi::Reply getModel(const QString& project, const QString& model);
    /// `PATCH …/models/{model}?updateMask=description,labels` (an `etag` in the body is checked, never written).
    HttpApi::Reply patchModel(const ApiRequest& request, const QString& project, const QString& model);
    HttpApi::Reply deleteModel(const QString& project, const QString& model);

private:
    ApiContext* m_context;
    PredictionService* m_prediction;
};

} // namespace Trainyard
