// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "optimizer.h"

namespace Trainyard::Tuning {

/// GRID_SEARCH: every combination of the parameters' values once. Values per parameter: each integer of an
/// INTEGER range, each DISCRETE value, each category, in the order given; DOUBLE has no grid (the service
/// refuses it: use makeOptimizer(), which reports it). Combinations are enumerated like nested loops with the
/// last parameter innermost (Python's itertools.product), so point 0 takes every parameter's first value.
///
/// suggest() returns the first grid points, in that order, that are neither observed nor pending; fewer than
/// `count` (possibly none) once the grid is exhausted, which is where the study stops.
class GridSearch final : public Optimizer {
public:
    /// `space` must hold no DOUBLE parameter (see gridError()). `goal` plays no part in the order.
    explicit GridSearch(SearchSpace space, Goal goal = Goal::Maximize);

    /// Why `space` has no grid ("" when it has one): a DOUBLE parameter.
    static std::string gridError(const SearchSpace& space);

    /// Number of grid points (the wizard shows it; the study runs min(maxTrials, size) trials). Saturates at
    /// UINT64_MAX.
    static std::uint64_t gridSize(const SearchSpace& space);

    /// Grid point `index` (< gridSize()).
    Assignment point(std::uint64_t index) const;

    Suggestions suggest(
        std::span<const Observation> observations, std::span<const Assignment> pending, int count) override;
};

} // namespace Trainyard::Tuning
