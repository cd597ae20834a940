// SPDX-License-Identifier: GPL-2.0-or-later
#include "searchspace.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace Trainyard::Tuning {

namespace {

// The interval that warp() maps onto [0, 1] (see the class comment for INTEGER's half-unit margins).
struct Range {
    double lo = 0;
    double hi = 0;
};

Range rangeOf(const ParameterSpec& p)
{
    switch (p.type) {
    case ParameterType::Integer:
        return { p.minValue - 0.5, p.maxValue + 0.5 };
    case ParameterType::Discrete:
        if (p.discreteValues.empty())
            return {};
        return { p.discreteValues.front(), p.discreteValues.back() };
    default:
        return { p.minValue, p.maxValue };
    }
}

double warpIn(ScaleType scale, Range r, double x)
{
    if (!(r.hi > r.lo))
        return 0.5;
    x = std::clamp(x, r.lo, r.hi);
    double u = 0;
    switch (scale) {
    case ScaleType::UnitLog:
        u = std::log(x / r.lo) / std::log(r.hi / r.lo);
        break;
    case ScaleType::UnitReverseLog:
        u = 1.0 - std::log((r.hi + r.lo - x) / r.lo) / std::log(r.hi / r.lo);
        break;
    case ScaleType::None:
    case ScaleType::UnitLinear:
        u = (x - r.lo) / (r.hi - r.lo);
        break;
    }
    return std::clamp(u, 0.0, 1.0);
}

double unwarpIn(ScaleType scale, Range r, double u)
{
    if (!(r.hi > r.lo))
        return r.lo;
    u = std::clamp(std::isnan(u) ? 0.5 : u, 0.0, 1.0);
    double x = 0;
    switch (scale) {
    case ScaleType::UnitLog:
        x = r.lo * std::pow(r.hi / r.lo, u);
        break;
    case ScaleType::UnitReverseLog:
        x = r.hi + r.lo - r.lo * std::pow(r.hi / r.lo, 1.0 - u);
        break;
    case ScaleType::None:
    case ScaleType::UnitLinear:
        x = r.lo + u * (r.hi - r.lo);
        break;
    }
    return std::clamp(x, r.lo, r.hi);
}

bool isLog(ScaleType s)
{
    return s == ScaleType::UnitLog || s == ScaleType::UnitReverseLog;
}

} // namespace

std::string formatValue(const ParameterValue& value)
{
    if (const auto* d = std::get_if<double>(&value)) {
        char buffer[32];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, *d);
        return std::string(buffer, result.ptr);
    }
    if (const auto* i = std::get_if<std::int64_t>(&value))
        return std::to_string(*i);
    return std::get<std::string>(value);
}

std::string SearchSpace::check(const std::vector<ParameterSpec>& parameters)
{
    if (parameters.empty())
        return "a study needs at least one parameter";
    std::set<std::string> names;
    for (const ParameterSpec& p : parameters) {
        const std::string who = "parameter '" + p.name + "': ";
        if (p.name.empty())
            return "a parameter has no name";
        if (!names.insert(p.name).second)
            return who + "the name is used twice";
        switch (p.type) {
        case ParameterType::Unspecified:
            return who + "type is PARAMETER_TYPE_UNSPECIFIED";
        case ParameterType::Double:
        case ParameterType::Integer:
            if (!std::isfinite(p.minValue) || !std::isfinite(p.maxValue))
                return who + "minValue and maxValue must be finite numbers";
            if (p.minValue > p.maxValue)
                return who + "minValue is greater than maxValue";
            if (p.type == ParameterType::Integer
                && (std::trunc(p.minValue) != p.minValue || std::trunc(p.maxValue) != p.maxValue
                    || std::abs(p.minValue) > 9.0e15 || std::abs(p.maxValue) > 9.0e15))
                return who + "INTEGER bounds must be integers";
            if (isLog(p.scaleType) && p.minValue <= 0)
                return who + "a log scale needs a strictly positive feasible space";
            break;
        case ParameterType::Discrete:
            if (p.discreteValues.empty())
                return who + "discreteValues is empty";
            if (p.discreteValues.size() > 1000)
                return who + "discreteValues has more than 1,000 values";
            for (std::size_t i = 0; i < p.discreteValues.size(); ++i) {
                if (!std::isfinite(p.discreteValues[i]))
                    return who + "discreteValues must be finite numbers";
                if (i > 0 && !(p.discreteValues[i] > p.discreteValues[i - 1]))
                    return who + "discreteValues must be strictly increasing";
            }
            if (isLog(p.scaleType) && p.discreteValues.front() <= 0)
                return who + "a log scale needs a strictly positive feasible space";
            break;
        case ParameterType::Categorical: {
            if (p.categoricalValues.empty())
                return who + "categoricalValues is empty";
            const std::set<std::string> unique(p.categoricalValues.begin(), p.categoricalValues.end());
            if (unique.size() != p.categoricalValues.size())
                return who + "categoricalValues lists a value twice";
            break;
        }
        }
    }
    return {};
}

SearchSpace::SearchSpace(std::vector<ParameterSpec> parameters)
{
    if (!check(parameters).empty())
        return;
    m_parameters = std::move(parameters);
    for (const ParameterSpec& p : m_parameters) {
        m_offsets.push_back(m_dimensions);
        m_dimensions += p.type == ParameterType::Categorical ? static_cast<int>(p.categoricalValues.size()) : 1;
    }
}

double SearchSpace::warp(int index, double value) const
{
    const ParameterSpec& p = m_parameters[static_cast<std::size_t>(index)];
    return warpIn(p.scaleType, rangeOf(p), value);
}

double SearchSpace::unwarp(int index, double unit) const
{
    const ParameterSpec& p = m_parameters[static_cast<std::size_t>(index)];
    return unwarpIn(p.scaleType, rangeOf(p), unit);
}

bool SearchSpace::encode(const Assignment& assignment, double* out) const
{
    if (assignment.size() != m_parameters.size())
        return false;
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        const ParameterSpec& p = m_parameters[i];
        double* x = out + m_offsets[i];
        const ParameterValue& v = assignment[i];
        switch (p.type) {
        case ParameterType::Categorical: {
            const auto* s = std::get_if<std::string>(&v);
            if (!s)
                return false;
            const auto it = std::find(p.categoricalValues.begin(), p.categoricalValues.end(), *s);
            if (it == p.categoricalValues.end())
                return false;
            for (std::size_t c = 0; c < p.categoricalValues.size(); ++c)
                x[c] = 0;
            x[it - p.categoricalValues.begin()] = 1;
            break;
        }
        case ParameterType::Integer:
        case ParameterType::Double:
        case ParameterType::Discrete: {
            double number = 0;
            if (const auto* d = std::get_if<double>(&v))
                number = *d;
            else if (const auto* n = std::get_if<std::int64_t>(&v))
                number = static_cast<double>(*n);
            else
                return false;
            if (std::isnan(number))
                return false;
            x[0] = warp(static_cast<int>(i), number);
            break;
        }
        case ParameterType::Unspecified:
            return false;
        }
    }
    return true;
}

Assignment SearchSpace::decode(const double* point) const
{
    Assignment a;
    a.reserve(m_parameters.size());
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        const ParameterSpec& p = m_parameters[i];
        const double* x = point + m_offsets[i];
        switch (p.type) {
        case ParameterType::Categorical: {
            std::size_t best = 0;
            for (std::size_t c = 1; c < p.categoricalValues.size(); ++c) {
                if (x[c] > x[best])
                    best = c;
            }
            a.emplace_back(p.categoricalValues[best]);
            break;
        }
        case ParameterType::Integer: {
            const double v = std::clamp(std::round(unwarp(static_cast<int>(i), x[0])), p.minValue, p.maxValue);
            a.emplace_back(static_cast<std::int64_t>(v));
            break;
        }
        case ParameterType::Discrete: {
            // Nearest in warped space, so that on a log scale 3 lies nearer 10 than 1 does not pull it.
            const double u = std::clamp(std::isnan(x[0]) ? 0.5 : x[0], 0.0, 1.0);
            const std::vector<double>& values = p.discreteValues;
            auto it = std::lower_bound(values.begin(), values.end(), unwarp(static_cast<int>(i), u));
            std::size_t k = static_cast<std::size_t>(it - values.begin());
            if (k == values.size())
                k = values.size() - 1;
            if (k > 0
                && std::abs(warp(static_cast<int>(i), values[k - 1]) - u)
                    <= std::abs(warp(static_cast<int>(i), values[k]) - u))
                --k;
            a.emplace_back(values[k]);
            break;
        }
        case ParameterType::Double:
        case ParameterType::Unspecified:
            a.emplace_back(unwarp(static_cast<int>(i), x[0]));
            break;
        }
    }
    return a;
}

void SearchSpace::snap(double* point) const
{
    const Assignment a = decode(point);
    encode(a, point);
}

bool SearchSpace::hasNaN(const Assignment& assignment)
{
    return std::any_of(assignment.begin(), assignment.end(), [](const ParameterValue& v) {
        const auto* d = std::get_if<double>(&v);
        return d && std::isnan(*d);
    });
}

bool SearchSpace::same(const Assignment& a, const Assignment& b)
{
    return a == b;
}

} // namespace Trainyard::Tuning
