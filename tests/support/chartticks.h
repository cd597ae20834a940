// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
// The labels a Qt Charts value axis draws, computed as Qt Charts lays them out (ChartValueAxisY with
// QValueAxis::TicksDynamic: every anchor + k·interval inside [min, max]; QValueAxis::TicksFixed: tickCount evenly
// spaced), each printed with the axis's label format as Qt Charts' ChartAxisElement::formatLabel() does for a
// printf-style format. Tests compare them: no two ticks may read alike.

#include <QString>
#include <QStringList>
#include <QValueAxis>

#include <cmath>

namespace Trainyard::Test {

inline QStringList valueAxisLabels(const QValueAxis* axis)
{
    QStringList labels;
    const QString format = axis->labelFormat().isEmpty() ? QStringLiteral("%.2f") : axis->labelFormat();
    const auto print = [&format](double v) { return QString::asprintf(format.toLatin1().constData(), v); };
    if (axis->tickType() == QValueAxis::TicksDynamic && axis->tickInterval() > 0) {
        const double step = axis->tickInterval();
        double v = axis->tickAnchor() + std::ceil((axis->min() - axis->tickAnchor()) / step - 1e-9) * step;
        for (int i = 0; v <= axis->max() + step * 1e-9 && i < 1000; ++i, v += step)
            labels << print(v);
        return labels;
    }
    const int count = std::max(2, axis->tickCount());
    for (int i = 0; i < count; ++i)
        labels << print(axis->min() + (axis->max() - axis->min()) * i / (count - 1));
    return labels;
}

} // namespace Trainyard::Test
