// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "machinecatalog.h"
#include "units.h"

#include <QList>

namespace Trainyard {

/// What the jobs already admitted hold on a host.
struct HostLoad {
    int vcpus = 0;
    Bytes memory;
    QList<int> gpus; ///< host GPU indices in use
    int holders = 0; ///< admitted runs (jobs, or trials) that hold a reservation
};

/// The verdict of the admission rule for one cluster.
struct Admission {
    enum class Verdict {
        Fits, ///< start it now
        NoGpus, ///< not enough free GPUs of the requested types: wait
        NoCpuOrMemory, ///< the reservations of running jobs leave too little: wait
    };
    Verdict verdict = Verdict::Fits;
    QList<int> gpus; ///< when it fits: the host GPUs to give it, role by role, acceleratorCount per replica
    bool fits() const { return verdict == Verdict::Fits; }
};

/// The one admission rule, used by the executor's local backend to start a queued job and by the
/// wizard to say "fits this host now" (ARCHITECTURE.md "A job's life", step 2):
/// - GPUs are exclusive and matched by accelerator type (MachineCatalog::gpuSatisfies, the same rule as
///   validation): each replica gets `acceleratorCount` free GPUs of its role's type, or the job waits.
/// - vCPUs and memory are reservations against the host's totals (memory in Bytes: the catalog's GB
///   converted once), except that a cluster alone on the host (`load.holders == 0`) always fits:
///   validation already refused what the host can never hold, and 3 × n1-standard-4 on a 4-core
///   workstation is normal.
/// Queue order (strict FIFO) is the caller's business: this answers only "does it fit now".
Admission admit(const ClusterPlan& plan, const HostInventory& host, const HostLoad& load, const MachineCatalog& catalog);

} // namespace Trainyard
