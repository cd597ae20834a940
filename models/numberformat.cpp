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

} // namespace Trainyard
