// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditstore.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>
#include <limits>

namespace Trainyard {

namespace {
constexpr int SchemaVersion = 1;

/// The project an entry's logName names ("projects/p/logs/…" → "p").
QString projectOf(const QJsonObject& entry)
{
    const QString name = entry.value(QLatin1String("logName")).toString();
    const QStringList parts = name.split(QLatin1Char('/'));
    return parts.size() >= 2 && parts.first() == QLatin1String("projects") ? parts.at(1) : QStringLiteral("-");
}
} // namespace

AuditStore::AuditStore()
{
    static std::atomic<int> counter { 0 };
    m_connectionName = QStringLiteral("trainyard-audit-%1").arg(counter.fetch_add(1));
}

AuditStore::~AuditStore()
{
    if (QSqlDatabase::contains(m_connectionName)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
            if (m_inTransaction)
                db.rollback();
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

bool AuditStore::isOpen() const
{
    return QSqlDatabase::contains(m_connectionName);
}

bool AuditStore::open(const QString& path, QString* error)
{
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        if (QSqlDatabase::contains(m_connectionName)) {
            QSqlDatabase::database(m_connectionName, false).close();
            QSqlDatabase::removeDatabase(m_connectionName);
        }
        return false;
    };
    if (isOpen())
        return fail(QStringLiteral("the audit store is already open"));
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return fail(QStringLiteral("cannot create folder %1").arg(info.absolutePath()));
    QString problem;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
        db.setDatabaseName(info.absoluteFilePath());
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open())
            return fail(QStringLiteral("cannot open %1: %2").arg(info.absoluteFilePath(), db.lastError().text()));
        QSqlQuery query(db);
        // An audit entry is on disk before the call it records is answered (synchronous=FULL), as a job's create.
        const QStringList setup {
            QStringLiteral("PRAGMA journal_mode=WAL"),
            QStringLiteral("PRAGMA synchronous=FULL"),
            QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT)"),
        };
        for (const QString& statement : setup) {
            if (problem.isEmpty() && !query.exec(statement))
                problem = statement + QStringLiteral(": ") + query.lastError().text();
        }
        int version = 0;
        if (problem.isEmpty() && query.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schemaVersion'"))
            && query.next())
            version = query.value(0).toInt();
        if (problem.isEmpty() && version > SchemaVersion)
            problem = QStringLiteral("%1 was written by a newer Trainyard (schema %2, this one knows %3)")
                          .arg(info.absoluteFilePath())
                          .arg(version)
                          .arg(SchemaVersion);
        const QStringList schema {
            QStringLiteral("CREATE TABLE IF NOT EXISTS entries (seq INTEGER PRIMARY KEY NOT NULL, "
                           "project TEXT NOT NULL, log_kind TEXT NOT NULL, json TEXT NOT NULL)"),
            QStringLiteral("CREATE INDEX IF NOT EXISTS entries_project ON entries(project, seq)"),
            QStringLiteral("INSERT OR REPLACE INTO meta(key, value) VALUES ('schemaVersion', '%1')").arg(SchemaVersion),
        };
        for (const QString& statement : schema) {
            if (problem.isEmpty() && !query.exec(statement))
                problem = QStringLiteral("cannot set up %1 (%2: %3)")
                              .arg(info.absoluteFilePath(), statement, query.lastError().text());
        }
        // The chain's head: the last row as stored (its bytes are what the next prev-hash covers, even when they
        // were changed behind the executor's back: `audit verify` reports that, the chain goes on from what is there).
        m_lastSeq = 0;
        m_lastHash = Audit::genesisHash();
        if (problem.isEmpty() && query.exec(QStringLiteral("SELECT seq, json FROM entries ORDER BY seq DESC LIMIT 1"))
            && query.next()) {
            m_lastSeq = query.value(0).toLongLong();
            m_lastHash = Audit::entryHash(QJsonDocument::fromJson(query.value(1).toByteArray()).object());
        }
    }
    if (!problem.isEmpty())
        return fail(problem);
    return true;
}

bool AuditStore::begin(QString* error)
{
    if (!isOpen()) {
        *error = QStringLiteral("the audit store is not open");
        return false;
    }
    if (m_inTransaction) {
        *error = QStringLiteral("an audit transaction is already open");
        return false;
    }
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    // IMMEDIATE takes the write lock now: a file that cannot be written (read-only, locked past the busy
    // timeout) is found before the call that needs an entry runs.
    if (!query.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
        *error = query.lastError().text();
        return false;
    }
    m_inTransaction = true;
    m_txSeq = m_lastSeq;
    m_txHash = m_lastHash;
    return true;
}

bool AuditStore::commit(QString* error)
{
    if (!m_inTransaction)
        return true;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    m_inTransaction = false;
    if (!query.exec(QStringLiteral("COMMIT"))) {
        *error = query.lastError().text();
        QSqlQuery(QSqlDatabase::database(m_connectionName)).exec(QStringLiteral("ROLLBACK"));
        m_lastSeq = m_txSeq;
        m_lastHash = m_txHash;
        return false;
    }
    return true;
}

void AuditStore::rollback()
{
    if (!m_inTransaction)
        return;
    m_inTransaction = false;
    QSqlQuery(QSqlDatabase::database(m_connectionName)).exec(QStringLiteral("ROLLBACK"));
    m_lastSeq = m_txSeq;
    m_lastHash = m_txHash;
}

std::optional<QJsonObject> AuditStore::append(QJsonObject entry, QString* error)
{
    if (!isOpen()) {
        *error = QStringLiteral("the audit store is not open");
        return std::nullopt;
    }
    const qint64 seq = m_lastSeq + 1;
    entry.insert(QStringLiteral("insertId"), Audit::insertIdFor(seq));
    QJsonObject labels = entry.value(QLatin1String("labels")).toObject();
    labels.insert(Audit::prevHashLabel(), QString::fromLatin1(m_lastHash));
    entry.insert(QStringLiteral("labels"), labels);
    const QByteArray bytes = Audit::canonicalBytes(entry);
    const QString kind
        = Audit::logKindOf(entry.value(QLatin1String("logName")).toString()) == Audit::LogKind::DataAccess
        ? QStringLiteral("data_access")
        : QStringLiteral("activity");
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("INSERT INTO entries(seq, project, log_kind, json) VALUES (?, ?, ?, ?)"));
    query.addBindValue(seq);
    query.addBindValue(projectOf(entry));
    query.addBindValue(kind);
    query.addBindValue(QString::fromUtf8(bytes));
    if (!query.exec()) {
        *error = QStringLiteral("cannot store the audit entry: ") + query.lastError().text();
        return std::nullopt;
    }
    m_lastSeq = seq;
    m_lastHash = Audit::entryHash(entry);
    return entry;
}

QList<QJsonObject> AuditStore::read(const QString& project, qint64 before, int pageSize,
    const std::function<bool(const QJsonObject&)>& accept, qint64* next) const
{
    QList<QJsonObject> entries;
    *next = 0;
    if (!isOpen() || pageSize <= 0)
        return entries;
    const bool all = project == QLatin1String("-");
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);
    query.prepare(all ? QStringLiteral("SELECT seq, json FROM entries WHERE seq < ? ORDER BY seq DESC")
                      : QStringLiteral("SELECT seq, json FROM entries WHERE seq < ? AND project IN (?, '-') "
                                       "ORDER BY seq DESC"));
    query.addBindValue(before > 0 ? before : std::numeric_limits<qint64>::max());
    if (!all)
        query.addBindValue(project);
    if (!query.exec())
        return entries;
    qint64 lastTaken = 0;
    while (query.next()) {
        if (entries.size() == pageSize) {
            // One more row exists: the next page starts below the last one taken.
            *next = lastTaken;
            break;
        }
        const qint64 seq = query.value(0).toLongLong();
        const QJsonObject entry = QJsonDocument::fromJson(query.value(1).toByteArray()).object();
        if (!accept || accept(entry)) {
            entries.append(entry);
            lastTaken = seq;
        }
    }
    return entries;
}

} // namespace Trainyard
