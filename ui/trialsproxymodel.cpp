// SPDX-License-Identifier: GPL-2.0-or-later
#include "trialsproxymodel.h"

#include "stateicons.h"
#include "trialsmodel.h"

#include <QFont>
#include <QIcon>

namespace Trainyard {

TrialsProxyModel::TrialsProxyModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(TrialsModel::SortRole);
}

QString TrialsProxyModel::trialIdAt(int row) const
{
    return row >= 0 && row < rowCount() ? index(row, 0).data(TrialsModel::TrialIdRole).toString() : QString();
}

void TrialsProxyModel::refilter()
{
#if QT_VERSION >= QT_VERSION_CHECK(6, 9, 0)
    beginFilterChange();
    endFilterChange(QSortFilterProxyModel::Direction::Rows);
#else
    invalidateRowsFilter();
#endif
}

void TrialsProxyModel::setStates(const QSet<JobState>& states)
{
    if (states == m_states)
        return;
    m_states = states;
    refilter();
}

void TrialsProxyModel::setAllowedTrialIds(const std::optional<QSet<QString>>& trialIds)
{
    if (trialIds == m_allowed)
        return;
    m_allowed = trialIds;
    refilter();
}

bool TrialsProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (sourceParent.isValid())
        return false;
    const QModelIndex source = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_states.isEmpty() && !m_states.contains(source.data(TrialsModel::StateRole).value<JobState>()))
        return false;
    return !m_allowed || m_allowed->contains(source.data(TrialsModel::TrialIdRole).toString());
}

bool TrialsProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    // The best trial first in either order: QSortFilterProxyModel sorts a descending order with
    // lessThan(right, left), so "first" is "least" ascending and "greatest" descending.
    const bool leftBest = left.data(TrialsModel::IsBestRole).toBool();
    const bool rightBest = right.data(TrialsModel::IsBestRole).toBool();
    if (leftBest != rightBest)
        return leftBest ? sortOrder() == Qt::AscendingOrder : sortOrder() == Qt::DescendingOrder;

    const QVariant l = left.data(TrialsModel::SortRole);
    const QVariant r = right.data(TrialsModel::SortRole);
    // Missing values (no objective yet, not started) go last in either order, as spreadsheets put empty cells.
    if (l.isValid() != r.isValid())
        return sortOrder() == Qt::AscendingOrder ? l.isValid() : r.isValid();
    const QPartialOrdering c = QVariant::compare(l, r);
    if (c == QPartialOrdering::Less)
        return true;
    if (c == QPartialOrdering::Greater)
        return false;
    // Ties fall back to the trial number, so the order is stable across live updates.
    return QVariant::compare(TrialsModel::trialSortKey(left.data(TrialsModel::TrialIdRole).toString()),
               TrialsModel::trialSortKey(right.data(TrialsModel::TrialIdRole).toString()))
        == QPartialOrdering::Less;
}

QVariant TrialsProxyModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (role == Qt::FontRole && index.data(TrialsModel::IsBestRole).toBool()) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (index.column() == TrialsModel::TrialColumn && role == Qt::DecorationRole
        && index.data(TrialsModel::IsBestRole).toBool()) {
        static const QIcon star(QStringLiteral(":/icons/best-trial.svg"));
        return star;
    }
    if (index.column() == TrialsModel::StateColumn) {
        const auto state = QSortFilterProxyModel::data(index, TrialsModel::StateRole).value<JobState>();
        if (role == Qt::DecorationRole)
            return stateIcon(state);
        if (role == Qt::DisplayRole)
            return stateDisplayName(state);
    }
    return QSortFilterProxyModel::data(index, role);
}

} // namespace Trainyard
