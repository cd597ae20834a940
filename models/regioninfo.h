// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "machinecatalog.h"
#include "units.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// One node of a region as `GET …/regions` reports it (app/executor/API.md "Regions"): a Slurm node of a
/// cluster, or this host for `local`.
struct RegionNodeInfo {
    QString name; ///< the cluster's node name ("node1"), or this host's name
    QStringList state; ///< the cluster's words, base state first: "IDLE", "MIXED", "ALLOCATED", "DOWN", "DRAIN" …
    int cpus = 0;
    int cpusInUse = 0;
    int gpus = 0;
    int gpusInUse = 0;
    Bytes memory;
    QStringList partitions;
    Bytes memoryInUse; ///< what jobs hold: Slurm's allocated memory, or this host's reservations

    /// True when the node can take jobs at all: not DOWN, DRAIN(ED/ING), FAIL(ING), FUTURE, POWERED_DOWN,
    /// NOT_RESPONDING or INVALID (Slurm's node states, `sinfo(1)` "NODE STATE CODES").
    bool usable() const;
    /// True when usable() and nothing runs on it (Slurm's IDLE: no CPU allocated).
    bool idle() const;
    /// API.md's node object; memory as int64 strings ("memoryBytes"), as the service sends 64-bit integers.
    QJsonObject toJson() const;
    static RegionNodeInfo fromJson(const QJsonObject& json);
    bool operator==(const RegionNodeInfo&) const = default;
};

/// One partition of a cluster.
struct RegionPartitionInfo {
    QString name;
    QStringList state; ///< "UP", "DOWN", "DRAIN", "INACTIVE"; empty when the cluster does not say
    QString nodes; ///< a Slurm hostlist: "node[1-4]"
    int totalNodes = 0;
    int totalCpus = 0;
    QJsonObject toJson() const;
    static RegionPartitionInfo fromJson(const QJsonObject& json);
    bool operator==(const RegionPartitionInfo&) const = default;
};

/// One check of a region (`trainyardctl clusters check`): "reachable", "authenticated", "controller",
/// "partition"; `message` says what was found, or what failed.
struct RegionCheckInfo {
    QString name;
    bool ok = false;
    QString message;
    QJsonObject toJson() const;
    static RegionCheckInfo fromJson(const QJsonObject& json);
    bool operator==(const RegionCheckInfo&) const = default;
};

/// One of the project's live jobs in a region.
struct RegionJobInfo {
    QString jobId;
    QString state; ///< the service's Job.State name: "RUNNING", "QUEUED" …
    QStringList clusterJobIds; ///< the Slurm job IDs of its runs (het leader), when it runs on a cluster
    /// `clusterJobIds` is left out while empty.
    QJsonObject toJson() const;
    static RegionJobInfo fromJson(const QJsonObject& json);
    bool operator==(const RegionJobInfo&) const = default;
};

/// One region: where jobs run. `local` is this host; every other region is a Slurm cluster of the executor's
/// clusters.yaml. Decoded from `GET /v1/projects/{p}/regions[/{region}]` (app/executor/API.md "Regions");
/// unknown fields are ignored, missing ones stay empty.
struct RegionInfo {
    QString name; ///< "local", or a cluster's name ("testcluster"): what `trainingInput.region` takes
    QString kind; ///< "LOCAL" | "SLURM"
    QString state; ///< "UP" | "DOWN" | "UNAUTHENTICATED"
    QString message; ///< why it is not UP (the cluster's or slurmrestd's words)
    QString endpoint; ///< slurmrestd's URL
    QString user; ///< the user jobs run as on the cluster; empty for this host
    QString partition; ///< the partition jobs are submitted to
    QList<RegionCheckInfo> checks; ///< what `…/regions` checked to say `state` (a cluster's; none for this host)
    QList<RegionPartitionInfo> partitions;
    QList<RegionNodeInfo> nodes;
    QList<RegionJobInfo> jobs;

    bool isCluster() const { return kind != QLatin1String("LOCAL"); }
    bool isUp() const { return state == QLatin1String("UP"); }
    /// The nodes jobs go to: those in partition() (every node when the cluster names none).
    QList<RegionNodeInfo> partitionNodes() const;

    static RegionInfo fromJson(const QJsonObject& json);
    /// API.md's region object, as the executor answers `GET …/regions/{region}`: the empty text fields (message,
    /// endpoint, user, partition) are left out, the lists are always there. fromJson(toJson()) is the region.
    QJsonObject toJson() const;
    /// `{"regions": [Region, …]}` → the list, in the executor's order (local first, then clusters.yaml's).
    static QList<RegionInfo> listFromJson(const QJsonObject& json);
    /// The list as `GET …/regions` answers it: `{"regions": [Region, …]}`.
    static QJsonObject listToJson(const QList<RegionInfo>& regions);
    bool operator==(const RegionInfo&) const = default;
};

/// Whether a job's replicas fit a cluster, as the wizard's summary says it. The Slurm backend submits one
/// heterogeneous job with one component per role and one node per replica (components never share a node:
/// ../shared/slurm/RECIPE.md), asks each replica's machine type's vCPUs and memory (clamped to the largest
/// node, as app/executor/backends/slurm does) and its GPUs as `gres: gpu:N`.
struct ClusterFit {
    Q_DECLARE_TR_FUNCTIONS(ClusterFit)
public:
    enum class Verdict {
        Fits, ///< enough usable nodes are idle now: Slurm can start it at once
        Queue, ///< it can run on this cluster, but its nodes are busy: Slurm queues it
        Never, ///< the cluster cannot hold it (too few usable nodes, more GPUs than a node has), or is not up
    };
    Verdict verdict = Verdict::Never;
    QStringList reasons; ///< translated sentences, most important first
    QStringList notes; ///< translated remarks that do not block (vCPUs or memory clamped to a node's)
    int usableNodes = 0;
    int idleNodes = 0;
    int maxGpusPerNode = 0;
};

/// Checks `plan` against `region`'s nodes (see ClusterFit). `region` must be a cluster.
ClusterFit assessClusterFit(const ClusterPlan& plan, const RegionInfo& region);

} // namespace Trainyard
