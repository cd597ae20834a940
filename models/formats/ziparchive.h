// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

struct zip;
struct zip_source;

namespace Trainyard::Formats {

/// A read-only zip archive through libzip (PyTorch and Keras archives). The central directory
/// is read once; entry reads are bounded by the sizes it declares and by the caller's limit,
/// so a corrupt or hostile archive can't make us allocate more than asked for.
class ZipArchive {
public:
    struct Entry {
        QString name;
        qint64 size = 0; ///< uncompressed bytes as the central directory declares
        qint64 compressedSize = 0;
        bool stored = true; ///< no compression
        quint64 index = 0;
    };

    ~ZipArchive();
    ZipArchive(const ZipArchive&) = delete;
    ZipArchive& operator=(const ZipArchive&) = delete;

    static std::unique_ptr<ZipArchive> open(const QString& path, QString* error);
    /// `bytes` must outlive the archive.
    static std::unique_ptr<ZipArchive> openMemory(QByteArrayView bytes, QString* error);

    const QList<Entry>& entries() const { return m_entries; }
    const Entry* find(const QString& name) const;

    /// `length` bytes at `offset` of the entry's uncompressed data; refused when the range lies
    /// outside the entry or `length` exceeds `maxBytes`.
    std::optional<QByteArray> read(
        const Entry& entry, qint64 offset, qint64 length, qint64 maxBytes, QString* error) const;

private:
    ZipArchive() = default;
    bool load(QString* error);

    struct zip* m_zip = nullptr;
    QList<Entry> m_entries;
    QHash<QString, qsizetype> m_byName;
};

} // namespace Trainyard::Formats
