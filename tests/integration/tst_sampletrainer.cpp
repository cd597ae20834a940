// SPDX-License-Identifier: GPL-2.0-or-later
// The bundled Fashion-MNIST trainer (resources/trainers/fmnist) under the service's replica
// contract, without the executor: staged with pip like the executor stages it, its replicas
// started with TF_CONFIG, MASTER_ADDR/MASTER_PORT, WORLD_SIZE/RANK and CLOUD_ML_HP_METRIC_FILE,
// and what it leaves read back with Trainyard's own readers (PyTorch archives, hypertune
// metrics files, event files). Training uses the first 2,000 images to stay quick; the full
// run (≥ 0.80 test accuracy) is the end-to-end job test's business.
#include "eventfilereader.h"
#include "hypertunereader.h"
#include "pytorcharchive.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <vector>

using namespace Trainyard::Formats;

namespace {
const QString python = QStringLiteral("/usr/bin/python3");
constexpr int runTimeoutMs = 600 * 1000;

quint16 freePort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

struct Replica {
    QString name; // master-replica-0, worker-replica-N, ps-replica-N
    std::unique_ptr<QProcess> process;
    QByteArray output;
};

/// One job's replicas, started as ARCHITECTURE.md "A job's life" says.
class LocalCluster {
public:
    LocalCluster(const QString& stagingDir, const QString& module, int workers, int ps, const QString& jobDir,
        const QString& metricsDir)
        : m_stagingDir(stagingDir)
        , m_module(module)
        , m_workers(workers)
        , m_ps(ps)
        , m_jobDir(jobDir)
        , m_metricsDir(metricsDir)
    {
    }

    void start(const QStringList& args, const QString& tfConfigOverride = {})
    {
        QJsonObject cluster;
        auto addresses = [](int count) {
            QJsonArray list;
            for (int i = 0; i < count; ++i)
                list.append(QStringLiteral("127.0.0.1:%1").arg(freePort()));
            return list;
        };
        cluster.insert(QStringLiteral("master"), addresses(1));
        if (m_workers)
            cluster.insert(QStringLiteral("worker"), addresses(m_workers));
        if (m_ps)
            cluster.insert(QStringLiteral("ps"), addresses(m_ps));
        const QString masterPort
            = cluster.value(QStringLiteral("master")).toArray().at(0).toString().section(QLatin1Char(':'), 1);

        QList<QPair<QString, int>> tasks { { QStringLiteral("master"), 0 } };
        for (int i = 0; i < m_workers; ++i)
            tasks.append({ QStringLiteral("worker"), i });
        for (int i = 0; i < m_ps; ++i)
            tasks.append({ QStringLiteral("ps"), i });

        m_replicas.clear();
        for (const auto& [type, index] : tasks) {
            auto replica = std::make_unique<Replica>();
            replica->name = QStringLiteral("%1-replica-%2").arg(type).arg(index);
            QJsonObject task { { QStringLiteral("type"), type }, { QStringLiteral("index"), index } };
            const QJsonObject tfConfig { { QStringLiteral("cluster"), cluster }, { QStringLiteral("task"), task },
                { QStringLiteral("job"), QJsonObject { { QStringLiteral("pythonModule"), m_module } } },
                { QStringLiteral("environment"), QStringLiteral("cloud") } };

            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("TF_CONFIG"),
                tfConfigOverride.isEmpty() ? QString::fromUtf8(QJsonDocument(tfConfig).toJson(QJsonDocument::Compact))
                                           : tfConfigOverride);
            env.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
            env.insert(QStringLiteral("MASTER_PORT"), masterPort);
            env.remove(QStringLiteral("WORLD_SIZE"));
            env.remove(QStringLiteral("RANK"));
            if (type != QStringLiteral("ps")) {
                env.insert(QStringLiteral("WORLD_SIZE"), QString::number(1 + m_workers));
                env.insert(QStringLiteral("RANK"), QString::number(type == QStringLiteral("master") ? 0 : 1 + index));
            }
            env.insert(QStringLiteral("CLOUD_ML_JOB_ID"), QStringLiteral("tst_sampletrainer"));
            env.insert(QStringLiteral("CLOUD_ML_HP_METRIC_FILE"), metricsFile(replica->name));
            env.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), QString());
            env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("4"));
            env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
            env.insert(QStringLiteral("PYTHONPATH"), m_stagingDir);
            for (auto it = m_environment.cbegin(); it != m_environment.cend(); ++it)
                env.insert(it.key(), it.value());

            replica->process = std::make_unique<QProcess>();
            replica->process->setProcessEnvironment(env);
            replica->process->setProcessChannelMode(QProcess::MergedChannels);
            Replica* raw = replica.get();
            QObject::connect(raw->process.get(), &QProcess::readyRead, raw->process.get(),
                [raw] { raw->output += raw->process->readAll(); });
            replica->process->start(python,
                QStringList { QStringLiteral("-m"), m_module } + args
                    + QStringList { QStringLiteral("--job-dir"), m_jobDir });
            m_replicas.push_back(std::move(replica));
        }
    }

    /// Variables every replica of the next start() gets on top of the contract's (CLOUD_ML_TRIAL_ID …).
    void setEnvironment(const QString& name, const QString& value) { m_environment.insert(name, value); }

    bool allFinished() const
    {
        for (const auto& r : m_replicas) {
            if (r->process->state() != QProcess::NotRunning)
                return false;
        }
        return true;
    }

    Replica& replica(const QString& name)
    {
        for (auto& r : m_replicas) {
            if (r->name == name)
                return *r;
        }
        qFatal("no replica %s", qPrintable(name));
    }

    QString metricsFile(const QString& replica) const
    {
        return m_metricsDir + QLatin1Char('/') + replica + QStringLiteral("/output.metrics");
    }

    /// Every replica's exit, for failure messages: "master-replica-0: 0; worker-replica-0: 0".
    QString summary() const
    {
        QStringList parts;
        for (const auto& r : m_replicas) {
            parts.append(
                QStringLiteral("%1: %2 %3")
                    .arg(r->name)
                    .arg(r->process->exitCode())
                    .arg(r->process->exitStatus() == QProcess::CrashExit ? QStringLiteral("(signal)") : QString()));
        }
        return parts.join(QStringLiteral("; "));
    }

    QString logs() const
    {
        QString text;
        for (const auto& r : m_replicas)
            text += QStringLiteral("---- %1\n%2\n").arg(r->name, QString::fromUtf8(r->output.right(4000)));
        return text;
    }

    ~LocalCluster()
    {
        for (auto& r : m_replicas) {
            if (r->process->state() != QProcess::NotRunning) {
                r->process->kill();
                r->process->waitForFinished(5000);
            }
        }
    }

private:
    QString m_stagingDir;
    QString m_module;
    int m_workers;
    int m_ps;
    QString m_jobDir;
    QString m_metricsDir;
    QMap<QString, QString> m_environment;
    std::vector<std::unique_ptr<Replica>> m_replicas;
};

class Collector : public ScalarSink {
public:
    void scalar(QByteArrayView tag, qint64 step, double, double value) override
    {
        points[QString::fromUtf8(tag.toByteArray())].append({ step, value });
    }
    QMap<QString, QList<QPair<qint64, double>>> points;
};

QMap<QString, QList<QPair<qint64, double>>> readEventFile(const QString& path)
{
    EventFileReader reader(path);
    Collector sink;
    reader.readAvailable(sink);
    if (!reader.takeIssues().empty())
        return {};
    return sink.points;
}

QStringList eventFiles(const QString& dir)
{
    QStringList files;
    const QStringList names = QDir(dir).entryList({ QStringLiteral("*tfevents*") }, QDir::Files, QDir::Name);
    for (const QString& name : names)
        files.append(dir + QLatin1Char('/') + name);
    return files;
}
} // namespace

class TestSampleTrainer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void trainsChecksAndResumes_data();
    void trainsChecksAndResumes();
    void runsAsATrial_data();
    void runsAsATrial();
    void lostWorkerIsRetryable();
    void sigtermEndsPromptly();
    void badInputIsPermanent_data();
    void badInputIsPermanent();

private:
    QTemporaryDir m_staging;
};

void TestSampleTrainer::initTestCase()
{
    QVERIFY(m_staging.isValid());
    QVERIFY2(QFile::exists(QStringLiteral("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz")),
        "Fashion-MNIST is missing: run packaging/setup-deps.sh (dataset-fashion-mnist)");
    // The executor's staging step: pip, offline, into a folder that goes on PYTHONPATH.
    QProcess pip;
    pip.setProcessChannelMode(QProcess::MergedChannels);
    pip.start(python,
        { QStringLiteral("-m"), QStringLiteral("pip"), QStringLiteral("install"), QStringLiteral("--no-index"),
            QStringLiteral("--no-deps"), QStringLiteral("--no-build-isolation"), QStringLiteral("--target"),
            m_staging.path(), QStringLiteral(TRAINYARD_SAMPLE_TRAINER) });
    QVERIFY(pip.waitForFinished(300 * 1000));
    QVERIFY2(pip.exitCode() == 0, pip.readAll().constData());
    QVERIFY(QFile::exists(m_staging.path() + QStringLiteral("/trainer/task.py")));
    QVERIFY(QFile::exists(m_staging.path() + QStringLiteral("/trainer/ps_task.py")));
    // Staging must not write into the package's folder (it is installed read-only).
    QVERIFY(!QFile::exists(QStringLiteral(TRAINYARD_SAMPLE_TRAINER "/build")));
}

void TestSampleTrainer::trainsChecksAndResumes_data()
{
    QTest::addColumn<QString>("module");
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("ps");
    QTest::addRow("ddp: master + 1 worker") << QStringLiteral("trainer.task") << 1 << 0;
    QTest::addRow("ddp: master + 1 worker + 1 idle ps") << QStringLiteral("trainer.task") << 1 << 1;
    QTest::addRow("parameter servers: master + 1 worker + 2 ps") << QStringLiteral("trainer.ps_task") << 1 << 2;
}

void TestSampleTrainer::trainsChecksAndResumes()
{
    QFETCH(QString, module);
    QFETCH(int, workers);
    QFETCH(int, ps);
    QTemporaryDir work;
    QVERIFY(work.isValid());
    const QString jobDir = work.path() + QStringLiteral("/job");
    const QStringList quick { QStringLiteral("--train-examples"), QStringLiteral("2000"), QStringLiteral("--log-every"),
        QStringLiteral("4") };

    LocalCluster cluster(m_staging.path(), module, workers, ps, jobDir, work.path() + QStringLiteral("/metrics"));
    cluster.start(QStringList { QStringLiteral("--epochs"), QStringLiteral("2") } + quick);
    QTRY_VERIFY_WITH_TIMEOUT(cluster.allFinished(), runTimeoutMs);
    const QString firstRun = cluster.summary();
    for (const QString& name : { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0") }) {
        Replica& r = cluster.replica(name);
        QVERIFY2(r.process->exitStatus() == QProcess::NormalExit && r.process->exitCode() == 0,
            qPrintable(firstRun + QLatin1Char('\n') + cluster.logs()));
        QVERIFY2(r.output.contains("epoch 2 test_accuracy"), r.output.constData());
    }
    if (ps)
        QCOMPARE(cluster.replica(QStringLiteral("ps-replica-0")).process->exitCode(), 0);

    // A checkpoint per epoch, in the layout the checkpoint browser reads.
    for (int epoch : { 1, 2 }) {
        const QString path = jobDir + QStringLiteral("/checkpoints/ckpt-epoch-%1.pt").arg(epoch);
        QString error;
        const std::optional<CheckpointInfo> info = PyTorchArchive::read(path, &error);
        QVERIFY2(info, qPrintable(path + QStringLiteral(": ") + error));
        QCOMPARE(info->scalars.value(QStringLiteral("epoch")).toLongLong(), qint64(epoch));
        QVERIFY(info->scalars.value(QStringLiteral("global_step")).toLongLong() > 0);
        const TensorInfo* fc1 = info->find(QStringLiteral("model.fc1.weight"));
        QVERIFY(fc1);
        QCOMPARE(fc1->shape, (QList<qint64> { 256, 784 }));
        QCOMPARE(fc1->dtype, QStringLiteral("float32"));
        QVERIFY(info->find(QStringLiteral("optimizer.state.0.exp_avg")));
    }
    QVERIFY(QDir(jobDir + QStringLiteral("/checkpoints"))
                .entryList({ QStringLiteral(".*tmp*") }, QDir::Files | QDir::Hidden)
                .isEmpty());
    // The model as the prediction service deploys it (issue 30): a TorchScript archive (a zip whose code/ holds the
    // scripted forward), the ten class names and the explanation metadata, with no temporary file left.
    {
        QFile model(jobDir + QStringLiteral("/model/model.pt"));
        QVERIFY2(model.open(QIODevice::ReadOnly), qPrintable(model.fileName()));
        const QByteArray archive = model.readAll();
        QVERIFY(archive.startsWith("PK\x03\x04"));
        QVERIFY(archive.contains("code/__torch__"));
        QFile classes(jobDir + QStringLiteral("/model/classes.json"));
        QVERIFY(classes.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(classes.readAll()).array().size(), 10);
        // The service's explanation metadata (issue 47): one image input, explained from a black image.
        QFile metadata(jobDir + QStringLiteral("/model/explanation_metadata.json"));
        QVERIFY(metadata.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(metadata.readAll())[QLatin1String("inputs")][QLatin1String("pixels")][QLatin1String("modality")].toString(),
            QStringLiteral("image"));
        QCOMPARE(QDir(jobDir + QStringLiteral("/model")).entryList(QDir::Files | QDir::Hidden).size(), 3);
    }

    // The master's hypertune reports: one per epoch, tag "accuracy", better than chance.
    HypertuneReader hypertune(cluster.metricsFile(QStringLiteral("master-replica-0")));
    const QList<HypertuneReport> reports = hypertune.readNew();
    QVERIFY2(hypertune.takeIssues().isEmpty(), "the metrics file must read cleanly");
    QCOMPARE(reports.size(), 2);
    QCOMPARE(reports.at(0).tag, QStringLiteral("accuracy"));
    QVERIFY(reports.at(1).step > reports.at(0).step);
    QVERIFY2(reports.at(1).value > 0.5, qPrintable(QString::number(reports.at(1).value)));
    QVERIFY(reports.at(1).checkpointPath.endsWith(QStringLiteral("/checkpoints/ckpt-epoch-2.pt")));

    // One event file (the master's) with the training curves and the evaluation per epoch.
    QStringList files = eventFiles(jobDir);
    QCOMPARE(files.size(), 1);
    auto scalars = readEventFile(files.first());
    QVERIFY2(scalars.contains(QStringLiteral("train/loss")), qPrintable(scalars.keys().join(QLatin1Char(','))));
    QVERIFY(scalars.contains(QStringLiteral("train/accuracy")));
    const auto evalAccuracy = scalars.value(QStringLiteral("eval/accuracy"));
    QCOMPARE(evalAccuracy.size(), 2);
    QCOMPARE(evalAccuracy.at(1).first, reports.at(1).step);
    QVERIFY(qAbs(evalAccuracy.at(1).second - reports.at(1).value) < 1e-6);

    // Started again with more epochs: every trainer resumes from the newest checkpoint.
    cluster.start(QStringList { QStringLiteral("--epochs"), QStringLiteral("3") } + quick);
    QTRY_VERIFY_WITH_TIMEOUT(cluster.allFinished(), runTimeoutMs);
    const QByteArray resumed = "Resuming from checkpoint " + jobDir.toUtf8() + "/checkpoints/ckpt-epoch-2.pt (epoch 2)";
    for (const QString& name : { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0") }) {
        Replica& r = cluster.replica(name);
        QVERIFY2(r.process->exitCode() == 0, qPrintable(cluster.summary() + QLatin1Char('\n') + cluster.logs()));
        QVERIFY2(r.output.contains(resumed), r.output.constData());
        QVERIFY(!r.output.contains("epoch 1 test_accuracy"));
    }
    QVERIFY(QFile::exists(jobDir + QStringLiteral("/checkpoints/ckpt-epoch-3.pt")));
    files = eventFiles(jobDir);
    QCOMPARE(files.size(), 2);
    scalars = readEventFile(files.last());
    QCOMPARE(scalars.value(QStringLiteral("eval/accuracy")).size(), 1);
    QVERIFY(scalars.value(QStringLiteral("eval/accuracy")).first().first > reports.at(1).step);
}

void TestSampleTrainer::runsAsATrial_data()
{
    QTest::addColumn<QString>("module");
    QTest::addColumn<int>("ps");
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<QString>("stateTensor"); // a tensor only that optimizer's state has
    QTest::addRow("ddp, sgd") << QStringLiteral("trainer.task") << 0 << QStringLiteral("sgd")
                              << QStringLiteral("optimizer.state.0.momentum_buffer");
    QTest::addRow("parameter servers, rmsprop") << QStringLiteral("trainer.ps_task") << 1 << QStringLiteral("rmsprop")
                                                << QStringLiteral("optimizer.state.0.square_avg");
}

void TestSampleTrainer::runsAsATrial()
{
    // What the executor sets for trial 3 of a tuning job (app/launch/launchspec.h): CLOUD_ML_TRIAL_ID and the
    // study's metric tag; the hyperparameters arrive as --<name>=<value> flags.
    QFETCH(QString, module);
    QFETCH(int, ps);
    QFETCH(QString, optimizer);
    QFETCH(QString, stateTensor);
    QTemporaryDir work;
    QVERIFY(work.isValid());
    const QString jobDir = work.path() + QStringLiteral("/job");
    LocalCluster cluster(m_staging.path(), module, 0, ps, jobDir, work.path() + QStringLiteral("/metrics"));
    cluster.setEnvironment(QStringLiteral("CLOUD_ML_TRIAL_ID"), QStringLiteral("3"));
    cluster.setEnvironment(QStringLiteral("CLOUD_ML_HP_METRIC_TAG"), QStringLiteral("trial_accuracy"));
    const QStringList quick { QStringLiteral("--train-examples"), QStringLiteral("1000"),
        QStringLiteral("--learning-rate=0.01"), QStringLiteral("--optimizer=") + optimizer };
    cluster.start(QStringList { QStringLiteral("--epochs"), QStringLiteral("1") } + quick);
    QTRY_VERIFY_WITH_TIMEOUT(cluster.allFinished(), runTimeoutMs);
    Replica& master = cluster.replica(QStringLiteral("master-replica-0"));
    QVERIFY2(master.process->exitCode() == 0, qPrintable(cluster.summary() + QLatin1Char('\n') + cluster.logs()));

    // The trial's own folder, as the service's samples keep it: <job-dir>/<trial-id>/.
    QVERIFY(!QFileInfo::exists(jobDir + QStringLiteral("/checkpoints")));
    const QString checkpoint = jobDir + QStringLiteral("/3/checkpoints/ckpt-epoch-1.pt");
    QString error;
    const std::optional<CheckpointInfo> info = PyTorchArchive::read(checkpoint, &error);
    QVERIFY2(info, qPrintable(checkpoint + QStringLiteral(": ") + error));
    QVERIFY2(info->find(stateTensor), qPrintable(stateTensor));
    QCOMPARE(eventFiles(jobDir + QStringLiteral("/3")).size(), 1);

    // The report carries the study's tag and the trial.
    HypertuneReader hypertune(cluster.metricsFile(QStringLiteral("master-replica-0")));
    const QList<HypertuneReport> reports = hypertune.readNew();
    QCOMPARE(reports.size(), 1);
    QCOMPARE(reports.at(0).tag, QStringLiteral("trial_accuracy"));
    QCOMPARE(reports.at(0).trial, QStringLiteral("3"));
    QVERIFY(reports.at(0).checkpointPath.endsWith(QStringLiteral("/3/checkpoints/ckpt-epoch-1.pt")));

    // Resumed with another optimizer: the model resumes, the other optimizer's state is not forced on it.
    cluster.start(QStringList { QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--train-examples"),
        QStringLiteral("1000"), QStringLiteral("--optimizer=adam") });
    QTRY_VERIFY_WITH_TIMEOUT(cluster.allFinished(), runTimeoutMs);
    Replica& resumed = cluster.replica(QStringLiteral("master-replica-0")); // start() made new replicas
    QVERIFY2(resumed.process->exitCode() == 0, qPrintable(cluster.summary() + QLatin1Char('\n') + cluster.logs()));
    QVERIFY2(resumed.output.contains(QByteArray(QByteArray("Resuming from checkpoint ") + checkpoint.toUtf8())),
        resumed.output.constData());
    QVERIFY2(resumed.output.contains("not adam: the optimizer starts afresh"), resumed.output.constData());
    QVERIFY(QFileInfo::exists(jobDir + QStringLiteral("/3/checkpoints/ckpt-epoch-2.pt")));
}

void TestSampleTrainer::lostWorkerIsRetryable()
{
    // A worker killed mid-training: the master must not report a permanent failure (exit 1-127),
    // so that the service restarts the whole cluster.
    QTemporaryDir work;
    QVERIFY(work.isValid());
    LocalCluster cluster(m_staging.path(), QStringLiteral("trainer.task"), 1, 0, work.path() + QStringLiteral("/job"),
        work.path() + QStringLiteral("/metrics"));
    cluster.start({ QStringLiteral("--epochs"), QStringLiteral("50") });
    Replica& master = cluster.replica(QStringLiteral("master-replica-0"));
    QTRY_VERIFY_WITH_TIMEOUT(master.output.contains("Saved checkpoint") || cluster.allFinished(), runTimeoutMs);
    QVERIFY2(!cluster.allFinished(), qPrintable(cluster.logs()));
    ::kill(cluster.replica(QStringLiteral("worker-replica-0")).process->processId(), SIGKILL);
    QTRY_VERIFY_WITH_TIMEOUT(cluster.allFinished(), runTimeoutMs);
    QCOMPARE(master.process->exitStatus(), QProcess::NormalExit);
    QVERIFY2(master.process->exitCode() >= 128, qPrintable(cluster.summary() + QLatin1Char('\n') + cluster.logs()));
    QVERIFY(master.output.contains("lost contact with another replica"));
}

void TestSampleTrainer::sigtermEndsPromptly()
{
    QTemporaryDir work;
    QVERIFY(work.isValid());
    LocalCluster cluster(m_staging.path(), QStringLiteral("trainer.task"), 0, 0, work.path() + QStringLiteral("/job"),
        work.path() + QStringLiteral("/metrics"));
    cluster.start({ QStringLiteral("--epochs"), QStringLiteral("50") });
    Replica& master = cluster.replica(QStringLiteral("master-replica-0"));
    QTRY_VERIFY_WITH_TIMEOUT(master.output.contains("loaded Fashion-MNIST") || cluster.allFinished(), runTimeoutMs);
    QVERIFY2(!cluster.allFinished(), master.output.constData());
    master.process->terminate();
    QTRY_VERIFY_WITH_TIMEOUT(cluster.allFinished(), 60 * 1000);
    QCOMPARE(master.process->exitStatus(), QProcess::NormalExit);
    QCOMPARE(master.process->exitCode(), 128 + SIGTERM);
    QVERIFY(master.output.contains("master-replica-0 received SIGTERM; stopping."));
}

void TestSampleTrainer::badInputIsPermanent_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("tfConfig");
    QTest::addColumn<QByteArray>("message");
    QTest::addRow("zero epochs") << QStringList { QStringLiteral("--epochs"), QStringLiteral("0") } << QString()
                                 << QByteArray("--epochs must be at least 1");
    QTest::addRow("unknown optimizer") << QStringList { QStringLiteral("--optimizer"), QStringLiteral("adagrad") }
                                       << QString() << QByteArray("invalid choice: 'adagrad'");
    QTest::addRow("unknown flag") << QStringList { QStringLiteral("--no-such-flag"), QStringLiteral("1") } << QString()
                                  << QByteArray("unrecognized arguments: --no-such-flag");
    QTest::addRow("task outside the cluster")
        << QStringList()
        << QStringLiteral(R"({"cluster":{"master":["127.0.0.1:1"]},"task":{"type":"worker","index":3}})")
        << QByteArray("TF_CONFIG task worker/3 is not in cluster.worker");
}

void TestSampleTrainer::badInputIsPermanent()
{
    QFETCH(QStringList, args);
    QFETCH(QString, tfConfig);
    QFETCH(QByteArray, message);
    QTemporaryDir work;
    QVERIFY(work.isValid());
    LocalCluster cluster(m_staging.path(), QStringLiteral("trainer.task"), 0, 0, work.path() + QStringLiteral("/job"),
        work.path() + QStringLiteral("/metrics"));
    cluster.start(args, tfConfig);
    QTRY_VERIFY_WITH_TIMEOUT(cluster.allFinished(), runTimeoutMs);
    Replica& master = cluster.replica(QStringLiteral("master-replica-0"));
    QCOMPARE(master.process->exitCode(), 2);
    QVERIFY2(master.output.contains(message), master.output.constData());
    QVERIFY(!QFileInfo::exists(work.path() + QStringLiteral("/job/checkpoints")));
}

QTEST_GUILESS_MAIN(TestSampleTrainer)
#include "tst_sampletrainer.moc"
