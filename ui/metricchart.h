// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// One chart of the job view's Metrics tab (MetricsPanel): every series of one chart key of a MetricsModel, with
// TensorBoard's hover tooltip, rubber-band and wheel zoom, pan, reset and export.
//
// The lines are drawn by the chart itself (one QGraphicsItem over the plot area, MetricLinesItem in
// metricchart.cpp), not by Qt Charts: the chart's QLineSeries carry each line's name, pen and visibility
// for the legend, and no points. Why (issue 17): on every QLineSeries::replace() Qt Charts rebuilds the
// line's path and strokes a hover shape of it with miter joins (QPainterPathStroker), about 1 µs a point,
// which was two thirds of a 10-million-point chart's redraw; the chart's hover, zoom and tooltips work from
// the axes and the model and never used that shape.

#include "metricsmodel.h"

#include <QChartView>
#include <QPointer>
#include <QSet>

#include <optional>

class QAbstractAxis;
class QLabel;
class QLineSeries;

namespace Trainyard {

class MetricLinesItem;

/// The display settings every chart of a panel shares.
struct MetricsChartSettings {
    MetricsXAxis xAxis = MetricsXAxis::Step;
    bool logScale = false;
    bool ignoreOutliers = false;
};

/// One chart of the Metrics tab: every series of one chart key of a MetricsModel.
class MetricChart : public QChartView {
    Q_OBJECT
public:
    MetricChart(MetricsModel* model, const QString& key, QWidget* parent = nullptr);
    ~MetricChart() override;

    QString key() const { return m_key; }
    /// True for a metric whose values are fractions by definition (its tag names accuracy, AUC, precision, recall
    /// or F1): its value axis stays within [0, 1] while its values do.
    bool isBoundedFraction() const;
    /// The chart's title as shown (the tag, or a resource's readable name).
    QString title() const;
    /// Values are divided by this before drawing (bytes are drawn in MiB); tooltips and exports use
    /// the stored values.
    double valueScale() const { return m_scale; }

    /// Adds the lines of a series the model gained (its index into the model).
    void addSeries(int index, const QColor& color);
    QList<int> seriesIndices() const;
    /// The faint raw line and the smoothed line of a series (model index), as the legend shows them: name,
    /// pen and visibility (their points are empty: see rawPoints()); nullptr if not in this chart.
    QLineSeries* rawLine(int index) const;
    /// The legend's entries as shown (visible markers' labels), in order.
    QStringList legendLabels() const;
    QLineSeries* smoothedLine(int index) const;
    /// The points the raw and the smoothed line of a series are drawn through, in axis units (x in steps,
    /// seconds or, on the wall-time axis, ms since the epoch; y divided by valueScale()); empty if not in this
    /// chart or not drawn yet.
    QList<QPointF> rawPoints(int index) const;
    QList<QPointF> smoothedPoints(int index) const;
    /// CPU/RSS/GPU samples: drawn on a time axis, unsmoothed, whatever the panel's x axis and smoothing.
    bool isResourceChart() const;
    QAbstractAxis* xAxis() const { return m_xAxis; }
    QAbstractAxis* yAxis() const { return m_yAxis; }

    void setSettings(const MetricsChartSettings& settings);
    /// Draws only the series of these trials (SeriesInfo::trialId), and those of no trial (an empty
    /// trialId: the job's own event files); an empty set draws every series.
    void setTrialFilter(const QSet<QString>& trialIds);
    /// Hides the series of these runs (MetricsModel::runKey(): the Metrics tab's run list, unchecked or filtered
    /// out); empty: none hidden.
    void setHiddenRuns(const QSet<QString>& runKeys);
    /// Whether the trial filter and the run list let series `index` (model index) through.
    bool isSeriesShown(int index) const;
    /// Reduces every series over the visible x range to the plot's width and replaces the lines' points.
    void refresh();

    /// The visible x range in model units (seconds for the time axes): the zoomed one, or all data.
    std::optional<std::pair<double, double>> visibleXRange() const;
    bool isZoomed() const { return m_zoomX.has_value(); }
    /// Shows [x0, x1] (model units) with the y range fitted to it.
    void zoomTo(double x0, double x1);
    void resetZoom();

    /// The hover card (HTML) for model x `x`: per shown series the nearest point's step, value, smoothed
    /// value and time, with the series' colour, sorted by smoothed value (highest first, as TensorBoard's
    /// "descending"); at most MaxHoverRows rows and a line saying how many more.
    QString tooltipText(double x) const;
    static constexpr int MaxHoverRows = 24;
    /// The card shown while the mouse is over the plot: it stays until the mouse leaves the plot (a tooltip
    /// went away half a second after the mouse stopped, issue 27).
    QLabel* hoverCard() const { return m_hoverCard; }

    /// Writes the chart as PNG (or any raster format Qt knows from the suffix) or SVG (`.svg`, when Qt SVG
    /// is available). False with `error` set when it cannot.
    bool exportImage(const QString& path, QString* error = nullptr);
    static bool svgAvailable();

Q_SIGNALS:
    /// The user asked to export a series' data (context menu); the panel asks for a file name.
    void exportDataRequested(int seriesIndex, const QString& format);
    void exportImageRequested(const QString& format);
    /// The chart was shown (its panel redraws it then if its data changed while it was hidden).
    void shown();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    QLabel* m_hoverCard = nullptr;
    void showHoverCard(const QPointF& position, const QPoint& global);
    friend class MetricLinesItem;
    struct Line {
        int index;
        QLineSeries* raw;
        QLineSeries* smoothed;
        QList<QPointF> rawPoints; ///< what refresh() reduced, drawn by m_linesItem
        QList<QPointF> smoothedPoints;
    };
    void rebuildAxes();
    void applyTrialFilter(const Line& line);
    void applyLabels();
    void takeZoomFromAxes();
    double toModelX(double chartX) const;
    double toChartX(double modelX) const;
    std::optional<std::pair<double, double>> dataXRange() const;

    MetricsModel* m_model;
    QString m_key;
    double m_scale = 1;
    MetricsChartSettings m_settings;
    QSet<QString> m_trials;
    QSet<QString> m_hiddenRuns;
    QList<Line> m_lines;
    QAbstractAxis* m_xAxis = nullptr;
    QAbstractAxis* m_yAxis = nullptr;
    QAbstractAxis* m_stepX = nullptr; ///< QValueAxis: steps or relative seconds
    QAbstractAxis* m_timeX = nullptr; ///< QDateTimeAxis: wall time in ms
    MetricLinesItem* m_linesItem = nullptr;
    QAbstractAxis* m_linearY = nullptr;
    QAbstractAxis* m_logY = nullptr;
    std::optional<std::pair<double, double>> m_zoomX;
    std::optional<std::pair<double, double>> m_zoomY;
    bool m_updatingAxes = false;
    QPoint m_panFrom;
    bool m_panning = false;
};

} // namespace Trainyard
