// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The console's logging category, "trainyard.ui" (one per subsystem).

#include <QLoggingCategory>

namespace Trainyard {
Q_DECLARE_LOGGING_CATEGORY(lcUi)
}
