// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "searchspace.h"

#include <cstdint>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace Trainyard::Tuning {

/// `HyperparameterSpec.goal`.
enum class Goal { Maximize, Minimize };

/// `HyperparameterSpec.algorithm`; Unspecified is the service's default, Bayesian optimisation.
enum class Algorithm { Unspecified, GridSearch, RandomSearch };

/// A finished trial: its values and its objective (`finalMetric.objectiveValue`). A trial that failed or
/// never reported has a NaN objective: it still takes its place in the history (grid points are not
/// repeated, seeds stay aligned) but the model ignores it.
struct Observation {
    Assignment assignment;
    double objective = 0;
};

/// What suggest() answers: up to `count` assignments (fewer when a grid is exhausted; none with an
/// error), notes for the study's log (observations ignored and why), and an error that stops the study.
struct Suggestions {
    std::vector<Assignment> assignments;
    std::vector<std::string> notes;
    std::string error;
};

/// A tuning algorithm: proposes the next trials' values from the study's history.
///
/// Contract, shared by the three algorithms:
/// - suggest() is a pure function of (space, goal, seed, observations, pending, count): it keeps no state
///   between calls, so an executor that restarts and reads the same history from SQLite gets the same
///   suggestions. Observations and pending trials are taken in the order given (the study's trial order).
/// - `pending`: trials started and not finished; suggestions avoid repeating them.
/// - Any input is answered (NaN or infinite objectives, values outside the space, an empty history): bad
///   observations are skipped with a note, never a crash, an exception or a hang.
/// - Not thread-safe for one object; separate objects may run in parallel. suggest() of the Bayesian
///   optimiser takes about 6 ms of CPU at 50 trials and 11 ms at 200 (tests/bench/bench_tuning): call it
///   off the GUI thread.
class Optimizer {
public:
    virtual ~Optimizer();

    /// The next `count` (≥ 0) trials' assignments, in the order the trials should get their IDs.
    virtual Suggestions suggest(
        std::span<const Observation> observations, std::span<const Assignment> pending, int count)
        = 0;

    const SearchSpace& space() const { return m_space; }
    Goal goal() const { return m_goal; }
    std::uint64_t seed() const { return m_seed; }

protected:
    Optimizer(SearchSpace space, Goal goal, std::uint64_t seed);

    SearchSpace m_space;
    Goal m_goal;
    std::uint64_t m_seed;
};

/// The optimiser for `algorithm` over `parameters`, or nullptr with `*error` set: an invalid space
/// (SearchSpace::check()) or GRID_SEARCH over a DOUBLE parameter (the service refuses it). `seed` makes a
/// study reproducible (the runner stores one per study).
std::unique_ptr<Optimizer> makeOptimizer(Algorithm algorithm, const std::vector<ParameterSpec>& parameters, Goal goal,
    std::uint64_t seed, std::string* error);

/// The assignments already tried or running (observations' and pending trials'), without those holding a
/// NaN (a value that was never a point of the space): what grid search skips and the Bayesian optimiser
/// does not suggest again.
std::set<Assignment> seenAssignments(std::span<const Observation> observations, std::span<const Assignment> pending);

/// A 64-bit mix of `seed` and `salt` (SplitMix64's finaliser): the per-call seeds of the algorithms, so that
/// a call's randomness depends on the history's length and nothing else.
std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t salt);

} // namespace Trainyard::Tuning
