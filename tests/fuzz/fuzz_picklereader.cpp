// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target: any bytes as a pickle (the zip's CRC keeps most mutations away from it in
// fuzz_pytorcharchive, so the pickle reader gets its own target).
#include "picklereader.h"

#include <QString>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QString error;
    const auto pickle = Trainyard::Formats::PickleReader::parse(
        QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)), &error);
    if (!pickle && error.isEmpty())
        __builtin_trap();
    if (pickle && (pickle->root < 0 || size_t(pickle->root) >= pickle->nodes.size()))
        __builtin_trap();
    return 0;
}
