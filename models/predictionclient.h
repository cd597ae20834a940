// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "apiclient.h"
#include "explanation.h"
#include "predictionresults.h"

#include <QJsonArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// The typed calls of the prediction half of the API (the service's projects.models, .versions, .operations and
/// :predict, plus our version metrics, input schema and log; app/executor/API.md "Models and versions"), over an
/// ApiClient's transport, project and trust. Every answer is a wire type of prediction.h or predictionresults.h:
/// neither the console nor trainyardctl reads the executor's JSON itself.
///
/// Async calls take a `context` and a callback `(value, error)` as ApiClient's do; `…Blocking` ones run a local event
/// loop (trainyardctl). Model and version arguments are IDs ("census", "v1"). Not thread-safe.
class PredictionClient {
public:
    template <typename T> using Callback = ApiClient::Callback<T>;

    /// Calls go through `client` (not owned; it must outlive this), in its project.
    explicit PredictionClient(ApiClient* client);
    ApiClient* client() const { return m_client; }

    void listModels(const QString& filter, int pageSize, const QString& pageToken, QObject* context,
        Callback<ModelPage> done);
    void getModel(const QString& model, QObject* context, Callback<ModelResource> done);
    /// `model`'s name, description, regions, labels and logging flags as the create body.
    void createModel(const ModelResource& model, QObject* context, Callback<ModelResource> done);
    /// PATCH with `updateMask` (e.g. {"description", "labels"}) and `changes` (with its etag, when set, checked).
    void patchModel(const ModelResource& changes, const QStringList& updateMask, QObject* context,
        Callback<OperationResource> done);
    void deleteModel(const QString& model, QObject* context, Callback<OperationResource> done);

    void listVersions(const QString& model, const QString& filter, int pageSize, const QString& pageToken,
        QObject* context, Callback<VersionPage> done);
    void getVersion(const QString& model, const QString& version, QObject* context, Callback<VersionResource> done);
    /// `version` (its model is `version.model`) as the create body.
    void createVersion(const VersionResource& version, QObject* context, Callback<OperationResource> done);
    void patchVersion(const VersionResource& changes, const QStringList& updateMask, QObject* context,
        Callback<OperationResource> done);
    void deleteVersion(const QString& model, const QString& version, QObject* context, Callback<OperationResource> done);
    void setDefaultVersion(const QString& model, const QString& version, QObject* context, Callback<VersionResource> done);
    void versionMetrics(const QString& model, const QString& version, QObject* context, Callback<VersionMetrics> done);
    void inputSchema(const QString& model, const QString& version, QObject* context, Callback<InputSchema> done);
    void versionLogs(const QString& model, const QString& version, int pageSize, QObject* context,
        Callback<VersionLogPage> done);

    /// `:predict` on `version` of `model` (empty: the model's default version). The answer is always a
    /// PredictResponse: a refusal is one of its kinds, not an error.
    void predict(const QString& model, const QString& version, const QJsonArray& instances,
        const QString& signatureName, QObject* context, std::function<void(const PredictResponse&)> done);
    /// `:explain` on `version` of `model` (empty: the default version): the version's explanationConfig says how.
    /// `outputIndices` (empty: the predicted class) are the outputs to explain. Always answered, as predict().
    void explain(const QString& model, const QString& version, const QJsonArray& instances,
        const QList<int>& outputIndices, QObject* context, std::function<void(const ExplainResponse&)> done);

    void listOperations(const QString& filter, int pageSize, const QString& pageToken, QObject* context,
        Callback<OperationPage> done);
    void getOperation(const QString& id, QObject* context, Callback<OperationResource> done);
    void cancelOperation(const QString& id, QObject* context, Callback<bool> done);

    /// The project's models as they change (ApiClient::followModels()); the caller owns the stream.
    ApiStream* followModels();

    ApiResult<ModelPage> listModelsBlocking(const QString& filter, int pageSize, const QString& pageToken);
    /// Every model, following the pages.
    ApiResult<QList<ModelResource>> allModelsBlocking(const QString& filter);
    ApiResult<ModelResource> getModelBlocking(const QString& model);
    ApiResult<ModelResource> createModelBlocking(const ModelResource& model);
    ApiResult<OperationResource> patchModelBlocking(const ModelResource& changes, const QStringList& updateMask);
    ApiResult<OperationResource> deleteModelBlocking(const QString& model);
    /// Every version of `model`, following the pages.
    ApiResult<QList<VersionResource>> allVersionsBlocking(const QString& model, const QString& filter);
    ApiResult<VersionResource> getVersionBlocking(const QString& model, const QString& version);
    ApiResult<OperationResource> createVersionBlocking(const VersionResource& version);
    ApiResult<OperationResource> patchVersionBlocking(const VersionResource& changes, const QStringList& updateMask);
    ApiResult<OperationResource> deleteVersionBlocking(const QString& model, const QString& version);
    ApiResult<VersionResource> setDefaultVersionBlocking(const QString& model, const QString& version);
    PredictResponse predictBlocking(
        const QString& model, const QString& version, const QJsonArray& instances, const QString& signatureName);
    ExplainResponse explainBlocking(const QString& model, const QString& version, const QJsonArray& instances,
        const QList<int>& outputIndices = {});
    /// Every operation, following the pages.
    ApiResult<QList<OperationResource>> allOperationsBlocking(const QString& filter);
    ApiResult<OperationResource> getOperationBlocking(const QString& id);
    ApiResult<bool> cancelOperationBlocking(const QString& id);

    /// `…/v1/projects/{p}/models[/{m}[/versions/{v}]]`'s path, as requests use it.
    QString modelPath(const QString& model = {}, const QString& version = {}) const;

private:
    ApiClient* m_client;
};

} // namespace Trainyard
