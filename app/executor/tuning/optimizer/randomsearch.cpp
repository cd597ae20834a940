// SPDX-License-Identifier: GPL-2.0-or-later
#include "randomsearch.h"

#include <algorithm>
#include <cmath>

namespace Trainyard::Tuning {

namespace {

// 53 random bits in [0, 1): std::uniform_real_distribution's output is implementation-defined, and a
// study's suggestions must not change with the standard library.
double unit(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

std::size_t index(std::mt19937_64& rng, std::size_t n)
{
    return std::min(n - 1, static_cast<std::size_t>(unit(rng) * static_cast<double>(n)));
}

} // namespace

RandomSearch::RandomSearch(SearchSpace space, Goal goal, std::uint64_t seed)
    : Optimizer(std::move(space), goal, seed)
{
}

Assignment RandomSearch::sample(const SearchSpace& space, std::mt19937_64& rng)
{
    Assignment a;
    const std::vector<ParameterSpec>& params = space.parameters();
    for (std::size_t i = 0; i < params.size(); ++i) {
        const ParameterSpec& p = params[i];
        switch (p.type) {
        case ParameterType::Double:
        case ParameterType::Unspecified:
            a.emplace_back(space.unwarp(static_cast<int>(i), unit(rng)));
            break;
        case ParameterType::Integer: {
            const double v
                = std::clamp(std::round(space.unwarp(static_cast<int>(i), unit(rng))), p.minValue, p.maxValue);
            a.emplace_back(static_cast<std::int64_t>(v));
            break;
        }
        case ParameterType::Discrete:
            a.emplace_back(p.discreteValues[index(rng, p.discreteValues.size())]);
            break;
        case ParameterType::Categorical:
            a.emplace_back(p.categoricalValues[index(rng, p.categoricalValues.size())]);
            break;
        }
    }
    return a;
}

Suggestions RandomSearch::suggest(
    std::span<const Observation> observations, std::span<const Assignment> pending, int count)
{
    Suggestions out;
    if (m_space.isEmpty()) {
        out.error = "the search space is empty";
        return out;
    }
    const std::uint64_t first = observations.size() + pending.size();
    for (int k = 0; k < count; ++k) {
        std::mt19937_64 rng(mixSeed(m_seed, first + static_cast<std::uint64_t>(k)));
        out.assignments.push_back(sample(m_space, rng));
    }
    return out;
}

} // namespace Trainyard::Tuning
