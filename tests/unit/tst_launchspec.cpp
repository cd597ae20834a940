// SPDX-License-Identifier: GPL-2.0-or-later
// Launch::buildLaunch, the replica contract as a pure function (ARCHITECTURE.md "A job's life", step 4):
// every role, chief vs master, evaluators, GPUs, trials' arguments and variables, placement errors,
// gcloud's standalone `local train`. No process is started.
#include "jobfolder.h"
#include "launchspec.h"
#include "processgroup.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using namespace Trainyard::Launch;

namespace {

/// CUSTOM: 1 master (n1-standard-8 + 2 × T4), 2 workers (n1-standard-4 + 1 × T4), 1 ps, 1 evaluator.
TrainingInput customInput()
{
    TrainingInput in;
    in.scaleTier = QStringLiteral("CUSTOM");
    in.masterType = QStringLiteral("n1-standard-8");
    in.masterConfig = ReplicaConfig {};
    in.masterConfig->acceleratorConfig = AcceleratorConfig { 2, QStringLiteral("NVIDIA_TESLA_T4") };
    in.workerType = QStringLiteral("n1-standard-4");
    in.workerConfig = ReplicaConfig {};
    in.workerConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_T4") };
    in.workerCount = 2;
    in.parameterServerType = QStringLiteral("n1-standard-4");
    in.parameterServerCount = 1;
    in.evaluatorType = QStringLiteral("n1-standard-4");
    in.evaluatorCount = 1;
    in.pythonModule = QStringLiteral("trainer.task");
    in.args = QStringList { QStringLiteral("--epochs=3"), QStringLiteral("--verbose") };
    in.jobDir = QStringLiteral("/data/jobs/j1");
    in.region = QStringLiteral("us-central1");
    return in;
}

struct Built {
    ReplicaSet set;
    Placement placement;
    QList<ReplicaLaunch> launches;
};

/// podman as the executor's ContainerHost finds it on a host with runc.
ContainerRuntime podmanWithRunc()
{
    return ContainerRuntime { QStringLiteral("/usr/bin/podman"),
        { QStringLiteral("--runtime"), QStringLiteral("/usr/sbin/runc") },
        { QStringLiteral("--ulimit"), QStringLiteral("nofile=20000:20000") } };
}

Built build(const TrainingInput& input, const QList<int>& gpus, const QString& trialId = QString(),
    const QList<std::pair<QString, QString>>& hyperparameters = {}, const ContainerRuntime& containers = {})
{
    Built b;
    b.set.jobId = QStringLiteral("j1");
    b.set.trialId = trialId;
    b.set.hyperparameters = hyperparameters;
    b.set.replicaRoot = QStringLiteral("/var/ty/jobs/j1/replicas");
    b.set.replicas = slotsFor(planCluster(input, MachineCatalog::builtin()), gpus);
    int port = 5000;
    for (const ReplicaSlot& r : std::as_const(b.set.replicas))
        b.placement.addresses << Address {
            r.role == QLatin1String("ps") ? QStringLiteral("node7") : QStringLiteral("node1"), port++
        };
    LaunchContext context;
    context.input = input;
    context.interpreter = QStringLiteral("/usr/bin/python3");
    context.pythonPath = { QStringLiteral("/var/ty/jobs/j1/staging") };
    context.cloud = QStringLiteral("trainyard-box");
    context.jobMarker = QStringLiteral("/var/ty/jobs/j1");
    context.containers = containers;
    QString error;
    b.launches = buildLaunch(context, b.set, b.placement, &error);
    if (b.launches.isEmpty())
        qWarning("buildLaunch failed: %s", qPrintable(error));
    return b;
}

const ReplicaLaunch& byTask(const QList<ReplicaLaunch>& launches, const QString& task)
{
    for (const ReplicaLaunch& l : launches) {
        if (l.taskName == task)
            return l;
    }
    qFatal("no replica %s", qPrintable(task));
}

QJsonObject tfConfigOf(const ReplicaLaunch& l)
{
    return QJsonDocument::fromJson(l.set.value(QStringLiteral("TF_CONFIG")).toUtf8()).object();
}

} // namespace

class TestLaunchSpec : public QObject {
    Q_OBJECT
private Q_SLOTS:

    /// The service's custom containers: a package-based master with image-based workers (the worker's own
    /// image, command and args), and a parameter server and evaluator without an image config, which stay
    /// package replicas because the master has no image.
    void containerReplicas()
    {
        TrainingInput in = customInput();
        in.workerConfig->imageUri = QStringLiteral("localhost/trainer:1");
        in.workerConfig->containerArgs = QStringList { QStringLiteral("--epochs=9") };
        const Built b = build(in, { 0, 1, 2, 3 }, QStringLiteral("4"),
            { { QStringLiteral("lr"), QStringLiteral("0.1") } }, podmanWithRunc());
        QCOMPARE(b.launches.size(), 5);

        const ReplicaLaunch& master = byTask(b.launches, QStringLiteral("master-replica-0"));
        QCOMPARE(master.program, QStringLiteral("/usr/bin/python3"));
        QVERIFY(master.containerName.isEmpty());
        QVERIFY(byTask(b.launches, QStringLiteral("ps-replica-0")).containerName.isEmpty());

        const ReplicaLaunch& w1 = byTask(b.launches, QStringLiteral("worker-replica-1"));
        QCOMPARE(w1.program, QStringLiteral("/usr/bin/podman"));
        QCOMPARE(
            w1.containerName, containerName(QStringLiteral("/var/ty/jobs/j1"), QStringLiteral("worker-replica-1")));
        QVERIFY(w1.containerName.startsWith(QLatin1String("trainyard-")));
        QCOMPARE(w1.containerName.size(), 10 + 12 + 1 + QStringLiteral("worker-replica-1").size());
        const QStringList& a = w1.arguments;
        // Global flags first, then run with the flags the contract needs.
        QCOMPARE(a.mid(0, 3),
            (QStringList { QStringLiteral("--runtime"), QStringLiteral("/usr/sbin/runc"), QStringLiteral("run") }));
        for (const char* flag : { "--rm", "--replace", "--init", "--network=host" })
            QVERIFY2(a.contains(QLatin1String(flag)), flag);
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--name")) + 1), w1.containerName);
        QVERIFY(a.contains(QStringLiteral("nofile=20000:20000")));
        QVERIFY(a.contains(QStringLiteral("io.trainyard.job=j1")));
        QVERIFY(a.contains(QStringLiteral("io.trainyard.trial=4")));
        QVERIFY(a.contains(QStringLiteral("io.trainyard.task=worker-replica-1")));
        QVERIFY(a.contains(containerFolderLabel() + QStringLiteral("=/var/ty/jobs/j1")));
        // The job dir and the replica's folder (its hypertune file) at the same paths.
        QVERIFY(a.contains(QStringLiteral("/data/jobs/j1:/data/jobs/j1")));
        QVERIFY(a.contains(w1.workingDirectory + QLatin1Char(':') + w1.workingDirectory));
        // Issue 42, item 1: a container is a sandbox of its own, and sees those two folders of the host, nothing else
        // (not the executor's data, runtime or config folders).
        QStringList mounts;
        for (qsizetype i = 0; i + 1 < a.size(); ++i) {
            if (a.at(i) == QLatin1String("-v") || a.at(i) == QLatin1String("--volume") || a.at(i) == QLatin1String("--mount"))
                mounts << a.at(i + 1);
        }
        QCOMPARE(mounts,
            (QStringList { QStringLiteral("/data/jobs/j1:/data/jobs/j1"), w1.workingDirectory + QLatin1Char(':') + w1.workingDirectory }));
        // The contract's variables go in with -e; the staged package's PYTHONPATH does not.
        QStringList env;
        for (qsizetype i = 0; i + 1 < a.size(); ++i) {
            if (a.at(i) == QLatin1String("-e"))
                env << a.at(i + 1);
        }
        QVERIFY(env.contains(QStringLiteral("TF_CONFIG=") + w1.set.value(QStringLiteral("TF_CONFIG"))));
        QVERIFY(env.contains(QStringLiteral("CLOUD_ML_JOB_ID=j1")));
        QVERIFY(env.contains(QStringLiteral("CLOUD_ML_TRIAL_ID=4")));
        QVERIFY(env.contains(QStringLiteral("RANK=2")));
        QVERIFY(env.contains(QStringLiteral("CLOUD_ML_HP_METRIC_FILE=") + w1.hypertuneFile));
        QVERIFY(env.contains(jobMarkerVariable() + QStringLiteral("=/var/ty/jobs/j1")));
        QVERIFY(!std::any_of(
            env.cbegin(), env.cend(), [](const QString& e) { return e.startsWith(QLatin1String("PYTHONPATH=")); }));
        // Its own GPU (host index 3) as a CDI device, numbered 0 inside.
        QVERIFY(env.contains(QStringLiteral("CUDA_VISIBLE_DEVICES=0")));
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--device")) + 1), QStringLiteral("nvidia.com/gpu=3"));
        QCOMPARE(a.count(QStringLiteral("--device")), 1);
        // The image, then containerArgs (instead of the job's args), the hyperparameters and --job-dir.
        const qsizetype image = a.indexOf(QStringLiteral("localhost/trainer:1"));
        QVERIFY(image > 0);
        QCOMPARE(a.mid(image + 1),
            (QStringList { QStringLiteral("--epochs=9"), QStringLiteral("--lr=0.1"), QStringLiteral("--job-dir"),
                QStringLiteral("/data/jobs/j1") }));
        QVERIFY(!a.contains(QStringLiteral("--entrypoint")));
        QVERIFY(w1.unset.isEmpty());
    }

    /// An image on the master covers every role without its own; containerCommand replaces the entrypoint;
    /// without containerArgs the job's args go to it.
    void masterImageCoversEveryRole()
    {
        TrainingInput in = customInput();
        in.pythonModule.clear();
        in.masterConfig->imageUri = QStringLiteral("localhost/trainyard-fmnist:latest");
        in.masterConfig->containerCommand
            = QStringList { QStringLiteral("python3"), QStringLiteral("-m"), QStringLiteral("trainer.task") };
        in.evaluatorConfig = ReplicaConfig {};
        in.evaluatorConfig->imageUri = QStringLiteral("localhost/eval:2");
        const Built b = build(in, {}, QString(), {}, podmanWithRunc());
        QCOMPARE(b.launches.size(), 5);
        for (const ReplicaLaunch& l : b.launches) {
            QCOMPARE(l.program, QStringLiteral("/usr/bin/podman"));
            const bool evaluator = l.taskName.startsWith(QLatin1String("evaluator"));
            const qsizetype image = l.arguments.indexOf(
                evaluator ? QStringLiteral("localhost/eval:2") : QStringLiteral("localhost/trainyard-fmnist:latest"));
            QVERIFY2(image > 0, qPrintable(l.taskName));
            QCOMPARE(l.arguments.mid(image + 1),
                (QStringList { QStringLiteral("--epochs=3"), QStringLiteral("--verbose"), QStringLiteral("--job-dir"),
                    QStringLiteral("/data/jobs/j1") }));
            const qsizetype entry = l.arguments.indexOf(QStringLiteral("--entrypoint"));
            if (evaluator) {
                QCOMPARE(entry, -1);
            } else {
                QVERIFY(entry > 0 && entry < image);
                QCOMPARE(l.arguments.at(entry + 1), QStringLiteral(R"(["python3","-m","trainer.task"])"));
            }
            // No GPUs: an empty CUDA_VISIBLE_DEVICES, no device.
            QVERIFY(l.arguments.contains(QStringLiteral("CUDA_VISIBLE_DEVICES=")));
            QVERIFY(!l.arguments.contains(QStringLiteral("--device")));
        }
        // Without podman the launch fails and says why.
        LaunchContext context;
        context.input = in;
        context.interpreter = QStringLiteral("/usr/bin/python3");
        context.jobMarker = QStringLiteral("/var/ty/jobs/j1");
        QString error;
        QVERIFY(buildLaunch(context, b.set, b.placement, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("podman is not installed")), qPrintable(error));
    }
    /// A built-in algorithm's image is not a container: every replica runs the bundled package's module (the
    /// scheduler puts it in pythonModule) with the interpreter, and learns the image from TRAINYARD_ALGORITHM_IMAGE.
    void builtInAlgorithmRunsThePackage()
    {
        TrainingInput in = customInput();
        in.masterConfig->imageUri = QStringLiteral("gcr.io/cloud-ml-algos/xgboost_dist");
        in.pythonModule = QStringLiteral("trainyard_algorithms.xgboost");
        const Built b = build(in, {}, QString(), {}, podmanWithRunc());
        QCOMPARE(b.launches.size(), 5);
        for (const ReplicaLaunch& l : b.launches) {
            QCOMPARE(l.program, QStringLiteral("/usr/bin/python3"));
            QVERIFY(l.containerName.isEmpty());
            QCOMPARE(l.arguments.mid(0, 2),
                (QStringList { QStringLiteral("-m"), QStringLiteral("trainyard_algorithms.xgboost") }));
            // The canonical URI (with its tag), as trainyard_algorithms.common.IMAGES names it.
            QCOMPARE(l.set.value(QStringLiteral("TRAINYARD_ALGORITHM_IMAGE")),
                QStringLiteral("gcr.io/cloud-ml-algos/xgboost_dist:latest"));
        }
        QVERIFY(!build(customInput(), {}).launches.first().set.contains(QStringLiteral("TRAINYARD_ALGORITHM_IMAGE")));
    }

    void everyRoleInOrder()
    {
        const Built b = build(customInput(), { 0, 1, 2, 3 });
        QCOMPARE(b.launches.size(), 5);
        QStringList tasks;
        for (const ReplicaLaunch& l : b.launches)
            tasks << l.taskName;
        QCOMPARE(tasks,
            (QStringList { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0"),
                QStringLiteral("worker-replica-1"), QStringLiteral("ps-replica-0"),
                QStringLiteral("evaluator-replica-0") }));
        for (const ReplicaLaunch& l : b.launches) {
            QCOMPARE(l.program, QStringLiteral("/usr/bin/python3"));
            QCOMPARE(l.arguments,
                (QStringList { QStringLiteral("-m"), QStringLiteral("trainer.task"), QStringLiteral("--epochs=3"),
                    QStringLiteral("--verbose"), QStringLiteral("--job-dir"), QStringLiteral("/data/jobs/j1") }));
            QCOMPARE(l.workingDirectory, QStringLiteral("/var/ty/jobs/j1/replicas/") + l.taskName);
            QCOMPARE(l.hypertuneFile, l.workingDirectory + QStringLiteral("/hypertune/output.metrics"));
            QCOMPARE(l.set.value(QStringLiteral("CLOUD_ML_HP_METRIC_FILE")), l.hypertuneFile);
            QCOMPARE(l.set.value(QStringLiteral("CLOUD_ML_JOB_ID")), QStringLiteral("j1"));
            QVERIFY(l.unset.contains(QStringLiteral("CLOUD_ML_TRIAL_ID")));
            QVERIFY(l.unset.contains(QStringLiteral("CLOUD_ML_HP_METRIC_TAG")));
            QCOMPARE(l.set.value(QStringLiteral("PYTHONUNBUFFERED")), QStringLiteral("1"));
            QCOMPARE(l.set.value(jobMarkerVariable()), QStringLiteral("/var/ty/jobs/j1"));
            QCOMPARE(l.set.value(QStringLiteral("CLUSTER_SPEC")), l.set.value(QStringLiteral("TF_CONFIG")));
        }
    }

    void tfConfigClusterAndTask()
    {
        const Built b = build(customInput(), { 0, 1, 2, 3 });
        const QJsonObject tf = tfConfigOf(byTask(b.launches, QStringLiteral("worker-replica-1")));
        const QJsonObject cluster = tf.value(QStringLiteral("cluster")).toObject();
        // Placement's addresses, by role, in index order; evaluators never in the cluster.
        QCOMPARE(cluster.value(QStringLiteral("master")).toArray(), QJsonArray { QStringLiteral("node1:5000") });
        QCOMPARE(cluster.value(QStringLiteral("worker")).toArray(),
            (QJsonArray { QStringLiteral("node1:5001"), QStringLiteral("node1:5002") }));
        QCOMPARE(cluster.value(QStringLiteral("ps")).toArray(), QJsonArray { QStringLiteral("node7:5003") });
        QVERIFY(!cluster.contains(QStringLiteral("evaluator")));
        QVERIFY(!cluster.contains(QStringLiteral("chief")));
        const QJsonObject task = tf.value(QStringLiteral("task")).toObject();
        QCOMPARE(task.value(QStringLiteral("type")).toString(), QStringLiteral("worker"));
        QCOMPARE(task.value(QStringLiteral("index")).toInt(), 1);
        QCOMPARE(task.value(QStringLiteral("cloud")).toString(), QStringLiteral("trainyard-box"));
        QVERIFY(!task.contains(QStringLiteral("trial")));
        QCOMPARE(tf.value(QStringLiteral("environment")).toString(), QStringLiteral("cloud"));
        // "job" is the TrainingInput, as the service sets it.
        QCOMPARE(tf.value(QStringLiteral("job")).toObject(), JobJson::toJson(customInput()));

        const QJsonObject eval = tfConfigOf(byTask(b.launches, QStringLiteral("evaluator-replica-0")));
        QCOMPARE(eval.value(QStringLiteral("task")).toObject().value(QStringLiteral("type")).toString(),
            QStringLiteral("evaluator"));
        QCOMPARE(eval.value(QStringLiteral("cluster")).toObject(), cluster);
    }

    void chiefInsteadOfMaster()
    {
        TrainingInput in = customInput();
        in.useChiefInTfConfig = true;
        const Built b = build(in, { 0, 1, 2, 3 });
        const QJsonObject master = tfConfigOf(byTask(b.launches, QStringLiteral("master-replica-0")));
        QCOMPARE(master.value(QStringLiteral("task")).toObject().value(QStringLiteral("type")).toString(),
            QStringLiteral("chief"));
        const QJsonObject cluster = master.value(QStringLiteral("cluster")).toObject();
        QCOMPARE(cluster.value(QStringLiteral("chief")).toArray(), QJsonArray { QStringLiteral("node1:5000") });
        QVERIFY(!cluster.contains(QStringLiteral("master")));
        // The task name stays the service's: chief is only TF_CONFIG's word for the master.
        QCOMPARE(b.launches.first().taskName, QStringLiteral("master-replica-0"));
    }

    void pytorchVariables()
    {
        const Built b = build(customInput(), { 0, 1, 2, 3 });
        const struct {
            const char* task;
            const char* rank; // nullptr: unset
        } expected[] = { { "master-replica-0", "0" }, { "worker-replica-0", "1" }, { "worker-replica-1", "2" },
            { "ps-replica-0", nullptr }, { "evaluator-replica-0", nullptr } };
        for (const auto& e : expected) {
            const ReplicaLaunch& l = byTask(b.launches, QLatin1String(e.task));
            QCOMPARE(l.set.value(QStringLiteral("MASTER_ADDR")), QStringLiteral("node1"));
            QCOMPARE(l.set.value(QStringLiteral("MASTER_PORT")), QStringLiteral("5000"));
            QCOMPARE(l.set.value(QStringLiteral("WORLD_SIZE")), QStringLiteral("3"));
            if (e.rank) {
                QCOMPARE(l.set.value(QStringLiteral("RANK")), QLatin1String(e.rank));
                QVERIFY(!l.unset.contains(QStringLiteral("RANK")));
            } else {
                QVERIFY2(!l.set.contains(QStringLiteral("RANK")), e.task);
                QVERIFY2(l.unset.contains(QStringLiteral("RANK")), e.task); // a stale inherited RANK goes
            }
        }
    }

    void gpusAndThreads()
    {
        // The master asks 2 GPUs, each worker 1: handed out in order, each replica only its own.
        const Built b = build(customInput(), { 4, 5, 6, 7 });
        QCOMPARE(
            byTask(b.launches, QStringLiteral("master-replica-0")).set.value(QStringLiteral("CUDA_VISIBLE_DEVICES")),
            QStringLiteral("4,5"));
        QCOMPARE(
            byTask(b.launches, QStringLiteral("worker-replica-0")).set.value(QStringLiteral("CUDA_VISIBLE_DEVICES")),
            QStringLiteral("6"));
        QCOMPARE(
            byTask(b.launches, QStringLiteral("worker-replica-1")).set.value(QStringLiteral("CUDA_VISIBLE_DEVICES")),
            QStringLiteral("7"));
        // No GPU: empty, not unset, so that a CUDA program sees none rather than all of the host's.
        QCOMPARE(byTask(b.launches, QStringLiteral("ps-replica-0")).set.value(QStringLiteral("CUDA_VISIBLE_DEVICES")),
            QString());
        QVERIFY(
            byTask(b.launches, QStringLiteral("ps-replica-0")).set.contains(QStringLiteral("CUDA_VISIBLE_DEVICES")));
        QCOMPARE(byTask(b.launches, QStringLiteral("master-replica-0")).set.value(QStringLiteral("OMP_NUM_THREADS")),
            QStringLiteral("8"));
        QCOMPARE(byTask(b.launches, QStringLiteral("worker-replica-0")).set.value(QStringLiteral("OMP_NUM_THREADS")),
            QStringLiteral("4"));
    }

    void trialArgumentsAndVariables()
    {
        TrainingInput in = customInput();
        in.hyperparameters = HyperparameterSpec {};
        in.hyperparameters->hyperparameterMetricTag = QStringLiteral("accuracy");
        const Built b = build(in, { 0, 1, 2, 3 }, QStringLiteral("7"),
            { { QStringLiteral("learning_rate"), QStringLiteral("0.001") },
                { QStringLiteral("optimizer"), QStringLiteral("adam") } });
        for (const ReplicaLaunch& l : b.launches) {
            // args, then --<param>=<value> in the study's order, then the job dir unchanged (not suffixed).
            QCOMPARE(l.arguments,
                (QStringList { QStringLiteral("-m"), QStringLiteral("trainer.task"), QStringLiteral("--epochs=3"),
                    QStringLiteral("--verbose"), QStringLiteral("--learning_rate=0.001"),
                    QStringLiteral("--optimizer=adam"), QStringLiteral("--job-dir"),
                    QStringLiteral("/data/jobs/j1") }));
            QCOMPARE(l.set.value(QStringLiteral("CLOUD_ML_TRIAL_ID")), QStringLiteral("7"));
            QCOMPARE(l.set.value(QStringLiteral("CLOUD_ML_HP_METRIC_TAG")), QStringLiteral("accuracy"));
            QCOMPARE(tfConfigOf(l).value(QStringLiteral("task")).toObject().value(QStringLiteral("trial")).toString(),
                QStringLiteral("7"));
        }
        // The service's default tag when the spec names none.
        in.hyperparameters->hyperparameterMetricTag.clear();
        const Built d = build(in, { 0, 1, 2, 3 }, QStringLiteral("1"));
        QCOMPARE(d.launches.first().set.value(QStringLiteral("CLOUD_ML_HP_METRIC_TAG")),
            QStringLiteral("training/hptuning/metric"));
    }

    void noJobDir()
    {
        TrainingInput in;
        in.pythonModule = QStringLiteral("m");
        const Built b = build(in, {});
        QCOMPARE(b.launches.size(), 1);
        QCOMPARE(b.launches.first().arguments, (QStringList { QStringLiteral("-m"), QStringLiteral("m") }));
        QCOMPARE(b.launches.first().set.value(QStringLiteral("WORLD_SIZE")), QStringLiteral("1"));
    }

    void standaloneIsGcloudsLocalTrain()
    {
        ReplicaSet set;
        set.replicaRoot = QStringLiteral("/tmp/x");
        set.replicas << ReplicaSlot { QStringLiteral("master"), 0, QStringLiteral("master-replica-0"), {}, 0, {} };
        LaunchContext context;
        context.input.pythonModule = QStringLiteral("m");
        context.interpreter = QStringLiteral("/usr/bin/python3");
        context.standalone = true;
        const QList<ReplicaLaunch> l
            = buildLaunch(context, set, Placement { { Address { QStringLiteral("localhost"), 27182 } } });
        QCOMPARE(l.size(), 1);
        const QJsonObject tf = tfConfigOf(l.first());
        QCOMPARE(tf.value(QStringLiteral("task")).toObject(), QJsonObject());
        QCOMPARE(tf.value(QStringLiteral("cluster")).toObject(), QJsonObject());
        QVERIFY(l.first().unset.contains(QStringLiteral("CLOUD_ML_JOB_ID"))); // no job: no job ID
        QVERIFY(!l.first().set.contains(jobMarkerVariable()));
        QCOMPARE(l.first().set.value(QStringLiteral("OMP_NUM_THREADS")), QStringLiteral("1"));
    }

    void errors()
    {
        ReplicaSet set;
        set.replicaRoot = QStringLiteral("/tmp/x");
        set.replicas << ReplicaSlot { QStringLiteral("master"), 0, QStringLiteral("master-replica-0"), {}, 1, {} };
        LaunchContext context;
        QString error;
        QVERIFY(buildLaunch(context, set, Placement {}, &error).isEmpty());
        QCOMPARE(error, QStringLiteral("placement has 0 addresses for 1 replicas"));

        ReplicaSet workersOnly = set;
        workersOnly.replicas.first().role = QStringLiteral("worker");
        QVERIFY(
            buildLaunch(context, workersOnly, Placement { { Address { QStringLiteral("h"), 1 } } }, &error).isEmpty());
        QCOMPARE(error, QStringLiteral("the replica set has no master"));

        ReplicaSet relative = set;
        relative.replicaRoot = QStringLiteral("jobs/x");
        QVERIFY(buildLaunch(context, relative, Placement { { Address { QStringLiteral("h"), 1 } } }, &error).isEmpty());
        QCOMPARE(error, QStringLiteral("the replica root 'jobs/x' is not a full path"));
    }

    void environmentOverInherited()
    {
        const Built b = build(customInput(), { 0, 1, 2, 3 });
        QProcessEnvironment base;
        base.insert(QStringLiteral("PYTHONPATH"), QStringLiteral("/opt/lib"));
        base.insert(QStringLiteral("RANK"), QStringLiteral("9"));
        base.insert(QStringLiteral("CLOUD_ML_TRIAL_ID"), QStringLiteral("3"));
        base.insert(QStringLiteral("HOME"), QStringLiteral("/home/u"));
        const QProcessEnvironment ps = byTask(b.launches, QStringLiteral("ps-replica-0")).environment(base);
        QCOMPARE(ps.value(QStringLiteral("PYTHONPATH")), QStringLiteral("/var/ty/jobs/j1/staging:/opt/lib"));
        QVERIFY(!ps.contains(QStringLiteral("RANK")));
        QVERIFY(!ps.contains(QStringLiteral("CLOUD_ML_TRIAL_ID")));
        QCOMPARE(ps.value(QStringLiteral("HOME")), QStringLiteral("/home/u"));
        const QProcessEnvironment master = byTask(b.launches, QStringLiteral("master-replica-0")).environment(base);
        QCOMPARE(master.value(QStringLiteral("RANK")), QStringLiteral("0"));
    }

    // JobFolder: the job folder's layout, and the hypertune file buildLaunch() gives a replica is the one the
    // layout names.
    void jobFolderLayout()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const JobFolder job(tmp.path() + QStringLiteral("/projects/p/jobs/j1"));
        QCOMPARE(job.stagingDir(), job.path() + QStringLiteral("/staging"));
        QCOMPARE(job.stagedMarker(), job.path() + QStringLiteral("/staging/.trainyard-staged"));
        QCOMPARE(job.outcomeFile(), job.path() + QStringLiteral("/outcome.json"));
        QCOMPARE(job.replicaRoot(), job.path() + QStringLiteral("/replicas"));
        QCOMPARE(job.hypertuneFile(QStringLiteral("master-replica-0")),
            job.path() + QStringLiteral("/replicas/master-replica-0/hypertune/output.metrics"));
        const RunFolder trial = job.trial(QStringLiteral("3"));
        QCOMPARE(trial.path(), job.path() + QStringLiteral("/trials/3"));
        QCOMPARE(trial.replicaRoot(), job.path() + QStringLiteral("/trials/3/replicas"));
        QCOMPARE(JobFolder::stagingCacheDir(tmp.path()), tmp.path() + QStringLiteral("/staging-cache"));

        // Restarts: none yet, then what was written, also for a trial whose folder did not exist.
        QCOMPARE(trial.readRestarts(), 0);
        trial.writeRestarts(2);
        QCOMPARE(trial.readRestarts(), 2);
        QCOMPARE(job.trialIds(), QStringList { QStringLiteral("3") });
        QCOMPARE(job.readRestarts(), 0);

        Launch::ReplicaSet set;
        set.jobId = QStringLiteral("j1");
        set.replicaRoot = trial.replicaRoot();
        set.replicas = { Launch::ReplicaSlot {
            QStringLiteral("master"), 0, QStringLiteral("master-replica-0"), QStringLiteral("n1-standard-4"), 4, {} } };
        Launch::LaunchContext context;
        context.input.pythonModule = QStringLiteral("trainer.task");
        context.interpreter = QStringLiteral("/usr/bin/python3");
        Launch::Placement placement;
        placement.addresses = { Launch::Address { QStringLiteral("127.0.0.1"), 20000 } };
        QString error;
        const QList<Launch::ReplicaLaunch> launches = Launch::buildLaunch(context, set, placement, &error);
        QVERIFY2(launches.size() == 1, qPrintable(error));
        QCOMPARE(launches.front().hypertuneFile, trial.hypertuneFile(QStringLiteral("master-replica-0")));
    }
};

QTEST_GUILESS_MAIN(TestLaunchSpec)
#include "tst_launchspec.moc"
