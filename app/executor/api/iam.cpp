// SPDX-License-Identifier: GPL-2.0-or-later
// Access control: what a caller holds on a project or a job (the router asks before every handler), the IAM
// methods of google.iam.v1.IAMPolicy on projects and jobs, and the access tokens (our extension).
#include "apicommon.h"
#include "httpapi.h"

#include "accessstore.h"
#include "jobstore.h"
#include "prediction.h"
#include "predictionservice.h"
#include "rfc3339.h"

#include <QDateTime>
#include <QJsonArray>

#include <pwd.h>
#include <unistd.h>

namespace Trainyard {

using namespace Api;

namespace {

QString projectResource(const QString& project)
{
    return QStringLiteral("projects/") + project;
}

QString resourceOf(const QString& project, const QString& jobId, const QString& modelId = QString())
{
    if (!modelId.isEmpty())
        return PredictionJson::modelResourceName(project, modelId);
    return jobId.isEmpty() ? projectResource(project) : jobName(project, jobId);
}

/// A request body that may be empty (getIamPolicy's): an empty object then.
std::optional<QJsonObject> optionalBody(const QByteArray& body, HttpApi::Reply* error)
{
    if (body.trimmed().isEmpty())
        return QJsonObject {};
    return parseBody(body, error);
}

/// The roles a token may carry: granted on every project, so not roles/ml.jobOwner, which is granted on a job.
bool isTokenRole(const QString& role)
{
    return role == Iam::Role::admin() || role == Iam::Role::developer() || role == Iam::Role::viewer()
        || role == Iam::Role::modelOwner() || role == Iam::Role::modelUser();
}

} // namespace

QString HttpApi::defaultAdminMember()
{
    // The login of the user the process runs as (not $USER, which the environment may say anything in).
    QString login;
    if (const passwd* entry = ::getpwuid(::getuid()); entry && entry->pw_name)
        login = QString::fromLocal8Bit(entry->pw_name);
    if (login.isEmpty())
        login = QStringLiteral("executor");
    // arg(), not QStringBuilder: GCC 12 warns (-Warray-bounds) on a concatenation it thinks may copy from the
    // shared empty string, once a unity build inlines this here.
    return QStringLiteral("user:%1@localhost").arg(login);
}

void HttpApi::setAccessControl(AccessStore* access, const QString& admin)
{
    m_access = access;
    m_adminMember = admin.isEmpty() ? defaultAdminMember() : admin;
}

Iam::Policy HttpApi::projectPolicy(const QString& project) const
{
    if (!m_access)
        return {};
    return m_access->policy(projectResource(project)).value_or(Iam::Policy {});
}

Iam::Policy HttpApi::jobPolicy(const QString& project, const QString& jobId) const
{
    if (m_access) {
        if (std::optional<Iam::Policy> set = m_access->policy(jobName(project, jobId)))
            return *set;
    }
    return Iam::defaultJobPolicy(m_store->creator(project, jobId));
}

Iam::Policy HttpApi::modelPolicy(const QString& project, const QString& modelId) const
{
    if (m_access) {
        if (std::optional<Iam::Policy> set = m_access->policy(resourceOf(project, QString(), modelId)))
            return *set;
    }
    return {};
}

bool HttpApi::modelExists(const QString& project, const QString& modelId) const
{
    return m_prediction && m_prediction->store()->model(project, modelId).has_value();
}

QSet<QString> HttpApi::permissionsOn(
    const Caller& caller, const QString& project, const QString& jobId, const QString& modelId) const
{
    if (project.isEmpty()) // executor-wide routes (tokens): the token's role alone
        return Iam::permissionsOf(caller.role);
    std::optional<Iam::Policy> resource;
    if (!jobId.isEmpty() && m_store->contains(project, jobId))
        resource = jobPolicy(project, jobId);
    else if (!modelId.isEmpty() && modelExists(project, modelId))
        resource = modelPolicy(project, modelId); // the model's, for it and its versions (as the service's)
    return Iam::effectivePermissions(
        caller.member, caller.role, projectPolicy(project), resource ? &*resource : nullptr);
}

bool HttpApi::permitted(const Caller& caller, const QString& permission, const QString& project, const QString& jobId,
    const QString& modelId) const
{
    // The token's role first: it decides every request of the admin (and most others) without a lookup.
    if (Iam::permissionsOf(caller.role).contains(permission))
        return true;
    return permissionsOn(caller, project, jobId, modelId).contains(permission);
}

HttpApi::Reply HttpApi::getIamPolicy(
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
        if (!modelExists(project, modelId))
            return modelNotFound(project, modelId);
        return jsonReply(modelPolicy(project, modelId).toJson());
    }
    if (!jobId.isEmpty()) {
        if (!m_store->contains(project, jobId))
            return jobNotFound(project, jobId);
        return jsonReply(jobPolicy(project, jobId).toJson());
    }
    return jsonReply(projectPolicy(project).toJson());
}

HttpApi::Reply HttpApi::setIamPolicy(
    const ApiRequest& request, const QString& project, const QString& jobId, const QString& modelId)
{
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations;
    for (auto it = body->begin(); it != body->end(); ++it) {
        if (it.key() != QLatin1String("policy") && it.key() != QLatin1String("updateMask"))
            violations.append({ it.key(), QStringLiteral("unknown field") });
    }
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
    if (!modelId.isEmpty() && !modelExists(project, modelId))
        return modelNotFound(project, modelId);
    if (!m_access)
        return errorReply(RpcCode::Unavailable,
            QStringLiteral("This executor keeps no IAM policies (it was started without an access store)."));
    const Iam::Policy current = !modelId.isEmpty() ? modelPolicy(project, modelId)
        : jobId.isEmpty()                          ? projectPolicy(project)
                                                   : jobPolicy(project, jobId);
    // Read-modify-write: a policy read before someone else's change must not overwrite it (google.iam.v1's etag).
    if (!etag.isEmpty() && etag != current.etag())
        return errorReply(RpcCode::Aborted,
            QStringLiteral("There were concurrent policy changes. Please retry the whole read-modify-write with "
                           "exponential backoff. The request's etag '%1' did not match the current policy's etag '%2'.")
                .arg(etag, current.etag()));
    QString storeError;
    if (!m_access->setPolicy(resourceOf(project, jobId, modelId), policy, &storeError))
        return storeFailure(QStringLiteral("the policy"), storeError);
    return jsonReply(policy.normalized().toJson());
}

HttpApi::Reply HttpApi::testIamPermissions(const ApiRequest& request, const Caller& caller, const QString& project,
    const QString& jobId, const QString& modelId)
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
    const bool exists
        = !modelId.isEmpty() ? modelExists(project, modelId) : (jobId.isEmpty() || m_store->contains(project, jobId));
    if (exists) {
        const QSet<QString> permissions = permissionsOn(caller, project, jobId, modelId);
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

HttpApi::Reply HttpApi::createToken(const ApiRequest& request, const Caller& caller)
{
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations;
    for (auto it = body->begin(); it != body->end(); ++it) {
        if (it.key() != QLatin1String("member") && it.key() != QLatin1String("role")
            && it.key() != QLatin1String("expireTime"))
            violations.append({ it.key(), QStringLiteral("unknown field") });
    }
    const QString member = body->value(QStringLiteral("member")).toString();
    QString why;
    if (member.isEmpty())
        violations.append({ QStringLiteral("member"), QStringLiteral("is required (\"user:EMAIL\")") });
    else if (!Iam::isValidMember(member, &why))
        violations.append({ QStringLiteral("member"), why });
    const QString role = body->value(QStringLiteral("role")).toString();
    if (role == Iam::Role::jobOwner())
        violations.append({ QStringLiteral("role"),
            QStringLiteral("roles/ml.jobOwner is granted on a job (its creator holds it; setIamPolicy on the job "
                           "grants it to others), not with a token; use roles/ml.admin, roles/ml.developer, "
                           "roles/ml.viewer, roles/ml.modelOwner or roles/ml.modelUser") });
    else if (!isTokenRole(role))
        violations.append({ QStringLiteral("role"),
            QStringLiteral("must be one of roles/ml.admin, roles/ml.developer, roles/ml.viewer, roles/ml.modelOwner, "
                           "roles/ml.modelUser (got \"%1\")")
                .arg(role) });
    QDateTime expireTime;
    if (body->contains(QStringLiteral("expireTime"))) {
        const QString text = body->value(QStringLiteral("expireTime")).toString();
        expireTime = Rfc3339::parse(text);
        if (!expireTime.isValid() || !text.contains(QLatin1Char('T')))
            violations.append({ QStringLiteral("expireTime"),
                QStringLiteral("must be an RFC 3339 time such as \"2026-12-01T00:00:00Z\" (got \"%1\")").arg(text) });
        else if (expireTime <= QDateTime::currentDateTimeUtc())
            violations.append({ QStringLiteral("expireTime"), QStringLiteral("must lie in the future") });
    }
    if (!violations.isEmpty())
        return errorReply(
            RpcCode::InvalidArgument, QStringLiteral("Request contains an invalid argument."), violations);
    if (!m_access)
        return errorReply(RpcCode::Unavailable,
            QStringLiteral("This executor keeps no access tokens (it was started without an access store)."));
    QByteArray secret;
    QString storeError;
    const std::optional<TokenRecord> record
        = m_access->createToken(member, role, expireTime, caller.member, &secret, &storeError);
    if (!record)
        return storeFailure(QStringLiteral("the token"), storeError);
    QJsonObject json = record->toJson();
    json.insert(QStringLiteral("token"), QString::fromLatin1(secret));
    return jsonReply(json);
}

HttpApi::Reply HttpApi::listTokens()
{
    QJsonArray list;
    if (m_access) {
        const QList<TokenRecord> tokens = m_access->tokens();
        for (const TokenRecord& token : tokens)
            list.append(token.toJson());
    }
    QJsonObject answer;
    if (!list.isEmpty())
        answer.insert(QStringLiteral("tokens"), list);
    return jsonReply(answer);
}

HttpApi::Reply HttpApi::revokeToken(const QString& id)
{
    bool found = false;
    QString storeError;
    if (!m_access || !m_access->revokeToken(id, &found, &storeError)) {
        if (!found)
            return errorReply(RpcCode::NotFound, QStringLiteral("There is no token tokens/%1.").arg(id));
        return storeFailure(QStringLiteral("the token's revocation"), storeError);
    }
    // The token's open streams end now, not when their client next asks for something.
    endStreamsOfInvalidTokens(id);
    return jsonReply(m_access->token(id).value_or(TokenRecord {}).toJson());
}

} // namespace Trainyard
