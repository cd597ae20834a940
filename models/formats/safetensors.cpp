// SPDX-License-Identifier: GPL-2.0-or-later
#include "safetensors.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string_view>

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

/// TensorInfo::dtype of a dtype: one shared QString per dtype, so that listing a tensor does not allocate its
/// dtype's name again.
const QString& dtypeName(const DType* dtype)
{
    static const std::vector<QString> names = [] {
        std::vector<QString> all;
        for (const DType& d : kDTypes)
            all.push_back(QString::fromLatin1(d.name));
        return all;
    }();
    return names[size_t(dtype - kDTypes)];
}

const DType* findDType(std::string_view name)
{
    for (const DType& d : kDTypes) {
        if (name == d.name)
            return &d;
    }
    return nullptr;
}

// Offsets and sizes must be exact non-negative integers. JSON has one number type; the reference reads these
// as u64 / usize, and QJsonDocument (this reader before simdjson) as doubles, so a number is accepted when it
// is an integer a double holds exactly: 8, 8.0 and 8e0 alike, up to 2^53.
bool toCount(simdjson::dom::element v, qint64* out)
{
    constexpr double maxExact = 9007199254740992.0; // 2^53
    switch (v.type()) {
    case simdjson::dom::element_type::INT64: {
        const int64_t i = v.get_int64().value_unsafe();
        if (i < 0 || double(i) > maxExact)
            return false;
        *out = i;
        return true;
    }
    case simdjson::dom::element_type::UINT64:
        return false; // above INT64_MAX, so above 2^53
    case simdjson::dom::element_type::DOUBLE: {
        const double d = v.get_double().value_unsafe();
        if (!(d >= 0) || d != std::floor(d) || d > maxExact)
            return false;
        *out = qint64(d);
        return true;
    }
    default:
        return false;
    }
}

QString fromUtf8(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// One member of a JSON object as simdjson hands it out; `key` points into the parser's string buffer.
struct Member {
    std::string_view key;
    simdjson::dom::element value;
};

// The members of `object` in key order, each key once with the value of its last occurrence: what iterating a
// QJsonObject gave (it sorts its keys as QStrings and keeps the last duplicate), and what the reference's parse
// into a map keeps.
std::vector<Member> sortedMembers(simdjson::dom::object object)
{
    std::vector<Member> members;
    members.reserve(object.size());
    bool beyondBmp = false;
    for (const simdjson::dom::key_value_pair field : object) {
        members.push_back({ field.key, field.value });
        for (char c : field.key)
            beyondBmp |= uchar(c) >= 0xf0;
    }
    // UTF-8 bytes sort in code point order, which is QString's (UTF-16) order unless a key has a character above
    // U+FFFF; only then are the keys compared as QStrings.
    const auto byBytes = [](const Member& a, const Member& b) { return a.key < b.key; };
    const auto byUtf16 = [](const Member& a, const Member& b) { return fromUtf8(a.key) < fromUtf8(b.key); };
    if (beyondBmp)
        std::stable_sort(members.begin(), members.end(), byUtf16);
    else if (!std::is_sorted(members.begin(), members.end(), byBytes)) // writers sort headers: usually one pass
        std::stable_sort(members.begin(), members.end(), byBytes);
    // Equal keys are now adjacent in document order: keep the last of each run.
    size_t kept = 0;
    for (size_t i = 0; i < members.size(); ++i) {
        if (i + 1 < members.size() && members[i + 1].key == members[i].key)
            continue;
        members[kept++] = members[i];
    }
    members.resize(kept);
    return members;
}

/// The value of the last `key` among an object's fields (the one QJsonObject kept), or false when it has none.
bool lastField(simdjson::dom::object object, std::string_view key, simdjson::dom::element* value)
{
    bool found = false;
    for (const simdjson::dom::key_value_pair field : object) {
        if (field.key == key) {
            *value = field.value;
            found = true;
        }
    }
    return found;
}

// The last value of `key` among an object's fields, or an invalid element when it has none.
struct EntryFields {
    simdjson::dom::element dtype, shape, offsets;
    bool hasDtype = false, hasShape = false, hasOffsets = false;
};

EntryFields entryFields(simdjson::dom::object entry)
{
    EntryFields f;
    for (const simdjson::dom::key_value_pair field : entry) {
        if (field.key == "dtype") {
            f.dtype = field.value;
            f.hasDtype = true;
        } else if (field.key == "shape") {
            f.shape = field.value;
            f.hasShape = true;
        } else if (field.key == "data_offsets") {
            f.offsets = field.value;
            f.hasOffsets = true;
        }
    }
    return f;
}

// A JSON value as QJsonDocument would have read it: integers within ±2^53 as integers, other numbers as
// doubles. Nesting is bounded by simdjson's depth limit (1024).
QJsonValue toQJson(simdjson::dom::element e)
{
    switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
        const simdjson::dom::array items = e.get_array().value_unsafe();
        QJsonArray array;
        for (const simdjson::dom::element item : items)
            array.append(toQJson(item));
        return array;
    }
    case simdjson::dom::element_type::OBJECT: {
        const simdjson::dom::object fields = e.get_object().value_unsafe();
        QJsonObject object;
        for (const simdjson::dom::key_value_pair field : fields)
            object.insert(fromUtf8(field.key), toQJson(field.value)); // a later duplicate replaces, as in Qt
        return object;
    }
    case simdjson::dom::element_type::INT64: {
        const int64_t i = e.get_int64().value_unsafe();
        return std::abs(double(i)) <= 9007199254740992.0 ? QJsonValue(qint64(i)) : QJsonValue(double(i));
    }
    case simdjson::dom::element_type::UINT64:
        return double(e.get_uint64().value_unsafe());
    case simdjson::dom::element_type::DOUBLE:
        return e.get_double().value_unsafe();
    case simdjson::dom::element_type::STRING:
        return fromUtf8(e.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL:
        return e.get_bool().value_unsafe();
    case simdjson::dom::element_type::NULL_VALUE:
        break;
    }
    return QJsonValue(QJsonValue::Null);
}

// Parses `json` with simdjson, in place when `paddedSize` (the bytes readable from json.data()) leaves
// SIMDJSON_PADDING after it, else from a padded copy kept in `copy`. On failure `*message` says why, with the
// byte where the document breaks as Qt's parser finds it (simdjson only says what is wrong).
bool parseJson(simdjson::dom::parser& parser, QByteArrayView json, qsizetype paddedSize, simdjson::padded_string* copy,
    simdjson::dom::element* root, QString* message)
{
    simdjson::error_code parseError;
    if (paddedSize - json.size() >= qsizetype(simdjson::SIMDJSON_PADDING)) {
        parseError = parser.parse(reinterpret_cast<const uint8_t*>(json.data()), size_t(json.size()), false).get(*root);
    } else {
        *copy = simdjson::padded_string(json.data(), size_t(json.size()));
        parseError = parser.parse(*copy).get(*root);
    }
    if (!parseError)
        return true;
    QJsonParseError qtError;
    QJsonDocument::fromJson(json.toByteArray(), &qtError);
    *message = qtError.error != QJsonParseError::NoError
        ? QStringLiteral("not valid JSON at byte %1: %2").arg(qtError.offset).arg(qtError.errorString())
        : QStringLiteral("not valid JSON: %1").arg(QString::fromUtf8(simdjson::error_message(parseError)));
    return false;
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

    // simdjson reads up to SIMDJSON_PADDING bytes past the document: in place when `head` has them (read()
    // allocates them), else from a padded copy.
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    simdjson::padded_string copy;
    QString why;
    if (!parseJson(parser, json, head.size() - 8, &copy, &root, &why))
        return fail(QStringLiteral("header is ") % why);
    simdjson::dom::object header;
    if (root.get_object().get(header))
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
    const std::vector<Member> members = sortedMembers(header);
    ranges.reserve(members.size());
    info.tensors.reserve(qsizetype(members.size()));
    std::array<QList<qint64>, 4> recentShapes; // shared by equal shapes (QList is implicitly shared)
    for (const Member& member : members) {
        if (member.key == "__metadata__") {
            simdjson::dom::object meta;
            if (member.value.get_object().get(meta))
                return fail(QStringLiteral("__metadata__ is not an object"));
            QJsonObject metadata;
            for (const Member& m : sortedMembers(meta)) {
                std::string_view text;
                if (m.value.get_string().get(text))
                    return fail(QStringLiteral("__metadata__.%1 is not a string").arg(fromUtf8(m.key)));
                metadata.insert(fromUtf8(m.key), fromUtf8(text));
            }
            info.metadata = metadata;
            continue;
        }
        const QString name = fromUtf8(member.key);
        auto bad = [&](const QString& what) { return fail(QStringLiteral("tensor \"%1\": %2").arg(name, what)); };
        simdjson::dom::object entry;
        if (member.value.get_object().get(entry))
            return bad(QStringLiteral("entry is not an object"));
        const EntryFields fields = entryFields(entry);
        std::string_view dtypeText;
        const bool dtypeIsString = fields.hasDtype && !fields.dtype.get_string().get(dtypeText);
        const DType* dtype = dtypeIsString ? findDType(dtypeText) : nullptr;
        if (!dtype)
            return bad(dtypeIsString ? QStringLiteral("unknown dtype \"%1\"").arg(fromUtf8(dtypeText))
                                     : QStringLiteral("dtype missing or not a string"));
        TensorInfo t;
        t.name = name;
        t.displayName = name;
        t.dtype = dtypeName(dtype);
        t.elementType = dtype->type;
        simdjson::dom::array shape;
        if (!fields.hasShape || fields.shape.get_array().get(shape))
            return bad(QStringLiteral("shape missing or not an array"));
        qint64 dims[8];
        size_t rank = 0;
        for (const simdjson::dom::element d : shape) {
            qint64 size;
            if (!toCount(d, &size))
                return bad(QStringLiteral("shape entries must be non-negative integers"));
            if (rank < std::size(dims))
                dims[rank] = size;
            ++rank;
        }
        const QList<qint64>* same = nullptr;
        if (rank <= std::size(dims)) {
            for (const QList<qint64>& r : recentShapes)
                if (r.size() == qsizetype(rank) && std::equal(r.cbegin(), r.cend(), dims))
                    same = &r;
        }
        if (same) {
            t.shape = *same;
        } else {
            t.shape.reserve(qsizetype(rank));
            for (const simdjson::dom::element d : shape) {
                qint64 size = 0;
                toCount(d, &size);
                t.shape.append(size);
            }
            std::rotate(recentShapes.begin(), recentShapes.end() - 1, recentShapes.end());
            recentShapes.front() = t.shape;
        }
        simdjson::dom::array offsets;
        qint64 begin = 0, end = 0;
        if (!fields.hasOffsets || fields.offsets.get_array().get(offsets) || offsets.size() != 2
            || !toCount(offsets.at(0).value_unsafe(), &begin) || !toCount(offsets.at(1).value_unsafe(), &end))
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
    const auto byOffset
        = [](const Range& a, const Range& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; };
    // Writers lay tensors out in name order, so this is usually one pass.
    if (!std::is_sorted(ranges.begin(), ranges.end(), byOffset))
        std::sort(ranges.begin(), ranges.end(), byOffset);
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
    // One buffer for the length, the header and the padding simdjson reads past a document (zeroed: it is
    // read, though it changes nothing), so that parseHeader() parses it in place.
    const qsizetype padding = qsizetype(simdjson::SIMDJSON_PADDING);
    QByteArray head(8 + qsizetype(n) + padding, Qt::Uninitialized);
    std::memcpy(head.data(), lengthBytes.constData(), 8);
    const qint64 got = file.read(head.data() + 8, qint64(n));
    if (got != qint64(n)) // shorter than its size said: parseHeader() reports it truncated
        return parseHeader(QByteArrayView(head).first(8 + std::max<qint64>(got, 0)), fileSize, absolute, error);
    std::memset(head.data() + 8 + n, 0, size_t(padding));
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
    QByteArray bytes = file.readAll();
    const qsizetype jsonSize = bytes.size();
    bytes.resize(jsonSize + qsizetype(simdjson::SIMDJSON_PADDING), '\0'); // read in place by simdjson
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    simdjson::padded_string copy;
    QString why;
    if (!parseJson(parser, QByteArrayView(bytes).first(jsonSize), bytes.size(), &copy, &root, &why))
        return fail(why);
    simdjson::dom::object index, map;
    simdjson::dom::element weightMap;
    if (root.get_object().get(index) || !lastField(index, "weight_map", &weightMap) || weightMap.get_object().get(map))
        return fail(QStringLiteral("weight_map missing or not an object"));
    const std::vector<Member> members = sortedMembers(map);
    const QDir dir = QFileInfo(absolute).absoluteDir();
    QStringList shards;
    std::vector<QString> shardOfMember; // each member's shard, in `members` order
    shardOfMember.reserve(members.size());
    for (const Member& m : members) {
        std::string_view value;
        const bool isString = !m.value.get_string().get(value);
        const QString shard = isString ? fromUtf8(value) : QString();
        if (!isString || shard.isEmpty())
            return fail(QStringLiteral("weight_map.%1 is not a file name").arg(fromUtf8(m.key)));
        if (QDir::isAbsolutePath(shard) || QDir::cleanPath(shard).startsWith(QLatin1String("..")))
            return fail(QStringLiteral("weight_map.%1: shard \"%2\" lies outside the index's folder")
                            .arg(fromUtf8(m.key), shard));
        if (!shards.contains(shard))
            shards.append(shard);
        shardOfMember.push_back(shard);
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
    for (size_t i = 0; i < members.size(); ++i) {
        const QString name = fromUtf8(members[i].key);
        const QString& shard = shardOfMember[i];
        const auto found = shardOf.constFind(name);
        if (found == shardOf.cend())
            return fail(QStringLiteral("tensor \"%1\" is not in its shard %2").arg(name, shard));
        if (*found != shard)
            return fail(
                QStringLiteral("tensor \"%1\" is in shard %2, but weight_map names %3").arg(name, *found, shard));
    }
    std::sort(info.tensors.begin(), info.tensors.end(),
        [](const TensorInfo& a, const TensorInfo& b) { return a.name < b.name; });
    simdjson::dom::element metadataValue;
    QJsonObject metadata;
    if (lastField(index, "metadata", &metadataValue) && metadataValue.is_object())
        metadata = toQJson(metadataValue).toObject();
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
