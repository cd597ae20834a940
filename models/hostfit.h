// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "apiclient.h"
#include "job.h"
#include "machinecatalog.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// How a job sits on this workstation now: the one verdict the console's Compute page and `trainyardctl jobs
/// submit` give, made from the executor's own admission rule (admit(), models/admission.h), the host's totals and
/// what runs there (`GET …/host`). Pure; any thread.
///
/// A tuning job runs up to `maxParallelTrials` clusters at once (at most `maxTrials`), each admitted on its own: the
/// first always starts, the others when they fit beside it. So what it asks for is the plan of one trial times the
/// trials that run at once, and when fewer fit on the whole host, the rest wait for a trial to end.
struct HostFit {
    Q_DECLARE_TR_FUNCTIONS(Trainyard::HostFit)
public:
    enum class Verdict {
        Never, ///< a host rule refuses it (validateJob()): `never` says which
        Fits, ///< it starts now
        Oversubscribed, ///< it starts when alone (a job alone always starts) but asks for more than the host has
        Queue, ///< jobs queued ahead, or running ones hold what it needs: it waits
    };
    Verdict verdict = Verdict::Fits;
    /// Clusters that run at once: a tuning job's maxParallelTrials (at most maxTrials), else 1.
    int parallel = 1;
    /// Of those, how many this host can hold at once (its totals, not what is free now); == parallel when all.
    int parallelOnHost = 1;
    ClusterPlan plan; ///< one cluster's
    int replicas = 0; ///< what it asks for in all: the plan times `parallel`
    int vcpus = 0;
    Bytes memory;
    int gpus = 0;
    QStringList never; ///< the host rules it breaks
    QStringList over; ///< what it asks beyond the whole host's ("12 vCPUs on this host's 2")
    QString why; ///< why it fits, queues or oversubscribes (translated, no markup)

    /// "Needs 2 replicas, 8 vCPUs, 30.0 GB (2 trials at once)." (translated)
    QString needsText() const;
    /// The verdict's headline: "Fits this host now.", "Oversubscribes this host.", "Will queue.", "Can never run
    /// here." (translated)
    QString headline() const;
    /// One paragraph, no markup: headline, needs, why (and the rules it breaks) — what `jobs submit` prints.
    QString text() const;
};

/// The verdict for `job` on the host `host` describes (a validated job; `catalog`: its machine types).
HostFit assessHostFit(const Job& job, const HostStatus& host, const MachineCatalog& catalog);

} // namespace Trainyard
