// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard {

enum class PredictionFramework;

/// A version's `explanationConfig`: how `projects.explain` attributes its predictions to the input features.
///
/// The service's GoogleCloudMlV1__ExplanationConfig holds exactly one of `integratedGradientsAttribution`
/// {numIntegralSteps}, `sampledShapleyAttribution` {numPaths} and `xraiAttribution` {numIntegralSteps} (the ml v1
/// discovery document, tests/data/discovery/ml.v1.json); ours beside them: `treeShapAttribution` {} (an XGBoost
/// booster's own TreeSHAP) and `exactShapleyAttribution` {} (all coalitions, at most 12 features). What each method
/// computes is resources/algorithms/trainyard_algorithms/explanations.py's docstring (the node computes it) and
/// app/executor/API.md's "Explanations".
struct ExplanationConfig {
    enum class Method { SampledShapley, IntegratedGradients, Xrai, TreeShap, ExactShapley };
    Method method = Method::SampledShapley;
    /// sampledShapleyAttribution.numPaths, 1 … MaxPaths; 0 in a request = DefaultPaths.
    int numPaths = 0;
    /// integratedGradientsAttribution / xraiAttribution .numIntegralSteps, 1 … MaxSteps; 0 = DefaultSteps.
    int numIntegralSteps = 0;

    /// gcloud's defaults for --num-paths and --num-integral-steps (gcloud beta ai-platform versions create).
    static constexpr int DefaultPaths = 50;
    static constexpr int DefaultSteps = 50;
    /// The bounds AI Explanations documents: numPaths 1-50, numIntegralSteps 1-100.
    static constexpr int MaxPaths = 50;
    static constexpr int MaxSteps = 100;

    /// Decodes `value` (the version's explanationConfig); violations are named `field.<method>.<key>`. nullopt with
    /// violations when it is not exactly one known method with its fields in range.
    static std::optional<ExplanationConfig> fromJson(const QJsonValue& value, const QString& field,
        FieldViolations* violations);
    /// The service's shape, the count filled in: {"sampledShapleyAttribution": {"numPaths": 50}}.
    QJsonObject toJson() const;
    /// What a prediction node is asked (prediction_server.py's "explain" object): {"method": "sampledShapley",
    /// "numPaths": n, "numIntegralSteps": m}.
    QJsonObject nodeJson() const;
    /// The method's field name: "sampledShapleyAttribution", …
    static QString methodKey(Method method);
    /// gcloud's --explanation-method value ("sampled-shapley", "integrated-gradients", "xrai"; ours "tree-shap",
    /// "exact-shapley") → the method; nullopt for another.
    static std::optional<Method> methodFromFlag(const QString& flag);
    /// Every --explanation-method value, for help and messages.
    static QStringList flagNames();

    /// Whether a version of `framework` (Unspecified with a predictionClass) deployed from `folder` can be explained
    /// so: violations of `version.explanationConfig` naming what to change. Integrated gradients and XRAI need a
    /// PYTORCH (TorchScript) model that is not a built-in algorithm's (those take raw rows), TreeSHAP an XGBOOST
    /// one; every method but TreeSHAP needs a baseline: the folder's explanation_metadata.json, or a built-in
    /// algorithm's preprocessing.json. (XRAI's image input is checked at explain: the metadata must say "image".)
    FieldViolations problemsFor(PredictionFramework framework, bool predictionClass, const QString& folder) const;
};

} // namespace Trainyard
