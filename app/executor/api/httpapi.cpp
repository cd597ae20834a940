// SPDX-License-Identifier: GPL-2.0-or-later
// The transport side of HttpApi: lifetime, open streams, answers on a channel, and the Qt 6.4 / 6.8 entry
// points. Routing and authentication: router.cpp; audit: AuditRecorder (auditrecorder.cpp); every resource: its handler
// class
// (*handler.h), which reaches this server through ApiContext (HttpApiContext below).
#include "httpapi.h"
#include "apicommon.h"
#include "httpchannel.h"
#include "httpconnection.h"
#include "ssestream.h"

#include "accessstore.h"
#include "apicontext.h"
#include "auditlogshandler.h"
#include "auditrecorder.h"
#include "authorizer.h"
#include "catalogshandler.h"
#include "checkpointindex.h"
#include "checkpointshandler.h"
#include "eventshandler.h"
#include "iamhandler.h"
#include "jobshandler.h"
#include "locationshandler.h"
#include "logshandler.h"
#include "metricshandler.h"
#include "modelshandler.h"
#include "operationshandler.h"
#include "predicthandler.h"
#include "regionshandler.h"
#include "tokenshandler.h"
#include "hyperparameterimportancehandler.h"
#include "trainedmodelhandler.h"
#include "versionshandler.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMetaEnum>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QtConcurrent>

#include <pwd.h>
#include <unistd.h>

namespace Trainyard {

using namespace Api;

ApiRequest::ApiRequest(
    QByteArray method, QUrl url, HttpHeaderList headers, QByteArray body, std::optional<QUrlQuery> query)
    : m_method(std::move(method))
    , m_url(std::move(url))
    , m_query(query ? std::move(*query) : QUrlQuery(m_url))
    , m_headers(std::move(headers))
    , m_body(std::move(body))
{
}

QByteArray ApiRequest::header(QByteArrayView name) const
{
    for (const auto& [key, value] : m_headers) {
        if (QByteArrayView(key).compare(name, Qt::CaseInsensitive) == 0)
            return value.trimmed();
    }
    return {};
}

namespace {
/// The HTTP server's request as the router reads it.
ApiRequest apiRequest(const QHttpServerRequest& request)
{
    const QByteArray method
        = QByteArray(QMetaEnum::fromType<QHttpServerRequest::Method>().valueToKey(int(request.method()))).toUpper();
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    HttpHeaderList headers = request.headers().toListOfPairs();
#else
    HttpHeaderList headers = request.headers();
#endif
    ApiRequest api(method, request.url(), std::move(headers), request.body(), request.query());
    api.setRemoteAddress(request.remoteAddress().toString());
    return api;
}
} // namespace

/// What the resource handlers reach of the server (ApiContext): its settings as they are now, its deferred answers
/// and its streams.
class HttpApiContext final : public ApiContext {
public:
    explicit HttpApiContext(HttpApi* api)
        : m_api(api)
    {
    }
    const HostInventory& hostInventory() const override { return m_api->m_host; }
    const PathPolicy& pathPolicy() const override { return m_api->m_paths; }
    AccessStore* accessStore() const override { return m_api->m_access; }
    PredictionService* predictionService() const override { return m_api->m_prediction; }
    void sendLater(const HttpChannelPtr& channel, const HttpApi::Reply& reply) override { m_api->send(channel, reply); }
    void runLater(const HttpChannelPtr& channel, std::function<HttpApi::Reply()> work) override
    {
        auto* watcher = new QFutureWatcher<HttpApi::Reply>(m_api);
        QObject::connect(watcher, &QFutureWatcher<HttpApi::Reply>::finished, m_api, [api = m_api, watcher, channel] {
            watcher->deleteLater();
            api->send(channel, watcher->result());
        });
        watcher->setFuture(QtConcurrent::run(std::move(work)));
    }
    void endStreamsOfToken(const QString& tokenId) override { m_api->endStreamsOfInvalidTokens(tokenId); }
    SseStream* openStream(const HttpChannelPtr& channel, const QByteArray& label) override
    {
        auto* stream = new SseStream(channel, m_api);
        m_api->addStream(stream);
        stream->start(label);
        return stream;
    }

private:
    HttpApi* m_api;
};

HttpApi::HttpApi(JobStore* store, LogStore* logs, Scheduler* scheduler, const HostInventory& host,
    const QByteArray& token, QObject* parent)
    : QAbstractHttpServer(parent)
    , m_store(store)
    , m_logs(logs)
    , m_scheduler(scheduler)
    , m_host(host)
    , m_token(token)
    , m_adminMember(defaultAdminMember())
    , m_context(std::make_unique<HttpApiContext>(this))
    , m_authorizer(std::make_unique<Authorizer>(store))
    , m_iam(std::make_unique<IamHandler>(m_authorizer.get(), store))
    , m_tokens(std::make_unique<TokensHandler>(m_context.get(), m_authorizer.get()))
    , m_jobs(std::make_unique<JobsHandler>(m_context.get(), store, scheduler))
    , m_events(std::make_unique<EventsHandler>(m_context.get(), store, scheduler))
    , m_logsHandler(std::make_unique<LogsHandler>(m_context.get(), store, logs))
    , m_checkpointsHandler(std::make_unique<CheckpointsHandler>(m_context.get(), store))
    , m_trainedModel(std::make_unique<TrainedModelHandler>(m_context.get(), store))
    , m_importance(std::make_unique<HyperparameterImportanceHandler>(m_context.get(), store))
    , m_catalogs(std::make_unique<CatalogsHandler>(m_context.get(), scheduler))
    , m_regions(std::make_unique<RegionsHandler>(m_context.get(), store, scheduler))
    , m_locations(std::make_unique<LocationsHandler>(scheduler))
    , m_auditRecorder(std::make_unique<AuditRecorder>(store))
    , m_auditLogs(std::make_unique<AuditLogsHandler>(m_auditRecorder.get(), m_authorizer.get()))
{
}

HttpApi::~HttpApi()
{
    closeStreams();
    // Before the members they count themselves out of are gone.
    const QSet<HttpConnection*> connections = std::exchange(m_connections, {});
    qDeleteAll(connections);
}

QString HttpApi::defaultAdminMember()
{
    // The login of the user the process runs as (not $USER, which the environment may say anything in).
    QString login;
    if (const passwd* entry = ::getpwuid(::getuid()); entry && entry->pw_name)
        login = QString::fromLocal8Bit(entry->pw_name);
    if (login.isEmpty())
        login = QStringLiteral("executor");
    // arg(), not QStringBuilder: GCC 12 warns (-Warray-bounds) on a concatenation it thinks may copy from the
    // shared empty string, once a unity build inlines this here.
    return QStringLiteral("user:%1@localhost").arg(login);
}

void HttpApi::setAccessControl(AccessStore* access, const QString& admin)
{
    m_access = access;
    m_authorizer->setAccessStore(access);
    m_adminMember = admin.isEmpty() ? defaultAdminMember() : admin;
}

void HttpApi::setAuditLog(AuditStore* audit, bool dataAccess)
{
    m_auditRecorder->setStore(audit, dataAccess);
}

bool HttpApi::auditSystemAction(const QString& project, const QString& jobId, const QString& methodName,
    const QString& message, const QString& trialId, QString* error, const QJsonObject& metadata)
{
    return m_auditRecorder->systemAction(project, jobId, methodName, message, trialId, error, metadata);
}

void HttpApi::setMetricsStore(MetricsStore* metrics)
{
    m_metricsHandler = metrics ? std::make_unique<MetricsHandler>(m_context.get(), m_store, metrics) : nullptr;
}

void HttpApi::setPredictionService(PredictionService* service)
{
    m_prediction = service;
    m_authorizer->setPredictionService(service);
    m_models = service ? std::make_unique<ModelsHandler>(m_context.get(), service) : nullptr;
    m_versions = service ? std::make_unique<VersionsHandler>(m_context.get(), service) : nullptr;
    m_predict = service ? std::make_unique<PredictHandler>(m_context.get(), service) : nullptr;
    m_operations = service ? std::make_unique<OperationsHandler>(service) : nullptr;
}

void HttpApi::bind(QTcpServer* server)
{
    server->setParent(this);
    connect(server, &QTcpServer::newConnection, this, [this, server] {
        while (QTcpSocket* socket = server->nextPendingConnection())
            accept(socket);
    });
    // QTcpServer stops accepting after an error such as EMFILE (out of descriptors); it must not stay stopped once
    // connections have been closed again.
    connect(server, &QTcpServer::acceptError, this, [server](QAbstractSocket::SocketError error) {
        qCWarning(lcApi) << "accepting a connection failed:" << error << server->errorString();
        QTimer::singleShot(100, server, [server] { server->resumeAccepting(); });
    });
}

void HttpApi::accept(QTcpSocket* socket)
{
    // Past the limits a connection is answered 429 and closed, which takes up to TransportOptions::lingerMs; past
    // this many more it is dropped at once, so that a flood of connections cannot use up the descriptors.
    constexpr int RefusedMargin = 100;
    const QString address = socket->peerAddress().toString();
    if (m_connections.size() >= m_transport.maxConnections + RefusedMargin) {
        socket->abort();
        socket->deleteLater();
        return;
    }
    // A full house makes room first: the oldest connection that never carried a valid token and waits for a request
    // is closed. Else 500 idle connections without a token (from 127.0.0.1, where every local client shares one
    // address) refused the console and trainyardctl with 429 for as long as they were renewed. A connection that
    // authenticated once is never closed for another.
    const auto evictOne = [this](const QString& from) {
        HttpConnection* oldest = nullptr;
        for (HttpConnection* c : std::as_const(m_connections)) {
            if (c->isEvictable() && (from.isEmpty() || c->address() == from)
                && (!oldest || c->acceptOrder() < oldest->acceptOrder()))
                oldest = c;
        }
        if (oldest)
            oldest->evict();
    };
    if (m_connections.size() >= m_transport.maxConnections)
        evictOne(QString());
    if (m_connectionsPerAddress.value(address) >= m_transport.maxConnectionsPerAddress)
        evictOne(address);
    auto* connection = new HttpConnection(this, socket);
    m_connections.insert(connection);
    const int fromAddress = ++m_connectionsPerAddress[address];
    if (m_connections.size() > m_transport.maxConnections) {
        connection->refuse(RpcCode::ResourceExhausted,
            QStringLiteral("The executor has %1 open connections, its limit; try again later.")
                .arg(m_transport.maxConnections));
    } else if (fromAddress > m_transport.maxConnectionsPerAddress) {
        connection->refuse(RpcCode::ResourceExhausted,
            QStringLiteral("%1 has %2 open connections, the limit per client address; close one and try again.")
                .arg(address)
                .arg(m_transport.maxConnectionsPerAddress));
    } else {
        connection->start();
    }
}

qint64 HttpApi::bufferedBytes() const
{
    qint64 bytes = 0;
    for (const HttpConnection* c : m_connections)
        bytes += c->pendingBytes();
    return bytes;
}

void HttpApi::connectionClosed(HttpConnection* connection)
{
    if (!m_connections.remove(connection))
        return;
    const auto it = m_connectionsPerAddress.find(connection->address());
    if (it != m_connectionsPerAddress.end() && --*it <= 0)
        m_connectionsPerAddress.erase(it);
}

void HttpApi::closeStreams()
{
    const auto streams = std::exchange(m_streams, {});
    for (const QPointer<SseStream>& stream : streams) {
        if (stream)
            stream->finish(true);
    }
}

int HttpApi::openStreams(const QString& principal) const
{
    int count = 0;
    for (const QPointer<SseStream>& stream : m_streams) {
        if (stream && !stream->isFinished() && stream->principal == principal)
            ++count;
    }
    return count;
}

int HttpApi::openStreams() const
{
    int count = 0;
    for (const QPointer<SseStream>& stream : m_streams) {
        if (stream && !stream->isFinished())
            ++count;
    }
    return count;
}

void HttpApi::addStream(SseStream* stream)
{
    m_streams.removeIf([](const QPointer<SseStream>& s) { return s.isNull(); });
    stream->principal = m_principal;
    stream->tokenId = m_tokenId;
    m_streams.append(stream);
    // A token can expire while its streams run: they are checked every TokenCheckMs while any is open.
    if (!m_tokenId.isEmpty() && m_access) {
        if (!m_tokenCheck) {
            m_tokenCheck = new QTimer(this);
            m_tokenCheck->setInterval(TokenCheckMs);
            connect(m_tokenCheck, &QTimer::timeout, this, [this] { endStreamsOfInvalidTokens(); });
        }
        if (!m_tokenCheck->isActive())
            m_tokenCheck->start();
    }
}

void HttpApi::endStreamsOfInvalidTokens(const QString& tokenId)
{
    if (!m_access)
        return;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QHash<QString, QString> why; // token id → the reason it is invalid ("" when valid), looked up once
    bool anyTokenStream = false;
    const auto streams = m_streams;
    for (const QPointer<SseStream>& stream : streams) {
        if (!stream || stream->isFinished() || stream->tokenId.isEmpty())
            continue;
        if (!tokenId.isEmpty() && stream->tokenId != tokenId) {
            anyTokenStream = true;
            continue;
        }
        auto it = why.find(stream->tokenId);
        if (it == why.end()) {
            const std::optional<TokenRecord> token = m_access->token(stream->tokenId);
            QString reason;
            if (!token || token->revoked)
                reason = QStringLiteral("The access token tokens/%1 has been revoked.").arg(stream->tokenId);
            else if (token->isExpired(now))
                reason = QStringLiteral("The access token tokens/%1 expired at %2.")
                             .arg(stream->tokenId, token->expireTime.toString(Qt::ISODate));
            it = why.insert(stream->tokenId, reason);
        }
        if (it->isEmpty()) {
            anyTokenStream = true;
            continue;
        }
        // As the 401 that a new request with the token gets, as an event, then the end.
        stream->writeEvent("error",
            QJsonDocument(errorJson(RpcCode::Unauthenticated,
                              QStringLiteral("Request had invalid authentication credentials. ") + *it))
                .toJson(QJsonDocument::Compact));
        stream->finish(true);
    }
    if (!anyTokenStream && m_tokenCheck)
        m_tokenCheck->stop();
}

QJsonObject HttpApi::errorJson(RpcCode code, const QString& message, const FieldViolations& violations)
{
    return errorJson(Rpc::httpStatus(code), Rpc::name(code), message, violations);
}

QJsonObject HttpApi::errorJson(
    int httpStatus, const QString& status, const QString& message, const FieldViolations& violations)
{
    QJsonObject error {
        { QStringLiteral("code"), httpStatus },
        { QStringLiteral("message"), message },
        { QStringLiteral("status"), status },
    };
    if (!violations.isEmpty()) {
        QJsonArray list;
        for (const FieldViolation& v : violations)
            list.append(
                QJsonObject { { QStringLiteral("field"), v.field }, { QStringLiteral("description"), v.description } });
        error.insert(QStringLiteral("details"),
            QJsonArray { QJsonObject {
                { QStringLiteral("@type"), QStringLiteral("type.googleapis.com/google.rpc.BadRequest") },
                { QStringLiteral("fieldViolations"), list },
            } });
    }
    return QJsonObject { { QStringLiteral("error"), error } };
}

void HttpApi::send(const HttpChannelPtr& channel, const Reply& reply)
{
    QList<QPair<QByteArray, QByteArray>> headers { { "Content-Type", "application/json; charset=utf-8" },
        { "Cache-Control", "no-store" } };
    headers += reply.headers;
    channel->reply(reply.status, headers, reply.body);
}

void HttpApi::serve(const ApiRequest& request, HttpAnswerSink done)
{
    handle(request, std::make_shared<HttpChannel>(std::move(done)));
}

bool HttpApi::handle(const ApiRequest& request, const HttpChannelPtr& channel)
{
    bool streaming = false;
    Reply reply;
    QString problem;
    Caller caller;
    if (!authenticate(request, &caller, &problem)) {
        reply = errorReply(RpcCode::Unauthenticated, problem);
        reply.headers.append(qMakePair(QByteArray("WWW-Authenticate"), QByteArray("Bearer realm=\"trainyard\"")));
    } else if (request.body().size() > MaxBodyBytes) {
        reply = errorReply(413, Rpc::name(RpcCode::InvalidArgument),
            QStringLiteral("Request body is larger than %1 bytes.").arg(MaxBodyBytes));
    } else {
        if (HttpConnection* connection = channel->connection())
            connection->markTrusted();
        // The stream limit counts per principal (TransportOptions::maxStreamsPerPrincipal).
        m_principal = caller.member;
        m_tokenId = caller.tokenId;
        reply = route(request, caller, channel, &streaming);
        m_principal.clear();
        m_tokenId.clear();
    }
    qCDebug(lcApi).noquote() << request.method() << request.url().path() << (streaming ? 200 : reply.status);
    if (!streaming)
        send(channel, reply);
    return true;
}

#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
bool HttpApi::handleRequest(const QHttpServerRequest& request, QHttpServerResponder& responder)
{
    // The request's socket is a child of its connection handler, which is a child of this server;
    // the peer's port tells the connections on loopback apart.
    QTcpSocket* socket = nullptr;
    const auto sockets = findChildren<QTcpSocket*>();
    for (QTcpSocket* s : sockets) {
        if (s->peerPort() == request.remotePort() && s->localPort() == request.localPort()) {
            socket = s;
            break;
        }
    }
    return handle(apiRequest(request), std::make_shared<HttpChannel>(std::move(responder), socket));
}

void HttpApi::missingHandler(const QHttpServerRequest& request, QHttpServerResponder& responder)
{
    // handle() answers every request; this only runs if Qt changes that contract.
    send(std::make_shared<HttpChannel>(std::move(responder), nullptr),
        errorReply(RpcCode::NotFound,
            QStringLiteral("The requested URL %1 was not found on this server.").arg(request.url().path())));
}
#else
bool HttpApi::handleRequest(const QHttpServerRequest& request, QTcpSocket* socket)
{
    return handle(apiRequest(request), std::make_shared<HttpChannel>(socket));
}

void HttpApi::missingHandler(const QHttpServerRequest& request, QTcpSocket* socket)
{
    // handle() answers every request; this only runs if Qt changes that contract.
    send(std::make_shared<HttpChannel>(socket),
        errorReply(RpcCode::NotFound,
            QStringLiteral("The requested URL %1 was not found on this server.").arg(request.url().path())));
}
#endif

} // namespace Trainyard
