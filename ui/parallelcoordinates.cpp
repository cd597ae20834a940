// SPDX-License-Identifier: GPL-2.0-or-later
#include "parallelcoordinates.h"

#include "numberformat.h"
#include "stateicons.h"
#include "trialsmodel.h"

#include <QKeyEvent>
#include <QLinearGradient>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {
constexpr double AxisGrab = 12; ///< pixels either side of an axis that start a brush
constexpr double DragThreshold = 3; ///< pixels a press must move to be a brush, not a click
constexpr double HoverDistance = 5; ///< pixels from a line that still hover it
constexpr double BarWidth = 10; ///< the objective axis' colour bar
constexpr int RefreshMs = 40;

const QColor FilteredOut(0xc0, 0xbf, 0xbc, 110);
const QColor NoObjective(0x9a, 0x99, 0x96);
const QColor BrushFill(0x35, 0x84, 0xe4, 60);
const QColor BrushBorder(0x1a, 0x5f, 0xb4);

QList<double> linearTicks(double lo, double hi, bool integers)
{
    QList<double> ticks;
    double step = niceTickStep((hi - lo) / 4);
    if (integers)
        step = std::max(1.0, std::round(step));
    if (!(step > 0) || (hi - lo) / step > 50)
        return ticks;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
        ticks << (std::fabs(v) < step * 1e-9 ? 0 : v);
    return ticks;
}

QList<double> logTicks(double lo, double hi)
{
    QList<double> ticks;
    for (int e = int(std::floor(std::log10(lo))); e <= int(std::ceil(std::log10(hi))); ++e) {
        for (double m : { 1.0, 2.0, 5.0 }) {
            const double v = m * std::pow(10.0, e);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
                ticks << v;
        }
    }
    // Many decades: the powers of ten alone.
    if (ticks.size() > 7)
        ticks.removeIf([](double v) { return std::fabs(std::log10(v) - std::round(std::log10(v))) > 1e-9; });
    return ticks;
}

QString formatValue(double v)
{
    return QLocale().toString(v, 'g', 4);
}

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b)
{
    const QPointF d = b - a;
    const double len2 = QPointF::dotProduct(d, d);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, d) / len2, 0.0, 1.0) : 0.0;
    const QPointF q = a + t * d;
    return std::hypot(p.x() - q.x(), p.y() - q.y());
}
} // namespace

QColor ParallelCoordinates::viridis(double t)
{
    // matplotlib's viridis at 0, 1/8, …, 1; linear in between (closer than the eye can tell at 9 stops).
    static const QColor stops[] = { QColor(0x44, 0x01, 0x54), QColor(0x48, 0x28, 0x78), QColor(0x3e, 0x49, 0x89),
        QColor(0x31, 0x68, 0x8e), QColor(0x26, 0x82, 0x8e), QColor(0x1f, 0x9e, 0x89), QColor(0x35, 0xb7, 0x79),
        QColor(0x6e, 0xce, 0x58), QColor(0xfd, 0xe7, 0x25) };
    if (!std::isfinite(t))
        t = 0.5;
    t = std::clamp(t, 0.0, 1.0) * 8;
    const int i = std::min(7, int(t));
    const double f = t - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
        float(a.greenF() + (b.greenF() - a.greenF()) * f), float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

ParallelCoordinates::ParallelCoordinates(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Parallel coordinates of the trials"));
    setAccessibleDescription(tr("One vertical axis per hyperparameter and one for the objective; each trial is a "
                                "line through its values. Drag along an axis to filter, click an axis to clear its "
                                "filter, Escape clears every filter."));
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(RefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &ParallelCoordinates::refresh);
}

ParallelCoordinates::~ParallelCoordinates() = default;

void ParallelCoordinates::setModel(TrialsModel* model)
{
    if (m_model)
        m_model->disconnect(this);
    m_model = model;
    if (m_model) {
        connect(m_model, &QAbstractItemModel::modelReset, this, &ParallelCoordinates::modelReset);
        connect(m_model, &QAbstractItemModel::rowsInserted, this, &ParallelCoordinates::scheduleRefresh);
        connect(m_model, &QAbstractItemModel::rowsRemoved, this, &ParallelCoordinates::scheduleRefresh);
        connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                // Running trials' durations tick every second; nothing drawn depends on them.
                if (topLeft.column() == bottomRight.column() && topLeft.column() == m_model->durationColumn())
                    return;
                scheduleRefresh();
            });
        connect(m_model, &QAbstractItemModel::headerDataChanged, this, &ParallelCoordinates::scheduleRefresh);
    }
    modelReset();
}

void ParallelCoordinates::modelReset()
{
    // Other parameters: the brushes' axes are gone.
    m_brushes.clear();
    m_hovered.clear();
    m_dragAxis = -1;
    refresh();
}

void ParallelCoordinates::scheduleRefresh()
{
    if (!m_refresh.isActive())
        m_refresh.start();
}

void ParallelCoordinates::refresh()
{
    m_refresh.stop();
    rebuildAxes();
    updatePassing();
    update();
}

std::pair<double, double> ParallelCoordinates::objectiveRange() const
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    if (m_model) {
        for (const HyperparameterOutput& t : m_model->trials()) {
            if (const auto v = TrialsModel::objectiveOf(t); v && std::isfinite(*v)) {
                lo = std::min(lo, *v);
                hi = std::max(hi, *v);
            }
        }
    }
    if (lo > hi)
        return { 0, 1 };
    return { lo, hi };
}

void ParallelCoordinates::rebuildAxes()
{
    m_axes.clear();
    if (!m_model || m_model->parameterCount() == 0)
        return;
    for (int p = 0; p < m_model->parameterCount(); ++p) {
        const ParameterSpec& spec = m_model->spec().params.at(p);
        Axis axis;
        axis.name = spec.parameterName;
        if (spec.type == QLatin1String("CATEGORICAL")) {
            axis.scale = Scale::Categorical;
            axis.categories = spec.categoricalValues;
            axis.min = 0;
            axis.max = std::max<double>(0, double(spec.categoricalValues.size()) - 1);
            m_axes.append(axis);
            continue;
        }
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        if (spec.type == QLatin1String("DISCRETE")) {
            for (double v : spec.discreteValues) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        } else {
            if (spec.minValue)
                lo = *spec.minValue;
            if (spec.maxValue)
                hi = *spec.maxValue;
        }
        // Values outside the spec (or a spec without bounds) widen the axis rather than vanish at its end.
        for (int row = 0; row < m_model->trialCount(); ++row) {
            if (const auto v
                = TrialsModel::parameterValue(spec, m_model->trial(row).hyperparameters.value(spec.parameterName))) {
                lo = std::min(lo, *v);
                hi = std::max(hi, *v);
            }
        }
        if (lo > hi) {
            lo = 0;
            hi = 1;
        } else if (lo == hi) {
            const double pad = lo != 0 ? std::fabs(lo) * 0.1 : 1;
            lo -= pad;
            hi += pad;
        }
        axis.min = lo;
        axis.max = hi;
        const bool positive = lo > 0;
        if (spec.scaleType == QLatin1String("UNIT_LOG_SCALE") && positive) {
            axis.scale = Scale::Log;
            axis.subtitle = tr("log scale");
            axis.ticks = logTicks(lo, hi);
        } else if (spec.scaleType == QLatin1String("UNIT_REVERSE_LOG_SCALE") && positive) {
            axis.scale = Scale::ReverseLog;
            axis.subtitle = tr("reverse log");
            axis.ticks = linearTicks(lo, hi, spec.type == QLatin1String("INTEGER"));
        } else {
            axis.ticks = linearTicks(lo, hi, spec.type == QLatin1String("INTEGER"));
        }
        if (spec.type == QLatin1String("DISCRETE") && spec.discreteValues.size() <= 12)
            axis.ticks = spec.discreteValues;
        m_axes.append(axis);
    }
    Axis objective;
    objective.objective = true;
    const QString tag = m_model->metricTag();
    objective.name = tag.isEmpty() ? tr("Objective") : tag;
    objective.subtitle = m_model->maximize() ? tr("↑ maximize") : tr("↓ minimize");
    auto [lo, hi] = objectiveRange();
    if (lo == hi) {
        const double pad = lo != 0 ? std::fabs(lo) * 0.05 : 0.5;
        lo -= pad;
        hi += pad;
    }
    objective.min = lo;
    objective.max = hi;
    objective.ticks = linearTicks(lo, hi, false);
    m_axes.append(objective);
    // A brush on an axis that no longer exists.
    for (auto it = m_brushes.begin(); it != m_brushes.end();)
        it = it.key() < m_axes.size() ? std::next(it) : m_brushes.erase(it);
}

QString ParallelCoordinates::axisName(int axis) const
{
    return axis >= 0 && axis < m_axes.size() ? m_axes.at(axis).name : QString();
}

ParallelCoordinates::Scale ParallelCoordinates::axisScale(int axis) const
{
    return axis >= 0 && axis < m_axes.size() ? m_axes.at(axis).scale : Scale::Linear;
}

std::pair<double, double> ParallelCoordinates::axisRange(int axis) const
{
    if (axis < 0 || axis >= m_axes.size())
        return { 0, 1 };
    return { m_axes.at(axis).min, m_axes.at(axis).max };
}

QStringList ParallelCoordinates::axisCategories(int axis) const
{
    return axis >= 0 && axis < m_axes.size() ? m_axes.at(axis).categories : QStringList();
}

double ParallelCoordinates::leftMargin() const
{
    return fontMetrics().averageCharWidth() * 9 + 8;
}

double ParallelCoordinates::rightMargin() const
{
    return fontMetrics().averageCharWidth() * 9 + BarWidth + 8;
}

double ParallelCoordinates::plotTop() const
{
    return fontMetrics().height() * 2 + 14;
}

double ParallelCoordinates::plotBottom() const
{
    return std::max(plotTop() + 20, double(height()) - fontMetrics().height() - 22);
}

double ParallelCoordinates::axisX(int axis) const
{
    const double left = leftMargin();
    const double right = std::max(left + 1, width() - rightMargin());
    if (m_axes.size() <= 1)
        return (left + right) / 2;
    return left + axis * (right - left) / double(m_axes.size() - 1);
}

double ParallelCoordinates::toUnit(const Axis& axis, double v) const
{
    switch (axis.scale) {
    case Scale::Categorical: {
        const double n = std::max<double>(1, double(axis.categories.size()));
        return std::clamp((v + 0.5) / n, 0.0, 1.0);
    }
    case Scale::Log:
        if (!(v > 0))
            return 0;
        return std::clamp((std::log(v) - std::log(axis.min)) / (std::log(axis.max) - std::log(axis.min)), 0.0, 1.0);
    case Scale::ReverseLog: {
        // The service's reverse log scale: fine resolution near the maximum (e.g. a momentum of 0.9 … 0.999).
        const double r = std::max(axis.min, axis.min + axis.max - v);
        return std::clamp(1 - (std::log(r) - std::log(axis.min)) / (std::log(axis.max) - std::log(axis.min)), 0.0, 1.0);
    }
    case Scale::Linear:
        break;
    }
    return axis.max > axis.min ? std::clamp((v - axis.min) / (axis.max - axis.min), 0.0, 1.0) : 0.5;
}

double ParallelCoordinates::fromUnit(const Axis& axis, double t) const
{
    t = std::clamp(t, 0.0, 1.0);
    switch (axis.scale) {
    case Scale::Categorical:
        return t * std::max<double>(1, double(axis.categories.size())) - 0.5;
    case Scale::Log:
        return std::exp(std::log(axis.min) + t * (std::log(axis.max) - std::log(axis.min)));
    case Scale::ReverseLog:
        return axis.min + axis.max - axis.min * std::pow(axis.max / axis.min, 1 - t);
    case Scale::Linear:
        break;
    }
    return axis.min + t * (axis.max - axis.min);
}

double ParallelCoordinates::valueToY(int axis, double value) const
{
    if (axis < 0 || axis >= m_axes.size())
        return plotBottom();
    return plotBottom() - toUnit(m_axes.at(axis), value) * (plotBottom() - plotTop());
}

double ParallelCoordinates::yToValue(int axis, double y) const
{
    if (axis < 0 || axis >= m_axes.size())
        return 0;
    const double span = plotBottom() - plotTop();
    return fromUnit(m_axes.at(axis), span > 0 ? (plotBottom() - y) / span : 0);
}

std::optional<double> ParallelCoordinates::trialValue(int row, int axis) const
{
    if (!m_model || row < 0 || row >= m_model->trialCount() || axis < 0 || axis >= m_axes.size())
        return std::nullopt;
    const HyperparameterOutput& t = m_model->trial(row);
    if (m_axes.at(axis).objective) {
        const auto v = TrialsModel::objectiveOf(t);
        return v && std::isfinite(*v) ? v : std::nullopt;
    }
    const ParameterSpec& spec = m_model->spec().params.at(axis);
    return TrialsModel::parameterValue(spec, t.hyperparameters.value(spec.parameterName));
}

std::optional<std::pair<double, double>> ParallelCoordinates::brush(int axis) const
{
    const auto it = m_brushes.constFind(axis);
    return it == m_brushes.constEnd() ? std::nullopt : std::optional(*it);
}

void ParallelCoordinates::setBrush(int axis, double from, double to)
{
    if (axis < 0 || axis >= m_axes.size())
        return;
    m_brushes.insert(axis, { std::min(from, to), std::max(from, to) });
    updatePassing();
    update();
}

void ParallelCoordinates::clearBrush(int axis)
{
    if (m_brushes.remove(axis) == 0)
        return;
    updatePassing();
    update();
}

void ParallelCoordinates::clearBrushes()
{
    if (m_brushes.isEmpty())
        return;
    m_brushes.clear();
    updatePassing();
    update();
}

void ParallelCoordinates::setTopPercent(int percent)
{
    percent = std::clamp(percent, 1, 100);
    if (percent == m_topPercent)
        return;
    m_topPercent = percent;
    updatePassing();
    update();
}

bool ParallelCoordinates::isFiltering() const
{
    return !m_brushes.isEmpty() || m_topPercent < 100;
}

QStringList ParallelCoordinates::passingTrials() const
{
    QStringList out;
    if (!m_model)
        return out;
    for (const HyperparameterOutput& t : m_model->trials()) {
        if (!m_filtering || m_passing.contains(t.trialId))
            out << t.trialId;
    }
    return out;
}

void ParallelCoordinates::updatePassing()
{
    QSet<QString> passing;
    const bool filtering = isFiltering() && m_model;
    if (filtering) {
        QSet<QString> top;
        if (m_topPercent < 100) {
            QList<std::pair<double, QString>> ranked;
            for (const HyperparameterOutput& t : m_model->trials()) {
                if (const auto v = TrialsModel::objectiveOf(t); v && std::isfinite(*v))
                    ranked.append({ *v, t.trialId });
            }
            std::stable_sort(ranked.begin(), ranked.end(),
                [this](const auto& a, const auto& b) { return m_model->isBetter(a.first, b.first); });
            const qsizetype keep = ranked.isEmpty()
                ? 0
                : std::max<qsizetype>(1, qsizetype(std::ceil(double(ranked.size()) * m_topPercent / 100.0 - 1e-9)));
            for (qsizetype i = 0; i < keep; ++i)
                top.insert(ranked.at(i).second);
        }
        for (int row = 0; row < m_model->trialCount(); ++row) {
            const QString id = m_model->trial(row).trialId;
            if (m_topPercent < 100 && !top.contains(id))
                continue;
            bool pass = true;
            for (auto it = m_brushes.cbegin(); it != m_brushes.cend() && pass; ++it) {
                const auto v = trialValue(row, it.key());
                pass = v && *v >= it->first && *v <= it->second;
            }
            if (pass)
                passing.insert(id);
        }
    }
    if (filtering == m_filtering && passing == m_passing)
        return;
    m_filtering = filtering;
    m_passing = passing;
    emit passingTrialsChanged(passingTrials());
}

void ParallelCoordinates::setHighlightedTrials(const QStringList& trialIds)
{
    if (trialIds == m_highlighted)
        return;
    m_highlighted = trialIds;
    update();
}

QString ParallelCoordinates::trialAt(const QPointF& pos) const
{
    if (!m_model || m_axes.size() < 2)
        return {};
    QString nearest;
    double best = HoverDistance;
    for (int row = 0; row < m_model->trialCount(); ++row) {
        QPointF previous;
        bool connected = false;
        for (int axis = 0; axis < m_axes.size(); ++axis) {
            const auto v = trialValue(row, axis);
            if (!v) {
                connected = false;
                continue;
            }
            const QPointF point(axisX(axis), valueToY(axis, *v));
            if (connected) {
                const double d = distanceToSegment(pos, previous, point);
                // Ties (lines through the same point) go to a trial that passes the filters.
                const bool passes = !m_filtering || m_passing.contains(m_model->trial(row).trialId);
                if (d < best || (d == best && passes)) {
                    best = d;
                    nearest = m_model->trial(row).trialId;
                }
            }
            previous = point;
            connected = true;
        }
    }
    return nearest;
}

QString ParallelCoordinates::tooltipText(const QString& trialId) const
{
    if (!m_model)
        return {};
    const int row = m_model->rowOf(trialId);
    if (row < 0)
        return {};
    const HyperparameterOutput& t = m_model->trial(row);
    QString rows;
    for (const ParameterSpec& p : m_model->spec().params) {
        rows += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td></tr>")
                    .arg(p.parameterName.toHtmlEscaped(), t.hyperparameters.value(p.parameterName).toHtmlEscaped());
    }
    const auto objective = TrialsModel::objectiveOf(t);
    const auto step = TrialsModel::objectiveStepOf(t);
    QString value = objective ? QLocale().toString(*objective, 'g', 6) : tr("none yet");
    if (objective && step)
        value = tr("%1 (step %2)").arg(value, QLocale().toString(*step));
    rows += QStringLiteral("<tr><td><b>%1</b></td><td align=\"right\"><b>%2</b></td></tr>")
                .arg(axisName(objectiveAxis()).toHtmlEscaped(), value.toHtmlEscaped());
    QString title = tr("Trial %1 — %2").arg(t.trialId, stateDisplayName(t.state));
    if (trialId == m_model->bestTrialId())
        title += QStringLiteral(" ★");
    return QStringLiteral("<b>%1</b><table cellspacing=\"2\">%2</table>").arg(title.toHtmlEscaped(), rows);
}

QSize ParallelCoordinates::sizeHint() const
{
    return { 800, 320 };
}

QSize ParallelCoordinates::minimumSizeHint() const
{
    return { 320, 200 };
}

int ParallelCoordinates::axisAt(const QPointF& pos) const
{
    if (pos.y() < plotTop() - AxisGrab || pos.y() > plotBottom() + AxisGrab)
        return -1;
    int nearest = -1;
    double best = AxisGrab;
    for (int axis = 0; axis < m_axes.size(); ++axis) {
        const double d = std::fabs(pos.x() - axisX(axis));
        if (d <= best) {
            best = d;
            nearest = axis;
        }
    }
    return nearest;
}

void ParallelCoordinates::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().color(QPalette::Text);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    const QFontMetrics smallMetrics(small);

    if (m_axes.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("This job has no hyperparameters to plot."));
        return;
    }
    const double top = plotTop();
    const double bottom = plotBottom();
    const auto [objLo, objHi] = axisRange(objectiveAxis());

    // Lines: filtered-out ones underneath, then the passing ones from worst to best so the best are on top.
    struct Line {
        int row;
        QPainterPath path;
        std::optional<double> objective;
        bool passes;
    };
    QList<Line> lines;
    if (m_model) {
        for (int row = 0; row < m_model->trialCount(); ++row) {
            QPainterPath path;
            bool open = false;
            for (int axis = 0; axis < m_axes.size(); ++axis) {
                const auto v = trialValue(row, axis);
                if (!v) {
                    open = false;
                    continue;
                }
                const QPointF point(axisX(axis), valueToY(axis, *v));
                if (open)
                    path.lineTo(point);
                else
                    path.moveTo(point);
                open = true;
            }
            const QString id = m_model->trial(row).trialId;
            const auto objective = trialValue(row, objectiveAxis());
            lines.append({ row, path, objective, !m_filtering || m_passing.contains(id) });
        }
    }
    std::stable_sort(lines.begin(), lines.end(), [this](const Line& a, const Line& b) {
        if (a.passes != b.passes)
            return !a.passes;
        if (a.objective.has_value() != b.objective.has_value())
            return !a.objective.has_value();
        return a.objective && m_model->isBetter(*b.objective, *a.objective);
    });
    auto colorOf = [objLo, objHi](const Line& line) {
        if (!line.objective)
            return NoObjective;
        return viridis(objHi > objLo ? (*line.objective - objLo) / (objHi - objLo) : 0.5);
    };
    p.setBrush(Qt::NoBrush);
    for (const Line& line : std::as_const(lines)) {
        QPen pen(line.passes ? colorOf(line) : FilteredOut, line.passes ? 1.6 : 1.0);
        if (line.passes && !line.objective)
            pen.setStyle(Qt::DashLine);
        if (line.passes) {
            QColor c = pen.color();
            c.setAlphaF(0.85f);
            pen.setColor(c);
        }
        p.setPen(pen);
        p.drawPath(line.path);
    }
    // The table's selection and the hovered line, emphasised: a dark outline under the colour.
    for (const Line& line : std::as_const(lines)) {
        const QString id = m_model->trial(line.row).trialId;
        if (id != m_hovered && !m_highlighted.contains(id))
            continue;
        p.setPen(QPen(QColor(0, 0, 0, 170), 5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPath(line.path);
        p.setPen(QPen(colorOf(line), 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPath(line.path);
    }

    // Axes, brushes, ticks and titles.
    const double spacing = m_axes.size() > 1 ? axisX(1) - axisX(0) : width();
    const QColor labelBack = [this] {
        QColor c = palette().color(QPalette::Base);
        c.setAlpha(200);
        return c;
    }();
    auto drawLabel = [&](const QRectF& r, int flags, const QString& s) {
        const QRectF bounds = p.boundingRect(r, flags, s);
        p.fillRect(bounds.adjusted(-1, 0, 1, 0), labelBack);
        p.drawText(r, flags, s);
    };
    p.setFont(small);
    for (int axis = 0; axis < m_axes.size(); ++axis) {
        const Axis& a = m_axes.at(axis);
        const double x = axisX(axis);
        if (a.objective) {
            QLinearGradient gradient(0, bottom, 0, top);
            for (int i = 0; i <= 8; ++i)
                gradient.setColorAt(i / 8.0, viridis(i / 8.0));
            p.setPen(QPen(text, 0.8));
            p.setBrush(gradient);
            p.drawRect(QRectF(x - BarWidth / 2, top, BarWidth, bottom - top));
            p.setBrush(Qt::NoBrush);
        } else {
            p.setPen(QPen(text, 1.4));
            p.drawLine(QPointF(x, top), QPointF(x, bottom));
        }
        if (const auto b = brush(axis)) {
            const double y0 = valueToY(axis, b->second);
            const double y1 = valueToY(axis, b->first);
            p.setPen(QPen(BrushBorder, 1.2));
            p.setBrush(BrushFill);
            p.drawRect(QRectF(x - AxisGrab * 0.8, y0, AxisGrab * 1.6, std::max(2.0, y1 - y0)));
            p.setBrush(Qt::NoBrush);
        }

        // Tick labels: left of parameter axes, right of the objective's (the plot's right edge).
        const double labelWidth
            = a.objective ? rightMargin() - BarWidth / 2 - 6 : std::min(leftMargin() - 6, spacing * 0.45);
        QList<std::pair<double, QString>> labels;
        if (a.scale == Scale::Categorical) {
            for (int i = 0; i < a.categories.size(); ++i)
                labels.append({ valueToY(axis, i), a.categories.at(i) });
        } else {
            labels.append({ valueToY(axis, a.max), formatValue(a.max) });
            labels.append({ valueToY(axis, a.min), formatValue(a.min) });
            for (double v : a.ticks)
                labels.append({ valueToY(axis, v), formatValue(v) });
        }
        // The ends first, then ticks wherever they do not overlap a label already placed.
        QList<double> placed;
        const double gap = smallMetrics.height() * 0.9;
        for (const auto& [y, label] : std::as_const(labels)) {
            if (std::any_of(placed.cbegin(), placed.cend(), [&](double q) { return std::fabs(q - y) < gap; }))
                continue;
            placed << y;
            p.setPen(QPen(text, 1));
            if (a.objective)
                p.drawLine(QPointF(x + BarWidth / 2, y), QPointF(x + BarWidth / 2 + 3, y));
            else
                p.drawLine(QPointF(x - 3, y), QPointF(x, y));
            const QString elided = smallMetrics.elidedText(label, Qt::ElideRight, int(labelWidth));
            const QRectF r = a.objective ? QRectF(x + BarWidth / 2 + 5, y - gap / 2 - 1, labelWidth, gap + 2)
                                         : QRectF(x - 5 - labelWidth, y - gap / 2 - 1, labelWidth, gap + 2);
            drawLabel(r, int((a.objective ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter), elided);
        }

        // Title (and scale) above the axis, as wide as the space between axes allows.
        const double titleWidth = std::max(40.0, std::min(spacing - 6, 200.0));
        QFont bold = font();
        bold.setBold(true);
        const QFontMetrics boldMetrics(bold);
        const QString title = boldMetrics.elidedText(a.name, Qt::ElideMiddle, int(titleWidth));
        const double w = std::min(titleWidth, double(boldMetrics.horizontalAdvance(title)) + 2);
        const double left = std::clamp(x - w / 2, 2.0, width() - w - 2);
        p.setFont(bold);
        p.setPen(text);
        p.drawText(QRectF(left, 4, w, boldMetrics.height()), Qt::AlignCenter, title);
        p.setFont(small);
        if (!a.subtitle.isEmpty()) {
            const double sw = smallMetrics.horizontalAdvance(a.subtitle) + 2;
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(QRectF(std::clamp(x - sw / 2, 2.0, width() - sw - 2), 4 + boldMetrics.height(), sw,
                           smallMetrics.height()),
                Qt::AlignCenter, a.subtitle);
        }
    }

    // Legend: what the line styles mean, and how many trials pass.
    double lx = leftMargin();
    const double ly = height() - smallMetrics.height() / 2.0 - 6;
    auto legendItem = [&](const QPen& pen, const QString& label) {
        p.setPen(pen);
        p.drawLine(QPointF(lx, ly), QPointF(lx + 22, ly));
        lx += 27;
        p.setPen(text);
        const double w = smallMetrics.horizontalAdvance(label) + 2;
        p.drawText(QRectF(lx, ly - smallMetrics.height() / 2.0, w, smallMetrics.height()), Qt::AlignVCenter, label);
        lx += w + 16;
    };
    QPen colourPen(QPen(viridis(0.65), 2));
    legendItem(colourPen, tr("colour: %1 (viridis)").arg(axisName(objectiveAxis())));
    if (m_filtering)
        legendItem(QPen(FilteredOut.darker(110), 2), tr("filtered out"));
    QPen dashed(NoObjective, 1.6, Qt::DashLine);
    legendItem(dashed, tr("no objective yet"));
    if (m_model) {
        const QString count = m_filtering
            ? tr("%1 of %n trials pass the filters", nullptr, m_model->trialCount()).arg(m_passing.size())
            : tr("%n trials", nullptr, m_model->trialCount());
        p.setPen(palette().color(QPalette::PlaceholderText));
        const double w = smallMetrics.horizontalAdvance(count) + 2;
        p.drawText(
            QRectF(width() - rightMargin() - w + BarWidth, ly - smallMetrics.height() / 2.0, w, smallMetrics.height()),
            Qt::AlignVCenter | Qt::AlignRight, count);
    }
}

void ParallelCoordinates::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->position();
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_dragAxis = axisAt(event->position());
    m_dragFrom = std::clamp(event->position().y(), plotTop(), plotBottom());
    m_dragMoved = false;
    event->accept();
}

void ParallelCoordinates::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragAxis >= 0 && (event->buttons() & Qt::LeftButton)) {
        const double y = std::clamp(event->position().y(), plotTop(), plotBottom());
        if (!m_dragMoved && std::fabs(y - m_dragFrom) < DragThreshold)
            return;
        m_dragMoved = true;
        // Live: the table follows the brush while it is dragged.
        setBrush(m_dragAxis, yToValue(m_dragAxis, m_dragFrom), yToValue(m_dragAxis, y));
        return;
    }
    const int axis = axisAt(event->position());
    setCursor(axis >= 0 ? Qt::SizeVerCursor : Qt::ArrowCursor);
    const QString hovered = axis >= 0 ? QString() : trialAt(event->position());
    if (hovered != m_hovered) {
        m_hovered = hovered;
        update();
    }
    if (!hovered.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), tooltipText(hovered), this);
    else if (axis >= 0)
        QToolTip::showText(event->globalPosition().toPoint(),
            brush(axis) ? tr("Drag to brush another interval of %1; click to clear its filter").arg(axisName(axis))
                        : tr("Drag along %1 to keep only the trials in an interval").arg(axisName(axis)),
            this);
    else
        QToolTip::hideText();
}

void ParallelCoordinates::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const int axis = m_dragAxis;
    m_dragAxis = -1;
    if (axis >= 0) {
        if (!m_dragMoved)
            clearBrush(axis); // a click on an axis
        return;
    }
    if ((event->position() - m_pressPos).manhattanLength() < DragThreshold) {
        const QString trial = trialAt(event->position());
        if (!trial.isEmpty())
            emit trialClicked(trial);
    }
}

void ParallelCoordinates::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && !m_brushes.isEmpty()) {
        clearBrushes();
        return;
    }
    QWidget::keyPressEvent(event);
}

void ParallelCoordinates::leaveEvent(QEvent* event)
{
    if (!m_hovered.isEmpty()) {
        m_hovered.clear();
        update();
    }
    QToolTip::hideText();
    QWidget::leaveEvent(event);
}

} // namespace Trainyard
