// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtimelogging.h"

namespace Trainyard {
Q_LOGGING_CATEGORY(lcRuntime, "trainyard.executor")
} // namespace Trainyard
