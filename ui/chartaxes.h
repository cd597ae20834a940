// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>

#include <utility>

class QValueAxis;

namespace Trainyard {

/// Sets a Qt Charts value axis to exactly [lo, hi] with ticks at round numbers (niceTickStep() of the span over
/// `divisions`; at least 1 and whole when `integers`), anchored at 0. Qt Charts lays out range / interval ticks at
/// once, so the previous interval over a much wider new range (or the new one over the old range) could be millions
/// of ticks: it passes through an interval that spans both. An axis already so set is left alone (each call
/// re-lays out the labels, a few ms at 60 Hz of live updates). Nothing happens unless lo < hi, both finite.
/// The label format follows the step (tickLabelFormat()), so no two ticks read alike (issue 46: five ticks of a
/// one-point series read "0.477").
void setNiceValueRange(QValueAxis* axis, double lo, double hi, int divisions = 5, bool integers = false);

/// A printf format for ticks `step` apart on an axis reaching `magnitude` (the larger |end|): fixed with as many
/// decimals as the step has ("%.3f" for 0.001, "%.0f" for 20), or "%.3g" for very large or very small values, where
/// the step's digits fit in the significant ones.
QString tickLabelFormat(double step, double magnitude);

/// [lo, hi] padded so that no point lies on the frame: `fraction` of the span on each side, and for a single value
/// (lo == hi) a band of 10 % of |lo| around it (±1 at 0). Not finite or lo > hi: [0, 1].
std::pair<double, double> paddedRange(double lo, double hi, double fraction = 0.06);

} // namespace Trainyard
