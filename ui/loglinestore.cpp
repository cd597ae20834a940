// SPDX-License-Identifier: GPL-2.0-or-later
#include "loglinestore.h"

#include "apiclient.h"

#include <QDateTime>

#include <algorithm>
#include <cstring>

namespace Trainyard {

namespace {
/// Timestamp deltas from a page's first line: 43 bits, signed; the lowest value is the escape to m_overflow.
constexpr qint64 MaxDelta = (qint64(1) << 42) - 1;
constexpr qint64 OverflowDelta = -(qint64(1) << 42);
/// The pending lines' text buffer is compacted when it is this large and at least half of it is gaps.
constexpr qint64 StagedCompactBytes = 1 << 20;

inline char asciiLower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c + ('a' - 'A')) : c;
}
} // namespace

namespace LogIndex {

LineRecord View::record(qint64 line) const
{
    const Block& block = *blocks[size_t(line >> BlockShift)];
    const qint64 index = line & BlockMask;
    const PackedLine& packed = block.lines[index];
    const PageBase& page = block.pages[index >> PageShift];
    const quint64 offset = page.offset + packed.relativeOffset;
    // A committed line ends where the next one starts, unless the next one opened a new chunk: then where its
    // own chunk's text ends.
    const quint64 chunk = offset / quint64(ChunkSize);
    quint64 next = line + 1 < count ? this->offset(line + 1) : end;
    if (next / quint64(ChunkSize) != chunk)
        next = chunk * quint64(ChunkSize) + quint64(chunkUsed[chunk]);
    const quint64 meta = quint64(packed.metaLow) | (quint64(packed.metaHigh) << 32);
    const qint64 raw = qint64(meta & ((quint64(1) << 43) - 1));
    const qint64 delta = raw >= (qint64(1) << 42) ? raw - (qint64(1) << 43) : raw;
    qint64 timestampUs = page.timestampUs + delta;
    if (delta == OverflowDelta) {
        const auto it = std::lower_bound(overflow->begin(), overflow->end(), line,
            [](const TimestampOverflow& o, qint64 key) { return o.line < key; });
        timestampUs = it != overflow->end() && it->line == line ? it->timestampUs : page.timestampUs;
    }
    return LineRecord(chunks[chunk].get() + offset % quint64(ChunkSize), int(next - offset), timestampUs,
        LogSeverity((meta >> 43) & 0xF), quint16(meta >> 48), (meta >> 47) & 1);
}

} // namespace LogIndex

LogLineStore::LogLineStore() = default;
LogLineStore::~LogLineStore() = default;

void LogLineStore::clear()
{
    m_blocks.clear();
    m_chunks.clear();
    m_chunkUsed.clear();
    m_overflow.clear();
    m_committed = 0;
    m_committedEnd = 0;
    m_pending.clear();
    std::vector<char>().swap(m_staged); // its capacity too: up to the window's text, which a clear gives back
    m_stagedLive = 0;
    m_textBytes = 0;
    m_maxLength = 0;
    ++m_generation;
    // Task ids stay: filters and colours keyed by task id remain meaningful across a reconnect.
}

quint16 LogLineStore::taskId(const QString& taskName)
{
    const auto it = m_taskIds.constFind(taskName);
    if (it != m_taskIds.constEnd())
        return it.value();
    if (m_taskNames.size() >= 0xFFFF)
        return 0xFFFF; // beyond 65,535 distinct tasks every further one shares the last id
    const quint16 id = quint16(m_taskNames.size());
    m_taskNames.append(taskName);
    m_taskIds.insert(taskName, id);
    return id;
}

quint64 LogLineStore::storeText(const char* text, qsizetype size)
{
    // A line never straddles two chunks, and even an empty one starts inside a chunk (so its offset names one).
    if (m_chunks.empty() || m_chunkUsed.back() + std::max<qsizetype>(size, 1) > ChunkSize) {
        m_chunks.push_back(std::shared_ptr<char[]>(new char[size_t(ChunkSize)]));
        m_chunkUsed.push_back(0);
    }
    qint64& used = m_chunkUsed.back();
    const quint64 offset = quint64(m_chunks.size() - 1) * quint64(ChunkSize) + quint64(used);
    std::memcpy(m_chunks.back().get() + used, text, size_t(size));
    used += size;
    return offset;
}

qint64 LogLineStore::stage(const char* text, qsizetype size)
{
    if (qint64(m_staged.size()) >= StagedCompactBytes && m_stagedLive * 2 <= qint64(m_staged.size())) {
        // At least half is text of lines already committed: keep only the pending lines' (amortised O(1) a byte).
        std::vector<char> kept;
        kept.reserve(size_t(m_stagedLive + size) * 2);
        for (PendingLine& line : m_pending) {
            const qint64 at = qint64(kept.size());
            kept.insert(kept.end(), m_staged.data() + line.stagedOffset,
                m_staged.data() + line.stagedOffset + line.length);
            line.stagedOffset = at;
        }
        m_staged.swap(kept);
    }
    const qint64 offset = qint64(m_staged.size());
    m_staged.insert(m_staged.end(), text, text + size);
    m_stagedLive += size;
    return offset;
}

void LogLineStore::commitOldest()
{
    const PendingLine line = m_pending.front();
    m_pending.pop_front();
    const quint64 offset = storeText(m_staged.data() + line.stagedOffset, line.length);
    m_stagedLive -= line.length;

    if ((m_committed & LogIndex::BlockMask) == 0)
        m_blocks.push_back(std::make_shared<LogIndex::Block>());
    LogIndex::Block& block = *m_blocks.back();
    const qint64 index = m_committed & LogIndex::BlockMask;
    LogIndex::PageBase& page = block.pages[index >> LogIndex::PageShift];
    if ((index & ((qint64(1) << LogIndex::PageShift) - 1)) == 0)
        page = { offset, line.timestampUs };
    qint64 delta = line.timestampUs - page.timestampUs;
    if (delta < -MaxDelta || delta > MaxDelta) {
        // A quiet job: its page spans more than 50 days. Rare, so a list searched only for such lines.
        m_overflow.push_back({ m_committed, line.timestampUs });
        delta = OverflowDelta;
    }
    const quint64 meta = (quint64(delta) & ((quint64(1) << 43) - 1)) | (quint64(quint8(line.severity) & 0xF) << 43)
        | (quint64(line.isStderr ? 1 : 0) << 47) | (quint64(line.taskId) << 48);
    block.lines[index] = { quint32(offset - page.offset), quint32(meta), quint32(meta >> 32) };
    m_committedEnd = offset + quint64(line.length);
    ++m_committed;
}

qint64 LogLineStore::insertPending(const PendingLine& line)
{
    qint64 at = qint64(m_pending.size());
    if (!m_pending.empty() && line.timestampUs < m_pending.back().timestampUs) {
        // Out of order across replicas: the place in the reorder window after equal timestamps, so lines of one
        // timestamp keep their arrival order; an entry older than the whole window goes to its start.
        const auto it = std::upper_bound(m_pending.begin(), m_pending.end(), line.timestampUs,
            [](qint64 key, const PendingLine& p) { return key < p.timestampUs; });
        at = qint64(it - m_pending.begin());
        m_pending.insert(it, line);
    } else {
        m_pending.push_back(line);
    }
    // Positions are counted over committed and pending lines alike, so committing the window's first line moves
    // no position.
    const qint64 position = m_committed + at;
    if (qint64(m_pending.size()) > ReorderWindow)
        commitOldest();
    return position;
}

qint64 LogLineStore::append(
    qint64 timestampUs, LogSeverity severity, quint16 taskId, const char* text, qsizetype size, bool isStderr)
{
    qint64 first = -1;
    for (;;) {
        const char* newline = size > 0 ? static_cast<const char*>(std::memchr(text, '\n', size_t(size))) : nullptr;
        qsizetype lineSize = newline ? newline - text : size;
        const qsizetype consumed = newline ? lineSize + 1 : size;
        if (lineSize > 0 && text[lineSize - 1] == '\r')
            --lineSize;
        if (lineSize > MaxLineLength)
            lineSize = MaxLineLength;
        m_maxLength = std::max(m_maxLength, int(lineSize));
        m_textBytes += lineSize;
        const PendingLine line { timestampUs, stage(text, lineSize), qint32(lineSize), taskId, severity, isStderr };
        const qint64 at = insertPending(line);
        first = first < 0 ? at : std::min(first, at);
        if (!newline)
            break;
        text += consumed;
        size -= consumed;
        if (size == 0)
            break; // a trailing newline ends the entry; it does not start an empty line
    }
    return first;
}

qint64 LogLineStore::append(const QList<LogEntry>& entries)
{
    qint64 first = size();
    QByteArray utf8;
    for (const LogEntry& entry : entries) {
        utf8 = entry.message.toUtf8();
        const qint64 at = append(entry.timestampUs, logSeverityFromName(entry.severity), taskId(entry.taskName),
            utf8.constData(), utf8.size(), entry.stream == QLatin1String("stderr"));
        first = std::min(first, at);
    }
    return first;
}

qint64 LogLineStore::overheadBytes() const
{
    const qint64 index = qint64(m_blocks.size()) * qint64(sizeof(LogIndex::Block))
        + qint64(m_blocks.capacity() * sizeof(m_blocks[0]));
    const qint64 committedText = m_textBytes - m_stagedLive;
    // Bytes lost at the ends of full chunks (a line never straddles two) count, the last chunk's free tail not.
    const qint64 chunkBytes = m_chunkUsed.empty()
        ? 0
        : qint64(m_chunks.size() - 1) * ChunkSize + m_chunkUsed.back();
    const qint64 window = qint64(m_pending.size()) * qint64(sizeof(PendingLine))
        + qint64(m_staged.capacity()) - m_stagedLive;
    return index + (chunkBytes - committedText) + window + qint64(m_chunks.capacity() * sizeof(m_chunks[0]))
        + qint64(m_chunkUsed.capacity() * sizeof(qint64))
        + qint64(m_overflow.capacity() * sizeof(LogIndex::TimestampOverflow));
}

LogLineStore::Snapshot LogLineStore::snapshot() const
{
    Snapshot s;
    s.blocks.assign(m_blocks.begin(), m_blocks.end());
    s.chunks.assign(m_chunks.begin(), m_chunks.end());
    s.chunkUsed = m_chunkUsed;
    s.overflow = m_overflow;
    s.end = m_committedEnd;
    s.stableCount = m_committed;
    return s;
}

QString LogLineStore::formatLine(qint64 line) const
{
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(timestampUs(line) / 1000);
    return time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) % QLatin1String("  ")
        % logSeverityName(severity(line)) % QLatin1String("  ") % taskName(taskId(line)) % QLatin1String("  ")
        % QString::fromUtf8(text(line));
}

LogLineMatcher::LogLineMatcher(const LogFilter& filter)
    : m_filter(filter)
{
    m_allTasks = filter.taskIds.isEmpty();
    for (quint16 id : filter.taskIds)
        m_taskMask[id >> 6] |= quint64(1) << (id & 63);
    if (filter.regex && !filter.text.isEmpty()) {
        m_regex = QRegularExpression(filter.text, QRegularExpression::CaseInsensitiveOption);
        m_valid = m_regex.isValid();
        m_error = m_regex.errorString();
    } else {
        m_needleLower = filter.text.toUtf8();
        for (char& c : m_needleLower)
            c = asciiLower(c);
    }
}

bool LogLineMatcher::matches(const LineRecord& record) const
{
    if (record.severity() < m_filter.minSeverity)
        return false;
    if (m_filter.stream != LogStream::Any && record.isStderr() != (m_filter.stream == LogStream::Stderr))
        return false;
    const quint16 task = record.taskId();
    if (!m_allTasks && !(m_taskMask[task >> 6] & (quint64(1) << (task & 63))))
        return false;
    if (m_filter.text.isEmpty())
        return true;
    const int length = record.length();
    const char* text = record.text();
    if (m_filter.regex) {
        if (!m_valid)
            return false;
        return m_regex.match(QString::fromUtf8(text, length)).hasMatch();
    }
    // ASCII case-insensitive substring search on UTF-8 bytes: non-ASCII bytes compare exactly, which is
    // what a user typing a fragment of a message expects.
    const qsizetype n = m_needleLower.size();
    if (n > length)
        return false;
    const char first = m_needleLower.at(0);
    const char* needle = m_needleLower.constData();
    for (qsizetype i = 0; i + n <= length; ++i) {
        if (asciiLower(text[i]) != first)
            continue;
        qsizetype j = 1;
        while (j < n && asciiLower(text[i + j]) == needle[j])
            ++j;
        if (j == n)
            return true;
    }
    return false;
}

} // namespace Trainyard
