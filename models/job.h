// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The job schema of Google Cloud AI Platform Training, REST v1 (`ml.googleapis.com/v1`,
// resource `projects.jobs`), as immutable-by-convention value types.
//
// Source: https://cloud.google.com/ai-platform/training/docs/reference/rest/v1/projects.jobs
// Field names are the service's (camelCase in JSON). The job state is a C++ enum (JobState) that
// becomes the service's enum name only at the wire (JobJson, storage, trainyardctl's output); the
// other enums are kept as the service's enum names (QString) so that a Job written for the cloud
// round-trips unchanged.
// int64 fields are std::optional<qint64>: absent stays absent on output; present ones are
// written as JSON strings (proto3 JSON mapping) and accepted as numbers or strings on input.

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace Trainyard {

/// The state of a job or of a tuning trial: the service's enum `Job.State`, in its order. The names
/// ("QUEUED" …) exist only at the wire: jobStateName() and jobStateFromName().
enum class JobState { StateUnspecified, Queued, Preparing, Running, Succeeded, Failed, Cancelling, Cancelled };

/// The service's enum name: "STATE_UNSPECIFIED", "QUEUED", "PREPARING", "RUNNING", "SUCCEEDED", "FAILED",
/// "CANCELLING", "CANCELLED".
QString jobStateName(JobState state);
/// The state of a service enum name (case-sensitive, as the wire); nullopt for a name the service does not have.
std::optional<JobState> jobStateFromName(QStringView name);
/// True for Succeeded, Failed and Cancelled: nothing will change the job any more.
bool isFinal(JobState state);

/// AcceleratorConfig: `count` accelerators of `type` (enum AcceleratorType, e.g. "NVIDIA_TESLA_T4").
struct AcceleratorConfig {
    std::optional<qint64> count;
    QString type;
    bool operator==(const AcceleratorConfig&) const = default;
};

/// DiskConfig: boot disk of a replica. Kept for fidelity; a workstation does not provision disks.
struct DiskConfig {
    QString bootDiskType; ///< "pd-ssd" or "pd-standard"
    std::optional<qint64> bootDiskSizeGb;
    bool operator==(const DiskConfig&) const = default;
};

/// ReplicaConfig: per-role settings (masterConfig, workerConfig, parameterServerConfig, evaluatorConfig).
struct ReplicaConfig {
    std::optional<AcceleratorConfig> acceleratorConfig;
    QString imageUri;
    QString tpuTfVersion;
    QStringList containerCommand;
    QStringList containerArgs;
    std::optional<DiskConfig> diskConfig;
    bool operator==(const ReplicaConfig&) const = default;
};

/// A google.protobuf.Duration field as the job gave it: its JSON text ("7200s", "1.5s"), served back unchanged, and
/// what it means. Empty: the field is absent.
struct ProtoDuration {
    QString text;

    ProtoDuration() = default;
    explicit ProtoDuration(QString json)
        : text(std::move(json))
    {
    }
    bool isEmpty() const { return text.isEmpty(); }
    /// The duration in seconds (parseDurationSeconds()); nullopt when absent or malformed.
    std::optional<double> seconds() const;
    /// The duration in whole milliseconds (truncated); -1 when absent, malformed or negative: no limit.
    qint64 milliseconds() const;
    bool operator==(const ProtoDuration&) const = default;
};

/// Scheduling: limits as google.protobuf.Duration fields; priority 0..1000.
struct Scheduling {
    ProtoDuration maxRunningTime;
    ProtoDuration maxWaitTime;
    std::optional<int> priority;
    bool operator==(const Scheduling&) const = default;
};

/// ParameterSpec: one hyperparameter. `type` is PARAMETER_TYPE_UNSPECIFIED|DOUBLE|INTEGER|CATEGORICAL|DISCRETE;
/// `scaleType` is NONE|UNIT_LINEAR_SCALE|UNIT_LOG_SCALE|UNIT_REVERSE_LOG_SCALE.
struct ParameterSpec {
    QString parameterName;
    QString type;
    std::optional<double> minValue;
    std::optional<double> maxValue;
    QStringList categoricalValues;
    QList<double> discreteValues;
    QString scaleType;
    bool operator==(const ParameterSpec&) const = default;
};

/// HyperparameterSpec: `goal` is GOAL_TYPE_UNSPECIFIED|MAXIMIZE|MINIMIZE; `algorithm` is
/// ALGORITHM_UNSPECIFIED|GRID_SEARCH|RANDOM_SEARCH.
struct HyperparameterSpec {
    QString goal;
    QList<ParameterSpec> params;
    std::optional<int> maxTrials;
    std::optional<int> maxParallelTrials;
    std::optional<int> maxFailedTrials;
    QString hyperparameterMetricTag;
    QString resumePreviousJobId;
    std::optional<bool> enableTrialEarlyStopping;
    QString algorithm;
    bool operator==(const HyperparameterSpec&) const = default;
};

/// TrainingInput: what to run and on what.
struct TrainingInput {
    QString scaleTier; ///< BASIC|STANDARD_1|PREMIUM_1|BASIC_GPU|BASIC_TPU|CUSTOM (empty = BASIC)
    QString masterType;
    std::optional<ReplicaConfig> masterConfig;
    QString workerType;
    std::optional<ReplicaConfig> workerConfig;
    QString parameterServerType;
    std::optional<ReplicaConfig> parameterServerConfig;
    QString evaluatorType;
    std::optional<ReplicaConfig> evaluatorConfig;
    std::optional<qint64> workerCount;
    std::optional<qint64> parameterServerCount;
    std::optional<qint64> evaluatorCount;
    QStringList packageUris;
    QString pythonModule;
    QStringList args;
    std::optional<HyperparameterSpec> hyperparameters;
    QString region;
    QString jobDir;
    QString runtimeVersion;
    QString pythonVersion;
    std::optional<Scheduling> scheduling;
    QString network;
    QString serviceAccount;
    std::optional<bool> useChiefInTfConfig;
    std::optional<bool> enableWebAccess;
    QJsonObject encryptionConfig; ///< kept verbatim; not used on a workstation
    bool operator==(const TrainingInput&) const = default;
};

/// What one replica of a custom-container job runs (the service's "custom containers"): an image and, optionally,
/// the command (replacing the image's ENTRYPOINT) and the arguments (replacing its CMD). Empty `image`: the replica
/// runs the job's Python package instead.
struct ContainerSpec {
    QString image;
    QStringList command;
    QStringList args;
    bool isEmpty() const { return image.isEmpty(); }
    bool operator==(const ContainerSpec&) const = default;
};

/// The container a replica of `role` ("master", "worker", "ps", "evaluator") runs. A role whose config has an
/// `imageUri` runs that image with that config's `containerCommand` and `containerArgs`; a role without one runs
/// the master's (the service's REST reference: "If workerConfig.imageUri has not been set, AI Platform uses the
/// value of masterConfig.imageUri", likewise for parameter servers and evaluators). Empty when neither has an
/// image, or the image is a built-in algorithm's: a package-based replica.
ContainerSpec containerFor(const TrainingInput& input, const QString& role);

/// True when any replica of the job runs a container image. A built-in algorithm's image
/// (builtinalgorithm.h) is not one: such a job runs the bundled package.
bool usesContainers(const TrainingInput& input);

/// True when every replica of the job runs a container image (nothing to stage, no interpreter needed here).
/// False for a built-in algorithm job.
bool onlyContainers(const TrainingInput& input);

/// HyperparameterMetric: one reported value of the objective.
struct HyperparameterMetric {
    std::optional<qint64> trainingStep;
    std::optional<double> objectiveValue;
    bool operator==(const HyperparameterMetric&) const = default;
};

/// BuiltInAlgorithmOutput (REST v1): what a built-in algorithm job (or one of its trials) trained. The
/// executor reads it from `<model folder>/builtin_algorithm_output.json`, which trainyard_algorithms writes
/// (resources/algorithms/README.md §4), when the job or trial succeeds.
struct BuiltInAlgorithmOutput {
    QString framework; ///< "XGBOOST" or "PYTORCH" (Debian ships no TensorFlow; the service's were TENSORFLOW)
    QString runtimeVersion; ///< e.g. "2.11"
    QString pythonVersion; ///< e.g. "3.11"
    QString modelPath; ///< the model folder: `<job dir>[/<trial>]/model`
    bool operator==(const BuiltInAlgorithmOutput&) const = default;
};

/// HyperparameterOutput: one trial of a tuning job.
struct HyperparameterOutput {
    QString trialId;
    QMap<QString, QString> hyperparameters;
    QString startTime; ///< RFC 3339 UTC, e.g. "2026-11-22T05:04:43.123Z"
    QString endTime;
    JobState state = JobState::StateUnspecified;
    std::optional<HyperparameterMetric> finalMetric;
    QList<HyperparameterMetric> allMetrics;
    std::optional<bool> isTrialStoppedEarly;
    std::optional<BuiltInAlgorithmOutput> builtInAlgorithmOutput; ///< a built-in algorithm's trial
    bool operator==(const HyperparameterOutput&) const = default;
};

/// TrainingOutput: results, filled by the executor.
struct TrainingOutput {
    std::optional<qint64> completedTrialCount;
    QList<HyperparameterOutput> trials;
    std::optional<double> consumedMLUnits;
    std::optional<bool> isHyperparameterTuningJob;
    QString hyperparameterMetricTag;
    std::optional<bool> isBuiltInAlgorithmJob; ///< true for a job whose master names a built-in algorithm image
    std::optional<BuiltInAlgorithmOutput> builtInAlgorithmOutput; ///< set when such a job (not a study) succeeds
    bool operator==(const TrainingOutput&) const = default;
};

/// PredictionInput: a batch prediction job's input, the service's `projects.jobs` PredictionInput
/// (https://cloud.google.com/ai-platform/prediction/docs/reference/rest/v1/projects.jobs#PredictionInput).
/// The model is one of `modelName` ("projects/P/models/M": its default version), `versionName`
/// ("projects/P/models/M/versions/V") or `uri` (a model folder, its framework detected from its files).
/// Enum fields keep the service's names: dataFormat/outputDataFormat "JSON", "TEXT", "CSV", "TF_RECORD",
/// "TF_RECORD_GZIP" (the TFRecord ones are refused here: no TensorFlow runtime).
struct PredictionInput {
    QString modelName;
    QString versionName;
    QString uri;
    QString dataFormat; ///< required
    QString outputDataFormat; ///< empty: JSON
    QStringList inputPaths; ///< local paths; a `*` is allowed in the last path segment, as the service allows
    QString outputPath; ///< a folder, made if missing; inside the job-dir roots
    std::optional<qint64> maxWorkerCount; ///< absent: 10, the service's default
    QString region;
    QString runtimeVersion;
    std::optional<qint64> batchSize; ///< absent: 64, the service's default
    QString signatureName;
    /// `explanationConfig` (ours, as Vertex AI's generateExplanation): each result line also carries the instance's
    /// explanation. The service's shape ({"sampledShapleyAttribution": {"numPaths": 10}}), checked by
    /// ExplanationConfig::fromJson() when read; empty = predictions only.
    QJsonObject explanationConfig;
    bool operator==(const PredictionInput&) const = default;
};

/// The service's defaults for PredictionInput.maxWorkerCount and batchSize.
constexpr qint64 DefaultBatchMaxWorkerCount = 10;
constexpr qint64 DefaultBatchSize = 64;

/// The files a batch prediction job writes in its output folder, one pair per worker, with the service's names:
/// "prediction.results-00000-of-00002" (each good instance's prediction) and "prediction.errors_stats-00000-of-00002"
/// (each bad line's error). The one definition: the executor writes each worker's names into the plan the worker
/// reads (BatchPlan::toJson(), read by trainyard_algorithms/batch_prediction.py), and the console lists the folder
/// with filePattern().
namespace BatchOutput {
enum class Kind { Results, ErrorsStats };
/// The name of worker `shard`'s file of `kind` among `shards` workers (shard < shards ≤ 99999).
QString fileName(Kind kind, int shard, int shards);
/// The name filter that matches every such file (QDir's wildcard syntax): "prediction.*-of-*".
QString filePattern();
} // namespace BatchOutput

/// PredictionOutput: what a batch prediction job has done so far, filled by the executor while it runs
/// and when it ends. Counts are int64 (strings on the wire). `inputInstanceCount` is Trainyard's
/// extension (the service has no total): the instances in the input, known once every worker has
/// counted its share; absent before.
struct PredictionOutput {
    QString outputPath;
    std::optional<qint64> predictionCount;
    std::optional<qint64> errorCount;
    std::optional<double> nodeHours; ///< the workers' run time, summed, in hours
    std::optional<qint64> inputInstanceCount;
    bool operator==(const PredictionOutput&) const = default;
};

/// Job: the resource. Output-only fields (createTime, startTime, endTime, state, errorMessage,
/// etag, jobPosition, trainingOutput, predictionOutput) are ignored on create, as the service ignores them.
/// A job is a training job (trainingInput) or a batch prediction job (predictionInput set; its
/// trainingInput is then empty and left out on the wire).
struct Job {
    QString jobId;
    QString createTime; ///< RFC 3339 UTC
    QString startTime;
    QString endTime;
    JobState state = JobState::StateUnspecified; ///< StateUnspecified is absent on the wire
    QString errorMessage;
    QMap<QString, QString> labels;
    QString etag; ///< base64 of an opaque version, as the service
    std::optional<qint64> jobPosition;
    TrainingInput trainingInput;
    std::optional<TrainingOutput> trainingOutput;
    std::optional<PredictionInput> predictionInput;
    std::optional<PredictionOutput> predictionOutput;
    bool isPredictionJob() const { return predictionInput.has_value(); }
    /// The region it runs in: trainingInput.region, or predictionInput.region for a batch prediction job.
    QString region() const { return predictionInput ? predictionInput->region : trainingInput.region; }
    bool operator==(const Job&) const = default;
};

/// One violation in Google's `google.rpc.BadRequest.FieldViolation` shape.
/// `field` is a dotted path in the Job JSON, e.g. "trainingInput.workerConfig.acceleratorConfig.count"
/// or "trainingInput.hyperparameters.params[2].discreteValues".
struct FieldViolation {
    QString field;
    QString description;
    bool operator==(const FieldViolation&) const = default;
    /// "field: description" (just the description without a field): the one way a violation becomes a sentence,
    /// for a job's errorMessage or a log line.
    QString message() const { return field.isEmpty() ? description : field + QStringLiteral(": ") + description; }
};
using FieldViolations = QList<FieldViolation>;

/// JSON codecs (REST v1 / proto3 JSON mapping).
namespace JobJson {
/// Encode as the service does: camelCase, enum names, int64 as strings, absent fields omitted (a
/// StateUnspecified state too, as proto3 omits an enum's zero value).
QJsonObject toJson(const Job& job);
QJsonObject toJson(const TrainingInput& input);
/// One element of `trainingOutput.trials`, exactly as toJson(const Job&) writes it there (the job store encodes a
/// tuning job's trials one by one and keeps their bytes between writes).
QJsonObject toJson(const HyperparameterOutput& trial);
/// Decode. Unknown fields, wrong JSON types, unparsable int64 strings and enum names the service does not
/// have (a state "PAUSED" reads as StateUnspecified) are violations (each named by its field path); on any
/// violation the returned Job is incomplete and must not be used.
Job fromJson(const QJsonObject& json, FieldViolations* violations);
TrainingInput trainingInputFromJson(const QJsonObject& json, const QString& path, FieldViolations* violations);
QJsonObject toJson(const PredictionInput& input);
QJsonObject toJson(const PredictionOutput& output);
} // namespace JobJson

/// The service's rules for a batch prediction job's input, as create checks them, each violation with its field
/// path ("predictionInput.dataFormat"): exactly one of modelName/versionName/uri, in their name shapes; dataFormat
/// given and one this system reads (JSON, TEXT, CSV); outputDataFormat JSON or CSV; inputPaths and outputPath
/// given, absolute, no `gs://`; maxWorkerCount and batchSize ≥ 1 (batchSize ≤ 10,000 so a batch stays in memory).
/// Whether the files, the model and the output folder exist is the executor's check.
FieldViolations validatePredictionInput(const PredictionInput& input);

/// Parses a google.protobuf.Duration in its JSON form: decimal seconds with an "s" suffix, up to 9
/// fractional digits, optional sign ("7200s", "1.5s", "-3s"). Returns seconds; nullopt when malformed.
std::optional<double> parseDurationSeconds(const QString& text);

} // namespace Trainyard
