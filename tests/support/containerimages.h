// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The container images of the custom-container tests (packaging/container-images.sh: built from Debian's apt
// mirror with debootstrap, cached in the podman store), and whether this host can run them.

#include <QProcess>
#include <QStandardPaths>
#include <QString>

#include <unistd.h>

namespace Trainyard::Test {

/// Debian 12 minbase + python3, numpy, PyTorch and the Fashion-MNIST dataset.
inline QString containerBaseImage()
{
    return QStringLiteral("localhost/trainyard-py:bookworm");
}

/// The base image + the sample trainer, ENTRYPOINT python3 -m trainer.task.
inline QString containerTrainerImage()
{
    return QStringLiteral("localhost/trainyard-fmnist:latest");
}

/// Why containers cannot run here (not root: rootful podman; no podman), or why the images could not be built;
/// empty when both images are in the local store (built now if missing, which takes minutes the first time).
/// `log`: the script's output.
inline QString ensureContainerImages(QString* log = nullptr)
{
    if (::geteuid() != 0)
        return QStringLiteral("custom containers run under rootful podman: run as root");
    if (QStandardPaths::findExecutable(QStringLiteral("podman")).isEmpty())
        return QStringLiteral("podman is not installed (packaging/setup-deps.sh installs it)");
    QProcess images;
    images.setProcessChannelMode(QProcess::MergedChannels);
    images.start(QStringLiteral(TRAINYARD_SOURCE_DIR "/packaging/container-images.sh"), {});
    if (!images.waitForFinished(900000))
        return QStringLiteral("packaging/container-images.sh did not finish in 15 minutes");
    const QString out = QString::fromUtf8(images.readAll());
    if (log)
        *log = out;
    if (images.exitStatus() != QProcess::NormalExit || images.exitCode() != 0)
        return QStringLiteral("packaging/container-images.sh failed: ") + out.right(2000);
    return QString();
}

} // namespace Trainyard::Test
