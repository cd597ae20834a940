// SPDX-License-Identifier: GPL-2.0-or-later
#include "versionchartspanel.h"
#include "rfc3339.h"

#include <QDateTime>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#if TRAINYARD_HAVE_QTCHARTS
#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QValueAxis>
#endif

#include <algorithm>
#include <functional>

namespace Trainyard {

#if TRAINYARD_HAVE_QTCHARTS
struct VersionChartsPanel::Charts {
    struct One {
        QChartView* view = nullptr;
        QList<QLineSeries*> series;
        QDateTimeAxis* x = nullptr;
        QValueAxis* y = nullptr;
    };
    One requests, latency, errors;

    static One make(QWidget* parent, const QString& title, const QStringList& names, const QString& unit)
    {
        One one;
        auto* chart = new QChart;
        chart->setTitle(title);
        chart->setMargins(QMargins(4, 4, 4, 4));
        chart->setBackgroundRoundness(0);
        chart->legend()->setVisible(names.size() > 1);
        chart->legend()->setAlignment(Qt::AlignBottom);
        one.x = new QDateTimeAxis;
        one.x->setFormat(QStringLiteral("HH:mm"));
        one.y = new QValueAxis;
        one.y->setTitleText(unit);
        one.y->setLabelFormat(QStringLiteral("%.3g"));
        chart->addAxis(one.x, Qt::AlignBottom);
        chart->addAxis(one.y, Qt::AlignLeft);
        for (const QString& name : names) {
            auto* s = new QLineSeries;
            s->setName(name);
            s->setPointsVisible(true); // one interval with requests is a point, not a line
            chart->addSeries(s);
            s->attachAxis(one.x);
            s->attachAxis(one.y);
            one.series << s;
        }
        one.view = new QChartView(chart, parent);
        one.view->setRenderHint(QPainter::Antialiasing);
        one.view->setMinimumSize(240, 180);
        return one;
    }

    /// One series per reader of a point's figure; a reader answers nothing for an interval without that figure.
    using Reader = std::function<std::optional<double>(const VersionMetrics::Point&)>;

    static void fill(One& one, const QList<VersionMetrics::Point>& points, const QList<Reader>& readers)
    {
        double top = 0;
        qint64 first = 0, last = 0;
        for (qsizetype k = 0; k < readers.size(); ++k) {
            QList<QPointF> xy;
            for (const VersionMetrics::Point& p : points) {
                const std::optional<double> value = readers.at(k)(p);
                if (!value)
                    continue; // a quiet interval has no latency
                const qint64 t = Rfc3339::parseUs(p.time).value_or(0) / 1000;
                const double y = *value;
                xy << QPointF(double(t), y);
                top = std::max(top, y);
                first = first == 0 ? t : std::min(first, t);
                last = std::max(last, t);
            }
            one.series.at(k)->replace(xy);
        }
        if (first == 0)
            first = last = QDateTime::currentMSecsSinceEpoch();
        // No point on the frame (issue 46: a single interval's latency sat on the left edge): a minute around one
        // point, 5 % of the span beside several.
        const qint64 pad = last - first < 60000 ? (60000 - (last - first)) / 2 : (last - first) / 20;
        first -= pad;
        last += pad;
        // Seconds while the span is short: five ticks of one minute would read 06:51 06:51 06:52.
        one.x->setFormat(last - first < 10 * 60000 ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm"));
        one.x->setTickCount(4);
        one.x->setRange(QDateTime::fromMSecsSinceEpoch(first), QDateTime::fromMSecsSinceEpoch(last));
        // From 0, five ticks: "%.3g" tells them apart (setNiceValueRange()'s interval steps left the axis's label
        // width at one character here, and every label read "…").
        one.y->setRange(0, top > 0 ? top * 1.15 : 1.0);
    }
};
#else
struct VersionChartsPanel::Charts { };
#endif

VersionChartsPanel::VersionChartsPanel(QWidget* parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
{
    m_summary->setObjectName(QStringLiteral("versionChartsSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
#if TRAINYARD_HAVE_QTCHARTS
    m_charts = new Charts;
    m_charts->requests = Charts::make(this, tr("Requests"), { tr("requests/s") }, tr("per second"));
    m_charts->latency = Charts::make(this, tr("Latency"), { tr("p50"), tr("p90"), tr("p99") }, tr("ms"));
    m_charts->errors = Charts::make(this, tr("Errors"), { tr("errors/s") }, tr("per second"));
    auto* row = new QGridLayout;
    row->addWidget(m_charts->requests.view, 0, 0);
    row->addWidget(m_charts->latency.view, 0, 1);
    row->addWidget(m_charts->errors.view, 0, 2);
    layout->addLayout(row, 1);
#else
    layout->addStretch(1);
#endif
    setMetrics(std::nullopt);
}

VersionChartsPanel::~VersionChartsPanel()
{
    delete m_charts; // the views are children; the struct that points at them is not
}

void VersionChartsPanel::setMetrics(const std::optional<VersionMetrics>& metrics)
{
    const QList<VersionMetrics::Point> points = metrics ? metrics->points : QList<VersionMetrics::Point>();
    if (!metrics)
        m_summary->setText(tr("Select a version to chart its requests, latency and errors."));
    else if (points.isEmpty())
        m_summary->setText(tr("No request in the last hour."));
    else {
        const VersionMetrics::Point& last = points.last();
        const QLocale locale;
        const auto number = [&locale](double v) { return locale.toString(v, 'g', 3); };
        //: The latest 10-second interval's figures.
        m_summary->setText(last.latencyP50Ms
                ? tr("Last 10 s: %1 requests/s, p50 %2 ms, p99 %3 ms, %4 errors/s")
                      .arg(number(last.requestsPerSecond), number(*last.latencyP50Ms),
                          number(last.latencyP99Ms.value_or(0)), number(last.errorsPerSecond))
                : tr("Last 10 s: no request"));
    }
#if TRAINYARD_HAVE_QTCHARTS
    Charts::fill(m_charts->requests, points, { [](const VersionMetrics::Point& p) { return std::optional(p.requestsPerSecond); } });
    Charts::fill(m_charts->latency, points,
        { [](const VersionMetrics::Point& p) { return p.latencyP50Ms; },
            [](const VersionMetrics::Point& p) { return p.latencyP90Ms; },
            [](const VersionMetrics::Point& p) { return p.latencyP99Ms; } });
    Charts::fill(m_charts->errors, points, { [](const VersionMetrics::Point& p) { return std::optional(p.errorsPerSecond); } });
#endif
}

QStringList VersionChartsPanel::pointsOnFrame() const
{
    QStringList out;
#if TRAINYARD_HAVE_QTCHARTS
    for (const auto* one : { &m_charts->requests, &m_charts->latency, &m_charts->errors }) {
        const double x0 = double(one->x->min().toMSecsSinceEpoch()), x1 = double(one->x->max().toMSecsSinceEpoch());
        for (const QLineSeries* s : one->series) {
            for (const QPointF& p : s->points()) {
                if (p.x() <= x0 || p.x() >= x1 || p.y() > one->y->max() || p.y() < one->y->min()
                    || (p.y() == one->y->max() && p.y() != 0))
                    out << QStringLiteral("%1: %2 at %3").arg(one->view->chart()->title(), s->name()).arg(p.y());
            }
        }
    }
#endif
    return out;
}

QList<int> VersionChartsPanel::seriesSizes() const
{
    QList<int> sizes;
#if TRAINYARD_HAVE_QTCHARTS
    for (const auto* one : { &m_charts->requests, &m_charts->latency, &m_charts->errors })
        for (const QLineSeries* s : one->series)
            sizes << int(s->count());
#endif
    return sizes;
}

} // namespace Trainyard
