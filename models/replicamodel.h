// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The replicas of one job (the topology view's model): one row per replica as `…/jobs/{id}/replicas`
// or the `replicas` event reports them. Updated by diff on taskName, so a view repaints only the nodes
// whose replica changed.

#include "apiclient.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>

namespace Trainyard {

class ReplicaModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TaskColumn,
        StateColumn,
        PidColumn,
        AddressColumn,
        GpusColumn,
        RestartsColumn,
        ExitColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        TaskNameRole = Qt::UserRole + 1, ///< QString "worker-replica-3"
        RoleRole, ///< QString "master" | "chief" | "worker" | "ps" | "evaluator"
        IndexRole, ///< int
        StateRole, ///< ReplicaState
        PidRole, ///< qint64, 0 when no process
        AddressRole, ///< QString "127.0.0.1:PORT"
        GpusRole, ///< QVariantList of int (NVML indexes)
        RestartsRole, ///< int
        ExitCodeRole, ///< int, or invalid QVariant while running
        ExitSignalRole, ///< int, or invalid QVariant
        MachineTypeRole, ///< QString
        ExitStatusTextRole, ///< QString "exit 1", "signal 9", empty while running
        RunningSinceRole, ///< QDateTime (UTC) the replica runs since (ReplicaInfo::startTime; without one, the
                          ///< job's start before any restart, else when the console saw it enter RUNNING); invalid
                          ///< when it does not run
        CpuPercentRole, ///< double, the latest CPU sample (% of one core); invalid before one arrives
        RssBytesRole, ///< qint64, the latest resident set size sample (bytes); invalid before one arrives
        NodeRole, ///< QString: the cluster node it runs on ("node2"); empty on the executor's host
    };
    Q_ENUM(Role)

    explicit ReplicaModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Applies a full replica listing: changed rows get dataChanged, new ones are inserted at the end,
    /// missing ones removed.
    void setReplicas(const QList<ReplicaInfo>& replicas);
    void clear();
    /// The latest resource samples of a replica (from the job's metrics stream); a negative value leaves
    /// that one unchanged. Emits dataChanged for its row.
    void setResourceUsage(const QString& taskName, double cpuPercent, qint64 rssBytes);
    /// When the job started running (its startTime): a replica that has not restarted has run since then,
    /// also when the console opened the job later. Invalid: uptime counts from when the model saw it run.
    void setJobStartTime(const QDateTime& startTime) { m_jobStart = startTime; }

    int rowOf(const QString& taskName) const { return m_rows.value(taskName, -1); }
    const ReplicaInfo* replicaAt(int row) const;
    const QList<ReplicaInfo>& replicas() const { return m_replicas; }

    /// "exit 1", "signal 9 (SIGKILL)" or empty.
    static QString exitStatusText(const ReplicaInfo& replica);

private:
    void rebuildRows();

    QList<ReplicaInfo> m_replicas;
    QHash<QString, int> m_rows;
    /// What the console observes of each replica beside the listing: since when it runs, its last samples.
    struct Live {
        QDateTime runningSince;
        double cpuPercent = -1;
        qint64 rssBytes = -1;
    };
    QHash<QString, Live> m_live;
    QDateTime m_jobStart;
    void observe(const ReplicaInfo& replica);
};

} // namespace Trainyard
