// SPDX-License-Identifier: GPL-2.0-or-later
// The GPU paths of the executor on a host without a GPU: ctest puts tests/fakenvml's stand-in for
// libnvidia-ml.so.1 on LD_LIBRARY_PATH (see that file for what it reports). Checked: the inventory sees
// its GPUs; GpuSampler sums the memory and SM utilisation of a process tree's processes, grows its
// buffer when NVML says it is too small, and tells "no GPU work" from "not measurable"; and a real
// executor running a job that asked for a GPU reserves it (CUDA_VISIBLE_DEVICES) and serves the
// replica's gpu_memory_bytes and gpu_utilization_percent series through the API. What a real driver
// reports for a real GPU is not tested here.
#include "apiclient.h"
#include "executorenvironment.h"
#include "executorprocess.h"
#include "gpuinventory.h"
#include "resourcesampler.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <memory>

using namespace Trainyard;

namespace {
constexpr double ProcessMemory = 300.0 * 1024 * 1024; // the stand-in's default per process
constexpr double SmUtil = 37; // the stand-in's default per process
const QString JobId = QStringLiteral("gpu_sampling_job");

/// A `sleep` whose command line holds `marker` (the stand-in's FAKE_NVML_MATCH); killed on destruction.
std::unique_ptr<QProcess> startSleep(const QString& seconds)
{
    auto p = std::make_unique<QProcess>();
    p->start(QStringLiteral("sleep"), { seconds });
    return p->waitForStarted() ? std::move(p) : nullptr;
}
/// Whether the job's two replicas run, each holding one GPU, together GPUs 0 and 1.
bool runningOnGpus01(ApiClient& client)
{
    const auto replicas = client.replicasBlocking(JobId);
    if (!replicas.ok() || replicas.value.size() != 2)
        return false;
    QSet<int> gpus;
    for (const ReplicaInfo& r : replicas.value) {
        if (r.state != ReplicaState::Running || r.gpus.size() != 1)
            return false;
        gpus.insert(r.gpus.first());
    }
    return gpus == QSet<int> { 0, 1 };
}
/// The system clock in µs since the epoch: what the stand-in stamps its utilization samples with.
qint64 systemClockUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// The pid of a child of `parent` whose command line holds `text`, or 0 (from /proc/<pid>/stat and cmdline).
qint64 childHolding(qint64 parent, const QByteArray& text)
{
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& pid : pids) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // "pid (comm) state ppid …": comm may hold blanks, so split after its closing parenthesis.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields.at(1).toLongLong() != parent)
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(text))
            return pid.toLongLong();
    }
    return 0;
}
} // namespace

class TestGpuSampling : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;

    QString path(const QString& rel) const { return m_root.filePath(rel); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(qEnvironmentVariable("LD_LIBRARY_PATH").contains(QLatin1String("fakenvml")),
            "run through ctest, which puts the NVML stand-in on LD_LIBRARY_PATH");
        QVERIFY(m_root.isValid());
    }

    void inventorySeesTheGpus()
    {
        qputenv("FAKE_NVML_GPU_COUNT", "2");
        const HostInventory host = detectHostInventory();
        QCOMPARE(host.gpus.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const GpuInfo& gpu = host.gpus.at(i);
            QCOMPARE(gpu.index, i);
            QCOMPARE(gpu.name, QStringLiteral("Tesla T4"));
            QCOMPARE(gpu.acceleratorType, QStringLiteral("NVIDIA_TESLA_T4"));
            QCOMPARE(gpu.memoryBytes, 16LL << 30);
            QCOMPARE(gpu.uuid, QStringLiteral("GPU-00000000-0000-0000-0000-00000000000%1").arg(i));
        }
        qunsetenv("FAKE_NVML_GPU_COUNT");
    }

    void samplerSumsAProcessTree()
    {
        QString why;
        const std::unique_ptr<GpuSampler> sampler = GpuSampler::open(&why);
        QVERIFY2(sampler, qPrintable(why));
        // Two processes on GPU 0 (their command lines hold the marker), one that is not.
        qputenv("FAKE_NVML_MATCH", "4242.5");
        const auto a = startSleep(QStringLiteral("4242.5"));
        const auto b = startSleep(QStringLiteral("4242.5"));
        const auto other = startSleep(QStringLiteral("4343.5"));
        QVERIFY(a && b && other);

        GpuSampler::Usage u = sampler->usage({ a->processId() }, { 0 });
        QCOMPARE(u.memoryBytes, std::optional<double>(ProcessMemory));
        QCOMPARE(u.utilizationPercent, std::optional<double>(SmUtil));
        // The stand-in only makes samples newer than the newest one seen (stamped with the system clock in
        // µs), so each next call waits until that clock has passed the previous call.
        qint64 seen = systemClockUs();

        QTRY_VERIFY(systemClockUs() > seen);
        u = sampler->usage({ a->processId(), b->processId(), other->processId() }, { 0 });
        QCOMPARE(u.memoryBytes, std::optional<double>(2 * ProcessMemory));
        QCOMPARE(u.utilizationPercent, std::optional<double>(2 * SmUtil));
        seen = systemClockUs();

        // A replica with a GPU of its own and no process on it: measured, and zero.
        QTRY_VERIFY(systemClockUs() > seen);
        u = sampler->usage({ other->processId() }, { 0 });
        QCOMPARE(u.memoryBytes, std::optional<double>(0));
        QCOMPARE(u.utilizationPercent, std::optional<double>(0));
        seen = systemClockUs();
        // Without a GPU and without GPU processes: nothing to report.
        QTRY_VERIFY(systemClockUs() > seen);
        u = sampler->usage({ other->processId() }, {});
        QVERIFY(!u.memoryBytes);
        QVERIFY(!u.utilizationPercent);
        seen = systemClockUs();

        // 100 more processes than the sampler's first buffer holds: it asks again with a bigger one.
        qputenv("FAKE_NVML_PHANTOMS", "100");
        QTRY_VERIFY(systemClockUs() > seen);
        u = sampler->usage({ a->processId(), b->processId() }, { 0 });
        QCOMPARE(u.memoryBytes, std::optional<double>(2 * ProcessMemory));
        QCOMPARE(u.utilizationPercent, std::optional<double>(2 * SmUtil));
        qunsetenv("FAKE_NVML_PHANTOMS");

        // ProcessTreeSampler finds the GPU process below the replica's own (a shell running it).
        QProcess shell;
        shell.start(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), QStringLiteral("sleep 4242.5; exit 0") });
        QVERIFY(shell.waitForStarted());
        QTRY_VERIFY(childHolding(shell.processId(), "4242.5") != 0); // the shell has started its `sleep`
        ProcessTreeSampler trees;
        ReplicaProcess replica;
        replica.taskName = QStringLiteral("master-replica-0");
        replica.pid = shell.processId();
        replica.gpus = { 0 };
        const QList<ResourceSample> samples = trees.sample({ replica }, sampler.get());
        QCOMPARE(samples.size(), 1);
        // The shell's command line holds the marker too: shell and sleep both count.
        QCOMPARE(samples.first().gpuMemoryBytes, std::optional<double>(2 * ProcessMemory));
        QCOMPARE(samples.first().gpuUtilizationPercent, std::optional<double>(2 * SmUtil));
        shell.kill();
        shell.waitForFinished();
        qunsetenv("FAKE_NVML_MATCH");
        for (QProcess* p : { a.get(), b.get(), other.get() }) {
            p->kill();
            p->waitForFinished();
        }
    }

    void executorServesGpuSamples()
    {
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("jobs") }));
        Test::ExecutorProcess executor(m_root.path()); // stopped at the end
        // The replica runs `python -m tytest.sleeper`: that process is on GPU 0, its `sleep` child is not.
        executor.setEnvironmentVariable(QStringLiteral("FAKE_NVML_MATCH"), QStringLiteral("tytest.sleeper"));
        executor.setEnvironmentVariable(QStringLiteral("FAKE_NVML_GPU_COUNT"), QStringLiteral("2"));
        QString error;
        QVERIFY2(executor.start(&error), qPrintable(error));
        ApiClient client(executor.url(), executor.token());

        Job job;
        job.jobId = JobId;
        job.trainingInput.scaleTier = QStringLiteral("CUSTOM");
        job.trainingInput.masterType = QStringLiteral("n1-standard-4");
        job.trainingInput.masterConfig = ReplicaConfig {};
        job.trainingInput.masterConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_T4") };
        job.trainingInput.workerCount = 1;
        job.trainingInput.workerType = QStringLiteral("n1-standard-4");
        job.trainingInput.workerConfig = job.trainingInput.masterConfig;
        job.trainingInput.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest") };
        job.trainingInput.pythonModule = QStringLiteral("tytest.sleeper");
        job.trainingInput.region = QStringLiteral("us-central1");
        job.trainingInput.jobDir = path(QStringLiteral("jobs/") + JobId);
        const ApiResult<Job> created = client.createJobBlocking(job);
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));

        // Each replica holds a GPU of its own (the stand-in puts a process on the GPU its
        // CUDA_VISIBLE_DEVICES names), and its samples show the stand-in's figures for its process only.
        QTRY_VERIFY_WITH_TIMEOUT(runningOnGpus01(client), 180000);
        const QStringList tasks { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0") };
        for (const QString& task : tasks) {
            const QString memory = QStringLiteral("resource/%1/gpu_memory_bytes").arg(task);
            const QString utilization = QStringLiteral("resource/%1/gpu_utilization_percent").arg(task);
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    const auto page = client.metricPointsBlocking(JobId, memory);
                    return page.ok() && page.value.points.size() >= 3;
                }(),
                60000);
            // Samples taken before `python` had replaced the replica's shell may miss it; later ones see it.
            const QList<SeriesPoint> memoryPoints = client.metricPointsBlocking(JobId, memory).value.points;
            QCOMPARE(memoryPoints.last().value, ProcessMemory);
            for (const SeriesPoint& p : memoryPoints)
                QVERIFY(p.value == ProcessMemory || p.value == 0);
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    const auto page = client.metricPointsBlocking(JobId, utilization);
                    return page.ok() && !page.value.points.isEmpty() && page.value.points.last().value == SmUtil;
                }(),
                30000);
        }

        const ApiResult<bool> cancelled = client.cancelJobBlocking(JobId);
        QVERIFY2(cancelled.ok(), qPrintable(cancelled.error.summary()));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto j = client.getJobBlocking(JobId);
                return j.ok() && j.value.state == JobState::Cancelled;
            }(),
            60000);
    }
};

QTEST_GUILESS_MAIN(TestGpuSampling)
#include "tst_gpusampling.moc"
