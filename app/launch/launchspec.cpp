// SPDX-License-Identifier: GPL-2.0-or-later
#include "launchspec.h"

#include "jobfolder.h"

#include "processgroup.h"

#include "builtinalgorithm.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace Trainyard::Launch {

namespace {

const QString kMaster = QStringLiteral("master");
const QString kWorker = QStringLiteral("worker");
const QString kEvaluator = QStringLiteral("evaluator");

} // namespace

QList<ReplicaSlot> slotsFor(const ClusterPlan& plan, const QList<int>& gpus)
{
    QList<ReplicaSlot> result;
    qsizetype cursor = 0;
    for (const RolePlan& role : plan.roles) {
        for (int i = 0; i < role.count; ++i) {
            ReplicaSlot slot;
            slot.role = role.role;
            slot.index = i;
            slot.taskName = role.taskPrefix + QLatin1Char('-') + QString::number(i);
            slot.machineType = role.machineType;
            slot.vcpus = role.vcpus;
            for (int g = 0; g < role.acceleratorCount && cursor < gpus.size(); ++g)
                slot.gpus << gpus.at(cursor++);
            result << slot;
        }
    }
    return result;
}

QString containerName(const QString& jobMarker, const QString& taskName)
{
    const QByteArray digest = QCryptographicHash::hash(jobMarker.toUtf8(), QCryptographicHash::Sha256).toHex();
    return QStringLiteral("trainyard-") + QString::fromLatin1(digest.left(12)) + QLatin1Char('-') + taskName;
}

namespace {

/// Rewrites `l` (a package replica's launch) as `podman run` of `spec` (see buildLaunch()).
void containerise(ReplicaLaunch& l, const ContainerSpec& spec, const LaunchContext& context, const ReplicaSet& set,
    const ReplicaSlot& slot)
{
    const TrainingInput& input = context.input;
    l.containerName = containerName(context.jobMarker, l.taskName);
    QStringList a = context.containers.globalArgs;
    a << QStringLiteral("run") << QStringLiteral("--rm") << QStringLiteral("--replace") << QStringLiteral("--init")
      << QStringLiteral("--network=host") << QStringLiteral("--name") << l.containerName;
    const auto label = [&a](const QString& key, const QString& value) {
        a << QStringLiteral("--label") << key + QLatin1Char('=') + value;
    };
    label(QStringLiteral("io.trainyard.job"), set.jobId);
    if (!set.trialId.isEmpty())
        label(QStringLiteral("io.trainyard.trial"), set.trialId);
    label(QStringLiteral("io.trainyard.task"), l.taskName);
    if (!context.jobMarker.isEmpty())
        label(containerFolderLabel(), context.jobMarker);
    a << context.containers.runArgs;
    if (!input.jobDir.isEmpty())
        a << QStringLiteral("-v") << input.jobDir + QLatin1Char(':') + input.jobDir;
    a << QStringLiteral("-v") << l.workingDirectory + QLatin1Char(':') + l.workingDirectory;
    // Inside, only the replica's own GPUs exist (one CDI device each), numbered from 0.
    QStringList inside;
    for (qsizetype g = 0; g < slot.gpus.size(); ++g)
        inside << QString::number(g);
    l.set.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), inside.join(QLatin1Char(',')));
    l.set.remove(QStringLiteral("PYTHONPATH")); // the staged package is not in the image
    for (auto it = l.set.cbegin(); it != l.set.cend(); ++it)
        a << QStringLiteral("-e") << it.key() + QLatin1Char('=') + it.value();
    for (int g : slot.gpus)
        a << QStringLiteral("--device") << QStringLiteral("nvidia.com/gpu=") + QString::number(g);
    if (!spec.command.isEmpty()) {
        // A JSON array replaces the whole ENTRYPOINT (and, as Docker does, the image's CMD with it).
        a << QStringLiteral("--entrypoint")
          << QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(spec.command)).toJson(QJsonDocument::Compact));
    }
    a << spec.image;
    a << (spec.args.isEmpty() ? input.args : spec.args);
    for (const auto& [name, value] : set.hyperparameters)
        a << QStringLiteral("--%1=%2").arg(name, value);
    if (!input.jobDir.isEmpty())
        a << QStringLiteral("--job-dir") << input.jobDir;
    l.program = context.containers.podman;
    l.arguments = a;
    l.unset.clear(); // a container inherits nothing from the executor's environment
}

} // namespace

QProcessEnvironment ReplicaLaunch::environment(QProcessEnvironment base) const
{
    const QString inheritedPythonPath = base.value(QStringLiteral("PYTHONPATH"));
    for (const QString& name : unset)
        base.remove(name);
    for (auto it = set.cbegin(); it != set.cend(); ++it)
        base.insert(it.key(), it.value());
    const QString ours = set.value(QStringLiteral("PYTHONPATH"));
    if (!inheritedPythonPath.isEmpty())
        base.insert(QStringLiteral("PYTHONPATH"),
            ours.isEmpty() ? inheritedPythonPath : ours + QLatin1Char(':') + inheritedPythonPath);
    return base;
}

QList<ReplicaLaunch> buildLaunch(
    const LaunchContext& context, const ReplicaSet& set, const Placement& placement, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return QList<ReplicaLaunch>();
    };
    if (placement.addresses.size() != set.replicas.size())
        return fail(QStringLiteral("placement has %1 addresses for %2 replicas")
                        .arg(placement.addresses.size())
                        .arg(set.replicas.size()));
    const auto master = std::find_if(
        set.replicas.cbegin(), set.replicas.cend(), [](const ReplicaSlot& r) { return r.role == kMaster; });
    if (master == set.replicas.cend())
        return fail(QStringLiteral("the replica set has no master"));
    if (!set.replicaRoot.startsWith(QLatin1Char('/')))
        return fail(QStringLiteral("the replica root '%1' is not a full path").arg(set.replicaRoot));

    const TrainingInput& input = context.input;
    const bool chief = input.useChiefInTfConfig.value_or(false);
    const auto typeOf
        = [chief](const ReplicaSlot& r) { return (chief && r.role == kMaster) ? QStringLiteral("chief") : r.role; };
    const Address masterAddress = placement.addresses.at(master - set.replicas.cbegin());

    // The cluster: every role but evaluators, each list in index order (the set's order).
    QJsonObject cluster;
    int workers = 0;
    if (!context.standalone) {
        QMap<QString, QJsonArray> byType;
        for (qsizetype i = 0; i < set.replicas.size(); ++i) {
            const ReplicaSlot& r = set.replicas.at(i);
            if (r.role == kEvaluator)
                continue;
            byType[typeOf(r)].append(placement.addresses.at(i).text());
        }
        for (auto it = byType.cbegin(); it != byType.cend(); ++it)
            cluster.insert(it.key(), it.value());
    }
    for (const ReplicaSlot& r : set.replicas)
        workers += r.role == kWorker ? 1 : 0;
    const QJsonObject jobJson = JobJson::toJson(input);

    QStringList trainerArgs { QStringLiteral("-m"), input.pythonModule };
    trainerArgs << input.args;
    for (const auto& [name, value] : set.hyperparameters)
        trainerArgs << QStringLiteral("--%1=%2").arg(name, value);
    if (!input.jobDir.isEmpty())
        trainerArgs << QStringLiteral("--job-dir") << input.jobDir;

    const bool tuning = input.hyperparameters.has_value();
    const QString metricTag = tuning && !input.hyperparameters->hyperparameterMetricTag.isEmpty()
        ? input.hyperparameters->hyperparameterMetricTag
        : defaultMetricTag();

    QList<ReplicaLaunch> launches;
    launches.reserve(set.replicas.size());
    for (const ReplicaSlot& r : set.replicas) {
        ReplicaLaunch l;
        l.taskName = r.taskName;
        l.program = context.interpreter;
        l.arguments = trainerArgs;
        l.workingDirectory = set.replicaRoot + QLatin1Char('/') + r.taskName;
        l.hypertuneFile = RunFolder::hypertuneFileIn(l.workingDirectory);

        QJsonObject task;
        if (!context.standalone) {
            task.insert(QStringLiteral("type"), typeOf(r));
            task.insert(QStringLiteral("index"), r.index);
            if (!set.trialId.isEmpty())
                task.insert(QStringLiteral("trial"), set.trialId);
            task.insert(QStringLiteral("cloud"), context.cloud);
        }
        l.tfConfig.insert(QStringLiteral("cluster"), cluster);
        l.tfConfig.insert(QStringLiteral("task"), task);
        l.tfConfig.insert(QStringLiteral("job"), jobJson);
        l.tfConfig.insert(QStringLiteral("environment"), QStringLiteral("cloud"));
        const QString tfConfig = QString::fromUtf8(QJsonDocument(l.tfConfig).toJson(QJsonDocument::Compact));

        l.set.insert(QStringLiteral("TF_CONFIG"), tfConfig);
        l.set.insert(QStringLiteral("CLUSTER_SPEC"), tfConfig);
        l.set.insert(QStringLiteral("MASTER_ADDR"), masterAddress.host);
        l.set.insert(QStringLiteral("MASTER_PORT"), QString::number(masterAddress.port));
        l.set.insert(QStringLiteral("WORLD_SIZE"), QString::number(1 + workers));
        if (r.role == kMaster)
            l.set.insert(QStringLiteral("RANK"), QStringLiteral("0"));
        else if (r.role == kWorker)
            l.set.insert(QStringLiteral("RANK"), QString::number(r.index + 1));
        else
            l.unset << QStringLiteral("RANK");
        if (set.jobId.isEmpty())
            l.unset << QStringLiteral("CLOUD_ML_JOB_ID");
        else
            l.set.insert(QStringLiteral("CLOUD_ML_JOB_ID"), set.jobId);
        if (set.trialId.isEmpty())
            l.unset << QStringLiteral("CLOUD_ML_TRIAL_ID");
        else
            l.set.insert(QStringLiteral("CLOUD_ML_TRIAL_ID"), set.trialId);
        l.set.insert(QStringLiteral("CLOUD_ML_HP_METRIC_FILE"), l.hypertuneFile);
        if (tuning)
            l.set.insert(QStringLiteral("CLOUD_ML_HP_METRIC_TAG"), metricTag);
        else
            l.unset << QStringLiteral("CLOUD_ML_HP_METRIC_TAG");
        QStringList gpus;
        for (int g : r.gpus)
            gpus << QString::number(g);
        l.set.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), gpus.join(QLatin1Char(',')));
        l.set.insert(QStringLiteral("OMP_NUM_THREADS"), QString::number(std::max(1, r.vcpus)));
        l.set.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
        // A built-in algorithm job: the bundled package reads which image it stands for (CPU or GPU, single or
        // distributed; resources/algorithms/README.md §1).
        if (const BuiltInAlgorithm* algorithm = BuiltInAlgorithms::forJob(input))
            l.set.insert(QStringLiteral("TRAINYARD_ALGORITHM_IMAGE"), algorithm->imageUri);
        if (!context.pythonPath.isEmpty())
            l.set.insert(QStringLiteral("PYTHONPATH"), context.pythonPath.join(QLatin1Char(':')));
        if (!context.jobMarker.isEmpty())
            l.set.insert(jobMarkerVariable(), context.jobMarker);
        SandboxView own;
        if (!input.jobDir.isEmpty())
            own.writable << input.jobDir;
        own.writable << l.workingDirectory;
        own.readable = context.pythonPath;
        own.workingDirectory = l.workingDirectory;
        l.sandbox = context.sandbox; // its network too: a batch prediction job's workers have none
        l.sandbox.workingDirectory.clear();
        l.sandbox.merge(own);
        l.sandbox.gpus = !r.gpus.isEmpty();
        const ContainerSpec spec = containerFor(input, r.role);
        if (!spec.isEmpty()) {
            if (context.containers.podman.isEmpty())
                return fail(QStringLiteral("the replica %1 runs the image %2, but podman is not installed on this host")
                                .arg(r.taskName, spec.image));
            containerise(l, spec, context, set, r);
        }
        launches << l;
    }
    return launches;
}

} // namespace Trainyard::Launch
