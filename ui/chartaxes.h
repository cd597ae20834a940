// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

class QValueAxis;

namespace Trainyard {

/// Sets a Qt Charts value axis to exactly [lo, hi] with ticks at round numbers (niceTickStep() of the span over
/// `divisions`; at least 1 and whole when `integers`), anchored at 0. Qt Charts lays out range / interval ticks at
/// once, so the previous interval over a much wider new range (or the new one over the old range) could be millions
/// of ticks: it passes through an interval that spans both. An axis already so set is left alone (each call
/// re-lays out the labels, a few ms at 60 Hz of live updates). Nothing happens unless lo < hi, both finite.
void setNiceValueRange(QValueAxis* axis, double lo, double hi, int divisions = 5, bool integers = false);

} // namespace Trainyard
