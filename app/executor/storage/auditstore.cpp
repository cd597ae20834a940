// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditstore.h"
#include "sqlitefile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStorageInfo>
#include <QVariant>

#include <chrono>
#include <condition_variable>
#include <future>
#include <limits>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

namespace Trainyard {

Q_LOGGING_CATEGORY(lcAudit, "trainyard.executor")

namespace {
constexpr int AuditSchemaVersion = 1;

/// The project an entry's logName names ("projects/p/logs/…" → "p").
QString projectOf(const QJsonObject& entry)
{
    const QString name = entry.value(QLatin1String("logName")).toString();
    const QStringList parts = name.split(QLatin1Char('/'));
    return parts.size() >= 2 && parts.first() == QLatin1String("projects") ? parts.at(1) : QStringLiteral("-");
}

QSqlQuery insertQuery(const QSqlDatabase& db)
{
    QSqlQuery query(db);
    // The JSON goes in as its UTF-8 bytes, cast to TEXT by SQLite (no conversion: TEXT is UTF-8 in this file), which
    // spares two UTF-8/UTF-16 conversions of every entry.
    query.prepare(
        QStringLiteral("INSERT INTO entries(seq, project, log_kind, json) VALUES (?, ?, ?, CAST(? AS TEXT))"));
    return query;
}

/// Writes one chained entry with `query` (insertQuery()); false and *error when SQLite refused it.
bool insert(QSqlQuery& query, qint64 seq, const AuditStore::Chained& entry, QString* error)
{
    query.bindValue(0, seq);
    query.bindValue(1, entry.project);
    query.bindValue(2, entry.dataAccess ? QStringLiteral("data_access") : QStringLiteral("activity"));
    query.bindValue(3, entry.bytes);
    if (!query.exec()) {
        *error = QStringLiteral("cannot store the audit entry: ") + query.lastError().text();
        return false;
    }
    return true;
}

/// The writer thread's connection, on SQLite's C API rather than QtSql: QSqlResult::bindValue() formats and hashes
/// a placeholder name for every value it binds (Qt 6.4's QSqlResultPrivate::fieldSerial()) and converts texts to
/// UTF-16 and back, which cost more than SQLite's INSERT itself at thousands of Data Access entries a second (issue
/// 28, bench_audit). Opened as SqliteFile opens a store's file (WAL, synchronous=FULL, a 5 s busy timeout), after
/// it, so the schema is there. The QSQLITE driver links the same shared libsqlite3 (Debian's, and the .deb depends
/// on it), so the process has one SQLite and its POSIX locks on the file stay consistent between the connections.
class WriterConnection {
public:
    WriterConnection() = default;
    WriterConnection(const WriterConnection&) = delete;
    WriterConnection& operator=(const WriterConnection&) = delete;
    ~WriterConnection()
    {
        sqlite3_finalize(m_insert);
        sqlite3_close_v2(m_db);
    }

    /// False and *error when the file cannot be opened for writing or the statement not prepared.
    bool open(const QString& path, QString* error)
    {
        const int rc = sqlite3_open_v2(QFile::encodeName(path).constData(), &m_db,
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nullptr);
        if (rc != SQLITE_OK) {
            *error = QStringLiteral("cannot open %1: %2").arg(path, message(rc));
            return false;
        }
        sqlite3_busy_timeout(m_db, 5000);
        if (!exec("PRAGMA synchronous=FULL", error))
            return false;
        static constexpr char Insert[] = "INSERT INTO entries(seq, project, log_kind, json) VALUES (?, ?, ?, ?)";
        if (sqlite3_prepare_v3(m_db, Insert, int(sizeof Insert), SQLITE_PREPARE_PERSISTENT, &m_insert, nullptr)
            != SQLITE_OK) {
            *error = QStringLiteral("cannot prepare the audit writer's INSERT: ") + message();
            return false;
        }
        return true;
    }

    /// Runs `sql` (no rows); false and *error with SQLite's message.
    bool exec(const char* sql, QString* error)
    {
        if (sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK)
            return true;
        *error = message();
        return false;
    }

    /// Writes one chained entry at `seq`; false and *error when SQLite refused it.
    bool insert(qint64 seq, const AuditStore::Chained& entry, QString* error)
    {
        const QByteArray project = entry.project.toUtf8();
        static constexpr char DataAccess[] = "data_access";
        static constexpr char Activity[] = "activity";
        sqlite3_bind_int64(m_insert, 1, seq);
        sqlite3_bind_text(m_insert, 2, project.constData(), int(project.size()), SQLITE_STATIC);
        if (entry.dataAccess)
            sqlite3_bind_text(m_insert, 3, DataAccess, int(sizeof DataAccess - 1), SQLITE_STATIC);
        else
            sqlite3_bind_text(m_insert, 3, Activity, int(sizeof Activity - 1), SQLITE_STATIC);
        // The bytes are UTF-8 (TEXT in this file is UTF-8): stored as they are, what the chain hashes.
        sqlite3_bind_text(m_insert, 4, entry.bytes.constData(), int(entry.bytes.size()), SQLITE_STATIC);
        const int rc = sqlite3_step(m_insert);
        sqlite3_reset(m_insert);
        sqlite3_clear_bindings(m_insert);
        if (rc == SQLITE_DONE)
            return true;
        *error = QStringLiteral("cannot store the audit entry: ") + message();
        return false;
    }

private:
    QString message(int rc = SQLITE_OK) const
    {
        if (m_db)
            return QString::fromUtf8(sqlite3_errmsg(m_db));
        return QString::fromUtf8(sqlite3_errstr(rc));
    }

    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_insert = nullptr;
};
} // namespace

/// The writer thread and the state it shares with the API's thread, all under `mutex`: the chain's head, the
/// entries handed over, and whether a batch is being written. The API's thread writes (append(), transactions)
/// only after flush(), i.e. while the writer is idle, so the two never write at once.
struct AuditStore::Writer {
    std::mutex mutex;
    std::condition_variable wake; ///< to the writer: entries, a flush or stop
    std::condition_variable idle; ///< to flush(): the queue is written
    qint64 lastSeq = 0;
    QByteArray lastHash;
    /// Entries handed over and not yet taken by the writer, in chain order. A record's bytes are copied into one
    /// buffer and the writer swaps the whole queue for its emptied one: in the steady state no entry allocates or
    /// frees memory, and the API's thread shares no object (no reference count, no heap block) with the writer.
    struct Queue {
        struct Item {
            RecordBuilder record = nullptr; ///< null: the next of `builders`
            qsizetype offset = 0;
            qsizetype size = 0;
        };
        std::vector<Item> items;
        std::string bytes;
        std::vector<Builder> builders;
        bool isEmpty() const { return items.empty(); }
        qsizetype size() const { return qsizetype(items.size()); }
        void clear()
        {
            items.clear();
            bytes.clear();
            builders.clear();
        }
    };
    Queue queue;
    std::chrono::steady_clock::time_point firstQueued;
    qsizetype writing = 0; ///< entries in the batch being written
    bool flushing = false;
    bool stopping = false;
    QString failure; ///< of the batches since the last flush(), for it to report
    std::function<void()> written; ///< after each batch that moved the head (on the writer's thread)
    std::thread thread;

    bool start(const QString& path, QString* error)
    {
        // Shared: the thread may still be inside set_value() when get() returns here.
        auto opened = std::make_shared<std::promise<QString>>();
        std::future<QString> result = opened->get_future();
        thread = std::thread([this, path, opened] { run(path, *opened); });
        const QString problem = result.get();
        if (problem.isEmpty())
            return true;
        thread.join();
        *error = problem;
        return false;
    }

    void stop()
    {
        if (!thread.joinable())
            return;
        {
            const std::lock_guard lock(mutex);
            stopping = true;
        }
        wake.notify_all();
        thread.join();
    }

    void run(const QString& path, std::promise<QString>& opened)
    {
        WriterConnection db;
        QString problem;
        if (!db.open(path, &problem)) {
            opened.set_value(QStringLiteral("the audit writer: ") + problem);
            return;
        }
        opened.set_value(QString());
        loop(db);
    }

    void loop(WriterConnection& db)
    {
        Queue batch; // the writer's side of the swap
        // The head anchor (setHeadAnchor()) follows a stream of Data Access batches at most every AnchorInterval:
        // rewriting it (a new file, fsync, rename) after every batch cost the writer more than hashing the batch.
        bool anchorDue = false;
        auto lastAnchor = std::chrono::steady_clock::time_point();
        std::unique_lock lock(mutex);
        const auto anchor = [&] {
            anchorDue = false;
            lastAnchor = std::chrono::steady_clock::now();
            lock.unlock();
            written();
            lock.lock();
        };
        const auto entries = [this] { return stopping || !queue.isEmpty(); };
        for (;;) {
            if (!anchorDue)
                wake.wait(lock, entries);
            else if (!wake.wait_until(lock, lastAnchor + AnchorInterval, entries))
                anchor(); // no entries came meanwhile
            if (queue.isEmpty()) {
                if (!stopping)
                    continue;
                if (anchorDue)
                    anchor();
                return; // stopping, and all written
            }
            wake.wait_until(lock, firstQueued + std::chrono::milliseconds(FlushInterval),
                [this] { return stopping || flushing || queue.size() >= FlushBatch; });
            std::swap(queue, batch);
            writing = batch.size();
            qint64 seq = lastSeq;
            QByteArray hash = lastHash;
            lock.unlock();

            QString problem;
            db.exec("BEGIN", &problem);
            auto builder = batch.builders.cbegin();
            for (const Queue::Item& item : batch.items) {
                if (!problem.isEmpty())
                    break;
                const Chained entry = item.record
                    ? item.record(QByteArrayView(batch.bytes.data() + item.offset, item.size), seq + 1, hash)
                    : (*builder++)(seq + 1, hash);
                if (db.insert(seq + 1, entry, &problem)) {
                    ++seq;
                    hash = Audit::bytesHash(entry.bytes);
                }
            }
            if (problem.isEmpty())
                db.exec("COMMIT", &problem);
            if (!problem.isEmpty()) {
                QString ignored;
                db.exec("ROLLBACK", &ignored);
                problem = QStringLiteral("%1 Data Access audit entries were lost: %2").arg(batch.size()).arg(problem);
                qCCritical(lcAudit).noquote() << "cannot write the audit log:" << problem;
            }

            batch.clear(); // its memory is kept for the next swap
            lock.lock();
            if (problem.isEmpty()) {
                lastSeq = seq;
                lastHash = hash;
            } else if (failure.isEmpty()) {
                failure = problem;
            }
            writing = 0;
            idle.notify_all();
            anchorDue = anchorDue || (problem.isEmpty() && written);
            if (anchorDue && std::chrono::steady_clock::now() >= lastAnchor + AnchorInterval)
                anchor();
        }
    }
};

AuditStore::AuditStore()
    : m_writer(std::make_unique<Writer>())
{
}

AuditStore::~AuditStore()
{
    // The writer writes what is left before it stops; an open transaction is dropped (nothing was handed over
    // since begin(), which flushed).
    m_writer->stop();
    if (m_inTransaction)
        QSqlQuery(m_file.database()).exec(QStringLiteral("ROLLBACK"));
}

bool AuditStore::isOpen() const
{
    return m_file.isOpen();
}

bool AuditStore::open(const QString& path, QString* error)
{
    // An audit entry is on disk before the call it records is answered (synchronous=FULL), as a job's create.
    SqliteFile::Options options;
    options.synchronous = QStringLiteral("FULL");
    // SQLite's largest page: an entry is about 1 KiB, and a batch of Data Access entries then fills a few pages
    // rather than a hundred, which the WAL and its checkpoint write with per-page work (bench_audit: 4.7 against 6.2
    // us an entry with 4 KiB pages). An Admin Activity commit writes its pages whole, 64 KiB each; it is rare (a
    // change, rationed per caller). A file made with an earlier page size keeps it.
    options.pageSize = 65536;
    options.schemaVersion = AuditSchemaVersion;
    options.schema = {
        QStringLiteral("CREATE TABLE IF NOT EXISTS entries (seq INTEGER PRIMARY KEY NOT NULL, "
                       "project TEXT NOT NULL, log_kind TEXT NOT NULL, json TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS entries_project ON entries(project, seq)"),
    };
    if (!m_file.open(path, options, error))
        return false;
    // The chain's head: the last row as stored (its bytes are what the next prev-hash covers, even when they were
    // changed behind the executor's back: `audit verify` reports that, the chain goes on from what is there).
    qint64 lastSeq = 0;
    QByteArray lastHash = Audit::genesisHash();
    {
        QSqlQuery query(m_file.database());
        if (query.exec(QStringLiteral("SELECT seq, json FROM entries ORDER BY seq DESC LIMIT 1")) && query.next()) {
            lastSeq = query.value(0).toLongLong();
            lastHash = Audit::entryHash(QJsonDocument::fromJson(query.value(1).toByteArray()).object());
        }
    }
    {
        const std::lock_guard lock(m_writer->mutex);
        m_writer->lastSeq = lastSeq;
        m_writer->lastHash = lastHash;
    }
    m_reservePath = QFileInfo(path).absoluteFilePath() + QStringLiteral(".reserve");
    keepReserve();
    m_writer->written = [this] { anchorHead(); };
    anchorHead();
    QString problem;
    if (!m_writer->start(QFileInfo(path).absoluteFilePath(), &problem)) {
        m_file.close();
        if (error)
            *error = problem;
        return false;
    }
    return true;
}

bool AuditStore::begin(QString* error, bool* diskFull, bool freesSpace)
{
    if (diskFull)
        *diskFull = false;
    if (!isOpen()) {
        *error = QStringLiteral("the audit store is not open");
        return false;
    }
    if (m_inTransaction) {
        *error = QStringLiteral("an audit transaction is already open");
        return false;
    }
    // The deferred entries come before this transaction's in the chain, so they reach the file first. A batch that
    // cannot be written is lost (logged); the call itself needs only its own entry, which the lock below secures.
    flushOrLog();
    // A disk too full for the entry refuses the call now, before it runs (the reserve file does not count: it is
    // for the race with another writer between here and the commit).
    const QStorageInfo disk(QFileInfo(m_reservePath).absolutePath());
    if (freesSpace && disk.isValid() && disk.bytesAvailable() >= 0 && disk.bytesAvailable() < MinFreeBytes
        && QFile::remove(m_reservePath)) {
        qCWarning(lcAudit).noquote() << "the data disk is full: the audit log's reserve was given up for a call that "
                                        "frees space";
    } else if (disk.isValid() && disk.bytesAvailable() >= 0 && disk.bytesAvailable() < MinFreeBytes) {
        *error = QStringLiteral("database or disk is full: %1 bytes are free on the disk of the audit log, which needs "
                                "%2 to record a change")
                     .arg(disk.bytesAvailable())
                     .arg(MinFreeBytes);
        if (diskFull)
            *diskFull = true;
        return false;
    }
    keepReserve();
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    // IMMEDIATE takes the write lock now: a file that cannot be written (read-only, locked past the busy
    // timeout) is found before the call that needs an entry runs.
    if (!query.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
        *error = query.lastError().text();
        return false;
    }
    m_inTransaction = true;
    m_txEntries.clear();
    const std::lock_guard lock(m_writer->mutex);
    m_txSeq = m_writer->lastSeq;
    m_txHash = m_writer->lastHash;
    return true;
}

void AuditStore::keepReserve()
{
    if (m_reservePath.isEmpty() || QFileInfo::exists(m_reservePath))
        return;
    const QStorageInfo disk(QFileInfo(m_reservePath).absolutePath());
    if (!disk.isValid() || disk.bytesAvailable() < MinFreeBytes + ReserveBytes)
        return;
    // Blocks allocated for real (posix_fallocate), not a sparse file: deleting it must free space.
    const int fd = ::open(QFile::encodeName(m_reservePath).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    const bool ok = ::posix_fallocate(fd, 0, ReserveBytes) == 0;
    ::close(fd);
    if (!ok)
        QFile::remove(m_reservePath);
}

std::optional<Audit::Head> AuditStore::head() const
{
    const std::lock_guard lock(m_writer->mutex);
    if (m_writer->lastSeq == 0)
        return std::nullopt;
    return Audit::Head { Audit::insertIdFor(m_writer->lastSeq), m_writer->lastHash };
}

void AuditStore::setHeadAnchor(const QString& path, const QString& dataDir)
{
    m_anchorPath = path;
    m_anchorDataDir = dataDir;
}

void AuditStore::anchorHead()
{
    if (m_anchorPath.isEmpty())
        return;
    const std::optional<Audit::Head> now = head();
    if (!now)
        return;
    // Both threads write it (this one after a commit, the writer after a batch): one at a time, the newest last.
    static std::mutex anchoring;
    const std::lock_guard lock(anchoring);
    const std::optional<Audit::Head> latest = head();
    QString problem;
    if (latest && !Audit::writeHeadAnchor(m_anchorPath, m_anchorDataDir, *latest, &problem))
        qCWarning(lcAudit).noquote() << "cannot keep the audit log's head outside it:" << problem;
}

bool AuditStore::commit(QString* error)
{
    if (!m_inTransaction)
        return true;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName);
    QSqlQuery query(db);
    m_inTransaction = false;
    if (query.exec(QStringLiteral("COMMIT"))) {
        m_txEntries.clear();
        anchorHead();
        return true;
    }
    *error = query.lastError().text();
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    // The disk filled up since begin() checked it: the reserve gives the room back, and the same rows are written
    // again, at the same places. The call has taken effect by now; its entry must not be lost.
    const bool full = error->contains(QLatin1String("database or disk is full"))
        || error->contains(QLatin1String("No space left on device"));
    if (full && !m_reservePath.isEmpty() && QFile::remove(m_reservePath)) {
        qCWarning(lcAudit).noquote() << "the disk filled up before an audit entry was committed; the audit log's "
                                        "reserve was given up to write it";
        QSqlQuery again(db);
        bool ok = again.exec(QStringLiteral("BEGIN IMMEDIATE"));
        QSqlQuery insertAgain = insertQuery(db);
        for (const auto& [seq, chained] : std::as_const(m_txEntries)) {
            QString problem;
            ok = ok && insert(insertAgain, seq, chained, &problem);
        }
        if (ok && again.exec(QStringLiteral("COMMIT"))) {
            m_txEntries.clear();
            anchorHead();
            return true;
        }
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    }
    m_txEntries.clear();
    const std::lock_guard lock(m_writer->mutex);
    m_writer->lastSeq = m_txSeq;
    m_writer->lastHash = m_txHash;
    return false;
}

void AuditStore::rollback()
{
    if (!m_inTransaction)
        return;
    m_inTransaction = false;
    m_txEntries.clear();
    QSqlQuery(QSqlDatabase::database(m_connectionName)).exec(QStringLiteral("ROLLBACK"));
    const std::lock_guard lock(m_writer->mutex);
    m_writer->lastSeq = m_txSeq;
    m_writer->lastHash = m_txHash;
}

std::optional<QJsonObject> AuditStore::append(QJsonObject entry, QString* error)
{
    if (!isOpen()) {
        *error = QStringLiteral("the audit store is not open");
        return std::nullopt;
    }
    // In a transaction the deferred entries were flushed by begin(); outside one they go first, in order.
    if (!m_inTransaction)
        flushOrLog();
    const std::optional<Chained> chained
        = appendNow([&entry](qint64 seq, const QByteArray& prevHash) { return chain(entry, seq, prevHash); }, error);
    if (!chained)
        return std::nullopt;
    return QJsonDocument::fromJson(chained->bytes).object();
}

std::optional<AuditStore::Chained> AuditStore::appendNow(const Builder& build, QString* error)
{
    // The writer is idle: flushed, and nothing is handed over on this thread meanwhile.
    qint64 seq;
    QByteArray prevHash;
    {
        const std::lock_guard lock(m_writer->mutex);
        seq = m_writer->lastSeq + 1;
        prevHash = m_writer->lastHash;
    }
    Chained chained = build(seq, prevHash);
    QSqlQuery query = insertQuery(m_file.database());
    if (!insert(query, seq, chained, error))
        return std::nullopt;
    {
        const std::lock_guard lock(m_writer->mutex);
        m_writer->lastSeq = seq;
        m_writer->lastHash = Audit::bytesHash(chained.bytes);
    }
    if (m_inTransaction)
        m_txEntries.append({ seq, chained });
    else
        anchorHead();
    return chained;
}

AuditStore::Chained AuditStore::chain(QJsonObject entry, qint64 seq, const QByteArray& prevHash)
{
    entry.insert(QStringLiteral("insertId"), Audit::insertIdFor(seq));
    QJsonObject labels = entry.value(QLatin1String("labels")).toObject();
    labels.insert(Audit::prevHashLabel(), QString::fromLatin1(prevHash));
    entry.insert(QStringLiteral("labels"), labels);
    return Chained { Audit::canonicalBytes(entry), projectOf(entry),
        Audit::logKindOf(entry.value(QLatin1String("logName")).toString()) == Audit::LogKind::DataAccess };
}

bool AuditStore::appendDeferred(std::function<QJsonObject()> build, QString* error)
{
    return appendDeferred(
        [build = std::move(build)](qint64 seq, const QByteArray& prevHash) { return chain(build(), seq, prevHash); },
        error);
}

bool AuditStore::appendDeferred(Builder build, QString* error)
{
    if (!isOpen()) {
        *error = QStringLiteral("the audit store is not open");
        return false;
    }
    // The transaction's appends are synchronous: the entry goes in now, at the head.
    if (m_inTransaction)
        return appendNow(build, error).has_value();
    enqueue([&build](Writer::Queue& queue) {
        queue.items.push_back({});
        queue.builders.push_back(std::move(build));
    });
    return true;
}

bool AuditStore::appendDeferred(QByteArrayView record, RecordBuilder build, QString* error)
{
    if (!isOpen()) {
        *error = QStringLiteral("the audit store is not open");
        return false;
    }
    if (m_inTransaction)
        return appendNow(
            [record, build](qint64 seq, const QByteArray& prevHash) { return build(record, seq, prevHash); }, error)
            .has_value();
    enqueue([record, build](Writer::Queue& queue) {
        queue.items.push_back({ build, qsizetype(queue.bytes.size()), record.size() });
        queue.bytes.append(record.data(), std::size_t(record.size()));
    });
    return true;
}

template <typename Add> void AuditStore::enqueue(const Add& add)
{
    bool wake = false;
    {
        const std::lock_guard lock(m_writer->mutex);
        if (m_writer->queue.isEmpty()) {
            m_writer->firstQueued = std::chrono::steady_clock::now();
            wake = true;
        }
        add(m_writer->queue);
        // Once at the batch's size, not for every entry after it: each wake-up costs the writer a context switch.
        wake = wake || m_writer->queue.size() == FlushBatch;
    }
    if (wake)
        m_writer->wake.notify_all();
}

bool AuditStore::flush(QString* error)
{
    Writer& w = *m_writer;
    std::unique_lock lock(w.mutex);
    if (!w.queue.isEmpty() || w.writing > 0) {
        w.flushing = true;
        lock.unlock();
        w.wake.notify_all();
        lock.lock();
        w.idle.wait(lock, [&w] { return w.queue.isEmpty() && w.writing == 0; });
        w.flushing = false;
    }
    if (w.failure.isEmpty())
        return true;
    if (error)
        *error = std::exchange(w.failure, QString());
    else
        w.failure.clear();
    return false;
}

void AuditStore::flushOrLog()
{
    // The writer logged the failure when it happened; here it is only taken so it is not reported twice.
    flush(nullptr);
}

qint64 AuditStore::size() const
{
    const std::lock_guard lock(m_writer->mutex);
    return m_writer->lastSeq + m_writer->queue.size() + m_writer->writing;
}

QList<QJsonObject> AuditStore::read(const QString& project, qint64 before, int pageSize,
    const std::function<bool(const QJsonObject&)>& accept, qint64* next)
{
    QList<QJsonObject> entries;
    *next = 0;
    if (!isOpen() || pageSize <= 0)
        return entries;
    if (!m_inTransaction)
        flushOrLog();
    const bool all = project == QLatin1String("-");
    QSqlQuery query(QSqlDatabase::database(m_connectionName));
    query.setForwardOnly(true);
    query.prepare(all
            ? QStringLiteral("SELECT seq, json, project, log_kind FROM entries WHERE seq < ? ORDER BY seq DESC")
            : QStringLiteral("SELECT seq, json, project, log_kind FROM entries WHERE seq < ? AND project IN (?, '-') "
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
        QJsonObject entry = QJsonDocument::fromJson(query.value(1).toByteArray()).object();
        // The columns reads select on are not in the entry's hash: one changed behind the executor's back is shown
        // on the entry it belongs to, which then no longer hashes to what the next entry records, so that `audit
        // verify` reports the entry as changed (and a project's list does not silently gain or lose it).
        const QString problem = Audit::rowProblem(seq, query.value(2).toString(), query.value(3).toString(), entry);
        if (!problem.isEmpty()) {
            qCCritical(lcAudit).noquote() << "the audit log's row" << seq << "was changed:" << problem;
            QJsonObject labels = entry.value(QLatin1String("labels")).toObject();
            labels.insert(Audit::rowChangedLabel(), problem);
            entry.insert(QStringLiteral("labels"), labels);
        }
        if (!accept || accept(entry)) {
            entries.append(entry);
            lastTaken = seq;
        }
    }
    return entries;
}

} // namespace Trainyard
