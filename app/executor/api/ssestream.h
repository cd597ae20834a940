// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API's files (not installed, not included outside app/executor/api/).

#include "httpapi.h"
#include "httpchannel.h"

#include <QByteArray>
#include <QObject>
#include <QTimer>

#include <functional>

namespace Trainyard {

/// One Server-Sent Events response on a request's channel, with chunked framing (so `curl -N` and
/// QNetworkAccessManager both see each event as it is written). The connection belongs to the HTTP
/// server; it may go away at any time, so every write checks the channel first. `cleanup` runs exactly
/// once, when the stream ends for any reason (unsubscribe from stores there).
///
/// A client that stops reading is dropped once more than MaxBacklogBytes wait for it; a stream that is
/// silent for KeepaliveMs gets a comment, so proxies and clients see it is alive. Main thread only.
class SseStream : public QObject {
public:
    /// Replies larger than this are not buffered further for a slow stream client: it is dropped.
    static constexpr qint64 MaxBacklogBytes = 64 * 1024 * 1024;
    /// Silence on a stream longer than this (ms) gets a comment.
    static constexpr int KeepaliveMs = 15000;

    SseStream(HttpChannelPtr channel, QObject* parent);
    ~SseStream() override;

    /// Runs once when the stream ends (finish(), a lost peer, or destruction).
    std::function<void()> cleanup;
    /// Whose stream this is (HttpApi counts streams per principal against TransportOptions::maxStreamsPerPrincipal).
    QString principal;
    /// The access token it was opened with (empty: the admin's token): revoking or the expiry of the token ends it.
    QString tokenId;

    /// Writes the status line, the headers and a first comment, so that clients see the stream start.
    void start(const QByteArray& comment);

    /// One event: `event: NAME` (omitted when empty) and `data: DATA` (one line: compact JSON).
    void writeEvent(const QByteArray& event, const QByteArray& data);

    /// Writes already framed SSE text (one or more events, or a comment) as one chunk.
    void writeChunk(const QByteArray& payload) { writeChunk(HttpChannel::chunk(payload)); }
    /// As above, the chunk framed once for every stream that writes it (HttpChannel::Chunk).
    void writeChunk(const HttpChannel::Chunk& chunk);

    bool isFinished() const { return m_finished; }

    /// Ends the stream: the terminating chunk when `graceful` and the connection is still there, then
    /// the connection is closed and this object deleted later.
    void finish(bool graceful = true);

private:
    void runCleanup();

    HttpChannelPtr m_channel;
    QTimer m_keepalive;
    bool m_finished = false;
};

} // namespace Trainyard
