// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// An indexed, append-mostly store of log lines for the log view (klogg's approach: the text lives in big
// chunks, a compact index says where each line starts; nothing per line is a heap object).
//
// Memory per line beyond the text: one 12-byte PackedLine (its offset from its page's first line, 32 bits;
// timestamp delta from that line, 43 bits; severity, stream and task id), kept in fixed blocks of 65,536, plus
// 16 bytes per page of 2,048 lines (the page's first offset and timestamp): 12.008 bytes, and at most one partly
// filled block. A line's length is not stored: committed text lies in line order, so a line ends where the next
// begins (or where its chunk's text ends). Growing never copies the index.
//
// Order: lines are kept in timestamp order. Entries of one replica arrive ordered; entries of different
// replicas interleave with small skew, so the last `ReorderWindow` lines are pending: kept whole (24 bytes and
// their text in arrival order), an insert searches only them, and an entry older than all of them is placed at
// the window's start (it keeps its own timestamp). A line leaving the window is committed: its text is copied
// into the chunks in line order and its entry packed. Committed lines never move or change again, so a worker
// thread may read them through a Snapshot while the GUI thread keeps appending (LogView's filter worker).
//
// Threading: not thread-safe; all mutation on one thread. Snapshot is safe to read from any thread for
// lines below its `stableCount`.

#include "logentry.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace Trainyard {

/// One line's facts as the store hands them out: a value decoded from the store's packed index, holding a
/// pointer to the line's UTF-8 bytes (no newline). The pointer stays valid until the store's next append() or
/// clear() for a line still in the reorder window, until clear() for a committed one (and, through a Snapshot,
/// as long as the snapshot lives).
class LineRecord {
public:
    LineRecord() = default;
    LineRecord(const char* text, int length, qint64 timestampUs, LogSeverity severity, quint16 taskId, bool isStderr)
        : m_text(text)
        , m_timestampUs(timestampUs)
        , m_length(length)
        , m_taskId(taskId)
        , m_severity(severity)
        , m_isStderr(isStderr)
    {
    }
    const char* text() const { return m_text; }
    /// Bytes, at most LogLineStore::MaxLineLength.
    int length() const { return m_length; }
    QByteArrayView bytes() const { return QByteArrayView(m_text, m_length); }
    /// µs since the Unix epoch (UTC).
    qint64 timestampUs() const { return m_timestampUs; }
    LogSeverity severity() const { return m_severity; }
    quint16 taskId() const { return m_taskId; }
    /// Whether the line came from the replica's stderr (LogEntry::stream).
    bool isStderr() const { return m_isStderr; }

private:
    const char* m_text = nullptr;
    qint64 m_timestampUs = 0;
    int m_length = 0;
    quint16 m_taskId = 0;
    LogSeverity m_severity = LogSeverity::Default;
    bool m_isStderr = false;
};

namespace LogIndex {
/// A committed line's index entry: 12 bytes, 4-byte aligned. `meta` bits 0–42: signed timestamp delta in µs from
/// the page's first line (±50 days; a line beyond has the escape -2^42 there and its timestamp in the store's
/// TimestampOverflow list); 43–46 severity; 47 stderr; 48–63 task id.
struct PackedLine {
    quint32 relativeOffset; ///< bytes from the page's first line's text
    quint32 metaLow;
    quint32 metaHigh;
};
static_assert(sizeof(PackedLine) == 12);

constexpr int BlockShift = 16; ///< 65,536 lines a block
constexpr qint64 BlockSize = qint64(1) << BlockShift;
constexpr qint64 BlockMask = BlockSize - 1;
/// 2,048 lines a page: a page's text spans at most 2,047 lines of ≤ 1 MiB and as many chunk-end gaps of < 1 MiB,
/// so every relative offset fits 32 bits.
constexpr int PageShift = 11;
constexpr qint64 ChunkSize = 4 << 20; ///< text chunk, bytes

/// Where a page starts: the first line's offset in the text and its timestamp (µs since the epoch).
struct PageBase {
    quint64 offset = 0;
    qint64 timestampUs = 0;
};

/// One block of the index: 786,432 bytes of lines and 512 of page bases.
struct Block {
    PackedLine lines[BlockSize];
    PageBase pages[BlockSize >> PageShift];
};

/// A committed line whose timestamp is more than 50 days from its page's first line's: (line, µs since the epoch),
/// kept in line order (committed lines never move).
struct TimestampOverflow {
    qint64 line;
    qint64 timestampUs;
};

/// Decodes committed lines from the index's parts (shared by LogLineStore and its Snapshot). `chunkUsed[k]`: bytes
/// of text in chunk k; `count`: committed lines; `end`: the offset just after the last committed line's text.
struct View {
    const std::shared_ptr<Block>* blocks;
    const std::shared_ptr<char[]>* chunks;
    const qint64* chunkUsed;
    const std::vector<TimestampOverflow>* overflow;
    qint64 count;
    quint64 end;

    quint64 offset(qint64 line) const
    {
        const Block& block = *blocks[size_t(line >> BlockShift)];
        const qint64 index = line & BlockMask;
        return block.pages[index >> PageShift].offset + block.lines[index].relativeOffset;
    }
    LineRecord record(qint64 line) const;
};
} // namespace LogIndex

class LogLineStore {
public:
    static constexpr int ReorderWindow = 4096;
    static constexpr int MaxLineLength = 1 << 20; ///< bytes; longer lines are cut (a view cannot show them anyway)
    static constexpr qint64 ChunkSize = LogIndex::ChunkSize;

    /// Immutable view of the committed lines for a worker thread; keeps the blocks and chunks alive.
    struct Snapshot {
        std::vector<std::shared_ptr<LogIndex::Block>> blocks;
        std::vector<std::shared_ptr<char[]>> chunks;
        std::vector<qint64> chunkUsed;
        std::vector<LogIndex::TimestampOverflow> overflow;
        quint64 end = 0;
        qint64 stableCount = 0; ///< lines [0, stableCount) never change while this snapshot lives
        LineRecord record(qint64 line) const
        {
            return LogIndex::View { blocks.data(), chunks.data(), chunkUsed.data(), &overflow, stableCount, end }
                .record(line);
        }
    };

    LogLineStore();
    ~LogLineStore();
    LogLineStore(const LogLineStore&) = delete;
    LogLineStore& operator=(const LogLineStore&) = delete;

    /// Appends one line. `text` is UTF-8 without the newline; a text with '\n' becomes several lines
    /// with the same metadata. `timestampUs`: µs since the Unix epoch (UTC). Returns the position of the
    /// first inserted line (less than the old size when it was merged into the reorder window).
    /// `isStderr`: the line came from the replica's stderr (LogEntry::stream).
    qint64 append(qint64 timestampUs, LogSeverity severity, quint16 taskId, const char* text, qsizetype size,
        bool isStderr = false);
    /// Appends entries from the executor's log stream (models/logentry.h). Returns the lowest position
    /// that changed.
    qint64 append(const QList<LogEntry>& entries);
    void clear();

    qint64 size() const { return m_committed + qint64(m_pending.size()); }
    /// Line `line` (0 ≤ line < size()), decoded; see LineRecord for how long its text pointer lives.
    LineRecord record(qint64 line) const
    {
        return line < m_committed ? committedView().record(line) : pendingRecord(line - m_committed);
    }
    /// The message bytes of a line (valid as LineRecord says).
    QByteArrayView text(qint64 line) const { return record(line).bytes(); }
    qint64 timestampUs(qint64 line) const { return record(line).timestampUs(); }
    LogSeverity severity(qint64 line) const { return record(line).severity(); }
    quint16 taskId(qint64 line) const { return record(line).taskId(); }

    /// Interns a task name ("worker-replica-3") as a 16-bit id.
    quint16 taskId(const QString& taskName);
    QString taskName(quint16 id) const { return id < m_taskNames.size() ? m_taskNames.at(id) : QString(); }
    const QStringList& taskNames() const { return m_taskNames; }

    /// Longest line in bytes (for the horizontal scroll range).
    int maxLineLength() const { return m_maxLength; }
    /// Bytes of text held.
    qint64 textBytes() const { return m_textBytes; }
    /// Bytes held beyond the text: the index (allocated blocks), the reorder window's entries and the unused part
    /// of its text buffer, chunk-end gaps and the bookkeeping vectors.
    qint64 overheadBytes() const;

    /// Counter bumped by clear(), so a worker's result for an old generation can be dropped.
    quint64 generation() const { return m_generation; }
    Snapshot snapshot() const;

    /// A line formatted as the view shows and copies it: "2026-11-22 05:04:43.123  ERROR  task  message".
    QString formatLine(qint64 line) const;

private:
    /// A line in the reorder window: 24 bytes, its text in m_staged.
    struct PendingLine {
        qint64 timestampUs;
        qint64 stagedOffset;
        qint32 length;
        quint16 taskId;
        LogSeverity severity;
        bool isStderr;
    };

    LogIndex::View committedView() const
    {
        return { m_blocks.data(), m_chunks.data(), m_chunkUsed.data(), &m_overflow, m_committed, m_committedEnd };
    }
    LineRecord pendingRecord(qint64 index) const
    {
        const PendingLine& p = m_pending[size_t(index)];
        return LineRecord(m_staged.data() + p.stagedOffset, p.length, p.timestampUs, p.severity, p.taskId, p.isStderr);
    }
    quint64 storeText(const char* text, qsizetype size);
    qint64 stage(const char* text, qsizetype size);
    qint64 insertPending(const PendingLine& line);
    void commitOldest();

    std::vector<std::shared_ptr<LogIndex::Block>> m_blocks;
    std::vector<std::shared_ptr<char[]>> m_chunks;
    std::vector<qint64> m_chunkUsed; ///< bytes of text in each chunk
    std::vector<LogIndex::TimestampOverflow> m_overflow;
    qint64 m_committed = 0;
    quint64 m_committedEnd = 0;
    std::deque<PendingLine> m_pending; ///< the reorder window, in timestamp order
    std::vector<char> m_staged; ///< the pending lines' text, in arrival order, with the committed ones' left as gaps
    qint64 m_stagedLive = 0; ///< bytes of m_staged that pending lines still use
    qint64 m_textBytes = 0;
    int m_maxLength = 0;
    quint64 m_generation = 0;
    QStringList m_taskNames;
    QHash<QString, quint16> m_taskIds;
};

/// What the log view shows: all lines, or those of some tasks, a minimum severity, and a text or
/// regular-expression match (case-insensitive) on the message.
/// Which of a replica's output streams a filter keeps.
enum class LogStream { Any, Stdout, Stderr };

struct LogFilter {
    QList<quint16> taskIds; ///< empty = every task
    LogSeverity minSeverity = LogSeverity::Default;
    QString text;
    bool regex = false;
    LogStream stream = LogStream::Any; ///< Stdout keeps every line that is not from stderr (service lines too)

    bool isNull() const
    {
        return taskIds.isEmpty() && minSeverity == LogSeverity::Default && text.isEmpty() && stream == LogStream::Any;
    }
    bool operator==(const LogFilter&) const = default;
};

/// A compiled LogFilter that tests lines of a store (or a snapshot). Usable from any thread.
class LogLineMatcher {
public:
    explicit LogLineMatcher(const LogFilter& filter);
    /// False when the regular expression does not compile (errorString() says why).
    bool isValid() const { return m_valid; }
    QString errorString() const { return m_error; }
    /// Whether the line passes the filter (its severity, stream, task and text).
    bool matches(const LineRecord& record) const;

private:
    LogFilter m_filter;
    quint64 m_taskMask[1024] = {}; ///< bit per task id (65,536 bits)
    bool m_allTasks = true;
    QByteArray m_needleLower; ///< ASCII-lowercased UTF-8 needle for plain text
    QRegularExpression m_regex;
    bool m_valid = true;
    QString m_error;
};

} // namespace Trainyard
