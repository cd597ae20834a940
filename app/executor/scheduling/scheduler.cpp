// SPDX-License-Identifier: GPL-2.0-or-later
#include "scheduler.h"

#include "backend.h"
#include "builtinalgorithm.h"
#include "jobfolder.h"
#include "jobrun.h"
#include "jobstore.h"
#include "launchspec.h"
#include "localbackend.h"
#include "logstore.h"
#include "machinecatalog.h"
#include "outcomejournal.h"
#include "replicasetrun.h"
#include "rfc3339.h"
#include "runtimelogging.h"
#include "staging.h"
#include "studyrun.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QMetaMethod>
#include <QSysInfo>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <deque>
#include <limits>

namespace Trainyard {

namespace {

constexpr int MaxRestarts = ReplicaSetRun::MaxRestarts;
/// Final jobs whose replicas (exit codes, restarts) stay in memory for `…/replicas`.
constexpr size_t MaxFinishedRuns = 200;

} // namespace

struct Scheduler::Private final : ReplicaSetRun::Owner, StudyRun::Host {
    Scheduler* q = nullptr;
    JobStore* store = nullptr;
    LogStore* logs = nullptr;
    Backend* backend = nullptr; // the default: every run whose region names no cluster backend
    std::vector<std::unique_ptr<Backend>> ownedBackends; // the default first, then addBackend()'s
    QString dataDir;
    int graceSeconds = 10;
    Scheduler::BatchModelResolver batchResolver;
    QTimer* batchProgressTimer = nullptr;
    bool shuttingDownNow = false;

    using Run = JobRun;
    using Phase = JobRun::Phase;
    using SetRun = ReplicaSetRun;
    using SetPhase = ReplicaSetRun::Phase;
    using StopReason = ReplicaSetRun::StopReason;

    /// What waits in the queue: a job's cluster (`trialId` empty, not a tuning job), a slot for a tuning
    /// job's next trial (`trialId` empty), or a tuning job's existing trial that needs resources again
    /// (after an executor restart).
    struct QueueEntry {
        JobKey job;
        QString trialId;
    };

    std::map<JobKey, std::unique_ptr<Run>> runs;
    std::deque<QueueEntry> queue; // FIFO of runs waiting for resources
    std::deque<JobKey> finished; // final jobs whose replicas are still answered, oldest first

    // ---- store helpers -------------------------------------------------------------------------

    /// Applies `change` to the stored job (read fresh, so that a concurrent labels PATCH survives) and
    /// writes it. Returns the job as written.
    /// A job whose project or job ID is no safe folder name (JobKey::folder() is empty: it was stored before every
    /// route checked them) has no job folder inside the data folder, so it cannot run: it fails, and nothing is made
    /// outside the data folder. True when `key` was such a job.
    bool failWithoutFolder(const JobKey& key, const QString& folder)
    {
        if (!folder.isEmpty())
            return false;
        qCWarning(lcRuntime).noquote() << "job" << key.name() << "fails: its project or job ID is not a folder name";
        mutate(key, [](Job& j) {
            j.state = JobState::Failed;
            j.jobPosition.reset();
            j.endTime = Rfc3339::now();
            j.errorMessage = QStringLiteral("The job's project or job ID cannot be a folder name (it was stored before "
                                            "the executor checked them), so the job cannot run.");
        });
        return true;
    }

    /// Stores a batch prediction job's predictionOutput from its workers' progress files when it changed.
    void storeBatchProgress(Run* run)
    {
        const PredictionOutput now = readBatchProgress(run->folder.batchDir(), run->batchOutputPath, run->batchWorkers);
        if (run->batchOutput && *run->batchOutput == now)
            return;
        run->batchOutput = now;
        mutate(run->key, [&now](Job& j) { j.predictionOutput = now; });
    }

    /// Every 2 s, the progress of the batch prediction jobs that run (the job list's and the console's progress).
    void pollBatchProgress()
    {
        for (auto& [key, run] : runs) {
            if (run->batchWorkers > 0 && run->phase == Phase::Running && !run->cancelRequested)
                storeBatchProgress(run.get());
        }
    }

    template <typename F> std::optional<Job> mutate(const JobKey& key, F change)
    {
        std::optional<Job> job = store->job(key);
        if (!job)
            return job;
        change(*job);
        QString error;
        if (!store->update(key.project, *job, &error))
            qCWarning(lcRuntime, "cannot update job %s: %s", qPrintable(key.name()), qPrintable(error));
        return job;
    }

    /// A `service` log line that also goes to the audit log as the executor's own action (Scheduler::systemAction).
    void system(const JobKey& key, const char* method, const QString& message, LogSeverity severity = LogSeverity::Info,
        const QString& trialId = QString())
    {
        service(key, message, severity, trialId);
        Q_EMIT q->systemAction(
            key, QStringLiteral("trainyard.v1.JobLifecycle.") + QLatin1String(method), message, trialId);
    }

    void service(const JobKey& key, const QString& message, LogSeverity severity = LogSeverity::Info,
        const QString& trialId = QString())
    {
        LogEntry e;
        e.severity = logSeverityString(severity);
        e.taskName = QStringLiteral("service");
        e.trialId = trialId;
        e.message = message;
        logs->append(key, e);
    }

    /// The backend a job's region names (a cluster's name), else the default one (local: "local", empty, or one
    /// of the service's regions such as us-central1).
    Backend* backendFor(const QString& region) const
    {
        for (const auto& b : ownedBackends) {
            if (b.get() != backend && b->name() == region)
                return b.get();
        }
        return backend;
    }

    Backend* backendOf(const RunId& id) const
    {
        const Run* run = find(id.job);
        return run && run->backend ? run->backend : backend;
    }

    Run* find(const JobKey& key) const
    {
        auto it = runs.find(key);
        return it == runs.end() ? nullptr : it->second.get();
    }

    SetRun* findSet(const RunId& id) const
    {
        Run* run = find(id.job);
        if (!run)
            return nullptr;
        for (const auto& set : run->sets) {
            if (set->id() == id)
                return set.get();
        }
        return nullptr;
    }

    // ---- queue --------------------------------------------------------------------------------

    void updatePositions()
    {
        // One position per job, however many of its trials wait.
        qint64 position = 1;
        QSet<JobKey> counted;
        for (const QueueEntry& entry : queue) {
            if (counted.contains(entry.job))
                continue;
            counted.insert(entry.job);
            // Only a job still waiting as a whole has a position (a tuning job's later trials queue too).
            if (const Run* run = find(entry.job); run && run->phase != Phase::Queued)
                continue;
            const std::optional<Job> stored = store->job(entry.job);
            if (!stored || stored->state != JobState::Queued)
                continue;
            if (stored->jobPosition != position) {
                const qint64 p = position;
                mutate(entry.job, [p](Job& j) { j.jobPosition = p; });
            }
            ++position;
        }
    }

    /// Starts queued runs in order while the head fits (the backend's admission). Strict FIFO (no
    /// backfilling), so a big job is never starved by small ones that keep slipping past it; a tuning job's
    /// trials queue like jobs (one entry per trial), behind what was queued before them.
    void schedule()
    {
        if (shuttingDownNow)
            return;
        while (!queue.empty()) {
            const QueueEntry entry = queue.front();
            Run* run = find(entry.job);
            if (!run || run->phase == Phase::Done || (run->study && run->study->stopping())) {
                queue.pop_front();
                continue;
            }
            if (!run->study) {
                SetRun* set = run->sets.front().get();
                std::optional<Reservation> reservation = set->backend()->admit(set->id(), run->plan);
                if (!reservation)
                    break;
                queue.pop_front();
                set->setReservation(reservation);
                if (run->waitTimer)
                    run->waitTimer->stop();
                prepare(run);
                continue;
            }
            // A trial: an existing one (recovered), or the next one, whose values are chosen only now that it
            // can run, so that they learn from every trial that ended while it waited.
            SetRun* set = entry.trialId.isEmpty() ? nullptr : findSet(RunId { run->key, entry.trialId });
            if (!entry.trialId.isEmpty() && !set) {
                queue.pop_front();
                continue;
            }
            const RunId id = set ? set->id() : RunId { run->key, QString::number(run->study->nextTrialNumber()) };
            std::optional<Reservation> reservation = backendOf(id)->admit(id, run->plan);
            if (!reservation)
                break;
            queue.pop_front();
            if (!set)
                set = run->study->createTrial(id);
            if (!set) {
                // No point left: the slots waiting for further trials go too.
                backendOf(id)->release(id);
                std::erase_if(queue, [&](const QueueEntry& e) { return e.job == entry.job && e.trialId.isEmpty(); });
                run->study->advance();
                continue;
            }
            set->setReservation(reservation);
            if (run->phase == Phase::Queued) {
                if (run->waitTimer)
                    run->waitTimer->stop();
                prepare(run);
            } else if (run->isStaged()) {
                set->start(run->plan);
            }
            // Preparing: startSets() starts it when staging is done.
        }
        updatePositions();
    }

    /// A batch prediction job's run: its plan (made now, or the one kept in its folder since its first submit, so that
    /// a restart splits the input the same way) and the cluster of workers that runs it.
    void planBatch(Run* run, const Job& job)
    {
        const PredictionInput& in = *job.predictionInput;
        const QString planFile = run->folder.batchPlanFile();
        QString error;
        std::optional<BatchPlan> plan;
        if (QFile::exists(planFile)) {
            plan = BatchPlan::read(planFile, &error);
        } else if (!batchResolver) {
            error = QStringLiteral("this executor serves no models, so it cannot run batch prediction jobs");
        } else if (const std::optional<BatchModel> model = batchResolver(run->key.project, in, &error)) {
            // A cluster's nodes are many; on this host, more workers than vCPUs only take turns.
            const int limit = run->backend == backend ? QThread::idealThreadCount() : std::numeric_limits<int>::max();
            plan = BatchPlan::make(in, *model, limit, run->folder.batchDir(), &error);
            if (plan && !plan->write(planFile, &error))
                plan.reset();
        }
        run->batchOutputPath = in.outputPath;
        if (!plan) {
            run->setupError = error;
            run->batchWorkers = 1;
            run->input = BatchPlan().trainingInput(QString(), planFile, in.region, in.runtimeVersion);
            return;
        }
        run->batchWorkers = plan->workers;
        run->input = plan->trainingInput(BuiltInAlgorithms::packageDir(), planFile, in.region,
            in.runtimeVersion.isEmpty() ? plan->model.runtimeVersion : in.runtimeVersion);
        run->batchOutput = job.predictionOutput;
    }

    Run* createRun(const JobKey& key, const Job& job)
    {
        auto run = std::make_unique<Run>();
        run->key = key;
        run->backend = backendFor(job.region());
        run->folder = JobFolder(key.folder(run->backend->runFolderRoot(dataDir)));
        run->input = job.trainingInput;
        if (job.predictionInput)
            planBatch(run.get(), job);
        run->plan = planCluster(run->input, MachineCatalog::builtin());
        if (const BuiltInAlgorithm* algorithm = BuiltInAlgorithms::forJob(job.trainingInput)) {
            // A built-in algorithm's image runs the bundled package as the job's trainer (no container); the
            // stored job keeps the image it was given. Uninstalled since create: prepare() fails the job.
            const QString package = BuiltInAlgorithms::packageDir();
            run->input.packageUris = package.isEmpty() ? QStringList() : QStringList { package };
            run->input.pythonModule = algorithm->module;
        }
        if (!job.trainingInput.hyperparameters) {
            run->sets.push_back(std::make_unique<SetRun>(this, run->backend, RunId { key, QString() }, run->folder));
            // Each batch worker predicts a share of its own: the job is done when all are.
            run->sets.back()->setSucceedsWithEveryReplica(run->batchWorkers > 0);
        }
        Run* raw = run.get();
        runs[key] = std::move(run);
        return raw;
    }

    void armWaitTimer(Run* run, const Job& job)
    {
        if (!job.trainingInput.scheduling)
            return;
        const qint64 ms = job.trainingInput.scheduling->maxWaitTime.milliseconds();
        if (ms < 0)
            return;
        // Measured from createTime: the service counts queueing and preparing together.
        const QDateTime created = QDateTime::fromString(job.createTime, Qt::ISODateWithMs);
        const qint64 waited = created.isValid() ? created.msecsTo(QDateTime::currentDateTimeUtc()) : 0;
        run->waitTimer = new QTimer(q);
        run->waitTimer->setSingleShot(true);
        const JobKey key = run->key;
        const QString limit = job.trainingInput.scheduling->maxWaitTime.text;
        QObject::connect(run->waitTimer, &QTimer::timeout, q, [this, key, limit] {
            Run* r = find(key);
            if (!r || (r->phase != Phase::Queued && r->phase != Phase::Staging))
                return;
            const QString message = QStringLiteral("Job was cancelled: it did not start running within "
                                                   "scheduling.maxWaitTime (%1).")
                                        .arg(limit);
            system(key, "ExpireJob", message, LogSeverity::Warning);
            cancelRun(r, message);
        });
        run->waitTimer->start(int(std::clamp<qint64>(ms - waited, 0, std::numeric_limits<int>::max())));
    }

    // ---- prepare ------------------------------------------------------------------------------

    void prepare(Run* run)
    {
        run->phase = Phase::Staging;
        const std::optional<Job> job = store->job(run->key);
        if (!job) {
            finish(run, JobState::Failed, QStringLiteral("the job record disappeared"));
            return;
        }
        if (!run->setupError.isEmpty()) {
            finish(run, JobState::Failed, run->setupError);
            return;
        }
        if (run->batchWorkers > 0 && run->input.packageUris.isEmpty()) {
            finish(run, JobState::Failed,
                QStringLiteral("Batch prediction runs Trainyard's bundled package (trainyard_algorithms), which is not "
                               "installed with this executor (trainyard/algorithms in the data folders)."));
            return;
        }
        QString error;
        run->interpreter = run->backend->interpreter();
        // A job whose every replica runs an image needs no interpreter here (nor a package to stage). What runs
        // is run->input: for a built-in algorithm, the bundled package in place of the image.
        const TrainingInput& input = run->input;
        if (BuiltInAlgorithms::forJob(input) && input.packageUris.isEmpty()) {
            finish(run, JobState::Failed,
                QStringLiteral("%1 runs Trainyard's built-in algorithms package, which is not installed with this "
                               "executor (trainyard/algorithms in the data folders).")
                    .arg(input.masterConfig->imageUri));
            return;
        }
        if (run->interpreter.isEmpty() && !onlyContainers(input))
            run->interpreter = interpreterFor(input, &error);
        if (run->interpreter.isEmpty() && !onlyContainers(input)) {
            finish(run, JobState::Failed, error);
            return;
        }
        const QString stagedMarker = run->folder.stagedMarker();
        const QByteArray packages = input.packageUris.join(QLatin1Char('\n')).toUtf8();
        QFile marker(stagedMarker);
        const bool staged = run->recovered && marker.open(QIODevice::ReadOnly) && marker.readAll() == packages;
        if (job->state == JobState::Running && staged) {
            // Restart after an executor restart: the packages are installed already.
            startSets(run);
            return;
        }
        mutate(run->key, [](Job& j) {
            j.state = JobState::Preparing;
            j.jobPosition.reset();
            if (j.startTime.isEmpty())
                j.startTime = Rfc3339::now();
        });
        service(run->key, QStringLiteral("Job is preparing."));
        if (input.packageUris.isEmpty()) {
            // Nothing to install: the module must be importable by the interpreter as it is.
            QDir().mkpath(run->folder.stagingDir());
            startSets(run);
            return;
        }
        if (run->batchWorkers > 0) {
            // The bundled package is pure Python and needs no build: copied as it is (see Staging::copyModule).
            QString copyError;
            QDir().mkpath(run->folder.stagingDir());
            if (!Staging::copyModule(input.packageUris.first(), QStringLiteral("trainyard_algorithms"),
                    run->folder.stagingDir(), &copyError)) {
                finish(run, JobState::Failed, QStringLiteral("The bundled package cannot be staged: ") + copyError);
                return;
            }
            startSets(run);
            return;
        }
        run->staging = new Staging(run->folder.path(), run->interpreter, input.packageUris, q);
        // Where the run's folder is (this host's data dir, or a cluster's shared folder): its nodes see the copy.
        run->staging->setCacheDir(JobFolder::stagingCacheDir(run->backend->runFolderRoot(dataDir)));
        const JobKey key = run->key;
        QObject::connect(run->staging, &Staging::outputLine, q,
            [this, key](const QString& line) { service(key, line, LogSeverity::Debug); });
        QObject::connect(
            run->staging, &Staging::finished, q, [this, key, stagedMarker, packages](bool ok, const QString& message) {
                Run* r = find(key);
                if (!r)
                    return;
                r->staging->deleteLater();
                r->staging = nullptr;
                if (shuttingDownNow)
                    return;
                if (r->cancelRequested) {
                    finish(r, JobState::Cancelled, r->cancelMessage);
                    return;
                }
                if (!ok) {
                    service(key, message, LogSeverity::Error);
                    finish(r, JobState::Failed, message);
                    return;
                }
                QFile m(stagedMarker);
                if (m.open(QIODevice::WriteOnly | QIODevice::Truncate))
                    m.write(packages);
                startSets(r);
            });
        run->staging->start();
    }

    // ---- run ----------------------------------------------------------------------------------

    QString executorId() const
    {
        // TF_CONFIG's task.cloud names the service deployment; here it names this host's executor.
        return QStringLiteral("trainyard-") + QSysInfo::machineHostName();
    }

    /// Staging is done: every run that holds its resources starts.
    void startSets(Run* run)
    {
        if (run->waitTimer)
            run->waitTimer->stop();
        run->phase = Phase::Starting;
        for (const auto& set : run->sets) {
            if (set->phase() == SetPhase::Idle && set->reservation())
                set->start(run->plan);
        }
        if (run->study)
            run->study->start();
    }

    // ---- the runs' owner (ReplicaSetRun::Owner) -------------------------------------------------

    void runLog(const ReplicaSetRun& set, const QString& message, LogSeverity severity) override
    {
        service(set.id().job, message, severity, set.trialId());
    }

    void runAction(const ReplicaSetRun& set, const char* method, const QString& message, LogSeverity severity) override
    {
        system(set.id().job, method, message, severity, set.trialId());
    }

    Launch::LaunchContext launchContext(const ReplicaSetRun& set) override
    {
        Run* run = find(set.id().job);
        Q_ASSERT(run);
        const TrainingInput& input = run->input;
        // On the service the job dir is a Cloud Storage prefix that every replica can write under at once;
        // here it is a folder, so it exists before the first replica looks for checkpoints in it.
        if (!input.jobDir.isEmpty() && !std::exchange(run->jobDirMade, true)) {
            if (!QDir().mkpath(input.jobDir)) {
                service(run->key,
                    QStringLiteral("Could not create the job dir %1; the trainer may fail to write to it.")
                        .arg(input.jobDir),
                    LogSeverity::Warning);
            } else if (const QString warning = set.backend()->adoptJobDir(input.jobDir); !warning.isEmpty()) {
                service(run->key, warning, LogSeverity::Warning);
            }
        }
        Launch::LaunchContext context;
        context.input = input;
        context.interpreter = run->interpreter;
        context.pythonPath = { run->folder.stagingDir() };
        context.cloud = executorId();
        return context;
    }

    qint64 runLimitLeft(const ReplicaSetRun& set) const override
    {
        const Run* run = find(set.id().job);
        return run ? runLimitLeft(*run) : -1;
    }

    bool shuttingDown() const override { return shuttingDownNow; }

    std::chrono::seconds gracePeriod() const override { return std::chrono::seconds(graceSeconds); }

    void runReplicasChanged(const ReplicaSetRun& set) override
    {
        if (const Run* run = find(set.id().job))
            emitReplicas(*run);
    }

    /// The job's replicas as `…/replicas` reports them: every run's, in trial order.
    QList<ReplicaInfo> replicaInfos(const Run& run) const
    {
        QList<ReplicaInfo> list;
        // A cluster's placement addresses name its nodes (the Slurm backend's, once it knows them).
        const bool nodes = run.backend && run.backend != backend;
        for (const auto& set : run.sets)
            list << set->replicaInfos(nodes);
        return list;
    }

    /// Scheduler::replicasChanged() with the job's whole list, built only when something listens: a study's list
    /// holds every trial's replicas and changes several times a trial, and an in-process scheduler (bench_study,
    /// the tests) has no listener.
    void emitReplicas(const Run& run)
    {
        static const QMetaMethod signal = QMetaMethod::fromSignal(&Scheduler::replicasChanged);
        if (q->isSignalConnected(signal))
            Q_EMIT q->replicasChanged(run.key, replicaInfos(run));
    }

    void runLaunching(ReplicaSetRun& set) override
    {
        if (Run* run = find(set.id().job); run && run->study)
            run->study->trialLaunching(set);
    }

    /// Every replica of `set` has run: the trial, or the job, is RUNNING.
    void runAllStarted(ReplicaSetRun& set) override
    {
        Run* run = find(set.id().job);
        if (!run)
            return;
        if (run->study) {
            run->study->trialRunning(set);
            if (run->phase == Phase::Running)
                return;
        }
        const std::optional<Job> job = store->job(run->key);
        if (!job)
            return;
        run->phase = Phase::Running;
        if (job->state == JobState::Running) {
            if (run->study)
                return;
            if (set.restarts() > 0 && !set.attached())
                service(run->key,
                    QStringLiteral("Job is running (restart %1 of %2).").arg(set.restarts()).arg(MaxRestarts));
            armRunTimer(run, *job);
            return;
        }
        mutate(run->key, [](Job& j) {
            j.state = JobState::Running;
            j.jobPosition.reset();
            if (j.startTime.isEmpty())
                j.startTime = Rfc3339::now();
        });
        service(run->key, QStringLiteral("Job is running."));
        armRunTimer(run, *job);
    }

    /// A run ended: a trial's outcome goes to the study; a job's cluster's is the job's.
    void runEnded(ReplicaSetRun& set) override
    {
        Run* run = find(set.id().job);
        if (!run)
            return;
        if (run->study) {
            run->study->trialEnded(set);
            return;
        }
        switch (set.stopReason()) {
        case StopReason::Succeeded:
        case StopReason::StoppedEarly:
            finish(run, JobState::Succeeded, QString());
            break;
        case StopReason::Failed:
            finish(run, JobState::Failed, set.stopMessage());
            break;
        case StopReason::Cancelled:
            finish(run, JobState::Cancelled, set.stopMessage());
            break;
        case StopReason::Retry:
            finish(run, JobState::Failed,
                set.stopMessage()
                    + QStringLiteral(" The cluster was restarted %1 times, the limit; the job failed.")
                          .arg(MaxRestarts));
            break;
        case StopReason::Shutdown:
        case StopReason::None:
            break;
        }
    }

    /// What is left of the job's scheduling.maxRunningTime now (ms, ≥ 0), -1 without one: all of it before the job
    /// runs (the timer starts then), what the timer has left after.
    qint64 runLimitLeft(const Run& run) const
    {
        if (run.runTimer && run.runTimer->isActive())
            return std::max(0, run.runTimer->remainingTime());
        return run.input.scheduling ? run.input.scheduling->maxRunningTime.milliseconds() : -1;
    }

    /// Starts the job's scheduling.maxRunningTime timer once it runs.
    void armRunTimer(Run* run, const Job& job) override
    {
        if (run->runTimer || !job.trainingInput.scheduling)
            return;
        const QString limit = job.trainingInput.scheduling->maxRunningTime.text;
        const qint64 ms = job.trainingInput.scheduling->maxRunningTime.milliseconds();
        if (ms < 0)
            return;
        run->runTimer = new QTimer(q);
        run->runTimer->setSingleShot(true);
        const JobKey key = run->key;
        QObject::connect(run->runTimer, &QTimer::timeout, q, [this, key, limit] {
            Run* r = find(key);
            if (!r || r->phase == Phase::Done)
                return;
            const QString message
                = QStringLiteral("Job was cancelled: it ran longer than scheduling.maxRunningTime (%1).").arg(limit);
            system(key, "ExpireJob", message, LogSeverity::Warning);
            cancelRun(r, message);
        });
        // A run taken over from a previous executor has been running since before this one started: the limit
        // counts from the job's startTime then (which includes its staging: never later than the service would).
        qint64 left = ms;
        if (std::any_of(run->sets.begin(), run->sets.end(), [](const auto& s) { return s->attached(); })) {
            const QDateTime started = QDateTime::fromString(job.startTime, Qt::ISODateWithMs);
            if (started.isValid())
                left = std::max<qint64>(0, ms - started.msecsTo(QDateTime::currentDateTimeUtc()));
        }
        run->runTimer->start(int(std::min<qint64>(left, std::numeric_limits<int>::max())));
    }

    void cancelRun(Run* run, const QString& message)
    {
        switch (run->phase) {
        case Phase::Done:
            return;
        case Phase::Queued:
            dropQueued(run->key);
            mutate(run->key, [](Job& j) { j.state = JobState::Cancelling; });
            finish(run, JobState::Cancelled, message);
            schedule();
            return;
        case Phase::Staging:
            mutate(run->key, [](Job& j) { j.state = JobState::Cancelling; });
            run->cancelRequested = true;
            run->cancelMessage = message;
            if (run->staging)
                run->staging->cancel();
            else
                finish(run, JobState::Cancelled, message);
            return;
        case Phase::Starting:
        case Phase::Running:
            mutate(run->key, [](Job& j) { j.state = JobState::Cancelling; });
            run->cancelRequested = true;
            run->cancelMessage = message;
            for (const auto& set : run->sets) {
                if (set->phase() != SetPhase::Done)
                    set->stop(StopReason::Cancelled, message);
            }
            if (run->study) {
                dropQueued(run->key);
                run->study->advance(); // finishes the job when no trial was running
            }
            return;
        }
    }

    /// Writes the final state, frees the job's resources and schedules what waits. Called only when no
    /// process of the job is left (the backend said stopped(), or none was ever launched).
    void finish(Run* run, JobState state, const QString& message)
    {
        run->phase = Phase::Done;
        for (QTimer* t : { run->waitTimer, run->runTimer }) {
            if (t) {
                t->stop();
                t->deleteLater();
            }
        }
        run->waitTimer = run->runTimer = nullptr;
        dropQueued(run->key);
        const bool held = run->holdsReservation();
        for (const auto& set : run->sets) {
            set->markDone();
            set->release();
        }
        if (run->study)
            run->study->endTrials(); // trials that never ran (the job ended while they waited) end with it
        if (state == JobState::Succeeded)
            service(run->key, QStringLiteral("Job completed successfully."));
        else if (state == JobState::Failed)
            service(run->key, QStringLiteral("Job failed."), LogSeverity::Error);
        else if (state == JobState::Cancelled)
            service(run->key, QStringLiteral("Job was cancelled."));
        if (state == JobState::Succeeded && !run->study && BuiltInAlgorithms::forJob(run->input)
            && !run->input.jobDir.isEmpty()) {
            // What the algorithm trained (framework, versions, the model folder), as the service reports it.
            if (const auto builtIn = BuiltInAlgorithms::readOutput(run->input.jobDir + QStringLiteral("/model"))) {
                mutate(run->key, [&builtIn](Job& j) {
                    TrainingOutput out = j.trainingOutput.value_or(TrainingOutput());
                    out.isBuiltInAlgorithmJob = true;
                    out.builtInAlgorithmOutput = builtIn;
                    j.trainingOutput = out;
                });
            }
        }
        if (run->batchWorkers > 0)
            storeBatchProgress(run); // what the workers committed, however the job ended
        logs->closeJob(run->key);
        const JobOutcome outcome { state, message, Rfc3339::now() };
        // On disk before the store: when the store cannot take it (a full disk), nothing may treat the job as
        // still running, now (the write is retried) or after an executor restart (recover() reads the file).
        const QString outcomeFile = run->folder.outcomeFile();
        const bool kept = OutcomeJournal::write(outcomeFile, outcome);
        if (recordOutcome(run->key, outcome)) {
            QFile::remove(outcomeFile);
        } else {
            service(run->key,
                QStringLiteral("The job ended (%1) but its end cannot be stored yet; it is stored as soon as the "
                               "job database takes writes again%2.")
                    .arg(jobStateName(state),
                        kept ? QStringLiteral(" (kept in %1 meanwhile)").arg(outcomeFile) : QString()),
                LogSeverity::Error);
            retryOutcome(run->key, outcome, outcomeFile);
        }
        emitReplicas(*run);
        // Final jobs keep their replica table for `…/replicas` until this many newer ones finished.
        finished.push_back(run->key);
        while (finished.size() > MaxFinishedRuns) {
            auto old = runs.find(finished.front());
            if (old != runs.end() && old->second->phase == Phase::Done)
                runs.erase(old);
            finished.pop_front();
        }
        if (held)
            QMetaObject::invokeMethod(
                q, [this] { schedule(); }, Qt::QueuedConnection);
        else
            updatePositions();
    }

    // ---- a job's end, stored for sure -----------------------------------------------------------

    /// Stores the job's end (OutcomeJournal::record()). False when the store refused the write (the job is as it
    /// was there).
    bool recordOutcome(const JobKey& key, const JobOutcome& outcome)
    {
        QString error;
        if (OutcomeJournal::record(*store, key, outcome, &error))
            return true;
        qCWarning(lcRuntime, "cannot store the end of job %s: %s", qPrintable(key.name()), qPrintable(error));
        return false;
    }

    /// Stores `outcome` again every 2 s until the store takes it, then removes `file`. The timer belongs to the
    /// scheduler, not to the run, which may be forgotten meanwhile; a shutdown drops it, and the next start
    /// reads the file instead.
    void retryOutcome(const JobKey& key, const JobOutcome& outcome, const QString& file)
    {
        auto* timer = new QTimer(q);
        timer->setInterval(2000);
        QObject::connect(timer, &QTimer::timeout, q, [this, timer, key, outcome, file] {
            if (!recordOutcome(key, outcome))
                return;
            QFile::remove(file);
            service(key, QStringLiteral("The end of the job (%1) is stored now.").arg(jobStateName(outcome.state)));
            timer->deleteLater();
        });
        timer->start();
    }

    // ---- hyperparameter tuning (the studies' host, StudyRun::Host) --------------------------------

    /// Sets up the study of a tuning job (StudyRun::open()). On failure the job fails and false is returned.
    bool openStudy(Run* run, const Job& job)
    {
        QString error;
        run->study = StudyRun::open(this, store, run, job, &error);
        if (run->study)
            return true;
        const QString message = QStringLiteral("The hyperparameter spec cannot be searched: %1").arg(error);
        service(run->key, message, LogSeverity::Error);
        finish(run, JobState::Failed, message);
        return false;
    }

    /// Queues what `run` waits for: its cluster, or its first trials (as many as may run at once).
    void enqueue(Run* run)
    {
        const int entries = run->study ? run->study->firstSlots() : 1;
        for (int i = 0; i < entries; ++i)
            queue.push_back(QueueEntry { run->key, QString() });
    }

    /// Recovers `set` (a job's cluster or one trial) after an executor restart by the one rule for both
    /// (ReplicaSetRun::recover()): taken over where it runs when `tryAttach`, its output after what the log store
    /// holds; else reclaimed, and restarted or exhausted.
    ReplicaSetRun::Recovery recoverRun(Run* run, SetRun* set, bool tryAttach) override
    {
        const JobKey key = run->key;
        const QString trialId = set->trialId();
        return set->recover(
            run->plan,
            [this, key, trialId](const QString& taskName, bool isStderr, qint64 sinceUs) {
                return logs->storedOutputLines(key, taskName, trialId, isStderr, sinceUs);
            },
            tryAttach);
    }

    void studyLog(const JobKey& key, const QString& message, LogSeverity severity, const QString& trialId) override
    {
        service(key, message, severity, trialId);
    }

    void studyAction(const JobKey& key, const char* method, const QString& message, LogSeverity severity,
        const QString& trialId) override
    {
        system(key, method, message, severity, trialId);
    }

    std::optional<Job> updateJob(const JobKey& key, const std::function<void(Job&)>& change) override
    {
        return mutate(key, change);
    }

    int queuedFor(const JobKey& key, bool newTrialsOnly) const override
    {
        return int(std::count_if(queue.begin(), queue.end(),
            [&](const QueueEntry& e) { return e.job == key && (!newTrialsOnly || e.trialId.isEmpty()); }));
    }

    void queueNewTrial(const JobKey& key) override { queue.push_back(QueueEntry { key, QString() }); }

    void dropQueued(const JobKey& key) override
    {
        std::erase_if(queue, [&](const QueueEntry& e) { return e.job == key; });
    }

    void finishJob(JobRun* job, JobState state, const QString& message) override { finish(job, state, message); }

    void scheduleSoon() override
    {
        QMetaObject::invokeMethod(
            q, [this] { schedule(); }, Qt::QueuedConnection);
    }

    void jobReplicasChanged(const JobRun& job) override { emitReplicas(job); }

    ReplicaSetRun::Owner* runOwner() override { return this; }

    void stopAllNow()
    {
        // Executor shutdown: stop everything within the grace period (≤ 5 s: a shutdown must not hang).
        // Jobs keep their stored states, so that recover() restarts them next time.
        for (const auto& [id, run] : runs) {
            if (run->staging)
                run->staging->cancel();
        }
        for (const auto& b : ownedBackends)
            b->stopAll(std::chrono::seconds(std::min(graceSeconds, 5)));
        for (const auto& [id, run] : runs) {
            for (const auto& set : run->sets)
                set->markAllStopped();
            logs->closeJob(run->key);
        }
    }

    /// The backend's reports go to the run they name (a run this executor forgot is ignored).
    void connectBackend(Backend* backend)
    {
        QObject::connect(backend, &Backend::placed, q, [this](const RunId& id, const Launch::Placement& placement) {
            if (SetRun* set = findSet(id))
                set->placed(placement);
        });
        QObject::connect(backend, &Backend::placementFailed, q, [this](const RunId& id, const QString& message) {
            if (SetRun* set = findSet(id))
                set->placementFailed(message);
        });
        QObject::connect(backend, &Backend::hostsKnown, q, [this](const RunId& id, const Launch::Placement& placement) {
            if (SetRun* set = findSet(id))
                set->hostsKnown(placement);
        });
        QObject::connect(backend, &Backend::started, q,
            [this](const RunId& id, const QString& task, qint64 pid, const QDateTime& startTime) {
                if (SetRun* set = findSet(id))
                    set->started(task, pid, startTime);
            });
        QObject::connect(
            backend, &Backend::notice, q, [this](const RunId& id, LogSeverity severity, const QString& message) {
                if (find(id.job))
                    service(id.job, message, severity, id.trialId);
            });
        QObject::connect(backend, &Backend::output, q,
            [this](const RunId& id, const QString& task, const QByteArray& bytes, bool isStderr) {
                if (SetRun* set = findSet(id))
                    set->output(task, bytes, isStderr);
                logs->appendOutput(id.job, task, id.trialId, bytes, isStderr);
            });
        QObject::connect(
            backend, &Backend::exited, q, [this](const RunId& id, const QString& task, const ReplicaExit& exit) {
                SetRun* set = findSet(id);
                if (!set || !set->awaitsExit(task))
                    return;
                logs->finishOutput(id.job, task);
                set->exited(task, exit);
            });
        QObject::connect(backend, &Backend::stopped, q, [this](const RunId& id) {
            if (SetRun* set = findSet(id))
                set->stopped();
        });
    }
};

Scheduler::Scheduler(
    JobStore* store, LogStore* logs, const HostInventory& host, const QString& dataDir, QObject* parent)
    : Scheduler(store, logs, std::make_unique<LocalBackend>(host), dataDir, parent)
{
}

Scheduler::Scheduler(
    JobStore* store, LogStore* logs, std::unique_ptr<Backend> backend, const QString& dataDir, QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->store = store;
    d->logs = logs;
    d->backend = backend.get();
    d->backend->setParent(nullptr);
    d->ownedBackends.push_back(std::move(backend));
    d->dataDir = dataDir;
    d->connectBackend(d->backend);
    d->batchProgressTimer = new QTimer(this);
    d->batchProgressTimer->setInterval(2000);
    connect(d->batchProgressTimer, &QTimer::timeout, this, [this] { d->pollBatchProgress(); });
    d->batchProgressTimer->start();
}

Scheduler::~Scheduler()
{
    if (!d->shuttingDownNow)
        shutdown();
}

void Scheduler::addBackend(std::unique_ptr<Backend> backend)
{
    backend->setParent(nullptr);
    d->connectBackend(backend.get());
    d->ownedBackends.push_back(std::move(backend));
}

const Backend* Scheduler::clusterBackend(const QString& region) const
{
    const Backend* backend = d->backendFor(region);
    return backend == d->backend ? nullptr : backend;
}

Launch::ContainerRuntime Scheduler::containerRuntime() const
{
    return d->backend->containers();
}

QList<Backend*> Scheduler::clusterBackends() const
{
    QList<Backend*> list;
    for (const auto& b : d->ownedBackends) {
        if (b.get() != d->backend)
            list << b.get();
    }
    return list;
}

QStringList Scheduler::clusterJobIds(const JobKey& key) const
{
    QStringList ids;
    const Private::Run* run = d->find(key);
    if (!run || !run->backend)
        return ids;
    for (const auto& set : run->sets) {
        const QString id = run->backend->clusterJobId(set->id());
        if (!id.isEmpty())
            ids << id;
    }
    return ids;
}

void Scheduler::submit(const QString& project, const Job& job)
{
    if (d->shuttingDownNow || isFinal(job.state))
        return;
    const JobKey key { project, job.jobId };
    if (Private::Run* existing = d->find(key); existing && existing->phase != Private::Phase::Done)
        return;
    if (d->failWithoutFolder(key, key.folder(d->backendFor(job.region())->runFolderRoot(d->dataDir))))
        return;
    Private::Run* run = d->createRun(key, job);
    d->service(key, QStringLiteral("Validating job requirements..."));
    d->service(key, QStringLiteral("Job creation request has been successfully validated."));
    d->service(key, QStringLiteral("Job %1 is queued.").arg(job.jobId));
    d->service(key, QStringLiteral("Waiting for job to be provisioned."));
    if (job.trainingInput.hyperparameters && !d->openStudy(run, job))
        return;
    d->armWaitTimer(run, job);
    d->enqueue(run);
    d->schedule();
}

bool Scheduler::cancel(const JobKey& key)
{
    Private::Run* run = d->find(key);
    if (!run) {
        // A live job this executor does not run (should not happen after recover()): just mark it.
        const std::optional<Job> job = d->store->job(key);
        if (!job || isFinal(job->state))
            return false;
        d->mutate(key, [](Job& j) {
            j.state = JobState::Cancelled;
            j.jobPosition.reset();
            j.endTime = Rfc3339::now();
        });
        return true;
    }
    if (run->phase == Private::Phase::Done)
        return false;
    if (run->cancelRequested)
        return true;
    d->service(key, QStringLiteral("Job cancellation requested."));
    d->cancelRun(run, QString());
    return true;
}

void Scheduler::recover()
{
    const QList<StoredJob> live = d->store->liveJobs();
    std::deque<Private::QueueEntry> restarted;
    for (const StoredJob& stored : live) {
        const Job& job = stored.job;
        const JobKey key = stored.key();
        if (d->find(key))
            continue;
        Backend* backend = d->backendFor(job.region());
        const QString folder = key.folder(backend->runFolderRoot(d->dataDir));
        if (d->failWithoutFolder(key, folder))
            continue;
        // Whatever of the job outlived the previous executor (a replica that escaped PR_SET_PDEATHSIG, a cluster's
        // job): reclaimed here when the job does not run again as it was; a replica set that does is recovered by
        // ReplicaSetRun::recover(), which takes it over or reclaims it.
        const QStringList trialFolders = JobFolder(folder).trialIds();
        const auto reclaimAll = [&] {
            backend->reclaim(RunId { key, QString() }, folder);
            for (const QString& trialId : trialFolders)
                backend->reclaim(RunId { key, trialId }, JobFolder(folder).trial(trialId).path());
        };
        // Ended, but the end was not stored (the job database refused the write, then this executor stopped): the
        // replicas are gone and the outcome is known, so the job must not run again.
        const QString outcomeFile = JobFolder(folder).outcomeFile();
        if (const std::optional<JobOutcome> ended = OutcomeJournal::read(outcomeFile)) {
            reclaimAll();
            d->system(key, "RecoverJob",
                QStringLiteral(
                    "The executor restarted: the job had ended (%1) before, but its end was not stored. It is "
                    "stored now, and the job does not run again.")
                    .arg(jobStateName(ended->state)),
                LogSeverity::Warning);
            if (d->recordOutcome(key, *ended))
                QFile::remove(outcomeFile);
            else
                d->retryOutcome(key, *ended, outcomeFile);
            continue;
        }
        Private::Run* run = d->createRun(key, job);
        if (job.trainingInput.hyperparameters && !d->openStudy(run, job)) {
            reclaimAll();
            continue;
        }
        // A tuning job stored as QUEUED may hold a trial already (its values were chosen, then the executor died
        // before the job moved on): it is recovered with its trials, so that no trial ID is given twice.
        const bool hasTrials = job.trainingOutput && !job.trainingOutput->trials.isEmpty();
        if (job.state == JobState::Queued && !(run->study && hasTrials)) {
            reclaimAll();
            d->armWaitTimer(run, job);
            d->system(key, "RecoverJob", QStringLiteral("The executor restarted; the job is queued again."));
            d->enqueue(run);
            continue;
        }
        if (job.state == JobState::Cancelling) {
            reclaimAll();
            d->finish(run, JobState::Cancelled, QString());
            continue;
        }
        // From here on the job goes on, its replica sets (its cluster, or each trial's) recovered by one rule: a
        // set of a job that was PREPARING or RUNNING (and did not end: no outcome file) is taken over where it runs
        // when its backend can (a cluster's job); any other is restarted, the executor's restart counting as a
        // retryable failure, or fails when its restarts are spent.
        const bool active
            = (job.state == JobState::Running || job.state == JobState::Preparing) && !QFile::exists(outcomeFile);
        if (run->study) {
            backend->reclaim(RunId { key, QString() }, folder); // a study runs no set of its own
            for (const QString& trialId : run->study->recover(job, active, trialFolders))
                restarted.push_back({ key, trialId });
            continue;
        }
        Private::SetRun* set = run->sets.front().get();
        run->recovered = true;
        switch (d->recoverRun(run, set, active)) {
        case ReplicaSetRun::Recovery::Attached:
            run->phase = job.state == JobState::Running ? Private::Phase::Running : Private::Phase::Starting;
            run->jobDirMade = true;
            d->system(key, "RecoverJob",
                QStringLiteral("The executor restarted while the job was %1; it took over the job's replicas where "
                               "they run (%2), without restarting them.")
                    .arg(jobStateName(job.state).toLower(), backend->name()),
                LogSeverity::Warning);
            if (job.state == JobState::Running)
                d->armRunTimer(run, job);
            d->emitReplicas(*run);
            break;
        case ReplicaSetRun::Recovery::Exhausted:
            d->system(key, "RecoverJob", QStringLiteral("The executor restarted while the job was running."),
                LogSeverity::Error);
            d->finish(run, JobState::Failed,
                QStringLiteral("The executor restarted while the job was running; the cluster was already "
                               "restarted %1 times, the limit; the job failed.")
                    .arg(MaxRestarts));
            break;
        case ReplicaSetRun::Recovery::Restart:
            d->system(key, "RecoverJob",
                QStringLiteral("The executor restarted while the job was %1; restarting it (restart %2 of %3).")
                    .arg(jobStateName(job.state).toLower())
                    .arg(set->restarts())
                    .arg(MaxRestarts),
                LogSeverity::Warning);
            restarted.push_back({ key, QString() });
            break;
        }
    }
    // Jobs that were running go ahead of those that were waiting.
    for (auto it = restarted.rbegin(); it != restarted.rend(); ++it)
        d->queue.push_front(*it);
    d->schedule();
}

void Scheduler::shutdown()
{
    if (d->shuttingDownNow)
        return;
    d->shuttingDownNow = true;
    d->stopAllNow();
}

QList<ReplicaInfo> Scheduler::replicas(const JobKey& key) const
{
    const Private::Run* run = d->find(key);
    return run ? d->replicaInfos(*run) : QList<ReplicaInfo>();
}

HostStatus Scheduler::usage() const
{
    const BackendUsage b = d->backend->usage();
    HostStatus u;
    u.cpus = b.host.cpus;
    u.memory = Bytes::fromBytes(b.host.memoryBytes);
    u.gpus = b.host.gpus;
    u.vcpusInUse = b.vcpusInUse;
    u.memoryInUse = b.memoryInUse;
    u.gpusInUse = b.gpusInUse;
    // This host's jobs only: a cluster's are counted by …/regions.
    const auto onThisHost = [this](const Private::Run& run) { return !run.backend || run.backend == d->backend; };
    for (const auto& [id, run] : d->runs) {
        if (run->holdsReservation() && onThisHost(*run))
            ++u.runningJobs;
    }
    QSet<JobKey> waiting;
    for (const Private::QueueEntry& e : d->queue) {
        if (const Private::Run* run = d->find(e.job); run && !run->holdsReservation() && onThisHost(*run))
            waiting.insert(e.job);
    }
    u.queuedJobs = int(waiting.size());
    return u;
}

void Scheduler::setGracePeriodSeconds(int seconds)
{
    d->graceSeconds = std::max(0, seconds);
}

void Scheduler::setBatchModelResolver(BatchModelResolver resolver)
{
    d->batchResolver = std::move(resolver);
}

} // namespace Trainyard
