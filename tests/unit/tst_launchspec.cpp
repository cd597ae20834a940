// SPDX-License-Identifier: GPL-2.0-or-later
// Launch::buildLaunch, the replica contract as a pure function (ARCHITECTURE.md "A job's life", step 4):
// every role, chief vs master, evaluators, GPUs, trials' arguments and variables, placement errors,
// gcloud's standalone `local train`. No process is started.
#include "launchspec.h"
#include "processgroup.h"

#include <QJsonArray>
#include <QJsonDocument>
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

Built build(const TrainingInput& input, const QList<int>& gpus, const QString& trialId = QString(),
    const QList<std::pair<QString, QString>>& hyperparameters = {})
{
    Built b;
    b.set.jobId = QStringLiteral("j1");
    b.set.trialId = trialId;
    b.set.hyperparameters = hyperparameters;
    b.set.replicaRoot = QStringLiteral("/var/ty/jobs/j1/replicas");
    b.set.replicas = slotsFor(planCluster(input, MachineCatalog::builtin()), gpus);
    int port = 5000;
    for (const ReplicaSlot& r : std::as_const(b.set.replicas))
        b.placement.addresses << Address { r.role == QLatin1String("ps") ? QStringLiteral("node7") : QStringLiteral("node1"), port++ };
    LaunchContext context;
    context.input = input;
    context.interpreter = QStringLiteral("/usr/bin/python3");
    context.pythonPath = { QStringLiteral("/var/ty/jobs/j1/staging") };
    context.cloud = QStringLiteral("trainyard-box");
    context.jobMarker = QStringLiteral("/var/ty/jobs/j1");
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
        QCOMPARE(byTask(b.launches, QStringLiteral("master-replica-0")).set.value(QStringLiteral("CUDA_VISIBLE_DEVICES")),
            QStringLiteral("4,5"));
        QCOMPARE(byTask(b.launches, QStringLiteral("worker-replica-0")).set.value(QStringLiteral("CUDA_VISIBLE_DEVICES")),
            QStringLiteral("6"));
        QCOMPARE(byTask(b.launches, QStringLiteral("worker-replica-1")).set.value(QStringLiteral("CUDA_VISIBLE_DEVICES")),
            QStringLiteral("7"));
        // No GPU: empty, not unset, so that a CUDA program sees none rather than all of the host's.
        QCOMPARE(byTask(b.launches, QStringLiteral("ps-replica-0")).set.value(QStringLiteral("CUDA_VISIBLE_DEVICES")),
            QString());
        QVERIFY(byTask(b.launches, QStringLiteral("ps-replica-0")).set.contains(QStringLiteral("CUDA_VISIBLE_DEVICES")));
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
                    QStringLiteral("--optimizer=adam"), QStringLiteral("--job-dir"), QStringLiteral("/data/jobs/j1") }));
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
        QVERIFY(buildLaunch(context, workersOnly, Placement { { Address { QStringLiteral("h"), 1 } } }, &error)
                    .isEmpty());
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
};

QTEST_GUILESS_MAIN(TestLaunchSpec)
#include "tst_launchspec.moc"
