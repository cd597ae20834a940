// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobstore.h"
#include "rfc3339.h"

#include "jobfilter.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QScopeGuard>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

#include <atomic>

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcStore, "trainyard.executor")

/// 1: jobs keyed by jobId. 2: keyed by (project, jobId), with a revision per write and a store ID, but a job
/// ID still unique across projects (index jobs_job_id). 3: that index dropped, so one ID may live in two
/// projects; an older build must not open such a file, as its index could no longer be made. 4: `creator`, the
/// principal who created each job (its roles/ml.jobOwner); NULL for jobs stored before.
constexpr int JobSchemaVersion = 4;

std::atomic<qint64> g_decodes { 0 };

std::optional<Job> decode(const QByteArray& json, const QString& jobId)
{
    g_decodes.fetch_add(1, std::memory_order_relaxed);
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

/// Runs `statements` in order; false (and *error) at the first that fails.
bool execAll(QSqlQuery& query, const QStringList& statements, QString* error)
{
    for (const QString& statement : statements) {
        if (!query.exec(statement)) {
            *error = statement + QStringLiteral(": ") + sqlError(query);
            return false;
        }
    }
    return true;
}

/// The current schema (see jobstore.h); every statement may run on a database that has it already.
const QStringList& schemaStatements()
{
    static const QStringList statements = {
        QStringLiteral("CREATE TABLE IF NOT EXISTS jobs (project TEXT NOT NULL, job_id TEXT NOT NULL, "
                       "json TEXT NOT NULL, state TEXT NOT NULL, create_time TEXT NOT NULL, "
                       "seq INTEGER NOT NULL UNIQUE, revision INTEGER NOT NULL UNIQUE, creator TEXT, "
                       "PRIMARY KEY (project, job_id))"),
        // Job IDs are unique in the executor while runs, logs and job folders are keyed by ID alone.
        QStringLiteral("DROP INDEX IF EXISTS jobs_job_id"),
        // A list page walks this index newest first and stops after the page: O(page size).
        QStringLiteral("CREATE INDEX IF NOT EXISTS jobs_project_seq ON jobs(project, seq)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS jobs_project_revision ON jobs(project, revision)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS transitions (project TEXT NOT NULL, job_id TEXT NOT NULL, "
                       "state TEXT NOT NULL, time TEXT NOT NULL, "
                       "FOREIGN KEY (project, job_id) REFERENCES jobs(project, job_id))"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS transitions_job ON transitions(project, job_id)"),
    };
    return statements;
}

} // namespace

qint64 JobStore::decodeCount()
{
    return g_decodes.load(std::memory_order_relaxed);
}

QString JobStore::computeEtag(const Job& job)
{
    Job copy = job;
    copy.etag.clear();
    return JobRecordEncoder::etagOf(JobRecordEncoder::json(copy));
}

JobStore::JobStore(QObject* parent)
    : QObject(parent)
{
    static std::atomic<int> counter { 0 };
    m_connectionName = QStringLiteral("trainyard-jobstore-%1").arg(counter.fetch_add(1));
}

JobStore::~JobStore()
{
    m_statements = {}; // statements first: the connection is closed below
    m_listStatements.clear();
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
    forgetReads();
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
    auto closeAndFail = [&](const QString& message) {
        QSqlDatabase::database(m_connectionName, false).close();
        QSqlDatabase::removeDatabase(m_connectionName);
        return fail(message);
    };

    QString problem;
    int version = 0;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName);
        QSqlQuery query(db);
        // WAL: readers never block the writer, and a commit is one sequential append.
        // synchronous=FULL: a commit is on disk before the call returns (a create must be durable
        // before the API answers), which NORMAL does not guarantee on power loss in WAL mode.
        // Foreign keys are switched on only after a migration, which rebuilds the tables they link.
        if (!execAll(query,
                { QStringLiteral("PRAGMA journal_mode=WAL"), QStringLiteral("PRAGMA synchronous=FULL"),
                    QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT)") },
                &problem))
            problem = QStringLiteral("cannot set up %1 (%2)").arg(info.absoluteFilePath(), problem);
        if (problem.isEmpty() && query.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schemaVersion'"))
            && query.next())
            version = query.value(0).toInt();
        if (problem.isEmpty() && version > JobSchemaVersion)
            problem = QStringLiteral("%1 was written by a newer Trainyard (schema %2, this one knows %3)")
                          .arg(info.absoluteFilePath())
                          .arg(version)
                          .arg(JobSchemaVersion);
        // Schema 1 had no project column (and files from before meta existed have no version).
        bool hasJobs = false;
        bool hasProject = false;
        if (problem.isEmpty() && query.exec(QStringLiteral("PRAGMA table_info(jobs)"))) {
            while (query.next()) {
                hasJobs = true;
                hasProject = hasProject || query.value(1).toString() == QLatin1String("project");
            }
        }
        query = QSqlQuery();
        if (problem.isEmpty() && hasJobs && !hasProject && !migrateFromVersion1(&problem))
            problem = QStringLiteral("cannot migrate %1 to schema %2: %3")
                          .arg(info.absoluteFilePath())
                          .arg(JobSchemaVersion)
                          .arg(problem);
    }
    if (!problem.isEmpty())
        return closeAndFail(problem);
    if (!migrateToCreator(&problem))
        return closeAndFail(QStringLiteral("cannot migrate %1 to schema %2: %3")
                                .arg(info.absoluteFilePath())
                                .arg(JobSchemaVersion)
                                .arg(problem));

    QSqlDatabase db = QSqlDatabase::database(m_connectionName);
    QSqlQuery query(db);
    QStringList setup = schemaStatements();
    setup.prepend(QStringLiteral("PRAGMA foreign_keys=ON"));
    if (!execAll(query, setup, &problem)) {
        query = QSqlQuery();
        db = QSqlDatabase();
        return closeAndFail(QStringLiteral("cannot set up %1 (%2)").arg(info.absoluteFilePath(), problem));
    }
    query.prepare(QStringLiteral("INSERT OR REPLACE INTO meta(key, value) VALUES ('schemaVersion', ?)"));
    query.addBindValue(QString::number(JobSchemaVersion));
    query.exec();
    if (query.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'storeId'")) && query.next()) {
        m_storeId = query.value(0).toString();
    } else {
        m_storeId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        query.prepare(QStringLiteral("INSERT OR REPLACE INTO meta(key, value) VALUES ('storeId', ?)"));
        query.addBindValue(m_storeId);
        query.exec();
    }
    // json_extract is built into SQLite since 3.38 and usually compiled in before; without it,
    // label terms are checked on decoded jobs instead.
    m_hasJson = query.exec(QStringLiteral("SELECT json_extract('{\"a\":\"b\"}', '$.a')")) && query.next()
        && query.value(0).toString() == QLatin1String("b");
    qCDebug(lcStore) << "job store open:" << info.absoluteFilePath() << "json_extract:" << m_hasJson;
    return true;
}

bool JobStore::migrateFromVersion1(QString* error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connectionName);
    if (!db.transaction()) {
        *error = db.lastError().text();
        return false;
    }
    QSqlQuery query(db);
    // SQLite cannot change a primary key in place: build the new tables, copy, swap. A job's
    // revision starts as its creation sequence number, so revision order is creation order.
    const QString project = defaultProject();
    const QStringList statements = {
        QStringLiteral("CREATE TABLE jobs_v2 (project TEXT NOT NULL, job_id TEXT NOT NULL, json TEXT NOT NULL, "
                       "state TEXT NOT NULL, create_time TEXT NOT NULL, seq INTEGER NOT NULL UNIQUE, "
                       "revision INTEGER NOT NULL UNIQUE, PRIMARY KEY (project, job_id))"),
        QStringLiteral("INSERT INTO jobs_v2(project, job_id, json, state, create_time, seq, revision) "
                       "SELECT '%1', job_id, json, state, create_time, seq, seq FROM jobs")
            .arg(project),
        QStringLiteral("CREATE TABLE transitions_v2 (project TEXT NOT NULL, job_id TEXT NOT NULL, "
                       "state TEXT NOT NULL, time TEXT NOT NULL, "
                       "FOREIGN KEY (project, job_id) REFERENCES jobs(project, job_id))"),
        QStringLiteral("INSERT INTO transitions_v2(project, job_id, state, time) "
                       "SELECT '%1', job_id, state, time FROM transitions ORDER BY rowid")
            .arg(project),
        QStringLiteral("DROP TABLE transitions"),
        QStringLiteral("DROP TABLE jobs"),
        QStringLiteral("ALTER TABLE jobs_v2 RENAME TO jobs"),
        QStringLiteral("ALTER TABLE transitions_v2 RENAME TO transitions"),
        QStringLiteral("INSERT OR REPLACE INTO meta(key, value) VALUES ('schemaVersion', '%1')").arg(JobSchemaVersion),
    };
    if (!execAll(query, statements, error)) {
        query = QSqlQuery();
        db.rollback();
        return false;
    }
    if (!db.commit()) {
        *error = db.lastError().text();
        db.rollback();
        return false;
    }
    qCInfo(lcStore).noquote() << "job store migrated to schema" << JobSchemaVersion << "(existing jobs are in project"
                              << project + QLatin1Char(')');
    return true;
}

bool JobStore::isDiskFull(const QString& error)
{
    return error.contains(QLatin1String("database or disk is full"))
        || error.contains(QLatin1String("No space left on device"));
}

bool JobStore::migrateToCreator(QString* error)
{
    // Schemas 1 to 3 have no creator column (schema 1's jobs table was rebuilt without one just before). Adding a
    // nullable column is one statement that SQLite runs atomically and without copying the table.
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    bool hasJobs = false;
    bool hasCreator = false;
    if (!query.exec(QStringLiteral("PRAGMA table_info(jobs)"))) {
        *error = sqlError(query);
        return false;
    }
    while (query.next()) {
        hasJobs = true;
        hasCreator = hasCreator || query.value(1).toString() == QLatin1String("creator");
    }
    if (!hasJobs || hasCreator)
        return true;
    if (!query.exec(QStringLiteral("ALTER TABLE jobs ADD COLUMN creator TEXT"))) {
        *error = sqlError(query);
        return false;
    }
    qCInfo(lcStore).noquote() << "job store migrated to schema" << JobSchemaVersion
                              << "(jobs stored before have no recorded creator)";
    return true;
}

bool JobStore::insert(const QString& project, const Job& job, QString* error, const QString& creator)
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
    if (project.isEmpty())
        return fail(QStringLiteral("a job needs a project"));

    forgetReads();
    Job stored = job;
    if (stored.createTime.isEmpty())
        stored.createTime = Rfc3339::now();
    if (stored.state == JobState::StateUnspecified)
        stored.state = JobState::Queued;
    QByteArray json;
    std::tie(stored, json) = m_encoder.encode(project + QLatin1Char('/') + stored.jobId, stored);
    JobRecord record { project, stored.jobId, 0, json };

    if (!db.transaction())
        return fail(QStringLiteral("cannot begin a transaction: %1").arg(db.lastError().text()));
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT 1 FROM jobs WHERE project = ? AND job_id = ?"));
    query.addBindValue(project);
    query.addBindValue(stored.jobId);
    if (query.exec() && query.next()) {
        query = QSqlQuery();
        db.rollback();
        return fail(QStringLiteral("a job with id %1 already exists").arg(stored.jobId));
    }
    if (!query.exec(QStringLiteral("SELECT COALESCE(MAX(revision), 0) + 1 FROM jobs")) || !query.next()) {
        const QString message = sqlError(query);
        db.rollback();
        return fail(QStringLiteral("cannot store job %1: %2").arg(stored.jobId, message));
    }
    record.revision = query.value(0).toLongLong();
    query.prepare(QStringLiteral("INSERT INTO jobs(project, job_id, json, state, create_time, seq, revision, creator) "
                                 "VALUES (?, ?, CAST(? AS TEXT), ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs), ?, ?)"));
    query.addBindValue(project);
    query.addBindValue(stored.jobId);
    query.addBindValue(record.json); // bytes, stored as the UTF-8 text they are (statement() says why)
    query.addBindValue(jobStateName(stored.state));
    query.addBindValue(stored.createTime);
    query.addBindValue(record.revision);
    query.addBindValue(creator.isEmpty() ? QVariant() : QVariant(creator));
    if (!query.exec()) {
        const QString message = sqlError(query);
        db.rollback();
        return fail(QStringLiteral("cannot store job %1: %2").arg(stored.jobId, message));
    }
    query.prepare(QStringLiteral("INSERT INTO transitions(project, job_id, state, time) VALUES (?, ?, ?, ?)"));
    query.addBindValue(project);
    query.addBindValue(stored.jobId);
    query.addBindValue(jobStateName(stored.state));
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
    Q_EMIT jobStored(record, stored);
    return true;
}

bool JobStore::update(const QString& project, const Job& job, QString* error)
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
    forgetReads();
    if (!db.transaction())
        return fail(QStringLiteral("cannot begin a transaction: %1").arg(db.lastError().text()));
    // Each statement is reset (finish()) before the next and before the transaction ends.
    auto failed = [&](QSqlQuery& query, const QString& message) {
        query.finish();
        db.rollback();
        return fail(message);
    };
    QSqlQuery& find = statement(UpdateFind);
    find.bindValue(0, project);
    find.bindValue(1, job.jobId);
    if (!find.exec() || !find.next())
        return failed(find, QStringLiteral("cannot update job %1: no such job").arg(JobKey { project, job.jobId }.name()));
    const QString oldState = find.value(0).toString(); // the column holds the name
    const QString storedProject = find.value(1).toString();
    const qint64 revision = find.value(2).toLongLong();
    find.finish();

    const auto [stored, json] = m_encoder.encode(project + QLatin1Char('/') + job.jobId, job);
    const JobRecord record { storedProject, stored.jobId, revision, json };
    QSqlQuery& write = statement(UpdateRecord);
    write.bindValue(0, record.json);
    write.bindValue(1, jobStateName(stored.state));
    write.bindValue(2, record.revision);
    write.bindValue(3, record.project);
    write.bindValue(4, stored.jobId);
    if (!write.exec())
        return failed(write, QStringLiteral("cannot update job %1: %2").arg(stored.jobId, sqlError(write)));
    write.finish();
    if (jobStateName(stored.state) != oldState) {
        QSqlQuery& transition = statement(AddTransition);
        transition.bindValue(0, record.project);
        transition.bindValue(1, stored.jobId);
        transition.bindValue(2, jobStateName(stored.state));
        transition.bindValue(3, Rfc3339::now());
        if (!transition.exec())
            return failed(transition,
                QStringLiteral("cannot record the state of job %1: %2").arg(stored.jobId, sqlError(transition)));
        transition.finish();
    }
    if (!db.commit()) {
        const QString message = db.lastError().text();
        db.rollback();
        return fail(QStringLiteral("cannot commit job %1: %2").arg(stored.jobId, message));
    }
    remember(record.project, stored, record.revision);
    Q_EMIT jobChanged(record.project, stored);
    Q_EMIT jobStored(record, stored);
    return true;
}

QSqlQuery& JobStore::statement(Statement which) const
{
    std::optional<QSqlQuery>& query = m_statements[size_t(which)];
    if (!query) {
        // CAST AS BLOB: Qt's SQLite driver answers a BLOB as the bytes themselves, TEXT as a QString (UTF-16). CAST AS
        // TEXT: the record is bound as bytes (a BLOB) and stored as the UTF-8 text they are, with no round trip
        // through UTF-16 (QString, then SQLite's conversion back).
        static const std::array<QString, StatementCount> sql = {
            QStringLiteral("SELECT revision, CAST(json AS BLOB) FROM jobs WHERE project = ? AND job_id = ?"),
            QStringLiteral("SELECT 1 FROM jobs WHERE project = ? AND job_id = ?"),
            QStringLiteral("SELECT state, project, (SELECT MAX(revision) FROM jobs) + 1 FROM jobs "
                           "WHERE project = ? AND job_id = ?"),
            QStringLiteral("UPDATE jobs SET json = CAST(? AS TEXT), state = ?, revision = ? WHERE project = ? AND job_id = ?"),
            QStringLiteral("INSERT INTO transitions(project, job_id, state, time) VALUES (?, ?, ?, ?)"),
        };
        query.emplace(QSqlDatabase::database(m_connectionName));
        query->prepare(sql[size_t(which)]);
    }
    return *query;
}

std::optional<Job> JobStore::job(const QString& project, const QString& jobId) const
{
    const std::optional<JobRecord> found = record(project, jobId);
    if (!found)
        return std::nullopt;
    return cachedOrDecode(project, jobId, found->revision, found->json);
}

void JobStore::forgetReads() const
{
    m_recordReads.clear();
    m_pageReads.clear();
}

std::optional<JobRecord> JobStore::record(const QString& project, const QString& jobId) const
{
    if (!QSqlDatabase::contains(m_connectionName))
        return std::nullopt;
    const QString key = project + QLatin1Char('/') + jobId;
    if (const auto it = m_recordReads.constFind(key); it != m_recordReads.cend())
        return *it;
    QSqlQuery& query = statement(RecordLookup);
    query.bindValue(0, project);
    query.bindValue(1, jobId);
    std::optional<JobRecord> found;
    const bool ran = query.exec();
    if (ran && query.next())
        found = JobRecord { project, jobId, query.value(0).toLongLong(), query.value(1).toByteArray() };
    query.finish();
    if (!ran)
        return std::nullopt; // a failed statement is no answer to keep
    if (m_recordReads.size() >= MaxRecordReads)
        m_recordReads.clear();
    m_recordReads.insert(key, found);
    return found;
}

std::optional<Job> JobStore::cachedOrDecode(
    const QString& project, const QString& jobId, qint64 revision, const QByteArray& json) const
{
    const QString key = project + QLatin1Char('/') + jobId;
    if (auto it = m_cache.constFind(key); it != m_cache.cend() && it->revision == revision)
        return it->job;
    std::optional<Job> job = decode(json, jobId);
    if (job)
        remember(project, *job, revision);
    return job;
}

void JobStore::remember(const QString& project, const Job& job, qint64 revision) const
{
    const QString key = project + QLatin1Char('/') + job.jobId;
    if (m_cache.size() >= MaxCached && !m_cache.contains(key))
        m_cache.clear();
    m_cache.insert(key, Cached { revision, job });
}

bool JobStore::contains(const QString& project, const QString& jobId) const
{
    if (!QSqlDatabase::contains(m_connectionName))
        return false;
    if (const auto it = m_recordReads.constFind(project + QLatin1Char('/') + jobId); it != m_recordReads.cend())
        return it->has_value();
    QSqlQuery& query = statement(ContainsLookup);
    query.bindValue(0, project);
    query.bindValue(1, jobId);
    const bool found = query.exec() && query.next();
    query.finish();
    return found;
}

QString JobStore::creator(const QString& project, const QString& jobId) const
{
    if (!QSqlDatabase::contains(m_connectionName))
        return {};
    // Asked only for callers other than the executor's admin (whose role grants everything), so not prepared once.
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.prepare(QStringLiteral("SELECT creator FROM jobs WHERE project = ? AND job_id = ?"));
    query.addBindValue(project);
    query.addBindValue(jobId);
    if (query.exec() && query.next())
        return query.value(0).toString();
    return {};
}

QList<StoredJob> JobStore::jobs() const
{
    return decodedJobs(QString());
}

QList<StoredJob> JobStore::liveJobs() const
{
    QStringList finalNames;
    for (const JobState state : { JobState::Succeeded, JobState::Failed, JobState::Cancelled })
        finalNames.append(QLatin1Char('\'') + jobStateName(state) + QLatin1Char('\''));
    return decodedJobs(QStringLiteral("WHERE state NOT IN (%1)").arg(finalNames.join(QStringLiteral(", "))));
}

QList<StoredJob> JobStore::decodedJobs(const QString& where) const
{
    QList<StoredJob> result;
    if (!QSqlDatabase::contains(m_connectionName))
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT project, job_id, json FROM jobs %1 ORDER BY seq").arg(where))) {
        qCWarning(lcStore) << "cannot list jobs:" << sqlError(query);
        return result;
    }
    while (query.next()) {
        if (auto job = decode(query.value(2).toString().toUtf8(), query.value(1).toString()))
            result.append(StoredJob { query.value(0).toString(), std::move(*job) });
    }
    return result;
}

bool JobStore::listPage(const QString& project, const JobFilter& filter, int pageSize, const QString& afterJobId,
    QList<JobRecord>* page, bool* more, QString* error) const
{
    const QString key = project + QLatin1Char('\n') + filter.text() + QLatin1Char('\n') + QString::number(pageSize)
        + QLatin1Char('\n') + afterJobId;
    if (const auto it = m_pageReads.constFind(key); it != m_pageReads.cend()) {
        *page = it->records;
        *more = it->more;
        return true;
    }
    if (!readPage(project, filter, pageSize, afterJobId, page, more, error))
        return false;
    if (m_pageReads.size() >= MaxPageReads)
        m_pageReads.clear();
    m_pageReads.insert(key, ListPage { *page, *more });
    return true;
}

bool JobStore::readPage(const QString& project, const JobFilter& filter, int pageSize, const QString& afterJobId,
    QList<JobRecord>* page, bool* more, QString* error) const
{
    page->clear();
    *more = false;
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (!QSqlDatabase::contains(m_connectionName))
        return fail(QStringLiteral("the job store is not open"));
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);

    qint64 beforeSeq = -1;
    if (!afterJobId.isEmpty()) {
        query.prepare(QStringLiteral("SELECT seq FROM jobs WHERE project = ? AND job_id = ?"));
        query.addBindValue(project);
        query.addBindValue(afterJobId);
        if (!query.exec() || !query.next())
            return fail(QStringLiteral("no job %1 in project %2").arg(afterJobId, project));
        beforeSeq = query.value(0).toLongLong();
    }

    // Terms on indexed columns (and labels, through json_extract) become SQL that means exactly what
    // JobFilter::matches() means; the rest (the times) are checked on decoded rows. Prefixes compare
    // with substr so that no character of the value is a wildcard.
    QString sql = QStringLiteral("SELECT job_id, CAST(json AS BLOB), revision FROM jobs WHERE project = ?");
    QVariantList binds { project };
    if (beforeSeq >= 0) {
        sql += QStringLiteral(" AND seq < ?");
        binds << beforeSeq;
    }
    bool residual = false;
    for (const JobFilter::Term& term : filter.terms()) {
        QString column;
        switch (term.field) {
        case JobFilter::Field::JobId:
            column = QStringLiteral("job_id");
            break;
        case JobFilter::Field::State:
            column = QStringLiteral("state");
            break;
        case JobFilter::Field::Label:
            if (m_hasJson) {
                column = QStringLiteral("json_extract(json, ?)");
                // A quoted key: label keys may hold '.' and '-', which a bare JSON path would misread.
                binds << QVariant(QStringLiteral("$.labels.\"") + term.labelKey + QLatin1Char('"'));
            }
            break;
        default:
            break;
        }
        if (column.isEmpty()) {
            residual = true;
            continue;
        }
        // A label's column binds its path: each use of `column` below needs it again.
        const bool label = term.field == JobFilter::Field::Label;
        const QVariant path = label ? binds.takeLast() : QVariant();
        auto use = [&] {
            if (label)
                binds << path;
            return column;
        };
        switch (term.op) {
        case JobFilter::Op::Has:
            if (term.prefix) {
                sql += QStringLiteral(" AND substr(") + use() + QStringLiteral(", 1, length(?)) = ?");
                binds << term.value << term.value;
            } else {
                sql += QStringLiteral(" AND ") + use() + QStringLiteral(" = ?");
                binds << term.value;
            }
            break;
        case JobFilter::Op::Equal:
            sql += QStringLiteral(" AND ") + use() + QStringLiteral(" = ?");
            binds << term.value;
            break;
        case JobFilter::Op::NotEqual: // an absent label is "not equal"
            sql += QStringLiteral(" AND (") + use() + QStringLiteral(" IS NULL OR ") + use() + QStringLiteral(" != ?)");
            binds << term.value;
            break;
        default: // JobFilter::parse allows no ordering on these fields
            residual = true;
            break;
        }
    }
    sql += QStringLiteral(" ORDER BY seq DESC");
    if (!residual)
        sql += QStringLiteral(" LIMIT %1").arg(pageSize + 1);
    // Prepared once per shape of filter and kept (a list's SQL differs only by its terms): SQLite takes about as
    // long to parse and plan it as to run it for a page. Bounded; reset after each use, as the point lookups.
    auto statement = m_listStatements.find(sql);
    if (statement == m_listStatements.end()) {
        if (qsizetype(m_listStatements.size()) >= MaxListStatements)
            m_listStatements.clear();
        QSqlQuery prepared(QSqlDatabase::database(m_connectionName));
        prepared.setForwardOnly(true);
        if (!prepared.prepare(sql))
            return fail(QStringLiteral("cannot list the jobs of %1: %2").arg(project, sqlError(prepared)));
        statement = m_listStatements.emplace(sql, std::move(prepared)).first;
    }
    QSqlQuery& list = statement->second;
    for (qsizetype i = 0; i < binds.size(); ++i)
        list.bindValue(int(i), binds.at(i));
    if (!list.exec()) {
        const QString message = sqlError(list);
        list.finish();
        return fail(QStringLiteral("cannot list the jobs of %1: %2").arg(project, message));
    }
    const auto reset = qScopeGuard([&list] { list.finish(); });
    // The statement is stepped lazily: rows after the page are never read.
    for (QSqlQuery& query = list; query.next();) {
        JobRecord record { project, query.value(0).toString(), query.value(2).toLongLong(), query.value(1).toByteArray() };
        if (residual) {
            const std::optional<Job> job = decode(record.json, record.jobId);
            if (!job || !filter.matches(*job))
                continue;
        }
        if (page->size() == pageSize) {
            *more = true;
            break;
        }
        page->append(std::move(record));
    }
    return true;
}

QList<JobRecord> JobStore::changedSince(const QString& project, qint64 afterRevision, int limit) const
{
    QList<JobRecord> result;
    if (!QSqlDatabase::contains(m_connectionName))
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT job_id, json, revision FROM jobs WHERE project = ? AND revision > ? "
                                 "ORDER BY revision LIMIT ?"));
    query.addBindValue(project);
    query.addBindValue(afterRevision);
    query.addBindValue(limit < 0 ? -1 : limit); // SQLite: a negative LIMIT is no limit
    if (!query.exec()) {
        qCWarning(lcStore) << "cannot list changed jobs:" << sqlError(query);
        return result;
    }
    while (query.next())
        result.append(JobRecord {
            project, query.value(0).toString(), query.value(2).toLongLong(), query.value(1).toString().toUtf8() });
    return result;
}

qint64 JobStore::revision() const
{
    if (!QSqlDatabase::contains(m_connectionName))
        return 0;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    if (!query.exec(QStringLiteral("SELECT COALESCE(MAX(revision), 0) FROM jobs")) || !query.next())
        return 0;
    return query.value(0).toLongLong();
}

QList<QPair<JobState, QString>> JobStore::transitions(const QString& project, const QString& jobId) const
{
    QList<QPair<JobState, QString>> result;
    if (!QSqlDatabase::contains(m_connectionName))
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);
    query.prepare(
        QStringLiteral("SELECT state, time FROM transitions WHERE project = ? AND job_id = ? ORDER BY rowid"));
    query.addBindValue(project);
    query.addBindValue(jobId);
    if (!query.exec())
        return result;
    while (query.next()) {
        const QString name = query.value(0).toString();
        const std::optional<JobState> state = jobStateFromName(name);
        if (!state)
            qCWarning(lcStore) << "job" << jobId << "has a transition to an unknown state:" << name;
        result.append({ state.value_or(JobState::StateUnspecified), query.value(1).toString() });
    }
    return result;
}

} // namespace Trainyard
