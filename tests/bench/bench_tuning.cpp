// SPDX-License-Identifier: GPL-2.0-or-later
// Tuning optimiser benchmarks (issue 13). Each line is `NAME: ours X unit, baseline Y unit, ratio R` with
// ratio = ours / baseline (lower is better for both regret and time), the baseline measured in the same run:
// - regret_<function>_<n>: median simple regret (best objective after n trials − the known optimum) over
//   the seeds, sequential trials, of the Bayesian optimiser (ALGORITHM_UNSPECIFIED) against our
//   RANDOM_SEARCH, on Branin (optimum 0.397887) and Hartmann-6 (−3.32237), at 20 and 50 trials.
// - suggest_ms_at_50: time of one suggest() with 50 completed trials (Hartmann-6, random points), median of
//   several calls, ours against RANDOM_SEARCH. CPU time of the benchmark's thread (the code is
//   single-threaded; the development machines are shared, and wall time there measures the neighbours).
// Baselines of other libraries (Optuna TPE, a scikit-learn GP-EI loop) are not in this version.
//
// Usage: bench_tuning [SEEDS] (default 20).

#include "optimizer.h"
#include "optimizerfunctions.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include <time.h>

using namespace Trainyard::Tuning;
using namespace OptimizerFunctions;

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return NAN;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void print(const char* name, double ours, double baseline, const char* unit)
{
    std::printf("%s: ours %.4g %s, baseline %.4g %s, ratio %.3g\n", name, ours, unit, baseline, unit,
        baseline > 0 ? ours / baseline : NAN);
    std::fflush(stdout);
}

void regret(const Problem& problem, int seeds)
{
    std::vector<double> ours20, ours50, random20, random50;
    for (int seed = 0; seed < seeds; ++seed) {
        for (Algorithm algorithm : { Algorithm::Unspecified, Algorithm::RandomSearch }) {
            std::string error;
            auto optimizer = makeOptimizer(
                algorithm, problem.parameters, Goal::Minimize, static_cast<std::uint64_t>(seed) + 1, &error);
            const std::vector<double> best = runStudy(*optimizer, problem, 50);
            auto& at20 = algorithm == Algorithm::Unspecified ? ours20 : random20;
            auto& at50 = algorithm == Algorithm::Unspecified ? ours50 : random50;
            at20.push_back(best.at(19) - problem.optimum);
            at50.push_back(best.at(49) - problem.optimum);
        }
    }
    print(("regret_" + std::string(problem.name) + "_20").c_str(), median(ours20), median(random20), "regret");
    print(("regret_" + std::string(problem.name) + "_50").c_str(), median(ours50), median(random50), "regret");
}

double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

double suggestMs(Algorithm algorithm, const Problem& problem, const std::vector<Observation>& history)
{
    std::string error;
    auto optimizer = makeOptimizer(algorithm, problem.parameters, Goal::Minimize, 7, &error);
    std::vector<double> times;
    for (int i = 0; i < 7; ++i) {
        const double start = threadCpuMs();
        const Suggestions s = optimizer->suggest(history, {}, 1);
        const double end = threadCpuMs();
        if (s.assignments.empty())
            std::fprintf(stderr, "no suggestion: %s\n", s.error.c_str());
        times.push_back(end - start);
    }
    return median(times);
}

} // namespace

int main(int argc, char** argv)
{
    const int seeds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
    std::fprintf(stderr, "bench_tuning: %d seeds\n", seeds);
    regret(branin(), seeds);
    regret(hartmann6(), seeds);

    const Problem problem = hartmann6();
    std::mt19937_64 rng(42);
    std::vector<Observation> history;
    for (int i = 0; i < 50; ++i) {
        Assignment a;
        for (int j = 0; j < 6; ++j)
            a.emplace_back(static_cast<double>(rng() >> 11) * 0x1.0p-53);
        history.push_back({ a, problem.objective(a) });
    }
    print("suggest_ms_at_50", suggestMs(Algorithm::Unspecified, problem, history),
        suggestMs(Algorithm::RandomSearch, problem, history), "ms");
    return 0;
}
