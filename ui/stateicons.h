// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Colours and icons for job states (QUEUED … CANCELLED) and replica states (STARTING … STOPPED), one
// place for the job list, the job view and the topology view. Icons are the SVGs under :/icons/.

#include <QColor>
#include <QIcon>
#include <QString>

namespace Trainyard {

/// Icon of a job or replica state; a neutral icon for unknown states.
QIcon stateIcon(const QString& state);
/// The accent colour of a state (border, text); fill colours are lighter variants of it.
QColor stateColor(const QString& state);
/// Translated, human-readable state name ("Running"); the enum name for unknown states.
QString stateDisplayName(const QString& state);

} // namespace Trainyard
