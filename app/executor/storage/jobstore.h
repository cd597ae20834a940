// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QObject>
#include <QSqlDatabase>
#include <QString>

#include <optional>

namespace Trainyard {

/// Durable job records in SQLite (Qt SQL, QSQLITE driver, WAL journal, synchronous=NORMAL… FULL for
/// creates). Every write is committed before the call returns, so a job is durable before the
/// create call answers and a crash never leaves a half-written record (one transaction per write).
///
/// Owned by the executor's main thread; not thread-safe.
/// Schema: table `jobs(job_id TEXT PRIMARY KEY, json TEXT, state TEXT, create_time TEXT, seq INTEGER)`
/// plus `transitions(job_id, state, time)` for the state timeline, and `meta(key, value)`.
class JobStore : public QObject {
    Q_OBJECT
public:
    explicit JobStore(QObject* parent = nullptr);
    ~JobStore() override;

    /// Opens (creating when needed) the database file. Returns false and sets *error on failure.
    bool open(const QString& path, QString* error);

    /// Inserts a new job (createTime defaults to now, state to QUEUED; the etag is computed) and
    /// records its first transition. Fails (returns false, *error set) when the jobId exists.
    bool insert(const Job& job, QString* error);
    /// Replaces a job's record (state, times, output, labels …) and records a state
    /// transition when the state changed. The stored etag is recomputed (the `etag` of `job` is
    /// ignored), so any change of the record changes the etag. Emits jobChanged with the stored
    /// record after the commit. Fails for an unknown jobId.
    bool update(const Job& job, QString* error = nullptr);

    std::optional<Job> job(const QString& jobId) const;
    bool contains(const QString& jobId) const;
    /// All jobs in creation order (oldest first).
    QList<Job> jobs() const;
    /// Jobs whose state is not final (QUEUED, PREPARING, RUNNING, CANCELLING), creation order.
    QList<Job> liveJobs() const;

    /// The state timeline of a job: (state, RFC 3339 time) in order.
    QList<QPair<QString, QString>> transitions(const QString& jobId) const;

    /// The etag of a record: base64 of the first 9 bytes of SHA-256 over the job's compact JSON
    /// with `etag` empty (opaque to clients, as the service's).
    static QString computeEtag(const Job& job);

Q_SIGNALS:
    void jobChanged(const Trainyard::Job& job);

private:
    QString m_connectionName;
};

} // namespace Trainyard
