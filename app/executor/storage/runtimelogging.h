// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QLoggingCategory>

namespace Trainyard {
/// The executor's runtime half (scheduler, replicas, staging, logs, GPU inventory) logs to the
/// subsystem category "trainyard.executor" under this symbol.
Q_DECLARE_LOGGING_CATEGORY(lcRuntime)
} // namespace Trainyard
