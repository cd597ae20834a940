// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
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
/// The queue, admission, staging and the job's phase stay the Scheduler's: the study asks for them through Host.
class StudyRun {
public:
    /// What the study needs from the scheduler. Every call comes from the main thread.
    class Host {
    public:
        /// A line of the job's `service` log (a trial's when `trialId` is set).
        virtual void studyLog(const JobKey& key, const QString& message, LogSeverity severity, const QString& trialId)
            = 0;
        /// The same, as an action of the executor's own (Scheduler::systemAction's `method`).
        virtual void studyAction(
            const JobKey& key, const char* method, const QString& message, LogSeverity severity, const QString& trialId)
            = 0;
        /// Applies `change` to the stored job (read fresh) and writes it; the job as written, nothing when it is gone.
        virtual std::optional<Job> updateJob(const JobKey& key, const std::function<void(Job&)>& change) = 0;
        /// Queue entries of the job: every one, or only the slots for new trials.
        virtual int queuedFor(const JobKey& key, bool newTrialsOnly) const = 0;
        /// Queues a slot for the job's next trial (behind what waits).
        virtual void queueNewTrial(const JobKey& key) = 0;
        /// Takes every entry of the job out of the queue.
        virtual void dropQueued(const JobKey& key) = 0;
        /// Ends the job: its final state (Scheduler's finish(), which calls endTrials()).
        virtual void finishJob(JobRun* job, JobState state, const QString& message) = 0;
        /// Runs the queue again once the event loop is back (a trial freed its resources).
        virtual void scheduleSoon() = 0;
        virtual void jobReplicasChanged(const JobRun& job) = 0;
        /// Recovers a trial's run after an executor restart (ReplicaSetRun::recover(), the rule a job's cluster
        /// follows too): taken over where it runs when `tryAttach`, else reclaimed and restarted or exhausted.
        virtual ReplicaSetRun::Recovery recoverRun(JobRun* job, ReplicaSetRun* run, bool tryAttach) = 0;
        /// Starts the job's scheduling.maxRunningTime timer (a recovered job that was RUNNING).
        virtual void armRunTimer(JobRun* job, const Job& stored) = 0;
        /// The owner of the trials' runs.
        virtual ReplicaSetRun::Owner* runOwner() = 0;

    protected:
        ~Host() = default;
    };

    /// The study of `job` as stored (`stored`: its spec; with resumePreviousJobId, that job's trials from `store` are
    /// prior observations). Null, with *error saying why, when the spec cannot be searched.
    static std::unique_ptr<StudyRun> open(Host* host, JobStore* store, JobRun* job, const Job& stored, QString* error);
    ~StudyRun();

    /// The queue slots a new job takes: as many trials as may run at once.
    int firstSlots() const;
    /// The job is cancelled or the study failed: no further trial starts.
    bool stopping() const;
    /// The next trial's number (after the resumed job's).
    int nextTrialNumber() const;

    /// Chooses the values of trial `id` (the optimiser, from every trial so far), records the trial and makes its
    /// run. Null when the study has no point left to try.
    ReplicaSetRun* createTrial(const RunId& id);
    /// Staging is done: the objectives are polled and trials queued.
    void start();
    /// A trial's replicas are about to be launched: its objective reader.
    void trialLaunching(const ReplicaSetRun& trial);
    /// Every replica of a trial has run.
    void trialRunning(const ReplicaSetRun& trial);
    /// A trial's run ended (ReplicaSetRun::Owner::runEnded()): its outcome is decided (a trial that succeeded
    /// without ever reporting the objective failed), stored, and the study goes on.
    void trialEnded(ReplicaSetRun& trial);
    /// After any change: fails the study when the failure rule says so, finishes the job when nothing is left to run,
    /// or queues as many trials as maxParallelTrials allows.
    void advance();
    /// Recovery of a job that was PREPARING or RUNNING (or QUEUED with trials): its ended trials stay as they are;
    /// each other trial's run is recovered by Host::recoverRun() (ReplicaSetRun::recover(), the rule of a job's
    /// cluster too): taken over where it runs (`tryAttach`: a cluster's jobs that outlived the previous executor),
    /// or restarted with its stored values (a retryable failure, counted in its own restarts file), or failed when
    /// its restarts are spent. What a previous executor left of an ended trial, or of a trial folder in
    /// `trialFolders` with no stored record, is reclaimed. Returns what to queue ahead of everything: the restarted
    /// trials' IDs, then an empty ID per slot for a new trial.
    QStringList recover(const Job& stored, bool tryAttach, const QStringList& trialFolders);
    /// The job ends: trials that never ran end with it (CANCELLED), and polling stops.
    void endTrials();

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

    void log(const QString& message, LogSeverity severity = LogSeverity::Info, const QString& trialId = QString());
    int createdTrials() const;
    std::unique_ptr<TrialObjectiveReader> objectiveReader(const ReplicaSetRun& trial) const;
    void armPolling();
    void poll();
    QList<HyperparameterMetric> newObjectivePoints(const QString& trialId, TrialReports& reports);
    /// Applies `change` to the stored trials and writes them, with the fields derived from them
    /// (completedTrialCount, best-first order) and the study's constants.
    void updateTrials(const std::function<void(QList<HyperparameterOutput>&)>& change);
    void updateTrial(const QString& trialId, const std::function<void(HyperparameterOutput&)>& change);
    QList<HyperparameterOutput> storedTrials();

    Host* m_host;
    JobStore* m_store;
    JobRun* m_job;
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
