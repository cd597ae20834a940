// SPDX-License-Identifier: GPL-2.0-or-later
#include "numberformat.h"

#include <cmath>

namespace Trainyard {

QString formatSignificant(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    return QString::number(v, 'g', SignificantDigits);
}

double niceTickStep(double raw)
{
    if (!(raw > 0) || !std::isfinite(raw))
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / magnitude;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * magnitude;
}

} // namespace Trainyard
