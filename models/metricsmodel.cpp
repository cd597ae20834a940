// SPDX-License-Identifier: GPL-2.0-or-later
#include "metricsmodel.h"

#include <QCoreApplication>

#include "floatrepr.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Trainyard {

namespace {
constexpr size_t npos = std::numeric_limits<size_t>::max();
constexpr int SummaryLevels = 4; // entries of 64, 4096, 262 144 and 16 777 216 points
constexpr double Inf = std::numeric_limits<double>::infinity();

// Python's repr(float), which TensorBoard's CSV and JSON downloads use. Non-finite values as str() writes
// them in a CSV row ("nan", "inf") or as json.dumps writes them ("NaN", "Infinity").
QByteArray pythonRepr(double v, bool json = false)
{
    if (json && std::isnan(v))
        return QByteArrayLiteral("NaN");
    if (json && std::isinf(v))
        return v > 0 ? QByteArrayLiteral("Infinity") : QByteArrayLiteral("-Infinity");
    return Formats::pythonFloatRepr(v);
}
} // namespace

// ---------------------------------------------------------------------------------------------------
// MetricSeriesData

// Step, wall time and value columns (Formats::ScalarColumns: 12 to 16 bytes a point for float scalars) plus
// the smoothed value (4 bytes, display only).
struct MetricSeriesData::Chunk {
    Formats::ScalarColumns columns;
    std::vector<float> smooth;

    size_t size() const { return columns.size(); }
    void append(qint64 s, double w, double v)
    {
        columns.append(s, w, v);
        smooth.push_back(0.f);
    }
    size_t bytes() const { return columns.memoryBytes() + smooth.capacity() * sizeof(float) + sizeof(Chunk); }
};

struct MetricSeriesData::Summary {
    double min = Inf;
    double max = -Inf;
    size_t minIndex = npos;
    size_t maxIndex = npos;

    void take(double v, size_t i)
    {
        if (!std::isfinite(v))
            return;
        if (v < min) {
            min = v;
            minIndex = i;
        }
        if (v > max) {
            max = v;
            maxIndex = i;
        }
    }
    void take(const Summary& s)
    {
        if (s.minIndex != npos && (s.min < min || (s.min == min && s.minIndex < minIndex))) {
            min = s.min;
            minIndex = s.minIndex;
        }
        if (s.maxIndex != npos && (s.max > max || (s.max == max && s.maxIndex < maxIndex))) {
            max = s.max;
            maxIndex = s.maxIndex;
        }
    }
};

MetricSeriesData::MetricSeriesData()
{
    for (auto& levels : m_summaries)
        levels.resize(SummaryLevels);
}

MetricSeriesData::~MetricSeriesData() = default;
MetricSeriesData::MetricSeriesData(MetricSeriesData&&) noexcept = default;
MetricSeriesData& MetricSeriesData::operator=(MetricSeriesData&&) noexcept = default;

qint64 MetricSeriesData::step(size_t i) const
{
    return m_chunks[i >> ChunkBits]->columns.step(i & (ChunkSize - 1));
}

double MetricSeriesData::wallTime(size_t i) const
{
    return m_chunks[i >> ChunkBits]->columns.wallTime(i & (ChunkSize - 1));
}

double MetricSeriesData::value(size_t i) const
{
    return m_chunks[i >> ChunkBits]->columns.value(i & (ChunkSize - 1));
}

double MetricSeriesData::smoothed(size_t i) const
{
    return double(m_chunks[i >> ChunkBits]->smooth[i & (ChunkSize - 1)]);
}

void MetricSeriesData::append(qint64 step, double wallTime, double value)
{
    const size_t i = m_size;
    if ((i & (ChunkSize - 1)) == 0)
        m_chunks.push_back(std::make_unique<Chunk>());
    if (i > 0) {
        m_stepsSorted = m_stepsSorted && step >= this->step(i - 1);
        m_wallSorted = m_wallSorted && wallTime >= this->wallTime(i - 1);
    }
    m_chunks.back()->append(step, wallTime, value);
    ++m_size;
    smoothAppended(i, value);
    summarize(i);
}

// TensorBoard's vz_line_chart `resmoothDataset`: a non-finite value is its own smoothed value and does
// not enter the average; a constant series is drawn as is; otherwise
//   last = last · w + (1 − w) · v;  smoothed = last / (1 − w^numAccum)   (the debiased EMA).
void MetricSeriesData::smoothAppended(size_t i, double v)
{
    if (i == 0) {
        m_emaLast = 0;
        m_emaPower = 1;
        m_constant = true;
    } else if (m_constant && !(v == value(0))) {
        m_constant = false;
    }
    double s = v;
    if (std::isfinite(v)) {
        m_emaLast = m_emaLast * m_weight + (1 - m_weight) * v;
        m_emaPower *= m_weight; // w^numAccum, kept as a product: one multiply per point instead of pow()
        const double debias = m_weight == 1 ? 1 : 1 - m_emaPower;
        if (!m_constant)
            s = m_emaLast / debias;
    }
    m_chunks[i >> ChunkBits]->smooth[i & (ChunkSize - 1)] = float(s);
}

void MetricSeriesData::summarize(size_t i)
{
    for (int c = 0; c < 2; ++c) {
        const double v = column(Column(c), i);
        size_t span = SummaryFanout;
        for (auto& level : m_summaries[c]) {
            const size_t entry = i / span;
            if (entry >= level.size())
                level.emplace_back();
            level[entry].take(v, i);
            span *= SummaryFanout;
        }
    }
}

void MetricSeriesData::rebuildSummaries(Column c)
{
    for (auto& level : m_summaries[c])
        level.clear();
    size_t span = SummaryFanout;
    for (auto& level : m_summaries[c]) {
        level.resize((m_size + span - 1) / span);
        span *= SummaryFanout;
    }
    // Level 0 from the points, each next level from the one below.
    for (size_t i = 0; i < m_size; ++i)
        m_summaries[c][0][i / SummaryFanout].take(column(c, i), i);
    for (int l = 1; l < SummaryLevels; ++l) {
        const auto& below = m_summaries[c][l - 1];
        for (size_t e = 0; e < below.size(); ++e)
            m_summaries[c][l][e / SummaryFanout].take(below[e]);
    }
}

void MetricSeriesData::rebuildSmoothing()
{
    for (size_t i = 0; i < m_size; ++i)
        smoothAppended(i, value(i));
    rebuildSummaries(Smoothed);
}

void MetricSeriesData::setSmoothing(double weight)
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight == m_weight)
        return;
    m_weight = weight;
    rebuildSmoothing();
}

void MetricSeriesData::purgeFrom(qint64 fromStep)
{
    size_t keep = 0;
    if (m_stepsSorted) {
        // A prefix stays: find its end by binary search.
        size_t lo = 0, hi = m_size;
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (step(mid) < fromStep)
                lo = mid + 1;
            else
                hi = mid;
        }
        keep = lo;
        if (keep == m_size)
            return;
        truncate(keep);
        return;
    }
    MetricSeriesData kept;
    kept.m_weight = m_weight;
    for (size_t i = 0; i < m_size; ++i) {
        if (step(i) < fromStep)
            kept.append(step(i), wallTime(i), value(i));
    }
    *this = std::move(kept);
}

void MetricSeriesData::truncate(size_t n)
{
    m_chunks.resize((n + ChunkSize - 1) / ChunkSize);
    if (!m_chunks.empty()) {
        Chunk& last = *m_chunks.back();
        const size_t rest = n - (m_chunks.size() - 1) * ChunkSize;
        last.columns.truncate(rest);
        last.smooth.resize(rest);
    }
    m_size = n;
    m_stepsSorted = true;
    m_wallSorted = true;
    for (size_t i = 1; i < n; ++i) {
        m_stepsSorted = m_stepsSorted && step(i) >= step(i - 1);
        m_wallSorted = m_wallSorted && wallTime(i) >= wallTime(i - 1);
    }
    rebuildSummaries(Value);
    rebuildSmoothing();
}

void MetricSeriesData::clear()
{
    const double weight = m_weight;
    *this = MetricSeriesData();
    m_weight = weight;
}

std::optional<MetricSeriesData::Extremes> MetricSeriesData::extremes(Column c, size_t first, size_t last) const
{
    last = std::min(last, m_size);
    if (first >= last)
        return std::nullopt;
    Summary best;
    const auto& levels = m_summaries[c];
    // Points (level -1) at both ends up to the first aligned block, then blocks of the next level, …
    size_t lo = first, hi = last, unit = 1;
    int level = -1;
    auto scan = [&](size_t from, size_t to) { // [from, to) in points, both multiples of unit
        if (level < 0) {
            // Straight over each chunk's array: no per-point chunk lookup or narrow/wide branch.
            while (from < to) {
                const Chunk& chunk = *m_chunks[from >> ChunkBits];
                const size_t j0 = from & (ChunkSize - 1);
                const size_t j1 = std::min(chunk.size(), j0 + (to - from));
                const size_t base = from - j0;
                if (c == Smoothed) {
                    for (size_t j = j0; j < j1; ++j)
                        best.take(double(chunk.smooth[j]), base + j);
                } else if (chunk.columns.hasWideValues()) {
                    const double* values = chunk.columns.wideValues();
                    for (size_t j = j0; j < j1; ++j)
                        best.take(values[j], base + j);
                } else {
                    const float* values = chunk.columns.narrowValues();
                    for (size_t j = j0; j < j1; ++j)
                        best.take(double(values[j]), base + j);
                }
                from = base + j1;
            }
        } else {
            const auto& entries = levels[size_t(level)];
            for (size_t e = from / unit; e < (to + unit - 1) / unit; ++e)
                best.take(entries[e]);
        }
    };
    for (;;) {
        const size_t next = unit * SummaryFanout;
        if (level + 1 >= SummaryLevels || hi - lo < 2 * next) {
            scan(lo, hi);
            break;
        }
        const size_t alignedLo = (lo + next - 1) / next * next;
        const size_t alignedHi = hi / next * next;
        scan(lo, alignedLo);
        scan(alignedHi, hi);
        lo = alignedLo;
        hi = alignedHi;
        unit = next;
        ++level;
    }
    if (best.minIndex == npos)
        return std::nullopt;
    return Extremes { best.min, best.max, best.minIndex, best.maxIndex };
}

size_t MetricSeriesData::memoryBytes() const
{
    size_t bytes = m_chunks.capacity() * sizeof(void*);
    for (const auto& chunk : m_chunks)
        bytes += chunk->bytes();
    for (const auto& levels : m_summaries)
        for (const auto& level : levels)
            bytes += level.capacity() * sizeof(Summary);
    return bytes;
}

// ---------------------------------------------------------------------------------------------------
// MetricsModel

MetricsModel::MetricsModel(QObject* parent)
    : QObject(parent)
{
}

MetricsModel::~MetricsModel() = default;

QString MetricsModel::groupOf(const SeriesInfo& info)
{
    if (info.kind == QLatin1String("resource"))
        return QStringLiteral("resources");
    if (info.kind == QLatin1String("hypertune"))
        return QStringLiteral("hypertune");
    const qsizetype slash = info.tag.indexOf(QLatin1Char('/'));
    return slash > 0 ? info.tag.left(slash) : info.tag;
}

QString MetricsModel::chartKeyOf(const SeriesInfo& info)
{
    return info.kind + QLatin1Char(':') + info.tag;
}

namespace {
/// The event-file folder a scalar series comes from, without its trial (see MetricsModel::m_runFolders).
QString runFolder(const SeriesInfo& info)
{
    if (!info.trialId.isEmpty() && info.trialId != QLatin1String("0"))
        return info.run.section(QLatin1Char('/'), 1);
    return info.run == QLatin1String(".") ? QString() : info.run;
}
} // namespace

QString MetricsModel::seriesLabel(int index) const
{
    const SeriesInfo& series = info(index);
    const bool soleRun
        = series.kind == QLatin1String("scalar") && m_runFolders.value(series.jobId).size() <= 1;
    return seriesLabel(series, m_jobId, soleRun);
}

QString MetricsModel::runKey(int index) const
{
    return seriesLabel(info(index), m_jobId);
}

QString MetricsModel::seriesLabel(const SeriesInfo& info, const QString& viewedJobId, bool soleRun)
{
    // A trial's series is named after the trial ("trial 3"), with the job only when jobs are compared: every
    // curve of a tuning job read "fmnist_tuning…" before, so none could be told from another.
    if (!info.trialId.isEmpty() && info.trialId != QLatin1String("0")) {
        QString label = QCoreApplication::translate("Trainyard::MetricsModel", "trial %1").arg(info.trialId);
        // What distinguishes the trial's series from each other: the rest of an event-file run ("3/eval" →
        // "eval"), or a replica other than the master.
        const QString rest = info.kind == QLatin1String("scalar") ? (soleRun ? QString() : runFolder(info))
            : info.taskName == QLatin1String("master-replica-0")  ? QString()
                                                                  : info.taskName;
        if (!rest.isEmpty())
            label += QLatin1Char(' ') + rest;
        if (!info.jobId.isEmpty())
            label = info.jobId + QLatin1Char(' ') + label;
        return label;
    }
    // A series merged from a compared job is named after its own job.
    const QString& jobId = info.jobId.isEmpty() ? viewedJobId : info.jobId;
    if (info.kind == QLatin1String("scalar")) {
        if (jobId.isEmpty())
            return info.run;
        if (soleRun)
            return jobId;
        // "." is the job dir itself: a legend of "." said nothing.
        return info.run.isEmpty() || info.run == QLatin1String(".") ? jobId : jobId + QLatin1Char('/') + info.run;
    }
    QString label = info.taskName.isEmpty() ? info.name : info.taskName;
    if (!info.trialId.isEmpty() && info.trialId != QLatin1String("0"))
        label += QStringLiteral(" #") + info.trialId;
    if (!info.jobId.isEmpty())
        label = info.jobId + QLatin1Char(' ') + label;
    return label;
}

int MetricsModel::indexOf(const QString& name) const
{
    return m_byName.value(name, -1);
}

const MetricsModel::Chart* MetricsModel::chart(const QString& key) const
{
    const int i = m_chartByKey.value(key, -1);
    return i < 0 ? nullptr : &m_charts[i];
}

QStringList MetricsModel::groups() const
{
    QStringList out;
    for (const Chart& c : m_charts)
        if (!out.contains(c.group))
            out << c.group;
    return out;
}

void MetricsModel::setSmoothing(double weight)
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight == m_smoothing)
        return;
    m_smoothing = weight;
    for (size_t i = 0; i < m_series.size(); ++i) {
        m_series[i].data.setSmoothing(weight);
        emit seriesChanged(int(i));
    }
}

void MetricsModel::addSeries(const SeriesInfo& info)
{
    if (m_byName.contains(info.name))
        return;
    const int index = int(m_series.size());
    m_series.push_back({ info, MetricSeriesData() });
    m_series.back().data.setSmoothing(m_smoothing);
    m_byName.insert(info.name, index);
    const QString key = chartKeyOf(info);
    int chartIndex = m_chartByKey.value(key, -1);
    if (chartIndex < 0) {
        chartIndex = int(m_charts.size());
        m_charts.append({ key, info.kind, info.tag, groupOf(info), {} });
        m_chartByKey.insert(key, chartIndex);
    }
    m_charts[chartIndex].series.append(index);
    bool relabel = false;
    if (info.kind == QLatin1String("scalar")) {
        QSet<QString>& folders = m_runFolders[info.jobId];
        const qsizetype before = folders.size();
        folders.insert(runFolder(info));
        relabel = before == 1 && folders.size() == 2;
    }
    emit seriesAdded(index);
    if (relabel)
        emit labelsChanged();
}

void MetricsModel::appendPoints(const QString& series, const QList<SeriesPoint>& points)
{
    const int index = indexOf(series);
    if (index < 0 || points.isEmpty())
        return;
    MetricSeriesData& data = m_series[size_t(index)].data;
    for (const SeriesPoint& p : points)
        data.append(p.step, p.wallTime, p.value);
    emit pointsAppended(index);
}

void MetricsModel::purge(const QString& series, qint64 fromStep)
{
    const int index = indexOf(series);
    if (index < 0)
        return;
    m_series[size_t(index)].data.purgeFrom(fromStep);
    emit seriesChanged(index);
}

void MetricsModel::clear()
{
    m_series.clear();
    m_byName.clear();
    m_charts.clear();
    m_chartByKey.clear();
    m_runFolders.clear();
    emit cleared();
}

double MetricsModel::x(int index, size_t i, MetricsXAxis axis) const
{
    const MetricSeriesData& d = data(index);
    switch (axis) {
    case MetricsXAxis::Step:
        return double(d.step(i));
    case MetricsXAxis::RelativeTime:
        return d.wallTime(i) - d.wallTime(0);
    case MetricsXAxis::WallTime:
        return d.wallTime(i);
    }
    return 0;
}

std::optional<std::pair<double, double>> MetricsModel::xRange(int index, MetricsXAxis axis) const
{
    const MetricSeriesData& d = data(index);
    if (d.isEmpty())
        return std::nullopt;
    const bool sorted = axis == MetricsXAxis::Step ? d.stepsSorted() : d.wallSorted();
    if (sorted)
        return std::make_pair(x(index, 0, axis), x(index, d.size() - 1, axis));
    double lo = Inf, hi = -Inf;
    for (size_t i = 0; i < d.size(); ++i) {
        const double v = x(index, i, axis);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    return std::make_pair(lo, hi);
}

std::optional<size_t> MetricsModel::nearest(int index, MetricsXAxis axis, double target) const
{
    const MetricSeriesData& d = data(index);
    if (d.isEmpty())
        return std::nullopt;
    const bool sorted = axis == MetricsXAxis::Step ? d.stepsSorted() : d.wallSorted();
    if (!sorted) {
        size_t best = 0;
        for (size_t i = 1; i < d.size(); ++i)
            if (std::fabs(x(index, i, axis) - target) < std::fabs(x(index, best, axis) - target))
                best = i;
        return best;
    }
    size_t lo = 0, hi = d.size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (x(index, mid, axis) < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == d.size())
        return lo - 1;
    if (lo > 0 && target - x(index, lo - 1, axis) <= x(index, lo, axis) - target)
        return lo - 1;
    return lo;
}

QList<QPointF> MetricsModel::reduce(
    int index, MetricSeriesData::Column column, MetricsXAxis axis, double x0, double x1, int pixels) const
{
    QList<QPointF> out;
    const MetricSeriesData& d = data(index);
    const size_t n = d.size();
    if (n == 0 || pixels <= 0)
        return out;
    if (!(x1 > x0)) {
        x0 -= 0.5;
        x1 += 0.5;
    }
    auto emitPoint = [&](size_t i) {
        const double y = d.column(column, i);
        if (std::isfinite(y))
            out.append(QPointF(x(index, i, axis), y));
    };
    auto emitBucket = [&](size_t first, size_t last, std::optional<MetricSeriesData::Extremes> e) {
        size_t picks[4] = { first, e ? e->minIndex : first, e ? e->maxIndex : first, last };
        std::sort(std::begin(picks), std::end(picks));
        for (int k = 0; k < 4; ++k)
            if (k == 0 || picks[k] != picks[k - 1])
                emitPoint(picks[k]);
    };
    const double width = (x1 - x0) / pixels;
    const bool sorted = axis == MetricsXAxis::Step ? d.stepsSorted() : d.wallSorted();
    if (!sorted) {
        // Unsorted x (a hypertune trial reporting steps out of order): one linear pass.
        struct Bucket {
            size_t first = npos, last = npos, min = npos, max = npos;
        };
        std::vector<Bucket> buckets(static_cast<size_t>(pixels));
        for (size_t i = 0; i < n; ++i) {
            const double xi = x(index, i, axis);
            if (xi < x0 || xi > x1)
                continue;
            Bucket& b = buckets[std::min(size_t(pixels) - 1, size_t((xi - x0) / width))];
            const double y = d.column(column, i);
            if (b.first == npos)
                b.first = i;
            b.last = i;
            if (std::isfinite(y)) {
                if (b.min == npos || y < d.column(column, b.min))
                    b.min = i;
                if (b.max == npos || y > d.column(column, b.max))
                    b.max = i;
            }
        }
        for (const Bucket& b : buckets) {
            if (b.first == npos)
                continue;
            std::optional<MetricSeriesData::Extremes> e;
            if (b.min != npos)
                e = MetricSeriesData::Extremes { 0, 0, b.min, b.max };
            emitBucket(b.first, b.last, e);
        }
        return out;
    }
    // First index in [from, to) whose x is ≥ bound (or > bound when `after`).
    auto search = [&](size_t from, size_t to, double bound, bool after) {
        while (from < to) {
            const size_t mid = from + (to - from) / 2;
            const double xm = x(index, mid, axis);
            if (after ? xm <= bound : xm < bound)
                from = mid + 1;
            else
                to = mid;
        }
        return from;
    };
    const size_t a = search(0, n, x0, false);
    const size_t b = search(a, n, x1, true);
    if (a > 0)
        emitPoint(a - 1);
    size_t start = a;
    for (int p = 0; p < pixels && start < b; ++p) {
        const size_t end = p + 1 == pixels ? b : search(start, b, x0 + (p + 1) * width, false);
        if (end == start)
            continue;
        emitBucket(start, end - 1, d.extremes(column, start, end));
        start = end;
    }
    if (b < n)
        emitPoint(b);
    return out;
}

std::pair<size_t, size_t> MetricsModel::indexRange(int index, MetricsXAxis axis, double x0, double x1) const
{
    const MetricSeriesData& d = data(index);
    auto search = [&](size_t from, size_t to, double bound, bool after) {
        while (from < to) {
            const size_t mid = from + (to - from) / 2;
            const double xm = x(index, mid, axis);
            if (after ? xm <= bound : xm < bound)
                from = mid + 1;
            else
                to = mid;
        }
        return from;
    };
    const size_t a = search(0, d.size(), x0, false);
    return { a, search(a, d.size(), x1, true) };
}

std::vector<double> MetricsModel::sample(
    int index, MetricSeriesData::Column column, MetricsXAxis axis, double x0, double x1, size_t maxCount) const
{
    std::vector<double> out;
    const MetricSeriesData& d = data(index);
    const bool sorted = axis == MetricsXAxis::Step ? d.stepsSorted() : d.wallSorted();
    if (d.isEmpty() || maxCount == 0)
        return out;
    if (!sorted) {
        const size_t stride = std::max<size_t>(1, d.size() / maxCount);
        for (size_t i = 0; i < d.size(); i += stride) {
            const double xi = x(index, i, axis);
            if (xi >= x0 && xi <= x1)
                out.push_back(d.column(column, i));
        }
        return out;
    }
    const auto [a, b] = indexRange(index, axis, x0, x1);
    if (a >= b)
        return out;
    const size_t n = b - a;
    const size_t count = std::min(n, maxCount);
    out.reserve(count);
    for (size_t k = 0; k < count; ++k)
        out.push_back(d.column(column, a + (count == 1 ? 0 : k * (n - 1) / (count - 1))));
    return out;
}

std::optional<std::pair<double, double>> MetricsModel::outlierRange(std::vector<double>& values)
{
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }), values.end());
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    auto quantile = [&](double p) {
        const double i = double(values.size() - 1) * p;
        const size_t i0 = size_t(std::floor(i));
        if (i0 + 1 >= values.size())
            return values.back();
        return values[i0] + (values[i0 + 1] - values[i0]) * (i - double(i0));
    };
    return std::make_pair(quantile(0.05), quantile(0.95));
}

QByteArray MetricsModel::toCsv(int index) const
{
    const MetricSeriesData& d = data(index);
    QByteArray out = QByteArrayLiteral("Wall time,Step,Value\n");
    out.reserve(out.size() + qsizetype(d.size()) * 40);
    for (size_t i = 0; i < d.size(); ++i) {
        out += pythonRepr(d.wallTime(i));
        out += ',';
        out += QByteArray::number(d.step(i));
        out += ',';
        out += pythonRepr(d.value(i));
        out += '\n';
    }
    return out;
}

QByteArray MetricsModel::toJson(int index) const
{
    const MetricSeriesData& d = data(index);
    QByteArray out = "[";
    out.reserve(qsizetype(d.size()) * 40 + 2);
    for (size_t i = 0; i < d.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += '[';
        out += pythonRepr(d.wallTime(i), true);
        out += ", ";
        out += QByteArray::number(d.step(i));
        out += ", ";
        out += pythonRepr(d.value(i), true);
        out += ']';
    }
    out += ']';
    return out;
}

} // namespace Trainyard
