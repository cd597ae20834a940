// SPDX-License-Identifier: GPL-2.0-or-later
// The Scheduler: its public calls, recovery, and what it does for the runs as their owner (states, timers, cancel,
// a job's end and its outcome journal), as their drivers' host, and for the backends' signals. The queue and the
// preparing of runs are schedulerqueue.cpp's; the private part's declaration is scheduler_p.h.
#include "rfc3339.h"
#include "scheduler_p.h"

namespace Trainyard {

Scheduler::Private::SetRun* Scheduler::Private::findSet(const RunId& id) const
{
    Run* run = find(id.job);
    return run ? run->driver->findRun(id) : nullptr;
}

Launch::LaunchContext Scheduler::Private::launchContext(const ReplicaSetRun& set)
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
    context.sandbox = run->driver->launchView(set);
    return context;
}

void Scheduler::Private::runAllStarted(ReplicaSetRun& set)
{
    Run* run = find(set.id().job);
    if (!run)
        return;
    const std::optional<Job> job = store->job(run->key);
    if (!job)
        return;
    run->driver->runRunning(set, job->state);
    if (run->phase == Phase::Running)
        return;
    run->phase = Phase::Running;
    if (job->state != JobState::Running) {
        mutate(run->key, [](Job& j) {
            j.state = JobState::Running;
            j.jobPosition.reset();
            if (j.startTime.isEmpty())
                j.startTime = Rfc3339::now();
        });
        service(run->key, QStringLiteral("Job is running."));
    }
    armRunTimer(run, *job);
}

void Scheduler::Private::runEnded(ReplicaSetRun& set)
{
    if (Run* run = find(set.id().job))
        run->driver->runEnded(set);
}

void Scheduler::Private::armRunTimer(Run* run, const Job& job)
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
    const auto& sets = run->driver->runs();
    if (std::any_of(sets.begin(), sets.end(), [](const auto& s) { return s->attached(); })) {
        const QDateTime started = Rfc3339::parse(job.startTime);
        if (started.isValid())
            left = std::max<qint64>(0, ms - started.msecsTo(QDateTime::currentDateTimeUtc()));
    }
    run->runTimer->start(int(std::min<qint64>(left, std::numeric_limits<int>::max())));
}

void Scheduler::Private::cancelRun(Run* run, const QString& message)
{
    switch (run->phase) {
    case Phase::Done:
        return;
    case Phase::Queued:
        dropQueued(run->key, false);
        mutate(run->key, [&message](Job& j) {
            j.state = JobState::Cancelling;
            if (!message.isEmpty())
                j.errorMessage = message;
        });
        finish(run, JobState::Cancelled, message);
        schedule();
        return;
    case Phase::Staging:
        mutate(run->key, [&message](Job& j) {
            j.state = JobState::Cancelling;
            if (!message.isEmpty())
                j.errorMessage = message;
        });
        run->cancelRequested = true;
        run->cancelMessage = message;
        if (run->staging)
            run->staging->cancel();
        else
            finish(run, JobState::Cancelled, message);
        return;
    case Phase::Starting:
    case Phase::Running:
        mutate(run->key, [&message](Job& j) {
            j.state = JobState::Cancelling;
            if (!message.isEmpty())
                j.errorMessage = message;
        });
        run->cancelRequested = true;
        run->cancelMessage = message;
        for (const auto& set : run->driver->runs()) {
            if (set->phase() != SetPhase::Done)
                set->stop(StopReason::Cancelled, message);
        }
        run->driver->cancelling();
        return;
    }
}

void Scheduler::Private::finish(Run* run, JobState state, const QString& message)
{
    run->phase = Phase::Done;
    for (QTimer* t : { run->waitTimer, run->runTimer }) {
        if (t) {
            t->stop();
            t->deleteLater();
        }
    }
    run->waitTimer = run->runTimer = nullptr;
    dropQueued(run->key, false);
    const bool held = run->holdsReservation();
    for (const auto& set : run->driver->runs()) {
        set->markDone();
        set->release();
    }
    if (state == JobState::Succeeded)
        service(run->key, QStringLiteral("Job completed successfully."));
    else if (state == JobState::Failed)
        service(run->key, QStringLiteral("Job failed."), LogSeverity::Error);
    else if (state == JobState::Cancelled)
        service(run->key, QStringLiteral("Job was cancelled."));
    run->driver->ending(state);
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
                .arg(
                    jobStateName(state), kept ? QStringLiteral(" (kept in %1 meanwhile)").arg(outcomeFile) : QString()),
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

void Scheduler::Private::retryOutcome(const JobKey& key, const JobOutcome& outcome, const QString& file)
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

void Scheduler::Private::recoverRuns(
    Run* run, const Job& job, bool tryAttach, const QStringList& trialFolders, std::deque<QueueEntry>* restarted)
{
    const JobKey key = run->key;
    int running = 0;
    int attached = 0;
    for (ReplicaSetRun* set : run->driver->runsToRecover(job, trialFolders)) {
        const QString trialId = set->trialId();
        const JobDriver::RunWords words = run->driver->words(*set, job.state);
        const ReplicaSetRun::Recovery recovery = set->recover(
            run->plan,
            [this, key, trialId](const QString& taskName, bool isStderr, qint64 sinceUs) {
                return logs->storedOutputLines(key, taskName, trialId, isStderr, sinceUs);
            },
            tryAttach);
        switch (recovery) {
        case ReplicaSetRun::Recovery::Attached:
            system(key, "RecoverJob",
                QStringLiteral("The executor restarted while %1; it took over %2 replicas where they run (%3), without "
                               "restarting them.")
                    .arg(words.was, words.whose, run->backend->name()),
                LogSeverity::Warning, trialId);
            ++attached;
            ++running;
            run->driver->runAttached(*set);
            break;
        case ReplicaSetRun::Recovery::Exhausted: {
            const QString message = QStringLiteral(
                "The executor restarted while %1; its cluster was already restarted %2 times, the limit.")
                                        .arg(words.was)
                                        .arg(MaxRestarts);
            system(key, "RecoverJob", message, LogSeverity::Error, trialId);
            set->markDone();
            run->driver->runExhausted(*set, message);
            break;
        }
        case ReplicaSetRun::Recovery::Restart:
            system(key, "RecoverJob",
                QStringLiteral("The executor restarted while %1; restarting it (restart %2 of %3).")
                    .arg(words.was)
                    .arg(set->restarts())
                    .arg(MaxRestarts),
                LogSeverity::Warning, trialId);
            ++running;
            restarted->push_back({ key, trialId });
            break;
        }
    }
    if (run->phase == Phase::Done)
        return;
    run->recovered = true;
    if (attached > 0) {
        // The job is active already: staged, its job dir made.
        run->phase = job.state == JobState::Running ? Phase::Running : Phase::Starting;
        run->jobDirMade = true;
        if (job.state == JobState::Running)
            armRunTimer(run, job);
        emitReplicas(*run);
    }
    for (const QString& trialId : run->driver->recovered(running))
        restarted->push_back({ key, trialId });
}

void Scheduler::Private::stopAllNow()
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
        for (const auto& set : run->driver->runs())
            set->markAllStopped();
        logs->closeJob(run->key);
    }
}

void Scheduler::Private::connectBackend(Backend* backend)
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
    // A prediction node's reservation given back may be what a queued job waits for.
    if (auto* local = qobject_cast<LocalBackend*>(d->backend))
        connect(local, &LocalBackend::nodeReleased, this, [this] { d->schedule(); });
    d->pollTimer = new QTimer(this);
    d->pollTimer->setInterval(2000);
    connect(d->pollTimer, &QTimer::timeout, this, [this] { d->pollRuns(); });
    d->pollTimer->start();
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

const Backend* Scheduler::hostBackend() const
{
    return d->backend;
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
    for (const auto& set : run->driver->runs()) {
        const QString id = run->backend->clusterJobId(set->id());
        if (!id.isEmpty())
            ids << id;
    }
    return ids;
}

void Scheduler::submit(const QString& project, const Job& job, std::optional<BatchPlan> batchPlan)
{
    if (d->shuttingDownNow || isFinal(job.state))
        return;
    const JobKey key { project, job.jobId };
    if (Private::Run* existing = d->find(key); existing && existing->phase != Private::Phase::Done)
        return;
    if (d->failWithoutFolder(key, key.folder(d->backendFor(job.region())->runFolderRoot(d->dataDir))))
        return;
    QString error;
    Private::Run* run = d->createRun(key, job, std::move(batchPlan), &error);
    d->service(key, QStringLiteral("Validating job requirements..."));
    d->service(key, QStringLiteral("Job creation request has been successfully validated."));
    d->service(key, QStringLiteral("Job %1 is queued.").arg(job.jobId));
    d->service(key, QStringLiteral("Waiting for job to be provisioned."));
    if (!error.isEmpty()) {
        d->service(key, error, LogSeverity::Error);
        d->finish(run, JobState::Failed, error);
        return;
    }
    d->armWaitTimer(run, job);
    d->enqueue(run);
    d->schedule();
}

bool Scheduler::cancel(const JobKey& key)
{
    Private::Run* run = d->find(key);
    // The service says why a job ended: CANCELLING and CANCELLED carry the reason in errorMessage (the ml v1 Job.state
    // enum: "error_message should describe the reason for the cancellation").
    const QString message = QStringLiteral("Job was cancelled by a request to cancel it (projects.jobs.cancel).");
    if (!run) {
        // A live job this executor does not run (should not happen after recover()): just mark it.
        const std::optional<Job> job = d->store->job(key);
        if (!job || isFinal(job->state))
            return false;
        d->mutate(key, [&message](Job& j) {
            j.state = JobState::Cancelled;
            j.jobPosition.reset();
            j.endTime = Rfc3339::now();
            j.errorMessage = message;
        });
        return true;
    }
    if (run->phase == Private::Phase::Done)
        return false;
    if (run->cancelRequested)
        return true;
    d->service(key, QStringLiteral("Job cancellation requested."));
    d->cancelRun(run, message);
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
        QString error;
        Private::Run* run = d->createRun(key, job, std::nullopt, &error);
        if (!error.isEmpty()) {
            d->service(key, error, LogSeverity::Error);
            d->finish(run, JobState::Failed, error);
            reclaimAll();
            continue;
        }
        // A tuning job stored as QUEUED may hold a trial already (its values were chosen, then the executor died
        // before the job moved on): it is recovered with its trials, so that no trial ID is given twice.
        if (job.state == JobState::Queued && !run->driver->recoversWhenQueued(job)) {
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
        d->recoverRuns(run, job, active, trialFolders, &restarted);
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
    u.predictionNodes = b.predictionNodes;
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

NodeCapacity* Scheduler::nodeCapacity() const
{
    return qobject_cast<LocalBackend*>(d->backend);
}

void Scheduler::setGracePeriodSeconds(int seconds)
{
    d->graceSeconds = std::max(0, seconds);
}

void Scheduler::setPathPolicy(const PathPolicy& paths)
{
    d->paths = paths;
}

void Scheduler::setSandbox(const Sandbox& sandbox)
{
    d->sandbox = sandbox;
    if (auto* local = qobject_cast<LocalBackend*>(d->backend))
        local->setSandbox(sandbox);
}

} // namespace Trainyard
