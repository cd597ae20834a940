// SPDX-License-Identifier: GPL-2.0-or-later
// The logs of a job: pages read from the line index on the thread pool, and the follow stream.
#include "logshandler.h"

#include "apicommon.h"
#include "apicontext.h"
#include "httpchannel.h"
#include "ssestream.h"

#include "jobstore.h"
#include "logentry.h"
#include "logstore.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>
#include <QtConcurrent>

#include <climits>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

LogsHandler::LogsHandler(ApiContext* context, JobStore* store, LogStore* logs, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_store(store)
    , m_logs(logs)
{
}

HttpApi::Reply LogsHandler::logs(const ApiRequest& request, const QString& project, const QString& jobId,
    const HttpChannelPtr& channel, bool* streaming)
{
    const JobKey key { project, jobId };
    const QUrlQuery query = request.query();
    const bool following = isTrue(queryValue(query, QStringLiteral("follow")));
    // A page only needs the job to exist (no record to read and decode); a stream follows its state.
    const std::optional<Job> job = following ? m_store->job(project, jobId) : std::nullopt;
    if (following ? !job : !m_store->contains(project, jobId))
        return jobNotFound(project, jobId);
    const QString taskName = queryValue(query, QStringLiteral("taskName"));
    const QString severity = queryValue(query, QStringLiteral("severity")).toUpper();
    if (!severity.isEmpty() && !parseLogSeverity(severity))
        return invalidArgument(QStringLiteral("severity"),
            QStringLiteral("must be one of ") + logSeverityNames().join(QStringLiteral(", ")));
    const QString contains = queryValue(query, QStringLiteral("contains"));
    const QString trialId = queryValue(query, QStringLiteral("trialId"));
    int pageSize = 0;
    if (!parsePageSize(queryValue(query, QStringLiteral("pageSize")), HttpApi::DefaultLogsPageSize,
            HttpApi::MaxLogsPageSize, &pageSize))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));
    qint64 offset = 0;
    const QString pageToken = queryValue(query, QStringLiteral("pageToken"));
    if (!pageToken.isEmpty()) {
        QString value;
        bool ok = false;
        if (decodePageToken(pageToken, QStringLiteral("logs"), &value))
            offset = value.toLongLong(&ok);
        if (!ok || offset < 0)
            return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of these logs"));
    }

    if (!following) {
        // Compact JSON spliced by hand: each entry is its line as the store holds it, which is
        // LogEntry::toJsonLine()'s compact object (LogIndex::appendPage() encodes any other line again).
        auto finish = [offset, pageSize](Reply reply, const LogIndex::PageInfo& page) {
            if (page.entries > 0)
                reply.body.chop(1); // the last entry's comma
            reply.body += ']';
            if (page.more)
                reply.body += ",\"nextPageToken\":\""
                    + encodePageToken(QStringLiteral("logs"), QString::number(offset + pageSize)).toLatin1() + '"';
            reply.body += '}';
            return reply;
        };
        const LogStore::ReadRequest read
            = m_logs->prepareRead(key, LogQuery { taskName, severity, contains, offset, pageSize, trialId });
        Reply reply;
        reply.body = "{\"entries\":[";
        // A cached page of indexed files is copied here: that takes less than the round trip to the pool.
        if (const std::optional<LogIndex::PageInfo> page = LogStore::appendLinesNow(read, {}, ",", &reply.body))
            return finish(std::move(reply), *page);
        // Anything that could wait goes to the pool: a disk read, indexing (what a restart left unindexed is the
        // whole files), a scan for `contains` or `trialId`.
        *streaming = true;
        m_context->runLater(channel, [read, reply, finish]() mutable {
            const LogIndex::PageInfo page = LogStore::appendLines(read, {}, ",", &reply.body);
            return finish(std::move(reply), page);
        });
        return {};
    }

    *streaming = true;
    SseStream* stream = m_context->openStream(channel, "following " + jobId.toUtf8());

    // A stream is live (each batch written as it arrives) or catching up (read from the files in slices on the pool,
    // the next slice once the client has read most of the last). A stream starts catching up (its backlog), and goes
    // back to it whenever its client has more than LiveUnreadBytes unread: the entries it misses meanwhile are in the
    // files. So a stream holds at most about LiveUnreadBytes + a slice (~1.5 MB) however slow its client, where it
    // held everything its client had not read (up to SseStream::MaxBacklogBytes, 64 MiB, then dropped); bench_api:
    // 500 followers of a job printing 10,000 lines/s.
    constexpr int BacklogSlice = 1000; // ~200 KB of frames
    constexpr qint64 BacklogUnreadBytes = 256 * 1024;
    constexpr qint64 LiveUnreadBytes = 1024 * 1024;
    static constexpr qint64 MaxHeldBytes = 1024 * 1024;
    struct Follow {
        bool live = false;
        /// The index (in the query's order) of the next entry the client is to get.
        qint64 next = 0;
        /// Live frames that arrived while catching up, written after the last slice (shared with the other
        /// followers: no copy). Past MaxHeldBytes none are kept (`overflowed`), and catching up goes on in the
        /// files, which hold them (a snapshot taken again).
        QList<HttpChannel::Chunk> held;
        qint64 heldBytes = 0;
        qint64 heldEntries = 0;
        bool overflowed = false;
        LogStore::ReadRequest backlog;
        QString endState; ///< the job ended while catching up: end after it
        void hold(const HttpChannel::Chunk& frames, qint64 entries)
        {
            if (overflowed || frames.isEmpty())
                return;
            if (heldBytes + frames.framed.size() > MaxHeldBytes) {
                overflowed = true;
                return;
            }
            held.append(frames);
            heldBytes += frames.framed.size();
            heldEntries += entries;
        }
        void dropHeld()
        {
            held.clear();
            heldBytes = heldEntries = 0;
            overflowed = false;
        }
    };
    auto follow = std::make_shared<Follow>();
    follow->next = offset;
    const bool scans = !contains.isEmpty() || !trialId.isEmpty();
    const LogQuery backlogQuery { taskName, severity, contains, offset, scans ? INT_MAX : BacklogSlice, trialId };
    auto readSlice = std::make_shared<std::function<void(qint64)>>();
    std::weak_ptr<std::function<void(qint64)>> weakRead = readSlice;
    QPointer<LogStore> logStore(m_logs);
    // Catching up again after entries were dropped: what is pending goes to the files (and to the subscribers: to
    // ours, which drops it too), and the files' new end is where the live entries take over.
    auto resnapshot = [logStore, follow, key, backlogQuery] {
        if (!logStore)
            return false;
        logStore->flush();
        follow->dropHeld();
        follow->backlog = logStore->prepareRead(key, backlogQuery);
        return true;
    };

    // Deliver what other subscribers still have pending, so our subscription starts exactly after
    // what the files hold now: nothing is sent twice and nothing is missed.
    m_logs->flush();
    const LogSeverity minSeverity = logSeverityFromName(severity);
    QPointer<SseStream> guard(stream);
    const bool unfiltered = taskName.isEmpty() && minSeverity <= LogSeverity::Default && !scans;
    const int subscription = m_logs->subscribe(key,
        [guard, channel, taskName, minSeverity, contains, trialId, follow, unfiltered, logStore, resnapshot, weakRead](
            const QList<LogEntry>& batch) {
            if (!guard || guard->isFinished() || !logStore)
                return;
            // Every unfiltered follower of a job gets the same frames: encoded and chunk-framed once per batch and
            // shared, down to the sockets' write buffers (HttpChannel::Chunk), because encoding was most of a
            // stream's cost and copying the rest.
            static struct {
                const LogStore* store = nullptr;
                quint64 batch = 0;
                HttpChannel::Chunk frames;
                qint64 entries = 0;
            } shared;
            HttpChannel::Chunk frames;
            qint64 entries = 0;
            if (unfiltered && shared.store == logStore.data() && shared.batch == logStore->deliveringBatch()) {
                frames = shared.frames;
                entries = shared.entries;
            } else {
                QByteArray text = HttpChannel::chunkHead();
                for (const LogEntry& e : batch) {
                    if (!taskName.isEmpty() && e.taskName != taskName)
                        continue;
                    if (e.severityLevel() < minSeverity)
                        continue;
                    if (!contains.isEmpty() && !e.message.contains(contains))
                        continue;
                    if (!trialId.isEmpty() && e.trialId != trialId)
                        continue;
                    text += "data: ";
                    text += e.toJsonLine();
                    text += "\n\n";
                    ++entries;
                }
                frames = HttpChannel::finishChunk(std::move(text));
                if (unfiltered) {
                    shared.store = logStore.data();
                    shared.batch = logStore->deliveringBatch();
                    shared.frames = frames;
                    shared.entries = entries;
                }
            }
            if (!follow->live) {
                follow->hold(frames, entries);
                return;
            }
            if (channel->backlog() > LiveUnreadBytes) {
                // The client is behind: these entries and the next ones come from the files once it has read most
                // of what it has (not from here: the store is delivering, and flush() must not run inside that).
                follow->live = false;
                follow->overflowed = true;
                QTimer::singleShot(0, guard, [resnapshot, weakRead, follow] {
                    const auto read = weakRead.lock();
                    if (read && resnapshot())
                        (*read)(follow->next);
                });
                return;
            }
            guard->writeChunk(frames);
            follow->next += entries;
        });
    auto end = [guard, logStore, follow](const QString& state) {
        if (!guard || guard->isFinished())
            return;
        if (!follow->live) {
            follow->endState = state;
            return;
        }
        if (logStore)
            logStore->flush(); // hands our subscriber whatever is still pending
        if (!guard || guard->isFinished())
            return;
        guard->writeEvent("end", compact(QJsonObject { { QStringLiteral("state"), state } }));
        guard->finish(true);
    };

    // The backlog: taken now (subscribed above, with no event in between, so it ends exactly where the
    // subscription starts) and read on the pool in slices, each written when it arrives; the next slice
    // waits while the client has much unread. A `contains` or `trialId` filter scans the files, so it reads in
    // one go.
    follow->backlog = m_logs->prepareRead(key, backlogQuery);
    // A slice read on the pool: its entries framed as SSE events, and whether more follow.
    struct SliceRead {
        HttpChannel::Chunk events; ///< framed on the pool, so the event loop copies nothing
        LogIndex::PageInfo page;
    };
    *readSlice = [this, guard, channel, follow, end, weakRead, resnapshot](qint64 after) {
        LogStore::ReadRequest slice = follow->backlog;
        slice.query.afterIndex = after;
        auto* watcher = new QFutureWatcher<SliceRead>(this);
        connect(watcher, &QFutureWatcher<SliceRead>::finished, this,
            [watcher, guard, channel, slice, follow, end, weakRead, resnapshot] {
                watcher->deleteLater();
                const auto again = weakRead.lock();
                if (!guard || guard->isFinished() || !again)
                    return;
                const SliceRead read = watcher->result();
                guard->writeChunk(read.events);
                follow->next = slice.query.afterIndex + read.page.entries;
                bool more = read.page.more && slice.query.limit != INT_MAX;
                if (follow->overflowed && resnapshot())
                    more = true; // live entries were dropped: read on to the files' new end
                if (more) {
                    const qint64 next = follow->next;
                    QTcpSocket* socket = channel->socket();
                    if (socket && channel->backlog() > BacklogUnreadBytes)
                        connect(
                            socket, &QTcpSocket::bytesWritten, guard, [again, next] { (*again)(next); },
                            Qt::SingleShotConnection);
                    else
                        (*again)(next);
                    return;
                }
                follow->live = true;
                for (const HttpChannel::Chunk& frames : std::as_const(follow->held))
                    guard->writeChunk(frames);
                follow->next += follow->heldEntries;
                follow->dropHeld();
                if (!follow->endState.isEmpty())
                    end(follow->endState);
            });
        watcher->setFuture(QtConcurrent::run([slice] {
            SliceRead read;
            QByteArray events = HttpChannel::chunkHead();
            read.page = LogStore::appendLines(slice, "data: ", "\n\n", &events);
            read.events = HttpChannel::finishChunk(std::move(events));
            return read;
        }));
    };
    // The stream owns the reader: it ends with the stream, and a slice in flight then finds it gone.
    stream->cleanup = [logStore, subscription, keep = readSlice]() mutable {
        if (logStore)
            logStore->unsubscribe(subscription);
        keep.reset();
    };
    (*readSlice)(offset);

    auto ending = std::make_shared<bool>(false);
    auto onJob = [guard, key, end, ending](const QString& changedProject, const Job& changed) {
        if (changed.jobId != key.jobId || changedProject != key.project || !isFinal(changed.state) || *ending)
            return;
        *ending = true;
        const QString state = jobStateName(changed.state);
        QTimer::singleShot(EndSettleMs, guard, [end, state] { end(state); });
    };
    connect(m_store, &JobStore::jobChanged, stream, onJob);
    onJob(project, *job);
    return {};
}

} // namespace Trainyard
