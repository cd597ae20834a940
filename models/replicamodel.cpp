// SPDX-License-Identifier: GPL-2.0-or-later
#include "replicamodel.h"

#include <csignal>
#include <cstring>

namespace Trainyard {

ReplicaModel::ReplicaModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int ReplicaModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_replicas.size());
}

int ReplicaModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ReplicaModel::exitStatusText(const ReplicaInfo& replica)
{
    if (replica.exitSignal) {
        const char* name = sigabbrev_np(*replica.exitSignal);
        return name ? tr("signal %1 (SIG%2)").arg(*replica.exitSignal).arg(QLatin1String(name))
                    : tr("signal %1").arg(*replica.exitSignal);
    }
    if (replica.exitCode)
        return tr("exit %1").arg(*replica.exitCode);
    return {};
}

QVariant ReplicaModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ReplicaInfo& r = m_replicas.at(index.row());
    switch (role) {
    case TaskNameRole:
        return r.taskName;
    case RoleRole:
        return r.role;
    case IndexRole:
        return r.index;
    case StateRole:
        return QVariant::fromValue(r.state);
    case PidRole:
        return r.pid;
    case AddressRole:
        return r.address;
    case NodeRole:
        return r.node;
    case GpusRole: {
        QVariantList gpus;
        for (int g : r.gpus)
            gpus << g;
        return gpus;
    }
    case RestartsRole:
        return r.restarts;
    case ExitCodeRole:
        return r.exitCode ? QVariant(*r.exitCode) : QVariant();
    case ExitSignalRole:
        return r.exitSignal ? QVariant(*r.exitSignal) : QVariant();
    case MachineTypeRole:
        return r.machineType;
    case ExitStatusTextRole:
        return exitStatusText(r);
    case RunningSinceRole:
        return m_live.value(r.taskName).runningSince;
    case CpuPercentRole: {
        const double cpu = m_live.value(r.taskName).cpuPercent;
        return cpu >= 0 ? QVariant(cpu) : QVariant();
    }
    case RssBytesRole: {
        const qint64 rss = m_live.value(r.taskName).rssBytes;
        return rss >= 0 ? QVariant(rss) : QVariant();
    }
    case Qt::DisplayRole:
        switch (index.column()) {
        case TaskColumn:
            return r.taskName;
        case StateColumn:
            return replicaStateName(r.state);
        case PidColumn:
            return r.pid > 0 ? QVariant(r.pid) : QVariant(QString());
        case AddressColumn:
            return r.address;
        case GpusColumn: {
            QStringList gpus;
            for (int g : r.gpus)
                gpus << QString::number(g);
            return gpus.join(QStringLiteral(", "));
        }
        case RestartsColumn:
            return r.restarts;
        case ExitColumn:
            return exitStatusText(r);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return tr("PID %1, address %2").arg(r.pid > 0 ? QString::number(r.pid) : tr("none"), r.address);
    default:
        return {};
    }
}

QVariant ReplicaModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TaskColumn:
        return tr("Task");
    case StateColumn:
        return tr("State");
    case PidColumn:
        return tr("PID");
    case AddressColumn:
        return tr("Address");
    case GpusColumn:
        return tr("GPUs");
    case RestartsColumn:
        return tr("Restarts");
    case ExitColumn:
        return tr("Exit status");
    default:
        return {};
    }
}

QHash<int, QByteArray> ReplicaModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(TaskNameRole, "taskName");
    names.insert(RoleRole, "role");
    names.insert(IndexRole, "index");
    names.insert(StateRole, "state");
    names.insert(PidRole, "pid");
    names.insert(AddressRole, "address");
    names.insert(NodeRole, "node");
    names.insert(GpusRole, "gpus");
    names.insert(RestartsRole, "restarts");
    names.insert(ExitCodeRole, "exitCode");
    names.insert(ExitSignalRole, "exitSignal");
    names.insert(MachineTypeRole, "machineType");
    names.insert(ExitStatusTextRole, "exitStatus");
    return names;
}

void ReplicaModel::rebuildRows()
{
    m_rows.clear();
    for (int i = 0; i < m_replicas.size(); ++i)
        m_rows.insert(m_replicas.at(i).taskName, i);
}

void ReplicaModel::observe(const ReplicaInfo& replica)
{
    Live& live = m_live[replica.taskName];
    const bool running = replica.state == ReplicaState::Running;
    if (running && replica.startTime.isValid())
        live.runningSince = replica.startTime; // the executor's: a cluster's replica may have queued long
    else if (running && !live.runningSince.isValid())
        live.runningSince = replica.restarts == 0 && m_jobStart.isValid() ? m_jobStart : QDateTime::currentDateTimeUtc();
    else if (!running)
        live = Live {}; // ended or restarting: no uptime, and old samples are not this process's
}

void ReplicaModel::setResourceUsage(const QString& taskName, double cpuPercent, qint64 rssBytes)
{
    const int row = rowOf(taskName);
    if (row < 0 || m_replicas.at(row).state != ReplicaState::Running)
        return;
    Live& live = m_live[taskName];
    if (cpuPercent >= 0)
        live.cpuPercent = cpuPercent;
    if (rssBytes >= 0)
        live.rssBytes = rssBytes;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1), { CpuPercentRole, RssBytesRole });
}

void ReplicaModel::setReplicas(const QList<ReplicaInfo>& replicas)
{
    for (const ReplicaInfo& r : replicas)
        observe(r);
    QHash<QString, int> listed;
    for (int i = 0; i < replicas.size(); ++i)
        listed.insert(replicas.at(i).taskName, i);

    for (int row = int(m_replicas.size()) - 1; row >= 0;) {
        if (listed.contains(m_replicas.at(row).taskName)) {
            --row;
            continue;
        }
        int first = row;
        while (first > 0 && !listed.contains(m_replicas.at(first - 1).taskName))
            --first;
        beginRemoveRows({}, first, row);
        m_replicas.remove(first, row - first + 1);
        endRemoveRows();
        row = first - 1;
    }
    rebuildRows();

    QList<ReplicaInfo> added;
    for (const ReplicaInfo& r : replicas) {
        const int row = m_rows.value(r.taskName, -1);
        if (row < 0) {
            added.append(r);
        } else if (!(m_replicas.at(row) == r)) {
            m_replicas[row] = r;
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
    }
    if (!added.isEmpty()) {
        const int first = int(m_replicas.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_replicas.append(added);
        rebuildRows();
        endInsertRows();
    }
}

void ReplicaModel::clear()
{
    if (m_replicas.isEmpty())
        return;
    beginRemoveRows({}, 0, int(m_replicas.size()) - 1);
    m_replicas.clear();
    m_rows.clear();
    m_live.clear();
    endRemoveRows();
}

const ReplicaInfo* ReplicaModel::replicaAt(int row) const
{
    return row >= 0 && row < m_replicas.size() ? &m_replicas.at(row) : nullptr;
}

} // namespace Trainyard
