// SPDX-License-Identifier: GPL-2.0-or-later
#include "tuningpreview.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace Trainyard {

namespace {

bool isLog(const QString& scale)
{
    return scale == QLatin1String("UNIT_LOG_SCALE") || scale == QLatin1String("UNIT_REVERSE_LOG_SCALE");
}

bool integral(double v)
{
    // The optimiser's bound for INTEGER parameters: beyond it a double no longer holds every integer.
    return std::isfinite(v) && std::trunc(v) == v && std::abs(v) <= 9.0e15;
}

// Whether `p` is a parameter the optimiser takes (SearchSpace::check() for one parameter, minus the name).
bool usable(const ParameterSpec& p)
{
    if (p.type == QLatin1String("DOUBLE") || p.type == QLatin1String("INTEGER")) {
        if (!p.minValue || !p.maxValue || !std::isfinite(*p.minValue) || !std::isfinite(*p.maxValue)
            || *p.minValue > *p.maxValue)
            return false;
        if (p.type == QLatin1String("INTEGER") && !(integral(*p.minValue) && integral(*p.maxValue)))
            return false;
        return !(isLog(p.scaleType) && *p.minValue <= 0);
    }
    if (p.type == QLatin1String("DISCRETE")) {
        const QList<double>& v = p.discreteValues;
        if (v.isEmpty() || v.size() > 1000)
            return false;
        for (qsizetype i = 0; i < v.size(); ++i) {
            if (!std::isfinite(v.at(i)) || (i > 0 && !(v.at(i) > v.at(i - 1))))
                return false;
        }
        return !(isLog(p.scaleType) && v.first() <= 0);
    }
    if (p.type == QLatin1String("CATEGORICAL"))
        return !p.categoricalValues.isEmpty();
    return false;
}

// SearchSpace's warp over [lo, hi] (see searchspace.h for the forms).
double warp(const QString& scale, double lo, double hi, double x)
{
    if (!(hi > lo))
        return 0.5;
    x = std::clamp(x, lo, hi);
    double u = (x - lo) / (hi - lo);
    if (scale == QLatin1String("UNIT_LOG_SCALE"))
        u = std::log(x / lo) / std::log(hi / lo);
    else if (scale == QLatin1String("UNIT_REVERSE_LOG_SCALE"))
        u = 1.0 - std::log((hi + lo - x) / lo) / std::log(hi / lo);
    return std::clamp(u, 0.0, 1.0);
}

double unwarp(const QString& scale, double lo, double hi, double u)
{
    if (!(hi > lo))
        return lo;
    double x = lo + u * (hi - lo);
    if (scale == QLatin1String("UNIT_LOG_SCALE"))
        x = lo * std::pow(hi / lo, u);
    else if (scale == QLatin1String("UNIT_REVERSE_LOG_SCALE"))
        x = hi + lo - lo * std::pow(hi / lo, 1.0 - u);
    return std::clamp(x, lo, hi);
}

} // namespace

QString TuningPreview::formatNumber(double value)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, int(result.ptr - buffer));
}

TuningPreview::Grid TuningPreview::grid(const HyperparameterSpec& spec)
{
    Grid g;
    if (spec.params.isEmpty())
        return g;
    quint64 points = 1;
    bool saturated = false;
    for (const ParameterSpec& p : spec.params) {
        if (p.type == QLatin1String("DOUBLE")) {
            // Infinite wins over incomplete: it is the more useful thing to say while typing.
            g.kind = Grid::Kind::Infinite;
            g.doubleParameter = p.parameterName;
            return g;
        }
    }
    for (const ParameterSpec& p : spec.params) {
        if (!usable(p))
            return g;
        quint64 n = 0;
        if (p.type == QLatin1String("INTEGER"))
            n = quint64(*p.maxValue - *p.minValue) + 1;
        else if (p.type == QLatin1String("DISCRETE"))
            n = quint64(p.discreteValues.size());
        else
            n = quint64(p.categoricalValues.size());
        if (saturated || points > std::numeric_limits<quint64>::max() / n) {
            saturated = true;
            points = std::numeric_limits<quint64>::max();
        } else {
            points *= n;
        }
    }
    g.kind = Grid::Kind::Finite;
    g.points = points;
    g.saturated = saturated;
    return g;
}

TuningPreview::FirstTrial TuningPreview::firstTrial(const QString& algorithm)
{
    if (algorithm == QLatin1String("GRID_SEARCH"))
        return FirstTrial::FirstGridPoint;
    if (algorithm == QLatin1String("RANDOM_SEARCH"))
        return FirstTrial::Random;
    return FirstTrial::Centre;
}

std::optional<QString> TuningPreview::centreValue(const ParameterSpec& p)
{
    if (!usable(p))
        return std::nullopt;
    if (p.type == QLatin1String("CATEGORICAL"))
        return p.categoricalValues.first(); // one-hot at 0.5 everywhere: the first on the tie
    if (p.type == QLatin1String("DOUBLE"))
        return formatNumber(unwarp(p.scaleType, *p.minValue, *p.maxValue, 0.5));
    if (p.type == QLatin1String("INTEGER")) {
        const double lo = *p.minValue - 0.5;
        const double hi = *p.maxValue + 0.5;
        const double v = std::clamp(std::round(unwarp(p.scaleType, lo, hi, 0.5)), *p.minValue, *p.maxValue);
        return QString::number(qint64(v));
    }
    // DISCRETE: the nearest value in warped space, the lower one on a tie (SearchSpace::decode()).
    const QList<double>& values = p.discreteValues;
    const double lo = values.first();
    const double hi = values.last();
    const auto it = std::lower_bound(values.cbegin(), values.cend(), unwarp(p.scaleType, lo, hi, 0.5));
    qsizetype k = std::min(qsizetype(it - values.cbegin()), values.size() - 1);
    if (k > 0
        && std::abs(warp(p.scaleType, lo, hi, values.at(k - 1)) - 0.5)
            <= std::abs(warp(p.scaleType, lo, hi, values.at(k)) - 0.5))
        --k;
    return formatNumber(values.at(k));
}

std::optional<QString> TuningPreview::firstGridValue(const ParameterSpec& p)
{
    if (!usable(p) || p.type == QLatin1String("DOUBLE"))
        return std::nullopt;
    if (p.type == QLatin1String("INTEGER"))
        return QString::number(qint64(*p.minValue));
    if (p.type == QLatin1String("DISCRETE"))
        return formatNumber(p.discreteValues.first());
    return p.categoricalValues.first();
}

QList<std::pair<QString, std::optional<QString>>> TuningPreview::trialOneValues(const HyperparameterSpec& spec)
{
    const bool grid = firstTrial(spec.algorithm) == FirstTrial::FirstGridPoint;
    QList<std::pair<QString, std::optional<QString>>> values;
    for (const ParameterSpec& p : spec.params)
        values.append({ p.parameterName, grid ? firstGridValue(p) : centreValue(p) });
    return values;
}

} // namespace Trainyard
