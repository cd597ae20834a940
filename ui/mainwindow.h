// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The console's main window: the job list (sortable, filterable with the service's syntax and quick
// state filters, live), the selected job's JobView below it, and a status bar that says which executor
// the console talks to, whether it is connected, and how much of the host is in use.
//
// Live: the job list follows the executor's jobs stream (JobListFeed; rows update in place so the selection
// stays), the host's figures in the status bar (ExecutorStatusBar) are polled every 2 s while connected, and the
// job view follows its job's events stream.
// The submit wizard is not part of this window: it connects submitRequested() / submitSimilarRequested()
// and adds its own actions.

#include "executorstatusbar.h"
#include "job.h"
#include "joblistfeed.h"

#include <QMainWindow>
#include <QPointer>
#include <QSet>
#include <QTimer>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QPushButton;
class QScrollArea;
class QSplitter;
class QLineEdit;
class QMenu;
class QStackedWidget;
class QTableView;

namespace Trainyard {

class ClustersView;
class ModelsView;
class AuditView;
class ExecutorConnection;
class JobFilterProxyModel;
class JobListModel;
class JobView;
class SubmitWizard;
class TokenStore;
struct HostStatus;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(ExecutorConnection* connection, QWidget* parent = nullptr);
    ~MainWindow() override;

    JobListModel* jobModel() const { return m_model; }
    JobFilterProxyModel* proxyModel() const { return m_proxy; }
    QTableView* jobTable() const { return m_table; }
    QLineEdit* filterEdit() const { return m_filter; }
    /// The job view of the selected job, or nullptr.
    JobView* jobView() const { return m_jobView; }
    ExecutorConnection* connection() const { return m_connection; }
    QLabel* connectionLabel() const { return m_statusFields->connectionLabel(); }
    QLabel* hostLabel() const { return m_statusFields->hostLabel(); }
    /// Reads the host's figures (and reopens the jobs feed) every 2 s while connected; the figures are also read
    /// at once when a job starts or ends.
    QTimer* pollTimer() { return &m_poll; }
    /// The status bar's clusters line (hidden while the executor has no cluster); a click shows the Clusters view.
    QLabel* clustersLabel() const { return m_statusFields->clustersLabel(); }
    /// The Clusters view (in a dock, hidden until View → Clusters).
    ClustersView* clustersView() const { return m_clustersView; }
    QDockWidget* clustersDock() const { return m_clustersDock; }
    /// The Models view (models, versions, deploy, predict) and its dock, hidden until asked for.
    ModelsView* modelsView() const { return m_modelsView; }
    QDockWidget* modelsDock() const { return m_modelsDock; }
    /// Job → Deploy Model…: enabled for a succeeded job with a model folder (its builtInAlgorithmOutput.modelPath, or
    /// `<jobDir>/model`).
    QAction* deployAction() const { return m_deployAction; }
    /// The "Job" menu (the wizard adds "New job…" there).
    QMenu* jobMenu() const { return m_jobMenu; }
    /// The Audit view (View ▸ Audit Log), or nullptr before it was first shown.
    AuditView* auditView() const { return m_auditView; }
    /// Shows the Audit view (a window of its own) reading through the connection's client.
    void showAuditLog();

    /// Selects a job in the list (and shows its view); false when it is not listed (yet).
    bool selectJob(const QString& jobId);
    /// The jobId of the selected row, or empty.
    QString selectedJobId() const;
    /// Every selected job (the current one and those added with Ctrl/Shift+click).
    QStringList selectedJobIds() const;

    /// What the job list area shows: the table, the first-start welcome (no jobs at all, with "Run the
    /// sample", "Import a gcloud config file…" and "Submit a job…"), or "no job matches the filter".
    enum class ListState { Table, Welcome, NoMatch };
    ListState listState() const;
    QPushButton* runSampleButton() const { return m_runSample; }
    QPushButton* importConfigButton() const { return m_importConfig; }
    QPushButton* submitJobButton() const { return m_submitJob; }
    QPushButton* clearFilterButton() const { return m_clearFilter; }
    QSplitter* splitter() const { return m_splitter; }
    /// The detail pane under the list (a scroll area around the selected job's view); hidden until a job is
    /// selected.
    QScrollArea* detailPane() const { return m_detailScroll; }
    /// The Job menu's actions that act on the selected job (disabled while nothing is selected).
    QAction* describeAction() const { return m_describe; }
    QAction* cancelAction() const { return m_cancelAction; }
    QAction* copyIdAction() const { return m_copyId; }
    QAction* openDirAction() const { return m_openDirAction; }
    QAction* submitSimilarAction() const { return m_similarAction; }
    /// The bundled Fashion-MNIST trainer: installed ($XDG_DATA_DIRS/trainyard/trainers/fmnist, or
    /// share/trainyard/trainers/fmnist above the program's folder, which a build tree mirrors); "" when
    /// none is there.
    static QString sampleTrainerPath();
    /// The one-click sample job: the bundled trainer, BASIC, 2 epochs, a fresh job dir.
    static Job sampleJob(const QDateTime& now);

public Q_SLOTS:
    /// "Run the sample": submits sampleJob() and selects it.
    void runSample();
    /// "Import a gcloud config file…": a file dialog, then the wizard filled from the file.
    void importConfig();
    /// Opens the wizard filled from the config file at `path`; false (and a message) when it does not load.
    bool importConfigFile(const QString& path);
    /// File > Connect to Executor…: ConnectDialog, then the connection switches to the executor it names.
    void connectToExecutor();

public Q_SLOTS:
    /// Polls the host now and reopens the job list stream if it dropped (F5).
    void refresh();
    void focusFilter();
    /// Ctrl+N / "Submit similar…": the submit wizard, empty or filled from `base`; on success the new job
    /// is selected and its Topology tab opened.
    void openSubmitWizard(const Trainyard::Job& base);
    /// "Submit from this checkpoint…": the wizard filled from `base` as is (its ID and its job dir, which
    /// holds the copy of `checkpoint`); cancelling the wizard removes that unused copy. Returns the wizard
    /// (open, window-modal).
    Trainyard::SubmitWizard* openSubmitWizardFromCheckpoint(const Trainyard::Job& base, const QString& checkpoint);
    /// The Trials tab's "Submit with these values" and "Resume tuning": the wizard filled from `job` with its
    /// (new, suggested) ID, a fresh job dir named after it, and `title` as the wizard's title. Returns the
    /// wizard (open, window-modal).
    Trainyard::SubmitWizard* openSubmitWizardWithJob(const Trainyard::Job& job, const QString& title);

Q_SIGNALS:
    /// Ctrl+N: the user wants to submit a job (the submit wizard handles it).
    void submitRequested();
    /// "Submit similar…" on a job: the wizard starts from this job.
    void submitSimilarRequested(const Trainyard::Job& job);
    /// The model holds the job list: after the job stream's snapshot, then after each batch of changes.
    void jobsRefreshed();

protected:
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The Clusters view names this user's clusters.yaml while the executor is a local one.
    void updateClustersFile();

    void buildActions();
    void updateActions();
    /// The selected jobs other than the current one are compared in its Metrics tab.
    void updateComparison();
    /// Help → Keyboard Shortcuts: every menu action with a shortcut (read from the actions, so the list
    /// cannot drift) and the keys of the views.
    void showShortcuts();
    /// Help → Filter Syntax: the service's filter syntax with examples.
    void showFilterHelp();
    /// Selects `jobId` once a poll lists it, then opens `tab`.
    void selectWhenListed(const QString& jobId, int tab);
    void updateListState();
    void saveLayout();
    void restoreLayout();
    void fitJobIdColumn();
    void onConnectionStateChanged();
    void onSelectionChanged();
    void showContextMenu(const QPoint& pos);
    /// After the model took a batch of the job stream (JobListFeed::applied()): list state, selection,
    /// jobsRefreshed().
    void jobsApplied();
    void showMessage(const QString& text, int timeoutMs = 8000);
    bool submitSimilarWanted();
    SubmitWizard* createSubmitWizard();
    const Job* currentJob() const;
    void cancelSelected();
    void copySelectedId();
    void openSelectedDir();
    /// Opens the Models view and its Deploy dialog with the selected job's model folder.
    void deploySelected();
    void describeSelected();

    QPointer<ExecutorConnection> m_connection;
    /// The desktop keyring of ConnectDialog's tokens (made on first use).
    TokenStore* m_keyring = nullptr;
    JobListModel* m_model;
    JobFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLineEdit* m_filter;
    QLabel* m_filterError;
    QStackedWidget* m_detail;
    QScrollArea* m_detailScroll = nullptr; ///< holds m_detail: it scrolls below its contents' minimum
    QLabel* m_emptyDetail;
    JobView* m_jobView = nullptr;
    QActionGroup* m_stateGroup;
    QMenu* m_jobMenu = nullptr;
    AuditView* m_auditView = nullptr;
    ExecutorStatusBar* m_statusFields;
    JobListFeed* m_feed; ///< the job list stream into m_model
    ClustersView* m_clustersView;
    QDockWidget* m_clustersDock;
    ModelsView* m_modelsView;
    QDockWidget* m_modelsDock;
    QStackedWidget* m_listStack = nullptr;
    QWidget* m_welcome = nullptr;
    QWidget* m_noMatch = nullptr;
    QPushButton* m_runSample = nullptr;
    QPushButton* m_importConfig = nullptr;
    QPushButton* m_submitJob = nullptr;
    QPushButton* m_clearFilter = nullptr;
    QSplitter* m_splitter = nullptr;
    QAction* m_describe = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_copyId = nullptr;
    QAction* m_openDirAction = nullptr;
    QAction* m_deployAction = nullptr;
    QAction* m_similarAction = nullptr;
    QAction* m_nextTab = nullptr;
    /// View ▸ Overview … Trials, indexed by JobView::Tab: Ctrl+1… follow the selected job's tab order.
    QList<QAction*> m_tabActions;
    void updateTabShortcuts();
    QAction* m_previousTab = nullptr;
    int m_lastTab = -1; ///< the detail tab the user was on: kept when another job is selected
    bool m_userSizedIdColumn = false; ///< the user resized the Job ID column: stop fitting it
    bool m_fittingColumn = false;
    QTimer m_poll;
    QSet<QString> m_activeJobs; ///< the jobs not in a final state at the last listing: a change reads the host again
    void refreshHost();
};

} // namespace Trainyard
