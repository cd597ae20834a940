// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "backend.h"
#include "clusterconfig.h"

#include <memory>

namespace Trainyard::Slurm {

/// Runs a job's replicas on one Slurm cluster (issue 14), through its slurmrestd (SlurmRestClient). One Slurm het
/// job per replica-set run (and per restart of it): one component per role present, in master, worker, parameter
/// server, evaluator order, `nodes` = `tasks` = the role's replicas, one task per node.
///
/// Files: everything lives in the run's slurm folder `<run folder>/slurm` (the run folder is under the cluster's
/// sharedDir, see runFolderRoot(), so the nodes see it at the same path):
/// - `slurm-job-id`: the het leader's Slurm job ID (decimal), written as soon as submit answers, so that
///   reclaim() after an executor restart finds the job to cancel;
/// - `batch-<jobid>.out`: the batch script's own stdout and stderr (srun's errors land here);
/// - `task.sh`: run by every task as `/bin/bash task.sh <group>`; it execs `tasks/<group>-<SLURM_PROCID>.sh`;
/// - `tasks/<group>-<index>.sh`: one replica, written by launch(): exports the replica's environment, cds to its
///   working folder, writes `started/<taskName>` ("<Slurm node name> <pid>"), runs the program with stdout and stderr
///   appended to `logs/<taskName>.stdout` and `.stderr`, then writes `exit/<taskName>` (bash's `$?`: the exit
///   code, or 128 + the signal that killed it);
/// - `launch.ready` (written by launch()) or `launch.cancel` (written by stop() before launch): the batch script
///   waits for one of them (polling every 50 ms), should the job run before the replicas' specs exist; normally
///   launch.ready is there long before. A batch script whose job is not the one `slurm-job-id` names then exits 0
///   (a job whose submit answer a killed executor never read, while the next executor placed the run again). On
///   ready it exports `TRAINYARD_HOST_<i>` for every replica i (ReplicaSet order), the k-th node of its
///   component's node list (`scontrol show hostnames "$SLURM_JOB_NODELIST_HET_GROUP_<g>"`), runs
///   `srun --het-group=g --nodes=N_g --ntasks=N_g /bin/bash task.sh g` per group in the background and waits
///   for them all; on cancel it exits 0.
/// - `placement`: "<task> <host> <port>" per replica, written once the executor saw the job RUNNING.
///
/// Placement (Launch::Placement::hostsPending): placed() goes out as soon as slurmrestd answers the submission, with
/// the final ports and a placeholder per host; the replicas' scripts turn each placeholder into
/// `${TRAINYARD_HOST_<i>}`. So the replicas start as soon as Slurm runs the job, not after the executor's next poll
/// sees it running and a file goes back to the nodes (about 0.25 s + 0.1 s on average, and ≈ 1.5× `sbatch`'s
/// submit-to-running before, tests/bench/README.md). hostsKnown() follows when a poll sees the job RUNNING.
///
/// Addresses: replica i (ReplicaSet order) of Slurm job J listens on `<its node>:<20000 + (J % 1400) * 32 + i>`:
/// unique within a job (replicas may share a host when a role has more tasks than nodes) and, for jobs less than
/// 1400 IDs apart, between jobs sharing a node. A set of more than 32 replicas fails placement.
///
/// How a replica's end is reported (exited()): its exit file → Exited(code) (a code ≥ 128 is bash's 128 +
/// signal: the scheduler treats it as the signal it names). When the Slurm job is final, or slurmctld forgot
/// it (NoSuchJob), every replica without an exit file gets: NODE_FAIL, PREEMPTED, BOOT_FAIL, OUT_OF_MEMORY or a
/// vanished job → Signalled(SIGKILL) (retryable: the scheduler restarts the cluster); TIMEOUT, DEADLINE or
/// CANCELLED (by someone else than this backend) → Signalled(SIGTERM), which is what Slurm sent; COMPLETED or
/// FAILED without an exit file (srun could not start the task, the batch script died) → Exited(1). Files are
/// read every 250 ms; a replica's output is read to its end before its exited().
///
/// Placement fails (placementFailed(), the message names the cluster) when slurmrestd cannot be reached or
/// refuses the job, when the partition has fewer nodes than the components need (het components never share a
/// node), when Slurm says the job can never run (errors 2014/2015, or a PENDING reason such as
/// PartitionNodeLimit), and when the job ends or vanishes before any replica started. The Slurm job is cancelled
/// first. All but the first three come after placed() (Backend allows it while no replica has started).
///
/// Resources per task: the machine type's vCPUs and memory, each capped at the partition's largest node (a
/// cluster of smaller nodes runs the replica overcommitted, as the local host does); GPUs as a `gpu` GRES per
/// node of the role's acceleratorCount, of the GRES type that clusters.yaml's `gpuTypes` maps the accelerator type
/// to (any type without one). A GPU replica keeps Slurm's CUDA_VISIBLE_DEVICES (the spec's, from local
/// reservations, is not exported); other replicas get the spec's empty one. admit() always says yes with no GPUs:
/// Slurm queues. The job's time limit: what is left of scheduling.maxRunningTime (ReplicaSet::runLimitMs) rounded
/// up to minutes plus one, so that the executor's own cancel comes first, or the cluster's `timeLimitMinutes` when
/// that is shorter; neither: the partition's.
///
/// stop(): cancels the het leader (Slurm sends SIGTERM, then SIGKILL after the cluster's KillWait: `grace` is
/// the cluster's, not ours) and emits stopped() once the job is final and every replica's exited() went out.
/// stopAll() cancels every run's Slurm job and waits (≤ budget) for slurmrestd's answers, and marks its slurm folder
/// (`executor-stopped`): after that restart the scheduler submits the run again.
///
/// attach() (an executor that was killed, or lost its host, while the job ran or waited in Slurm's queue): takes
/// over the run's Slurm job from its slurm folder, without submitting anything, when `slurm-job-id` and
/// `launch.ready` (its content: when the replicas were let go, µs since the epoch) are there and
/// `executor-stopped` is not. The addresses come from `placement`; without it (the job was not seen running) they
/// are pending and hostsKnown() follows as after launch(). Each replica's output is
/// read on from the line after the last one the log store holds since that time (Backend::StoredLines), its
/// started and exit files and the job's state as after launch(). A job that slurmctld no longer knows (purged
/// after MinJobAge, or lost) ends each replica without an exit file as Lost, naming the job: the run fails,
/// it does not stay RUNNING.
/// usage(): the cluster's CPU and memory totals from the last `GET …/nodes` (refreshed when older than 5 s,
/// asynchronously: the first call answers zeros); nothing is "in use" from this executor's point of view.
///
/// Threading: as Backend; every signal comes from a timer or a client callback.
class SlurmBackend : public Backend {
    Q_OBJECT
public:
    explicit SlurmBackend(const ClusterConfig& cluster, QObject* parent = nullptr);
    ~SlurmBackend() override;

    const ClusterConfig& cluster() const;

    QString name() const override;
    QStringList acceleratorTypes() const override;
    QString runFolderRoot(const QString& dataDir) const override;
    QString interpreter() const override;
    /// When the cluster's `user` is not the executor's (an executor run as root, say), a job dir owned by the
    /// executor is handed to that user (chown, as root only; the user looked up on this host, whose accounts the
    /// shared folder implies). A folder owned by anyone else is left as it is. A warning names the user and the
    /// folder when the hand-over is not possible.
    QString adoptJobDir(const QString& path) override;
    std::optional<Reservation> admit(const RunId& run, const ClusterPlan& plan) override;
    void release(const RunId& run) override;
    void place(const RunId& run, const Launch::ReplicaSet& set) override;
    void launch(const RunId& run, const QList<Launch::ReplicaLaunch>& replicas) override;
    void stop(const RunId& run, std::chrono::milliseconds grace) override;
    void stopAll(std::chrono::milliseconds budget) override;
    void reclaim(const RunId& run, const QString& jobMarker) override;
    std::optional<Launch::Placement> attach(const RunId& run, const Launch::ReplicaSet& set, const QString& jobMarker,
        const StoredLines& storedLines) override;
    BackendUsage usage() const override;
    QString clusterJobId(const RunId& run) const override;
    /// Asks slurmrestd for ping, nodes and partitions at once and answers when all three did: Down when it cannot be
    /// reached (or its slurmctld does not answer the ping), Unauthenticated when it refuses the token (or the
    /// tokenCommand fails), else Up; checks "reachable", "authenticated", "controller" and "partition" (the
    /// configured partition exists and is UP; without one, the cluster has a partition). GPUs per node: the sum of
    /// the `gpu` GRES counts ("gpu:t4:2" → 2) of `gres` and `gres_used`.
    void regionStatus(QObject* context, std::function<void(const RegionStatus&)> done) override;

    /// The Slurm job (het leader) of a run now; 0 when none was submitted (for tests and logs).
    qint64 slurmJobId(const RunId& run) const;
    /// How often files and the Slurm job are polled (default 250 ms).
    void setPollInterval(std::chrono::milliseconds interval);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard::Slurm
