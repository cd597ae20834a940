// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The machine catalog: scale tiers, machine types and accelerator types, loaded from the
// resource file `:/catalog/machines.json` (resources/catalog/machines.json).
// Which numbers are the service's and which are Trainyard's local choice is documented in
// that file's "sources" block and in resources/catalog/README.md.

#include "job.h"
#include "units.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

namespace Trainyard {

/// A machine type: Compute Engine (n1-standard-4 …) or legacy (standard, large_model, complex_model_m …).
struct MachineType {
    QString name;
    /// "n1" or "a2" for Compute Engine types, "legacy" for legacy types, "tpu" for cloud_tpu.
    /// Compute Engine families mix with each other; legacy ones mix only with legacy ones.
    QString family;
    int vcpus = 0;
    Bytes memory; ///< read from the catalog in GB, as Compute Engine documents it (n1-standard-4: 15 GB)
    /// Accelerator type (AcceleratorType enum name) -> allowed counts for this machine type.
    /// Empty for legacy types: the service rejects acceleratorConfig with them.
    QMap<QString, QList<int>> acceleratorCounts;
    /// GPUs a legacy type brings by itself (standard_gpu: 1 x NVIDIA_TESLA_K80); count absent when none.
    AcceleratorConfig impliedAccelerator;
    bool operator==(const MachineType&) const = default;
};

/// An accelerator type of the service (NVIDIA_TESLA_T4, TPU_V2 …).
struct AcceleratorTypeInfo {
    QString name;
    QString displayName; ///< "NVIDIA T4"
    bool isTpu = false;
    /// Model names in NVML device names that identify this type on a host ("T4" for "Tesla T4").
    /// Matched as whole words (see MachineCatalog::acceleratorTypeForGpuName), so "P4" is not "Tesla P40".
    QStringList nvmlNames;
    bool operator==(const AcceleratorTypeInfo&) const = default;
};

/// A scale tier and what it expands to on a workstation (the expansion is our local choice;
/// the service does not publish the machine types behind its tiers).
struct ScaleTierInfo {
    QString name;
    QString description;
    bool available = true; ///< false for BASIC_TPU on a workstation
    QString unavailableReason;
    QString masterType;
    int workerCount = 0;
    QString workerType;
    int parameterServerCount = 0;
    QString parameterServerType;
    AcceleratorConfig masterAccelerator; ///< count 0 when none
    bool operator==(const ScaleTierInfo&) const = default;

    /// The tier as `GET …/scaleTiers` answers it (app/executor/API.md "Catalogs"): name, description, available,
    /// masterType, workerCount, parameterServerCount; unavailableReason, workerType, parameterServerType and
    /// masterAcceleratorConfig ({"count": int64 string, "type"}) only when set.
    QJsonObject toJson() const;
    /// Reads what toJson() writes; lenient (missing fields keep their defaults), as clients read the executor.
    static ScaleTierInfo fromJson(const QJsonObject& json);
};

/// One GPU of this host, as NVML reports it.
struct GpuInfo {
    int index = 0; ///< NVML index, the number used in CUDA_VISIBLE_DEVICES
    QString uuid;
    QString name; ///< NVML device name, e.g. "NVIDIA H100 80GB HBM3"
    QString acceleratorType; ///< catalog AcceleratorType matched from the name, or "NVIDIA_GPU" when unknown
    qint64 memoryBytes = 0;
    bool operator==(const GpuInfo&) const = default;
};

/// What this host can give to replicas.
struct HostInventory {
    int cpus = 0;
    qint64 memoryBytes = 0;
    QList<GpuInfo> gpus;
    bool operator==(const HostInventory&) const = default;
};

/// How much of this host a job may ask for (local policy, catalog block "hostPolicy"; see
/// resources/catalog/README.md). Replicas are processes that share CPUs and memory, so machine types
/// are reservations with overcommit, not partitions; GPUs are never shared.
struct HostPolicy {
    double cpuOvercommit = 32; ///< a job may reserve up to cpus * this many vCPUs
    double memoryOvercommit = 16; ///< and up to memory * this many GB
    int replicasPerCpu = 2; ///< and run up to max(minReplicaLimit, cpus * this) replicas
    int minReplicaLimit = 16;
    QString unknownGpuType = QStringLiteral("NVIDIA_GPU"); ///< accelerator type of host GPUs the catalog does not know
    bool operator==(const HostPolicy&) const = default;
};

/// The most one job may reserve on a host under the HostPolicy.
struct HostCapacity {
    double vcpus = 0;
    Bytes memory;
    int replicas = 0;
    int gpus = 0;
    bool operator==(const HostCapacity&) const = default;
};

/// A text of the machine catalog resource (resources/catalog/machines.json: a scale tier's
/// unavailableReason) in the language of the installed translator, context "Trainyard::MachineCatalog".
/// The catalog's texts are listed for lupdate in machinecatalog.cpp, since lupdate does not read JSON;
/// without a translator (the executor, trainyardctl) the English text comes back unchanged, as the API
/// serves it.
QString translatedCatalogText(const QString& text);

class MachineCatalog {
public:
    /// The catalog compiled into the resources (parsed once, thread-safe).
    static const MachineCatalog& builtin();
    /// Parses a catalog document; returns an empty catalog and sets *error on malformed input.
    static MachineCatalog fromJson(const QJsonObject& json, QString* error);

    const QList<ScaleTierInfo>& scaleTiers() const { return m_scaleTiers; }
    const QList<MachineType>& machineTypes() const { return m_machineTypes; }
    const QList<AcceleratorTypeInfo>& acceleratorTypes() const { return m_acceleratorTypes; }

    const ScaleTierInfo* scaleTier(const QString& name) const;
    const MachineType* machineType(const QString& name) const;
    const AcceleratorTypeInfo* acceleratorType(const QString& name) const;

    const HostPolicy& hostPolicy() const { return m_hostPolicy; }
    /// The accelerator type of a host GPU from its NVML name ("Tesla T4" → NVIDIA_TESLA_T4); the
    /// longest whole-word nvmlNames match wins; hostPolicy().unknownGpuType when none matches.
    QString acceleratorTypeForGpuName(const QString& nvmlName) const;
    /// Whether a host GPU can serve a request for `requestedType` (local rule): same type; or the
    /// request is the generic unknownGpuType (any GPU); or the GPU is one the catalog does not know
    /// (H100, L4 …: newer than the service's types) and the request is any GPU type. TPUs never.
    bool gpuSatisfies(const GpuInfo& gpu, const QString& requestedType) const;
    /// How many of the host's GPUs can serve `requestedType`.
    int hostGpusFor(const HostInventory& host, const QString& requestedType) const;
    /// The most one job may reserve on `host`.
    HostCapacity capacity(const HostInventory& host) const;

private:
    HostPolicy m_hostPolicy;
    QList<ScaleTierInfo> m_scaleTiers;
    QList<MachineType> m_machineTypes;
    QList<AcceleratorTypeInfo> m_acceleratorTypes;
};

/// A replica role after the scale tier is expanded.
struct RolePlan {
    QString role; ///< "master" | "worker" | "ps" | "evaluator" (TF_CONFIG task types)
    QString taskPrefix; ///< "master-replica" | "worker-replica" | "ps-replica" | "evaluator-replica"
    int count = 0;
    QString machineType;
    int vcpus = 0;
    Bytes memory; ///< per replica
    QString acceleratorType; ///< empty when none
    int acceleratorCount = 0; ///< per replica
    bool operator==(const RolePlan&) const = default;
};

/// The cluster a TrainingInput asks for: master first, then workers, ps, evaluators (roles with count 0
/// omitted). Totals are what the scheduler reserves.
struct ClusterPlan {
    QList<RolePlan> roles;
    int totalReplicas() const;
    int totalVcpus() const;
    Bytes totalMemory() const;
    int totalGpus() const;
    bool operator==(const ClusterPlan&) const = default;
};

/// Expands the scale tier (or CUSTOM types/counts) into roles. Assumes a validated input.
ClusterPlan planCluster(const TrainingInput& input, const MachineCatalog& catalog);

/// Validates a Job for create, as the service does plus what this host can hold.
/// Every violation is returned (never stops at the first), each with its field path in the Job JSON.
/// Rules: ARCHITECTURE.md "A job's life" step 1 and the service's REST/docs rules.
/// `host` is used for "can this host ever hold it" (GPU types/counts, vCPUs, memory).
FieldViolations validateJob(const Job& job, const MachineCatalog& catalog, const HostInventory& host);
/// As validateJob without the host rules, for a job that runs on a cluster (a Slurm backend): the cluster's
/// nodes, not this workstation, hold it, and its backend fails placement when they never can.
FieldViolations validateClusterJob(const Job& job, const MachineCatalog& catalog);

/// The most `trainingInput.args` may hold, in UTF-8 bytes, one argument and all together: Linux's MAX_ARG_STRLEN,
/// the longest argument a program can be given. The service documents no limit; a job is stored and listed whole,
/// so it needs one.
constexpr qsizetype MaxJobArgsBytes = 128 * 1024;
/// The most a whole job may hold as JSON (bytes): bounds every field the rules above do not.
constexpr qsizetype MaxJobBytes = 512 * 1024;
/// The service's limit on `trainingInput.packageUris` ("The maximum number of package URIs is 100").
constexpr qsizetype MaxPackageUris = 100;

/// Job ID rule alone (for live validation in the console): empty list when valid.
QStringList jobIdProblems(const QString& jobId);
/// The project ID rule (Resource Manager's, https://cloud.google.com/resource-manager/docs/creating-managing-projects:
/// 6 to 30 characters of lowercase ASCII letters, digits and hyphens, starting with a letter and not ending with a
/// hyphen), plus DefaultProjectId, the project the console and trainyardctl have always used here. Empty list when
/// valid. A project ID is part of every resource name and of the executor's folder paths, so every route checks it
/// before anything else.
QStringList projectIdProblems(const QString& project);
/// "local": the project of the clients' requests unless one is named, and of jobs stored before projects existed.
inline QString defaultProjectId()
{
    return QStringLiteral("local");
}
/// Label rules alone: violations with paths "labels.<key>".
FieldViolations labelViolations(const QMap<QString, QString>& labels);

} // namespace Trainyard
