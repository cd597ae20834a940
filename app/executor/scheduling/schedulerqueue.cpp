// SPDX-License-Identifier: GPL-2.0-or-later
// The Scheduler's queue (ARCHITECTURE.md "A job's life"): positions, admission, the runs it creates with their
// drivers, their wait timers, and preparing a run (staging) until its replica sets start. The rest of the Scheduler is
// scheduler.cpp's; its private part scheduler_p.h.
#include "rfc3339.h"
#include "scheduler_p.h"

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
        if (!run || run->phase == Phase::Done || !run->driver->entryStands(entry.trialId)) {
            queue.pop_front();
            continue;
        }
        // The run the entry waits for: an existing one (a job's cluster, a recovered trial), or the next trial,
        // made only once it can run (its values then learn from every trial that ended while it waited).
        RunId next;
        SetRun* set = run->driver->queuedRun(entry.trialId, &next);
        const RunId id = set ? set->id() : next;
        std::optional<Reservation> reservation = backendOf(id)->admit(id, run->plan);
        if (!reservation)
            break;
        queue.pop_front();
        if (!set)
            set = run->driver->makeRun(id);
        if (!set) {
            backendOf(id)->release(id);
            run->driver->nothingLeftToRun();
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

Scheduler::Private::Run* Scheduler::Private::createRun(
    const JobKey& key, const Job& job, std::optional<BatchPlan> batchPlan, QString* error)
{
    auto run = std::make_unique<Run>();
    run->key = key;
    run->backend = backendFor(job.region());
    run->folder = JobFolder(key.folder(run->backend->runFolderRoot(dataDir)));
    run->input = job.trainingInput; // what its driver launches, unless it makes another
    run->driver = JobDriver::create(this, store, run.get(), job, std::move(batchPlan), error);
    run->plan = planCluster(run->input, MachineCatalog::builtin());
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
    if (const QString why = run->driver->setupError(); !why.isEmpty()) {
        finish(run, JobState::Failed, why);
        return;
    }
    QString error;
    run->interpreter = run->backend->interpreter();
    // A job whose every replica runs an image needs no interpreter here (nor a package to stage). What runs
    // is run->input, as its driver made it: for a built-in algorithm, the bundled package in place of the image.
    const TrainingInput& input = run->input;
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
    if (run->driver->stagingMode() == JobDriver::StagingMode::CopyBundled) {
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
    for (const auto& set : run->driver->runs()) {
        if (set->phase() == SetPhase::Idle && set->reservation())
            set->start(run->plan);
    }
    run->driver->staged();
}

} // namespace Trainyard
