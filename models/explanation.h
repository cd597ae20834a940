// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "predictionresults.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace Trainyard {

/// An image explanation read for drawing: the instance's grey levels and the attributions' magnitude per pixel, both
/// row-major [height × width] (channels averaged).
struct ExplanationImage {
    int height = 0;
    int width = 0;
    QList<double> grey; ///< the instance's pixel values (channel mean), as given
    /// |attribution| per pixel (channel mean); for XRAI, its region score above the lowest inside its top regions and
    /// 0 outside them (its scores rank regions; the rest of the image is context).
    QList<double> heat;
};

/// One explained output of one instance: an element of `attributions_by_label` in projects.explain's answer (the
/// service's field names; `method`, `numPaths`, `numIntegralSteps` and `warning` are ours, saying how it was made).
/// The attributions split `exampleScore − baselineScore` among the features (completeness).
struct LabelAttribution {
    int labelIndex = 0; ///< `label_index`: the output explained (the predicted class by default)
    double exampleScore = 0; ///< `example_score`: the model's score of that output for the instance
    double baselineScore = 0; ///< `baseline_score`: … for the baseline (TreeSHAP: the expected margin)
    double approxError = 0; ///< `approx_error`: the method's estimate of its error (explanations.py says how)
    QString method; ///< "sampledShapley", "integratedGradients", "exactShapley", "treeShap"
    int numPaths = 0; ///< sampled Shapley's paths
    int numIntegralSteps = 0; ///< integrated gradients' steps
    QString warning; ///< e.g. integrated gradients' completeness gap above 5 %
    /// Per feature, by name (Qt's JSON objects keep no order): a number, or for an image input an array of its shape.
    QList<std::pair<QString, QJsonValue>> attributions;
    /// `input_values` (ours): each feature's value in the instance, for a list instance; empty otherwise.
    QJsonObject inputValues;
    /// XRAI's `xrai_top_regions` (ours): the [H][W] 0/1 mask of the image's top 30 %; null for other methods.
    QJsonValue xraiTopRegions;

    /// Σ of the numeric attributions (an array's elements summed), for completeness checks.
    double attributionSum() const;
    /// The features with a number for an attribution, largest |attribution| first (ties in name order): what a
    /// waterfall and `trainyardctl explain` list. An image's array is not among them (image() reads it).
    QList<std::pair<QString, double>> byMagnitude() const;
    /// The features whose attribution is an array (an image input), by name.
    QStringList arrayFeatures() const;
    /// The image this explains, when its one attribution and `instance` (the request's) are arrays of the same image
    /// shape: [H][W], [H][W][C] or [C][H][W] with C 1 or 3, or a flat square of at least 8 × 8 (the Fashion-MNIST
    /// sample's 784 pixels); nullopt otherwise (a tabular explanation).
    std::optional<ExplanationImage> image(const QJsonValue& instance) const;
    /// Feature `name`'s value in the instance as text ("38", "red"), "" when missing (null) and a null QString when
    /// the answer has none (not a list instance).
    QString inputValueText(const QString& name) const;
    static LabelAttribution fromJson(const QJsonObject& json);
};

/// The explanation of one instance: `{"attributions_by_label": [...]}`.
struct Explanation {
    QList<LabelAttribution> byLabel;
    static Explanation fromJson(const QJsonObject& json);
};

/// projects.explain's answer: the refusals of PredictResponse (`reply`, whose `predictions` holds the raw
/// `explanations` list on success) and the explanations read.
struct ExplainResponse {
    PredictResponse reply;
    QList<Explanation> explanations;

    bool ok() const { return reply.ok(); }
    /// The service's answer body: `{"explanations": [...]}`.
    QJsonObject toJson() const { return QJsonObject { { QStringLiteral("explanations"), reply.predictions } }; }
    static ExplainResponse fromReply(int httpStatus, const QJsonObject& body, const QString& transportError = {});
};

} // namespace Trainyard
