// SPDX-License-Identifier: GPL-2.0-or-later
#include "httpconnection.h"
#include "apicommon.h"
#include "httpchannel.h"

#include <QSslSocket>
#include <QTcpSocket>
#include <QUrl>

#include <algorithm>
#include <cstring>

#include <sys/socket.h>

namespace Trainyard {

using namespace Api;

namespace {

/// tchar of RFC 9110 §5.6.2: what a method and a header name are made of.
bool isTokenChar(char c)
{
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return true;
    return c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

bool isToken(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

/// A field value of RFC 9110 §5.5: visible characters, obs-text, spaces and tabs; no other control character.
bool isFieldValue(QByteArrayView text)
{
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f)
            return false;
    }
    return true;
}

/// The origin form of RFC 9112 §3.2.1 ("/path?query"): visible ASCII from a '/', no fragment.
bool isOriginForm(QByteArrayView target)
{
    if (target.isEmpty() || target.front() != '/')
        return false;
    for (const char c : target) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7f || c == '#')
            return false;
    }
    return true;
}

/// Whether the comma-separated list `value` (a Connection header) holds `token`, case-insensitively.
bool listHas(const QByteArray& value, QByteArrayView token)
{
    const QList<QByteArray> items = value.split(',');
    for (const QByteArray& item : items) {
        if (QByteArrayView(item.trimmed()).compare(token, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QString invalidArgument()
{
    return Rpc::name(RpcCode::InvalidArgument);
}

} // namespace

QUrl requestUrl(const QByteArray& target, const QString& host, quint16 port)
{
    const qsizetype question = target.indexOf('?');
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(host);
    url.setPort(port);
    url.setPath(QString::fromLatin1(question < 0 ? target : target.left(question)), QUrl::TolerantMode);
    if (question >= 0)
        url.setQuery(QString::fromLatin1(target.mid(question + 1)), QUrl::TolerantMode);
    return url;
}

HttpConnection::HttpConnection(HttpApi* api, QTcpSocket* socket)
    : QObject(api)
    , m_api(api)
    , m_socket(socket)
    , m_address(socket->peerAddress().toString())
    , m_options(api->transportOptions())
{
    static quint64 accepted = 0;
    m_acceptOrder = ++accepted;
    socket->setParent(this);
    // What a client pipelines while a request is handled stays in the kernel beyond this, and TCP slows it down.
    socket->setReadBufferSize(256 * 1024);
    connect(socket, &QTcpSocket::readyRead, this, &HttpConnection::readAvailable);
    auto progress = [this] {
        if (m_state == State::Closing) {
            if (pendingBytes() > 0)
                armTimer(); // the last answer is still on its way: progress, not idleness
            else
                shutdownWrite();
        } else if (m_state == State::Head && !m_headStarted) {
            // An answer being read by a slow client is not idleness; a client that stops reading is idle.
            armTimer();
            if (!m_processing)
                readAvailable(); // requests pipelined behind answers that waited to be sent
        }
    };
    connect(socket, &QTcpSocket::bytesWritten, this, progress);
    if (auto* tls = qobject_cast<QSslSocket*>(socket)) {
        m_tls = tls;
        // Bytes written to the TLS socket are encrypted into its plain socket's buffer: the answer is on its way
        // only once that is written too.
        connect(tls, &QSslSocket::encryptedBytesWritten, this, progress);
        connect(tls, &QSslSocket::encrypted, this, &HttpConnection::readAvailable);
        // A failed handshake (plain HTTP sent to the TLS port, a client that refuses the certificate): nothing
        // can be answered in a language the client reads; the connection is dropped.
        connect(tls, &QSslSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
            if (!m_tls || m_tls->isEncrypted() || error == QAbstractSocket::RemoteHostClosedError)
                return;
            qCDebug(lcApi).noquote() << "TLS handshake with" << m_address << "failed:" << m_tls->errorString();
            m_tls->abort();
            deleteLater();
        });
    }
    connect(socket, &QTcpSocket::disconnected, this, &QObject::deleteLater);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HttpConnection::timedOut);
    // A fresh connection must send a complete head within the header timeout, whenever its first byte comes.
    armTimer();
}

HttpConnection::~HttpConnection()
{
    m_api->connectionClosed(this);
}

void HttpConnection::evict()
{
    qCDebug(lcApi).noquote() << "closing an idle connection without a valid token from" << m_address << "to make room";
    m_api->connectionClosed(this);
    m_timer.stop();
    if (m_socket)
        m_socket->abort();
    deleteLater();
}

void HttpConnection::start()
{
    // The handshake runs under the header timeout armed when the connection was taken.
    if (m_tls && m_tls->mode() == QSslSocket::UnencryptedMode)
        m_tls->startServerEncryption();
    readAvailable();
}

qint64 HttpConnection::pendingBytes() const
{
    if (!m_socket)
        return 0;
    return m_socket->bytesToWrite() + (m_tls ? m_tls->encryptedBytesToWrite() : 0);
}

void HttpConnection::readAvailable()
{
    if (!m_socket)
        return;
    if (m_state == State::Closing) {
        m_socket->readAll(); // lingering: dropped
        return;
    }
    // The buffer holds at most one head and one body; the rest waits in the socket (and the kernel).
    const qint64 cap = qint64(m_options.maxHeaderBytes) + HttpApi::MaxBodyBytes + 4;
    while (m_socket && (m_state == State::Head || m_state == State::Body) && m_socket->bytesAvailable() > 0
        && m_buffer.size() < cap) {
        // Only what has arrived: QIODevice::read(n) allocates n bytes before it reads (4 MiB and a head for every
        // read). With 100 followers of a 10 MB job list, heaptrack put 839 MB of the executor's peak on this line,
        // and its RSS was 332 MiB (104 MiB reading only what arrived).
        m_buffer += m_socket->read(std::min(cap - m_buffer.size(), m_socket->bytesAvailable()));
        process();
    }
}

void HttpConnection::process()
{
    if (m_processing)
        return;
    m_processing = true;
    while (m_socket && (m_state == State::Head || m_state == State::Body)) {
        if (m_state == State::Head) {
            // Answers not yet sent to a client that pipelines without reading: read no more requests for now.
            if (pendingBytes() > m_options.maxPipelineBacklogBytes)
                break;
            // Empty lines before a request line are ignored (RFC 9112 §2.2).
            qsizetype skip = 0;
            while (skip < m_buffer.size() && (m_buffer.at(skip) == '\r' || m_buffer.at(skip) == '\n'))
                ++skip;
            if (skip > 0) {
                m_buffer.remove(0, skip);
                m_headScanned = 0;
            }
            if (m_buffer.isEmpty())
                break;
            if (!m_headStarted) {
                m_headStarted = true;
                if (m_served > 0)
                    armTimer(); // from the idle timeout to the header timeout
            }
            // The head ends at an empty line: CRLF CRLF, or bare LFs (RFC 9112 §2.2 lets a server accept those).
            // Scanning resumes where it stopped, so a head sent a byte at a time costs linear time.
            qsizetype end = -1;
            qsizetype next = -1;
            for (qsizetype i = m_buffer.indexOf('\n', qMax<qsizetype>(0, m_headScanned - 2)); i >= 0;
                 i = m_buffer.indexOf('\n', i + 1)) {
                if (i + 1 < m_buffer.size() && m_buffer.at(i + 1) == '\n') {
                    end = i + 1;
                    next = i + 2;
                    break;
                }
                if (i + 2 < m_buffer.size() && m_buffer.at(i + 1) == '\r' && m_buffer.at(i + 2) == '\n') {
                    end = i + 1;
                    next = i + 3;
                    break;
                }
            }
            m_headScanned = m_buffer.size();
            if (end < 0 ? m_buffer.size() > m_options.maxHeaderBytes : end > m_options.maxHeaderBytes) {
                refuse(431, invalidArgument(),
                    QStringLiteral("The request line and headers are larger than %1 bytes.")
                        .arg(m_options.maxHeaderBytes));
                break;
            }
            if (end < 0)
                break;
            if (!parseHead(end, next))
                break;
            m_state = State::Body;
            armTimer();
        }
        if (m_buffer.size() < m_bodyLength)
            break;
        dispatch();
    }
    m_processing = false;
}

bool HttpConnection::parseHead(qsizetype headEnd, qsizetype nextStart)
{
    const QByteArray head = m_buffer.left(headEnd);
    m_buffer.remove(0, nextStart);
    m_headScanned = 0;
    QList<QByteArray> lines = head.split('\n');
    lines.removeLast(); // the head ends with a line feed
    for (QByteArray& line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.contains('\r')) {
            refuse(400, invalidArgument(), QStringLiteral("The request holds a carriage return outside a line end."));
            return false;
        }
    }

    const QList<QByteArray> parts = lines.first().split(' ');
    if (parts.size() != 3 || !isToken(parts.at(0))) {
        refuse(400, invalidArgument(),
            QStringLiteral("The request line is not \"METHOD /path HTTP/1.1\" (RFC 9112 section 3)."));
        return false;
    }
    if (!isOriginForm(parts.at(1))) {
        refuse(400, invalidArgument(),
            QStringLiteral("The request target must be a path from \"/\" with an optional query, in visible ASCII "
                           "(RFC 9112 section 3.2.1)."));
        return false;
    }
    const QByteArray& version = parts.at(2);
    if (version != "HTTP/1.1" && version != "HTTP/1.0") {
        refuse(400, invalidArgument(), QStringLiteral("Only HTTP/1.1 and HTTP/1.0 are served."));
        return false;
    }
    m_method = parts.at(0);
    m_target = parts.at(1);
    m_headers.clear();

    if (lines.size() - 1 > m_options.maxHeaderCount) {
        refuse(431, invalidArgument(),
            QStringLiteral("The request has more than %1 header fields.").arg(m_options.maxHeaderCount));
        return false;
    }
    int hosts = 0;
    QList<QByteArray> lengths;
    bool transferEncoding = false;
    QByteArray connection;
    QByteArray expect;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray& line = lines.at(i);
        if (line.startsWith(' ') || line.startsWith('\t')) {
            refuse(400, invalidArgument(),
                QStringLiteral("Header fields must not be folded over lines (RFC 9112 section 5.2)."));
            return false;
        }
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = colon > 0 ? line.left(colon) : QByteArray();
        if (!isToken(name)) {
            refuse(400, invalidArgument(),
                QStringLiteral("Header line %1 is not \"Name: value\" with a token name and no space before the colon "
                               "(RFC 9112 section 5.1).")
                    .arg(i));
            return false;
        }
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (!isFieldValue(value)) {
            refuse(400, invalidArgument(),
                QStringLiteral("Header field %1 holds a control character.").arg(QString::fromLatin1(name)));
            return false;
        }
        const QByteArray lower = name.toLower();
        if (lower == "host")
            ++hosts;
        else if (lower == "content-length")
            lengths += value.split(',');
        else if (lower == "transfer-encoding")
            transferEncoding = true;
        else if (lower == "connection")
            connection += ',' + value;
        else if (lower == "expect")
            expect = value;
        m_headers.append(qMakePair(name, value));
    }
    // RFC 9112 §3.2: exactly one Host in an HTTP/1.1 request.
    if (version == "HTTP/1.1" && hosts != 1) {
        refuse(400, invalidArgument(),
            hosts == 0 ? QStringLiteral("An HTTP/1.1 request needs a Host header field (RFC 9112 section 3.2).")
                       : QStringLiteral("The request has more than one Host header field (RFC 9112 section 3.2)."));
        return false;
    }
    // RFC 9112 §9.3 and §9.6: HTTP/1.0 has no persistent connections unless negotiated; we do not negotiate them.
    m_closeAfterAnswer = version == "HTTP/1.0" || listHas(connection, "close");
    // RFC 9112 §6.1: both framings in one request is how requests are smuggled past a proxy; the connection
    // cannot be trusted to frame another request.
    if (transferEncoding && !lengths.isEmpty()) {
        refuse(400, invalidArgument(),
            QStringLiteral("The request has both Content-Length and Transfer-Encoding (RFC 9112 section 6.1)."));
        return false;
    }
    if (transferEncoding) {
        refuse(411, invalidArgument(),
            QStringLiteral("Request bodies must have a Content-Length; Transfer-Encoding is not accepted."));
        return false;
    }
    m_bodyLength = 0;
    for (qsizetype i = 0; i < lengths.size(); ++i) {
        const QByteArray text = lengths.at(i).trimmed();
        bool digits = !text.isEmpty();
        for (const char c : text)
            digits = digits && c >= '0' && c <= '9';
        if (!digits || (i > 0 && text.toLongLong() != m_bodyLength)) {
            refuse(400, invalidArgument(),
                QStringLiteral("Content-Length must be one decimal number of bytes (RFC 9112 section 6.3)."));
            return false;
        }
        // Digits beyond 18 are over any limit: no overflow into a small number.
        m_bodyLength = text.size() > 18 ? HttpApi::MaxBodyBytes + 1 : text.toLongLong();
    }
    if (m_bodyLength > HttpApi::MaxBodyBytes) {
        refuse(
            413, invalidArgument(), QStringLiteral("Request body is larger than %1 bytes.").arg(HttpApi::MaxBodyBytes));
        return false;
    }
    if (!expect.isEmpty()) {
        if (QByteArrayView(expect).compare("100-continue", Qt::CaseInsensitive) != 0) {
            refuse(417, invalidArgument(), QStringLiteral("Only \"Expect: 100-continue\" is understood."));
            return false;
        }
        // RFC 9110 §10.1.1: curl waits for this before it sends a body over 1 KiB.
        if (m_bodyLength > m_buffer.size())
            m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    }
    return true;
}

void HttpConnection::dispatch()
{
    QByteArray body = m_buffer.left(m_bodyLength);
    m_buffer.remove(0, m_bodyLength);
    // A large body's room is given back once it is read: the connection may live on (keep-alive, a stream).
    if (m_buffer.isEmpty() && m_buffer.capacity() > 64 * 1024)
        m_buffer = QByteArray();
    m_headScanned = 0;
    m_state = State::Handling;
    m_headStarted = false;
    armTimer();
    const QUrl url = requestUrl(m_target, m_socket->localAddress().toString(), m_socket->localPort());
    if (!url.isValid()) {
        refuse(
            400, invalidArgument(), QStringLiteral("The request target is not a valid URL: %1").arg(url.errorString()));
        return;
    }
    ApiRequest request(m_method, url, std::exchange(m_headers, {}), std::move(body));
    request.setRemoteAddress(m_address);
    m_api->handle(request, std::make_shared<HttpChannel>(this));
}

void HttpConnection::answerWritten()
{
    ++m_served;
    if (m_closeAfterAnswer) {
        closeGracefully();
        return;
    }
    m_state = State::Head;
    armTimer();
    // Requests pipelined behind this one wait in the buffer and the socket; the loop in process() goes on by itself
    // when the answer came while it ran.
    if (!m_processing) {
        process();
        readAvailable();
    }
}

void HttpConnection::streamStarted()
{
    m_state = State::Streaming;
    m_closeAfterAnswer = true;
    armTimer();
}

void HttpConnection::streamEnded(bool graceful)
{
    if (graceful) {
        ++m_served;
        closeGracefully();
    } else if (m_socket) {
        m_socket->abort();
        deleteLater();
    }
}

void HttpConnection::refuse(RpcCode code, const QString& message)
{
    refuse(Rpc::httpStatus(code), Rpc::name(code), message);
}

void HttpConnection::refuse(int status, const QString& code, const QString& message)
{
    if (!m_socket || m_state == State::Closing)
        return;
    if (m_tls && !m_tls->isEncrypted()) {
        // A connection over a limit, before its handshake: the answer waits for the handshake (under the header
        // timeout), so that the client reads it rather than plain bytes on a TLS port.
        m_state = State::Handling; // read no request meanwhile
        connect(m_tls, &QSslSocket::encrypted, this, [this, status, code, message] {
            m_state = State::Head;
            refuse(status, code, message);
        });
        m_timer.start(m_options.headerTimeoutMs);
        if (m_tls->mode() == QSslSocket::UnencryptedMode)
            m_tls->startServerEncryption();
        return;
    }
    qCDebug(lcApi).noquote() << "transport" << status << message << "from" << m_address;
    m_closeAfterAnswer = true;
    m_state = State::Handling; // the channel's answer ends in answerWritten(), which closes
    HttpChannel(this).reply(status,
        { { "Content-Type", "application/json; charset=utf-8" }, { "Cache-Control", "no-store" } },
        compact(HttpApi::errorJson(status, code, message)));
}

void HttpConnection::armTimer()
{
    switch (m_state) {
    case State::Head:
        // Before a head's first byte on a kept-alive connection: the idle timeout; else the header timeout.
        m_timer.start(m_headStarted || m_served == 0 ? m_options.headerTimeoutMs : m_options.idleTimeoutMs);
        break;
    case State::Body:
        m_timer.start(m_options.bodyTimeoutMs);
        break;
    case State::Handling:
    case State::Streaming:
        m_timer.stop();
        break;
    case State::Closing:
        // Sending the last answer may take as long as a client reading slowly needs; lingering after it is short.
        m_timer.start(m_writeShut ? m_options.lingerMs : m_options.idleTimeoutMs);
        break;
    }
}

void HttpConnection::timedOut()
{
    switch (m_state) {
    case State::Head:
        if (m_tls && !m_tls->isEncrypted()) {
            // The TLS handshake did not complete within the header timeout: nothing to answer over.
            qCDebug(lcApi).noquote() << "TLS handshake with" << m_address << "timed out";
            m_tls->abort();
            deleteLater();
        } else if (m_headStarted) {
            refuse(408, Rpc::name(RpcCode::DeadlineExceeded),
                QStringLiteral("The request line and headers did not arrive within %1 ms.")
                    .arg(m_options.headerTimeoutMs));
        } else {
            closeGracefully(); // idle, or never sent anything: nothing to answer
        }
        break;
    case State::Body:
        refuse(408, Rpc::name(RpcCode::DeadlineExceeded),
            QStringLiteral("The request body did not arrive within %1 ms.").arg(m_options.bodyTimeoutMs));
        break;
    case State::Closing:
        if (m_socket)
            m_socket->abort();
        deleteLater();
        break;
    case State::Handling:
        if (m_tls && !m_tls->isEncrypted()) {
            // A refusal waiting for a handshake that did not come (refuse()).
            m_tls->abort();
            deleteLater();
        }
        break;
    case State::Streaming:
        break;
    }
}

void HttpConnection::closeGracefully()
{
    m_state = State::Closing;
    m_closeAfterAnswer = true;
    m_buffer.clear();
    armTimer();
    shutdownWrite();
    readAvailable();
}

void HttpConnection::shutdownWrite()
{
    if (m_writeShut || !m_socket || pendingBytes() > 0)
        return;
    m_writeShut = true;
    if (m_tls) {
        // TLS ends with a close_notify alert, which QSslSocket sends only as it closes the connection; a client
        // that still writes after the answer may then meet a reset, which HTTP/1.1 over TLS tolerates (the answer
        // was framed by its length).
        m_tls->disconnectFromHost();
        armTimer();
        return;
    }
    // The answer is in the kernel: FIN after it, while the read side drains what the client still sends (a reset
    // for unread bytes could overtake the answer). QAbstractSocket has no half-close, hence the descriptor.
    if (m_socket->socketDescriptor() >= 0)
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
    armTimer();
}

} // namespace Trainyard
