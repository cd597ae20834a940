// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The job view's Trials tab for a hyperparameter tuning job (issue 13): the job's trials
// (`trainingOutput.trials`, the service's HyperparameterOutput) in a sortable table with the best trial pinned
// at the top, a state filter, a parallel-coordinates plot whose brushes and top-k % filter filter the table,
// the objective against a chosen parameter (a scatter, with a log axis for log-scaled parameters) and the
// best objective so far over the trial number.
//
// Live: JobView passes every Job the events stream brings; they are applied at most every ApplyMs (the
// stream can bring one per reported metric), through TrialsModel's incremental update, so the table keeps its
// selection and sort.
//
// Actions on the selected trial: "Submit with these values" (submitWithValues(): the job with its
// hyperparameters spec removed and the trial's values appended to the trainer's args as `--name=value`, as
// the service passes them to a trial) and "Resume tuning" (resumeTuning(): the job with
// hyperparameters.resumePreviousJobId set to this job, so the service continues the same study). Both carry a
// new suggested job ID and no output fields.

#include "apitypes.h"
#include "job.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QDateTime;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTableView;
class QToolButton;

class QSplitter;

namespace Trainyard {

class ImportanceChart;
class IntermediateValuesChart;
class ParallelCoordinates;
class TrialsModel;
class TrialsProxyModel;

class TrialsPanel : public QWidget {
    Q_OBJECT
public:
    /// Jobs from the stream are applied at most once per this many milliseconds.
    static constexpr int ApplyMs = 250;

    explicit TrialsPanel(const Job& job, QWidget* parent = nullptr);
    ~TrialsPanel() override;

    /// The job as last applied (see setJob()).
    const Job& job() const { return m_job; }
    TrialsModel* model() const { return m_model; }
    TrialsProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    ParallelCoordinates* plot() const { return m_plot; }
    /// The splitter between the parallel-coordinates plot and the table with the charts; its sizes are kept in
    /// the settings ("trialsPanel/split") and shared by every job's Trials tab.
    QSplitter* splitter() const { return m_split; }
    QSpinBox* topPercentSpin() const { return m_topPercent; }
    /// The state filter's buttons (checkable, all checked: every state shown), with object names
    /// `stateFilterRunning`, `stateFilterSucceeded`, `stateFilterFailed`, `stateFilterCancelled`.
    QList<QToolButton*> stateButtons() const { return m_stateButtons; }
    /// The scatter's parameter (item data: the parameter's index); nullptr without Qt Charts.
    QComboBox* scatterParameterBox() const { return m_scatterParameter; }
    QLabel* summaryLabel() const { return m_summary; }
    QAction* submitWithValuesAction() const { return m_submitAction; }
    QAction* resumeTuningAction() const { return m_resumeAction; }
    /// The chart views (QChartView); nullptr in a build without Qt Charts.
    QWidget* scatterView() const { return m_scatterView; }
    QWidget* historyView() const { return m_historyView; }
    /// The charts' tabs below the table's side: "Objective" (the scatter and the best so far), "Intermediate values"
    /// and "Importance" (issue 46 item 21); nullptr without Qt Charts.
    QTabWidget* chartTabs() const { return m_chartTabs; }
    IntermediateValuesChart* intermediateChart() const { return m_intermediate; }
    ImportanceChart* importanceChart() const { return m_importance; }

    /// The selected trials' IDs, in the table's order.
    QStringList selectedTrials() const;
    /// Selects one trial's row (and scrolls to it); false when the table does not show it.
    bool selectTrial(const QString& trialId);

    /// The job "Submit with these values" proposes for a trial: this job's input without the tuning spec,
    /// the trial's values appended to the args as `--name=value` (the spec's params order, then any other
    /// value the trial has), `jobId` from suggestJobId(). Empty (no jobId) when the trial is unknown.
    Job jobWithValues(const QString& trialId, const QDateTime& now) const;
    /// The job "Resume tuning" proposes: this job's input with hyperparameters.resumePreviousJobId = this
    /// job's ID, `jobId` from suggestJobId().
    Job resumeJob(const QDateTime& now) const;
    /// `<jobId without a _YYYYMMDD_HHMMSS suffix>_<YYYYMMDD_HHMMSS>` (`now` local time), the submit wizard's form.
    static QString suggestJobId(const QString& jobId, const QDateTime& now);

    /// Copy (Ctrl+C, and the context menu): the selected trials, tab-separated with a header, values exact.
    QAction* copyAction() const { return m_copyAction; }
    void copySelection() const;

public Q_SLOTS:
    /// A new version of the job (the events stream): applied now when nothing was applied for ApplyMs, else
    /// with the next batch.
    void setJob(const Trainyard::Job& job);
    /// Applies a pending job now.
    void applyNow();

Q_SIGNALS:
    void submitWithValues(const Trainyard::Job& job);
    void resumeTuning(const Trainyard::Job& job);
    /// The table's selection changed: the selected trials' IDs (empty: none selected).
    void trialsSelected(const QStringList& trialIds);
    /// The succeeded trials (with an objective) changed and there are at least 2: the hyperparameter importance
    /// should be asked again (JobView asks the executor and calls setImportance() or setImportanceProblem()).
    void importanceWanted();

public:
    /// The executor's answer to importanceWanted().
    void setImportance(const Trainyard::HyperparameterImportance& importance);
    void setImportanceProblem(const QString& text);

private:
    void saveSplit();
    QSplitter* m_split = nullptr;
    void fitColumns();
    QAction* m_copyAction = nullptr;
    void apply(const Job& job);
    void applyStateFilter();
    void onSelectionChanged();
    void updateActions();
    void updateSummary();
    void updateCharts();
    void rebuildScatterAxes();
    void showContextMenu(const QPoint& pos);

    Job m_job;
    std::optional<Job> m_pending;
    QTimer m_apply;
    TrialsModel* m_model;
    TrialsProxyModel* m_proxy;
    QTableView* m_table;
    ParallelCoordinates* m_plot;
    QSpinBox* m_topPercent;
    QList<QToolButton*> m_stateButtons;
    QLabel* m_summary;
    QAction* m_submitAction;
    QAction* m_resumeAction;
    QComboBox* m_scatterParameter = nullptr;
    QWidget* m_scatterView = nullptr;
    QTabWidget* m_chartTabs = nullptr;
    IntermediateValuesChart* m_intermediate = nullptr;
    ImportanceChart* m_importance = nullptr;
    int m_importanceTrials = 0; ///< succeeded trials when importance was last wanted
    QWidget* m_historyView = nullptr;
    struct Charts;
    std::unique_ptr<Charts> m_charts;
};

} // namespace Trainyard
