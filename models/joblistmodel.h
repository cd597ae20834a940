// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The console's job list: one row per Job, updated incrementally from the job list stream (or a listing) so a
// view keeps its selection and never flickers (dataChanged for changed rows, insert/remove for others;
// never a model reset after the first load).
//
// Rows keep their arrival order; sorting and filtering belong to a QSortFilterProxyModel (the console's
// JobFilterProxyModel). Values are plain Qt Core types: icons and colours are the ui's business.

#include "job.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QTimer>

namespace Trainyard {

class JobListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        JobIdColumn,
        TypeColumn, ///< training, hyperparameter tuning, built-in algorithm or batch prediction (issue 46)
        StateColumn,
        CreatedColumn,
        DurationColumn,
        ScaleTierColumn,
        ReplicasColumn,
        GpusColumn,
        LabelsColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        JobIdRole = Qt::UserRole + 1, ///< QString
        StateRole, ///< JobState
        CreateTimeRole, ///< QDateTime (UTC); invalid when unknown
        StartTimeRole,
        EndTimeRole,
        DurationRole, ///< qint64 seconds from start (or create) to end (or now); -1 when not started
        ErrorMessageRole, ///< QString
        LabelsRole, ///< QVariantMap
        GpuCountRole, ///< int
        ReplicaCountRole, ///< int, all replicas incl. evaluators
        SortRole, ///< a value that sorts the column naturally (times as msecs, counts as numbers)
        JobDirRole, ///< QString
    };
    Q_ENUM(Role)

    explicit JobListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    /// The Type column's text: "Training", "Hyperparameter tuning", "Built-in algorithm" (", tuning"), "Batch
    /// prediction".
    static QString typeText(const Job& job);
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Replaces the content with `jobs` (a full listing): changed rows get dataChanged, new jobs are
    /// inserted at the end, jobs that are no longer listed are removed.
    void setJobs(const QList<Job>& jobs);
    /// The jobs as last set, in the order given.
    const QList<Job>& jobs() const { return m_jobs; }
    /// Inserts or updates one job (an event).
    void updateJob(const Job& job);
    /// Inserts or updates `jobs` (a batch of events, in order): changed rows get dataChanged, new jobs
    /// are appended with one insert. Costs O(jobs.size()), whatever the number of rows.
    void updateJobs(const QList<Job>& jobs);
    void removeJob(const QString& jobId);
    void clear();

    /// Row of a job, -1 when absent.
    int rowOf(const QString& jobId) const;
    /// The job of a row; nullptr when out of range.
    const Job* jobAt(int row) const;

    /// Replicas per role: {master, workers, parameter servers, evaluators}, expanding predefined
    /// scale tiers through the machine catalog.
    struct ReplicaCounts {
        int master = 1;
        int workers = 0;
        int parameterServers = 0;
        int evaluators = 0;
        int total() const { return master + workers + parameterServers + evaluators; }
    };
    static ReplicaCounts replicaCounts(const TrainingInput& input);
    /// GPUs the job asks for (accelerator count × replicas, over every role).
    static int gpuCount(const TrainingInput& input);
    /// RFC 3339 time → QDateTime (UTC), invalid when empty or malformed.
    static QDateTime parseTime(const QString& rfc3339);
    /// A batch prediction job's progress, for the Replicas column: "1,200 / 1,202 done" (predictions and errors).
    static QString batchProgressText(const Job& job);

private:
    /// Appends `jobs` (none of them listed yet) as one insertion at the end.
    void appendRows(const QList<Job>& jobs);
    void refreshDurations();

    QList<Job> m_jobs;
    QHash<QString, int> m_rows;
    QTimer m_durationTimer;
};

} // namespace Trainyard
