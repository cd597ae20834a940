// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace Trainyard {

/// The folder of one run of a job's cluster: the job's folder for a job's only run, `<job folder>/trials/<trialId>`
/// for a trial of a tuning job. What the executor keeps there:
///
///     replicas/<taskName>/                    each replica's working directory (the backend makes it)
///     replicas/<taskName>/hypertune/output.metrics   its CLOUD_ML_HP_METRIC_FILE (the cloudml-hypertune file)
///     restarts                                how often the run's cluster was restarted ("3\n"), so that an
///                                             executor restart does not reset the service's limit of restarts
///
/// A cluster backend keeps its own files beside these (its job IDs, its scripts). Plain paths: nothing is made until
/// a caller makes it.
class RunFolder {
public:
    RunFolder() = default;
    /// `path`: a full path; empty for "no folder" (isEmpty()).
    explicit RunFolder(QString path);

    const QString& path() const { return m_path; }
    bool isEmpty() const { return m_path.isEmpty(); }

    /// `<path>/replicas`: Launch::ReplicaSet::replicaRoot.
    QString replicaRoot() const;
    /// `<path>/replicas/<taskName>`: a replica's working directory.
    QString replicaDir(const QString& taskName) const;
    /// `<path>/replicas/<taskName>/hypertune/output.metrics`.
    QString hypertuneFile(const QString& taskName) const;
    /// The hypertune file of the replica whose working directory is `replicaDir`.
    static QString hypertuneFileIn(const QString& replicaDir);
    /// `<path>/restarts`.
    QString restartsFile() const;

    /// The restarts file's count; 0 when there is none or it is not a number.
    int readRestarts() const;
    /// Writes `restarts` to the restarts file, making the folder first. Best effort: a refused write leaves the
    /// previous count, and a later restart writes again.
    void writeRestarts(int restarts) const;

private:
    QString m_path;
};

/// A job's folder, `<data folder or a cluster's shared folder>/projects/<project>/jobs/<jobId>` (JobKey::folder()),
/// and its layout: the one place that spells it. Besides its own run's files (RunFolder):
///
///     staging/                    the trainer packages, installed (the replicas' PYTHONPATH)
///     staging/.trainyard-staged   the package URIs staging/ was made from, one a line (a restarted executor reuses it)
///     build/, tmp/                staging's work folders (Staging)
///     trials/<trialId>/           each trial's run folder (a tuning job)
///     outcome.json                the job's end, kept while the job database refuses it (the scheduler's journal)
///     batch/plan.json             a batch prediction job's plan: its input files, split among its workers (BatchPlan)
///     batch/progress-<k>.json     worker k's committed progress (trainyard_algorithms.batch_prediction)
class JobFolder : public RunFolder {
public:
    JobFolder() = default;
    explicit JobFolder(QString path);

    /// `<path>/staging`.
    QString stagingDir() const;
    /// `<path>/staging/.trainyard-staged`.
    QString stagedMarker() const;
    /// `<path>/build`.
    QString buildDir() const;
    /// `<path>/tmp`.
    QString tmpDir() const;
    /// `<path>/outcome.json`.
    QString outcomeFile() const;
    /// `<path>/trials`.
    QString trialsDir() const;
    /// `<path>/batch`: a batch prediction job's plan and its workers' progress.
    QString batchDir() const;
    /// `<path>/batch/plan.json`.
    QString batchPlanFile() const;
    /// `<path>/trials/<trialId>`.
    RunFolder trial(const QString& trialId) const;
    /// The trial folders that exist, by name (trial IDs); empty for a job that is not a tuning job.
    QStringList trialIds() const;

    /// `<runFolderRoot>/staging-cache`: the packages' download cache that every job of a backend shares.
    static QString stagingCacheDir(const QString& runFolderRoot);
};

} // namespace Trainyard
