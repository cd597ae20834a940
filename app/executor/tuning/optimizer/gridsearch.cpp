// SPDX-License-Identifier: GPL-2.0-or-later
#include "gridsearch.h"

#include <limits>
#include <set>

namespace Trainyard::Tuning {

namespace {

std::uint64_t valueCount(const ParameterSpec& p)
{
    switch (p.type) {
    case ParameterType::Integer:
        return static_cast<std::uint64_t>(p.maxValue - p.minValue) + 1;
    case ParameterType::Discrete:
        return p.discreteValues.size();
    case ParameterType::Categorical:
        return p.categoricalValues.size();
    case ParameterType::Double:
    case ParameterType::Unspecified:
        break;
    }
    return 0;
}

} // namespace

GridSearch::GridSearch(SearchSpace space, Goal goal)
    : Optimizer(std::move(space), goal, 0)
{
}

std::string GridSearch::gridError(const SearchSpace& space)
{
    for (const ParameterSpec& p : space.parameters()) {
        if (p.type == ParameterType::Double)
            return "parameter '" + p.name + "': GRID_SEARCH cannot enumerate a DOUBLE parameter";
    }
    return {};
}

std::uint64_t GridSearch::gridSize(const SearchSpace& space)
{
    if (space.isEmpty() || !gridError(space).empty())
        return 0;
    std::uint64_t size = 1;
    for (const ParameterSpec& p : space.parameters()) {
        const std::uint64_t n = valueCount(p);
        if (n != 0 && size > std::numeric_limits<std::uint64_t>::max() / n)
            return std::numeric_limits<std::uint64_t>::max();
        size *= n;
    }
    return size;
}

Assignment GridSearch::point(std::uint64_t index) const
{
    const std::vector<ParameterSpec>& params = m_space.parameters();
    Assignment a(params.size());
    // Mixed radix, last parameter least significant.
    for (std::size_t k = params.size(); k-- > 0;) {
        const ParameterSpec& p = params[k];
        const std::uint64_t n = valueCount(p);
        const std::uint64_t digit = index % n;
        index /= n;
        switch (p.type) {
        case ParameterType::Integer:
            a[k] = static_cast<std::int64_t>(p.minValue) + static_cast<std::int64_t>(digit);
            break;
        case ParameterType::Discrete:
            a[k] = p.discreteValues[digit];
            break;
        default:
            a[k] = p.categoricalValues[digit];
            break;
        }
    }
    return a;
}

Suggestions GridSearch::suggest(
    std::span<const Observation> observations, std::span<const Assignment> pending, int count)
{
    Suggestions out;
    const std::string error = gridError(m_space);
    if (!error.empty() || m_space.isEmpty()) {
        out.error = error.empty() ? std::string("the search space is empty") : error;
        return out;
    }
    std::set<Assignment> used = seenAssignments(observations, pending);
    // At most used.size() points are skipped, so this ends after used.size() + count steps.
    const std::uint64_t size = gridSize(m_space);
    for (std::uint64_t i = 0; i < size && static_cast<int>(out.assignments.size()) < count; ++i) {
        Assignment a = point(i);
        if (used.count(a) == 0)
            out.assignments.push_back(std::move(a));
    }
    return out;
}

} // namespace Trainyard::Tuning
