// SPDX-License-Identifier: GPL-2.0-or-later
#include "gpuinventory.h"
#include "nvml_p.h"
#include "runtimelogging.h"

#include <QFile>
#include <QThread>

#include <dlfcn.h>
#include <sched.h>

namespace Trainyard {

namespace {

using namespace NvmlApi; // nvml_p.h

/// NVML opened with dlopen; every function pointer is checked before use.
class Nvml {
public:
    Nvml()
    {
        m_lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!m_lib) {
            m_error = QString::fromLocal8Bit(dlerror());
            return;
        }
        init = reinterpret_cast<decltype(init)>(dlsym(m_lib, "nvmlInit_v2"));
        shutdown = reinterpret_cast<decltype(shutdown)>(dlsym(m_lib, "nvmlShutdown"));
        errorString = reinterpret_cast<decltype(errorString)>(dlsym(m_lib, "nvmlErrorString"));
        getCount = reinterpret_cast<decltype(getCount)>(dlsym(m_lib, "nvmlDeviceGetCount_v2"));
        getHandle = reinterpret_cast<decltype(getHandle)>(dlsym(m_lib, "nvmlDeviceGetHandleByIndex_v2"));
        getName = reinterpret_cast<decltype(getName)>(dlsym(m_lib, "nvmlDeviceGetName"));
        getUuid = reinterpret_cast<decltype(getUuid)>(dlsym(m_lib, "nvmlDeviceGetUUID"));
        getMemory = reinterpret_cast<decltype(getMemory)>(dlsym(m_lib, "nvmlDeviceGetMemoryInfo"));
        if (!init || !shutdown || !getCount || !getHandle || !getName || !getUuid || !getMemory) {
            m_error = QStringLiteral("libnvidia-ml.so.1 lacks a required NVML function");
            return;
        }
        const nvmlReturn_t rc = init();
        if (rc != NVML_SUCCESS) {
            m_error = QStringLiteral("nvmlInit_v2 failed: ") + message(rc);
            return;
        }
        m_initialized = true;
    }
    ~Nvml()
    {
        if (m_initialized)
            shutdown();
        if (m_lib)
            dlclose(m_lib);
    }
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    bool ok() const { return m_initialized; }
    QString error() const { return m_error; }
    QString message(nvmlReturn_t rc) const
    {
        if (errorString)
            return QString::fromUtf8(errorString(rc));
        return QStringLiteral("NVML error %1").arg(rc);
    }

    nvmlReturn_t (*init)() = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    const char* (*errorString)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*getCount)(unsigned int*) = nullptr;
    nvmlReturn_t (*getHandle)(unsigned int, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*getName)(nvmlDevice_t, char*, unsigned int) = nullptr;
    nvmlReturn_t (*getUuid)(nvmlDevice_t, char*, unsigned int) = nullptr;
    nvmlReturn_t (*getMemory)(nvmlDevice_t, nvmlMemory_t*) = nullptr;

private:
    void* m_lib = nullptr;
    bool m_initialized = false;
    QString m_error;
};

int detectCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        const int n = CPU_COUNT(&set);
        if (n > 0)
            return n;
    }
    return std::max(1, QThread::idealThreadCount());
}

qint64 detectMemoryBytes()
{
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    // /proc files report size 0, so atEnd() is true at once: read everything, then split.
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray& line : lines) {
        if (line.startsWith("MemTotal:")) {
            // "MemTotal:       16318280 kB"
            const QList<QByteArray> parts = line.mid(9).simplified().split(' ');
            bool ok = false;
            const qint64 kb = parts.value(0).toLongLong(&ok);
            return ok ? kb * 1024 : 0;
        }
    }
    return 0;
}

QList<GpuInfo> detectGpus(const MachineCatalog& catalog)
{
    QList<GpuInfo> gpus;
    Nvml nvml;
    if (!nvml.ok()) {
        qCInfo(lcRuntime, "no GPUs: NVML not available (%s)", qPrintable(nvml.error()));
        return gpus;
    }
    unsigned int count = 0;
    nvmlReturn_t rc = nvml.getCount(&count);
    if (rc != NVML_SUCCESS) {
        qCWarning(lcRuntime, "no GPUs: nvmlDeviceGetCount_v2 failed: %s", qPrintable(nvml.message(rc)));
        return gpus;
    }
    for (unsigned int i = 0; i < count; ++i) {
        nvmlDevice_t dev = nullptr;
        rc = nvml.getHandle(i, &dev);
        if (rc != NVML_SUCCESS) {
            qCWarning(lcRuntime, "GPU %u skipped: %s", i, qPrintable(nvml.message(rc)));
            continue;
        }
        GpuInfo gpu;
        gpu.index = int(i);
        char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE] = {};
        if (nvml.getName(dev, name, sizeof name) == NVML_SUCCESS)
            gpu.name = QString::fromUtf8(name);
        char uuid[NVML_DEVICE_UUID_V2_BUFFER_SIZE] = {};
        if (nvml.getUuid(dev, uuid, sizeof uuid) == NVML_SUCCESS)
            gpu.uuid = QString::fromUtf8(uuid);
        nvmlMemory_t mem {};
        if (nvml.getMemory(dev, &mem) == NVML_SUCCESS)
            gpu.memoryBytes = qint64(mem.total);
        gpu.acceleratorType = acceleratorGpuType(gpu.name, catalog);
        qCInfo(lcRuntime, "GPU %d: %s (%s), %lld bytes, %s", gpu.index, qPrintable(gpu.name), qPrintable(gpu.uuid),
            gpu.memoryBytes, qPrintable(gpu.acceleratorType));
        gpus.append(gpu);
    }
    return gpus;
}

} // namespace

namespace {
/// `pattern` occurs in `name` as whole words: "P4" matches "Tesla P4" but not "Tesla P40".
bool containsWord(const QString& name, const QString& pattern)
{
    qsizetype from = 0;
    for (;;) {
        const qsizetype at = name.indexOf(pattern, from, Qt::CaseInsensitive);
        if (at < 0)
            return false;
        const qsizetype end = at + pattern.size();
        const bool startOk = at == 0 || !name.at(at - 1).isLetterOrNumber();
        const bool endOk = end == name.size() || !name.at(end).isLetterOrNumber();
        if (startOk && endOk)
            return true;
        from = at + 1;
    }
}
} // namespace

QString acceleratorGpuType(const QString& nvmlName, const MachineCatalog& catalog)
{
    QString best;
    qsizetype bestLen = 0;
    for (const AcceleratorTypeInfo& type : catalog.acceleratorTypes()) {
        if (type.isTpu)
            continue;
        for (const QString& pattern : type.nvmlNames) {
            if (!pattern.isEmpty() && pattern.size() > bestLen && containsWord(nvmlName, pattern)) {
                best = type.name;
                bestLen = pattern.size();
            }
        }
    }
    return best.isEmpty() ? QStringLiteral("NVIDIA_GPU") : best;
}

HostInventory detectHostInventory(const MachineCatalog& catalog)
{
    HostInventory host;
    host.cpus = detectCpus();
    host.memoryBytes = detectMemoryBytes();
    host.gpus = detectGpus(catalog);
    return host;
}

} // namespace Trainyard
