// SPDX-License-Identifier: GPL-2.0-or-later
#include "uilogging.h"

namespace Trainyard {
Q_LOGGING_CATEGORY(lcUi, "trainyard.ui")
}
