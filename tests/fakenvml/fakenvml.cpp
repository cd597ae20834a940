// SPDX-License-Identifier: GPL-2.0-or-later
// A stand-in for NVIDIA's libnvidia-ml.so.1, for tests on hosts without a GPU: the NVML entry points
// that the executor's GPU inventory (gpuinventory.cpp) and GPU sampler (resourcesampler.cpp) load with
// dlopen/dlsym, with the signatures, structure layouts, return codes and buffer-size protocol of the
// NVML API reference (docs.nvidia.com/deploy/nvml-api; the layouts also match the bindings that
// Debian's librust-nvml-wrapper-sys-dev generates from nvml.h). It reports made-up GPUs and, as the
// processes running on them, the real processes of this host whose command line contains a
// marker, each on the GPU its CUDA_VISIBLE_DEVICES names. It proves that our code drives NVML's
// protocol correctly; it cannot prove what a real driver reports, which only a host with a GPU can.
//
// Read at every call, from the environment of the process that loaded it:
//   FAKE_NVML_GPU_COUNT   GPUs (default 1), each "Tesla T4" with 16 GiB, UUID
//   GPU-00000000-0000-0000-0000-00000000000<i> FAKE_NVML_MATCH       marker: processes whose /proc/<pid>/cmdline (NULs
//   read as spaces) contains it
//                         run on the GPU of the first index in their CUDA_VISIBLE_DEVICES (GPU 0
//                         without one, none when it is empty); none when unset or empty
//   FAKE_NVML_PROCESS_MEMORY  bytes each such process uses (default 314572800, 300 MiB)
//   FAKE_NVML_SM_UTIL     SM utilisation % of each such process in its samples (default 37)
//   FAKE_NVML_DEVICE_UTIL device utilisation % of nvmlDeviceGetUtilizationRates (default 55)
//   FAKE_NVML_PHANTOMS    extra processes on GPU 0 with pids no host has (≥ 2^31), to make callers
//                         grow their buffers (default 0)

#include <dirent.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using nvmlReturn_t = int;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_INVALID_ARGUMENT = 2;
constexpr nvmlReturn_t NVML_ERROR_NOT_FOUND = 6;
constexpr nvmlReturn_t NVML_ERROR_INSUFFICIENT_SIZE = 7;

struct Device {
    unsigned int index;
};
Device devices[8] = { { 0 }, { 1 }, { 2 }, { 3 }, { 4 }, { 5 }, { 6 }, { 7 } };

// Declared again here rather than shared with the executor's copy (resourcesampler.cpp), so that a layout
// mistake in one is not silently repeated in the other; both follow nvml.h.
struct nvmlProcessInfo_t { // nvmlProcessInfo_v2_t / nvmlProcessInfo_t of NVML 11 and 12
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};
struct nvmlProcessUtilizationSample_t {
    unsigned int pid;
    unsigned long long timeStamp; // µs since the Unix epoch
    unsigned int smUtil;
    unsigned int memUtil;
    unsigned int encUtil;
    unsigned int decUtil;
};
struct nvmlUtilization_t {
    unsigned int gpu;
    unsigned int memory;
};
struct nvmlMemory_t {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
static_assert(sizeof(nvmlProcessInfo_t) == 24 && sizeof(nvmlProcessUtilizationSample_t) == 32);

unsigned long long envNumber(const char* name, unsigned long long fallback)
{
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

unsigned int gpuCount()
{
    const unsigned long long n = envNumber("FAKE_NVML_GPU_COUNT", 1);
    return unsigned(n > 8 ? 8 : n);
}

bool validDevice(const Device* d)
{
    return d && d >= devices && d < devices + gpuCount();
}

std::string readProcFile(const std::string& path)
{
    std::string text;
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return text;
    char buffer[4096];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0)
        text.append(buffer, got);
    std::fclose(f);
    return text;
}

/// No GPU: CUDA_VISIBLE_DEVICES set but empty, as the executor sets it for replicas without GPUs (CUDA then
/// shows the process no device).
constexpr unsigned int NoGpu = ~0u;

/// The GPU a process uses: the first index of its CUDA_VISIBLE_DEVICES, as CUDA would number them; 0
/// without one; NoGpu when it is empty.
unsigned int gpuOfProcess(const std::string& pid)
{
    const std::string environ = readProcFile("/proc/" + pid + "/environ");
    const std::string key = "CUDA_VISIBLE_DEVICES=";
    for (size_t at = 0; at < environ.size();) {
        const size_t end = environ.find('\0', at);
        const std::string entry = environ.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (entry.compare(0, key.size(), key) == 0)
            return entry.size() == key.size() ? NoGpu : unsigned(std::strtoul(entry.c_str() + key.size(), nullptr, 10));
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return 0;
}

struct Matched {
    unsigned int pid;
    unsigned int gpu;
};

/// This host's processes whose command line contains FAKE_NVML_MATCH, each with its GPU.
std::vector<Matched> matchedProcesses()
{
    std::vector<Matched> pids;
    const char* marker = std::getenv("FAKE_NVML_MATCH");
    if (!marker || !*marker)
        return pids;
    DIR* proc = opendir("/proc");
    if (!proc)
        return pids;
    while (const dirent* entry = readdir(proc)) {
        char* end = nullptr;
        const unsigned long pid = std::strtoul(entry->d_name, &end, 10);
        if (!end || *end || pid == 0)
            continue;
        std::string cmdline = readProcFile(std::string("/proc/") + entry->d_name + "/cmdline");
        // The sandbox's bubblewrap processes carry the replica's command line but hold no GPU context: NVML lists
        // only the process that opened the GPU (app/launch/sandbox.h).
        const std::string program = cmdline.substr(0, cmdline.find('\0'));
        if (program.size() >= 5 && program.compare(program.size() - 5, 5, "bwrap") == 0)
            continue;
        for (char& c : cmdline) {
            if (c == '\0')
                c = ' ';
        }
        if (cmdline.find(marker) != std::string::npos)
            pids.push_back({ unsigned(pid), gpuOfProcess(entry->d_name) });
    }
    closedir(proc);
    return pids;
}

/// The processes on `device`: the matched ones that use it, and on GPU 0 the phantoms.
std::vector<nvmlProcessInfo_t> processesOn(const Device* device)
{
    std::vector<nvmlProcessInfo_t> list;
    const unsigned long long memory = envNumber("FAKE_NVML_PROCESS_MEMORY", 300ULL << 20);
    for (const Matched& m : matchedProcesses()) {
        if (m.gpu == device->index)
            list.push_back({ m.pid, memory, 0xFFFFFFFFu, 0xFFFFFFFFu });
    }
    if (device->index != 0)
        return list;
    const unsigned long long phantoms = envNumber("FAKE_NVML_PHANTOMS", 0);
    for (unsigned long long k = 0; k < phantoms; ++k)
        list.push_back({ 0x80000000u + unsigned(k), memory, 0xFFFFFFFFu, 0xFFFFFFFFu });
    return list;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) nvmlReturn_t nvmlInit_v2()
{
    return NVML_SUCCESS;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlShutdown()
{
    return NVML_SUCCESS;
}

__attribute__((visibility("default"))) const char* nvmlErrorString(nvmlReturn_t result)
{
    switch (result) {
    case NVML_SUCCESS:
        return "Success";
    case NVML_ERROR_INVALID_ARGUMENT:
        return "Invalid Argument";
    case NVML_ERROR_NOT_FOUND:
        return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE:
        return "Insufficient Size";
    default:
        return "Unknown Error";
    }
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count)
{
    if (!count)
        return NVML_ERROR_INVALID_ARGUMENT;
    *count = gpuCount();
    return NVML_SUCCESS;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, Device** device)
{
    if (!device || index >= gpuCount())
        return NVML_ERROR_INVALID_ARGUMENT;
    *device = &devices[index];
    return NVML_SUCCESS;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetName(Device* device, char* name, unsigned int length)
{
    if (!validDevice(device) || !name)
        return NVML_ERROR_INVALID_ARGUMENT;
    const char text[] = "Tesla T4";
    if (length < sizeof text)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    std::memcpy(name, text, sizeof text);
    return NVML_SUCCESS;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetUUID(Device* device, char* uuid, unsigned int length)
{
    if (!validDevice(device) || !uuid)
        return NVML_ERROR_INVALID_ARGUMENT;
    char text[64];
    const int n = std::snprintf(text, sizeof text, "GPU-00000000-0000-0000-0000-00000000000%u", device->index);
    if (length < unsigned(n) + 1)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    std::memcpy(uuid, text, size_t(n) + 1);
    return NVML_SUCCESS;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetMemoryInfo(Device* device, nvmlMemory_t* memory)
{
    if (!validDevice(device) || !memory)
        return NVML_ERROR_INVALID_ARGUMENT;
    unsigned long long used = 0;
    for (const nvmlProcessInfo_t& p : processesOn(device))
        used += p.usedGpuMemory;
    memory->total = 16ULL << 30;
    memory->used = used < memory->total ? used : memory->total;
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

// "If infoCount is not large enough, NVML_ERROR_INSUFFICIENT_SIZE is returned and infoCount is set to the
// required size" (nvmlDeviceGetComputeRunningProcesses, NVML API reference).
__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(
    Device* device, unsigned int* infoCount, nvmlProcessInfo_t* infos)
{
    if (!validDevice(device) || !infoCount)
        return NVML_ERROR_INVALID_ARGUMENT;
    const std::vector<nvmlProcessInfo_t> list = processesOn(device);
    if (*infoCount < list.size()) {
        *infoCount = unsigned(list.size());
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (!list.empty() && !infos)
        return NVML_ERROR_INVALID_ARGUMENT;
    std::memcpy(infos, list.data(), list.size() * sizeof(nvmlProcessInfo_t));
    *infoCount = unsigned(list.size());
    return NVML_SUCCESS;
}

// The size query with a null buffer answers NVML_ERROR_INSUFFICIENT_SIZE and the count; no samples
// newer than lastSeenTimeStamp is NVML_ERROR_NOT_FOUND (nvmlDeviceGetProcessUtilization, NVML API
// reference). Each call makes one fresh sample per process, stamped now.
__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetProcessUtilization(Device* device,
    nvmlProcessUtilizationSample_t* utilization, unsigned int* processSamplesCount,
    unsigned long long lastSeenTimeStamp)
{
    if (!validDevice(device) || !processSamplesCount)
        return NVML_ERROR_INVALID_ARGUMENT;
    const auto now = static_cast<unsigned long long>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
    std::vector<nvmlProcessUtilizationSample_t> samples;
    if (now > lastSeenTimeStamp) {
        const unsigned int sm = unsigned(envNumber("FAKE_NVML_SM_UTIL", 37));
        for (const nvmlProcessInfo_t& p : processesOn(device))
            samples.push_back({ p.pid, now, sm, 10, 0, 0 });
    }
    if (samples.empty())
        return NVML_ERROR_NOT_FOUND;
    if (!utilization || *processSamplesCount < samples.size()) {
        *processSamplesCount = unsigned(samples.size());
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    std::memcpy(utilization, samples.data(), samples.size() * sizeof(nvmlProcessUtilizationSample_t));
    *processSamplesCount = unsigned(samples.size());
    return NVML_SUCCESS;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetUtilizationRates(
    Device* device, nvmlUtilization_t* utilization)
{
    if (!validDevice(device) || !utilization)
        return NVML_ERROR_INVALID_ARGUMENT;
    utilization->gpu = unsigned(envNumber("FAKE_NVML_DEVICE_UTIL", 55));
    utilization->memory = 20;
    return NVML_SUCCESS;
}

} // extern "C"
