// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
// Helpers the benchmarks share for what they report: order statistics of repeated measurements, and the host
// they ran on. Plain C++ (no Qt), so that every bench can use it, bench_tuning included.
//
// The host line matters because the development machines are shared VMs: a figure read without the CPU model,
// the transparent-huge-page mode (it changes page-fault costs, so allocation-heavy figures move with it) and
// the load average at the start (the neighbours' builds) cannot be compared with another machine's or day's.

#include <algorithm>
#include <cmath>
#include <cstdio>
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

/// The first line of `path` ("" when unreadable).
inline std::string firstLine(const char* path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

/// The CPU's model name from /proc/cpuinfo (what `lscpu | grep 'Model name'` shows), or "unknown".
inline std::string cpuModel()
{
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) == 0) {
            const std::size_t colon = line.find(':');
            if (colon != std::string::npos)
                return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    }
    return "unknown";
}

/// `host: CPU <model>, <n> CPUs, THP <mode>, load average <1 5 15 min>`, the line every bench prints first.
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
    return "host: CPU " + cpuModel() + ", " + std::to_string(std::thread::hardware_concurrency()) + " CPUs, THP "
        + (thp.empty() ? std::string("unknown") : thp) + ", load average " + (load.empty() ? "unknown" : load);
}

/// Prints hostLine() to stdout.
inline void printHost()
{
    std::printf("%s\n", hostLine().c_str());
    std::fflush(stdout);
}

} // namespace BenchReport
