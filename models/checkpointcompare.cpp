// SPDX-License-Identifier: GPL-2.0-or-later
#include "checkpointcompare.h"
#include "numberformat.h"

#include <QHash>
#include <QPointer>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {

QString signedNumber(double v)
{
    if (v > 0 && !std::isinf(v))
        return QLatin1Char('+') + formatSignificant(v);
    return formatSignificant(v);
}

/// True when the statistics say something about finite values (an all-NaN tensor has no mean).
bool hasFinite(const TensorValues& v)
{
    return v.count > v.nanCount + v.infCount;
}

double statistic(const TensorValues& v, int column)
{
    switch (column) {
    case CheckpointCompareModel::MeanDeltaColumn:
        return v.mean;
    case CheckpointCompareModel::StdDeltaColumn:
        return v.std;
    case CheckpointCompareModel::MinDeltaColumn:
        return v.min;
    case CheckpointCompareModel::MaxDeltaColumn:
        return v.max;
    default:
        return 0;
    }
}
} // namespace

CheckpointCompareModel::CheckpointCompareModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

CheckpointCompareModel::~CheckpointCompareModel() = default;

int CheckpointCompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CheckpointCompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CheckpointCompareModel::changeDisplayName(Change change)
{
    switch (change) {
    case Change::Added:
        return tr("Added");
    case Change::Removed:
        return tr("Removed");
    case Change::ShapeChanged:
        return tr("Shape changed");
    case Change::DtypeChanged:
        return tr("Type changed");
    case Change::ValuesChanged:
        return tr("Values changed");
    case Change::Unchanged:
        return tr("Unchanged");
    case Change::NotCompared:
        return tr("Not compared");
    }
    return {};
}

CheckpointCompareModel::StatisticsState CheckpointCompareModel::rowState(const Row& row)
{
    if (!row.a.tensor || !row.b.tensor)
        return StatisticsState::None;
    // The less advanced side tells what the row waits for; a failure wins over everything.
    if (row.a.state == StatisticsState::Failed || row.b.state == StatisticsState::Failed)
        return StatisticsState::Failed;
    return std::min(row.a.state, row.b.state);
}

QVariant CheckpointCompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows.at(index.row());
    const int column = index.column();
    const bool statsColumn = column >= MeanDeltaColumn && column <= MaxDeltaColumn;
    const StatisticsState state = rowState(r);
    const bool deltaKnown = state == StatisticsState::Loaded && hasFinite(r.a.stats) && hasFinite(r.b.stats);

    switch (role) {
    case ChangeRole:
        return int(r.change);
    case DisplayNameRole:
        return r.displayName;
    case NameARole:
        return r.a.tensor ? r.a.tensor->name : QString();
    case NameBRole:
        return r.b.tensor ? r.b.tensor->name : QString();
    case StatisticsStateRole:
        return int(state);
    case Qt::TextAlignmentRole:
        if (statsColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (column == NameColumn) {
            QStringList names;
            if (r.a.tensor && r.a.tensor->name != r.displayName)
                names << tr("Stored in A as %1").arg(r.a.tensor->name);
            if (r.b.tensor && r.b.tensor->name != r.displayName)
                names << tr("Stored in B as %1").arg(r.b.tensor->name);
            return names.isEmpty() ? r.displayName : r.displayName + QLatin1Char('\n') + names.join(QLatin1Char('\n'));
        }
        if (statsColumn) {
            if (state == StatisticsState::Failed)
                return tr("No statistics: %1").arg(!r.a.error.isEmpty() ? r.a.error : r.b.error);
            if (state == StatisticsState::Loaded)
                return tr("A: %1\nB: %2")
                    .arg(
                        hasFinite(r.a.stats) ? formatSignificant(statistic(r.a.stats, column)) : tr("no finite values"),
                        hasFinite(r.b.stats) ? formatSignificant(statistic(r.b.stats, column))
                                             : tr("no finite values"));
        }
        return {};
    case CheckpointSortRole:
        switch (Column(column)) {
        case NameColumn:
            return r.displayName;
        case ChangeColumn:
            return int(r.change);
        case DtypeColumn:
            return r.b.tensor ? r.b.tensor->dtype : r.a.tensor->dtype;
        case ShapeColumn:
            return TensorTableModel::elementCount(r.b.tensor ? r.b.tensor->shape : r.a.tensor->shape);
        case MeanDeltaColumn:
        case StdDeltaColumn:
        case MinDeltaColumn:
        case MaxDeltaColumn:
            // Unknown deltas sort below every known one.
            return deltaKnown ? std::abs(statistic(r.b.stats, column) - statistic(r.a.stats, column)) : -1.0;
        case ColumnCount:
            break;
        }
        return {};
    case Qt::DisplayRole:
        switch (Column(column)) {
        case NameColumn:
            return r.displayName;
        case ChangeColumn:
            return changeDisplayName(r.change);
        case DtypeColumn:
            if (r.a.tensor && r.b.tensor && r.a.tensor->dtype != r.b.tensor->dtype)
                return tr("%1 → %2").arg(r.a.tensor->dtype, r.b.tensor->dtype);
            return r.b.tensor ? r.b.tensor->dtype : r.a.tensor->dtype;
        case ShapeColumn:
            if (r.a.tensor && r.b.tensor && r.a.tensor->shape != r.b.tensor->shape)
                return tr("%1 → %2").arg(
                    TensorTableModel::shapeText(r.a.tensor->shape), TensorTableModel::shapeText(r.b.tensor->shape));
            return TensorTableModel::shapeText(r.b.tensor ? r.b.tensor->shape : r.a.tensor->shape);
        case MeanDeltaColumn:
        case StdDeltaColumn:
        case MinDeltaColumn:
        case MaxDeltaColumn:
            switch (state) {
            case StatisticsState::None:
            case StatisticsState::Queued:
                return QString();
            case StatisticsState::Loading:
                return QStringLiteral("…");
            case StatisticsState::Failed:
                return QStringLiteral("—");
            case StatisticsState::Loaded:
                return deltaKnown ? signedNumber(statistic(r.b.stats, column) - statistic(r.a.stats, column))
                                  : QStringLiteral("—");
            }
            return {};
        case ColumnCount:
            break;
        }
        return {};
    default:
        return {};
    }
}

QVariant CheckpointCompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole && section >= MeanDeltaColumn && section <= MaxDeltaColumn)
        return tr("Statistic of B minus that of A, over the finite values");
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case NameColumn:
        return tr("Tensor");
    case ChangeColumn:
        return tr("Change");
    case DtypeColumn:
        return tr("Type");
    case ShapeColumn:
        return tr("Shape");
    case MeanDeltaColumn:
        return tr("Δ mean");
    case StdDeltaColumn:
        return tr("Δ std");
    case MinDeltaColumn:
        return tr("Δ min");
    case MaxDeltaColumn:
        return tr("Δ max");
    case ColumnCount:
        break;
    }
    return {};
}

void CheckpointCompareModel::updateChange(Row& row) const
{
    const std::optional<CheckpointTensor>& a = row.a.tensor;
    const std::optional<CheckpointTensor>& b = row.b.tensor;
    if (!a) {
        row.change = Change::Added;
    } else if (!b) {
        row.change = Change::Removed;
    } else if (a->shape != b->shape) {
        row.change = Change::ShapeChanged;
    } else if (a->dtype != b->dtype) {
        row.change = Change::DtypeChanged;
    } else if (row.a.state == StatisticsState::Loaded && row.b.state == StatisticsState::Loaded) {
        const TensorValues& x = row.a.stats;
        const TensorValues& y = row.b.stats;
        // Exact comparison: a checkpoint that was copied, or a tensor that training did not touch, has the
        // same bytes and so the same statistics; any update moves at least one of them.
        const bool same = x.count == y.count && x.nanCount == y.nanCount && x.infCount == y.infCount
            && (!hasFinite(x) || (x.min == y.min && x.max == y.max && x.mean == y.mean && x.std == y.std));
        row.change = same ? Change::Unchanged : Change::ValuesChanged;
    } else {
        row.change = Change::NotCompared;
    }
}

void CheckpointCompareModel::setCheckpoints(const CheckpointDetail& a, const CheckpointDetail& b)
{
    beginResetModel();
    ++m_generation; // answers of requests still in flight are dropped
    m_inFlight = 0;
    m_queue.clear();
    m_rows.clear();
    m_a = a.name;
    m_b = b.name;

    QHash<QString, qsizetype> bByName;
    for (qsizetype i = 0; i < b.tensors.size(); ++i)
        bByName.insert(b.tensors.at(i).name, i);
    QList<bool> bUsed(b.tensors.size(), false);
    QList<qsizetype> aMatch(a.tensors.size(), -1);
    for (qsizetype i = 0; i < a.tensors.size(); ++i) {
        const auto it = bByName.constFind(a.tensors.at(i).name);
        if (it != bByName.constEnd() && !bUsed.at(*it)) {
            aMatch[i] = *it;
            bUsed[*it] = true;
        }
    }
    // Second pass: what the stored names did not pair, by display name (TF1 `a` vs TF2 `a/.ATTRIBUTES/…`).
    QMultiHash<QString, qsizetype> bByDisplay;
    for (qsizetype i = b.tensors.size() - 1; i >= 0; --i) {
        if (!bUsed.at(i))
            bByDisplay.insert(b.tensors.at(i).displayName, i);
    }
    for (qsizetype i = 0; i < a.tensors.size(); ++i) {
        if (aMatch.at(i) >= 0)
            continue;
        const QString& display = a.tensors.at(i).displayName;
        for (auto it = bByDisplay.find(display); it != bByDisplay.end() && it.key() == display; ++it) {
            if (!bUsed.at(*it)) {
                aMatch[i] = *it;
                bUsed[*it] = true;
                break;
            }
        }
    }

    m_rows.reserve(a.tensors.size() + b.tensors.size());
    for (qsizetype i = 0; i < a.tensors.size(); ++i) {
        Row row;
        row.a.tensor = a.tensors.at(i);
        row.displayName = a.tensors.at(i).displayName;
        if (aMatch.at(i) >= 0) {
            row.b.tensor = b.tensors.at(aMatch.at(i));
            // A metadata entry has no values to compare.
            if (row.a.tensor->metadata || row.b.tensor->metadata) {
                row.a.state = row.b.state = StatisticsState::Failed;
                row.a.error = tr("a bookkeeping entry has no values");
            }
        }
        updateChange(row);
        m_rows.append(std::move(row));
    }
    for (qsizetype i = 0; i < b.tensors.size(); ++i) {
        if (bUsed.at(i))
            continue;
        Row row;
        row.b.tensor = b.tensors.at(i);
        row.displayName = b.tensors.at(i).displayName;
        updateChange(row);
        m_rows.append(std::move(row));
    }
    endResetModel();
}

void CheckpointCompareModel::clear()
{
    beginResetModel();
    ++m_generation;
    m_inFlight = 0;
    m_queue.clear();
    m_rows.clear();
    m_a.clear();
    m_b.clear();
    endResetModel();
}

const CheckpointCompareModel::Row* CheckpointCompareModel::at(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int CheckpointCompareModel::rowOf(const QString& displayName) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).displayName == displayName)
            return int(i);
    }
    return -1;
}

QMap<CheckpointCompareModel::Change, int> CheckpointCompareModel::counts() const
{
    QMap<Change, int> result;
    for (const Row& row : m_rows)
        ++result[row.change];
    return result;
}

void CheckpointCompareModel::requestStatistics(const QList<int>& rows)
{
    // The new request replaces what is still waiting: those rows go back to "not requested".
    QSet<int> touched;
    for (const Request& q : std::as_const(m_queue)) {
        Side& side = q.sideB ? m_rows[q.row].b : m_rows[q.row].a;
        side.state = StatisticsState::None;
        touched.insert(q.row);
    }
    m_queue.clear();
    for (int r : rows) {
        if (r < 0 || r >= m_rows.size())
            continue;
        Row& row = m_rows[r];
        if (!row.a.tensor || !row.b.tensor)
            continue;
        for (bool sideB : { false, true }) {
            Side& side = sideB ? row.b : row.a;
            if (side.state != StatisticsState::None)
                continue;
            side.state = StatisticsState::Queued;
            m_queue.append({ r, sideB });
            touched.insert(r);
        }
    }
    if (!touched.isEmpty()) {
        // One signal for the span: thousands of per-row signals would each wake the proxy.
        const auto [lo, hi] = std::minmax_element(touched.cbegin(), touched.cend());
        emit dataChanged(index(*lo, 0), index(*hi, ColumnCount - 1));
    }
    pump();
}

void CheckpointCompareModel::requestAllStatistics()
{
    QList<int> rows;
    rows.reserve(m_rows.size());
    // Keep what was asked before first: it is what the user is looking at.
    for (const Request& q : std::as_const(m_queue)) {
        if (rows.isEmpty() || rows.constLast() != q.row)
            rows.append(q.row);
    }
    for (int r = 0; r < m_rows.size(); ++r)
        rows.append(r);
    requestStatistics(rows);
}

void CheckpointCompareModel::pump()
{
    if (!m_fetcher)
        return;
    while (m_inFlight < MaxInFlight && !m_queue.isEmpty()) {
        const Request request = m_queue.takeFirst();
        Row& row = m_rows[request.row];
        Side& side = request.sideB ? row.b : row.a;
        side.state = StatisticsState::Loading;
        ++m_inFlight;
        emit dataChanged(index(request.row, 0), index(request.row, ColumnCount - 1));
        const quint64 generation = m_generation;
        QPointer<CheckpointCompareModel> self(this);
        m_fetcher(request.sideB ? m_b : m_a, side.tensor->name,
            [self, generation, request](const TensorValues& values, const QString& error) {
                if (self)
                    self->onStatistics(generation, request, values, error);
            });
    }
}

void CheckpointCompareModel::onStatistics(
    quint64 generation, Request request, const TensorValues& values, const QString& error)
{
    if (generation != m_generation || request.row >= m_rows.size())
        return;
    --m_inFlight;
    Row& row = m_rows[request.row];
    Side& side = request.sideB ? row.b : row.a;
    if (error.isEmpty()) {
        side.state = StatisticsState::Loaded;
        side.stats = values;
        side.stats.values.clear(); // only the statistics are kept
    } else {
        side.state = StatisticsState::Failed;
        side.error = error;
    }
    updateChange(row);
    emit dataChanged(index(request.row, 0), index(request.row, ColumnCount - 1));
    pump();
    emit statisticsProgress(int(m_queue.size()) + m_inFlight);
}

CheckpointCompareFilterModel::CheckpointCompareFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CheckpointSortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    // A row's change moves from "In both" to "Values changed" when its statistics arrive.
    setDynamicSortFilter(true);
}

QString CheckpointCompareFilterModel::filterDisplayName(Filter filter)
{
    switch (filter) {
    case Filter::All:
        return tr("All tensors");
    case Filter::Differences:
        return tr("All differences");
    case Filter::Added:
        return tr("Added");
    case Filter::Removed:
        return tr("Removed");
    case Filter::ShapeOrDtype:
        return tr("Shape or type changed");
    case Filter::ValuesChanged:
        return tr("Values changed");
    case Filter::Unchanged:
        return tr("Unchanged");
    }
    return {};
}

void CheckpointCompareFilterModel::setFilter(Filter filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    invalidateRowsFilter();
}

void CheckpointCompareFilterModel::setFilterText(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateRowsFilter();
}

bool CheckpointCompareFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    using Change = CheckpointCompareModel::Change;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto change = Change(index.data(CheckpointCompareModel::ChangeRole).toInt());
    bool accepted = true;
    switch (m_filter) {
    case Filter::All:
        break;
    case Filter::Differences:
        accepted = change != Change::Unchanged;
        break;
    case Filter::Added:
        accepted = change == Change::Added;
        break;
    case Filter::Removed:
        accepted = change == Change::Removed;
        break;
    case Filter::ShapeOrDtype:
        accepted = change == Change::ShapeChanged || change == Change::DtypeChanged;
        break;
    case Filter::ValuesChanged:
        accepted = change == Change::ValuesChanged;
        break;
    case Filter::Unchanged:
        accepted = change == Change::Unchanged;
        break;
    }
    if (!accepted || m_text.isEmpty())
        return accepted;
    for (int role : { int(CheckpointCompareModel::DisplayNameRole), int(CheckpointCompareModel::NameARole),
             int(CheckpointCompareModel::NameBRole) }) {
        if (index.data(role).toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace Trainyard
