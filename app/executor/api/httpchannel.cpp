// SPDX-License-Identifier: GPL-2.0-or-later
#include "httpchannel.h"

#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
#include <QHttpHeaders>
#endif

#include <utility>

namespace Trainyard {

namespace {
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

#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
HttpChannel::HttpChannel(QHttpServerResponder&& responder, QTcpSocket* socket)
    : m_socket(socket)
    , m_responder(std::move(responder))
{
}
#else
HttpChannel::HttpChannel(QTcpSocket* socket)
    : m_socket(socket)
{
}
#endif

HttpChannel::HttpChannel(HttpAnswerSink sink)
    : m_sink(std::move(sink))
    , m_sinkOpen(true)
{
}

bool HttpChannel::isOpen() const
{
    if (m_sink)
        return m_sinkOpen;
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    if (!m_responder)
        return false;
    return !m_watched || (m_socket && m_socket->state() == QAbstractSocket::ConnectedState);
#else
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
#endif
}

void HttpChannel::reply(int status, const HttpHeaderList& headers, const QByteArray& body)
{
    if (!isOpen())
        return;
    if (m_sink) {
        m_sinkOpen = false;
        m_sink(status, headers, body);
        return;
    }
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

void HttpChannel::beginChunked(const HttpHeaderList& headers)
{
    if (!isOpen())
        return;
    if (m_sink) {
        m_sinkHeaders = headers;
        return;
    }
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

void HttpChannel::writeChunk(const QByteArray& payload)
{
    if (!isOpen() || payload.isEmpty())
        return;
    if (m_sink) {
        m_sinkBody += payload;
        return;
    }
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    m_responder->writeChunk(payload);
#else
    m_socket->write(QByteArray::number(payload.size(), 16) + "\r\n");
    m_socket->write(payload);
    m_socket->write("\r\n");
#endif
}

void HttpChannel::endChunked(bool graceful)
{
    if (m_sink) {
        if (m_sinkOpen) {
            m_sinkOpen = false;
            m_sink(200, m_sinkHeaders, std::exchange(m_sinkBody, {}));
        }
        return;
    }
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

} // namespace Trainyard
