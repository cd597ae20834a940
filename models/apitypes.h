// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The values the executor's HTTP API sends (app/executor/API.md): the service's REST v1 shapes of
// `ml.googleapis.com/v1 projects.jobs` and the job-scoped extensions (replicas, logs, metrics, checkpoints, the
// host), each with the one fromJson() every client uses and, where the executor encodes it, the toJson() it
// sends. No network here: the client is apiclient.h, the event streams apistream.h.

#include "job.h"
#include "logentry.h"
#include "predictionresults.h"
#include "machinecatalog.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>

#include <optional>

namespace Trainyard {

struct CheckpointEntry;

/// An API failure in Google's error shape
/// `{"error":{"code","message","status","details":[{"@type":"…BadRequest","fieldViolations":[…]}]}}`.
/// `httpStatus` is 0 when no HTTP answer arrived (connection refused, timeout); then `status` is
/// "UNAVAILABLE" and `message` the network error text.
struct ApiError {
    int httpStatus = 0;
    QString status; ///< google.rpc.Code name: INVALID_ARGUMENT, NOT_FOUND, ABORTED, UNAUTHENTICATED …
    QString message;
    FieldViolations violations;

    /// True when this holds no error.
    bool isNull() const { return status.isEmpty() && message.isEmpty() && httpStatus == 0; }
    /// "STATUS: message" (the first line of gcloud's error output).
    QString summary() const;
    /// Parses an error body; falls back to the HTTP reason when the body is not Google's shape.
    static ApiError fromBody(int httpStatus, const QByteArray& body, const QString& fallbackMessage);
    bool operator==(const ApiError&) const = default;
};

/// A replica's state in Trainyard's `…/replicas` extension. Strings only at the wire (replicaStateName,
/// replicaStateFromName). The executor never reports Unspecified: it is what a client reads for a name it
/// does not know (a newer executor's), with a violation.
enum class ReplicaState { Unspecified, Pending, Starting, Running, Restarting, Succeeded, Failed, Stopped };
/// "STATE_UNSPECIFIED", "PENDING", "STARTING", "RUNNING", "RESTARTING", "SUCCEEDED", "FAILED", "STOPPED".
QString replicaStateName(ReplicaState state);
/// The state of a wire name (case-sensitive); nullopt for a name not in the list above.
std::optional<ReplicaState> replicaStateFromName(QStringView name);

/// One replica as `…/jobs/{id}/replicas` reports it: the executor builds it, the client reads it, with
/// this one codec. JSON: {"taskName","role","index","state","pid": "123" (int64 as a string, absent when
/// none),"address":"host:port","gpus":[0,1],"restarts":N,"exitCode":N (absent while running),
/// "exitSignal":N (absent unless killed),"machineType","trialId","startTime":RFC 3339 (absent until it started)}.
struct ReplicaInfo {
    QString taskName; ///< "master-replica-0", "worker-replica-1", …
    QString role; ///< "master" | "worker" | "ps" | "evaluator"
    int index = 0;
    ReplicaState state = ReplicaState::Unspecified;
    qint64 pid = 0; ///< 0 when no process
    QString address; ///< "127.0.0.1:PORT"; on a cluster, "NODE:PORT"
    QString node; ///< the cluster node it runs on ("node2"); empty for replicas on the executor's host
    QList<int> gpus;
    int restarts = 0;
    std::optional<int> exitCode;
    std::optional<int> exitSignal;
    QString machineType;
    QString trialId;
    /// When it started (UTC, ms), as its backend tells (a cluster's: even across an executor restart); invalid
    /// before. A cluster's replica may wait in its queue long after the job started: its uptime counts from this.
    QDateTime startTime;

    /// Decodes one replica. A state name this client does not know reads as ReplicaState::Unspecified and
    /// is appended to *violations (field "state") when given; the other fields are read leniently.
    static ReplicaInfo fromJson(const QJsonObject& json, FieldViolations* violations = nullptr);
    /// Encodes one replica; the state by its wire name.
    QJsonObject toJson() const;
    bool operator==(const ReplicaInfo&) const = default;
};

/// One page of `jobs.list`.
struct JobPage {
    QList<Job> jobs;
    QString nextPageToken; ///< empty on the last page
};

/// One page of `…/jobs/{id}/logs`.
struct LogPage {
    QList<LogEntry> entries;
    QString nextPageToken;
};

/// One metric series of `…/jobs/{id}/metrics` (app/executor/API.md "Metrics").
struct SeriesInfo {
    QString name; ///< the key for `?series=` (`scalar/./train/loss`, `hypertune/master-replica-0/accuracy`, …)
    QString kind; ///< `scalar` (event files), `hypertune`, `resource`
    QString run; ///< scalars: TensorBoard's run ("." = the job dir)
    QString tag; ///< scalars and hypertune: the tag; resources: cpu_percent, rss_bytes, gpu_utilization_percent,
                 ///< gpu_memory_bytes
    QString taskName; ///< hypertune and resources: the replica
    QString trialId;
    qint64 pointCount = 0;
    qint64 lastSeq = 0; ///< cursor of the newest point (for `after`)
    /// Not on the wire: the job a client merged this series from when it shows several jobs' series together
    /// (the console's run comparison); empty for the job being viewed.
    QString jobId;

    static SeriesInfo fromJson(const QJsonObject& json);
    /// The executor's JSON of a series (`…/metrics` and its `series` events): `points` (pointCount) and `lastSeq` as
    /// int64 strings; `run`, `taskName` and `trialId` only when set. (Its points are written by the executor's
    /// streaming writer, api/metrics.cpp, and read back by SeriesPoint::fromJson().)
    QJsonObject toJson() const;
    bool operator==(const SeriesInfo&) const = default;
};

/// One point of a metric series.
struct SeriesPoint {
    qint64 step = 0; ///< the trainer's step, or the sample number of a resource series
    double wallTime = 0; ///< seconds since the Unix epoch
    double value = 0; ///< NaN and ±Inf arrive as the strings "NaN", "Infinity", "-Infinity"

    static SeriesPoint fromJson(const QJsonObject& json);
    bool operator==(const SeriesPoint&) const = default;
};

/// `…/metrics?series=NAME&after=SEQ`: one page of points, in the order they were stored.
struct SeriesPage {
    SeriesInfo series;
    QList<SeriesPoint> points;
    qint64 lastSeq = 0; ///< pass as `after` to get what comes next
    QString nextPageToken; ///< non-empty when more points were stored than this page holds
};

/// `…/acceleratorTypes`: one accelerator type with how many this host has.
struct AcceleratorAvailability {
    QString name;
    QString displayName;
    bool isTpu = false;
    int availableOnHost = 0;
    bool operator==(const AcceleratorAvailability&) const = default;
};

/// `…/runtimeVersions`: one runtime version and the interpreter that runs it here.
struct RuntimeVersionInfo {
    QString runtimeVersion;
    QStringList pythonVersions; ///< the service's: what a job may ask for ("3.7")
    QString interpreter;
    QString interpreterPythonVersion; ///< what the interpreter is ("3.11.2"); empty when the executor could not run it
    bool operator==(const RuntimeVersionInfo&) const = default;
};

/// `…/images`: one image of the executor host's local podman store (custom containers).
struct ContainerImageInfo {
    QStringList names; ///< references, e.g. "localhost/trainer:1"; empty for a dangling image
    QString id; ///< 64 hex digits
    qint64 sizeBytes = 0;
    QString createTime; ///< RFC 3339 UTC
    bool operator==(const ContainerImageInfo&) const = default;
};

/// A place where work can run (`projects.locations`, google.cloud.ml.v1 Location): "projects/p/locations/local" with
/// its capabilities, each a type (TRAINING, BATCH_PREDICTION, ONLINE_PREDICTION) and the accelerator types it offers.
struct Location {
    struct Capability {
        QString type;
        QStringList availableAccelerators;
        bool operator==(const Capability&) const = default;
    };
    QString name;
    QList<Capability> capabilities;

    /// It has a capability of `type` ("ONLINE_PREDICTION").
    bool can(const QString& type) const;
    static Location fromJson(const QJsonObject& json);
    bool operator==(const Location&) const = default;
};

/// `…/host`: what the host has and what the scheduler holds now.
struct HostStatus {
    int cpus = 0;
    Bytes memory; ///< the host's physical memory; wire: "memoryBytes", an int64 string
    QList<GpuInfo> gpus;
    int vcpusInUse = 0;
    Bytes memoryInUse; ///< reserved by running jobs; wire: "memoryGbInUse", GB
    QList<int> gpusInUse;
    int runningJobs = 0;
    int queuedJobs = 0;
    /// Deployed versions' prediction nodes that hold a reservation: their machine types' vCPUs and memory are in
    /// vcpusInUse and memoryInUse (app/executor/README.md "Prediction nodes and jobs share the host"). 0 from an
    /// executor that does not say.
    int predictionNodes = 0;
    /// Where job dirs may lie on the executor's host (`--job-dir-root`, PathPolicy); empty from an executor that
    /// does not say.
    QStringList jobDirRoots;

    static HostStatus fromJson(const QJsonObject& json);
    /// The executor's `…/host` answer (memory in use on the wire as "memoryGbInUse", GB).
    QJsonObject toJson() const;
};

/// One checkpoint of `…/jobs/{id}/checkpoints` (app/executor/API.md "Checkpoints").
struct CheckpointSummary {
    QString name; ///< relative to the job dir, `/`-separated: what checkpointDetail() takes
    QString format; ///< `tf-bundle`, `tf-saved-model`, `pytorch`, `safetensors`, `keras`
    std::optional<qint64> step;
    std::optional<qint64> epoch;
    qint64 updateTimeMs = 0; ///< newest file modification, milliseconds since the epoch (UTC); 0 when unparsable
    qint64 sizeBytes = 0; ///< all its files
    bool current = false; ///< named by the TF `checkpoint` state file
    QString trialId;
    bool exportedModel = false; ///< in the job's exported-model folder `model/` (CheckpointEntry::exportedModel)
    QStringList files; ///< relative to the job dir

    /// What the executor's scan found (CheckpointIndex::scan()).
    static CheckpointSummary fromEntry(const CheckpointEntry& entry);
    static CheckpointSummary fromJson(const QJsonObject& json);
    /// API JSON (app/executor/API.md "Checkpoints"): int64 as strings, `updateTime` RFC 3339 with milliseconds,
    /// `current`/`trialId`/`step`/`epoch` omitted when unset (proto3 JSON).
    QJsonObject toJson() const;
    bool operator==(const CheckpointSummary&) const = default;
};

/// `…/jobs/{id}/checkpoints`: newest first.
struct CheckpointList {
    QList<CheckpointSummary> checkpoints;
    QString jobDir; ///< absolute; empty when the job has none
    bool truncated = false; ///< the executor's scan stopped at its entry limit

    static CheckpointList fromJson(const QJsonObject& json);
    /// `{"checkpoints": […], "jobDir"?, "truncated"?}`.
    QJsonObject toJson() const;
    bool operator==(const CheckpointList&) const = default;
};

/// `…/jobs/{id}/model[?trial=]`: what a built-in algorithm job (or trial) trained (app/executor/API.md, "Built-in
/// algorithms"; the files' shapes: resources/algorithms/README.md §4).
struct TrainedModel {
    QString modelPath; ///< the model folder on the executor's host
    QString framework; ///< "XGBOOST", "PYTORCH"; empty until the model is written
    QString split; ///< what the metrics were measured on: "test", else "validation"
    QString task; ///< "classification" or "regression"
    qint64 rows = 0; ///< rows of that split
    QList<QPair<QString, double>> metrics; ///< name → value, sorted by name
    QStringList classLabels; ///< classification: the classes, in the matrix's order
    QList<QList<qint64>> confusion; ///< classification: counts[true][predicted]
    QList<QPair<double, double>> actualPredicted; ///< regression: [actual, predicted], at most 2,000
    /// Per CSV column (0-based, the target is 0): XGBoost's total gain over the column's encoded features and its
    /// number of splits. Empty for the PyTorch algorithms.
    struct ColumnImportance {
        int column = 0;
        double totalGain = 0;
        qint64 splits = 0;
        /// The mean |attribution| of the column over the final split (attributionMethod says how); −1 when absent.
        double meanAbsAttribution = -1;
        bool operator==(const ColumnImportance&) const = default;
    };
    QList<ColumnImportance> importance;
    /// How meanAbsAttribution was measured ("mean |TreeSHAP attribution| over the 114 rows of the final split, in
    /// margin (log-odds) space"); empty when the job measured none.
    QString attributionMethod;
    /// The training table's columns (API.md: `inputSchema`, as a version of this model answers it), to name them where
    /// the service's header-less CSV has no names. Empty without the model's preprocessing.json.
    InputSchema inputSchema;
    /// How the console names CSV column `index` (0-based): its 1-based position and kind, as the wizard's table
    /// preview heads it ("column 3 · numeric", "column 5 · categorical (red, green, …)": the first 5 categories).
    QString columnName(int index) const;
    struct File {
        QString name;
        qint64 sizeBytes = 0;
        bool operator==(const File&) const = default;
    };
    QList<File> files; ///< the model folder's files, by name
    static TrainedModel fromJson(const QJsonObject& o);
    bool operator==(const TrainedModel&) const = default;
};

/// `…/jobs/{id}/hyperparameterImportance` (app/executor/API.md "Hyperparameter importance"): each hyperparameter's
/// share of the objective's variance over the job's succeeded trials, summing to 1, largest first.
struct HyperparameterImportance {
    QString method; ///< how it was measured, in words (optuna's fANOVA evaluator and its source)
    int trials = 0; ///< the succeeded trials it was measured over
    QList<QPair<QString, double>> importances; ///< parameter name → share in [0, 1]
    static HyperparameterImportance fromJson(const QJsonObject& o);
    bool operator==(const HyperparameterImportance&) const = default;
};

/// One tensor of `…/checkpoints/{name}`.
struct CheckpointTensor {
    QString name; ///< as stored (TF key, dotted PyTorch path, safetensors key): what tensorValues() takes
    QString displayName; ///< TF2 object path, else `name`
    QString dtype; ///< the format's name (`DT_FLOAT`, `float32`, `F32`)
    QString elementType; ///< `F32`, `BF16`, `I64` …; empty when values are not decoded
    QList<qint64> shape; ///< empty for a scalar
    qint64 sizeBytes = -1; ///< -1 when the format does not say
    int shard = 0;
    QString file; ///< relative to the job dir
    bool metadata = false; ///< bookkeeping entry (`_CHECKPOINTABLE_OBJECT_GRAPH`)

    static CheckpointTensor fromJson(const QJsonObject& json);
    /// `shape` and `sizeBytes` as int64 strings; `elementType`, `sizeBytes` and `metadata` only when known/set.
    QJsonObject toJson() const;
    bool operator==(const CheckpointTensor&) const = default;
};

/// `…/checkpoints/{name}`: what the checkpoint holds.
struct CheckpointDetail {
    QString name;
    QString format;
    qint64 totalBytes = 0; ///< sum of the tensors' sizes
    QStringList files; ///< relative to the job dir
    QList<CheckpointTensor> tensors;
    QJsonObject scalars; ///< PyTorch top-level numbers and strings (`epoch`, `global_step`)
    QJsonObject metadata; ///< format extras

    static CheckpointDetail fromJson(const QJsonObject& json);
    /// `totalBytes` as an int64 string; `scalars` and `metadata` only when not empty.
    QJsonObject toJson() const;
    bool operator==(const CheckpointDetail&) const = default;
};

/// `…/checkpoints/{name}?tensor=&values=`: statistics over the finite values, and the first values
/// in storage order (NaN and ±Inf as doubles).
struct TensorValues {
    QString checkpoint;
    CheckpointTensor tensor;
    qint64 count = 0;
    qint64 nanCount = 0;
    qint64 infCount = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    double std = 0;
    QList<double> values;

    static TensorValues fromJson(const QJsonObject& json);
    /// `{"name", "tensor", "statistics": {"count", "nanCount", "infCount" (int64 strings), "min", "max", "mean",
    /// "std", "values" (NaN and ±Inf as "NaN", "Infinity", "-Infinity")}}`.
    QJsonObject toJson() const;
};

/// The result of a blocking call: a value or an error.
template <typename T> struct ApiResult {
    T value {};
    ApiError error;
    bool ok() const { return error.isNull(); }
};

} // namespace Trainyard

Q_DECLARE_METATYPE(Trainyard::SeriesInfo)
Q_DECLARE_METATYPE(Trainyard::SeriesPoint)
Q_DECLARE_METATYPE(Trainyard::ReplicaInfo)
Q_DECLARE_METATYPE(Trainyard::ApiError)
