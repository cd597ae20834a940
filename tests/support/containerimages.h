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

/// Why containers cannot run here (not root: rootful podman; no podman), or why the images are missing; empty when
/// both images are in the local store. The images are built by ctest's fixture fixtures/container_images
/// (tests/support/container-images-fixture.sh, packaging/container-images.sh) before the tests that need them run,
/// never inside a test function. `log`: what podman said of them.
inline QString ensureContainerImages(QString* log = nullptr)
{
    if (::geteuid() != 0)
        return QStringLiteral("custom containers run under rootful podman: run as root");
    if (QStandardPaths::findExecutable(QStringLiteral("podman")).isEmpty())
        return QStringLiteral("podman is not installed (packaging/setup-deps.sh installs it)");
    for (const QString& image : { containerBaseImage(), containerTrainerImage() }) {
        QProcess exists;
        exists.setProcessChannelMode(QProcess::MergedChannels);
        exists.start(QStringLiteral("podman"), { QStringLiteral("image"), QStringLiteral("exists"), image });
        if (!exists.waitForFinished(60000) || exists.exitStatus() != QProcess::NormalExit || exists.exitCode() != 0)
            return QStringLiteral("the image %1 is not in podman's store: ctest builds it first (the fixture "
                                  "fixtures/container_images, packaging/container-images.sh); run that script, or "
                                  "the test through ctest")
                .arg(image);
        if (log)
            *log += image + QStringLiteral(": present\n");
    }
    return QString();
}

} // namespace Trainyard::Test
