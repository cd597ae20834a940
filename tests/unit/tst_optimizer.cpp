// SPDX-License-Identifier: GPL-2.0-or-later
// The tuning optimiser (issue 13): search space rules, warping and snapping, grid order, random sampling
// distributions, and Bayesian optimisation on known functions (tests/support/optimizerfunctions.h).
#include "bayesianoptimizer.h"
#include "gridsearch.h"
#include "optimizerfunctions.h"
#include "outputwarping.h"
#include "randomsearch.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

using namespace Trainyard::Tuning;
using namespace OptimizerFunctions;

namespace {

// A log DOUBLE, an INTEGER, a DISCRETE and a CATEGORICAL parameter.
std::vector<ParameterSpec> mixedParameters()
{
    return { doubleParameter("learning_rate", 1e-4, 1e-1, ScaleType::UnitLog),
        integerParameter("hidden_units", 16, 256),
        discreteParameter("batch_size", { 16, 32, 64, 128, 256 }, ScaleType::UnitLog),
        categoricalParameter("optimizer", { "sgd", "adam", "rmsprop" }) };
}

// Minimum 0 at learning_rate 10^-2.5, hidden_units 100, batch_size 64, optimizer "adam".
double mixedObjective(const Assignment& a)
{
    const double lr = std::log10(number(a[0])) + 2.5;
    const double units = (number(a[1]) - 100) / 100;
    const double batch = std::log2(number(a[2]) / 64);
    const double category = std::get<std::string>(a[3]) == "adam" ? 0 : 1;
    return lr * lr + units * units + 0.25 * batch * batch + category;
}

bool inSpace(const SearchSpace& space, const Assignment& a)
{
    if (a.size() != space.parameters().size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const ParameterSpec& p = space.parameters()[i];
        switch (p.type) {
        case ParameterType::Double:
            if (!std::holds_alternative<double>(a[i]) || number(a[i]) < p.minValue || number(a[i]) > p.maxValue)
                return false;
            break;
        case ParameterType::Integer:
            if (!std::holds_alternative<std::int64_t>(a[i]) || number(a[i]) < p.minValue || number(a[i]) > p.maxValue)
                return false;
            break;
        case ParameterType::Discrete:
            if (!std::holds_alternative<double>(a[i])
                || std::find(p.discreteValues.begin(), p.discreteValues.end(), number(a[i])) == p.discreteValues.end())
                return false;
            break;
        case ParameterType::Categorical:
            if (!std::holds_alternative<std::string>(a[i])
                || std::find(p.categoricalValues.begin(), p.categoricalValues.end(), std::get<std::string>(a[i]))
                    == p.categoricalValues.end())
                return false;
            break;
        case ParameterType::Unspecified:
            return false;
        }
    }
    return true;
}

std::unique_ptr<Optimizer> make(Algorithm algorithm, const std::vector<ParameterSpec>& parameters,
    Goal goal = Goal::Minimize, std::uint64_t seed = 1)
{
    std::string error;
    auto optimizer = makeOptimizer(algorithm, parameters, goal, seed, &error);
    if (!optimizer)
        qWarning("makeOptimizer: %s", error.c_str());
    return optimizer;
}

double sampleMedian(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

class TestOptimizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void invalidSpaces_data()
    {
        QTest::addColumn<int>("which");
        const char* names[] = { "no parameters", "no name", "duplicate names", "unspecified type", "inverted bounds",
            "non-integral INTEGER bounds", "infinite bound", "empty categories", "duplicate categories",
            "discrete not increasing", "1001 discrete values", "log scale on zero", "log scale on negative discrete" };
        for (int i = 0; i < int(std::size(names)); ++i)
            QTest::addRow("%s", names[i]) << i;
    }

    void invalidSpaces()
    {
        QFETCH(int, which);
        std::vector<ParameterSpec> p { doubleParameter("a", 0, 1) };
        switch (which) {
        case 0:
            p.clear();
            break;
        case 1:
            p[0].name.clear();
            break;
        case 2:
            p.push_back(doubleParameter("a", 0, 2));
            break;
        case 3:
            p[0].type = ParameterType::Unspecified;
            break;
        case 4:
            p[0] = doubleParameter("a", 2, 1);
            break;
        case 5:
            p[0] = integerParameter("a", 0.5, 3);
            break;
        case 6:
            p[0] = doubleParameter("a", 0, INFINITY);
            break;
        case 7:
            p[0] = categoricalParameter("a", {});
            break;
        case 8:
            p[0] = categoricalParameter("a", { "x", "x" });
            break;
        case 9:
            p[0] = discreteParameter("a", { 1, 3, 2 });
            break;
        case 10: {
            std::vector<double> values(1001);
            for (std::size_t i = 0; i < values.size(); ++i)
                values[i] = double(i);
            p[0] = discreteParameter("a", values);
            break;
        }
        case 11:
            p[0] = doubleParameter("a", 0, 1, ScaleType::UnitLog);
            break;
        case 12:
            p[0] = discreteParameter("a", { -1, 1 }, ScaleType::UnitReverseLog);
            break;
        }
        QVERIFY(!SearchSpace::check(p).empty());
        std::string error;
        QVERIFY(!makeOptimizer(Algorithm::Unspecified, p, Goal::Maximize, 1, &error));
        QVERIFY(!error.empty());
    }

    void gridOrderAndSize()
    {
        const std::vector<ParameterSpec> params { integerParameter("i", 1, 3), discreteParameter("d", { 0.1, 0.5 }),
            categoricalParameter("c", { "x", "y" }) };
        const SearchSpace space(params);
        QCOMPARE(GridSearch::gridSize(space), std::uint64_t(12));
        auto grid = make(Algorithm::GridSearch, params);
        QVERIFY(grid);
        const Suggestions all = grid->suggest({}, {}, 100);
        QVERIFY(all.error.empty());
        QCOMPARE(all.assignments.size(), std::size_t(12));
        // itertools.product order: the last parameter varies fastest.
        QCOMPARE(all.assignments[0], (Assignment { std::int64_t(1), 0.1, std::string("x") }));
        QCOMPARE(all.assignments[1], (Assignment { std::int64_t(1), 0.1, std::string("y") }));
        QCOMPARE(all.assignments[2], (Assignment { std::int64_t(1), 0.5, std::string("x") }));
        QCOMPARE(all.assignments[4], (Assignment { std::int64_t(2), 0.1, std::string("x") }));
        QCOMPARE(all.assignments[11], (Assignment { std::int64_t(3), 0.5, std::string("y") }));
        QCOMPARE(std::set<Assignment>(all.assignments.begin(), all.assignments.end()).size(), std::size_t(12));

        // Observed (failed ones too) and pending points are skipped; the rest keep their order.
        const std::vector<Observation> observed { { all.assignments[0], 1.0 }, { all.assignments[2], NAN } };
        const std::vector<Assignment> pending { all.assignments[1] };
        const Suggestions next = grid->suggest(observed, pending, 2);
        QCOMPARE(next.assignments.size(), std::size_t(2));
        QCOMPARE(next.assignments[0], all.assignments[3]);
        QCOMPARE(next.assignments[1], all.assignments[4]);

        // Exhausted: nothing more, no error (the study stops at the grid's size).
        std::vector<Observation> everything;
        for (const Assignment& a : all.assignments)
            everything.push_back({ a, 0.0 });
        const Suggestions none = grid->suggest(everything, {}, 5);
        QVERIFY(none.assignments.empty());
        QVERIFY(none.error.empty());
    }

    void gridRefusesDouble()
    {
        const std::vector<ParameterSpec> params { integerParameter("i", 1, 3), doubleParameter("lr", 0, 1) };
        std::string error;
        QVERIFY(!makeOptimizer(Algorithm::GridSearch, params, Goal::Maximize, 1, &error));
        QVERIFY2(error.find("DOUBLE") != std::string::npos, error.c_str());
        QCOMPARE(GridSearch::gridSize(SearchSpace(params)), std::uint64_t(0));
        GridSearch direct { SearchSpace(params) };
        QVERIFY(!direct.suggest({}, {}, 1).error.empty());
    }

    void gridSizeSaturates()
    {
        std::vector<ParameterSpec> params;
        for (int i = 0; i < 8; ++i)
            params.push_back(integerParameter("p" + std::to_string(i), 0, 999999));
        QCOMPARE(GridSearch::gridSize(SearchSpace(params)), std::numeric_limits<std::uint64_t>::max());
    }

    void randomRespectsScale_data()
    {
        QTest::addColumn<int>("scale");
        QTest::addColumn<double>("expectedMedian");
        QTest::addColumn<double>("tolerance");
        QTest::addRow("log") << int(ScaleType::UnitLog) << std::pow(10.0, -2.5) << 0.1; // relative, in log10
        QTest::addRow("linear") << int(ScaleType::UnitLinear) << (1e-4 + 1e-1) / 2 << 0.005;
        // Reverse log: median at max + min − √(min·max); values crowd towards the top.
        QTest::addRow("reverse log") << int(ScaleType::UnitReverseLog) << 1e-1 + 1e-4 - std::sqrt(1e-5) << 0.002;
    }

    void randomRespectsScale()
    {
        QFETCH(int, scale);
        QFETCH(double, expectedMedian);
        QFETCH(double, tolerance);
        auto random = make(
            Algorithm::RandomSearch, { doubleParameter("lr", 1e-4, 1e-1, ScaleType(scale)) }, Goal::Maximize, 2024);
        const Suggestions s = random->suggest({}, {}, 4001);
        QCOMPARE(s.assignments.size(), std::size_t(4001));
        std::vector<double> values;
        for (const Assignment& a : s.assignments) {
            const double v = number(a[0]);
            QVERIFY(v >= 1e-4 && v <= 1e-1);
            values.push_back(v);
        }
        const double median = sampleMedian(values);
        if (ScaleType(scale) == ScaleType::UnitLog)
            QVERIFY2(std::abs(std::log10(median) + 2.5) < tolerance, qPrintable(QString::number(median)));
        else
            QVERIFY2(std::abs(median - expectedMedian) < tolerance, qPrintable(QString::number(median)));
    }

    void randomIntegersAndLists()
    {
        auto random = make(Algorithm::RandomSearch,
            { integerParameter("i", 1, 4), discreteParameter("d", { 1, 10, 100 }),
                categoricalParameter("c", { "a", "b" }) },
            Goal::Maximize, 5);
        const Suggestions s = random->suggest({}, {}, 8000);
        std::map<std::int64_t, int> integers;
        std::map<double, int> discrete;
        std::map<std::string, int> categories;
        for (const Assignment& a : s.assignments) {
            ++integers[std::get<std::int64_t>(a[0])];
            ++discrete[std::get<double>(a[1])];
            ++categories[std::get<std::string>(a[2])];
        }
        QCOMPARE(integers.size(), std::size_t(4));
        for (const auto& [value, n] : integers)
            QVERIFY2(std::abs(n - 2000) < 200, qPrintable(QStringLiteral("%1: %2").arg(value).arg(n)));
        QCOMPARE(discrete.size(), std::size_t(3));
        for (const auto& [value, n] : discrete)
            QVERIFY(std::abs(n - 8000 / 3) < 200);
        QCOMPARE(categories.size(), std::size_t(2));
    }

    void warpRoundTrip_data()
    {
        QTest::addColumn<int>("scale");
        QTest::addRow("none") << int(ScaleType::None);
        QTest::addRow("linear") << int(ScaleType::UnitLinear);
        QTest::addRow("log") << int(ScaleType::UnitLog);
        QTest::addRow("reverse log") << int(ScaleType::UnitReverseLog);
    }

    void warpRoundTrip()
    {
        QFETCH(int, scale);
        const ScaleType s = ScaleType(scale);
        const SearchSpace space({ doubleParameter("x", 0.01, 100, s), integerParameter("n", 1, 50, s),
            discreteParameter("d", { 0.5, 1, 2, 8, 64 }, s), categoricalParameter("c", { "p", "q", "r" }) });
        QCOMPARE(space.dimensions(), 6);
        QCOMPARE(space.offset(3), 3);
        for (double x : { 0.01, 0.5, 3.0, 99.0, 100.0 }) {
            const double u = space.warp(0, x);
            QVERIFY(u >= 0 && u <= 1);
            QVERIFY2(std::abs(space.unwarp(0, u) - x) <= 1e-12 * x, qPrintable(QString::number(x)));
        }
        QCOMPARE(space.warp(0, 0.01), 0.0);
        QCOMPARE(space.warp(0, 100), 1.0);
        if (s == ScaleType::UnitLog)
            QVERIFY(std::abs(space.warp(0, 1.0) - 0.5) < 1e-12);
        if (s == ScaleType::UnitReverseLog)
            QVERIFY(std::abs(space.warp(0, 100 + 0.01 - 1.0) - 0.5) < 1e-12);

        // Every integer, every discrete value and every category survives encode → decode unchanged.
        std::vector<double> point(6);
        for (std::int64_t n = 1; n <= 50; ++n) {
            for (double d : { 0.5, 1.0, 2.0, 8.0, 64.0 }) {
                for (const char* c : { "p", "q", "r" }) {
                    const Assignment a { 3.0, n, d, std::string(c) };
                    QVERIFY(space.encode(a, point.data()));
                    const Assignment back = space.decode(point.data());
                    QCOMPARE(std::get<std::int64_t>(back[1]), n);
                    QCOMPARE(std::get<double>(back[2]), d);
                    QCOMPARE(std::get<std::string>(back[3]), std::string(c));
                    QVERIFY(std::abs(std::get<double>(back[0]) - 3.0) < 1e-12);
                }
            }
        }

        // Any point of the box decodes into the space, and snapping is idempotent.
        std::mt19937_64 rng(9);
        for (int i = 0; i < 500; ++i) {
            for (double& x : point)
                x = double(rng() >> 11) * 0x1.0p-53 * 1.2 - 0.1; // a little outside [0, 1] too
            const Assignment a = space.decode(point.data());
            QVERIFY(inSpace(space, a));
            space.snap(point.data());
            const Assignment again = space.decode(point.data());
            // Doubles go through log/exp on log scales: equal to the last bits or so.
            QVERIFY(std::abs(number(again[0]) - number(a[0])) <= 1e-12 * number(a[0]));
            QCOMPARE(Assignment(again.begin() + 1, again.end()), Assignment(a.begin() + 1, a.end()));
        }

        // Wrong shape, wrong kind, unknown category: refused, not guessed.
        QVERIFY(!space.encode({ 3.0 }, point.data()));
        QVERIFY(!space.encode({ 3.0, std::int64_t(2), 1.0, std::string("zz") }, point.data()));
        QVERIFY(!space.encode({ std::string("3"), std::int64_t(2), 1.0, std::string("p") }, point.data()));
    }

    void formatValues()
    {
        QCOMPARE(formatValue(0.001), std::string("0.001"));
        QCOMPARE(formatValue(1e-5), std::string("1e-05"));
        QCOMPARE(formatValue(0.1 + 0.2), std::string("0.30000000000000004"));
        QCOMPARE(formatValue(std::int64_t(-42)), std::string("-42"));
        QCOMPARE(formatValue(std::string("adam")), std::string("adam"));
    }

    void outputWarpingMatchesVizier_data()
    {
        // Vizier's own vectors (vizier/_src/algorithms/designers/gp/output_warpers_test.py at commit b0651861),
        // labels in maximisation convention, NaN and −∞ infeasible.
        QTest::addColumn<int>("stage"); // 0: half rank alone, 1: the whole pipeline
        QTest::addColumn<std::vector<double>>("input");
        QTest::addColumn<std::vector<double>>("expected");
        const double inf = INFINITY;
        QTest::addRow("half rank, ties and -inf")
            << 0 << std::vector<double> { NAN, 1, 4, 2, 10, 12, -inf, 2, 3, 5, 6 }
            << std::vector<double> { NAN, -2.7145447657886415, 4, 0.3722561569665319, 10, 12, NAN, 0.3722561569665319,
                   2.322289907556879, 5, 6 };
        QTest::addRow("half rank, bad half far below")
            << 0 << std::vector<double> { NAN, -4, -3, -2, 1.1, 1.2, 1.3, 1.4, 1.5 }
            << std::vector<double> { NAN, 0.7984888240158797, 0.9467291870388195, 1.0380072549079085,
                   1.1139555940074284, 1.2, 1.3, 1.4, 1.5 };
        QTest::addRow("half rank, ties at the median")
            << 0 << std::vector<double> { NAN, 1, 2, 3, 4, 4, 6, 7, 10, 11, 12 }
            << std::vector<double> { NAN, -2.3573836671676096, 0.7453945664588675, 2.655910679724611,
                   4.2455644597926385, 4.2455644597926385, 6, 7, 10, 11, 12 };
        QTest::addRow("pipeline") << 1 << std::vector<double> { 1, 1, 5, -1e80, NAN, -inf }
                                  << std::vector<double> { 0.61848423, 0.61848423, 1.25966537, 0.25966537, -1.24033463,
                                         -1.24033463 };
        QTest::addRow("pipeline, constant") << 1 << std::vector<double>(5, 100.0) << std::vector<double>(5, 0.0);
        QTest::addRow("pipeline, all infeasible")
            << 1 << std::vector<double> { NAN, NAN } << std::vector<double> { -1, -1 };
    }

    void outputWarpingMatchesVizier()
    {
        QFETCH(int, stage);
        QFETCH(std::vector<double>, input);
        QFETCH(std::vector<double>, expected);
        const std::vector<double> out = stage == 0 ? halfRankWarp(input) : warpOutputs(input);
        QCOMPARE(out.size(), expected.size());
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (std::isnan(expected[i])) {
                QVERIFY2(std::isnan(out[i]), qPrintable(QString::number(out[i])));
                continue;
            }
            // The pipeline's vector is printed to 8 decimals in Vizier's test.
            const double tolerance = stage == 0 ? 1e-12 : 1e-8;
            QVERIFY2(std::abs(out[i] - expected[i]) <= tolerance * std::max(1.0, std::abs(expected[i])),
                qPrintable(QStringLiteral("%1: %2 instead of %3").arg(i).arg(out[i], 0, 'g', 17).arg(expected[i])));
        }
    }

    void outputWarpingKeepsOrderAndRange()
    {
        // Objectives over eleven orders of magnitude: the warped labels keep their order (ties too), lie within a
        // unit of each other, and the best stays the best; a positive scale changes nothing.
        std::vector<double> labels;
        for (int i = 0; i < 30; ++i)
            labels.push_back(-std::pow(10.0, 0.37 * ((i * 7) % 30)));
        labels.push_back(labels[3]);
        const std::vector<double> warped = warpOutputs(labels);
        for (std::size_t i = 0; i < labels.size(); ++i)
            for (std::size_t j = 0; j < labels.size(); ++j)
                if (labels[i] < labels[j])
                    QVERIFY(warped[i] < warped[j]);
        QCOMPARE(warped.back(), warped[3]);
        const auto [lo, hi] = std::minmax_element(warped.begin(), warped.end());
        QVERIFY(*hi - *lo <= 1.0 + 1e-12);
        std::vector<double> scaled = labels;
        for (double& y : scaled)
            y *= 1e-3;
        const std::vector<double> again = warpOutputs(scaled);
        for (std::size_t i = 0; i < labels.size(); ++i)
            QVERIFY(std::abs(again[i] - warped[i]) < 1e-9);
    }

    void firstSuggestionIsTheCentre()
    {
        auto bo = make(Algorithm::Unspecified, mixedParameters());
        const Suggestions s = bo->suggest({}, {}, 1);
        QCOMPARE(s.assignments.size(), std::size_t(1));
        const Assignment& a = s.assignments.front();
        QVERIFY(std::abs(std::log10(number(a[0])) + 2.5) < 1e-9);
        QCOMPARE(std::get<std::int64_t>(a[1]), std::int64_t(136));
        QCOMPARE(std::get<double>(a[2]), 64.0);
        QCOMPARE(std::get<std::string>(a[3]), std::string("sgd"));
    }

    void bayesianFindsBraninOptimum()
    {
        const Problem problem = branin();
        auto bo = make(Algorithm::Unspecified, problem.parameters, Goal::Minimize, 3);
        const std::vector<double> ours = runStudy(*bo, problem, 40);
        QCOMPARE(ours.size(), std::size_t(40));
        QVERIFY2(ours.back() - problem.optimum < 0.05, qPrintable(QString::number(ours.back() - problem.optimum)));

        auto random = make(Algorithm::RandomSearch, problem.parameters, Goal::Minimize, 3);
        const std::vector<double> baseline = runStudy(*random, problem, 40);
        QVERIFY(ours.back() < baseline.back());
    }

    void bayesianOnWideRangeFunctions_data()
    {
        // Issue 31's functions (wide output ranges, narrow valleys, many basins). The bounds are Optuna TPE's median
        // regret over bench_tuning's 20 seeds at 25 and 50 trials, the goal there; each seed below is one whose
        // regret the bench showed at or under 0.6 of both, so that a small change in the fit's arithmetic does not
        // flip the test, while a return to fitting standardised raw values would (it fails Goldstein–Price,
        // Rosenbrock-4 and Styblinski–Tang at these seeds).
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("seed");
        QTest::addColumn<double>("bound25");
        QTest::addColumn<double>("bound50");
        QTest::addRow("goldstein_price") << 0 << 2 << 26.6 << 3.22; // this seed: 2.9, 0.12
        QTest::addRow("rosenbrock2") << 1 << 1 << 5.32 << 1.82; // 0.30, 0.0009
        QTest::addRow("rosenbrock4") << 2 << 4 << 1210.0 << 322.0; // 114, 2.1
        QTest::addRow("styblinski_tang4") << 3 << 6 << 38.0 << 30.3; // 18.6, 15.0
        QTest::addRow("ackley5") << 4 << 2 << 13.6 << 10.2; // 8.1, 2.5
        QTest::addRow("levy4") << 5 << 1 << 2.97 << 1.26; // 0.19, 0.097
    }

    void bayesianOnWideRangeFunctions()
    {
        QFETCH(int, which);
        QFETCH(int, seed);
        QFETCH(double, bound25);
        QFETCH(double, bound50);
        const Problem problems[]
            = { goldsteinPrice(), rosenbrock(2), rosenbrock(4), styblinskiTang4(), ackley5(), levy4() };
        const Problem& problem = problems[which];
        auto bo = make(Algorithm::Unspecified, problem.parameters, Goal::Minimize, std::uint64_t(seed));
        const std::vector<double> best = runStudy(*bo, problem, 50);
        QCOMPARE(best.size(), std::size_t(50));
        const double regret25 = best[24] - problem.optimum;
        const double regret50 = best[49] - problem.optimum;
        QVERIFY2(regret25 < bound25, qPrintable(QString::number(regret25)));
        QVERIFY2(regret50 < bound50, qPrintable(QString::number(regret50)));
    }

    void bayesianMaximizes()
    {
        // Maximise −Branin: the same optimum from the other side.
        Problem problem = branin();
        auto bo = make(Algorithm::Unspecified, problem.parameters, Goal::Maximize, 11);
        std::vector<Observation> history;
        double best = -INFINITY;
        for (int t = 0; t < 40; ++t) {
            const Suggestions s = bo->suggest(history, {}, 1);
            QCOMPARE(s.assignments.size(), std::size_t(1));
            const double value = -problem.objective(s.assignments.front());
            best = std::max(best, value);
            history.push_back({ s.assignments.front(), value });
        }
        QVERIFY2(-best - problem.optimum < 0.05, qPrintable(QString::number(-best)));
    }

    void bayesianMixedSpace()
    {
        const SearchSpace space(mixedParameters());
        auto bo = make(Algorithm::Unspecified, mixedParameters(), Goal::Minimize, 4);
        std::vector<Observation> history;
        double best = INFINITY;
        for (int t = 0; t < 30; ++t) {
            const Suggestions s = bo->suggest(history, {}, 1);
            QCOMPARE(s.assignments.size(), std::size_t(1));
            QVERIFY(inSpace(space, s.assignments.front()));
            const double value = mixedObjective(s.assignments.front());
            best = std::min(best, value);
            history.push_back({ s.assignments.front(), value });
        }
        QVERIFY2(best < 0.2, qPrintable(QString::number(best)));
    }

    void parallelSuggestionsDiffer()
    {
        const Problem problem = branin();
        for (Algorithm algorithm : { Algorithm::Unspecified, Algorithm::RandomSearch }) {
            auto optimizer = make(algorithm, problem.parameters);
            std::vector<Observation> history;
            // Seeding phase and model phase alike.
            for (int round = 0; round < 5; ++round) {
                const Suggestions s = optimizer->suggest(history, {}, 3);
                QCOMPARE(s.assignments.size(), std::size_t(3));
                QCOMPARE(std::set<Assignment>(s.assignments.begin(), s.assignments.end()).size(), std::size_t(3));
                // One of them still running while the next two are asked for.
                const std::vector<Assignment> pending { s.assignments[2] };
                const std::vector<Observation> done { { s.assignments[0], problem.objective(s.assignments[0]) },
                    { s.assignments[1], problem.objective(s.assignments[1]) } };
                std::vector<Observation> withDone = history;
                withDone.insert(withDone.end(), done.begin(), done.end());
                const Suggestions next = optimizer->suggest(withDone, pending, 2);
                QCOMPARE(next.assignments.size(), std::size_t(2));
                QVERIFY(next.assignments[0] != next.assignments[1]);
                for (const Assignment& a : next.assignments)
                    QVERIFY(a != pending[0] && a != s.assignments[0] && a != s.assignments[1]);
                history = withDone;
                history.push_back({ s.assignments[2], problem.objective(s.assignments[2]) });
            }
        }
    }

    void deterministicForSeed()
    {
        const Problem problem = hartmann6();
        std::vector<Observation> history;
        auto random = make(Algorithm::RandomSearch, problem.parameters, Goal::Minimize, 77);
        for (const Assignment& a : random->suggest({}, {}, 12).assignments)
            history.push_back({ a, problem.objective(a) });
        const std::vector<Assignment> pending { history.back().assignment };
        history.pop_back();

        for (Algorithm algorithm : { Algorithm::Unspecified, Algorithm::RandomSearch }) {
            auto a = make(algorithm, problem.parameters, Goal::Minimize, 5);
            auto b = make(algorithm, problem.parameters, Goal::Minimize, 5);
            const Suggestions first = a->suggest(history, pending, 3);
            QCOMPARE(first.assignments.size(), std::size_t(3));
            // Another object (a restarted executor) and a second call on the same one agree.
            QCOMPARE(b->suggest(history, pending, 3).assignments, first.assignments);
            QCOMPARE(a->suggest(history, pending, 3).assignments, first.assignments);
            auto other = make(algorithm, problem.parameters, Goal::Minimize, 6);
            if (algorithm == Algorithm::RandomSearch)
                QVERIFY(other->suggest(history, pending, 3).assignments != first.assignments);
        }
        // Seeding phase: the Sobol points depend on the seed.
        auto s1 = make(Algorithm::Unspecified, problem.parameters, Goal::Minimize, 1);
        auto s2 = make(Algorithm::Unspecified, problem.parameters, Goal::Minimize, 2);
        QVERIFY(s1->suggest({}, {}, 4).assignments != s2->suggest({}, {}, 4).assignments);
    }

    void badInputs()
    {
        const Problem problem = branin();
        auto bo = make(Algorithm::Unspecified, problem.parameters);
        const SearchSpace space(problem.parameters);

        // NaN and infinite objectives are skipped with a note; the rest is used.
        std::vector<Observation> history;
        auto random = make(Algorithm::RandomSearch, problem.parameters, Goal::Minimize, 8);
        for (const Assignment& a : random->suggest({}, {}, 12).assignments)
            history.push_back({ a, problem.objective(a) });
        history[3].objective = NAN;
        history[5].objective = INFINITY;
        history[7].objective = -INFINITY;
        history.push_back({ { 1.0 }, 3.0 }); // wrong shape
        Suggestions s = bo->suggest(history, {}, 2);
        QCOMPARE(s.assignments.size(), std::size_t(2));
        QVERIFY(s.error.empty());
        QCOMPARE(s.notes.size(), std::size_t(2));
        QVERIFY(s.notes[0].find('3') != std::string::npos);

        // NaN as a parameter value, observed or pending: skipped, not compared.
        std::vector<Observation> withNaN = history;
        withNaN.push_back({ { NAN, 1.0 }, 2.0 });
        const std::vector<Assignment> nanPending { { 1.0, NAN } };
        QCOMPARE(bo->suggest(withNaN, nanPending, 2).assignments.size(), std::size_t(2));
        auto grid = make(Algorithm::GridSearch, { discreteParameter("d", { 1, 2 }) });
        const std::vector<Observation> nanObserved { { { NAN }, 1.0 } };
        QCOMPARE(grid->suggest(nanObserved, {}, 5).assignments.size(), std::size_t(2));

        // Every trial failed: still suggestions (seeds), no model.
        std::vector<Observation> failed;
        for (const Observation& o : history)
            failed.push_back({ o.assignment, NAN });
        s = bo->suggest(failed, {}, 3);
        QCOMPARE(s.assignments.size(), std::size_t(3));
        for (const Assignment& a : s.assignments)
            QVERIFY(inSpace(space, a));

        // Huge and identical objectives.
        std::vector<Observation> huge = history;
        for (Observation& o : huge)
            o.objective = 1e308;
        huge[0].objective = -1e308;
        QCOMPARE(bo->suggest(huge, {}, 1).assignments.size(), std::size_t(1));
        for (Observation& o : huge)
            o.objective = 5;
        QCOMPARE(bo->suggest(huge, {}, 1).assignments.size(), std::size_t(1));

        // Duplicate points: 20 observations of one point, with different values (noise).
        std::vector<Observation> duplicates;
        for (int i = 0; i < 20; ++i)
            duplicates.push_back({ history[0].assignment, double(i % 3) });
        duplicates.push_back({ history[1].assignment, 1.0 });
        s = bo->suggest(duplicates, {}, 2);
        QCOMPARE(s.assignments.size(), std::size_t(2));
        QVERIFY(s.assignments[0] != history[0].assignment);

        QVERIFY(bo->suggest(history, {}, 0).assignments.empty());
    }

    void onePointSpaces()
    {
        const std::vector<ParameterSpec> params { doubleParameter("x", 2.5, 2.5), integerParameter("n", 7, 7),
            discreteParameter("d", { 3 }, ScaleType::UnitLog), categoricalParameter("c", { "only" }) };
        const Assignment point { 2.5, std::int64_t(7), 3.0, std::string("only") };
        for (Algorithm algorithm : { Algorithm::Unspecified, Algorithm::RandomSearch }) {
            auto optimizer = make(algorithm, params);
            std::vector<Observation> history;
            for (int t = 0; t < 12; ++t) {
                const Suggestions s = optimizer->suggest(history, {}, 2);
                QCOMPARE(s.assignments.size(), std::size_t(2));
                QCOMPARE(s.assignments[0], point);
                history.push_back({ s.assignments[0], double(t) });
            }
        }
        std::vector<ParameterSpec> gridParams = params;
        gridParams.erase(gridParams.begin());
        auto grid = make(Algorithm::GridSearch, gridParams);
        QCOMPARE(grid->suggest({}, {}, 5).assignments.size(), std::size_t(1));
    }

    void thousandDiscreteValues()
    {
        std::vector<double> values;
        for (int i = 1; i <= 1000; ++i)
            values.push_back(i * 0.5);
        const std::vector<ParameterSpec> params { discreteParameter("d", values, ScaleType::UnitLog),
            integerParameter("n", 1, 3) };
        const SearchSpace space(params);
        auto bo = make(Algorithm::Unspecified, params);
        std::vector<Observation> history;
        for (int t = 0; t < 25; ++t) {
            const Suggestions s = bo->suggest(history, {}, 1);
            QCOMPARE(s.assignments.size(), std::size_t(1));
            QVERIFY(inSpace(space, s.assignments.front()));
            const double d = number(s.assignments.front()[0]);
            history.push_back({ s.assignments.front(), std::pow(std::log(d / 100), 2) });
        }
        QCOMPARE(GridSearch::gridSize(space), std::uint64_t(3000));
    }

    void knownOptima()
    {
        // The optima bench_tuning measures regret from: Branin and Hartmann-6 at their published minimisers.
        QVERIFY(std::abs(branin().objective({ std::numbers::pi, 2.275 }) - branin().optimum) < 1e-6);
        const Assignment h6 { 0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573 };
        QVERIFY(std::abs(hartmann6().objective(h6) - hartmann6().optimum) < 1e-5);

        // Issue 31's functions at their published minimisers.
        QVERIFY(std::abs(goldsteinPrice().objective({ 0.0, -1.0 }) - 3.0) < 1e-9);
        QCOMPARE(rosenbrock(2).objective({ 1.0, 1.0 }), 0.0);
        QCOMPARE(rosenbrock(4).objective({ 1.0, 1.0, 1.0, 1.0 }), 0.0);
        const double st = -2.903534027771178;
        QVERIFY(std::abs(styblinskiTang4().objective({ st, st, st, st }) - styblinskiTang4().optimum) < 1e-9);
        QVERIFY(std::abs(ackley5().objective({ 0.0, 0.0, 0.0, 0.0, 0.0 })) < 1e-12);
        QVERIFY(std::abs(levy4().objective({ 1.0, 1.0, 1.0, 1.0 })) < 1e-12);

        // mixed4 (ours): its stated minimiser reaches the optimum, and nothing on a grid over the whole space
        // (learning rate every 0.05 decades, every integer, every list value and category) goes below it.
        const Problem mixed = mixed4();
        const SearchSpace space(mixed.parameters);
        const Assignment minimiser { std::pow(10.0, -3.2), std::int64_t(96), 256.0, std::string("adam") };
        QVERIFY(inSpace(space, minimiser));
        QVERIFY(std::abs(mixed.objective(minimiser) - mixed.optimum) < 1e-12);
        double gridMinimum = INFINITY;
        Assignment argmin;
        for (int k = 0; k <= 80; ++k) {
            for (std::int64_t units = 8; units <= 256; ++units) {
                for (double batch : mixed.parameters[2].discreteValues) {
                    for (const std::string& optimizer : mixed.parameters[3].categoricalValues) {
                        const Assignment a { std::pow(10.0, -5 + 0.05 * k), units, batch, optimizer };
                        const double value = mixed.objective(a);
                        if (value < gridMinimum) {
                            gridMinimum = value;
                            argmin = a;
                        }
                    }
                }
            }
        }
        QVERIFY2(gridMinimum >= mixed.optimum - 1e-12, qPrintable(QString::number(gridMinimum, 'g', 17)));
        QVERIFY(std::abs(gridMinimum - mixed.optimum) < 1e-12);
        QCOMPARE(std::get<std::int64_t>(argmin[1]), std::int64_t(96));
        QCOMPARE(std::get<double>(argmin[2]), 256.0);
        QCOMPARE(std::get<std::string>(argmin[3]), std::string("adam"));
        QVERIFY(std::abs(std::log10(number(argmin[0])) + 3.2) < 1e-9);
    }

    void smallFiniteSpaceRunsOut()
    {
        // 3 points, 6 trials: the first 3 differ, then repeats are allowed (nothing else is left).
        const std::vector<ParameterSpec> params { categoricalParameter("c", { "a", "b", "c" }) };
        auto bo = make(Algorithm::Unspecified, params);
        std::vector<Observation> history;
        std::set<Assignment> seen;
        for (int t = 0; t < 6; ++t) {
            const Suggestions s = bo->suggest(history, {}, 1);
            QCOMPARE(s.assignments.size(), std::size_t(1));
            if (t < 3)
                QVERIFY(seen.insert(s.assignments.front()).second);
            history.push_back({ s.assignments.front(), double(t) });
        }
    }
};

QTEST_APPLESS_MAIN(TestOptimizer)
#include "tst_optimizer.moc"
