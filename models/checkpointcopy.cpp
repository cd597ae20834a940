// SPDX-License-Identifier: GPL-2.0-or-later
#include "checkpointcopy.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <stdio.h>

namespace Trainyard {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("Trainyard::CheckpointCopy", text);
}

/// A relative, `/`-separated path that stays inside its root.
bool isPlainRelative(const QString& path)
{
    if (path.isEmpty() || QDir::isAbsolutePath(path) || path.startsWith(QLatin1Char('/')))
        return false;
    const QStringList parts = path.split(QLatin1Char('/'));
    for (const QString& part : parts) {
        if (part.isEmpty() || part == QLatin1String("..") || part == QLatin1String("."))
            return false;
    }
    return true;
}

/// A text-format proto string literal.
QString quoted(const QString& s)
{
    QString out = s;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    out.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

/// Why `QDir().mkpath(path)` failed: a file in the way, else the system's reason (`error`, errno).
QString whyNoFolder(const QString& path, int error)
{
    QString existing = path;
    while (!QFileInfo::exists(existing) && existing != QDir::rootPath() && !existing.isEmpty())
        existing = QFileInfo(existing).absolutePath();
    if (QFileInfo::exists(existing) && !QFileInfo(existing).isDir())
        return tr("%1 is a file, not a folder").arg(existing);
    return QString::fromLocal8Bit(std::strerror(error));
}

/// Copies one file in 1 MiB blocks; the error names the file that failed and the system's reason.
QString copyFile(const QString& from, const QString& to)
{
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly))
        return tr("Cannot read %1: %2").arg(from, in.errorString());
    const QDateTime mtime = QFileInfo(from).lastModified();
    QFile out(to);
    if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return tr("Cannot create %1: %2").arg(to, out.errorString());
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    for (;;) {
        const qint64 n = in.read(buffer.data(), buffer.size());
        if (n < 0)
            return tr("Cannot read %1: %2").arg(from, in.errorString());
        if (n == 0)
            break;
        if (out.write(buffer.constData(), n) != n)
            return tr("Cannot write %1: %2").arg(to, out.errorString());
    }
    if (!out.flush())
        return tr("Cannot write %1: %2").arg(to, out.errorString());
    // Keeps the listing's order (newest first) and the trainers' "newest checkpoint" meaning.
    out.setFileTime(mtime, QFileDevice::FileModificationTime);
    out.close();
    if (out.error() != QFileDevice::NoError)
        return tr("Cannot write %1: %2").arg(to, out.errorString());
    return {};
}
} // namespace

QString suggestJobIdFrom(const QString& oldJobId, const QDateTime& now)
{
    static const QRegularExpression stamp(QStringLiteral("_\\d{8}_\\d{6}$"));
    QString base = oldJobId.trimmed();
    base.remove(stamp);
    if (base.isEmpty())
        base = QStringLiteral("job");
    const QString suffix = now.toString(QStringLiteral("_yyyyMMdd_HHmmss"));
    return base.left(128 - suffix.size()) + suffix;
}

QString suggestCheckpointJobDir(const QString& oldJobDir, const QString& newJobId)
{
    if (oldJobDir.isEmpty() || newJobId.isEmpty())
        return {};
    const QString parent = QFileInfo(QDir::cleanPath(oldJobDir)).absolutePath();
    QString candidate = parent + QLatin1Char('/') + newJobId;
    for (int n = 2; QFileInfo::exists(candidate); ++n)
        candidate = parent + QLatin1Char('/') + newJobId + QLatin1Char('_') + QString::number(n);
    return candidate;
}

CheckpointCopyResult copyCheckpoint(
    const QString& sourceJobDir, const CheckpointSummary& checkpoint, const QString& targetJobDir)
{
    CheckpointCopyResult result;
    const QString source = QDir::cleanPath(sourceJobDir);
    const QString target = QDir::cleanPath(QFileInfo(targetJobDir).absoluteFilePath());
    if (sourceJobDir.isEmpty() || targetJobDir.isEmpty()) {
        result.error = tr("No job dir to copy from or to.");
        return result;
    }
    if (checkpoint.files.isEmpty()) {
        result.error = tr("The checkpoint %1 lists no files.").arg(checkpoint.name);
        return result;
    }
    for (const QString& file : checkpoint.files) {
        if (!isPlainRelative(file)) {
            result.error = tr("Refusing to copy %1: not a path inside the job dir.").arg(file);
            return result;
        }
    }
    if (QFileInfo::exists(target)) {
        result.error = tr("Cannot copy the checkpoint to %1: it already exists.").arg(target);
        return result;
    }
    const QFileInfo targetInfo(target);
    const QString parent = targetInfo.absolutePath();
    if (!QDir().mkpath(parent)) {
        const int error = errno;
        result.error = tr("Cannot create the folder %1: %2").arg(parent, whyNoFolder(parent, error));
        return result;
    }

    // Beside the target, so the final rename stays on one file system; hidden, so that a listing of the
    // parent (or the executor's checkpoint scan of an enclosing job dir) skips it while it is written.
    QTemporaryDir staging(parent + QStringLiteral("/.") + targetInfo.fileName() + QStringLiteral(".partial-XXXXXX"));
    if (!staging.isValid()) {
        result.error = tr("Cannot create a folder in %1: %2").arg(parent, staging.errorString());
        return result;
    }
    const QDir stage(staging.path());
    for (const QString& file : checkpoint.files) {
        const QString to = stage.filePath(file);
        if (!QDir().mkpath(QFileInfo(to).absolutePath())) {
            const int error = errno;
            result.error = tr("Cannot create the folder %1: %2")
                               .arg(QFileInfo(target + QLatin1Char('/') + file).path(),
                                   whyNoFolder(QFileInfo(to).absolutePath(), error));
            return result;
        }
        const QString error = copyFile(source + QLatin1Char('/') + file, to);
        if (!error.isEmpty()) {
            // Name the file where the user will look for it, not in the temporary folder.
            result.error = QString(error).replace(staging.path(), target);
            return result;
        }
        result.files << file;
    }

    if (checkpoint.format == QLatin1String("tf-bundle")) {
        // tf.train.latest_checkpoint(dir) reads `<dir>/checkpoint`; paths in it are relative to that dir.
        const QString prefixDir = QFileInfo(checkpoint.name).path();
        const QString stateRel = prefixDir == QLatin1String(".") ? QStringLiteral("checkpoint")
                                                                 : prefixDir + QStringLiteral("/checkpoint");
        const QString prefix = QFileInfo(checkpoint.name).fileName();
        QFile state(stage.filePath(stateRel));
        const QByteArray text = (QStringLiteral("model_checkpoint_path: ") + quoted(prefix)
            + QStringLiteral("\nall_model_checkpoint_paths: ") + quoted(prefix) + QLatin1Char('\n'))
                                    .toUtf8();
        if (!state.open(QIODevice::WriteOnly | QIODevice::NewOnly) || state.write(text) != text.size()
            || !state.flush()) {
            result.error = tr("Cannot write %1: %2").arg(target + QLatin1Char('/') + stateRel, state.errorString());
            return result;
        }
        state.close();
        result.files << stateRel;
    }

    // QTemporaryDir makes its folder private (0700); a job dir is an ordinary folder.
    QFile::setPermissions(staging.path(),
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup
            | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther);
    if (QFileInfo::exists(target)) {
        result.error = tr("Cannot copy the checkpoint to %1: it already exists.").arg(target);
        return result;
    }
    const QByteArray from = QFile::encodeName(staging.path());
    const QByteArray to = QFile::encodeName(target);
#ifdef RENAME_NOREPLACE
    // Never replaces a folder that appeared meanwhile (plain rename() would replace an empty one).
    const int renamed = ::renameat2(AT_FDCWD, from.constData(), AT_FDCWD, to.constData(), RENAME_NOREPLACE);
#else
    const int renamed = std::rename(from.constData(), to.constData());
#endif
    if (renamed != 0) {
        const int error = errno;
        result.error = tr("Cannot rename %1 to %2: %3")
                           .arg(staging.path(), target, QString::fromLocal8Bit(std::strerror(error)));
        return result;
    }
    staging.setAutoRemove(false);
    result.jobDir = target;
    return result;
}

} // namespace Trainyard
