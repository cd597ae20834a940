// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobfilterproxymodel.h"

#include "joblistmodel.h"
#include "stateicons.h"

namespace Trainyard {

JobFilterProxyModel::JobFilterProxyModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(JobListModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    // Rows change in place while jobs run; keep the order and the filter current without a reset.
    setDynamicSortFilter(true);
}

QList<JobState> JobFilterProxyModel::statesOf(StateGroup group)
{
    switch (group) {
    case StateGroup::All:
        return {};
    case StateGroup::Running:
        return { JobState::Preparing, JobState::Running };
    case StateGroup::Queued:
        return { JobState::Queued };
    case StateGroup::Succeeded:
        return { JobState::Succeeded };
    case StateGroup::Failed:
        return { JobState::Failed };
    case StateGroup::Cancelled:
        return { JobState::Cancelling, JobState::Cancelled };
    }
    return {};
}

void JobFilterProxyModel::setFilterText(const QString& text)
{
    QString error;
    std::optional<JobFilter> filter;
    if (!text.trimmed().isEmpty()) {
        std::optional<JobFilter> parsed = JobFilter::parse(text, &error);
        if (!parsed) {
            if (error.isEmpty())
                error = tr("the filter does not parse");
            if (error != m_error) {
                m_error = error;
                emit filterErrorChanged(m_error);
            }
            return;
        }
        filter = std::move(parsed);
    }
    const bool hadError = !m_error.isEmpty();
    m_error.clear();
    if (hadError)
        emit filterErrorChanged(m_error);
#if QT_VERSION >= QT_VERSION_CHECK(6, 9, 0)
    beginFilterChange();
    m_filter = std::move(filter);
    endFilterChange(QSortFilterProxyModel::Direction::Rows);
#else
    m_filter = std::move(filter);
    invalidateRowsFilter();
#endif
}

void JobFilterProxyModel::setStateGroup(StateGroup group)
{
    if (group == m_group)
        return;
    m_group = group;
    m_states = statesOf(group);
#if QT_VERSION >= QT_VERSION_CHECK(6, 9, 0)
    beginFilterChange();
    endFilterChange(QSortFilterProxyModel::Direction::Rows);
#else
    invalidateRowsFilter();
#endif
}

bool JobFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (sourceParent.isValid())
        return false;
    const auto* model = qobject_cast<const JobListModel*>(sourceModel());
    const Job* job = model ? model->jobAt(sourceRow) : nullptr;
    if (!job)
        return true;
    if (!m_states.isEmpty() && !m_states.contains(job->state))
        return false;
    return !m_filter || m_filter->matches(*job);
}

bool JobFilterProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant l = left.data(JobListModel::SortRole);
    const QVariant r = right.data(JobListModel::SortRole);
    const QPartialOrdering c = QVariant::compare(l, r);
    if (c == QPartialOrdering::Less)
        return true;
    if (c == QPartialOrdering::Greater)
        return false;
    // Ties (and unordered values) fall back to the job ID so the order is stable across updates.
    return left.siblingAtColumn(JobListModel::JobIdColumn).data().toString()
        < right.siblingAtColumn(JobListModel::JobIdColumn).data().toString();
}

QVariant JobFilterProxyModel::data(const QModelIndex& index, int role) const
{
    if (index.column() == JobListModel::StateColumn) {
        const auto state = QSortFilterProxyModel::data(index, JobListModel::StateRole).value<JobState>();
        if (role == Qt::DecorationRole)
            return stateIcon(state);
        if (role == Qt::DisplayRole)
            return stateDisplayName(state);
    }
    return QSortFilterProxyModel::data(index, role);
}

} // namespace Trainyard
