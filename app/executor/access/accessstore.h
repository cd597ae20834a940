// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "iampolicy.h"
#include "sqlitefile.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Trainyard {

/// One access token as stored: never the token itself, only its SHA-256.
struct TokenRecord {
    QString id; ///< 16 lower-case hex digits; the token's name is "tokens/<id>"
    QString member; ///< the principal it authenticates ("user:alice@example.org")
    QString role; ///< the role it grants on every project (roles/ml.admin, roles/ml.developer, roles/ml.viewer)
    QDateTime createTime; ///< UTC
    QDateTime expireTime; ///< UTC; invalid: never expires
    bool revoked = false;
    QString createdBy; ///< the principal that created it

    /// Expired at `now` (UTC).
    bool isExpired(const QDateTime& now) const { return expireTime.isValid() && expireTime <= now; }
    /// The API's JSON (app/executor/API.md, "Access tokens"): `name`, `member`, `role`, `createTime`,
    /// `expireTime` (absent: never), `revoked`, `createdBy`; RFC 3339 times. Never the token.
    QJsonObject toJson() const;
};

/// The executor's access data in SQLite (QSQLITE, WAL, synchronous=FULL, one transaction per write, like
/// JobStore), in its own file next to the job database (`<dataDir>/access.sqlite`): the access tokens made
/// with `POST /v1/tokens` and the IAM policies set on projects and jobs. The admin's token (the token file) is
/// not here: it lives only as long as the executor that wrote it.
///
/// Schema 1: `tokens(id PRIMARY KEY, hash UNIQUE, member, role, create_time, expire_time, revoked, created_by)`
/// (hash: lower-case hex SHA-256 of the token's bytes), `policies(resource PRIMARY KEY, json, update_time)`
/// (resource: "projects/p" or "projects/p/jobs/j"; json: the Policy's JSON), `meta(key, value)`
/// (schemaVersion). A file of a newer schema is refused, never changed.
///
/// Main thread, as the API that uses it; not thread-safe.
class AccessStore {
public:
    AccessStore();
    ~AccessStore();
    AccessStore(const AccessStore&) = delete;
    AccessStore& operator=(const AccessStore&) = delete;

    /// Opens (creating when needed) `path`. False and *error on failure.
    bool open(const QString& path, QString* error);

    /// Stores a new token for `member` with `role` (both already validated by the caller), expiring at
    /// `expireTime` (invalid: never), made by `createdBy`. The token itself (`tyk_` and 43 base64url
    /// characters: 256 random bits from the system's generator) goes to *secret, once; only its hash is kept.
    std::optional<TokenRecord> createToken(const QString& member, const QString& role, const QDateTime& expireTime,
        const QString& createdBy, QByteArray* secret, QString* error);
    /// Every token, oldest first.
    QList<TokenRecord> tokens() const;
    /// The token `id`; nullopt when there is none.
    std::optional<TokenRecord> token(const QString& id) const;
    /// Marks `id` revoked (again: no change). False with *error when there is no such token or the write failed;
    /// *found tells which.
    bool revokeToken(const QString& id, bool* found, QString* error);
    /// The record of the token whose bytes are `secret` (looked up by hash), revoked and expired ones included;
    /// nullopt when no token has that hash.
    std::optional<TokenRecord> findToken(const QByteArray& secret) const;
    /// Lower-case hex SHA-256 of `secret`: what is stored.
    static QByteArray hashOf(const QByteArray& secret);

    /// The policy set on `resource` ("projects/p", "projects/p/jobs/j"); nullopt when none was ever set.
    std::optional<Iam::Policy> policy(const QString& resource) const;
    /// Replaces the policy of `resource` (normalized first). False with *error when the write failed.
    bool setPolicy(const QString& resource, const Iam::Policy& policy, QString* error);

private:
    SqliteFile m_file { QStringLiteral("trainyard-access") };
    /// m_file's, for the queries.
    const QString m_connectionName = m_file.connectionName();
    /// Policies read or written, by resource (nullopt: none stored), so that a request by a principal who is
    /// not the admin costs no SQL for the project's policy. Only this process writes the file.
    mutable QHash<QString, std::optional<Iam::Policy>> m_policyCache;
    /// Tokens found by findToken(), by hash: a request with an access token costs a SHA-256 and a hash lookup, not a
    /// query (a query cost about 100 µs per request). Updated by revokeToken(); only tokens that exist are kept, so
    /// guesses cannot grow it; bounded.
    mutable QHash<QByteArray, TokenRecord> m_tokenCache;
};

} // namespace Trainyard
