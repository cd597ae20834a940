// SPDX-License-Identifier: GPL-2.0-or-later
#include "studycharts.h"

#include "chartaxes.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace Trainyard {

namespace {
/// At most this many trials are named in the legend (the best ones); every trial is drawn.
constexpr int MaxLegendTrials = 12;

QChartView* makeView(const QString& title, QWidget* parent)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    QFont bold = parent->font();
    bold.setBold(true);
    chart->setTitleFont(bold);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignRight);
    QFont small = parent->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    chart->legend()->setFont(small);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(260, 180);
    return view;
}

QLabel* makeNote(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: palette(mid);"));
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    return label;
}
} // namespace

// ---------------------------------------------------------------------------------------------------
// IntermediateValuesChart

IntermediateValuesChart::IntermediateValuesChart(QWidget* parent)
    : QWidget(parent)
    , m_view(makeView(tr("Intermediate values"), this))
    , m_empty(makeNote(this))
{
    m_view->setObjectName(QStringLiteral("intermediateView"));
    m_view->setAccessibleName(tr("Each trial's reported objective by step"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty);
    setTrials({}, {});
}

void IntermediateValuesChart::setTrials(
    const QList<HyperparameterOutput>& trials, const std::function<bool(double, double)>& isBetter)
{
    struct Drawn {
        QString trialId;
        QList<QPointF> points;
        bool stopped = false;
        std::optional<double> last;
    };
    QList<Drawn> lines;
    QString key;
    for (const HyperparameterOutput& t : trials) {
        Drawn d { t.trialId, {}, t.isTrialStoppedEarly.value_or(false), std::nullopt };
        for (const HyperparameterMetric& m : t.allMetrics) {
            if (m.trainingStep && m.objectiveValue && std::isfinite(*m.objectiveValue))
                d.points << QPointF(double(*m.trainingStep), *m.objectiveValue);
        }
        if (d.points.isEmpty())
            continue;
        std::sort(d.points.begin(), d.points.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        d.last = d.points.last().y();
        key += QStringLiteral("%1:%2:%3;").arg(t.trialId).arg(d.points.size()).arg(d.stopped);
        lines << d;
    }
    if (key == m_shownKey && !key.isEmpty())
        return;
    m_shownKey = key;
    QChart* chart = m_view->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis), axis->deleteLater();
    m_drawn.clear();
    m_empty->setText(lines.isEmpty() ? tr("No trial reported an intermediate value yet: a trial reports one each time "
                                          "it calls hypertune's report_hyperparameter_tuning_metric().")
                                     : QString());
    m_empty->setVisible(lines.isEmpty());
    if (lines.isEmpty())
        return;
    // The best final values first, so that the legend names the trials worth a look.
    if (isBetter)
        std::stable_sort(lines.begin(), lines.end(), [&](const Drawn& a, const Drawn& b) { return isBetter(*a.last, *b.last); });
    auto* x = new QValueAxis;
    x->setTitleText(tr("Step"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("Objective"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    static const QColor Palette[] = { QColor(0x1c, 0x71, 0xd8), QColor(0xe0, 0x1b, 0x24), QColor(0x2e, 0xc2, 0x7e),
        QColor(0xf6, 0xa1, 0x0c), QColor(0x91, 0x41, 0xac), QColor(0x98, 0x6a, 0x44), QColor(0x00, 0x99, 0x88),
        QColor(0x5e, 0x5c, 0x64) };
    auto* stops = new QScatterSeries;
    stops->setName(tr("Stopped early"));
    stops->setMarkerSize(11);
#if QT_VERSION >= QT_VERSION_CHECK(6, 2, 0)
    stops->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
#endif
    stops->setColor(QColor(0x3d, 0x38, 0x46));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const Drawn& d = lines.at(i);
        auto* series = new QLineSeries;
        series->setName(tr("trial %1").arg(d.trialId));
        QPen pen(Palette[i % std::size(Palette)], 1.6);
        if (d.stopped)
            pen.setStyle(Qt::DashLine);
        series->setPen(pen);
        series->replace(d.points);
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        if (i >= MaxLegendTrials) {
            for (QLegendMarker* marker : chart->legend()->markers(series))
                marker->setVisible(false);
        }
        if (d.stopped)
            stops->append(d.points.last());
        for (const QPointF& p : d.points) {
            x0 = std::min(x0, p.x());
            x1 = std::max(x1, p.x());
            y0 = std::min(y0, p.y());
            y1 = std::max(y1, p.y());
        }
        m_drawn << QStringLiteral("%1:%2%3").arg(d.trialId).arg(d.points.size()).arg(
            d.stopped ? QStringLiteral(" stopped early") : QString());
    }
    if (stops->count() > 0) {
        chart->addSeries(stops);
        stops->attachAxis(x);
        stops->attachAxis(y);
    } else {
        delete stops;
    }
    const auto [px0, px1] = paddedRange(x0, x1, 0.03);
    const auto [py0, py1] = paddedRange(y0, y1);
    setNiceValueRange(x, px0, px1, 5, true);
    setNiceValueRange(y, py0, py1);
}

// ---------------------------------------------------------------------------------------------------
// ImportanceChart

ImportanceChart::ImportanceChart(QWidget* parent)
    : QWidget(parent)
    , m_view(makeView(tr("Hyperparameter importance"), this))
    , m_note(makeNote(this))
{
    m_view->setObjectName(QStringLiteral("importanceView"));
    m_view->setAccessibleName(tr("Each hyperparameter's share of the objective's variance"));
    m_view->chart()->legend()->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_note);
    setProblem(tr("Importance is measured once 2 trials have succeeded."));
}

void ImportanceChart::setProblem(const QString& text)
{
    QChart* chart = m_view->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis), axis->deleteLater();
    m_bars.clear();
    m_note->setText(text);
}

void ImportanceChart::setImportance(const HyperparameterImportance& importance)
{
    setProblem(QString());
    QChart* chart = m_view->chart();
    auto* set = new QBarSet(tr("importance"));
    set->setColor(QColor(0x1c, 0x71, 0xd8));
    QStringList names;
    // Bottom to top in a horizontal bar chart: the largest last, so that it is drawn on top.
    for (qsizetype i = importance.importances.size() - 1; i >= 0; --i) {
        const auto& [name, value] = importance.importances.at(i);
        *set << value;
        names << name;
    }
    for (const auto& [name, value] : importance.importances)
        m_bars << QStringLiteral("%1 %2").arg(name, QString::number(value, 'f', 3));
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(2);
    set->setLabelColor(palette().color(QPalette::WindowText));
    chart->addSeries(series);
    auto* y = new QBarCategoryAxis;
    y->append(names);
    auto* x = new QValueAxis;
    x->setRange(0, 1);
    x->setTickCount(6);
    x->setLabelFormat(QStringLiteral("%.1f"));
    x->setTitleText(tr("Share of the objective's variance"));
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(y);
    series->attachAxis(x);
    m_note->setText(tr("%1. Over %n succeeded trial(s).", nullptr, importance.trials).arg(importance.method));
}

} // namespace Trainyard
