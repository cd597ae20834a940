// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace Trainyard {

/// What a local trainer package path is (one `trainingInput.packageUris` entry, gcloud's `--package-path`), and how
/// pip builds it: the one rule the CLI, the submit wizard, the API's validation and the executor's staging share.
///
/// gcloud's `--package-path` names the package itself ("trainer/", which holds `__init__.py`; the service's samples
/// run `--package-path trainer/ --module-name trainer.task`), and gcloud builds it "using its parent directory as
/// context": the parent's setup.py when there is one, else a simple setup.py of its own (`gcloud ai-platform jobs
/// submit training --help`). Trainyard also takes the project folder itself (setup.py or pyproject.toml), as before.
struct PackageSource {
    enum class Kind {
        Missing, ///< nothing at the path
        ProjectFolder, ///< a folder pip builds as it is: setup.py or pyproject.toml
        PackageFolder, ///< gcloud's package folder: `__init__.py`, no setup.py of its own
        Archive, ///< an sdist (.tar.gz, .tgz, .zip) or a wheel (.whl)
        Unknown, ///< a folder that is neither, or a file of another kind
    };

    Kind kind = Kind::Missing;
    /// The path, absolute and clean (no trailing "/").
    QString path;
    /// What pip builds: the path itself for a project folder; for a package folder its parent when the parent holds
    /// setup.py or pyproject.toml, else empty (generatedSetupPy() is written beside a copy of the folder).
    QString projectDir;
    /// A package folder's import name: the folder's name ("trainer").
    QString packageName;

    /// Looks at `path` (a local path or a file: URL); reads only the folder's entries and its parent's.
    static PackageSource inspect(const QString& path);

    /// The setup.py gcloud writes for a package folder whose parent has none: the package and its sub-packages,
    /// version 0.0.0, nothing else.
    static QByteArray generatedSetupPy(const QString& packageName);

    bool isFolder() const { return kind == Kind::ProjectFolder || kind == Kind::PackageFolder; }
};

} // namespace Trainyard
