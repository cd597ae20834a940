// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Sorting and filtering of the job list: the service's filter syntax (models/jobfilter.h, e.g.
// `jobId:fmnist* AND state:RUNNING`) typed by the user, and quick state filters (toolbar toggles).
// Also supplies the state column's icon, since models/ has no GUI types.

#include "jobfilter.h"

#include <QList>
#include <QSortFilterProxyModel>

#include <optional>

namespace Trainyard {

class JobFilterProxyModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    /// Quick filters: groups of states.
    enum class StateGroup { All, Running, Queued, Succeeded, Failed, Cancelled };
    Q_ENUM(StateGroup)

    explicit JobFilterProxyModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    /// The filter text's parse error (empty when it parses).
    QString filterError() const { return m_error; }
    StateGroup stateGroup() const { return m_group; }
    /// The states a group shows (empty for All).
    static QList<JobState> statesOf(StateGroup group);

public Q_SLOTS:
    /// Applies a filter in the service's syntax; an empty text shows every job. A text that does not
    /// parse keeps the previous filter and emits filterErrorChanged().
    void setFilterText(const QString& text);
    void setStateGroup(Trainyard::JobFilterProxyModel::StateGroup group);

Q_SIGNALS:
    void filterErrorChanged(const QString& error);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    std::optional<JobFilter> m_filter;
    QString m_error;
    StateGroup m_group = StateGroup::All;
    QList<JobState> m_states; ///< empty: every state
};

} // namespace Trainyard
