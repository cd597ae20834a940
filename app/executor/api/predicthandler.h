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
/// counted in the version's metrics and, with the model's onlinePredictionLogging, recorded in its log. Also
/// `projects.explain` (`…:explain`, the same body with `outputIndices` instead of `signature_name`), answered by the
/// same nodes with the service's `{"explanations": […]}`, under the same checks, counts and log. Main thread.
class PredictHandler {
public:
    /// `context` and `prediction` are not owned and outlive the handler.
    PredictHandler(ApiContext* context, PredictionService* prediction);

    /// `version` empty: the model's default version. Answered later on `channel` (*deferred set) unless the request
    /// is refused at once.
    HttpApi::Reply predict(const ApiRequest& request, const QString& project, const QString& model,
        const QString& version, const HttpChannelPtr& channel, bool* deferred);
    /// projects.explain: as predict(), for a version with an explanationConfig (FAILED_PRECONDITION without one).
    /// The body's `outputIndices` (ours, after Vertex AI): the outputs to explain, else the predicted class.
    HttpApi::Reply explain(const ApiRequest& request, const QString& project, const QString& model,
        const QString& version, const HttpChannelPtr& channel, bool* deferred);

private:
    enum class Verb { Predict, Explain };
    HttpApi::Reply serve(Verb verb, const ApiRequest& request, const QString& project, const QString& model,
        const QString& version, const HttpChannelPtr& channel, bool* deferred);

    ApiContext* m_context;
    PredictionService* m_prediction;
};

} // namespace Trainyard
