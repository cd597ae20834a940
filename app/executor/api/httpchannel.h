// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API's files (not installed, not included outside app/executor/api/).

#include "httpapi.h"
#include "httpconnection.h"

#include <QByteArray>
#include <QHttpServerResponder>
#include <QList>
#include <QPair>
#include <QPointer>
#include <QSslSocket>
#include <QTcpSocket>
#include <QtGlobal>

#include <optional>

namespace Trainyard {

/// Where the answer to one request goes:
/// - a connection of the executor's own transport (HttpApi::bind(), httpconnection.h; Qt 6.4 and 6.8 alike): the
///   answer is written onto its socket as raw HTTP/1.1, and the connection is told when it is complete, so that it
///   reads the next pipelined request or closes;
/// - a socket handed over by QAbstractHttpServer on Qt 6.4 (QAbstractHttpServer::bind(), not used by the executor):
///   the same raw HTTP/1.1;
/// - on Qt 6.8 a QHttpServerResponder (QAbstractHttpServer::bind(), not used by the executor), moved in here and
///   written through (Qt frames the status line, the headers and the chunks); the request's socket is then only
///   watched, for disconnects and for a client that stops reading;
/// - a sink in this process (HttpApi::serve()).
/// The channel may outlive the connection (deferred answers, streams): every write checks it first, and a channel
/// writes one answer at most.
///
/// Both Qt code paths must keep compiling: Qt 6.4 is Debian 12's, Qt 6.8 is built in the Debian 13 chroot
/// (packaging/debian13-build.sh). Main thread only, as the socket.
class HttpChannel {
public:
    /// A request read by `connection`.
    explicit HttpChannel(HttpConnection* connection);
    /// A request read by QtHttpServer from `socket`.
    explicit HttpChannel(QTcpSocket* socket);
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    /// `socket`: the request's socket if it could be found (null otherwise; then isOpen() trusts the
    /// responder alone).
    HttpChannel(QHttpServerResponder&& responder, QTcpSocket* socket);
#endif
    /// No connection: reply() hands the answer to `sink`; a chunked answer is collected and handed over, with
    /// status 200, when it ends. Open until then.
    explicit HttpChannel(HttpAnswerSink sink);

    /// The request's socket; null once it is gone (and, on Qt 6.8, when it could not be found).
    QTcpSocket* socket() const
    {
        return m_socket;
    }

    /// The executor's own connection the request came on; null in the other modes, or once it is gone.
    HttpConnection* connection() const
    {
        return m_connection;
    }

    /// False once the answer is complete or the peer is gone.
    bool isOpen() const;

    /// Bytes written but not yet sent to the peer (0 when unknown); on TLS, the encrypted ones too.
    qint64 backlog() const
    {
        if (!m_socket)
            return 0;
        const auto* tls = qobject_cast<const QSslSocket*>(m_socket.data());
        return m_socket->bytesToWrite() + (tls ? tls->encryptedBytesToWrite() : 0);
    }

    /// A complete answer with a body (`Content-Length` is added). `status`: an HTTP status code.
    void reply(int status, const HttpHeaderList& headers, const QByteArray& body);

    /// Starts a `200 OK` answer with chunked framing (on a raw socket with `Connection: close`).
    void beginChunked(const HttpHeaderList& headers);

    /// A chunk's payload and its chunked framing (`SIZE\r\n` payload `\r\n`), made once: written to many
    /// sockets, the framed bytes are shared by their write buffers (QIODevice::write(const QByteArray&) keeps the
    /// array, no copy), where framing per socket copied every payload once per follower (500 followers of a job
    /// at 10,000 lines/s: 0.65 GB/s of copies).
    struct Chunk {
        /// `SIZE\r\n` payload `\r\n`; SIZE may have leading zeros (RFC 9112 7.1: chunk-size = 1*HEXDIG).
        QByteArray framed;
        qsizetype payloadSize = 0;
        bool isEmpty() const { return payloadSize == 0; }
        /// The payload alone (a copy), for the channels that frame it themselves.
        QByteArray payload() const { return framed.mid(framed.indexOf('\n') + 1, payloadSize); }
    };
    /// `payload` framed (a copy of it). An empty payload gives an empty chunk, which writeChunk() skips.
    static Chunk chunk(const QByteArray& payload);
    /// Building a chunk in place, with no copy of its payload: start the buffer with chunkHead(), append the
    /// payload, and finishChunk() writes its size into the head (eight hex digits, zero-padded) and ends it.
    /// chunk() frames the same way.
    static QByteArray chunkHead();
    static Chunk finishChunk(QByteArray framed);

    /// Writes one chunk of a chunked answer; nothing when `payload` is empty (an empty chunk would end it).
    void writeChunk(const QByteArray& payload)
    {
        writeChunk(chunk(payload));
    }
    void writeChunk(const Chunk& chunk);

    /// Ends a chunked answer: the terminating chunk when `graceful`, then the connection is closed.
    void endChunked(bool graceful);

private:
    enum class Mode { Connection, Socket, Responder, Sink };
    Mode m_mode;
    QPointer<QTcpSocket> m_socket;
    QPointer<HttpConnection> m_connection;
    bool m_done = false; ///< raw modes: the answer (or the stream) is complete
    HttpAnswerSink m_sink;
    bool m_sinkOpen = false;
    HttpHeaderList m_sinkHeaders; ///< a chunked answer's, until it ends
    QByteArray m_sinkBody;
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    std::optional<QHttpServerResponder> m_responder;
    bool m_watched = false;
#endif
};

} // namespace Trainyard
