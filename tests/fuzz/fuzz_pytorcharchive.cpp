// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target: any bytes as a torch.save zip archive (zip reader, pickle reader, tensor walk).
#include "pytorcharchive.h"

#include <QString>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QString error;
    const auto info = Trainyard::Formats::PyTorchArchive::readMemory(
        QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)), QStringLiteral("fuzz.pt"), &error);
    if (!info && error.isEmpty())
        __builtin_trap();
    if (info) {
        for (const auto& t : info->tensors) {
            if (t.offset < 0 || t.size < 0 || t.offset + t.size > t.storageBytes)
                __builtin_trap();
        }
    }
    return 0;
}
