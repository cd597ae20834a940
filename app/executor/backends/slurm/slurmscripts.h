// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "launchspec.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace Trainyard::Slurm {

/// The shared folder of one run on a Slurm cluster, `<run folder>/slurm` (RunFolder: the job's or a trial's folder
/// in the cluster's shared folder, which every node sees at the same path), and the file protocol between the
/// executor and the scripts of scriptsFor(). The executor writes:
///
///     task.sh                 the launcher srun starts per task (taskLauncherScript())
///     tasks/<group>-<index>.sh each replica's script (replicaScript())
///     slurm-job-id            the Slurm job ID, once submit answered: the batch script runs only for that job
///     launch.ready            µs since the epoch when the replicas were let go: the batch script waits for it
///     launch.cancel           the run was stopped before launch: the batch script leaves
///     placement               "<task> <host> <port>" a replica, once the job was seen running (for attach())
///     executor-stopped        the executor cancelled the job on its way out: a later one does not attach to it
///
/// and the replicas' scripts write, each for its task name:
///
///     started/<task>          "<node> <pid>" when the replica started
///     logs/<task>.stdout, logs/<task>.stderr   its output
///     resources/<task>        one ResourceSample line every 2 s while it runs
///     exit/<task>             its exit status ("0\n"), written last (through a .tmp file and mv)
///
/// Each file that another side polls appears whole (written to `<name>.tmp`, then renamed).
class RunFiles {
public:
    explicit RunFiles(QString dir);
    /// `<runFolder>/slurm`.
    static RunFiles ofRunFolder(const QString& runFolder);

    const QString& dir() const { return m_dir; }

    QString taskLauncher() const; ///< task.sh
    QString replicaScript(int group, int index) const; ///< tasks/<group>-<index>.sh
    QString jobIdFile() const; ///< slurm-job-id
    QString launchReady() const; ///< launch.ready
    QString launchCancel() const; ///< launch.cancel
    QString placementFile() const; ///< placement
    QString stoppedMark() const; ///< executor-stopped
    QString batchOutput() const; ///< batch-%j.out (Slurm fills in %j)
    QString startedFile(const QString& taskName) const; ///< started/<task>
    QString exitFile(const QString& taskName) const; ///< exit/<task>
    QString exitDir() const; ///< exit
    QString stdoutFile(const QString& taskName) const; ///< logs/<task>.stdout
    QString stderrFile(const QString& taskName) const; ///< logs/<task>.stderr
    QString resourcesDir() const; ///< resources
    QString resourcesFile(const QString& taskName) const; ///< resources/<task>
    /// The folders the replicas write into (they run as the job's user: the backend makes them writable for it),
    /// and the executor's own `tasks`, in the order they are made.
    static QStringList replicaWrittenFolders();

private:
    QString m_dir;
};

/// One sample of a replica's process tree on its node, as its script appends it to `resources/<task>`: one line of
/// four decimal integers separated by single spaces, "<ns since the epoch> <utime + stime of the tree in clock
/// ticks> <clock ticks per second> <RSS of the tree in bytes>\n". slurmrestd has no per-step usage, so the script
/// reads /proc itself; the executor's metrics collector turns successive samples into `cpu_percent` and
/// `rss_bytes` series (MetricsCollector).
struct ResourceSample {
    qint64 timeNs = 0;
    qint64 cpuTicks = 0;
    qint64 ticksPerSecond = 0;
    qint64 rssBytes = 0;

    /// One line (with or without its newline); nullopt unless it has exactly four integers, a time > 0 and ticks
    /// per second > 0.
    static std::optional<ResourceSample> parse(QByteArrayView line);
    /// The line parse() reads, with its newline.
    QByteArray toLine() const;
    /// The bash words that print the line, for the replica's script: `timeNs` and the others are bash
    /// expressions ("$(date +%s%N)", "$t"…).
    static QString shellLine(
        const QString& timeNs, const QString& cpuTicks, const QString& ticksPerSecond, const QString& rssBytes);
    bool operator==(const ResourceSample&) const = default;
};

/// One replica as the batch script places it: its task name, its het group (one per role, in component order) and
/// its index within the group (SLURM_PROCID of the group's srun).
struct BatchTask {
    QString name;
    int group = 0;
    int index = 0;
};

/// `text` as one single-quoted bash word ('it'\''s').
QString shellQuote(const QString& text);

/// `value` as one bash word in which every placeholder host `<hostToken><i>@` (0 ≤ i < taskCount) becomes the
/// replica's "${TRAINYARD_HOST_<i>}" (the batch script exports them from the job's node lists); the rest is quoted.
/// An empty `hostToken`: shellQuote().
QString shellWord(const QString& value, const QString& hostToken, qsizetype taskCount);

/// The batch script slurmrestd submits (`script`): it waits for launch.ready (or launch.cancel), checks that
/// slurm-job-id names its own job, exports each replica's node as TRAINYARD_HOST_<i> (task k of a het component
/// runs on the k-th node of the component's node list, one task per node) and starts one srun per het group.
/// `runText`: the run, for the comment ("projects/p/jobs/j"). `groupSizes`: tasks per group.
QString batchScript(
    const QString& runText, const RunFiles& files, const QList<BatchTask>& tasks, const QList<int>& groupSizes);

/// task.sh: one task of het group $1 execs its replica's script, by SLURM_PROCID.
QByteArray taskLauncherScript(const RunFiles& files);

/// A replica's script (tasks/<group>-<index>.sh): its environment (`spec.unset`, `spec.set`; PYTHONPATH is
/// prepended to the node's; CUDA_VISIBLE_DEVICES is left to Slurm when `slurmAssignsGpus`), its working directory,
/// the trainer with its output appended to logs/, the started file, resource samples every 2 s, and its exit
/// status. SIGTERM (Slurm's, for the whole step) goes on to the trainer; the script waits for its status.
/// Placeholder hosts in values and arguments become the batch script's TRAINYARD_HOST_<i> (shellWord()).
QString replicaScript(const QString& runText, const RunFiles& files, const Launch::ReplicaLaunch& spec,
    bool slurmAssignsGpus, const QString& hostToken, qsizetype taskCount);

} // namespace Trainyard::Slurm
