// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The checkpoint browser's models: the checkpoints of one job (`…/jobs/{id}/checkpoints`, newest
// first, as the executor orders them) and the tensors of one checkpoint (`…/checkpoints/{name}`).
// Display text for the views, and SortRole values (numbers, not text) for QSortFilterProxyModel.

#include "apiclient.h"

#include <QAbstractTableModel>

namespace Trainyard {

/// Role shared by both models: the value a proxy sorts a column by (qint64 for numbers, QString
/// for text; QDateTime's milliseconds for times).
inline constexpr int CheckpointSortRole = Qt::UserRole + 100;

class CheckpointListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, StepColumn, EpochColumn, TimeColumn, SizeColumn, FormatColumn, ColumnCount };
    Q_ENUM(Column)

    enum Role {
        NameRole = Qt::UserRole + 1, ///< QString: CheckpointSummary::name
        CurrentRole, ///< bool: named by the TF `checkpoint` state file
        FormatRole, ///< QString: `tf-bundle`, `tf-saved-model`, `pytorch`, `safetensors`, `keras`
        ExportedModelRole, ///< bool: the job's exported model (`model/`), not a training checkpoint
    };
    Q_ENUM(Role)

    explicit CheckpointListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Applies a listing. The same names in the same order (a refresh that found nothing new)
    /// update rows in place (dataChanged only, so selections stay); anything else resets the model.
    void setCheckpoints(const QList<CheckpointSummary>& checkpoints);

    const QList<CheckpointSummary>& checkpoints() const { return m_items; }
    const CheckpointSummary* at(int row) const;
    int rowOf(const QString& name) const;
    /// The row a view selects first: the trainer's current checkpoint, else the newest checkpoint, else the exported
    /// model (listed last: it is what a version deploys, not a checkpoint to resume from); -1 when empty.
    int defaultRow() const;

    /// "TensorFlow bundle", "SavedModel", "PyTorch", "safetensors" (translated), else the name itself.
    static QString formatDisplayName(const QString& format);

private:
    QList<CheckpointSummary> m_items;
};

class TensorTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, DtypeColumn, ShapeColumn, ElementsColumn, SizeColumn, ColumnCount };
    Q_ENUM(Column)

    enum Role {
        TensorNameRole = Qt::UserRole + 1, ///< QString: CheckpointTensor::name (what tensorValues() takes)
        DisplayNameRole, ///< QString
        MetadataRole, ///< bool: a bookkeeping entry
    };
    Q_ENUM(Role)

    explicit TensorTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setTensors(const QList<CheckpointTensor>& tensors);
    const QList<CheckpointTensor>& tensors() const { return m_tensors; }
    const CheckpointTensor* at(int row) const;

    /// "[128, 64]"; "[]" for a scalar.
    static QString shapeText(const QList<qint64>& shape);
    /// Product of the dimensions (1 for a scalar); -1 on overflow or a negative dimension.
    static qint64 elementCount(const QList<qint64>& shape);

private:
    QList<CheckpointTensor> m_tensors;
};

} // namespace Trainyard
