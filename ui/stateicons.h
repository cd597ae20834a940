// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Colours, icons and translated names for job states (Queued … Cancelled) and replica states (Starting …
// Stopped), one place for the job list, the job view and the topology view. Icons are the SVGs under
// :/icons/.

#include "apiclient.h"
#include "job.h"

#include <QColor>
#include <QIcon>
#include <QString>

namespace Trainyard {

/// Icon of a job state; a neutral (queued) icon for StateUnspecified.
QIcon stateIcon(JobState state);
/// Icon of a replica state; a neutral (queued) icon for Unspecified.
QIcon stateIcon(ReplicaState state);
/// The accent colour of a job state (border, text); fill colours are lighter variants of it.
QColor stateColor(JobState state);
/// The accent colour of a replica state.
QColor stateColor(ReplicaState state);
/// Translated, human-readable job state ("Running"); "Unknown" for StateUnspecified.
QString stateDisplayName(JobState state);
/// Translated, human-readable replica state ("Restarting"); "Unknown" for Unspecified.
QString stateDisplayName(ReplicaState state);

} // namespace Trainyard
