// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "jobkey.h"
#include "launchspec.h"
#include "logentry.h"
#include "machinecatalog.h"
#include "regioninfo.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <chrono>
#include <functional>
#include <optional>

namespace Trainyard {

/// Names one replica-set run: a job's cluster (`trialId` empty), or one trial of a tuning job. A job's
/// runs share its JobKey; each has its own replicas, restarts and supervision.
struct RunId {
    JobKey job;
    QString trialId;
    /// "projects/<p>/jobs/<id>" or "projects/<p>/jobs/<id>/trials/<trialId>": for logs and maps.
    QString text() const { return trialId.isEmpty() ? job.name() : job.name() + QStringLiteral("/trials/") + trialId; }
    bool operator==(const RunId&) const = default;
    bool operator<(const RunId& o) const { return job != o.job ? job < o.job : trialId < o.trialId; }
};

/// How a replica ended, as a value (no QProcess enum leaks out of a backend).
struct ReplicaExit {
    enum class Kind {
        Exited, ///< it returned `code` (0–255)
        Signalled, ///< it was killed by `signal`
        FailedToStart, ///< it never ran: `error` says why (no interpreter, no such file …)
        /// The backend lost track of it and cannot tell how it ended (a cluster's job vanished while no executor
        /// watched it, and the replica left no exit status): `error` says what is known. A permanent failure.
        Lost,
    };
    Kind kind = Kind::Exited;
    int code = 0;
    int signal = 0;
    QString error;
    bool operator==(const ReplicaExit&) const = default;
};

/// What a backend set aside for a run when admit() said yes: host GPU indices in the order
/// Launch::slotsFor hands them to replicas. Empty for a run without accelerators.
struct Reservation {
    QList<int> gpus;
    bool operator==(const Reservation&) const = default;
};

/// What a backend holds now, for `…/host` and the status bar.
struct BackendUsage {
    HostInventory host;
    int vcpusInUse = 0;
    Bytes memoryInUse;
    QList<int> gpusInUse; ///< sorted
    int runsHolding = 0; ///< runs with a reservation
    int predictionNodes = 0; ///< prediction nodes with a reservation (NodeCapacity; counted in vcpusInUse, memoryInUse)
};

/// One node and one partition of a region as `…/regions` shows them (app/executor/API.md "Regions"): a cluster's
/// as its scheduler reports them, or this host. The types the clients decode (models/regioninfo.h), so that the
/// executor's answer and the console's reading of it cannot drift apart.
using RegionNode = RegionNodeInfo;
using RegionPartition = RegionPartitionInfo;
using RegionCheck = RegionCheckInfo;

/// A backend's region as it is now (Backend::regionStatus()).
struct RegionStatus {
    enum class State {
        Up, ///< answers and takes jobs
        Down, ///< cannot be reached, or its controller does not answer: `message` says which
        Unauthenticated, ///< answers, but refuses the configured credentials: `message` says how
    };
    State state = State::Up;
    QString message; ///< empty when Up and every check passed
    QString kind; ///< "LOCAL", "SLURM"
    QString endpoint; ///< how the executor reaches it ("http://127.0.0.1:16880"); empty for this host
    QString user; ///< the user jobs run as there; empty for this host
    QString partition; ///< the partition jobs go to; empty: the cluster's default
    QList<RegionCheck> checks;
    QList<RegionPartition> partitions;
    QList<RegionNode> nodes;
};

/// Where replicas run. The scheduler above it owns each job's life (queue, states, restarts, timers,
/// cancel, recovery) and never touches a process; a backend owns resources and replicas, and reports
/// what happens to them. PlotJuggler's DataStreamer shape: commands in, whole values out through signals.
///
/// A run goes: admit() (reserve, or "not now") → place() → placed(addresses) → launch(one spec per
/// replica, built by Launch::buildLaunch from those addresses) → started/output/exited per replica →
/// stop() → stopped() → release(). Placement comes before any TF_CONFIG exists because a cluster
/// backend learns its hosts only at allocation.
///
/// A cluster backend may also place before the cluster allocates (Launch::Placement::hostsPending): the
/// replicas are launched into its queue with placeholder hosts that it fills in where they start, which saves
/// the round trip from the allocation back to the executor and out again. It then sends hostsKnown() once it
/// knows the nodes, and may still send placementFailed() after placed(), while no replica has started (the
/// cluster says later that the job can never run, or drops it before it runs). As before placed(), a backend
/// that sends placementFailed() has already let go of everything of the run (the Slurm one cancels its job):
/// the scheduler fails the job at once, without stop().
///
/// Threading contract: every method is called on the thread the backend lives in (the executor's main
/// thread) and returns without blocking on a replica; every signal is emitted on that thread, from the
/// event loop, never from inside one of the backend's own methods (so a slot may call back into the
/// backend). For one replica, output() chunks come in order and all of them before its exited(); for
/// one run, stopped() comes after every exited() and only in answer to stop().
class Backend : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~Backend() override;

    /// The backend's name in the API and logs ("local", or a Slurm cluster's name).
    virtual QString name() const = 0;
    /// The accelerator types (the catalog's, "NVIDIA_TESLA_T4") its jobs can ask for, sorted, without duplicates: this
    /// host's GPUs, a cluster's clusters.yaml `gpuTypes`. `projects.locations` lists them.
    virtual QStringList acceleratorTypes() const { return {}; }
    /// Where a run's folders (staging, replica folders, the backend's own files) go: `JobKey::folder(root)`.
    /// The local backend: the executor's `dataDir`. A cluster backend: a folder its nodes see at the same path.
    virtual QString runFolderRoot(const QString& dataDir) const { return dataDir; }
    /// The Python interpreter replicas and staging use, a full path; empty: the job's runtime version picks it
    /// on this host (the local backend).
    virtual QString interpreter() const { return QString(); }
    /// How this backend runs replicas with a container image (the service's custom containers); an empty
    /// `podman`: it cannot, and a job with images is refused before it is stored.
    virtual Launch::ContainerRuntime containers() const { return {}; }
    /// Called once the scheduler has made a job's job dir (`trainingInput.jobDir`, a folder it created or found),
    /// before the first of its replicas runs here. A backend whose replicas run as another user than the executor
    /// makes the folder theirs (the trainer writes checkpoints and event files into it, and the trial folders of a
    /// study). Returns a warning for the job's log when it cannot; empty when all is well. The local backend's
    /// replicas run as the executor: nothing to do.
    virtual QString adoptJobDir(const QString& path)
    {
        Q_UNUSED(path);
        return QString();
    }

    /// Reserves what `plan` asks for when it fits now (the Admission rule of models/admission.h for the
    /// local host). Returns the reservation, or nothing when the run must wait. A run holds at most one
    /// reservation; admitting it again first releases the old one.
    virtual std::optional<Reservation> admit(const RunId& run, const ClusterPlan& plan) = 0;
    /// Frees the run's reservation (no-op when it holds none).
    virtual void release(const RunId& run) = 0;

    /// Chooses an address per replica of `set`; answers with placed() or placementFailed().
    virtual void place(const RunId& run, const Launch::ReplicaSet& set) = 0;
    /// Starts every replica of the run (`replicas` in ReplicaSet order). Each answers with started(), or
    /// with exited(FailedToStart).
    virtual void launch(const RunId& run, const QList<Launch::ReplicaLaunch>& replicas) = 0;
    /// Stops the run: SIGTERM (or the cluster's equivalent) now, SIGKILL after `grace`; then anything
    /// the replicas started. Emits stopped() once every replica and every process of the run is gone,
    /// also when none was running. Calling it again while stopping only keeps the earlier deadline.
    virtual void stop(const RunId& run, std::chrono::milliseconds grace) = 0;
    /// Executor shutdown: stops every run synchronously within `budget` (then kills), emits nothing.
    virtual void stopAll(std::chrono::milliseconds budget) = 0;
    /// Recovery after an executor restart: removes whatever a previous executor left of the run whose
    /// processes carry `jobMarker` (see Launch::LaunchContext::jobMarker). Synchronous.
    virtual void reclaim(const RunId& run, const QString& jobMarker) = 0;

    /// How many complete lines of a replica's stdout (`isStderr` false) or stderr the log store holds for the
    /// run, counting only lines stored at or after `sinceUs` (µs since the Unix epoch). attach() uses it to go on
    /// reading a replica's output right after the last line the previous executor stored.
    using StoredLines = std::function<qint64(const QString& taskName, bool isStderr, qint64 sinceUs)>;
    /// Recovery after an executor restart, tried before reclaim(): re-attaches to replicas that a previous
    /// executor launched (`set`, as it was placed, and `jobMarker` as for reclaim()) and that outlived it, such
    /// as a cluster's job. Returns their addresses (ReplicaSet order) when it re-attached: the run is then as
    /// after launch(), and answers with started() for every replica that started, output() from the first line
    /// that `storedLines` says is not stored yet, exited() and (after stop()) stopped(), all from the event loop.
    /// Returns nothing when there is nothing to re-attach to (the default: local replicas die with their
    /// executor); the scheduler then reclaims the run and starts it again.
    virtual std::optional<Launch::Placement> attach(
        const RunId& run, const Launch::ReplicaSet& set, const QString& jobMarker, const StoredLines& storedLines)
    {
        Q_UNUSED(run);
        Q_UNUSED(set);
        Q_UNUSED(jobMarker);
        Q_UNUSED(storedLines);
        return std::nullopt;
    }

    virtual BackendUsage usage() const = 0;
    /// The run's job in the region's own scheduler ("314": a Slurm job ID) while the backend runs it; empty when it
    /// has none (the local backend, a run not submitted yet or done).
    virtual QString clusterJobId(const RunId& run) const
    {
        Q_UNUSED(run);
        return QString();
    }

    /// Asks the region (a cluster) how it is now: reachable, credentials accepted, its partitions and nodes. `done`
    /// runs once, later, from the event loop (dropped when `context` is destroyed first). The default (this host's
    /// backend): Up, kind "LOCAL", nothing else (the API fills this host's node in from usage()).
    virtual void regionStatus(QObject* context, std::function<void(const RegionStatus&)> done);

Q_SIGNALS:
    void placed(const Trainyard::RunId& run, const Trainyard::Launch::Placement& placement);
    void placementFailed(const Trainyard::RunId& run, const QString& message);
    /// The real hosts of a placement that was placed() with hostsPending (same order and ports; `hostsPending`
    /// false). At most once per placement.
    void hostsKnown(const Trainyard::RunId& run, const Trainyard::Launch::Placement& placement);
    /// A replica runs as `pid` (on its node for a cluster), since `startTime` (UTC; invalid: now). A cluster backend
    /// that learns it later (a poll, or after an executor restart) tells when it really started.
    void started(const Trainyard::RunId& run, const QString& taskName, qint64 pid, const QDateTime& startTime = {});
    /// A chunk of a replica's stdout or stderr, as read (lines may be split across chunks).
    void output(const Trainyard::RunId& run, const QString& taskName, const QByteArray& bytes, bool isStderr);
    void exited(const Trainyard::RunId& run, const QString& taskName, const Trainyard::ReplicaExit& exit);
    /// Every replica of the run and every process any of them started is gone.
    void stopped(const Trainyard::RunId& run);
    /// Something the job's users should read in its log, from the backend's side (a cluster's queue: why Slurm keeps
    /// the job pending, the nodes it runs on), at `severity`.
    void notice(const Trainyard::RunId& run, Trainyard::LogSeverity severity, const QString& message);
};

} // namespace Trainyard

Q_DECLARE_METATYPE(Trainyard::RunId)
Q_DECLARE_METATYPE(Trainyard::ReplicaExit)
Q_DECLARE_METATYPE(Trainyard::Launch::Placement)
