// SPDX-License-Identifier: GPL-2.0-or-later
#include "scheduler.h"

#include "backend.h"
#include "jobstore.h"
#include "launchspec.h"
#include "localbackend.h"
#include "logstore.h"
#include "machinecatalog.h"
#include "runtimelogging.h"
#include "staging.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSysInfo>
#include <QTimer>

#include <algorithm>
#include <cstring>
#include <deque>
#include <limits>

namespace Trainyard {

namespace {

/// The service restarts a cluster after a retryable failure at most this many times.
constexpr int MaxRestarts = 3;
/// Final jobs whose replicas (exit codes, restarts) stay in memory for `…/replicas`.
constexpr size_t MaxFinishedRuns = 200;
/// Bytes of a replica's stderr kept for the error message of a failed job.
constexpr qsizetype StderrTailBytes = 2048;

QString nowRfc3339()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

/// google.protobuf.Duration JSON ("7200s", "1.5s") in milliseconds; -1 when empty or malformed.
qint64 durationMs(const QString& text)
{
    if (!text.endsWith(QLatin1Char('s')))
        return -1;
    bool ok = false;
    const double seconds = QStringView(text).chopped(1).toDouble(&ok);
    if (!ok || seconds < 0)
        return -1;
    return qint64(seconds * 1000.0);
}

QString signalName(int sig)
{
    const char* abbrev = sigabbrev_np(sig);
    return abbrev ? QStringLiteral("SIG") + QString::fromLatin1(abbrev) : QString::number(sig);
}

} // namespace

struct Scheduler::Private {
    Scheduler* q = nullptr;
    JobStore* store = nullptr;
    LogStore* logs = nullptr;
    Backend* backend = nullptr;
    std::unique_ptr<Backend> ownedBackend;
    QString dataDir;
    int graceSeconds = 10;
    bool shuttingDown = false;

    /// A job's phase as the scheduler drives it (the stored state follows, see mutate()).
    enum class Phase { Queued, Preparing, Active, Done };
    /// A replica-set run's phase.
    enum class SetPhase { Idle, Placing, Running, Stopping, Done };
    enum class StopReason { None, Succeeded, Failed, Retry, Cancelled, Shutdown };

    struct Replica {
        Launch::ReplicaSlot slot;
        Launch::Address address;
        ReplicaState state = ReplicaState::Pending;
        bool alive = false; // launched and not yet exited
        qint64 pid = 0;
        std::optional<int> exitCode;
        std::optional<int> exitSignal;
        QByteArray stderrTail;
    };

    /// One run of the job's cluster (one per trial for a tuning job): its own replicas, restarts and
    /// supervision, above the backend.
    struct SetRun {
        RunId id;
        QString folder; // marker and restarts file: the job's folder, or <folder>/trials/<trialId>
        Launch::ReplicaSet set;
        std::vector<Replica> replicas;
        SetPhase phase = SetPhase::Idle;
        StopReason stopReason = StopReason::None;
        QString stopMessage;
        int restarts = 0;

        Replica* replica(const QString& taskName)
        {
            for (Replica& r : replicas) {
                if (r.slot.taskName == taskName)
                    return &r;
            }
            return nullptr;
        }
    };

    struct Run {
        QString jobId;
        QString folder; // <dataDir>/jobs/<jobId>
        ClusterPlan plan;
        std::optional<Reservation> reservation; // held while preparing and running
        Phase phase = Phase::Queued;
        bool cancelRequested = false;
        QString cancelMessage;
        bool recovered = false; // restarted after an executor restart: staging may be reused
        Staging* staging = nullptr;
        std::vector<std::unique_ptr<SetRun>> sets; // one today (the job's cluster)
        QTimer* waitTimer = nullptr;
        QTimer* runTimer = nullptr;
        QString interpreter;
    };

    std::map<QString, std::unique_ptr<Run>> runs;
    std::deque<QString> queue; // FIFO of jobs waiting for resources
    std::deque<QString> finished; // final jobs whose replicas are still answered, oldest first

    // ---- store helpers -------------------------------------------------------------------------

    /// Applies `change` to the stored job (read fresh, so that a concurrent labels PATCH survives) and
    /// writes it. Returns the job as written.
    template <typename F> std::optional<Job> mutate(const QString& jobId, F change)
    {
        std::optional<Job> job = store->job(jobId);
        if (!job)
            return job;
        change(*job);
        QString error;
        if (!store->update(*job, &error))
            qCWarning(lcRuntime, "cannot update job %s: %s", qPrintable(jobId), qPrintable(error));
        return job;
    }

    void service(const QString& jobId, const QString& message, const QString& severity = QStringLiteral("INFO"))
    {
        LogEntry e;
        e.severity = severity;
        e.taskName = QStringLiteral("service");
        e.message = message;
        logs->append(jobId, e);
    }

    Run* find(const QString& jobId) const
    {
        auto it = runs.find(jobId);
        return it == runs.end() ? nullptr : it->second.get();
    }

    SetRun* findSet(const RunId& id) const
    {
        Run* run = find(id.jobId);
        if (!run)
            return nullptr;
        for (const auto& set : run->sets) {
            if (set->id == id)
                return set.get();
        }
        return nullptr;
    }

    // ---- queue --------------------------------------------------------------------------------

    void updatePositions()
    {
        qint64 position = 1;
        for (const QString& jobId : queue) {
            const std::optional<Job> stored = store->job(jobId);
            if (stored && stored->state == JobState::Queued && stored->jobPosition != position) {
                const qint64 p = position;
                mutate(jobId, [p](Job& j) { j.jobPosition = p; });
            }
            ++position;
        }
    }

    /// Starts queued jobs in order while the head fits (the backend's admission). Strict FIFO (no
    /// backfilling), so a big job is never starved by small ones that keep slipping past it.
    void schedule()
    {
        if (shuttingDown)
            return;
        while (!queue.empty()) {
            Run* run = find(queue.front());
            if (!run) {
                queue.pop_front();
                continue;
            }
            std::optional<Reservation> reservation = backend->admit(RunId { run->jobId, QString() }, run->plan);
            if (!reservation)
                break;
            queue.pop_front();
            run->reservation = reservation;
            if (run->waitTimer)
                run->waitTimer->stop();
            prepare(run);
        }
        updatePositions();
    }

    Run* createRun(const Job& job)
    {
        auto run = std::make_unique<Run>();
        run->jobId = job.jobId;
        run->folder = dataDir + QStringLiteral("/jobs/") + job.jobId;
        run->plan = planCluster(job.trainingInput, MachineCatalog::builtin());
        auto set = std::make_unique<SetRun>();
        set->id = RunId { job.jobId, QString() };
        set->folder = run->folder;
        set->restarts = readRestarts(set->folder);
        run->sets.push_back(std::move(set));
        Run* raw = run.get();
        runs[job.jobId] = std::move(run);
        return raw;
    }

    static int readRestarts(const QString& folder)
    {
        QFile f(folder + QStringLiteral("/restarts"));
        if (!f.open(QIODevice::ReadOnly))
            return 0;
        return f.readAll().trimmed().toInt();
    }
    static void writeRestarts(const QString& folder, int n)
    {
        QDir().mkpath(folder);
        QFile f(folder + QStringLiteral("/restarts"));
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(QByteArray::number(n) + '\n');
    }

    void armWaitTimer(Run* run, const Job& job)
    {
        if (!job.trainingInput.scheduling)
            return;
        const qint64 ms = durationMs(job.trainingInput.scheduling->maxWaitTime);
        if (ms < 0)
            return;
        // Measured from createTime: the service counts queueing and preparing together.
        const QDateTime created = QDateTime::fromString(job.createTime, Qt::ISODateWithMs);
        const qint64 waited = created.isValid() ? created.msecsTo(QDateTime::currentDateTimeUtc()) : 0;
        run->waitTimer = new QTimer(q);
        run->waitTimer->setSingleShot(true);
        const QString jobId = run->jobId;
        const QString limit = job.trainingInput.scheduling->maxWaitTime;
        QObject::connect(run->waitTimer, &QTimer::timeout, q, [this, jobId, limit] {
            Run* r = find(jobId);
            if (!r || (r->phase != Phase::Queued && r->phase != Phase::Preparing))
                return;
            const QString message = QStringLiteral("Job was cancelled: it did not start running within "
                                                   "scheduling.maxWaitTime (%1).")
                                        .arg(limit);
            service(jobId, message, QStringLiteral("WARNING"));
            cancelRun(r, message);
        });
        run->waitTimer->start(int(std::clamp<qint64>(ms - waited, 0, std::numeric_limits<int>::max())));
    }

    // ---- prepare ------------------------------------------------------------------------------

    void prepare(Run* run)
    {
        run->phase = Phase::Preparing;
        const std::optional<Job> job = store->job(run->jobId);
        if (!job) {
            finish(run, JobState::Failed, QStringLiteral("the job record disappeared"));
            return;
        }
        QString error;
        run->interpreter = interpreterFor(job->trainingInput, &error);
        if (run->interpreter.isEmpty()) {
            finish(run, JobState::Failed, error);
            return;
        }
        const QString stagedMarker = run->folder + QStringLiteral("/staging/.trainyard-staged");
        const QByteArray packages = job->trainingInput.packageUris.join(QLatin1Char('\n')).toUtf8();
        QFile marker(stagedMarker);
        const bool staged = run->recovered && marker.open(QIODevice::ReadOnly) && marker.readAll() == packages;
        if (job->state == JobState::Running && staged) {
            // Restart after an executor restart: the packages are installed already.
            startSets(run);
            return;
        }
        mutate(run->jobId, [](Job& j) {
            j.state = JobState::Preparing;
            j.jobPosition.reset();
            if (j.startTime.isEmpty())
                j.startTime = nowRfc3339();
        });
        service(run->jobId, QStringLiteral("Job is preparing."));
        if (job->trainingInput.packageUris.isEmpty()) {
            // Nothing to install: the module must be importable by the interpreter as it is.
            QDir().mkpath(run->folder + QStringLiteral("/staging"));
            startSets(run);
            return;
        }
        run->staging = new Staging(run->folder, run->interpreter, job->trainingInput.packageUris, q);
        const QString jobId = run->jobId;
        QObject::connect(run->staging, &Staging::outputLine, q,
            [this, jobId](const QString& line) { service(jobId, line, QStringLiteral("DEBUG")); });
        QObject::connect(run->staging, &Staging::finished, q,
            [this, jobId, stagedMarker, packages](bool ok, const QString& message) {
                Run* r = find(jobId);
                if (!r)
                    return;
                r->staging->deleteLater();
                r->staging = nullptr;
                if (shuttingDown)
                    return;
                if (r->cancelRequested) {
                    finish(r, JobState::Cancelled, r->cancelMessage);
                    return;
                }
                if (!ok) {
                    service(jobId, message, QStringLiteral("ERROR"));
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

    void startSets(Run* run)
    {
        if (run->waitTimer)
            run->waitTimer->stop();
        run->phase = Phase::Active;
        const QList<int> gpus = run->reservation ? run->reservation->gpus : QList<int>();
        for (const auto& set : run->sets) {
            if (set->replicas.empty()) {
                set->set.jobId = run->jobId;
                set->set.trialId = set->id.trialId;
                set->set.replicaRoot = set->folder + QStringLiteral("/replicas");
                set->set.replicas = Launch::slotsFor(run->plan, gpus);
                for (const Launch::ReplicaSlot& slot : std::as_const(set->set.replicas))
                    set->replicas.push_back(Replica { slot, {}, ReplicaState::Pending, false, 0, {}, {}, {} });
            }
            placeSet(set.get());
        }
    }

    /// Asks the backend where the set's replicas go; onPlaced() launches them.
    void placeSet(SetRun* set)
    {
        set->phase = SetPhase::Placing;
        set->stopReason = StopReason::None;
        set->stopMessage.clear();
        backend->place(set->id, set->set);
    }

    void onPlaced(const RunId& id, const Launch::Placement& placement)
    {
        Run* run = find(id.jobId);
        SetRun* set = findSet(id);
        if (!run || !set || set->phase != SetPhase::Placing || shuttingDown)
            return;
        const std::optional<Job> stored = store->job(run->jobId);
        if (!stored) {
            finish(run, JobState::Failed, QStringLiteral("the job record disappeared"));
            return;
        }
        const TrainingInput& input = stored->trainingInput;
        // On the service the job dir is a Cloud Storage prefix that every replica can write under at once;
        // here it is a folder, so it exists before the first replica looks for checkpoints in it.
        if (!input.jobDir.isEmpty() && !QDir().mkpath(input.jobDir))
            service(run->jobId, QStringLiteral("Could not create the job dir %1; the trainer may fail to write to it.")
                                    .arg(input.jobDir),
                QStringLiteral("WARNING"));
        Launch::LaunchContext context;
        context.input = input;
        context.interpreter = run->interpreter;
        context.pythonPath = { run->folder + QStringLiteral("/staging") };
        context.cloud = executorId();
        context.jobMarker = set->folder;
        QString error;
        const QList<Launch::ReplicaLaunch> launches = Launch::buildLaunch(context, set->set, placement, &error);
        if (launches.isEmpty()) {
            service(run->jobId, error, QStringLiteral("ERROR"));
            finish(run, JobState::Failed, error);
            return;
        }
        for (size_t i = 0; i < set->replicas.size(); ++i) {
            Replica& r = set->replicas[i];
            r.address = placement.addresses.at(qsizetype(i));
            r.state = ReplicaState::Starting;
            r.alive = true;
            r.pid = 0;
            r.exitCode.reset();
            r.exitSignal.reset();
            r.stderrTail.clear();
        }
        set->phase = SetPhase::Running;
        service(run->jobId, QStringLiteral("Waiting for training program to start."));
        backend->launch(id, launches);
        Q_EMIT q->replicasChanged(run->jobId);
    }

    void onPlacementFailed(const RunId& id, const QString& message)
    {
        Run* run = find(id.jobId);
        SetRun* set = findSet(id);
        if (!run || !set || set->phase != SetPhase::Placing)
            return;
        service(run->jobId, message, QStringLiteral("ERROR"));
        finish(run, JobState::Failed, message);
    }

    void onStarted(const RunId& id, const QString& taskName, qint64 pid)
    {
        Run* run = find(id.jobId);
        SetRun* set = findSet(id);
        Replica* replica = set ? set->replica(taskName) : nullptr;
        if (!run || !replica)
            return;
        replica->pid = pid;
        if (replica->state == ReplicaState::Starting)
            replica->state = ReplicaState::Running;
        Q_EMIT q->replicasChanged(run->jobId);
        const bool all = std::all_of(set->replicas.begin(), set->replicas.end(),
            [](const Replica& r) { return r.pid != 0 || r.exitCode || r.exitSignal; });
        if (!all || set->phase != SetPhase::Running)
            return;
        const std::optional<Job> job = store->job(run->jobId);
        if (!job)
            return;
        if (job->state == JobState::Running) {
            if (set->restarts > 0)
                service(run->jobId,
                    QStringLiteral("Job is running (restart %1 of %2).").arg(set->restarts).arg(MaxRestarts));
            armRunTimer(run, *job);
            return;
        }
        mutate(run->jobId, [](Job& j) {
            j.state = JobState::Running;
            j.jobPosition.reset();
            if (j.startTime.isEmpty())
                j.startTime = nowRfc3339();
        });
        service(run->jobId, QStringLiteral("Job is running."));
        armRunTimer(run, *job);
    }

    void onOutput(const RunId& id, const QString& taskName, const QByteArray& bytes, bool isStderr)
    {
        SetRun* set = findSet(id);
        if (Replica* replica = set ? set->replica(taskName) : nullptr; replica && isStderr) {
            replica->stderrTail += bytes;
            if (replica->stderrTail.size() > StderrTailBytes)
                replica->stderrTail.remove(0, replica->stderrTail.size() - StderrTailBytes);
        }
        logs->appendOutput(id.jobId, taskName, id.trialId, bytes, isStderr);
    }

    void armRunTimer(Run* run, const Job& job)
    {
        if (run->runTimer || !job.trainingInput.scheduling)
            return;
        const QString limit = job.trainingInput.scheduling->maxRunningTime;
        const qint64 ms = durationMs(limit);
        if (ms < 0)
            return;
        run->runTimer = new QTimer(q);
        run->runTimer->setSingleShot(true);
        const QString jobId = run->jobId;
        QObject::connect(run->runTimer, &QTimer::timeout, q, [this, jobId, limit] {
            Run* r = find(jobId);
            if (!r || r->phase == Phase::Done)
                return;
            const QString message
                = QStringLiteral("Job was cancelled: it ran longer than scheduling.maxRunningTime (%1).").arg(limit);
            service(jobId, message, QStringLiteral("WARNING"));
            cancelRun(r, message);
        });
        run->runTimer->start(int(std::min<qint64>(ms, std::numeric_limits<int>::max())));
    }

    static QString replicaName(const Replica& r)
    {
        return r.slot.role + QLatin1Char(' ') + QString::number(r.slot.index);
    }

    static QString tailText(const QByteArray& tail)
    {
        QString text = QString::fromUtf8(tail).trimmed();
        const qsizetype nl = text.indexOf(QLatin1Char('\n'));
        if (tail.size() >= StderrTailBytes && nl >= 0)
            text = text.mid(nl + 1); // drop the cut first line
        return text;
    }

    /// Judges a replica's exit (ARCHITECTURE.md "A job's life", step 5): the master's 0 ends the run
    /// well; 1–127 of any replica is a permanent failure; a signal, ≥ 128 or a replica that never ran is
    /// retryable (a replica that could not start: exit 127, permanent, as a shell reports it).
    void onExited(const RunId& id, const QString& taskName, const ReplicaExit& exit)
    {
        Run* run = find(id.jobId);
        SetRun* set = findSet(id);
        Replica* replica = set ? set->replica(taskName) : nullptr;
        if (!run || !replica || !replica->alive)
            return;
        const QString jobId = run->jobId;
        logs->finishOutput(jobId, taskName);
        replica->alive = false;
        int code = exit.code;
        bool crashed = false;
        switch (exit.kind) {
        case ReplicaExit::Kind::Exited:
            replica->exitCode = code;
            break;
        case ReplicaExit::Kind::Signalled:
            crashed = true;
            code = exit.signal;
            replica->exitSignal = exit.signal;
            break;
        case ReplicaExit::Kind::FailedToStart:
            service(jobId, QStringLiteral("The replica %1 could not be started: %2").arg(taskName, exit.error),
                QStringLiteral("ERROR"));
            code = 127;
            replica->exitCode = code;
            break;
        }

        if (set->phase == SetPhase::Stopping || shuttingDown) {
            replica->state = (!crashed && code == 0) ? ReplicaState::Succeeded : ReplicaState::Stopped;
            Q_EMIT q->replicasChanged(jobId);
            return;
        }
        const QString name = replicaName(*replica);
        if (crashed || code >= 128) {
            replica->state = ReplicaState::Failed;
            const int sig = crashed ? code : code - 128;
            const QString message = crashed
                ? QStringLiteral("The replica %1 was killed by signal %2 (%3).").arg(name).arg(sig).arg(signalName(sig))
                : QStringLiteral("The replica %1 exited with a non-zero status of %2 (signal %3, %4).")
                      .arg(name)
                      .arg(code)
                      .arg(sig)
                      .arg(signalName(sig));
            service(jobId, message, QStringLiteral("ERROR"));
            stopSet(run, set, StopReason::Retry, message);
        } else if (code != 0) {
            replica->state = ReplicaState::Failed;
            QString message
                = QStringLiteral("The replica %1 exited with a non-zero status of %2. Termination reason: Error.")
                      .arg(name)
                      .arg(code);
            const QString tail = tailText(replica->stderrTail);
            if (!tail.isEmpty())
                message += QLatin1Char('\n') + tail;
            message += QStringLiteral("\nTo find out more about why your job exited please check the logs: "
                                      "trainyardctl jobs stream-logs %1")
                           .arg(jobId);
            service(jobId, QStringLiteral("The replica %1 exited with a non-zero status of %2.").arg(name).arg(code),
                QStringLiteral("ERROR"));
            stopSet(run, set, StopReason::Failed, message);
        } else {
            replica->state = ReplicaState::Succeeded;
            if (replica->slot.role == QLatin1String("master"))
                stopSet(run, set, StopReason::Succeeded, QString());
        }
        Q_EMIT q->replicasChanged(jobId);
    }

    /// Asks the backend to stop the set (SIGTERM, then SIGKILL after the grace period); the outcome is
    /// decided in onStopped(), once every process of the set is gone.
    void stopSet(Run* run, SetRun* set, StopReason reason, const QString& message)
    {
        if (set->phase == SetPhase::Stopping) {
            // A cancel beats whatever was stopping the cluster; nothing else overrides the first reason.
            if (reason == StopReason::Cancelled || reason == StopReason::Shutdown) {
                set->stopReason = reason;
                set->stopMessage = message;
            }
            return;
        }
        set->phase = SetPhase::Stopping;
        set->stopReason = reason;
        set->stopMessage = message;
        if (reason != StopReason::Succeeded && reason != StopReason::Shutdown)
            service(run->jobId, QStringLiteral("Tearing down training program."));
        backend->stop(set->id, std::chrono::seconds(graceSeconds));
    }

    void onStopped(const RunId& id)
    {
        Run* run = find(id.jobId);
        SetRun* set = findSet(id);
        if (!run || !set || set->phase != SetPhase::Stopping || shuttingDown)
            return;
        const QString jobId = run->jobId;
        // Every replica has exited by now (the backend's contract): any not seen exiting was stopped.
        for (Replica& r : set->replicas) {
            if (r.alive) {
                r.alive = false;
                r.state = ReplicaState::Stopped;
            }
        }
        switch (set->stopReason) {
        case StopReason::Succeeded:
            set->phase = SetPhase::Done;
            finish(run, JobState::Succeeded, QString());
            break;
        case StopReason::Failed:
            set->phase = SetPhase::Done;
            finish(run, JobState::Failed, set->stopMessage);
            break;
        case StopReason::Cancelled:
            set->phase = SetPhase::Done;
            finish(run, JobState::Cancelled, set->stopMessage);
            break;
        case StopReason::Retry:
            if (set->restarts >= MaxRestarts) {
                set->phase = SetPhase::Done;
                finish(run, JobState::Failed,
                    set->stopMessage
                        + QStringLiteral(" The cluster was restarted %1 times, the limit; the job failed.")
                              .arg(MaxRestarts));
            } else {
                ++set->restarts;
                writeRestarts(set->folder, set->restarts);
                service(jobId,
                    QStringLiteral("Restarting the cluster (restart %1 of %2).").arg(set->restarts).arg(MaxRestarts),
                    QStringLiteral("WARNING"));
                for (Replica& r : set->replicas)
                    r.state = ReplicaState::Restarting;
                Q_EMIT q->replicasChanged(jobId);
                // New addresses, same job dir: trainers resume from their latest checkpoint.
                placeSet(set);
            }
            break;
        case StopReason::Shutdown:
        case StopReason::None:
            break;
        }
    }

    void cancelRun(Run* run, const QString& message)
    {
        switch (run->phase) {
        case Phase::Done:
            return;
        case Phase::Queued:
            std::erase(queue, run->jobId);
            mutate(run->jobId, [](Job& j) { j.state = JobState::Cancelling; });
            finish(run, JobState::Cancelled, message);
            schedule();
            return;
        case Phase::Preparing:
            mutate(run->jobId, [](Job& j) { j.state = JobState::Cancelling; });
            run->cancelRequested = true;
            run->cancelMessage = message;
            if (run->staging)
                run->staging->cancel();
            else
                finish(run, JobState::Cancelled, message);
            return;
        case Phase::Active:
            mutate(run->jobId, [](Job& j) { j.state = JobState::Cancelling; });
            run->cancelRequested = true;
            run->cancelMessage = message;
            for (const auto& set : run->sets) {
                if (set->phase != SetPhase::Done)
                    stopSet(run, set.get(), StopReason::Cancelled, message);
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
        std::erase(queue, run->jobId);
        const bool held = run->reservation.has_value();
        run->reservation.reset();
        for (const auto& set : run->sets) {
            set->phase = SetPhase::Done;
            backend->release(set->id);
        }
        if (state == JobState::Succeeded)
            service(run->jobId, QStringLiteral("Job completed successfully."));
        else if (state == JobState::Failed)
            service(run->jobId, QStringLiteral("Job failed."), QStringLiteral("ERROR"));
        else if (state == JobState::Cancelled)
            service(run->jobId, QStringLiteral("Job was cancelled."));
        logs->closeJob(run->jobId);
        mutate(run->jobId, [state, &message](Job& j) {
            j.state = state;
            j.jobPosition.reset();
            j.endTime = nowRfc3339();
            if (!message.isEmpty() || state != JobState::Cancelled)
                j.errorMessage = message;
        });
        Q_EMIT q->replicasChanged(run->jobId);
        // Final jobs keep their replica table for `…/replicas` until this many newer ones finished.
        finished.push_back(run->jobId);
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

    void stopAllNow()
    {
        // Executor shutdown: stop everything within the grace period (≤ 5 s: a shutdown must not hang).
        // Jobs keep their stored states, so that recover() restarts them next time.
        for (const auto& [id, run] : runs) {
            if (run->staging)
                run->staging->cancel();
        }
        backend->stopAll(std::chrono::seconds(std::min(graceSeconds, 5)));
        for (const auto& [id, run] : runs) {
            for (const auto& set : run->sets) {
                for (Replica& r : set->replicas) {
                    if (r.alive) {
                        r.alive = false;
                        r.state = ReplicaState::Stopped;
                    }
                }
            }
            logs->closeJob(run->jobId);
        }
    }

    void connectBackend()
    {
        QObject::connect(backend, &Backend::placed, q,
            [this](const RunId& id, const Launch::Placement& placement) { onPlaced(id, placement); });
        QObject::connect(backend, &Backend::placementFailed, q,
            [this](const RunId& id, const QString& message) { onPlacementFailed(id, message); });
        QObject::connect(backend, &Backend::started, q,
            [this](const RunId& id, const QString& task, qint64 pid) { onStarted(id, task, pid); });
        QObject::connect(backend, &Backend::output, q,
            [this](const RunId& id, const QString& task, const QByteArray& bytes, bool isStderr) {
                onOutput(id, task, bytes, isStderr);
            });
        QObject::connect(backend, &Backend::exited, q,
            [this](const RunId& id, const QString& task, const ReplicaExit& exit) { onExited(id, task, exit); });
        QObject::connect(backend, &Backend::stopped, q, [this](const RunId& id) { onStopped(id); });
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
    d->ownedBackend = std::move(backend);
    d->backend = d->ownedBackend.get();
    d->backend->setParent(nullptr);
    d->dataDir = dataDir;
    d->connectBackend();
}

Scheduler::~Scheduler()
{
    if (!d->shuttingDown)
        shutdown();
}

void Scheduler::submit(const Job& job)
{
    if (d->shuttingDown || isFinal(job.state))
        return;
    if (Private::Run* existing = d->find(job.jobId); existing && existing->phase != Private::Phase::Done)
        return;
    Private::Run* run = d->createRun(job);
    d->service(job.jobId, QStringLiteral("Validating job requirements..."));
    d->service(job.jobId, QStringLiteral("Job creation request has been successfully validated."));
    d->service(job.jobId, QStringLiteral("Job %1 is queued.").arg(job.jobId));
    d->service(job.jobId, QStringLiteral("Waiting for job to be provisioned."));
    d->armWaitTimer(run, job);
    d->queue.push_back(job.jobId);
    d->schedule();
}

bool Scheduler::cancel(const QString& jobId)
{
    Private::Run* run = d->find(jobId);
    if (!run) {
        // A live job this executor does not run (should not happen after recover()): just mark it.
        const std::optional<Job> job = d->store->job(jobId);
        if (!job || isFinal(job->state))
            return false;
        d->mutate(jobId, [](Job& j) {
            j.state = JobState::Cancelled;
            j.jobPosition.reset();
            j.endTime = nowRfc3339();
        });
        return true;
    }
    if (run->phase == Private::Phase::Done)
        return false;
    if (run->cancelRequested)
        return true;
    d->service(jobId, QStringLiteral("Job cancellation requested."));
    d->cancelRun(run, QString());
    return true;
}

void Scheduler::recover()
{
    const QList<Job> live = d->store->liveJobs();
    std::deque<QString> restarted;
    for (const Job& job : live) {
        if (d->find(job.jobId))
            continue;
        const QString folder = d->dataDir + QStringLiteral("/jobs/") + job.jobId;
        // Whatever survived the previous executor (a replica that escaped PR_SET_PDEATHSIG) goes first.
        d->backend->reclaim(RunId { job.jobId, QString() }, folder);
        if (job.state == JobState::Queued) {
            Private::Run* run = d->createRun(job);
            d->armWaitTimer(run, job);
            d->service(job.jobId, QStringLiteral("The executor restarted; the job is queued again."));
            d->queue.push_back(job.jobId);
            continue;
        }
        Private::Run* run = d->createRun(job);
        if (job.state == JobState::Cancelling) {
            d->finish(run, JobState::Cancelled, QString());
            continue;
        }
        // PREPARING or RUNNING: the executor's restart is a retryable failure of the cluster.
        Private::SetRun* set = run->sets.front().get();
        if (set->restarts >= MaxRestarts) {
            d->service(job.jobId, QStringLiteral("The executor restarted while the job was running."),
                QStringLiteral("ERROR"));
            d->finish(run, JobState::Failed,
                QStringLiteral("The executor restarted while the job was running; the cluster was already "
                               "restarted %1 times, the limit; the job failed.")
                    .arg(MaxRestarts));
            continue;
        }
        ++set->restarts;
        Private::writeRestarts(set->folder, set->restarts);
        run->recovered = true;
        d->service(job.jobId,
            QStringLiteral("The executor restarted while the job was %1; restarting it (restart %2 of %3).")
                .arg(jobStateName(job.state).toLower())
                .arg(set->restarts)
                .arg(MaxRestarts),
            QStringLiteral("WARNING"));
        restarted.push_back(job.jobId);
    }
    // Jobs that were running go ahead of those that were waiting.
    for (auto it = restarted.rbegin(); it != restarted.rend(); ++it)
        d->queue.push_front(*it);
    d->schedule();
}

void Scheduler::shutdown()
{
    if (d->shuttingDown)
        return;
    d->shuttingDown = true;
    d->stopAllNow();
}

QList<ReplicaInfo> Scheduler::replicas(const QString& jobId) const
{
    QList<ReplicaInfo> list;
    const Private::Run* run = d->find(jobId);
    if (!run)
        return list;
    for (const auto& set : run->sets) {
        for (const Private::Replica& r : set->replicas) {
            ReplicaInfo s;
            s.taskName = r.slot.taskName;
            s.role = r.slot.role;
            s.index = r.slot.index;
            s.state = r.state;
            s.pid = r.alive ? r.pid : 0;
            s.address = r.address.port ? r.address.text() : QString();
            s.gpus = r.slot.gpus;
            s.restarts = set->restarts;
            s.exitCode = r.exitCode;
            s.exitSignal = r.exitSignal;
            s.machineType = r.slot.machineType;
            s.trialId = set->id.trialId;
            list << s;
        }
    }
    return list;
}

HostStatus Scheduler::usage() const
{
    const BackendUsage b = d->backend->usage();
    HostStatus u;
    u.cpus = b.host.cpus;
    u.memoryBytes = b.host.memoryBytes;
    u.gpus = b.host.gpus;
    u.vcpusInUse = b.vcpusInUse;
    u.memoryInUse = b.memoryInUse;
    u.gpusInUse = b.gpusInUse;
    for (const auto& [id, run] : d->runs) {
        if (run->reservation)
            ++u.runningJobs;
    }
    u.queuedJobs = int(d->queue.size());
    return u;
}

void Scheduler::setGracePeriodSeconds(int seconds)
{
    d->graceSeconds = std::max(0, seconds);
}

} // namespace Trainyard
