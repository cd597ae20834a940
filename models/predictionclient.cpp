// SPDX-License-Identifier: GPL-2.0-or-later
#include "predictionclient.h"
#include "apijson_p.h"

#include <QJsonDocument>
#include <QUrlQuery>

namespace Trainyard {

using ApiJson::listQuery;
using ApiJson::pathSegment;
using ApiJson::typed;

namespace {

QByteArray compact(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// Follows a list's pages to the end: `page(token)` answers one page and its next token.
template <typename Item, typename Page>
ApiResult<QList<Item>> allPages(Page page)
{
    ApiResult<QList<Item>> all;
    QString token;
    do {
        const auto [items, next, error] = page(token);
        if (!error.isNull()) {
            all.error = error;
            return all;
        }
        all.value += items;
        token = next;
    } while (!token.isEmpty());
    return all;
}

} // namespace

PredictionClient::PredictionClient(ApiClient* client)
    : m_client(client)
{
}

QString PredictionClient::modelPath(const QString& model, const QString& version) const
{
    QString suffix = QStringLiteral("/models");
    if (!model.isEmpty())
        suffix += QLatin1Char('/') + pathSegment(model);
    if (!version.isEmpty())
        suffix += QStringLiteral("/versions/") + pathSegment(version);
    return m_client->projectPath(suffix);
}

void PredictionClient::listModels(
    const QString& filter, int pageSize, const QString& pageToken, QObject* context, Callback<ModelPage> done)
{
    m_client->request("GET", modelPath(), listQuery(filter, pageSize, pageToken), {}, context,
        typed<ModelPage>(std::move(done), [project = m_client->project()](const QJsonObject& o, ApiError*) {
            return ModelPage::fromJson(o, project);
        }));
}

void PredictionClient::getModel(const QString& model, QObject* context, Callback<ModelResource> done)
{
    m_client->request("GET", modelPath(model), {}, {}, context,
        typed<ModelResource>(std::move(done), [project = m_client->project()](const QJsonObject& o, ApiError*) {
            FieldViolations ignored;
            return ModelResource::fromJson(o, project, &ignored);
        }));
}

void PredictionClient::createModel(const ModelResource& model, QObject* context, Callback<ModelResource> done)
{
    QJsonObject body = model.toJson();
    body.insert(QStringLiteral("name"), model.name); // the ID: the project is in the path
    body.remove(QStringLiteral("etag"));
    m_client->request("POST", modelPath(), {}, compact(body), context,
        typed<ModelResource>(std::move(done), [project = m_client->project()](const QJsonObject& o, ApiError*) {
            FieldViolations ignored;
            return ModelResource::fromJson(o, project, &ignored);
        }));
}

void PredictionClient::patchModel(
    const ModelResource& changes, const QStringList& updateMask, QObject* context, Callback<OperationResource> done)
{
    QJsonObject body = changes.toJson();
    body.remove(QStringLiteral("name"));
    m_client->request("PATCH", modelPath(changes.name),
        QStringLiteral("updateMask=") + QString::fromLatin1(QUrl::toPercentEncoding(updateMask.join(QLatin1Char(',')))),
        compact(body), context,
        typed<OperationResource>(
            std::move(done), [](const QJsonObject& o, ApiError*) { return OperationResource::fromJson(o); }));
}

void PredictionClient::deleteModel(const QString& model, QObject* context, Callback<OperationResource> done)
{
    m_client->request("DELETE", modelPath(model), {}, {}, context,
        typed<OperationResource>(
            std::move(done), [](const QJsonObject& o, ApiError*) { return OperationResource::fromJson(o); }));
}

void PredictionClient::listVersions(const QString& model, const QString& filter, int pageSize,
    const QString& pageToken, QObject* context, Callback<VersionPage> done)
{
    m_client->request("GET", modelPath(model) + QStringLiteral("/versions"), listQuery(filter, pageSize, pageToken), {},
        context,
        typed<VersionPage>(std::move(done), [project = m_client->project(), model](const QJsonObject& o, ApiError*) {
            return VersionPage::fromJson(o, project, model);
        }));
}

void PredictionClient::getVersion(
    const QString& model, const QString& version, QObject* context, Callback<VersionResource> done)
{
    m_client->request("GET", modelPath(model, version), {}, {}, context,
        typed<VersionResource>(std::move(done), [project = m_client->project(), model](const QJsonObject& o, ApiError*) {
            FieldViolations ignored;
            return VersionResource::fromJson(o, project, model, &ignored, true);
        }));
}

void PredictionClient::createVersion(const VersionResource& version, QObject* context, Callback<OperationResource> done)
{
    QJsonObject body = version.toJson();
    body.insert(QStringLiteral("name"), version.name); // the ID: the model is in the path
    body.remove(QStringLiteral("etag"));
    m_client->request("POST", modelPath(version.model) + QStringLiteral("/versions"), {}, compact(body), context,
        typed<OperationResource>(
            std::move(done), [](const QJsonObject& o, ApiError*) { return OperationResource::fromJson(o); }));
}

void PredictionClient::patchVersion(
    const VersionResource& changes, const QStringList& updateMask, QObject* context, Callback<OperationResource> done)
{
    QJsonObject body = changes.toJson();
    body.remove(QStringLiteral("name"));
    m_client->request("PATCH", modelPath(changes.model, changes.name),
        QStringLiteral("updateMask=") + QString::fromLatin1(QUrl::toPercentEncoding(updateMask.join(QLatin1Char(',')))),
        compact(body), context,
        typed<OperationResource>(
            std::move(done), [](const QJsonObject& o, ApiError*) { return OperationResource::fromJson(o); }));
}

void PredictionClient::deleteVersion(
    const QString& model, const QString& version, QObject* context, Callback<OperationResource> done)
{
    m_client->request("DELETE", modelPath(model, version), {}, {}, context,
        typed<OperationResource>(
            std::move(done), [](const QJsonObject& o, ApiError*) { return OperationResource::fromJson(o); }));
}

void PredictionClient::setDefaultVersion(
    const QString& model, const QString& version, QObject* context, Callback<VersionResource> done)
{
    m_client->request("POST", modelPath(model, version) + QStringLiteral(":setDefault"), {}, "{}", context,
        typed<VersionResource>(std::move(done), [project = m_client->project(), model](const QJsonObject& o, ApiError*) {
            FieldViolations ignored;
            return VersionResource::fromJson(o, project, model, &ignored, true);
        }));
}

void PredictionClient::versionMetrics(
    const QString& model, const QString& version, QObject* context, Callback<VersionMetrics> done)
{
    m_client->request("GET", modelPath(model, version) + QStringLiteral("/metrics"), {}, {}, context,
        typed<VersionMetrics>(std::move(done), [](const QJsonObject& o, ApiError*) { return VersionMetrics::fromJson(o); }));
}

void PredictionClient::inputSchema(
    const QString& model, const QString& version, QObject* context, Callback<InputSchema> done)
{
    m_client->request("GET", modelPath(model, version) + QStringLiteral("/inputSchema"), {}, {}, context,
        typed<InputSchema>(std::move(done), [](const QJsonObject& o, ApiError*) { return InputSchema::fromJson(o); }));
}

void PredictionClient::versionLogs(
    const QString& model, const QString& version, int pageSize, QObject* context, Callback<VersionLogPage> done)
{
    m_client->request("GET", modelPath(model, version) + QStringLiteral("/logs"),
        pageSize > 0 ? QStringLiteral("pageSize=%1").arg(pageSize) : QString(), {}, context,
        typed<VersionLogPage>(std::move(done), [](const QJsonObject& o, ApiError*) { return VersionLogPage::fromJson(o); }));
}

void PredictionClient::predict(const QString& model, const QString& version, const QJsonArray& instances,
    const QString& signatureName, QObject* context, std::function<void(const PredictResponse&)> done)
{
    QJsonObject body { { QStringLiteral("instances"), instances } };
    if (!signatureName.isEmpty())
        body.insert(QStringLiteral("signature_name"), signatureName);
    m_client->request("POST", modelPath(model, version) + QStringLiteral(":predict"), {}, compact(body), context,
        [done = std::move(done)](int http, const QByteArray& data, const ApiError& error) {
            ApiError ignored;
            const QJsonObject answer = ApiJson::parseObject(data, &ignored).value_or(QJsonObject());
            done(PredictResponse::fromReply(http, answer, error.isNull() ? QString() : error.summary()));
        });
}

void PredictionClient::explain(const QString& model, const QString& version, const QJsonArray& instances,
    const QList<int>& outputIndices, QObject* context, std::function<void(const ExplainResponse&)> done)
{
    QJsonObject body { { QStringLiteral("instances"), instances } };
    if (!outputIndices.isEmpty()) {
        QJsonArray outputs;
        for (const int k : outputIndices)
            outputs.append(k);
        body.insert(QStringLiteral("outputIndices"), outputs);
    }
    m_client->request("POST", modelPath(model, version) + QStringLiteral(":explain"), {}, compact(body), context,
        [done = std::move(done)](int http, const QByteArray& data, const ApiError& error) {
            ApiError ignored;
            const QJsonObject answer = ApiJson::parseObject(data, &ignored).value_or(QJsonObject());
            done(ExplainResponse::fromReply(http, answer, error.isNull() ? QString() : error.summary()));
        });
}

void PredictionClient::listOperations(
    const QString& filter, int pageSize, const QString& pageToken, QObject* context, Callback<OperationPage> done)
{
    m_client->request("GET", m_client->projectPath(QStringLiteral("/operations")),
        listQuery(filter, pageSize, pageToken), {}, context,
        typed<OperationPage>(std::move(done), [](const QJsonObject& o, ApiError*) { return OperationPage::fromJson(o); }));
}

void PredictionClient::getOperation(const QString& id, QObject* context, Callback<OperationResource> done)
{
    m_client->request("GET",
        m_client->projectPath(QStringLiteral("/operations/") + pathSegment(id)), {}, {},
        context,
        typed<OperationResource>(
            std::move(done), [](const QJsonObject& o, ApiError*) { return OperationResource::fromJson(o); }));
}

void PredictionClient::cancelOperation(const QString& id, QObject* context, Callback<bool> done)
{
    m_client->request("POST",
        m_client->projectPath(QStringLiteral("/operations/") + pathSegment(id) + QStringLiteral(":cancel")),
        {}, "{}", context, typed<bool>(std::move(done), [](const QJsonObject&, ApiError*) { return true; }));
}

ApiStream* PredictionClient::followModels()
{
    return m_client->followModels();
}

ApiResult<ModelPage> PredictionClient::listModelsBlocking(
    const QString& filter, int pageSize, const QString& pageToken)
{
    return ApiJson::blocking<ModelPage>(
        [&](QObject* ctx, Callback<ModelPage> cb) { listModels(filter, pageSize, pageToken, ctx, std::move(cb)); });
}

ApiResult<QList<ModelResource>> PredictionClient::allModelsBlocking(const QString& filter)
{
    return allPages<ModelResource>([&](const QString& token) {
        const ApiResult<ModelPage> r = listModelsBlocking(filter, 100, token);
        return std::make_tuple(r.value.models, r.value.nextPageToken, r.error);
    });
}

ApiResult<ModelResource> PredictionClient::getModelBlocking(const QString& model)
{
    return ApiJson::blocking<ModelResource>(
        [&](QObject* ctx, Callback<ModelResource> cb) { getModel(model, ctx, std::move(cb)); });
}

ApiResult<ModelResource> PredictionClient::createModelBlocking(const ModelResource& model)
{
    return ApiJson::blocking<ModelResource>(
        [&](QObject* ctx, Callback<ModelResource> cb) { createModel(model, ctx, std::move(cb)); });
}

ApiResult<OperationResource> PredictionClient::patchModelBlocking(
    const ModelResource& changes, const QStringList& updateMask)
{
    return ApiJson::blocking<OperationResource>(
        [&](QObject* ctx, Callback<OperationResource> cb) { patchModel(changes, updateMask, ctx, std::move(cb)); });
}

ApiResult<OperationResource> PredictionClient::deleteModelBlocking(const QString& model)
{
    return ApiJson::blocking<OperationResource>(
        [&](QObject* ctx, Callback<OperationResource> cb) { deleteModel(model, ctx, std::move(cb)); });
}

ApiResult<QList<VersionResource>> PredictionClient::allVersionsBlocking(const QString& model, const QString& filter)
{
    return allPages<VersionResource>([&](const QString& token) {
        const ApiResult<VersionPage> r = ApiJson::blocking<VersionPage>(
            [&](QObject* ctx, Callback<VersionPage> cb) { listVersions(model, filter, 100, token, ctx, std::move(cb)); });
        return std::make_tuple(r.value.versions, r.value.nextPageToken, r.error);
    });
}

ApiResult<VersionResource> PredictionClient::getVersionBlocking(const QString& model, const QString& version)
{
    return ApiJson::blocking<VersionResource>(
        [&](QObject* ctx, Callback<VersionResource> cb) { getVersion(model, version, ctx, std::move(cb)); });
}

ApiResult<OperationResource> PredictionClient::createVersionBlocking(const VersionResource& version)
{
    return ApiJson::blocking<OperationResource>(
        [&](QObject* ctx, Callback<OperationResource> cb) { createVersion(version, ctx, std::move(cb)); });
}

ApiResult<OperationResource> PredictionClient::patchVersionBlocking(
    const VersionResource& changes, const QStringList& updateMask)
{
    return ApiJson::blocking<OperationResource>(
        [&](QObject* ctx, Callback<OperationResource> cb) { patchVersion(changes, updateMask, ctx, std::move(cb)); });
}

ApiResult<OperationResource> PredictionClient::deleteVersionBlocking(const QString& model, const QString& version)
{
    return ApiJson::blocking<OperationResource>(
        [&](QObject* ctx, Callback<OperationResource> cb) { deleteVersion(model, version, ctx, std::move(cb)); });
}

ApiResult<VersionResource> PredictionClient::setDefaultVersionBlocking(const QString& model, const QString& version)
{
    return ApiJson::blocking<VersionResource>(
        [&](QObject* ctx, Callback<VersionResource> cb) { setDefaultVersion(model, version, ctx, std::move(cb)); });
}

namespace {
/// Runs `start(context, done)` and waits in a local event loop for its answer (predict and explain answer always).
template<typename Response, typename Start>
Response waitForAnswer(Start start)
{
    Response response;
    QEventLoop loop;
    bool finished = false;
    start(&loop, [&](const Response& r) {
        response = r;
        finished = true;
        loop.quit();
    });
    if (!finished)
        loop.exec();
    return response;
}
} // namespace

ExplainResponse PredictionClient::explainBlocking(
    const QString& model, const QString& version, const QJsonArray& instances, const QList<int>& outputIndices)
{
    return waitForAnswer<ExplainResponse>([&](QObject* context, auto done) {
        explain(model, version, instances, outputIndices, context, std::move(done));
    });
}

PredictResponse PredictionClient::predictBlocking(
    const QString& model, const QString& version, const QJsonArray& instances, const QString& signatureName)
{
    return waitForAnswer<PredictResponse>([&](QObject* context, auto done) {
        predict(model, version, instances, signatureName, context, std::move(done));
    });
}

ApiResult<QList<OperationResource>> PredictionClient::allOperationsBlocking(const QString& filter)
{
    return allPages<OperationResource>([&](const QString& token) {
        const ApiResult<OperationPage> r = ApiJson::blocking<OperationPage>(
            [&](QObject* ctx, Callback<OperationPage> cb) { listOperations(filter, 100, token, ctx, std::move(cb)); });
        return std::make_tuple(r.value.operations, r.value.nextPageToken, r.error);
    });
}

ApiResult<OperationResource> PredictionClient::getOperationBlocking(const QString& id)
{
    return ApiJson::blocking<OperationResource>(
        [&](QObject* ctx, Callback<OperationResource> cb) { getOperation(id, ctx, std::move(cb)); });
}

ApiResult<bool> PredictionClient::cancelOperationBlocking(const QString& id)
{
    return ApiJson::blocking<bool>([&](QObject* ctx, Callback<bool> cb) { cancelOperation(id, ctx, std::move(cb)); });
}

} // namespace Trainyard
