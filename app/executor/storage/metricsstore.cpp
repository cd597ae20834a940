// SPDX-License-Identifier: GPL-2.0-or-later
#include "metricsstore.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcMetricsStore, "trainyard.executor")

QString escapeComponent(const QString& text)
{
    QString out = text;
    out.replace(QLatin1Char('%'), QLatin1String("%25"));
    out.replace(QLatin1Char('/'), QLatin1String("%2F"));
    return out;
}

MetricSeriesInfo seriesFromQuery(const QSqlQuery& q)
{
    MetricSeriesInfo s;
    s.id = q.value(0).toLongLong();
    s.job = JobKey::fromName(q.value(1).toString());
    s.name = q.value(2).toString();
    s.key.kind = q.value(3).toString();
    s.key.run = q.value(4).toString();
    s.key.tag = q.value(5).toString();
    s.key.taskName = q.value(6).toString();
    s.key.trialId = q.value(7).toString();
    s.pointCount = q.value(8).toLongLong();
    s.lastSeq = q.value(9).toLongLong();
    return s;
}

const QString kSeriesColumns
    = QStringLiteral("id, job_id, name, kind, run, tag, task_name, trial_id, point_count, last_seq");

/// A rowid table with an index on (series_id, block), not a WITHOUT ROWID table keyed by them as before: SQLite
/// compares index keys on whole records, so every step of a lookup in that b-tree read a block's blob and its
/// overflow pages (a quarter of the store's CPU time in bench_metrics' 200 MB ingest).
const QString kCreateBlocks = QStringLiteral(
    "CREATE TABLE %1 (id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL, block INTEGER NOT NULL, "
    "count INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, min_step INTEGER NOT NULL, "
    "max_step INTEGER NOT NULL, encoding INTEGER NOT NULL, data BLOB NOT NULL, UNIQUE(series_id, block))");
const QString kBlockColumns
    = QStringLiteral("series_id, block, count, first_seq, last_seq, min_step, max_step, encoding, data");

/// A stored point in a block's blob: seq, step (int64), wall time, value (double), host byte order.
struct StoredPoint {
    qint64 seq;
    qint64 step;
    double wallTime;
    double value;
};
static_assert(sizeof(StoredPoint) == 32, "a block's blob is an array of 32-byte points");

MetricPoint toPoint(const StoredPoint& p)
{
    return { p.seq, p.step, p.wallTime, p.value };
}

/// How a block's blob is laid out (the `encoding` column).
enum BlockEncoding : int {
    /// An array of 32-byte StoredPoints (the first block format; still read, rewritten as Varint when appended to).
    Fixed32 = 0,
    /// A flags byte (bit 0: values are float32), then per point: seq, step and the bits of the wall time, each as
    /// the difference from the previous point's (the first point's from 0) in a zigzag LEB128 varint, then the
    /// value (4 or 8 bytes, host byte order). Lossless: wall-time bits and values are stored bit for bit. A
    /// trainer's point takes 7–10 bytes instead of 32 (seq and step differences fit a byte, wall times a few ms
    /// or seconds apart 2–4 bytes, most event-file values are floats), so a catch-up writes a quarter of the
    /// bytes to the WAL and the database.
    Varint = 1,
};
constexpr quint8 FloatValues = 1;

quint64 zigzag(qint64 v)
{
    return (quint64(v) << 1) ^ quint64(v >> 63);
}

qint64 unzigzag(quint64 v)
{
    return qint64(v >> 1) ^ -qint64(v & 1);
}

quint64 bitsOf(double d)
{
    quint64 bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

double doubleOf(quint64 bits)
{
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

char* putVarint(char* out, quint64 v)
{
    while (v >= 0x80) {
        *out++ = char(v | 0x80);
        v >>= 7;
    }
    *out++ = char(v);
    return out;
}

/// Reads a varint at `in` (not past `end`); nullptr when the bytes end first or it is longer than 10 bytes.
const char* getVarint(const char* in, const char* end, quint64* v)
{
    quint64 result = 0;
    for (int shift = 0; shift < 64 && in < end; shift += 7) {
        const quint8 byte = quint8(*in++);
        result |= quint64(byte & 0x7f) << shift;
        if (byte < 0x80) {
            *v = result;
            return in;
        }
    }
    return nullptr;
}

/// Appends the points of a block's blob to `points` (a damaged tail, which no commit writes, is ignored).
void decodeBlock(int encoding, QByteArrayView blob, std::vector<StoredPoint>& points)
{
    if (encoding == Fixed32) {
        const size_t count = size_t(blob.size()) / sizeof(StoredPoint);
        const size_t at = points.size();
        points.resize(at + count);
        if (count)
            std::memcpy(points.data() + at, blob.data(), count * sizeof(StoredPoint));
        return;
    }
    if (encoding != Varint || blob.isEmpty())
        return;
    const char* in = blob.data();
    const char* const end = in + blob.size();
    const bool floats = quint8(*in++) & FloatValues;
    const size_t valueBytes = floats ? sizeof(float) : sizeof(double);
    quint64 seq = 0, step = 0, wall = 0;
    while (in < end) {
        quint64 dSeq, dStep, dWall;
        if (!(in = getVarint(in, end, &dSeq)) || !(in = getVarint(in, end, &dStep))
            || !(in = getVarint(in, end, &dWall)) || size_t(end - in) < valueBytes)
            return;
        // Differences wrap in 64 bits, as they were taken.
        seq += quint64(unzigzag(dSeq));
        step += quint64(unzigzag(dStep));
        wall += quint64(unzigzag(dWall));
        double value;
        if (floats) {
            float f;
            std::memcpy(&f, in, sizeof f);
            value = f;
        } else {
            std::memcpy(&value, in, sizeof value);
        }
        in += valueBytes;
        points.push_back({ qint64(seq), qint64(step), doubleOf(wall), value });
    }
}

std::vector<StoredPoint> decodeBlock(int encoding, QByteArrayView blob)
{
    std::vector<StoredPoint> points;
    decodeBlock(encoding, blob, points);
    return points;
}

/// Whether a double survives a round trip through float bit for bit (NaNs included).
bool isFloat(double value)
{
    return bitsOf(double(float(value))) == bitsOf(value);
}

/// A Varint block of `count` points.
QByteArray encodeBlock(const StoredPoint* points, size_t count)
{
    const bool floats = std::all_of(points, points + count, [](const StoredPoint& p) { return isFloat(p.value); });
    QByteArray blob(qsizetype(1 + count * (3 * 10 + sizeof(double))), Qt::Uninitialized);
    char* out = blob.data();
    *out++ = char(floats ? FloatValues : 0);
    quint64 seq = 0, step = 0, wall = 0;
    for (size_t i = 0; i < count; ++i) {
        const StoredPoint& p = points[i];
        const quint64 wallBits = bitsOf(p.wallTime);
        out = putVarint(out, zigzag(qint64(quint64(p.seq) - seq)));
        out = putVarint(out, zigzag(qint64(quint64(p.step) - step)));
        out = putVarint(out, zigzag(qint64(wallBits - wall)));
        seq = quint64(p.seq);
        step = quint64(p.step);
        wall = wallBits;
        if (floats) {
            const float f = float(p.value);
            std::memcpy(out, &f, sizeof f);
            out += sizeof f;
        } else {
            std::memcpy(out, &p.value, sizeof p.value);
            out += sizeof p.value;
        }
    }
    blob.truncate(out - blob.constData());
    return blob;
}

/// Binds one block row's columns after `series_id, block`: count, first_seq, last_seq, min_step, max_step, encoding,
/// data (Varint).
void bindBlock(QSqlQuery& q, const StoredPoint* points, size_t count)
{
    qint64 minStep = points[0].step, maxStep = points[0].step;
    for (size_t i = 1; i < count; ++i) {
        minStep = std::min(minStep, points[i].step);
        maxStep = std::max(maxStep, points[i].step);
    }
    q.addBindValue(qint64(count));
    q.addBindValue(points[0].seq);
    q.addBindValue(points[count - 1].seq);
    q.addBindValue(minStep);
    q.addBindValue(maxStep);
    q.addBindValue(int(Varint));
    q.addBindValue(encodeBlock(points, count));
}
} // namespace

QString MetricSeriesKey::name() const
{
    const QString middle = kind == QLatin1String("scalar") ? run : taskName;
    // A trial's replica series (trial IDs start at 1; "0" is what the hypertune library writes outside a
    // trial) get the trial after an '@', which no task name holds.
    const bool trial = kind != QLatin1String("scalar") && !trialId.isEmpty() && trialId != QLatin1String("0");
    return kind + QLatin1Char('/') + escapeComponent(middle) + (trial ? QLatin1Char('@') + escapeComponent(trialId) : QString())
        + QLatin1Char('/') + tag;
}

size_t MetricBatch::pointCount() const
{
    size_t n = 0;
    for (const std::vector<Point>& p : points)
        n += p.size();
    return n;
}

int MetricBatch::seriesIndex(const MetricSeriesKey& key)
{
    for (size_t i = 0; i < series.size(); ++i) {
        if (series[i] == key)
            return int(i);
    }
    series.push_back(key);
    points.resize(series.size());
    return int(series.size() - 1);
}

void MetricBatch::purgeSeries(int index, qint64 fromStep)
{
    Purge purge { Purge::Series, index, fromStep, {} };
    for (const std::vector<Point>& p : points)
        purge.at.push_back(p.size());
    purges.push_back(std::move(purge));
}

void MetricBatch::purgeRun(const QString& run, qint64 fromStep)
{
    qsizetype index = runs.indexOf(run);
    if (index < 0) {
        index = runs.size();
        runs.append(run);
    }
    Purge purge { Purge::Run, int(index), fromStep, {} };
    for (const std::vector<Point>& p : points)
        purge.at.push_back(p.size());
    purges.push_back(std::move(purge));
}

MetricsStore::MetricsStore(QObject* parent)
    : QObject(parent)
{
}

MetricsStore::~MetricsStore() = default;

bool MetricsStore::open(const QString& path, QString* error)
{
    // A commit need not wait for the disk (synchronous=NORMAL): a crash may lose the last commits, and an event
    // file's offset is committed with its points, so those points are read again from the file.
    SqliteFile::Options options;
    options.synchronous = QStringLiteral("NORMAL");
    options.schema = {
        QStringLiteral("CREATE TABLE IF NOT EXISTS series (id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, "
                       "name TEXT NOT NULL, kind TEXT NOT NULL, run TEXT NOT NULL, tag TEXT NOT NULL, "
                       "task_name TEXT NOT NULL, trial_id TEXT NOT NULL, point_count INTEGER NOT NULL, "
                       "last_seq INTEGER NOT NULL, UNIQUE(job_id, name))"),
        kCreateBlocks.arg(QStringLiteral("IF NOT EXISTS blocks")),
        QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)"),
        QStringLiteral("INSERT OR IGNORE INTO meta (key, value) VALUES ('next_seq', 1)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS event_files (job_id TEXT NOT NULL, path TEXT NOT NULL, "
                       "offset INTEGER NOT NULL, PRIMARY KEY(job_id, path))"),
    };
    if (!m_file.open(path, options, error))
        return false;
    QString message = upgradeBlocks();
    if (message.isEmpty())
        message = migrate();
    if (!message.isEmpty()) {
        m_file.close();
        if (error)
            *error = message;
        return false;
    }
    return true;
}

QStringList MetricsStore::legacyJobIds() const
{
    // Resource names start with "projects/"; a bare job ID cannot hold '/'.
    QStringList ids;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!q.exec(QStringLiteral("SELECT job_id FROM series WHERE job_id NOT LIKE 'projects/%' UNION "
                               "SELECT job_id FROM event_files WHERE job_id NOT LIKE 'projects/%'")))
        return ids;
    while (q.next())
        ids.append(q.value(0).toString());
    return ids;
}

bool MetricsStore::adoptLegacyJobIds(const QHash<QString, JobKey>& keys, QString* error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    auto fail = [&](const QString& message) {
        if (error)
            *error = QStringLiteral("cannot key metrics by project: ") + message;
        db.rollback();
        return false;
    };
    if (!db.transaction())
        return fail(db.lastError().text());
    QSqlQuery q(db);
    for (const QString& id : legacyJobIds()) {
        const JobKey key = keys.value(id, JobKey { defaultProjectForLegacyRows(), id });
        for (const char* table : { "series", "event_files" }) {
            q.prepare(QStringLiteral("UPDATE %1 SET job_id = ? WHERE job_id = ?").arg(QLatin1String(table)));
            q.addBindValue(key.name());
            q.addBindValue(id);
            if (!q.exec())
                return fail(q.lastError().text());
        }
    }
    q.finish();
    if (!db.commit())
        return fail(db.lastError().text());
    m_seriesCache.clear();
    return true;
}

QString MetricsStore::upgradeBlocks()
{
    // A blocks table of the first block schema (WITHOUT ROWID, no `encoding` column): its rows move as they are
    // into the new table, their blobs marked Fixed32. One transaction, as migrate().
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT 1 FROM pragma_table_info('blocks') WHERE name = 'encoding'")))
        return QStringLiteral("cannot read the blocks table's columns: ") + q.lastError().text();
    if (q.next())
        return {};
    q.finish();
    if (!db.transaction())
        return QStringLiteral("cannot upgrade the blocks table: ") + db.lastError().text();
    const QStringList steps = {
        QStringLiteral("ALTER TABLE blocks RENAME TO blocks_fixed32"),
        kCreateBlocks.arg(QStringLiteral("blocks")),
        QStringLiteral("INSERT INTO blocks (") + kBlockColumns
            + QStringLiteral(") SELECT series_id, block, count, first_seq, last_seq, min_step, max_step, 0, data "
                             "FROM blocks_fixed32 ORDER BY series_id, block"),
        QStringLiteral("DROP TABLE blocks_fixed32"),
    };
    for (const QString& step : steps) {
        if (!q.exec(step)) {
            const QString message = QStringLiteral("cannot upgrade the blocks table: ") + q.lastError().text();
            db.rollback();
            return message;
        }
    }
    if (!db.commit()) {
        const QString message = db.lastError().text();
        db.rollback();
        return QStringLiteral("cannot upgrade the blocks table: ") + message;
    }
    qCInfo(lcMetricsStore) << "metric blocks moved into the table with an encoding column";
    return {};
}

QString MetricsStore::migrate()
{
    // A database of the row-per-point schema (`points(seq AUTOINCREMENT, series_id, step, wall_time, value)`):
    // its points move into blocks, seqs kept, and the counter continues after the highest seq ever given
    // (AUTOINCREMENT's, which a purge of the newest rows did not lower). One transaction: a crash leaves
    // the old table as it was, and the next start migrates again.
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'points'")) || !q.next())
        return {};
    q.finish();
    if (!db.transaction())
        return QStringLiteral("cannot migrate the points table: ") + db.lastError().text();
    auto fail = [&](const QSqlQuery& failed) {
        const QString message = QStringLiteral("cannot migrate the points table: ") + failed.lastError().text();
        db.rollback();
        return message;
    };
    qint64 nextSeq = 1;
    if (q.exec(QStringLiteral("SELECT seq FROM sqlite_sequence WHERE name = 'points'")) && q.next())
        nextSeq = q.value(0).toLongLong() + 1;
    q.finish();
    QSqlQuery points(db);
    points.setForwardOnly(true);
    if (!points.exec(
            QStringLiteral("SELECT series_id, seq, step, wall_time, value FROM points ORDER BY series_id, seq")))
        return fail(points);
    QSqlQuery insert(db);
    insert.prepare(QStringLiteral("INSERT INTO blocks (") + kBlockColumns
        + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    std::vector<StoredPoint> block;
    qint64 series = -1, blockNumber = 0;
    auto flushBlock = [&] {
        if (block.empty())
            return true;
        insert.addBindValue(series);
        insert.addBindValue(blockNumber++);
        bindBlock(insert, block.data(), block.size());
        block.clear();
        return insert.exec();
    };
    while (points.next()) {
        const qint64 id = points.value(0).toLongLong();
        if (id != series) {
            if (!flushBlock())
                return fail(insert);
            series = id;
            blockNumber = 0;
        }
        const QVariant value = points.value(4);
        block.push_back({ points.value(1).toLongLong(), points.value(2).toLongLong(), points.value(3).toDouble(),
            value.isNull() ? std::numeric_limits<double>::quiet_NaN() : value.toDouble() });
        nextSeq = std::max(nextSeq, block.back().seq + 1);
        if (block.size() == size_t(BlockPoints) && !flushBlock())
            return fail(insert);
    }
    if (!flushBlock())
        return fail(insert);
    points.finish();
    if (!q.exec(QStringLiteral("UPDATE meta SET value = %1 WHERE key = 'next_seq'").arg(nextSeq))
        || !q.exec(QStringLiteral("DROP TABLE points")))
        return fail(q);
    if (!db.commit()) {
        const QString message = db.lastError().text();
        db.rollback();
        return QStringLiteral("cannot migrate the points table: ") + message;
    }
    qCInfo(lcMetricsStore) << "metric points moved into blocks; the next seq is" << nextSeq;
    return {};
}

void MetricsStore::setCollecting(const JobKey& job)
{
    m_collecting.insert(job);
}

void MetricsStore::finishCollecting(const JobKey& job)
{
    m_collecting.remove(job);
    MetricsUpdate update;
    update.job = job;
    update.final = true;
    notify(update);
}

bool MetricsStore::apply(const MetricBatch& batch, QString* error)
{
    if (batch.isEmpty())
        return true;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    auto fail = [&](const QSqlQuery& q, const char* what) {
        const QString message = QStringLiteral("%1: %2").arg(QLatin1String(what), q.lastError().text());
        db.rollback();
        qCWarning(lcMetricsStore).noquote() << "metrics of job" << batch.job.name() << "not stored:" << message;
        if (error)
            *error = message;
        return false;
    };
    if (!db.transaction()) {
        if (error)
            *error = db.lastError().text();
        return false;
    }

    MetricsUpdate update;
    update.job = batch.job;
    // Series as they will be after the commit; the cache is only updated once the commit succeeded.
    std::vector<MetricSeriesInfo> series(batch.series.size());
    std::vector<bool> touched(batch.series.size(), false);
    QSqlQuery find(db);
    find.prepare(
        QStringLiteral("SELECT ") + kSeriesColumns + QStringLiteral(" FROM series WHERE job_id = ? AND name = ?"));
    QSqlQuery insertSeries(db);
    insertSeries.prepare(QStringLiteral("INSERT INTO series (job_id, name, kind, run, tag, task_name, trial_id, "
                                        "point_count, last_seq) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0)"));
    for (size_t i = 0; i < batch.series.size(); ++i) {
        const MetricSeriesKey& key = batch.series[i];
        const QString name = key.name();
        const auto cached = m_seriesCache.constFind(qMakePair(batch.job, name));
        if (cached != m_seriesCache.cend()) {
            series[i] = *cached;
            continue;
        }
        find.addBindValue(batch.job.name());
        find.addBindValue(name);
        if (!find.exec())
            return fail(find, "cannot look up a series");
        if (find.next()) {
            series[i] = seriesFromQuery(find);
            find.finish();
            continue;
        }
        find.finish();
        // A null QString binds as SQL NULL: empty fields are stored as ''.
        for (const QString& v : { batch.job.name(), name, key.kind, key.run, key.tag, key.taskName, key.trialId })
            insertSeries.addBindValue(v.isNull() ? QString::fromLatin1("") : v);
        if (!insertSeries.exec())
            return fail(insertSeries, "cannot create a series");
        MetricSeriesInfo created;
        created.id = insertSeries.lastInsertId().toLongLong();
        created.job = batch.job;
        created.name = name;
        created.key = key;
        series[i] = created;
        touched[i] = true;
        update.newSeries.append(created); // counts filled in below
    }

    QSqlQuery counter(db);
    if (!counter.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'next_seq'")) || !counter.next())
        return fail(counter, "cannot read the point counter");
    qint64 nextSeq = counter.value(0).toLongLong();
    counter.finish();

    // This batch's points per series (by index in `series`) that the purges left; written as blocks at the end.
    std::vector<std::vector<StoredPoint>> pending(series.size());
    QSqlQuery purgeable(db);
    purgeable.prepare(QStringLiteral("SELECT block, encoding, data FROM blocks WHERE series_id = ? AND max_step >= ?"));
    QSqlQuery removeBlock(db);
    removeBlock.prepare(QStringLiteral("DELETE FROM blocks WHERE series_id = ? AND block = ?"));
    QSqlQuery writeBlock(db);
    writeBlock.prepare(QStringLiteral("INSERT OR REPLACE INTO blocks (") + kBlockColumns
        + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    QSqlQuery lastBlock(db);
    lastBlock.setForwardOnly(true);
    lastBlock.prepare(
        QStringLiteral("SELECT block, encoding, data FROM blocks WHERE series_id = ? ORDER BY block DESC LIMIT 1"));
    // Removes the points with step ≥ `fromStep` of series[index], stored and pending; returns how many, or -1
    // when the database refused (`failed` is the statement).
    const QSqlQuery* failed = nullptr;
    auto purge = [&](size_t index, qint64 fromStep) -> qint64 {
        std::vector<StoredPoint>& mine = pending[index];
        const size_t before = mine.size();
        mine.erase(
            std::remove_if(mine.begin(), mine.end(), [fromStep](const StoredPoint& p) { return p.step >= fromStep; }),
            mine.end());
        qint64 removed = qint64(before - mine.size());
        purgeable.addBindValue(series[index].id);
        purgeable.addBindValue(fromStep);
        if (!purgeable.exec()) {
            failed = &purgeable;
            return -1;
        }
        std::vector<std::pair<qint64, std::vector<StoredPoint>>> blocks;
        while (purgeable.next()) {
            blocks.emplace_back(purgeable.value(0).toLongLong(),
                decodeBlock(purgeable.value(1).toInt(), purgeable.value(2).toByteArray()));
        }
        purgeable.finish();
        for (auto& [block, points] : blocks) {
            const size_t had = points.size();
            points.erase(std::remove_if(points.begin(), points.end(),
                             [fromStep](const StoredPoint& p) { return p.step >= fromStep; }),
                points.end());
            removed += qint64(had - points.size());
            QSqlQuery& q = points.empty() ? removeBlock : writeBlock;
            q.addBindValue(series[index].id);
            q.addBindValue(block);
            if (!points.empty())
                bindBlock(q, points.data(), points.size());
            if (!q.exec()) {
                failed = &q;
                return -1;
            }
        }
        return removed;
    };
    // The batch's points take consecutive seqs series by series; `moved[i]` of series i's are in pending[i].
    const std::vector<MetricBatch::Point> none;
    auto pointsOf = [&](size_t index) -> const std::vector<MetricBatch::Point>& {
        return index < batch.points.size() ? batch.points[index] : none;
    };
    std::vector<qint64> seqBase(batch.series.size());
    for (size_t i = 0; i < batch.series.size(); ++i) {
        seqBase[i] = nextSeq;
        nextSeq += qint64(pointsOf(i).size());
    }
    std::vector<size_t> moved(batch.series.size(), 0);
    auto movePoints = [&](size_t index, size_t to) {
        if (index >= batch.series.size())
            return;
        const std::vector<MetricBatch::Point>& from = pointsOf(index);
        to = std::min(to, from.size());
        std::vector<StoredPoint>& mine = pending[index];
        mine.reserve(mine.size() + (to - moved[index]));
        for (size_t k = moved[index]; k < to; ++k)
            mine.push_back({ seqBase[index] + qint64(k), from[k].step, from[k].wallTime, from[k].value });
        if (to > moved[index]) {
            MetricSeriesInfo& s = series[index];
            s.pointCount += qint64(to - moved[index]);
            s.lastSeq = seqBase[index] + qint64(to) - 1;
            touched[index] = true;
            moved[index] = to;
        }
    };
    auto purged = [&](size_t index, qint64 fromStep, qint64 removed) {
        if (removed <= 0)
            return;
        series[index].pointCount -= removed;
        touched[index] = true;
        update.purges.append({ series[index].name, fromStep });
    };
    for (const MetricBatch::Purge& p : batch.purges) {
        if (p.kind == MetricBatch::Purge::Series) {
            const size_t index = size_t(p.index);
            movePoints(index, index < p.at.size() ? p.at[index] : 0);
            const qint64 removed = purge(index, p.step);
            if (removed < 0)
                return fail(*failed, "cannot purge points");
            purged(index, p.step, removed);
            continue;
        }
        const QString run = batch.runs.value(p.index);
        // Every known scalar series of the run, including ones this batch does not mention.
        QList<qint64> ids;
        QSqlQuery list(db);
        list.prepare(QStringLiteral("SELECT id FROM series WHERE job_id = ? AND kind = 'scalar' AND run = ?"));
        list.addBindValue(batch.job.name());
        list.addBindValue(run);
        if (!list.exec())
            return fail(list, "cannot list a run's series");
        while (list.next())
            ids.append(list.value(0).toLongLong());
        for (qint64 id : std::as_const(ids)) {
            size_t index = series.size();
            for (size_t i = 0; i < series.size(); ++i) {
                if (series[i].id == id)
                    index = i;
            }
            if (index == series.size()) {
                // Not in the batch: load it so its count is kept.
                QSqlQuery one(db);
                one.prepare(QStringLiteral("SELECT ") + kSeriesColumns + QStringLiteral(" FROM series WHERE id = ?"));
                one.addBindValue(id);
                if (!one.exec() || !one.next())
                    return fail(one, "cannot read a series");
                series.push_back(seriesFromQuery(one));
                touched.push_back(false);
                pending.emplace_back();
            }
            movePoints(index, index < p.at.size() ? p.at[index] : 0);
            const qint64 removed = purge(index, p.step);
            if (removed < 0)
                return fail(*failed, "cannot purge points");
            purged(index, p.step, removed);
        }
    }
    for (size_t i = 0; i < batch.series.size(); ++i)
        movePoints(i, pointsOf(i).size());
    // Whether anyone listens at all: a catch-up of millions of points with no subscriber builds no update lists.
    const bool listened = std::any_of(m_subscribers.cbegin(), m_subscribers.cend(),
        [&batch](const Subscription& sub) { return sub.job == batch.job; });
    if (listened) {
        for (size_t i = 0; i < batch.series.size(); ++i) {
            if (pending[i].empty())
                continue;
            QList<MetricPoint> points;
            points.reserve(qsizetype(pending[i].size()));
            for (const StoredPoint& p : pending[i])
                points.append(toPoint(p));
            update.appended.append({ series[i].name, std::move(points) });
        }
    }

    // The pending points fill each series' last block up to BlockPoints, then new blocks.
    for (size_t i = 0; i < pending.size(); ++i) {
        const std::vector<StoredPoint>& points = pending[i];
        if (points.empty())
            continue;
        lastBlock.addBindValue(series[i].id);
        if (!lastBlock.exec())
            return fail(lastBlock, "cannot read a block");
        qint64 block = 0;
        std::vector<StoredPoint> open;
        if (lastBlock.next()) {
            block = lastBlock.value(0).toLongLong();
            open = decodeBlock(lastBlock.value(1).toInt(), lastBlock.value(2).toByteArray());
            if (open.size() >= size_t(BlockPoints)) {
                ++block;
                open.clear();
            }
        }
        lastBlock.finish();
        open.reserve(size_t(BlockPoints));
        size_t next = 0;
        while (next < points.size()) {
            const size_t take = std::min(points.size() - next, size_t(BlockPoints) - open.size());
            open.insert(open.end(), points.begin() + qsizetype(next), points.begin() + qsizetype(next + take));
            next += take;
            writeBlock.addBindValue(series[i].id);
            writeBlock.addBindValue(block);
            bindBlock(writeBlock, open.data(), open.size());
            if (!writeBlock.exec())
                return fail(writeBlock, "cannot store a block");
            if (open.size() == size_t(BlockPoints)) {
                ++block;
                open.clear();
            }
        }
    }
    counter.prepare(QStringLiteral("UPDATE meta SET value = ? WHERE key = 'next_seq'"));
    counter.addBindValue(nextSeq);
    if (!counter.exec())
        return fail(counter, "cannot store the point counter");

    QSqlQuery updateSeries(db);
    updateSeries.prepare(QStringLiteral("UPDATE series SET point_count = ?, last_seq = ? WHERE id = ?"));
    for (size_t i = 0; i < series.size(); ++i) {
        if (!touched[i])
            continue;
        updateSeries.addBindValue(series[i].pointCount);
        updateSeries.addBindValue(series[i].lastSeq);
        updateSeries.addBindValue(series[i].id);
        if (!updateSeries.exec())
            return fail(updateSeries, "cannot update a series");
    }
    QSqlQuery offsets(db);
    offsets.prepare(QStringLiteral("INSERT OR REPLACE INTO event_files (job_id, path, offset) VALUES (?, ?, ?)"));
    for (const auto& [path, offset] : batch.fileOffsets) {
        offsets.addBindValue(batch.job.name());
        offsets.addBindValue(path);
        offsets.addBindValue(offset);
        if (!offsets.exec())
            return fail(offsets, "cannot store an event-file offset");
    }
    if (!db.commit()) {
        const QString message = db.lastError().text();
        db.rollback();
        if (error)
            *error = message;
        return false;
    }
    for (const MetricSeriesInfo& s : series)
        m_seriesCache.insert(qMakePair(s.job, s.name), s);
    for (MetricSeriesInfo& created : update.newSeries)
        created = m_seriesCache.value(qMakePair(created.job, created.name), created);
    if (!update.appended.isEmpty() || !update.purges.isEmpty() || !update.newSeries.isEmpty())
        notify(update);
    return true;
}

QList<MetricSeriesInfo> MetricsStore::series(const JobKey& job) const
{
    QList<MetricSeriesInfo> out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.prepare(QStringLiteral("SELECT ") + kSeriesColumns + QStringLiteral(" FROM series WHERE job_id = ? ORDER BY id"));
    q.addBindValue(job.name());
    if (!q.exec()) {
        qCWarning(lcMetricsStore).noquote() << "cannot list the series of" << job.name() << ":" << q.lastError().text();
        return out;
    }
    while (q.next())
        out.append(seriesFromQuery(q));
    return out;
}

std::optional<MetricSeriesInfo> MetricsStore::findSeries(const JobKey& job, const QString& name) const
{
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.prepare(
        QStringLiteral("SELECT ") + kSeriesColumns + QStringLiteral(" FROM series WHERE job_id = ? AND name = ?"));
    q.addBindValue(job.name());
    q.addBindValue(name);
    if (!q.exec() || !q.next())
        return std::nullopt;
    return seriesFromQuery(q);
}

QList<MetricPoint> MetricsStore::points(qint64 seriesId, qint64 afterSeq, int limit) const
{
    QList<MetricPoint> out;
    if (limit <= 0)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.setForwardOnly(true);
    // Blocks are in seq order (appends go to the last block); only those holding a seq > afterSeq are read,
    // and only until the page is full.
    q.prepare(QStringLiteral("SELECT encoding, data FROM blocks WHERE series_id = ? AND last_seq > ? ORDER BY block"));
    q.addBindValue(seriesId);
    q.addBindValue(afterSeq);
    if (!q.exec()) {
        qCWarning(lcMetricsStore).noquote() << "cannot read points:" << q.lastError().text();
        return out;
    }
    std::vector<StoredPoint> block;
    block.reserve(size_t(BlockPoints));
    while (out.size() < limit && q.next()) {
        block.clear();
        decodeBlock(q.value(0).toInt(), q.value(1).toByteArray(), block);
        if (out.isEmpty())
            out.reserve(std::min<qsizetype>(limit, qsizetype(block.size())));
        for (size_t i = 0; i < block.size() && out.size() < limit; ++i) {
            if (block[i].seq > afterSeq)
                out.append(toPoint(block[i]));
        }
    }
    return out;
}

QHash<QString, qint64> MetricsStore::eventFileOffsets(const JobKey& job) const
{
    QHash<QString, qint64> out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.prepare(QStringLiteral("SELECT path, offset FROM event_files WHERE job_id = ?"));
    q.addBindValue(job.name());
    if (q.exec()) {
        while (q.next())
            out.insert(q.value(0).toString(), q.value(1).toLongLong());
    }
    return out;
}

int MetricsStore::subscribe(const JobKey& job, Subscriber subscriber)
{
    const int id = m_nextSubscription++;
    m_subscribers.append({ id, job, std::move(subscriber) });
    return id;
}

void MetricsStore::unsubscribe(int id)
{
    m_subscribers.removeIf([id](const Subscription& s) { return s.id == id; });
}

void MetricsStore::notify(const MetricsUpdate& update)
{
    // A subscriber may unsubscribe (itself or another) while being called: iterate over a copy of the ids.
    QList<int> ids;
    for (const Subscription& s : std::as_const(m_subscribers)) {
        if (s.job == update.job)
            ids.append(s.id);
    }
    for (int id : std::as_const(ids)) {
        for (const Subscription& s : std::as_const(m_subscribers)) {
            if (s.id == id) {
                const Subscriber fn = s.fn;
                fn(update);
                break;
            }
        }
    }
}

} // namespace Trainyard
