// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "jobkey.h"
#include "jobrecordencoder.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

#include <array>
#include <map>
#include <optional>

namespace Trainyard {

class JobFilter;

/// One stored job as written: the API's JSON of the job (compact JobJson::toJson, etag included), so
/// that lists and streams can send it without decoding, beside the decoded value when there is one.
struct JobRecord {
    QString project;
    QString jobId;
    /// The store-wide change counter at this record's last write: every insert and update takes the
    /// next number, so "changed since R" is `revision > R` (the job list stream's resume cursor).
    qint64 revision = 0;
    QByteArray json;
};

/// A stored job with the project that holds it (a Job carries no project: the service's JSON has none).
struct StoredJob {
    QString project;
    Job job;
    JobKey key() const { return JobKey { project, job.jobId }; }
};

/// Durable job records in SQLite (Qt SQL, QSQLITE driver, WAL journal, synchronous=FULL). Every write
/// is committed before the call returns, so a job is durable before the create call answers and a
/// crash never leaves a half-written record (one transaction per write).
///
/// Jobs are keyed by (project, jobId), as the service's resource names
/// (`projects/{project}/jobs/{jobId}`): a lookup in the wrong project finds nothing, and one job ID may
/// exist in several projects (so does everything the executor keeps per job: see JobKey).
///
/// Owned by the executor's main thread; not thread-safe. It is the file's only writer while it is open (the executor
/// holds its data folder's lock): it keeps what reads found until its next write, so a write by another connection
/// may go unseen until then.
/// Schema 4: `jobs(project, job_id, json, state, create_time, seq UNIQUE, revision UNIQUE, creator, PRIMARY KEY
/// (project, job_id))`, `transitions(project, job_id, state, time)` for the state timeline, and
/// `meta(key, value)` (schemaVersion, storeId). A schema 1 file (no project) is migrated on open: its
/// jobs go to DefaultProject, the project that the console and trainyardctl have always used. Schema 2
/// differs from 3 only by a unique index on job_id, which opening drops; schema 3 from 4 by the `creator`
/// column (the IAM principal who created the job, kept out of the Job JSON, which the service's has no field
/// for), which opening adds, NULL for the jobs already there.
class JobStore : public QObject {
    Q_OBJECT
public:
    /// The project of jobs stored before projects were part of the key, and the clients' default.
    static QString defaultProject() { return QStringLiteral("local"); }

    explicit JobStore(QObject* parent = nullptr);
    ~JobStore() override;

    /// Opens (creating or migrating when needed) the database file. Returns false and sets *error on
    /// failure; a file of a newer schema is refused, never changed.
    bool open(const QString& path, QString* error);

    /// True when `error` (a message of insert(), update() …) says the disk is full: SQLite's SQLITE_FULL
    /// ("database or disk is full", sqlite3_errstr) or the kernel's ENOSPC ("No space left on device").
    static bool isDiskFull(const QString& error);

    /// Inserts a new job into `project` (createTime defaults to now, state to QUEUED; the etag is
    /// computed) and records its first transition; emits jobStored. Fails (returns false, *error set)
    /// when the project already has a job of that jobId.
    /// `creator`: the IAM principal who created it ("user:alice@example.org"), kept beside the record (creator());
    /// empty when not known.
    bool insert(const QString& project, const Job& job, QString* error, const QString& creator = {});
    /// insert() into defaultProject().
    bool insert(const Job& job, QString* error) { return insert(defaultProject(), job, error); }
    /// Replaces a job's record (state, times, output, labels …) and records a state
    /// transition when the state changed. The stored etag is recomputed (the `etag` of `job` is
    /// ignored), so any change of the record changes the etag. Emits jobChanged and jobStored with the
    /// stored record after the commit. Fails for a jobId that `project` does not hold.
    bool update(const QString& project, const Job& job, QString* error = nullptr);

    /// The job `jobId` of `project`; nullopt when that project has no such job.
    std::optional<Job> job(const QString& project, const QString& jobId) const;
    std::optional<Job> job(const JobKey& key) const { return job(key.project, key.jobId); }
    /// The stored record of job `jobId` of `project`: its API JSON as written (JobJson::toJson with its etag, UTF-8)
    /// and its revision, read as bytes (no decode, no UTF-16 round trip); nullopt when that project has no such job.
    /// What `GET …/jobs/{job}` answers, as a page of the list answers its records.
    std::optional<JobRecord> record(const QString& project, const QString& jobId) const;
    bool contains(const QString& project, const QString& jobId) const;
    /// The principal who created the job (insert()'s `creator`); empty when none was recorded or there is no
    /// such job.
    QString creator(const QString& project, const QString& jobId) const;
    bool contains(const JobKey& key) const { return contains(key.project, key.jobId); }
    /// All jobs of every project in creation order (oldest first).
    QList<StoredJob> jobs() const;
    /// Jobs whose state is not final (QUEUED, PREPARING, RUNNING, CANCELLING), every project, creation order.
    QList<StoredJob> liveJobs() const;

    /// One page of `project`'s jobs that pass `filter`, newest first (creation order reversed), after
    /// the job `afterJobId` (empty: from the newest). Returns the records as stored (API JSON, not
    /// decoded); *more says whether another matching job follows the page. Cost is O(pageSize) rows
    /// and no JSON decoding for an empty filter and for filters of jobId, state and label terms,
    /// which run in SQL; time terms are checked on decoded rows, so such a page costs one decode per
    /// row looked at. A page read before and not changed by a write since is answered from memory. Fails (false,
    /// *error set) when `afterJobId` is not a job of `project`.
    bool listPage(const QString& project, const JobFilter& filter, int pageSize, const QString& afterJobId,
        QList<JobRecord>* page, bool* more, QString* error) const;
    /// `project`'s records whose revision is above `afterRevision` (0: all), in revision order (the
    /// order they were last written); no decoding. The job list stream's snapshot and resume.
    /// At most `limit` of them (negative: all), the lowest revisions first, so that a reader pages through them by
    /// passing the last revision it got (the job stream does, as fast as its client reads).
    QList<JobRecord> changedSince(const QString& project, qint64 afterRevision, int limit = -1) const;
    /// The revision of the latest write (0 for an empty store).
    qint64 revision() const;
    /// A random ID made when the database file was created: tells a client whose cursor came from
    /// another database (a different data folder) that its cursor means nothing here.
    QString storeId() const { return m_storeId; }

    /// The state timeline of a job: (state, RFC 3339 time) in order. A stored name this build does not
    /// know reads as StateUnspecified (and is logged).
    QList<QPair<JobState, QString>> transitions(const QString& project, const QString& jobId) const;
    QList<QPair<JobState, QString>> transitions(const JobKey& key) const { return transitions(key.project, key.jobId); }

    /// The etag of a record: base64 of the first 9 bytes of SHA-256 over the job's compact JSON
    /// with `etag` empty (opaque to clients, as the service's); JobRecordEncoder::etagOf().
    static QString computeEtag(const Job& job);

    /// Jobs decoded from stored JSON since the process started (every JobStore); for benchmarks and
    /// tests that check a path stays decode-free.
    static qint64 decodeCount();

Q_SIGNALS:
    /// After an update() commit, with the stored job and its project (not after insert(), which callers
    /// know of).
    void jobChanged(const QString& project, const Trainyard::Job& job);
    /// After every committed insert() and update(): the record as stored and its decoded value.
    void jobStored(const Trainyard::JobRecord& record, const Trainyard::Job& job);

private:
    bool migrateFromVersion1(QString* error);
    /// Adds the `creator` column to a table of schema 1 to 3; nothing when it has one.
    bool migrateToCreator(QString* error);
    /// Every row (`where` empty) or those of an SQL WHERE clause, decoded, in creation order.
    QList<StoredJob> decodedJobs(const QString& where) const;

    /// The job records last read or written, decoded, by job ID with their revision: a read whose row still has
    /// that revision is answered without parsing the JSON again (a tuning job's record, read and rewritten a few
    /// times per trial, grows with its trials). Bounded; cleared when full.
    struct Cached {
        qint64 revision = 0;
        Job job;
    };
    std::optional<Job> cachedOrDecode(
        const QString& project, const QString& jobId, qint64 revision, const QByteArray& json) const;
    void remember(const QString& project, const Job& job, qint64 revision) const;
    mutable QHash<QString, Cached> m_cache; ///< by "<project>/<jobId>"
    static constexpr qsizetype MaxCached = 64;

    /// The point lookups by (project, jobId), which every request that names a job runs, and update()'s statements
    /// (a tuning job's record is rewritten a few times per trial): prepared once and kept, as SQLite takes about as
    /// long to parse and plan such a statement as to run it. Reset after each use, so that no read transaction stays
    /// open between calls (it would hold back WAL checkpoints and hide other connections' writes). Made on first use;
    /// dropped before the connection closes.
    enum Statement { RecordLookup, ContainsLookup, UpdateFind, UpdateRecord, AddTransition, StatementCount };
    QSqlQuery& statement(Statement which) const;
    mutable std::array<std::optional<QSqlQuery>, StatementCount> m_statements;
    /// listPage()'s statements by their SQL (one per shape of filter), prepared once.
    mutable std::map<QString, QSqlQuery> m_listStatements;
    static constexpr qsizetype MaxListStatements = 32;

    /// What reads found since the last write: a job's record (or that there is none) and pages of the list, so
    /// that the API's most frequent reads (a job's GET, the check that a job exists before its logs are read, the
    /// list's first page) cost no SQLite read transaction (a statement, two fcntl() locks on the WAL index: a third
    /// of a job GET's CPU, issue 48). Sound because only this object writes the file (the executor's data-folder
    /// lock keeps any other executor out) and every write, committed or not, first empties it; the list has no term
    /// relative to the current time, so a page changes only by a write. Bounded: emptied when full.
    struct ListPage {
        QList<JobRecord> records;
        bool more = false;
    };
    void forgetReads() const;
    /// listPage() from the file.
    bool readPage(const QString& project, const JobFilter& filter, int pageSize, const QString& afterJobId,
        QList<JobRecord>* page, bool* more, QString* error) const;
    mutable QHash<QString, std::optional<JobRecord>> m_recordReads; ///< by "<project>/<jobId>"
    mutable QHash<QString, ListPage> m_pageReads; ///< by project, filter text, page size and the job before
    static constexpr qsizetype MaxRecordReads = 1024;
    static constexpr qsizetype MaxPageReads = 64;

    JobRecordEncoder m_encoder; ///< what insert() and update() store; keeps a tuning job's trials' bytes

    QString m_connectionName;
    QString m_storeId;
    bool m_hasJson = false; ///< SQLite has json_extract (label filters run in SQL)
};

} // namespace Trainyard

Q_DECLARE_METATYPE(Trainyard::JobRecord)
