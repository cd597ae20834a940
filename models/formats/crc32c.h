// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QtGlobal>

#include <cstddef>

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
quint32 maskCrc(quint32 crc);
/// Inverse of maskCrc().
quint32 unmaskCrc(quint32 masked);

/// The portable implementation (Boost.CRC), exposed for tests and benchmarks.
quint32 crc32cPortable(const char* data, size_t n, quint32 init = 0);
/// The SSE4.2 implementation. Only call it when crc32cHardwareAvailable() is true.
quint32 crc32cHardware(const char* data, size_t n, quint32 init = 0);
/// Whether this CPU has the SSE4.2 `crc32` instruction (x86-64 only; false elsewhere).
bool crc32cHardwareAvailable();

} // namespace Trainyard::Formats
