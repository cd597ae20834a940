// SPDX-License-Identifier: GPL-2.0-or-later
#include "crc32c.h"

#include <boost/crc.hpp>

#include <cstring>

namespace Trainyard::Formats {

namespace {
using BoostCrc32c = boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true>;
}

quint32 crc32cPortable(const char* data, size_t n, quint32 init)
{
    // Boost takes the initial remainder unreflected: undo the final xor and the output reflection
    // of the previous CRC to continue from it.
    quint32 rem = init ^ 0xFFFFFFFFu;
    quint32 unreflected = 0;
    for (int bit = 0; bit < 32; ++bit, rem >>= 1)
        unreflected = (unreflected << 1) | (rem & 1u);
    BoostCrc32c crc(unreflected);
    crc.process_bytes(data, n);
    return crc.checksum();
}

#ifdef TRAINYARD_CRC32C_SSE42

__attribute__((target("sse4.2"))) quint32 crc32cHardware(const char* data, size_t n, quint32 init)
{
    return crc32cSse42(data, n, init);
}

bool crc32cHardwareAvailable()
{
    static const bool available = __builtin_cpu_supports("sse4.2");
    return available;
}

#else

quint32 crc32cHardware(const char* data, size_t n, quint32 init)
{
    return crc32cPortable(data, n, init);
}

bool crc32cHardwareAvailable()
{
    return false;
}

#endif

namespace {
using CrcFunction = quint32 (*)(const char*, size_t, quint32);
// Chosen once at start-up; an indirect call is cheaper than re-testing the CPU on every record.
const CrcFunction bestCrc = crc32cHardwareAvailable() ? crc32cHardware : crc32cPortable;
} // namespace

quint32 crc32c(const char* data, size_t n, quint32 init)
{
    return bestCrc(data, n, init);
}

} // namespace Trainyard::Formats
