// SPDX-License-Identifier: GPL-2.0-or-later
#include "batchplan.h"
#include "batchinputs.h"
#include "explanationconfig.h"
#include "prediction.h"
#include "pathpolicy.h"

#include <QDir>
#include <QFile>
#include <QLocale>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>

namespace Trainyard {

std::optional<BatchPlan> BatchPlan::make(const PredictionInput& input, const BatchModel& model, int workerLimit,
    const QString& stateDir, const PathPolicy& paths, FieldViolation* error)
{
    BatchPlan plan;
    for (qsizetype i = 0; i < input.inputPaths.size(); ++i) {
        const QString pattern = input.inputPaths.at(i);
        const QString field = QStringLiteral("predictionInput.inputPaths[%1]").arg(i);
        const QStringList matched = BatchInputs::expand(pattern);
        if (matched.isEmpty() && QFileInfo(pattern).isDir()) {
            *error = { field, QStringLiteral("%1 is a folder; give its files (%1/*)").arg(pattern) };
            return std::nullopt;
        }
        if (matched.isEmpty()) {
            *error = { field, QStringLiteral("no readable file matches %1").arg(pattern) };
            return std::nullopt;
        }
        for (const QString& path : std::as_const(matched)) {
            // Each file a pattern matches is held to the rule the pattern was: a link out of the roots, or into the
            // executor's folders, is refused by its name.
            if (const QString why = paths.problem(path, PathUse::InputFile); !why.isEmpty()) {
                *error = { field, why };
                return std::nullopt;
            }
            plan.files.append({ path, QFileInfo(path).size() });
        }
    }
    plan.dataFormat = input.dataFormat;
    plan.outputDataFormat = input.outputDataFormat.isEmpty() ? QStringLiteral("JSON") : input.outputDataFormat;
    plan.outputPath = input.outputPath;
    plan.batchSize = input.batchSize.value_or(DefaultBatchSize);
    plan.signatureName = input.signatureName;
    if (!input.explanationConfig.isEmpty()) {
        FieldViolations violations;
        const std::optional<ExplanationConfig> config = ExplanationConfig::fromJson(
            input.explanationConfig, QStringLiteral("predictionInput.explanationConfig"), &violations);
        if (config) {
            const std::optional<PredictionFramework> framework = PredictionJson::frameworkFromName(model.framework);
            violations = config->problemsFor(
                framework.value_or(PredictionFramework::Unspecified), !model.predictionClass.isEmpty(), model.modelDir);
        }
        if (!violations.isEmpty()) {
            // The version's rule, named by the batch job's field.
            *error = violations.first();
            error->field.replace(QStringLiteral("version.explanationConfig"), QStringLiteral("predictionInput.explanationConfig"));
            return std::nullopt;
        }
        plan.explanation = config->nodeJson();
    }
    plan.model = model;
    plan.stateDir = stateDir;
    const qint64 byBytes = workersForBytes(plan.totalBytes());
    plan.workers = int(std::clamp<qint64>(std::min({ input.maxWorkerCount.value_or(DefaultBatchMaxWorkerCount),
                                              qint64(std::max(1, workerLimit)), byBytes }),
        1, 10000));
    return plan;
}

qint64 BatchPlan::workersForBytes(qint64 bytes)
{
    return std::max<qint64>(1, (bytes + MinShardBytes - 1) / MinShardBytes);
}

QString BatchPlan::workersText() const
{
    const qint64 bytes = totalBytes();
    const qint64 byBytes = workersForBytes(bytes);
    const QString size = QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
    const QString count = workers == 1 ? QStringLiteral("1 worker") : QStringLiteral("%1 workers").arg(workers);
    if (workers >= byBytes)
        return QStringLiteral("%1: the input is %2, and each worker gets at least %3 KiB of it")
            .arg(count, size)
            .arg(MinShardBytes / 1024);
    return QStringLiteral("%1: the input (%2) would take %3 at %4 KiB each; predictionInput.maxWorkerCount or this "
                          "host's CPUs allow %1")
        .arg(count, size)
        .arg(byBytes)
        .arg(MinShardBytes / 1024);
}

qint64 BatchPlan::totalBytes() const
{
    qint64 total = 0;
    for (const File& f : files)
        total += f.size;
    return total;
}

QJsonObject BatchPlan::toJson() const
{
    QJsonArray fileArray;
    for (const File& f : files)
        fileArray.append(QJsonObject { { QStringLiteral("path"), f.path }, { QStringLiteral("size"), f.size } });
    // Each worker's output files by name (BatchOutput, the one definition): the worker writes what it is told.
    QJsonArray outputFiles;
    for (int shard = 0; shard < workers; ++shard)
        outputFiles.append(QJsonObject {
            { QStringLiteral("results"), BatchOutput::fileName(BatchOutput::Kind::Results, shard, workers) },
            { QStringLiteral("errors"), BatchOutput::fileName(BatchOutput::Kind::ErrorsStats, shard, workers) } });
    return {
        { QStringLiteral("workers"), workers },
        { QStringLiteral("outputFiles"), outputFiles },
        { QStringLiteral("files"), fileArray },
        { QStringLiteral("dataFormat"), dataFormat },
        { QStringLiteral("outputDataFormat"), outputDataFormat },
        { QStringLiteral("outputPath"), outputPath },
        { QStringLiteral("batchSize"), batchSize },
        { QStringLiteral("signatureName"), signatureName },
        { QStringLiteral("explanation"), explanation },
        { QStringLiteral("stateDir"), stateDir },
        { QStringLiteral("model"),
            QJsonObject {
                { QStringLiteral("dir"), model.modelDir },
                { QStringLiteral("framework"), model.framework },
                { QStringLiteral("predictionClass"), model.predictionClass },
                { QStringLiteral("pythonPath"), QJsonArray::fromStringList(model.pythonPath) },
                { QStringLiteral("runtimeVersion"), model.runtimeVersion },
            } },
    };
}

std::optional<BatchPlan> BatchPlan::read(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("the batch plan %1 cannot be read: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    BatchPlan plan;
    plan.workers = o.value(QStringLiteral("workers")).toInt();
    const QJsonArray fileArray = o.value(QStringLiteral("files")).toArray();
    for (const QJsonValue& f : fileArray)
        plan.files.append({ f[QStringLiteral("path")].toString(), qint64(f[QStringLiteral("size")].toDouble()) });
    plan.dataFormat = o.value(QStringLiteral("dataFormat")).toString();
    plan.outputDataFormat = o.value(QStringLiteral("outputDataFormat")).toString();
    plan.outputPath = o.value(QStringLiteral("outputPath")).toString();
    plan.batchSize = qint64(o.value(QStringLiteral("batchSize")).toDouble());
    plan.signatureName = o.value(QStringLiteral("signatureName")).toString();
    plan.explanation = o.value(QStringLiteral("explanation")).toObject();
    plan.stateDir = o.value(QStringLiteral("stateDir")).toString();
    const QJsonObject m = o.value(QStringLiteral("model")).toObject();
    plan.model.modelDir = m.value(QStringLiteral("dir")).toString();
    plan.model.framework = m.value(QStringLiteral("framework")).toString();
    plan.model.predictionClass = m.value(QStringLiteral("predictionClass")).toString();
    for (const QJsonValue& p : m.value(QStringLiteral("pythonPath")).toArray())
        plan.model.pythonPath << p.toString();
    plan.model.runtimeVersion = m.value(QStringLiteral("runtimeVersion")).toString();
    if (plan.workers < 1 || plan.files.isEmpty() || plan.outputPath.isEmpty() || plan.batchSize < 1) {
        *error = QStringLiteral("the batch plan %1 is malformed").arg(path);
        return std::nullopt;
    }
    return plan;
}

bool BatchPlan::write(const QString& path, QString* error) const
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(toJson()).toJson()) < 0 || !file.commit()) {
        *error = QStringLiteral("the batch plan %1 cannot be written: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

TrainingInput BatchPlan::trainingInput(
    const QString& packageDir, const QString& planPath, const QString& region, const QString& runtimeVersion) const
{
    TrainingInput in;
    // Two vCPUs a worker: a worker is one Python process, parsing and predicting on one core, with one to spare for
    // the model's own threads.
    const QString machine = QStringLiteral("n1-highmem-2");
    in.scaleTier = QStringLiteral("CUSTOM");
    in.masterType = machine;
    if (workers > 1) {
        in.workerType = machine;
        in.workerCount = workers - 1;
    }
    if (!packageDir.isEmpty())
        in.packageUris = { packageDir };
    in.pythonModule = QStringLiteral("trainyard_algorithms.batch_prediction");
    in.args = { QStringLiteral("--plan"), planPath };
    in.region = region;
    in.runtimeVersion = runtimeVersion;
    return in;
}

SandboxView BatchPlan::sandboxView() const
{
    SandboxView view;
    view.network = false;
    for (const File& f : files)
        view.readable << f.path;
    if (!model.modelDir.isEmpty())
        view.readable << model.modelDir;
    view.readable << model.pythonPath;
    for (const QString& folder : { outputPath, stateDir }) {
        if (!folder.isEmpty())
            view.writable << folder;
    }
    // The workers write their progress beside the plan, which they must not change: it names what they read.
    if (!stateDir.isEmpty())
        view.readable << stateDir + QStringLiteral("/plan.json");
    return view;
}

PredictionOutput readBatchProgress(const QString& stateDir, const QString& outputPath, int workers)
{
    PredictionOutput out;
    out.outputPath = outputPath;
    qint64 predictions = 0;
    qint64 errors = 0;
    qint64 total = 0;
    double seconds = 0;
    bool any = false;
    bool allCounted = workers > 0;
    for (int k = 0; k < workers; ++k) {
        QFile file(QStringLiteral("%1/progress-%2.json").arg(stateDir).arg(k));
        if (!file.open(QIODevice::ReadOnly)) {
            allCounted = false;
            continue;
        }
        const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
        if (o.isEmpty()) {
            allCounted = false;
            continue;
        }
        any = true;
        predictions += qint64(o.value(QStringLiteral("predictionCount")).toDouble());
        errors += qint64(o.value(QStringLiteral("errorCount")).toDouble());
        seconds += o.value(QStringLiteral("seconds")).toDouble();
        const QJsonValue t = o.value(QStringLiteral("totalInstances"));
        if (t.isDouble())
            total += qint64(t.toDouble());
        else
            allCounted = false;
    }
    if (any) {
        out.predictionCount = predictions;
        out.errorCount = errors;
        out.nodeHours = seconds / 3600.0;
    }
    if (any && allCounted)
        out.inputInstanceCount = total;
    return out;
}

} // namespace Trainyard
