// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>

namespace Trainyard {

class CtlSession;

/// The `trainyardctl jobs …` verbs, with gcloud ai-platform's flags, messages and output formats
/// (googlecloudsdk/command_lib/ml_engine/jobs_util.py, flags.py, log_utils.py). Each takes the verb's own
/// arguments (after the verb words, global flags already removed) and returns the exit code (ExitCode).
class JobsCommands {
public:
    /// `jobs submit training JOB [--config F] [--package-path DIR | --packages F,…] --module-name M …
    /// [--async | --stream-logs] [-- USER_ARGS …]`
    static int submitTraining(CtlSession& session, const QStringList& args);
    /// `jobs submit prediction`: a batch prediction job (predictionInput), as gcloud's.
    static int submitPrediction(CtlSession& session, const QStringList& args);
    /// `jobs describe JOB [--summarize]`: YAML by default, `--format json`.
    static int describe(CtlSession& session, const QStringList& args);
    /// `jobs list [--filter F] [--limit N] [--page-size N]`: table JOB_ID STATUS CREATED by default.
    static int list(CtlSession& session, const QStringList& args);
    /// `jobs cancel JOB`
    static int cancel(CtlSession& session, const QStringList& args);
    /// `jobs stream-logs JOB [--task-name T] [--allow-multiline-logs] [--polling-interval S]`
    static int streamLogs(CtlSession& session, const QStringList& args);
    /// `jobs metrics JOB [--series NAME] [--format csv|json]`: every stored point of the job's metric series
    /// (event-file scalars, then hypertune reports, then resource samples), csv `run,tag,step,wall_time,value`
    /// as `inspect events` prints (wall_time and value as Python's repr of the double); `run` is TensorBoard's
    /// run for scalars and `hypertune/<task>` or `resource/<task>` for the others. json: a list of rows with
    /// the same fields plus `kind`.
    static int metrics(CtlSession& session, const QStringList& args);
    /// `jobs update JOB [--update-labels k=v,…] [--remove-labels k,…] [--clear-labels]`
    static int update(CtlSession& session, const QStringList& args);
};

} // namespace Trainyard
