// SPDX-License-Identifier: GPL-2.0-or-later
// MachineCatalog: the built-in catalog resource, lookups, GPU name mapping, planCluster().
#include "machinecatalog.h"

#include <QJsonDocument>
#include <QTest>

using namespace Trainyard;

namespace {
QStringList strings(std::initializer_list<const char*> list)
{
    QStringList out;
    for (const char* s : list)
        out.append(QString::fromUtf8(s));
    return out;
}
} // namespace

class TestCatalog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void builtinLoads()
    {
        const MachineCatalog& c = MachineCatalog::builtin();
        QCOMPARE(&c, &MachineCatalog::builtin()); // parsed once
        for (const char* tier : { "BASIC", "STANDARD_1", "PREMIUM_1", "BASIC_GPU", "BASIC_TPU", "CUSTOM" })
            QVERIFY2(c.scaleTier(QLatin1String(tier)), tier);
        QVERIFY(!c.scaleTier(QStringLiteral("PREMIUM_2")));
        QVERIFY(!c.scaleTier(QStringLiteral("BASIC_TPU"))->available);
        QVERIFY(!c.scaleTier(QStringLiteral("BASIC_TPU"))->unavailableReason.isEmpty());
        for (const char* acc : { "NVIDIA_TESLA_K80", "NVIDIA_TESLA_P4", "NVIDIA_TESLA_P100", "NVIDIA_TESLA_T4",
                 "NVIDIA_TESLA_V100", "NVIDIA_TESLA_A100", "TPU_V2", "TPU_V3", "NVIDIA_GPU" })
            QVERIFY2(c.acceleratorType(QLatin1String(acc)), acc);
        QVERIFY(c.acceleratorType(QStringLiteral("TPU_V3"))->isTpu);
        QVERIFY(!c.acceleratorType(QStringLiteral("NVIDIA_TESLA_T4"))->isTpu);
        QCOMPARE(c.hostPolicy().unknownGpuType, QStringLiteral("NVIDIA_GPU"));
    }

    void machineTypes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("vcpus");
        QTest::addColumn<double>("memoryGb");
        QTest::addColumn<QString>("implied");
        QTest::addColumn<int>("impliedCount");
        // Compute Engine: n1-standard 3.75 GB/vCPU, n1-highmem 6.5, n1-highcpu 0.9.
        QTest::addRow("n1-standard-4") << "n1-standard-4"
                                       << "n1" << 4 << 15.0 << "" << 0;
        QTest::addRow("n1-standard-96") << "n1-standard-96"
                                        << "n1" << 96 << 360.0 << "" << 0;
        QTest::addRow("n1-highmem-2") << "n1-highmem-2"
                                      << "n1" << 2 << 13.0 << "" << 0;
        QTest::addRow("n1-highmem-96") << "n1-highmem-96"
                                       << "n1" << 96 << 624.0 << "" << 0;
        QTest::addRow("n1-highcpu-16") << "n1-highcpu-16"
                                       << "n1" << 16 << 14.4 << "" << 0;
        QTest::addRow("n1-highcpu-96") << "n1-highcpu-96"
                                       << "n1" << 96 << 86.4 << "" << 0;
        QTest::addRow("a2-highgpu-1g") << "a2-highgpu-1g"
                                       << "a2" << 12 << 85.0 << "" << 0;
        QTest::addRow("standard") << "standard"
                                  << "legacy" << 4 << 15.0 << "" << 0;
        QTest::addRow("large_model") << "large_model"
                                     << "legacy" << 8 << 52.0 << "" << 0;
        QTest::addRow("complex_model_s") << "complex_model_s"
                                         << "legacy" << 8 << 7.2 << "" << 0;
        QTest::addRow("complex_model_m") << "complex_model_m"
                                         << "legacy" << 16 << 14.4 << "" << 0;
        QTest::addRow("complex_model_l") << "complex_model_l"
                                         << "legacy" << 32 << 28.8 << "" << 0;
        QTest::addRow("standard_gpu") << "standard_gpu"
                                      << "legacy" << 8 << 30.0 << "NVIDIA_TESLA_K80" << 1;
        QTest::addRow("complex_model_m_gpu") << "complex_model_m_gpu"
                                             << "legacy" << 16 << 60.0 << "NVIDIA_TESLA_K80" << 4;
        QTest::addRow("complex_model_l_gpu") << "complex_model_l_gpu"
                                             << "legacy" << 32 << 120.0 << "NVIDIA_TESLA_K80" << 8;
        QTest::addRow("standard_p100") << "standard_p100"
                                       << "legacy" << 8 << 30.0 << "NVIDIA_TESLA_P100" << 1;
        QTest::addRow("complex_model_m_p100") << "complex_model_m_p100"
                                              << "legacy" << 16 << 60.0 << "NVIDIA_TESLA_P100" << 4;
        QTest::addRow("standard_v100") << "standard_v100"
                                       << "legacy" << 8 << 30.0 << "NVIDIA_TESLA_V100" << 1;
        QTest::addRow("large_model_v100") << "large_model_v100"
                                          << "legacy" << 8 << 52.0 << "NVIDIA_TESLA_V100" << 1;
        QTest::addRow("complex_model_m_v100") << "complex_model_m_v100"
                                              << "legacy" << 16 << 60.0 << "NVIDIA_TESLA_V100" << 4;
        QTest::addRow("complex_model_l_v100") << "complex_model_l_v100"
                                              << "legacy" << 32 << 120.0 << "NVIDIA_TESLA_V100" << 8;
        QTest::addRow("cloud_tpu") << "cloud_tpu"
                                   << "tpu" << 0 << 0.0 << "TPU_V2" << 8;
    }

    void machineTypes()
    {
        QFETCH(QString, name);
        QFETCH(QString, family);
        QFETCH(int, vcpus);
        QFETCH(double, memoryGb);
        QFETCH(QString, implied);
        QFETCH(int, impliedCount);
        const MachineType* m = MachineCatalog::builtin().machineType(name);
        QVERIFY(m);
        QCOMPARE(m->family, family);
        QCOMPARE(m->vcpus, vcpus);
        QCOMPARE(m->memory, Bytes::fromGb(memoryGb));
        QCOMPARE(m->impliedAccelerator.type, implied);
        QCOMPARE(int(m->impliedAccelerator.count.value_or(0)), impliedCount);
        if (family == QLatin1String("legacy"))
            QVERIFY(m->acceleratorCounts.isEmpty());
    }

    void acceleratorCounts_data()
    {
        QTest::addColumn<QString>("machine");
        QTest::addColumn<QString>("accelerator");
        QTest::addColumn<QList<int>>("counts");
        QTest::addRow("n1-standard-4 K80") << "n1-standard-4"
                                           << "NVIDIA_TESLA_K80" << QList<int> { 1, 2, 4, 8 };
        QTest::addRow("n1-standard-4 T4") << "n1-standard-4"
                                          << "NVIDIA_TESLA_T4" << QList<int> { 1, 2, 4 };
        QTest::addRow("n1-standard-4 V100") << "n1-standard-4"
                                            << "NVIDIA_TESLA_V100" << QList<int> { 1, 2, 4, 8 };
        QTest::addRow("n1-standard-16 K80") << "n1-standard-16"
                                            << "NVIDIA_TESLA_K80" << QList<int> { 2, 4, 8 };
        QTest::addRow("n1-highcpu-32 T4") << "n1-highcpu-32"
                                          << "NVIDIA_TESLA_T4" << QList<int> { 2, 4 };
        QTest::addRow("n1-standard-96 V100") << "n1-standard-96"
                                             << "NVIDIA_TESLA_V100" << QList<int> { 8 };
        QTest::addRow("n1-standard-96 K80") << "n1-standard-96"
                                            << "NVIDIA_TESLA_K80" << QList<int> {};
        QTest::addRow("n1-standard-4 A100") << "n1-standard-4"
                                            << "NVIDIA_TESLA_A100" << QList<int> {};
        QTest::addRow("a2-highgpu-2g A100") << "a2-highgpu-2g"
                                            << "NVIDIA_TESLA_A100" << QList<int> { 2 };
        QTest::addRow("n1-standard-4 any") << "n1-standard-4"
                                           << "NVIDIA_GPU" << QList<int> { 1, 2, 4, 8 };
        QTest::addRow("cloud_tpu TPU_V2") << "cloud_tpu"
                                          << "TPU_V2" << QList<int> { 8 };
    }

    void acceleratorCounts()
    {
        QFETCH(QString, machine);
        QFETCH(QString, accelerator);
        QFETCH(QList<int>, counts);
        const MachineType* m = MachineCatalog::builtin().machineType(machine);
        QVERIFY(m);
        QCOMPARE(m->acceleratorCounts.value(accelerator), counts);
    }

    void gpuNames_data()
    {
        QTest::addColumn<QString>("nvmlName");
        QTest::addColumn<QString>("type");
        QTest::addRow("T4") << "Tesla T4"
                            << "NVIDIA_TESLA_T4";
        QTest::addRow("K80") << "Tesla K80"
                             << "NVIDIA_TESLA_K80";
        QTest::addRow("P4") << "Tesla P4"
                            << "NVIDIA_TESLA_P4";
        QTest::addRow("P40 is not P4") << "Tesla P40"
                                       << "NVIDIA_GPU";
        QTest::addRow("P100") << "Tesla P100-PCIE-16GB"
                              << "NVIDIA_TESLA_P100";
        QTest::addRow("V100") << "Tesla V100-SXM2-16GB"
                              << "NVIDIA_TESLA_V100";
        QTest::addRow("V100S") << "Tesla V100S-PCIE-32GB"
                               << "NVIDIA_TESLA_V100";
        QTest::addRow("A100") << "NVIDIA A100-SXM4-40GB"
                              << "NVIDIA_TESLA_A100";
        QTest::addRow("A100 80GB") << "NVIDIA A100 80GB PCIe"
                                   << "NVIDIA_TESLA_A100";
        QTest::addRow("H100") << "NVIDIA H100 80GB HBM3"
                              << "NVIDIA_GPU";
        QTest::addRow("H200") << "NVIDIA H200"
                              << "NVIDIA_GPU";
        QTest::addRow("L4") << "NVIDIA L4"
                            << "NVIDIA_GPU";
        QTest::addRow("T400 is not T4") << "NVIDIA T400"
                                        << "NVIDIA_GPU";
        QTest::addRow("GeForce") << "NVIDIA GeForce RTX 4090"
                                 << "NVIDIA_GPU";
    }

    void gpuNames()
    {
        QFETCH(QString, nvmlName);
        QFETCH(QString, type);
        QCOMPARE(MachineCatalog::builtin().acceleratorTypeForGpuName(nvmlName), type);
    }

    void gpuMatching_data()
    {
        QTest::addColumn<QString>("hostType");
        QTest::addColumn<QString>("requested");
        QTest::addColumn<bool>("ok");
        QTest::addRow("same") << "NVIDIA_TESLA_T4"
                              << "NVIDIA_TESLA_T4" << true;
        QTest::addRow("other known") << "NVIDIA_TESLA_T4"
                                     << "NVIDIA_TESLA_V100" << false;
        QTest::addRow("generic request") << "NVIDIA_TESLA_T4"
                                         << "NVIDIA_GPU" << true;
        QTest::addRow("unknown host gpu") << "NVIDIA_GPU"
                                          << "NVIDIA_TESLA_V100" << true;
        QTest::addRow("tpu never") << "NVIDIA_GPU"
                                   << "TPU_V2" << false;
        QTest::addRow("unknown request") << "NVIDIA_GPU"
                                         << "NVIDIA_TESLA_X" << false;
    }

    void gpuMatching()
    {
        QFETCH(QString, hostType);
        QFETCH(QString, requested);
        QFETCH(bool, ok);
        const GpuInfo gpu { 0, QStringLiteral("GPU-1"), QStringLiteral("x"), hostType, 1 };
        QCOMPARE(MachineCatalog::builtin().gpuSatisfies(gpu, requested), ok);
        HostInventory host { 4, 8LL << 30, { gpu, gpu } };
        QCOMPARE(MachineCatalog::builtin().hostGpusFor(host, requested), ok ? 2 : 0);
    }

    void plan_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QStringList>("roles"); // "role count machineType vcpus gpuType gpuCount"
        QTest::addColumn<int>("vcpus");
        QTest::addColumn<double>("memoryGb");
        QTest::addColumn<int>("gpus");
        QTest::addRow("default is BASIC")
            << QByteArray("{}") << strings({ "master 1 n1-standard-4 4  0" }) << 4 << 15.0 << 0;
        QTest::addRow("STANDARD_1") << QByteArray(R"({"scaleTier":"STANDARD_1"})")
                                    << strings({ "master 1 n1-standard-4 4  0", "worker 2 n1-standard-4 4  0",
                                           "ps 1 n1-standard-4 4  0" })
                                    << 16 << 60.0 << 0;
        QTest::addRow("PREMIUM_1") << QByteArray(R"({"scaleTier":"PREMIUM_1"})")
                                   << strings({ "master 1 n1-standard-4 4  0", "worker 4 n1-standard-4 4  0",
                                          "ps 2 n1-highmem-2 2  0" })
                                   << 24 << 101.0 << 0;
        QTest::addRow("BASIC_GPU") << QByteArray(R"({"scaleTier":"BASIC_GPU"})")
                                   << strings({ "master 1 n1-standard-8 8 NVIDIA_GPU 1" }) << 8 << 30.0 << 1;
        QTest::addRow("CUSTOM") << QByteArray(
            R"({"scaleTier":"CUSTOM","masterType":"n1-standard-8","masterConfig":{"acceleratorConfig":{"type":"NVIDIA_TESLA_T4","count":"2"}},"workerType":"n1-highmem-2","workerCount":"3","parameterServerType":"n1-standard-4","parameterServerCount":"1","evaluatorType":"n1-standard-4","evaluatorCount":"1"})")
                                << strings({ "master 1 n1-standard-8 8 NVIDIA_TESLA_T4 2", "worker 3 n1-highmem-2 2  0",
                                       "ps 1 n1-standard-4 4  0", "evaluator 1 n1-standard-4 4  0" })
                                << 22 << 30.0 + 39 + 15 + 15 << 2;
        QTest::addRow("legacy gpus implied") << QByteArray(
            R"({"scaleTier":"CUSTOM","masterType":"complex_model_m_gpu","workerType":"standard_gpu","workerCount":2})")
                                             << strings({ "master 1 complex_model_m_gpu 16 NVIDIA_TESLA_K80 4",
                                                    "worker 2 standard_gpu 8 NVIDIA_TESLA_K80 1" })
                                             << 32 << 120.0 << 6;
        QTest::addRow("zero counts omitted")
            << QByteArray(R"({"scaleTier":"CUSTOM","masterType":"standard","workerCount":"0","workerType":"standard"})")
            << strings({ "master 1 standard 4  0" }) << 4 << 15.0 << 0;
    }

    void plan()
    {
        QFETCH(QByteArray, input);
        QFETCH(QStringList, roles);
        QFETCH(int, vcpus);
        QFETCH(double, memoryGb);
        QFETCH(int, gpus);
        FieldViolations v;
        const TrainingInput in = JobJson::trainingInputFromJson(QJsonDocument::fromJson(input).object(), QString(), &v);
        QVERIFY(v.isEmpty());
        const ClusterPlan plan = planCluster(in, MachineCatalog::builtin());
        QStringList got;
        for (const RolePlan& r : plan.roles) {
            got.append(QStringList { r.role, QString::number(r.count), r.machineType, QString::number(r.vcpus),
                r.acceleratorType, QString::number(r.acceleratorCount) }
                           .join(QLatin1Char(' ')));
            QCOMPARE(r.taskPrefix, r.role + QStringLiteral("-replica"));
        }
        QCOMPARE(got, roles);
        QCOMPARE(plan.totalVcpus(), vcpus);
        QCOMPARE(plan.totalMemory(), Bytes::fromGb(memoryGb));
        QCOMPARE(plan.totalGpus(), gpus);
    }

    void capacity()
    {
        const MachineCatalog& c = MachineCatalog::builtin();
        const HostCapacity cap = c.capacity(HostInventory { 2, 23LL * 1000 * 1000 * 1000, {} });
        QCOMPARE(cap.vcpus, 64.0);
        QCOMPARE(cap.memory, Bytes::fromGb(23.0 * 16));
        QCOMPARE(cap.replicas, 16);
        QCOMPARE(cap.gpus, 0);
        QCOMPARE(c.capacity(HostInventory { 16, 0, {} }).replicas, 32);
    }

    void fromJsonErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("where");
        QTest::addRow("no arrays") << QByteArray("{}") << "acceleratorTypes";
        QTest::addRow("unknown accelerator in counts") << QByteArray(
            R"({"acceleratorTypes":[],"machineTypes":[{"name":"m","family":"n1","vcpus":1,"memoryGb":1,"acceleratorCounts":{"X":[1]}}],"scaleTiers":[]})")
                                                       << "machineTypes[0].acceleratorCounts.X";
        QTest::addRow("tier with unknown type") << QByteArray(
            R"({"acceleratorTypes":[],"machineTypes":[],"scaleTiers":[{"name":"BASIC","masterType":"nope"}]})")
                                                << "scaleTiers[0]";
        QTest::addRow("duplicate machine") << QByteArray(
            R"({"acceleratorTypes":[],"machineTypes":[{"name":"m","family":"n1"},{"name":"m","family":"n1"}],"scaleTiers":[]})")
                                           << "machineTypes[1].name";
        QTest::addRow("negative vcpus") << QByteArray(
            R"({"acceleratorTypes":[],"machineTypes":[{"name":"m","family":"n1","vcpus":-1}],"scaleTiers":[]})")
                                        << "machineTypes[0].vcpus";
    }

    void fromJsonErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, where);
        QString error;
        const MachineCatalog c = MachineCatalog::fromJson(QJsonDocument::fromJson(json).object(), &error);
        QVERIFY2(error.startsWith(where), qPrintable(error));
        QVERIFY(c.machineTypes().isEmpty() && c.scaleTiers().isEmpty() && c.acceleratorTypes().isEmpty());
    }

    /// The scale tiers as `GET …/scaleTiers` sends them read back whole in the clients (ScaleTierInfo is the one
    /// wire type), accelerator count as an int64 string.
    void scaleTierWire()
    {
        for (const ScaleTierInfo& tier : MachineCatalog::builtin().scaleTiers()) {
            const QJsonObject json = tier.toJson();
            QCOMPARE(ScaleTierInfo::fromJson(json), tier);
            QCOMPARE(json.contains(QStringLiteral("unavailableReason")), !tier.unavailableReason.isEmpty());
        }
        const ScaleTierInfo* gpu = MachineCatalog::builtin().scaleTier(QStringLiteral("BASIC_GPU"));
        QVERIFY(gpu);
        const QJsonObject accelerator = gpu->toJson().value(QStringLiteral("masterAcceleratorConfig")).toObject();
        QVERIFY(accelerator.value(QStringLiteral("count")).isString());
        QCOMPARE(accelerator.value(QStringLiteral("count")).toString(), QStringLiteral("1"));
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
