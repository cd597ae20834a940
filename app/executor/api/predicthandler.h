// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

namespace Trainyard {

class ApiContext;
class PredictionService;

/// The handler of online prediction, `projects.predict` (`POST …/models/{model}:predict` for the model's default
/// version, `…/versions/{version}:predict`; app/executor/API.md "Models and versions"): the body checked (size,
/// `instances` and `signature_name` only, no key twice, nesting depth), sent to the version's nodes, and answered
/// when a node has, with the service's shape (`{"predictions": […]}`, or an error naming the instance), the request
/// counted in the version's metrics and, with the model's onlinePredictionLogging, recorded in its log. Main thread.
class PredictHandler {
public:
    /// `context` and `prediction` are not owned and outlive the handler.
    PredictHandler(ApiContext* context, PredictionService* prediction);

    /// `version` empty: the model's default version. Answered later on `channel` (*deferred set) unless the request
    /// is refused at once.
    HttpApi::Reply predict(const ApiRequest& request, const QString& project, const QString& model,
        const QString& version, const HttpChannelPtr& channel, bool* deferred);

private:
    ApiContext* m_context;
    PredictionService* m_prediction;
};

} // namespace Trainyard
