// SPDX-License-Identifier: GPL-2.0-or-later
#include "outputwarping.h"

#include <boost/math/special_functions/erf.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace Trainyard::Tuning {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// LogWarperComponent's default offset: how strongly the good end is stretched (ln 1.5 ≈ 0.41 of the range).
constexpr double logOffset = 1.5;

// Φ⁻¹(q) for q in (0, 1).
double normalQuantile(double q)
{
    return -std::numbers::sqrt2 * boost::math::erfc_inv(2 * q);
}

std::vector<double> finiteValues(std::span<const double> labels)
{
    std::vector<double> out;
    for (double y : labels)
        if (std::isfinite(y))
            out.push_back(y);
    return out;
}

// numpy.nanmedian: the mean of the two middle values for an even count.
double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Vizier's estimate_std_of_good_half(): the spread of the unique values at or above the median around it
// (population form), falling back to all unique values, then to their mean absolute deviation.
double goodHalfSpread(const std::vector<double>& unique, double threshold)
{
    double sum = 0;
    std::size_t count = 0;
    for (double u : unique) {
        if (u >= threshold) {
            sum += (u - threshold) * (u - threshold);
            ++count;
        }
    }
    double s = std::sqrt(sum / static_cast<double>(count));
    if (s > 0)
        return s;
    sum = 0;
    for (double u : unique)
        sum += (u - threshold) * (u - threshold);
    s = std::sqrt(sum / static_cast<double>(unique.size()));
    if (std::isfinite(s))
        return s;
    sum = 0;
    for (double u : unique)
        sum += std::abs(u - threshold);
    return sum / static_cast<double>(unique.size());
}

// InfeasibleWarperComponent: infeasible labels go below every feasible one, and everything is shifted so that the
// mean is about 0 (weighted by a smoothed feasible fraction).
std::vector<double> infeasibleWarp(std::vector<double> labels)
{
    const std::vector<double> finite = finiteValues(labels);
    if (finite.empty())
        return std::vector<double>(labels.size(), 0.0);
    const auto [lo, hi] = std::minmax_element(finite.begin(), finite.end());
    const double bad = *lo - (0.5 * (*hi - *lo) + 1);
    double mean = 0;
    for (double y : finite)
        mean += y;
    mean /= static_cast<double>(finite.size());
    const double feasible = (0.5 + static_cast<double>(finite.size())) / (1.0 + static_cast<double>(labels.size()));
    const double shift = -mean * feasible - bad * (1 - feasible);
    for (double& y : labels)
        y = (std::isfinite(y) ? y : bad) + shift;
    return labels;
}

} // namespace

std::vector<double> halfRankWarp(std::span<const double> labels)
{
    std::vector<double> out(labels.begin(), labels.end());
    for (double& y : out)
        if (!std::isfinite(y))
            y = nan;
    if (out.size() <= 1)
        return out;
    const std::vector<double> finite = finiteValues(out);
    if (finite.empty())
        return out;
    const double centre = median(finite);
    std::vector<double> unique = finite;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    const auto firstNotBelow = std::lower_bound(unique.begin(), unique.end(), centre);
    const double below = static_cast<double>(firstNotBelow - unique.begin());
    const double denominator = below + (firstNotBelow != unique.end() && *firstNotBelow == centre ? 0.5 : 0.0);
    const double sigma = goodHalfSpread(unique, centre);
    for (double& y : out) {
        if (!(y < centre)) // NaN too
            continue;
        const double rank = static_cast<double>(std::lower_bound(unique.begin(), unique.end(), y) - unique.begin()) + 1;
        y = normalQuantile(0.5 * (rank - 0.5) / denominator) * sigma + centre;
    }
    return out;
}

std::vector<double> logWarp(std::span<const double> labels)
{
    std::vector<double> out(labels.begin(), labels.end());
    const std::vector<double> finite = finiteValues(out);
    if (finite.empty())
        return out;
    const auto [lo, hi] = std::minmax_element(finite.begin(), finite.end());
    const double range = *hi - *lo;
    for (double& y : out) {
        if (!std::isfinite(y))
            continue;
        const double fromBest = range > 0 ? (*hi - y) / range : 0.0;
        y = 0.5 - std::log1p(fromBest * (logOffset - 1)) / std::log(logOffset);
    }
    return out;
}

std::vector<double> warpOutputs(std::span<const double> maximised)
{
    std::vector<double> labels(maximised.begin(), maximised.end());
    for (double& y : labels)
        if (!std::isfinite(y))
            y = nan;
    const std::vector<double> finite = finiteValues(labels);
    if (finite.empty())
        return std::vector<double>(labels.size(), -1.0);
    if (finite.size() == labels.size()
        && std::all_of(finite.begin(), finite.end(), [&](double y) { return y == finite.front(); }))
        return std::vector<double>(labels.size(), 0.0);
    // The stages are invariant to a positive scale (half rank scales with it, log divides it out), so dividing by
    // the largest magnitude first changes nothing but keeps labels near ±1e308 from overflowing the sums.
    double magnitude = 0;
    for (double y : finite)
        magnitude = std::max(magnitude, std::abs(y));
    if (magnitude > 1e100)
        for (double& y : labels)
            y /= magnitude;
    return infeasibleWarp(logWarp(halfRankWarp(labels)));
}

} // namespace Trainyard::Tuning
