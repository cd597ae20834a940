// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API's files (not installed, not included outside app/executor/api/).

#include "httpapi.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

class QSslSocket;
class QTcpSocket;

namespace Trainyard {

/// The URL of a request whose request target (RFC 9112 §3.2.1 origin form, "/path?query", percent-encoded as sent) came
/// to `host`:`port`: path and query as sent, the host this end's, never the client's Host header. Invalid when the
/// target cannot be a URL. Shared by the transport and the request fuzzer (tests/fuzz/fuzz_apirequest.cpp).
QUrl requestUrl(const QByteArray& target, const QString& host, quint16 port);

/// One HTTP/1.1 connection of the executor's API (HttpApi::bind()): reads requests off the socket, hands each to
/// HttpApi::handle() with an HttpChannel that writes its answer back, and enforces HttpApi::TransportOptions.
///
/// The framing follows RFC 9112 (HTTP/1.1):
/// - Requests are answered one at a time and in order; pipelined requests wait in the buffer (§9.3.2) and reading
///   pauses while more than `maxPipelineBacklogBytes` of answers wait to be sent.
/// - A body has a Content-Length (at most HttpApi::MaxBodyBytes, else 413). A request with both Content-Length and
///   Transfer-Encoding is refused with 400 and the connection closed, so nothing smuggled behind it is read
///   (§6.1, §6.3); Transfer-Encoding alone is refused with 411 (request bodies are small JSON documents; no client
///   of the executor chunks them).
/// - `Connection: close`, and any HTTP/1.0 request, closes the connection after its answer (§9.6); so does every
///   stream (`Connection: close` in its head, as the Qt 6.4 transport had it).
/// - A malformed request line or header (whitespace before a colon, obsolete line folding, control characters, a
///   missing or repeated Host, §3.2, §5) gets 400; a head over the size limit 431; each then closes.
/// - Timeouts: the head must be complete within `headerTimeoutMs` and the body within `bodyTimeoutMs` (else 408
///   and closed); a keep-alive connection idle for `idleTimeoutMs` is closed (an answer still being sent is not
///   idleness while the client reads it: each write's progress restarts the idle timeout). A request being handled or a
///   stream being written has none: the stream's keepalive comments and its backlog limit (SseStream) guard it.
/// - Closing lingers: after the last answer the write side is shut and what the client still sends is dropped for
///   at most `lingerMs`, so that a client still writing sees the answer rather than a reset.
///
/// TLS (team mode, TlsTcpServer): when the socket is a QSslSocket, start() begins the server handshake and requests
/// are read only once it completes; the handshake counts against `headerTimeoutMs` (a client that connects and
/// stays silent is dropped then, without an answer, as is one whose handshake fails, e.g. plain HTTP sent to the TLS
/// port). Closing sends TLS's close_notify and closes at once instead of lingering.
///
/// Transport errors are JSON in Google's error shape, as every other answer. Main thread, as HttpApi. Deletes
/// itself (and its socket) when the connection is gone.
class HttpConnection : public QObject {
public:
    HttpConnection(HttpApi* api, QTcpSocket* socket);
    ~HttpConnection() override;

    /// Starts reading requests (after HttpApi checked the connection limits).
    void start();

    QTcpSocket* socket() const { return m_socket; }
    /// The client's address, as HttpApi counts connections per address.
    const QString& address() const { return m_address; }

    /// Whether the answer being written must say `Connection: close` (the client asked, HTTP/1.0, or an error).
    bool closesAfterAnswer() const { return m_closeAfterAnswer; }
    /// The answer to the current request is written: read the next request, or close.
    void answerWritten();
    /// The current request's answer is a stream: no timeout applies until it ends.
    void streamStarted();
    /// The stream ended: closes the connection (after its terminating chunk when `graceful`).
    void streamEnded(bool graceful);

    /// Answers with an error in Google's shape (HTTP `status`, google.rpc.Code name `code`) and closes: for
    /// requests that cannot be framed, and for connections over a limit.
    void refuse(int status, const QString& code, const QString& message);
    /// The same for google.rpc code `code`, with its own HTTP status (a connection over a limit: 429).
    void refuse(RpcCode code, const QString& message);

    /// Bytes of answers not yet handed to the kernel, the TLS layer's encrypted ones included.
    qint64 pendingBytes() const;

    /// A request on this connection carried a valid token: from now on it is never evicted to make room.
    void markTrusted() { m_trusted = true; }
    bool isTrusted() const { return m_trusted; }
    /// Whether the connection may be closed to make room for another (HttpApi::accept()): no request of it carried a
    /// valid token, and none is being handled or streamed (it waits for a request, or for the rest of one).
    bool isEvictable() const { return !m_trusted && (m_state == State::Head || m_state == State::Body); }
    /// Closes the connection at once, without an answer (it is evictable), and counts it out of HttpApi now.
    void evict();
    /// The order connections were accepted in (1, 2, …): the oldest evictable one goes first.
    quint64 acceptOrder() const { return m_acceptOrder; }

private:
    enum class State {
        Head, ///< waiting for (the rest of) a request line and headers
        Body, ///< waiting for the rest of a body
        Handling, ///< a request is with HttpApi; pipelined bytes wait
        Streaming, ///< the answer is a stream
        Closing, ///< the last answer is written; lingering
    };

    void readAvailable();
    /// Frames and hands over every complete request in the buffer, one at a time, while the state allows.
    void process();
    /// Parses the head in m_buffer[0, headEnd); false after refuse().
    bool parseHead(qsizetype headEnd, qsizetype nextStart);
    void dispatch();
    void armTimer();
    void timedOut();
    /// Shuts the write side once the answer is sent, then lingers (TransportOptions::lingerMs).
    void closeGracefully();
    void shutdownWrite();

    HttpApi* m_api;
    QPointer<QTcpSocket> m_socket;
    QPointer<QSslSocket> m_tls; ///< m_socket when the connection is TLS, else null
    QString m_address;
    HttpApi::TransportOptions m_options;
    State m_state = State::Head;
    QByteArray m_buffer;
    QTimer m_timer;
    bool m_processing = false;
    bool m_headStarted = false; ///< bytes of the current head have arrived (the header timeout runs)
    qsizetype m_headScanned = 0; ///< how much of the buffer was searched for the head's end
    int m_served = 0; ///< requests answered on this connection
    bool m_trusted = false;
    quint64 m_acceptOrder = 0;
    bool m_closeAfterAnswer = false;
    bool m_writeShut = false;
    // The request being read.
    QByteArray m_method;
    QByteArray m_target;
    HttpHeaderList m_headers;
    qint64 m_bodyLength = 0;
};

} // namespace Trainyard
