// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
// Helpers the benchmarks share for what they measure and report: repeated runs after a warm-up, order statistics
// of them, the line formats, goals, and the host they ran on. Plain C++ (no Qt), so that every bench can use it,
// bench_tuning included.
//
// The host line matters because the development machines are shared VMs: a figure read without the CPU model,
// the transparent-huge-page mode (it changes page-fault costs, so allocation-heavy figures move with it) and
// the load average at the start (the neighbours' builds) cannot be compared with another machine's or day's.
//
// Why every figure is a median of several runs after a warm-up (issue 17): a goal met as the best of a few runs on
// one VM failed on another of the same kind. A first run pays for page faults on fresh memory (costly in a young
// VM, where the host backs guest memory on first touch), lazy initialisation and cold caches; a single run, or the
// best of a few, measures whichever of those happened to be cheap that time. So: one or more untimed warm-up runs,
// then at least 5 timed ones, ours and the baseline alternating run by run (a neighbour's build then slows both
// alike), and the line's ratio taken from the two medians; min and max say how far a single run can stray.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace BenchReport {

/// The median of `samples` (mean of the two middle ones for an even count); NaN when empty.
inline double median(std::vector<double> samples)
{
    if (samples.empty())
        return NAN;
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

/// Minimum, median and maximum of repeated measurements: the spread says whether a median can be trusted on a
/// busy machine.
struct Spread {
    double min = NAN;
    double median = NAN;
    double max = NAN;
};

inline Spread spread(const std::vector<double>& samples)
{
    if (samples.empty())
        return {};
    const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
    return { *lo, median(samples), *hi };
}

/// "min 1.2 / median 1.4 / max 2 <unit>" for a detail line.
inline std::string describe(const Spread& s, const char* unit)
{
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "min %.4g / median %.4g / max %.4g %s", s.min, s.median, s.max, unit);
    return buffer;
}

/// Timed runs per measurement: BENCH_RUNS when set to a number ≥ 5, else `fallback` (at least 5).
inline int runs(int fallback = 7)
{
    const char* env = std::getenv("BENCH_RUNS");
    const int n = env ? std::atoi(env) : 0;
    return std::max(5, n >= 5 ? n : fallback);
}

/// Seconds on the steady (monotonic) clock since an arbitrary start; ns resolution on Linux.
inline double wallSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// CPU seconds of the calling thread (user + system: read() calls count), from CLOCK_THREAD_CPUTIME_ID, which
/// Linux keeps in ns (unlike getrusage's tick-based fields on some kernels). On a shared machine it measures the
/// work, where wall time also measures the neighbours.
inline double threadCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

/// Repeated measurements of ours and a baseline, in the unit the callables return.
struct Samples {
    std::vector<double> ours;
    std::vector<double> baseline;
};

/// Runs `ours()` and `baseline()` alternately: `warmups` rounds whose results are dropped, then `timed` rounds
/// whose results are kept. Each callable does one run and returns its own measurement (it knows what to time:
/// wall or CPU time, a figure reported by a child process); a negative or NaN result marks a failed run, which
/// stops the measurement (the samples so far are returned).
template <typename Ours, typename Baseline> Samples alternate(int warmups, int timed, Ours&& ours, Baseline&& baseline)
{
    Samples s;
    for (int round = 0; round < warmups + timed; ++round) {
        const double o = ours();
        const double b = baseline();
        if (!(o >= 0) || !(b >= 0))
            break;
        if (round >= warmups) {
            s.ours.push_back(o);
            s.baseline.push_back(b);
        }
    }
    return s;
}

/// One side alone: `warmups` dropped runs, then `timed` kept ones (see alternate()).
template <typename Run> std::vector<double> repeat(int warmups, int timed, Run&& run)
{
    std::vector<double> kept;
    for (int round = 0; round < warmups + timed; ++round) {
        const double v = run();
        if (!(v >= 0))
            break;
        if (round >= warmups)
            kept.push_back(v);
    }
    return kept;
}

/// Prints `NAME: ours X unit, baseline Y unit, ratio R` with X and Y the medians and R as given (each bench
/// documents which way its ratios go), then `NAME_detail: ours min … / median … / max … unit; baseline …; N runs
/// after W warm-up(s)`, with `note` appended when not empty.
inline void printLine(const std::string& name, const Spread& ours, const Spread& baseline, const char* unit,
    double ratio, std::size_t runs, int warmups, const std::string& note = {})
{
    std::printf("%s: ours %.4g %s, baseline %.4g %s, ratio %.3g\n", name.c_str(), ours.median, unit, baseline.median,
        unit, ratio);
    std::printf("%s_detail: ours %s; baseline %s; %zu runs after %d warm-up%s%s%s\n", name.c_str(),
        describe(ours, unit).c_str(), describe(baseline, unit).c_str(), runs, warmups, warmups == 1 ? "" : "s",
        note.empty() ? "" : "; ", note.c_str());
    std::fflush(stdout);
}

/// printLine() for alternate()'s samples.
inline void printLine(const std::string& name, const Samples& s, const char* unit, double ratio, int warmups,
    const std::string& note = {})
{
    printLine(name, spread(s.ours), spread(s.baseline), unit, ratio, s.ours.size(), warmups, note);
}

/// A goal on one line's median figure: `value` (a ratio of medians, or a median) against `bound`.
struct Goal {
    std::string line; ///< the line's name
    std::string what; ///< what `value` is: "ratio", "ours (ms)", …
    double value = NAN;
    bool atLeast = false; ///< the goal is value ≥ bound (else value ≤ bound)
    double bound = NAN;
    bool strict = false; ///< > or < instead (a goal such as "faster than the baseline")
    bool met() const
    {
        return atLeast ? (strict ? value > bound : value >= bound) : (strict ? value < bound : value <= bound);
    }
};

/// `goal: NAME WHAT V, goal ≥ B: met` (or `MISSED`; a NaN value, from a run that failed, is MISSED).
inline void printGoal(const Goal& g)
{
    const char* relation = g.atLeast ? (g.strict ? ">" : "≥") : (g.strict ? "<" : "≤");
    std::printf("goal: %s %s %.3g, goal %s %g: %s\n", g.line.c_str(), g.what.c_str(), g.value, relation, g.bound,
        g.met() ? "met" : "MISSED");
    std::fflush(stdout);
}

/// The first line of `path` ("" when unreadable).
inline std::string firstLine(const char* path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

/// A field of the first CPU in /proc/cpuinfo ("model name", "cpu family", …), or "" when absent.
inline std::string cpuInfoField(const std::string& field)
{
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(field, 0) == 0 && line.find_first_not_of(" \t", field.size()) == line.find(':')) {
            const std::size_t colon = line.find(':');
            const std::size_t value = line.find_first_not_of(" \t", colon + 1);
            return value == std::string::npos ? std::string() : line.substr(value);
        }
    }
    return {};
}

/// The CPU's model name from /proc/cpuinfo (what `lscpu | grep 'Model name'` shows), or "unknown".
inline std::string cpuModel()
{
    const std::string name = cpuInfoField("model name");
    return name.empty() ? "unknown" : name;
}

/// "family F model M stepping S" and, for AMD's server families, the core generation. A hypervisor may hide the
/// model name ("AMD EPYC" on the development VMs, whatever the generation), but not these numbers, and the
/// generation changes what the figures mean (crc32 and memory copy throughput, L2 size).
inline std::string cpuGeneration()
{
    const std::string family = cpuInfoField("cpu family"), model = cpuInfoField("model"),
                      stepping = cpuInfoField("stepping"), vendor = cpuInfoField("vendor_id");
    if (family.empty() || model.empty())
        return "family unknown";
    std::string text = "family " + family + " model " + model + " stepping " + stepping;
    if (vendor == "AuthenticAMD") {
        const int f = std::atoi(family.c_str()), m = std::atoi(model.c_str());
        const char* zen = nullptr;
        if (f == 23)
            zen = m < 0x30 ? "Zen/Zen+" : "Zen 2";
        else if (f == 25)
            zen = (m >= 0x10 && m < 0x20) || m >= 0x60 ? "Zen 4" : "Zen 3";
        else if (f == 26)
            zen = "Zen 5";
        if (zen)
            text += std::string(", ") + zen;
    }
    return text;
}

/// `host: CPU <model> (<family, model, generation>, L2 <size>), <n> CPUs, THP <mode>, load average <1 5 15 min>`,
/// the line every bench prints first.
inline std::string hostLine()
{
    std::string thp = firstLine("/sys/kernel/mm/transparent_hugepage/enabled"); // "always [madvise] never"
    const std::size_t open = thp.find('['), close = thp.find(']');
    if (open != std::string::npos && close != std::string::npos && close > open)
        thp = thp.substr(open + 1, close - open - 1);
    std::istringstream loadavg(firstLine("/proc/loadavg")); // "0.39 1.11 1.46 1/86 18742": the three averages
    std::string one, five, fifteen;
    loadavg >> one >> five >> fifteen;
    const std::string load = one.empty() ? std::string() : one + " " + five + " " + fifteen;
    const std::string l2 = firstLine("/sys/devices/system/cpu/cpu0/cache/index2/size"); // "1024K"
    return "host: CPU " + cpuModel() + " (" + cpuGeneration() + (l2.empty() ? std::string() : ", L2 " + l2) + "), "
        + std::to_string(std::thread::hardware_concurrency()) + " CPUs, THP "
        + (thp.empty() ? std::string("unknown") : thp) + ", load average " + (load.empty() ? "unknown" : load);
}

/// Prints hostLine() to stdout.
inline void printHost()
{
    std::printf("%s\n", hostLine().c_str());
    std::fflush(stdout);
}

} // namespace BenchReport
