// SPDX-License-Identifier: GPL-2.0-or-later
#include "studyrun.h"

#include "builtinalgorithm.h"
#include "jobrun.h"
#include "jobstore.h"
#include "rfc3339.h"
#include "study.h"
#include "trainingjob.h"
#include "trialobjective.h"

#include <QSet>

#include <algorithm>

namespace Trainyard {

namespace {

/// How often running trials' objective reports are read (and the median stopping rule applied).
constexpr int ObjectivePollMs = 1000;

/// Adds `points` to a trial's reports: allMetrics grows (a report equal to one stored, as an executor that restarted
/// reads again, is skipped), finalMetric is the last one.
void addMetrics(HyperparameterOutput& t, const QList<HyperparameterMetric>& points)
{
    for (const HyperparameterMetric& m : points) {
        if (t.allMetrics.contains(m))
            continue;
        t.allMetrics.append(m);
        t.finalMetric = m;
    }
}

} // namespace

StudyRun::StudyRun(Host* host, JobStore* store, JobRun* job)
    : JobDriver(host, job)
    , m_store(store)
{
    m_poll.setInterval(ObjectivePollMs);
    QObject::connect(&m_poll, &QTimer::timeout, &m_poll, [this] {
        if (m_job->isStaged())
            pollObjectives();
    });
}

StudyRun::~StudyRun() = default;

std::unique_ptr<StudyRun> StudyRun::open(Host* host, JobStore* store, JobRun* job, const Job& stored, QString* error)
{
    const HyperparameterSpec& spec = *stored.trainingInput.hyperparameters;
    QList<HyperparameterOutput> prior;
    if (!spec.resumePreviousJobId.isEmpty()) {
        // The API checked that it exists with the same params and goal; a job deleted since is no prior.
        const std::optional<Job> previous = store->job(job->key.project, spec.resumePreviousJobId);
        if (previous && previous->trainingOutput)
            prior = previous->trainingOutput->trials;
    }
    std::unique_ptr<StudyRun> run(new StudyRun(host, store, job));
    run->m_study = Study::create(stored.jobId, spec, prior, error);
    if (!run->m_study)
        return nullptr;
    job->input = TrainingJob::launchInput(stored.trainingInput);
    if (!prior.isEmpty())
        run->log(QStringLiteral("Resuming the study of job %1: its %2 trials are prior observations; this job's trials "
                                "start at %3.")
                     .arg(spec.resumePreviousJobId)
                     .arg(prior.size())
                     .arg(run->m_study->firstTrialOffset() + 1));
    return run;
}

int StudyRun::createdTrials() const
{
    return int(m_runs.size());
}

QString StudyRun::setupError() const
{
    return TrainingJob::launchProblem(m_job->input);
}

int StudyRun::firstSlots() const
{
    return std::min(m_study->maxParallelTrials(), m_study->maxTrials() - createdTrials());
}

bool StudyRun::stopping() const
{
    return m_job->cancelRequested || !m_failMessage.isEmpty();
}

int StudyRun::nextTrialNumber() const
{
    return m_study->firstTrialOffset() + createdTrials() + 1;
}

void StudyRun::updateTrials(const std::function<void(QList<HyperparameterOutput>&)>& change)
{
    const Study* study = m_study.get();
    const std::optional<Job> written = m_host->updateJob(m_job->key, [&](Job& j) {
        TrainingOutput out = j.trainingOutput.value_or(TrainingOutput());
        change(out.trials);
        out.isHyperparameterTuningJob = true;
        out.hyperparameterMetricTag = study->metricTag();
        qint64 completed = 0;
        for (const HyperparameterOutput& t : std::as_const(out.trials))
            completed += t.state == JobState::Succeeded ? 1 : 0;
        out.completedTrialCount = completed;
        study->sortBestFirst(&out.trials);
        j.trainingOutput = out;
    });
    if (written && written->trainingOutput)
        m_trials = written->trainingOutput->trials;
}

void StudyRun::updateTrial(const QString& trialId, const std::function<void(HyperparameterOutput&)>& change)
{
    updateTrials([&](QList<HyperparameterOutput>& trials) {
        for (HyperparameterOutput& t : trials) {
            if (t.trialId == trialId) {
                change(t);
                return;
            }
        }
    });
}

QList<HyperparameterOutput> StudyRun::storedTrials()
{
    if (!m_trials) {
        const std::optional<Job> job = m_store->job(m_job->key);
        m_trials = job && job->trainingOutput ? job->trainingOutput->trials : QList<HyperparameterOutput>();
    }
    return *m_trials;
}

bool StudyRun::entryStands(const QString& trialId) const
{
    return !stopping() && (trialId.isEmpty() || findRun(RunId { m_job->key, trialId }));
}

ReplicaSetRun* StudyRun::queuedRun(const QString& trialId, RunId* next)
{
    // A new trial's number is given now; its values only once admission let it in (makeRun()).
    if (trialId.isEmpty()) {
        *next = RunId { m_job->key, QString::number(nextTrialNumber()) };
        return nullptr;
    }
    return findRun(RunId { m_job->key, trialId });
}

void StudyRun::nothingLeftToRun()
{
    m_host->dropQueued(m_job->key, true);
    advance();
}

ReplicaSetRun* StudyRun::makeRun(const RunId& id)
{
    QString note;
    const std::optional<QList<std::pair<QString, QString>>> values = m_study->suggest(storedTrials(), &note);
    if (!note.isEmpty())
        log(note, values ? LogSeverity::Info : LogSeverity::Warning);
    if (!values) {
        m_done = true;
        return nullptr;
    }
    auto set = std::make_unique<ReplicaSetRun>(m_host->runOwner(), m_job->backend, id, m_job->folder.trial(id.trialId));
    set->setHyperparameters(*values);
    ReplicaSetRun* raw = addRun(std::move(set));
    if (createdTrials() >= m_study->maxTrials())
        m_done = true;

    HyperparameterOutput trial;
    trial.trialId = id.trialId;
    QStringList shown;
    for (const auto& [name, value] : *values) {
        trial.hyperparameters.insert(name, value);
        shown << QStringLiteral("--%1=%2").arg(name, value);
    }
    trial.startTime = Rfc3339::now();
    trial.state = JobState::Preparing;
    updateTrials([&trial](QList<HyperparameterOutput>& trials) { trials.append(trial); });
    log(QStringLiteral("Trial %1 of %2 starts with %3.")
            .arg(id.trialId)
            .arg(m_study->firstTrialOffset() + m_study->maxTrials())
            .arg(shown.join(QLatin1Char(' '))),
        LogSeverity::Info, id.trialId);
    return raw;
}

void StudyRun::staged()
{
    armPolling();
    advance();
}

/// The reader of a trial's objective: the master's hypertune file (the service reads the chief's reports) and the
/// trial's event files under `<job dir>/<trialId>`.
std::unique_ptr<TrialObjectiveReader> StudyRun::objectiveReader(const ReplicaSetRun& trial) const
{
    const QString& jobDir = m_job->input.jobDir;
    return std::make_unique<TrialObjectiveReader>(
        trial.folder().hypertuneFile(trial.replicaSet().replicas.front().taskName),
        jobDir.isEmpty() ? QString() : jobDir + QLatin1Char('/') + trial.trialId(), m_study->metricTag());
}

void StudyRun::launching(ReplicaSetRun& trial)
{
    TrialReports& reports = m_reports[trial.trialId()];
    if (!reports.objective)
        reports.objective = objectiveReader(trial);
}

void StudyRun::runRunning(ReplicaSetRun& trial, JobState stored)
{
    Q_UNUSED(stored)
    const QString trialId = trial.trialId();
    m_reports[trialId].runningUnsaved = true;
    log(trial.restarts() > 0 ? QStringLiteral("Trial %1 is running (restart %2 of %3).")
                                   .arg(trialId)
                                   .arg(trial.restarts())
                                   .arg(ReplicaSetRun::MaxRestarts)
                             : QStringLiteral("Trial %1 is running.").arg(trialId),
        LogSeverity::Info, trialId);
}

void StudyRun::armPolling()
{
    if (!m_poll.isActive())
        m_poll.start();
}

/// Reads what the running trials reported since the last tick, stores it, and applies the median stopping rule.
void StudyRun::pollObjectives()
{
    // Every running trial's new reports (and RUNNING states not stored yet) in one write.
    QHash<QString, QList<HyperparameterMetric>> points;
    QSet<QString> nowRunning;
    for (const auto& set : m_runs) {
        if (set->phase() != ReplicaSetRun::Phase::Running && set->phase() != ReplicaSetRun::Phase::Stopping)
            continue;
        TrialReports& reports = m_reports[set->trialId()];
        if (reports.objective) {
            const QList<HyperparameterMetric> p = newObjectivePoints(set->trialId(), reports);
            if (!p.isEmpty())
                points.insert(set->trialId(), p);
        }
        if (std::exchange(reports.runningUnsaved, false))
            nowRunning.insert(set->trialId());
    }
    if (!points.isEmpty() || !nowRunning.isEmpty()) {
        updateTrials([&](QList<HyperparameterOutput>& trials) {
            for (HyperparameterOutput& t : trials) {
                if (const auto it = points.constFind(t.trialId); it != points.cend())
                    addMetrics(t, *it);
                if (nowRunning.contains(t.trialId) && !isFinal(t.state))
                    t.state = JobState::Running;
            }
        });
    }
    if (!m_study->earlyStopping() || stopping())
        return;
    const QList<HyperparameterOutput> trials = storedTrials();
    for (const auto& set : m_runs) {
        if (set->phase() != ReplicaSetRun::Phase::Running)
            continue;
        auto it = std::find_if(
            trials.cbegin(), trials.cend(), [&](const HyperparameterOutput& t) { return t.trialId == set->trialId(); });
        if (it == trials.cend() || !m_study->shouldStopEarly(*it, trials))
            continue;
        m_host->jobAction(m_job->key, "StopTrialEarly",
            QStringLiteral("Trial %1 is stopped early: its best %2 so far (%3) is worse than the median of the "
                           "completed trials' running averages at the same step (median stopping rule).")
                .arg(set->trialId(), m_study->metricTag(),
                    it->finalMetric && it->finalMetric->objectiveValue
                        ? QString::number(*it->finalMetric->objectiveValue)
                        : QString()),
            LogSeverity::Info, set->trialId());
        set->stop(ReplicaSetRun::StopReason::StoppedEarly, QString());
    }
}

/// The trial's reports since the last read; its problems go to the log.
QList<HyperparameterMetric> StudyRun::newObjectivePoints(const QString& trialId, TrialReports& reports)
{
    const QList<HyperparameterMetric> points = reports.objective->readNew();
    for (const QString& issue : reports.objective->takeIssues()) {
        if (reports.issue.isEmpty())
            reports.issue = issue;
        log(QStringLiteral("Trial %1: %2").arg(trialId, issue), LogSeverity::Warning, trialId);
    }
    return points;
}

void StudyRun::runEnded(ReplicaSetRun& set)
{
    using StopReason = ReplicaSetRun::StopReason;
    set.release();
    const QString trialId = set.trialId();
    TrialReports& reports = m_reports[trialId];
    reports.runningUnsaved = false; // the final write below says more
    // The last reports and the outcome go to the store in one write.
    const QList<HyperparameterMetric> lastPoints
        = reports.objective ? newObjectivePoints(trialId, reports) : QList<HyperparameterMetric>();
    const QList<HyperparameterOutput> trials = storedTrials();
    auto it = std::find_if(
        trials.cbegin(), trials.cend(), [&](const HyperparameterOutput& t) { return t.trialId == trialId; });
    const bool reported = it != trials.cend() && (it->finalMetric.has_value() || !lastPoints.isEmpty());
    JobState state = JobState::Failed;
    QString error;
    switch (set.stopReason()) {
    case StopReason::Succeeded:
    case StopReason::StoppedEarly:
        if (reported) {
            state = JobState::Succeeded;
        } else {
            error = QStringLiteral("Trial %1 ended without reporting the hyperparameter metric \"%2\" (from the "
                                   "master's CLOUD_ML_HP_METRIC_FILE, or event-file scalars under the job dir's "
                                   "\"%1\" folder).")
                        .arg(trialId, m_study->metricTag());
            const QStringList other = reports.objective ? reports.objective->otherTags() : QStringList();
            if (!other.isEmpty())
                error += QStringLiteral(" It reported: %1; set hyperparameterMetricTag to the one to optimise.")
                             .arg(other.join(QStringLiteral(", ")));
            if (!reports.issue.isEmpty())
                error += QStringLiteral(" Its reports had problems: %1").arg(reports.issue);
        }
        break;
    case StopReason::Failed:
        error = set.stopMessage();
        break;
    case StopReason::Retry:
        error = set.stopMessage()
            + QStringLiteral(" The trial's cluster was restarted %1 times, the limit.").arg(ReplicaSetRun::MaxRestarts);
        break;
    case StopReason::Cancelled:
        state = JobState::Cancelled;
        break;
    case StopReason::Shutdown:
    case StopReason::None:
        return;
    }
    const bool early = set.stopReason() == StopReason::StoppedEarly && state == JobState::Succeeded;
    // A built-in algorithm's trial wrote its model under <job dir>/<trial>/model (the service's layout).
    std::optional<BuiltInAlgorithmOutput> builtIn;
    const TrainingInput& input = m_job->input;
    if (state == JobState::Succeeded && BuiltInAlgorithms::forJob(input) && !input.jobDir.isEmpty())
        builtIn = BuiltInAlgorithms::readOutput(input.jobDir + QLatin1Char('/') + trialId + QStringLiteral("/model"));
    updateTrial(trialId, [state, early, &lastPoints, &builtIn](HyperparameterOutput& t) {
        addMetrics(t, lastPoints);
        t.state = state;
        t.endTime = Rfc3339::now();
        if (early)
            t.isTrialStoppedEarly = true;
        if (builtIn)
            t.builtInAlgorithmOutput = builtIn;
    });
    if (state == JobState::Succeeded) {
        log(early ? QStringLiteral("Trial %1 was stopped early.").arg(trialId)
                  : QStringLiteral("Trial %1 completed successfully.").arg(trialId),
            LogSeverity::Info, trialId);
    } else if (state == JobState::Failed) {
        m_lastTrialError = QStringLiteral("trial %1: %2").arg(trialId, error);
        log(QStringLiteral("Trial %1 failed: %2").arg(trialId, error), LogSeverity::Error, trialId);
    } else {
        log(QStringLiteral("Trial %1 was cancelled.").arg(trialId), LogSeverity::Info, trialId);
    }
    m_host->jobReplicasChanged(*m_job);
    advance();
    m_host->scheduleSoon();
}

void StudyRun::advance()
{
    if (m_job->phase == JobRun::Phase::Done)
        return;
    int active = 0;
    for (const auto& set : m_runs)
        active += set->isActive() ? 1 : 0;
    const QList<HyperparameterOutput> trials = storedTrials();
    if (!stopping()) {
        if (const std::optional<QString> verdict = m_study->failureVerdict(trials, m_lastTrialError)) {
            m_failMessage = *verdict;
            log(*verdict, LogSeverity::Error);
            m_host->dropQueued(m_job->key, false);
            for (const auto& set : m_runs) {
                const ReplicaSetRun::Phase phase = set->phase();
                if (phase == ReplicaSetRun::Phase::Placing || phase == ReplicaSetRun::Phase::Running
                    || phase == ReplicaSetRun::Phase::Stopping)
                    set->stop(ReplicaSetRun::StopReason::Cancelled, *verdict);
            }
        }
    }
    if (stopping()) {
        if (active == 0)
            m_host->finishJob(m_job, m_job->cancelRequested ? JobState::Cancelled : JobState::Failed,
                m_job->cancelRequested ? m_job->cancelMessage : m_failMessage);
        return;
    }
    const int queued = m_host->queuedFor(m_job->key, false);
    const int queuedNew = m_host->queuedFor(m_job->key, true);
    const int remaining = m_done ? 0 : m_study->maxTrials() - createdTrials();
    if (m_job->isStaged()) {
        // (While staging, the trials admitted so far wait for it, and more are queued once it is done.)
        for (int wanted = std::min(m_study->maxParallelTrials() - active - queued, remaining - queuedNew); wanted > 0;
             --wanted)
            m_host->queueNewRun(m_job->key);
    }
    if (active == 0 && queued == 0 && remaining <= 0) {
        int succeeded = 0;
        for (const HyperparameterOutput& t : trials)
            succeeded += t.state == JobState::Succeeded ? 1 : 0;
        if (succeeded > 0)
            m_host->finishJob(m_job, JobState::Succeeded, QString());
        else if (trials.isEmpty())
            m_host->finishJob(m_job, JobState::Failed,
                QStringLiteral("No trial ran: every point of the search space had been tried already%1.")
                    .arg(m_study->firstTrialOffset() > 0 ? QStringLiteral(" by the job this one resumes") : QString()));
        else
            m_host->finishJob(m_job, JobState::Failed,
                QStringLiteral("None of the job's %1 trials succeeded.%2")
                    .arg(trials.size())
                    .arg(m_lastTrialError.isEmpty() ? QString()
                                                    : QStringLiteral(" The last failed ") + m_lastTrialError));
    }
}

bool StudyRun::recoversWhenQueued(const Job& stored) const
{
    return stored.trainingOutput && !stored.trainingOutput->trials.isEmpty();
}

QList<ReplicaSetRun*> StudyRun::runsToRecover(const Job& stored, const QStringList& trialFolders)
{
    QList<ReplicaSetRun*> live;
    QList<HyperparameterOutput> trials
        = stored.trainingOutput ? stored.trainingOutput->trials : QList<HyperparameterOutput>();
    std::sort(trials.begin(), trials.end(),
        [](const HyperparameterOutput& a, const HyperparameterOutput& b) { return trialIdLess(a.trialId, b.trialId); });
    const HyperparameterSpec& spec = *stored.trainingInput.hyperparameters;
    Backend* backend = m_job->backend;
    backend->reclaim(RunId { m_job->key, QString() }, m_job->folder.path()); // a study runs no set of its own
    QSet<QString> recorded;
    for (const HyperparameterOutput& t : std::as_const(trials)) {
        recorded.insert(t.trialId);
        auto set = std::make_unique<ReplicaSetRun>(
            m_host->runOwner(), backend, RunId { m_job->key, t.trialId }, m_job->folder.trial(t.trialId));
        QList<std::pair<QString, QString>> values;
        for (const ParameterSpec& p : spec.params)
            values.append({ p.parameterName, t.hyperparameters.value(p.parameterName) });
        set->setHyperparameters(values);
        ReplicaSetRun* raw = addRun(std::move(set));
        if (isFinal(t.state)) {
            backend->reclaim(raw->id(), raw->folder().path());
            raw->markDone();
            continue;
        }
        live << raw;
    }
    // A trial folder without a record: its values were never stored (the executor died between the two), so it
    // cannot run again as itself; what it left goes.
    for (const QString& trialId : trialFolders) {
        if (!recorded.contains(trialId))
            backend->reclaim(RunId { m_job->key, trialId }, m_job->folder.trial(trialId).path());
    }
    if (createdTrials() >= m_study->maxTrials())
        m_done = true;
    return live;
}

JobDriver::RunWords StudyRun::words(const ReplicaSetRun& trial, JobState stored) const
{
    Q_UNUSED(stored)
    return { QStringLiteral("trial %1 was running").arg(trial.trialId()), QStringLiteral("the trial's") };
}

void StudyRun::runAttached(ReplicaSetRun& trial)
{
    // The job is active already: its trials' objectives are polled.
    m_reports[trial.trialId()].objective = objectiveReader(trial);
    armPolling();
}

void StudyRun::runExhausted(ReplicaSetRun& trial, const QString& message)
{
    m_lastTrialError = QStringLiteral("trial %1: %2").arg(trial.trialId(), message);
    updateTrial(trial.trialId(), [](HyperparameterOutput& o) {
        o.state = JobState::Failed;
        o.endTime = Rfc3339::now();
    });
}

QStringList StudyRun::recovered(int running)
{
    QStringList entries;
    const int openSlots = std::min(m_study->maxParallelTrials() - running, m_study->maxTrials() - createdTrials());
    for (int i = 0; i < openSlots; ++i)
        entries << QString();
    if (running == 0 && openSlots <= 0)
        advance(); // every trial had ended: the job ends now
    return entries;
}

void StudyRun::cancelling()
{
    m_host->dropQueued(m_job->key, false);
    advance(); // finishes the job when no trial was running
}

void StudyRun::ending(JobState state)
{
    Q_UNUSED(state)
    // Trials that never ran (the job ended while they waited) end with it.
    m_poll.stop();
    updateTrials([](QList<HyperparameterOutput>& trials) {
        for (HyperparameterOutput& t : trials) {
            if (!isFinal(t.state)) {
                t.state = JobState::Cancelled;
                t.endTime = Rfc3339::now();
            }
        }
    });
}

} // namespace Trainyard
