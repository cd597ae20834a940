// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "auditlog.h"
#include "sqlitefile.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace Trainyard {

/// The executor's audit log (app/executor/API.md, "Audit logs"): an append-only chain of Cloud Audit Logs entries
/// (models/auditlog.h) in its own SQLite file, `<dataDir>/audit.sqlite` (QSQLITE, WAL, synchronous=FULL, a busy
/// timeout, like JobStore and AccessStore; 64 KiB pages in a file it creates).
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
/// Group commit for Data Access entries (appendDeferred()): with synchronous=FULL each commit costs an fsync (1.2 to
/// 1.5 ms on the 2-core CI VM), and building, serialising and hashing an entry cost more than answering the read it
/// records, which held a read-heavy executor to a fifth of its requests/s. So a deferred entry is handed over as a
/// function that builds it (or a record of plain bytes and a function that builds it from them), and a writer thread of
/// this store (with its own SQLite connection, on SQLite's C API: see WriterConnection) builds, chains and
/// writes the waiting entries in one transaction at most FlushInterval after the first was handed over, or as soon
/// as FlushBatch wait. flush() waits for it, and begin(), append(), read() and the destructor flush first, so the
/// file's order is the chain's and an Admin Activity entry follows every Data Access entry handed over before it.
/// What SIGKILL or a power cut loses is therefore at most the last FlushInterval of Data Access entries, never an
/// Admin Activity entry (those are on disk before their call is answered) and never a gap: the lost entries are the
/// chain's tail. A batch SQLite refuses is dropped whole, logged as critical with its size, and the chain goes on
/// from the last entry on disk.
///
/// The calls are made on one thread (the API's); the writer thread is internal.
class AuditStore {
public:
    AuditStore();
    ~AuditStore();
    AuditStore(const AuditStore&) = delete;
    AuditStore& operator=(const AuditStore&) = delete;

    /// Opens (creating when needed) `path` and starts the writer thread. False and *error on failure.
    bool open(const QString& path, QString* error);
    bool isOpen() const;

    /// Holds SQLite's write lock (BEGIN IMMEDIATE) so that the append() that follows cannot meet a locked or
    /// read-only file: the router takes it before a call that changes something runs, and refuses the call (503
    /// UNAVAILABLE) when it cannot. False and *error when the lock cannot be had. Appends made while it is held join
    /// the transaction; commit() ends it. Deferred entries are flushed first.
    ///
    /// A full disk is found here too, before the call runs: with less than MinFreeBytes free on the file's disk (the
    /// reserve file not counted) it is refused, *diskFull set, so that the entry's commit cannot be the first write to
    /// meet the full disk after the call took effect (a cancel was carried out, its entry lost). A call that frees
    /// space (`freesSpace`: a version's or a model's delete) is let through instead: the reserve file is given up for
    /// its entry and the store writes it needs, since refusing the one call that frees space would leave the disk full
    /// for good; keepReserve() makes it again once there is room.
    bool begin(QString* error, bool* diskFull = nullptr, bool freesSpace = false);
    /// Commits what append() wrote since begin(); false and *error when the commit failed (nothing of it is kept).
    /// When the disk filled up since begin() (another writer on the same disk), the reserve file is given up and the
    /// transaction written again once: the reserve is there so that a change made is never left without its entry.
    bool commit(QString* error);
    /// Drops what append() wrote since begin().
    void rollback();

    /// Appends `entry` (without insertId and prev-hash: they are set here) to the chain; returns it as stored. In a
    /// begin()/commit() pair the row is written with that transaction, else in its own, after the deferred entries.
    /// nullopt and *error when the write failed: the chain's head is unchanged then.
    std::optional<QJsonObject> append(QJsonObject entry, QString* error);

    /// An entry as the chain stores it: Audit::canonicalBytes() of the entry with its insertId and prev-hash, and
    /// the row's columns.
    struct Chained {
        QByteArray bytes;
        QString project; ///< "-": executor-wide
        bool dataAccess = false;
    };
    /// `entry` at place `seq` after the entry whose hash is `prevHash`: sets insertId and the prev-hash label.
    static Chained chain(QJsonObject entry, qint64 seq, const QByteArray& prevHash);
    /// Makes an entry's chained form at its place (the writer calls it in chain order). Must give exactly what
    /// chain() would give for the same entry: the bytes are what the next entry's prev-hash covers.
    using Builder = std::function<Chained(qint64 seq, const QByteArray& prevHash)>;

    /// Hands over an entry that may reach the disk up to FlushInterval later (Data Access): `build` makes it on the
    /// writer thread, so it must only read what it captured by value. In a begin()/commit() pair the entry is built
    /// and appended at once. False and *error when the store is not open.
    bool appendDeferred(Builder build, QString* error);
    /// As above, for an entry made (without insertId and prev-hash) by `build` on the writer thread.
    bool appendDeferred(std::function<QJsonObject()> build, QString* error);
    /// Makes an entry's chained form at its place from a record's bytes (see below); any thread.
    using RecordBuilder = Chained (*)(QByteArrayView record, qint64 seq, const QByteArray& prevHash);
    /// As above, for an entry described by `record`, bytes the caller encodes and `build` decodes: they are copied
    /// into the queue, so the caller's thread and the writer share no object (Data Access entries: the API's thread
    /// answers thousands of reads a second, and a reference count or heap block handed to the writer for each was
    /// most of what an entry cost the API's thread; bench_api, issue 28).
    bool appendDeferred(QByteArrayView record, RecordBuilder build, QString* error);

    /// Waits until every entry handed over is written. False and *error when a batch failed since the last flush()
    /// (its entries are lost, the head went back to the last entry on disk); true otherwise.
    bool flush(QString* error);

    /// The longest a deferred entry waits, and the number that are written at once without waiting.
    static constexpr int FlushInterval = 100; ///< ms
    static constexpr int FlushBatch = 512;
    /// How often the head anchor (setHeadAnchor()) is rewritten at most while Data Access entries stream in; an
    /// Admin Activity entry's commit and the store's close rewrite it at once.
    static constexpr std::chrono::milliseconds AnchorInterval { 1000 };

    /// Entries newest first, those of `project` and the executor-wide ones ("-": every entry), with a place below
    /// `before` (0: from the newest), that `accept` accepts (null: all), at most `pageSize`; *next is the place to
    /// continue below (0 when no entry is left). Deferred entries are flushed first, so a read sees all appended.
    QList<QJsonObject> read(const QString& project, qint64 before, int pageSize,
        const std::function<bool(const QJsonObject&)>& accept, qint64* next);

    /// The number of entries in the chain, with those handed over and not yet written.
    qint64 size() const;

    /// The free space begin() wants on the audit file's disk before a change runs (bytes): an entry (at most a
    /// few tens of KiB, HttpApi::MaxRecordedRequestBytes) and its WAL frames, with room to spare.
    static constexpr qint64 MinFreeBytes = 512 * 1024;
    /// The size of `<file>.reserve`, made at open() and remade by begin() when there is room again (bytes).
    static constexpr qint64 ReserveBytes = 512 * 1024;

    /// The chain's head: its newest entry's place and hash, once written (nullopt for an empty chain).
    std::optional<Audit::Head> head() const;
    /// Keeps the head outside the file as well: after every write that moves it, `path` (Audit::headAnchorPath()) is
    /// rewritten with it (Audit::writeHeadAnchor()), so that removing entries from the file's end is found by
    /// `audit verify`, which the chain alone cannot show; after Data Access batches at most every AnchorInterval
    /// (the last one's too, once the interval is over). Call before open(); empty: none.
    void setHeadAnchor(const QString& path, const QString& dataDir);

private:
    struct Writer;
    /// Adds an entry to the writer's queue (`add` appends it under the lock) and wakes the writer when it is the
    /// first one or completes a batch.
    template <typename Add> void enqueue(const Add& add);
    /// flush(), whose failure the writer has logged already.
    void flushOrLog();
    /// Writes `build`'s entry at the head on this thread's connection (in the open transaction, if any) and moves
    /// the head; the writer must be idle. nullopt and *error when SQLite refused the row (the head unchanged).
    std::optional<Chained> appendNow(const Builder& build, QString* error);

    SqliteFile m_file { QStringLiteral("trainyard-audit") };
    /// m_file's, for the queries.
    const QString m_connectionName = m_file.connectionName();
    std::unique_ptr<Writer> m_writer;
    /// The head as it was at begin(), restored by rollback() and a failed commit().
    qint64 m_txSeq = 0;
    QByteArray m_txHash;
    bool m_inTransaction = false;
    /// What append() wrote in the open transaction, to write again when its commit met a full disk.
    QList<std::pair<qint64, Chained>> m_txEntries;
    QString m_reservePath;
    /// Makes the reserve file when it is missing and the disk has room for it and MinFreeBytes besides.
    void keepReserve();
    /// Writes the head anchor (setHeadAnchor()) for the head now; any thread.
    void anchorHead();
    QString m_anchorPath;
    QString m_anchorDataDir;
};

} // namespace Trainyard
