// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "jobkey.h"
#include "sqlitefile.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace Trainyard {

/// What identifies a metric series within a job.
/// - kind "scalar": an event-file scalar; `run` is TensorBoard's run (the event file's folder relative to
///   the job dir, "." for the job dir itself), `tag` the summary tag.
/// - kind "hypertune": a hypertune report; `taskName` the replica whose metrics file it came from, `tag`
///   the hyperparameter_metric_tag, `trialId` the report's trial.
/// - kind "resource": a sample of a replica (`taskName`); tag `cpu_percent` (100 = one core busy),
///   `rss_bytes`, `gpu_utilization_percent` (100 = one GPU busy), `gpu_memory_bytes`.
struct MetricSeriesKey {
    QString kind;
    QString run;
    QString tag;
    QString taskName;
    QString trialId;

    /// The series' name in the API (unique within a job): `<kind>/<run or taskName>/<tag>`, where the middle
    /// part has '%' and '/' percent-encoded so that names of different series never collide
    /// ("scalar/./train/loss", "scalar/eval/accuracy", "hypertune/master-replica-0/accuracy",
    /// "resource/worker-replica-1/cpu_percent"); a trial's replica series add `@<trialId>` to the task name
    /// ("hypertune/master-replica-0@3/accuracy").
    QString name() const;
    bool operator==(const MetricSeriesKey&) const = default;
};

/// A stored series as `GET …/metrics` lists it.
struct MetricSeriesInfo {
    qint64 id = 0; ///< database id (not exposed in the API)
    JobKey job;
    QString name;
    MetricSeriesKey key;
    qint64 pointCount = 0;
    qint64 lastSeq = 0; ///< seq of the last point appended (0: none yet)
};

/// One stored point. `seq` orders every point of the database (a stream cursor: it only grows, also across
/// purges and executor restarts); `step` is the trainer's step (event files, hypertune global_step) or the
/// sample number (resources, from 0); `wallTime` seconds since the Unix epoch.
struct MetricPoint {
    qint64 seq = 0;
    qint64 step = 0;
    double wallTime = 0;
    double value = 0;
};

/// What one collection tick of one job found (or a slice of it), written in one transaction by
/// MetricsStore::apply(). Points are kept per series, not an operation per point: a catch-up of millions of
/// points is a few arrays that the store cuts into blocks.
///
/// Order: a series' points are stored in the order appended; the batch's points take consecutive seqs series by
/// series (series[0]'s first). A purge removes the stored points of its series with step ≥ its step and the
/// points this batch appended to them before the purge (not those appended after it).
struct MetricBatch {
    JobKey job;
    std::vector<MetricSeriesKey> series; ///< what `points` and purges refer to by index
    QStringList runs; ///< the runs that Run purges refer to by index
    struct Point {
        qint64 step = 0;
        double wallTime = 0;
        double value = 0;
    };
    std::vector<std::vector<Point>> points; ///< by series index (as long as `series`)
    struct Purge {
        enum Kind : quint8 {
            Series, ///< the points of series[index] with step ≥ `step` (a restarted trainer)
            Run, ///< the points of every scalar series of runs[index] with step ≥ `step`
        };
        Kind kind = Series;
        int index = 0;
        qint64 step = 0;
        /// points[i].size() of each series when the purge came (series added later: 0).
        std::vector<size_t> at;
    };
    std::vector<Purge> purges; ///< in the order they came
    /// Event files read so far: absolute path → file offset after the last record consumed.
    std::vector<std::pair<QString, qint64>> fileOffsets;

    bool isEmpty() const { return pointCount() == 0 && purges.empty() && fileOffsets.empty(); }
    size_t pointCount() const;
    /// Index of `key` in `series`, appended when absent.
    int seriesIndex(const MetricSeriesKey& key);
    void append(int series, qint64 step, double wallTime, double value)
    {
        points[size_t(series)].push_back({ step, wallTime, value });
    }
    void purgeSeries(int series, qint64 fromStep);
    void purgeRun(const QString& run, qint64 fromStep);
};

/// What subscribers receive after a batch is committed, and once more (`final`) when a job's collection ended.
struct MetricsUpdate {
    JobKey job;
    QList<MetricSeriesInfo> newSeries; ///< series created by this batch
    QList<std::pair<QString, QList<MetricPoint>>> appended; ///< per series name, in seq order
    QList<std::pair<QString, qint64>> purges; ///< (series name, from step), applied before `appended`'s points
    bool final = false; ///< the job is final and its last collection is stored: nothing more will come
};

/// Durable metric series and points of every job, in SQLite (Qt SQL, QSQLITE driver), in
/// `<dataDir>/metrics.sqlite` — a sibling of the job database so that one write per second per job never
/// waits for the job store's synchronous=FULL commits. WAL journal, synchronous=NORMAL: a crash loses at
/// most the last ticks, which the collector reads again from the stored event-file offsets.
///
/// Jobs are keyed by JobKey::name() ("projects/<p>/jobs/<id>") in the `job_id` columns.
/// Schema: `series(id, job_id, name, kind, run, tag, task_name, trial_id, point_count, last_seq)`,
/// `blocks(id, series_id, block, count, first_seq, last_seq, min_step, max_step, encoding, data)`: a series' points
/// in blocks of up to BlockPoints, in seq order across a series' blocks; `data` holds the points (seq, step, wall
/// time, value) as varint differences (encoding 1, 7–10 bytes a point, lossless) or, in blocks written before it,
/// as an array of 32-byte points (encoding 0; read as they are, rewritten when appended to); new points fill the
/// series' last block
/// (rewritten in the same transaction), then new ones. A read decodes only the blocks past its cursor, a purge
/// only the blocks whose max_step reaches it. `meta(key, value)`: `next_seq`, the next point's seq (kept in
/// the transaction, so a seq is never reused, also after a purge removed the newest points);
/// `event_files(job_id, path, offset)`. A database of the row-per-point schema (`points(seq AUTOINCREMENT, …)`),
/// or of the first block schema (a WITHOUT ROWID `blocks` table of 32-byte points), is migrated when opened.
///
/// Writes are transactions (WAL): a block is either as before the batch or as after it, never half written.
///
/// Owned by the executor's main thread; not thread-safe. Subscribers are called on that thread right after
/// the commit.
class MetricsStore : public QObject {
    Q_OBJECT
public:
    /// Points per block: blobs of 7–10 KiB (32 KiB in encoding 0), so that the last block, rewritten by every batch
    /// that appends to its series, stays cheap to rewrite once a second, and a catch-up of millions of points is a few
    /// thousand rows.
    static constexpr int BlockPoints = 1024;

    explicit MetricsStore(QObject* parent = nullptr);
    ~MetricsStore() override;

    /// Opens (creating when needed) the database file. Returns false and sets *error on failure.
    bool open(const QString& path, QString* error);

    /// Writes a batch in one transaction (series created as needed, point counts kept), then notifies the
    /// job's subscribers. Returns false (nothing written, *error set) when the database refuses.
    bool apply(const MetricBatch& batch, QString* error = nullptr);

    /// A job's series in creation order.
    QList<MetricSeriesInfo> series(const JobKey& job) const;
    std::optional<MetricSeriesInfo> findSeries(const JobKey& job, const QString& name) const;
    /// Job IDs stored bare, as databases written before job keys did (`job_id` now holds JobKey::name()).
    QStringList legacyJobIds() const;
    /// Rewrites the rows of each legacy job ID to `keys[id]` (the job's project, from the job store, where
    /// IDs were unique when those rows were written); IDs `keys` lacks go to the default project. One
    /// transaction: on failure nothing changed and *error says why.
    bool adoptLegacyJobIds(const QHash<QString, JobKey>& keys, QString* error = nullptr);
    /// Points of a series with seq > `afterSeq`, in seq order, at most `limit`.
    QList<MetricPoint> points(qint64 seriesId, qint64 afterSeq, int limit) const;
    /// Event-file offsets stored for a job (path → offset).
    QHash<QString, qint64> eventFileOffsets(const JobKey& job) const;

    /// Whether the collector is (still) collecting this job; false once its final batch is stored.
    bool isCollecting(const JobKey& job) const { return m_collecting.contains(job); }
    /// Called by the collector when it starts following a job.
    void setCollecting(const JobKey& job);
    /// Called by the collector after a job's last batch: subscribers get an update with `final` set.
    void finishCollecting(const JobKey& job);

    using Subscriber = std::function<void(const MetricsUpdate& update)>;
    /// Registers a subscriber for one job's updates; returns an id for unsubscribe().
    int subscribe(const JobKey& job, Subscriber subscriber);
    void unsubscribe(int id);

private:
    static QString defaultProjectForLegacyRows() { return QStringLiteral("local"); }
    void notify(const MetricsUpdate& update);
    /// Moves the blocks of the first block schema into the current one; returns an error message, empty on success.
    QString upgradeBlocks();
    /// Moves the points of a row-per-point database into blocks; returns an error message, empty on success.
    QString migrate();

    SqliteFile m_file { QStringLiteral("trainyard-metrics") };
    /// m_file's, for the queries.
    const QString m_connectionName = m_file.connectionName();
    QHash<QPair<JobKey, QString>, MetricSeriesInfo> m_seriesCache; // (job, name) → series
    QSet<JobKey> m_collecting;
    struct Subscription {
        int id;
        JobKey job;
        Subscriber fn;
    };
    QList<Subscription> m_subscribers;
    int m_nextSubscription = 1;
};

} // namespace Trainyard
