// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "machinecatalog.h"
#include "sandbox.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <utility>

namespace Trainyard::Launch {

/// One replica of a replica set before it runs: who it is and what it holds. Task names are the
/// service's (`master-replica-0`, `worker-replica-N`, `ps-replica-N`, `evaluator-replica-N`).
struct ReplicaSlot {
    QString role; ///< TF_CONFIG task type as the service names it: "master" | "worker" | "ps" | "evaluator"
    int index = 0; ///< 0-based within the role
    QString taskName;
    QString machineType;
    int vcpus = 0; ///< the machine type's vCPUs (OMP_NUM_THREADS)
    QList<int> gpus; ///< host GPU indices this replica owns (CUDA_VISIBLE_DEVICES); empty when none
    bool operator==(const ReplicaSlot&) const = default;
};

/// The replicas of one run of a job's cluster: the job's only run, or one trial of a tuning job.
struct ReplicaSet {
    QString jobId;
    QString trialId; ///< decimal string ("1", "2", …); empty for a job that is not a trial
    /// `--<name>=<value>` arguments of a trial, in the study's parameter order, values already in the
    /// form the trainer gets (the tuning layer formats them).
    QList<std::pair<QString, QString>> hyperparameters;
    QList<ReplicaSlot> replicas; ///< master first, then workers, parameter servers, evaluators
    /// Each replica's working folder is `<replicaRoot>/<taskName>`; its hypertune file is
    /// `<replicaRoot>/<taskName>/hypertune/output.metrics`. Must be a full path.
    QString replicaRoot;
    /// What is left of the job's `scheduling.maxRunningTime` when the set is placed, in ms; -1: no limit. The
    /// scheduler enforces it itself; a cluster backend also hands it to its scheduler as the job's time limit, so
    /// that the job ends there even while no executor watches it.
    qint64 runLimitMs = -1;
};

/// The slots of `plan` (planCluster's roles, in order), handing out `gpus` (host indices) in order,
/// `acceleratorCount` per replica. Fewer GPUs than asked leaves the last replicas short.
QList<ReplicaSlot> slotsFor(const ClusterPlan& plan, const QList<int>& gpus);

/// A replica's network address, chosen by the backend that places it. Port 0 = not reachable (an
/// evaluator, which is never part of the cluster, may have none).
struct Address {
    QString host;
    int port = 0;
    QString text() const { return host + QLatin1Char(':') + QString::number(port); }
    bool operator==(const Address&) const = default;
};

/// Where every replica of a set runs, decided by a backend's place() before any TF_CONFIG is built: a
/// cluster backend learns its hosts only at allocation. Same order and size as ReplicaSet::replicas.
///
/// With `hostsPending`, the ports are final but each host is a placeholder that the backend itself puts the
/// replica's node in for when the replicas start (the Slurm backend: its batch script reads the components' node
/// lists), so that the launch specs can be built, and the replicas let go, before the cluster has allocated
/// anything. The backend then tells the real hosts with Backend::hostsKnown(). Nobody but that backend may read
/// such a host: the scheduler shows none until then.
struct Placement {
    QList<Address> addresses;
    bool hostsPending = false;
};

/// How replicas with a container image run here: podman and the flags this host needs (the executor's
/// ContainerHost finds them; ../shared/containers/RECIPE.md and the README's "Custom containers" say why each).
struct ContainerRuntime {
    QString podman; ///< podman's full path; empty: this host cannot run container replicas
    QStringList globalArgs; ///< before `run`, e.g. `--runtime /usr/sbin/runc`
    QStringList runArgs; ///< after `run`, e.g. `--ulimit nofile=20000:20000 --ulimit nproc=32768:32768`
    bool operator==(const ContainerRuntime&) const = default;
};

/// The label every container of a run carries, with the run's job marker (LaunchContext::jobMarker) as its
/// value: how stop and recovery find the containers of a run, also those whose `podman run` client died.
inline QString containerFolderLabel()
{
    return QStringLiteral("io.trainyard.job-folder");
}

/// A container's name: `trainyard-<12 hex digits of the marker's SHA-256>-<taskName>`, unique on the host for
/// one replica of one run (job IDs repeat across projects; the marker, a folder, does not) and valid for podman
/// (`[a-zA-Z0-9][a-zA-Z0-9_.-]*`).
QString containerName(const QString& jobMarker, const QString& taskName);

/// What stays the same for every replica of a job.
struct LaunchContext {
    TrainingInput input; ///< pythonModule, args, jobDir, useChiefInTfConfig, hyperparameters (the metric tag)
    QString interpreter; ///< the runtime version's Python, a full path
    QStringList pythonPath; ///< folders put in front of the inherited PYTHONPATH (the staged package)
    QString cloud; ///< TF_CONFIG.task.cloud: which deployment runs the job (`trainyard-<host>`)
    /// Value of TRAINYARD_JOB_FOLDER (jobMarkerVariable()) in every replica and every child of one, so
    /// that leftovers can be found and killed (see processgroup.h). Empty: not set.
    QString jobMarker;
    /// gcloud `local train` without --distributed: TF_CONFIG's `task` and `cluster` are empty objects,
    /// as gcloud sets them, so that a trainer runs as a single process. Everything else is the same.
    bool standalone = false;
    ContainerRuntime containers; ///< for replicas with an image (containerFor()); unused otherwise
    /// What every replica's sandbox sees besides its own folders (ReplicaLaunch::sandbox): the inputs the job names
    /// (a training job's arguments, a batch prediction job's files, model and output folder). Unused by `local train`.
    SandboxView sandbox;
};

/// One replica, ready to start: the program, its arguments and its environment.
struct ReplicaLaunch {
    QString taskName;
    QString program; ///< the interpreter
    QStringList arguments; ///< `-m <module> <args…> [--<param>=<value>…] [--job-dir <jobDir>]`
    QString workingDirectory; ///< `<replicaRoot>/<taskName>`
    QString hypertuneFile; ///< CLOUD_ML_HP_METRIC_FILE
    QJsonObject tfConfig; ///< the TF_CONFIG object (also in `set` as compact JSON)
    QMap<QString, QString> set; ///< variables set on top of the inherited environment
    QStringList unset; ///< inherited variables removed (a stale RANK or CLOUD_ML_TRIAL_ID)
    /// Non-empty: the replica runs in this podman container (`program` is podman, `arguments` its `run`
    /// command line, whose `-e` options carry `set`); the backend stops and removes it by this name.
    QString containerName;
    /// What the replica's sandbox sees (a process replica's; a container is a sandbox of its own): its job dir and its
    /// working folder writable, its PYTHONPATH folders readable, the host's GPUs when it holds some, and
    /// LaunchContext::sandbox; the working folder is where it starts.
    SandboxView sandbox;

    /// `base` with `unset` removed and `set` applied; PYTHONPATH is `set`'s value followed by `base`'s.
    QProcessEnvironment environment(QProcessEnvironment base) const;
};

/// The replica contract as code (ARCHITECTURE.md "A job's life", step 4; the service's "Training
/// environment" docs for TF_CONFIG, CLUSTER_SPEC and the PyTorch variables). Pure: no file, process or
/// clock is touched, so every rule is unit-testable.
///
/// For each replica of `set`, in order:
/// - argv: `-m <pythonModule> <input.args…> --<name>=<value>… --job-dir <jobDir>` (no `--job-dir` when
///   the job has none; the job dir is not suffixed per trial, as on the service);
/// - TF_CONFIG = {"cluster": {role: ["host:port", …]}, "task": {"type", "index", "trial"?, "cloud"},
///   "job": TrainingInput JSON, "environment": "cloud"}; `chief` replaces `master` (cluster and task)
///   when useChiefInTfConfig is set; evaluators are never in `cluster`. CLUSTER_SPEC = the same JSON.
/// - PyTorch: MASTER_ADDR/MASTER_PORT (the master's address), WORLD_SIZE (master + workers) for every
///   replica; RANK 0 for the master, 1…N for workers, unset for parameter servers and evaluators.
/// - CLOUD_ML_JOB_ID (unset when the set has no job ID: `local train`); CLOUD_ML_TRIAL_ID (unset outside a trial); CLOUD_ML_HP_METRIC_FILE;
///   CLOUD_ML_HP_METRIC_TAG (the study's tag, default `training/hptuning/metric`, only for a tuning job);
///   CUDA_VISIBLE_DEVICES (its own GPUs only, empty when none); OMP_NUM_THREADS (vCPUs, ≥ 1);
///   PYTHONUNBUFFERED=1; PYTHONPATH (`pythonPath` then the inherited value, which
///   environment() joins); TRAINYARD_JOB_FOLDER when `jobMarker` is set.
///
/// A replica whose role runs a container image (containerFor(input, role), the service's custom containers)
/// gets the same variables, but as `podman run` of that image (program = `containers.podman`):
/// `<globalArgs> run --rm --replace --init --network=host --name <containerName()> --label …
/// <runArgs> -v <jobDir>:<jobDir> -v <working folder>:<working folder> -e NAME=VALUE…
/// [--device nvidia.com/gpu=<host index>…] [--entrypoint <containerCommand as JSON>] <image> <args…>`
/// where the args are containerArgs, or else the job's args, then the hyperparameters and `--job-dir`, as
/// gcloud passes them to the image's entrypoint. Host networking keeps the cluster's addresses valid; the
/// folders are mounted at the same paths so every path in the variables holds; `--init` makes SIGTERM reach
/// the trainer (a PID 1 without a handler ignores it); labels name job, trial, task and the run's marker
/// (containerFolderLabel()). Inside, CUDA_VISIBLE_DEVICES counts the replica's own GPUs from 0 (CDI exposes
/// only those); PYTHONPATH is the image's own.
///
/// Errors: returns an empty list and sets `*error` when `placement` does not have one address per
/// replica, the set has no master, `replicaRoot` is not a full path, or a replica runs an image and
/// `containers.podman` is empty.
QList<ReplicaLaunch> buildLaunch(
    const LaunchContext& context, const ReplicaSet& set, const Placement& placement, QString* error = nullptr);

/// Default of HyperparameterSpec.hyperparameterMetricTag (the service's REST reference).
inline QString defaultMetricTag()
{
    return QStringLiteral("training/hptuning/metric");
}

} // namespace Trainyard::Launch
