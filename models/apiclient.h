// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The client side of the executor's HTTP API (ARCHITECTURE.md "Three programs, one API"): REST v1 shapes of
// `ml.googleapis.com/v1 projects.jobs` plus the job-scoped extensions (replicas, logs, events, metrics) and the
// project catalogs. Used by trainyardctl and the console; results arrive as immutable values.

#include "executortrust.h"
#include "job.h"
#include "logentry.h"
#include "machinecatalog.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace Trainyard {

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
    QStringList pythonVersions;
    QString interpreter;
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

/// `…/host`: what the host has and what the scheduler holds now.
struct HostStatus {
    int cpus = 0;
    qint64 memoryBytes = 0;
    QList<GpuInfo> gpus;
    int vcpusInUse = 0;
    Bytes memoryInUse; ///< wire: "memoryGbInUse", GB
    QList<int> gpusInUse;
    int runningJobs = 0;
    int queuedJobs = 0;
    /// Where job dirs may lie on the executor's host (`--job-dir-root`, JobDirPolicy); empty from an executor that
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
    QStringList files; ///< relative to the job dir

    static CheckpointSummary fromJson(const QJsonObject& json);
    bool operator==(const CheckpointSummary&) const = default;
};

/// `…/jobs/{id}/checkpoints`: newest first.
struct CheckpointList {
    QList<CheckpointSummary> checkpoints;
    QString jobDir; ///< absolute; empty when the job has none
    bool truncated = false; ///< the executor's scan stopped at its entry limit
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
        bool operator==(const ColumnImportance&) const = default;
    };
    QList<ColumnImportance> importance;
    struct File {
        QString name;
        qint64 sizeBytes = 0;
        bool operator==(const File&) const = default;
    };
    QList<File> files; ///< the model folder's files, by name
    static TrainedModel fromJson(const QJsonObject& o);
    bool operator==(const TrainedModel&) const = default;
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
};

/// The result of a blocking call: a value or an error.
template <typename T> struct ApiResult {
    T value {};
    ApiError error;
    bool ok() const { return error.isNull(); }
};

class ApiStream;

/// Client of one executor: `baseUrl` ("http://127.0.0.1:PORT"), the bearer token, and a project
/// (any name is accepted by the executor; "local" by default).
///
/// Async calls take a `context` QObject and a callback `(value, error)`: the callback runs on the
/// caller's thread when the reply arrives, unless `context` was destroyed (then it is dropped).
/// Exactly one of value/error is meaningful: `error.isNull()` means success.
/// The `…Blocking` helpers run a local QEventLoop until the reply arrives (for the CLI; never use them
/// in the console's GUI thread).
///
/// Streams (`followLogs`, `followEvents`) return an ApiStream owned by the caller; reconnecting after
/// a dropped stream is the caller's decision.
///
/// Not thread-safe; use from one thread.
class ApiClient : public QObject {
    Q_OBJECT
public:
    explicit ApiClient(const QUrl& baseUrl, const QByteArray& token, QObject* parent = nullptr);
    ~ApiClient() override;

    QUrl baseUrl() const { return m_baseUrl; }
    QString project() const { return m_project; }
    void setProject(const QString& project) { m_project = project; }
    /// How an https executor's certificate is checked (ExecutorEndpoint::trust); a TLS failure's ApiError is
    /// UNAVAILABLE with TlsTrustGuard::problem()'s message (a pin mismatch names both fingerprints).
    void setTlsTrust(const TlsTrust& trust);
    /// Per-request timeout for non-streaming calls, milliseconds (default 30000; 0 = none).
    void setTimeout(int ms) { m_timeoutMs = ms; }

    template <typename T> using Callback = std::function<void(const T& value, const ApiError& error)>;

    void createJob(const Job& job, QObject* context, Callback<Job> done);
    void getJob(const QString& jobId, QObject* context, Callback<Job> done);
    /// `filter` in the service's syntax (models/jobfilter.h); `pageSize` 0 = server default.
    void listJobs(
        const QString& filter, int pageSize, const QString& pageToken, QObject* context, Callback<JobPage> done);
    void cancelJob(const QString& jobId, QObject* context, Callback<bool> done);
    /// `GET /v1/projects/{project}/auditLogs` (app/executor/API.md, "Audit logs"): `{"entries": [LogEntry…] newest
    /// first, "nextPageToken"}`. `project` empty: this client's project; "-": every project. `filter` in the subset of
    /// models/auditlog.h; `pageSize` 0 = server default (50).
    void auditLogs(const QString& project, const QString& filter, int pageSize, const QString& pageToken,
        QObject* context, Callback<QJsonObject> done);
    /// PATCH `?updateMask=labels` with the etag from the last read; a stale etag answers 409 ABORTED.
    void patchLabels(const QString& jobId, const QMap<QString, QString>& labels, const QString& etag, QObject* context,
        Callback<Job> done);
    void replicas(const QString& jobId, QObject* context, Callback<QList<ReplicaInfo>> done);
    /// One page of logs; `taskName`/`minSeverity` empty = all.
    void logs(const QString& jobId, const QString& taskName, const QString& minSeverity, int pageSize,
        const QString& pageToken, QObject* context, Callback<LogPage> done);
    /// One page of the log entries whose message contains `contains` (case-sensitive; `?contains=`).
    void logs(const QString& jobId, const QString& taskName, const QString& minSeverity, const QString& contains,
        int pageSize, const QString& pageToken, QObject* context, Callback<LogPage> done);
    void scaleTiers(QObject* context, Callback<QJsonArray> done);
    void machineTypes(QObject* context, Callback<QList<MachineType>> done);
    /// Accelerator types with host availability, and the host's GPUs.
    void acceleratorTypes(QObject* context,
        std::function<void(const QList<AcceleratorAvailability>&, const QList<GpuInfo>&, const ApiError&)> done);
    void runtimeVersions(QObject* context, Callback<QList<RuntimeVersionInfo>> done);
    void host(QObject* context, Callback<HostStatus> done);
    /// The images of the executor host's local podman store, newest first (`…/images`; 503 UNAVAILABLE when
    /// podman is missing or fails).
    void images(QObject* context, Callback<QList<ContainerImageInfo>> done);
    /// `GET …/regions` (`region` empty: `{"regions": [Region, …]}`) or `GET …/regions/{region}` (one Region), as
    /// app/executor/API.md "Regions" shows them (JSON as sent: the console and trainyardctl read what they show).
    void regions(const QString& region, QObject* context, Callback<QJsonObject> done);
    /// A built-in algorithm job's model (`trialId` empty) or one trial's.
    void trainedModel(const QString& jobId, const QString& trialId, QObject* context, Callback<TrainedModel> done);
    /// The checkpoints under the job's job dir, newest first.
    void checkpoints(const QString& jobId, QObject* context, Callback<CheckpointList> done);
    /// One checkpoint's tensors; `name` as CheckpointSummary::name (sent URL-encoded, `/` as %2F).
    void checkpointDetail(const QString& jobId, const QString& name, QObject* context, Callback<CheckpointDetail> done);
    /// Statistics and the first `values` values (the executor caps it at 10000) of one tensor
    /// (`tensor`: CheckpointTensor::name or displayName).
    void tensorValues(const QString& jobId, const QString& name, const QString& tensor, int values, QObject* context,
        Callback<TensorValues> done);

    /// `GET …/jobs/{id}/metrics`: the job's metric series, in creation order.
    void metricSeries(const QString& jobId, QObject* context, Callback<QList<SeriesInfo>> done);
    /// `GET …/jobs/{id}/metrics?series=&after=&pageSize=&pageToken=`: points stored after the cursor `after`
    /// (a seq, 0 = from the start); `pageSize` 0 = server default (10000).
    void metricPoints(const QString& jobId, const QString& series, qint64 after, int pageSize, const QString& pageToken,
        QObject* context, Callback<SeriesPage> done);
    /// `GET …/jobs/{id}/metrics?follow=true[&series=][&after=]`: every stored series and point (ApiStream::
    /// metricSeriesAdded, metricPoints, metricsPurged), then the new ones as the executor collects them;
    /// ApiStream::ended once the job is final and its last metrics are stored.
    ApiStream* followMetrics(const QString& jobId, const QString& series = {}, qint64 after = 0);
    /// `GET …/jobs/{id}/logs?follow=true`: every entry from the start (after the server's replay), then
    /// live ones; ApiStream::logEntries in batches, ApiStream::ended when the job is final. `contains`
    /// non-empty: only entries whose message holds that text (case-sensitive). `trialId` non-empty: only that
    /// trial's entries (a tuning job's).
    ApiStream* followLogs(const QString& jobId, const QString& taskName = {}, const QString& minSeverity = {},
        const QString& contains = {}, const QString& trialId = {});
    /// `GET …/jobs/{id}:events?follow=true`: ApiStream::jobChanged / replicasChanged.
    ApiStream* followEvents(const QString& jobId);
    /// `GET …/jobs?follow=true[&since=CURSOR]`: the project's jobs, then each job as it is created or
    /// changed (ApiStream::jobsChanged in batches, and jobChanged per job); ApiStream::jobsSynced
    /// once the snapshot is complete. `since` (ApiStream::lastEventId() of an earlier stream) sends only
    /// the jobs written after it; ApiStream::jobsReset first means the cursor was not valid there (another
    /// database) and everything follows. The stream never ends by itself: reconnect after finished().
    ApiStream* followJobs(const QByteArray& since = {});

    ApiResult<Job> createJobBlocking(const Job& job);
    ApiResult<Job> getJobBlocking(const QString& jobId);
    ApiResult<JobPage> listJobsBlocking(const QString& filter, int pageSize, const QString& pageToken);
    ApiResult<bool> cancelJobBlocking(const QString& jobId);
    ApiResult<QJsonObject> auditLogsBlocking(
        const QString& project, const QString& filter, int pageSize, const QString& pageToken);
    ApiResult<Job> patchLabelsBlocking(const QString& jobId, const QMap<QString, QString>& labels, const QString& etag);
    ApiResult<QList<ReplicaInfo>> replicasBlocking(const QString& jobId);
    ApiResult<LogPage> logsBlocking(const QString& jobId, const QString& taskName, const QString& minSeverity,
        int pageSize, const QString& pageToken);
    ApiResult<HostStatus> hostBlocking();
    ApiResult<QJsonObject> regionsBlocking(const QString& region = {});
    ApiResult<QList<SeriesInfo>> metricSeriesBlocking(const QString& jobId);
    /// All points of a series after `after`, following the pages.
    ApiResult<SeriesPage> metricPointsBlocking(const QString& jobId, const QString& series, qint64 after = 0);
    ApiResult<CheckpointList> checkpointsBlocking(const QString& jobId);
    ApiResult<CheckpointDetail> checkpointDetailBlocking(const QString& jobId, const QString& name);
    ApiResult<TensorValues> tensorValuesBlocking(
        const QString& jobId, const QString& name, const QString& tensor, int values);

    /// Low level, blocking: `verb` `path` (relative to baseUrl, "/v1/tokens") with `body` (JSON; empty: none);
    /// the answer's JSON object, or the error (transport failure, non-2xx answer, or a body that is not a JSON
    /// object). For the calls that have no typed helper (IAM policies, access tokens).
    ApiResult<QJsonObject> jsonBlocking(const QByteArray& verb, const QString& path, const QByteArray& body = {});

    /// Low level: sends a request with the bearer token; `done(httpStatus, body, error)` where `error`
    /// is non-null for transport failures and non-2xx answers. `path` is relative to baseUrl
    /// ("/v1/projects/local/jobs"), `query` already encoded by QUrlQuery.
    void request(const QByteArray& verb, const QString& path, const QString& query, const QByteArray& body,
        QObject* context, std::function<void(int, const QByteArray&, const ApiError&)> done);

    /// The URL of a project-scoped path: "<base>/v1/projects/<project><suffix>".
    QUrl projectUrl(const QString& suffix, const QString& query = {}) const;

private:
    template <typename T, typename Call> ApiResult<T> blocking(Call call);

    QNetworkAccessManager* m_nam;
    TlsTrustGuard* m_tls;
    QUrl m_baseUrl;
    QByteArray m_token;
    QString m_project = QStringLiteral("local");
    int m_timeoutMs = 30000;
};

/// A Server-Sent Events stream of the executor (`text/event-stream`). Parses events incrementally as
/// bytes arrive (`event:` / `data:` lines, blank line ends an event, `:` comments ignored) and emits
/// them in batches: all complete events of one network read become one signal per kind, so a
/// fast producer costs one slot call per read, not one per line.
///
/// Emits `finished()` exactly once: after `ended` (the server's `end` event), after `failed`, or when the
/// server closes the stream. Deleting the stream aborts the connection.
class ApiStream : public QObject {
    Q_OBJECT
public:
    ~ApiStream() override;
    /// Closes the connection; no further signals except finished() (if not yet emitted).
    void abort();
    bool isFinished() const { return m_finished; }
    /// The `id:` of the last event received (SSE's "last event ID"); empty when none had one.
    QByteArray lastEventId() const { return m_lastEventId; }

Q_SIGNALS:
    /// Log entries, in arrival order.
    void logEntries(const QList<Trainyard::LogEntry>& entries);
    /// The `end` event of a log stream: the job's final state (Succeeded, Failed, Cancelled); StateUnspecified
    /// when the event names none (the job was deleted) or a name this client does not know (logged).
    void ended(Trainyard::JobState finalState);
    /// `event: job` of an events stream.
    void jobChanged(const Trainyard::Job& job);
    /// The `event: job`s of one network read, in order (job list and events streams).
    void jobsChanged(const QList<Trainyard::Job>& jobs);
    /// `event: synced` of a job list stream: every job of the snapshot was sent; `cursor` is where a
    /// reconnect resumes (also lastEventId()).
    void jobsSynced(const QByteArray& cursor);
    /// `event: reset` of a job list stream: forget the jobs seen so far, a full snapshot follows.
    void jobsReset();
    /// `event: replicas` of an events stream.
    void replicasChanged(const QString& jobId, const QList<Trainyard::ReplicaInfo>& replicas);
    /// `event: series` of a metrics stream: a series (all stored ones first, then each new one).
    void metricSeriesAdded(const Trainyard::SeriesInfo& series);
    /// `event: points` of a metrics stream: points of one series, in stored order.
    void metricPoints(const QString& series, const QList<Trainyard::SeriesPoint>& points);
    /// `event: purge` of a metrics stream: a trainer restarted from an earlier step, so the points of
    /// `series` with step ≥ `fromStep` were removed (TensorBoard's rule); new ones follow.
    void metricsPurged(const QString& series, qint64 fromStep);
    /// An HTTP error answer or a transport failure.
    void failed(const Trainyard::ApiError& error);
    void finished();

private:
    friend class ApiClient;
    ApiStream(QNetworkReply* reply, const QString& jobId, QObject* parent);
    void onReadyRead();
    void onFinished();
    void dispatch(const QString& event, const QByteArray& data, QList<LogEntry>* logBatch, QList<Job>* jobBatch);
    void flushJobs(QList<Job>* jobBatch);
    void finish();

    QPointer<QNetworkReply> m_reply;
    QString m_jobId;
    QByteArray m_buffer;
    QString m_event;
    QByteArray m_data;
    QByteArray m_lastEventId;
    bool m_finished = false;
    bool m_sawEnd = false;
};

} // namespace Trainyard

Q_DECLARE_METATYPE(Trainyard::SeriesInfo)
Q_DECLARE_METATYPE(Trainyard::SeriesPoint)
Q_DECLARE_METATYPE(Trainyard::ReplicaInfo)
Q_DECLARE_METATYPE(Trainyard::ApiError)
