// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "auditlog.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace Trainyard {

/// The executor's audit log (app/executor/API.md, "Audit logs"): an append-only chain of Cloud Audit Logs entries
/// (models/auditlog.h) in its own SQLite file, `<dataDir>/audit.sqlite` (QSQLITE, WAL, synchronous=FULL, a busy
/// timeout, like JobStore and AccessStore).
///
/// Schema 1: `entries(seq INTEGER PRIMARY KEY, project TEXT NOT NULL, log_kind TEXT NOT NULL, json TEXT NOT NULL)`
/// (seq: the entry's place in the chain, 1, 2, …; project: the project the entry's logName names, "-" for an
/// executor-wide entry; log_kind "activity" | "data_access"; json: Audit::canonicalBytes() of the entry, which is
/// what the chain hashes), `meta(key, value)` (schemaVersion). A file of a newer schema is refused, never changed.
///
/// append() fills in `insertId` (Audit::insertIdFor(seq)) and the prev-hash label (Audit::entryHash() of the entry
/// before, as stored), and writes the row in one transaction: an entry is either whole in the file or absent.
/// The chain's head (the last place and its hash) is read at open() and kept, so an append costs one INSERT.
///
/// Main thread, as the API that uses it; not thread-safe.
class AuditStore {
public:
    AuditStore();
    ~AuditStore();
    AuditStore(const AuditStore&) = delete;
    AuditStore& operator=(const AuditStore&) = delete;

    /// Opens (creating when needed) `path`. False and *error on failure.
    bool open(const QString& path, QString* error);
    bool isOpen() const;

    /// Holds SQLite's write lock (BEGIN IMMEDIATE) so that the append() that follows cannot meet a locked or
    /// read-only file: the router takes it before a call that changes something runs, and refuses the call (503
    /// UNAVAILABLE) when it cannot. False and *error when the lock cannot be had. Appends made while it is held join
    /// the transaction; commit() ends it.
    bool begin(QString* error);
    /// Commits what append() wrote since begin(); false and *error when the commit failed (nothing of it is kept).
    bool commit(QString* error);
    /// Drops what append() wrote since begin().
    void rollback();

    /// Appends `entry` (without insertId and prev-hash: they are set here) to the chain; returns it as stored. In a
    /// begin()/commit() pair the row is written with that transaction, else in its own. nullopt and *error when the
    /// write failed: the chain's head is unchanged then.
    std::optional<QJsonObject> append(QJsonObject entry, QString* error);

    /// Entries newest first, those of `project` and the executor-wide ones ("-": every entry), with a place below
    /// `before` (0: from the newest), that `accept` accepts (null: all), at most `pageSize`; *next is the place to
    /// continue below (0 when no entry is left).
    QList<QJsonObject> read(const QString& project, qint64 before, int pageSize,
        const std::function<bool(const QJsonObject&)>& accept, qint64* next) const;

    /// The number of entries in the chain.
    qint64 size() const { return m_lastSeq; }

private:
    QString m_connectionName;
    qint64 m_lastSeq = 0;
    QByteArray m_lastHash;
    /// The head as it was at begin(), restored by rollback() and a failed commit().
    qint64 m_txSeq = 0;
    QByteArray m_txHash;
    bool m_inTransaction = false;
};

} // namespace Trainyard
