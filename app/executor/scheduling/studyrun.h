// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "jobdriver.h"
#include "logentry.h"
#include "replicasetrun.h"

#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace Trainyard {

class JobStore;
class Study;
class TrialObjectiveReader;
struct JobRun;

/// The study of a tuning job (`trainingInput.hyperparameters`) as the Scheduler drives it: the trials above their
/// runs (one ReplicaSetRun each, folder `<job folder>/trials/<trialId>`). It owns
/// - the suggestions: a trial's values are chosen (Study::suggest(), from every trial so far) only when admission let
///   it in, so that they learn from every trial that ended while it waited;
/// - the objective: read once a second from each running trial's master (TrialObjectiveReader) into
///   `trainingOutput.trials` (live, best first); a trial that ends without it failed;
/// - the rules: trial failures count against maxFailedTrials (Study::failureVerdict(); reaching it stops the running
///   trials and fails the job), enableTrialEarlyStopping's median stopping rule, at most maxParallelTrials running or
///   waiting at once, and the job's end (SUCCEEDED when no trial is left to run and one succeeded);
/// - resume (resumePreviousJobId's trials are prior observations) and recovery after an executor restart (ended
///   trials stay, running ones are taken over or restarted with their stored values);
/// - the trial records: the study's whole state is the job record's `trainingOutput`.
///
/// The queue, admission, staging, the job's phase and the recovery rule stay the Scheduler's: the study is the
/// tuning job's JobDriver, and asks for them through JobDriver::Host.
class StudyRun final : public JobDriver {
public:
    /// The study of `job` as stored (`stored`: its spec; with resumePreviousJobId, that job's trials from `store` are
    /// prior observations); its trials launch TrainingJob::launchInput() (JobRun::input). Null, with *error saying
    /// why, when the spec cannot be searched.
    static std::unique_ptr<StudyRun> open(Host* host, JobStore* store, JobRun* job, const Job& stored, QString* error);
    ~StudyRun() override;

    /// The queue slots a new job takes: as many trials as may run at once.
    int firstSlots() const override;
    /// A built-in algorithm's trials need its package (TrainingJob::launchProblem()).
    QString setupError() const override;
    /// A slot for a new trial stands until the study stops; an existing trial's entry while the trial exists.
    bool entryStands(const QString& trialId) const override;
    /// An existing trial's run (recovered), or null with the next trial's ID.
    ReplicaSetRun* queuedRun(const QString& trialId, RunId* next) override;
    /// Chooses the values of trial `id` (the optimiser, from every trial so far), records the trial and makes its
    /// run. Null when the study has no point left to try.
    ReplicaSetRun* makeRun(const RunId& id) override;
    /// No point left: the slots waiting for further trials go too.
    void nothingLeftToRun() override;
    /// Staging is done: the objectives are polled and trials queued.
    void staged() override;
    /// A trial's replicas are about to be launched: its objective reader.
    void launching(ReplicaSetRun& trial) override;
    /// Every replica of a trial has run.
    void runRunning(ReplicaSetRun& trial, JobState stored) override;
    /// A trial's run ended: its outcome is decided (a trial that succeeded without ever reporting the objective
    /// failed), stored, and the study goes on.
    void runEnded(ReplicaSetRun& trial) override;
    /// The job is cancelled: no further trial starts; the job ends when no trial runs.
    void cancelling() override;
    /// The job ends: trials that never ran end with it (CANCELLED), and polling stops.
    void ending(JobState state) override;

    /// A job stored as QUEUED with trials is recovered with them.
    bool recoversWhenQueued(const Job& stored) const override;
    /// Recovery of a job that was PREPARING or RUNNING (or QUEUED with trials): a run per recorded trial; the ended
    /// ones stay as they are (what a previous executor left of them is reclaimed), the others are returned to be
    /// recovered (taken over, restarted with their stored values, or failed when their restarts are spent). What a
    /// previous executor left of a trial folder in `trialFolders` with no stored record is reclaimed.
    QList<ReplicaSetRun*> runsToRecover(const Job& stored, const QStringList& trialFolders) override;
    RunWords words(const ReplicaSetRun& trial, JobState stored) const override;
    void runAttached(ReplicaSetRun& trial) override;
    void runExhausted(ReplicaSetRun& trial, const QString& message) override;
    /// An empty ID per slot for a new trial; the job ends when every trial had ended.
    QStringList recovered(int running) override;

    /// The job is cancelled or the study failed: no further trial starts.
    bool stopping() const;
    /// The next trial's number (after the resumed job's).
    int nextTrialNumber() const;
    /// After any change: fails the study when the failure rule says so, finishes the job when nothing is left to run,
    /// or queues as many trials as maxParallelTrials allows.
    void advance();

private:
    StudyRun(Host* host, JobStore* store, JobRun* job);

    /// What a trial reports, beside its run.
    struct TrialReports {
        /// The trial's objective (its master's hypertune file, event files under <jobDir>/<trialId>).
        std::unique_ptr<TrialObjectiveReader> objective;
        QString issue; ///< the first problem its reports had, for the message of a trial without any
        /// Its replicas all started and its RUNNING state is not stored yet: the next objective tick (≤ 1 s) or its
        /// final write stores it, so a short trial costs one write less. Safe: a trial stored as PREPARING is
        /// restarted after an executor restart exactly as a RUNNING one is.
        bool runningUnsaved = false;
    };

    int createdTrials() const;
    std::unique_ptr<TrialObjectiveReader> objectiveReader(const ReplicaSetRun& trial) const;
    void armPolling();
    void pollObjectives();
    QList<HyperparameterMetric> newObjectivePoints(const QString& trialId, TrialReports& reports);
    /// Applies `change` to the stored trials and writes them, with the fields derived from them
    /// (completedTrialCount, best-first order) and the study's constants.
    void updateTrials(const std::function<void(QList<HyperparameterOutput>&)>& change);
    void updateTrial(const QString& trialId, const std::function<void(HyperparameterOutput&)>& change);
    QList<HyperparameterOutput> storedTrials();

    JobStore* m_store;
    std::unique_ptr<Study> m_study;
    QTimer m_poll; // the running trials' objectives (ObjectivePollMs)
    bool m_done = false; // no further trial will be created (maxTrials reached, grid exhausted)
    QString m_failMessage; // the study failed (maxFailedTrials): the job fails once its trials stopped
    QString m_lastTrialError;
    std::map<QString, TrialReports> m_reports; // by trial ID
    /// The trials as last written to the store (what storedTrials() answers without decoding the record).
    std::optional<QList<HyperparameterOutput>> m_trials;
};

} // namespace Trainyard
