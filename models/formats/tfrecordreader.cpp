// SPDX-License-Identifier: GPL-2.0-or-later
#include "tfrecordreader.h"

#include "crc32c.h"
#include "tfrecordreader_p.h"

#include <QtEndian>

#include <cstring>

namespace Trainyard::Formats {

namespace {
using Detail::tfRecordFooterSize;
using Detail::tfRecordHeaderSize;
// Large reads keep syscalls rare; small enough that a live tail of a short file stays cheap.
constexpr size_t readChunk = size_t(1) << 20;
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

TfRecordReader::Result TfRecordReader::next(const char** data, size_t* size)
{
#ifdef TRAINYARD_CRC32C_SSE42
    static const bool sse42 = crc32cHardwareAvailable();
    if (sse42) [[likely]]
        return nextSse42(data, size);
#endif
    return nextVerified<Detail::PortableCrc>(data, size);
}

#ifdef TRAINYARD_CRC32C_SSE42
// Compiled for SSE4.2, so that Sse42Crc's instructions are inlined into the loop.
__attribute__((target("sse4.2"))) TfRecordReader::Result TfRecordReader::nextSse42(
    const char** data, size_t* size)
{
    return nextVerified<Detail::Sse42Crc>(data, size);
}
#else
TfRecordReader::Result TfRecordReader::nextSse42(const char** data, size_t* size)
{
    return nextVerified<Detail::PortableCrc>(data, size);
}
#endif

TfRecordReader::Result TfRecordReader::stopAtLengthCrc()
{
    addIssue(RecordIssue::Kind::LengthCrc, offset(),
        QStringLiteral("%1: record at offset %2: the CRC-32C of the length field does not match; the "
                       "record framing is lost, reading stops here")
            .arg(m_path)
            .arg(offset()));
    m_stopped = true;
    return Result::Stopped;
}

TfRecordReader::Result TfRecordReader::stopAtTooLarge(quint64 length)
{
    addIssue(RecordIssue::Kind::TooLarge, offset(),
        QStringLiteral("%1: record at offset %2 claims %3 bytes, more than the %4 bytes this reader "
                       "accepts; reading stops here")
            .arg(m_path)
            .arg(offset())
            .arg(length)
            .arg(maxRecordSize));
    m_stopped = true;
    return Result::Stopped;
}

void TfRecordReader::skipAtDataCrc(qint64 at, quint64 length)
{
    addIssue(RecordIssue::Kind::DataCrc, at,
        QStringLiteral("%1: record at offset %2 (%3 bytes): the CRC-32C of the data does not match; "
                       "record skipped")
            .arg(m_path)
            .arg(at)
            .arg(length));
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
    char header[tfRecordHeaderSize];
    qToLittleEndian<quint64>(quint64(size), header);
    qToLittleEndian<quint32>(maskCrc(crc32c(header, 8)), header + 8);
    char footer[tfRecordFooterSize];
    qToLittleEndian<quint32>(maskCrc(crc32c(data, size)), footer);
    out.append(header, qsizetype(tfRecordHeaderSize));
    out.append(data, qsizetype(size));
    out.append(footer, qsizetype(tfRecordFooterSize));
}

} // namespace Trainyard::Formats
