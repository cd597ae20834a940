// SPDX-License-Identifier: GPL-2.0-or-later
#include "resourcesampler.h"
#include "nvml_p.h"

#include <QDateTime>
#include <QDir>
#include <QFile>

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace Trainyard {

namespace {

using namespace NvmlApi; // nvml_p.h

struct ProcStat {
    qint64 ppid = 0;
    qint64 ticks = 0; // utime + stime
    qint64 rssPages = 0;
};

/// Every process of /proc: pid → (ppid, CPU ticks, RSS pages). Processes that vanish while we read are skipped.
std::unordered_map<qint64, ProcStat> readProcesses()
{
    std::unordered_map<qint64, ProcStat> out;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& name : entries) {
        bool isPid = false;
        const qint64 pid = name.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile f(QStringLiteral("/proc/") + name + QStringLiteral("/stat"));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = f.readAll();
        // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
        const qsizetype close = line.lastIndexOf(')');
        if (close < 0)
            continue;
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        // fields[0] is field 3 (state): field N is fields[N - 3].
        if (fields.size() < 22)
            continue;
        ProcStat s;
        s.ppid = fields[4 - 3].toLongLong();
        s.ticks = fields[14 - 3].toLongLong() + fields[15 - 3].toLongLong();
        s.rssPages = fields[24 - 3].toLongLong();
        out.emplace(pid, s);
    }
    return out;
}

} // namespace

struct GpuSampler::Private {
    void* lib = nullptr;
    nvmlReturn_t (*init)() = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    nvmlReturn_t (*getCount)(unsigned int*) = nullptr;
    nvmlReturn_t (*getHandle)(unsigned int, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*getProcesses)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_t*) = nullptr;
    nvmlReturn_t (*getProcessUtilization)(
        nvmlDevice_t, nvmlProcessUtilizationSample_t*, unsigned int*, unsigned long long)
        = nullptr;
    nvmlReturn_t (*getUtilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
    bool initialized = false;
    std::mutex mutex;
    std::vector<nvmlDevice_t> devices;
    std::vector<unsigned long long> lastSeen; // per device, µs of the newest utilization sample seen
};

GpuSampler::GpuSampler()
    : d(std::make_unique<Private>())
{
}

GpuSampler::~GpuSampler()
{
    if (d->initialized)
        d->shutdown();
    if (d->lib)
        dlclose(d->lib);
}

std::unique_ptr<GpuSampler> GpuSampler::open(QString* why)
{
    std::unique_ptr<GpuSampler> s(new GpuSampler);
    Private& p = *s->d;
    p.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!p.lib) {
        *why = QString::fromLocal8Bit(dlerror());
        return nullptr;
    }
    auto sym = [&](const char* name) { return dlsym(p.lib, name); };
    p.init = reinterpret_cast<decltype(p.init)>(sym("nvmlInit_v2"));
    p.shutdown = reinterpret_cast<decltype(p.shutdown)>(sym("nvmlShutdown"));
    p.getCount = reinterpret_cast<decltype(p.getCount)>(sym("nvmlDeviceGetCount_v2"));
    p.getHandle = reinterpret_cast<decltype(p.getHandle)>(sym("nvmlDeviceGetHandleByIndex_v2"));
    p.getProcesses = reinterpret_cast<decltype(p.getProcesses)>(sym("nvmlDeviceGetComputeRunningProcesses_v3"));
    if (!p.getProcesses)
        p.getProcesses = reinterpret_cast<decltype(p.getProcesses)>(sym("nvmlDeviceGetComputeRunningProcesses_v2"));
    p.getProcessUtilization
        = reinterpret_cast<decltype(p.getProcessUtilization)>(sym("nvmlDeviceGetProcessUtilization"));
    p.getUtilization = reinterpret_cast<decltype(p.getUtilization)>(sym("nvmlDeviceGetUtilizationRates"));
    if (!p.init || !p.shutdown || !p.getCount || !p.getHandle) {
        *why = QStringLiteral("libnvidia-ml.so.1 lacks a required NVML function");
        return nullptr;
    }
    if (p.init() != NVML_SUCCESS) {
        *why = QStringLiteral("nvmlInit_v2 failed");
        return nullptr;
    }
    p.initialized = true;
    unsigned int count = 0;
    if (p.getCount(&count) != NVML_SUCCESS || count == 0) {
        *why = QStringLiteral("NVML reports no GPUs");
        return nullptr;
    }
    p.devices.assign(count, nullptr);
    p.lastSeen.assign(count, 0);
    for (unsigned int i = 0; i < count; ++i) {
        if (p.getHandle(i, &p.devices[i]) != NVML_SUCCESS)
            p.devices[i] = nullptr;
    }
    return s;
}

GpuSampler::Usage GpuSampler::usage(const QList<qint64>& pids, const QList<int>& gpus)
{
    std::lock_guard lock(d->mutex);
    const std::unordered_set<qint64> tree(pids.cbegin(), pids.cend());
    Usage u;
    double memory = 0;
    bool sawMemory = false;
    double utilization = 0;
    bool sawUtilization = false;
    const auto nowUs = static_cast<unsigned long long>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
    for (size_t i = 0; i < d->devices.size(); ++i) {
        nvmlDevice_t dev = d->devices[i];
        if (!dev)
            continue;
        const bool ours = gpus.contains(int(i));
        if (d->getProcesses) {
            std::vector<nvmlProcessInfo_t> infos(64);
            unsigned int n = unsigned(infos.size());
            nvmlReturn_t rc = d->getProcesses(dev, &n, infos.data());
            if (rc == NVML_ERROR_INSUFFICIENT_SIZE) {
                infos.resize(n + 16);
                n = unsigned(infos.size());
                rc = d->getProcesses(dev, &n, infos.data());
            }
            if (rc == NVML_SUCCESS) {
                for (unsigned int k = 0; k < n; ++k) {
                    if (tree.count(infos[k].pid)) {
                        memory += double(infos[k].usedGpuMemory);
                        sawMemory = true;
                    }
                }
                if (ours)
                    sawMemory = true; // a GPU of its own without its processes: 0 bytes
            }
        }
        bool perProcess = false;
        if (d->getProcessUtilization) {
            // Samples since the previous call (the driver keeps a short ring of them); at first the last 2 s.
            const unsigned long long since = d->lastSeen[i] ? d->lastSeen[i] : nowUs - 2000000ULL;
            unsigned int n = 0;
            nvmlReturn_t rc = d->getProcessUtilization(dev, nullptr, &n, since);
            if (rc == NVML_ERROR_INSUFFICIENT_SIZE || rc == NVML_SUCCESS) {
                perProcess = true;
                std::vector<nvmlProcessUtilizationSample_t> samples(n + 8);
                n = unsigned(samples.size());
                if (d->getProcessUtilization(dev, samples.data(), &n, since) == NVML_SUCCESS) {
                    std::unordered_map<qint64, std::pair<double, int>> perPid;
                    for (unsigned int k = 0; k < n; ++k) {
                        d->lastSeen[i] = std::max(d->lastSeen[i], samples[k].timeStamp);
                        if (tree.count(samples[k].pid)) {
                            auto& acc = perPid[samples[k].pid];
                            acc.first += samples[k].smUtil;
                            ++acc.second;
                        }
                    }
                    for (const auto& [pid, acc] : perPid)
                        utilization += acc.first / acc.second;
                    if (!perPid.empty() || ours)
                        sawUtilization = true;
                } else if (ours) {
                    sawUtilization = true; // no sample in the interval: idle
                }
            }
        }
        if (!perProcess && ours && d->getUtilization) {
            nvmlUtilization_t rates {};
            if (d->getUtilization(dev, &rates) == NVML_SUCCESS) {
                utilization += rates.gpu;
                sawUtilization = true;
            }
        }
    }
    if (sawMemory)
        u.memoryBytes = memory;
    if (sawUtilization)
        u.utilizationPercent = utilization;
    return u;
}

QList<ResourceSample> ProcessTreeSampler::sample(const QList<ReplicaProcess>& replicas, GpuSampler* gpu)
{
    QList<ResourceSample> out;
    const std::unordered_map<qint64, ProcStat> procs = readProcesses();
    std::unordered_map<qint64, std::vector<qint64>> children;
    for (const auto& [pid, stat] : procs)
        children[stat.ppid].push_back(pid);
    const bool haveInterval = m_clock.isValid();
    const double seconds = haveInterval ? double(m_clock.nsecsElapsed()) / 1e9 : 0;
    m_clock.start();
    static const double ticksPerSecond = double(sysconf(_SC_CLK_TCK));
    static const double pageSize = double(sysconf(_SC_PAGESIZE));
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;

    std::unordered_map<qint64, qint64> ticksNow;
    for (const ReplicaProcess& replica : replicas) {
        if (replica.pid <= 0 || !procs.count(replica.pid))
            continue;
        QList<qint64> tree { replica.pid };
        for (qsizetype i = 0; i < tree.size(); ++i) {
            const auto it = children.find(tree.at(i));
            if (it == children.end())
                continue;
            for (qint64 child : it->second)
                tree.append(child);
        }
        qint64 deltaTicks = 0;
        qint64 rssPages = 0;
        for (qint64 pid : std::as_const(tree)) {
            const ProcStat& s = procs.at(pid);
            rssPages += s.rssPages;
            ticksNow[pid] = s.ticks;
            const auto prev = m_previousTicks.find(pid);
            // A pid new to the tree started within the interval; a pid whose time went back was reused.
            deltaTicks += (prev == m_previousTicks.end() || prev->second > s.ticks) ? s.ticks : s.ticks - prev->second;
        }
        ResourceSample sample;
        sample.taskName = replica.taskName;
        sample.trialId = replica.trialId;
        sample.wallTime = now;
        sample.rssBytes = double(rssPages) * pageSize;
        if (haveInterval && seconds > 0.05)
            sample.cpuPercent = 100.0 * double(deltaTicks) / ticksPerSecond / seconds;
        if (gpu) {
            const GpuSampler::Usage usage = gpu->usage(tree, replica.gpus);
            sample.gpuUtilizationPercent = usage.utilizationPercent;
            sample.gpuMemoryBytes = usage.memoryBytes;
        }
        out.append(sample);
    }
    m_previousTicks = std::move(ticksNow);
    return out;
}

} // namespace Trainyard
