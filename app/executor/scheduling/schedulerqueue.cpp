// SPDX-License-Identifier: GPL-2.0-or-later
// The Scheduler's queue (ARCHITECTURE.md "A job's life"): positions, admission, the runs it creates, their wait
// timers, batch prediction plans, and preparing a run (staging, the study's first trial) until its replica sets
// start. The rest of the Scheduler is scheduler.cpp's; its private part scheduler_p.h.
#include "scheduler_p.h"
#include "rfc3339.h"

namespace Trainyard {

bool Scheduler::Private::failWithoutFolder(const JobKey& key, const QString& folder)
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

void Scheduler::Private::updatePositions()
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

void Scheduler::Private::schedule()
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

void Scheduler::Private::planBatch(Run* run, const Job& job)
{
    const PredictionInput& in = *job.predictionInput;
    const QString planFile = run->folder.batchPlanFile();
    QString error;
    std::optional<BatchPlan> plan;
    if (QFile::exists(planFile)) {
        // A plan made before a restart: what it names is held to the rule again (it lies in the job's folder).
        plan = BatchPlan::read(planFile, &error);
        if (plan && plan->outputPath != in.outputPath) {
            error = QStringLiteral("the batch plan %1 names another output folder than the job").arg(planFile);
            plan.reset();
        }
        for (qsizetype i = 0; plan && i < plan->files.size(); ++i) {
            if (const QString why = paths.problem(plan->files.at(i).path, PathUse::InputFile); !why.isEmpty()) {
                error = QStringLiteral("predictionInput.inputPaths: %1").arg(why);
                plan.reset();
            }
        }
    } else if (!batchResolver) {
        error = QStringLiteral("this executor serves no models, so it cannot run batch prediction jobs");
    } else {
        FieldViolation violation;
        if (const std::optional<BatchModel> model = batchResolver(run->key.project, in, &violation)) {
            // A cluster's nodes are many; on this host, more workers than vCPUs only take turns.
            const int limit = run->backend == backend ? QThread::idealThreadCount() : std::numeric_limits<int>::max();
            plan = BatchPlan::make(in, *model, limit, run->folder.batchDir(), paths, &violation);
        }
        if (!plan)
            error = violation.message();
        else if (!plan->write(planFile, &error))
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
    run->batchView = plan->sandboxView();
    run->input = plan->trainingInput(BuiltInAlgorithms::packageDir(), planFile, in.region,
        in.runtimeVersion.isEmpty() ? plan->model.runtimeVersion : in.runtimeVersion);
    run->batchOutput = job.predictionOutput;
}

Scheduler::Private::Run* Scheduler::Private::createRun(const JobKey& key, const Job& job)
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

void Scheduler::Private::armWaitTimer(Run* run, const Job& job)
{
    if (!job.trainingInput.scheduling)
        return;
    const qint64 ms = job.trainingInput.scheduling->maxWaitTime.milliseconds();
    if (ms < 0)
        return;
    // Measured from createTime: the service counts queueing and preparing together.
    const QDateTime created = Rfc3339::parse(job.createTime);
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

void Scheduler::Private::prepare(Run* run)
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
        finish(run, JobState::Failed, BuiltInAlgorithms::notInstalledMessage(QStringLiteral("Batch prediction")));
        return;
    }
    QString error;
    run->interpreter = run->backend->interpreter();
    // A job whose every replica runs an image needs no interpreter here (nor a package to stage). What runs
    // is run->input: for a built-in algorithm, the bundled package in place of the image.
    const TrainingInput& input = run->input;
    if (BuiltInAlgorithms::forJob(input) && input.packageUris.isEmpty()) {
        finish(run, JobState::Failed, BuiltInAlgorithms::notInstalledMessage(input.masterConfig->imageUri));
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
    run->staging->setSandbox(&sandbox);
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

void Scheduler::Private::startSets(Run* run)
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

} // namespace Trainyard
