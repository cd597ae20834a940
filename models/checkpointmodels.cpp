// SPDX-License-Identifier: GPL-2.0-or-later
#include "checkpointmodels.h"

#include <QDateTime>
#include <QLocale>

#include <limits>

namespace Trainyard {

CheckpointListModel::CheckpointListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int CheckpointListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int CheckpointListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CheckpointListModel::formatDisplayName(const QString& format)
{
    if (format == QLatin1String("tf-bundle"))
        return tr("TensorFlow bundle");
    if (format == QLatin1String("tf-saved-model"))
        return tr("SavedModel");
    if (format == QLatin1String("pytorch"))
        return tr("PyTorch");
    if (format == QLatin1String("safetensors"))
        return tr("safetensors");
    if (format == QLatin1String("keras"))
        return tr("Keras");
    return format;
}

QVariant CheckpointListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CheckpointSummary& c = m_items.at(index.row());
    switch (role) {
    case NameRole:
        return c.name;
    case CurrentRole:
        return c.current;
    case FormatRole:
        return c.format;
    case ExportedModelRole:
        return c.exportedModel;
    case Qt::ToolTipRole:
        if (index.column() == NameColumn && c.exportedModel)
            return tr("%1\nThe job's exported model (its model/ folder, what Deploy Model… deploys), not a training "
                      "checkpoint")
                .arg(c.name);
        if (index.column() == NameColumn)
            return c.current ? tr("%1\nThe latest checkpoint (named by the \"checkpoint\" state file)").arg(c.name)
                             : c.name;
        return {};

    case Qt::TextAlignmentRole:
        if (index.column() == StepColumn || index.column() == EpochColumn || index.column() == SizeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case CheckpointSortRole:
        switch (Column(index.column())) {
        case NameColumn:
            return c.name;
        case StepColumn:
            return c.step.value_or(-1);
        case EpochColumn:
            return c.epoch.value_or(-1);
        case TimeColumn:
            return c.updateTimeMs;
        case SizeColumn:
            return c.sizeBytes;
        case FormatColumn:
            return c.format;
        case ColumnCount:
            break;
        }
        return {};
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case NameColumn:
            if (c.exportedModel)
                //: A row of the Checkpoints tab: %1 is the exported model's file (model/model.pt).
                return tr("Model: %1").arg(c.name);
            return c.current ? tr("%1 (current)").arg(c.name) : c.name;
        case StepColumn:
            return c.step ? QLocale().toString(*c.step) : QString();
        case EpochColumn:
            return c.epoch ? QLocale().toString(*c.epoch) : QString();
        case TimeColumn:
            return c.updateTimeMs > 0 ? QLocale().toString(QDateTime::fromMSecsSinceEpoch(c.updateTimeMs).toLocalTime(),
                       QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                                      : QString();
        case SizeColumn:
            return QLocale().formattedDataSize(c.sizeBytes);
        case FormatColumn:
            //: %1 is the model's format (PyTorch, SavedModel …).
            return c.exportedModel ? tr("%1, exported model").arg(formatDisplayName(c.format))
                                   : formatDisplayName(c.format);
        case ColumnCount:
            break;
        }
        return {};
    default:
        return {};
    }
}

QVariant CheckpointListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case NameColumn:
        return tr("Checkpoint");
    case StepColumn:
        return tr("Step");
    case EpochColumn:
        return tr("Epoch");
    case TimeColumn:
        return tr("Written");
    case SizeColumn:
        return tr("Size");
    case FormatColumn:
        return tr("Format");
    case ColumnCount:
        break;
    }
    return {};
}

void CheckpointListModel::setCheckpoints(const QList<CheckpointSummary>& checkpoints)
{
    bool sameRows = checkpoints.size() == m_items.size();
    for (qsizetype i = 0; sameRows && i < checkpoints.size(); ++i)
        sameRows = checkpoints.at(i).name == m_items.at(i).name;
    if (!sameRows) {
        beginResetModel();
        m_items = checkpoints;
        endResetModel();
        return;
    }
    for (qsizetype i = 0; i < checkpoints.size(); ++i) {
        if (checkpoints.at(i) == m_items.at(i))
            continue;
        m_items[i] = checkpoints.at(i);
        emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
}

const CheckpointSummary* CheckpointListModel::at(int row) const
{
    return row >= 0 && row < m_items.size() ? &m_items.at(row) : nullptr;
}

int CheckpointListModel::defaultRow() const
{
    int newest = -1;
    for (int row = 0; row < m_items.size(); ++row) {
        const CheckpointSummary& c = m_items.at(row);
        if (c.exportedModel)
            continue;
        if (c.current)
            return row;
        if (newest < 0)
            newest = row;
    }
    return newest >= 0 ? newest : (m_items.isEmpty() ? -1 : 0);
}

int CheckpointListModel::rowOf(const QString& name) const
{
    for (qsizetype i = 0; i < m_items.size(); ++i) {
        if (m_items.at(i).name == name)
            return int(i);
    }
    return -1;
}

TensorTableModel::TensorTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int TensorTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_tensors.size());
}

int TensorTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString TensorTableModel::shapeText(const QList<qint64>& shape)
{
    QStringList dims;
    dims.reserve(shape.size());
    for (qint64 d : shape)
        dims.append(QString::number(d));
    return QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']');
}

qint64 TensorTableModel::elementCount(const QList<qint64>& shape)
{
    qint64 n = 1;
    for (qint64 d : shape) {
        if (d < 0 || (d > 0 && n > std::numeric_limits<qint64>::max() / d))
            return -1;
        n *= d;
    }
    return n;
}

QVariant TensorTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CheckpointTensor& t = m_tensors.at(index.row());
    switch (role) {
    case TensorNameRole:
        return t.name;
    case DisplayNameRole:
        return t.displayName;
    case MetadataRole:
        return t.metadata;
    case Qt::ToolTipRole:
        if (index.column() == NameColumn && t.name != t.displayName)
            return tr("%1\nStored as %2").arg(t.displayName, t.name);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == ElementsColumn || index.column() == SizeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case CheckpointSortRole:
        switch (Column(index.column())) {
        case NameColumn:
            return t.displayName;
        case DtypeColumn:
            return t.dtype;
        case ShapeColumn:
            return qint64(t.shape.size()) * 1'000'000'000 + std::min<qint64>(elementCount(t.shape), 999'999'999);
        case ElementsColumn:
            return elementCount(t.shape);
        case SizeColumn:
            return t.sizeBytes;
        case ColumnCount:
            break;
        }
        return {};
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case NameColumn:
            return t.displayName;
        case DtypeColumn:
            return t.dtype;
        case ShapeColumn:
            return shapeText(t.shape);
        case ElementsColumn: {
            const qint64 n = elementCount(t.shape);
            return n < 0 ? QString() : QLocale().toString(n);
        }
        case SizeColumn:
            return t.sizeBytes < 0 ? QString() : QLocale().formattedDataSize(t.sizeBytes);
        case ColumnCount:
            break;
        }
        return {};
    default:
        return {};
    }
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case NameColumn:
        return tr("Tensor");
    case DtypeColumn:
        return tr("Type");
    case ShapeColumn:
        return tr("Shape");
    case ElementsColumn:
        return tr("Elements");
    case SizeColumn:
        return tr("Size");
    case ColumnCount:
        break;
    }
    return {};
}

void TensorTableModel::setTensors(const QList<CheckpointTensor>& tensors)
{
    beginResetModel();
    m_tensors = tensors;
    endResetModel();
}

const CheckpointTensor* TensorTableModel::at(int row) const
{
    return row >= 0 && row < m_tensors.size() ? &m_tensors.at(row) : nullptr;
}

} // namespace Trainyard
