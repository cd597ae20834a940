// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QMutex>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace Trainyard {

/// Whether `c` is an ASCII digit, '0' to '9': the log line parsers' test, which unlike std::isdigit does not depend
/// on the C locale.
constexpr bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// What a read of a job's log asks for (the query of `GET …/jobs/{id}/logs`).
struct LogQuery {
    QString taskName; ///< one replica's file; empty = all
    QString minSeverity; ///< Cloud Logging severity name; empty = all
    QString contains; ///< non-empty: only messages holding this text (case-sensitive)
    qint64 afterIndex = 0; ///< entries to skip: a position in the merged, filtered order
    int limit = 1000; ///< entries to return at most
    QString trialId; ///< non-empty: only entries of this trial of a tuning job
};

/// The line index of one job's log files (`<logsDir>/<taskName>.jsonl`), after klogg's `LinePositionArray`:
/// per file, the byte offset, timestamp and severity of every complete, valid line. A page is then found
/// without parsing a line (each file is in time order, so the merged position of a page is a binary search
/// over timestamps, see read()) and read with one `pread` per file.
///
/// Built from the files themselves, incrementally: each read first indexes what was appended since the last
/// one. Nothing is persisted — after an executor restart the first read of a job rebuilds its index (about
/// 2–4 M lines/s on one core of the shared development machines): the files stay the only truth, so there is no second
/// file to keep in step with them across a crash. Crash safety is the files': a line without its newline (a torn tail)
/// is not indexed until it is complete; a line that is not a JSON object (a torn tail that a later executor's append
/// completed into garbage) is skipped, as reading the file line by line always did.
///
/// Files: kept open between reads, up to MaxKeptFiles in the process.
///
/// Memory: 16 bytes per indexed line (offset, with the severity (a LogSeverity ordinal), whether the line is
/// canonical (isCanonicalLine()) and whether it follows the previous indexed line directly in its top byte;
/// timestamp in µs).
///
/// Thread-safe: reads of one job are serialized by a mutex and are meant to run on a pool thread (appendPageNow()
/// on any thread, as it never waits for the mutex or the disk); the files may be appended to meanwhile (only bytes
/// below each file's snapshot size are read).
class LogIndex {
public:
    /// `logsDir`: the job's `logs` folder.
    explicit LogIndex(const QString& logsDir);
    ~LogIndex();
    LogIndex(const LogIndex&) = delete;
    LogIndex& operator=(const LogIndex&) = delete;

    /// One file a read covers.
    struct SnapshotFile {
        QString name; ///< "master-replica-0.jsonl"
        qint64 size = 0; ///< its bytes when the read was asked for: what the read covers
        quint64 inode = 0; ///< which file the name held then; 0: unknown (the read opens the file to see)
        bool operator==(const SnapshotFile&) const = default;
    };
    /// Which files a read covers and how many bytes of each: what had been written when the read was asked
    /// for (LogStore::prepareRead()), in the order that breaks timestamp ties.
    using Snapshot = std::vector<SnapshotFile>;
    /// The files of `logsDir` now: every `*.jsonl` regular file (a symbolic link to one counts; hidden names do
    /// not) in name order (QString's, as QDir::Name sorts), or only `<taskName>.jsonl` when `taskName` is not
    /// empty; with their sizes and inodes. Empty when the folder or the file does not exist. One folder listing and
    /// a stat per file, with no QDir: every page read takes one (QDir::entryList() compiled its name filter each
    /// time).
    static Snapshot snapshot(const QString& logsDir, const QString& taskName = {});
    /// snapshot() of this index's folder, without listing the folder again while it is unchanged (same inode and
    /// modification time, a listing taken more than a second after that time: the file system's clock for it is
    /// coarse, so a name added in the same tick would not change it). A stat per file, as snapshot().
    Snapshot currentFiles(const QString& taskName = {});

    /// The entries of `query` within `files`, merged across files by timestamp (a stable merge: equal
    /// timestamps keep file order, then line order — the order LogStore has always served), each as its JSON
    /// line exactly as LogEntry::toJsonLine() writes it (no newline). A line that the store wrote is passed
    /// through as stored; any other valid line is parsed and encoded again.
    ///
    /// Cost: indexing what is new since the last read; then, without a `contains` filter, a binary search
    /// per file per timestamp probe (O(files · log² lines); a `minSeverity` filter first lists the matching
    /// lines of the index, one byte compare per line) and about one `pread` per file for the page. A
    /// `contains` filter reads every line of the files (messages are not indexed) and parses the lines that
    /// hold the text, as before. A file whose timestamps go back (a clock step, or entries appended with
    /// older timestamps) makes the merge walk from the first line, over the index only.
    QList<QByteArray> read(const Snapshot& files, const LogQuery& query);

    /// What appendPage() appended: how many entries, and whether the merged, filtered order holds more after
    /// them (the API's `nextPageToken`).
    struct PageInfo {
        qint64 entries = 0;
        bool more = false;
    };
    /// The entries read() returns, appended to `out` as `before` + JSON line + `after` each (a page body's
    /// `line,`; an SSE event's `data: line\n\n`), with no QByteArray or LogEntry per line: the page's bytes are
    /// read with one `pread` per file and run of near lines, and a line that was canonical when it was indexed is
    /// copied from them as it is (its bytes are only checked to still frame a line: `{"timestamp":"` … `}`);
    /// any other line is parsed and encoded again. `out` grows once, by the page's size. Same cost as read()
    /// otherwise; the bytes are the same.
    PageInfo appendPage(
        const Snapshot& files, const LogQuery& query, QByteArrayView before, QByteArrayView after, QByteArray* out);

    /// The largest page (its lines' bytes) that appendPageNow() copies.
    static constexpr qint64 MaxBytesNow = 256 * 1024;
    /// appendPage() on the calling thread when nothing in it can wait, for the event loop: a cached page of a
    /// finished job costs tens of µs there, less than a round trip to the thread pool and back. Nullopt, with
    /// `out` unchanged, when another read holds the index, a file has lines that are not indexed yet (or was
    /// replaced), the query scans the files (`contains`, `trialId`), a line of the page must be encoded again, the
    /// page's bytes exceed MaxBytesNow, or any of them is not in the page cache (`preadv2(RWF_NOWAIT)`; on a file
    /// system that cannot tell, such as tmpfs, always): then appendPage() on the pool. A page it answered before
    /// for the same files at the same sizes is copied from memory.
    std::optional<PageInfo> appendPageNow(
        const Snapshot& files, const LogQuery& query, QByteArrayView before, QByteArrayView after, QByteArray* out);

    /// Lines indexed so far, all files (for the store's memory bound).
    qint64 lineCount() const { return m_lineCount.load(std::memory_order_relaxed); }

    /// Files kept open between reads, across all indexes of the process: a page read then opens nothing (opening
    /// and closing the files cost as much as reading a page of 1,000 lines from them). Above this many, a file is
    /// opened for each read. A kept file is closed when the snapshot shows another file under its name, and
    /// when its index is dropped.
    static constexpr int MaxKeptFiles = 128;

    /// Whether `line` (no newline) is exactly what LogEntry::toJsonLine() writes for the entry it holds, so
    /// that it can be served as is: the store's key order, a canonical timestamp, the store's escapes only, and
    /// otherwise printable ASCII or valid UTF-8 (no overlong form, no surrogate, at most U+10FFFF), which the
    /// encoder writes as it is (LogJson::appendEscaped()). Decided once per line, when it is indexed.
    static bool isCanonicalLine(QByteArrayView line);

private:
    struct File;
    struct Fetched;
    File* file(const QString& name);
    /// The shared part of read() and appendPage(): finds the entries of `query` and reads their bytes. `now`:
    /// false instead of anything that could wait (see appendPageNow()).
    bool fetch(const Snapshot& files, const LogQuery& query, Fetched* fetched, bool now);
    static PageInfo assemble(const Fetched& fetched, QByteArrayView before, QByteArrayView after, QByteArray* out);

    QString m_logsDir;
    /// The last listing of the folder, for currentFiles() (its own mutex: reads hold m_mutex for long).
    struct Listing {
        bool trusted = false; ///< taken long enough after the folder last changed to be reused
        quint64 inode = 0;
        qint64 mtimeNs = 0;
        std::vector<std::pair<QString, QByteArray>> names; ///< name, path
    };
    QMutex m_listingMutex;
    Listing m_listing;
    /// The pages appendPageNow() answered last, with what they were read from. The files are append-only, so the
    /// same snapshot (names, sizes, inodes) and query give the same bytes: a page asked for again before its files
    /// grew (the first page of a live job's log, polled by every console that shows it) is copied from here, with no
    /// pread and no index lookup. Its own mutex, as m_listing's.
    struct RecentPage {
        Snapshot files;
        LogQuery query;
        QByteArray before;
        QByteArray after;
        QByteArray bytes;
        PageInfo info;
    };
    static constexpr size_t RecentPages = 8;
    const RecentPage* recentPage(
        const Snapshot& files, const LogQuery& query, QByteArrayView before, QByteArrayView after) const;
    QMutex m_recentMutex;
    std::vector<RecentPage> m_recent; ///< the most recent last
    QMutex m_mutex;
    std::vector<std::unique_ptr<File>> m_files;
    std::atomic<qint64> m_lineCount { 0 };
};

} // namespace Trainyard
