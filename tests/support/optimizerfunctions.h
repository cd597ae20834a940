// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
// Known test functions for the tuning optimiser (tst_optimizer, bench_tuning), with their search spaces and
// optima. Definitions as in Surjanovic & Bingham's Virtual Library of Simulation Experiments
// (https://www.sfu.ca/~ssurjano/optimization.html).

#include "optimizer.h"

#include <array>
#include <cmath>
#include <functional>
#include <numbers>

namespace OptimizerFunctions {

using namespace Trainyard::Tuning;

struct Problem {
    const char* name;
    std::vector<ParameterSpec> parameters;
    std::function<double(const Assignment&)> objective; // minimised
    double optimum;
};

inline double number(const ParameterValue& v)
{
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    return static_cast<double>(std::get<std::int64_t>(v));
}

inline ParameterSpec doubleParameter(std::string name, double lo, double hi, ScaleType scale = ScaleType::UnitLinear)
{
    ParameterSpec p;
    p.name = std::move(name);
    p.type = ParameterType::Double;
    p.minValue = lo;
    p.maxValue = hi;
    p.scaleType = scale;
    return p;
}

/// Branin-Hoo on x1 ∈ [−5, 10], x2 ∈ [0, 15]; global minimum 0.397887 (three minimisers).
inline Problem branin()
{
    return { "branin", { doubleParameter("x1", -5, 10), doubleParameter("x2", 0, 15) },
        [](const Assignment& a) {
            const double x1 = number(a[0]);
            const double x2 = number(a[1]);
            const double pi = std::numbers::pi;
            const double b = 5.1 / (4 * pi * pi);
            const double c = 5 / pi;
            const double t = 1 / (8 * pi);
            const double u = x2 - b * x1 * x1 + c * x1 - 6;
            return u * u + 10 * (1 - t) * std::cos(x1) + 10;
        },
        0.397887 };
}

/// Hartmann-6 on [0, 1]^6; global minimum −3.32237.
inline Problem hartmann6()
{
    std::vector<ParameterSpec> parameters;
    for (int i = 1; i <= 6; ++i)
        parameters.push_back(doubleParameter("x" + std::to_string(i), 0, 1));
    return { "hartmann6", parameters,
        [](const Assignment& a) {
            static constexpr std::array<double, 4> alpha { 1.0, 1.2, 3.0, 3.2 };
            static constexpr double A[4][6] = { { 10, 3, 17, 3.5, 1.7, 8 }, { 0.05, 10, 17, 0.1, 8, 14 },
                { 3, 3.5, 1.7, 10, 17, 8 }, { 17, 8, 0.05, 10, 0.1, 14 } };
            static constexpr double P[4][6]
                = { { 1312, 1696, 5569, 124, 8283, 5886 }, { 2329, 4135, 8307, 3736, 1004, 9991 },
                      { 2348, 1451, 3522, 2883, 3047, 6650 }, { 4047, 8828, 8732, 5743, 1091, 381 } };
            double sum = 0;
            for (int i = 0; i < 4; ++i) {
                double inner = 0;
                for (int j = 0; j < 6; ++j) {
                    const double diff = number(a[static_cast<std::size_t>(j)]) - P[i][j] * 1e-4;
                    inner += A[i][j] * diff * diff;
                }
                sum += alpha[static_cast<std::size_t>(i)] * std::exp(-inner);
            }
            return -sum;
        },
        -3.32237 };
}

/// Runs `trials` sequential trials of `optimizer` on `problem` (one suggestion at a time) and returns the
/// best objective after each trial. The objective is negated when the optimiser maximises.
inline std::vector<double> runStudy(Optimizer& optimizer, const Problem& problem, int trials)
{
    const double sign = optimizer.goal() == Goal::Maximize ? -1.0 : 1.0;
    std::vector<Observation> history;
    std::vector<double> bestSoFar;
    double best = INFINITY;
    for (int t = 0; t < trials; ++t) {
        const Suggestions s = optimizer.suggest(history, {}, 1);
        if (s.assignments.empty())
            break;
        const double value = problem.objective(s.assignments.front());
        best = std::min(best, value);
        bestSoFar.push_back(best);
        history.push_back({ s.assignments.front(), sign * value });
    }
    return bestSoFar;
}

} // namespace OptimizerFunctions
