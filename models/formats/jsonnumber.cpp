// SPDX-License-Identifier: GPL-2.0-or-later
#include "jsonnumber.h"

#include <QString>

#include <cmath>
#include <limits>

namespace Trainyard {

std::optional<double> jsonToDouble(const QJsonValue& value)
{
    if (value.isDouble())
        return value.toDouble();
    if (!value.isString())
        return std::nullopt;
    const QString text = value.toString();
    if (text == QLatin1String("NaN"))
        return std::numeric_limits<double>::quiet_NaN();
    if (text == QLatin1String("Infinity"))
        return std::numeric_limits<double>::infinity();
    if (text == QLatin1String("-Infinity"))
        return -std::numeric_limits<double>::infinity();
    bool ok = false;
    const double d = text.toDouble(&ok);
    if (ok && std::isfinite(d))
        return d;
    return std::nullopt;
}

QJsonValue doubleToJson(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("Infinity") : QStringLiteral("-Infinity");
    return value;
}

} // namespace Trainyard
