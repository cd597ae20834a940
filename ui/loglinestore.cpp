// SPDX-License-Identifier: GPL-2.0-or-later
#include "loglinestore.h"

#include "apiclient.h"

#include <QDateTime>

#include <algorithm>
#include <cstring>

namespace Trainyard {

namespace {
constexpr qint64 MaxDelta = (qint64(1) << 43) - 1;

inline char asciiLower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c + ('a' - 'A')) : c;
}
} // namespace

LogLineStore::LogLineStore() = default;
LogLineStore::~LogLineStore() = default;

void LogLineStore::clear()
{
    m_blocks.clear();
    m_chunks.clear();
    m_chunkUsed = ChunkSize;
    m_count = 0;
    m_textBytes = 0;
    m_haveBase = false;
    m_baseUs = 0;
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
    if (m_chunks.empty() || m_chunkUsed + size > ChunkSize) {
        m_chunks.push_back(std::shared_ptr<char[]>(new char[size_t(ChunkSize)]));
        m_chunkUsed = 0;
    }
    const quint64 offset = quint64(m_chunks.size() - 1) * quint64(ChunkSize) + quint64(m_chunkUsed);
    std::memcpy(m_chunks.back().get() + m_chunkUsed, text, size_t(size));
    m_chunkUsed += size;
    m_textBytes += size;
    return offset;
}

qint64 LogLineStore::insertRecord(const LineRecord& record)
{
    if ((m_count & BlockMask) == 0 && size_t(m_count >> BlockShift) == m_blocks.size())
        m_blocks.push_back(std::shared_ptr<LineRecord[]>(new LineRecord[size_t(BlockSize)]));

    if (m_count == 0 || record.timestampDelta() >= this->record(m_count - 1).timestampDelta()) {
        recordRef(m_count) = record;
        return m_count++;
    }
    // Out of order across replicas: find the place in the reorder window (after equal timestamps, so
    // lines of one timestamp keep their arrival order) and shift the tail by one.
    qint64 lo = std::max<qint64>(0, m_count - ReorderWindow);
    qint64 hi = m_count;
    const qint64 key = record.timestampDelta();
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        if (this->record(mid).timestampDelta() <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (qint64 i = m_count; i > lo; --i)
        recordRef(i) = this->record(i - 1);
    recordRef(lo) = record;
    ++m_count;
    return lo;
}

qint64 LogLineStore::append(
    qint64 timestampUs, LogSeverity severity, quint16 taskId, const char* text, qsizetype size, bool isStderr)
{
    if (!m_haveBase) {
        m_baseUs = timestampUs;
        m_haveBase = true;
    }
    const qint64 delta = std::clamp(timestampUs - m_baseUs, -MaxDelta, MaxDelta);
    const quint64 meta = (quint64(delta) & ((quint64(1) << 44) - 1)) | (quint64(quint8(severity) & 0xF) << 44)
        | (quint64(taskId) << 48);

    qint64 first = -1;
    for (;;) {
        const char* newline = size > 0 ? static_cast<const char*>(std::memchr(text, '\n', size_t(size))) : nullptr;
        qsizetype lineSize = newline ? newline - text : size;
        const qsizetype consumed = newline ? lineSize + 1 : size;
        if (lineSize > 0 && text[lineSize - 1] == '\r')
            --lineSize;
        if (lineSize > MaxLineLength)
            lineSize = MaxLineLength;
        const quint64 offset = storeText(text, lineSize);
        m_maxLength = std::max(m_maxLength, int(lineSize));
        const LineRecord record { offset | (quint64(lineSize) << 40) | (quint64(isStderr ? 1 : 0) << 63), meta };
        const qint64 at = insertRecord(record);
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
    qint64 first = m_count;
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
    const qint64 index = qint64(m_blocks.size()) * BlockSize * qint64(sizeof(LineRecord))
        + qint64(m_blocks.capacity() * sizeof(m_blocks[0]));
    const qint64 chunkSlack = m_chunks.empty() ? 0 : ChunkSize - m_chunkUsed;
    // Bytes lost at the ends of full chunks (a line never straddles two) count too.
    const qint64 chunkTotal = qint64(m_chunks.size()) * ChunkSize;
    const qint64 endGaps = chunkTotal - m_textBytes - chunkSlack;
    return index + endGaps + qint64(m_chunks.capacity() * sizeof(m_chunks[0]));
}

LogLineStore::Snapshot LogLineStore::snapshot() const
{
    Snapshot s;
    s.blocks.assign(m_blocks.begin(), m_blocks.end());
    s.chunks.assign(m_chunks.begin(), m_chunks.end());
    s.stableCount = std::max<qint64>(0, m_count - ReorderWindow);
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

bool LogLineMatcher::matches(const LineRecord& record, const char* text) const
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
