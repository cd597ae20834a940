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
// Each chart is a MetricChart (metricchart.h).

#include "apiclient.h"
#include "metricchart.h"
#include "metricrunsmodel.h"
#include "metricsmodel.h"

#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QListView;
class QScrollArea;
class QSortFilterProxyModel;
class QSplitter;
class QSlider;
class QToolButton;
class QVBoxLayout;

namespace Trainyard {

class ExecutorConnection;

/// The Metrics tab of one job (see the top of this file): the stream, the toolbar and the grouped grid of
/// MetricChart.
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
    /// The run list (TensorBoard's run selector): check boxes and a regular expression that hide runs in every
    /// chart. A run is drawn when it is checked and its name matches the expression (case-insensitive).
    MetricRunsModel* runsModel() const { return m_runs; }
    QLineEdit* runFilterEdit() const { return m_runFilter; }
    QListView* runList() const { return m_runList; }
    /// Checks or unchecks every run the run filter lists ("All runs").
    QCheckBox* allRunsCheck() const { return m_allRuns; }
    /// The runs (MetricsModel::runKey()) no chart draws now: unchecked, or not matching the run filter.
    QSet<QString> hiddenRuns() const { return m_hiddenRuns; }
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
    void applyRunFilter();
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
    MetricRunsModel* m_runs;
    QSortFilterProxyModel* m_runsProxy;
    QLineEdit* m_runFilter;
    QCheckBox* m_allRuns;
    QListView* m_runList;
    QSplitter* m_split;
    QSet<QString> m_hiddenRuns;
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
