// SPDX-License-Identifier: GPL-2.0-or-later
#include "metricchart.h"

#include "chartaxes.h"

#include <QContextMenuEvent>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QImage>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QMenu>
#include <QPainter>
#include <QRegularExpression>
#include <QScreen>
#include <QValueAxis>
#include <QWheelEvent>

#if TRAINYARD_HAVE_QTSVG
#include <QSvgGenerator>
#endif

#include <algorithm>
#include <cmath>
#include <limits>

namespace Trainyard {

namespace {
constexpr double Inf = std::numeric_limits<double>::infinity();
constexpr double MiB = 1024.0 * 1024.0;
/// Values sampled per series for the outlier range.
constexpr size_t OutlierSample = 4000;

std::pair<double, double> axisRange(QAbstractAxis* axis)
{
    if (auto* v = qobject_cast<QValueAxis*>(axis))
        return { v->min(), v->max() };
    if (auto* l = qobject_cast<QLogValueAxis*>(axis))
        return { l->min(), l->max() };
    if (auto* d = qobject_cast<QDateTimeAxis*>(axis))
        return { double(d->min().toMSecsSinceEpoch()), double(d->max().toMSecsSinceEpoch()) };
    return { 0, 1 };
}

// Value axes get ticks at round numbers (20, 40, 60 rather than 1, 20.75, 40.5) over the exact range.
void setAxisRange(QAbstractAxis* axis, double lo, double hi)
{
    if (auto* v = qobject_cast<QValueAxis*>(axis)) {
        setNiceValueRange(v, lo, hi);
    } else if (auto* l = qobject_cast<QLogValueAxis*>(axis)) {
        l->setRange(lo, hi);
    } else if (auto* d = qobject_cast<QDateTimeAxis*>(axis)) {
        d->setRange(QDateTime::fromMSecsSinceEpoch(qint64(std::floor(lo))),
            QDateTime::fromMSecsSinceEpoch(qint64(std::ceil(hi))));
    }
}

QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    return QLocale().toString(v, 'g', 6);
}
} // namespace

// ---------------------------------------------------------------------------------------------------
// MetricLinesItem

/// Draws a MetricChart's lines (Line::rawPoints and smoothedPoints, in axis units) over the plot area, each
/// with its QLineSeries' pen while that series is visible, in the order Qt Charts stacks series (each
/// series' raw line, then its smoothed line). Points map to the plot area as Qt Charts maps them (linear,
/// or logarithmic on a log axis) from the axes' ranges at paint time, so it follows every range change.
class MetricLinesItem final : public QGraphicsItem {
public:
    explicit MetricLinesItem(MetricChart* chart)
        : QGraphicsItem(chart->chart())
        , m_chart(chart)
    {
        setZValue(4); // Qt Charts' ChartPresenter::SeriesZValue: above the grid and axes, below the legend
        setAcceptedMouseButtons(Qt::NoButton);
    }

    QRectF boundingRect() const override { return m_chart->chart()->rect(); }

    /// Call when the lines' points or the plot area changed.
    void changed()
    {
        prepareGeometryChange();
        update();
    }

    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        const QRectF area = m_chart->chart()->plotArea();
        if (area.isEmpty())
            return;
        const auto [x0, x1] = axisRange(m_chart->xAxis());
        const auto [y0, y1] = axisRange(m_chart->yAxis());
        const bool logY = qobject_cast<QLogValueAxis*>(m_chart->yAxis()) != nullptr;
        if (!(x1 > x0) || !(y1 > y0) || (logY && !(y0 > 0)))
            return;
        // The arithmetic of Qt Charts' XYDomain / XLogYDomain::calculateGeometryPoints(), relative to the plot
        // area's corner, and the clip of its LineChartItem::paint() (half a pixel more where the area's edges
        // fall between pixels), so that the lines come out as Qt Charts drew them.
        const double deltaX = area.width() / (x1 - x0);
        const double bottomY = logY ? std::log10(y0) : y0;
        const double deltaY = area.height() / ((logY ? std::log10(y1) : y1) - bottomY);
        QRectF clip(QPointF(0, 0), area.size());
        const double ax = area.left() - int(area.left()), ay = area.top() - int(area.top());
        const double bx = (clip.width() + 0.5) - int(clip.width() + 0.5);
        const double by = (clip.height() + 0.5) - int(clip.height() + 0.5);
        clip.adjust(-ax, -ay, std::max(ax, bx), std::max(ay, by));
        painter->save();
        painter->translate(area.topLeft());
        painter->setClipRect(clip);
        painter->setBrush(Qt::NoBrush);
        QPolygonF polyline;
        auto draw = [&](const QLineSeries* series, const QList<QPointF>& points) {
            if (!series->isVisible() || points.isEmpty())
                return;
            polyline.resize(points.size());
            for (qsizetype i = 0; i < points.size(); ++i) {
                const double y = logY ? std::log10(points[i].y()) : points[i].y();
                polyline[i] = QPointF((points[i].x() - x0) * deltaX, (y - bottomY) * -deltaY + area.height());
            }
            painter->setPen(series->pen());
            if (polyline.size() == 1) {
                // One point (an early-stopped trial, a run's single evaluation): a dot a reader can see and hover,
                // where a 2-px point was lost.
                painter->setBrush(series->pen().color());
                painter->drawEllipse(polyline.front(), 3.5, 3.5);
                painter->setBrush(Qt::NoBrush);
            } else if (series->pen().style() != Qt::SolidLine) {
                painter->drawPolyline(polyline); // one path, so that a dash pattern runs on
            } else {
                // Segment by segment, as Qt Charts draws solid lines: the raster engine strokes a polyline as
                // one path through its antialiasing rasteriser, twice the time of separate lines here.
                for (qsizetype i = 1; i < polyline.size(); ++i)
                    painter->drawLine(polyline[i - 1], polyline[i]);
            }
        };
        for (const MetricChart::Line& line : std::as_const(m_chart->m_lines)) {
            draw(line.raw, line.rawPoints);
            draw(line.smoothed, line.smoothedPoints);
        }
        painter->restore();
    }

private:
    MetricChart* m_chart;
};

// ---------------------------------------------------------------------------------------------------
// MetricChart

MetricChart::MetricChart(MetricsModel* model, const QString& key, QWidget* parent)
    : QChartView(new QChart, parent)
    , m_model(model)
    , m_key(key)
{
    const MetricsModel::Chart* info = m_model->chart(key);
    if (info && info->tag.endsWith(QLatin1String("_bytes")))
        m_scale = 1 / MiB;
    QChart* c = chart();
    c->setTitle(title());
    QFont titleFont = font();
    titleFont.setBold(true);
    c->setTitleFont(titleFont);
    c->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    c->legend()->setFont(legendFont);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->layout()->setContentsMargins(0, 0, 0, 0);
    c->setBackgroundRoundness(0);
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(360, 260);
    setToolTip(QString());
    rebuildAxes();
    m_linesItem = new MetricLinesItem(this); // owned by the chart (its parent item)
    connect(m_model, &MetricsModel::labelsChanged, this, &MetricChart::applyLabels);
}

void MetricChart::applyLabels()
{
    for (const Line& line : std::as_const(m_lines)) {
        const QString label = m_model->seriesLabel(line.index);
        line.raw->setName(label);
        line.smoothed->setName(label);
    }
}

MetricChart::~MetricChart() = default;

QString MetricChart::title() const
{
    const MetricsModel::Chart* info = m_model->chart(m_key);
    if (!info)
        return m_key;
    if (info->kind == QLatin1String("resource")) {
        if (info->tag == QLatin1String("cpu_percent"))
            return tr("CPU (% of one core)");
        if (info->tag == QLatin1String("rss_bytes"))
            return tr("Memory (RSS, MiB)");
        if (info->tag == QLatin1String("gpu_utilization_percent"))
            return tr("GPU utilization (% of one GPU)");
        if (info->tag == QLatin1String("gpu_memory_bytes"))
            return tr("GPU memory (MiB)");
        return info->tag;
    }
    if (info->kind == QLatin1String("hypertune"))
        return tr("%1 (hypertune)").arg(info->tag);
    return info->tag;
}

void MetricChart::addSeries(int index, const QColor& color)
{
    auto* raw = new QLineSeries(this);
    auto* smoothed = new QLineSeries(this);
    const QString label = m_model->seriesLabel(index);
    raw->setName(label);
    smoothed->setName(label);
    QColor faint = color;
    faint.setAlphaF(0.28);
    raw->setPen(QPen(faint, 1));
    smoothed->setPen(QPen(color, 2));
    if (isResourceChart()) {
        raw->setPen(QPen(color, 2)); // the samples themselves, unsmoothed
        smoothed->setVisible(false);
    }
    chart()->addSeries(raw);
    chart()->addSeries(smoothed);
    raw->attachAxis(m_xAxis);
    raw->attachAxis(m_yAxis);
    smoothed->attachAxis(m_xAxis);
    smoothed->attachAxis(m_yAxis);
    if (m_lines.isEmpty()) {
        // Qt Charts 6.4 makes an axis' item when a first series is attached, and gives it room in the layout only
        // when the axis is shown after that: an axis shown before (the time axis of CPU and memory charts, set
        // before their first series) had no labels and no grid (issue 46 item 20).
        m_xAxis->setVisible(false);
        m_xAxis->setVisible(true);
    }
    // One legend entry per series: the smoothed line's (the samples' for resource charts).
    for (QLegendMarker* marker : chart()->legend()->markers(isResourceChart() ? smoothed : raw))
        marker->setVisible(false);
    m_lines.append({ index, raw, smoothed, {}, {} });
    applyTrialFilter(m_lines.constLast());
}

bool MetricChart::isSeriesShown(int index) const
{
    const QString& trial = m_model->info(index).trialId;
    if (!m_hiddenRuns.isEmpty() && m_hiddenRuns.contains(m_model->runKey(index)))
        return false;
    return m_trials.isEmpty() || trial.isEmpty() || m_trials.contains(trial);
}

void MetricChart::applyTrialFilter(const Line& line)
{
    const bool shown = isSeriesShown(line.index);
    line.raw->setVisible(shown);
    line.smoothed->setVisible(shown && !isResourceChart());
    // One legend entry per series. Qt Charts shows a series' marker again whenever the series is shown, so the
    // other line's marker is hidden again here (issue 46: after a trial filter every trial was named twice).
    for (QLegendMarker* marker : chart()->legend()->markers(isResourceChart() ? line.raw : line.smoothed))
        marker->setVisible(shown);
    for (QLegendMarker* marker : chart()->legend()->markers(isResourceChart() ? line.smoothed : line.raw))
        marker->setVisible(false);
    if (m_linesItem)
        m_linesItem->update(); // it draws only visible series
}

void MetricChart::setTrialFilter(const QSet<QString>& trialIds)
{
    if (trialIds == m_trials)
        return;
    m_trials = trialIds;
    for (const Line& line : std::as_const(m_lines))
        applyTrialFilter(line);
}

void MetricChart::setHiddenRuns(const QSet<QString>& runKeys)
{
    if (runKeys == m_hiddenRuns)
        return;
    m_hiddenRuns = runKeys;
    for (const Line& line : std::as_const(m_lines))
        applyTrialFilter(line);
}

QList<int> MetricChart::seriesIndices() const
{
    QList<int> out;
    for (const Line& line : m_lines)
        out << line.index;
    return out;
}

QLineSeries* MetricChart::rawLine(int index) const
{
    for (const Line& line : m_lines)
        if (line.index == index)
            return line.raw;
    return nullptr;
}

QStringList MetricChart::legendLabels() const
{
    QStringList labels;
    for (const QLegendMarker* marker : chart()->legend()->markers()) {
        if (marker->isVisible())
            labels << marker->label();
    }
    return labels;
}

QLineSeries* MetricChart::smoothedLine(int index) const
{
    for (const Line& line : m_lines)
        if (line.index == index)
            return line.smoothed;
    return nullptr;
}

QList<QPointF> MetricChart::rawPoints(int index) const
{
    for (const Line& line : m_lines)
        if (line.index == index)
            return line.rawPoints;
    return {};
}

QList<QPointF> MetricChart::smoothedPoints(int index) const
{
    for (const Line& line : m_lines)
        if (line.index == index)
            return line.smoothedPoints;
    return {};
}

bool MetricChart::isResourceChart() const
{
    const MetricsModel::Chart* info = m_model->chart(m_key);
    return info && info->kind == QLatin1String("resource");
}

void MetricChart::setSettings(const MetricsChartSettings& requested)
{
    // Resource samples (CPU, RSS, GPU) are taken over time, not at steps: a time axis, and no smoothing.
    MetricsChartSettings settings = requested;
    if (isResourceChart())
        settings.xAxis = MetricsXAxis::WallTime;
    const bool axesChange = settings.xAxis != m_settings.xAxis || settings.logScale != m_settings.logScale;
    if (settings.xAxis != m_settings.xAxis)
        m_zoomX.reset(); // another unit
    if (settings.logScale != m_settings.logScale)
        m_zoomY.reset();
    m_settings = settings;
    if (axesChange)
        rebuildAxes();
}

void MetricChart::rebuildAxes()
{
    // All four axes live as long as the chart; a mode switch re-attaches the lines. (Removing and deleting
    // axes leaves their items in the scene until the event loop runs, so an export right after a switch
    // would draw both.)
    QChart* c = chart();
    if (!m_stepX) {
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        auto* stepX = new QValueAxis(this);
        stepX->setLabelFormat(QStringLiteral("%.10g")); // steps in full: 2000000, not 2e+06
        auto* timeX = new QDateTimeAxis(this);
        timeX->setFormat(QStringLiteral("HH:mm:ss"));
        timeX->setTitleText(tr("Wall time"));
        timeX->setTickCount(4);
        auto* linearY = new QValueAxis(this);
        linearY->setLabelFormat(QStringLiteral("%.4g"));
        auto* logY = new QLogValueAxis(this);
        logY->setBase(10);
        logY->setLabelFormat(QStringLiteral("%.3g"));
        logY->setMinorTickCount(-1);
        m_stepX = stepX;
        m_timeX = timeX;
        m_linearY = linearY;
        m_logY = logY;
        for (QAbstractAxis* axis : { m_stepX, m_timeX, m_linearY, m_logY }) {
            axis->setLabelsFont(small);
            axis->setTitleFont(small);
            c->addAxis(axis, axis == m_stepX || axis == m_timeX ? Qt::AlignBottom : Qt::AlignLeft);
        }
    }
    QAbstractAxis* x = m_settings.xAxis == MetricsXAxis::WallTime ? m_timeX : m_stepX;
    QAbstractAxis* y = m_settings.logScale ? m_logY : m_linearY;
    m_stepX->setTitleText(m_settings.xAxis == MetricsXAxis::RelativeTime ? tr("Relative time (s)") : tr("Step"));
    for (const Line& line : std::as_const(m_lines)) {
        for (QLineSeries* s : { line.raw, line.smoothed }) {
            for (QAbstractAxis* axis : s->attachedAxes())
                if (axis != x && axis != y)
                    s->detachAxis(axis);
            if (!s->attachedAxes().contains(x))
                s->attachAxis(x);
            if (!s->attachedAxes().contains(y))
                s->attachAxis(y);
        }
    }
    for (QAbstractAxis* axis : { m_stepX, m_timeX, m_linearY, m_logY })
        axis->setVisible(axis == x || axis == y);
    m_xAxis = x;
    m_yAxis = y;
}

double MetricChart::toChartX(double modelX) const
{
    return m_settings.xAxis == MetricsXAxis::WallTime ? modelX * 1000 : modelX;
}

double MetricChart::toModelX(double chartX) const
{
    return m_settings.xAxis == MetricsXAxis::WallTime ? chartX / 1000 : chartX;
}

std::optional<std::pair<double, double>> MetricChart::dataXRange() const
{
    double lo = Inf, hi = -Inf;
    for (const Line& line : m_lines) {
        if (!isSeriesShown(line.index))
            continue;
        if (const auto r = m_model->xRange(line.index, m_settings.xAxis)) {
            lo = std::min(lo, r->first);
            hi = std::max(hi, r->second);
        }
    }
    if (lo > hi)
        return std::nullopt;
    return std::make_pair(lo, hi);
}

std::optional<std::pair<double, double>> MetricChart::visibleXRange() const
{
    return m_zoomX ? m_zoomX : dataXRange();
}

void MetricChart::zoomTo(double x0, double x1)
{
    if (!(x1 > x0))
        return;
    m_zoomX = std::make_pair(x0, x1);
    m_zoomY.reset();
    refresh();
}

void MetricChart::resetZoom()
{
    m_zoomX.reset();
    m_zoomY.reset();
    refresh();
}

void MetricChart::takeZoomFromAxes()
{
    const auto [x0, x1] = axisRange(m_xAxis);
    m_zoomX = std::make_pair(toModelX(x0), toModelX(x1));
    m_zoomY = axisRange(m_yAxis);
}

bool MetricChart::isBoundedFraction() const
{
    const MetricsModel::Chart* info = m_model->chart(m_key);
    if (!info || info->kind == QLatin1String("resource"))
        return false;
    static const QRegularExpression fraction(
        QStringLiteral("(^|[/_.\\-])(accuracy|acc|auc|roc_auc|pr_auc|precision|recall|f1|f1_score)($|[/_.\\-])"),
        QRegularExpression::CaseInsensitiveOption);
    return fraction.match(info->tag).hasMatch();
}

void MetricChart::refresh()
{
    m_updatingAxes = true;
    const auto range = visibleXRange();
    const int pixels = std::max(50, int(chart()->plotArea().width() > 0 ? chart()->plotArea().width() : width()));
    double x0 = 0, x1 = 1;
    if (range) {
        x0 = range->first;
        x1 = range->second;
        if (!(x1 > x0)) {
            const double pad = std::max(std::fabs(x0) * 1e-3, 0.5);
            x0 -= pad;
            x1 += pad;
        } else if (!m_zoomX) {
            // The data's own range gets a margin, so that no point sits on the frame: the first and last points
            // (a series of one, from an early-stopped trial) were half cut off at the plot's edge.
            const double pad = (x1 - x0) * 0.02;
            x0 -= pad;
            x1 += pad;
        }
    }
    double ylo = Inf, yhi = -Inf;
    std::vector<double> sample;
    const bool log = m_settings.logScale;
    auto convert = [&](const QList<QPointF>& points, bool track) {
        QList<QPointF> out;
        out.reserve(points.size());
        for (const QPointF& p : points) {
            const double y = p.y() * m_scale;
            if (log && !(y > 0))
                continue; // a log axis has no place for it
            if (track && p.x() >= x0 && p.x() <= x1) {
                ylo = std::min(ylo, y);
                yhi = std::max(yhi, y);
            }
            out.append(QPointF(toChartX(p.x()), y));
        }
        return out;
    };
    for (Line& line : m_lines) {
        if (!isSeriesShown(line.index))
            continue; // keeps its old points while hidden; refreshed when it shows again
        const QList<QPointF> raw
            = m_model->reduce(line.index, MetricSeriesData::Value, m_settings.xAxis, x0, x1, pixels);
        const QList<QPointF> smoothed
            = m_model->reduce(line.index, MetricSeriesData::Smoothed, m_settings.xAxis, x0, x1, pixels);
        line.rawPoints = convert(raw, true);
        line.smoothedPoints = convert(smoothed, true);
        if (m_settings.ignoreOutliers && !m_zoomY) {
            for (double v :
                m_model->sample(line.index, MetricSeriesData::Value, m_settings.xAxis, x0, x1, OutlierSample)) {
                v *= m_scale;
                if (!log || v > 0)
                    sample.push_back(v);
            }
        }
    }
    if (m_settings.ignoreOutliers && !m_zoomY) {
        if (const auto r = MetricsModel::outlierRange(sample)) {
            ylo = r->first;
            yhi = r->second;
        }
    }
    double lo = ylo, hi = yhi;
    if (m_zoomY) {
        lo = m_zoomY->first;
        hi = m_zoomY->second;
    } else if (!(lo <= hi)) {
        lo = log ? 1 : 0;
        hi = log ? 10 : 1;
    } else if (log) {
        lo /= 1.25;
        hi *= 1.25;
        if (hi / lo < 10) { // at least one decade, so the axis has labels
            const double mid = std::sqrt(lo * hi);
            lo = mid / std::sqrt(10.0);
            hi = mid * std::sqrt(10.0);
        }
    } else {
        double span = hi - lo;
        // A constant series: a band around it. So is a span within float rounding of its values (the scalar columns
        // keep float32: 0.477 is 0.476999998 there and 0.477 in a double beside it, and the axis was 2e-9 wide,
        // five ticks of "0.477").
        if (span <= std::max(std::fabs(lo), std::fabs(hi)) * 1e-6)
            span = hi != 0 ? std::fabs(hi) * 0.1 : 1;
        const double dataLo = lo, dataHi = hi;
        lo -= span * 0.05;
        hi += span * 0.05;
        // A fraction (accuracy, AUC, precision, recall, F1) never leaves [0, 1]: the margin stops there (issue 46:
        // test/accuracy's axis ran to 1.004).
        if (isBoundedFraction() && dataLo >= 0 && dataHi <= 1) {
            lo = std::max(lo, 0.0);
            hi = std::min(hi, 1.0);
        }
    }
    setAxisRange(m_xAxis, toChartX(x0), toChartX(x1));
    setAxisRange(m_yAxis, lo, hi);
    if (auto* dt = qobject_cast<QDateTimeAxis*>(m_xAxis))
        dt->setFormat(x1 - x0 > 86400 ? QStringLiteral("MM-dd HH:mm") : QStringLiteral("HH:mm:ss"));
    m_updatingAxes = false;
    if (m_linesItem)
        m_linesItem->changed();
}

QString MetricChart::tooltipText(double x) const
{
    struct Row {
        double sortKey;
        QString html;
    };
    QList<Row> found;
    for (const Line& line : m_lines) {
        if (!isSeriesShown(line.index))
            continue;
        const auto i = m_model->nearest(line.index, m_settings.xAxis, x);
        if (!i)
            continue;
        const MetricSeriesData& d = m_model->data(line.index);
        const double wall = d.wallTime(*i);
        const double key = std::isfinite(d.smoothed(*i)) ? d.smoothed(*i) : -std::numeric_limits<double>::infinity();
        found.append({ key, QString() });
        found.last().html
            = QStringLiteral("<tr><td style=\"color:%1\">■</td><td>%2</td><td align=\"right\">%3</td>"
                             "<td align=\"right\">%4</td><td align=\"right\">%5</td><td>%6</td>"
                             "<td align=\"right\">%7</td></tr>")
                  .arg(line.smoothed->pen().color().name(),
                      m_model->seriesLabel(line.index).toHtmlEscaped(),
                      QLocale().toString(d.step(*i)), formatNumber(d.value(*i)), formatNumber(d.smoothed(*i)),
                      QLocale().toString(
                          QDateTime::fromMSecsSinceEpoch(qint64(wall * 1000)), QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                      tr("%1 s").arg(QLocale().toString(wall - d.wallTime(0), 'f', 1)));
    }
    if (found.isEmpty())
        return {};
    std::stable_sort(found.begin(), found.end(), [](const Row& a, const Row& b) { return a.sortKey > b.sortKey; });
    QString rows;
    for (int r = 0; r < std::min<int>(int(found.size()), MaxHoverRows); ++r)
        rows += found[r].html;
    if (found.size() > MaxHoverRows)
        rows += QStringLiteral("<tr><td></td><td colspan=\"6\">%1</td></tr>")
                    .arg(tr("… and %n more", nullptr, int(found.size()) - MaxHoverRows).toHtmlEscaped());
    return QStringLiteral("<table cellspacing=\"4\"><tr><th></th><th align=\"left\">%1</th><th>%2</th><th>%3</th>"
                          "<th>%4</th><th align=\"left\">%5</th><th>%6</th></tr>")
               .arg(tr("Name"), tr("Step"), tr("Value"), tr("Smoothed"), tr("Time"), tr("Relative"))
        + rows + QStringLiteral("</table>");
}

bool MetricChart::svgAvailable()
{
#if TRAINYARD_HAVE_QTSVG
    return true;
#else
    return false;
#endif
}

bool MetricChart::exportImage(const QString& path, QString* error)
{
    const bool svg = QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0;
    if (svg) {
#if TRAINYARD_HAVE_QTSVG
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(size());
        generator.setViewBox(QRect(QPoint(0, 0), size()));
        generator.setTitle(title());
        QPainter painter;
        if (!painter.begin(&generator)) {
            if (error)
                *error = tr("Could not write %1.").arg(path);
            return false;
        }
        render(&painter);
        painter.end();
        return QFileInfo(path).size() > 0;
#else
        if (error)
            *error = tr("SVG export needs Qt SVG, which this build does not have.");
        return false;
#endif
    }
    QImage image(size() * devicePixelRatio(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio());
    image.fill(Qt::white);
    QPainter painter(&image);
    render(&painter);
    painter.end();
    if (!image.save(path)) {
        if (error)
            *error = tr("Could not write %1.").arg(path);
        return false;
    }
    return true;
}

void MetricChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    refresh();
}

void MetricChart::showEvent(QShowEvent* event)
{
    QChartView::showEvent(event);
    emit shown();
}

void MetricChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton) {
        m_panning = true;
        m_panFrom = event->pos();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton) {
        event->ignore(); // the context menu, not QChartView's zoom out
        return;
    }
    QChartView::mousePressEvent(event);
}

void MetricChart::mouseMoveEvent(QMouseEvent* event)
{
    if (m_panning) {
        const QPoint delta = event->pos() - m_panFrom;
        m_panFrom = event->pos();
        chart()->scroll(-delta.x(), delta.y());
        takeZoomFromAxes();
        refresh();
        return;
    }
    QChartView::mouseMoveEvent(event);
    if (chart()->plotArea().contains(event->position()))
        showHoverCard(event->position(), event->globalPosition().toPoint());
    else if (m_hoverCard)
        m_hoverCard->hide();
}

void MetricChart::showHoverCard(const QPointF& position, const QPoint& global)
{
    const QString text = tooltipText(toModelX(chart()->mapToValue(position).x()));
    if (text.isEmpty()) {
        if (m_hoverCard)
            m_hoverCard->hide();
        return;
    }
    if (!m_hoverCard) {
        // A window of its own (the card may be taller than the chart), drawn as a tooltip, that never takes
        // the focus or the mouse; shown and hidden only here.
        m_hoverCard = new QLabel(this, Qt::ToolTip | Qt::FramelessWindowHint | Qt::WindowDoesNotAcceptFocus);
        m_hoverCard->setObjectName(QStringLiteral("hoverCard"));
        m_hoverCard->setAttribute(Qt::WA_TransparentForMouseEvents);
        m_hoverCard->setAttribute(Qt::WA_ShowWithoutActivating);
        m_hoverCard->setTextFormat(Qt::RichText);
        m_hoverCard->setForegroundRole(QPalette::ToolTipText);
        m_hoverCard->setBackgroundRole(QPalette::ToolTipBase);
        m_hoverCard->setAutoFillBackground(true);
        m_hoverCard->setFrameShape(QFrame::Box);
        m_hoverCard->setMargin(4);
    }
    m_hoverCard->setText(text);
    m_hoverCard->adjustSize();
    // Beside the mouse, on the screen: left of it when it would run off the right edge.
    QPoint at = global + QPoint(16, 16);
    if (const QScreen* s = screen()) {
        const QRect area = s->availableGeometry();
        if (at.x() + m_hoverCard->width() > area.right())
            at.setX(global.x() - 16 - m_hoverCard->width());
        at.setY(std::clamp(at.y(), area.top(), std::max(area.top(), area.bottom() - m_hoverCard->height())));
    }
    m_hoverCard->move(at);
    m_hoverCard->show();
}

void MetricChart::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton && m_panning) {
        m_panning = false;
        unsetCursor();
        return;
    }
    if (event->button() == Qt::RightButton) {
        event->ignore();
        return;
    }
    const auto before = std::make_pair(axisRange(m_xAxis), axisRange(m_yAxis));
    QChartView::mouseReleaseEvent(event);
    if (std::make_pair(axisRange(m_xAxis), axisRange(m_yAxis)) != before) {
        takeZoomFromAxes(); // the rubber band zoomed in
        refresh();
    }
}

void MetricChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        resetZoom();
}

void MetricChart::wheelEvent(QWheelEvent* event)
{
    // The wheel scrolls the page of charts; Ctrl+wheel zooms (a drag zooms too, a double-click resets).
    if (!(event->modifiers() & Qt::ControlModifier)) {
        event->ignore();
        return;
    }
    const auto range = visibleXRange();
    if (!range || event->angleDelta().y() == 0)
        return;
    const double factor = event->angleDelta().y() > 0 ? 0.8 : 1.25;
    double center = toModelX(chart()->mapToValue(event->position()).x());
    center = std::clamp(center, range->first, range->second);
    zoomTo(center - (center - range->first) * factor, center + (range->second - center) * factor);
    event->accept();
}

void MetricChart::keyPressEvent(QKeyEvent* event)
{
    const auto range = visibleXRange();
    const double span = range ? range->second - range->first : 0;
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
        if (range && span > 0) {
            const double shift = (event->key() == Qt::Key_Left ? -0.1 : 0.1) * span;
            m_zoomX = std::make_pair(range->first + shift, range->second + shift);
            refresh();
        }
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        if (range && span > 0)
            zoomTo(range->first + span * 0.1, range->second - span * 0.1);
        return;
    case Qt::Key_Minus:
        if (range && span > 0)
            zoomTo(range->first - span * 0.125, range->second + span * 0.125);
        return;
    case Qt::Key_Escape:
    case Qt::Key_Home:
        resetZoom();
        return;
    default:
        QChartView::keyPressEvent(event);
    }
}

void MetricChart::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    QAction* reset = menu.addAction(tr("Reset zoom"), this, &MetricChart::resetZoom);
    reset->setEnabled(isZoomed());
    menu.addSeparator();
    menu.addAction(tr("Export chart as PNG…"), this, [this] { emit exportImageRequested(QStringLiteral("png")); });
    QAction* svg = menu.addAction(
        tr("Export chart as SVG…"), this, [this] { emit exportImageRequested(QStringLiteral("svg")); });
    svg->setEnabled(svgAvailable());
    if (!svgAvailable())
        svg->setToolTip(tr("This build has no Qt SVG."));
    menu.addSeparator();
    for (const QString& format : { QStringLiteral("csv"), QStringLiteral("json") }) {
        const QString text = format == QLatin1String("csv") ? tr("Export data as CSV") : tr("Export data as JSON");
        if (m_lines.size() == 1) {
            const int index = m_lines.first().index;
            menu.addAction(
                text + QStringLiteral("…"), this, [this, index, format] { emit exportDataRequested(index, format); });
            continue;
        }
        QMenu* sub = menu.addMenu(text);
        for (const Line& line : std::as_const(m_lines)) {
            const int index = line.index;
            sub->addAction(m_model->seriesLabel(index) + QStringLiteral("…"),
                this, [this, index, format] { emit exportDataRequested(index, format); });
        }
    }
    menu.exec(event->globalPos());
}

void MetricChart::leaveEvent(QEvent* event)
{
    if (m_hoverCard)
        m_hoverCard->hide();
    QChartView::leaveEvent(event);
}

} // namespace Trainyard
