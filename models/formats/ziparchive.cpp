// SPDX-License-Identifier: GPL-2.0-or-later
#include "ziparchive.h"

#include <QFile>
#include <QtEndian>

#include <zlib.h>

#include <cstring>

namespace Trainyard::Formats {

namespace {

constexpr quint32 kLocalHeader = 0x04034b50;
constexpr quint32 kCentralHeader = 0x02014b50;
constexpr quint32 kEndOfCentralDirectory = 0x06054b50;
constexpr quint32 kZip64EndLocator = 0x07064b50;
constexpr qint64 kMaxDeflateRatio = 1032; ///< the most deflate can expand its input (zlib technical notes)
constexpr quint32 kZip64End = 0x06064b50;
constexpr int kEocdSize = 22;
constexpr int kCentralSize = 46;
constexpr int kLocalSize = 30;

template <typename T> T le(const char* p)
{
    return qFromLittleEndian<T>(p);
}

} // namespace

ZipArchive::~ZipArchive() = default;

std::unique_ptr<ZipArchive> ZipArchive::open(const QString& path, QString* error)
{
    std::unique_ptr<ZipArchive> archive(new ZipArchive);
    archive->m_file = std::make_unique<QFile>(path);
    if (!archive->m_file->open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot open %1: %2").arg(path, archive->m_file->errorString());
        return nullptr;
    }
    const qint64 size = archive->m_file->size();
    if (uchar* mapped = size > 0 ? archive->m_file->map(0, size) : nullptr) {
        archive->m_bytes = QByteArrayView(reinterpret_cast<const char*>(mapped), size);
    } else {
        archive->m_copy = archive->m_file->readAll();
        archive->m_bytes = archive->m_copy;
    }
    QString why;
    if (!archive->load(&why)) {
        if (error)
            *error = QStringLiteral("%1: not a readable zip archive: %2").arg(path, why);
        return nullptr;
    }
    return archive;
}

std::unique_ptr<ZipArchive> ZipArchive::openMemory(QByteArrayView bytes, QString* error)
{
    std::unique_ptr<ZipArchive> archive(new ZipArchive);
    archive->m_bytes = bytes;
    QString why;
    if (!archive->load(&why)) {
        if (error)
            *error = QStringLiteral("not a readable zip archive: ") % why;
        return nullptr;
    }
    return archive;
}

bool ZipArchive::load(QString* why)
{
    const char* const base = m_bytes.data();
    const qint64 size = m_bytes.size();
    if (size < kEocdSize) {
        *why = QStringLiteral("%1 bytes is too short for an end of central directory record").arg(size);
        return false;
    }
    // The end record sits in the last 22 + 65535 (comment) bytes; search backwards.
    qint64 eocd = -1;
    for (qint64 at = size - kEocdSize; at >= 0 && at >= size - kEocdSize - 0xffff; --at) {
        if (le<quint32>(base + at) == kEndOfCentralDirectory) {
            eocd = at;
            break;
        }
    }
    if (eocd < 0) {
        *why = QStringLiteral("no end of central directory record");
        return false;
    }
    quint64 count = le<quint16>(base + eocd + 10);
    quint64 cdSize = le<quint32>(base + eocd + 12);
    quint64 cdOffset = le<quint32>(base + eocd + 16);
    if (count == 0xffff || cdSize == 0xffffffffu || cdOffset == 0xffffffffu) {
        // Zip64: a locator just before the end record points at the Zip64 end record.
        if (eocd < 20 || le<quint32>(base + eocd - 20) != kZip64EndLocator) {
            *why = QStringLiteral("Zip64 end of central directory locator missing");
            return false;
        }
        const quint64 end64 = le<quint64>(base + eocd - 20 + 8);
        if (size < 56 || end64 > quint64(size) - 56 || le<quint32>(base + end64) != kZip64End) {
            *why = QStringLiteral("Zip64 end of central directory record missing");
            return false;
        }
        count = le<quint64>(base + end64 + 32);
        cdSize = le<quint64>(base + end64 + 40);
        cdOffset = le<quint64>(base + end64 + 48);
    }
    if (cdOffset > quint64(size) || cdSize > quint64(size) - cdOffset) {
        *why = QStringLiteral("central directory [%1, +%2) lies outside the %3-byte file")
                   .arg(cdOffset)
                   .arg(cdSize)
                   .arg(size);
        return false;
    }
    // Each record is at least 46 bytes: the count can't exceed what the directory holds.
    if (count > cdSize / kCentralSize) {
        *why = QStringLiteral("central directory claims %1 entries in %2 bytes").arg(count).arg(cdSize);
        return false;
    }
    m_entries.reserve(qsizetype(count));
    const char* p = base + cdOffset;
    const char* const end = p + cdSize;
    for (quint64 i = 0; i < count; ++i) {
        if (end - p < kCentralSize || le<quint32>(p) != kCentralHeader) {
            *why = QStringLiteral("central directory entry %1 is corrupt").arg(i);
            return false;
        }
        const quint16 method = le<quint16>(p + 10);
        Entry e;
        e.crc32 = le<quint32>(p + 16);
        quint64 compressed = le<quint32>(p + 20);
        quint64 uncompressed = le<quint32>(p + 24);
        const quint16 nameLength = le<quint16>(p + 28);
        const quint16 extraLength = le<quint16>(p + 30);
        const quint16 commentLength = le<quint16>(p + 32);
        quint64 local = le<quint32>(p + 42);
        if (end - p < qint64(kCentralSize) + nameLength + extraLength + commentLength) {
            *why = QStringLiteral("central directory entry %1 runs past the directory").arg(i);
            return false;
        }
        e.nameUtf8 = QByteArrayView(p + kCentralSize, nameLength);
        // Zip64 extended information (0x0001): 64-bit values for the fields saturated above.
        const char* x = p + kCentralSize + nameLength;
        const char* const xEnd = x + extraLength;
        while (xEnd - x >= 4) {
            const quint16 id = le<quint16>(x);
            const quint16 length = le<quint16>(x + 2);
            const char* v = x + 4;
            const char* const vEnd = v + length;
            if (vEnd > xEnd)
                break;
            if (id == 0x0001) {
                auto next = [&](quint64* field) {
                    if (*field == 0xffffffffu && vEnd - v >= 8) {
                        *field = le<quint64>(v);
                        v += 8;
                    }
                };
                next(&uncompressed);
                next(&compressed);
                next(&local);
            }
            x = vEnd;
        }
        if (method != 0 && method != 8) {
            *why = QStringLiteral("entry %1 uses compression method %2 (only stored and deflate are read)")
                       .arg(e.name())
                       .arg(method);
            return false;
        }
        if (local > quint64(size) || compressed > quint64(size) - local
            || uncompressed > quint64(std::numeric_limits<qint64>::max())) {
            *why = QStringLiteral("entry %1 lies outside the file").arg(e.name());
            return false;
        }
        if (method == 0 && compressed != uncompressed) {
            *why = QStringLiteral("stored entry %1 has different compressed and uncompressed sizes").arg(e.name());
            return false;
        }
        e.stored = method == 0;
        e.size = qint64(uncompressed);
        e.compressedSize = qint64(compressed);
        e.localHeaderOffset = qint64(local);
        m_entries.append(std::move(e));
        p += kCentralSize + nameLength + extraLength + commentLength;
    }
    return true;
}

const ZipArchive::Entry* ZipArchive::findUtf8(QByteArrayView nameUtf8) const
{
    // The index is made on the first lookup: a reader that walks the directory itself (PyTorchArchive's
    // storages) never pays for one.
    std::call_once(m_indexed, [this] {
        m_byName.reserve(m_entries.size());
        for (qsizetype i = 0; i < m_entries.size(); ++i)
            m_byName.insert(m_entries.at(i).nameUtf8, i);
    });
    const auto it = m_byName.constFind(nameUtf8);
    return it == m_byName.cend() ? nullptr : &m_entries.at(*it);
}

std::optional<qint64> ZipArchive::dataOffset(const Entry& entry, QString* error) const
{
    const qint64 at = entry.localHeaderOffset;
    if (m_bytes.size() - at < kLocalSize || le<quint32>(m_bytes.data() + at) != kLocalHeader) {
        if (error)
            *error = QStringLiteral("zip entry %1: local header missing").arg(entry.name());
        return std::nullopt;
    }
    const qint64 data = at + kLocalSize + le<quint16>(m_bytes.data() + at + 26) + le<quint16>(m_bytes.data() + at + 28);
    if (data > m_bytes.size() || entry.compressedSize > m_bytes.size() - data) {
        if (error)
            *error = QStringLiteral("zip entry %1: data runs past the end of the archive").arg(entry.name());
        return std::nullopt;
    }
    return data;
}

std::optional<QByteArrayView> ZipArchive::storedView(const Entry& entry, QString* error) const
{
    if (!entry.stored) {
        if (error)
            *error = QStringLiteral("zip entry %1 is compressed").arg(entry.name());
        return std::nullopt;
    }
    const auto data = dataOffset(entry, error);
    if (!data)
        return std::nullopt;
    return m_bytes.sliced(*data, entry.size);
}

std::optional<QByteArrayView> ZipArchive::wholeEntry(
    const Entry& entry, qint64 maxBytes, QByteArray* holder, QString* error) const
{
    if (!entry.stored || entry.size > maxBytes) {
        auto bytes = read(entry, 0, entry.size, maxBytes, error);
        if (!bytes)
            return std::nullopt;
        *holder = std::move(*bytes);
        return QByteArrayView(*holder);
    }
    const auto view = storedView(entry, error);
    if (!view)
        return std::nullopt;
    if (quint32(crc32_z(0L, reinterpret_cast<const Bytef*>(view->data()), size_t(view->size()))) != entry.crc32) {
        if (error)
            *error = QStringLiteral("zip entry %1: CRC-32 mismatch").arg(entry.name());
        return std::nullopt;
    }
    return view;
}

std::optional<QByteArray> ZipArchive::read(
    const Entry& entry, qint64 offset, qint64 length, qint64 maxBytes, QString* error) const
{
    if (offset < 0 || length < 0 || offset > entry.size || length > entry.size - offset) {
        if (error)
            *error = QStringLiteral("zip entry %1: byte range [%2, %3) lies outside its %4 bytes")
                         .arg(entry.name())
                         .arg(offset)
                         .arg(offset + length)
                         .arg(entry.size);
        return std::nullopt;
    }
    if (length > maxBytes) {
        if (error)
            *error = QStringLiteral("zip entry %1: %2 bytes exceeds the limit of %3")
                         .arg(entry.name())
                         .arg(length)
                         .arg(maxBytes);
        return std::nullopt;
    }
    // Deflate expands at most 1032:1 (zlib's technical notes), so a larger claimed size is corrupt: refuse it
    // before allocating what it claims.
    if (!entry.stored && entry.size / kMaxDeflateRatio > entry.compressedSize) {
        if (error)
            *error = QStringLiteral("zip entry %1: %2 bytes cannot inflate from %3 compressed bytes")
                         .arg(entry.name())
                         .arg(entry.size)
                         .arg(entry.compressedSize);
        return std::nullopt;
    }
    const auto data = dataOffset(entry, error);
    if (!data)
        return std::nullopt;
    const bool whole = offset == 0 && length == entry.size;
    QByteArray out;
    if (entry.stored) {
        out = m_bytes.sliced(*data + offset, length).toByteArray();
    } else {
        // Inflate up to offset + length; the prefix before offset is dropped chunk by chunk.
        z_stream z;
        std::memset(&z, 0, sizeof z);
        if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
            if (error)
                *error = QStringLiteral("zip entry %1: zlib init failed").arg(entry.name());
            return std::nullopt;
        }
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(m_bytes.data() + *data));
        out.resize(length);
        QByteArray skip(qMin<qint64>(offset, 1 << 16), Qt::Uninitialized);
        qint64 skipped = 0, produced = 0;
        qint64 inputLeft = entry.compressedSize;
        int status = Z_OK;
        while (produced < length && status == Z_OK) {
            const uInt chunkIn = uInt(qMin<qint64>(inputLeft, 1 << 30));
            z.avail_in = chunkIn;
            if (skipped < offset) {
                z.next_out = reinterpret_cast<Bytef*>(skip.data());
                z.avail_out = uInt(qMin<qint64>(offset - skipped, skip.size()));
            } else {
                z.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
                z.avail_out = uInt(qMin<qint64>(length - produced, 1 << 30));
            }
            const uInt before = z.avail_out;
            status = inflate(&z, Z_NO_FLUSH);
            inputLeft -= chunkIn - z.avail_in;
            const qint64 made = before - z.avail_out;
            if (skipped < offset)
                skipped += made;
            else
                produced += made;
            if (status == Z_STREAM_END && produced < length && skipped >= offset)
                break;
            if (status == Z_BUF_ERROR && made == 0)
                break;
            if (status == Z_BUF_ERROR)
                status = Z_OK;
        }
        inflateEnd(&z);
        if (produced != length) {
            if (error)
                *error = QStringLiteral("zip entry %1: corrupt deflate data (%2 of %3 bytes)")
                             .arg(entry.name())
                             .arg(produced)
                             .arg(length);
            return std::nullopt;
        }
    }
    if (whole
        && quint32(crc32_z(0L, reinterpret_cast<const Bytef*>(out.constData()), size_t(out.size()))) != entry.crc32) {
        if (error)
            *error = QStringLiteral("zip entry %1: CRC-32 mismatch").arg(entry.name());
        return std::nullopt;
    }
    return out;
}

} // namespace Trainyard::Formats
