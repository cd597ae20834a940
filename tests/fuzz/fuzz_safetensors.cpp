// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target: any bytes as a safetensors file; every listed tensor must lie inside it.
#include "safetensors.h"

#include <QString>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QString error;
    const auto info = Trainyard::Formats::SafeTensors::parseHeader(
        QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)), qint64(size), QStringLiteral("fuzz"),
        &error);
    if (!info && error.isEmpty())
        __builtin_trap();
    if (info) {
        for (const auto& t : info->tensors) {
            if (t.offset < 0 || t.size < 0 || t.offset + t.size > qint64(size))
                __builtin_trap();
        }
    }
    return 0;
}
