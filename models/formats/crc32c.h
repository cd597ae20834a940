// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QtGlobal>

#include <cstddef>
#include <cstring>

namespace Trainyard::Formats {

/// CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected, init and final xor 0xFFFFFFFF), the
/// checksum of TFRecord framing, LevelDB tables and tensor bundles.
///
/// `init` is the CRC of the bytes before `data` (0 for none), so
/// `crc32c(b, nb, crc32c(a, na)) == crc32c(a‖b)`: the same "extend" contract as LevelDB's
/// `crc32c::Extend` and TensorFlow's `crc32c::Extend`.
///
/// Uses the SSE4.2 `crc32` instruction when the CPU has it (checked once at run time) and
/// Boost.CRC otherwise; both give the same result (tested against RFC 3720 §B.4 vectors).
quint32 crc32c(const char* data, size_t n, quint32 init = 0);

/// TFRecord's masked CRC (tensorflow/core/lib/hash/crc32c.h): rotate right by 15 bits and add
/// 0xa282ead8. Stored CRCs are masked because CRCs of data that embed CRCs are weak.
inline quint32 maskCrc(quint32 crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}
/// Inverse of maskCrc().
inline quint32 unmaskCrc(quint32 masked)
{
    const quint32 rot = masked - 0xa282ead8u;
    return (rot >> 17) | (rot << 15);
}

/// The portable implementation (Boost.CRC), exposed for tests and benchmarks.
quint32 crc32cPortable(const char* data, size_t n, quint32 init = 0);
/// The SSE4.2 implementation. Only call it when crc32cHardwareAvailable() is true.
quint32 crc32cHardware(const char* data, size_t n, quint32 init = 0);
/// Whether this CPU has the SSE4.2 `crc32` instruction (x86-64 only; false elsewhere).
bool crc32cHardwareAvailable();

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TRAINYARD_CRC32C_SSE42 1
/// The body of crc32cHardware(), for loops compiled for SSE4.2 that verify many short records
/// (TfRecordReader): inlined there, it saves a call per CRC. Only call it from a function with
/// `__attribute__((target("sse4.2")))` reached after crc32cHardwareAvailable() returned true.
__attribute__((target("sse4.2"))) inline quint32 crc32cSse42(const char* data, size_t n, quint32 init = 0)
{
    // Unaligned 8-byte loads cost nothing extra on the cores that have SSE4.2, and TFRecord
    // payloads start anywhere; a byte-wise alignment prologue would dominate short records.
    unsigned long long l = init ^ 0xFFFFFFFFu;
    const char* p = data;
    const char* const end = data + n;
    while (end - p >= 8) {
        unsigned long long word;
        std::memcpy(&word, p, 8);
        l = __builtin_ia32_crc32di(l, word);
        p += 8;
    }
    unsigned int c = static_cast<unsigned int>(l);
    if (end - p >= 4) {
        unsigned int word;
        std::memcpy(&word, p, 4);
        c = __builtin_ia32_crc32si(c, word);
        p += 4;
    }
    if (end - p >= 2) {
        unsigned short word;
        std::memcpy(&word, p, 2);
        c = __builtin_ia32_crc32hi(c, word);
        p += 2;
    }
    if (p < end)
        c = __builtin_ia32_crc32qi(c, static_cast<unsigned char>(*p));
    return c ^ 0xFFFFFFFFu;
}
#endif

} // namespace Trainyard::Formats
