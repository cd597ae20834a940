// SPDX-License-Identifier: GPL-2.0-or-later
#include "metricsstore.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>
#include <cmath>
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
    s.jobId = q.value(1).toString();
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
} // namespace

QString MetricSeriesKey::name() const
{
    const QString middle = kind == QLatin1String("scalar") ? run : taskName;
    return kind + QLatin1Char('/') + escapeComponent(middle) + QLatin1Char('/') + tag;
}

int MetricBatch::seriesIndex(const MetricSeriesKey& key)
{
    for (size_t i = 0; i < series.size(); ++i) {
        if (series[i] == key)
            return int(i);
    }
    series.push_back(key);
    return int(series.size() - 1);
}

MetricsStore::MetricsStore(QObject* parent)
    : QObject(parent)
{
    static std::atomic<int> counter { 0 };
    m_connectionName = QStringLiteral("trainyard-metrics-%1").arg(counter.fetch_add(1));
}

MetricsStore::~MetricsStore()
{
    if (QSqlDatabase::contains(m_connectionName)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

bool MetricsStore::open(const QString& path, QString* error)
{
    auto fail = [this, error](const QString& message) {
        if (error)
            *error = message;
        if (QSqlDatabase::contains(m_connectionName)) {
            QSqlDatabase::database(m_connectionName, false).close();
            QSqlDatabase::removeDatabase(m_connectionName);
        }
        return false;
    };
    if (QSqlDatabase::contains(m_connectionName))
        return fail(QStringLiteral("the metrics store is already open"));
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return fail(QStringLiteral("the Qt SQLite driver (QSQLITE) is not installed"));
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return fail(QStringLiteral("cannot create folder %1").arg(info.absolutePath()));
    QString message;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
        db.setDatabaseName(info.absoluteFilePath());
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open()) {
            message = QStringLiteral("cannot open %1: %2").arg(info.absoluteFilePath(), db.lastError().text());
        } else {
            QSqlQuery query(db);
            const QStringList setup = {
                QStringLiteral("PRAGMA journal_mode=WAL"),
                QStringLiteral("PRAGMA synchronous=NORMAL"),
                QStringLiteral("CREATE TABLE IF NOT EXISTS series (id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, "
                               "name TEXT NOT NULL, kind TEXT NOT NULL, run TEXT NOT NULL, tag TEXT NOT NULL, "
                               "task_name TEXT NOT NULL, trial_id TEXT NOT NULL, point_count INTEGER NOT NULL, "
                               "last_seq INTEGER NOT NULL, UNIQUE(job_id, name))"),
                QStringLiteral("CREATE TABLE IF NOT EXISTS points (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
                               "series_id INTEGER NOT NULL, step INTEGER NOT NULL, wall_time REAL NOT NULL, "
                               "value REAL)"),
                QStringLiteral("CREATE INDEX IF NOT EXISTS points_series ON points(series_id, seq)"),
                QStringLiteral("CREATE TABLE IF NOT EXISTS event_files (job_id TEXT NOT NULL, path TEXT NOT NULL, "
                               "offset INTEGER NOT NULL, PRIMARY KEY(job_id, path))"),
            };
            for (const QString& statement : setup) {
                if (!query.exec(statement)) {
                    message = QStringLiteral("cannot set up %1 (%2): %3")
                                  .arg(info.absoluteFilePath(), statement, query.lastError().text());
                    break;
                }
            }
        }
    }
    if (!message.isEmpty())
        return fail(message);
    return true;
}

void MetricsStore::setCollecting(const QString& jobId)
{
    m_collecting.insert(jobId);
}

void MetricsStore::finishCollecting(const QString& jobId)
{
    m_collecting.remove(jobId);
    MetricsUpdate update;
    update.jobId = jobId;
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
        qCWarning(lcMetricsStore).noquote() << "metrics of job" << batch.jobId << "not stored:" << message;
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
    update.jobId = batch.jobId;
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
        const auto cached = m_seriesCache.constFind(qMakePair(batch.jobId, name));
        if (cached != m_seriesCache.cend()) {
            series[i] = *cached;
            continue;
        }
        find.addBindValue(batch.jobId);
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
        for (const QString& v : { batch.jobId, name, key.kind, key.run, key.tag, key.taskName, key.trialId })
            insertSeries.addBindValue(v.isNull() ? QString::fromLatin1("") : v);
        if (!insertSeries.exec())
            return fail(insertSeries, "cannot create a series");
        MetricSeriesInfo created;
        created.id = insertSeries.lastInsertId().toLongLong();
        created.jobId = batch.jobId;
        created.name = name;
        created.key = key;
        series[i] = created;
        touched[i] = true;
        update.newSeries.append(created); // counts filled in below
    }

    QSqlQuery insertPoint(db);
    insertPoint.prepare(QStringLiteral("INSERT INTO points (series_id, step, wall_time, value) VALUES (?, ?, ?, ?)"));
    QSqlQuery purgeSeries(db);
    purgeSeries.prepare(QStringLiteral("DELETE FROM points WHERE series_id = ? AND step >= ?"));
    QHash<QString, qsizetype> appendedIndex;
    // Points of this batch appended before a purge were deleted with it.
    auto dropAppended = [&](const QString& name, qint64 fromStep) {
        const qsizetype slot = appendedIndex.value(name, -1);
        if (slot >= 0)
            update.appended[slot].second.removeIf([fromStep](const MetricPoint& p) { return p.step >= fromStep; });
    };
    for (const MetricBatch::Op& op : batch.ops) {
        if (op.kind == MetricBatch::Op::PurgeRun) {
            const QString run = batch.runs.value(op.index);
            // Every known scalar series of the run, including ones this batch does not mention.
            QList<qint64> ids;
            QSqlQuery list(db);
            list.prepare(QStringLiteral("SELECT id FROM series WHERE job_id = ? AND kind = 'scalar' AND run = ?"));
            list.addBindValue(batch.jobId);
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
                    one.prepare(
                        QStringLiteral("SELECT ") + kSeriesColumns + QStringLiteral(" FROM series WHERE id = ?"));
                    one.addBindValue(id);
                    if (!one.exec() || !one.next())
                        return fail(one, "cannot read a series");
                    series.push_back(seriesFromQuery(one));
                    touched.push_back(false);
                }
                purgeSeries.addBindValue(id);
                purgeSeries.addBindValue(op.step);
                if (!purgeSeries.exec())
                    return fail(purgeSeries, "cannot purge points");
                const int removed = purgeSeries.numRowsAffected();
                if (removed > 0) {
                    series[index].pointCount -= removed;
                    touched[index] = true;
                    update.purges.append({ series[index].name, op.step });
                    dropAppended(series[index].name, op.step);
                }
            }
            continue;
        }
        MetricSeriesInfo& s = series[size_t(op.index)];
        if (op.kind == MetricBatch::Op::PurgeSeries) {
            purgeSeries.addBindValue(s.id);
            purgeSeries.addBindValue(op.step);
            if (!purgeSeries.exec())
                return fail(purgeSeries, "cannot purge points");
            const int removed = purgeSeries.numRowsAffected();
            if (removed > 0) {
                s.pointCount -= removed;
                touched[size_t(op.index)] = true;
                update.purges.append({ s.name, op.step });
                dropAppended(s.name, op.step);
            }
            continue;
        }
        insertPoint.addBindValue(s.id);
        insertPoint.addBindValue(op.step);
        insertPoint.addBindValue(op.wallTime);
        // NaN cannot be bound (SQLite stores it as NULL); NULL reads back as NaN.
        insertPoint.addBindValue(std::isnan(op.value) ? QVariant() : QVariant(op.value));
        if (!insertPoint.exec())
            return fail(insertPoint, "cannot store a point");
        MetricPoint p { insertPoint.lastInsertId().toLongLong(), op.step, op.wallTime, op.value };
        ++s.pointCount;
        s.lastSeq = p.seq;
        touched[size_t(op.index)] = true;
        qsizetype slot = appendedIndex.value(s.name, -1);
        if (slot < 0) {
            slot = update.appended.size();
            appendedIndex.insert(s.name, slot);
            update.appended.append({ s.name, {} });
        }
        update.appended[slot].second.append(p);
    }

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
        offsets.addBindValue(batch.jobId);
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
        m_seriesCache.insert(qMakePair(s.jobId, s.name), s);
    for (MetricSeriesInfo& created : update.newSeries)
        created = m_seriesCache.value(qMakePair(created.jobId, created.name), created);
    if (!update.appended.isEmpty() || !update.purges.isEmpty() || !update.newSeries.isEmpty())
        notify(update);
    return true;
}

QList<MetricSeriesInfo> MetricsStore::series(const QString& jobId) const
{
    QList<MetricSeriesInfo> out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.prepare(QStringLiteral("SELECT ") + kSeriesColumns + QStringLiteral(" FROM series WHERE job_id = ? ORDER BY id"));
    q.addBindValue(jobId);
    if (!q.exec()) {
        qCWarning(lcMetricsStore).noquote() << "cannot list the series of" << jobId << ":" << q.lastError().text();
        return out;
    }
    while (q.next())
        out.append(seriesFromQuery(q));
    return out;
}

std::optional<MetricSeriesInfo> MetricsStore::findSeries(const QString& jobId, const QString& name) const
{
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.prepare(
        QStringLiteral("SELECT ") + kSeriesColumns + QStringLiteral(" FROM series WHERE job_id = ? AND name = ?"));
    q.addBindValue(jobId);
    q.addBindValue(name);
    if (!q.exec() || !q.next())
        return std::nullopt;
    return seriesFromQuery(q);
}

QList<MetricPoint> MetricsStore::points(qint64 seriesId, qint64 afterSeq, int limit) const
{
    QList<MetricPoint> out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT seq, step, wall_time, value FROM points WHERE series_id = ? AND seq > ? "
                             "ORDER BY seq LIMIT ?"));
    q.addBindValue(seriesId);
    q.addBindValue(afterSeq);
    q.addBindValue(limit);
    if (!q.exec()) {
        qCWarning(lcMetricsStore).noquote() << "cannot read points:" << q.lastError().text();
        return out;
    }
    while (q.next()) {
        const QVariant value = q.value(3);
        out.append({ q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toDouble(),
            value.isNull() ? std::numeric_limits<double>::quiet_NaN() : value.toDouble() });
    }
    return out;
}

QHash<QString, qint64> MetricsStore::eventFileOffsets(const QString& jobId) const
{
    QHash<QString, qint64> out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.prepare(QStringLiteral("SELECT path, offset FROM event_files WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (q.exec()) {
        while (q.next())
            out.insert(q.value(0).toString(), q.value(1).toLongLong());
    }
    return out;
}

int MetricsStore::subscribe(const QString& jobId, Subscriber subscriber)
{
    const int id = m_nextSubscription++;
    m_subscribers.append({ id, jobId, std::move(subscriber) });
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
        if (s.jobId == update.jobId)
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
