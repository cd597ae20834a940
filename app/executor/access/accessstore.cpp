// SPDX-License-Identifier: GPL-2.0-or-later
#include "accessstore.h"
#include "rfc3339.h"
#include "sha256.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcAccess, "trainyard.executor")

constexpr int AccessSchemaVersion = 1;

TokenRecord recordOf(const QSqlQuery& query)
{
    // Columns in the order of tokenColumns.
    TokenRecord r;
    r.id = query.value(0).toString();
    r.member = query.value(1).toString();
    r.role = query.value(2).toString();
    r.createTime = Rfc3339::parse(query.value(3).toString());
    r.expireTime = Rfc3339::parse(query.value(4).toString());
    r.revoked = query.value(5).toInt() != 0;
    r.createdBy = query.value(6).toString();
    return r;
}

const QLatin1String tokenColumns("id, member, role, create_time, expire_time, revoked, created_by");

} // namespace

QJsonObject TokenRecord::toJson() const
{
    QJsonObject json {
        { QStringLiteral("name"), QString(QStringLiteral("tokens/") + id) },
        { QStringLiteral("member"), member },
        { QStringLiteral("role"), role },
        { QStringLiteral("createTime"), Rfc3339::format(createTime) },
        { QStringLiteral("revoked"), revoked },
    };
    if (expireTime.isValid())
        json.insert(QStringLiteral("expireTime"), Rfc3339::format(expireTime));
    if (!createdBy.isEmpty())
        json.insert(QStringLiteral("createdBy"), createdBy);
    return json;
}

AccessStore::AccessStore() = default;
AccessStore::~AccessStore() = default;

bool AccessStore::open(const QString& path, QString* error)
{
    // Tokens grant access: a token made must be on disk before its holder is told it (as a job's create).
    SqliteFile::Options options;
    options.synchronous = QStringLiteral("FULL");
    options.schemaVersion = AccessSchemaVersion;
    options.schema = {
        QStringLiteral("CREATE TABLE IF NOT EXISTS tokens (id TEXT PRIMARY KEY NOT NULL, "
                       "hash TEXT NOT NULL UNIQUE, member TEXT NOT NULL, role TEXT NOT NULL, "
                       "create_time TEXT NOT NULL, expire_time TEXT, revoked INTEGER NOT NULL DEFAULT 0, "
                       "created_by TEXT)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS policies (resource TEXT PRIMARY KEY NOT NULL, "
                       "json TEXT NOT NULL, update_time TEXT NOT NULL)"),
    };
    return m_file.open(path, options, error);
}

QByteArray AccessStore::hashOf(const QByteArray& secret)
{
    return sha256Hex(secret);
}

std::optional<TokenRecord> AccessStore::createToken(const QString& member, const QString& role,
    const QDateTime& expireTime, const QString& createdBy, QByteArray* secret, QString* error)
{
    if (!QSqlDatabase::contains(m_connectionName)) {
        *error = QStringLiteral("the access store is not open");
        return std::nullopt;
    }
    // 256 bits of the operating system's randomness: a token cannot be guessed, and only its hash is kept.
    QByteArray random(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(random.data()), random.size() / 4);
    QByteArray idBytes(8, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(idBytes.data()), idBytes.size() / 4);
    const QByteArray token = "tyk_" + random.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);

    TokenRecord record;
    record.id = QString::fromLatin1(idBytes.toHex());
    record.member = member;
    record.role = role;
    record.createTime = QDateTime::currentDateTimeUtc();
    record.expireTime = expireTime.isValid() ? expireTime.toUTC() : QDateTime();
    record.createdBy = createdBy;

    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("INSERT INTO tokens(id, hash, member, role, create_time, expire_time, revoked, "
                                 "created_by) VALUES (?, ?, ?, ?, ?, ?, 0, ?)"));
    query.addBindValue(record.id);
    query.addBindValue(QString::fromLatin1(hashOf(token)));
    query.addBindValue(record.member);
    query.addBindValue(record.role);
    query.addBindValue(Rfc3339::format(record.createTime));
    query.addBindValue(record.expireTime.isValid() ? QVariant(Rfc3339::format(record.expireTime)) : QVariant());
    query.addBindValue(record.createdBy);
    if (!query.exec()) {
        *error = QStringLiteral("cannot store the token: ") + query.lastError().text();
        return std::nullopt;
    }
    *secret = token;
    qCInfo(lcAccess).noquote() << "token" << record.id << "created for" << member << "with" << role << "by"
                               << createdBy;
    return record;
}

QList<TokenRecord> AccessStore::tokens() const
{
    QList<TokenRecord> list;
    if (!QSqlDatabase::contains(m_connectionName))
        return list;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    if (query.exec(QStringLiteral("SELECT %1 FROM tokens ORDER BY create_time, id").arg(tokenColumns))) {
        while (query.next())
            list.append(recordOf(query));
    }
    return list;
}

std::optional<TokenRecord> AccessStore::token(const QString& id) const
{
    if (!QSqlDatabase::contains(m_connectionName))
        return std::nullopt;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("SELECT %1 FROM tokens WHERE id = ?").arg(tokenColumns));
    query.addBindValue(id);
    if (query.exec() && query.next())
        return recordOf(query);
    return std::nullopt;
}

bool AccessStore::revokeToken(const QString& id, bool* found, QString* error)
{
    *found = token(id).has_value();
    if (!*found) {
        *error = QStringLiteral("there is no token %1").arg(id);
        return false;
    }
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("UPDATE tokens SET revoked = 1 WHERE id = ?"));
    query.addBindValue(id);
    if (!query.exec()) {
        *error = QStringLiteral("cannot revoke the token: ") + query.lastError().text();
        return false;
    }
    for (TokenRecord& cached : m_tokenCache) {
        if (cached.id == id)
            cached.revoked = true;
    }
    qCInfo(lcAccess).noquote() << "token" << id << "revoked";
    return true;
}

std::optional<TokenRecord> AccessStore::findToken(const QByteArray& secret) const
{
    if (secret.isEmpty())
        return std::nullopt;
    const QByteArray hash = hashOf(secret);
    // The cache holds tokens found in the open store (revoke() updates it): every request looks its token up, and
    // QSqlDatabase::contains() takes Qt's global lock of connections.
    const auto cached = m_tokenCache.constFind(hash);
    if (cached != m_tokenCache.cend())
        return *cached;
    if (!QSqlDatabase::contains(m_connectionName))
        return std::nullopt;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("SELECT %1 FROM tokens WHERE hash = ?").arg(tokenColumns));
    query.addBindValue(QString::fromLatin1(hash));
    if (!query.exec() || !query.next())
        return std::nullopt;
    const TokenRecord record = recordOf(query);
    if (m_tokenCache.size() > 4096)
        m_tokenCache.clear();
    m_tokenCache.insert(hash, record);
    return record;
}

std::optional<Iam::Policy> AccessStore::policy(const QString& resource) const
{
    const auto cached = m_policyCache.constFind(resource);
    if (cached != m_policyCache.cend())
        return *cached;
    std::optional<Iam::Policy> result;
    if (!QSqlDatabase::contains(m_connectionName))
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("SELECT json FROM policies WHERE resource = ?"));
    query.addBindValue(resource);
    if (query.exec() && query.next()) {
        FieldViolations violations;
        const Iam::Policy stored
            = Iam::Policy::fromJson(QJsonDocument::fromJson(query.value(0).toString().toUtf8()).object(),
                QStringLiteral("policy"), &violations);
        if (violations.isEmpty())
            result = stored;
        else // a policy this build cannot read grants nothing rather than something unintended
            qCWarning(lcAccess).noquote()
                << "stored policy of" << resource << "does not decode:" << violations.first().field
                << violations.first().description;
    }
    // Bounded: a policy per job read by principals other than the admin; cleared when large.
    if (m_policyCache.size() > 4096)
        m_policyCache.clear();
    m_policyCache.insert(resource, result);
    return result;
}

bool AccessStore::setPolicy(const QString& resource, const Iam::Policy& policy, QString* error)
{
    if (!QSqlDatabase::contains(m_connectionName)) {
        *error = QStringLiteral("the access store is not open");
        return false;
    }
    const Iam::Policy normalized = policy.normalized();
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("INSERT OR REPLACE INTO policies(resource, json, update_time) VALUES (?, ?, ?)"));
    query.addBindValue(resource);
    query.addBindValue(QString::fromUtf8(QJsonDocument(normalized.toJson()).toJson(QJsonDocument::Compact)));
    query.addBindValue(Rfc3339::format(QDateTime::currentDateTimeUtc()));
    if (!query.exec()) {
        *error = QStringLiteral("cannot store the policy of %1: %2").arg(resource, query.lastError().text());
        m_policyCache.remove(resource);
        return false;
    }
    m_policyCache.insert(resource, normalized);
    qCInfo(lcAccess).noquote() << "IAM policy of" << resource << "set";
    return true;
}

} // namespace Trainyard
