// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QString>
#include <QStringList>

namespace Trainyard {

/// Where jobs' dirs may lie on this host, and the rule for `trainingInput.jobDir` that follows from it.
///
/// The service takes a full `gs://` path for jobDir; here it is a local folder that the executor creates,
/// hands to the trainer as given, and later serves from (checkpoints, event files). So it must be:
/// - a path the kernel takes: no NUL, shorter than PATH_MAX (4,096 bytes), no component over NAME_MAX (255 bytes);
/// - an absolute path (a relative one or "~" would be resolved against the executor's working folder while the
///   trainer receives the raw string);
/// - clean: no "." or ".." component and no empty one, so what is checked is what is used;
/// - strictly inside one of the roots the executor's admin allows (`trainyard-executor --job-dir-root`, by
///   default the executor user's home and the temporary folder), after resolving symbolic links of the part
///   that exists: a root itself, "/", "/etc" or "/proc/self" are refused.
/// An empty jobDir is allowed (the trainer gets no `--job-dir`). Pure except for the file system lookups of
/// symbolic links; thread-safe.
class JobDirPolicy {
public:
    /// QDir::homePath() and QDir::tempPath() of this process.
    static QStringList defaultRoots();

    /// `roots`: absolute folders; each is resolved once here (a root that does not exist allows nothing).
    explicit JobDirPolicy(const QStringList& roots = defaultRoots());

    /// The roots as given (for messages and `--help`).
    QStringList roots() const { return m_roots; }

    /// Violations of `trainingInput.jobDir` (field "trainingInput.jobDir"), each naming the rule; none when it
    /// is empty or follows the rules above.
    FieldViolations violations(const QString& jobDir) const;

    /// Whether the files under an existing job's `jobDir` may be read and served; when not, *why says which
    /// rule it breaks (a job stored before the rule existed may break it).
    bool allows(const QString& jobDir, QString* why = nullptr) const;

private:
    QString problem(const QString& jobDir) const;

    QStringList m_roots;
    QStringList m_canonicalRoots;
};

} // namespace Trainyard
