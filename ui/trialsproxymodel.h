// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Sorting and filtering of a TrialsModel for the Trials tab: a set of states (the tab's state buttons) and a
// set of trial IDs (what the parallel-coordinates plot's brushes and top-k % filter let through). The best
// trial stays pinned at the top whatever the sort column and order (Vizier's and TensorBoard's tables keep
// the incumbent in sight). Also supplies what models/ cannot: the translated state with its icon, a star and
// a bold font for the best trial.

#include "job.h"

#include <QSet>
#include <QSortFilterProxyModel>

#include <optional>

namespace Trainyard {

class TrialsProxyModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TrialsProxyModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    /// The states shown; empty shows every state.
    QSet<JobState> states() const { return m_states; }
    /// The trial IDs shown; nullopt shows every trial.
    const std::optional<QSet<QString>>& allowedTrialIds() const { return m_allowed; }

    /// The trial ID of a proxy row (empty when out of range).
    QString trialIdAt(int row) const;

public Q_SLOTS:
    void setStates(const QSet<Trainyard::JobState>& states);
    void setAllowedTrialIds(const std::optional<QSet<QString>>& trialIds);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    void refilter();

    QSet<JobState> m_states;
    std::optional<QSet<QString>> m_allowed;
};

} // namespace Trainyard
