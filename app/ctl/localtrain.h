// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>

namespace Trainyard {

class CtlSession;

/// `trainyardctl local train --module-name M [--package-path DIR] [--job-dir D] [--distributed
/// [--worker-count N] [--parameter-server-count N] [--evaluator-count N] [--start-port P]] [-- ARGS]`.
///
/// Runs the trainer directly as child processes of trainyardctl, without the executor, as
/// `gcloud ai-platform local train` does (googlecloudsdk/command_lib/ml_engine/local_train.py):
/// `python3 -m MODULE ARGS [--job-dir D]` with cwd = the package root and
/// TF_CONFIG = {"job": {"job_name": MODULE, "args": ARGS}, "task": {"type", "index"} (empty when not
/// distributed), "cluster": {"master": ["localhost:P"], "ps": […], "worker": […]} (ports contiguous from
/// --start-port, default 27182), "environment": "cloud"}. Evaluators are not in the cluster. The PyTorch
/// variables (MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK) and CLUSTER_SPEC are set as the executor sets
/// them, so the same trainer runs under both.
///
/// Every replica's stdout/stderr lines are printed prefixed with its task name ("master-replica-0: …").
/// The command exits with the master's exit code; when the master ends (or any other replica fails) the
/// others are stopped (SIGTERM, SIGKILL after 5 s). SIGINT/SIGTERM to trainyardctl stop the replicas too.
class LocalTrain {
public:
    static int run(CtlSession& session, const QStringList& args);
};

} // namespace Trainyard
