// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "machinecatalog.h"

namespace Trainyard {

/// What this host can give to replicas, detected now:
/// - cpus: the CPUs this process may run on (sched_getaffinity; QThread::idealThreadCount() as fallback);
/// - memoryBytes: MemTotal of /proc/meminfo;
/// - gpus: NVIDIA GPUs through NVML, loaded at run time with dlopen("libnvidia-ml.so.1") (the driver's
///   library; nothing is linked at build time). Without the library, or when nvmlInit fails, the host has
///   no GPUs and the reason is logged (category trainyard.executor). Each GPU's acceleratorType is matched
///   from its NVML name through `catalog` (acceleratorGpuType()).
HostInventory detectHostInventory(const MachineCatalog& catalog = MachineCatalog::builtin());

/// The catalog's accelerator type for an NVML device name ("Tesla T4", "NVIDIA A100-SXM4-40GB"): the
/// non-TPU type with the longest nvmlNames entry found in the name as whole words (case-insensitive),
/// so "Tesla P40" is not a P4 and "A100 80GB" beats "A100". "NVIDIA_GPU" when nothing matches.
QString acceleratorGpuType(const QString& nvmlName, const MachineCatalog& catalog);

} // namespace Trainyard
