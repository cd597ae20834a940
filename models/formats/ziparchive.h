// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>

#include <memory>
#include <mutex>
#include <optional>

class QFile;

namespace Trainyard::Formats {

/// A read-only zip archive (PKWARE APPNOTE 6.3: end of central directory, Zip64 end record and
/// extra field, central directory, local headers), for PyTorch and Keras archives. Stored and
/// deflated (through zlib) entries are read; whole-entry reads are checked against the CRC-32.
///
/// Why not libzip: on open it converts every entry's DOS time with mktime(), which on glibc
/// stats /etc/localtime per call; for a 10,000-tensor torch.save archive that alone costs more
/// than the whole listing should. This reader maps the file and reads the central directory
/// in place. Every offset and size is checked against the archive's real size before use.
/// Names stay UTF-8 bytes inside the mapping, indexed as they are (no QString per entry: 10,000 of
/// them, made and freed at each listing, were a tenth of list_pt_10000's time).
class ZipArchive {
public:
    struct Entry {
        QByteArrayView nameUtf8; ///< the name's bytes in the archive, valid while the archive lives
        QString name() const { return QString::fromUtf8(nameUtf8); }
        qint64 size = 0; ///< uncompressed bytes as the central directory declares
        qint64 compressedSize = 0;
        bool stored = true; ///< method 0 (no compression); else deflate (8)
        quint32 crc32 = 0;
        qint64 localHeaderOffset = 0;
    };

    ~ZipArchive();
    ZipArchive(const ZipArchive&) = delete;
    ZipArchive& operator=(const ZipArchive&) = delete;

    /// Maps the file (read into memory where mapping fails).
    static std::unique_ptr<ZipArchive> open(const QString& path, QString* error);
    /// `bytes` must outlive the archive.
    static std::unique_ptr<ZipArchive> openMemory(QByteArrayView bytes, QString* error);

    const QList<Entry>& entries() const { return m_entries; }
    /// find() and findUtf8() may be called from several threads at once.
    const Entry* find(const QString& name) const { return findUtf8(name.toUtf8()); }
    /// The entry whose name has these UTF-8 bytes (zip names are compared byte by byte), or null.
    const Entry* findUtf8(QByteArrayView nameUtf8) const;

    /// `length` bytes at `offset` of the entry's uncompressed data; refused when the range lies
    /// outside the entry or `length` exceeds `maxBytes`.
    std::optional<QByteArray> read(
        const Entry& entry, qint64 offset, qint64 length, qint64 maxBytes, QString* error) const;

    /// A stored entry's bytes in place (no copy), valid while the archive lives; nullopt for
    /// compressed entries or a corrupt local header.
    std::optional<QByteArrayView> storedView(const Entry& entry, QString* error) const;

    /// The whole entry's uncompressed bytes, checked against its CRC-32 as read() checks them: in place for a
    /// stored entry (no copy, valid while the archive lives and `holder` is untouched), else inflated into
    /// `holder`. nullopt (with `error`) as for read().
    std::optional<QByteArrayView> wholeEntry(
        const Entry& entry, qint64 maxBytes, QByteArray* holder, QString* error) const;

private:
    ZipArchive() = default;
    bool load(QString* error);
    std::optional<qint64> dataOffset(const Entry& entry, QString* error) const;

    std::unique_ptr<QFile> m_file;
    QByteArray m_copy;
    QByteArrayView m_bytes;
    QList<Entry> m_entries;
    mutable std::once_flag m_indexed;
    mutable QHash<QByteArrayView, qsizetype> m_byName; ///< keys point into m_bytes; made by the first findUtf8()
};

} // namespace Trainyard::Formats
