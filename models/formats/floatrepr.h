// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>

namespace Trainyard::Formats {

/// `value` formatted as Python's `repr(float)`: the shortest digits that read back to the same
/// double (std::to_chars), in fixed notation when 1e-4 ≤ |value| < 1e16 and always with a
/// fractional part ("1.0", "1763700000.5"), else in exponent notation with a signed two-digit-
/// minimum exponent ("1e-05", "1.5e+16"); "nan", "inf", "-inf", "-0.0". This is how TensorBoard's
/// loader (and pandas, numpy's float64) print wall times and scalar values, so CSV rows match
/// theirs byte for byte.
QByteArray pythonFloatRepr(double value);

} // namespace Trainyard::Formats
