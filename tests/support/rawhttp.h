// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Raw HTTP/1.1 over loopback for tests that speak to the executor's transport as an attacker would: malformed
// heads, slow and half-sent requests, pipelined bursts, smuggling. Blocking POSIX sockets with poll() bounds, for a
// client thread while the API's event loop runs on the main thread (as loopbackhttp.h). No Qt networking: the bytes
// on the wire are exactly the ones given.

#include <QByteArray>
#include <QList>

#include <chrono>
#include <optional>

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Trainyard::Test {

/// One answer read off a raw connection: the status code, the head (status line and headers, lower-cased names
/// kept as sent) and the body (by Content-Length, or chunked up to the last chunk).
struct RawAnswer {
    int status = 0;
    QByteArray head;
    QByteArray body;
    /// The value of header `name` (lower case), trimmed; empty when absent.
    QByteArray header(const QByteArray& name) const
    {
        const QByteArray lower = head.toLower();
        const qsizetype at = lower.indexOf(QByteArray("\r\n" + name + ':'));
        if (at < 0)
            return {};
        const qsizetype start = at + 3 + name.size();
        return head.mid(start, head.indexOf("\r\n", start) - start).trimmed();
    }
};

/// A loopback TCP connection that sends raw bytes and reads raw HTTP/1.1 answers. Every wait is bounded by a
/// deadline given in milliseconds; nothing sleeps for a fixed time.
class RawHttpConnection {
public:
    explicit RawHttpConnection(quint16 port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (m_fd >= 0 && ::connect(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~RawHttpConnection()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    RawHttpConnection(const RawHttpConnection&) = delete;
    RawHttpConnection& operator=(const RawHttpConnection&) = delete;

    bool isConnected() const { return m_fd >= 0; }

    /// Sends all of `bytes`; false when the peer is gone (reset or closed for writing).
    bool send(const QByteArray& bytes)
    {
        qsizetype sent = 0;
        while (m_fd >= 0 && sent < bytes.size()) {
            const ssize_t n = ::send(m_fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += n;
        }
        return m_fd >= 0;
    }

    /// Reads the next answer within `timeoutMs`; none when the peer closed first or the time ran out.
    std::optional<RawAnswer> readAnswer(int timeoutMs = 10000)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            if (std::optional<RawAnswer> answer = takeAnswer())
                return answer;
            if (!fill(deadline))
                return takeAnswer();
        }
    }

    /// Waits up to `timeoutMs` for the peer to close (EOF or reset), dropping what it sends; true when it did.
    bool waitClosed(int timeoutMs)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (fill(deadline))
            m_buffer.clear();
        return m_closed;
    }

    /// Waits up to `timeoutMs` until at least `size` bytes wait in pending() (keeping them); false when the peer
    /// closed or the time ran out first.
    bool waitForBytes(qsizetype size, int timeoutMs)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (m_buffer.size() < size) {
            if (!fill(deadline))
                return false;
        }
        return true;
    }

    /// Whether the peer has closed by now (what it sent meanwhile stays readable).
    bool isClosedNow()
    {
        fill(std::chrono::steady_clock::now());
        return m_closed;
    }

    /// Bytes received and not yet taken as an answer.
    const QByteArray& pending() const { return m_buffer; }

private:
    /// Reads what arrives before `deadline`; false when nothing more will come (closed, or the time is up).
    bool fill(std::chrono::steady_clock::time_point deadline)
    {
        if (m_fd < 0 || m_closed)
            return false;
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p { m_fd, POLLIN, 0 };
        const int ready = ::poll(&p, 1, int(qMax<qint64>(0, left.count())));
        if (ready <= 0)
            return false;
        char chunk[65536];
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n <= 0) {
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                return true;
            m_closed = true;
            return false;
        }
        m_buffer.append(chunk, n);
        return true;
    }

    /// One complete answer from the front of the buffer, if there is one (1xx answers are skipped).
    std::optional<RawAnswer> takeAnswer()
    {
        for (;;) {
            const qsizetype headEnd = m_buffer.indexOf("\r\n\r\n");
            if (headEnd < 0)
                return std::nullopt;
            RawAnswer answer;
            answer.head = m_buffer.left(headEnd + 2);
            if (!answer.head.startsWith("HTTP/1.1 ") && !answer.head.startsWith("HTTP/1.0 "))
                return std::nullopt;
            answer.status = answer.head.mid(9, 3).toInt();
            qsizetype end = headEnd + 4;
            if (answer.status >= 100 && answer.status < 200) {
                m_buffer.remove(0, end);
                continue;
            }
            if (answer.header("transfer-encoding").toLower() == "chunked") {
                for (;;) {
                    const qsizetype lineEnd = m_buffer.indexOf("\r\n", end);
                    if (lineEnd < 0)
                        return std::nullopt;
                    bool ok = false;
                    const qint64 size = m_buffer.mid(end, lineEnd - end).toLongLong(&ok, 16);
                    if (!ok || m_buffer.size() < lineEnd + 2 + size + 2)
                        return std::nullopt;
                    answer.body += m_buffer.mid(lineEnd + 2, size);
                    end = lineEnd + 2 + size + 2;
                    if (size == 0)
                        break;
                }
            } else {
                const qint64 length = answer.header("content-length").toLongLong();
                if (m_buffer.size() < end + length)
                    return std::nullopt;
                answer.body = m_buffer.mid(end, length);
                end += length;
            }
            m_buffer.remove(0, end);
            return answer;
        }
    }

    int m_fd = -1;
    bool m_closed = false;
    QByteArray m_buffer;
};

} // namespace Trainyard::Test
