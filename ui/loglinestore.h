// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// An indexed, append-mostly store of log lines for the log view (klogg's approach: the text lives in big
// chunks, a compact index says where each line starts; nothing per line is a heap object).
//
// Memory per line beyond the text: one 16-byte LineRecord (offset 40 bits + length 24 bits; timestamp
// delta 44 bits + severity 4 bits + task id 16 bits), kept in fixed blocks of 65,536 records, so growing
// never copies the index and the overhead stays at 16 bytes plus at most one partly filled block.
//
// Order: lines are kept in timestamp order. Entries of one replica arrive ordered; entries of different
// replicas interleave with small skew, so an insert searches only the last `ReorderWindow` lines and an
// entry older than that window is placed at the window's start (it keeps its own timestamp). Because of
// that bound, the records below `size() - ReorderWindow` never move again: a worker thread may read them
// through a Snapshot while the GUI thread keeps appending (see LogFilterIndex).
//
// Threading: not thread-safe; all mutation on one thread. Snapshot is safe to read from any thread for
// lines below its `stableCount`.

#include "logentry.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

namespace Trainyard {

/// One line's index entry: 16 bytes.
struct LineRecord {
    /// Byte offset in the text (low 40 bits), length (23 bits: lines are cut at MaxLineLength, 1 MiB) and,
    /// in the top bit, whether the line came from the replica's stderr.
    quint64 offsetAndLength;
    quint64 meta; ///< signed timestamp delta in µs (low 44 bits), severity (4 bits), task id (high 16 bits)

    quint64 offset() const { return offsetAndLength & ((quint64(1) << 40) - 1); }
    int length() const { return int((offsetAndLength >> 40) & 0x7FFFFF); }
    bool isStderr() const { return offsetAndLength >> 63; }
    qint64 timestampDelta() const
    {
        const qint64 raw = qint64(meta & ((quint64(1) << 44) - 1));
        return raw >= (qint64(1) << 43) ? raw - (qint64(1) << 44) : raw;
    }
    LogSeverity severity() const { return LogSeverity((meta >> 44) & 0xF); }
    quint16 taskId() const { return quint16(meta >> 48); }
};
static_assert(sizeof(LineRecord) == 16);

class LogLineStore {
public:
    static constexpr int ReorderWindow = 4096;
    static constexpr int MaxLineLength = 1 << 20; ///< bytes; longer lines are cut (a view cannot show them anyway)
    static constexpr qint64 ChunkSize = 4 << 20; ///< text chunk, bytes

    /// Immutable view of the store's memory for a worker thread; keeps the blocks alive.
    struct Snapshot {
        std::vector<std::shared_ptr<const LineRecord[]>> blocks;
        std::vector<std::shared_ptr<const char[]>> chunks;
        qint64 stableCount = 0; ///< lines [0, stableCount) never change while this snapshot lives
        const LineRecord& record(qint64 line) const
        {
            return blocks[size_t(line >> BlockShift)][size_t(line & BlockMask)];
        }
        const char* text(const LineRecord& r) const
        {
            return chunks[size_t(r.offset() / ChunkSize)].get() + r.offset() % ChunkSize;
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

    qint64 size() const { return m_count; }
    const LineRecord& record(qint64 line) const
    {
        return m_blocks[size_t(line >> BlockShift)][size_t(line & BlockMask)];
    }
    /// The message bytes of a line (valid until the next clear()).
    QByteArrayView text(qint64 line) const
    {
        const LineRecord& r = record(line);
        return QByteArrayView(textPointer(r), r.length());
    }
    qint64 timestampUs(qint64 line) const { return m_baseUs + record(line).timestampDelta(); }
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
    /// Bytes held by the index (records, allocated blocks) and chunk slack, i.e. memory beyond the text.
    qint64 overheadBytes() const;

    /// Counter bumped by clear(), so a worker's result for an old generation can be dropped.
    quint64 generation() const { return m_generation; }
    Snapshot snapshot() const;

    /// A line formatted as the view shows and copies it: "2026-11-22 05:04:43.123456  ERROR  task  message".
    QString formatLine(qint64 line) const;

private:
    static constexpr int BlockShift = 16;
    static constexpr qint64 BlockSize = qint64(1) << BlockShift;
    static constexpr qint64 BlockMask = BlockSize - 1;
    friend struct Snapshot;

    const char* textPointer(const LineRecord& r) const
    {
        return m_chunks[size_t(r.offset() / ChunkSize)].get() + r.offset() % ChunkSize;
    }
    LineRecord& recordRef(qint64 line) { return m_blocks[size_t(line >> BlockShift)][size_t(line & BlockMask)]; }
    quint64 storeText(const char* text, qsizetype size);
    qint64 insertRecord(const LineRecord& record);

    std::vector<std::shared_ptr<LineRecord[]>> m_blocks;
    std::vector<std::shared_ptr<char[]>> m_chunks;
    qint64 m_chunkUsed = ChunkSize; ///< bytes used in the last chunk (full: none yet)
    qint64 m_count = 0;
    qint64 m_textBytes = 0;
    qint64 m_baseUs = 0;
    bool m_haveBase = false;
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
    bool matches(const LineRecord& record, const char* text) const;

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
