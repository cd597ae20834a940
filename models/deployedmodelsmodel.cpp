// SPDX-License-Identifier: GPL-2.0-or-later
#include "deployedmodelsmodel.h"

#include "rfc3339.h"

#include <QDateTime>
#include <QLocale>

namespace Trainyard {

DeployedModelsModel::DeployedModelsModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void DeployedModelsModel::setContents(
    const QList<ModelResource>& models, const QHash<QString, QList<VersionResource>>& versions)
{
    QList<QList<VersionResource>> byRow;
    for (const ModelResource& m : models)
        byRow << versions.value(m.name);
    bool sameShape = models.size() == m_models.size();
    for (qsizetype i = 0; sameShape && i < models.size(); ++i) {
        sameShape = models.at(i).name == m_models.at(i).name && byRow.at(i).size() == m_versions.at(i).size();
        for (qsizetype j = 0; sameShape && j < byRow.at(i).size(); ++j)
            sameShape = byRow.at(i).at(j).name == m_versions.at(i).at(j).name;
    }
    if (!sameShape) {
        beginResetModel();
        m_models = models;
        m_versions = byRow;
        endResetModel();
        return;
    }
    m_models = models;
    m_versions = byRow;
    if (m_models.isEmpty())
        return;
    Q_EMIT dataChanged(index(0, 0), index(int(m_models.size()) - 1, ColumnCount - 1));
    for (int row = 0; row < m_models.size(); ++row) {
        const QModelIndex parent = index(row, 0);
        if (!m_versions.at(row).isEmpty())
            Q_EMIT dataChanged(index(0, 0, parent), index(int(m_versions.at(row).size()) - 1, ColumnCount - 1, parent));
    }
}

std::optional<ModelResource> DeployedModelsModel::modelAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return std::nullopt;
    const int row = index.internalId() == 0 ? index.row() : int(index.internalId() - 1);
    return row < m_models.size() ? std::optional(m_models.at(row)) : std::nullopt;
}

std::optional<VersionResource> DeployedModelsModel::versionAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this || index.internalId() == 0)
        return std::nullopt;
    const int model = int(index.internalId() - 1);
    if (model >= m_versions.size() || index.row() >= m_versions.at(model).size())
        return std::nullopt;
    return m_versions.at(model).at(index.row());
}

QStringList DeployedModelsModel::versionNames(const QString& model) const
{
    QStringList names;
    for (int row = 0; row < m_models.size(); ++row) {
        if (m_models.at(row).name == model) {
            for (const VersionResource& v : m_versions.at(row))
                names << v.name;
        }
    }
    return names;
}

QModelIndex DeployedModelsModel::indexOf(const QString& model, const QString& version) const
{
    for (int row = 0; row < m_models.size(); ++row) {
        if (m_models.at(row).name != model)
            continue;
        if (version.isEmpty())
            return index(row, 0);
        for (int v = 0; v < m_versions.at(row).size(); ++v) {
            if (m_versions.at(row).at(v).name == version)
                return index(v, 0, index(row, 0));
        }
    }
    return {};
}

bool DeployedModelsModel::hasPendingVersions() const
{
    for (const QList<VersionResource>& list : m_versions) {
        for (const VersionResource& v : list) {
            if (v.state == VersionState::Creating || v.state == VersionState::Deleting)
                return true;
        }
    }
    return false;
}

QModelIndex DeployedModelsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < m_models.size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= m_versions.size() || row >= m_versions.at(parent.row()).size())
        return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex DeployedModelsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int DeployedModelsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_models.size());
    if (parent.internalId() != 0 || parent.column() != 0 || parent.row() >= m_versions.size())
        return 0;
    return int(m_versions.at(parent.row()).size());
}

int DeployedModelsModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant DeployedModelsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    if (const std::optional<VersionResource> v = versionAt(index)) {
        switch (Column(index.column())) {
        case Name:
            return v->name;
        case State:
            if (role == Qt::ToolTipRole && !v->errorMessage.isEmpty())
                return v->errorMessage;
            return PredictionJson::versionStateName(v->state);
        case Framework:
            return v->predictionClass.isEmpty() ? PredictionJson::frameworkName(v->framework) : v->predictionClass;
        case Default:
            return v->isDefault ? tr("default") : QString();
        case Nodes:
            return v->nodes();
        case RequestRate: {
            const auto it = m_rates.constFind(v->resourceName());
            if (role == Qt::ToolTipRole)
                return tr("Requests per second over the latest 10 s (the Charts tab shows the last hour)");
            return it == m_rates.cend() ? QString() : tr("%1/s").arg(QLocale().toString(*it, 'g', 3));
        }
        case LastUse: {
            if (v->lastUseTime.isEmpty())
                return tr("never");
            const QDateTime used = Rfc3339::parse(v->lastUseTime);
            return used.isValid() ? QLocale().toString(used.toLocalTime(), QLocale::ShortFormat) : v->lastUseTime;
        }
        case Deployment:
            return v->deploymentUri;
        case ColumnCount:
            break;
        }
        return {};
    }
    if (index.internalId() != 0 || index.row() >= m_models.size())
        return {};
    const ModelResource& m = m_models.at(index.row());
    switch (Column(index.column())) {
    case Name:
        // The count beside the name: a model has no state (it read "1 version" under State; issue 46).
        //: A model's row: %1 its name, %n its versions.
        return tr("%1 (%n version(s))", nullptr, int(m_versions.at(index.row()).size())).arg(m.name);
    case State:
        return QString();
    case Default:
        return m.defaultVersion;
    case Deployment:
        return m.description;
    default:
        return {};
    }
}

void DeployedModelsModel::setRequestRate(const QString& version, double perSecond)
{
    if (m_rates.value(version, -1.0) == perSecond)
        return;
    m_rates.insert(version, perSecond);
    for (int m = 0; m < m_versions.size(); ++m) {
        for (int v = 0; v < m_versions.at(m).size(); ++v) {
            if (m_versions.at(m).at(v).resourceName() == version) {
                const QModelIndex at = index(v, RequestRate, index(m, 0));
                emit dataChanged(at, at, { Qt::DisplayRole });
            }
        }
    }
}

QVariant DeployedModelsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Name:
        return tr("Name");
    case State:
        return tr("State");
    case Framework:
        return tr("Framework");
    case Default:
        return tr("Default");
    case Nodes:
        return tr("Nodes");
    case RequestRate:
        return tr("Requests");
    case LastUse:
        return tr("Last use");
    case Deployment:
        return tr("Deployment / description");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace Trainyard
