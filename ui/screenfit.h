// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QScreen>
#include <QSize>
#include <QWidget>

#include <algorithm>

namespace Trainyard {

/// Resizes `widget` to `wanted` pixels, at most 19/20 of its screen's available area in each direction: a window
/// sized for a big screen must still fit a 1024 × 700 one (issue 27: the Audit Log opened 1,104 px wide on an
/// 800-px screen). Call before showing; the screen is the widget's, or the primary one before it is shown.
inline void resizeWithinScreen(QWidget* widget, QSize wanted)
{
    if (const QScreen* screen = widget->screen()) {
        const QRect available = screen->availableGeometry();
        wanted = QSize(std::min(wanted.width(), available.width() * 19 / 20),
            std::min(wanted.height(), available.height() * 19 / 20));
    }
    widget->resize(wanted);
}

} // namespace Trainyard
