// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The job view's Checkpoints tab: the checkpoints under the job dir (newest first, the current one
// marked), refreshed every few seconds while the job is live; the tensors of the selected one in a
// filterable, sortable table; statistics and the first values of the selected tensor; "Copy path"
// and "Open folder"; "Compare with" another checkpoint (CheckpointCompareModel: tensors added, removed,
// reshaped, and the change of their statistics, read for the rows in view); "Submit from this
// checkpoint" (a copy of it in a new job dir, made on a worker thread, for the submit wizard). Everything
// comes from the executor (`…/jobs/{id}/checkpoints`, app/executor/API.md); the console never parses a
// checkpoint itself.

#include "apiclient.h"
#include "checkpointcopy.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace Trainyard {

class CheckpointCompareFilterModel;
class CheckpointCompareModel;
class CheckpointListModel;
class ExecutorConnection;
class TensorTableModel;

/// Filters tensors by a case-insensitive substring of their display name, stored name or dtype, and
/// sorts by CheckpointSortRole (numbers as numbers).
class TensorFilterProxyModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TensorFilterProxyModel(QObject* parent = nullptr);

public Q_SLOTS:
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
};

class CheckpointsPanel : public QWidget {
    Q_OBJECT
public:
    /// While the job is live, the list is refreshed this often (milliseconds).
    static constexpr int RefreshMs = 3000;
    /// How many values of a tensor the preview asks for.
    static constexpr int PreviewValues = 100;

    CheckpointsPanel(ExecutorConnection* connection, const Job& job, QWidget* parent = nullptr);
    ~CheckpointsPanel() override;

    /// Follows the job's state (refreshing while live, once more when it ends) and job dir.
    void setJob(const Job& job);

    CheckpointListModel* checkpointModel() const { return m_list; }
    TensorTableModel* tensorModel() const { return m_tensors; }
    TensorFilterProxyModel* tensorProxy() const { return m_tensorProxy; }
    QTableView* checkpointView() const { return m_listView; }
    QTableView* tensorView() const { return m_tensorView; }
    QLineEdit* filterEdit() const { return m_filter; }
    QLabel* statisticsLabel() const { return m_stats; }
    QPlainTextEdit* valuesView() const { return m_values; }
    QPushButton* copyPathButton() const { return m_copyPath; }
    QPushButton* openFolderButton() const { return m_openFolder; }
    QPushButton* submitFromButton() const { return m_submitFrom; }
    /// "Compare with:" — the checkpoints other than the selected one; item 0 is "no comparison".
    QComboBox* compareCombo() const { return m_compareWith; }
    CheckpointCompareModel* compareModel() const { return m_compare; }
    CheckpointCompareFilterModel* compareProxy() const { return m_compareProxy; }
    QTableView* compareView() const { return m_compareView; }
    QComboBox* compareFilterCombo() const { return m_compareFilter; }
    QPushButton* compareSwapButton() const { return m_compareSwap; }
    QPushButton* compareAllButton() const { return m_compareAll; }
    QLabel* compareTitle() const { return m_compareTitle; }
    /// What the last "Submit from this checkpoint" said when it failed (empty otherwise).
    QLabel* actionStatusLabel() const { return m_actionStatus; }
    /// True while the compare view replaces the tensor table.
    bool isComparing() const;
    /// True while a checkpoint is being copied for "Submit from this checkpoint".
    bool isCopying() const;

    /// The selected checkpoint's name (empty when none).
    QString selectedCheckpoint() const;
    /// Absolute path of a checkpoint (what TensorFlow / torch.load / safetensors open).
    QString checkpointPath(const QString& name) const;
    /// The folder holding a checkpoint (the checkpoint itself for a SavedModel).
    QString checkpointFolder(const QString& name) const;
    bool isRefreshing() const { return m_refresh.isActive(); }
    /// True until the user picks a checkpoint: each refresh selects the trainer's current (or the newest).
    bool followsNewest() const { return !m_userPicked; }

public Q_SLOTS:
    void refresh();
    /// Selects a checkpoint by name (loads its tensors) as the user's pick: the list stops following the
    /// newest checkpoint. False when it is not listed.
    bool selectCheckpoint(const QString& name);
    /// Selects a tensor of the shown checkpoint by stored name (loads its values); false when not shown.
    bool selectTensor(const QString& tensorName);
    void copyPath();
    void openFolder();
    /// Compares the selected checkpoint (A) with `name` (B); an empty name ends the comparison. False
    /// when `name` is not listed or is the selected checkpoint.
    bool compareWith(const QString& name);
    /// Copies checkpoint `name` into a new job dir (`targetJobDir`, or a sibling of this job's dir named
    /// after the new job ID) on a worker thread; then submitFromCheckpointRequested(), or
    /// submitFromCheckpointFailed() with the reason. False when it cannot start (not listed, a copy running).
    bool submitFromCheckpoint(const QString& name, const QString& targetJobDir = {});

Q_SIGNALS:
    /// A listing arrived (also when nothing changed).
    void checkpointsLoaded();
    /// The tensors of `name` are shown.
    void tensorsLoaded(const QString& name);
    /// Statistics and values of `tensorName` are shown (or why they cannot be).
    void valuesLoaded(const QString& tensorName);
    /// For the status bar.
    void message(const QString& text);
    /// Both checkpoints of a comparison were read and the compare model holds them (or the error is shown).
    void compareLoaded();
    /// The copy is in place: `job` is this job with a new ID and `job.trainingInput.jobDir` the copy
    /// (the submit wizard's starting point); `checkpoint` is the copied checkpoint's name.
    void submitFromCheckpointRequested(const Trainyard::Job& job, const QString& checkpoint);
    /// The copy failed (nothing was left behind); `error` names the file and the reason.
    void submitFromCheckpointFailed(const QString& error);

private:
    void onCheckpointSelected();
    void onTensorSelected();
    void showValues(const TensorValues& values);
    void updateActions();
    void updateCompareChoices();
    void startCompare();
    void showCompareSummary();
    void requestVisibleStatistics();
    void onCopyFinished();
    ApiClient* client() const;

    QPointer<ExecutorConnection> m_connection;
    Job m_job;
    QString m_jobDir; ///< absolute, as the executor reports it
    QTimer m_refresh;
    bool m_listing = false; ///< a listing request is in flight
    /// refresh() was asked while a listing was in flight: list again when it answers (the look after the job's end
    /// must not be lost to a listing that started before the last checkpoint was written).
    bool m_listAgain = false;
    quint64 m_detailGeneration = 0; ///< answers for an older selection are dropped
    quint64 m_valuesGeneration = 0;
    QString m_shownCheckpoint;
    bool m_userPicked = false; ///< the user chose a checkpoint: the list no longer follows the newest
    bool m_following = false; ///< the panel itself is moving the selection to the newest
    bool selectRow(int row);
    quint64 m_compareGeneration = 0;
    QString m_compareTarget; ///< B of the comparison; empty when not comparing
    QFutureWatcher<CheckpointCopyResult>* m_copy = nullptr;
    Job m_copyJob; ///< the job the running copy is for
    QString m_copyCheckpoint;

    CheckpointListModel* m_list;
    TensorTableModel* m_tensors;
    TensorFilterProxyModel* m_tensorProxy;
    QLabel* m_summary;
    QTableView* m_listView;
    QLineEdit* m_filter;
    QTableView* m_tensorView;
    QLabel* m_tensorTitle;
    QLabel* m_stats;
    QPlainTextEdit* m_values;
    QPushButton* m_refreshButton;
    QPushButton* m_copyPath;
    QPushButton* m_openFolder;
    QPushButton* m_submitFrom;
    QLabel* m_actionStatus;
    QComboBox* m_compareWith;
    QStackedWidget* m_lowerStack;
    CheckpointCompareModel* m_compare;
    CheckpointCompareFilterModel* m_compareProxy;
    QLabel* m_compareTitle;
    QComboBox* m_compareFilter;
    QLineEdit* m_compareText;
    QPushButton* m_compareAll;
    QPushButton* m_compareSwap;
    QTableView* m_compareView;
    QTimer m_visibleTimer;
};

} // namespace Trainyard
