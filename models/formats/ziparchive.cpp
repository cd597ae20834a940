// SPDX-License-Identifier: GPL-2.0-or-later
#include "ziparchive.h"

#include <QFile>
#include <QScopeGuard>

#include <zip.h>

namespace Trainyard::Formats {

namespace {

QString zipErrorString(int code)
{
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    const QString message = QString::fromUtf8(zip_error_strerror(&error));
    zip_error_fini(&error);
    return message;
}

} // namespace

ZipArchive::~ZipArchive()
{
    if (m_zip)
        zip_discard(m_zip);
}

std::unique_ptr<ZipArchive> ZipArchive::open(const QString& path, QString* error)
{
    int code = 0;
    zip_t* z = zip_open(QFile::encodeName(path).constData(), ZIP_RDONLY, &code);
    if (!z) {
        if (error)
            *error = QStringLiteral("%1: not a readable zip archive: %2").arg(path, zipErrorString(code));
        return nullptr;
    }
    std::unique_ptr<ZipArchive> archive(new ZipArchive);
    archive->m_zip = z;
    if (!archive->load(error))
        return nullptr;
    return archive;
}

std::unique_ptr<ZipArchive> ZipArchive::openMemory(QByteArrayView bytes, QString* error)
{
    zip_error_t zerror;
    zip_error_init(&zerror);
    zip_source_t* source = zip_source_buffer_create(bytes.data(), zip_uint64_t(bytes.size()), 0, &zerror);
    if (!source) {
        if (error)
            *error = QStringLiteral("zip: %1").arg(QString::fromUtf8(zip_error_strerror(&zerror)));
        zip_error_fini(&zerror);
        return nullptr;
    }
    zip_t* z = zip_open_from_source(source, ZIP_RDONLY, &zerror);
    if (!z) {
        if (error)
            *error
                = QStringLiteral("not a readable zip archive: %1").arg(QString::fromUtf8(zip_error_strerror(&zerror)));
        zip_source_free(source);
        zip_error_fini(&zerror);
        return nullptr;
    }
    zip_error_fini(&zerror);
    std::unique_ptr<ZipArchive> archive(new ZipArchive);
    archive->m_zip = z;
    if (!archive->load(error))
        return nullptr;
    return archive;
}

bool ZipArchive::load(QString* error)
{
    const zip_int64_t count = zip_get_num_entries(m_zip, 0);
    if (count < 0) {
        if (error)
            *error = QStringLiteral("zip: cannot read the central directory");
        return false;
    }
    m_entries.reserve(qsizetype(count));
    m_byName.reserve(qsizetype(count));
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(m_zip, zip_uint64_t(i), 0, &st) != 0)
            continue;
        constexpr zip_uint64_t needed = ZIP_STAT_NAME | ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD;
        if ((st.valid & needed) != needed || st.size > zip_uint64_t(std::numeric_limits<qint64>::max()))
            continue;
        Entry e;
        e.name = QString::fromUtf8(st.name);
        e.size = qint64(st.size);
        e.compressedSize = qint64(st.comp_size);
        e.stored = st.comp_method == ZIP_CM_STORE;
        e.index = zip_uint64_t(i);
        m_byName.insert(e.name, m_entries.size());
        m_entries.append(std::move(e));
    }
    return true;
}

const ZipArchive::Entry* ZipArchive::find(const QString& name) const
{
    const auto it = m_byName.constFind(name);
    return it == m_byName.cend() ? nullptr : &m_entries.at(*it);
}

std::optional<QByteArray> ZipArchive::read(
    const Entry& entry, qint64 offset, qint64 length, qint64 maxBytes, QString* error) const
{
    if (offset < 0 || length < 0 || offset > entry.size || length > entry.size - offset) {
        if (error)
            *error = QStringLiteral("zip entry %1: byte range [%2, %3) lies outside its %4 bytes")
                         .arg(entry.name)
                         .arg(offset)
                         .arg(offset + length)
                         .arg(entry.size);
        return std::nullopt;
    }
    if (length > maxBytes) {
        if (error)
            *error = QStringLiteral("zip entry %1: %2 bytes exceeds the limit of %3")
                         .arg(entry.name)
                         .arg(length)
                         .arg(maxBytes);
        return std::nullopt;
    }
    zip_file_t* file = zip_fopen_index(m_zip, entry.index, 0);
    if (!file) {
        if (error)
            *error = QStringLiteral("zip entry %1: %2").arg(entry.name, QString::fromUtf8(zip_strerror(m_zip)));
        return std::nullopt;
    }
    auto close = qScopeGuard([file] { zip_fclose(file); });
    QByteArray bytes(length, Qt::Uninitialized);
    // Stored entries seek; compressed ones are read and dropped up to the offset.
    if (offset > 0 && zip_fseek(file, offset, SEEK_SET) != 0) {
        qint64 skip = offset;
        QByteArray scratch(qMin<qint64>(skip, 1 << 16), Qt::Uninitialized);
        while (skip > 0) {
            const zip_int64_t n = zip_fread(file, scratch.data(), zip_uint64_t(qMin<qint64>(skip, scratch.size())));
            if (n <= 0)
                break;
            skip -= n;
        }
        if (skip > 0) {
            if (error)
                *error = QStringLiteral("zip entry %1: cannot reach offset %2").arg(entry.name).arg(offset);
            return std::nullopt;
        }
    }
    qint64 done = 0;
    while (done < length) {
        const zip_int64_t n = zip_fread(file, bytes.data() + done, zip_uint64_t(length - done));
        if (n <= 0) {
            if (error)
                *error = QStringLiteral("zip entry %1: %2")
                             .arg(entry.name,
                                 n < 0 ? QString::fromUtf8(zip_file_strerror(file))
                                       : QStringLiteral("data ends after %1 of %2 bytes").arg(done).arg(length));
            return std::nullopt;
        }
        done += n;
    }
    return bytes;
}

} // namespace Trainyard::Formats
