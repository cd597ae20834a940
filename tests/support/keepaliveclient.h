// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A blocking HTTP/1.1 client on one keep-alive connection, for benchmarks that load a server from many threads
// (QNetworkAccessManager opens at most 6 connections per host and needs an event loop per thread).

#include <QByteArray>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Trainyard::Test {

/// An answer: the status (0 when none came), the Content-Type and the body.
struct HttpResponse {
    int status = 0;
    QByteArray contentType;
    QByteArray body;
};

/// One keep-alive connection to 127.0.0.1:`port` (from `sourceAddress` when given, host order), TCP_NODELAY.
class Connection {
public:
    explicit Connection(quint16 port, quint32 sourceAddress = 0)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (m_fd < 0)
            return;
        const int one = 1;
        ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (sourceAddress) {
            sockaddr_in local {};
            local.sin_family = AF_INET;
            local.sin_addr.s_addr = htonl(sourceAddress);
            if (::bind(m_fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
                close();
                return;
            }
        }
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
            close();
    }
    ~Connection() { close(); }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    bool isOpen() const { return m_fd >= 0; }
    int fd() const { return m_fd; }
    void close()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

    bool sendAll(const QByteArray& data)
    {
        qsizetype sent = 0;
        while (sent < data.size()) {
            const ssize_t n = ::send(m_fd, data.constData() + sent, size_t(data.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += n;
        }
        return true;
    }

    /// One request and its whole answer (Content-Length framing, as every non-stream answer of the executor and the
    /// static server has). False when the connection failed.
    bool request(const QByteArray& method, const QByteArray& target, const QByteArray& token, const QByteArray& body,
        HttpResponse* response)
    {
        QByteArray head = method + ' ' + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        if (!token.isEmpty())
            head += "Authorization: Bearer " + token + "\r\n";
        if (!body.isEmpty() || method != "GET")
            head += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
        head += "\r\n";
        if (!isOpen() || !sendAll(head + body))
            return false;
        return readResponse(response);
    }

private:
    bool readResponse(HttpResponse* response)
    {
        qsizetype headerEnd = -1;
        qint64 length = -1;
        for (;;) {
            if (headerEnd < 0 && (headerEnd = m_buffer.indexOf("\r\n\r\n")) >= 0) {
                const QByteArray head = m_buffer.left(headerEnd);
                response->status = head.mid(9, 3).toInt();
                for (const QByteArray& line : head.split('\n')) {
                    const qsizetype colon = line.indexOf(':');
                    if (colon < 0)
                        continue;
                    const QByteArray name = line.left(colon).trimmed().toLower();
                    if (name == "content-length")
                        length = line.mid(colon + 1).trimmed().toLongLong();
                    else if (name == "content-type")
                        response->contentType = line.mid(colon + 1).trimmed();
                }
                if (length < 0)
                    return false; // not an answer this client reads
            }
            if (headerEnd >= 0 && m_buffer.size() >= headerEnd + 4 + length) {
                response->body = m_buffer.mid(headerEnd + 4, length);
                m_buffer.remove(0, headerEnd + 4 + length);
                return true;
            }
            char chunk[1 << 16];
            const ssize_t got = ::recv(m_fd, chunk, sizeof chunk, 0);
            if (got <= 0)
                return false;
            m_buffer.append(chunk, got);
        }
    }

    int m_fd = -1;
    QByteArray m_buffer;
};

} // namespace Trainyard::Test
