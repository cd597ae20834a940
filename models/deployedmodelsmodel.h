// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "prediction.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QList>

#include <optional>

namespace Trainyard {

/// The console's Models view as a tree: each model of the project (a top-level row) with its versions under it.
/// Values only (prediction.h's types, as the API sent them); setContents() replaces them, in place (dataChanged)
/// when the same models and versions are there, else with a reset.
class DeployedModelsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, State, Framework, Default, Nodes, RequestRate, LastUse, Deployment, ColumnCount };

    explicit DeployedModelsModel(QObject* parent = nullptr);

    /// `versions`: each model's versions by the model's ID, in creation order.
    void setContents(const QList<ModelResource>& models, const QHash<QString, QList<VersionResource>>& versions);

    const QList<ModelResource>& models() const { return m_models; }
    /// The model of a top-level row, or of a version row's parent.
    std::optional<ModelResource> modelAt(const QModelIndex& index) const;
    /// The version of a version row; nullopt for a model's row.
    std::optional<VersionResource> versionAt(const QModelIndex& index) const;
    /// The names of `model`'s versions, in creation order; empty for a model not shown.
    QStringList versionNames(const QString& model) const;
    /// The row of model `model` (and, with `version`, of that version), column 0; invalid when absent.
    QModelIndex indexOf(const QString& model, const QString& version = {}) const;
    /// A version's requests per second over the latest 10 s (its metrics' last point), shown in the RequestRate
    /// column ("3.2/s"; no rate: empty). `version` is its resource name, projects/p/models/m/versions/v.
    void setRequestRate(const QString& version, double perSecond);
    /// True while any version is CREATING or DELETING (the view reads again sooner then).
    bool hasPendingVersions() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ModelResource> m_models;
    QList<QList<VersionResource>> m_versions; ///< by model row
    QHash<QString, double> m_rates; ///< requests/s by version resource name
};

} // namespace Trainyard
