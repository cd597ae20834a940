// SPDX-License-Identifier: GPL-2.0-or-later
#include "httpchannel.h"

#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
#include <QHttpHeaders>
#endif

#include <utility>

namespace Trainyard {

namespace {
/// The reason phrase of the status line (RFC 9110 §15) on a raw socket; QHttpServerResponder writes its own.
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
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 411:
        return "Length Required";
    case 413:
        return "Content Too Large";
    case 417:
        return "Expectation Failed";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Unknown";
    }
}

#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
QHttpHeaders toHttpHeaders(const HttpHeaderList& headers)
{
    QHttpHeaders result;
    for (const auto& [key, value] : headers)
        result.append(key, value);
    return result;
}
#endif
} // namespace

HttpChannel::HttpChannel(HttpConnection* connection)
    : m_mode(Mode::Connection)
    , m_socket(connection->socket())
    , m_connection(connection)
{
}

HttpChannel::HttpChannel(QTcpSocket* socket)
    : m_mode(Mode::Socket)
    , m_socket(socket)
{
}

#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
HttpChannel::HttpChannel(QHttpServerResponder&& responder, QTcpSocket* socket)
    : m_mode(Mode::Responder)
    , m_socket(socket)
    , m_responder(std::move(responder))
    , m_watched(socket != nullptr)
{
}
#endif

HttpChannel::HttpChannel(HttpAnswerSink sink)
    : m_mode(Mode::Sink)
    , m_sink(std::move(sink))
    , m_sinkOpen(true)
{
}

bool HttpChannel::isOpen() const
{
    switch (m_mode) {
    case Mode::Sink:
        return m_sinkOpen;
    case Mode::Responder:
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
        if (!m_responder)
            return false;
        return !m_watched || (m_socket && m_socket->state() == QAbstractSocket::ConnectedState);
#else
        return false;
#endif
    case Mode::Connection:
        if (!m_connection)
            return false;
        [[fallthrough]];
    case Mode::Socket:
        return !m_done && m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
    }
    return false;
}

void HttpChannel::reply(int status, const HttpHeaderList& headers, const QByteArray& body)
{
    if (!isOpen())
        return;
    if (m_mode == Mode::Sink) {
        m_sinkOpen = false;
        m_sink(status, headers, body);
        return;
    }
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    if (m_mode == Mode::Responder) {
        m_responder->write(body, toHttpHeaders(headers), QHttpServerResponder::StatusCode(status));
        m_responder.reset(); // the connection reads its next request
        return;
    }
#endif
    m_done = true;
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const auto& [key, value] : headers)
        head += key + ": " + value + "\r\n";
    if (m_connection && m_connection->closesAfterAnswer())
        head += "Connection: close\r\n";
    head += "\r\n";
    m_socket->write(head + body);
    if (m_connection)
        m_connection->answerWritten();
}

void HttpChannel::beginChunked(const HttpHeaderList& headers)
{
    if (!isOpen())
        return;
    if (m_mode == Mode::Sink) {
        m_sinkHeaders = headers;
        return;
    }
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    if (m_mode == Mode::Responder) {
        m_responder->writeBeginChunked(toHttpHeaders(headers), QHttpServerResponder::StatusCode::Ok);
        return;
    }
#endif
    if (m_connection)
        m_connection->streamStarted();
    QByteArray head = "HTTP/1.1 200 OK\r\n";
    for (const auto& [key, value] : headers)
        head += key + ": " + value + "\r\n";
    head += "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n";
    m_socket->write(head);
}

namespace {
constexpr qsizetype ChunkHeadDigits = 8;
} // namespace

QByteArray HttpChannel::chunkHead()
{
    return QByteArray(ChunkHeadDigits, '0') + "\r\n";
}

HttpChannel::Chunk HttpChannel::chunk(const QByteArray& payload)
{
    QByteArray framed = chunkHead();
    framed.reserve(framed.size() + payload.size() + 2);
    framed += payload;
    return finishChunk(std::move(framed));
}

HttpChannel::Chunk HttpChannel::finishChunk(QByteArray framed)
{
    const qsizetype size = framed.size() - ChunkHeadDigits - 2;
    Q_ASSERT(size >= 0 && size <= 0xffffffffLL && framed.startsWith(chunkHead()));
    if (size <= 0)
        return {};
    static const char digits[] = "0123456789abcdef";
    char* head = framed.data();
    for (qsizetype i = 0; i < ChunkHeadDigits; ++i)
        head[ChunkHeadDigits - 1 - i] = digits[(quint64(size) >> (4 * i)) & 0xf];
    framed += "\r\n";
    return Chunk { std::move(framed), size };
}

void HttpChannel::writeChunk(const Chunk& chunk)
{
    if (!isOpen() || chunk.isEmpty())
        return;
    if (m_mode == Mode::Sink) {
        m_sinkBody += chunk.payload();
        return;
    }
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    if (m_mode == Mode::Responder) {
        m_responder->writeChunk(chunk.payload());
        return;
    }
#endif
    m_socket->write(chunk.framed);
}

void HttpChannel::endChunked(bool graceful)
{
    if (m_mode == Mode::Sink) {
        if (m_sinkOpen) {
            m_sinkOpen = false;
            m_sink(200, m_sinkHeaders, std::exchange(m_sinkBody, {}));
        }
        return;
    }
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    if (m_mode == Mode::Responder) {
        // Qt writes a last chunk (it refuses an empty one, hence the comment) and the terminating one;
        // the connection then serves the client's next request. Closing it here instead would delete the
        // socket (Qt owns it) with the end still unsent.
        if (graceful && isOpen())
            m_responder->writeEndChunked(QByteArrayLiteral(": end of stream\n\n"));
        else if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
            m_socket->abort();
        m_responder.reset();
        return;
    }
#endif
    if (!isOpen())
        return;
    m_done = true;
    if (graceful)
        m_socket->write("0\r\n\r\n");
    if (m_connection) {
        m_connection->streamEnded(graceful);
    } else if (graceful) {
        m_socket->disconnectFromHost();
    } else {
        m_socket->abort();
    }
}

} // namespace Trainyard
