// SPDX-License-Identifier: GPL-2.0-or-later
#include "httpapi.h"
#include "routetable.h"

#include "checkpointindex.h"
#include "checkpointreader.h"
#include "jobfilter.h"
#include "jobstore.h"
#include "logentry.h"
#include "logstore.h"
#include "metricsstore.h"
#include "scheduler.h"
#include "staging.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMetaEnum>
#include <QSet>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>
#include <QtConcurrent>

#include <climits>
#include <cmath>
#include <functional>

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcApi, "trainyard.executor")

/// Replies larger than this are not buffered further for a slow stream client: it is dropped.
constexpr qint64 MaxStreamBacklogBytes = 64 * 1024 * 1024;
/// Silence on a stream longer than this gets a comment so proxies and clients see it is alive.
constexpr int KeepaliveMs = 15000;
/// After a job became final, late log lines of exiting replicas (and the scheduler's closing
/// `service` lines) may still be on their way through the event loop; give them this long.
constexpr int EndSettleMs = 250;

QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

#if QT_VERSION < QT_VERSION_CHECK(6, 8, 0)
/// The reason phrase of the status line (Qt 6.8 writes its own).
QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 413:
        return "Payload Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Unknown";
    }
}
#endif

QString jobName(const QString& project, const QString& jobId)
{
    return QStringLiteral("projects/") + project + QStringLiteral("/jobs/") + jobId;
}

QString encodePageToken(const QString& kind, const QString& value)
{
    const QByteArray raw = (kind + QLatin1Char(':') + value).toUtf8();
    return QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

/// Decodes a token made by encodePageToken for `kind`; false when it is not one.
bool decodePageToken(const QString& token, const QString& kind, QString* value)
{
    const auto decoded = QByteArray::fromBase64Encoding(
        token.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    const QString text = QString::fromUtf8(*decoded);
    const QString prefix = kind + QLatin1Char(':');
    if (!text.startsWith(prefix))
        return false;
    *value = text.mid(prefix.size());
    return true;
}

/// Parses `pageSize`: empty = default; above the maximum = the maximum (as the service); else a
/// non-negative integer (0 = default).
bool parsePageSize(const QString& text, int defaultSize, int maxSize, int* size)
{
    if (text.isEmpty()) {
        *size = defaultSize;
        return true;
    }
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    if (!ok || value < 0)
        return false;
    *size = value == 0 ? defaultSize : int(std::min<qlonglong>(value, maxSize));
    return true;
}

QJsonArray intArray(const QList<int>& values)
{
    QJsonArray array;
    for (int v : values)
        array.append(v);
    return array;
}

QJsonObject gpuToJson(const GpuInfo& gpu)
{
    return QJsonObject {
        { QStringLiteral("index"), gpu.index },
        { QStringLiteral("uuid"), gpu.uuid },
        { QStringLiteral("name"), gpu.name },
        { QStringLiteral("acceleratorType"), gpu.acceleratorType },
        { QStringLiteral("memoryBytes"), QString::number(gpu.memoryBytes) },
    };
}

QString queryValue(const QUrlQuery& query, const QString& key)
{
    return query.queryItemValue(key, QUrl::FullyDecoded);
}

bool isTrue(const QString& value)
{
    return value == QLatin1String("true") || value == QLatin1String("1");
}

} // namespace

/// Where the answer to one request goes. Qt 6.4 hands QAbstractHttpServer the request's socket, and
/// the answer is written onto it as raw HTTP/1.1. Qt 6.8 hands it a QHttpServerResponder, which is
/// moved in here and written through (Qt frames the status line, the headers and the chunks); the
/// request's socket is then only watched, for disconnects and for a client that stops reading. The
/// channel may outlive the connection (deferred answers, streams): every write checks it first.
class HttpChannel {
public:
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    HttpChannel(QHttpServerResponder&& responder, QTcpSocket* socket)
        : m_socket(socket)
        , m_responder(std::move(responder))
    {
    }
#else
    explicit HttpChannel(QTcpSocket* socket)
        : m_socket(socket)
    {
    }
#endif

    /// The request's socket; null once it is gone (and, on Qt 6.8, when it could not be found).
    QTcpSocket* socket() const
    {
        return m_socket;
    }

    /// False once the answer is complete or the peer is gone.
    bool isOpen() const
    {
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
        if (!m_responder)
            return false;
        return !m_watched || (m_socket && m_socket->state() == QAbstractSocket::ConnectedState);
#else
        return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
#endif
    }

    /// Bytes written but not yet sent to the peer (0 when unknown).
    qint64 backlog() const
    {
        return m_socket ? m_socket->bytesToWrite() : 0;
    }

    /// A complete answer with a body (`Content-Length` is added).
    void reply(int status, const QList<QPair<QByteArray, QByteArray>>& headers, const QByteArray& body)
    {
        if (!isOpen())
            return;
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
        m_responder->write(body, toHttpHeaders(headers), QHttpServerResponder::StatusCode(status));
        m_responder.reset(); // the connection reads its next request
#else
        QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
        head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
        for (const auto& [key, value] : headers)
            head += key + ": " + value + "\r\n";
        head += "\r\n";
        m_socket->write(head);
        m_socket->write(body);
#endif
    }

    /// Starts a `200 OK` answer with chunked framing (on Qt 6.4 with `Connection: close`).
    void beginChunked(const QList<QPair<QByteArray, QByteArray>>& headers)
    {
        if (!isOpen())
            return;
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
        m_responder->writeBeginChunked(toHttpHeaders(headers), QHttpServerResponder::StatusCode::Ok);
#else
        QByteArray head = "HTTP/1.1 200 OK\r\n";
        for (const auto& [key, value] : headers)
            head += key + ": " + value + "\r\n";
        head += "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n";
        m_socket->write(head);
#endif
    }

    void writeChunk(const QByteArray& payload)
    {
        if (!isOpen() || payload.isEmpty())
            return;
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
        m_responder->writeChunk(payload);
#else
        m_socket->write(QByteArray::number(payload.size(), 16) + "\r\n");
        m_socket->write(payload);
        m_socket->write("\r\n");
#endif
    }

    /// Ends a chunked answer: the terminating chunk when `graceful`, then the connection is closed.
    void endChunked(bool graceful)
    {
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
        // Qt writes a last chunk (it refuses an empty one, hence the comment) and the terminating one;
        // the connection then serves the client's next request. Closing it here instead would delete the
        // socket (Qt owns it) with the end still unsent.
        if (graceful && isOpen())
            m_responder->writeEndChunked(QByteArrayLiteral(": end of stream\n\n"));
        else if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
            m_socket->abort();
        m_responder.reset();
#else
        if (!isOpen())
            return;
        if (graceful) {
            m_socket->write("0\r\n\r\n");
            m_socket->disconnectFromHost();
        } else {
            m_socket->abort();
        }
#endif
    }

private:
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    static QHttpHeaders toHttpHeaders(const QList<QPair<QByteArray, QByteArray>>& headers)
    {
        QHttpHeaders result;
        for (const auto& [key, value] : headers)
            result.append(key, value);
        return result;
    }
#endif

    QPointer<QTcpSocket> m_socket;
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    std::optional<QHttpServerResponder> m_responder;
    bool m_watched = !m_socket.isNull();
#endif
};

/// One Server-Sent Events response on a request's channel, with chunked framing (so `curl -N` and
/// QNetworkAccessManager both see each event as it is written). The connection belongs to the HTTP
/// server; it may go away at any time, so every write checks the channel first. `cleanup` runs exactly
/// once, when the stream ends for any reason (unsubscribe from stores there).
class SseStream : public QObject {
public:
    SseStream(HttpChannelPtr channel, QObject* parent)
        : QObject(parent)
        , m_channel(std::move(channel))
    {
        if (QTcpSocket* socket = m_channel->socket()) {
            connect(socket, &QAbstractSocket::disconnected, this, [this] { finish(false); });
            connect(socket, &QObject::destroyed, this, [this] { finish(false); });
        }
        m_keepalive.setInterval(KeepaliveMs);
        connect(&m_keepalive, &QTimer::timeout, this, [this] { writeChunk(QByteArrayLiteral(": keepalive\n\n")); });
    }
    ~SseStream() override { runCleanup(); }

    std::function<void()> cleanup;

    /// Writes the status line, the headers and a first comment, so that clients see the stream start.
    void start(const QByteArray& comment)
    {
        m_channel->beginChunked({ { "Content-Type", "text/event-stream; charset=utf-8" },
            { "Cache-Control", "no-cache" }, { "X-Accel-Buffering", "no" } });
        writeChunk(": " + comment + "\n\n");
        m_keepalive.start();
    }

    void writeEvent(const QByteArray& event, const QByteArray& data)
    {
        QByteArray payload;
        payload.reserve(event.size() + data.size() + 16);
        if (!event.isEmpty())
            payload += "event: " + event + '\n';
        payload += "data: " + data + "\n\n";
        writeChunk(payload);
    }

    void writeChunk(const QByteArray& payload)
    {
        if (m_finished || payload.isEmpty())
            return;
        if (!m_channel->isOpen()) {
            finish(false);
            return;
        }
        if (m_channel->backlog() > MaxStreamBacklogBytes) {
            qCWarning(lcApi) << "dropping a stream client that does not read (more than" << MaxStreamBacklogBytes
                             << "bytes pending)";
            finish(false);
            return;
        }
        m_channel->writeChunk(payload);
        m_keepalive.start();
    }

    bool isFinished() const { return m_finished; }

    /// Ends the stream: the terminating chunk when `graceful` and the connection is still there, then
    /// the connection is closed and this object deleted later.
    void finish(bool graceful = true)
    {
        if (m_finished)
            return;
        m_finished = true;
        m_keepalive.stop();
        runCleanup();
        m_channel->endChunked(graceful);
        deleteLater();
    }

private:
    void runCleanup()
    {
        if (cleanup) {
            auto fn = std::move(cleanup);
            cleanup = nullptr;
            fn();
        }
    }

    HttpChannelPtr m_channel;
    QTimer m_keepalive;
    bool m_finished = false;
};

struct HttpApi::Reply {
    int status = 200;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
};

namespace {
HttpApi::Reply jsonReply(const QJsonObject& object, int status = 200)
{
    HttpApi::Reply reply;
    reply.status = status;
    reply.body = compact(object);
    return reply;
}

HttpApi::Reply errorReply(
    int httpStatus, const QString& status, const QString& message, const FieldViolations& violations = {})
{
    return jsonReply(HttpApi::errorJson(httpStatus, status, message, violations), httpStatus);
}

HttpApi::Reply jobNotFound(const QString& project, const QString& jobId)
{
    return errorReply(404, QStringLiteral("NOT_FOUND"),
        QStringLiteral("Field: name Error: The specified job does not exist: ") + jobName(project, jobId)
            + QLatin1Char('.'));
}

HttpApi::Reply invalidArgument(const QString& field, const QString& description)
{
    return errorReply(400, QStringLiteral("INVALID_ARGUMENT"),
        QStringLiteral("Field: ") + field + QStringLiteral(" Error: ") + description,
        { FieldViolation { field, description } });
}

/// Parses a request body as a JSON object, or explains why it is not one (the service's wording).
std::optional<QJsonObject> parseBody(const QByteArray& body, HttpApi::Reply* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = errorReply(400, QStringLiteral("INVALID_ARGUMENT"),
            QStringLiteral("Invalid JSON payload received. %1 at offset %2.")
                .arg(body.trimmed().isEmpty() ? QStringLiteral("Empty body") : parseError.errorString())
                .arg(parseError.offset));
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = errorReply(400, QStringLiteral("INVALID_ARGUMENT"),
            QStringLiteral("Invalid JSON payload received. Expected a JSON object."));
        return std::nullopt;
    }
    return doc.object();
}

HttpApi::Reply decodeErrorReply(const FieldViolations& violations)
{
    QString message = QStringLiteral("Invalid JSON payload received. ") + violations.first().field
        + QStringLiteral(": ") + violations.first().description;
    if (violations.size() > 1)
        message += QStringLiteral(" (and %1 more)").arg(violations.size() - 1);
    return errorReply(400, QStringLiteral("INVALID_ARGUMENT"), message, violations);
}
} // namespace

HttpApi::HttpApi(JobStore* store, LogStore* logs, Scheduler* scheduler, const HostInventory& host,
    const QByteArray& token, QObject* parent)
    : QAbstractHttpServer(parent)
    , m_store(store)
    , m_logs(logs)
    , m_scheduler(scheduler)
    , m_host(host)
    , m_token(token)
    , m_checkpoints(std::make_shared<CheckpointIndex>())
{
}

HttpApi::~HttpApi()
{
    closeStreams();
}

void HttpApi::closeStreams()
{
    const auto streams = std::exchange(m_streams, {});
    for (const QPointer<SseStream>& stream : streams) {
        if (stream)
            stream->finish(true);
    }
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
    m_streams.append(stream);
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

bool HttpApi::authorized(const QHttpServerRequest& request, QString* problem) const
{
    QByteArray header;
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    header = request.headers().value(QHttpHeaders::WellKnownHeader::Authorization).toByteArray().trimmed();
#else
    const auto headers = request.headers();
    for (const auto& [key, value] : headers) {
        if (key.compare("Authorization", Qt::CaseInsensitive) == 0) {
            header = value.trimmed();
            break;
        }
    }
#endif
    if (header.isEmpty()) {
        *problem = QStringLiteral("Request is missing required authentication credential. Expected a bearer token "
                                  "(Authorization: Bearer <token>; the token is in the file named by "
                                  "\"tokenFile\" in the executor's runtime file).");
        return false;
    }
    const QByteArray scheme = "bearer ";
    QByteArray presented;
    if (header.size() > scheme.size() && header.left(scheme.size()).toLower() == scheme)
        presented = header.mid(scheme.size()).trimmed();
    // Constant-time comparison: the answer time must not tell how much of a guess was right.
    bool same = !m_token.isEmpty() && presented.size() == m_token.size();
    unsigned char diff = 0;
    for (qsizetype i = 0; same && i < m_token.size(); ++i)
        diff |= static_cast<unsigned char>(presented.at(i) ^ m_token.at(i));
    if (!same || diff != 0) {
        *problem = QStringLiteral("Request had invalid authentication credentials. Expected the executor's "
                                  "bearer token (Authorization: Bearer <token>).");
        return false;
    }
    return true;
}

void HttpApi::send(const HttpChannelPtr& channel, const Reply& reply)
{
    QList<QPair<QByteArray, QByteArray>> headers { { "Content-Type", "application/json; charset=utf-8" },
        { "Cache-Control", "no-store" } };
    headers += reply.headers;
    channel->reply(reply.status, headers, reply.body);
}

bool HttpApi::handle(const QHttpServerRequest& request, const HttpChannelPtr& channel)
{
    bool streaming = false;
    Reply reply;
    QString problem;
    if (!authorized(request, &problem)) {
        reply = errorReply(401, QStringLiteral("UNAUTHENTICATED"), problem);
        reply.headers.append(qMakePair(QByteArray("WWW-Authenticate"), QByteArray("Bearer realm=\"trainyard\"")));
    } else if (request.body().size() > MaxBodyBytes) {
        reply = errorReply(413, QStringLiteral("INVALID_ARGUMENT"),
            QStringLiteral("Request body is larger than %1 bytes.").arg(MaxBodyBytes));
    } else {
        reply = route(request, channel, &streaming);
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
    return handle(request, std::make_shared<HttpChannel>(std::move(responder), socket));
}

void HttpApi::missingHandler(const QHttpServerRequest& request, QHttpServerResponder& responder)
{
    // handle() answers every request; this only runs if Qt changes that contract.
    send(std::make_shared<HttpChannel>(std::move(responder), nullptr),
        errorReply(404, QStringLiteral("NOT_FOUND"),
            QStringLiteral("The requested URL %1 was not found on this server.").arg(request.url().path())));
}
#else
bool HttpApi::handleRequest(const QHttpServerRequest& request, QTcpSocket* socket)
{
    return handle(request, std::make_shared<HttpChannel>(socket));
}

void HttpApi::missingHandler(const QHttpServerRequest& request, QTcpSocket* socket)
{
    // handle() answers every request; this only runs if Qt changes that contract.
    send(std::make_shared<HttpChannel>(socket),
        errorReply(404, QStringLiteral("NOT_FOUND"),
            QStringLiteral("The requested URL %1 was not found on this server.").arg(request.url().path())));
}
#endif

namespace {

/// What a route's handler gets: the request, the path's captures, and the channel for deferred answers
/// and streams.
struct Call {
    HttpApi* api;
    const QHttpServerRequest& request;
    const QHash<QString, QString>& params;
    const HttpChannelPtr& channel;
    bool* streaming;
    QString operator[](const char* name) const { return params.value(QLatin1String(name)); }
};

} // namespace

/// The API's routes, one line each: method, path template, IAM permission, handler. The permissions are
/// the service's (AI Platform Training's IAM: ml.jobs.* for jobs and what hangs off a job, ml.projects.getConfig
/// for a project's catalogs); every extension under a job needs what reading the job needs.
struct HttpApi::Routes {
    using Handler = std::function<HttpApi::Reply(const Call&)>;
    RouteTable<Handler> table;

    Routes()
    {
        const QString jobs = QStringLiteral("/v1/projects/{project}/jobs");
        const QString job = jobs + QStringLiteral("/{job}");
        table.add("GET", jobs, QStringLiteral("ml.jobs.list"),
            [](const Call& c) { return c.api->listJobs(c.request, c["project"], c.channel, c.streaming); });
        table.add("POST", jobs, QStringLiteral("ml.jobs.create"),
            [](const Call& c) { return c.api->createJob(c.request, c["project"]); });
        table.add("GET", job, QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->getJob(c["project"], c["job"]); });
        table.add("PATCH", job, QStringLiteral("ml.jobs.update"),
            [](const Call& c) { return c.api->patchJob(c.request, c["project"], c["job"]); });
        table.add("POST", job + QStringLiteral(":cancel"), QStringLiteral("ml.jobs.cancel"),
            [](const Call& c) { return c.api->cancelJob(c["project"], c["job"]); });
        table.add("GET", job + QStringLiteral(":events"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->events(c.request, c["project"], c["job"], c.channel, c.streaming); });
        table.add("GET", job + QStringLiteral("/replicas"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->replicas(c["project"], c["job"]); });
        table.add("GET", job + QStringLiteral("/logs"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->logs(c.request, c["project"], c["job"], c.channel, c.streaming); });
        table.add("GET", job + QStringLiteral("/metrics"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->metrics(c.request, c["project"], c["job"], c.channel, c.streaming); });
        table.add("GET", job + QStringLiteral("/checkpoints"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->checkpoints(c["project"], c["job"], c.channel, c.streaming); });
        // A checkpoint name is a relative path: one segment with %2F, or several plain ones.
        table.add("GET", job + QStringLiteral("/checkpoints/{name=**}"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) {
                return c.api->checkpoint(c.request, c["project"], c["job"], c["name"], c.channel, c.streaming);
            });
        for (const char* catalog : { "scaleTiers", "machineTypes", "acceleratorTypes", "runtimeVersions" }) {
            const QString what = QLatin1String(catalog);
            table.add("GET", QStringLiteral("/v1/projects/{project}/") + what, QStringLiteral("ml.projects.getConfig"),
                [what](const Call& c) { return c.api->catalog(what); });
        }
        table.add("GET", QStringLiteral("/v1/projects/{project}/host"), QStringLiteral("ml.projects.getConfig"),
            [](const Call& c) { return c.api->host(); });
    }
};

const HttpApi::Routes& HttpApi::routeTable()
{
    static const Routes routes;
    return routes;
}

QList<HttpApi::RouteInfo> HttpApi::routes()
{
    QList<RouteInfo> list;
    for (const auto& r : routeTable().table.routes())
        list << RouteInfo { r.method, r.pattern, r.permission };
    return list;
}

HttpApi::Reply HttpApi::route(const QHttpServerRequest& request, const HttpChannelPtr& channel, bool* streaming)
{
    using Method = QHttpServerRequest::Method;
    const Method method = request.method();
    const QString encodedPath = request.url().path(QUrl::FullyEncoded);
    const Reply notFound = errorReply(404, QStringLiteral("NOT_FOUND"),
        QStringLiteral("The requested URL %1 was not found on this server.").arg(request.url().path()));
    if (!encodedPath.startsWith(QLatin1Char('/')))
        return notFound;
    QStringList segments;
    for (const QString& part : encodedPath.mid(1).split(QLatin1Char('/')))
        segments.append(QUrl::fromPercentEncoding(part.toUtf8()));
    const QByteArray methodName = QByteArray(QMetaEnum::fromType<Method>().valueToKey(int(method))).toUpper();
    const auto match = routeTable().table.match(methodName, segments);
    switch (match.kind) {
    case RouteTable<Routes::Handler>::Match::Kind::NotFound:
        return notFound;
    case RouteTable<Routes::Handler>::Match::Kind::MethodNotAllowed: {
        Reply reply = errorReply(405, QStringLiteral("UNIMPLEMENTED"),
            QStringLiteral("Method %1 is not allowed on %2; allowed: %3.")
                .arg(QString::fromLatin1(methodName), request.url().path(), QString::fromLatin1(match.allowed)));
        reply.headers.append(qMakePair(QByteArray("Allow"), match.allowed));
        return reply;
    }
    case RouteTable<Routes::Handler>::Match::Kind::Found:
        break;
    }
    // Authorisation goes here, once for every route: today the bearer token (checked before routing) grants
    // every permission; the route's permission is what a principal's role will be checked against.
    qCDebug(lcApi).noquote() << methodName << request.url().path() << "needs" << match.route->permission;
    return match.route->handler(Call { this, request, match.params, channel, streaming });
}

HttpApi::Reply HttpApi::createJob(const QHttpServerRequest& request, const QString& project)
{
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations;
    Job job = JobJson::fromJson(*body, &violations);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);

    // Output-only fields are ignored on create, as the service ignores them.
    job.createTime.clear();
    job.startTime.clear();
    job.endTime.clear();
    job.state.clear();
    job.errorMessage.clear();
    job.etag.clear();
    job.jobPosition.reset();
    job.trainingOutput.reset();

    violations = validateJob(job, MachineCatalog::builtin(), m_host);
    if (!violations.isEmpty())
        return errorReply(400, QStringLiteral("INVALID_ARGUMENT"),
            QStringLiteral("Request contains an invalid argument."), violations);
    const auto alreadyExists = [](const QString& holder, const QString& project) {
        // Job IDs are unique in the executor for now (see JobStore): say so when another project holds it.
        const QString description = holder.isEmpty() || holder == project
            ? QStringLiteral("A job with this id already exists.")
            : QStringLiteral("A job with this id already exists in project %1; job IDs are unique across the "
                             "executor's projects.")
                  .arg(holder);
        return errorReply(409, QStringLiteral("ALREADY_EXISTS"),
            QStringLiteral("Field: job.job_id Error: ") + description,
            { FieldViolation { QStringLiteral("jobId"), description } });
    };
    if (const QString holder = m_store->projectOf(job.jobId); !holder.isEmpty())
        return alreadyExists(holder, project);

    job.createTime = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    job.state = JobState::Queued;
    QString storeError;
    if (!m_store->insert(project, job, &storeError)) {
        if (const QString holder = m_store->projectOf(job.jobId); !holder.isEmpty())
            return alreadyExists(holder, project);
        qCWarning(lcApi).noquote() << "create" << job.jobId << "failed:" << storeError;
        return errorReply(500, QStringLiteral("INTERNAL"), QStringLiteral("Cannot store the job: ") + storeError);
    }
    qCInfo(lcApi).noquote() << "job" << jobName(project, job.jobId) << "created";
    const std::optional<Job> stored = m_store->job(project, job.jobId);
    if (!stored)
        return errorReply(500, QStringLiteral("INTERNAL"), QStringLiteral("The stored job cannot be read back."));
    // The scheduler writes the service's first log lines ("Validating job requirements...") and queues it.
    m_scheduler->submit(*stored);
    // The scheduler may already have moved it on (position in the queue, PREPARING).
    return jsonReply(JobJson::toJson(m_store->job(project, job.jobId).value_or(*stored)));
}

HttpApi::Reply HttpApi::getJob(const QString& project, const QString& jobId)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    return jsonReply(JobJson::toJson(*job));
}

HttpApi::Reply HttpApi::listJobs(
    const QHttpServerRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming)
{
    const QUrlQuery query = request.query();
    if (isTrue(queryValue(query, QStringLiteral("follow"))))
        return watchJobs(request, project, channel, streaming);
    const QString filterText = queryValue(query, QStringLiteral("filter"));
    QString filterError;
    const std::optional<JobFilter> filter = JobFilter::parse(filterText, &filterError);
    if (!filter)
        return invalidArgument(QStringLiteral("filter"), filterError);
    int pageSize = 0;
    if (!parsePageSize(queryValue(query, QStringLiteral("pageSize")), DefaultJobsPageSize, MaxJobsPageSize, &pageSize))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));

    // Newest first; a page token names the last job of the previous page, so a page stays stable
    // while new jobs are created (they go in front) — jobs are never deleted.
    QString afterId;
    const QString pageToken = queryValue(query, QStringLiteral("pageToken"));
    if (!pageToken.isEmpty() && !decodePageToken(pageToken, QStringLiteral("jobs"), &afterId))
        return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of this list"));
    QList<JobRecord> page;
    bool more = false;
    QString storeError;
    if (!m_store->listPage(project, *filter, pageSize, afterId, &page, &more, &storeError)) {
        if (!afterId.isEmpty())
            return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of this list"));
        return errorReply(500, QStringLiteral("INTERNAL"), QStringLiteral("Cannot list the jobs: ") + storeError);
    }
    // The stored records are the jobs' API JSON (JobStore writes JobJson::toJson): spliced in as they
    // are, a page costs no decoding and no encoding. Keys in the order QJsonDocument writes them.
    Reply reply;
    reply.body = "{";
    if (!page.isEmpty()) {
        reply.body += "\"jobs\":[";
        for (qsizetype i = 0; i < page.size(); ++i) {
            if (i > 0)
                reply.body += ',';
            reply.body += page.at(i).json;
        }
        reply.body += ']';
    }
    if (more) {
        if (!page.isEmpty())
            reply.body += ',';
        reply.body
            += "\"nextPageToken\":\"" + encodePageToken(QStringLiteral("jobs"), page.last().jobId).toLatin1() + '"';
    }
    reply.body += '}';
    return reply;
}

namespace {
/// The job stream's cursor: which database (JobStore::storeId) and the last revision seen.
QByteArray jobsCursor(const QString& storeId, qint64 revision)
{
    return storeId.toLatin1() + '.' + QByteArray::number(revision);
}
} // namespace

HttpApi::Reply HttpApi::watchJobs(
    const QHttpServerRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming)
{
    const QUrlQuery query = request.query();
    if (!queryValue(query, QStringLiteral("filter")).isEmpty())
        return invalidArgument(QStringLiteral("filter"),
            QStringLiteral("is not supported with follow=true; the stream sends every job of the project"));
    // Resume: `since=CURSOR` (or the SSE `Last-Event-ID` header, which EventSource clients send by
    // themselves) from this database sends only the jobs written after it. A cursor of another
    // database, or from this one's future (a restored backup), gets `reset` and everything.
    QByteArray cursor = queryValue(query, QStringLiteral("since")).toLatin1();
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    if (cursor.isEmpty())
        cursor = request.headers().value("Last-Event-ID").toByteArray().trimmed();
#else
    if (cursor.isEmpty()) {
        for (const auto& [key, value] : request.headers()) {
            if (key.compare("Last-Event-ID", Qt::CaseInsensitive) == 0)
                cursor = value.trimmed();
        }
    }
#endif
    const qint64 now = m_store->revision();
    qint64 since = 0;
    bool reset = false;
    if (!cursor.isEmpty()) {
        const qsizetype dot = cursor.lastIndexOf('.');
        bool ok = false;
        const qint64 revision = dot > 0 ? cursor.mid(dot + 1).toLongLong(&ok) : 0;
        if (!ok || revision < 0)
            return invalidArgument(QStringLiteral("since"), QStringLiteral("is not a cursor of this stream"));
        if (cursor.left(dot) == m_store->storeId().toLatin1() && revision <= now)
            since = revision;
        else
            reset = true;
    }

    *streaming = true;
    auto* stream = new SseStream(channel, this);
    addStream(stream);
    stream->start("jobs of " + project.toUtf8());
    const QString storeId = m_store->storeId();
    QPointer<SseStream> guard(stream);
    // Subscribed before the snapshot is read, on the same thread: no write can fall between the two.
    connect(m_store, &JobStore::jobStored, stream, [guard, project, storeId](const JobRecord& record, const Job&) {
        if (!guard || record.project != project)
            return;
        guard->writeChunk(
            "id: " + jobsCursor(storeId, record.revision) + "\nevent: job\ndata: " + record.json + "\n\n");
    });
    if (reset)
        stream->writeEvent("reset", "{}");
    const QList<JobRecord> snapshot = m_store->changedSince(project, since);
    QByteArray out;
    for (const JobRecord& record : snapshot) {
        out += "id: " + jobsCursor(storeId, record.revision) + "\nevent: job\ndata: " + record.json + "\n\n";
        if (out.size() > 256 * 1024) {
            stream->writeChunk(out);
            out.clear();
        }
    }
    stream->writeChunk(out);
    // The end of the snapshot: a client shows its list from here on, and resumes from this cursor.
    stream->writeChunk("id: " + jobsCursor(storeId, now) + "\nevent: synced\ndata: "
        + compact(QJsonObject { { QStringLiteral("cursor"), QString::fromLatin1(jobsCursor(storeId, now)) },
            { QStringLiteral("jobs"), QString::number(snapshot.size()) } })
        + "\n\n");
    return {};
}

HttpApi::Reply HttpApi::cancelJob(const QString& project, const QString& jobId)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    const auto alreadyDone = [] {
        return errorReply(
            400, QStringLiteral("FAILED_PRECONDITION"), QStringLiteral("Cannot cancel an already completed job."));
    };
    if (JobState::isFinal(job->state))
        return alreadyDone();
    if (job->state != JobState::Cancelling && !m_scheduler->cancel(jobId)) {
        const std::optional<Job> now = m_store->job(project, jobId);
        if (!now || JobState::isFinal(now->state))
            return alreadyDone();
    }
    qCInfo(lcApi).noquote() << "job" << jobId << "cancel requested";
    return jsonReply(QJsonObject {});
}

HttpApi::Reply HttpApi::patchJob(const QHttpServerRequest& request, const QString& project, const QString& jobId)
{
    const QString mask = queryValue(request.query(), QStringLiteral("updateMask"));
    if (mask.isEmpty())
        return invalidArgument(
            QStringLiteral("updateMask"), QStringLiteral("is required; only \"labels\" can be updated"));
    const QStringList paths = mask.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& path : paths) {
        if (path.trimmed() != QLatin1String("labels"))
            return invalidArgument(QStringLiteral("updateMask"),
                QStringLiteral("\"%1\" cannot be updated; only \"labels\" can").arg(path.trimmed()));
    }
    std::optional<Job> current = m_store->job(project, jobId);
    if (!current)
        return jobNotFound(project, jobId);
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations;
    const Job patch = JobJson::fromJson(*body, &violations);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);
    violations = labelViolations(patch.labels);
    if (!violations.isEmpty())
        return errorReply(400, QStringLiteral("INVALID_ARGUMENT"),
            QStringLiteral("Request contains an invalid argument."), violations);
    if (!patch.etag.isEmpty() && patch.etag != current->etag)
        return errorReply(409, QStringLiteral("ABORTED"),
            QStringLiteral("The etag does not match the job's current etag: the job was changed since it "
                           "was read. Read it again and retry."));
    current->labels = patch.labels;
    QString storeError;
    if (!m_store->update(*current, &storeError))
        return errorReply(500, QStringLiteral("INTERNAL"), QStringLiteral("Cannot store the job: ") + storeError);
    return jsonReply(JobJson::toJson(m_store->job(project, jobId).value_or(*current)));
}

HttpApi::Reply HttpApi::replicas(const QString& project, const QString& jobId)
{
    if (!m_store->contains(project, jobId))
        return jobNotFound(project, jobId);
    QJsonArray list;
    const QList<ReplicaInfo> replicas = m_scheduler->replicas(jobId);
    for (const ReplicaInfo& r : replicas)
        list.append(r.toJson());
    return jsonReply(QJsonObject { { QStringLiteral("replicas"), list } });
}

namespace {
using Formats::CheckpointInfo;
using Formats::CheckpointReader;
using Formats::TensorInfo;

QJsonObject tensorToJson(const TensorInfo& t, const QDir& root)
{
    QJsonArray shape;
    for (qint64 d : t.shape)
        shape.append(QString::number(d));
    QJsonObject o {
        { QStringLiteral("name"), t.name },
        { QStringLiteral("displayName"), t.displayName },
        { QStringLiteral("dtype"), t.dtype },
        { QStringLiteral("shape"), shape },
        { QStringLiteral("shard"), t.shard },
        { QStringLiteral("file"), root.relativeFilePath(t.file) },
    };
    if (t.elementType != Formats::ElementType::Other)
        o.insert(QStringLiteral("elementType"), Formats::elementTypeName(t.elementType));
    if (t.size >= 0)
        o.insert(QStringLiteral("sizeBytes"), QString::number(t.size));
    if (t.isMetadata)
        o.insert(QStringLiteral("metadata"), true);
    return o;
}

QString checkpointMessage(const QString& project, const QString& jobId, const QString& name, const QString& why)
{
    return QStringLiteral("Checkpoint \"%1\" of %2: %3.").arg(name, jobName(project, jobId), why);
}

/// Reads checkpoint `name` of a job dir and answers with its tensors, or with statistics and the
/// first values of one of them. Runs on the thread pool: touches nothing but its arguments.
HttpApi::Reply readCheckpoint(const QString& project, const QString& jobId, const QString& jobDir, const QString& name,
    const QString& tensorName, int values)
{
    QString path;
    QString why;
    switch (CheckpointIndex::resolve(jobDir, name, &path, &why)) {
    case CheckpointIndex::Resolution::Ok:
        break;
    case CheckpointIndex::Resolution::Invalid:
        return invalidArgument(QStringLiteral("name"), QStringLiteral("\"%1\" %2").arg(name, why));
    case CheckpointIndex::Resolution::Outside:
        return errorReply(403, QStringLiteral("PERMISSION_DENIED"), checkpointMessage(project, jobId, name, why));
    case CheckpointIndex::Resolution::NotFound:
        return errorReply(404, QStringLiteral("NOT_FOUND"), checkpointMessage(project, jobId, name, why));
    }
    const QString root = QFileInfo(jobDir).canonicalFilePath();
    QString resolved;
    if (CheckpointReader::detect(path, &resolved).isEmpty())
        return errorReply(404, QStringLiteral("NOT_FOUND"),
            checkpointMessage(project, jobId, name, QStringLiteral("not a checkpoint")));
    QString error;
    const std::optional<CheckpointInfo> info = CheckpointReader::read(path, &error);
    if (!info)
        return errorReply(500, QStringLiteral("DATA_LOSS"),
            checkpointMessage(project, jobId, name, QStringLiteral("cannot be read: ") + error));
    // A shard, a safetensors part or a state file's target may lead elsewhere (a symlink, an absolute
    // path): every byte served must come from inside the job dir.
    QSet<QString> files(info->files.cbegin(), info->files.cend());
    for (const TensorInfo& t : info->tensors)
        files.insert(t.file);
    for (const QString& f : std::as_const(files)) {
        if (!CheckpointIndex::isInside(root, QFileInfo(f).canonicalFilePath()))
            return errorReply(403, QStringLiteral("PERMISSION_DENIED"),
                checkpointMessage(project, jobId, name,
                    QStringLiteral("its file %1 lies outside the job dir").arg(QFileInfo(f).fileName())));
    }
    QString format = info->format;
    if (QFileInfo(path).isDir()
        && (QFileInfo::exists(path + QStringLiteral("/saved_model.pb"))
            || QFileInfo::exists(path + QStringLiteral("/saved_model.pbtxt"))))
        format = QStringLiteral("tf-saved-model");

    const QDir rootDir(root);
    QJsonObject result {
        { QStringLiteral("name"), name },
        { QStringLiteral("format"), format },
    };
    if (tensorName.isNull()) {
        QJsonArray tensors;
        for (const TensorInfo& t : info->tensors)
            tensors.append(tensorToJson(t, rootDir));
        QJsonObject scalars;
        for (auto it = info->scalars.cbegin(); it != info->scalars.cend(); ++it)
            scalars.insert(it.key(), QJsonValue::fromVariant(it.value()));
        QStringList relFiles;
        for (const QString& f : info->files)
            relFiles.append(rootDir.relativeFilePath(f));
        result.insert(QStringLiteral("totalBytes"), QString::number(info->totalBytes()));
        result.insert(QStringLiteral("files"), QJsonArray::fromStringList(relFiles));
        result.insert(QStringLiteral("tensors"), tensors);
        if (!scalars.isEmpty())
            result.insert(QStringLiteral("scalars"), scalars);
        if (!info->metadata.isEmpty())
            result.insert(QStringLiteral("metadata"), info->metadata);
        return jsonReply(result);
    }

    const TensorInfo* tensor = info->find(tensorName);
    if (!tensor)
        return errorReply(404, QStringLiteral("NOT_FOUND"),
            checkpointMessage(project, jobId, name, QStringLiteral("has no tensor named \"%1\"").arg(tensorName)));
    result.insert(QStringLiteral("tensor"), tensorToJson(*tensor, rootDir));
    const int elementSize = Formats::elementSize(tensor->elementType);
    if (elementSize == 0)
        return errorReply(400, QStringLiteral("FAILED_PRECONDITION"),
            QStringLiteral("Tensor \"%1\": values of dtype %2 are not decoded.").arg(tensorName, tensor->dtype));
    const qint64 count = tensor->elementCount();
    if (count < 0 || count > HttpApi::MaxTensorValueBytes / elementSize || tensor->size > HttpApi::MaxTensorValueBytes)
        return errorReply(400, QStringLiteral("FAILED_PRECONDITION"),
            QStringLiteral("Tensor \"%1\" has %2 elements of %3 bytes; values and statistics are read for tensors "
                           "of at most %4 bytes.")
                .arg(tensorName)
                .arg(count)
                .arg(elementSize)
                .arg(HttpApi::MaxTensorValueBytes));
    const auto stats = CheckpointReader::tensorStats(*info, *tensor, HttpApi::MaxTensorValueBytes, values, &error);
    if (!stats)
        return errorReply(500, QStringLiteral("DATA_LOSS"),
            QStringLiteral("Tensor \"%1\" cannot be read: %2").arg(tensorName, error));
    QJsonObject statistics = stats->toJson();
    // int64 counts as strings, as everywhere in this API.
    statistics.insert(QStringLiteral("count"), QString::number(stats->count));
    statistics.insert(QStringLiteral("nanCount"), QString::number(stats->nanCount));
    statistics.insert(QStringLiteral("infCount"), QString::number(stats->infCount));
    result.insert(QStringLiteral("statistics"), statistics);
    return jsonReply(result);
}

/// The job dir the executor reads checkpoints from, or why there is none to read.
bool localJobDir(const Job& job, QString* dir, HttpApi::Reply* error)
{
    *dir = job.trainingInput.jobDir;
    if (dir->contains(QLatin1String("://"))) {
        *error = errorReply(400, QStringLiteral("FAILED_PRECONDITION"),
            QStringLiteral("The job dir %1 is not a local folder; checkpoints are listed for local job dirs only.")
                .arg(*dir));
        return false;
    }
    if (!dir->isEmpty())
        *dir = QFileInfo(*dir).absoluteFilePath();
    return true;
}
} // namespace

void HttpApi::answerLater(const HttpChannelPtr& channel, std::function<Reply()> work)
{
    auto* watcher = new QFutureWatcher<Reply>(this);
    connect(watcher, &QFutureWatcher<Reply>::finished, this, [this, watcher, channel] {
        watcher->deleteLater();
        send(channel, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

HttpApi::Reply HttpApi::checkpoints(
    const QString& project, const QString& jobId, const HttpChannelPtr& channel, bool* deferred)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    QString dir;
    Reply error;
    if (!localJobDir(*job, &dir, &error))
        return error;
    const bool trials = job->trainingInput.hyperparameters.has_value();
    *deferred = true;
    answerLater(channel, [index = m_checkpoints, dir, trials]() -> Reply {
        bool truncated = false;
        const QList<CheckpointEntry> entries = index->scan(dir, trials, &truncated);
        QJsonArray list;
        for (const CheckpointEntry& e : entries)
            list.append(e.toJson());
        QJsonObject result { { QStringLiteral("checkpoints"), list } };
        if (!dir.isEmpty())
            result.insert(QStringLiteral("jobDir"), dir);
        if (truncated)
            result.insert(QStringLiteral("truncated"), true);
        return jsonReply(result);
    });
    return {};
}

HttpApi::Reply HttpApi::checkpoint(const QHttpServerRequest& request, const QString& project, const QString& jobId,
    const QString& name, const HttpChannelPtr& channel, bool* deferred)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    QString dir;
    Reply error;
    if (!localJobDir(*job, &dir, &error))
        return error;
    const QUrlQuery query = request.query();
    QString tensor;
    if (query.hasQueryItem(QStringLiteral("tensor"))) {
        tensor = queryValue(query, QStringLiteral("tensor"));
        if (tensor.isEmpty())
            return invalidArgument(QStringLiteral("tensor"), QStringLiteral("must name a tensor of the checkpoint"));
    }
    int values = DefaultTensorValues;
    const QString valuesText = queryValue(query, QStringLiteral("values"));
    if (!valuesText.isEmpty()) {
        bool ok = false;
        const qlonglong n = valuesText.toLongLong(&ok);
        if (!ok || n < 0)
            return invalidArgument(QStringLiteral("values"), QStringLiteral("must be a non-negative integer"));
        values = int(std::min<qlonglong>(n, MaxTensorValues));
    }
    *deferred = true;
    answerLater(channel, [project, jobId, dir, name, tensor, values]() {
        return readCheckpoint(project, jobId, dir, name, tensor, values);
    });
    return {};
}

HttpApi::Reply HttpApi::logs(const QHttpServerRequest& request, const QString& project, const QString& jobId,
    const HttpChannelPtr& channel, bool* streaming)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    const QUrlQuery query = request.query();
    const QString taskName = queryValue(query, QStringLiteral("taskName"));
    const QString severity = queryValue(query, QStringLiteral("severity")).toUpper();
    if (!severity.isEmpty() && !parseLogSeverity(severity))
        return invalidArgument(QStringLiteral("severity"),
            QStringLiteral("must be one of ") + logSeverityNames().join(QStringLiteral(", ")));
    const QString contains = queryValue(query, QStringLiteral("contains"));
    int pageSize = 0;
    if (!parsePageSize(queryValue(query, QStringLiteral("pageSize")), DefaultLogsPageSize, MaxLogsPageSize, &pageSize))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));
    qint64 offset = 0;
    const QString pageToken = queryValue(query, QStringLiteral("pageToken"));
    if (!pageToken.isEmpty()) {
        QString value;
        bool ok = false;
        if (decodePageToken(pageToken, QStringLiteral("logs"), &value))
            offset = value.toLongLong(&ok);
        if (!ok || offset < 0)
            return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of these logs"));
    }

    if (!isTrue(queryValue(query, QStringLiteral("follow")))) {
        // Read on the pool: a page of a big log is a few preads, but indexing what a restart left unindexed
        // reads the whole files once.
        *streaming = true;
        answerLater(channel,
            [request = m_logs->prepareRead(jobId, LogQuery { taskName, severity, contains, offset, pageSize + 1 }),
                offset, pageSize]() {
                const QList<QByteArray> lines = LogStore::readLines(request);
                QByteArray body;
                const qsizetype count = std::min<qsizetype>(lines.size(), pageSize);
                qsizetype bytes = 64;
                for (qsizetype i = 0; i < count; ++i)
                    bytes += lines.at(i).size() + 1;
                body.reserve(bytes);
                body += "{\"entries\":[";
                for (qsizetype i = 0; i < count; ++i) {
                    if (i > 0)
                        body += ',';
                    body += lines.at(i);
                }
                body += ']';
                if (lines.size() > pageSize)
                    body += ",\"nextPageToken\":\""
                        + encodePageToken(QStringLiteral("logs"), QString::number(offset + pageSize)).toLatin1() + '"';
                body += '}';
                Reply reply;
                reply.body = body;
                return reply;
            });
        return {};
    }

    *streaming = true;
    auto* stream = new SseStream(channel, this);
    addStream(stream);
    stream->start("following " + jobId.toUtf8());

    // Live entries wait here while the backlog is read on the pool, and are written after it.
    struct Follow {
        bool backlogDone = false;
        QByteArray held;
        QString endState; ///< the job ended while the backlog was read: end after it
    };
    auto follow = std::make_shared<Follow>();

    // Deliver what other subscribers still have pending, so our subscription starts exactly after
    // what the files hold now: nothing is sent twice and nothing is missed.
    m_logs->flush();
    const LogSeverity minSeverity = logSeverityFromName(severity);
    QPointer<SseStream> guard(stream);
    const int subscription
        = m_logs->subscribe(jobId, [guard, taskName, minSeverity, contains, follow](const QList<LogEntry>& batch) {
              if (!guard || guard->isFinished())
                  return;
              QByteArray out;
              for (const LogEntry& e : batch) {
                  if (!taskName.isEmpty() && e.taskName != taskName)
                      continue;
                  if (e.severityLevel() < minSeverity)
                      continue;
                  if (!contains.isEmpty() && !e.message.contains(contains))
                      continue;
                  out += "data: " + e.toJsonLine() + "\n\n";
              }
              if (follow->backlogDone)
                  guard->writeChunk(out);
              else
                  follow->held += out;
          });
    QPointer<LogStore> logStore(m_logs);
    auto end = [guard, logStore, follow](const QString& state) {
        if (!guard || guard->isFinished())
            return;
        if (!follow->backlogDone) {
            follow->endState = state;
            return;
        }
        if (logStore)
            logStore->flush(); // hands our subscriber whatever is still pending
        if (!guard || guard->isFinished())
            return;
        guard->writeEvent("end", compact(QJsonObject { { QStringLiteral("state"), state } }));
        guard->finish(true);
    };

    // The backlog: taken now (subscribed above, with no event in between, so it ends exactly where the
    // subscription starts) and read on the pool in slices, each written when it arrives; the next slice
    // waits while the client has much unread. A `contains` filter scans the files, so it reads in one go.
    constexpr int BacklogSlice = 10000;
    const LogStore::ReadRequest backlog = m_logs->prepareRead(
        jobId, LogQuery { taskName, severity, contains, offset, contains.isEmpty() ? BacklogSlice : INT_MAX });
    auto readSlice = std::make_shared<std::function<void(qint64)>>();
    std::weak_ptr<std::function<void(qint64)>> weakRead = readSlice;
    *readSlice = [this, guard, channel, backlog, follow, end, weakRead](qint64 after) {
        LogStore::ReadRequest slice = backlog;
        slice.query.afterIndex = after;
        auto* watcher = new QFutureWatcher<QList<QByteArray>>(this);
        connect(watcher, &QFutureWatcher<QList<QByteArray>>::finished, this,
            [watcher, guard, channel, slice, follow, end, weakRead] {
                watcher->deleteLater();
                const auto again = weakRead.lock();
                if (!guard || guard->isFinished() || !again)
                    return;
                const QList<QByteArray> lines = watcher->result();
                QByteArray out;
                for (const QByteArray& line : lines) {
                    out += "data: " + line + "\n\n";
                    if (out.size() > 256 * 1024) {
                        guard->writeChunk(out);
                        out.clear();
                    }
                }
                guard->writeChunk(out);
                if (lines.size() == slice.query.limit && slice.query.limit != INT_MAX) {
                    const qint64 next = slice.query.afterIndex + lines.size();
                    QTcpSocket* socket = channel->socket();
                    if (socket && channel->backlog() > 4 * 1024 * 1024)
                        connect(
                            socket, &QTcpSocket::bytesWritten, guard, [again, next] { (*again)(next); },
                            Qt::SingleShotConnection);
                    else
                        (*again)(next);
                    return;
                }
                follow->backlogDone = true;
                guard->writeChunk(follow->held);
                follow->held.clear();
                if (!follow->endState.isEmpty())
                    end(follow->endState);
            });
        watcher->setFuture(QtConcurrent::run([slice] { return LogStore::readLines(slice); }));
    };
    // The stream owns the reader: it ends with the stream, and a slice in flight then finds it gone.
    stream->cleanup = [logStore, subscription, keep = readSlice]() mutable {
        if (logStore)
            logStore->unsubscribe(subscription);
        keep.reset();
    };
    (*readSlice)(offset);

    auto ending = std::make_shared<bool>(false);
    auto onJob = [guard, jobId, end, ending](const Job& changed) {
        if (changed.jobId != jobId || !JobState::isFinal(changed.state) || *ending)
            return;
        *ending = true;
        const QString state = changed.state;
        QTimer::singleShot(EndSettleMs, guard, [end, state] { end(state); });
    };
    connect(m_store, &JobStore::jobChanged, stream, onJob);
    onJob(*job);
    return {};
}

HttpApi::Reply HttpApi::events(const QHttpServerRequest& request, const QString& project, const QString& jobId,
    const HttpChannelPtr& channel, bool* streaming)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    const bool follow = isTrue(queryValue(request.query(), QStringLiteral("follow")));

    *streaming = true;
    auto* stream = new SseStream(channel, this);
    addStream(stream);
    stream->start("events " + jobId.toUtf8());
    QPointer<SseStream> guard(stream);
    QPointer<Scheduler> scheduler(m_scheduler);
    auto sendReplicas = [guard, scheduler, jobId] {
        if (!guard || guard->isFinished() || !scheduler)
            return;
        QJsonArray list;
        const QList<ReplicaInfo> replicas = scheduler->replicas(jobId);
        for (const ReplicaInfo& r : replicas)
            list.append(r.toJson());
        guard->writeEvent("replicas", compact(QJsonObject { { QStringLiteral("replicas"), list } }));
    };
    stream->writeEvent("job", compact(JobJson::toJson(*job)));
    sendReplicas();
    if (!follow) {
        stream->finish(true);
        return {};
    }

    auto ending = std::make_shared<bool>(false);
    auto onJob = [guard, jobId, sendReplicas, ending](const Job& changed, bool announce) {
        if (changed.jobId != jobId || !guard || *ending)
            return;
        if (announce)
            guard->writeEvent("job", compact(JobJson::toJson(changed)));
        if (!JobState::isFinal(changed.state))
            return;
        *ending = true;
        const QString state = changed.state;
        QTimer::singleShot(EndSettleMs, guard, [guard, sendReplicas, state] {
            if (!guard || guard->isFinished())
                return;
            sendReplicas();
            guard->writeEvent("end", compact(QJsonObject { { QStringLiteral("state"), state } }));
            guard->finish(true);
        });
    };
    connect(m_store, &JobStore::jobChanged, stream, [onJob](const Job& changed) { onJob(changed, true); });
    connect(m_scheduler, &Scheduler::replicasChanged, stream, [jobId, sendReplicas, ending](const QString& id) {
        if (id == jobId && !*ending)
            sendReplicas();
    });
    onJob(*job, false);
    return {};
}

namespace {
/// A double as JSON: shortest round-trip digits; NaN and infinities as proto3 JSON strings.
QByteArray metricNumber(double v)
{
    if (std::isnan(v))
        return QByteArrayLiteral("\"NaN\"");
    if (std::isinf(v))
        return v > 0 ? QByteArrayLiteral("\"Infinity\"") : QByteArrayLiteral("\"-Infinity\"");
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

/// `{"step":"N","wallTime":W,"value":V}` for each point, comma-separated (built by hand: a series can hold
/// millions of points).
void appendPointsJson(QByteArray& out, const QList<MetricPoint>& points)
{
    for (qsizetype i = 0; i < points.size(); ++i) {
        const MetricPoint& p = points.at(i);
        if (i > 0)
            out += ',';
        out += "{\"step\":\"" + QByteArray::number(p.step) + "\",\"wallTime\":" + metricNumber(p.wallTime)
            + ",\"value\":" + metricNumber(p.value) + '}';
    }
}

QJsonObject seriesToJson(const MetricSeriesInfo& s)
{
    QJsonObject o {
        { QStringLiteral("name"), s.name },
        { QStringLiteral("kind"), s.key.kind },
        { QStringLiteral("tag"), s.key.tag },
        { QStringLiteral("points"), QString::number(s.pointCount) },
        { QStringLiteral("lastSeq"), QString::number(s.lastSeq) },
    };
    if (!s.key.run.isEmpty())
        o.insert(QStringLiteral("run"), s.key.run);
    if (!s.key.taskName.isEmpty())
        o.insert(QStringLiteral("taskName"), s.key.taskName);
    if (!s.key.trialId.isEmpty())
        o.insert(QStringLiteral("trialId"), s.key.trialId);
    return o;
}

/// One `points` event: `{"series":NAME,"points":[…]}`.
QByteArray pointsEvent(const QString& series, const QList<MetricPoint>& points)
{
    const QByteArray quoted = QJsonDocument(QJsonArray { series }).toJson(QJsonDocument::Compact); // ["…"]
    QByteArray out = "event: points\ndata: {\"series\":" + quoted.mid(1, quoted.size() - 2) + ",\"points\":[";
    appendPointsJson(out, points);
    out += "]}\n\n";
    return out;
}
} // namespace

HttpApi::Reply HttpApi::metrics(const QHttpServerRequest& request, const QString& project, const QString& jobId,
    const HttpChannelPtr& channel, bool* streaming)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    if (!m_metrics)
        return errorReply(503, QStringLiteral("UNAVAILABLE"), QStringLiteral("The metrics store is not open."));
    const QUrlQuery query = request.query();
    const QString seriesName = queryValue(query, QStringLiteral("series"));
    qint64 after = 0;
    const QString afterText = queryValue(query, QStringLiteral("after"));
    if (!afterText.isEmpty()) {
        bool ok = false;
        after = afterText.toLongLong(&ok);
        if (!ok || after < 0)
            return invalidArgument(QStringLiteral("after"),
                QStringLiteral("must be a non-negative integer (a point's seq, e.g. the lastSeq of a series)"));
    }
    const QString pageToken = queryValue(query, QStringLiteral("pageToken"));
    if (!pageToken.isEmpty()) {
        QString value;
        bool ok = false;
        if (decodePageToken(pageToken, QStringLiteral("metrics"), &value))
            after = value.toLongLong(&ok);
        if (!ok || after < 0)
            return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of these points"));
    }
    std::optional<MetricSeriesInfo> one;
    if (!seriesName.isEmpty()) {
        one = m_metrics->findSeries(jobId, seriesName);
        // While following, a series may appear later; otherwise it must exist.
        if (!one && !isTrue(queryValue(query, QStringLiteral("follow"))))
            return errorReply(404, QStringLiteral("NOT_FOUND"),
                QStringLiteral("Job %1 has no metric series \"%2\".").arg(jobName(project, jobId), seriesName));
    }

    if (!isTrue(queryValue(query, QStringLiteral("follow")))) {
        if (!one) {
            QJsonArray list;
            const QList<MetricSeriesInfo> all = m_metrics->series(jobId);
            for (const MetricSeriesInfo& s : all)
                list.append(seriesToJson(s));
            return jsonReply(QJsonObject { { QStringLiteral("series"), list } });
        }
        int pageSize = 0;
        if (!parsePageSize(
                queryValue(query, QStringLiteral("pageSize")), DefaultMetricsPageSize, MaxMetricsPageSize, &pageSize))
            return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));
        const QList<MetricPoint> points = m_metrics->points(one->id, after, pageSize);
        const qint64 lastSeq = points.isEmpty() ? after : points.last().seq;
        QByteArray body = "{\"series\":" + compact(seriesToJson(*one)) + ",\"points\":[";
        appendPointsJson(body, points);
        body += "],\"lastSeq\":\"" + QByteArray::number(lastSeq) + '"';
        if (points.size() == pageSize && lastSeq < one->lastSeq)
            body += ",\"nextPageToken\":\""
                + encodePageToken(QStringLiteral("metrics"), QString::number(lastSeq)).toLatin1() + '"';
        body += '}';
        Reply reply;
        reply.body = body;
        return reply;
    }

    *streaming = true;
    auto* stream = new SseStream(channel, this);
    addStream(stream);
    stream->start("metrics of " + jobId.toUtf8());
    QPointer<SseStream> guard(stream);
    QPointer<JobStore> jobStore(m_store);
    auto end = [guard, jobStore, jobId] {
        if (!guard || guard->isFinished())
            return;
        const std::optional<Job> now = jobStore ? jobStore->job(jobId) : std::nullopt;
        guard->writeEvent("end", compact(QJsonObject { { QStringLiteral("state"), now ? now->state : QString() } }));
        guard->finish(true);
    };
    // Subscribed before the backlog is read: both happen on this thread between two commits, so the backlog
    // ends exactly where the first update starts.
    const int subscription = m_metrics->subscribe(jobId, [guard, seriesName, end](const MetricsUpdate& update) {
        if (!guard || guard->isFinished())
            return;
        QByteArray out;
        for (const MetricSeriesInfo& s : update.newSeries) {
            if (seriesName.isEmpty() || s.name == seriesName)
                out += "event: series\ndata: " + compact(seriesToJson(s)) + "\n\n";
        }
        for (const auto& [name, fromStep] : update.purges) {
            if (seriesName.isEmpty() || name == seriesName)
                out += "event: purge\ndata: "
                    + compact(QJsonObject {
                        { QStringLiteral("series"), name }, { QStringLiteral("fromStep"), QString::number(fromStep) } })
                    + "\n\n";
        }
        for (const auto& [name, points] : update.appended) {
            if (!points.isEmpty() && (seriesName.isEmpty() || name == seriesName))
                out += pointsEvent(name, points);
        }
        guard->writeChunk(out);
        if (update.final)
            end();
    });
    QPointer<MetricsStore> metricsStore(m_metrics);
    stream->cleanup = [metricsStore, subscription] {
        if (metricsStore)
            metricsStore->unsubscribe(subscription);
    };

    QList<MetricSeriesInfo> backlogSeries;
    if (one)
        backlogSeries.append(*one);
    else if (seriesName.isEmpty())
        backlogSeries = m_metrics->series(jobId);
    constexpr int ChunkPoints = 5000;
    for (const MetricSeriesInfo& s : std::as_const(backlogSeries)) {
        stream->writeChunk("event: series\ndata: " + compact(seriesToJson(s)) + "\n\n");
        qint64 cursor = after;
        while (cursor < s.lastSeq) {
            const QList<MetricPoint> points = m_metrics->points(s.id, cursor, ChunkPoints);
            if (points.isEmpty())
                break;
            stream->writeChunk(pointsEvent(s.name, points));
            cursor = points.last().seq;
        }
    }
    if (JobState::isFinal(job->state) && !m_metrics->isCollecting(jobId))
        end();
    return {};
}

HttpApi::Reply HttpApi::catalog(const QString& what)
{
    const MachineCatalog& catalog = MachineCatalog::builtin();
    if (what == QLatin1String("scaleTiers")) {
        QJsonArray list;
        for (const ScaleTierInfo& t : catalog.scaleTiers()) {
            QJsonObject o {
                { QStringLiteral("name"), t.name },
                { QStringLiteral("description"), t.description },
                { QStringLiteral("available"), t.available },
                { QStringLiteral("masterType"), t.masterType },
                { QStringLiteral("workerCount"), t.workerCount },
                { QStringLiteral("parameterServerCount"), t.parameterServerCount },
            };
            if (!t.unavailableReason.isEmpty())
                o.insert(QStringLiteral("unavailableReason"), t.unavailableReason);
            if (!t.workerType.isEmpty())
                o.insert(QStringLiteral("workerType"), t.workerType);
            if (!t.parameterServerType.isEmpty())
                o.insert(QStringLiteral("parameterServerType"), t.parameterServerType);
            if (t.masterAccelerator.count.value_or(0) > 0 && !t.masterAccelerator.type.isEmpty())
                o.insert(QStringLiteral("masterAcceleratorConfig"),
                    QJsonObject { { QStringLiteral("count"), QString::number(*t.masterAccelerator.count) },
                        { QStringLiteral("type"), t.masterAccelerator.type } });
            list.append(o);
        }
        return jsonReply(QJsonObject { { QStringLiteral("scaleTiers"), list } });
    }
    if (what == QLatin1String("machineTypes")) {
        QJsonArray list;
        for (const MachineType& m : catalog.machineTypes()) {
            QJsonObject counts;
            for (auto it = m.acceleratorCounts.cbegin(); it != m.acceleratorCounts.cend(); ++it)
                counts.insert(it.key(), intArray(it.value()));
            list.append(QJsonObject {
                { QStringLiteral("name"), m.name },
                { QStringLiteral("family"), m.family },
                { QStringLiteral("vcpus"), m.vcpus },
                { QStringLiteral("memoryGb"), m.memory.gb() },
                { QStringLiteral("acceleratorCounts"), counts },
            });
        }
        return jsonReply(QJsonObject { { QStringLiteral("machineTypes"), list } });
    }
    if (what == QLatin1String("acceleratorTypes")) {
        QJsonArray list;
        for (const AcceleratorTypeInfo& a : catalog.acceleratorTypes()) {
            const auto onHost = std::count_if(m_host.gpus.cbegin(), m_host.gpus.cend(),
                [&](const GpuInfo& g) { return g.acceleratorType == a.name; });
            list.append(QJsonObject {
                { QStringLiteral("name"), a.name },
                { QStringLiteral("displayName"), a.displayName },
                { QStringLiteral("isTpu"), a.isTpu },
                { QStringLiteral("availableOnHost"), int(onHost) },
            });
        }
        QJsonArray gpus;
        for (const GpuInfo& g : m_host.gpus)
            gpus.append(gpuToJson(g));
        return jsonReply(
            QJsonObject { { QStringLiteral("acceleratorTypes"), list }, { QStringLiteral("gpus"), gpus } });
    }
    return jsonReply(QJsonObject { { QStringLiteral("runtimeVersions"), runtimeVersionsJson() } });
}

HttpApi::Reply HttpApi::host()
{
    return jsonReply(m_scheduler->usage().toJson());
}

} // namespace Trainyard
