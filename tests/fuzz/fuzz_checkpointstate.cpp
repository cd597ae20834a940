// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target: any bytes as a text-format `checkpoint` state file.
#include "checkpointstate.h"

#include <QByteArray>
#include <QString>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QString error;
    const auto state = Trainyard::Formats::CheckpointState::parse(
        QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), &error);
    if (!state && error.isEmpty())
        __builtin_trap();
    return 0;
}
