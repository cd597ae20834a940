// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target: any bytes as a Keras .keras archive (zip reader, config JSON, and with libhdf5 the
// weights file opened in memory and walked); every listed tensor must have a sane shape and size.
#include "kerasarchive.h"

#include <QString>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QString error;
    const auto info = Trainyard::Formats::KerasArchive::readMemory(
        QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)), QStringLiteral("fuzz.keras"), &error);
    if (!info && error.isEmpty())
        __builtin_trap();
    if (info) {
        for (const auto& t : info->tensors) {
            for (qint64 d : t.shape) {
                if (d < 0)
                    __builtin_trap();
            }
            if (t.size < -1)
                __builtin_trap();
        }
    }
    return 0;
}
