// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
// SlurmBackend's private part (slurmbackend.cpp, slurmsubmit.cpp): the runs it holds and the helpers both files use.
// Only those two files include it.
#include "slurmbackend.h"
#include "slurmscripts.h"

#include "hostlist.h"
#include "slurmrestclient.h"

#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QMap>
#include <QPointer>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>
#include <map>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Trainyard::Slurm {

Q_DECLARE_LOGGING_CATEGORY(lcSlurmBackend)

/// The helpers of SlurmBackend's two files (slurmbackend.cpp defines them).
namespace BackendDetail {

inline constexpr int PortBase = 20000;
inline constexpr int PortBlocks = 1400; // 20000 + 1400 * 32 stays below 65536
inline constexpr int PortsPerJob = 32;
/// Bytes read from one log file per poll: a replica that floods its output cannot stall the event loop.
inline constexpr qint64 MaxReadPerPoll = 1 << 20;

/// Why Slurm keeps a job pending, in words, for the job's log; empty for a code without them. The codes are slurm.h's
/// enum job_state_reason as squeue and slurmrestd name them.
QString pendingReasonText(const QString& reason);
/// The port of replica `i` (ReplicaSet order) of Slurm job `jobId` (see SlurmBackend's "Addresses").
int replicaPort(qint64 jobId, qsizetype i);
/// Writes `data` to `path` whole (QSaveFile) and adds `extra` to its permissions; false when it could not.
bool writeFile(const QString& path, const QByteArray& data, QFileDevice::Permissions extra = {});
/// A folder the job's user may write to: the executor may run as another user than the cluster's `user` (the
/// test cluster: root and slurmci), so the folders that tasks write into are world-writable with the sticky
/// bit, like the shared folder they live in.
bool makeSharedFolder(const QString& path);
/// The byte offset right after the `lines`-th newline of the file at `path` (0 lines: 0). A file with fewer lines
/// gives the offset after its last newline, so that a partial last line is read again whole.
qint64 offsetAfterLines(const QString& path, qint64 lines);
/// GPUs in a GRES string as Slurm reports one ("gpu:t4:2", "gpu:2,mps:100", "gpu:t4:0(IDX:N/A)"): the sum of
/// the counts of its `gpu` entries (a `gpu` entry without a count is one).
int gpuCount(const QString& gres);
/// The role's component (het group) in the order components are submitted.
int roleOrder(const QString& role);

} // namespace BackendDetail

struct SlurmBackend::Private {
    SlurmBackend* q = nullptr;
    ClusterConfig cluster;
    SlurmRestClient* client = nullptr;
    int pollMs = 250;
    bool shuttingDown = false;

    QList<Node> nodes;
    QDateTime nodesTime;
    bool nodesInFlight = false;

    enum class Phase {
        Placing, ///< nodes asked, or the submission in flight
        Placed, ///< submitted, and placed() went out (hosts pending); waiting for launch()
        Launched, ///< launch.ready written: files are read
        Stopping, ///< stop() asked; waiting for the job to be final
        Done, ///< stopped() went out (or placement failed)
    };

    struct Task {
        QString name;
        QString role;
        int group = 0;
        int index = 0; // within the group (SLURM_PROCID of the group's srun)
        bool started = false;
        bool exited = false;
        qint64 stdoutOffset = 0;
        qint64 stderrOffset = 0;
        QString host; // the node its started file names
    };

    struct Run {
        RunId id;
        ClusterPlan plan;
        QString slurmDir;
        qint64 jobId = 0;
        Phase phase = Phase::Placing;
        bool askingNodes = false; // place() waits for `GET …/nodes`
        bool submitting = false; // a submission is in flight: its job ID is not known yet
        bool stopRequested = false;
        bool launched = false;
        bool pollInFlight = false;
        bool cancelSent = false;
        QList<Task> tasks; // ReplicaSet order
        QList<int> groupSizes;
        QTimer* timer = nullptr;
        quint64 attempt = 0; // place() count: drops answers that belong to an earlier placement
        bool attached = false; // attach() took it over from a previous executor
        bool hostsKnown = false; // the job was seen RUNNING on its nodes (hostsKnown() went out)
        QString pendingReason; // the last one told in the job's log (notice())
        /// The start of this placement's placeholder hosts ("@trainyard-host-<64 random bits>-"; host i is the
        /// token, i and "@"): random, so that no text of the job's own can be taken for one.
        QString hostToken;
    };
    std::map<RunId, Run> runs;
    std::map<RunId, ClusterPlan> plans; // from admit(), for GPUs per role
    quint64 attempts = 0;

    Run* find(const RunId& id)
    {
        auto it = runs.find(id);
        return it == runs.end() ? nullptr : &it->second;
    }
    /// The run when it is still the placement `attempt` (answers for an earlier one are dropped).
    Run* current(const RunId& id, quint64 attempt)
    {
        Run* run = find(id);
        return run && run->attempt == attempt && !shuttingDown ? run : nullptr;
    }

    QString clusterText() const { return QStringLiteral("Slurm cluster '%1'").arg(cluster.name); }

    // ---- placement ------------------------------------------------------------------------------

    void refreshNodes(const std::function<void(const Result<QList<Node>>&)>& then = {});

    void failPlacement(Run* run, const QString& message);

    void stopTimer(Run* run)
    {
        if (run->timer) {
            run->timer->stop();
            run->timer->deleteLater();
            run->timer = nullptr;
        }
    }

    static QString batchScript(const Run& run);

    /// The run's tasks grouped by role, in component order (the set lists master, workers, ps, evaluators already).
    static void buildTasks(Run* run, const Launch::ReplicaSet& set);

    void place(const RunId& id, const Launch::ReplicaSet& set);

    /// The Slurm time limit of a run (minutes; 0: the partition's): the cluster's `timeLimitMinutes`, or what is
    /// left of the job's maxRunningTime (`runLimitMs`) rounded up, plus a minute, when that is shorter. The executor
    /// cancels the job at maxRunningTime itself, with the service's message; Slurm's limit, a little later, ends it
    /// when no executor is there to.
    int timeLimitMinutes(qint64 runLimitMs) const;

    void submit(Run* run, const QList<Launch::ReplicaSlot>& replicaSlots, qint64 runLimitMs);

    /// Placed as soon as Slurm took the job, before it allocates nodes: the ports come from the job ID, each host
    /// is a placeholder (hostToken) that the replica's script fills in from the batch script's TRAINYARD_HOST_<i>.
    /// So launch() writes the replicas' scripts while the job waits in Slurm's queue, and they start as soon as it
    /// runs, without a round trip to the executor (which only learns RUNNING at its next poll).
    void placeWithPendingHosts(Run* run);

    void startTimer(Run* run);

    void tick(Run* run);

    void onJob(Run* run, const Result<QList<JobComponent>>& result);

    /// The job runs: its components' nodes are the replicas' hosts (as the batch script reads them), written to
    /// `placement` for attach() and told with hostsKnown().
    void resolveHosts(Run* run, const QList<JobComponent>& components);

    /// The replicas' hosts (ReplicaSet order): written to `placement` for attach(), told in the job's log and with
    /// hostsKnown().
    void knowHosts(Run* run, const QStringList& taskHosts);

    // ---- launch ---------------------------------------------------------------------------------

    void launch(const RunId& id, const QList<Launch::ReplicaLaunch>& replicas);

    /// Reports the replicas' new started files ("<node> <pid>"), then their hosts when no poll has seen the job
    /// RUNNING yet and every replica named its node (a job whose replicas start, or even end, between two polls).
    void readStarted(Run* run);

    /// Reports new started files, then new output and exit files, in that order per task; the hosts before any
    /// exit (readStarted()). A task's output is read to its end once its exit file is there, and for every task when
    /// `jobOver` (Slurm says the job ended: a task that left no exit file, killed at the end of the step, has written
    /// all it will, and exited() follows; before, only a poll's worth of it was read then, and the rest was lost).
    void readFiles(Run* run, bool jobOver = false);

    // ---- stop -----------------------------------------------------------------------------------

    void cancelJob(Run* run);

    void stop(const RunId& id);

    void finishStop(Run* run);

    /// Cancels `jobIds` and waits for slurmrestd's answers, at most `budget` (executor shutdown, recovery).
    void cancelAndWait(const QList<qint64>& jobIds, std::chrono::milliseconds budget);
};

} // namespace Trainyard::Slurm
