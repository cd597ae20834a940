// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>

namespace Trainyard {

class JobStore;
class MetricsStore;

/// Moves what executors before project-scoped job keys wrote into today's layout, once, at executor start
/// (before the scheduler, the log store or the metrics collector touch a job):
/// - job folders `<dataDir>/jobs/<jobId>` → JobKey::folder() `<dataDir>/projects/<project>/jobs/<jobId>`, the
///   project read from `store` (those executors kept a job ID unique across projects, so it is unambiguous);
/// - metric rows keyed by the bare job ID → keyed by JobKey::name() (MetricsStore::adoptLegacyJobIds()).
///
/// Crash-safe: the old folder is first renamed to `<dataDir>/jobs.v1-migrating` (one rename), and a start that
/// finds that folder finishes the move. Folders of jobs the store does not know end up in
/// `<dataDir>/jobs.unclaimed/` (logged), never deleted. A folder that cannot go where it belongs (the place is
/// taken, or its job's project is no folder name) is set aside in `<dataDir>/jobs.set-aside/` and logged, so that
/// no folder can stop the executor from starting. Returns false with *error only when the metrics store cannot
/// adopt its rows.
bool adoptLegacyLayout(const QString& dataDir, const JobStore& store, MetricsStore& metrics, QString* error);

} // namespace Trainyard
