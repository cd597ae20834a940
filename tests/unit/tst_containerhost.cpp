// SPDX-License-Identifier: GPL-2.0-or-later
// ContainerHost's checks without podman's images: the NVIDIA CDI spec lookup, the field violations a job with
// images gets on a host without podman, with an image that is not there, and with GPUs but no CDI spec, and what
// detect() asks podman for. The podman of these tests is /bin/true (every image "exists") or /bin/false (none does).
#include "containerhost.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

TrainingInput imageJob()
{
    TrainingInput in;
    in.scaleTier = QStringLiteral("CUSTOM");
    in.masterType = QStringLiteral("n1-standard-4");
    in.masterConfig = ReplicaConfig {};
    in.masterConfig->imageUri = QStringLiteral("localhost/trainer:1");
    in.workerType = QStringLiteral("n1-standard-4");
    in.workerCount = 2;
    return in;
}

bool write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

QStringList fields(const FieldViolations& v)
{
    QStringList out;
    for (const FieldViolation& f : v)
        out << f.field;
    return out;
}

} // namespace

class TestContainerHost : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nvidiaCdiSpec()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(!ContainerHost::hasNvidiaCdi({ dir.path(), dir.filePath(QStringLiteral("missing")) }));
        // Another vendor's spec (the recipe's hand-written example) is not NVIDIA's.
        QVERIFY(write(dir.filePath(QStringLiteral("fake.yaml")), "cdiVersion: 0.5.0\nkind: trainyard.example/gpu\n"));
        QVERIFY(!ContainerHost::hasNvidiaCdi({ dir.path() }));
        // nvidia-ctk's YAML, and the JSON form.
        QVERIFY(write(dir.filePath(QStringLiteral("nvidia.yaml")), "---\ncdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices: []\n"));
        QVERIFY(ContainerHost::hasNvidiaCdi({ dir.path() }));
        QTemporaryDir json;
        QVERIFY(write(json.filePath(QStringLiteral("nvidia.json")), R"({"cdiVersion":"0.5.0","kind":"nvidia.com/gpu"})"));
        QVERIFY(ContainerHost::hasNvidiaCdi({ json.path() }));
    }

    void noPodman()
    {
        const FieldViolations v = ContainerHost::violations(imageJob(), Launch::ContainerRuntime {});
        // One violation, on the config that names the image, though three replicas run it.
        QCOMPARE(fields(v), QStringList { QStringLiteral("trainingInput.masterConfig.imageUri") });
        QVERIFY2(v.first().description.contains(QLatin1String("podman")), qPrintable(v.first().description));
        // A job without images needs no podman.
        TrainingInput package = imageJob();
        package.masterConfig.reset();
        QVERIFY(ContainerHost::violations(package, Launch::ContainerRuntime {}).isEmpty());
    }

    void missingImageByName()
    {
        const Launch::ContainerRuntime none { QStringLiteral("/bin/false"), {}, {} };
        TrainingInput in = imageJob();
        in.workerConfig = ReplicaConfig {};
        in.workerConfig->imageUri = QStringLiteral("localhost/worker:2");
        const FieldViolations v = ContainerHost::violations(in, none);
        QCOMPARE(fields(v),
            (QStringList { QStringLiteral("trainingInput.masterConfig.imageUri"), QStringLiteral("trainingInput.workerConfig.imageUri") }));
        QVERIFY(v.at(0).description.contains(QLatin1String("\"localhost/trainer:1\"")));
        QVERIFY(v.at(1).description.contains(QLatin1String("\"localhost/worker:2\"")));
        const Launch::ContainerRuntime all { QStringLiteral("/bin/true"), {}, {} };
        QVERIFY(ContainerHost::violations(in, all).isEmpty());
    }

    void gpusNeedCdi()
    {
        if (ContainerHost::hasNvidiaCdi())
            QSKIP("this host has an NVIDIA CDI spec: the refusal cannot be seen here");
        const Launch::ContainerRuntime all { QStringLiteral("/bin/true"), {}, {} };
        TrainingInput in = imageJob();
        in.workerConfig = ReplicaConfig {};
        in.workerConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_T4") };
        const FieldViolations v = ContainerHost::violations(in, all);
        QCOMPARE(fields(v), QStringList { QStringLiteral("trainingInput.workerConfig.acceleratorConfig") });
        QVERIFY2(v.first().description.contains(QLatin1String("nvidia-ctk cdi generate")), qPrintable(v.first().description));
    }

    void detectCapsLimits()
    {
        const Launch::ContainerRuntime r = ContainerHost::detect();
        if (r.podman.isEmpty()) {
            QVERIFY(r.globalArgs.isEmpty() && r.runArgs.isEmpty());
            return;
        }
        // nproc never above what podman itself keeps (32768); nofile as this process's hard limit.
        const qsizetype nproc = r.runArgs.indexOf(QRegularExpression(QStringLiteral("nproc=.*")));
        QVERIFY(nproc > 0);
        const int value = r.runArgs.at(nproc).section(QLatin1Char('='), 1).section(QLatin1Char(':'), 0, 0).toInt();
        QVERIFY(value > 0 && value <= 32768);
    }
};

QTEST_GUILESS_MAIN(TestContainerHost)
#include "tst_containerhost.moc"
