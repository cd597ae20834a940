// SPDX-License-Identifier: GPL-2.0-or-later
#include "tfrecordreader.h"

#include "crc32c.h"

#include <QtEndian>

#include <cstring>

namespace Trainyard::Formats {

namespace {
constexpr size_t headerSize = 12; // u64 length + u32 masked crc of the length
constexpr size_t footerSize = 4; // u32 masked crc of the data
// Large reads keep syscalls rare; small enough that a live tail of a short file stays cheap.
constexpr size_t readChunk = size_t(1) << 20;

quint32 readLe32(const char* p)
{
    return qFromLittleEndian<quint32>(p);
}
} // namespace

TfRecordReader::TfRecordReader(const QString& path)
    : m_path(path)
    , m_file(path)
{
}

std::vector<RecordIssue> TfRecordReader::takeIssues()
{
    std::vector<RecordIssue> issues;
    issues.swap(m_issues);
    return issues;
}

void TfRecordReader::reportIssue(RecordIssue issue)
{
    m_issues.push_back(std::move(issue));
}

void TfRecordReader::addIssue(RecordIssue::Kind kind, qint64 offset, const QString& message)
{
    m_issues.push_back({ kind, offset, message });
}

namespace {
struct PortableCrc {
    static quint32 of(const char* data, size_t n) { return crc32c(data, n); }
};
#ifdef TRAINYARD_CRC32C_SSE42
struct Sse42Crc {
    __attribute__((target("sse4.2"))) static quint32 of(const char* data, size_t n)
    {
        return crc32cSse42(data, n);
    }
};
#endif
} // namespace

TfRecordReader::Result TfRecordReader::next(const char** data, size_t* size)
{
#ifdef TRAINYARD_CRC32C_SSE42
    static const bool sse42 = crc32cHardwareAvailable();
    if (sse42) [[likely]]
        return nextSse42(data, size);
#endif
    return nextVerified<PortableCrc>(data, size);
}

#ifdef TRAINYARD_CRC32C_SSE42
// Compiled for SSE4.2 with everything inlined (flatten), so that Sse42Crc's instructions land in
// the loop.
__attribute__((target("sse4.2"), flatten)) TfRecordReader::Result TfRecordReader::nextSse42(
    const char** data, size_t* size)
{
    return nextVerified<Sse42Crc>(data, size);
}
#else
TfRecordReader::Result TfRecordReader::nextSse42(const char** data, size_t* size)
{
    return nextVerified<PortableCrc>(data, size);
}
#endif

template <typename Crc> TfRecordReader::Result TfRecordReader::nextVerified(const char** data, size_t* size)
{
    if (m_stopped)
        return Result::Stopped;
    for (;;) {
        const size_t avail = m_end - m_begin;
        size_t need = headerSize;
        if (avail >= headerSize) {
            const char* p = m_buffer.data() + m_begin;
            const qint64 at = offset();
            const quint64 length = qFromLittleEndian<quint64>(p);
            if (unmaskCrc(readLe32(p + 8)) != Crc::of(p, 8)) {
                addIssue(RecordIssue::Kind::LengthCrc, at,
                    QStringLiteral("%1: record at offset %2: the CRC-32C of the length field does not match; the "
                                   "record framing is lost, reading stops here")
                        .arg(m_path)
                        .arg(at));
                m_stopped = true;
                return Result::Stopped;
            }
            if (length > maxRecordSize) {
                addIssue(RecordIssue::Kind::TooLarge, at,
                    QStringLiteral("%1: record at offset %2 claims %3 bytes, more than the %4 bytes this reader "
                                   "accepts; reading stops here")
                        .arg(m_path)
                        .arg(at)
                        .arg(length)
                        .arg(maxRecordSize));
                m_stopped = true;
                return Result::Stopped;
            }
            const size_t total = headerSize + size_t(length) + footerSize;
            if (avail >= total) {
                const char* payload = p + headerSize;
                m_begin += total;
                if (unmaskCrc(readLe32(payload + length)) != Crc::of(payload, size_t(length))) {
                    addIssue(RecordIssue::Kind::DataCrc, at,
                        QStringLiteral("%1: record at offset %2 (%3 bytes): the CRC-32C of the data does not match; "
                                       "record skipped")
                            .arg(m_path)
                            .arg(at)
                            .arg(length));
                    continue;
                }
                m_recordOffset = at;
                *data = payload;
                *size = size_t(length);
                return Result::Record;
            }
            need = total;
        }
        if (!fill(need))
            return m_ioFailed ? Result::Stopped : Result::End;
    }
}

bool TfRecordReader::fill(size_t need)
{
    m_ioFailed = false;
    if (!m_file.isOpen()) {
        // Unbuffered: QFile's own buffer would remember end-of-file and hide appended bytes.
        if (!m_file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
            addIssue(RecordIssue::Kind::Io, offset(),
                QStringLiteral("%1: cannot open: %2").arg(m_path, m_file.errorString()));
            m_ioFailed = true;
            return false;
        }
        if (m_bufferOffset + qint64(m_end) != 0 && !m_file.seek(m_bufferOffset + qint64(m_end))) {
            addIssue(RecordIssue::Kind::Io, offset(),
                QStringLiteral("%1: cannot seek to offset %2: %3")
                    .arg(m_path)
                    .arg(m_bufferOffset + qint64(m_end))
                    .arg(m_file.errorString()));
            m_file.close();
            m_ioFailed = true;
            return false;
        }
    }
    // Move the unconsumed tail to the front, then make room for at least `need` bytes.
    if (m_begin > 0) {
        const size_t keep = m_end - m_begin;
        if (keep > 0)
            std::memmove(m_buffer.data(), m_buffer.data() + m_begin, keep);
        m_bufferOffset += qint64(m_begin);
        m_begin = 0;
        m_end = keep;
    }
    const size_t wanted = std::max(need, readChunk);
    if (m_buffer.size() < wanted)
        m_buffer.resize(wanted);
    while (m_end < need) {
        const qint64 got = m_file.read(m_buffer.data() + m_end, qint64(m_buffer.size() - m_end));
        if (got < 0) {
            addIssue(RecordIssue::Kind::Io, offset(),
                QStringLiteral("%1: read error at offset %2: %3")
                    .arg(m_path)
                    .arg(m_bufferOffset + qint64(m_end))
                    .arg(m_file.errorString()));
            m_file.close();
            m_ioFailed = true;
            return false;
        }
        if (got == 0) {
            if (m_file.size() < m_bufferOffset + qint64(m_end)) {
                addIssue(RecordIssue::Kind::Io, offset(),
                    QStringLiteral("%1: the file shrank to %2 bytes below the %3 bytes already read; it was "
                                   "replaced or truncated, reading stops")
                        .arg(m_path)
                        .arg(m_file.size())
                        .arg(m_bufferOffset + qint64(m_end)));
                m_stopped = true;
                m_ioFailed = true;
            }
            return false;
        }
        m_end += size_t(got);
    }
    return true;
}

void appendTfRecord(QByteArray& out, const char* data, size_t size)
{
    char header[headerSize];
    qToLittleEndian<quint64>(quint64(size), header);
    qToLittleEndian<quint32>(maskCrc(crc32c(header, 8)), header + 8);
    char footer[footerSize];
    qToLittleEndian<quint32>(maskCrc(crc32c(data, size)), footer);
    out.append(header, qsizetype(headerSize));
    out.append(data, qsizetype(size));
    out.append(footer, qsizetype(footerSize));
}

} // namespace Trainyard::Formats
