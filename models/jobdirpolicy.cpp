// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobdirpolicy.h"
#include "pathname.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace Trainyard {

namespace {

/// The canonical form of `path`, an absolute clean path that may not exist: the longest existing ancestor
/// resolved (symbolic links followed), the rest appended as written.
QString resolveExisting(const QString& path)
{
    QString existing = path;
    QStringList rest;
    while (!existing.isEmpty() && existing != QLatin1String("/") && !QFileInfo::exists(existing)) {
        const qsizetype slash = existing.lastIndexOf(QLatin1Char('/'));
        rest.prepend(existing.mid(slash + 1));
        existing = slash <= 0 ? QStringLiteral("/") : existing.left(slash);
    }
    QString canonical = QFileInfo(existing).canonicalFilePath();
    if (canonical.isEmpty())
        canonical = existing;
    for (const QString& part : std::as_const(rest))
        canonical += (canonical.endsWith(QLatin1Char('/')) ? QString() : QStringLiteral("/")) + part;
    return canonical;
}

bool strictlyInside(const QString& root, const QString& path)
{
    const QString prefix = root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/');
    return path.size() > prefix.size() && path.startsWith(prefix);
}

} // namespace

QStringList JobDirPolicy::defaultRoots()
{
    return { QDir::homePath(), QDir::tempPath() };
}

JobDirPolicy::JobDirPolicy(const QStringList& roots)
    : m_roots(roots)
{
    for (const QString& root : roots) {
        const QString canonical = QFileInfo(root).canonicalFilePath();
        if (!canonical.isEmpty())
            m_canonicalRoots.append(canonical);
    }
}

QString JobDirPolicy::problem(const QString& jobDir) const
{
    if (jobDir.isEmpty())
        return {};
    if (jobDir.contains(QLatin1String("://")))
        //: %1 is the job dir as given (a gs:// or other URL).
        return QCoreApplication::translate("Trainyard::JobValidation",
            "\"%1\" is not a local folder: on this workstation the job dir is a folder of this host, given as an "
            "absolute path.")
            .arg(jobDir);
    // The kernel's limits (Linux NAME_MAX and PATH_MAX, in bytes): a NUL would end the path the trainer gets early,
    // and a longer component or path is one no folder can have, which failed only when the job ran.
    if (jobDir.contains(QChar(0)))
        return QCoreApplication::translate(
            "Trainyard::JobValidation", "The job dir contains a NUL character, which no file path can hold.");
    for (const QString& part : jobDir.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (const qsizetype bytes = part.toUtf8().size(); bytes > PathName::NameMax)
            //: %1 is the start of the long folder name, %2 and %3 byte counts.
            return QCoreApplication::translate("Trainyard::JobValidation",
                "The job dir's folder name \"%1…\" is %2 bytes long; a folder name on this system has at most %3.")
                .arg(part.left(40))
                .arg(bytes)
                .arg(PathName::NameMax);
    }
    if (const qsizetype bytes = jobDir.toUtf8().size(); bytes >= PathName::PathMax)
        //: %1 and %2 are byte counts.
        return QCoreApplication::translate(
            "Trainyard::JobValidation", "The job dir is %1 bytes long; a path on this system has fewer than %2.")
            .arg(bytes)
            .arg(PathName::PathMax);
    if (!jobDir.startsWith(QLatin1Char('/')))
        //: %1 is the job dir as given; "~" and relative paths are not expanded.
        return QCoreApplication::translate("Trainyard::JobValidation",
            "\"%1\" is not an absolute path: the job dir is given to the trainer as it is, so \"~\" and relative "
            "paths are not expanded. Give a full path such as /home/you/jobs/run1.")
            .arg(jobDir);
    // "/" itself is clean; it fails the roots rule below.
    const QStringList parts = jobDir == QLatin1String("/") ? QStringList() : jobDir.mid(1).split(QLatin1Char('/'));
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString& part = parts.at(i);
        const bool trailingSlash = i == parts.size() - 1 && part.isEmpty() && parts.size() > 1;
        if ((part.isEmpty() && !trailingSlash) || part == QLatin1String(".") || part == QLatin1String(".."))
            //: %1 is the job dir as given.
            return QCoreApplication::translate("Trainyard::JobValidation",
                "\"%1\" is not a clean path: it must have no \".\", \"..\" or empty components.")
                .arg(jobDir);
    }
    const QString resolved = resolveExisting(QDir::cleanPath(jobDir));
    for (const QString& root : m_canonicalRoots) {
        if (strictlyInside(root, resolved))
            return {};
    }
    //: %1 is the job dir as given, %2 the folders (comma-separated) job dirs may lie in.
    return QCoreApplication::translate("Trainyard::JobValidation",
        "\"%1\" lies outside the folders where this executor keeps job dirs (%2): a job dir must be a folder "
        "inside one of them (the executor's --job-dir-root option sets them).")
        .arg(jobDir, m_roots.join(QStringLiteral(", ")));
}

FieldViolations JobDirPolicy::violations(const QString& jobDir) const
{
    const QString why = problem(jobDir);
    if (why.isEmpty())
        return {};
    return { FieldViolation { QStringLiteral("trainingInput.jobDir"), why } };
}

bool JobDirPolicy::allows(const QString& jobDir, QString* why) const
{
    const QString p = problem(jobDir);
    if (why)
        *why = p;
    return p.isEmpty();
}

} // namespace Trainyard
