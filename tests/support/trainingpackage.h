// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A training package as the service takes one (a setuptools project: setup.py beside the package folder), written
// by tests that need a trainer of their own: `pip install` builds it in staging, and `python -m <package>.task` runs.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

namespace Trainyard::Test {

/// Writes `text` to `path`, making its folder. False when any step fails.
inline bool writeTextFile(const QString& path, const QByteArray& text)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

/// Writes the package `package` under `dir`: `dir/setup.py` (distribution `distribution`, version 0.1, that one
/// package), `dir/<package>/__init__.py` (empty) and `dir/<package>/task.py` (`task`). False when a file cannot be
/// written.
inline bool writeTrainingPackage(
    const QString& dir, const QString& package, const QByteArray& task, const QString& distribution = {})
{
    const QByteArray name = (distribution.isEmpty() ? package : distribution).toUtf8();
    return writeTextFile(dir + QStringLiteral("/setup.py"),
               "from setuptools import setup\nsetup(name='" + name + "', version='0.1', packages=['" + package.toUtf8()
                   + "'])\n")
        && writeTextFile(QStringLiteral("%1/%2/__init__.py").arg(dir, package), {})
        && writeTextFile(QStringLiteral("%1/%2/task.py").arg(dir, package), task);
}

} // namespace Trainyard::Test
