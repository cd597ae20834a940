// SPDX-License-Identifier: GPL-2.0-or-later
#include "safetensors.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace Trainyard::Formats {

namespace {

struct DType {
    const char* name;
    ElementType type;
    int bits;
};

// safetensors/src/tensor.rs `Dtype`; sizes in bits because of the sub-byte float formats.
constexpr DType kDTypes[] = {
    { "BOOL", ElementType::Bool, 8 },
    { "U8", ElementType::U8, 8 },
    { "I8", ElementType::I8, 8 },
    { "F8_E5M2", ElementType::Other, 8 },
    { "F8_E4M3", ElementType::Other, 8 },
    { "F8_E8M0", ElementType::Other, 8 },
    { "I16", ElementType::I16, 16 },
    { "U16", ElementType::U16, 16 },
    { "F16", ElementType::F16, 16 },
    { "BF16", ElementType::BF16, 16 },
    { "I32", ElementType::I32, 32 },
    { "U32", ElementType::U32, 32 },
    { "F32", ElementType::F32, 32 },
    { "F64", ElementType::F64, 64 },
    { "I64", ElementType::I64, 64 },
    { "U64", ElementType::U64, 64 },
    { "C64", ElementType::Other, 64 },
    { "F4", ElementType::Other, 4 },
    { "F6_E2M3", ElementType::Other, 6 },
    { "F6_E3M2", ElementType::Other, 6 },
};

const DType* findDType(const QString& name)
{
    for (const DType& d : kDTypes) {
        if (name == QLatin1String(d.name))
            return &d;
    }
    return nullptr;
}

// JSON numbers are doubles; offsets and sizes must be exact non-negative integers.
bool toCount(const QJsonValue& v, qint64* out)
{
    if (!v.isDouble())
        return false;
    const double d = v.toDouble();
    if (!(d >= 0) || d != std::floor(d) || d > 9007199254740992.0)
        return false;
    *out = qint64(d);
    return true;
}

} // namespace

std::optional<CheckpointInfo> SafeTensors::parseHeader(
    QByteArrayView head, qint64 fileSize, const QString& path, QString* error)
{
    auto fail = [&](const QString& message) -> std::optional<CheckpointInfo> {
        if (error)
            *error = path % QStringLiteral(": ") % message;
        return std::nullopt;
    };
    if (fileSize < 8 || head.size() < 8)
        return fail(QStringLiteral("%1 bytes is too short for the 8-byte header length").arg(fileSize));
    quint64 n;
    std::memcpy(&n, head.data(), 8);
    n = qFromLittleEndian(n);
    if (n > quint64(kMaxHeaderBytes))
        return fail(QStringLiteral("header length %1 exceeds the limit of %2 bytes").arg(n).arg(kMaxHeaderBytes));
    if (qint64(n) > fileSize - 8)
        return fail(QStringLiteral("header length %1 runs past the end of the file (%2 bytes)").arg(n).arg(fileSize));
    if (qint64(n) > head.size() - 8)
        return fail(QStringLiteral("header truncated"));
    const QByteArrayView json = head.sliced(8, qsizetype(n));
    if (json.isEmpty() || json.front() != '{')
        return fail(QStringLiteral("header does not start with '{'"));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(QStringLiteral("header is not valid JSON at byte %1: %2")
                        .arg(parseError.offset)
                        .arg(parseError.errorString()));
    if (!doc.isObject())
        return fail(QStringLiteral("header is not a JSON object"));
    const qint64 bufferStart = 8 + qint64(n);
    const qint64 bufferSize = fileSize - bufferStart;

    CheckpointInfo info;
    info.format = QStringLiteral("safetensors");
    info.path = path;
    info.files = QStringList { path };
    struct Range {
        qint64 begin, end;
        qsizetype tensor;
    };
    std::vector<Range> ranges;
    const QJsonObject header = doc.object();
    ranges.reserve(size_t(header.size()));
    info.tensors.reserve(header.size());
    for (auto it = header.begin(); it != header.end(); ++it) {
        const QString name = it.key();
        if (name == QLatin1String("__metadata__")) {
            if (!it.value().isObject())
                return fail(QStringLiteral("__metadata__ is not an object"));
            const QJsonObject meta = it.value().toObject();
            for (auto m = meta.begin(); m != meta.end(); ++m) {
                if (!m.value().isString())
                    return fail(QStringLiteral("__metadata__.%1 is not a string").arg(m.key()));
            }
            info.metadata = meta;
            continue;
        }
        auto bad = [&](const QString& what) { return fail(QStringLiteral("tensor \"%1\": %2").arg(name, what)); };
        if (!it.value().isObject())
            return bad(QStringLiteral("entry is not an object"));
        const QJsonObject entry = it.value().toObject();
        const QJsonValue dtypeValue = entry.value(QLatin1String("dtype"));
        const DType* dtype = findDType(dtypeValue.toString());
        if (!dtype)
            return bad(dtypeValue.isString() ? QStringLiteral("unknown dtype \"%1\"").arg(dtypeValue.toString())
                                             : QStringLiteral("dtype missing or not a string"));
        TensorInfo t;
        t.name = name;
        t.displayName = name;
        t.dtype = QLatin1String(dtype->name);
        t.elementType = dtype->type;
        const QJsonValue shapeValue = entry.value(QLatin1String("shape"));
        if (!shapeValue.isArray())
            return bad(QStringLiteral("shape missing or not an array"));
        for (const QJsonValue& d : shapeValue.toArray()) {
            qint64 size;
            if (!toCount(d, &size))
                return bad(QStringLiteral("shape entries must be non-negative integers"));
            t.shape.append(size);
        }
        const QJsonArray offsets = entry.value(QLatin1String("data_offsets")).toArray();
        qint64 begin, end;
        if (offsets.size() != 2 || !toCount(offsets.at(0), &begin) || !toCount(offsets.at(1), &end))
            return bad(QStringLiteral("data_offsets must be [begin, end], non-negative integers"));
        if (begin > end)
            return bad(QStringLiteral("data_offsets begin %1 is after end %2").arg(begin).arg(end));
        if (end > bufferSize)
            return bad(
                QStringLiteral("data_offsets end %1 lies beyond the data buffer (%2 bytes)").arg(end).arg(bufferSize));
        const qint64 count = t.elementCount();
        if (count < 0 || count > std::numeric_limits<qint64>::max() / 64)
            return bad(QStringLiteral("element count overflows"));
        const qint64 bits = count * dtype->bits;
        if (bits % 8 != 0 || bits / 8 != end - begin)
            return bad(QStringLiteral("shape × %1 is %2 bytes but data_offsets span %3")
                           .arg(t.dtype)
                           .arg(bits % 8 ? QStringLiteral("not whole") : QString::number(bits / 8))
                           .arg(end - begin));
        t.file = path;
        t.offset = bufferStart + begin;
        t.size = end - begin;
        ranges.push_back({ begin, end, info.tensors.size() });
        info.tensors.append(std::move(t));
    }
    std::sort(ranges.begin(), ranges.end(),
        [](const Range& a, const Range& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; });
    qint64 expected = 0;
    for (const Range& r : ranges) {
        const QString& name = info.tensors.at(r.tensor).name;
        if (r.begin < expected)
            return fail(QStringLiteral("tensor \"%1\": bytes [%2, %3) overlap the previous tensor (which ends at %4)")
                            .arg(name)
                            .arg(r.begin)
                            .arg(r.end)
                            .arg(expected));
        if (r.begin > expected)
            return fail(QStringLiteral("tensor \"%1\": hole of %2 bytes before it (data_offsets begin %3, expected %4)")
                            .arg(name)
                            .arg(r.begin - expected)
                            .arg(r.begin)
                            .arg(expected));
        expected = r.end;
    }
    if (expected != bufferSize)
        return fail(QStringLiteral("tensors cover %1 bytes but the data buffer has %2").arg(expected).arg(bufferSize));
    return info;
}

std::optional<CheckpointInfo> SafeTensors::read(const QString& path, QString* error)
{
    if (path.endsWith(QLatin1String(".json")))
        return readIndex(path, error);
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QFile file(absolute);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot open %1: %2").arg(absolute, file.errorString());
        return std::nullopt;
    }
    const qint64 fileSize = file.size();
    const QByteArray lengthBytes = file.read(8);
    if (lengthBytes.size() < 8)
        return parseHeader(lengthBytes, fileSize, absolute, error);
    const quint64 n = qFromLittleEndian<quint64>(lengthBytes.constData());
    // Check the declared length before reading (and allocating) that many bytes.
    if (n > quint64(kMaxHeaderBytes) || qint64(n) > fileSize - 8)
        return parseHeader(lengthBytes, fileSize, absolute, error);
    const QByteArray head = lengthBytes + file.read(qint64(n));
    return parseHeader(head, fileSize, absolute, error);
}

std::optional<CheckpointInfo> SafeTensors::readIndex(const QString& indexPath, QString* error)
{
    const QString absolute = QFileInfo(indexPath).absoluteFilePath();
    auto fail = [&](const QString& message) -> std::optional<CheckpointInfo> {
        if (error)
            *error = absolute % QStringLiteral(": ") % message;
        return std::nullopt;
    };
    QFile file(absolute);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot open: ") % file.errorString());
    if (file.size() > kMaxHeaderBytes)
        return fail(QStringLiteral("%1 bytes exceeds the limit of %2").arg(file.size()).arg(kMaxHeaderBytes));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(
            QStringLiteral("not valid JSON at byte %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    const QJsonValue weightMap = doc.object().value(QLatin1String("weight_map"));
    if (!weightMap.isObject())
        return fail(QStringLiteral("weight_map missing or not an object"));
    const QJsonObject map = weightMap.toObject();
    const QDir dir = QFileInfo(absolute).absoluteDir();
    QStringList shards;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const QString shard = it.value().toString();
        if (!it.value().isString() || shard.isEmpty())
            return fail(QStringLiteral("weight_map.%1 is not a file name").arg(it.key()));
        if (QDir::isAbsolutePath(shard) || QDir::cleanPath(shard).startsWith(QLatin1String("..")))
            return fail(
                QStringLiteral("weight_map.%1: shard \"%2\" lies outside the index's folder").arg(it.key(), shard));
        if (!shards.contains(shard))
            shards.append(shard);
    }
    CheckpointInfo info;
    info.format = QStringLiteral("safetensors");
    info.path = absolute;
    info.files.append(absolute);
    QHash<QString, QString> shardOf;
    for (const QString& shard : std::as_const(shards)) {
        auto part = read(dir.filePath(shard), error);
        if (!part)
            return std::nullopt;
        for (TensorInfo& t : part->tensors) {
            if (shardOf.contains(t.name))
                return fail(
                    QStringLiteral("tensor \"%1\" is in both %2 and %3").arg(t.name, shardOf.value(t.name), shard));
            shardOf.insert(t.name, shard);
            info.tensors.append(std::move(t));
        }
        info.files.append(part->path);
    }
    for (auto it = map.begin(); it != map.end(); ++it) {
        const auto found = shardOf.constFind(it.key());
        if (found == shardOf.cend())
            return fail(QStringLiteral("tensor \"%1\" is not in its shard %2").arg(it.key(), it.value().toString()));
        if (*found != it.value().toString())
            return fail(QStringLiteral("tensor \"%1\" is in shard %2, but weight_map names %3")
                            .arg(it.key(), *found, it.value().toString()));
    }
    std::sort(info.tensors.begin(), info.tensors.end(),
        [](const TensorInfo& a, const TensorInfo& b) { return a.name < b.name; });
    QJsonObject metadata = doc.object().value(QLatin1String("metadata")).toObject();
    metadata.insert(QStringLiteral("shards"), QJsonArray::fromStringList(shards));
    info.metadata = metadata;
    return info;
}

std::optional<QByteArray> SafeTensors::readTensorData(const TensorInfo& tensor, qint64 maxBytes, QString* error)
{
    if (tensor.size > maxBytes) {
        if (error)
            *error = QStringLiteral("tensor \"%1\" has %2 bytes, more than the limit of %3")
                         .arg(tensor.name)
                         .arg(tensor.size)
                         .arg(maxBytes);
        return std::nullopt;
    }
    return readFileRange(tensor.file, tensor.offset, tensor.size, error);
}

} // namespace Trainyard::Formats
