// SPDX-License-Identifier: GPL-2.0-or-later
#include "hostfit.h"

#include "admission.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace Trainyard {

namespace {

HostInventory inventoryOf(const HostStatus& h)
{
    HostInventory inv;
    inv.cpus = h.cpus;
    inv.memoryBytes = h.memory.bytes();
    inv.gpus = h.gpus;
    return inv;
}

/// How many clusters of `plan` the whole host holds at once (at least 1: one alone always starts).
int clustersOnHost(const ClusterPlan& plan, const HostStatus& h)
{
    int fit = 1 << 20;
    if (plan.totalVcpus() > 0)
        fit = std::min(fit, h.cpus / plan.totalVcpus());
    if (plan.totalMemory().bytes() > 0)
        fit = std::min<qint64>(fit, h.memory.bytes() / plan.totalMemory().bytes());
    if (plan.totalGpus() > 0)
        fit = std::min<int>(fit, int(h.gpus.size()) / plan.totalGpus());
    return std::max(1, fit);
}

} // namespace

HostFit assessHostFit(const Job& job, const HostStatus& h, const MachineCatalog& catalog)
{
    HostFit fit;
    const HostInventory inventory = inventoryOf(h);
    // The rules about the cluster and what the host can hold (the Compute page's); the job's other fields are
    // checked elsewhere.
    static const QRegularExpression cluster(
        QStringLiteral("^trainingInput(\\.(scaleTier|(master|worker|parameterServer|evaluator)(Type|Config|Count))(\\b|"
                       "\\[|\\.|$)|$)"));
    for (const FieldViolation& v : validateJob(job, catalog, inventory)) {
        if (cluster.match(v.field).hasMatch())
            fit.never << v.description;
    }
    fit.plan = planCluster(job.trainingInput, catalog);
    if (const auto& hp = job.trainingInput.hyperparameters) {
        const int trials = std::max(1, hp->maxTrials.value_or(1));
        fit.parallel = std::clamp(hp->maxParallelTrials.value_or(1), 1, trials);
    }
    fit.parallelOnHost = std::min(fit.parallel, clustersOnHost(fit.plan, h));
    fit.replicas = fit.plan.totalReplicas() * fit.parallel;
    fit.vcpus = fit.plan.totalVcpus() * fit.parallel;
    fit.memory = fit.plan.totalMemory() * fit.parallel;
    fit.gpus = fit.plan.totalGpus() * fit.parallel;
    if (!fit.never.isEmpty()) {
        fit.verdict = HostFit::Verdict::Never;
        return fit;
    }
    // More than the whole host (not just more than is free now), for one cluster: it starts when it is alone, as the
    // executor admits it, but its replicas then share fewer CPUs and less memory than their machine types promise.
    const Bytes hostMemory = h.memory;
    if (fit.plan.totalVcpus() > h.cpus)
        fit.over << QCoreApplication::translate("Trainyard::HostFit", "%1 vCPUs on this host's %2")
                        .arg(fit.plan.totalVcpus())
                        .arg(h.cpus);
    if (fit.plan.totalMemory() > hostMemory)
        fit.over << QCoreApplication::translate("Trainyard::HostFit", "%1 GB of memory on this host's %2 GB")
                        .arg(fit.plan.totalMemory().gb(), 0, 'f', 1)
                        .arg(hostMemory.gb(), 0, 'f', 1);
    const HostLoad load { h.vcpusInUse, h.memoryInUse, h.gpusInUse, h.runningJobs };
    const Admission admission = admit(fit.plan, inventory, load, catalog);
    const double freeVcpus = h.cpus - h.vcpusInUse;
    const Bytes freeMemory = h.memory - h.memoryInUse;
    const int freeGpus = int(h.gpus.size() - h.gpusInUse.size());
    if (h.queuedJobs > 0) {
        fit.verdict = HostFit::Verdict::Queue;
        fit.why = HostFit::tr("%n job(s) are queued ahead of it (first in, first out).", nullptr, h.queuedJobs);
    } else if (h.runningJobs == 0 && h.predictionNodes == 0) {
        fit.verdict = HostFit::Verdict::Fits;
        fit.why = HostFit::tr("The host is idle; a job alone on the host always starts.");
    } else if (h.runningJobs == 0) {
        // Only prediction nodes hold reservations: they never keep a job from starting alone (the executor's rule,
        // backends/nodecapacity.h), but beyond what is free the two share the CPUs and memory.
        const HostLoad nodesAsHolder { h.vcpusInUse, h.memoryInUse, h.gpusInUse, 1 };
        if (admit(fit.plan, inventory, nodesAsHolder, catalog).fits()) {
            fit.verdict = HostFit::Verdict::Fits;
            fit.why = HostFit::tr("No job runs; %n prediction node(s) of deployed versions hold some of the host.",
                          nullptr, h.predictionNodes)
                + QLatin1Char(' ')
                + QCoreApplication::translate("Trainyard::HostFit", "Free now: %1 vCPUs, %2 GB, %3 GPUs.")
                      .arg(freeVcpus)
                      .arg(freeMemory.gb(), 0, 'f', 1)
                      .arg(freeGpus);
        } else {
            fit.verdict = HostFit::Verdict::Oversubscribed;
            fit.why = HostFit::tr("No other job runs, so it starts now (a job alone on the host always starts), beside "
                                  "%n prediction node(s) of deployed versions.",
                          nullptr, h.predictionNodes)
                + QLatin1Char(' ')
                + QCoreApplication::translate("Trainyard::HostFit",
                    "They hold %1 vCPUs and %2 GB of this host's %3 vCPUs and %4 GB: together they ask for more than it "
                    "has, so the job's replicas and the nodes share its CPUs and memory. Delete or scale down a version "
                    "to avoid this.")
                      .arg(h.vcpusInUse)
                      .arg(h.memoryInUse.gb(), 0, 'f', 1)
                      .arg(h.cpus)
                      .arg(hostMemory.gb(), 0, 'f', 1);
        }
    } else if (!admission.fits()) {
        fit.verdict = HostFit::Verdict::Queue;
        fit.why = QCoreApplication::translate("Trainyard::HostFit",
            "%n running job(s) hold %1 of %2 vCPUs, %3 of %4 GB and %5 of %6 GPUs.", nullptr, h.runningJobs)
                      .arg(h.vcpusInUse)
                      .arg(h.cpus)
                      .arg(h.memoryInUse.gb(), 0, 'f', 1)
                      .arg(hostMemory.gb(), 0, 'f', 1)
                      .arg(h.gpusInUse.size())
                      .arg(h.gpus.size());
        if (h.predictionNodes > 0)
            fit.why += QLatin1Char(' ')
                + HostFit::tr("Prediction nodes of deployed versions hold part of that (%n node(s)).", nullptr,
                    h.predictionNodes);
    } else {
        fit.verdict = HostFit::Verdict::Fits;
        fit.why = QCoreApplication::translate("Trainyard::HostFit", "Free now: %1 vCPUs, %2 GB, %3 GPUs.")
                      .arg(freeVcpus)
                      .arg(freeMemory.gb(), 0, 'f', 1)
                      .arg(freeGpus);
    }
    if (!fit.over.isEmpty() && fit.verdict == HostFit::Verdict::Fits) {
        fit.verdict = HostFit::Verdict::Oversubscribed;
        fit.why = QCoreApplication::translate("Trainyard::HostFit",
            "It asks for %1. It will start when no other job runs (a job alone on the host always starts), but its "
            "replicas will share what this host has: expect it to run slower than on the machine types chosen, and "
            "replicas may be killed if memory runs out. Choose smaller machine types or fewer replicas to avoid this.")
                      .arg(fit.over.join(HostFit::tr(" and ")));
    }
    if (!fit.over.isEmpty() && fit.verdict == HostFit::Verdict::Queue)
        // It waits for the jobs ahead, and then still asks for more than the whole host.
        fit.why += QLatin1Char(' ')
            + QCoreApplication::translate("Trainyard::HostFit",
                "Once it starts it asks for %1: its replicas will share what this host has. Choose smaller machine "
                "types or fewer replicas to avoid this.")
                  .arg(fit.over.join(HostFit::tr(" and ")));
    if (fit.parallelOnHost < fit.parallel)
        fit.why += QLatin1Char(' ')
            + QCoreApplication::translate("Trainyard::HostFit",
                "This host holds %1 of its %2 parallel trials at once (each needs %3 vCPUs, %4 GB): the others wait "
                "for a trial to end.")
                  .arg(fit.parallelOnHost)
                  .arg(fit.parallel)
                  .arg(fit.plan.totalVcpus())
                  .arg(fit.plan.totalMemory().gb(), 0, 'f', 1);
    return fit;
}

QString HostFit::needsText() const
{
    QString needs = HostFit::tr("Needs %n replica(s)", nullptr, replicas)
        + QCoreApplication::translate("Trainyard::HostFit", ", %1 vCPUs, %2 GB").arg(vcpus).arg(memory.gb(), 0, 'f', 1);
    if (gpus > 0)
        needs += HostFit::tr(", %n GPU(s)", nullptr, gpus);
    if (parallel > 1)
        needs += QLatin1Char(' ') + HostFit::tr("(%n trial(s) at once)", nullptr, parallel);
    return needs + QLatin1Char('.');
}

QString HostFit::headline() const
{
    switch (verdict) {
    case Verdict::Never:
        return HostFit::tr("Can never run here.");
    case Verdict::Fits:
        return HostFit::tr("Fits this host now.");
    case Verdict::Oversubscribed:
        return HostFit::tr("Oversubscribes this host.");
    case Verdict::Queue:
        return HostFit::tr("Will queue.");
    }
    return {};
}

QString HostFit::text() const
{
    if (verdict == Verdict::Never)
        return headline() + QLatin1Char(' ') + never.join(QLatin1Char(' '));
    return headline() + QLatin1Char(' ') + needsText() + QLatin1Char(' ') + why;
}

} // namespace Trainyard
