// SPDX-License-Identifier: GPL-2.0-or-later
#include "pathpolicy.h"
#include "packagesource.h"
#include "pathname.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QUrl>

namespace Trainyard {

namespace {

bool strictlyInside(const QString& root, const QString& path)
{
    const QString prefix = root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/');
    return path.size() > prefix.size() && path.startsWith(prefix);
}

bool sameOrInside(const QString& folder, const QString& path)
{
    return path == folder || strictlyInside(folder, path);
}

/// /proc, /sys, /dev: the kernel's objects, never a job's files.
bool kernelPath(const QString& path)
{
    for (const char* k : { "/proc", "/sys", "/dev" }) {
        if (sameOrInside(QLatin1String(k), path))
            return true;
    }
    return false;
}

/// What a field names, to begin a sentence ("The job dir") and inside one ("the job dir").
QString noun(PathUse use, bool start)
{
    switch (use) {
    case PathUse::JobDir:
        return start ? QCoreApplication::translate("Trainyard::JobValidation", "The job dir")
                     : QCoreApplication::translate("Trainyard::JobValidation", "the job dir");
    case PathUse::ModelFolder:
        return start ? QCoreApplication::translate("Trainyard::JobValidation", "The model folder")
                     : QCoreApplication::translate("Trainyard::JobValidation", "the model folder");
    case PathUse::OutputFolder:
        return start ? QCoreApplication::translate("Trainyard::JobValidation", "The output folder")
                     : QCoreApplication::translate("Trainyard::JobValidation", "the output folder");
    case PathUse::InputFile:
        return start ? QCoreApplication::translate("Trainyard::JobValidation", "The input file")
                     : QCoreApplication::translate("Trainyard::JobValidation", "the input file");
    case PathUse::Package:
        return start ? QCoreApplication::translate("Trainyard::JobValidation", "The package")
                     : QCoreApplication::translate("Trainyard::JobValidation", "the package");
    }
    return {};
}

} // namespace

QString PathPolicy::resolveExisting(const QString& path)
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

QStringList PathPolicy::defaultRoots()
{
    return { QDir::homePath(), QDir::tempPath() };
}

PathPolicy::PathPolicy(const QStringList& roots)
    : m_roots(roots)
{
    for (const QString& root : roots) {
        const QString canonical = QFileInfo(root).canonicalFilePath();
        if (!canonical.isEmpty())
            m_canonicalRoots.append(canonical);
    }
}

void PathPolicy::setExecutorFolders(const QStringList& paths)
{
    m_executorFolders.clear();
    m_canonicalExecutorFolders.clear();
    for (const QString& path : paths) {
        if (path.isEmpty())
            continue;
        m_executorFolders.append(path);
        // Both the path as given and where it leads: a folder reached through a link is refused by either name.
        const QString clean = QDir::cleanPath(QDir(path).absolutePath());
        m_canonicalExecutorFolders.append(clean);
        const QString resolved = resolveExisting(clean);
        if (resolved != clean)
            m_canonicalExecutorFolders.append(resolved);
    }
}

QString PathPolicy::urlProblem(const QString& path, PathUse use)
{
    if (path.startsWith(QLatin1String("gs://")))
        //: %1 is the path as given, %2 what the field names ("the job dir").
        return QCoreApplication::translate("Trainyard::JobValidation",
            "\"%1\" is in Cloud Storage, which this executor cannot reach: copy it to this host and give %2 as an "
            "absolute path here.")
            .arg(path, noun(use, false));
    if (path.contains(QLatin1String("://")))
        //: %1 is the path as given (a URL), %2 what the field names ("the job dir").
        return QCoreApplication::translate("Trainyard::JobValidation",
            "\"%1\" is not a local folder or file: on this workstation %2 is on this host, given as an absolute "
            "path.")
            .arg(path, noun(use, false));
    return {};
}

QString PathPolicy::problem(const QString& path, PathUse use) const
{
    if (path.isEmpty())
        return {};
    if (const QString url = urlProblem(path, use); !url.isEmpty())
        return url;
    // The kernel's limits (Linux NAME_MAX and PATH_MAX, in bytes): a NUL would end the path the program gets early,
    // and a longer component or path is one no folder can have, which failed only when the job ran.
    if (path.contains(QChar(0)))
        //: %1 is what the field names ("The job dir").
        return QCoreApplication::translate(
            "Trainyard::JobValidation", "%1 contains a NUL character, which no file path can hold.")
            .arg(noun(use, true));
    for (const QString& part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (const qsizetype bytes = part.toUtf8().size(); bytes > PathName::NameMax)
            //: %1 is the start of the long folder name, %2 and %3 byte counts, %4 what the field names ("the job dir").
            return QCoreApplication::translate("Trainyard::JobValidation",
                "A folder name in %4, \"%1…\", is %2 bytes long; a folder name on this system has at most %3.")
                .arg(part.left(40))
                .arg(bytes)
                .arg(PathName::NameMax)
                .arg(noun(use, false));
    }
    if (const qsizetype bytes = path.toUtf8().size(); bytes >= PathName::PathMax)
        //: %1 is what the field names ("The job dir"), %2 and %3 are byte counts.
        return QCoreApplication::translate(
            "Trainyard::JobValidation", "%1 is %2 bytes long; a path on this system has fewer than %3.")
            .arg(noun(use, true))
            .arg(bytes)
            .arg(PathName::PathMax);
    if (!path.startsWith(QLatin1Char('/')))
        //: %1 is the path as given, %2 what the field names ("the job dir"); "~" and relative paths are not expanded.
        return QCoreApplication::translate("Trainyard::JobValidation",
            "\"%1\" is not an absolute path: %2 is used as it is given, so \"~\" and relative paths are not "
            "expanded. Give a full path such as /home/you/jobs/run1.")
            .arg(path, noun(use, false));
    // "/" itself is clean; it fails the roots rule below.
    const QStringList parts = path == QLatin1String("/") ? QStringList() : path.mid(1).split(QLatin1Char('/'));
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString& part = parts.at(i);
        const bool trailingSlash = i == parts.size() - 1 && part.isEmpty() && parts.size() > 1;
        if ((part.isEmpty() && !trailingSlash) || part == QLatin1String(".") || part == QLatin1String(".."))
            //: %1 is the path as given.
            return QCoreApplication::translate("Trainyard::JobValidation",
                "\"%1\" is not a clean path: it must have no \".\", \"..\" or empty components.")
                .arg(path);
    }
    const QString clean = QDir::cleanPath(path);
    const QString resolved = resolveExisting(clean);
    // Checked as written and as resolved: /proc/self/cwd leads back into the roots.
    if (kernelPath(clean) || kernelPath(resolved))
        //: %1 is the path as given, %2 the folders (comma-separated) where jobs' files lie.
        return QCoreApplication::translate("Trainyard::JobValidation",
            "\"%1\" lies outside the files a job may use: /proc, /sys and /dev name the kernel's processes and "
            "devices (/proc/self is the executor itself), never a job's files, which lie in %2.")
            .arg(path, m_roots.join(QStringLiteral(", ")));
    for (qsizetype i = 0; i < m_canonicalExecutorFolders.size(); ++i) {
        const QString& own = m_canonicalExecutorFolders.at(i);
        for (const QString& p : { clean, resolved }) {
            if (sameOrInside(own, p) || strictlyInside(p, own))
                //: %1 is the path as given, %2 what the field names ("The job dir").
                return QCoreApplication::translate("Trainyard::JobValidation",
                    "\"%1\" is, holds or lies in one of the executor's own folders (its database, access tokens, "
                    "audit log, keys and settings), which no job may use: %2 must lie elsewhere.")
                    .arg(path, noun(use, false));
        }
    }
    if (use == PathUse::Package)
        return {};
    for (const QString& root : m_canonicalRoots) {
        if (strictlyInside(root, resolved))
            return {};
    }
    //: %1 is the path as given, %2 the folders (comma-separated) it may lie in, %3 what the field names ("the job
    //: dir").
    return QCoreApplication::translate("Trainyard::JobValidation",
        "\"%1\" lies outside the folders where this executor keeps jobs' files (%2): %3 must lie inside one of them "
        "(the executor's --job-dir-root option sets them).")
        .arg(path, m_roots.join(QStringLiteral(", ")), noun(use, false));
}

FieldViolations PathPolicy::violations(const QString& path, const QString& field, PathUse use) const
{
    const QString why = problem(path, use);
    if (why.isEmpty())
        return {};
    return { FieldViolation { field, why } };
}

FieldViolations PathPolicy::packageViolations(const QString& field, const QStringList& uris) const
{
    FieldViolations v;
    for (qsizetype i = 0; i < uris.size(); ++i) {
        const QString name = field + QLatin1Char('[') + QString::number(i) + QLatin1Char(']');
        QString path = uris.at(i);
        if (path.startsWith(QLatin1String("file:")))
            path = QUrl(path).toLocalFile();
        if (path.trimmed().isEmpty())
            continue; // validateJob says "must not be empty"
        if (const QString why = problem(path, PathUse::Package); !why.isEmpty()) {
            v.append({ name, why });
            continue;
        }
        const PackageSource source = PackageSource::inspect(path);
        switch (source.kind) {
        case PackageSource::Kind::Missing:
            //: %1 is the package path as given.
            v.append({ name,
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "The package %1 does not exist on the executor's host.")
                    .arg(path) });
            break;
        case PackageSource::Kind::PackageFolder:
            // gcloud builds a package folder with its parent as the context: that parent is read too.
            if (!source.projectDir.isEmpty()) {
                if (const QString why = problem(source.projectDir, PathUse::Package); !why.isEmpty())
                    v.append({ name, why });
            }
            break;
        case PackageSource::Kind::Unknown:
            if (QFileInfo(source.path).isDir())
                //: %1 is the package folder as given.
                v.append({ name,
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "The package folder %1 has neither setup.py nor pyproject.toml, nor an __init__.py (a "
                        "package folder, as gcloud's --package-path), so pip cannot build it.")
                        .arg(path) });
            else
                //: %1 is the package file as given.
                v.append({ name,
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "The package %1 is neither a source distribution (.tar.gz, .zip) nor a wheel (.whl).")
                        .arg(path) });
            break;
        case PackageSource::Kind::ProjectFolder:
        case PackageSource::Kind::Archive:
            break;
        }
    }
    return v;
}

bool PathPolicy::allowsExistingJobDir(const QString& jobDir, QString* why) const
{
    if (!m_legacyJobDirs.isEmpty() && !jobDir.contains(QChar(0)) && jobDir.startsWith(QLatin1Char('/'))
        && strictlyInside(m_legacyJobDirs, resolveExisting(QDir::cleanPath(jobDir)))) {
        if (why)
            why->clear();
        return true;
    }
    return allows(jobDir, why, PathUse::JobDir);
}

bool PathPolicy::allows(const QString& path, QString* why, PathUse use) const
{
    const QString p = problem(path, use);
    if (why)
        *why = p;
    return p.isEmpty();
}

} // namespace Trainyard
