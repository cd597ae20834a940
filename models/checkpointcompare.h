// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Comparing two checkpoints (issue 5, "compare two checkpoints"): which tensors were added, removed, or
// changed shape or dtype from checkpoint A ("from") to checkpoint B ("to"), and for tensors in both, how
// their statistics moved (B − A of mean, std, min, max, from the executor's `?tensor=&values=0`).
//
// Tensors are matched by stored name, then the rest by display name, so a TF1 bundle (`a`) and the same
// model's TF2 bundle (`a/.ATTRIBUTES/VARIABLE_VALUE`, shown as `a`) pair up.
//
// Statistics cost a read of the tensor's bytes on the executor, so they are fetched on demand: the view
// asks for the rows it shows (requestStatistics), the user may ask for all (requestAllStatistics), and at
// most MaxInFlight requests run at a time; the rest wait in a queue that the next request replaces.

#include "apiclient.h"
#include "checkpointmodels.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <functional>

namespace Trainyard {

class CheckpointCompareModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ChangeColumn,
        DtypeColumn,
        ShapeColumn,
        MeanDeltaColumn,
        StdDeltaColumn,
        MinDeltaColumn,
        MaxDeltaColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    /// What happened to a tensor from A to B. Values* are known only once both statistics arrived.
    enum class Change {
        Added, ///< only in B
        Removed, ///< only in A
        ShapeChanged, ///< in both, another shape (the dtype may have changed too)
        DtypeChanged, ///< in both, same shape, another dtype
        ValuesChanged, ///< same dtype and shape, statistics differ
        Unchanged, ///< same dtype and shape, same statistics
        NotCompared, ///< same dtype and shape, statistics not (yet) known ("Not compared")
    };
    Q_ENUM(Change)

    enum Role {
        ChangeRole = Qt::UserRole + 1, ///< int: Change
        DisplayNameRole, ///< QString
        NameARole, ///< QString: the tensor's stored name in A (empty when added)
        NameBRole, ///< QString: the tensor's stored name in B (empty when removed)
        StatisticsStateRole, ///< int: StatisticsState of the row (the less advanced of A and B)
    };
    Q_ENUM(Role)

    enum class StatisticsState { None, Queued, Loading, Loaded, Failed };
    Q_ENUM(StatisticsState)

    /// At most this many statistics requests are in flight at once.
    static constexpr int MaxInFlight = 4;

    /// The statistics of one tensor: `error` empty on success.
    using StatisticsCallback = std::function<void(const TensorValues& values, const QString& error)>;
    /// Fetches the statistics of `tensor` (stored name) of `checkpoint` and calls `done` once, later
    /// (never from inside the call), on the model's thread. The panel binds it to ApiClient::tensorValues
    /// with 0 values; tests bind it to anything.
    using Fetcher = std::function<void(const QString& checkpoint, const QString& tensor, StatisticsCallback done)>;

    struct Side {
        std::optional<CheckpointTensor> tensor;
        StatisticsState state = StatisticsState::None;
        TensorValues stats; ///< valid when state == Loaded
        QString error; ///< when state == Failed
    };
    struct Row {
        QString displayName;
        Side a;
        Side b;
        Change change = Change::NotCompared;
    };

    explicit CheckpointCompareModel(QObject* parent = nullptr);
    ~CheckpointCompareModel() override;

    void setFetcher(Fetcher fetcher) { m_fetcher = std::move(fetcher); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Pairs the tensors of `a` and `b` (rows: A's order, then what only B has, in B's order). Drops all
    /// statistics, the queue, and the answers of requests still in flight.
    void setCheckpoints(const CheckpointDetail& a, const CheckpointDetail& b);
    /// Empties the model (no comparison).
    void clear();

    QString checkpointA() const { return m_a; }
    QString checkpointB() const { return m_b; }
    const Row* at(int row) const;
    int rowOf(const QString& displayName) const;
    /// Rows per Change.
    QMap<Change, int> counts() const;

    /// Fetches the statistics of these rows (those in both checkpoints, not loaded yet): they replace
    /// whatever is still queued, in this order; what is in flight finishes.
    void requestStatistics(const QList<int>& rows);
    /// Queues every row in both checkpoints (for "values changed" over the whole checkpoint).
    void requestAllStatistics();
    int inFlight() const { return m_inFlight; }
    int queued() const { return int(m_queue.size()); }

    static QString changeDisplayName(Change change);

Q_SIGNALS:
    /// A statistics answer was applied (also a failure); `pending` = queued + in flight after it.
    void statisticsProgress(int pending);

private:
    struct Request {
        int row;
        bool sideB;
    };
    void pump();
    void onStatistics(quint64 generation, Request request, const TensorValues& values, const QString& error);
    void updateChange(Row& row) const;
    static StatisticsState rowState(const Row& row);

    QString m_a;
    QString m_b;
    QList<Row> m_rows;
    QList<Request> m_queue;
    int m_inFlight = 0;
    quint64 m_generation = 0;
    Fetcher m_fetcher;
};

/// Filters compare rows by kind of change and by a substring of the tensor's name; sorts by
/// CheckpointSortRole (|Δ| for the statistics columns, so the biggest moves come first in descending order).
class CheckpointCompareFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    /// What the change filter shows.
    enum class Filter {
        All,
        Differences, ///< everything but Unchanged
        Added,
        Removed,
        ShapeOrDtype, ///< ShapeChanged or DtypeChanged
        ValuesChanged,
        Unchanged,
    };
    Q_ENUM(Filter)

    explicit CheckpointCompareFilterModel(QObject* parent = nullptr);

    Filter filter() const { return m_filter; }
    static QString filterDisplayName(Filter filter);

public Q_SLOTS:
    void setFilter(Trainyard::CheckpointCompareFilterModel::Filter filter);
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    Filter m_filter = Filter::All;
    QString m_text;
};

} // namespace Trainyard
