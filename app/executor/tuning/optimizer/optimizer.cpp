// SPDX-License-Identifier: GPL-2.0-or-later
#include "optimizer.h"

#include "bayesianoptimizer.h"
#include "gridsearch.h"
#include "randomsearch.h"

namespace Trainyard::Tuning {

Optimizer::Optimizer(SearchSpace space, Goal goal, std::uint64_t seed)
    : m_space(std::move(space))
    , m_goal(goal)
    , m_seed(seed)
{
}

Optimizer::~Optimizer() = default;

std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t salt)
{
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (salt + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::set<Assignment> seenAssignments(std::span<const Observation> observations, std::span<const Assignment> pending)
{
    std::set<Assignment> seen;
    for (const Observation& o : observations) {
        if (!SearchSpace::hasNaN(o.assignment))
            seen.insert(o.assignment);
    }
    for (const Assignment& a : pending) {
        if (!SearchSpace::hasNaN(a))
            seen.insert(a);
    }
    return seen;
}

std::unique_ptr<Optimizer> makeOptimizer(Algorithm algorithm, const std::vector<ParameterSpec>& parameters, Goal goal,
    std::uint64_t seed, std::string* error)
{
    std::string why = SearchSpace::check(parameters);
    SearchSpace space(parameters);
    if (why.empty() && algorithm == Algorithm::GridSearch)
        why = GridSearch::gridError(space);
    if (!why.empty()) {
        if (error)
            *error = why;
        return nullptr;
    }
    switch (algorithm) {
    case Algorithm::GridSearch:
        return std::make_unique<GridSearch>(std::move(space), goal);
    case Algorithm::RandomSearch:
        return std::make_unique<RandomSearch>(std::move(space), goal, seed);
    case Algorithm::Unspecified:
        break;
    }
    return std::make_unique<BayesianOptimizer>(std::move(space), goal, seed);
}

} // namespace Trainyard::Tuning
