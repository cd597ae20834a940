// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "jobkey.h"
#include "logentry.h"
#include "logindex.h"

#include <QByteArray>
#include <QDateTime>
#include <QFuture>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace Trainyard {

/// Append-only log files per job and replica, and live subscribers.
///
/// Files: `<job folder>/logs/<taskName>.jsonl`, the job folder being JobKey::folder()
/// (`<dataDir>/projects/<project>/jobs/<jobId>`); one LogEntry a line, as LogEntry::toJsonLine() writes
/// it (models/logentry.h). Writes are buffered and flushed at least every 100 ms and when a job ends, so a crash
/// loses at most that tail. Subscribers get every appended entry in arrival order (per job), in batches, on the main
/// thread. Owned by the executor's main thread; not thread-safe.
class LogStore : public QObject {
    Q_OBJECT
public:
    explicit LogStore(const QString& dataDir, QObject* parent = nullptr);
    ~LogStore() override;

    /// Appends one of the executor's own entries to the job's log: a zero timestamp is now, an empty severity
    /// INFO; the file gets no `stream` (replica output comes through appendOutput()).
    void append(const JobKey& job, const LogEntry& entry);
    /// Appends raw output of a replica: splits `bytes` into lines (keeping a partial last line
    /// for the next call), classifies each (classifyLine()) and appends it with its stream.
    void appendOutput(
        const JobKey& job, const QString& taskName, const QString& trialId, const QByteArray& bytes, bool isStderr);
    /// What a line of output says of itself: its severity and how many leading bytes are a logging
    /// prefix that the severity column now shows (Python logging's "LEVEL:root:" or "LEVEL:", "[LEVEL] ").
    /// Rules: a logging prefix decides where there is one (Python logging, "[LEVEL]", glog/absl, a date then
    /// a level word); on stderr, a Python traceback ("Traceback (most recent call last):", its indented
    /// lines and the exception line after them) and "prog: error: …" lines (argparse) are ERROR; every
    /// other line is INFO, stdout or stderr. The service logs all of stderr as ERROR, which buries the real
    /// errors under progress bars and INFO logs. `traceback` carries where a stream is in a traceback from
    /// line to line (0 to start with; chained tracebacks and the lines between them stay ERROR).
    struct Classified {
        QString severity;
        int prefixLength = 0;
    };
    static Classified classifyLine(const QByteArray& line, bool isStderr, int* traceback);
    /// Flushes any partial line kept for this replica (call when its process exits).
    void finishOutput(const JobKey& job, const QString& taskName);
    /// Writes all buffered entries of all jobs to disk now.
    void flush();
    /// How many lines of a replica's output (`isStderr`: its stderr, else its stdout) the job's log holds for
    /// `trialId` (empty: the job's own cluster) with a timestamp at or after `sinceUs` (µs since the Unix epoch):
    /// the complete lines appendOutput() stored (one entry per line, the partial last line not yet), flushed
    /// first. A backend re-attaching after an executor restart goes on reading the replica's output after them,
    /// so that no line is lost (the ≤ 100 ms a killed executor had not written yet are read again) and none is
    /// stored twice. Reads the replica's file: call it at recovery, not per chunk. 0 for an unknown job or task.
    qint64 storedOutputLines(
        const JobKey& job, const QString& taskName, const QString& trialId, bool isStderr, qint64 sinceUs);
    /// Flushes and closes a job's files (call when the job is final; a later append reopens them).
    void closeJob(const JobKey& job);

    /// What a read on another thread needs: the job's line index and how much of each file to read.
    /// Made by prepareRead() on the store's thread; read with readLines() on any thread.
    struct ReadRequest {
        std::shared_ptr<LogIndex> index; ///< null: nothing to read (unknown job, bad name)
        LogIndex::Snapshot files;
        LogQuery query;
    };
    /// Captures what a read of `job` sees: every entry appended before this call (buffered lines are
    /// written to the files first) and nothing appended later, whenever the read then runs. The query's
    /// `taskName` picks the file (empty: every replica's, in name order). Cheap (a folder listing); call on
    /// the store's thread.
    ReadRequest prepareRead(const JobKey& job, const LogQuery& query);
    /// Runs a prepared read: the entries of the query, merged across replicas in timestamp order, each as
    /// its JSON line (LogEntry::toJsonLine()'s bytes, no newline). Thread-safe and blocking (file reads): run it on a
    /// thread pool (readLinesAsync()). See LogIndex::read() for the cost.
    static QList<QByteArray> readLines(const ReadRequest& request);
    /// Runs a prepared read as readLines() does, appending each entry to `out` as `before` + its JSON line +
    /// `after` (the API's page bodies and SSE backlog), without a QByteArray per line: see LogIndex::appendPage().
    /// Returns how many entries it appended and whether more follow them. Thread-safe and blocking, as readLines().
    static LogIndex::PageInfo appendLines(
        const ReadRequest& request, QByteArrayView before, QByteArrayView after, QByteArray* out);
    /// appendLines() on the calling thread when it cannot wait (LogIndex::appendPageNow(): a cached page of fully
    /// indexed files, no scan); nullopt, with `out` unchanged, otherwise. For the event loop.
    static std::optional<LogIndex::PageInfo> appendLinesNow(
        const ReadRequest& request, QByteArrayView before, QByteArrayView after, QByteArray* out);
    /// prepareRead() now and readLines() on the global thread pool.
    QFuture<QList<QByteArray>> readLinesAsync(const JobKey& job, const LogQuery& query);

    /// Reads a job's entries from disk, merged across replicas in timestamp order, on the calling thread
    /// (prepareRead() + readLines() + parsing; the API reads on the pool instead).
    /// `taskName` empty = all; `minSeverity` empty = all; `contains` non-empty = only messages holding
    /// that text (case-sensitive). At most `limit` entries after `afterIndex` (a position in the merged,
    /// filtered order). Appends nothing for an unknown job.
    QList<LogEntry> read(const JobKey& job, const QString& taskName, const QString& minSeverity, qint64 afterIndex = 0,
        int limit = 1000, const QString& contains = {});

    /// Most lines whose index is kept for jobs not being read (16 bytes each): the least recently read jobs'
    /// indexes are dropped above it, and rebuilt from the files when read again.
    static constexpr qint64 MaxIndexedLines = 32 * 1000 * 1000;

    using Subscriber = std::function<void(const QList<LogEntry>& batch)>;
    /// Registers a live subscriber for one job's new entries; returns an id for unsubscribe().
    int subscribe(const JobKey& job, Subscriber subscriber);
    void unsubscribe(int id);
    /// While subscribers are called: a number of the batch they are handed, the same for every subscriber of that
    /// batch and different for every batch of every store in the process, so that subscribers can encode a batch once
    /// and share it (the API's log streams: 500 followers of a job encode each line once, not 500 times).
    quint64 deliveringBatch() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard
