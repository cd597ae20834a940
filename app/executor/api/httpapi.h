// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "auditstore.h"
#include "iampolicy.h"
#include "job.h"
#include "machinecatalog.h"
#include "pathpolicy.h"
#include "rpcstatus.h"

#include <QAbstractHttpServer>
#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QPointer>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

#include <functional>
#include <memory>
#include <optional>
#include <string>

class QHttpServerRequest;
class QHttpServerResponder;
class QTcpServer;
class QTcpSocket;
class QTimer;

namespace Trainyard {

class AccessStore;
class AuditLogsHandler;
class AuditRecorder;
class ApiContext;
class Authorizer;
class Backend;
class CatalogsHandler;
class CheckpointsHandler;
class EventsHandler;
class IamHandler;
class JobsHandler;
class LogsHandler;
class MetricsHandler;
class LocationsHandler;
class RegionsHandler;
class TokensHandler;
class TrainedModelHandler;
class HyperparameterImportanceHandler;
class CheckpointIndex;
class JobStore;
class LogStore;
class MetricsStore;
class ModelsHandler;
class OperationsHandler;
class PredictHandler;
class PredictionService;
class VersionsHandler;
class Scheduler;
class SseStream;
class HttpChannel;
class HttpConnection;
/// Where one request's answer goes (httpchannel.h); shared by deferred answers and streams.
using HttpChannelPtr = std::shared_ptr<HttpChannel>;

/// HTTP header lines as name/value pairs, in the order they are written or were received.
using HttpHeaderList = QList<QPair<QByteArray, QByteArray>>;

/// Where an answer served in this process goes (HttpApi::serve()): the HTTP status (200, 404, …), the headers
/// the API adds (`Content-Type`, …; no transport ones such as `Content-Length`) and the whole body.
using HttpAnswerSink = std::function<void(int status, const HttpHeaderList& headers, const QByteArray& body)>;

/// A request as the router and the resources read it, whatever brought it: the HTTP server's request (Qt 6.4
/// and 6.8 alike) or one made in this process (HttpApi::serve(), which needs one because QHttpServerRequest
/// cannot be made outside QtHttpServer). The accessors are named as QHttpServerRequest's.
class ApiRequest {
public:
    /// `method`: "GET", "POST", "PATCH", … (upper case). `url`: the request's target, path and query
    /// percent-encoded as sent ("/v1/projects/p/jobs/j/logs?pageSize=10"). `query`: its items as the HTTP server
    /// parsed them; parsed from `url` when not given.
    ApiRequest(QByteArray method, QUrl url, HttpHeaderList headers = {}, QByteArray body = {},
        std::optional<QUrlQuery> query = std::nullopt);

    const QByteArray& method() const { return m_method; }
    const QUrl& url() const { return m_url; }
    const QUrlQuery& query() const { return m_query; }
    const HttpHeaderList& headers() const { return m_headers; }
    const QByteArray& body() const { return m_body; }
    /// The value of the first header called `name` (compared case-insensitively, as HTTP does), trimmed; empty
    /// when there is none.
    QByteArray header(QByteArrayView name) const;
    /// The client's IP address ("127.0.0.1"); empty for a request made in this process (HttpApi::serve()).
    const QString& remoteAddress() const { return m_remoteAddress; }
    void setRemoteAddress(const QString& address) { m_remoteAddress = address; }

private:
    QByteArray m_method;
    QString m_remoteAddress;
    QUrl m_url;
    QUrlQuery m_query;
    HttpHeaderList m_headers;
    QByteArray m_body;
};

/// The executor's HTTP API: REST v1 shapes of `ml.googleapis.com/v1 projects.jobs` plus the
/// job-scoped extensions (replicas, logs, events) and the project catalogs. The exact endpoints,
/// JSON shapes, errors and streams are documented in app/executor/API.md (the contract that the
/// console and trainyardctl code against).
///
/// Every request must carry `Authorization: Bearer <token>`: the admin's token or an access token (401
/// otherwise), and the route's IAM permission on the resource it names (403 PERMISSION_DENIED otherwise;
/// API.md, "Access control"); everything else is answered with a JSON error in Google's shape
/// (`{"error":{"code","message","status","details"}}`). Nothing a client sends
/// can make it crash: bodies are capped (MaxBodyBytes), JSON is parsed defensively, and streams check
/// their socket (a QPointer) before every write.
///
/// Streams (`…/logs?follow=true`, `…:events`) are Server-Sent Events written with chunked framing
/// onto the request's socket; they end with an `end` event when the job is final.
///
/// Lives on the executor's main thread with the stores and the scheduler it serves.
///
/// Its member functions are the transport (httpapi.cpp, httpchannel.h, ssestream.h), authentication and the router
/// (router.cpp, routetable.h). What a caller may do is the Authorizer's (authorizer.h), what the audit log records the
/// AuditRecorder's (auditrecorder.h). Every resource is a handler class of its own — IamHandler, TokensHandler and
/// AuditLogsHandler; the prediction half's ModelsHandler, VersionsHandler, PredictHandler, OperationsHandler;
/// JobsHandler and a job's EventsHandler, LogsHandler, MetricsHandler, CheckpointsHandler, TrainedModelHandler; the
/// project's CatalogsHandler, RegionsHandler and LocationsHandler — which reaches the server only through ApiContext
/// (apicontext.h): the router dispatches to them after authentication, permission and audit.
class HttpApi : public QAbstractHttpServer {
    Q_OBJECT
public:
    /// Largest accepted request body (a Job with many args and a big hyperparameter spec is ~100 KiB).
    static constexpr qint64 MaxBodyBytes = 4 * 1024 * 1024;
    /// Default and maximum `pageSize` of `jobs.list` (the service's numbers).
    static constexpr int DefaultJobsPageSize = 20;
    static constexpr int MaxJobsPageSize = 100;
    /// Default and maximum `pageSize` of `…/logs`.
    static constexpr int DefaultLogsPageSize = 1000;
    static constexpr int MaxLogsPageSize = 10000;
    /// `…/checkpoints/{name}?tensor=`: tensors above this many bytes get no statistics or values.
    static constexpr qint64 MaxTensorValueBytes = 64 * 1024 * 1024;
    /// Default and maximum `values` (first N elements) of `…/checkpoints/{name}?tensor=`.
    static constexpr int DefaultTensorValues = 10;
    static constexpr int MaxTensorValues = 10000;

    /// The HTTP transport's timeouts and limits (API.md, "Connections, timeouts and limits"). The defaults are
    /// what users of nginx and Go's net/http servers expect of a server: a slow or silent client cannot hold a
    /// connection, and no client can take all of them. Times in milliseconds, sizes in bytes.
    struct TransportOptions {
        /// A request's head (request line and headers) must be complete this long after its first byte, or after
        /// the connection opened (Go's ReadHeaderTimeout; nginx's client_header_timeout is 60 s): else 408.
        int headerTimeoutMs = 10000;
        /// A request's body must be complete this long after its head (4 MiB at 140 KB/s): else 408.
        int bodyTimeoutMs = 30000;
        /// A keep-alive connection with no request for this long is closed (Go's IdleTimeout, nginx's
        /// keepalive_timeout is 75 s).
        int idleTimeoutMs = 30000;
        /// After an answer that closes the connection, what the client still sends is read and dropped for at most
        /// this long, so that the answer is not lost to a TCP reset (nginx's lingering_timeout).
        int lingerMs = 2000;
        /// The request line and headers together (431 past it; nginx allows 4 x 8 KiB, Go 1 MiB).
        int maxHeaderBytes = 64 * 1024;
        /// Header lines in one request (431 past it).
        int maxHeaderCount = 100;
        /// Open connections in all (429 RESOURCE_EXHAUSTED past it, then closed).
        int maxConnections = 1000;
        /// Open connections from one client address (429 past it). On loopback every local client shares one.
        int maxConnectionsPerAddress = 500;
        /// Open streams (follow, `:events`) of one principal (429 past it): the admin, or an access token's member.
        int maxStreamsPerPrincipal = 500;
        /// Answers of pipelined requests waiting to be sent: reading more requests pauses past it.
        qint64 maxPipelineBacklogBytes = 16 * 1024 * 1024;
        /// Calls that change something (Admin Activity routes), per principal, denied ones included: a token bucket
        /// of `writeBurst` calls refilled at `writesPerMinute` (the service's quota for resource management requests
        /// is 300 per minute; 429 RESOURCE_EXHAUSTED past it, the service's quota
        /// error). Each such call writes an audit entry, so a caller cannot grow the audit log faster than this.
        int writeBurst = 120;
        int writesPerMinute = 300;
    };

    /// `token`: the admin's bearer token (the token file's): it authenticates adminMember() with roles/ml.admin.
    /// `host`: this host's inventory (validation and catalogs).
    HttpApi(JobStore* store, LogStore* logs, Scheduler* scheduler, const HostInventory& host, const QByteArray& token,
        QObject* parent = nullptr);
    ~HttpApi() override;

    /// Default and maximum `pageSize` of `…/metrics?series=` (points).
    static constexpr int DefaultMetricsPageSize = 10000;
    static constexpr int MaxMetricsPageSize = 100000;

    /// Serves `…/jobs/{id}/metrics` from `metrics` (none: the endpoint answers UNAVAILABLE), through MetricsHandler.
    void setMetricsStore(MetricsStore* metrics);
    /// Serves models, versions, operations and `:predict` (app/executor/API.md "Models and versions") with
    /// `service` (not owned; none: those routes answer UNAVAILABLE), through their handlers (modelshandler.h,
    /// versionshandler.h, predicthandler.h, operationshandler.h).
    void setPredictionService(PredictionService* service);
    /// The rule for every path a request gives (PathPolicy: where job dirs, output folders and model folders may
    /// lie, and the executor's own folders that no path may touch; default: PathPolicy's default roots): checked on
    /// create (each path field's violations) and before any file under a job dir is served.
    void setPathPolicy(const PathPolicy& policy) { m_paths = policy; }

    /// Access control (app/executor/API.md, "Access control"): the access tokens and IAM policies of `access`
    /// (not owned; null: only the admin's token authenticates, as before tokens existed), and the principal that
    /// the admin's token authenticates (`admin`; empty: defaultAdminMember()).
    void setAccessControl(AccessStore* access, const QString& admin = {});
    /// `on` false: no route's IAM permission is checked (bench_api's "access control off"; with no access store the
    /// admin's token is then the only credential). For measurements only; the default is on.
    void setPermissionChecks(bool on) { m_checkPermissions = on; }
    /// Audit logs (app/executor/API.md, "Audit logs"): every call is recorded in `audit` (not owned; null: none is)
    /// by the router, from its route's audit method (AuditRecorder::methodOf()): Admin Activity entries always, Data
    /// Access entries when `dataAccess` is set (`trainyard-executor --audit-data-access`). The AuditRecorder's.
    void setAuditLog(AuditStore* audit, bool dataAccess);
    /// Records an action the executor takes on its own (principal `system`; app/executor/API.md lists the methods:
    /// trainyard.v1.Executor.Start, trainyard.v1.JobLifecycle.ExpireJob, …) as an Admin Activity entry of the job
    /// `project`/`jobId` (empty jobId: executor-wide, project "-"); `message` says what happened and why (it goes
    /// into protoPayload.metadata.message), `trialId` the trial it concerns, `metadata` more of protoPayload.metadata
    /// (the Start entry's previousHead). False with *error when the entry could not be written.
    bool auditSystemAction(const QString& project, const QString& jobId, const QString& methodName,
        const QString& message, const QString& trialId = {}, QString* error = nullptr,
        const QJsonObject& metadata = {});

    /// The principal of the user who runs the executor: "user:<login>@localhost" (the login of the process's
    /// user ID; "user:executor@localhost" when it has none).
    static QString defaultAdminMember();
    /// The principal that the admin's token authenticates.
    QString adminMember() const { return m_adminMember; }
    /// Serves the connections `server` accepts (it must be listening; it becomes this object's child) with the
    /// transport of httpconnection.h: HTTP/1.1 with keep-alive and pipelining, the timeouts and limits of
    /// TransportOptions. Hides QAbstractHttpServer::bind() on purpose: QtHttpServer 6.4 has no timeouts, ignores
    /// `Connection: close`, answers a request smuggled behind a Content-Length + Transfer-Encoding one and drops
    /// pipelined requests; the same transport serves Qt 6.4 and 6.8.
    void bind(QTcpServer* server);
    /// Timeouts and limits for connections accepted from now on (tests use short timeouts).
    void setTransportOptions(const TransportOptions& options)
    {
        m_transport = options;
        m_writeQuota.clear(); // every principal starts with a full burst of the new quota
    }
    const TransportOptions& transportOptions() const { return m_transport; }
    /// Connections open now (accepted and not yet closed), for tests and diagnostics.
    int openConnections() const { return int(m_connections.size()); }
    /// Bytes of answers that the open connections hold in this process, not yet taken by the kernel (for tests and
    /// diagnostics: what slow readers cost).
    qint64 bufferedBytes() const;

    /// Ends every open stream (each gets its terminating chunk) — call before shutting down.
    void closeStreams();
    /// Number of open SSE streams (for tests and diagnostics).
    int openStreams() const;
    /// Number of open SSE streams of `principal`.
    int openStreams(const QString& principal) const;
    /// How often the streams opened with access tokens are checked for tokens that expired (ms): such a stream
    /// ends at most this long after its token's expireTime; one whose token is revoked ends at once.
    static constexpr int TokenCheckMs = 5000;

    /// Answers `request` in this process as it is answered over HTTP: the same authentication, routing and
    /// resource handler, with no socket between (bench_executor measures what the executor itself costs with
    /// it). `done` runs once with the answer: before serve() returns when the handler answers at once, or later
    /// from this thread's event loop when it answers from the thread pool (a page of logs); a stream (`follow`)
    /// is collected and handed over whole when it ends. Main thread, as the rest of the API.
    void serve(const ApiRequest& request, HttpAnswerSink done);

    /// A buffered JSON answer (defined in apicommon.h, internal to the API's files).
    struct Reply;
    /// Who sent a request: the principal its token authenticates ("user:alice@example.org") and the role the
    /// token grants on every project ("roles/ml.viewer").
    struct Caller {
        QString member;
        QString role;
        QString tokenId; ///< the access token's id ("3f9a0c12d4e5b6a7"); empty for the admin's token
    };

    /// One route of the API: method ("GET"), path template ("/v1/projects/{project}/jobs/{job}:cancel")
    /// and the IAM permission it needs ("ml.jobs.cancel"; empty: any authenticated caller, testIamPermissions
    /// only, as the service's). See routetable.h.
    struct RouteInfo {
        QByteArray method;
        QString pattern;
        QString permission;
    };
    /// Every route the API serves, in matching order.
    static QList<RouteInfo> routes();
    /// What is wrong with the values `params` that `route`'s path captured, checked before anything uses them: the
    /// project ID rule (projectIdProblems(); "-" on the audit log only), and no NUL in any. Each violation names
    /// `parent` (a collection's path) or `name` (a resource's), as the service does.
    static FieldViolations pathViolations(const RouteInfo& route, const QHash<QString, QString>& params);

    /// `{"error":{…}}` in Google's shape; `violations` go into a google.rpc.BadRequest detail.
    static QJsonObject errorJson(
        int httpStatus, const QString& status, const QString& message, const FieldViolations& violations = {});
    /// The same for google.rpc code `code`: its name and its HTTP status (code.proto's mapping).
    static QJsonObject errorJson(RpcCode code, const QString& message, const FieldViolations& violations = {});

protected:
    // Qt 6.4 hands the request's socket to these; Qt 6.8 a responder (QtHttpServer 6.5–6.7 had a third
    // signature, which is not supported).
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    bool handleRequest(const QHttpServerRequest& request, QHttpServerResponder& responder) override;
    void missingHandler(const QHttpServerRequest& request, QHttpServerResponder& responder) override;
#elif QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
#error "QtHttpServer 6.5 to 6.7 are not supported: use Qt 6.4 (Debian 12) or Qt 6.8 or later (Debian 13)"
#else
    bool handleRequest(const QHttpServerRequest& request, QTcpSocket* socket) override;
    void missingHandler(const QHttpServerRequest& request, QTcpSocket* socket) override;
#endif

private:
    struct Routes;
    friend struct Routes;
    friend class HttpConnection;
    friend class HttpApiContext;
    static const Routes& routeTable();
    Reply route(const ApiRequest& request, const Caller& caller, const HttpChannelPtr& channel, bool* streaming);
    /// The caller of `request` from its bearer token: the admin's token, or an access token that is neither
    /// revoked nor expired. False with the reason in *problem (a 401 UNAUTHENTICATED).
    bool authenticate(const ApiRequest& request, Caller* caller, QString* problem) const;
    /// A connection accepted by a server of bind(): refused with 429 past the limits, else served.
    void accept(QTcpSocket* socket);
    /// `connection` is gone (HttpConnection's destructor).
    void connectionClosed(HttpConnection* connection);
    /// Answers one request; Qt 6.4 and 6.8 paths and serve() all end here.
    bool handle(const ApiRequest& request, const HttpChannelPtr& channel);
    void send(const HttpChannelPtr& channel, const Reply& reply);
    void addStream(SseStream* stream);
    /// Ends the open streams opened with access token `tokenId` (all of them when empty) whose token is revoked or
    /// expired now: an `error` event (401 UNAUTHENTICATED, the reason) and the stream's end.
    void endStreamsOfInvalidTokens(const QString& tokenId = {});

    JobStore* m_store;
    LogStore* m_logs;
    Scheduler* m_scheduler;
    HostInventory m_host;
    PathPolicy m_paths;
    QByteArray m_token;
    AccessStore* m_access = nullptr;
    bool m_checkPermissions = true;
    QString m_adminMember;
    QList<QPointer<SseStream>> m_streams;
    /// The principal of the request being routed: streams started while it is handled are counted as theirs.
    QString m_principal;
    /// The access token of the request being routed (empty: the admin's): its streams end when it is revoked.
    QString m_tokenId;
    QTimer* m_tokenCheck = nullptr;
    TransportOptions m_transport;
    /// Each principal's write quota (TransportOptions::writeBurst): calls left, and when it was last refilled.
    struct WriteQuota {
        double left = 0;
        qint64 refilledMs = 0;
    };
    QHash<QString, WriteQuota> m_writeQuota;
    /// Takes one call from `principal`'s write quota; false when none is left (*retryMs: when one will be).
    bool takeWriteQuota(const QString& principal, qint64* retryMs);
    QSet<HttpConnection*> m_connections;
    QHash<QString, int> m_connectionsPerAddress;
    PredictionService* m_prediction = nullptr;
    /// What the handlers below reach of this server (httpapi.cpp's HttpApiContext).
    std::unique_ptr<ApiContext> m_context;
    /// What a caller may do (the router's question before every handler; the IAM methods' policies).
    std::unique_ptr<Authorizer> m_authorizer;
    std::unique_ptr<IamHandler> m_iam;
    std::unique_ptr<TokensHandler> m_tokens;
    /// The prediction half's handlers: null while no PredictionService is set (their routes answer UNAVAILABLE).
    std::unique_ptr<ModelsHandler> m_models;
    std::unique_ptr<VersionsHandler> m_versions;
    std::unique_ptr<PredictHandler> m_predict;
    std::unique_ptr<OperationsHandler> m_operations;
    /// The training half's resources: jobs, a job's reads and the project's catalogs, each its resource's handler.
    std::unique_ptr<JobsHandler> m_jobs;
    std::unique_ptr<EventsHandler> m_events;
    std::unique_ptr<LogsHandler> m_logsHandler;
    std::unique_ptr<MetricsHandler> m_metricsHandler; ///< null while no MetricsStore is set
    std::unique_ptr<CheckpointsHandler> m_checkpointsHandler;
    std::unique_ptr<TrainedModelHandler> m_trainedModel;
    std::unique_ptr<HyperparameterImportanceHandler> m_importance;
    std::unique_ptr<CatalogsHandler> m_catalogs;
    std::unique_ptr<RegionsHandler> m_regions;
    std::unique_ptr<LocationsHandler> m_locations;
    /// What the audit log records, and how (auditrecorder.h); `…/auditLogs` reads it (AuditLogsHandler).
    std::unique_ptr<AuditRecorder> m_auditRecorder;
    std::unique_ptr<AuditLogsHandler> m_auditLogs;
};

} // namespace Trainyard
