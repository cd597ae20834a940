// SPDX-License-Identifier: GPL-2.0-or-later
#include "tensorbundle.h"

#include "crc32c.h"
#include "tensor_bundle.pb.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QtEndian>

#include <leveldb/comparator.h>
#include <leveldb/env.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>

#include <cstring>
#include <memory>

namespace Trainyard::Formats {

namespace {

using trainyard::tfckpt::BundleEntryProto;
using trainyard::tfckpt::BundleHeaderProto;

// Index tables hold one small entry per tensor: a gigabyte is millions of tensors.
constexpr qint64 kMaxIndexBytes = qint64(1) << 30;
constexpr int kMaxShards = 1 << 20;
// leveldb/table/format.h: a footer is two padded BlockHandles and an 8-byte magic; a block
// has a 1-byte compression type and a 4-byte CRC after it.
constexpr int kFooterSize = 48;
constexpr int kBlockTrailerSize = 5;
constexpr quint64 kTableMagic = 0xdb4775248b80fb57ull;

const QString kAttributesSuffix = QStringLiteral("/.ATTRIBUTES/VARIABLE_VALUE");

/// A leveldb file over bytes we already hold (a mapped or in-memory index). Reads past the end
/// come back short, as from a real file, and leveldb reports them as truncated blocks.
class MemoryFile final : public leveldb::RandomAccessFile {
public:
    explicit MemoryFile(QByteArrayView bytes)
        : m_bytes(bytes)
    {
    }
    leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result, char*) const override
    {
        if (offset > quint64(m_bytes.size())) {
            *result = leveldb::Slice();
            return leveldb::Status::IOError("read past the end of the index");
        }
        const size_t available = size_t(quint64(m_bytes.size()) - offset);
        *result = leveldb::Slice(m_bytes.data() + offset, std::min(n, available));
        return leveldb::Status::OK();
    }

private:
    QByteArrayView m_bytes;
};

bool readVarint64(const char*& p, const char* end, quint64* value)
{
    quint64 result = 0;
    for (int shift = 0; shift <= 63 && p < end; shift += 7) {
        const quint64 byte = quint8(*p++);
        result |= (byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) {
            *value = result;
            return true;
        }
    }
    return false;
}

struct BlockHandle {
    quint64 offset = 0;
    quint64 size = 0;
};

bool readHandle(const char*& p, const char* end, BlockHandle* handle)
{
    return readVarint64(p, end, &handle->offset) && readVarint64(p, end, &handle->size);
}

bool handleInside(const BlockHandle& h, quint64 limit)
{
    return h.offset <= limit && h.size <= limit && h.size + kBlockTrailerSize <= limit - h.offset;
}

/// leveldb allocates a buffer of a block handle's size before reading the block, so a corrupt
/// handle would mean an unbounded allocation. Check the footer's handles and, for an
/// uncompressed index block, every data-block handle in it against the file size first.
/// (A compressed index block is checksummed by leveldb before its handles are used.)
bool validateTableLayout(QByteArrayView bytes, QString* why)
{
    const quint64 size = quint64(bytes.size());
    if (size < quint64(kFooterSize)) {
        *why = QStringLiteral("%1 bytes is too short for a table footer (48 bytes)").arg(size);
        return false;
    }
    const char* footer = bytes.data() + size - kFooterSize;
    quint64 magic;
    std::memcpy(&magic, footer + kFooterSize - 8, 8);
    if (qFromLittleEndian(magic) != kTableMagic) {
        *why = QStringLiteral("bad table magic number (not a LevelDB-format table)");
        return false;
    }
    const char* p = footer;
    const char* const footerEnd = footer + kFooterSize - 8;
    BlockHandle metaIndex, index;
    if (!readHandle(p, footerEnd, &metaIndex) || !readHandle(p, footerEnd, &index)) {
        *why = QStringLiteral("corrupt table footer");
        return false;
    }
    const quint64 blocksEnd = size - kFooterSize;
    if (!handleInside(metaIndex, blocksEnd) || !handleInside(index, blocksEnd)) {
        *why = QStringLiteral("table footer points outside the file");
        return false;
    }
    const char* block = bytes.data() + index.offset;
    const quint8 compression = quint8(block[index.size]);
    if (compression != 0)
        return true;
    if (index.size < 4) {
        *why = QStringLiteral("index block too short");
        return false;
    }
    quint32 numRestarts;
    std::memcpy(&numRestarts, block + index.size - 4, 4);
    numRestarts = qFromLittleEndian(numRestarts);
    if (numRestarts > (index.size - 4) / 4) {
        *why = QStringLiteral("index block has a bad restart count");
        return false;
    }
    const char* q = block;
    const char* const entriesEnd = block + index.size - 4 - quint64(numRestarts) * 4;
    while (q < entriesEnd) {
        quint64 shared, nonShared, valueLength;
        if (!readVarint64(q, entriesEnd, &shared) || !readVarint64(q, entriesEnd, &nonShared)
            || !readVarint64(q, entriesEnd, &valueLength) || nonShared > quint64(entriesEnd - q)
            || valueLength > quint64(entriesEnd - q) - nonShared) {
            *why = QStringLiteral("corrupt index block entry");
            return false;
        }
        q += nonShared;
        const char* value = q;
        q += valueLength;
        BlockHandle data;
        if (!readHandle(value, q, &data) || !handleInside(data, blocksEnd)) {
            *why = QStringLiteral("index block points to a data block outside the file");
            return false;
        }
    }
    return true;
}

ElementType elementTypeOf(int dtype)
{
    using namespace trainyard::tfckpt;
    switch (dtype) {
    case DT_FLOAT:
        return ElementType::F32;
    case DT_DOUBLE:
        return ElementType::F64;
    case DT_HALF:
        return ElementType::F16;
    case DT_BFLOAT16:
        return ElementType::BF16;
    case DT_INT8:
        return ElementType::I8;
    case DT_INT16:
        return ElementType::I16;
    case DT_INT32:
        return ElementType::I32;
    case DT_INT64:
        return ElementType::I64;
    case DT_UINT8:
        return ElementType::U8;
    case DT_UINT16:
        return ElementType::U16;
    case DT_UINT32:
        return ElementType::U32;
    case DT_UINT64:
        return ElementType::U64;
    case DT_BOOL:
        return ElementType::Bool;
    default:
        return ElementType::Other;
    }
}

QString dtypeName(int dtype)
{
    if (trainyard::tfckpt::DataType_IsValid(dtype))
        return QString::fromStdString(trainyard::tfckpt::DataType_Name(trainyard::tfckpt::DataType(dtype)));
    return QStringLiteral("DT_%1").arg(dtype);
}

QString printableKey(const std::string& key)
{
    QString s;
    for (char c : key) {
        const uchar u = uchar(c);
        if (u >= 0x20 && u < 0x7f)
            s.append(QLatin1Char(c));
        else
            s.append(QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0')));
    }
    return s;
}

/// TensorFlow's checksum of a tensor's bytes (tensor_bundle.cc, WriteTensor/WriteStringTensor).
/// Numeric tensors: CRC-32C of the bytes. DT_STRING tensors are stored as
/// `[varint64 len]… [masked CRC of the lengths, u32] [bytes]…`; their CRC covers each length as
/// a raw little-endian integer (not the varint), then the 4 checksum bytes, then the bytes. The
/// integer was a u32 in the TensorFlow that wrote the fixtures and is a u64 in current sources,
/// so both are tried against the stored length checksum.
bool bundleCrc(const TensorInfo& tensor, QByteArrayView bytes, quint32* crc, QString* error)
{
    if (tensor.dtype != QLatin1String("DT_STRING")) {
        *crc = crc32c(bytes.data(), size_t(bytes.size()));
        return true;
    }
    const qint64 count = tensor.elementCount();
    const char* p = bytes.data();
    const char* const end = p + bytes.size();
    quint32 c32 = 0, c64 = 0;
    quint64 total = 0;
    for (qint64 i = 0; i < count; ++i) {
        quint64 length;
        if (!readVarint64(p, end, &length) || length > quint64(bytes.size())) {
            *error = QStringLiteral("tensor \"%1\": string lengths run past its bytes").arg(tensor.name);
            return false;
        }
        total += length;
        const quint64 le64 = qToLittleEndian(length);
        const quint32 le32 = qToLittleEndian(quint32(length));
        c64 = crc32c(reinterpret_cast<const char*>(&le64), sizeof le64, c64);
        c32 = crc32c(reinterpret_cast<const char*>(&le32), sizeof le32, c32);
    }
    if (end - p < 4) {
        *error = QStringLiteral("tensor \"%1\": string length checksum missing").arg(tensor.name);
        return false;
    }
    quint32 stored;
    std::memcpy(&stored, p, 4);
    stored = qFromLittleEndian(stored);
    quint32 c;
    if (stored == maskCrc(c64)) {
        c = c64;
    } else if (stored == maskCrc(c32)) {
        c = c32;
    } else {
        *error = QStringLiteral("tensor \"%1\": string length checksum mismatch").arg(tensor.name);
        return false;
    }
    c = crc32c(p, 4, c);
    p += 4;
    if (quint64(end - p) != total) {
        *error = QStringLiteral("tensor \"%1\": string bytes (%2) do not match the lengths (%3)")
                     .arg(tensor.name)
                     .arg(end - p)
                     .arg(total);
        return false;
    }
    *crc = crc32c(p, size_t(end - p), c);
    return true;
}

// Strings are checked in one piece (their lengths lead the bytes); this bounds that read.
constexpr qint64 kMaxStringTensorBytes = qint64(256) << 20;

} // namespace

QString TensorBundle::shardFileName(const QString& prefix, int shard, int numShards)
{
    return QStringLiteral("%1.data-%2-of-%3")
        .arg(prefix)
        .arg(shard, 5, 10, QLatin1Char('0'))
        .arg(numShards, 5, 10, QLatin1Char('0'));
}

QString TensorBundle::objectPath(const QString& name)
{
    if (name.endsWith(kAttributesSuffix) && name.size() > kAttributesSuffix.size())
        return name.chopped(kAttributesSuffix.size());
    return name;
}

QString TensorBundle::prefixFromPath(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir()) {
        const QDir dir(path);
        if (QFileInfo::exists(dir.filePath(QStringLiteral("variables/variables.index"))))
            return dir.filePath(QStringLiteral("variables/variables"));
        if (QFileInfo::exists(dir.filePath(QStringLiteral("variables.index"))))
            return dir.filePath(QStringLiteral("variables"));
        return {};
    }
    if (path.endsWith(QLatin1String(".index")))
        return path.chopped(6);
    static const QRegularExpression shard(QStringLiteral("^(.*)\\.data-\\d{5}-of-\\d{5}$"));
    const auto match = shard.match(path);
    if (match.hasMatch())
        return match.captured(1);
    if (QFileInfo::exists(path + QStringLiteral(".index")))
        return path;
    return {};
}

std::optional<CheckpointInfo> TensorBundle::parseIndex(QByteArrayView indexBytes, const QString& prefix, QString* error)
{
    const QString indexPath = prefix + QStringLiteral(".index");
    auto fail = [&](const QString& message) -> std::optional<CheckpointInfo> {
        if (error)
            *error = indexPath % QStringLiteral(": ") % message;
        return std::nullopt;
    };
    QString why;
    if (!validateTableLayout(indexBytes, &why))
        return fail(why);

    MemoryFile file(indexBytes);
    leveldb::Options options;
    // TensorFlow's bundle writer uses bytewise key order and no filter block; leveldb's defaults.
    options.comparator = leveldb::BytewiseComparator();
    options.filter_policy = nullptr;
    options.block_cache = nullptr;
    options.paranoid_checks = true;
    leveldb::Table* rawTable = nullptr;
    leveldb::Status status = leveldb::Table::Open(options, &file, quint64(indexBytes.size()), &rawTable);
    std::unique_ptr<leveldb::Table> table(rawTable);
    if (!status.ok())
        return fail(QStringLiteral("not a readable table: ") % QString::fromStdString(status.ToString()));

    leveldb::ReadOptions readOptions;
    readOptions.verify_checksums = true;
    readOptions.fill_cache = false;
    std::unique_ptr<leveldb::Iterator> it(table->NewIterator(readOptions));

    CheckpointInfo info;
    info.format = QStringLiteral("tf-bundle");
    info.path = prefix;
    // An entry takes some 30–60 bytes of the table; guessing low only costs a regrowth.
    info.tensors.reserve(qsizetype(std::min<qint64>(indexBytes.size() / 64, 1 << 20)));
    bool haveHeader = false;
    int numShards = 0;
    BundleEntryProto entry;
    // Names shared by many entries, made once: shard file names and dtype names.
    QStringList shardFiles;
    QHash<int, QString> dtypeNames;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const leveldb::Slice key = it->key();
        const leveldb::Slice value = it->value();
        if (key.empty()) {
            BundleHeaderProto header;
            if (!header.ParseFromArray(value.data(), int(value.size())))
                return fail(QStringLiteral("header entry (key \"\") is not a BundleHeaderProto"));
            if (header.num_shards() < 1 || header.num_shards() > kMaxShards)
                return fail(
                    QStringLiteral("header num_shards %1 is outside [1, %2]").arg(header.num_shards()).arg(kMaxShards));
            numShards = header.num_shards();
            haveHeader = true;
            shardFiles.reserve(numShards);
            for (int i = 0; i < numShards; ++i)
                shardFiles.append(shardFileName(prefix, i, numShards));
            info.metadata.insert(QStringLiteral("numShards"), numShards);
            info.metadata.insert(QStringLiteral("endianness"),
                header.endianness() == BundleHeaderProto::BIG ? QStringLiteral("BIG") : QStringLiteral("LITTLE"));
            if (header.has_version())
                info.metadata.insert(QStringLiteral("producer"), header.version().producer());
            continue;
        }
        // Slices of a partitioned variable: their keys are OrderedCode-encoded and start with NUL;
        // the full variable's own entry lists them.
        if (key[0] == '\0')
            continue;
        const QString name = QString::fromUtf8(key.data(), qsizetype(key.size()));
        if (!entry.ParseFromArray(value.data(), int(value.size())))
            return fail(QStringLiteral("entry \"%1\" is not a BundleEntryProto").arg(printableKey(key.ToString())));
        if (!haveHeader)
            return fail(QStringLiteral("no header entry (key \"\") before the first tensor"));
        TensorInfo t;
        t.name = name;
        t.displayName = objectPath(name);
        auto dtype = dtypeNames.find(entry.dtype());
        if (dtype == dtypeNames.end())
            dtype = dtypeNames.insert(entry.dtype(), dtypeName(entry.dtype()));
        t.dtype = *dtype;
        t.elementType = elementTypeOf(entry.dtype());
        t.isMetadata = name == QLatin1String("_CHECKPOINTABLE_OBJECT_GRAPH");
        if (entry.shape().unknown_rank())
            return fail(QStringLiteral("entry \"%1\": shape has unknown rank").arg(name));
        for (const auto& dim : entry.shape().dim()) {
            if (dim.size() < 0)
                return fail(QStringLiteral("entry \"%1\": shape dimension %2 is negative").arg(name).arg(dim.size()));
            t.shape.append(dim.size());
        }
        if (entry.shard_id() < 0 || entry.shard_id() >= numShards)
            return fail(QStringLiteral("entry \"%1\": shard_id %2 is outside [0, %3)")
                            .arg(name)
                            .arg(entry.shard_id())
                            .arg(numShards));
        if (entry.offset() < 0 || entry.size() < 0)
            return fail(QStringLiteral("entry \"%1\": negative offset or size").arg(name));
        const qint64 count = t.elementCount();
        if (count < 0)
            return fail(QStringLiteral("entry \"%1\": element count overflows").arg(name));
        const int elementBytes = elementSize(t.elementType);
        if (entry.slices_size() == 0 && elementBytes > 0
            && (count > std::numeric_limits<qint64>::max() / elementBytes || count * elementBytes != entry.size()))
            return fail(QStringLiteral("entry \"%1\": size %2 does not match shape × %3 bytes per %4")
                            .arg(name)
                            .arg(entry.size())
                            .arg(elementBytes)
                            .arg(t.dtype));
        t.shard = entry.shard_id();
        t.file = shardFiles.at(entry.shard_id());
        t.offset = entry.offset();
        t.size = entry.size();
        t.crc32c = unmaskCrc(entry.crc32c());
        info.tensors.append(std::move(t));
    }
    if (!it->status().ok())
        return fail(QStringLiteral("corrupt table: ") % QString::fromStdString(it->status().ToString()));
    if (!haveHeader)
        return fail(QStringLiteral("no header entry (key \"\")"));
    info.files.append(indexPath);
    info.files.append(shardFiles);
    return info;
}

std::optional<CheckpointInfo> TensorBundle::read(const QString& path, QString* error)
{
    const QString prefix = prefixFromPath(path);
    if (prefix.isEmpty()) {
        if (error)
            *error
                = QStringLiteral("%1: not a tensor bundle (no .index file, SavedModel or variables folder)").arg(path);
        return std::nullopt;
    }
    const QString absPrefix = QFileInfo(prefix).absoluteFilePath();
    QFile file(absPrefix + QStringLiteral(".index"));
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot open %1: %2").arg(file.fileName(), file.errorString());
        return std::nullopt;
    }
    const qint64 size = file.size();
    if (size > kMaxIndexBytes) {
        if (error)
            *error = QStringLiteral("%1: %2 bytes exceeds the index size limit (%3)")
                         .arg(file.fileName())
                         .arg(size)
                         .arg(kMaxIndexBytes);
        return std::nullopt;
    }
    QByteArray copy;
    QByteArrayView bytes;
    if (uchar* mapped = size > 0 ? file.map(0, size) : nullptr) {
        bytes = QByteArrayView(reinterpret_cast<const char*>(mapped), size);
    } else {
        copy = file.readAll();
        bytes = copy;
    }
    auto info = parseIndex(bytes, absPrefix, error);
    if (!info)
        return std::nullopt;

    // Every entry's bytes must lie inside its shard; a missing or short shard is reported here
    // rather than when a user asks for values.
    std::vector<qint64> shardSizes(size_t(info->files.size() - 1), -2);
    for (const TensorInfo& t : std::as_const(info->tensors)) {
        qint64& shardSize = shardSizes[size_t(t.shard)];
        if (shardSize == -2) {
            const QFileInfo shardInfo(t.file);
            shardSize = shardInfo.exists() ? shardInfo.size() : -1;
        }
        if (shardSize < 0) {
            if (error)
                *error = QStringLiteral("%1: data file missing (holds tensor \"%2\")").arg(t.file, t.name);
            return std::nullopt;
        }
        if (t.offset > shardSize || t.size > shardSize - t.offset) {
            if (error)
                *error = QStringLiteral("%1: tensor \"%2\" bytes [%3, %4) lie beyond the end of the file (%5 bytes)")
                             .arg(t.file, t.name)
                             .arg(t.offset)
                             .arg(t.offset + t.size)
                             .arg(shardSize);
            return std::nullopt;
        }
    }
    return info;
}

std::optional<QByteArray> TensorBundle::readTensorData(
    const TensorInfo& tensor, qint64 maxBytes, bool verify, QString* error)
{
    if (tensor.size > maxBytes) {
        if (error)
            *error = QStringLiteral("tensor \"%1\" has %2 bytes, more than the limit of %3")
                         .arg(tensor.name)
                         .arg(tensor.size)
                         .arg(maxBytes);
        return std::nullopt;
    }
    auto bytes = readFileRange(tensor.file, tensor.offset, tensor.size, error);
    if (!bytes)
        return std::nullopt;
    if (verify && tensor.crc32c) {
        quint32 actual = 0;
        QString why;
        if (!bundleCrc(tensor, *bytes, &actual, &why)) {
            if (error)
                *error = why;
            return std::nullopt;
        }
        if (actual != *tensor.crc32c) {
            if (error)
                *error = QStringLiteral("tensor \"%1\": CRC-32C mismatch (stored %2, computed %3)")
                             .arg(tensor.name)
                             .arg(*tensor.crc32c, 8, 16, QLatin1Char('0'))
                             .arg(actual, 8, 16, QLatin1Char('0'));
            return std::nullopt;
        }
    }
    return bytes;
}

bool TensorBundle::verifyCrc(const TensorInfo& tensor, QString* error)
{
    if (!tensor.crc32c) {
        if (error)
            *error = QStringLiteral("tensor \"%1\" has no stored CRC-32C").arg(tensor.name);
        return false;
    }
    if (tensor.dtype == QLatin1String("DT_STRING"))
        return readTensorData(tensor, kMaxStringTensorBytes, true, error).has_value();
    QFile file(tensor.file);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot open %1: %2").arg(tensor.file, file.errorString());
        return false;
    }
    if (tensor.offset < 0 || tensor.size < 0 || tensor.offset > file.size() || tensor.size > file.size() - tensor.offset
        || !file.seek(tensor.offset)) {
        if (error)
            *error = QStringLiteral("%1: tensor \"%2\" lies outside the file").arg(tensor.file, tensor.name);
        return false;
    }
    quint32 crc = 0;
    qint64 left = tensor.size;
    QByteArray chunk(qMin<qint64>(left, 1 << 20), Qt::Uninitialized);
    while (left > 0) {
        const qint64 n = file.read(chunk.data(), qMin<qint64>(left, chunk.size()));
        if (n <= 0) {
            if (error)
                *error = QStringLiteral("%1: short read in tensor \"%2\"").arg(tensor.file, tensor.name);
            return false;
        }
        crc = crc32c(chunk.constData(), size_t(n), crc);
        left -= n;
    }
    if (crc != *tensor.crc32c) {
        if (error)
            *error = QStringLiteral("tensor \"%1\": CRC-32C mismatch (stored %2, computed %3)")
                         .arg(tensor.name)
                         .arg(*tensor.crc32c, 8, 16, QLatin1Char('0'))
                         .arg(crc, 8, 16, QLatin1Char('0'));
        return false;
    }
    return true;
}

} // namespace Trainyard::Formats
