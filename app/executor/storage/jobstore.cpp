// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobstore.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcStore, "trainyard.executor")

constexpr int SchemaVersion = 1;

QString nowRfc3339()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QByteArray encode(const Job& job)
{
    return QJsonDocument(JobJson::toJson(job)).toJson(QJsonDocument::Compact);
}

std::optional<Job> decode(const QByteArray& json, const QString& jobId)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        qCWarning(lcStore) << "stored record of job" << jobId << "is not a JSON object:" << parseError.errorString();
        return std::nullopt;
    }
    FieldViolations violations;
    Job job = JobJson::fromJson(doc.object(), &violations);
    if (!violations.isEmpty()) {
        qCWarning(lcStore) << "stored record of job" << jobId << "does not decode:" << violations.first().field
                           << violations.first().description;
        return std::nullopt;
    }
    return job;
}

QString sqlError(const QSqlQuery& query)
{
    return query.lastError().text();
}
} // namespace

QString JobStore::computeEtag(const Job& job)
{
    Job copy = job;
    copy.etag.clear();
    const QByteArray digest = QCryptographicHash::hash(encode(copy), QCryptographicHash::Sha256);
    // 9 bytes -> 12 base64 characters without padding: short, opaque, and collision-free in practice.
    return QString::fromLatin1(digest.left(9).toBase64());
}

JobStore::JobStore(QObject* parent)
    : QObject(parent)
{
    static std::atomic<int> counter { 0 };
    m_connectionName = QStringLiteral("trainyard-jobstore-%1").arg(counter.fetch_add(1));
}

JobStore::~JobStore()
{
    if (QSqlDatabase::contains(m_connectionName)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

bool JobStore::open(const QString& path, QString* error)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (QSqlDatabase::contains(m_connectionName))
        return fail(QStringLiteral("the job store is already open"));
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return fail(QStringLiteral("the Qt SQLite driver (QSQLITE) is not installed"));
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return fail(QStringLiteral("cannot create folder %1").arg(info.absolutePath()));

    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
        db.setDatabaseName(info.absoluteFilePath());
        // Another executor (or a crashed one's WAL checkpoint) may hold a lock briefly.
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open()) {
            const QString message = db.lastError().text();
            db = QSqlDatabase();
            QSqlDatabase::removeDatabase(m_connectionName);
            return fail(QStringLiteral("cannot open %1: %2").arg(info.absoluteFilePath(), message));
        }
    }
    QSqlDatabase db = QSqlDatabase::database(m_connectionName);
    QSqlQuery query(db);
    // WAL: readers never block the writer, and a commit is one sequential append.
    // synchronous=FULL: a commit is on disk before the call returns (a create must be durable
    // before the API answers), which NORMAL does not guarantee on power loss in WAL mode.
    const QStringList setup = {
        QStringLiteral("PRAGMA journal_mode=WAL"),
        QStringLiteral("PRAGMA synchronous=FULL"),
        QStringLiteral("PRAGMA foreign_keys=ON"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS jobs (job_id TEXT PRIMARY KEY NOT NULL, json TEXT NOT NULL, "
                       "state TEXT NOT NULL, create_time TEXT NOT NULL, seq INTEGER NOT NULL UNIQUE)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS transitions (job_id TEXT NOT NULL REFERENCES jobs(job_id), "
                       "state TEXT NOT NULL, time TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS transitions_job ON transitions(job_id)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT)"),
    };
    for (const QString& statement : setup) {
        if (!query.exec(statement)) {
            const QString message = sqlError(query);
            query = QSqlQuery();
            db = QSqlDatabase();
            QSqlDatabase::database(m_connectionName, false).close();
            QSqlDatabase::removeDatabase(m_connectionName);
            return fail(QStringLiteral("cannot set up %1 (%2): %3").arg(info.absoluteFilePath(), statement, message));
        }
    }
    if (query.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schemaVersion'")) && query.next()) {
        const int version = query.value(0).toInt();
        if (version > SchemaVersion) {
            query = QSqlQuery();
            db = QSqlDatabase();
            QSqlDatabase::database(m_connectionName, false).close();
            QSqlDatabase::removeDatabase(m_connectionName);
            return fail(QStringLiteral("%1 was written by a newer Trainyard (schema %2, this one knows %3)")
                            .arg(info.absoluteFilePath())
                            .arg(version)
                            .arg(SchemaVersion));
        }
    } else {
        query.prepare(QStringLiteral("INSERT OR REPLACE INTO meta(key, value) VALUES ('schemaVersion', ?)"));
        query.addBindValue(QString::number(SchemaVersion));
        query.exec();
    }
    qCDebug(lcStore) << "job store open:" << info.absoluteFilePath();
    return true;
}

bool JobStore::insert(const Job& job, QString* error)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (!QSqlDatabase::contains(m_connectionName))
        return fail(QStringLiteral("the job store is not open"));
    QSqlDatabase db = QSqlDatabase::database(m_connectionName);
    if (job.jobId.isEmpty())
        return fail(QStringLiteral("a job needs a jobId"));

    Job stored = job;
    if (stored.createTime.isEmpty())
        stored.createTime = nowRfc3339();
    if (stored.state.isEmpty())
        stored.state = JobState::Queued;
    stored.etag = computeEtag(stored);

    if (!db.transaction())
        return fail(QStringLiteral("cannot begin a transaction: %1").arg(db.lastError().text()));
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT 1 FROM jobs WHERE job_id = ?"));
    query.addBindValue(stored.jobId);
    if (query.exec() && query.next()) {
        db.rollback();
        return fail(QStringLiteral("a job with id %1 already exists").arg(stored.jobId));
    }
    query.prepare(QStringLiteral("INSERT INTO jobs(job_id, json, state, create_time, seq) "
                                 "VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs))"));
    query.addBindValue(stored.jobId);
    query.addBindValue(QString::fromUtf8(encode(stored)));
    query.addBindValue(stored.state);
    query.addBindValue(stored.createTime);
    if (!query.exec()) {
        const QString message = sqlError(query);
        db.rollback();
        return fail(QStringLiteral("cannot store job %1: %2").arg(stored.jobId, message));
    }
    query.prepare(QStringLiteral("INSERT INTO transitions(job_id, state, time) VALUES (?, ?, ?)"));
    query.addBindValue(stored.jobId);
    query.addBindValue(stored.state);
    query.addBindValue(stored.createTime);
    if (!query.exec()) {
        const QString message = sqlError(query);
        db.rollback();
        return fail(QStringLiteral("cannot store job %1: %2").arg(stored.jobId, message));
    }
    if (!db.commit()) {
        const QString message = db.lastError().text();
        db.rollback();
        return fail(QStringLiteral("cannot commit job %1: %2").arg(stored.jobId, message));
    }
    return true;
}

bool JobStore::update(const Job& job, QString* error)
{
    auto fail = [error](const QString& message) {
        qCWarning(lcStore).noquote() << message;
        if (error)
            *error = message;
        return false;
    };
    if (!QSqlDatabase::contains(m_connectionName))
        return fail(QStringLiteral("the job store is not open"));
    QSqlDatabase db = QSqlDatabase::database(m_connectionName);
    if (!db.transaction())
        return fail(QStringLiteral("cannot begin a transaction: %1").arg(db.lastError().text()));
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT state FROM jobs WHERE job_id = ?"));
    query.addBindValue(job.jobId);
    if (!query.exec() || !query.next()) {
        db.rollback();
        return fail(QStringLiteral("cannot update job %1: no such job").arg(job.jobId));
    }
    const QString oldState = query.value(0).toString();

    Job stored = job;
    stored.etag = computeEtag(stored);
    query.prepare(QStringLiteral("UPDATE jobs SET json = ?, state = ? WHERE job_id = ?"));
    query.addBindValue(QString::fromUtf8(encode(stored)));
    query.addBindValue(stored.state);
    query.addBindValue(stored.jobId);
    if (!query.exec()) {
        const QString message = sqlError(query);
        db.rollback();
        return fail(QStringLiteral("cannot update job %1: %2").arg(stored.jobId, message));
    }
    if (stored.state != oldState) {
        query.prepare(QStringLiteral("INSERT INTO transitions(job_id, state, time) VALUES (?, ?, ?)"));
        query.addBindValue(stored.jobId);
        query.addBindValue(stored.state);
        query.addBindValue(nowRfc3339());
        if (!query.exec()) {
            const QString message = sqlError(query);
            db.rollback();
            return fail(QStringLiteral("cannot record the state of job %1: %2").arg(stored.jobId, message));
        }
    }
    if (!db.commit()) {
        const QString message = db.lastError().text();
        db.rollback();
        return fail(QStringLiteral("cannot commit job %1: %2").arg(stored.jobId, message));
    }
    Q_EMIT jobChanged(stored);
    return true;
}

std::optional<Job> JobStore::job(const QString& jobId) const
{
    if (!QSqlDatabase::contains(m_connectionName))
        return std::nullopt;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("SELECT json FROM jobs WHERE job_id = ?"));
    query.addBindValue(jobId);
    if (!query.exec() || !query.next())
        return std::nullopt;
    return decode(query.value(0).toString().toUtf8(), jobId);
}

bool JobStore::contains(const QString& jobId) const
{
    if (!QSqlDatabase::contains(m_connectionName))
        return false;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("SELECT 1 FROM jobs WHERE job_id = ?"));
    query.addBindValue(jobId);
    return query.exec() && query.next();
}

QList<Job> JobStore::jobs() const
{
    QList<Job> result;
    if (!QSqlDatabase::contains(m_connectionName))
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT job_id, json FROM jobs ORDER BY seq"))) {
        qCWarning(lcStore) << "cannot list jobs:" << sqlError(query);
        return result;
    }
    while (query.next()) {
        if (auto job = decode(query.value(1).toString().toUtf8(), query.value(0).toString()))
            result.append(std::move(*job));
    }
    return result;
}

QList<Job> JobStore::liveJobs() const
{
    QList<Job> result;
    if (!QSqlDatabase::contains(m_connectionName))
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT job_id, json FROM jobs WHERE state NOT IN ('SUCCEEDED', 'FAILED', "
                                   "'CANCELLED') ORDER BY seq"))) {
        qCWarning(lcStore) << "cannot list live jobs:" << sqlError(query);
        return result;
    }
    while (query.next()) {
        if (auto job = decode(query.value(1).toString().toUtf8(), query.value(0).toString()))
            result.append(std::move(*job));
    }
    return result;
}

QList<QPair<QString, QString>> JobStore::transitions(const QString& jobId) const
{
    QList<QPair<QString, QString>> result;
    if (!QSqlDatabase::contains(m_connectionName))
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT state, time FROM transitions WHERE job_id = ? ORDER BY rowid"));
    query.addBindValue(jobId);
    if (!query.exec())
        return result;
    while (query.next())
        result.append({ query.value(0).toString(), query.value(1).toString() });
    return result;
}

} // namespace Trainyard
