// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The job view's Checkpoints tab: the checkpoints under the job dir (newest first, the current one
// marked), refreshed every few seconds while the job is live; the tensors of the selected one in a
// filterable, sortable table; statistics and the first values of the selected tensor; "Copy path"
// and "Open folder". Everything comes from the executor (`…/jobs/{id}/checkpoints`, app/executor/
// API.md); the console never parses a checkpoint itself.

#include "apiclient.h"

#include <QPointer>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace Trainyard {

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

    /// The selected checkpoint's name (empty when none).
    QString selectedCheckpoint() const;
    /// Absolute path of a checkpoint (what TensorFlow / torch.load / safetensors open).
    QString checkpointPath(const QString& name) const;
    /// The folder holding a checkpoint (the checkpoint itself for a SavedModel).
    QString checkpointFolder(const QString& name) const;
    bool isRefreshing() const { return m_refresh.isActive(); }

public Q_SLOTS:
    void refresh();
    /// Selects a checkpoint by name (loads its tensors); false when it is not listed.
    bool selectCheckpoint(const QString& name);
    /// Selects a tensor of the shown checkpoint by stored name (loads its values); false when not shown.
    bool selectTensor(const QString& tensorName);
    void copyPath();
    void openFolder();

Q_SIGNALS:
    /// A listing arrived (also when nothing changed).
    void checkpointsLoaded();
    /// The tensors of `name` are shown.
    void tensorsLoaded(const QString& name);
    /// Statistics and values of `tensorName` are shown (or why they cannot be).
    void valuesLoaded(const QString& tensorName);
    /// For the status bar.
    void message(const QString& text);

private:
    void onCheckpointSelected();
    void onTensorSelected();
    void showValues(const TensorValues& values);
    void updateActions();
    ApiClient* client() const;

    QPointer<ExecutorConnection> m_connection;
    Job m_job;
    QString m_jobDir; ///< absolute, as the executor reports it
    QTimer m_refresh;
    bool m_listing = false; ///< a listing request is in flight
    quint64 m_detailGeneration = 0; ///< answers for an older selection are dropped
    quint64 m_valuesGeneration = 0;
    QString m_shownCheckpoint;

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
};

} // namespace Trainyard
