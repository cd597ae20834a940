// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "optimizer.h"

#include <random>

namespace Trainyard::Tuning {

/// RANDOM_SEARCH: independent samples, each parameter drawn on its own.
/// - DOUBLE: uniform in the warped space, so the scale type decides the distribution (UNIT_LOG_SCALE is
///   log-uniform: the median on [1e-4, 1e-1] is 10^-2.5).
/// - INTEGER: the same over [min − 0.5, max + 0.5], then rounded (uniform over the integers on a linear scale).
/// - DISCRETE and CATEGORICAL: uniform over the listed values (the scale type of a DISCRETE parameter shapes
///   only the Bayesian optimiser's distances).
/// Suggestion k of a call uses a generator seeded from (seed, observations + pending + k), so a restarted
/// study draws the same values, and a sample is never repeated by a later call with a longer history unless by
/// chance in a finite space.
class RandomSearch final : public Optimizer {
public:
    /// `goal` plays no part in the samples; it is kept for the caller.
    RandomSearch(SearchSpace space, Goal goal, std::uint64_t seed);

    /// One sample from `rng`, in the way described above.
    static Assignment sample(const SearchSpace& space, std::mt19937_64& rng);

    Suggestions suggest(
        std::span<const Observation> observations, std::span<const Assignment> pending, int count) override;
};

} // namespace Trainyard::Tuning
