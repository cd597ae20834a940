// SPDX-License-Identifier: GPL-2.0-or-later
// Access tokens (our extension): create, list, revoke.
#include "tokenshandler.h"

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

/// The roles a token may carry: granted on every project, so not roles/ml.jobOwner, which is granted on a job.
bool isTokenRole(const QString& role)
{
    return role == Iam::Role::admin() || role == Iam::Role::developer() || role == Iam::Role::viewer()
        || role == Iam::Role::modelOwner() || role == Iam::Role::modelUser();
}

} // namespace

TokensHandler::TokensHandler(ApiContext* context, Authorizer* authorizer)
    : m_context(context)
    , m_authorizer(authorizer)
{
}

HttpApi::Reply TokensHandler::createToken(const ApiRequest& request, const HttpApi::Caller& caller)
{
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations
        = unknownFields(*body, { QLatin1String("member"), QLatin1String("role"), QLatin1String("expireTime") });
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
    if (!m_authorizer->accessStore())
        return errorReply(RpcCode::Unavailable,
            QStringLiteral("This executor keeps no access tokens (it was started without an access store)."));
    QByteArray secret;
    QString storeError;
    const std::optional<TokenRecord> record
        = m_authorizer->accessStore()->createToken(member, role, expireTime, caller.member, &secret, &storeError);
    if (!record)
        return storeFailure(QStringLiteral("the token"), storeError);
    QJsonObject json = record->toJson();
    json.insert(QStringLiteral("token"), QString::fromLatin1(secret));
    return jsonReply(json);
}

HttpApi::Reply TokensHandler::listTokens()
{
    QJsonArray list;
    if (m_authorizer->accessStore()) {
        const QList<TokenRecord> tokens = m_authorizer->accessStore()->tokens();
        for (const TokenRecord& token : tokens)
            list.append(token.toJson());
    }
    QJsonObject answer;
    if (!list.isEmpty())
        answer.insert(QStringLiteral("tokens"), list);
    return jsonReply(answer);
}

HttpApi::Reply TokensHandler::revokeToken(const QString& id)
{
    bool found = false;
    QString storeError;
    if (!m_authorizer->accessStore() || !m_authorizer->accessStore()->revokeToken(id, &found, &storeError)) {
        if (!found)
            return errorReply(RpcCode::NotFound, QStringLiteral("There is no token tokens/%1.").arg(id));
        return storeFailure(QStringLiteral("the token's revocation"), storeError);
    }
    // The token's open streams end now, not when their client next asks for something.
    m_context->endStreamsOfToken(id);
    return jsonReply(m_authorizer->accessStore()->token(id).value_or(TokenRecord {}).toJson());
}

} // namespace Trainyard
