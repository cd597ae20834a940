// SPDX-License-Identifier: GPL-2.0-or-later
#include "checkpointinfo.h"

#include <QFile>

namespace Trainyard::Formats {

int elementSize(ElementType type)
{
    switch (type) {
    case ElementType::F16:
    case ElementType::BF16:
    case ElementType::I16:
    case ElementType::U16:
        return 2;
    case ElementType::F32:
    case ElementType::I32:
    case ElementType::U32:
        return 4;
    case ElementType::F64:
    case ElementType::I64:
    case ElementType::U64:
        return 8;
    case ElementType::I8:
    case ElementType::U8:
    case ElementType::Bool:
        return 1;
    case ElementType::Other:
        break;
    }
    return 0;
}

QString elementTypeName(ElementType type)
{
    switch (type) {
    case ElementType::F16:
        return QStringLiteral("F16");
    case ElementType::BF16:
        return QStringLiteral("BF16");
    case ElementType::F32:
        return QStringLiteral("F32");
    case ElementType::F64:
        return QStringLiteral("F64");
    case ElementType::I8:
        return QStringLiteral("I8");
    case ElementType::I16:
        return QStringLiteral("I16");
    case ElementType::I32:
        return QStringLiteral("I32");
    case ElementType::I64:
        return QStringLiteral("I64");
    case ElementType::U8:
        return QStringLiteral("U8");
    case ElementType::U16:
        return QStringLiteral("U16");
    case ElementType::U32:
        return QStringLiteral("U32");
    case ElementType::U64:
        return QStringLiteral("U64");
    case ElementType::Bool:
        return QStringLiteral("BOOL");
    case ElementType::Other:
        break;
    }
    return QStringLiteral("?");
}

qint64 TensorInfo::elementCount() const
{
    qint64 n = 1;
    for (qint64 d : shape) {
        if (d < 0)
            return -1;
        if (d != 0 && n > std::numeric_limits<qint64>::max() / d)
            return -1;
        n *= d;
    }
    return n;
}

qint64 CheckpointInfo::totalBytes() const
{
    qint64 total = 0;
    for (const TensorInfo& t : tensors) {
        if (t.size > 0)
            total += t.size;
    }
    return total;
}

const TensorInfo* CheckpointInfo::find(const QString& name) const
{
    for (const TensorInfo& t : tensors) {
        if (t.name == name)
            return &t;
    }
    for (const TensorInfo& t : tensors) {
        if (t.displayName == name)
            return &t;
    }
    return nullptr;
}

std::optional<QByteArray> readFileRange(const QString& path, qint64 offset, qint64 length, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const qint64 fileSize = file.size();
    if (offset < 0 || length < 0 || offset > fileSize || length > fileSize - offset) {
        if (error)
            *error = QStringLiteral("%1: byte range [%2, %3) lies outside the file (%4 bytes)")
                         .arg(path)
                         .arg(offset)
                         .arg(offset + length)
                         .arg(fileSize);
        return std::nullopt;
    }
    if (!file.seek(offset)) {
        if (error)
            *error = QStringLiteral("%1: cannot seek to %2").arg(path).arg(offset);
        return std::nullopt;
    }
    QByteArray bytes = file.read(length);
    if (bytes.size() != length) {
        if (error)
            *error = QStringLiteral("%1: short read at %2 (%3 of %4 bytes)")
                         .arg(path)
                         .arg(offset)
                         .arg(bytes.size())
                         .arg(length);
        return std::nullopt;
    }
    return bytes;
}

} // namespace Trainyard::Formats
