// SPDX-License-Identifier: GPL-2.0-or-later
#include "packagemodules.h"
#include "packagesource.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace Trainyard::PackageModules {

bool isModuleName(const QString& name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$"));
    return re.match(name).hasMatch();
}

namespace {

/// The package's `.py` files, relative and `/`-separated.
QStringList pythonFiles(const QString& packagePath)
{
    QStringList files;
    const QFileInfo info(packagePath);
    if (info.isDir()) {
        const QDir root(packagePath);
        // Not the package's own code: build outputs and environments hold copies or other projects' modules.
        static const QRegularExpression skip(
            QStringLiteral("(^|/)(\\.[^/]*|build|dist|venv|\\.venv|__pycache__|[^/]*\\.egg-info)/"));
        QDirIterator it(packagePath, { QStringLiteral("*.py") }, QDir::Files, QDirIterator::Subdirectories);
        int budget = 20000; // a project folder can hold a data set or an environment; look, do not crawl
        while (it.hasNext() && budget-- > 0) {
            const QString rel = root.relativeFilePath(it.next());
            if (!skip.match(rel).hasMatch())
                files << rel;
        }
    } else if (packagePath.endsWith(QLatin1String(".tar.gz"))) {
        QProcess tar;
        tar.start(QStringLiteral("tar"), { QStringLiteral("-tzf"), packagePath });
        if (!tar.waitForFinished(15000) || tar.exitStatus() != QProcess::NormalExit || tar.exitCode() != 0) {
            tar.kill();
            tar.waitForFinished(1000);
            return {};
        }
        for (const QByteArray& line : tar.readAllStandardOutput().split('\n')) {
            // An sdist holds everything under "<name>-<version>/".
            const QString rel = QString::fromUtf8(line).section(QLatin1Char('/'), 1);
            if (rel.endsWith(QLatin1String(".py")))
                files << rel;
        }
    }
    return files;
}

} // namespace

QStringList discover(const QString& packagePath)
{
    // gcloud's package folder ("trainer/" with __init__.py): its parent project's modules, or, built alone, its own
    // under its name.
    const PackageSource source = PackageSource::inspect(packagePath);
    QStringList files;
    if (source.kind == PackageSource::Kind::PackageFolder && !source.projectDir.isEmpty()) {
        files = pythonFiles(source.projectDir);
    } else if (source.kind == PackageSource::Kind::PackageFolder) {
        for (const QString& rel : pythonFiles(source.path))
            files << source.packageName + QLatin1Char('/') + rel;
    } else {
        files = pythonFiles(packagePath);
    }
    const QSet<QString> all(files.cbegin(), files.cend());
    QStringList modules;
    for (const QString& rel : files) {
        const QString dir = rel.section(QLatin1Char('/'), 0, -2);
        if (dir.isEmpty() || rel.endsWith(QLatin1String("/__init__.py")))
            continue;
        // Every folder on the way must be a package for `python -m a.b.c` to work.
        bool isPackage = true;
        QString prefix;
        for (const QString& part : dir.split(QLatin1Char('/'))) {
            prefix += (prefix.isEmpty() ? QString() : QStringLiteral("/")) + part;
            if (!all.contains(prefix + QStringLiteral("/__init__.py"))) {
                isPackage = false;
                break;
            }
        }
        if (!isPackage)
            continue;
        QString module = rel.chopped(3);
        module.replace(QLatin1Char('/'), QLatin1Char('.'));
        if (isModuleName(module))
            modules << module;
    }
    std::sort(modules.begin(), modules.end(), [](const QString& a, const QString& b) {
        const bool ta = a.endsWith(QLatin1String(".task"));
        const bool tb = b.endsWith(QLatin1String(".task"));
        if (ta != tb)
            return ta;
        return a < b;
    });
    return modules;
}

} // namespace Trainyard::PackageModules
