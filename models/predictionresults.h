// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "prediction.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard {

/// What the prediction routes answer besides the resources themselves (prediction.h has those): list pages, a
/// prediction's outcome, a version's request metrics, its input columns and its log. Each has one fromJson, the only
/// place a client reads these answers (app/executor/API.md "Models and versions" has the shapes).

/// `GET …/models`: a page of models.
struct ModelPage {
    QList<ModelResource> models;
    QString nextPageToken;
    static ModelPage fromJson(const QJsonObject& json, const QString& project);
};

/// The models stream's `model` event (`GET …/models?follow=true`): a model and all its versions as they are now.
struct ModelChange {
    ModelResource model;
    QList<VersionResource> versions;
    static ModelChange fromJson(const QJsonObject& json, const QString& project);
};

/// The models stream's `rates` event: each READY version's requests per second in the current 10-second interval,
/// by its full resource name ("projects/p/models/m/versions/v").
struct VersionRates {
    QHash<QString, double> perSecond;
    static VersionRates fromJson(const QJsonObject& json);
};

/// `GET …/models/{m}/versions`: a page of versions.
struct VersionPage {
    QList<VersionResource> versions;
    QString nextPageToken;
    static VersionPage fromJson(const QJsonObject& json, const QString& project, const QString& model);
};

/// `GET …/operations`: a page of operations, newest first.
struct OperationPage {
    QList<OperationResource> operations;
    QString nextPageToken;
    static OperationPage fromJson(const QJsonObject& json);
};

/// What a `:predict` came to. The service answers `{"predictions": [...]}` with HTTP 200, or a google.rpc.Status: an
/// instance the model refused (400 with a violation of `instances[N]`), a request refused as a whole (400), a version
/// that cannot answer now (503), a deadline passed (504).
struct PredictResponse {
    enum class Kind {
        Predictions, ///< `predictions`, one per instance
        InstanceError, ///< `instance` (0-based) was refused: `message` is the runtime's
        RequestError, ///< the request as a whole was refused (its size, its shape, a version not READY)
        Unavailable, ///< no node could answer (the version failed, its node exited): try again
        DeadlineExceeded, ///< no answer within the version's predictionTimeout
        TransportError, ///< no answer at all (the executor is gone, a TLS failure)
    };
    Kind kind = Kind::TransportError;
    /// The model's answers, as it gave them (numbers, lists, objects): one per instance.
    QJsonArray predictions;
    int instance = -1; ///< InstanceError: which instance
    QString instanceError; ///< InstanceError: what the runtime said of it
    QString message; ///< anything but Predictions: what the executor said ("Prediction failed: instance 2: …")
    QString status; ///< the google.rpc status name ("INVALID_ARGUMENT"); empty for Predictions

    bool ok() const { return kind == Kind::Predictions; }
    /// The service's answer body of a Predictions answer: `{"predictions": [...]}`.
    QJsonObject toJson() const { return QJsonObject { { QStringLiteral("predictions"), predictions } }; }
    /// From an answer's HTTP status and body (a JSON object; `transportError` non-empty when none came). `answerKey`
    /// is the success body's list: "predictions", or "explanations" for projects.explain (ExplainResponse), which
    /// then fills `predictions`.
    static PredictResponse fromReply(int httpStatus, const QJsonObject& body, const QString& transportError = {},
        QLatin1String answerKey = QLatin1String("predictions"));
};

/// One prediction (an element of PredictResponse::predictions) as a reader sees it. The shapes are the models': a
/// built-in algorithm's classifier answers `{"predicted_label", "classes", "scores"}`, its regressor
/// `{"predicted_value"}`; scikit-learn and XGBoost a label or a number; a classifier exported as TorchScript a list of
/// class scores (the sample's).
struct PredictionValue {
    enum class Kind {
        Label, ///< `label`: a class name (a string answer, or `predicted_label`)
        Number, ///< `number`: a value (a number answer, or `predicted_value`)
        Scores, ///< `scores`: a list of numbers, one per class; `best` is the largest's index
        Other, ///< anything else: `json` is all there is to show
    };
    Kind kind = Kind::Other;
    QString label;
    double number = 0;
    QList<double> scores; ///< Scores, and a built-in classifier's per-class probabilities (with `classes`)
    QStringList classes; ///< a built-in classifier's classes, in the order of `scores`
    int best = -1; ///< Scores: the index of the largest score
    QString json; ///< the prediction as compact JSON
    QString printed; ///< as gcloud prints one prediction a line: a string as it is, anything else as `json`
    static PredictionValue read(const QJsonValue& prediction);
};

/// How instances are read from text, the one rule of trainyardctl's predict and the console's Predict panel
/// (gcloud's ai-platform predict flags): JsonLines, one JSON value a line (--json-instances); TextLines, each line a
/// string (--text-instances: a CSV row, a sentence); JsonOrText, a line that is one JSON value is that value, any other
/// is its text (the console's instances box, where a user pastes either). Blank lines are skipped; a line's "\r" is
/// dropped.
enum class InstanceFormat { JsonLines, TextLines, JsonOrText };
/// The instances of `data`; nullopt with *error ("line 3: not one JSON value: …") for a JsonLines line that is not
/// one JSON value.
std::optional<QJsonArray> parseInstances(const QByteArray& data, InstanceFormat format, QString* error);
/// A whole request as gcloud's --json-request file holds it, `{"instances": [...]}` (and `signature_name`): its
/// instances; nullopt with *error when it is not such an object.
std::optional<QJsonArray> parseRequestInstances(const QByteArray& data, QString* signatureName, QString* error);

/// `GET …/versions/{v}/metrics` (ours): a version's requests per interval over the last hour.
struct VersionMetrics {
    struct Point {
        QString time; ///< RFC 3339, the interval's start
        double requestsPerSecond = 0;
        double errorsPerSecond = 0;
        std::optional<double> latencyP50Ms;
        std::optional<double> latencyP90Ms;
        std::optional<double> latencyP99Ms;
    };
    int intervalSeconds = 10;
    QList<Point> points;
    /// The latest interval's requests per second; 0 when there is none.
    double latestRequestsPerSecond() const { return points.isEmpty() ? 0 : points.last().requestsPerSecond; }
    static VersionMetrics fromJson(const QJsonObject& json);
};

/// `GET …/versions/{v}/inputSchema` (ours): a built-in algorithm's training columns; empty for any other model.
struct InputSchema {
    struct Column {
        int column = 0; ///< the CSV's numbering, the target as 1
        QString type; ///< "numeric", "categorical", …
        std::optional<double> mean; ///< a numeric column's training mean
        QStringList vocabulary; ///< a categorical column's categories
        QString treatment;
        bool operator==(const Column&) const = default;
    };
    QString task; ///< "classification" or "regression"
    QStringList labels; ///< a classifier's classes
    int numColumns = 0;
    QList<Column> columns;
    bool isEmpty() const { return columns.isEmpty(); }
    static InputSchema fromJson(const QJsonObject& json);
    bool operator==(const InputSchema&) const = default;
};

/// `GET …/versions/{v}/logs`: the last lines of a version's log (its nodes' output, starts, exits, requests).
struct VersionLogPage {
    struct Line {
        QString timestamp; ///< RFC 3339
        QString text;
    };
    QList<Line> entries;
    static VersionLogPage fromJson(const QJsonObject& json);
};

} // namespace Trainyard
