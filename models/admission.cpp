// SPDX-License-Identifier: GPL-2.0-or-later
#include "admission.h"

#include <algorithm>

namespace Trainyard {

Admission admit(const ClusterPlan& plan, const HostInventory& host, const HostLoad& load, const MachineCatalog& catalog)
{
    Admission result;
    QList<int> picked;
    for (const RolePlan& role : plan.roles) {
        const int need = role.acceleratorCount * role.count;
        int got = 0;
        for (const GpuInfo& gpu : host.gpus) {
            if (got == need)
                break;
            if (load.gpus.contains(gpu.index) || picked.contains(gpu.index))
                continue;
            if (!role.acceleratorType.isEmpty() && !catalog.gpuSatisfies(gpu, role.acceleratorType))
                continue;
            picked << gpu.index;
            ++got;
        }
        if (got < need) {
            result.verdict = Admission::Verdict::NoGpus;
            return result;
        }
    }
    if (load.holders > 0
        && (load.vcpus + plan.totalVcpus() > host.cpus
            || load.memory + plan.totalMemory() > Bytes::fromBytes(host.memoryBytes))) {
        result.verdict = Admission::Verdict::NoCpuOrMemory;
        return result;
    }
    result.gpus = picked;
    return result;
}

} // namespace Trainyard
