// SPDX-License-Identifier: GPL-2.0-or-later
#include "deploymentcopy.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Trainyard {

namespace {

bool inside(const QString& folder, const QString& path)
{
    return path.startsWith(folder + QLatin1Char('/'));
}

/// One file's bytes from `from` to a new `to`, in 1 MiB blocks; "" or why not. `budget` is what the quota has left,
/// lowered by what was copied.
QString copyFile(const QString& from, const QString& to, qint64* budget, const std::atomic_bool* cancelled)
{
    const int in = ::open(QFile::encodeName(from).constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (in < 0)
        return QStringLiteral("cannot read %1: %2").arg(from, QString::fromLocal8Bit(std::strerror(errno)));
    const int out = ::open(QFile::encodeName(to).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (out < 0) {
        const int e = errno;
        ::close(in);
        return QStringLiteral("cannot write %1: %2").arg(to, QString::fromLocal8Bit(std::strerror(e)));
    }
    QString error;
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (;;) {
        if (cancelled && cancelled->load()) {
            error = QStringLiteral("the version was deleted while its model was copied");
            break;
        }
        const ssize_t n = ::read(in, block.data(), size_t(block.size()));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            error = QStringLiteral("cannot read %1: %2").arg(from, QString::fromLocal8Bit(std::strerror(errno)));
            break;
        }
        if (n == 0)
            break;
        *budget -= n;
        if (*budget < 0) {
            error = QStringLiteral("over the quota");
            break;
        }
        qint64 written = 0;
        while (written < n) {
            const ssize_t w = ::write(out, block.constData() + written, size_t(n - written));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                error = errno == ENOSPC || errno == EDQUOT
                    ? QStringLiteral("the executor's data disk is full (%1 could not be copied)").arg(from)
                    : QStringLiteral("cannot write %1: %2").arg(to, QString::fromLocal8Bit(std::strerror(errno)));
                break;
            }
            written += w;
        }
        if (!error.isEmpty())
            break;
    }
    ::close(in);
    if (::close(out) != 0 && error.isEmpty())
        error = errno == ENOSPC ? QStringLiteral("the executor's data disk is full (%1 could not be copied)").arg(from)
                                : QStringLiteral("cannot write %1: %2").arg(to, QString::fromLocal8Bit(std::strerror(errno)));
    return error;
}

} // namespace

DeploymentQuota DeploymentQuota::forMachineType(const QString& machineType)
{
    DeploymentQuota quota;
    if (machineType.startsWith(QLatin1String("n1-")))
        quota.maxBytes = qint64(10) * 1000 * 1000 * 1000;
    return quota;
}

QString copyDeployment(
    const QString& source, const QString& target, const DeploymentQuota& quota, const std::atomic_bool* cancelled)
{
    const QFileInfo info(source);
    if (!info.exists())
        return QStringLiteral("deploymentUri %1 does not exist").arg(source);
    if (!info.isDir())
        return QStringLiteral("deploymentUri %1 is not a folder: give the folder that holds the model's files")
            .arg(source);
    const QString root = info.canonicalFilePath();
    // Every entry first, checked before one byte is copied: (relative path, the file whose bytes it gets).
    QList<std::pair<QString, QString>> files;
    QStringList folders;
    qint64 bytes = 0;
    QStringList pending { root };
    while (!pending.isEmpty()) {
        const QString folder = pending.takeLast();
        const QStringList names = QDir(folder).entryList(
            QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString& name : names) {
            const QString path = folder + QLatin1Char('/') + name;
            const QString relative = path.mid(root.size() + 1);
            struct stat st { };
            if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
                return QStringLiteral("cannot read %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
            QString real = path;
            if (S_ISLNK(st.st_mode)) {
                // A link is its target's file, when the target is one of the folder's own.
                real = QFileInfo(path).canonicalFilePath();
                if (real.isEmpty() || !inside(root, real))
                    return QStringLiteral("the model folder's %1 is a link to %2, outside the folder: a version holds "
                                          "only the folder's own files")
                        .arg(relative, QFileInfo(path).symLinkTarget());
                if (::stat(QFile::encodeName(real).constData(), &st) != 0)
                    return QStringLiteral("cannot read %1: %2").arg(real, QString::fromLocal8Bit(std::strerror(errno)));
                if (S_ISDIR(st.st_mode))
                    continue; // its files are copied where they really are
            }
            if (S_ISDIR(st.st_mode)) {
                folders << relative;
                pending << path;
                continue;
            }
            if (!S_ISREG(st.st_mode))
                return QStringLiteral("the model folder's %1 is not a file (a device, a FIFO or a socket)").arg(relative);
            if (st.st_nlink > 1)
                return QStringLiteral("the model folder's %1 has %2 names (hard links): a file with more than one name "
                                      "may be another folder's file, so a version takes only files with one")
                    .arg(relative)
                    .arg(qint64(st.st_nlink));
            files.append({ relative, real });
            bytes += qint64(st.st_size);
            if (files.size() > quota.maxFiles)
                return QStringLiteral("deploymentUri %1 holds more than %2 files, the most a version may have")
                    .arg(source)
                    .arg(quota.maxFiles);
            if (bytes > quota.maxBytes)
                return QStringLiteral("deploymentUri %1 holds more than %2 bytes (%3 MB), the most a version of this "
                                      "machine type may have")
                    .arg(source)
                    .arg(quota.maxBytes)
                    .arg(double(quota.maxBytes) / 1e6, 0, 'g', 4);
        }
    }
    const QString partial = target + QStringLiteral(".partial");
    QDir(partial).removeRecursively();
    QString error;
    if (!QDir().mkpath(partial))
        error = QStringLiteral("cannot make %1 (is the disk full?)").arg(partial);
    for (const QString& folder : std::as_const(folders)) {
        if (error.isEmpty() && !QDir().mkpath(partial + QLatin1Char('/') + folder))
            error = QStringLiteral("cannot make the folder %1 of the copy (is the disk full?)").arg(folder);
    }
    qint64 budget = quota.maxBytes;
    for (const auto& [relative, from] : std::as_const(files)) {
        if (!error.isEmpty())
            break;
        error = copyFile(from, partial + QLatin1Char('/') + relative, &budget, cancelled);
        if (error == QLatin1String("over the quota"))
            error = QStringLiteral("deploymentUri %1 grew past %2 bytes while it was copied").arg(source).arg(quota.maxBytes);
    }
    if (error.isEmpty()) {
        QDir(target).removeRecursively();
        if (!QDir().rename(partial, target))
            error = QStringLiteral("cannot move the copy of %1 into place at %2").arg(source, target);
    }
    if (!error.isEmpty())
        QDir(partial).removeRecursively(); // a failed deploy leaves nothing behind
    return error;
}

} // namespace Trainyard
