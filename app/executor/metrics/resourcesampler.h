// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QString>

#include <memory>
#include <optional>
#include <unordered_map>

namespace Trainyard {

/// A replica's process as the scheduler knows it.
struct ReplicaProcess {
    QString taskName;
    QString trialId;
    qint64 pid = 0; ///< the replica's own process (its process group leader); 0 = none
    QList<int> gpus; ///< NVML indexes reserved for it
};

/// One sample of one replica. A value is absent when it cannot be measured this time (the first CPU
/// sample has no interval yet; GPU values without NVML or without GPU work).
struct ResourceSample {
    QString taskName;
    QString trialId;
    double wallTime = 0; ///< seconds since the Unix epoch
    std::optional<double> cpuPercent; ///< CPU time of the process tree over the interval; 100 = one core
    std::optional<double> rssBytes; ///< sum of the tree's resident set sizes (shared pages counted per process)
    std::optional<double> gpuUtilizationPercent; ///< 100 = one GPU fully busy
    std::optional<double> gpuMemoryBytes; ///< GPU memory used by the tree's processes, all GPUs
};

/// GPU usage per process through NVML, loaded at run time with dlopen("libnvidia-ml.so.1") like the GPU
/// inventory (gpuinventory.cpp); nothing is linked at build time.
/// - memory: nvmlDeviceGetComputeRunningProcesses_v3 (v2 as fallback), summed over the given pids on every GPU;
/// - utilization: nvmlDeviceGetProcessUtilization (SM %, samples since the previous call, averaged per
///   process, summed over the pids); where the GPU does not support per-process samples, the device's
///   nvmlDeviceGetUtilizationRates of the replica's own GPUs (GPUs are exclusive to one replica, so the
///   device figure is the replica's).
/// Thread-safe (one mutex); NVML itself is thread-safe.
class GpuSampler {
public:
    /// Loads NVML; nullptr (and *why set) when the host has no usable NVML.
    static std::unique_ptr<GpuSampler> open(QString* why);
    ~GpuSampler();

    struct Usage {
        std::optional<double> utilizationPercent;
        std::optional<double> memoryBytes;
    };
    /// Usage of the processes `pids` (a replica's process tree) which holds `gpus` (NVML indexes).
    Usage usage(const QList<qint64>& pids, const QList<int>& gpus);

private:
    GpuSampler();
    struct Private;
    std::unique_ptr<Private> d;
};

/// Samples replicas' process trees from /proc (Linux): a tree is the replica's process and every descendant
/// (found through the ppid of each /proc/<pid>/stat). CPU % is the tree's utime+stime delta over the
/// monotonic time since the previous sample of this sampler (a process new to the tree counts all its CPU
/// time, since it started within the interval); RSS is field 24 of stat times the page size.
///
/// Keeps per-pid CPU times between calls: use one sampler per job, from one thread at a time.
class ProcessTreeSampler {
public:
    /// One sample per replica with a pid whose process still exists. `gpu` may be null (no GPU values).
    QList<ResourceSample> sample(const QList<ReplicaProcess>& replicas, GpuSampler* gpu);

private:
    std::unordered_map<qint64, qint64> m_previousTicks; // pid → utime+stime at the previous sample
    QElapsedTimer m_clock;
};

} // namespace Trainyard
