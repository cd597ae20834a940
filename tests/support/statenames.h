// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// QCOMPARE prints job and replica states by their wire names ("RUNNING") instead of nothing: QTest finds
// these toString overloads by argument-dependent lookup.

#include "apiclient.h"
#include "job.h"

#include <QTest>

namespace Trainyard {

/// The wire name of a job state, for QTest's failure messages.
inline char* toString(JobState state)
{
    return QTest::toString(jobStateName(state));
}

/// The wire name of a replica state, for QTest's failure messages.
inline char* toString(ReplicaState state)
{
    return QTest::toString(replicaStateName(state));
}

} // namespace Trainyard
