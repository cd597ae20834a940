// SPDX-License-Identifier: GPL-2.0-or-later
#include "chartaxes.h"

#include "numberformat.h"

#include <QValueAxis>


#include <algorithm>
#include <cmath>

namespace Trainyard {

void setNiceValueRange(QValueAxis* axis, double lo, double hi, int divisions, bool integers)
{
    if (!axis || !(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi))
        return;
    double step = niceTickStep((hi - lo) / std::max(1, divisions));
    if (integers)
        step = std::max(1.0, std::round(step));
    axis->setLabelFormat(tickLabelFormat(step, std::max(std::fabs(lo), std::fabs(hi))));
    if (axis->tickType() == QValueAxis::TicksDynamic && axis->tickInterval() == step) {
        if (axis->min() != lo || axis->max() != hi)
            axis->setRange(lo, hi);
        return;
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(std::max({ axis->max() - axis->min(), hi - lo, axis->tickInterval() }));
    axis->setRange(lo, hi);
    axis->setTickInterval(step);
}

QString tickLabelFormat(double step, double magnitude)
{
    if (!(step > 0) || !std::isfinite(step) || magnitude >= 1e7 || step < 1e-6)
        return QStringLiteral("%.3g");
    // 1-2-5 steps: 0.02 needs two decimals, 0.5 one, 20 none.
    const int decimals = std::max(0, int(std::ceil(-std::log10(step) - 1e-9)));
    return QStringLiteral("%.") + QString::number(decimals) + QLatin1Char('f');
}

std::pair<double, double> paddedRange(double lo, double hi, double fraction)
{
    if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi))
        return { 0, 1 };
    if (hi == lo) {
        const double band = lo != 0 ? std::fabs(lo) * 0.1 : 1;
        return { lo - band, hi + band };
    }
    const double span = hi - lo;
    return { lo - span * fraction, hi + span * fraction };
}

} // namespace Trainyard
