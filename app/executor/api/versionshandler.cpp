// SPDX-License-Identifier: GPL-2.0-or-later
#include "versionshandler.h"

#include "builtinalgorithm.h"
#include "apicommon.h"
#include "apicontext.h"
#include "modelstore.h"
#include "predictionservice.h"
#include "resourcelist.h"
#include "staging.h"

#include <QFile>
#include <QJsonDocument>
#include <QUrl>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

VersionsHandler::VersionsHandler(ApiContext* context, PredictionService* prediction)
    : m_context(context)
    , m_prediction(prediction)
{
}

HttpApi::Reply VersionsHandler::listVersions(const ApiRequest& request, const QString& project, const QString& model)
{
    if (!m_prediction->store()->model(project, model))
        return modelNotFound(project, model);
    return page(
        request, m_prediction->store()->versions(project, model), QStringLiteral("versions"),
        QStringLiteral("versions"), [](const VersionResource& v) { return v.name; },
        [](const VersionResource& v) { return v.toJson(); });
}

HttpApi::Reply VersionsHandler::createVersion(const ApiRequest& request, const QString& project, const QString& model)
{
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
        const FieldViolations pathProblems
            = m_context->pathPolicy().violations(path, QStringLiteral("version.deploymentUri"), PathUse::ModelFolder);
        violations += pathProblems;
        // No framework given: detected from the folder's files, as the service does (and the version says so).
        FieldViolation undetected;
        if (pathProblems.isEmpty() && !version.resolveFramework(path, &undetected))
            violations.append(undetected);
        // Explanations the model cannot give are refused now, with what to add or change (not at the first explain).
        else if (pathProblems.isEmpty() && version.explanationConfig)
            violations += version.explanationConfig->problemsFor(
                version.framework, !version.predictionClass.isEmpty(), path);
    }
    // Nodes the host can never hold are refused now, with what they need and what the host has.
    violations += versionScalingViolations(version, m_context->hostInventory());
    // A custom routine's packages are installed with pip in the version's sandbox: held to a training job's rules.
    if (version.packageUris.size() > MaxPackageUris)
        violations.append({ QStringLiteral("version.packageUris"),
            QStringLiteral("At most %1 package URIs are allowed (the service's limit); this version gives %2.")
                .arg(MaxPackageUris)
                .arg(version.packageUris.size()) });
    else
        violations
            += m_context->pathPolicy().packageViolations(QStringLiteral("version.packageUris"), version.packageUris);
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

HttpApi::Reply VersionsHandler::getVersion(const QString& project, const QString& model, const QString& version)
{
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    return jsonReply(v->toJson());
}

HttpApi::Reply VersionsHandler::patchVersion(
    const ApiRequest& request, const QString& project, const QString& model, const QString& version)
{
    const std::optional<VersionResource> current = m_prediction->store()->version(project, model, version);
    if (!current)
        return versionNotFound(project, model, version);
    Reply error;
    const std::optional<PatchRequest> patch = parsePatch(request, version,
        QStringLiteral("description, labels, manualScaling.nodes, autoScaling.minNodes and autoScaling.maxNodes"),
        &error);
    if (!patch)
        return error;
    FieldViolations violations;
    const VersionResource changed = VersionResource::fromJson(patch->body, project, model, &violations, true);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);
    if (const auto stale = etagProblem(QStringLiteral("version"), current->etag, changed.etag, patch->checksEtag))
        return *stale;
    if (current->state != VersionState::Ready)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Version %1 is %2; only a READY version can be updated.")
                .arg(current->resourceName(), PredictionJson::versionStateName(current->state)));
    VersionResource updated = *current;
    for (const QString& field : patch->mask) {
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
    if (const FieldViolations scaling = versionScalingViolations(updated, m_context->hostInventory());
        !scaling.isEmpty())
        return decodeErrorReply(scaling);
    QString problem;
    const std::optional<OperationResource> op = m_prediction->updateVersion(*current, updated, &problem);
    if (!op)
        return storeFailure(QStringLiteral("the version's update"), problem);
    return jsonReply(op->toJson());
}

HttpApi::Reply VersionsHandler::deleteVersion(const QString& project, const QString& model, const QString& version)
{
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

HttpApi::Reply VersionsHandler::setDefaultVersion(const QString& project, const QString& model, const QString& version)
{
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

HttpApi::Reply VersionsHandler::versionInputSchema(const QString& project, const QString& model, const QString& version)
{
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    // A built-in algorithm's model folder records its training table's columns (preprocess.py's Preprocessor:
    // preprocessing.json); any other model answers {} (its instances are the model's own business).
    return jsonReply(
        BuiltInAlgorithms::inputSchemaJson(m_prediction->versionFolder(project, model, version) + QStringLiteral("/model")));
}

HttpApi::Reply VersionsHandler::versionMetrics(const QString& project, const QString& model, const QString& version)
{
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    return jsonReply(m_prediction->requestStats(*v));
}

HttpApi::Reply VersionsHandler::versionLogs(
    const ApiRequest& request, const QString& project, const QString& model, const QString& version)
{
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, version);
    if (!v)
        return versionNotFound(project, model, version);
    int size = 0;
    if (!parsePageSize(queryValue(request.query(), QStringLiteral("pageSize")), 100, 10000, &size))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative whole number"));
    return jsonReply(QJsonObject { { QStringLiteral("entries"), m_prediction->readLog(*v, size) } });
}

} // namespace Trainyard
