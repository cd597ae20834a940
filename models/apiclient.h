// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The client side of the executor's HTTP API (ARCHITECTURE.md "Three programs, one API"): REST v1 calls of
// `ml.googleapis.com/v1 projects.jobs` plus the job-scoped extensions (replicas, logs, events, metrics) and the
// project catalogs. Used by trainyardctl and the console; results arrive as immutable values (apitypes.h), streams
// as ApiStreams (apistream.h).

#include "apistream.h"
#include "apitypes.h"
#include "auditlog.h"
#include "executortrust.h"
#include "regioninfo.h"

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
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace Trainyard {

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
    /// The User-Agent of every request, so that audit entries tell the clients apart: "trainyardctl/VERSION",
    /// "trainyard-console/VERSION" (the console's application name is "trainyard"), else "APPNAME/VERSION"; the
    /// version is the application's, else the build's.
    static QByteArray userAgent();
    ~ApiClient() override;

    QUrl baseUrl() const { return m_baseUrl; }
    QString project() const { return m_project; }
    void setProject(const QString& project) { m_project = project; }
    /// How an https executor's certificate is checked (ExecutorEndpoint::trust); a TLS failure's ApiError is
    /// UNAVAILABLE with TlsTrustGuard::problem()'s message (a pin mismatch names both fingerprints).
    void setTlsTrust(const TlsTrust& trust);
    /// Per-request timeout for non-streaming calls, milliseconds (default 30000; 0 = none).
    void setTimeout(int ms) { m_timeoutMs = ms; }
    /// gcloud's `--log-http`: every request (a stream's too) and every answer is handed to `sink` as text in gcloud's
    /// layout ("==== request start ====", uri, method, headers, body; "---- response start ----", status, headers,
    /// body, the round trip's time), the bearer token redacted ("--- Token Redacted ---"). Null: nothing is logged.
    using HttpLog = std::function<void(const QString& text)>;
    void setHttpLog(HttpLog sink) { m_httpLog = std::move(sink); }

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
        QObject* context, Callback<Audit::Page> done);
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
    void scaleTiers(QObject* context, Callback<QList<ScaleTierInfo>> done);
    void machineTypes(QObject* context, Callback<QList<MachineType>> done);
    /// Accelerator types with host availability, and the host's GPUs.
    void acceleratorTypes(QObject* context,
        std::function<void(const QList<AcceleratorAvailability>&, const QList<GpuInfo>&, const ApiError&)> done);
    void runtimeVersions(QObject* context, Callback<QList<RuntimeVersionInfo>> done);
    void host(QObject* context, Callback<HostStatus> done);
    /// `GET …/locations/{location}` (projects.locations.get); NOT_FOUND for a name that is none of the executor's.
    void location(const QString& location, QObject* context, Callback<Location> done);
    /// The images of the executor host's local podman store, newest first (`…/images`; 503 UNAVAILABLE when
    /// podman is missing or fails).
    void images(QObject* context, Callback<QList<ContainerImageInfo>> done);
    /// `GET …/regions` (`region` empty: every region, in the executor's order) or `GET …/regions/{region}` (a list of
    /// that one), decoded (RegionInfo, app/executor/API.md "Regions").
    void regions(const QString& region, QObject* context, Callback<QList<RegionInfo>> done);
    /// A built-in algorithm job's model (`trialId` empty) or one trial's.
    void trainedModel(const QString& jobId, const QString& trialId, QObject* context, Callback<TrainedModel> done);
    /// A tuning job's hyperparameter importance (`GET …/jobs/{job}/hyperparameterImportance`, fANOVA over its
    /// succeeded trials; FAILED_PRECONDITION with fewer than 2).
    void hyperparameterImportance(const QString& jobId, QObject* context, Callback<HyperparameterImportance> done);
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
    /// `GET …/models?follow=true`: the project's models with their versions (ApiStream::modelChanged, one per model),
    /// ApiStream::synced, then each model as it or one of its versions changes, modelDeleted, and every READY
    /// version's request rate (versionRates) every 5 s while it changes. Never ends by itself: reconnect after
    /// finished(). PredictionClient::followModels() is the typed entry.
    ApiStream* followModels();

    ApiResult<Job> createJobBlocking(const Job& job);
    ApiResult<Job> getJobBlocking(const QString& jobId);
    ApiResult<JobPage> listJobsBlocking(const QString& filter, int pageSize, const QString& pageToken);
    ApiResult<bool> cancelJobBlocking(const QString& jobId);
    ApiResult<Audit::Page> auditLogsBlocking(
        const QString& project, const QString& filter, int pageSize, const QString& pageToken);
    ApiResult<Job> patchLabelsBlocking(const QString& jobId, const QMap<QString, QString>& labels, const QString& etag);
    ApiResult<QList<ReplicaInfo>> replicasBlocking(const QString& jobId);
    ApiResult<LogPage> logsBlocking(const QString& jobId, const QString& taskName, const QString& minSeverity,
        int pageSize, const QString& pageToken);
    ApiResult<HostStatus> hostBlocking();
    ApiResult<Location> locationBlocking(const QString& location);
    ApiResult<QList<RegionInfo>> regionsBlocking(const QString& region = {});
    ApiResult<QList<SeriesInfo>> metricSeriesBlocking(const QString& jobId);
    /// All points of a series after `after`, following the pages.
    ApiResult<SeriesPage> metricPointsBlocking(const QString& jobId, const QString& series, qint64 after = 0);
    ApiResult<CheckpointList> checkpointsBlocking(const QString& jobId);
    ApiResult<CheckpointDetail> checkpointDetailBlocking(const QString& jobId, const QString& name);
    ApiResult<TensorValues> tensorValuesBlocking(
        const QString& jobId, const QString& name, const QString& tensor, int values);

    /// Low level: sends a request with the bearer token; `done(httpStatus, body, error)` where `error`
    /// is non-null for transport failures and non-2xx answers. `path` is relative to baseUrl
    /// ("/v1/projects/local/jobs"), `query` already encoded by QUrlQuery.
    void request(const QByteArray& verb, const QString& path, const QString& query, const QByteArray& body,
        QObject* context, std::function<void(int, const QByteArray&, const ApiError&)> done);

    /// The URL of a project-scoped path: "<base>/v1/projects/<project><suffix>".
    QUrl projectUrl(const QString& suffix, const QString& query = {}) const;
    /// A project-scoped path as request() takes it (relative to baseUrl): "/v1/projects/<project><suffix>", the
    /// project percent-encoded, `suffix` as given (its segments already encoded).
    QString projectPath(const QString& suffix) const;

private:
    /// setHttpLog()'s texts of a request and of its answer.
    static QString httpRequestText(const QNetworkRequest& request, const QByteArray& verb, const QByteArray& body);
    static QString httpResponseText(QNetworkReply* reply, const QByteArray& body, qint64 elapsedMs);
    /// Sends a stream's GET (the token, `Accept: text/event-stream`, the trust) on the streams' own connections.
    ApiStream* openStream(QNetworkRequest request, const QString& jobId);

    QNetworkAccessManager* m_nam;
    TlsTrustGuard* m_tls;
    /// Streams have connections of their own: QNetworkAccessManager opens at most StreamsPerLane (6) HTTP/1.1
    /// connections to a host and queues what comes after, so the console's long-lived streams (the job list, a job's
    /// events, its logs and resume lines, its metrics and the runs compared with it, the models) would otherwise hold
    /// every connection and leave the next ordinary request (a checkpoint listing, a cancel) waiting until one of them
    /// ends. A stream goes to the first lane (a manager of its own) with a free connection; a seventh stream opens a
    /// second lane rather than wait behind the first six.
    struct StreamLane {
        QNetworkAccessManager* nam = nullptr;
        TlsTrustGuard* tls = nullptr;
        int open = 0; ///< streams that hold one of its connections
    };
    static constexpr int StreamsPerLane = 6;
    std::vector<StreamLane> m_streamLanes;
    TlsTrust m_trust;
    QUrl m_baseUrl;
    QByteArray m_token;
    QString m_project = QStringLiteral("local");
    int m_timeoutMs = 30000;
    HttpLog m_httpLog;
};

} // namespace Trainyard
