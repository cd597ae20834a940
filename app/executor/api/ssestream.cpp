// SPDX-License-Identifier: GPL-2.0-or-later
#include "ssestream.h"
#include "apicommon.h"
#include "httpchannel.h"

namespace Trainyard {

using namespace Api;

SseStream::SseStream(HttpChannelPtr channel, QObject* parent)
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

SseStream::~SseStream()
{
    runCleanup();
}

void SseStream::start(const QByteArray& comment)
{
    m_channel->beginChunked({ { "Content-Type", "text/event-stream; charset=utf-8" }, { "Cache-Control", "no-cache" },
        { "X-Accel-Buffering", "no" } });
    writeChunk(": " + comment + "\n\n");
    m_keepalive.start();
}

void SseStream::writeEvent(const QByteArray& event, const QByteArray& data)
{
    QByteArray payload;
    payload.reserve(event.size() + data.size() + 16);
    if (!event.isEmpty())
        payload += "event: " + event + '\n';
    payload += "data: " + data + "\n\n";
    writeChunk(payload);
}

void SseStream::writeChunk(const HttpChannel::Chunk& payload)
{
    if (m_finished || payload.isEmpty())
        return;
    if (!m_channel->isOpen()) {
        finish(false);
        return;
    }
    if (m_channel->backlog() > MaxBacklogBytes) {
        qCWarning(lcApi) << "dropping a stream client that does not read (more than" << MaxBacklogBytes
                         << "bytes pending)";
        finish(false);
        return;
    }
    m_channel->writeChunk(payload);
    m_keepalive.start();
}

void SseStream::finish(bool graceful)
{
    if (m_finished)
        return;
    m_finished = true;
    m_keepalive.stop();
    runCleanup();
    m_channel->endChunked(graceful);
    deleteLater();
}

void SseStream::runCleanup()
{
    if (cleanup) {
        auto fn = std::move(cleanup);
        cleanup = nullptr;
        fn();
    }
}

} // namespace Trainyard
