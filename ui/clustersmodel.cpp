// SPDX-License-Identifier: GPL-2.0-or-later
#include "clustersmodel.h"

#include <QColor>
#include <QLocale>

namespace Trainyard {

namespace {

// internalId of a node row: its region's row + 1; region rows have 0.
constexpr quintptr RegionId = 0;

bool sameShape(const QList<RegionInfo>& a, const QList<RegionInfo>& b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a.at(i).name != b.at(i).name || a.at(i).nodes.size() != b.at(i).nodes.size())
            return false;
        for (qsizetype n = 0; n < a.at(i).nodes.size(); ++n) {
            if (a.at(i).nodes.at(n).name != b.at(i).nodes.at(n).name)
                return false;
        }
    }
    return true;
}

QString inUse(int used, int total)
{
    return ClustersModel::tr("%1 / %2").arg(used).arg(total);
}

/// "12.0 GB / 32.0 GB", as the CPU and GPU columns say what is in use of what there is.
QString memoryText(Bytes used, Bytes total)
{
    if (total.bytes() <= 0)
        return QString();
    const QLocale locale;
    return ClustersModel::tr("%1 / %2").arg(locale.formattedDataSize(used.bytes(), 1, QLocale::DataSizeSIFormat),
        locale.formattedDataSize(total.bytes(), 1, QLocale::DataSizeSIFormat));
}

} // namespace

ClustersModel::ClustersModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void ClustersModel::setRegions(const QList<RegionInfo>& regions)
{
    if (!m_regions.isEmpty() && sameShape(m_regions, regions)) {
        m_regions = regions;
        for (int r = 0; r < int(m_regions.size()); ++r) {
            const QModelIndex parent = index(r, 0);
            emit dataChanged(parent, index(r, ColumnCount - 1));
            if (!m_regions.at(r).nodes.isEmpty())
                emit dataChanged(
                    index(0, 0, parent), index(int(m_regions.at(r).nodes.size()) - 1, ColumnCount - 1, parent));
        }
        return;
    }
    beginResetModel();
    m_regions = regions;
    endResetModel();
}

const RegionInfo* ClustersModel::region(const QString& name) const
{
    for (const RegionInfo& r : m_regions) {
        if (r.name == name)
            return &r;
    }
    return nullptr;
}

QModelIndex ClustersModel::regionIndex(const QString& name) const
{
    for (int r = 0; r < int(m_regions.size()); ++r) {
        if (m_regions.at(r).name == name)
            return index(r, 0);
    }
    return {};
}

QModelIndex ClustersModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, RegionId);
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex ClustersModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == RegionId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, RegionId);
}

int ClustersModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_regions.size());
    if (parent.internalId() != RegionId || parent.column() != 0)
        return 0;
    return int(m_regions.at(parent.row()).nodes.size());
}

int ClustersModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant ClustersModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == RegionId)
        return regionData(m_regions.at(index.row()), index.column(), role);
    const RegionInfo& region = m_regions.at(int(index.internalId() - 1));
    return nodeData(region, region.nodes.at(index.row()), index.column(), role);
}

QVariant ClustersModel::regionData(const RegionInfo& region, int column, int role) const
{
    if (role == RegionNameRole)
        return region.name;
    if (role == NodeNameRole)
        return QString();
    if (role == UsableRole)
        return region.isUp();
    int cpus = 0, cpusInUse = 0, gpus = 0, gpusInUse = 0;
    Bytes memory, memoryInUse;
    for (const RegionNodeInfo& n : region.nodes) {
        cpus += n.cpus;
        cpusInUse += n.cpusInUse;
        gpus += n.gpus;
        gpusInUse += n.gpusInUse;
        memory += n.memory;
        memoryInUse += n.memoryInUse;
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return region.isCluster() ? region.name : tr("%1 (this host)").arg(region.name);
        case StateColumn:
            return region.state;
        case CpusColumn:
            return region.nodes.isEmpty() ? QVariant() : inUse(cpusInUse, cpus);
        case GpusColumn:
            return region.nodes.isEmpty() ? QVariant() : inUse(gpusInUse, gpus);
        case MemoryColumn:
            return memoryText(memoryInUse, memory);
        case PartitionsColumn: {
            QStringList names;
            for (const RegionPartitionInfo& p : region.partitions)
                names << (p.name == region.partition ? tr("%1 (jobs go here)").arg(p.name) : p.name);
            return names.join(QStringLiteral(", "));
        }
        case JobsColumn: {
            QStringList jobs;
            for (const RegionJobInfo& j : region.jobs)
                jobs << (j.clusterJobIds.isEmpty()
                        ? tr("%1 (%2)").arg(j.jobId, j.state)
                        : tr("%1 (%2, Slurm %3)").arg(j.jobId, j.state, j.clusterJobIds.join(QStringLiteral(", "))));
            return jobs.join(QStringLiteral("; "));
        }
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (column == StateColumn && !region.message.isEmpty())
            return region.message;
        if (column == NameColumn)
            return region.isCluster() ? tr("Slurm cluster %1 (slurmrestd %2)").arg(region.name, region.endpoint)
                                      : tr("Jobs whose region names no cluster run on this host.");
        return {};
    }
    if (role == Qt::ForegroundRole && column == StateColumn && !region.isUp())
        return QColor(0xc0, 0x1c, 0x28);
    return {};
}

QVariant ClustersModel::nodeData(const RegionInfo& region, const RegionNodeInfo& node, int column, int role) const
{
    if (role == RegionNameRole)
        return region.name;
    if (role == NodeNameRole)
        return node.name;
    if (role == UsableRole)
        return node.usable();
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return node.name;
        case StateColumn:
            return node.state.join(QLatin1Char('+'));
        case CpusColumn:
            return inUse(node.cpusInUse, node.cpus);
        case GpusColumn:
            return inUse(node.gpusInUse, node.gpus);
        case MemoryColumn:
            return memoryText(node.memoryInUse, node.memory);
        case PartitionsColumn:
            return node.partitions.join(QStringLiteral(", "));
        }
        return {};
    }
    if (role == Qt::ForegroundRole && column == StateColumn && !node.usable())
        return QColor(0xc0, 0x1c, 0x28);
    return {};
}

QVariant ClustersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Region / node");
    case StateColumn:
        return tr("State");
    case CpusColumn:
        return tr("CPUs in use");
    case GpusColumn:
        return tr("GPUs in use");
    case MemoryColumn:
        return tr("Memory in use");
    case PartitionsColumn:
        return tr("Partitions");
    case JobsColumn:
        return tr("Trainyard jobs");
    }
    return {};
}

} // namespace Trainyard
