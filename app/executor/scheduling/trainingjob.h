// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "jobdriver.h"

namespace Trainyard {

/// A job whose one run is its cluster (RunId with an empty trial ID, the job's folder): what a training job and a
/// batch prediction job share. Its queue entry is its cluster's; the cluster's end is the job's (Succeeded when the
/// master, or with ReplicaSetRun::setSucceedsWithEveryReplica() every replica, exited 0; Failed with the run's
/// message, also when its restarts were spent; Cancelled); after an executor restart the cluster is the one run
/// recovered, and spent restarts fail the job.
class ClusterJob : public JobDriver {
public:
    bool entryStands(const QString& trialId) const override;
    ReplicaSetRun* queuedRun(const QString& trialId, RunId* next) override;
    void runRunning(ReplicaSetRun& run, JobState stored) override;
    void runEnded(ReplicaSetRun& run) override;
    QList<ReplicaSetRun*> runsToRecover(const Job& stored, const QStringList& trialFolders) override;
    RunWords words(const ReplicaSetRun& run, JobState stored) const override;
    void runExhausted(ReplicaSetRun& run, const QString& message) override;

protected:
    /// Makes the job's cluster run (its folder: the job's).
    ClusterJob(Host* host, JobRun* job);
    ReplicaSetRun& cluster() const { return *m_runs.front(); }
};

/// A training job (`trainingInput` without hyperparameters). A built-in algorithm (its image in
/// masterConfig.imageUri, BuiltInAlgorithms) is a launch detail: the bundled package runs as the trainer, its module
/// the algorithm's (the stored job keeps the image); a job whose package was uninstalled since create fails at
/// prepare; a succeeded one stores what it trained (`trainingOutput.builtInAlgorithmOutput`, read from
/// `<jobDir>/model`).
class TrainingJob final : public ClusterJob {
public:
    /// Sets `job`'s launch input (JobRun::input) from `stored`: launchInput().
    TrainingJob(Host* host, JobRun* job, const Job& stored);

    /// What a training job's replicas (or a tuning job's trials') launch: `stored` as submitted, or for a built-in
    /// algorithm the bundled package (BuiltInAlgorithms::packageDir(); none when it is not installed) and the
    /// algorithm's module in place of the image.
    static TrainingInput launchInput(const TrainingInput& stored);
    /// Why a job launching `input` (launchInput()'s) cannot run: a built-in algorithm whose package is not installed.
    static QString launchProblem(const TrainingInput& input);

    QString setupError() const override;
    void ending(JobState state) override;
};

} // namespace Trainyard
