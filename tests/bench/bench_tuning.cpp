// SPDX-License-Identifier: GPL-2.0-or-later
// Tuning optimiser benchmarks (issues 13 and 31). Each line is `NAME: ours X unit, baseline Y unit (which), ratio R`
// with ratio = ours / baseline (lower is better for both regret and time), every baseline run in this
// invocation unless its label says "cached"; "ours" is the Bayesian optimiser (ALGORITHM_UNSPECIFIED).
//
// - <function>_regret_<n>: median over the seeds of the simple regret (best objective after n sequential trials
//   − the known optimum), at 25 and 50 trials, against Optuna's TPE sampler (default settings), on Branin (2-D,
//   optimum 0.397887), Hartmann-6 (−3.32237), mixed4 (ours: a log DOUBLE, an INTEGER, a DISCRETE list and a
//   CATEGORICAL; 0.12) and, for wide output ranges and other shapes (issue 31), Goldstein–Price (2-D, 3),
//   Rosenbrock (2-D and 4-D, 0), Styblinski–Tang (4-D, −156.66), Ackley (5-D, 0) and Levy (4-D, 0).
//   `_vs_random`: against our RANDOM_SEARCH; `_vs_gp_ei` (with --gp-baseline): against a plain scikit-learn GP-EI
//   loop. Goals, at 25 and at 50 trials on every function: ≤ TPE, and < our random search (issue 31); at 50
//   trials: ≤ 0.01 × TPE on Branin, ≤ 0.5 × TPE on Hartmann-6 and no worse than the plain GP-EI on Branin,
//   Hartmann-6 and mixed4 (issue 13).
// - suggest_ms_at_<n>: CPU time of one suggestion with n (50, 200) completed Hartmann-6 trials at random
//   points, median of several runs after a warm-up, against TPE (goal: ≤ TPE's) and, with --gp-baseline, the
//   GP-EI loop; `_detail` lines give min / median / max. CPU time of the thread for ours (the optimiser is
//   single-threaded), of the Python process for the baselines (BLAS held to one thread): the development
//   machines are shared, and wall time there measures the neighbours.
//
// The baselines run in tests/bench/tuning_baselines.py under /usr/bin/python3 (Debian's, which has
// python3-optuna and python3-sklearn; BENCH_PYTHON overrides it). That script defines the test functions again;
// before any figure is trusted, both sides evaluate the same points and the bench stops (exit 2) unless they
// agree. When a baseline cannot run (no Optuna, no scikit-learn), a `baseline_unavailable` line says why, its
// lines are left out, and the exit status is 1 only under TRAINYARD_REQUIRE_ALL=1 (tests/support/
// requireddependencies.h).
//
// The baselines' studies run in a pool of processes (BENCH_JOBS, default the CPU count) and their traces are stored
// in tuning_baselines_cache.json beside this executable. --cached-baselines reads the traces found there instead of
// running those studies again (a study is deterministic for its seed; the key holds the script's hash and the
// libraries' versions); every line that uses one says "cached" and how many of its seeds were. Times are never
// cached.
//
// Usage: bench_tuning [SEEDS] [--gp-baseline] [--cached-baselines]   (SEEDS defaults to 20)

#include "benchreport.h"
#include "optimizer.h"
#include "optimizerfunctions.h"
#include "randomsearch.h"
#include "requireddependencies.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>

#include <time.h>

using namespace Trainyard::Tuning;
using namespace OptimizerFunctions;
using BenchReport::median;

namespace {

constexpr int trialsPerStudy = 50;
constexpr int reportedTrials[] = { 25, 50 };
constexpr int timedHistories[] = { 50, 200 };
constexpr int timingWarmups = 1;
constexpr int timingRuns = 7;

struct Baseline {
    const char* key; // the script's name for it
    const char* label; // what the lines call it
    const char* suffix; // of the lines' names
};
// The original three functions, which keep issue 13's goals at 50 trials.
bool isOriginal(const std::string& name)
{
    return name == "branin" || name == "hartmann6" || name == "mixed4";
}
const Baseline tpe { "tpe", "Optuna TPE", "" };
const Baseline gpEi { "gp", "scikit-learn GP-EI", "_vs_gp_ei" };

void print(const std::string& name, double ours, double baseline, const char* unit, const char* which)
{
    std::printf("%s: ours %.3g %s, baseline %.3g %s (%s), ratio %.3g\n", name.c_str(), ours, unit, baseline, unit,
        which, baseline > 0 ? ours / baseline : NAN);
    std::fflush(stdout);
}

/// Best objective after each trial, one row per seed.
using Traces = std::vector<std::vector<double>>;

Traces ourStudies(Algorithm algorithm, const Problem& problem, int seeds)
{
    Traces traces;
    for (int seed = 0; seed < seeds; ++seed) {
        std::string error;
        auto optimizer = makeOptimizer(
            algorithm, problem.parameters, Goal::Minimize, static_cast<std::uint64_t>(seed) + 1, &error);
        traces.push_back(runStudy(*optimizer, problem, trialsPerStudy));
    }
    return traces;
}

double medianRegret(const Traces& traces, int trials, double optimum)
{
    std::vector<double> regrets;
    for (const std::vector<double>& trace : traces)
        regrets.push_back(trace.size() >= std::size_t(trials) ? trace[std::size_t(trials) - 1] - optimum : NAN);
    return median(regrets);
}

double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

std::vector<double> ourSuggestMs(const Problem& problem, const std::vector<Observation>& history)
{
    std::string error;
    auto optimizer = makeOptimizer(Algorithm::Unspecified, problem.parameters, Goal::Minimize, 7, &error);
    std::vector<double> times;
    for (int i = 0; i < timingWarmups + timingRuns; ++i) {
        const double start = threadCpuMs();
        const Suggestions s = optimizer->suggest(history, {}, 1);
        const double end = threadCpuMs();
        if (s.assignments.empty())
            std::fprintf(stderr, "no suggestion: %s\n", s.error.c_str());
        if (i >= timingWarmups)
            times.push_back(end - start);
    }
    return times;
}

QJsonArray toJson(const Assignment& a)
{
    QJsonArray out;
    for (const ParameterValue& v : a) {
        if (const auto* d = std::get_if<double>(&v))
            out.append(*d);
        else if (const auto* i = std::get_if<std::int64_t>(&v))
            out.append(qint64(*i));
        else
            out.append(QString::fromStdString(std::get<std::string>(v)));
    }
    return out;
}

/// Runs the baseline script with `request` on stdin; its JSON answer, or an empty object and `*error`.
QJsonObject runBaselines(const QJsonObject& request, QString* error)
{
    const QString python = qEnvironmentVariable("BENCH_PYTHON", QStringLiteral("/usr/bin/python3"));
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel); // its progress lines
    process.start(python, { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/bench/tuning_baselines.py") });
    if (!process.waitForStarted(-1)) {
        *error = python + QStringLiteral(" did not start: ") + process.errorString();
        return {};
    }
    process.write(QJsonDocument(request).toJson(QJsonDocument::Compact));
    process.closeWriteChannel();
    process.waitForFinished(-1); // Optuna and the GP-EI loop take minutes
    const QByteArray out = process.readAllStandardOutput();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("%1 tests/bench/tuning_baselines.py exited with status %2 (its stderr is above)")
                     .arg(python)
                     .arg(process.exitCode());
        return {};
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(out, &parseError);
    if (!document.isObject()) {
        *error = QStringLiteral("tests/bench/tuning_baselines.py answered no JSON object: ") + parseError.errorString();
        return {};
    }
    return document.object();
}

Traces tracesFromJson(const QJsonValue& value)
{
    Traces traces;
    for (const QJsonValue& seed : value.toArray()) {
        std::vector<double> trace;
        for (const QJsonValue& best : seed.toArray())
            trace.push_back(best.toDouble(NAN));
        traces.push_back(std::move(trace));
    }
    return traces;
}

std::vector<double> doublesFromJson(const QJsonValue& value)
{
    std::vector<double> out;
    for (const QJsonValue& v : value.toArray())
        out.push_back(v.toDouble(NAN));
    return out;
}

/// Points where both languages must agree: each function's known minimiser and random points of its space.
std::map<std::string, std::vector<Assignment>> checkPoints(const std::vector<Problem>& problems)
{
    std::map<std::string, std::vector<Assignment>> points;
    points["branin"].push_back({ std::numbers::pi, 2.275 });
    points["hartmann6"].push_back({ 0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573 });
    points["mixed4"].push_back({ std::pow(10.0, -3.2), std::int64_t(96), 256.0, std::string("adam") });
    points["goldstein_price"].push_back({ 0.0, -1.0 });
    points["rosenbrock2"].push_back({ 1.0, 1.0 });
    points["rosenbrock4"].push_back({ 1.0, 1.0, 1.0, 1.0 });
    const double st = -2.903534027771178;
    points["styblinski_tang4"].push_back({ st, st, st, st });
    points["ackley5"].push_back({ 0.0, 0.0, 0.0, 0.0, 0.0 });
    points["levy4"].push_back({ 1.0, 1.0, 1.0, 1.0 });
    std::mt19937_64 rng(2024);
    for (const Problem& problem : problems) {
        const SearchSpace space(problem.parameters);
        for (int i = 0; i < 8; ++i)
            points[problem.name].push_back(RandomSearch::sample(space, rng));
    }
    return points;
}

/// Compares the script's values at checkPoints() with ours; false (after saying where) when any differs by more
/// than rounding. Both sides call the same libm functions in the same order, so they are expected bit-identical.
bool functionsAgree(const std::vector<Problem>& problems, const std::map<std::string, std::vector<Assignment>>& points,
    const QJsonObject& values)
{
    int compared = 0, agreeing = 0, identical = 0;
    double largest = 0;
    for (const Problem& problem : problems) {
        const std::vector<double> theirs = doublesFromJson(values.value(QString::fromUtf8(problem.name)));
        const std::vector<Assignment>& at = points.at(problem.name);
        if (theirs.size() != at.size()) {
            std::printf("function_check: FAILED: %s: %zu values from Python for %zu points\n", problem.name,
                theirs.size(), at.size());
            return false;
        }
        for (std::size_t i = 0; i < at.size(); ++i) {
            const double ours = problem.objective(at[i]);
            const double difference = std::abs(ours - theirs[i]);
            ++compared;
            identical += ours == theirs[i];
            largest = std::max(largest, difference);
            if (difference <= 1e-12 * std::max(1.0, std::abs(ours))) {
                ++agreeing;
            } else {
                std::printf("function_check: FAILED: %s point %zu: C++ %.17g, Python %.17g\n", problem.name, i, ours,
                    theirs[i]);
            }
        }
    }
    std::printf("function_check: C++ and Python agree at %d of %d points (%d bit-identical, largest difference "
                "%.3g)\n",
        agreeing, compared, identical, largest);
    return agreeing == compared;
}

std::vector<Observation> randomHistory(const Problem& problem, int n, std::uint64_t seed)
{
    const SearchSpace space(problem.parameters);
    std::mt19937_64 rng(seed);
    std::vector<Observation> history;
    for (int i = 0; i < n; ++i) {
        Assignment a = RandomSearch::sample(space, rng);
        const double value = problem.objective(a);
        history.push_back({ std::move(a), value });
    }
    return history;
}

struct GoalCheck {
    std::string line;
    double maxRatio;
    double ours;
    double baseline;
    bool strict = false; // ours < maxRatio × baseline, not ≤

    // Compared as products, not through the ratio, so that a baseline regret of 0 is handled.
    bool met() const { return strict ? ours < maxRatio * baseline : ours <= maxRatio * baseline; }
    double ratio() const { return baseline != 0 ? ours / baseline : NAN; }
};

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int seeds = 20;
    bool gpBaseline = false;
    bool cachedBaselines = false;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--gp-baseline")
            gpBaseline = true;
        else if (std::string(argv[i]) == "--cached-baselines")
            cachedBaselines = true;
        else
            seeds = std::max(1, std::atoi(argv[i]));
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // lines appear in order with the baselines' progress on stderr
    BenchReport::printHost();
    std::fprintf(stderr, "bench_tuning: %d seeds, %d trials each%s%s\n", seeds, trialsPerStudy,
        gpBaseline ? ", with the GP-EI baseline" : "", cachedBaselines ? ", baselines' traces from the cache" : "");

    const std::vector<Problem> problems { branin(), hartmann6(), mixed4(), goldsteinPrice(), rosenbrock(2),
        rosenbrock(4), styblinskiTang4(), ackley5(), levy4() };
    const Problem& timed = problems[1];

    // Ours first, while the machine is as quiet as it gets; the baselines after, in one Python process.
    std::map<std::string, Traces> ours, random;
    for (const Problem& problem : problems) {
        ours[problem.name] = ourStudies(Algorithm::Unspecified, problem, seeds);
        random[problem.name] = ourStudies(Algorithm::RandomSearch, problem, seeds);
    }
    std::map<int, std::vector<Observation>> histories;
    std::map<int, std::vector<double>> ourMs;
    for (int n : timedHistories) {
        histories[n] = randomHistory(timed, n, 42);
        ourMs[n] = ourSuggestMs(timed, histories[n]);
    }

    // The baselines: first the functions' agreement and what can run, then the runs.
    std::vector<const Baseline*> baselines;
    QString unavailable;
    const auto points = checkPoints(problems);
    QJsonObject check { { QStringLiteral("mode"), QStringLiteral("check") } };
    QJsonObject pointsJson;
    for (const auto& [name, list] : points) {
        QJsonArray array;
        for (const Assignment& a : list)
            array.append(toJson(a));
        pointsJson.insert(QString::fromStdString(name), array);
    }
    check.insert(QStringLiteral("points"), pointsJson);
    QString error;
    const QJsonObject checked = runBaselines(check, &error);
    if (!error.isEmpty()) {
        unavailable = error;
    } else {
        if (!functionsAgree(problems, points, checked.value(QStringLiteral("values")).toObject())) {
            std::printf("function_check: the test functions of tests/bench/tuning_baselines.py differ from "
                        "tests/support/optimizerfunctions.h: no baseline figure can be trusted\n");
            return 2;
        }
        const QJsonObject available = checked.value(QStringLiteral("available")).toObject();
        const QJsonObject versions = checked.value(QStringLiteral("versions")).toObject();
        std::printf("baselines: Python %s, Optuna %s, scikit-learn %s\n",
            qPrintable(checked.value(QStringLiteral("python")).toString()),
            qPrintable(versions.value(QStringLiteral("optuna")).toString(QStringLiteral("missing"))),
            qPrintable(versions.value(QStringLiteral("sklearn")).toString(QStringLiteral("missing"))));
        for (const Baseline* b : { &tpe, &gpEi }) {
            if (b == &gpEi && !gpBaseline)
                continue;
            const QJsonValue why = available.value(QString::fromUtf8(b->key));
            if (why.isString()) {
                std::printf("baseline_unavailable: %s could not run: %s; its lines are left out\n", b->label,
                    qPrintable(why.toString()));
                unavailable += why.toString();
            } else {
                baselines.push_back(b);
            }
        }
    }

    QJsonObject answer;
    if (!baselines.empty()) {
        QJsonObject request { { QStringLiteral("mode"), QStringLiteral("run") }, { QStringLiteral("seeds"), seeds },
            { QStringLiteral("trials"), trialsPerStudy } };
        QJsonArray keys, functions, historiesJson;
        for (const Baseline* b : baselines)
            keys.append(QString::fromUtf8(b->key));
        for (const Problem& problem : problems)
            functions.append(QString::fromUtf8(problem.name));
        QJsonObject timing { { QStringLiteral("function"), QString::fromUtf8(timed.name) },
            { QStringLiteral("warmups"), timingWarmups }, { QStringLiteral("runs"), timingRuns } };
        QJsonObject byLength;
        for (const auto& [n, history] : histories) {
            QJsonArray array;
            for (const Observation& o : history)
                array.append(toJson(o.assignment));
            byLength.insert(QString::number(n), array);
        }
        timing.insert(QStringLiteral("histories"), byLength);
        request.insert(QStringLiteral("baselines"), keys);
        request.insert(QStringLiteral("functions"), functions);
        request.insert(QStringLiteral("timing"), timing);
        const int jobs = qEnvironmentVariableIntValue("BENCH_JOBS");
        if (jobs > 0)
            request.insert(QStringLiteral("jobs"), jobs);
        request.insert(QStringLiteral("cache"),
            QString(QCoreApplication::applicationDirPath() + QStringLiteral("/tuning_baselines_cache.json")));
        request.insert(QStringLiteral("use_cache"), cachedBaselines);
        answer = runBaselines(request, &error);
        if (!error.isEmpty()) {
            std::printf(
                "baseline_unavailable: the baselines could not run: %s; their lines are left out\n", qPrintable(error));
            unavailable = error;
            baselines.clear();
        }
    } else if (!error.isEmpty()) {
        std::printf("baseline_unavailable: the Python baselines could not run: %s; their lines are left out\n",
            qPrintable(error));
    }
    const QJsonObject best = answer.value(QStringLiteral("best")).toObject();
    const QJsonObject suggestMs = answer.value(QStringLiteral("suggest_ms")).toObject();
    const QJsonObject cached = answer.value(QStringLiteral("cached")).toObject();

    std::vector<GoalCheck> goals;
    for (const Problem& problem : problems) {
        for (int n : reportedTrials) {
            const std::string name = std::string(problem.name) + "_regret_" + std::to_string(n);
            const double o = medianRegret(ours[problem.name], n, problem.optimum);
            for (const Baseline* b : baselines) {
                const QString function = QString::fromUtf8(problem.name);
                const Traces theirs = tracesFromJson(best.value(QString::fromUtf8(b->key)).toObject().value(function));
                const int fromCache = cached.value(QString::fromUtf8(b->key)).toObject().value(function).toInt();
                const std::string label = fromCache == 0 ? std::string(b->label)
                                                         : std::string(b->label) + ", cached: "
                        + std::to_string(fromCache) + " of " + std::to_string(seeds) + " seeds from an earlier run";
                const double t = medianRegret(theirs, n, problem.optimum);
                print(name + b->suffix, o, t, "regret", label.c_str());
                const std::string p = problem.name;
                if (b == &tpe) {
                    goals.push_back({ name + b->suffix, 1.0, o, t });
                    if (n == 50 && (p == "branin" || p == "hartmann6"))
                        goals.push_back({ name + b->suffix, p == "branin" ? 0.01 : 0.5, o, t });
                } else if (n == 50 && isOriginal(p)) {
                    goals.push_back({ name + b->suffix, 1.0, o, t });
                }
            }
            const double r = medianRegret(random[problem.name], n, problem.optimum);
            print(name + "_vs_random", o, r, "regret", "our random search");
            goals.push_back({ name + "_vs_random", 1.0, o, r, true });
        }
    }

    for (int n : timedHistories) {
        const std::string name = "suggest_ms_at_" + std::to_string(n);
        const BenchReport::Spread o = BenchReport::spread(ourMs[n]);
        std::string detail = name + "_detail: ours " + BenchReport::describe(o, "ms");
        for (const Baseline* b : baselines) {
            const BenchReport::Spread t = BenchReport::spread(
                doublesFromJson(suggestMs.value(QString::fromUtf8(b->key)).toObject().value(QString::number(n))));
            print(name + b->suffix, o.median, t.median, "ms", b->label);
            detail += std::string("; ") + b->label + " " + BenchReport::describe(t, "ms");
            if (b == &tpe)
                goals.push_back({ name, 1.0, o.median, t.median });
        }
        std::printf("%s; CPU time, %d runs after %d warm-up, Hartmann-6 at %d random points\n", detail.c_str(),
            timingRuns, timingWarmups, n);
    }

    int missed = 0;
    for (const GoalCheck& g : goals) {
        std::printf("goal: %s ratio %.3g, goal %s %g: %s\n", g.line.c_str(), g.ratio(), g.strict ? "<" : "≤",
            g.maxRatio, g.met() ? "met" : "MISSED");
        missed += !g.met();
    }
    std::printf("goals: %zu met, %d missed\n", goals.size() - std::size_t(missed), missed);
    std::fflush(stdout);

    if (!unavailable.isEmpty() && Trainyard::Test::requireAllDependencies()) {
        std::printf("bench_tuning: a baseline could not run, and TRAINYARD_REQUIRE_ALL=1 requires them\n");
        return 1;
    }
    return 0;
}
