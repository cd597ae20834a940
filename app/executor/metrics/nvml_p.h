// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The NVML declarations the executor uses (nvml.h, NVML API version 11+; the ABI is stable since the _v2 entry
// points): the GPU inventory (gpuinventory.cpp) and the GPU sampler (resourcesampler.cpp) load libnvidia-ml.so.1
// with dlopen, so the build needs none of NVIDIA's headers. Names and layouts are nvml.h's.

namespace Trainyard::NvmlApi {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_INSUFFICIENT_SIZE = 7;
constexpr unsigned int NVML_DEVICE_NAME_V2_BUFFER_SIZE = 96;
constexpr unsigned int NVML_DEVICE_UUID_V2_BUFFER_SIZE = 96;

struct nvmlMemory_t {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
struct nvmlProcessInfo_t { // nvmlProcessInfo_v2_t, taken by the _v2 and _v3 entry points
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};
struct nvmlProcessUtilizationSample_t {
    unsigned int pid;
    unsigned long long timeStamp; // µs
    unsigned int smUtil;
    unsigned int memUtil;
    unsigned int encUtil;
    unsigned int decUtil;
};
struct nvmlUtilization_t {
    unsigned int gpu;
    unsigned int memory;
};
// nvml.h's sizes on LP64 (padding after each leading `pid`).
static_assert(sizeof(nvmlProcessInfo_t) == 24 && sizeof(nvmlProcessUtilizationSample_t) == 32);

} // namespace Trainyard::NvmlApi
