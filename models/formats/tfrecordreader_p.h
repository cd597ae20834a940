// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to trainyard_formats: the body of TfRecordReader::next() as a template, for readers in
// this library that inline the record loop into their own (EventFileReader::readAvailable()).

#include "crc32c.h"
#include "tfrecordreader.h"

#include <QtEndian>

namespace Trainyard::Formats::Detail {

constexpr size_t tfRecordHeaderSize = 12; // u64 length + u32 masked CRC of the length
constexpr size_t tfRecordFooterSize = 4; // u32 masked CRC of the data

/// CRC-32C through crc32c() (SSE4.2 when present, checked per call, else Boost.CRC).
struct PortableCrc {
    static quint32 of(const char* data, size_t n) { return crc32c(data, n); }
    /// A record's payload, inside TfRecordReader's buffer.
    static quint32 ofPayload(const char* data, size_t n) { return crc32c(data, n); }
};
#ifdef TRAINYARD_CRC32C_SSE42
/// CRC-32C with the `crc32` instruction inline; only for functions compiled with
/// `__attribute__((target("sse4.2")))` and reached after crc32cHardwareAvailable() returned true.
struct Sse42Crc {
    __attribute__((target("sse4.2"))) static quint32 of(const char* data, size_t n) { return crc32cSse42(data, n); }
    /// A record's payload, inside TfRecordReader's buffer, where its header precedes it (crc32cSse42Prefixed()
    /// reads up to 8 bytes before it).
    __attribute__((target("sse4.2"))) static quint32 ofPayload(const char* data, size_t n)
    {
        return crc32cSse42Prefixed(data, n);
    }
};
#endif

} // namespace Trainyard::Formats::Detail

namespace Trainyard::Formats {

template <typename Crc>
Q_ALWAYS_INLINE TfRecordReader::Result TfRecordReader::nextVerified(const char** data, size_t* size)
{
    using Detail::tfRecordFooterSize;
    using Detail::tfRecordHeaderSize;
    if (m_stopped) [[unlikely]]
        return Result::Stopped;
    for (;;) {
        const size_t avail = m_end - m_begin;
        size_t need = tfRecordHeaderSize;
        if (avail >= tfRecordHeaderSize) [[likely]] {
            const char* p = m_buffer.data() + m_begin;
            const quint64 length = qFromLittleEndian<quint64>(p);
            if (unmaskCrc(qFromLittleEndian<quint32>(p + 8)) != Crc::of(p, 8)) [[unlikely]]
                return stopAtLengthCrc();
            if (length > maxRecordSize) [[unlikely]]
                return stopAtTooLarge(length);
            const size_t total = tfRecordHeaderSize + size_t(length) + tfRecordFooterSize;
            if (avail >= total) [[likely]] {
                const char* payload = p + tfRecordHeaderSize;
                const qint64 at = offset();
                m_begin += total;
                if (unmaskCrc(qFromLittleEndian<quint32>(payload + length)) != Crc::ofPayload(payload, size_t(length)))
                    [[unlikely]] {
                    skipAtDataCrc(at, length);
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

} // namespace Trainyard::Formats
