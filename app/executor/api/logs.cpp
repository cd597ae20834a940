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
#include <QHttpServerRequest>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>
#include <QtConcurrent>

#include <climits>

namespace Trainyard {

using namespace Api;

HttpApi::Reply HttpApi::logs(const QHttpServerRequest& request, const QString& project, const QString& jobId,
    const HttpChannelPtr& channel, bool* streaming)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    const JobKey key { project, jobId };
    const QUrlQuery query = request.query();
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

    if (!isTrue(queryValue(query, QStringLiteral("follow")))) {
        // Read on the pool: a page of a big log is a few preads, but indexing what a restart left unindexed
        // reads the whole files once.
        *streaming = true;
        answerLater(channel,
            [request
                = m_logs->prepareRead(key, LogQuery { taskName, severity, contains, offset, pageSize + 1, trialId }),
                offset, pageSize]() {
                const QList<QByteArray> lines = LogStore::readLines(request);
                QByteArray body;
                const qsizetype count = std::min<qsizetype>(lines.size(), pageSize);
                qsizetype bytes = 64;
                for (qsizetype i = 0; i < count; ++i)
                    bytes += lines.at(i).size() + 1;
                body.reserve(bytes);
                body += "{\"entries\":[";
                for (qsizetype i = 0; i < count; ++i) {
                    if (i > 0)
                        body += ',';
                    body += lines.at(i);
                }
                body += ']';
                if (lines.size() > pageSize)
                    body += ",\"nextPageToken\":\""
                        + encodePageToken(QStringLiteral("logs"), QString::number(offset + pageSize)).toLatin1() + '"';
                body += '}';
                Reply reply;
                reply.body = body;
                return reply;
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
    auto readSlice = std::make_shared<std::function<void(qint64)>>();
    std::weak_ptr<std::function<void(qint64)>> weakRead = readSlice;
    *readSlice = [this, guard, channel, backlog, follow, end, weakRead](qint64 after) {
        LogStore::ReadRequest slice = backlog;
        slice.query.afterIndex = after;
        auto* watcher = new QFutureWatcher<QList<QByteArray>>(this);
        connect(watcher, &QFutureWatcher<QList<QByteArray>>::finished, this,
            [watcher, guard, channel, slice, follow, end, weakRead] {
                watcher->deleteLater();
                const auto again = weakRead.lock();
                if (!guard || guard->isFinished() || !again)
                    return;
                const QList<QByteArray> lines = watcher->result();
                QByteArray out;
                for (const QByteArray& line : lines) {
                    out += "data: " + line + "\n\n";
                    if (out.size() > 256 * 1024) {
                        guard->writeChunk(out);
                        out.clear();
                    }
                }
                guard->writeChunk(out);
                if (lines.size() == slice.query.limit && slice.query.limit != INT_MAX) {
                    const qint64 next = slice.query.afterIndex + lines.size();
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
        watcher->setFuture(QtConcurrent::run([slice] { return LogStore::readLines(slice); }));
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
