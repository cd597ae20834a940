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

} // namespace Trainyard
