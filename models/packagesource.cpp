// SPDX-License-Identifier: GPL-2.0-or-later
#include "packagesource.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

namespace Trainyard {

namespace {

bool isProject(const QDir& dir)
{
    return dir.exists(QStringLiteral("setup.py")) || dir.exists(QStringLiteral("pyproject.toml"));
}

} // namespace

PackageSource PackageSource::inspect(const QString& given)
{
    PackageSource s;
    QString path = given.startsWith(QLatin1String("file:")) ? QUrl(given).toLocalFile() : given;
    if (path.trimmed().isEmpty())
        return s;
    path = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    s.path = path;
    const QFileInfo info(path);
    if (!info.exists())
        return s;
    if (!info.isDir()) {
        const QString file = info.fileName();
        s.kind = Kind::Unknown;
        for (const char* suffix : { ".tar.gz", ".tgz", ".zip", ".whl" }) {
            if (file.endsWith(QLatin1String(suffix)))
                s.kind = Kind::Archive;
        }
        return s;
    }
    const QDir dir(path);
    if (isProject(dir)) {
        s.kind = Kind::ProjectFolder;
        s.projectDir = path;
        return s;
    }
    if (dir.exists(QStringLiteral("__init__.py"))) {
        s.kind = Kind::PackageFolder;
        s.packageName = info.fileName();
        const QDir parent = info.dir();
        // The parent is the build's context only when it is a project; "/" or a home folder never is.
        if (path != QLatin1String("/") && isProject(parent))
            s.projectDir = parent.absolutePath();
        return s;
    }
    s.kind = Kind::Unknown;
    return s;
}

QByteArray PackageSource::generatedSetupPy(const QString& packageName)
{
    // As gcloud's command_lib/ml_engine/jobs_prep.py: setuptools, the package by its folder's name.
    return QByteArrayLiteral("from setuptools import find_packages, setup\n\n"
                             "if __name__ == \"__main__\":\n"
                             "    setup(name=\"")
        + packageName.toUtf8() + QByteArrayLiteral("\", version=\"0.0.0\", packages=find_packages(include=[\"")
        + packageName.toUtf8() + QByteArrayLiteral("\", \"") + packageName.toUtf8()
        + QByteArrayLiteral(".*\"]))\n");
}

} // namespace Trainyard
