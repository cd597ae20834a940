// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "sandbox.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard {

class PathPolicy;

/// The model a batch prediction job runs, resolved from its predictionInput (modelName: the model's default version;
/// versionName: that version; uri: a folder, its framework detected from the files) by the executor's
/// PredictionService.
struct BatchModel {
    QString modelDir; ///< the model's files (a version's copy here, or the uri itself), read only
    QString framework; ///< "SCIKIT_LEARN", "XGBOOST", "PYTORCH"; empty with predictionClass
    QString predictionClass; ///< a custom prediction routine's module.Class
    QStringList pythonPath; ///< the routine's staged packages
    QString runtimeVersion; ///< the version's, used when predictionInput.runtimeVersion is empty
};

/// A batch prediction job's plan: its input files, expanded once when the API validates the job, and how many workers
/// share them (made by the API, carried to the job's driver, BatchPredictionJob).
/// Written to JobFolder::batchPlanFile() so that a restarted executor (or a restarted worker) splits the same files the
/// same way: worker k of N reads the lines that start in bytes [total·k/N, total·(k+1)/N) of the files taken end to
/// end (a line belongs to the worker its first byte falls to, as Hadoop splits text), and writes
/// `<outputPath>/prediction.results-0000k-of-0000N` and `prediction.errors_stats-0000k-of-0000N` (the service's
/// names), its committed progress in `<batchDir>/progress-k.json`. The worker is
/// resources/algorithms/trainyard_algorithms/batch_prediction.py, which reads this file.
struct BatchPlan {
    /// The least input one worker is given (bytes): a smaller input gets fewer workers, as starting one costs more
    /// than it saves.
    static constexpr qint64 MinShardBytes = 64 * 1024;
    /// The workers `bytes` of input would get before any cap: ⌈bytes / MinShardBytes⌉, at least 1.
    static qint64 workersForBytes(qint64 bytes);

    struct File {
        QString path;
        qint64 size = 0; ///< bytes, at planning
    };

    int workers = 1;
    QList<File> files;
    QString dataFormat; ///< JSON, TEXT, CSV
    QString outputDataFormat; ///< JSON or CSV
    QString outputPath;
    qint64 batchSize = DefaultBatchSize;
    QString signatureName;
    /// The node's "explain" object (ExplanationConfig::nodeJson()) when predictionInput.explanationConfig asks for
    /// explanations: each result line then carries "explanation" (batch_prediction.py); empty otherwise.
    QJsonObject explanation;
    BatchModel model;
    QString stateDir; ///< JobFolder::batchDir()

    /// Expands `input.inputPaths` (a `*` in the last segment matches file names, sorted; a plain path must be a
    /// readable file) and chooses the workers: min(maxWorkerCount (10 when absent), `workerLimit` (this host's vCPUs;
    /// a cluster's: no limit), ⌈bytes / MinShardBytes⌉), at least 1. Errors (nullopt, *error the field and the rule:
    /// {"predictionInput.inputPaths[1]", "no readable file matches /data/x*"}) for a path that matches nothing or
    /// cannot be read, or a file that `paths` refuses as an input file (PathPolicy: a link out of the roots, a file of
    /// the executor's), or an explanationConfig the model cannot give (ExplanationConfig::problemsFor(), on
    /// "predictionInput.explanationConfig.<method>").
    static std::optional<BatchPlan> make(const PredictionInput& input, const BatchModel& model, int workerLimit,
        const QString& stateDir, const PathPolicy& paths, FieldViolation* error);

    qint64 totalBytes() const;
    /// Why it has `workers` workers, for the job's log (issue 46: the README promised two where one ran):
    /// "1 worker: the input is 12.0 KiB, and each worker gets at least 64 KiB", or the cap that held it.
    QString workersText() const;

    QJsonObject toJson() const;
    /// The plan a file holds; nullopt with *error when it is missing or malformed.
    static std::optional<BatchPlan> read(const QString& path, QString* error);
    /// Writes the plan (through a temporary file and a rename: a crash leaves the old plan or none).
    bool write(const QString& path, QString* error) const;

    /// What runs, as a training job's input: `workers` replicas (a master and workers-1 workers, n1-highmem-2 each)
    /// running `python -m trainyard_algorithms.batch_prediction --plan <planPath>` from the bundled package
    /// `packageDir`, in `region` with `runtimeVersion`.
    TrainingInput trainingInput(
        const QString& packageDir, const QString& planPath, const QString& region, const QString& runtimeVersion) const;

    /// What its workers' sandbox sees besides their own folders: the input files and the model's folder and packages
    /// (read), the output folder and stateDir (written: results, progress); no network.
    SandboxView sandboxView() const;
};

/// What a batch prediction job has done: the sum of its workers' committed progress files in `stateDir`
/// (progress-<k>.json for k < workers), with `outputPath`. predictionCount and errorCount are absent until a worker
/// has committed; inputInstanceCount only once every worker has counted its share; nodeHours is the workers' run time
/// (each worker's seconds over all its starts) in hours.
PredictionOutput readBatchProgress(const QString& stateDir, const QString& outputPath, int workers);

} // namespace Trainyard
