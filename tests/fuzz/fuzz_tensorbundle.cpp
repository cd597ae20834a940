// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target: any bytes as a tensor bundle's .index table.
#include "tensorbundle.h"

#include <QString>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QString error;
    const auto info = Trainyard::Formats::TensorBundle::parseIndex(
        QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)), QStringLiteral("fuzz"), &error);
    if (!info && error.isEmpty())
        __builtin_trap(); // every refusal must say why
    return 0;
}
