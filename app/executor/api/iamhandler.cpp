// SPDX-License-Identifier: GPL-2.0-or-later
// The IAM methods of google.iam.v1.IAMPolicy on projects, jobs and models.
#include "iamhandler.h"

#include "accessstore.h"
#include "apicommon.h"
#include "apicontext.h"
#include "authorizer.h"
#include "jobstore.h"
#include "prediction.h"
#include "rfc3339.h"

#include <QDateTime>
#include <QJsonArray>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

namespace {

/// A request body that may be empty (getIamPolicy's): an empty object then.
std::optional<QJsonObject> optionalBody(const QByteArray& body, HttpApi::Reply* error)
{
    if (body.trimmed().isEmpty())
        return QJsonObject {};
    return parseBody(body, error);
}

} // namespace

IamHandler::IamHandler(Authorizer* authorizer, JobStore* store)
    : m_authorizer(authorizer)
    , m_store(store)
{
}

HttpApi::Reply IamHandler::getIamPolicy(
    const ApiRequest& request, const QString& project, const QString& jobId, const QString& modelId)
{
    Reply error;
    const auto body = optionalBody(request.body(), &error);
    if (!body)
        return error;
    // GetPolicyOptions.requestedPolicyVersion: 0, 1 and 3 are the service's values; this executor's policies
    // have no conditions, so every one of them gets a version 1 policy, as the service answers for such policies.
    const QString version = body->value(QStringLiteral("options"))
                                .toObject()
                                .value(QStringLiteral("requestedPolicyVersion"))
                                .toVariant()
                                .toString();
    const QString queryVersion = queryValue(request.query(), QStringLiteral("options.requestedPolicyVersion"));
    for (const QString& v : { version, queryVersion }) {
        if (!v.isEmpty() && v != QLatin1String("0") && v != QLatin1String("1") && v != QLatin1String("3"))
            return invalidArgument(
                QStringLiteral("options.requestedPolicyVersion"), QStringLiteral("must be 0, 1 or 3 (got %1)").arg(v));
    }
    if (!modelId.isEmpty()) {
        if (!m_authorizer->modelExists(project, modelId))
            return modelNotFound(project, modelId);
        return jsonReply(m_authorizer->modelPolicy(project, modelId).toJson());
    }
    if (!jobId.isEmpty()) {
        if (!m_store->contains(project, jobId))
            return jobNotFound(project, jobId);
        return jsonReply(m_authorizer->jobPolicy(project, jobId).toJson());
    }
    return jsonReply(m_authorizer->projectPolicy(project).toJson());
}

HttpApi::Reply IamHandler::setIamPolicy(
    const ApiRequest& request, const QString& project, const QString& jobId, const QString& modelId)
{
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations = unknownFields(*body, { QLatin1String("policy"), QLatin1String("updateMask") });
    // updateMask: the fields of the policy to change; the service's default is "bindings,etag".
    const QStringList mask
        = body->value(QStringLiteral("updateMask")).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& field : mask) {
        const QString f = field.trimmed();
        if (f != QLatin1String("bindings") && f != QLatin1String("etag") && f != QLatin1String("version"))
            violations.append({ QStringLiteral("updateMask"),
                QStringLiteral("\"%1\" cannot be set; only bindings, etag and version can").arg(f) });
    }
    if (!body->value(QStringLiteral("policy")).isObject())
        violations.append({ QStringLiteral("policy"), QStringLiteral("is required: the policy to set") });
    QString etag;
    const Iam::Policy policy = Iam::Policy::fromJson(
        body->value(QStringLiteral("policy")).toObject(), QStringLiteral("policy"), &violations, &etag);
    if (!violations.isEmpty())
        return errorReply(
            RpcCode::InvalidArgument, QStringLiteral("Request contains an invalid argument."), violations);
    if (!jobId.isEmpty() && !m_store->contains(project, jobId))
        return jobNotFound(project, jobId);
    if (!modelId.isEmpty() && !m_authorizer->modelExists(project, modelId))
        return modelNotFound(project, modelId);
    if (!m_authorizer->accessStore())
        return errorReply(RpcCode::Unavailable,
            QStringLiteral("This executor keeps no IAM policies (it was started without an access store)."));
    const Iam::Policy current = !modelId.isEmpty() ? m_authorizer->modelPolicy(project, modelId)
        : jobId.isEmpty()                          ? m_authorizer->projectPolicy(project)
                                                   : m_authorizer->jobPolicy(project, jobId);
    // Read-modify-write: a policy read before someone else's change must not overwrite it (google.iam.v1's etag).
    if (!etag.isEmpty() && etag != current.etag())
        return errorReply(RpcCode::Aborted,
            QStringLiteral("There were concurrent policy changes. Please retry the whole read-modify-write with "
                           "exponential backoff. The request's etag '%1' did not match the current policy's etag '%2'.")
                .arg(etag, current.etag()));
    QString storeError;
    if (!m_authorizer->accessStore()->setPolicy(Authorizer::resourceName(project, jobId, modelId), policy, &storeError))
        return storeFailure(QStringLiteral("the policy"), storeError);
    return jsonReply(policy.normalized().toJson());
}

HttpApi::Reply IamHandler::testIamPermissions(const ApiRequest& request, const HttpApi::Caller& caller,
    const QString& project, const QString& jobId, const QString& modelId)
{
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    const QJsonValue list = body->value(QStringLiteral("permissions"));
    if (!list.isArray())
        return invalidArgument(
            QStringLiteral("permissions"), QStringLiteral("is required: a list of permission names"));
    FieldViolations violations;
    QStringList asked;
    const QJsonArray array = list.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString permission = array.at(i).toString();
        const QString field = QStringLiteral("permissions[%1]").arg(i);
        // The service's rule: wildcards are not allowed in testIamPermissions.
        if (permission.isEmpty() || permission.contains(QLatin1Char('*')))
            violations.append({ field,
                QStringLiteral("must be a permission name; wildcards (such as '*' or 'ml.*') "
                               "are not allowed") });
        asked.append(permission);
    }
    if (!violations.isEmpty())
        return errorReply(
            RpcCode::InvalidArgument, QStringLiteral("Request contains an invalid argument."), violations);
    // The service: a resource that does not exist answers an empty set, not NOT_FOUND.
    QJsonArray held;
    const bool exists = !modelId.isEmpty() ? m_authorizer->modelExists(project, modelId)
                                           : (jobId.isEmpty() || m_store->contains(project, jobId));
    if (exists) {
        const QSet<QString> permissions = m_authorizer->permissionsOn(caller, project, jobId, modelId);
        for (const QString& permission : asked) {
            if (permissions.contains(permission) && !held.contains(permission))
                held.append(permission);
        }
    }
    QJsonObject answer;
    if (!held.isEmpty())
        answer.insert(QStringLiteral("permissions"), held);
    return jsonReply(answer);
}

} // namespace Trainyard
