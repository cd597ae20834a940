// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "jobkey.h"

namespace Trainyard::Test {

/// The key of job `jobId` in the default project ("local", JobStore::defaultProject()), where the console,
/// trainyardctl and most tests put their jobs.
inline JobKey localJob(const QString& jobId)
{
    return JobKey { QStringLiteral("local"), jobId };
}

} // namespace Trainyard::Test
