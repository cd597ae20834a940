// SPDX-License-Identifier: GPL-2.0-or-later
#include "floatrepr.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace Trainyard::Formats {

QByteArray pythonFloatRepr(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("nan");
    if (std::isinf(value))
        return value < 0 ? QByteArrayLiteral("-inf") : QByteArrayLiteral("inf");
    if (value == 0)
        return std::signbit(value) ? QByteArrayLiteral("-0.0") : QByteArrayLiteral("0.0");

    // Shortest round-trip digits in scientific form: "-d.ddde±XX".
    char sci[64];
    const auto result = std::to_chars(sci, sci + sizeof sci - 1, value, std::chars_format::scientific);
    *result.ptr = '\0'; // std::atoi below reads the exponent up to here
    const char* end = result.ptr;
    const char* p = sci;
    QByteArray out;
    if (*p == '-') {
        out.append('-');
        ++p;
    }
    char digits[32];
    int ndigits = 0;
    while (p < end && *p != 'e') {
        if (*p != '.')
            digits[ndigits++] = *p;
        ++p;
    }
    const int exponent = std::atoi(p + 1); // skips 'e'; atoi reads the sign
    const int decpt = exponent + 1; // digits[0] sits at 10^exponent

    if (decpt <= -4 || decpt > 16) {
        out.append(digits[0]);
        if (ndigits > 1) {
            out.append('.');
            out.append(digits + 1, ndigits - 1);
        }
        out.append('e');
        out.append(exponent < 0 ? '-' : '+');
        const int magnitude = std::abs(exponent);
        if (magnitude < 10)
            out.append('0');
        out.append(QByteArray::number(magnitude));
    } else if (decpt <= 0) {
        out.append("0.");
        out.append(QByteArray(-decpt, '0'));
        out.append(digits, ndigits);
    } else if (decpt >= ndigits) {
        out.append(digits, ndigits);
        out.append(QByteArray(decpt - ndigits, '0'));
        out.append(".0");
    } else {
        out.append(digits, decpt);
        out.append('.');
        out.append(digits + decpt, ndigits - decpt);
    }
    return out;
}

} // namespace Trainyard::Formats
