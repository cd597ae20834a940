// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The Metrics tab's run list (issue 46 item 22), as TensorBoard's run selector: one row per run of the job's (and
// the compared jobs') series, with a check box that hides the run's lines in every chart. The panel's regular
// expression narrows the list through a QSortFilterProxyModel; a run the filter hides is not drawn either.

#include <QAbstractListModel>
#include <QColor>
#include <QHash>
#include <QSet>

namespace Trainyard {

class MetricsModel;

/// Runs of a MetricsModel, in the order their first series arrived. A run is what MetricsModel::runKey() names
/// (a job's event-file folder, a trial, a replica's resource samples); its row shows MetricsModel::seriesLabel()
/// of its first series, the run's colour (setColor()) and a check box, checked when the run first appears (unless the
/// user unchecked it before the metrics stream was reopened).
class MetricRunsModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        RunKeyRole = Qt::UserRole + 1, ///< QString: MetricsModel::runKey()
        SeriesCountRole, ///< int: how many series (charts) the run has
    };

    explicit MetricRunsModel(const MetricsModel* metrics, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    /// The keys of the unchecked runs.
    QSet<QString> uncheckedRuns() const;
    /// Checks or unchecks the runs of `keys` (every run when empty is not wanted: pass them all).
    void setChecked(const QStringList& keys, bool checked);
    /// The row of a run key, or -1.
    int rowOf(const QString& key) const;
    /// The colour the run's lines are drawn in (the decoration of its row).
    void setColor(const QString& key, const QColor& color);

Q_SIGNALS:
    /// A check box changed (by the user or setChecked()).
    void checkedChanged();

private:
    struct Run {
        QString key;
        int firstSeries;
        int seriesCount;
        QColor color;
    };
    void onSeriesAdded(int series);
    void onCleared();
    void onLabelsChanged();

    const MetricsModel* m_metrics;
    QList<Run> m_runs;
    QHash<QString, int> m_rowByKey;
    /// Kept when the model is cleared (the metrics stream reopens and replays): a run the user unchecked stays so.
    QSet<QString> m_unchecked;
};

} // namespace Trainyard
