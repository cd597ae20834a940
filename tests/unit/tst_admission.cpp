// SPDX-License-Identifier: GPL-2.0-or-later
// The one admission rule (models/admission.h) that the executor's local backend and the wizard share, and
// the Bytes type that keeps GB and GiB apart.
#include "admission.h"
#include "hostfit.h"

#include <QJsonDocument>
#include <QTest>

using namespace Trainyard;

namespace {

HostInventory host(int cpus, double gb, QList<GpuInfo> gpus = {})
{
    HostInventory h;
    h.cpus = cpus;
    h.memoryBytes = Bytes::fromGb(gb).bytes();
    h.gpus = gpus;
    return h;
}

GpuInfo gpu(int index, const char* type)
{
    GpuInfo g;
    g.index = index;
    g.acceleratorType = QLatin1String(type);
    g.name = QStringLiteral("GPU %1").arg(index);
    return g;
}

/// `count` replicas of n1-standard-4 (4 vCPUs, 15 GB), each with `gpus` of `type`.
ClusterPlan plan(int count, int gpus = 0, const char* type = "")
{
    RolePlan role;
    role.role = QStringLiteral("master");
    role.taskPrefix = QStringLiteral("master-replica");
    role.count = count;
    role.machineType = QStringLiteral("n1-standard-4");
    role.vcpus = 4;
    role.memory = Bytes::fromGb(15);
    role.acceleratorType = QLatin1String(type);
    role.acceleratorCount = gpus;
    return ClusterPlan { { role } };
}

/// A job of one n1-standard-4 master (4 vCPUs, 15 GB).
Job oneMaster()
{
    FieldViolations errors;
    return JobJson::fromJson(QJsonDocument::fromJson(R"({"jobId":"job_1","trainingInput":{
        "pythonModule":"trainer.task","packageUris":["/tmp/trainer"],"scaleTier":"CUSTOM",
        "masterType":"n1-standard-4"}})")
                                 .object(),
        &errors);
}

/// `…/host` of an 8-CPU, 64 GB host where `jobs` jobs and `nodes` 1-vCPU prediction nodes hold `vcpus`.
HostStatus status(int vcpus, int jobs, int nodes)
{
    HostStatus h;
    h.cpus = 8;
    h.memory = Bytes::fromGb(64);
    h.vcpusInUse = vcpus;
    h.memoryInUse = Bytes::fromGb(2.0 * nodes + 15.0 * jobs);
    h.runningJobs = jobs;
    h.predictionNodes = nodes;
    return h;
}

} // namespace

class TestAdmission : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bytesKeepUnitsApart()
    {
        QCOMPARE(Bytes::fromGb(1).bytes(), qint64(1000000000));
        QCOMPARE(Bytes::fromGib(1).bytes(), qint64(1073741824));
        QVERIFY(Bytes::fromGib(15) > Bytes::fromGb(15));
        QCOMPARE((Bytes::fromGb(15) * 2).gb(), 30.0);
        QCOMPARE((Bytes::fromGb(2) - Bytes::fromGb(0.5)).gb(), 1.5);
        QCOMPARE(Bytes::fromGib(2).gib(), 2.0);
    }

    void aloneAlwaysFits()
    {
        // 3 × n1-standard-4 on a 2-CPU, 8 GB host: more than it has, but alone on the host it starts.
        const Admission a = admit(plan(3), host(2, 8), HostLoad {}, MachineCatalog::builtin());
        QVERIFY(a.fits());
        QVERIFY(a.gpus.isEmpty());
    }

    void reservationsAgainstTheHost()
    {
        const HostInventory h = host(16, 64);
        HostLoad load { 8, Bytes::fromGb(30), {}, 1 };
        QVERIFY(admit(plan(2), h, load, MachineCatalog::builtin()).fits()); // 16 vCPUs, 60 GB: exactly full
        load.vcpus = 9;
        QCOMPARE(admit(plan(2), h, load, MachineCatalog::builtin()).verdict, Admission::Verdict::NoCpuOrMemory);
        // Memory in bytes: 34 GB + 30 GB = 64 GB fits; one byte more does not.
        load = HostLoad { 0, Bytes::fromGb(34), {}, 1 };
        QVERIFY(admit(plan(2), h, load, MachineCatalog::builtin()).fits());
        load.memory += Bytes::fromBytes(1);
        QCOMPARE(admit(plan(2), h, load, MachineCatalog::builtin()).verdict, Admission::Verdict::NoCpuOrMemory);
    }

    void gpusExclusiveAndByType()
    {
        const HostInventory h
            = host(64, 512, { gpu(0, "NVIDIA_TESLA_T4"), gpu(1, "NVIDIA_TESLA_V100"), gpu(2, "NVIDIA_TESLA_T4") });
        Admission a = admit(plan(2, 1, "NVIDIA_TESLA_T4"), h, HostLoad {}, MachineCatalog::builtin());
        QVERIFY(a.fits());
        QCOMPARE(a.gpus, (QList<int> { 0, 2 }));
        // GPU 0 in use: only one T4 left for two replicas → wait, even though a V100 is free.
        a = admit(plan(2, 1, "NVIDIA_TESLA_T4"), h, HostLoad { 0, {}, { 0 }, 1 }, MachineCatalog::builtin());
        QCOMPARE(a.verdict, Admission::Verdict::NoGpus);
        // Even alone on the host, GPUs must be there: they are never oversubscribed.
        a = admit(plan(3, 1, "NVIDIA_TESLA_T4"), h, HostLoad {}, MachineCatalog::builtin());
        QCOMPARE(a.verdict, Admission::Verdict::NoGpus);
        // No type asked: any free GPU.
        a = admit(plan(1, 2), h, HostLoad { 0, {}, { 0 }, 1 }, MachineCatalog::builtin());
        QVERIFY(a.fits());
        QCOMPARE(a.gpus, (QList<int> { 1, 2 }));
    }

    // The wizard's and `jobs submit`'s verdict beside deployed versions' prediction nodes: the executor's rule
    // (backends/nodecapacity.h): nodes never keep a job from starting alone, but they count.
    void hostFitCountsPredictionNodes()
    {
        const MachineCatalog& catalog = MachineCatalog::builtin();
        // Nodes alone, and the job fits beside them.
        HostFit fit = assessHostFit(oneMaster(), status(2, 0, 2), catalog);
        QCOMPARE(fit.verdict, HostFit::Verdict::Fits);
        QVERIFY2(fit.why.contains(QStringLiteral("2 prediction node(s)")), qPrintable(fit.why));
        QVERIFY2(fit.why.contains(QStringLiteral("Free now: 6 vCPUs")), qPrintable(fit.why));
        // Nodes alone, and the job does not fit beside them: it starts, oversubscribing, and the text says so.
        fit = assessHostFit(oneMaster(), status(6, 0, 6), catalog);
        QCOMPARE(fit.verdict, HostFit::Verdict::Oversubscribed);
        QVERIFY2(fit.why.contains(QStringLiteral("They hold 6 vCPUs")), qPrintable(fit.why));
        // A job runs and the nodes fill the rest: it waits, and the reason names the nodes.
        fit = assessHostFit(oneMaster(), status(6, 1, 2), catalog);
        QCOMPARE(fit.verdict, HostFit::Verdict::Queue);
        QVERIFY2(fit.why.contains(QStringLiteral("Prediction nodes of deployed versions hold part of that")),
            qPrintable(fit.why));
        // Without nodes, as before.
        QCOMPARE(assessHostFit(oneMaster(), status(0, 0, 0), catalog).why,
            QStringLiteral("The host is idle; a job alone on the host always starts."));
    }
};

QTEST_GUILESS_MAIN(TestAdmission)
#include "tst_admission.moc"
