// SPDX-License-Identifier: GPL-2.0-or-later
// Models, versions, operations and online prediction: the service's projects.models, projects.models.versions,
// projects.operations and :predict (app/executor/API.md "Models and versions"). The versions' nodes are
// serving/'s (PredictionService); this file checks requests and shapes answers.
#include "accessstore.h"
#include "apicommon.h"
#include "httpapi.h"

#include "modelsstream.h"
#include "modelstore.h"
#include "predictionservice.h"
#include "ssestream.h"
#include "resourcefilter.h"
#include "staging.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

namespace Trainyard {

using namespace Api;

namespace {

constexpr qsizetype MaxPredictBytes = PredictionLimits::MaxRequestBytes;
constexpr int DefaultModelsPageSize = 20;
constexpr int MaxModelsPageSize = 100;

HttpApi::Reply versionNotFound(const QString& project, const QString& model, const QString& version)
{
    return errorReply(RpcCode::NotFound,
        QStringLiteral("Field: name Error: The version resource \"%1/versions/%2\" was not found.")
            .arg(printable(PredictionJson::modelResourceName(project, model)), printable(version)));
}

HttpApi::Reply unavailableService()
{
    return errorReply(RpcCode::Unavailable, QStringLiteral("This executor serves no models (no model store)."));
}

/// The fields the models, versions and operations lists filter on, as the service's models and versions lists
/// take them ("labels.team=vision", "name:census*"); an operation's name is its ID.
const QList<ResourceFilter::Field>& listFields()
{
    using K = ResourceFilter::Kind;
    static const QList<ResourceFilter::Field> fields { { QStringLiteral("name"), QString(), K::Text, {} },
        { QStringLiteral("labels"), QString(), K::Labels, {} },
        { QStringLiteral("createTime"), QStringLiteral("create_time"), K::Time, {} } };
    return fields;
}

enum ListField { NameField, LabelsField, CreateTimeField }; ///< listFields()' order

/// What a filter term reads of a listed item: its name, a label (none when it lacks it), its creation time.
template <typename T>
std::optional<QString> listFieldOf(const ResourceFilter::Term& term, const QString& name, const T& item)
{
    switch (term.field) {
    case NameField:
        return name;
    case LabelsField:
        if constexpr (requires { item.labels; }) {
            if (item.labels.contains(term.labelKey))
                return item.labels.value(term.labelKey);
        }
        return std::nullopt;
    case CreateTimeField:
        if constexpr (requires { item.createTime; })
            return item.createTime;
        return std::nullopt; // a model keeps no creation time
    }
    return std::nullopt;
}

/// A page of `items` that pass the request's `filter` (ResourceFilter's grammar over listFields()), after the item
/// named by the page token, with `nextPageToken` when more follow.
template <typename T, typename Name, typename Json>
HttpApi::Reply page(const ApiRequest& request, const QList<T>& all, const QString& kind, const QString& listField,
    Name nameOf, Json jsonOf)
{
    const QString filterText = queryValue(request.query(), QStringLiteral("filter"));
    QString why;
    const std::optional<ResourceFilter> filter = ResourceFilter::parse(filterText, listFields(), &why);
    if (!filter)
        return invalidArgument(QStringLiteral("filter"), why);
    QList<T> items;
    for (const T& item : all) {
        if (filter->matches([&](const ResourceFilter::Term& term) { return listFieldOf(term, nameOf(item), item); }))
            items.append(item);
    }
    int size = 0;
    if (!parsePageSize(
            queryValue(request.query(), QStringLiteral("pageSize")), DefaultModelsPageSize, MaxModelsPageSize, &size))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative whole number"));
    const QString token = queryValue(request.query(), QStringLiteral("pageToken"));
    QString after;
    if (!token.isEmpty() && !decodePageToken(token, kind, &after))
        return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of this list"));
    qsizetype start = 0;
    if (!after.isEmpty()) {
        start = -1;
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (nameOf(items.at(i)) == after)
                start = i + 1;
        }
        if (start < 0)
            return invalidArgument(
                QStringLiteral("pageToken"), QStringLiteral("names an item that is gone; list again"));
    }
    // Bounded by bytes as well as by count: a page ends after the item that takes it past MaxListPageBytes.
    QJsonArray list;
    qsizetype i = start;
    qsizetype bytes = 0;
    for (; i < items.size() && list.size() < size && bytes < PredictionLimits::MaxListPageBytes; ++i) {
        const QJsonObject item = jsonOf(items.at(i));
        bytes += QJsonDocument(item).toJson(QJsonDocument::Compact).size();
        list.append(item);
    }
    QJsonObject body;
    if (!list.isEmpty())
        body.insert(listField, list);
    if (i < items.size())
        body.insert(QStringLiteral("nextPageToken"), encodePageToken(kind, nameOf(items.at(i - 1))));
    return jsonReply(body);
}

} // namespace

HttpApi::Reply HttpApi::listModels(
    const ApiRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming)
{
    if (!m_prediction)
        return unavailableService();
    if (isTrue(queryValue(request.query(), QStringLiteral("follow")))) {
        if (!queryValue(request.query(), QStringLiteral("filter")).isEmpty())
            return invalidArgument(QStringLiteral("filter"),
                QStringLiteral("is not supported with follow=true; the stream sends every model of the project"));
        *streaming = true;
        auto* stream = new SseStream(channel, this);
        addStream(stream);
        stream->start("models of " + project.toUtf8());
        new ModelsStream(stream, m_prediction->store(), m_prediction, project);
        return {};
    }
    return page(
        request, m_prediction->store()->models(project), QStringLiteral("models"), QStringLiteral("models"),
        [](const ModelResource& m) { return m.name; }, [](const ModelResource& m) { return m.toJson(); });
}

HttpApi::Reply HttpApi::createModel(const ApiRequest& request, const QString& project)
{
    if (!m_prediction)
        return unavailableService();
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

HttpApi::Reply HttpApi::getModel(const QString& project, const QString& model)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    return jsonReply(m->toJson());
}

HttpApi::Reply HttpApi::patchModel(const ApiRequest& request, const QString& project, const QString& model)
{
    if (!m_prediction)
        return unavailableService();
    std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    const QString mask = queryValue(request.query(), QStringLiteral("updateMask"));
    if (mask.isEmpty())
        return invalidArgument(QStringLiteral("updateMask"),
            QStringLiteral("is required: the fields to change, of description and labels (e.g. "
                           "updateMask=description,labels)"));
    QJsonObject withName = *body;
    withName.insert(QStringLiteral("name"), model);
    FieldViolations violations;
    const ModelResource changed = ModelResource::fromJson(withName, project, &violations);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);
    if (!changed.etag.isEmpty() && changed.etag != m->etag)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("The model's etag is %1, not %2: it changed since it was read; read it again.")
                .arg(m->etag, changed.etag));
    for (const QString& field : mask.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
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

HttpApi::Reply HttpApi::patchVersion(
    const ApiRequest& request, const QString& project, const QString& model, const QString& version)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<VersionResource> current = m_prediction->store()->version(project, model, version);
    if (!current)
        return versionNotFound(project, model, version);
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    const QString mask = queryValue(request.query(), QStringLiteral("updateMask"));
    if (mask.isEmpty())
        return invalidArgument(QStringLiteral("updateMask"),
            QStringLiteral("is required: the fields to change, of description, labels, manualScaling.nodes, "
                           "autoScaling.minNodes and autoScaling.maxNodes"));
    QJsonObject withName = *body;
    withName.insert(QStringLiteral("name"), version);
    FieldViolations violations;
    const VersionResource changed = VersionResource::fromJson(withName, project, model, &violations, true);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);
    if (!changed.etag.isEmpty() && changed.etag != current->etag)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("The version's etag is %1, not %2: it changed since it was read; read it again.")
                .arg(current->etag, changed.etag));
    if (current->state != VersionState::Ready)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Version %1 is %2; only a READY version can be updated.")
                .arg(current->resourceName(), PredictionJson::versionStateName(current->state)));
    VersionResource updated = *current;
    for (const QString& raw : mask.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString field = raw.trimmed();
        if (field == QLatin1String("description")) {
            updated.description = changed.description;
        } else if (field == QLatin1String("labels")) {
            updated.labels = changed.labels;
        } else if (field == QLatin1String("predictionTimeout")) {
            updated.predictionTimeoutSeconds = changed.predictionTimeoutSeconds;
        } else if (field == QLatin1String("manualScaling.nodes") || field == QLatin1String("manualScaling")) {
            if (changed.manualScalingNodes < 1)
                return invalidArgument(
                    QStringLiteral("version.manualScaling.nodes"), QStringLiteral("must be at least 1"));
            updated.manualScalingNodes = changed.manualScalingNodes;
            updated.autoScalingMinNodes.reset();
            updated.autoScalingMaxNodes.reset();
        } else if (field == QLatin1String("autoScaling.minNodes") || field == QLatin1String("autoScaling.maxNodes")
            || field == QLatin1String("autoScaling")) {
            if (field != QLatin1String("autoScaling.maxNodes"))
                updated.autoScalingMinNodes = changed.autoScalingMinNodes.value_or(0);
            if (field != QLatin1String("autoScaling.minNodes"))
                updated.autoScalingMaxNodes = changed.autoScalingMaxNodes;
            updated.manualScalingNodes = 0;
        } else {
            return invalidArgument(QStringLiteral("updateMask"),
                QStringLiteral("\"%1\" cannot be updated; a version's description, labels, predictionTimeout, "
                               "manualScaling.nodes, autoScaling.minNodes and autoScaling.maxNodes can")
                    .arg(printable(field)));
        }
    }
    if (updated.autoScalingMinNodes && updated.autoScalingMaxNodes
        && *updated.autoScalingMaxNodes < *updated.autoScalingMinNodes)
        return invalidArgument(QStringLiteral("version.autoScaling.maxNodes"),
            QStringLiteral("must be at least autoScaling.minNodes (%1)").arg(*updated.autoScalingMinNodes));
    if (const FieldViolations scaling = versionScalingViolations(updated, m_host); !scaling.isEmpty())
        return decodeErrorReply(scaling);
    QString problem;
    const std::optional<OperationResource> op = m_prediction->updateVersion(*current, updated, &problem);
    if (!op)
        return storeFailure(QStringLiteral("the version's update"), problem);
    return jsonReply(op->toJson());
}

HttpApi::Reply HttpApi::deleteModel(const QString& project, const QString& model)
{
    if (!m_prediction)
        return unavailableService();
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
    if (m_access && m_access->policy(m->resourceName())) {
        QString policyError;
        if (!m_access->setPolicy(m->resourceName(), Iam::Policy {}, &policyError))
            qCWarning(lcApi).noquote() << "the deleted model's policy stays:" << policyError;
    }
    const std::optional<OperationResource> op = m_prediction->modelDeleted(*m, &problem);
    if (!op)
        return storeFailure(QStringLiteral("the operation"), problem);
    return jsonReply(op->toJson());
}

HttpApi::Reply HttpApi::listVersions(const ApiRequest& request, const QString& project, const QString& model)
{
    if (!m_prediction)
        return unavailableService();
    if (!m_prediction->store()->model(project, model))
        return modelNotFound(project, model);
    return page(
        request, m_prediction->store()->versions(project, model), QStringLiteral("versions"),
        QStringLiteral("versions"), [](const VersionResource& v) { return v.name; },
        [](const VersionResource& v) { return v.toJson(); });
}

HttpApi::Reply HttpApi::createVersion(const ApiRequest& request, const QString& project, const QString& model)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations;
    VersionResource version = VersionResource::fromJson(*body, project, model, &violations);
    // The runtime version picks the nodes' Python, as a training job's does.
    if (!version.runtimeVersion.isEmpty() || !version.pythonVersion.isEmpty()) {
        const QList<RuntimeVersion> all = runtimeVersions();
        QStringList names;
        bool known = version.runtimeVersion.isEmpty();
        for (const RuntimeVersion& r : all) {
            names << r.runtimeVersion;
            if (r.runtimeVersion == version.runtimeVersion) {
                known = true;
                if (!version.pythonVersion.isEmpty() && !r.pythonVersions.contains(version.pythonVersion))
                    violations.append({ QStringLiteral("version.pythonVersion"),
                        QStringLiteral("runtime version %1 offers Python %2, not %3")
                            .arg(r.runtimeVersion, r.pythonVersions.join(QStringLiteral(", ")),
                                version.pythonVersion) });
            }
        }
        if (!known)
            violations.append({ QStringLiteral("version.runtimeVersion"),
                QStringLiteral("%1 is not a supported runtime version (supported: %2)")
                    .arg(version.runtimeVersion, names.join(QStringLiteral(", "))) });
    }
    // A version's files are read by the executor and copied into its data folder: only from where job dirs may be.
    if (!version.deploymentUri.isEmpty()) {
        QString path = version.deploymentUri;
        if (path.startsWith(QLatin1String("file:")))
            path = QUrl(path).toLocalFile();
        if (path.startsWith(QLatin1String("gs://")))
            violations.append({ QStringLiteral("version.deploymentUri"),
                QStringLiteral("gs:// is Cloud Storage, which this executor cannot reach: copy the model's folder to "
                               "this machine and give its path") });
        else
            violations += m_paths.violations(path, QStringLiteral("version.deploymentUri"), PathUse::ModelFolder);
    }
    // Nodes the host can never hold are refused now, with what they need and what the host has.
    violations += versionScalingViolations(version, m_host);
    // A custom routine's packages are installed with pip in the version's sandbox: held to a training job's rules.
    if (version.packageUris.size() > MaxPackageUris)
        violations.append({ QStringLiteral("version.packageUris"),
            QStringLiteral("At most %1 package URIs are allowed (the service's limit); this version gives %2.")
                .arg(MaxPackageUris)
                .arg(version.packageUris.size()) });
    else
        violations += m_paths.packageViolations(QStringLiteral("version.packageUris"), version.packageUris);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);
    if (m_prediction->store()->version(project, model, version.name))
        return errorReply(RpcCode::AlreadyExists,
            QStringLiteral("Field: version.name Error: A version with the same name already exists."),
            { { QStringLiteral("version.name"), QStringLiteral("A version with the same name already exists.") } });
    QString problem;
    const std::optional<OperationResource> op = m_prediction->createVersion(version, *m, &problem);
    if (!op)
        return storeFailure(QStringLiteral("the version"), problem);
    return jsonReply(op->toJson());
}

HttpApi::Reply HttpApi::getVersion(const QString& project, const QString& model, const QString& version)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    return jsonReply(v->toJson());
}

HttpApi::Reply HttpApi::deleteVersion(const QString& project, const QString& model, const QString& version)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    // A CREATING version may be deleted (its copy and pip stop); one being deleted already may not.
    if (v->state == VersionState::Deleting || v->state == VersionState::Updating)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Version %1 is %2; wait for its operation to finish (…/operations).")
                .arg(v->resourceName(), PredictionJson::versionStateName(v->state)));
    if (v->isDefault && m_prediction->store()->versions(project, model).size() > 1)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Cannot delete version %1: it is the default version of its model, and only the model's "
                           "last version can be deleted while it is the default. Make another version the default "
                           "first (…:setDefault).")
                .arg(v->resourceName()));
    QString problem;
    const std::optional<OperationResource> op = m_prediction->deleteVersion(*v, &problem);
    if (!op)
        return storeFailure(QStringLiteral("the version's deletion"), problem);
    return jsonReply(op->toJson());
}

HttpApi::Reply HttpApi::setDefaultVersion(const QString& project, const QString& model, const QString& version)
{
    if (!m_prediction)
        return unavailableService();
    std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    if (v->state == VersionState::Deleting)
        return errorReply(
            RpcCode::FailedPrecondition, QStringLiteral("Version %1 is being deleted.").arg(v->resourceName()));
    QString problem;
    if (m->defaultVersion != version) {
        if (std::optional<VersionResource> old = m_prediction->store()->version(project, model, m->defaultVersion)) {
            old->isDefault = false;
            old->etag = old->computeEtag();
            if (!m_prediction->store()->updateVersion(*old, &problem))
                return storeFailure(QStringLiteral("the version"), problem);
        }
        m->defaultVersion = version;
        m->etag = m->computeEtag();
        v->isDefault = true;
        v->etag = v->computeEtag();
        if (!m_prediction->store()->updateVersion(*v, &problem) || !m_prediction->store()->updateModel(*m, &problem))
            return storeFailure(QStringLiteral("the default version"), problem);
    }
    return jsonReply(v->toJson());
}

HttpApi::Reply HttpApi::predict(const ApiRequest& request, const QString& project, const QString& model,
    const QString& version, const HttpChannelPtr& channel, bool* deferred)
{
    if (!m_prediction)
        return unavailableService();
    if (request.body().size() > MaxPredictBytes)
        return errorReply(RpcCode::InvalidArgument,
            QStringLiteral("Request payload size exceeds the limit: %1 bytes.").arg(MaxPredictBytes));
    const std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    QString name = version;
    if (name.isEmpty()) {
        if (m->defaultVersion.isEmpty())
            return errorReply(RpcCode::FailedPrecondition,
                QStringLiteral("Model %1 has no default version: create a version, or predict with "
                               "…/versions/{version}:predict.")
                    .arg(m->resourceName()));
        name = m->defaultVersion;
    }
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, name);
    if (!v)
        return versionNotFound(project, model, name);
    if (v->state != VersionState::Ready)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Version %1 is %2, not READY%3.")
                .arg(v->resourceName(), PredictionJson::versionStateName(v->state),
                    v->errorMessage.isEmpty() ? QString() : QStringLiteral(": ") + v->errorMessage));
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    const QJsonValue instances = body->value(QStringLiteral("instances"));
    if (!instances.isArray() || instances.toArray().isEmpty())
        return invalidArgument(QStringLiteral("instances"),
            QStringLiteral("is required: a non-empty list of instances, e.g. {\"instances\": [[1.0, 2.0], [3.0, "
                           "4.0]]}"));
    for (auto it = body->begin(); it != body->end(); ++it) {
        if (it.key() != QLatin1String("instances") && it.key() != QLatin1String("signature_name"))
            return invalidArgument(it.key(),
                QStringLiteral("unknown field: a request has \"instances\" and, optionally, \"signature_name\""));
    }
    // A JSON object keeps one value per key: a second "instances" would be dropped without a word.
    if (const QString twice = duplicateTopLevelKey(request.body()); !twice.isEmpty())
        return invalidArgument(twice, QStringLiteral("is given twice; a request has one \"instances\" list"));
    const QJsonValue signature = body->value(QStringLiteral("signature_name"));
    if (!signature.isUndefined() && !signature.isNull()
        && (!signature.isString() || signature.toString().size() > PredictionLimits::MaxSignatureNameChars))
        return invalidArgument(QStringLiteral("signature_name"),
            QStringLiteral("must be the name of a signature: a string of at most %1 characters")
                .arg(PredictionLimits::MaxSignatureNameChars));
    {
        const QJsonArray list = instances.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (jsonDepth(list.at(i), PredictionLimits::MaxInstanceDepth) > PredictionLimits::MaxInstanceDepth)
                return invalidArgument(QStringLiteral("instances[%1]").arg(i),
                    QStringLiteral("nests lists or objects more than %1 levels deep, the most a prediction takes")
                        .arg(PredictionLimits::MaxInstanceDepth));
        }
    }
    *deferred = true;
    QElapsedTimer clock;
    clock.start();
    const QString resource = v->resourceName();
    const qsizetype count = instances.toArray().size();
    const qsizetype bytesIn = request.body().size();
    // With the model's onlinePredictionLogging, each request's record goes to the version's log (sizes, latency,
    // status; never the instances).
    const bool logged = m->onlinePredictionLogging;
    auto answerWith = [this, channel, logged, version = *v, count, bytesIn, clock](const Reply& reply) {
        m_prediction->recordRequest(version, double(clock.nsecsElapsed()) / 1e6, reply.status == 200);
        if (logged)
            m_prediction->logRequest(version,
                QStringLiteral("request: %1 instance(s), %2 bytes in, %3 bytes out, %4 ms, HTTP %5")
                    .arg(count)
                    .arg(bytesIn)
                    .arg(reply.body.size())
                    .arg(double(clock.nsecsElapsed()) / 1e6, 0, 'f', 2)
                    .arg(reply.status));
        send(channel, reply);
    };
    m_prediction->predict(*v, instances.toArray(), body->value(QStringLiteral("signature_name")).toString(),
        [resource, answerWith](const QJsonObject& answer) {
            if (answer.contains(QLatin1String("predictions"))) {
                answerWith(jsonReply(
                    QJsonObject { { QStringLiteral("predictions"), answer.value(QStringLiteral("predictions")) } }));
                return;
            }
            if (answer.contains(QLatin1String("deadline"))) {
                answerWith(errorReply(RpcCode::DeadlineExceeded,
                    QStringLiteral("%1 did not answer in time: %2")
                        .arg(resource, answer.value(QStringLiteral("deadline")).toString())));
                return;
            }
            if (answer.contains(QLatin1String("unavailable"))) {
                answerWith(errorReply(RpcCode::Unavailable,
                    QStringLiteral("%1 cannot answer now: %2")
                        .arg(resource, answer.value(QStringLiteral("unavailable")).toString())));
                return;
            }
            const QString message = answer.value(QStringLiteral("error")).toString();
            if (answer.contains(QLatin1String("instance"))) {
                const int index = answer.value(QStringLiteral("instance")).toInt();
                answerWith(errorReply(RpcCode::InvalidArgument,
                    QStringLiteral("Prediction failed: instance %1: %2").arg(index).arg(message),
                    { { QStringLiteral("instances[%1]").arg(index), message } }));
                return;
            }
            answerWith(errorReply(RpcCode::InvalidArgument, QStringLiteral("Prediction failed: %1").arg(message)));
        });
    return Reply();
}

HttpApi::Reply HttpApi::versionInputSchema(const QString& project, const QString& model, const QString& version)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    // A built-in algorithm's model folder records its training table's columns (preprocess.py's Preprocessor:
    // preprocessing.json); any other model answers {} (its instances are the model's own business).
    QFile file(m_prediction->versionFolder(project, model, version) + QStringLiteral("/model/preprocessing.json"));
    if (!file.open(QIODevice::ReadOnly))
        return jsonReply(QJsonObject());
    const QJsonObject recorded = QJsonDocument::fromJson(file.read(4 << 20)).object();
    QJsonArray columns;
    for (const QJsonValue& c : recorded.value(QStringLiteral("columns")).toArray()) {
        const QJsonObject in = c.toObject();
        QJsonObject out { { QStringLiteral("column"), in.value(QStringLiteral("index")).toInt() + 1 },
            { QStringLiteral("type"), in.value(QStringLiteral("type")) } };
        for (const char* key : { "mean", "vocabulary", "treatment" }) {
            if (in.contains(QLatin1String(key)))
                out.insert(QLatin1String(key), in.value(QLatin1String(key)));
        }
        columns.append(out);
    }
    return jsonReply(QJsonObject { { QStringLiteral("task"), recorded.value(QStringLiteral("task")) },
        { QStringLiteral("labels"),
            recorded.value(QStringLiteral("target")).toObject().value(QStringLiteral("labels")) },
        { QStringLiteral("numColumns"), recorded.value(QStringLiteral("num_columns")) },
        { QStringLiteral("columns"), columns } });
}

HttpApi::Reply HttpApi::versionMetrics(const QString& project, const QString& model, const QString& version)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    return jsonReply(m_prediction->requestStats(*v));
}

HttpApi::Reply HttpApi::versionLogs(
    const ApiRequest& request, const QString& project, const QString& model, const QString& version)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    int size = 0;
    if (!parsePageSize(queryValue(request.query(), QStringLiteral("pageSize")), 100, 10000, &size))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative whole number"));
    return jsonReply(QJsonObject { { QStringLiteral("entries"), m_prediction->readLog(*v, size) } });
}

HttpApi::Reply HttpApi::listOperations(const ApiRequest& request, const QString& project)
{
    if (!m_prediction)
        return unavailableService();
    return page(
        request, m_prediction->store()->operations(project), QStringLiteral("operations"), QStringLiteral("operations"),
        [](const OperationResource& o) { return o.id; }, [](const OperationResource& o) { return o.toJson(); });
}

HttpApi::Reply HttpApi::getOperation(const QString& project, const QString& id)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<OperationResource> op = m_prediction->store()->operation(project, id);
    if (!op)
        return errorReply(RpcCode::NotFound,
            QStringLiteral("Operation projects/%1/operations/%2 was not found.").arg(project, printable(id)));
    return jsonReply(op->toJson());
}

HttpApi::Reply HttpApi::cancelOperation(const QString& project, const QString& id)
{
    if (!m_prediction)
        return unavailableService();
    const std::optional<OperationResource> op = m_prediction->store()->operation(project, id);
    if (!op)
        return errorReply(RpcCode::NotFound,
            QStringLiteral("Operation projects/%1/operations/%2 was not found.").arg(project, printable(id)));
    if (op->done)
        return jsonReply(QJsonObject()); // google.longrunning: cancelling a finished operation changes nothing
    // A version's creation is cancelled by deleting the version: its copy and pip stop, and this operation ends
    // CANCELLED (google.longrunning's Operations.CancelOperation: "the operation … has an error value … CANCELLED").
    const std::optional<PredictionJson::ResourceName> name
        = PredictionJson::parseResourceName(op->version.value(QStringLiteral("name")).toString());
    if (op->operationType == QLatin1String("CREATE_VERSION") && name && !name->version.isEmpty()) {
        const std::optional<VersionResource> v = m_prediction->store()->version(project, name->model, name->version);
        if (v && v->state == VersionState::Creating) {
            QString problem;
            if (!m_prediction->deleteVersion(*v, &problem))
                return storeFailure(QStringLiteral("the version's deletion"), problem);
            return jsonReply(QJsonObject());
        }
    }
    return errorReply(RpcCode::FailedPrecondition,
        QStringLiteral("Operation %1 (%2) cannot be cancelled: only a version's creation can (it deletes the version); "
                       "an update or a deletion runs to its end.")
            .arg(op->resourceName(), op->operationType));
}

} // namespace Trainyard
