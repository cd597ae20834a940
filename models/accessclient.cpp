// SPDX-License-Identifier: GPL-2.0-or-later
#include "accessclient.h"
#include "apijson_p.h"
#include "rfc3339.h"

#include <QJsonDocument>

namespace Trainyard {

using ApiJson::pathSegment;
using ApiJson::typed;

IamPolicy IamPolicy::fromJson(const QJsonObject& json)
{
    IamPolicy policy;
    policy.other = json;
    for (const char* known : { "version", "etag", "bindings" })
        policy.other.remove(QLatin1String(known));
    policy.version = json.value(QStringLiteral("version")).toInt(1);
    policy.etag = json.value(QStringLiteral("etag")).toString();
    for (const QJsonValue& value : json.value(QStringLiteral("bindings")).toArray()) {
        const QJsonObject b = value.toObject();
        QJsonObject other = b;
        for (const char* known : { "role", "members", "condition" })
            other.remove(QLatin1String(known));
        policy.bindings.append({ b.value(QStringLiteral("role")).toString(),
            ApiJson::stringList(b.value(QStringLiteral("members"))), b.value(QStringLiteral("condition")).toObject(),
            other });
    }
    return policy;
}

QJsonObject IamPolicy::toJson() const
{
    QJsonObject json = other;
    json.insert(QStringLiteral("version"), version);
    if (!etag.isEmpty())
        json.insert(QStringLiteral("etag"), etag);
    if (!bindings.isEmpty()) {
        QJsonArray list;
        for (const IamBinding& b : bindings) {
            QJsonObject o = b.other;
            o.insert(QStringLiteral("role"), b.role);
            o.insert(QStringLiteral("members"), QJsonArray::fromStringList(b.members));
            if (!b.condition.isEmpty())
                o.insert(QStringLiteral("condition"), b.condition);
            list.append(o);
        }
        json.insert(QStringLiteral("bindings"), list);
    }
    return json;
}

bool IamPolicy::addBinding(const QString& role, const QString& member)
{
    for (IamBinding& b : bindings) {
        if (b.role != role || !b.condition.isEmpty())
            continue;
        if (b.members.contains(member))
            return false;
        b.members.append(member);
        return true;
    }
    bindings.append({ role, { member }, {}, {} });
    return true;
}

bool IamPolicy::removeBinding(const QString& role, const QString& member)
{
    for (qsizetype i = 0; i < bindings.size(); ++i) {
        IamBinding& b = bindings[i];
        if (b.role != role || !b.condition.isEmpty())
            continue;
        if (!b.members.removeOne(member))
            return false;
        if (b.members.isEmpty())
            bindings.removeAt(i);
        return true;
    }
    return false;
}

AccessToken AccessToken::fromJson(const QJsonObject& json)
{
    AccessToken t;
    t.name = json.value(QStringLiteral("name")).toString();
    t.member = json.value(QStringLiteral("member")).toString();
    t.role = json.value(QStringLiteral("role")).toString();
    t.createTime = Rfc3339::parse(json.value(QStringLiteral("createTime")).toString());
    t.expireTime = Rfc3339::parse(json.value(QStringLiteral("expireTime")).toString());
    t.revoked = json.value(QStringLiteral("revoked")).toBool();
    t.createdBy = json.value(QStringLiteral("createdBy")).toString();
    t.token = json.value(QStringLiteral("token")).toString();
    return t;
}

QJsonObject AccessToken::toJson() const
{
    QJsonObject json { { QStringLiteral("name"), name }, { QStringLiteral("member"), member },
        { QStringLiteral("role"), role }, { QStringLiteral("createTime"), Rfc3339::format(createTime) },
        { QStringLiteral("revoked"), revoked } };
    if (expireTime.isValid())
        json.insert(QStringLiteral("expireTime"), Rfc3339::format(expireTime));
    if (!createdBy.isEmpty())
        json.insert(QStringLiteral("createdBy"), createdBy);
    if (!token.isEmpty())
        json.insert(QStringLiteral("token"), token);
    return json;
}

AccessToken::State AccessToken::state(const QDateTime& now) const
{
    if (revoked)
        return State::Revoked;
    if (expireTime.isValid() && expireTime <= now)
        return State::Expired;
    return State::Active;
}

QString AccessToken::stateName(State state)
{
    switch (state) {
    case State::Revoked:
        return QStringLiteral("REVOKED");
    case State::Expired:
        return QStringLiteral("EXPIRED");
    case State::Active:
        break;
    }
    return QStringLiteral("ACTIVE");
}

AccessClient::AccessClient(ApiClient* client)
    : m_client(client)
{
}

QString AccessClient::resourcePath(Resource resource, const QString& id) const
{
    switch (resource) {
    case Resource::Project:
        return QStringLiteral("/v1/projects/") + pathSegment(id);
    case Resource::Job:
        return m_client->projectPath(QStringLiteral("/jobs/") + pathSegment(id));
    case Resource::Model:
        break;
    }
    return m_client->projectPath(QStringLiteral("/models/") + pathSegment(id));
}

void AccessClient::getIamPolicy(Resource resource, const QString& id, QObject* context, Callback<IamPolicy> done)
{
    m_client->request("POST", resourcePath(resource, id) + QStringLiteral(":getIamPolicy"), {}, "{}", context,
        typed<IamPolicy>(std::move(done), [](const QJsonObject& o, ApiError*) { return IamPolicy::fromJson(o); }));
}

void AccessClient::setIamPolicy(
    Resource resource, const QString& id, const IamPolicy& policy, QObject* context, Callback<IamPolicy> done)
{
    const QByteArray body
        = QJsonDocument(QJsonObject { { QStringLiteral("policy"), policy.toJson() } }).toJson(QJsonDocument::Compact);
    m_client->request("POST", resourcePath(resource, id) + QStringLiteral(":setIamPolicy"), {}, body, context,
        typed<IamPolicy>(std::move(done), [](const QJsonObject& o, ApiError*) { return IamPolicy::fromJson(o); }));
}

void AccessClient::createToken(const QString& member, const QString& role, const QDateTime& expireTime,
    QObject* context, Callback<AccessToken> done)
{
    QJsonObject body { { QStringLiteral("member"), member }, { QStringLiteral("role"), role } };
    if (expireTime.isValid())
        body.insert(QStringLiteral("expireTime"), Rfc3339::format(expireTime));
    m_client->request("POST", QStringLiteral("/v1/tokens"), {}, QJsonDocument(body).toJson(QJsonDocument::Compact),
        context,
        typed<AccessToken>(std::move(done), [](const QJsonObject& o, ApiError*) { return AccessToken::fromJson(o); }));
}

void AccessClient::listTokens(QObject* context, Callback<QList<AccessToken>> done)
{
    m_client->request("GET", QStringLiteral("/v1/tokens"), {}, {}, context,
        typed<QList<AccessToken>>(std::move(done), [](const QJsonObject& o, ApiError*) {
            QList<AccessToken> tokens;
            for (const QJsonValue& t : o.value(QStringLiteral("tokens")).toArray())
                tokens.append(AccessToken::fromJson(t.toObject()));
            return tokens;
        }));
}

void AccessClient::revokeToken(const QString& id, QObject* context, Callback<bool> done)
{
    const QString bare = id.startsWith(QLatin1String("tokens/")) ? id.mid(7) : id;
    m_client->request("POST", QStringLiteral("/v1/tokens/") + pathSegment(bare) + QStringLiteral(":revoke"), {}, {},
        context, typed<bool>(std::move(done), [](const QJsonObject&, ApiError*) { return true; }));
}

ApiResult<IamPolicy> AccessClient::getIamPolicyBlocking(Resource resource, const QString& id)
{
    return ApiJson::blocking<IamPolicy>(
        [&](QObject* ctx, Callback<IamPolicy> cb) { getIamPolicy(resource, id, ctx, std::move(cb)); });
}

ApiResult<IamPolicy> AccessClient::setIamPolicyBlocking(Resource resource, const QString& id, const IamPolicy& policy)
{
    return ApiJson::blocking<IamPolicy>(
        [&](QObject* ctx, Callback<IamPolicy> cb) { setIamPolicy(resource, id, policy, ctx, std::move(cb)); });
}

ApiResult<AccessToken> AccessClient::createTokenBlocking(
    const QString& member, const QString& role, const QDateTime& expireTime)
{
    return ApiJson::blocking<AccessToken>(
        [&](QObject* ctx, Callback<AccessToken> cb) { createToken(member, role, expireTime, ctx, std::move(cb)); });
}

ApiResult<QList<AccessToken>> AccessClient::listTokensBlocking()
{
    return ApiJson::blocking<QList<AccessToken>>(
        [&](QObject* ctx, Callback<QList<AccessToken>> cb) { listTokens(ctx, std::move(cb)); });
}

ApiResult<bool> AccessClient::revokeTokenBlocking(const QString& id)
{
    return ApiJson::blocking<bool>([&](QObject* ctx, Callback<bool> cb) { revokeToken(id, ctx, std::move(cb)); });
}

} // namespace Trainyard
