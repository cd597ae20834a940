// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
// Known test functions for the tuning optimiser (tst_optimizer, bench_tuning), with their search spaces and
// optima. Branin, Hartmann-6, Goldstein–Price, Rosenbrock, Styblinski–Tang, Ackley and Levy as in Surjanovic &
// Bingham's Virtual Library of Simulation Experiments (https://www.sfu.ca/~ssurjano/optimization.html), on its
// domains except Ackley's (see ackley5()); mixed4 is ours. tests/bench/tuning_baselines.py defines the same
// functions for the Python baselines, operation for operation, so that both give the same doubles: change them
// together (bench_tuning compares them at run time and stops when they differ).

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

inline ParameterSpec integerParameter(std::string name, double lo, double hi, ScaleType scale = ScaleType::UnitLinear)
{
    ParameterSpec p = doubleParameter(std::move(name), lo, hi, scale);
    p.type = ParameterType::Integer;
    return p;
}

inline ParameterSpec discreteParameter(std::string name, std::vector<double> values, ScaleType scale = ScaleType::None)
{
    ParameterSpec p;
    p.name = std::move(name);
    p.type = ParameterType::Discrete;
    p.discreteValues = std::move(values);
    p.scaleType = scale;
    return p;
}

inline ParameterSpec categoricalParameter(std::string name, std::vector<std::string> values)
{
    ParameterSpec p;
    p.name = std::move(name);
    p.type = ParameterType::Categorical;
    p.categoricalValues = std::move(values);
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

/// mixed4: a stand-in for a training job's validation loss over the four parameter types, with interactions.
///
/// Parameters: learning_rate DOUBLE [1e-5, 1e-1] UNIT_LOG_SCALE; hidden_units INTEGER [8, 256]
/// UNIT_LINEAR_SCALE; batch_size DISCRETE {16, 32, 64, 128, 256, 512} UNIT_LOG_SCALE; optimizer CATEGORICAL
/// {sgd, momentum, adam}. With l = log10(learning_rate), b = log2(batch_size / 64) and, per optimizer c,
/// a floor f_c, a best rate at batch 64 a_c and a best batch b_c (sgd 0.30, −1.7, 0; momentum 0.18, −2.5, 1;
/// adam 0.12, −3.8, 2):
///
///     d = l − (a_c + 0.3 b)                       the best rate grows with the batch (linear scaling rule)
///     f = f_c + (d > 0 ? 1.2 : 0.35) d²           too high a rate costs more than too low a one
///           + 0.25 log2(hidden_units / 96)²
///           + 0.04 (b − b_c)²
///
/// Global minimum 0.12 at learning_rate 10^−3.2 (≈ 6.31e-4), hidden_units 96, batch_size 256, optimizer adam
/// (every other term is ≥ 0 and the other optimizers' floors are higher). None of the minimiser's values is the
/// centre of the warped space or a first category, where the Bayesian optimiser's first trial goes.
inline Problem mixed4()
{
    return { "mixed4",
        { doubleParameter("learning_rate", 1e-5, 1e-1, ScaleType::UnitLog), integerParameter("hidden_units", 8, 256),
            discreteParameter("batch_size", { 16, 32, 64, 128, 256, 512 }, ScaleType::UnitLog),
            categoricalParameter("optimizer", { "sgd", "momentum", "adam" }) },
        [](const Assignment& a) {
            const std::string& optimizer = std::get<std::string>(a[3]);
            const int c = optimizer == "sgd" ? 0 : optimizer == "momentum" ? 1 : 2;
            static constexpr double floor[3] = { 0.30, 0.18, 0.12 };
            static constexpr double bestRate[3] = { -1.7, -2.5, -3.8 };
            static constexpr double bestBatch[3] = { 0, 1, 2 };
            const double l = std::log10(number(a[0]));
            const double b = std::log2(number(a[2]) / 64);
            const double d = l - (bestRate[c] + 0.3 * b);
            const double units = std::log2(number(a[1]) / 96);
            const double batch = b - bestBatch[c];
            return floor[c] + (d > 0 ? 1.2 : 0.35) * d * d + 0.25 * units * units + 0.04 * batch * batch;
        },
        0.12 };
}

/// Goldstein–Price on [−2, 2]²; global minimum 3 at (0, −1). Values reach about 1e6 at the box's corners: the
/// wide output range of issue 31.
inline Problem goldsteinPrice()
{
    return { "goldstein_price", { doubleParameter("x1", -2, 2), doubleParameter("x2", -2, 2) },
        [](const Assignment& a) {
            const double x1 = number(a[0]);
            const double x2 = number(a[1]);
            const double s = x1 + x2 + 1;
            const double a1 = 19 - 14 * x1 + 3 * x1 * x1 - 14 * x2 + 6 * x1 * x2 + 3 * x2 * x2;
            const double t = 2 * x1 - 3 * x2;
            const double a2 = 18 - 32 * x1 + 12 * x1 * x1 + 48 * x2 - 36 * x1 * x2 + 27 * x2 * x2;
            return (1 + s * s * a1) * (30 + t * t * a2);
        },
        3.0 };
}

/// Rosenbrock's valley Σ 100 (x_{i+1} − x_i²)² + (x_i − 1)² on [−5, 10]^d; global minimum 0 at (1, …, 1).
/// Values reach about 1e6 (2-D) and 3e6 (4-D): a narrow curved valley under a wide range.
inline Problem rosenbrock(int d)
{
    std::vector<ParameterSpec> parameters;
    for (int i = 1; i <= d; ++i)
        parameters.push_back(doubleParameter("x" + std::to_string(i), -5, 10));
    return { d == 2 ? "rosenbrock2" : "rosenbrock4", parameters,
        [d](const Assignment& a) {
            double sum = 0;
            for (int i = 0; i + 1 < d; ++i) {
                const double x = number(a[static_cast<std::size_t>(i)]);
                const double next = number(a[static_cast<std::size_t>(i) + 1]);
                const double valley = next - x * x;
                sum += 100 * valley * valley + (x - 1) * (x - 1);
            }
            return sum;
        },
        0.0 };
}

/// Styblinski–Tang ½ Σ (x_i⁴ − 16 x_i² + 5 x_i) on [−5, 5]⁴; global minimum −39.16616570377142 × 4 at
/// x_i = −2.903534027771178, with a local minimum at x_i ≈ 2.7468 in each coordinate (2⁴ basins).
inline Problem styblinskiTang4()
{
    std::vector<ParameterSpec> parameters;
    for (int i = 1; i <= 4; ++i)
        parameters.push_back(doubleParameter("x" + std::to_string(i), -5, 5));
    return { "styblinski_tang4", parameters,
        [](const Assignment& a) {
            double sum = 0;
            for (int i = 0; i < 4; ++i) {
                const double x = number(a[static_cast<std::size_t>(i)]);
                sum += x * x * x * x - 16 * x * x + 5 * x;
            }
            return 0.5 * sum;
        },
        -156.6646628150857 };
}

/// Ackley (a = 20, b = 0.2, c = 2π) on [−10, 30]⁵; global minimum 0 at the origin. The library's domain,
/// [−32.768, 32.768]⁵, has the minimiser at the box's centre, where the Bayesian optimiser's first trial goes;
/// this box keeps the function's shape (a nearly flat, rippled plateau around one narrow funnel) and puts the
/// minimiser at a quarter of each side, as mixed4's minimiser avoids the centre too.
inline Problem ackley5()
{
    std::vector<ParameterSpec> parameters;
    for (int i = 1; i <= 5; ++i)
        parameters.push_back(doubleParameter("x" + std::to_string(i), -10, 30));
    return { "ackley5", parameters,
        [](const Assignment& a) {
            double squares = 0;
            double cosines = 0;
            for (int i = 0; i < 5; ++i) {
                const double x = number(a[static_cast<std::size_t>(i)]);
                squares += x * x;
                cosines += std::cos(2 * std::numbers::pi * x);
            }
            return -20 * std::exp(-0.2 * std::sqrt(squares / 5)) - std::exp(cosines / 5) + 20 + std::numbers::e;
        },
        0.0 };
}

/// Levy on [−10, 10]⁴, with w_i = 1 + (x_i − 1)/4: sin²(π w_1) + Σ_{i<4} (w_i − 1)² (1 + 10 sin²(π w_i + 1))
/// + (w_4 − 1)² (1 + sin²(2π w_4)); global minimum 0 at (1, 1, 1, 1), among many local minima.
inline Problem levy4()
{
    std::vector<ParameterSpec> parameters;
    for (int i = 1; i <= 4; ++i)
        parameters.push_back(doubleParameter("x" + std::to_string(i), -10, 10));
    return { "levy4", parameters,
        [](const Assignment& a) {
            const double pi = std::numbers::pi;
            double w[4];
            for (int i = 0; i < 4; ++i)
                w[i] = 1 + (number(a[static_cast<std::size_t>(i)]) - 1) / 4;
            const double first = std::sin(pi * w[0]);
            double sum = first * first;
            for (int i = 0; i < 3; ++i) {
                const double s = std::sin(pi * w[i] + 1);
                sum += (w[i] - 1) * (w[i] - 1) * (1 + 10 * s * s);
            }
            const double last = std::sin(2 * pi * w[3]);
            return sum + (w[3] - 1) * (w[3] - 1) * (1 + last * last);
        },
        0.0 };
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
