// SPDX-License-Identifier: GPL-2.0-or-later
#include "metricrunsmodel.h"

#include "metricsmodel.h"

#include <QCoreApplication>

namespace Trainyard {

MetricRunsModel::MetricRunsModel(const MetricsModel* metrics, QObject* parent)
    : QAbstractListModel(parent)
    , m_metrics(metrics)
{
    connect(metrics, &MetricsModel::seriesAdded, this, &MetricRunsModel::onSeriesAdded);
    connect(metrics, &MetricsModel::cleared, this, &MetricRunsModel::onCleared);
    connect(metrics, &MetricsModel::labelsChanged, this, &MetricRunsModel::onLabelsChanged);
    for (int i = 0; i < metrics->seriesCount(); ++i)
        onSeriesAdded(i);
}

int MetricRunsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

QVariant MetricRunsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Run& run = m_runs.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return m_metrics->seriesLabel(run.firstSeries);
    case Qt::DecorationRole:
        return run.color.isValid() ? QVariant(run.color) : QVariant();
    case Qt::CheckStateRole:
        return m_unchecked.contains(run.key) ? Qt::Unchecked : Qt::Checked;
    case Qt::ToolTipRole:
        return QCoreApplication::translate("Trainyard::MetricRunsModel", "%1: %n chart(s)", nullptr, run.seriesCount)
            .arg(run.key);
    case RunKeyRole:
        return run.key;
    case SeriesCountRole:
        return run.seriesCount;
    default:
        return {};
    }
}

bool MetricRunsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::CheckStateRole
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const bool checked = value.toInt() == Qt::Checked;
    const QString& key = m_runs.at(index.row()).key;
    if (m_unchecked.contains(key) != checked)
        return true;
    if (checked)
        m_unchecked.remove(key);
    else
        m_unchecked.insert(key);
    Q_EMIT dataChanged(index, index, { Qt::CheckStateRole });
    Q_EMIT checkedChanged();
    return true;
}

Qt::ItemFlags MetricRunsModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemNeverHasChildren;
}

QSet<QString> MetricRunsModel::uncheckedRuns() const
{
    return m_unchecked;
}

void MetricRunsModel::setChecked(const QStringList& keys, bool checked)
{
    bool changed = false;
    for (const QString& key : keys) {
        const int row = rowOf(key);
        if (row < 0 || m_unchecked.contains(key) != checked)
            continue;
        if (checked)
            m_unchecked.remove(key);
        else
            m_unchecked.insert(key);
        changed = true;
        Q_EMIT dataChanged(index(row), index(row), { Qt::CheckStateRole });
    }
    if (changed)
        Q_EMIT checkedChanged();
}

int MetricRunsModel::rowOf(const QString& key) const
{
    return m_rowByKey.value(key, -1);
}

void MetricRunsModel::setColor(const QString& key, const QColor& color)
{
    const int row = rowOf(key);
    if (row < 0 || m_runs[row].color == color)
        return;
    m_runs[row].color = color;
    Q_EMIT dataChanged(index(row), index(row), { Qt::DecorationRole });
}

void MetricRunsModel::onSeriesAdded(int series)
{
    const QString key = m_metrics->runKey(series);
    const int row = rowOf(key);
    if (row >= 0) {
        ++m_runs[row].seriesCount;
        Q_EMIT dataChanged(index(row), index(row), { Qt::ToolTipRole, SeriesCountRole });
        return;
    }
    const int at = int(m_runs.size());
    beginInsertRows({}, at, at);
    m_runs.append({ key, series, 1, {} });
    m_rowByKey.insert(key, at);
    endInsertRows();
}

void MetricRunsModel::onCleared()
{
    if (m_runs.isEmpty())
        return;
    beginResetModel();
    m_runs.clear();
    m_rowByKey.clear();
    endResetModel();
}

void MetricRunsModel::onLabelsChanged()
{
    if (!m_runs.isEmpty())
        Q_EMIT dataChanged(index(0), index(int(m_runs.size()) - 1), { Qt::DisplayRole });
}

} // namespace Trainyard
