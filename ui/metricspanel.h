// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The job view's Metrics tab (issue 4): the job's metrics stream (`…/jobs/{id}/metrics?follow=true`) into
// a MetricsModel, drawn with Qt Charts as TensorBoard draws scalars: one chart per tag, in collapsible
// groups by the tag's prefix (`train`, `eval`, …, then `hypertune` and `resources`), one line per run or
// replica with the raw line faint behind the smoothed one. A toolbar holds the regex tag filter, the
// smoothing weight (0–0.999, default 0.6), the x axis (step, relative time, wall time), log-scale y and
// "ignore outliers". Each chart has a hover tooltip, rubber-band and wheel zoom, pan (middle button or
// arrow keys), reset (double-click), and export of the chart (PNG, SVG) and of a series (CSV, JSON) from
// its context menu.
//
// Charts never get a series' full data: MetricsModel::reduce hands them about four points per pixel
// column of the visible x range, recomputed when the range or the width changes, so zooming in shows the
// real points. Stream updates only mark charts dirty; a 40 ms single-shot timer redraws them in a batch.
//
// The lines are drawn by the chart itself (one QGraphicsItem over the plot area, MetricLinesItem in
// metricspanel.cpp), not by Qt Charts: the chart's QLineSeries carry each line's name, pen and visibility
// for the legend, and no points. Why (issue 17): on every QLineSeries::replace() Qt Charts rebuilds the
// line's path and strokes a hover shape of it with miter joins (QPainterPathStroker), about 1 µs a point,
// which was two thirds of a 10-million-point chart's redraw; the chart's hover, zoom and tooltips work from
// the axes and the model and never used that shape.

#include "apiclient.h"
#include "metricsmodel.h"

#include <QChartView>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>

#include <optional>

class QAbstractAxis;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QLineSeries;
class QScrollArea;
class QSlider;
class QToolButton;
class QVBoxLayout;

namespace Trainyard {

class ExecutorConnection;
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
    /// Whether the trial filter lets series `index` (model index) through.
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

protected:
    void resizeEvent(QResizeEvent* event) override;
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
    void takeZoomFromAxes();
    double toModelX(double chartX) const;
    double toChartX(double modelX) const;
    std::optional<std::pair<double, double>> dataXRange() const;

    MetricsModel* m_model;
    QString m_key;
    double m_scale = 1;
    MetricsChartSettings m_settings;
    QSet<QString> m_trials;
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

class MetricsPanel : public QWidget {
    Q_OBJECT
public:
    /// Redraws are coalesced to one per this many milliseconds.
    static constexpr int RedrawMs = 40;
    /// The job whose metrics are shown (its ID names event-file runs in the legends).
    QString jobId() const { return m_job.jobId; }
    /// Overlays the series of other jobs (TensorBoard's run comparison): each chart gets their curves too,
    /// named by job ID. Empty: this job alone. Reopens the streams when the list changed.
    void setComparedJobs(const QStringList& jobIds);
    QStringList comparedJobs() const { return m_compared; }
    /// "Comparing with …" above the charts; hidden when nothing is compared.
    QLabel* compareLabel() const { return m_compareLabel; }
    /// The trials whose series are drawn (the Trials tab's selection), empty: every series.
    QStringList trialFilter() const { return m_trialFilter; }

    MetricsPanel(ExecutorConnection* connection, const Job& job, QWidget* parent = nullptr);
    ~MetricsPanel() override;

    MetricsModel* model() const { return m_model; }
    /// The chart of a chart key (`scalar:train/loss`, `resource:cpu_percent`), or nullptr.
    MetricChart* chart(const QString& key) const;
    QList<MetricChart*> charts() const;
    /// Keys of the charts the tag filter lets through, in display order.
    QStringList visibleChartKeys() const;
    /// True after the executor's `end` event: the job is final and every metric arrived.
    bool hasEnded() const { return m_ended; }

    QLineEdit* filterEdit() const { return m_filter; }
    QSlider* smoothingSlider() const { return m_smoothingSlider; }
    QDoubleSpinBox* smoothingSpin() const { return m_smoothingSpin; }
    QComboBox* xAxisCombo() const { return m_xAxisCombo; }
    QCheckBox* logScaleCheck() const { return m_logScale; }
    QCheckBox* outliersCheck() const { return m_outliers; }
    MetricsChartSettings settings() const { return m_settings; }

    /// Writes a chart as an image (format from the suffix: `.png`, `.svg`, …).
    bool exportChart(const QString& key, const QString& path, QString* error = nullptr);
    /// Writes a series' points as TensorBoard's CSV (`.csv`) or JSON (`.json`) download.
    bool exportSeries(const QString& seriesName, const QString& path, QString* error = nullptr);

public Q_SLOTS:
    /// Redraws the charts marked dirty now (the timer does this at most every RedrawMs).
    void redrawNow();
    /// Draws only the series of these trials of a tuning job (and the series of no trial); empty: every
    /// series. See MetricChart::setTrialFilter().
    void setTrialFilter(const QStringList& trialIds);

Q_SIGNALS:
    /// A message for the status bar (a failed export).
    void message(const QString& text);
    /// The dirty charts were redrawn.
    void redrawn();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Group {
        QString name;
        QToolButton* header;
        QWidget* body;
        QGridLayout* grid;
        QList<MetricChart*> charts;
    };
    void openStream();
    void onSeriesAdded(int index);
    void markDirty(int seriesIndex);
    void markAllDirty();
    void applySettings();
    void applyFilter();
    void relayout();
    void clearCharts();
    Group& groupFor(const QString& name);
    QString groupTitle(const QString& name) const;
    QColor colorFor(const QString& label);
    void askExportData(MetricChart* chart, int seriesIndex, const QString& format);
    void askExportImage(MetricChart* chart, const QString& format);
    bool eventFilter(QObject* watched, QEvent* event) override;

    QPointer<ExecutorConnection> m_connection;
    Job m_job;
    MetricsModel* m_model;
    QPointer<ApiStream> m_stream;
    QStringList m_compared;
    QStringList m_trialFilter;
    QList<QPointer<ApiStream>> m_compareStreams;
    QLabel* m_compareLabel = nullptr;
    void openCompareStreams();
    QTimer m_redraw;
    QTimer m_reopen;
    QSet<MetricChart*> m_dirty;
    bool m_ended = false;
    MetricsChartSettings m_settings;
    QHash<QString, MetricChart*> m_charts;
    QList<Group> m_groups;
    QHash<QString, QColor> m_colors;
    int m_columns = 0;

    QLineEdit* m_filter;
    QSlider* m_smoothingSlider;
    QDoubleSpinBox* m_smoothingSpin;
    QComboBox* m_xAxisCombo;
    QCheckBox* m_logScale;
    QCheckBox* m_outliers;
    QLabel* m_summary;
    QLabel* m_empty;
    QScrollArea* m_scroll;
    QWidget* m_content;
    QVBoxLayout* m_contentLayout;
};

} // namespace Trainyard
