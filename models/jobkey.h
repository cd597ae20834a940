// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "pathname.h"

#include <QHashFunctions>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <utility>

namespace Trainyard {

/// Which job: the (project, job ID) pair of the service's resource name `projects/{project}/jobs/{jobId}`
/// (https://cloud.google.com/ai-platform/training/docs/reference/rest/v1/projects.jobs). A job ID is unique
/// only within its project, so every part of the executor that keeps something per job (runs, log files,
/// metric series, job folders) keys it by this pair, never by the job ID alone.
struct JobKey {
    QString project;
    QString jobId;

    // Constructors (not an aggregate) so that brace elision cannot turn a bare job ID into a project.
    JobKey() = default;
    JobKey(QString project_, QString jobId_)
        : project(std::move(project_))
        , jobId(std::move(jobId_))
    {
    }

    /// The resource name, "projects/<project>/jobs/<jobId>": the key's one text form (maps, SQLite
    /// columns, log lines). Project and job IDs cannot hold '/' (validation), so it is unambiguous.
    QString name() const { return QStringLiteral("projects/") + project + QStringLiteral("/jobs/") + jobId; }
    /// The job's own folder in the executor's data folder: `<dataDir>/projects/<project>/jobs/<jobId>`
    /// (staging, logs, restarts, trials). Not the job dir, which the user chooses. Empty when the project or the job
    /// ID is not a safe folder name (PathName): such a key has no folder, rather than one outside `dataDir`.
    QString folder(const QString& dataDir) const
    {
        return PathName::child(dataDir, { QStringLiteral("projects"), project, QStringLiteral("jobs"), jobId });
    }
    /// Parses name(); an empty key when `name` is not of that form.
    static JobKey fromName(const QString& name)
    {
        const QStringList parts = name.split(QLatin1Char('/'));
        if (parts.size() != 4 || parts[0] != QLatin1String("projects") || parts[2] != QLatin1String("jobs")
            || parts[1].isEmpty() || parts[3].isEmpty())
            return {};
        return JobKey { parts[1], parts[3] };
    }
    bool isEmpty() const { return jobId.isEmpty(); }

    bool operator==(const JobKey&) const = default;
    bool operator<(const JobKey& o) const { return project != o.project ? project < o.project : jobId < o.jobId; }
};

inline size_t qHash(const JobKey& key, size_t seed = 0)
{
    return qHashMulti(seed, key.project, key.jobId);
}

} // namespace Trainyard

Q_DECLARE_METATYPE(Trainyard::JobKey)
