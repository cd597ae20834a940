// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The console's store of one job's metrics (issue 4, Metrics tab): every series of the job in compact
// columnar storage, fed by the executor's metrics stream (ApiStream::metricSeriesAdded / metricPoints /
// metricsPurged), with TensorBoard's smoothing, tag grouping and "ignore outliers" range, and a per-pixel
// reduction (M4: first, min, max and last point of each pixel column) so a chart gets ~4 points per pixel
// column however many points a series holds. Widget-free, so tests and benches use it directly.

#include "apiclient.h"
#include "scalarcolumns.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QPointF>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace Trainyard {

/// One series' points, in arrival order, stored column by column in chunks of ChunkSize points.
///
/// Per point: step, wall time and value as Formats::ScalarColumns keeps them (0 + 8 + 4 bytes for float
/// scalars at evenly spaced steps, 4 + 8 + 4 at other ordinary steps, up to 8 + 8 + 8) and the smoothed
/// value (4, display only). Full chunks are exactly sized, so a series of float scalars costs 16 to 20
/// bytes per point, plus about 1 byte for the min/max summaries that make the per-pixel reduction
/// O(pixels · log n) instead of O(n).
class MetricSeriesData {
public:
    static constexpr int ChunkBits = 16;
    static constexpr size_t ChunkSize = size_t(1) << ChunkBits;
    /// Points per min/max summary entry at the first level (each next level: this many entries).
    static constexpr size_t SummaryFanout = 64;

    enum Column { Value, Smoothed };

    MetricSeriesData();
    ~MetricSeriesData();
    MetricSeriesData(MetricSeriesData&&) noexcept;
    MetricSeriesData& operator=(MetricSeriesData&&) noexcept;

    size_t size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    qint64 step(size_t i) const;
    double wallTime(size_t i) const;
    double value(size_t i) const;
    double smoothed(size_t i) const;
    double column(Column c, size_t i) const { return c == Value ? value(i) : smoothed(i); }

    /// Appends one point; its smoothed value follows from the current smoothing weight.
    void append(qint64 step, double wallTime, double value);
    /// Removes every point with step ≥ fromStep (TensorBoard's restart rule, as the executor's `purge`
    /// event says); the smoothed values are recomputed.
    void purgeFrom(qint64 fromStep);
    void clear();

    /// TensorBoard's smoothing weight in [0, 0.999] (vz_line_chart's `smoothingWeight`); recomputes
    /// the smoothed column (O(n)).
    void setSmoothing(double weight);
    double smoothingWeight() const { return m_weight; }

    /// Whether steps (wall times) never went down, so that binary search on them is valid.
    bool stepsSorted() const { return m_stepsSorted; }
    bool wallSorted() const { return m_wallSorted; }

    /// Lowest and highest finite value of column c among points [first, last), with their indices;
    /// nullopt when none is finite. O(SummaryFanout · levels).
    struct Extremes {
        double min, max;
        size_t minIndex, maxIndex;
    };
    std::optional<Extremes> extremes(Column c, size_t first, size_t last) const;

    /// Heap bytes held by this series (chunks and summaries), for the memory benchmark.
    size_t memoryBytes() const;

private:
    struct Chunk;
    struct Summary;
    void smoothAppended(size_t i, double v);
    void summarize(size_t i);
    void rebuildSmoothing();
    void rebuildSummaries(Column c);
    void truncate(size_t n);

    std::vector<std::unique_ptr<Chunk>> m_chunks;
    std::vector<std::vector<Summary>> m_summaries[2]; ///< per column: level 0 covers SummaryFanout points
    size_t m_size = 0;
    double m_weight = 0.6;
    double m_emaLast = 0; ///< TensorBoard's `last`
    double m_emaPower = 1; ///< w^numAccum (TensorBoard's `numAccum`: finite values so far)
    bool m_constant = true; ///< every value so far equals the first (TensorBoard's `isConstant`)
    bool m_stepsSorted = true;
    bool m_wallSorted = true;
};

/// How a chart's x axis reads a point.
enum class MetricsXAxis {
    Step, ///< the trainer's step
    RelativeTime, ///< seconds since the series' first wall time
    WallTime, ///< seconds since the Unix epoch
};

/// One job's metric series, grouped into charts (one per tag) and groups (TensorBoard's tag prefix).
class MetricsModel : public QObject {
    Q_OBJECT
public:
    /// TensorBoard's default smoothing weight.
    static constexpr double DefaultSmoothing = 0.6;

    /// One chart: every series with the same kind and tag.
    struct Chart {
        QString key; ///< `kind:tag`, unique in the model
        QString kind; ///< `scalar`, `hypertune` or `resource`
        QString tag;
        QString group; ///< see groupOf()
        QList<int> series; ///< indices into series(), in creation order
    };

    explicit MetricsModel(QObject* parent = nullptr);
    ~MetricsModel() override;

    /// The group a series' chart belongs to: for scalars TensorBoard's prefix (the tag up to its first
    /// '/', or the whole tag), `hypertune` for hypertune reports and `resources` for resource samples.
    static QString groupOf(const SeriesInfo& info);
    /// The chart key of a series (`kind:tag`).
    static QString chartKeyOf(const SeriesInfo& info);
    /// How a series is named inside its chart and legend. Scalars: as TensorBoard names runs, the job ID
    /// then the run folder ("fmnist_1" for event files in the job dir itself, "fmnist_1/eval"); without a
    /// job ID the run folder alone. Other series: the replica (and trial when there is one), after its job
    /// ID when it was merged from a compared job. `viewedJobId` names series whose info.jobId is empty.
    ///
    /// `soleRun`: the job writes event files to one folder only, so the folder is left out and the run is named by
    /// its job ID alone (or "trial 3" alone), as every other series of a job is: issue 46 saw a built-in job's
    /// curves named "JOB/experiment" beside other jobs' "JOB". seriesLabel(int) applies it.
    static QString seriesLabel(const SeriesInfo& info, const QString& viewedJobId = {}, bool soleRun = false);
    /// The name legends, tooltips and the run list show for series `index`: seriesLabel() with `soleRun` when its
    /// job has written event files to one folder so far. One rule for every kind of job: a run is its job ID (or its
    /// trial), and its folder under the job dir is added only when the job writes more than one ("JOB/train",
    /// "JOB/eval"), as TensorBoard names runs by folder. May change once when a second folder appears:
    /// labelsChanged().
    QString seriesLabel(int index) const;
    /// What identifies the run of series `index` across charts and never changes while the model holds it: the
    /// label with every folder (seriesLabel(info, jobId())). The run list's check boxes and the colours key on it.
    QString runKey(int index) const;
    /// The job the series belong to (names scalar runs in seriesLabel()).
    void setJobId(const QString& jobId) { m_jobId = jobId; }
    const QString& jobId() const { return m_jobId; }

    int seriesCount() const { return int(m_series.size()); }
    const SeriesInfo& info(int index) const { return m_series[size_t(index)].info; }
    const MetricSeriesData& data(int index) const { return m_series[size_t(index)].data; }
    int indexOf(const QString& name) const;

    /// Charts in the order their first series arrived.
    const QList<Chart>& charts() const { return m_charts; }
    const Chart* chart(const QString& key) const;
    /// Group names, in the order their first chart arrived.
    QStringList groups() const;

    double smoothing() const { return m_smoothing; }
    /// Sets TensorBoard's smoothing weight (clamped to [0, 0.999]) for every series; emits seriesChanged.
    void setSmoothing(double weight);

    /// x of point i of series `index` in the given axis mode.
    double x(int index, size_t i, MetricsXAxis axis) const;
    /// The x range of a series: nullopt when it is empty.
    std::optional<std::pair<double, double>> xRange(int index, MetricsXAxis axis) const;
    /// Index of the point whose x is nearest to `x` (the hover tooltip), or nullopt for an empty series.
    std::optional<size_t> nearest(int index, MetricsXAxis axis, double x) const;

    /// M4 reduction of series `index`'s column over [x0, x1] into `pixels` columns: per pixel column the
    /// first, lowest, highest and last point (finite values only), in index order, plus the nearest point
    /// outside each end so the line reaches the chart's edges. O(pixels · log n) when x is sorted (steps
    /// and wall times normally are); a linear pass otherwise.
    QList<QPointF> reduce(
        int index, MetricSeriesData::Column column, MetricsXAxis axis, double x0, double x1, int pixels) const;

    /// Up to maxCount values of a column at evenly spaced points among those with x in [x0, x1] (the
    /// outlier range's input: TensorBoard also takes its percentiles over a sample of a series).
    std::vector<double> sample(
        int index, MetricSeriesData::Column column, MetricsXAxis axis, double x0, double x1, size_t maxCount) const;

    /// TensorBoard's "ignore outliers in chart scaling": the 5th and 95th percentiles (d3.quantile's
    /// linear interpolation) of the finite values; nullopt when there are none. Reorders `values`.
    static std::optional<std::pair<double, double>> outlierRange(std::vector<double>& values);

    /// The series' points as TensorBoard's CSV download: `Wall time,Step,Value` then one row per point,
    /// numbers as Python's repr() writes them.
    QByteArray toCsv(int index) const;
    /// The series' points as TensorBoard's JSON download: `[[wall time, step, value], …]`.
    QByteArray toJson(int index) const;

public Q_SLOTS:
    /// ApiStream::metricSeriesAdded: a known name is ignored.
    void addSeries(const Trainyard::SeriesInfo& info);
    /// ApiStream::metricPoints (points of an unknown series are dropped).
    void appendPoints(const QString& series, const QList<Trainyard::SeriesPoint>& points);
    /// ApiStream::metricsPurged: removes the points with step ≥ fromStep.
    void purge(const QString& series, qint64 fromStep);
    void clear();

Q_SIGNALS:
    void seriesAdded(int index);
    /// seriesLabel(int) of some series changed: a job wrote event files to a second folder.
    void labelsChanged();
    /// New points were appended to series `index` (its earlier points are unchanged).
    void pointsAppended(int index);
    /// Series `index` changed other than by appending (purge, smoothing).
    void seriesChanged(int index);
    void cleared();

private:
    QString m_jobId;
    std::pair<size_t, size_t> indexRange(int index, MetricsXAxis axis, double x0, double x1) const;

    struct Entry {
        SeriesInfo info;
        MetricSeriesData data;
    };
    std::vector<Entry> m_series;
    QHash<QString, int> m_byName;
    QList<Chart> m_charts;
    QHash<QString, int> m_chartByKey;
    /// Per compared job ID (empty: the viewed job), the event-file folders its scalar series come from (a trial's
    /// folder without the trial: "3/eval" → "eval"; the job dir itself: "").
    QHash<QString, QSet<QString>> m_runFolders;
    double m_smoothing = DefaultSmoothing;
};

} // namespace Trainyard
