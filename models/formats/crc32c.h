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

namespace Detail {

/// The CRC-32C register values from which k zero bytes lead to 0xFFFFFFFF, the register's initial value, for
/// k = 0 … 8. Starting at state[k] and feeding k zero bytes, then a message, gives the message's CRC: this lets
/// crc32cSse42Prefixed() round a message up to whole 8-byte words.
struct ZeroPrefixStates {
    quint32 state[9];
};

constexpr ZeroPrefixStates makeZeroPrefixStates()
{
    // The byte-wise table of the reflected polynomial 0x82F63B78. One zero byte maps a register c to
    // (c >> 8) ^ table[c & 0xff]; the table's top bytes are all different, so that step can be undone.
    quint32 table[256] = {};
    unsigned char byTopByte[256] = {};
    for (unsigned i = 0; i < 256; ++i) {
        quint32 c = i;
        for (int bit = 0; bit < 8; ++bit)
            c = (c >> 1) ^ ((c & 1u) ? 0x82F63B78u : 0u);
        table[i] = c;
        byTopByte[c >> 24] = static_cast<unsigned char>(i);
    }
    ZeroPrefixStates s {};
    s.state[0] = 0xFFFFFFFFu;
    for (int k = 1; k <= 8; ++k) {
        const quint32 next = s.state[k - 1];
        const unsigned low = byTopByte[next >> 24];
        s.state[k] = ((next ^ table[low]) << 8) | low;
    }
    return s;
}

inline constexpr ZeroPrefixStates zeroPrefixStates = makeZeroPrefixStates();

/// 8 zero bytes, then 8 0xff bytes: the 8 bytes at windowMask.bytes + r keep the last r bytes of a word.
struct WindowMask {
    alignas(16) unsigned char bytes[16];
};

constexpr WindowMask makeWindowMask()
{
    WindowMask m {};
    for (int i = 8; i < 16; ++i)
        m.bytes[i] = 0xff;
    return m;
}

inline constexpr WindowMask windowMask = makeWindowMask();

} // namespace Detail

/// crc32cSse42(data, n) with fewer instructions and branches for short messages: the n % 8 bytes that do not
/// fill a word are read as the end of the 8-byte word that ends at data + n % 8 (its bytes before `data` masked to
/// zero), and the CRC starts from the state that those zero bytes lead to the initial one
/// (Detail::zeroPrefixStates). So it takes 1 + n / 8 crc32 instructions and one loop, where crc32cSse42() takes
/// n / 8 and up to three more for the 4-, 2- and 1-byte tails, each behind a branch on the length. Why: a
/// TFRecord file of scalar events has payloads of 30 to 60 bytes whose lengths change from record to record
/// with the tag; those tail branches mispredict as often as the CPU's predictor fails to learn the pattern,
/// which differs from one CPU generation to the next (issue 17: the event-file parse was a third slower on one
/// EPYC VM than on another). Requires the 8 bytes before `data` to be readable (a record's payload has its
/// 12-byte header there) and the SSE4.2 conditions of crc32cSse42().
__attribute__((target("sse4.2"))) inline quint32 crc32cSse42Prefixed(const char* data, size_t n)
{
    const size_t partial = n % 8;
    unsigned long long word, keep;
    std::memcpy(&word, data + partial - 8, 8); // ends at data + partial: the partial word, then bytes before data
    std::memcpy(&keep, Detail::windowMask.bytes + partial, 8); // its last `partial` bytes
    unsigned long long c = __builtin_ia32_crc32di(Detail::zeroPrefixStates.state[8 - partial], word & keep);
    for (const char *p = data + partial, *const end = data + n; p < end; p += 8) {
        std::memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
    }
    return static_cast<quint32>(c) ^ 0xFFFFFFFFu;
}
#endif

} // namespace Trainyard::Formats
