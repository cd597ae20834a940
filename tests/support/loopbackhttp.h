// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A blocking HTTP/1.1 client for benchmarks that measure the executor's API from another thread while the
// executor's event loop runs on the main one (QNetworkAccessManager would need that loop, or one of its own).

#include <QByteArray>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace Trainyard::Test {

/// One blocking HTTP/1.1 GET on a fresh loopback connection; returns the body ("" on failure) and the status.
inline QByteArray httpGet(quint16 port, const QByteArray& target, const QByteArray& token, int* status)
{
    *status = 0;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return {};
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // Bounded: a server that never answers ends the call after 60 s (status 0) instead of hanging the test, which
    // then fails with what it got.
    const timeval receiveTimeout { 60, 0 };
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, sizeof receiveTimeout);
    QByteArray response;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        const QByteArray request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
            + "\r\nConnection: close\r\n\r\n";
        if (::send(fd, request.constData(), size_t(request.size()), MSG_NOSIGNAL) == request.size()) {
            qsizetype headerEnd = -1;
            qint64 length = -1;
            char buffer[1 << 16];
            for (;;) {
                const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
                if (got <= 0)
                    break;
                response.append(buffer, got);
                if (headerEnd < 0 && (headerEnd = response.indexOf("\r\n\r\n")) >= 0) {
                    const QByteArray head = response.left(headerEnd).toLower();
                    *status = head.mid(9, 3).toInt();
                    const qsizetype at = head.indexOf("content-length:");
                    if (at >= 0)
                        length = head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
                }
                if (headerEnd >= 0 && length >= 0 && response.size() >= headerEnd + 4 + length)
                    break;
            }
            response = headerEnd >= 0 ? response.mid(headerEnd + 4) : QByteArray();
        }
    }
    ::close(fd);
    return response;
}

} // namespace Trainyard::Test
