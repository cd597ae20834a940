// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// One job in detail: a header (ID, state, error message), and tabs Overview (state timeline, the job as
// YAML, actions), Topology (TopologyView over a ReplicaModel), Logs (LogPanel), Checkpoints
// (CheckpointsPanel) and Metrics (MetricsPanel, with Qt Charts), and for a hyperparameter tuning job
// Trials (TrialsPanel) after Overview. Live through the executor's events stream
// (`…/jobs/{id}:events?follow=true`); reopened when the executor comes back.

#include "apiclient.h"
#include "job.h"

#include <QDateTime>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QFrame;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QToolButton;
class QGridLayout;

namespace Trainyard {

class ApiStream;
class CheckpointsPanel;
class BatchPredictionPanel;
class ModelPanel;
class ExecutorConnection;
class LogPanel;
class MetricsPanel;
class ReplicaModel;
class TopologyView;
class TrialsPanel;
struct ReplicaInfo;

class JobView : public QWidget {
    Q_OBJECT
public:
    /// The tabs by what they show, not by position: Trials (tuning jobs only) sits after Overview, and a tab
    /// the view lacks (Trials of a plain job, Metrics without Qt Charts) is not shown by showTab().
    /// The detail tabs. Each keeps its key whichever tabs a job has (Ctrl+1 + the value: Ctrl+6 is always Trials), as
    /// KDE apps keep shortcuts stable; a tab a job lacks leaves its key unused.
    enum Tab { OverviewTab, TopologyTab, LogsTab, CheckpointsTab, MetricsTab, TrialsTab, ModelTab, PredictionsTab };

    JobView(ExecutorConnection* connection, const Job& job, QWidget* parent = nullptr);
    ~JobView() override;

    QString jobId() const { return m_job.jobId; }
    const Job& job() const { return m_job; }
    /// Shows a tab; false (and nothing changes) when the view has no such tab.
    bool showTab(Tab tab);
    Tab currentTab() const;
    bool hasTab(Tab tab) const;
    /// Shows the tab `step` places after (before, when negative) the current one, wrapping around, and
    /// returns it (Ctrl+PgDown / Ctrl+PgUp).
    Tab stepTab(int step);
    /// How many tabs the view has (Metrics is absent in a build without Qt Charts, Trials for a job without
    /// hyperparameters).
    int tabCount() const;
    /// Where `tab` sits among the tabs, from 0 (Trials is the second tab of a tuning job); -1 when absent.
    int tabPosition(Tab tab) const;

    ReplicaModel* replicaModel() const { return m_replicas; }
    TopologyView* topologyView() const { return m_topology; }
    LogPanel* logPanel() const { return m_logs; }
    CheckpointsPanel* checkpointsPanel() const { return m_checkpoints; }
    /// A built-in algorithm job's Model tab; nullptr for other jobs.
    ModelPanel* modelPanel() const { return m_model; }
    /// The Predictions tab of a batch prediction job (nullptr for a training job).
    BatchPredictionPanel* batchPanel() const { return m_batch; }
    /// The Metrics tab; nullptr in a build without Qt Charts.
    MetricsPanel* metricsPanel() const { return m_metrics; }
    /// The Trials tab; nullptr unless the job has trainingInput.hyperparameters.
    TrialsPanel* trialsPanel() const { return m_trials; }
    QPlainTextEdit* yamlView() const { return m_yaml; }
    /// Overview: "Resumed from <checkpoint>" per (re)start of the cluster, from the trainer's log line
    /// (see resumeLines()); hidden while there is none.
    QLabel* resumeLabel() const { return m_resumeLabel; }
    /// The master's "Resuming from checkpoint …" log lines seen so far, oldest first.
    const QList<LogEntry>& resumeLines() const { return m_resumeLines; }
    /// The checkpoint and the details of a resume log line of a trainer (`Resuming from checkpoint PATH
    /// (epoch N)`, or `Resumed from checkpoint PATH (epoch N, step S)`): {PATH, "epoch N"}; empty when
    /// `message` is not one.
    static std::pair<QString, QString> parseResumeLine(const QString& message);

    /// Shows the "Submit similar…" button (the submit wizard connects submitSimilarRequested()).
    void setSubmitSimilarVisible(bool visible);

    /// The failure banner: the error's first line with "Show more" and "Show in Logs" links; expanded, the
    /// whole message (less the CLI hint the console does not need). Hidden when the job has no error.
    QFrame* errorBanner() const { return m_errorBox; }
    QLabel* errorText() const { return m_error; }
    QPushButton* cancelButton() const { return m_cancel; }
    /// Expanded, the program's output under the banner's first line, in the fixed font.
    QLabel* errorOutput() const { return m_errorOutput; }
    /// With several jobs selected: a note in the header ("2 jobs selected: Metrics compares them, the other
    /// tabs show fit_a") and its tooltip; "" hides it.
    void setSelectionNote(const QString& note, const QString& details = {});
    QLabel* selectionNote() const { return m_selectionNote; }
    QToolButton* errorMoreButton() const { return m_errorMore; }
    QToolButton* errorLogsButton() const { return m_errorLogs; }
    /// While the job is queued or preparing: a busy bar and the executor's latest step ("Building wheel …").
    QLabel* preparingText() const { return m_progressText; }
    bool errorExpanded() const { return m_errorExpanded; }
    void setErrorExpanded(bool expanded);
    /// The replica an error message names ("worker-replica-1"), or "" when it names none.
    static QString failedTask(const QString& errorMessage);
    /// Opens the Logs tab on the failed replica's lines with its first error current (the banner's link).
    void showErrorInLogs();

public Q_SLOTS:
    void cancelJob();
    void openJobDir();

Q_SIGNALS:
    void jobChanged(const Trainyard::Job& job);
    void submitSimilarRequested(const Trainyard::Job& job);
    /// The Checkpoints tab copied `checkpoint` into `job.trainingInput.jobDir` for a new job `job`.
    void submitFromCheckpointRequested(const Trainyard::Job& job, const QString& checkpoint);
    /// The Trials tab's "Submit with these values" (TrialsPanel::submitWithValues()).
    void submitWithValuesRequested(const Trainyard::Job& job);
    /// The Trials tab's "Resume tuning" (TrialsPanel::resumeTuning()).
    void resumeTuningRequested(const Trainyard::Job& job);
    /// A message for the status bar (a failed cancel, a job dir that does not exist).
    void message(const QString& text);

private:
    void openEvents();
    void setJob(const Job& job);
    void setReplicas(const QList<ReplicaInfo>& replicas);
    void rebuildTimeline();
    void followResumes();
    void showResumes();

    QPointer<ExecutorConnection> m_connection;
    Job m_job;
    QPointer<ApiStream> m_events;
    QTimer m_reopen;
    QTimer m_tick; ///< once a second: the running step's "running for …"
    QPointer<QLabel> m_runningNote; ///< that note, while the job has not ended
    bool m_final = false;
    bool m_focusedFailure = false;
    /// Every replica the executor reported (a tuning job: every trial's); the topology shows one trial's.
    QList<ReplicaInfo> m_allReplicas;
    QString m_selectedTrial; ///< the first trial selected in the Trials tab; empty = none
    QLabel* m_topologyTrial = nullptr; ///< which trial the topology shows (tuning jobs)
    QList<QPair<JobState, QDateTime>> m_observed; ///< states seen live, with when they were seen

    QLabel* m_title;
    QLabel* m_stateIcon;
    QLabel* m_state;
    QLabel* m_error;
    QLabel* m_errorOutput = nullptr;
    QLabel* m_selectionNote = nullptr;
    QFrame* m_errorBox = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QToolButton* m_errorMore = nullptr;
    QToolButton* m_errorLogs = nullptr;
    bool m_errorExpanded = false;
    void updateErrorBanner();
    QTabWidget* m_tabs;
    QGridLayout* m_timeline;
    QWidget* m_timelineBox;
    QPlainTextEdit* m_yaml;
    QPushButton* m_cancel;
    QPushButton* m_openDir;
    QPushButton* m_similar;
    ReplicaModel* m_replicas;
    TopologyView* m_topology;
    LogPanel* m_logs;
    CheckpointsPanel* m_checkpoints = nullptr;
    ModelPanel* m_model = nullptr;
    BatchPredictionPanel* m_batch = nullptr;
    MetricsPanel* m_metrics = nullptr;
    TrialsPanel* m_trials = nullptr;
    QWidget* tabWidget(Tab tab) const;
    QWidget* m_overviewTab = nullptr;
    QWidget* m_topologyTab = nullptr;
    QLabel* m_resumeLabel = nullptr;
    QPointer<ApiStream> m_resumeStream;
    QList<LogEntry> m_resumeLines;
};

} // namespace Trainyard
