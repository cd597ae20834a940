// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A loopback HTTP/1.1 server whose answers a test decides, for clients that must be checked against replies no
// real server gives on demand (a slurmrestd that crashes mid-request, never answers, or speaks another API
// version). It runs on the test's event loop: the client under test and the server answer each other through it.

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>
#include <QUrlQuery>

#include <functional>
#include <utility>

namespace Trainyard::Test {

class FakeHttpServer : public QObject {
public:
    struct Request {
        QByteArray method;
        QString path; ///< without the query
        QUrlQuery query;
        QMap<QByteArray, QByteArray> headers; ///< names in lower case
        QByteArray body;
    };
    struct Response {
        enum class Action {
            Answer,
            Close, ///< close the connection without a word (a server that crashed)
            Hang, ///< never answer (a server that hangs)
            Hold, ///< answer when the test calls answerHeld()
        };
        int status = 200;
        QByteArray body;
        QByteArray contentType = "application/json";
        Action action = Action::Answer;
    };
    using Handler = std::function<Response(const Request&)>;

    /// Listens on 127.0.0.1 on a free port; `handler` answers every request.
    explicit FakeHttpServer(Handler handler, QObject* parent = nullptr)
        : QObject(parent)
        , m_handler(std::move(handler))
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { readFrom(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    void setHandler(Handler handler) { m_handler = std::move(handler); }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }
    /// Answers every request held so far (Response::Action::Hold) with `response`.
    void answerHeld(const Response& response)
    {
        const QList<QPointer<QTcpSocket>> held = std::exchange(m_held, {});
        for (const QPointer<QTcpSocket>& socket : held) {
            if (socket)
                write(socket, response);
        }
    }
    /// Every request received so far, in order.
    const QList<Request>& requests() const { return m_requests; }
    /// The requests for `path`.
    QList<Request> requestsFor(const QString& path) const
    {
        QList<Request> out;
        for (const Request& r : m_requests) {
            if (r.path == path)
                out.append(r);
        }
        return out;
    }

private:
    void readFrom(QTcpSocket* socket)
    {
        QByteArray& buffer = m_buffers[socket];
        buffer += socket->readAll();
        for (;;) {
            const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
            if (headerEnd < 0)
                return;
            const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
            Request request;
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            request.method = first.value(0);
            const QUrl target(QString::fromLatin1(first.value(1)));
            request.path = target.path();
            request.query = QUrlQuery(target);
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines.at(i).indexOf(':');
                if (colon > 0)
                    request.headers.insert(
                        lines.at(i).left(colon).trimmed().toLower(), lines.at(i).mid(colon + 1).trimmed());
            }
            const qsizetype length = request.headers.value("content-length", "0").toLongLong();
            if (buffer.size() < headerEnd + 4 + length)
                return;
            request.body = buffer.mid(headerEnd + 4, length);
            buffer.remove(0, headerEnd + 4 + length);
            m_requests.append(request);
            const Response response = m_handler(request);
            switch (response.action) {
            case Response::Action::Close:
                m_buffers.remove(socket);
                socket->abort();
                return;
            case Response::Action::Hang:
                continue;
            case Response::Action::Hold:
                m_held.append(socket);
                continue;
            case Response::Action::Answer:
                write(socket, response);
                continue;
            }
        }
    }

    static void write(QTcpSocket* socket, const Response& response)
    {
        socket->write("HTTP/1.1 " + QByteArray::number(response.status) + " X\r\nContent-Type: " + response.contentType
            + "\r\nContent-Length: " + QByteArray::number(response.body.size()) + "\r\n\r\n" + response.body);
    }

    QTcpServer m_server;
    Handler m_handler;
    QList<Request> m_requests;
    QMap<QTcpSocket*, QByteArray> m_buffers;
    QList<QPointer<QTcpSocket>> m_held;
};

} // namespace Trainyard::Test
