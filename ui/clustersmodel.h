// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "regioninfo.h"

#include <QAbstractItemModel>

namespace Trainyard {

/// The Clusters view's tree: one row per region (this host, then each Slurm cluster of the executor's
/// clusters.yaml), its nodes as children. Columns: name, state, CPUs in use / total, GPUs in use / total,
/// memory, partitions, and the project's live Trainyard jobs there (region rows only).
///
/// setRegions() with the same regions and nodes as before updates the rows in place (dataChanged), so a
/// periodic refresh keeps the view's selection and expansion; anything else resets the model.
class ClustersModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        StateColumn,
        CpusColumn,
        GpusColumn,
        MemoryColumn,
        PartitionsColumn,
        JobsColumn,
        ColumnCount
    };
    enum Roles {
        RegionNameRole = Qt::UserRole + 1, ///< the region's name ("testcluster"), on its rows and its nodes'
        NodeNameRole, ///< the node's name; empty on region rows
        UsableRole, ///< bool: the region is up / the node takes jobs
    };

    explicit ClustersModel(QObject* parent = nullptr);

    void setRegions(const QList<RegionInfo>& regions);
    const QList<RegionInfo>& regions() const { return m_regions; }
    /// The region named `name`, or nullptr.
    const RegionInfo* region(const QString& name) const;
    /// The index of the region named `name` (column 0), or an invalid one.
    QModelIndex regionIndex(const QString& name) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant regionData(const RegionInfo& region, int column, int role) const;
    QVariant nodeData(const RegionInfo& region, const RegionNodeInfo& node, int column, int role) const;

    QList<RegionInfo> m_regions;
};

} // namespace Trainyard
