// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>

namespace Trainyard {

class CtlSession;

/// The `trainyardctl clusters …` verbs (our extension; gcloud has no such group): where jobs can run, from the
/// executor's `…/regions` (app/executor/API.md "Regions"): `local` and the Slurm clusters of clusters.yaml. Output
/// formats as the `jobs` verbs print them (printer.h). Each returns the exit code (ExitCode).
class ClustersCommands {
public:
    /// `clusters list`: table NAME KIND STATE NODES CPUS GPUS JOBS (NODES "4 (3 idle)", CPUS and GPUS "in use/total"),
    /// then each region that is not UP with its message on stderr; `--format yaml` one document per region,
    /// `--format json` a list.
    static int list(CtlSession& session, const QStringList& args);
    /// `clusters describe NAME`: the region (state, checks, partitions, nodes, the project's live jobs there) as YAML,
    /// or `--format json`; `--format table` its nodes (NODE STATE CPUS GPUS PARTITIONS) and then its jobs (JOB_ID
    /// STATUS CLUSTER_JOB: the Slurm job IDs) as tables.
    static int describe(CtlSession& session, const QStringList& args);
    /// `clusters check NAME`: table CHECK RESULT MESSAGE (reachable, authenticated, controller, partition); exit 0
    /// when the region is UP and every check passed, else 1 with `ERROR: (trainyardctl.clusters.check)` naming the
    /// first check that failed and why. `--format yaml|json`: name, state, message and checks.
    static int check(CtlSession& session, const QStringList& args);
};

} // namespace Trainyard
