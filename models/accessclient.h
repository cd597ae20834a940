// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "apiclient.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// One `bindings[]` entry of a google.iam.v1.Policy as a client reads it: a role, its members and (kept only to be
/// written back unchanged, the executor refuses them) a condition.
struct IamBinding {
    QString role; ///< "roles/ml.viewer"
    QStringList members; ///< "user:alice@example.org", in the executor's order
    QJsonObject condition; ///< google.type.Expr; empty: none
    QJsonObject other; ///< fields this client does not know, written back unchanged (the executor judges them)
    bool operator==(const IamBinding&) const = default;
};

/// A google.iam.v1.Policy as getIamPolicy answers it and setIamPolicy takes it
/// (`{"version":1,"etag":"BwXu…","bindings":[{"role":…,"members":[…]}]}`, the service's JSON;
/// app/executor/API.md "IAM policies"). The client side of app/executor/access/iampolicy.h's Policy: it keeps what
/// it read (order, etag) so that a read, change, write round trip sends back exactly what it did not change.
struct IamPolicy {
    int version = 1;
    QString etag; ///< the executor's; sent back, a policy changed since it was read is refused (ABORTED)
    QList<IamBinding> bindings;
    QJsonObject other; ///< fields this client does not know (auditConfigs…), written back unchanged

    /// Lenient: absent fields stay at their defaults, unknown ones are kept in `other`.
    static IamPolicy fromJson(const QJsonObject& json);
    /// The service's JSON; an empty etag and empty bindings are left out.
    QJsonObject toJson() const;

    /// Grants `role` to `member` in the unconditional binding of `role` (made when there is none). False when the
    /// member already held it (nothing changed). The rule of gcloud's add-iam-policy-binding.
    bool addBinding(const QString& role, const QString& member);
    /// Takes `role` from `member` in the unconditional binding of `role`, dropping a binding left without members.
    /// False when there was no such grant (gcloud: "Policy binding with the specified principal, role, and
    /// condition not found!").
    bool removeBinding(const QString& role, const QString& member);
};

/// One access token as `POST /v1/tokens` and `GET /v1/tokens` answer it (app/executor/API.md "Access tokens").
struct AccessToken {
    enum class State { Active, Expired, Revoked };

    QString name; ///< "tokens/0123456789abcdef"
    QString member; ///< the principal it authenticates
    QString role; ///< the role it grants on every project
    QDateTime createTime; ///< UTC
    QDateTime expireTime; ///< UTC; invalid: never expires
    bool revoked = false;
    QString createdBy;
    QString token; ///< the secret: only in the answer of the create call, never again

    static AccessToken fromJson(const QJsonObject& json);
    /// The API's JSON (RFC 3339 times, expireTime left out when it never expires; `token` only when set).
    QJsonObject toJson() const;
    /// The token's ID: the name without "tokens/".
    QString id() const { return name.section(QLatin1Char('/'), 1); }
    /// Revoked, else expired at `now`, else active.
    State state(const QDateTime& now) const;
    /// "ACTIVE", "EXPIRED" or "REVOKED", as `auth tokens list` prints the state.
    static QString stateName(State state);
};

/// The typed calls of the executor's access surface: IAM policies on a project, a job or a model (the service's
/// getIamPolicy/setIamPolicy) and access tokens (`/v1/tokens`, ours), over an ApiClient's transport and trust. Async
/// calls take a `context` and a callback as ApiClient's; `…Blocking` ones run a local event loop (trainyardctl).
/// Not thread-safe.
class AccessClient {
public:
    template <typename T> using Callback = ApiClient::Callback<T>;

    /// Which resource a policy belongs to.
    enum class Resource { Project, Job, Model };

    /// Calls go through `client` (not owned; it must outlive this).
    explicit AccessClient(ApiClient* client);

    /// The resource's path: "/v1/projects/{project}" for a project (`id` is the project), else
    /// "/v1/projects/{client's project}/jobs/{id}" or "…/models/{id}".
    QString resourcePath(Resource resource, const QString& id) const;

    void getIamPolicy(Resource resource, const QString& id, QObject* context, Callback<IamPolicy> done);
    /// Replaces the policy (its etag, when set, is checked: ABORTED when the policy changed since).
    void setIamPolicy(
        Resource resource, const QString& id, const IamPolicy& policy, QObject* context, Callback<IamPolicy> done);
    /// Creates a token for `member` with `role`, expiring at `expireTime` (invalid: never). The answer holds the
    /// secret (AccessToken::token).
    void createToken(const QString& member, const QString& role, const QDateTime& expireTime, QObject* context,
        Callback<AccessToken> done);
    /// Every token, oldest first.
    void listTokens(QObject* context, Callback<QList<AccessToken>> done);
    /// Revokes the token with ID `id` ("0123…", or its name "tokens/0123…").
    void revokeToken(const QString& id, QObject* context, Callback<bool> done);

    ApiResult<IamPolicy> getIamPolicyBlocking(Resource resource, const QString& id);
    ApiResult<IamPolicy> setIamPolicyBlocking(Resource resource, const QString& id, const IamPolicy& policy);
    ApiResult<AccessToken> createTokenBlocking(const QString& member, const QString& role, const QDateTime& expireTime);
    ApiResult<QList<AccessToken>> listTokensBlocking();
    ApiResult<bool> revokeTokenBlocking(const QString& id);

private:
    ApiClient* m_client;
};

} // namespace Trainyard
