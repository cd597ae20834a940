// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>

namespace Trainyard {

/// Significant digits of the tensor statistics the checkpoint views show: 7, about what a float32 holds (its 24-bit
/// significand is 7.2 decimal digits), so two float32 values that print alike are nearly always equal.
inline constexpr int SignificantDigits = 7;

/// `v` with SignificantDigits significant digits in the shorter of fixed and exponent notation (QString::number
/// 'g'), not localised (it reads as Python or numpy would print it); NaN as "NaN" and the infinities as "+Inf" and
/// "-Inf", TensorBoard's spelling. The one formatter of the checkpoint panel and the checkpoint comparison.
QString formatSignificant(double v);

/// A chart axis's tick interval: 1, 2 or 5 times a power of ten, the nearest to `raw` (so ticks fall on 20, 40, 60
/// rather than 1, 20.75, 40.5); 1 when `raw` is not a positive finite number. The one rule of every chart the
/// console draws (metrics, trials, parallel coordinates), so their axes read alike.
double niceTickStep(double raw);

} // namespace Trainyard
