// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QDir>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// What a path field of a request names. It picks the words of a message ("The job dir …", "The model folder …") and
/// whether the allowed roots apply (see PathPolicy).
enum class PathUse {
    JobDir, ///< trainingInput.jobDir: a folder the executor creates and the trainer writes
    ModelFolder, ///< version.deploymentUri, predictionInput.uri: a folder of model files, read
    OutputFolder, ///< predictionInput.outputPath: a folder the workers write
    InputFile, ///< predictionInput.inputPaths[i], and each file a pattern there matches
    Package, ///< packageUris[i]: a package folder with setup.py or pyproject.toml, an sdist or a wheel, read
};

/// The one rule for every path a request gives the executor (the job dir, a version's deploymentUri and packageUris, a
/// batch prediction job's uri, inputPaths and outputPath, a training job's packageUris), and where such paths may lie
/// on this host.
///
/// The service takes `gs://` paths; here a path is a file or folder of this host that the executor creates, reads or
/// hands to user code (which runs in a sandbox that sees only the paths its job names, app/launch/sandbox.h). So a path
/// must be:
/// - a path the kernel takes: no NUL, shorter than PATH_MAX (4,096 bytes), no component over NAME_MAX (255 bytes);
/// - an absolute path (a relative one or "~" would be resolved against the executor's working folder while user code
///   receives the raw string);
/// - clean: no "." or ".." component and no empty one, so what is checked is what is used;
/// - not in /proc, /sys or /dev, as written or once symbolic links are resolved: those name the kernel's objects, and
///   `/proc/self/…` would be the executor's own process (its working folder, its open files);
/// - neither one of the executor's own folders and files (its data, runtime and config folders, its TLS certificate
///   and key: setExecutorFolders()) nor inside one nor holding one, after resolving symbolic links: a job dir, an
///   output folder or a copied model folder there would hand the database, the tokens or the audit log to user code;
/// - except for packages, strictly inside one of the roots the executor's admin allows (`trainyard-executor
///   --job-dir-root`, by default the executor user's home and the temporary folder), after resolving symbolic links
///   of the part that exists: a root itself, "/" or "/etc" are refused. A package is only read, copied into the job's
///   staging folder and built in the sandbox; Trainyard's own samples and algorithms are installed outside the roots
///   (/usr/share/trainyard), so packages are not held to the roots.
/// An empty path is allowed (a job without a job dir; callers that require a path say so themselves). Pure except for
/// the file system lookups of symbolic links; thread-safe.
class PathPolicy {
public:
    /// QDir::homePath() and QDir::tempPath() of this process.
    static QStringList defaultRoots();

    /// `roots`: absolute folders; each is resolved once here (a root that does not exist allows nothing).
    explicit PathPolicy(const QStringList& roots = defaultRoots());

    /// The roots as given (for messages and `--help`).
    QStringList roots() const { return m_roots; }

    /// The executor's own folders and files (full paths; resolved once here): no path may be, lie in or hold one.
    void setExecutorFolders(const QStringList& paths);
    QStringList executorFolders() const { return m_executorFolders; }

    /// Why `path` may not be used as `use` (in English, translated; it names what the field is); empty when it may.
    QString problem(const QString& path, PathUse use) const;
    /// The one rule for a URL where a path of this host belongs, whatever the field (a job's packageUris and jobDir,
    /// a batch prediction job's uri, inputPaths and outputPath, a version's deploymentUri): a `gs://` path, which the
    /// service takes, is Cloud Storage, which this executor cannot reach; any other scheme is no local path either.
    /// The message for `path` as `use` names it; empty when `path` is no URL (problem() checks the rest).
    static QString urlProblem(const QString& path, PathUse use);

    /// problem() as a violation of `field`; none when it follows the rules.
    FieldViolations violations(const QString& path, const QString& field, PathUse use) const;

    /// Violations of `trainingInput.jobDir` (field "trainingInput.jobDir"), each naming the rule; none when it
    /// is empty or follows the rules above.
    FieldViolations violations(const QString& jobDir) const
    {
        return violations(jobDir, QStringLiteral("trainingInput.jobDir"), PathUse::JobDir);
    }

    /// Violations of package URIs (`field`[i]): each a local path (a file:// URL is taken as its path) that problem()
    /// allows as a Package, naming a folder with setup.py or pyproject.toml, or an sdist (.tar.gz, .tgz, .zip) or a
    /// wheel (.whl) that exists; what pip would refuse after the job or version was accepted is refused at once.
    FieldViolations packageViolations(const QString& field, const QStringList& uris) const;

    /// Whether the files under `path` may be used as `use`; when not, *why says which rule it breaks.
    bool allows(const QString& path, QString* why = nullptr, PathUse use = PathUse::JobDir) const;

    /// Where the console proposed job dirs before they had to lie outside the executor's data folder
    /// (`<data folder>/job-dirs`, until issue 42): a job stored then keeps its files served from there, and its
    /// replicas writing there after a restart; no new job may name it.
    void setLegacyJobDirs(const QString& folder) { m_legacyJobDirs = QDir::cleanPath(folder); }
    /// Whether the files under an existing job's `jobDir` may be read, served and written by its own replicas: what
    /// allows() allows as a job dir, or a folder strictly inside the legacy job dirs; when not, *why says which rule
    /// it breaks (a job stored before a rule existed may break it).
    bool allowsExistingJobDir(const QString& jobDir, QString* why = nullptr) const;

    /// The canonical form of `path`, an absolute clean path that may not exist: the longest existing ancestor
    /// resolved (symbolic links followed), the rest appended as written.
    static QString resolveExisting(const QString& path);

private:
    QStringList m_roots;
    QStringList m_canonicalRoots;
    QStringList m_executorFolders;
    QStringList m_canonicalExecutorFolders;
    QString m_legacyJobDirs;
};

} // namespace Trainyard
