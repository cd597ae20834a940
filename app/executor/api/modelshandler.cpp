// SPDX-License-Identifier: GPL-2.0-or-later
#include "modelshandler.h"

#include "accessstore.h"
#include "apicommon.h"
#include "apicontext.h"
#include "modelsstream.h"
#include "modelstore.h"
#include "predictionservice.h"
#include "resourcelist.h"
#include "ssestream.h"

#include <QDateTime>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

ModelsHandler::ModelsHandler(ApiContext* context, PredictionService* prediction)
    : m_context(context)
    , m_prediction(prediction)
{
}

HttpApi::Reply ModelsHandler::listModels(
    const ApiRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming)
{
    if (isTrue(queryValue(request.query(), QStringLiteral("follow")))) {
        if (!queryValue(request.query(), QStringLiteral("filter")).isEmpty())
            return invalidArgument(QStringLiteral("filter"),
                QStringLiteral("is not supported with follow=true; the stream sends every model of the project"));
        *streaming = true;
        SseStream* stream = m_context->openStream(channel, "models of " + project.toUtf8());
        new ModelsStream(stream, m_prediction->store(), m_prediction, project);
        return {};
    }
    return page(
        request, m_prediction->store()->models(project), QStringLiteral("models"), QStringLiteral("models"),
        [](const ModelResource& m) { return m.name; }, [](const ModelResource& m) { return m.toJson(); });
}

HttpApi::Reply ModelsHandler::createModel(const ApiRequest& request, const QString& project)
{
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations;
    ModelResource model = ModelResource::fromJson(*body, project, &violations);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);
    model.defaultVersion.clear(); // output only: the first version becomes the default
    if (m_prediction->store()->model(project, model.name))
        return errorReply(RpcCode::AlreadyExists,
            QStringLiteral("Field: model.name Error: A model with the same name already exists."),
            { { QStringLiteral("model.name"), QStringLiteral("A model with the same name already exists.") } });
    model.etag = model.computeEtag();
    QString problem;
    if (!m_prediction->store()->insertModel(model, &problem))
        return storeFailure(QStringLiteral("the model"), problem);
    return jsonReply(model.toJson());
}

HttpApi::Reply ModelsHandler::getModel(const QString& project, const QString& model)
{
    const std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    return jsonReply(m->toJson());
}

HttpApi::Reply ModelsHandler::patchModel(const ApiRequest& request, const QString& project, const QString& model)
{
    std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    Reply error;
    const std::optional<PatchRequest> patch = parsePatch(
        request, model, QStringLiteral("description and labels (e.g. updateMask=description,labels)"), &error);
    if (!patch)
        return error;
    FieldViolations violations;
    const ModelResource changed = ModelResource::fromJson(patch->body, project, &violations);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);
    if (const auto stale = etagProblem(QStringLiteral("model"), m->etag, changed.etag, patch->checksEtag))
        return *stale;
    for (const QString& field : patch->mask) {
        if (field == QLatin1String("description"))
            m->description = changed.description;
        else if (field == QLatin1String("labels"))
            m->labels = changed.labels;
        else
            return invalidArgument(QStringLiteral("updateMask"),
                QStringLiteral("\"%1\" cannot be updated; a model's description and labels can (its default version "
                               "with …/versions/{version}:setDefault)")
                    .arg(printable(field)));
    }
    m->etag = m->computeEtag();
    QString problem;
    if (!m_prediction->store()->updateModel(*m, &problem))
        return storeFailure(QStringLiteral("the model"), problem);
    // The service answers an Operation for a model's update; it is done at once here.
    OperationResource op;
    op.project = project;
    op.id = QStringLiteral("update_%1-%2").arg(model).arg(QDateTime::currentMSecsSinceEpoch());
    op.operationType = QStringLiteral("UPDATE_MODEL");
    op.modelName = m->resourceName();
    op.createTime = op.startTime = op.endTime = PredictionService::now();
    op.done = true;
    op.response = m->toJson();
    if (!m_prediction->store()->putOperation(op, &problem))
        return storeFailure(QStringLiteral("the operation"), problem);
    return jsonReply(op.toJson());
}

HttpApi::Reply ModelsHandler::deleteModel(const QString& project, const QString& model)
{
    const std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    const QList<VersionResource> versions = m_prediction->store()->versions(project, model);
    if (!versions.isEmpty())
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Cannot delete model %1: a model with versions cannot be deleted; delete its %2 version(s) "
                           "first (%3).")
                .arg(m->resourceName())
                .arg(versions.size())
                .arg(versions.first().name));
    QString problem;
    if (!m_prediction->store()->deleteModel(project, model, &problem))
        return storeFailure(QStringLiteral("the model's deletion"), problem);
    // A model made again under the name starts with no policy, as a new resource does.
    if (m_context->accessStore() && m_context->accessStore()->policy(m->resourceName())) {
        QString policyError;
        if (!m_context->accessStore()->setPolicy(m->resourceName(), Iam::Policy {}, &policyError))
            qCWarning(lcApi).noquote() << "the deleted model's policy stays:" << policyError;
    }
    const std::optional<OperationResource> op = m_prediction->modelDeleted(*m, &problem);
    if (!op)
        return storeFailure(QStringLiteral("the operation"), problem);
    return jsonReply(op->toJson());
}

} // namespace Trainyard
