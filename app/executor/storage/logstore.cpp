// SPDX-License-Identifier: GPL-2.0-or-later
#include "logstore.h"
#include "runtimelogging.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace Trainyard {

namespace {

// Buffered bytes of one stream above which we write without waiting for the timer, so that a
// fast replica cannot grow the executor's memory: the write path stays flat at about this size.
constexpr size_t FlushThresholdBytes = 256 * 1024;
// The timer that writes buffers and hands batches to subscribers; the contract says ≤ 100 ms.
constexpr int FlushIntervalMs = 50;

using LogJson::appendEscaped;
using LogJson::formatTimestamp;
using LogJson::TimestampChars;

/// How often a stream that dropped lines (a full disk) tries to write that it did, as the scheduler retries a
/// job's end.
constexpr int DropRetryMs = 2000;

QString streamName(int stream)
{
    static const QString out = QStringLiteral("stdout");
    static const QString err = QStringLiteral("stderr");
    return stream == 2 ? err : stream == 1 ? out : QString();
}

// A level word of Python's logging (and the common WARN/FATAL spellings) at `p`, or false.
bool levelWord(const char* p, size_t n, LogSeverity* sev, size_t* len)
{
    struct Word {
        const char* text;
        size_t len;
        LogSeverity sev;
    };
    static constexpr Word words[] = {
        { "DEBUG", 5, LogSeverity::Debug },
        { "INFO", 4, LogSeverity::Info },
        { "WARNING", 7, LogSeverity::Warning },
        { "WARN", 4, LogSeverity::Warning },
        { "ERROR", 5, LogSeverity::Error },
        { "CRITICAL", 8, LogSeverity::Critical },
        { "FATAL", 5, LogSeverity::Critical },
    };
    for (const Word& w : words) {
        if (n >= w.len && std::memcmp(p, w.text, w.len) == 0) {
            *sev = w.sev;
            *len = w.len;
            return true;
        }
    }
    return false;
}

inline bool isWordBoundary(char c)
{
    return c == ' ' || c == ':' || c == ']' || c == '-' || c == '|' || c == '\t';
}

/// Severity of one output line, from the prefixes trainers actually print:
/// - Python logging's default format "LEVEL:logger:message" (logging.basicConfig());
/// - "%(asctime)s %(levelname)s …" and "%(asctime)s - name - LEVEL - …" (a date first, then the level
///   word within the first 64 bytes);
/// - "[LEVEL] …";
/// - glog and absl (Python absl-py uses the same prefix): "Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg"
///   with L one of I, W, E, F.
/// Everything else is INFO, stdout or stderr, as the service does.
LogSeverity detectSeverity(const char* p, size_t n, size_t* prefix = nullptr)
{
    if (prefix)
        *prefix = 0;
    if (n < 5)
        return LogSeverity::Info;
    LogSeverity sev;
    size_t len;
    // glog/absl: I1122 05:04:43.123456
    if ((p[0] == 'I' || p[0] == 'W' || p[0] == 'E' || p[0] == 'F') && n >= 14 && isAsciiDigit(p[1])
        && isAsciiDigit(p[2]) && isAsciiDigit(p[3]) && isAsciiDigit(p[4]) && p[5] == ' ' && isAsciiDigit(p[6])
        && isAsciiDigit(p[7]) && p[8] == ':') {
        switch (p[0]) {
        case 'W':
            return LogSeverity::Warning;
        case 'E':
            return LogSeverity::Error;
        case 'F':
            return LogSeverity::Critical;
        default:
            return LogSeverity::Info;
        }
    }
    // logging default: INFO:root:message (the prefix is "INFO:root:"; "INFO:" for a named logger, whose
    // name stays in the message)
    if (p[0] >= 'C' && p[0] <= 'W' && levelWord(p, n, &sev, &len) && len < n && p[len] == ':') {
        if (prefix) {
            *prefix = len + 1;
            if (n >= len + 6 && std::memcmp(p + len + 1, "root:", 5) == 0)
                *prefix = len + 6;
            while (*prefix < n && p[*prefix] == ' ') // "ERROR: message", as print() writes it
                ++*prefix;
        }
        return sev;
    }
    // [INFO] message
    if (p[0] == '[' && levelWord(p + 1, n - 1, &sev, &len) && len + 1 < n && p[len + 1] == ']') {
        if (prefix)
            *prefix = len + 2 + (len + 2 < n && p[len + 2] == ' ' ? 1 : 0);
        return sev;
    }
    // 2026-11-22 05:04:43,123 INFO message / 2026-11-22 05:04:43,123 - name - INFO - message
    if (n >= 20 && isAsciiDigit(p[0]) && isAsciiDigit(p[1]) && isAsciiDigit(p[2]) && isAsciiDigit(p[3])
        && p[4] == '-') {
        const size_t limit = std::min<size_t>(n, 64);
        for (size_t i = 10; i + 4 <= limit; ++i) {
            if (!isWordBoundary(p[i - 1]))
                continue;
            if (levelWord(p + i, limit - i, &sev, &len) && (i + len == n || isWordBoundary(p[i + len])))
                return sev;
        }
    }
    return LogSeverity::Info;
}

bool startsWith(const char* p, size_t n, const char* text)
{
    const size_t len = std::strlen(text);
    return n >= len && std::memcmp(p, text, len) == 0;
}

/// argparse's "prog: error: message" (prog may hold blanks: "python -m trainer.task: error: …").
bool isProgError(const char* p, size_t n)
{
    const size_t limit = std::min<size_t>(n, 200);
    for (size_t i = 1; i + 9 <= limit; ++i) {
        if (p[i] == ':' && std::memcmp(p + i, ": error: ", 9) == 0)
            return true;
    }
    return false;
}

/// LogStore::classifyLine on raw bytes. `traceback`: 0 outside a traceback, 1 inside one, 2 just after its
/// exception line (where "During handling …" or "The above exception …" chain the next one).
LogSeverity classify(const char* p, size_t n, bool isStderr, int* traceback, size_t* prefix)
{
    *prefix = 0;
    if (isStderr) {
        if (startsWith(p, n, "Traceback (most recent call last):")) {
            *traceback = 1;
            return LogSeverity::Error;
        }
        if (*traceback == 1) {
            // Frames and source lines are indented; the first line that is not is the exception
            // ("ValueError: …"), which ends this traceback.
            if (n > 0 && p[0] != ' ' && p[0] != '\t')
                *traceback = 2;
            return LogSeverity::Error;
        }
        if (*traceback == 2) {
            if (n == 0 || startsWith(p, n, "During handling") || startsWith(p, n, "The above exception"))
                return LogSeverity::Error; // between chained tracebacks
            *traceback = 0;
        }
    }
    const LogSeverity sev = detectSeverity(p, n, prefix);
    if (sev != LogSeverity::Info || *prefix > 0)
        return sev;
    if (isStderr && isProgError(p, n))
        return LogSeverity::Error;
    return LogSeverity::Info;
}

qint64 nowUs()
{
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return qint64(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

} // namespace

struct LogStore::Private {
    LogStore* q = nullptr;
    QString dataDir;
    QTimer timer;
    QTimer dropRetry; // while a stream has dropped lines to report: tries to write the report (DropRetryMs)

    struct Stream {
        QString jobName;
        QString taskName;
        QString path;
        int fd = -1;
        bool openFailed = false;
        std::string buffer; // encoded JSON lines not yet written
        std::string partial[2]; // unfinished last line of stdout / stderr
        int traceback[2] = { 0, 0 }; // where in a Python traceback each stream is (see classify())
        // The constant middle of every line of this stream: `","taskName":"…","trialId":"…","message":"`.
        std::string middle;
        QString middleTrial;
        bool middleBuilt = false;
        qint64 droppedLines = 0; // lines that could not be written (a full disk), not yet reported in the log
        QString dropReason; // strerror of the last failed write
        bool dropWarned = false; // the executor's own log said so (once per spell of failures)
        bool closing = false; // closeJob() came while a report of dropped lines was pending: closed after it
    };
    // Key: jobName + '\n' + taskName (neither may contain a newline).
    QHash<QString, Stream*> streams;
    std::vector<Stream*> dirty;

    struct Sub {
        QString jobName;
        Subscriber fn;
    };
    QHash<int, Sub> subs;
    QHash<QString, int> subCountByJob;
    QHash<QString, QList<LogEntry>> pending; // per job, for subscribers
    quint64 batchSerial = 0; // deliveringBatch()
    int nextSubId = 1;

    // Line indexes by job, with when each was last asked for (a counter), for dropping the least recent.
    struct Indexed {
        std::shared_ptr<LogIndex> index;
        quint64 used = 0;
    };
    QHash<QString, Indexed> indexes;
    quint64 useCounter = 0;

    std::shared_ptr<LogIndex> indexFor(const QString& jobName)
    {
        Indexed& entry = indexes[jobName];
        if (!entry.index)
            entry.index = std::make_shared<LogIndex>(logsDir(jobName));
        entry.used = ++useCounter;
        // Keep the total bounded: drop the least recently read other jobs' indexes (a read in flight
        // keeps its own alive through its request).
        qint64 total = 0;
        for (const Indexed& i : std::as_const(indexes))
            total += i.index ? i.index->lineCount() : 0;
        while (total > LogStore::MaxIndexedLines && indexes.size() > 1) {
            auto oldest = indexes.end();
            for (auto it = indexes.begin(); it != indexes.end(); ++it) {
                if (it.key() != jobName && (oldest == indexes.end() || it->used < oldest->used))
                    oldest = it;
            }
            if (oldest == indexes.end())
                break;
            total -= oldest->index ? oldest->index->lineCount() : 0;
            indexes.erase(oldest);
        }
        return entry.index;
    }

    ~Private()
    {
        for (Stream* s : std::as_const(streams)) {
            writeOut(s);
            if (s->fd >= 0)
                ::close(s->fd);
            delete s;
        }
    }

    static QString key(const QString& jobName, const QString& taskName)
    {
        return jobName + QLatin1Char('\n') + taskName;
    }

    /// `<job folder>/logs`; empty for a job name whose project or job ID is no safe folder name (JobKey::folder()),
    /// which then has no log files: nothing is written or read outside the data folder.
    QString logsDir(const QString& jobName) const
    {
        const QString folder = JobKey::fromName(jobName).folder(dataDir);
        return folder.isEmpty() ? QString() : folder + QStringLiteral("/logs");
    }
    /// The log file of `taskName` in `jobName`'s logs; empty when either is no safe name.
    QString logFile(const QString& jobName, const QString& taskName) const
    {
        const QString dir = logsDir(jobName);
        return dir.isEmpty() ? QString() : PathName::child(dir, taskName + QStringLiteral(".jsonl"));
    }

    Stream* stream(const QString& jobName, const QString& taskName)
    {
        const QString k = key(jobName, taskName);
        auto it = streams.constFind(k);
        if (it != streams.constEnd()) {
            it.value()->closing = false; // the job writes again (a restart) before its report went out
            return it.value();
        }
        auto* s = new Stream;
        s->jobName = jobName;
        s->taskName = taskName;
        s->path = logFile(jobName, taskName);
        s->buffer.reserve(FlushThresholdBytes + 64 * 1024);
        streams.insert(k, s);
        return s;
    }

    void buildMiddle(Stream* s, const QString& trialId)
    {
        s->middle.clear();
        s->middle.append("\",\"taskName\":\"");
        const QByteArray t = s->taskName.toUtf8();
        appendEscaped(s->middle, t.constData(), size_t(t.size()));
        s->middle.append("\",\"trialId\":\"");
        const QByteArray tr = trialId.toUtf8();
        appendEscaped(s->middle, tr.constData(), size_t(tr.size()));
        s->middle.append("\",\"message\":\"");
        s->middleTrial = trialId;
        s->middleBuilt = true;
    }

    void markDirty(Stream* s)
    {
        if (std::find(dirty.begin(), dirty.end(), s) == dirty.end())
            dirty.push_back(s);
        if (!timer.isActive())
            timer.start();
    }

    void writeOut(Stream* s)
    {
        if (s->buffer.empty())
            return;
        if (s->fd < 0 && !s->openFailed && s->path.isEmpty()) {
            s->openFailed = true;
            qCWarning(lcRuntime).noquote()
                << "no log file for" << s->jobName << s->taskName << ": not a safe folder or file name";
        }
        if (s->fd < 0 && !s->openFailed) {
            QDir().mkpath(logsDir(s->jobName));
            s->fd = ::open(QFile::encodeName(s->path).constData(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (s->fd < 0) {
                s->openFailed = true;
                qCWarning(lcRuntime, "cannot open log file %s: %s", qPrintable(s->path), std::strerror(errno));
            }
        }
        bool failed = false;
        if (s->fd >= 0) {
            // Where the file ended: a batch that cannot be written whole (ENOSPC half way) is cut back to its last
            // whole line, so the file never holds half a line that the next batch would run into.
            struct stat st { };
            const off_t before = ::fstat(s->fd, &st) == 0 ? st.st_size : -1;
            const char* p = s->buffer.data();
            size_t left = s->buffer.size();
            while (left > 0) {
                const ssize_t n = ::write(s->fd, p, left);
                if (n < 0) {
                    if (errno == EINTR)
                        continue;
                    const int error = errno;
                    // Keep the whole lines that were written; cut the rest of the last one off.
                    const size_t written = size_t(p - s->buffer.data());
                    const size_t lastNewline = written > 0 ? s->buffer.rfind('\n', written - 1) : std::string::npos;
                    const size_t keep = lastNewline == std::string::npos ? 0 : lastNewline + 1;
                    if (before >= 0 && keep < written && ::ftruncate(s->fd, before + off_t(keep)) != 0)
                        qCWarning(lcRuntime, "cannot cut %s back to its last line: %s", qPrintable(s->path),
                            std::strerror(errno));
                    // One warning when a stream starts losing lines, not one per batch (a full disk stays full).
                    if (!std::exchange(s->dropWarned, true))
                        qCWarning(lcRuntime,
                            "cannot write log file %s: %s; its lines are dropped (and counted) until it can",
                            qPrintable(s->path), std::strerror(error));
                    s->droppedLines += qint64(std::count(s->buffer.cbegin() + qsizetype(keep), s->buffer.cend(), '\n'));
                    s->dropReason = QString::fromLocal8Bit(std::strerror(error));
                    failed = true;
                    break;
                }
                p += n;
                left -= size_t(n);
            }
        }
        s->buffer.clear(); // keeps its capacity: no allocation on the next burst
        if (failed && !dropRetry.isActive())
            dropRetry.start();
        if (!failed && s->fd >= 0 && s->droppedLines > 0)
            reportDrops(s);
    }

    /// Writes "N log line(s) of TASK could not be stored (…)" into the stream, where the lines are missing; the
    /// count stays for the next try when the disk is still full (the report's own line is not counted as dropped).
    void reportDrops(Stream* s)
    {
        if (s->droppedLines == 0 || s->fd < 0 || !s->buffer.empty())
            return;
        const qint64 dropped = s->droppedLines;
        const QByteArray note = QStringLiteral("%1 log line(s) of %2 could not be stored (%3) and are missing here.")
                                    .arg(dropped)
                                    .arg(s->taskName, s->dropReason)
                                    .toUtf8();
        const qint64 us = nowUs();
        char ts[TimestampChars];
        formatTimestamp(us, ts);
        appendLine(s, us, ts, LogSeverity::Warning, s->middleTrial, note.constData(), size_t(note.size()),
            subCountByJob.value(s->jobName) > 0);
        s->droppedLines = 0; // so that writeOut() does not report again from inside
        writeOut(s);
        if (s->droppedLines > 0) {
            s->droppedLines = dropped; // still full: the report comes later
            return;
        }
        s->dropWarned = false;
        qCInfo(lcRuntime, "log file %s is writable again; %lld line(s) were dropped", qPrintable(s->path), dropped);
    }

    /// dropRetry's tick: reports the drops of every stream that can be written again.
    void retryDrops()
    {
        bool pending = false;
        for (auto it = streams.begin(); it != streams.end();) {
            Stream* s = it.value();
            reportDrops(s);
            pending = pending || s->droppedLines > 0;
            if (s->closing && s->droppedLines == 0) {
                if (s->fd >= 0)
                    ::close(s->fd);
                delete s;
                it = streams.erase(it);
            } else {
                ++it;
            }
        }
        if (pending)
            dropRetry.start();
        deliverPending();
    }

    /// Classifies one line of a replica's output and appends it without its logging prefix.
    void appendOutputLine(Stream* s, qint64 ts, const char* tsText, const QString& trialId, const char* msg, size_t len,
        bool isStderr, bool deliver)
    {
        if (len > 0 && msg[len - 1] == '\r')
            --len;
        size_t prefix = 0;
        const LogSeverity sev = classify(msg, len, isStderr, &s->traceback[isStderr ? 1 : 0], &prefix);
        appendLine(s, ts, tsText, sev, trialId, msg + prefix, len - prefix, deliver, isStderr ? 2 : 1);
    }

    /// `stream`: 0 none (the executor's own lines), 1 stdout, 2 stderr.
    void appendLine(Stream* s, qint64 ts, const char* tsText, LogSeverity sev, const QString& trialId, const char* msg,
        size_t len, bool deliver, int stream = 0)
    {
        if (len > 0 && msg[len - 1] == '\r')
            --len;
        if (!s->middleBuilt || s->middleTrial != trialId)
            buildMiddle(s, trialId);
        std::string& b = s->buffer;
        b.append("{\"timestamp\":\"", 14);
        b.append(tsText, TimestampChars);
        b.append("\",\"severity\":\"", 14);
        b.append(logSeverityName(sev).data(), size_t(logSeverityName(sev).size()));
        b.append(s->middle);
        appendEscaped(b, msg, len);
        if (stream == 2)
            b.append("\",\"stream\":\"stderr\"}\n");
        else if (stream == 1)
            b.append("\",\"stream\":\"stdout\"}\n");
        else
            b.append("\"}\n", 3);
        if (deliver)
            pending[s->jobName].append(LogEntry { ts, logSeverityString(sev), s->taskName, trialId,
                QString::fromUtf8(msg, qsizetype(len)), streamName(stream) });
    }

    void deliverPending()
    {
        // Each job's pending list is handed to its subscribers and then given back empty, keeping its
        // capacity: at hundreds of thousands of lines a second, re-growing a fresh list every tick costs
        // more (page faults, relocations) than everything else on the path.
        QStringList jobs;
        for (auto it = pending.cbegin(); it != pending.cend(); ++it) {
            if (!it.value().isEmpty())
                jobs << it.key();
        }
        for (const QString& jobName : std::as_const(jobs)) {
            auto it = pending.find(jobName);
            if (it == pending.end() || it->isEmpty())
                continue;
            QList<LogEntry> batch;
            batch.swap(*it);
            // Copy the subscribers first: a callback may unsubscribe.
            QList<Subscriber> fns;
            for (const Sub& sub : std::as_const(subs)) {
                if (sub.jobName == jobName)
                    fns.append(sub.fn);
            }
            // Unique in the process, not only in this store: a store made later at the same address must not
            // hand out a number a subscriber has seen from this one.
            static std::atomic<quint64> batches { 0 };
            batchSerial = ++batches;
            for (const Subscriber& fn : std::as_const(fns))
                fn(batch);
            batch.clear();
            it = pending.find(jobName);
            if (it != pending.end() && it->isEmpty())
                it->swap(batch);
        }
    }

    void tick()
    {
        for (Stream* s : dirty)
            writeOut(s);
        dirty.clear();
        deliverPending();
    }
};

LogStore::LogStore(const QString& dataDir, QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->dataDir = dataDir;
    d->timer.setSingleShot(true);
    d->timer.setInterval(FlushIntervalMs);
    connect(&d->timer, &QTimer::timeout, this, [this] { d->tick(); });
    d->dropRetry.setSingleShot(true);
    d->dropRetry.setInterval(DropRetryMs);
    connect(&d->dropRetry, &QTimer::timeout, this, [this] { d->retryDrops(); });
}

LogStore::~LogStore() = default;

void LogStore::append(const JobKey& job, const LogEntry& entry)
{
    const QString jobName = job.name();
    Private::Stream* s = d->stream(jobName, entry.taskName);
    LogEntry copy = entry;
    if (!copy.timestampUs)
        copy.timestampUs = nowUs();
    if (copy.severity.isEmpty())
        copy.severity = logSeverityString(LogSeverity::Info);
    // The file gets no `stream`: entries appended here are the executor's own (replica output, which has
    // one, comes through appendOutput()); subscribers get the entry as given.
    LogEntry stored = copy;
    stored.stream.clear();
    const QByteArray line = stored.toJsonLine();
    s->buffer.append(line.constData(), size_t(line.size()));
    s->buffer.push_back('\n');
    if (d->subCountByJob.value(jobName) > 0)
        d->pending[jobName].append(copy);
    d->markDirty(s);
}

void LogStore::appendOutput(
    const JobKey& job, const QString& taskName, const QString& trialId, const QByteArray& bytes, bool isStderr)
{
    const QString jobName = job.name();
    if (bytes.isEmpty())
        return;
    Private::Stream* s = d->stream(jobName, taskName);
    const bool deliver = d->subCountByJob.value(jobName) > 0;
    // One arrival time per chunk: the lines of one read arrived together.
    const qint64 us = nowUs();
    char ts[TimestampChars];
    formatTimestamp(us, ts);

    std::string& partial = s->partial[isStderr ? 1 : 0];
    const char* p = bytes.constData();
    const char* end = p + bytes.size();
    if (!partial.empty()) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
        if (!nl) {
            partial.append(p, size_t(end - p));
            d->markDirty(s);
            return;
        }
        partial.append(p, size_t(nl - p));
        d->appendOutputLine(s, us, ts, trialId, partial.data(), partial.size(), isStderr, deliver);
        partial.clear();
        p = nl + 1;
    }
    while (p < end) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
        if (!nl) {
            partial.assign(p, size_t(end - p));
            break;
        }
        const size_t len = size_t(nl - p);
        d->appendOutputLine(s, us, ts, trialId, p, len, isStderr, deliver);
        p = nl + 1;
    }
    if (s->buffer.size() >= FlushThresholdBytes)
        d->writeOut(s);
    d->markDirty(s);
}

void LogStore::finishOutput(const JobKey& job, const QString& taskName)
{
    const QString jobName = job.name();
    auto it = d->streams.constFind(Private::key(jobName, taskName));
    if (it == d->streams.constEnd())
        return;
    Private::Stream* s = it.value();
    const bool deliver = d->subCountByJob.value(jobName) > 0;
    const qint64 us = nowUs();
    char ts[TimestampChars];
    formatTimestamp(us, ts);
    for (int stream = 0; stream < 2; ++stream) {
        std::string& partial = s->partial[stream];
        if (!partial.empty())
            d->appendOutputLine(s, us, ts, s->middleTrial, partial.data(), partial.size(), stream == 1, deliver);
        partial.clear();
        s->traceback[stream] = 0;
    }
    d->markDirty(s);
}

void LogStore::flush()
{
    d->timer.stop();
    d->tick();
}

qint64 LogStore::storedOutputLines(
    const JobKey& job, const QString& taskName, const QString& trialId, bool isStderr, qint64 sinceUs)
{
    flush();
    const QString path = d->logFile(job.name(), taskName);
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return 0;
    const QString wanted = isStderr ? QStringLiteral("stderr") : QStringLiteral("stdout");
    qint64 count = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        // Cheap test first: most lines of a long log are of the other stream or of the executor.
        if (!line.contains(
                isStderr ? QByteArrayView("\"stream\":\"stderr\"") : QByteArrayView("\"stream\":\"stdout\"")))
            continue;
        const std::optional<LogEntry> entry = LogEntry::fromJsonLine(QByteArrayView(line).trimmed());
        if (!entry || entry->stream != wanted || entry->trialId != trialId || entry->taskName != taskName)
            continue;
        if (entry->timestampUs >= sinceUs)
            ++count;
    }
    return count;
}

void LogStore::closeJob(const JobKey& job)
{
    const QString jobName = job.name();
    flush();
    for (auto it = d->streams.begin(); it != d->streams.end();) {
        Private::Stream* s = it.value();
        if (s->jobName == jobName) {
            d->reportDrops(s);
            if (s->droppedLines > 0) {
                // The report of its dropped lines is still to be written (a full disk): the retry closes it after.
                s->closing = true;
                ++it;
                continue;
            }
            if (s->fd >= 0)
                ::close(s->fd);
            delete s;
            it = d->streams.erase(it);
        } else {
            ++it;
        }
    }
}

LogStore::ReadRequest LogStore::prepareRead(const JobKey& job, const LogQuery& query)
{
    const QString jobName = job.name();
    ReadRequest request;
    request.query = query;
    // Names come from request paths: nothing may step out of the job's logs folder (PathName).
    const QString logsDir = d->logsDir(jobName);
    if (logsDir.isEmpty() || (!query.taskName.isEmpty() && !PathName::isSafe(query.taskName)))
        return request;
    // Readers see what was appended so far, also what is still buffered.
    for (Private::Stream* s : d->dirty)
        d->writeOut(s);
    d->dirty.clear();

    // A job read before lists its folder through its index (which skips the listing while the folder is unchanged).
    const auto known = d->indexes.constFind(jobName);
    request.files = known != d->indexes.cend() && known->index ? known->index->currentFiles(query.taskName)
                                                               : LogIndex::snapshot(logsDir, query.taskName);
    if (!request.files.empty())
        request.index = d->indexFor(jobName);
    return request;
}

QList<QByteArray> LogStore::readLines(const ReadRequest& request)
{
    if (!request.index)
        return {};
    return request.index->read(request.files, request.query);
}

LogIndex::PageInfo LogStore::appendLines(
    const ReadRequest& request, QByteArrayView before, QByteArrayView after, QByteArray* out)
{
    if (!request.index)
        return {};
    return request.index->appendPage(request.files, request.query, before, after, out);
}

std::optional<LogIndex::PageInfo> LogStore::appendLinesNow(
    const ReadRequest& request, QByteArrayView before, QByteArrayView after, QByteArray* out)
{
    if (!request.index) // nothing to read: an empty page, at once
        return LogIndex::PageInfo {};
    return request.index->appendPageNow(request.files, request.query, before, after, out);
}

QFuture<QList<QByteArray>> LogStore::readLinesAsync(const JobKey& job, const LogQuery& query)
{
    return QtConcurrent::run([request = prepareRead(job, query)] { return readLines(request); });
}

QList<LogEntry> LogStore::read(const JobKey& job, const QString& taskName, const QString& minSeverity,
    qint64 afterIndex, int limit, const QString& contains)
{
    const QList<QByteArray> lines
        = readLines(prepareRead(job, LogQuery { taskName, minSeverity, contains, afterIndex, limit, {} }));
    QList<LogEntry> result;
    result.reserve(lines.size());
    for (const QByteArray& line : lines)
        result.append(LogEntry::fromJsonLine(line).value_or(LogEntry()));
    return result;
}

quint64 LogStore::deliveringBatch() const
{
    return d->batchSerial;
}

int LogStore::subscribe(const JobKey& job, Subscriber subscriber)
{
    const QString jobName = job.name();
    const int id = d->nextSubId++;
    d->subs.insert(id, { jobName, std::move(subscriber) });
    ++d->subCountByJob[jobName];
    return id;
}

void LogStore::unsubscribe(int id)
{
    auto it = d->subs.find(id);
    if (it == d->subs.end())
        return;
    const QString jobName = it->jobName;
    d->subs.erase(it);
    if (--d->subCountByJob[jobName] <= 0) {
        d->subCountByJob.remove(jobName);
        d->pending.remove(jobName);
    }
}

LogStore::Classified LogStore::classifyLine(const QByteArray& line, bool isStderr, int* traceback)
{
    size_t prefix = 0;
    int state = traceback ? *traceback : 0;
    const LogSeverity sev = classify(line.constData(), size_t(line.size()), isStderr, &state, &prefix);
    if (traceback)
        *traceback = state;
    return { logSeverityString(sev), int(prefix) };
}

} // namespace Trainyard
