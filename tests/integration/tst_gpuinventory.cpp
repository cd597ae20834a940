// SPDX-License-Identifier: GPL-2.0-or-later
// GPU inventory: the host's CPUs and memory, NVML absent or present, and NVML names → accelerator types.
#include "gpuinventory.h"
#include "staging.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <dlfcn.h>
#include <unistd.h>

using namespace Trainyard;

class TestGpuInventory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hostInventory()
    {
        const HostInventory host = detectHostInventory();
        QVERIFY(host.cpus >= 1);
        QVERIFY(host.cpus <= int(sysconf(_SC_NPROCESSORS_CONF)));
        QVERIFY(host.memoryBytes > (64LL << 20));
        QVERIFY(host.memoryBytes <= qint64(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE) + 4096);
        // The GPU list is what NVML says: none without the driver's library.
        void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!nvml) {
            QVERIFY(host.gpus.isEmpty());
        } else {
            dlclose(nvml);
            for (const GpuInfo& gpu : host.gpus) {
                QVERIFY(!gpu.name.isEmpty());
                QVERIFY(gpu.uuid.startsWith(QLatin1String("GPU-")));
                QVERIFY(gpu.memoryBytes > 0);
                QVERIFY(!gpu.acceleratorType.isEmpty());
            }
        }
    }

    void acceleratorType_data()
    {
        QTest::addColumn<QString>("nvmlName");
        QTest::addColumn<QString>("type");
        QTest::addRow("T4") << QStringLiteral("Tesla T4") << QStringLiteral("NVIDIA_TESLA_T4");
        QTest::addRow("P4") << QStringLiteral("Tesla P4") << QStringLiteral("NVIDIA_TESLA_P4");
        QTest::addRow("P40 is not a P4") << QStringLiteral("Tesla P40") << QStringLiteral("NVIDIA_GPU");
        QTest::addRow("P100") << QStringLiteral("Tesla P100-PCIE-16GB") << QStringLiteral("NVIDIA_TESLA_P100");
        QTest::addRow("V100") << QStringLiteral("Tesla V100-SXM2-16GB") << QStringLiteral("NVIDIA_TESLA_V100");
        QTest::addRow("V100S") << QStringLiteral("Tesla V100S-PCIE-32GB") << QStringLiteral("NVIDIA_TESLA_V100");
        QTest::addRow("A100") << QStringLiteral("NVIDIA A100-SXM4-40GB") << QStringLiteral("NVIDIA_TESLA_A100");
        QTest::addRow("K80") << QStringLiteral("Tesla K80") << QStringLiteral("NVIDIA_TESLA_K80");
        QTest::addRow("H100 unknown to the service")
            << QStringLiteral("NVIDIA H100 80GB HBM3") << QStringLiteral("NVIDIA_GPU");
        QTest::addRow("consumer card") << QStringLiteral("NVIDIA GeForce RTX 4090") << QStringLiteral("NVIDIA_GPU");
    }
    void acceleratorType()
    {
        QFETCH(QString, nvmlName);
        QFETCH(QString, type);
        QCOMPARE(acceleratorGpuType(nvmlName, MachineCatalog::builtin()), type);
    }

    void runtimeVersions()
    {
        const QJsonArray list = runtimeVersionsJson();
        QVERIFY(list.size() >= 12);
        bool has211 = false;
        for (const QJsonValue& v : list) {
            const QJsonObject o = v.toObject();
            QVERIFY(QFile::exists(o.value(QLatin1String("interpreter")).toString()));
            has211 |= o.value(QLatin1String("runtimeVersion")).toString() == QLatin1String("2.11")
                && o.value(QLatin1String("pythonVersions")).toArray().contains(QStringLiteral("3.7"));
        }
        QVERIFY(has211);
    }

    void interpreter_data()
    {
        QTest::addColumn<QString>("runtimeVersion");
        QTest::addColumn<QString>("pythonVersion");
        QTest::addColumn<QString>("errorField");
        QTest::addRow("default") << QString() << QString() << QString();
        QTest::addRow("2.11 with 3.7") << QStringLiteral("2.11") << QStringLiteral("3.7") << QString();
        QTest::addRow("1.15") << QStringLiteral("1.15") << QString() << QString();
        QTest::addRow("unknown runtime") << QStringLiteral("9.9") << QString()
                                         << QStringLiteral("trainingInput.runtimeVersion");
        QTest::addRow("python 2.7 on 2.11")
            << QStringLiteral("2.11") << QStringLiteral("2.7") << QStringLiteral("trainingInput.pythonVersion");
    }
    void interpreter()
    {
        QFETCH(QString, runtimeVersion);
        QFETCH(QString, pythonVersion);
        QFETCH(QString, errorField);
        TrainingInput input;
        input.runtimeVersion = runtimeVersion;
        input.pythonVersion = pythonVersion;
        QString error;
        const QString python = interpreterFor(input, &error);
        if (errorField.isEmpty()) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(python, QStringLiteral("/usr/bin/python3"));
        } else {
            QVERIFY(python.isEmpty());
            QVERIFY2(error.startsWith(errorField + QLatin1Char(':')), qPrintable(error));
        }
    }
};

QTEST_GUILESS_MAIN(TestGpuInventory)
#include "tst_gpuinventory.moc"
