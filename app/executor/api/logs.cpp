// SPDX-License-Identifier: GPL-2.0-or-later
// The logs of a job: pages read from the line index on the thread pool, and the follow stream.
#include "apicommon.h"
#include "httpapi.h"
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

HttpApi::Reply HttpApi::logs(const ApiRequest& request, const QString& project, const QString& jobId,
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
    if (!parsePageSize(queryValue(query, QStringLiteral("pageSize")), DefaultLogsPageSize, MaxLogsPageSize, &pageSize))
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
        answerLater(channel, [read, reply, finish]() mutable {
            const LogIndex::PageInfo page = LogStore::appendLines(read, {}, ",", &reply.body);
            return finish(std::move(reply), page);
        });
        return {};
    }

    *streaming = true;
    auto* stream = new SseStream(channel, this);
    addStream(stream);
    stream->start("following " + jobId.toUtf8());

    // Live entries wait here while the backlog is read on the pool, and are written after it.
    struct Follow {
        bool backlogDone = false;
        QByteArray held;
        QString endState; ///< the job ended while the backlog was read: end after it
    };
    auto follow = std::make_shared<Follow>();

    // Deliver what other subscribers still have pending, so our subscription starts exactly after
    // what the files hold now: nothing is sent twice and nothing is missed.
    m_logs->flush();
    const LogSeverity minSeverity = logSeverityFromName(severity);
    QPointer<SseStream> guard(stream);
    const int subscription = m_logs->subscribe(
        key, [guard, taskName, minSeverity, contains, trialId, follow](const QList<LogEntry>& batch) {
            if (!guard || guard->isFinished())
                return;
            QByteArray out;
            for (const LogEntry& e : batch) {
                if (!taskName.isEmpty() && e.taskName != taskName)
                    continue;
                if (e.severityLevel() < minSeverity)
                    continue;
                if (!contains.isEmpty() && !e.message.contains(contains))
                    continue;
                if (!trialId.isEmpty() && e.trialId != trialId)
                    continue;
                out += "data: " + e.toJsonLine() + "\n\n";
            }
            if (follow->backlogDone)
                guard->writeChunk(out);
            else
                follow->held += out;
        });
    QPointer<LogStore> logStore(m_logs);
    auto end = [guard, logStore, follow](const QString& state) {
        if (!guard || guard->isFinished())
            return;
        if (!follow->backlogDone) {
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
    constexpr int BacklogSlice = 10000;
    const bool scans = !contains.isEmpty() || !trialId.isEmpty();
    const LogStore::ReadRequest backlog = m_logs->prepareRead(
        key, LogQuery { taskName, severity, contains, offset, scans ? INT_MAX : BacklogSlice, trialId });
    // A slice read on the pool: its entries framed as SSE events, and whether more follow.
    struct SliceRead {
        QByteArray events;
        LogIndex::PageInfo page;
    };
    auto readSlice = std::make_shared<std::function<void(qint64)>>();
    std::weak_ptr<std::function<void(qint64)>> weakRead = readSlice;
    *readSlice = [this, guard, channel, backlog, follow, end, weakRead](qint64 after) {
        LogStore::ReadRequest slice = backlog;
        slice.query.afterIndex = after;
        auto* watcher = new QFutureWatcher<SliceRead>(this);
        connect(watcher, &QFutureWatcher<SliceRead>::finished, this,
            [watcher, guard, channel, slice, follow, end, weakRead] {
                watcher->deleteLater();
                const auto again = weakRead.lock();
                if (!guard || guard->isFinished() || !again)
                    return;
                const SliceRead read = watcher->result();
                guard->writeChunk(read.events);
                if (read.page.more && slice.query.limit != INT_MAX) {
                    const qint64 next = slice.query.afterIndex + slice.query.limit;
                    QTcpSocket* socket = channel->socket();
                    if (socket && channel->backlog() > 4 * 1024 * 1024)
                        connect(
                            socket, &QTcpSocket::bytesWritten, guard, [again, next] { (*again)(next); },
                            Qt::SingleShotConnection);
                    else
                        (*again)(next);
                    return;
                }
                follow->backlogDone = true;
                guard->writeChunk(follow->held);
                follow->held.clear();
                if (!follow->endState.isEmpty())
                    end(follow->endState);
            });
        watcher->setFuture(QtConcurrent::run([slice] {
            SliceRead read;
            read.page = LogStore::appendLines(slice, "data: ", "\n\n", &read.events);
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
