// SPDX-License-Identifier: GPL-2.0-or-later
#include "scheduler.h"

#include "machinecatalog.h"
#include "processgroup.h"
#include "jobstore.h"
#include "logstore.h"
#include "outputpipe.h"
#include "runtimelogging.h"
#include "staging.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSysInfo>
#include <QTcpServer>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <deque>
#include <limits>

namespace Trainyard {

namespace {

/// The service restarts a cluster after a retryable failure at most this many times.
constexpr int MaxRestarts = 3;
/// Final jobs whose replicas (exit codes, restarts) stay in memory for `…/replicas`.
constexpr size_t MaxFinishedRuns = 200;
/// Replica output is read at most every this many ms (a batch per read, not a line; see OutputPipe).
constexpr int OutputBatchMs = 5;
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
    HostInventory host;
    QString dataDir;
    int graceSeconds = 10;
    bool shuttingDown = false;

    enum class Phase { Queued, Preparing, Running, Stopping, Done };
    enum class StopReason { None, Succeeded, Failed, Retry, Cancelled, Shutdown };

    struct Replica {
        QString taskName;
        QString role; // master | worker | ps | evaluator
        int index = 0;
        QString machineType;
        int vcpus = 0;
        QList<int> gpus;
        int port = 0;
        QString state = QStringLiteral("PENDING");
        QProcess* process = nullptr;
        OutputPipe* out = nullptr; // children of `process`
        OutputPipe* err = nullptr;
        qint64 pid = 0;
        std::optional<int> exitCode;
        std::optional<int> exitSignal;
        QByteArray stderrTail;
    };

    struct Run {
        QString jobId;
        QString folder; // <dataDir>/jobs/<jobId>
        ClusterPlan plan;
        int vcpus = 0;
        double memoryGb = 0;
        int gpuCount = 0;
        QList<int> gpus; // reserved while preparing/running
        bool holdsResources = false;
        Phase phase = Phase::Queued;
        StopReason stopReason = StopReason::None;
        QString stopMessage;
        int restarts = 0;
        bool recovered = false; // restarted after an executor restart: staging may be reused
        Staging* staging = nullptr;
        std::vector<std::unique_ptr<Replica>> replicas;
        QTimer* waitTimer = nullptr;
        QTimer* runTimer = nullptr;
        QTimer* killTimer = nullptr;
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

    // ---- resources ----------------------------------------------------------------------------

    int vcpusInUse() const
    {
        int n = 0;
        for (const auto& [id, run] : runs)
            n += run->holdsResources ? run->vcpus : 0;
        return n;
    }
    double memoryInUse() const
    {
        double n = 0;
        for (const auto& [id, run] : runs)
            n += run->holdsResources ? run->memoryGb : 0;
        return n;
    }
    QList<int> gpusInUse() const
    {
        QList<int> used;
        for (const auto& [id, run] : runs) {
            if (run->holdsResources)
                used += run->gpus;
        }
        std::sort(used.begin(), used.end());
        return used;
    }
    bool anyHolding() const
    {
        return std::any_of(runs.begin(), runs.end(), [](const auto& p) { return p.second->holdsResources; });
    }

    /// GPUs are exclusive and must fit exactly. vCPUs and memory are reservations against the host's
    /// totals, but a job alone on the host always starts: validation already rejected what the host can
    /// never hold, and a workstation commonly runs a cluster whose machine types add up to more vCPUs than
    /// it has (3 × n1-standard-4 on a 4-core laptop).
    bool fits(const Run& run, QList<int>* gpus) const
    {
        const QList<int> used = gpusInUse();
        QList<int> freeGpus;
        for (const GpuInfo& gpu : host.gpus) {
            if (!used.contains(gpu.index))
                freeGpus << gpu.index;
        }
        // Per role: GPUs of the requested accelerator type.
        QList<int> picked;
        for (const RolePlan& role : run.plan.roles) {
            const int need = role.acceleratorCount * role.count;
            if (need == 0)
                continue;
            int got = 0;
            for (int index : std::as_const(freeGpus)) {
                if (got == need)
                    break;
                if (picked.contains(index))
                    continue;
                const auto gpu = std::find_if(
                    host.gpus.begin(), host.gpus.end(), [index](const GpuInfo& g) { return g.index == index; });
                // Same rule as validation (an H100 serves a request for any GPU type the catalog predates).
                if (gpu == host.gpus.end()
                    || (!role.acceleratorType.isEmpty()
                        && !MachineCatalog::builtin().gpuSatisfies(*gpu, role.acceleratorType)))
                    continue;
                picked << index;
                ++got;
            }
            if (got < need)
                return false;
        }
        *gpus = picked;
        if (!anyHolding())
            return true;
        // GB (10^9 bytes), the unit of the machine catalog, the wizard's verdict and the status bar.
        const double hostGb = double(host.memoryBytes) / 1e9;
        return vcpusInUse() + run.vcpus <= host.cpus && memoryInUse() + run.memoryGb <= hostGb;
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

    /// Starts queued jobs in order while the head fits. Strict FIFO (no backfilling), so a big job is
    /// never starved by small ones that keep slipping past it.
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
            QList<int> gpus;
            if (!fits(*run, &gpus))
                break;
            queue.pop_front();
            run->gpus = gpus;
            run->holdsResources = true;
            if (run->waitTimer)
                run->waitTimer->stop();
            prepare(run);
        }
        updatePositions();
    }

    Run* find(const QString& jobId) const
    {
        auto it = runs.find(jobId);
        return it == runs.end() ? nullptr : it->second.get();
    }

    Run* createRun(const Job& job)
    {
        auto run = std::make_unique<Run>();
        run->jobId = job.jobId;
        run->folder = dataDir + QStringLiteral("/jobs/") + job.jobId;
        run->plan = planCluster(job.trainingInput, MachineCatalog::builtin());
        run->vcpus = run->plan.totalVcpus();
        run->memoryGb = run->plan.totalMemoryGb();
        run->gpuCount = run->plan.totalGpus();
        run->restarts = readRestarts(run->folder);
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
            startCluster(run);
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
            startCluster(run);
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
                if (r->stopReason == StopReason::Cancelled) {
                    finish(r, JobState::Cancelled, r->stopMessage);
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
                startCluster(r);
            });
        run->staging->start();
    }

    // ---- run ----------------------------------------------------------------------------------

    /// Free loopback ports, one per replica: each is bound (port 0) and held until all are picked, so
    /// no two replicas get the same one.
    static QList<int> freePorts(int n)
    {
        std::vector<std::unique_ptr<QTcpServer>> servers;
        QList<int> ports;
        for (int i = 0; i < n; ++i) {
            auto server = std::make_unique<QTcpServer>();
            if (!server->listen(QHostAddress::LocalHost, 0))
                return {};
            ports << server->serverPort();
            servers.push_back(std::move(server));
        }
        return ports;
    }

    void buildReplicas(Run* run)
    {
        run->replicas.clear();
        int gpuCursor = 0;
        for (const RolePlan& role : run->plan.roles) {
            for (int i = 0; i < role.count; ++i) {
                auto r = std::make_unique<Replica>();
                r->role = role.role;
                r->index = i;
                r->taskName = role.taskPrefix + QLatin1Char('-') + QString::number(i);
                r->machineType = role.machineType;
                r->vcpus = role.vcpus;
                for (int g = 0; g < role.acceleratorCount && gpuCursor < run->gpus.size(); ++g)
                    r->gpus << run->gpus.at(gpuCursor++);
                run->replicas.push_back(std::move(r));
            }
        }
    }

    QString executorId() const
    {
        // TF_CONFIG's task.cloud names the service deployment; here it names this host's executor.
        return QStringLiteral("trainyard-") + QSysInfo::machineHostName();
    }

    void startCluster(Run* run)
    {
        if (run->waitTimer)
            run->waitTimer->stop();
        const std::optional<Job> stored = store->job(run->jobId);
        if (!stored) {
            finish(run, JobState::Failed, QStringLiteral("the job record disappeared"));
            return;
        }
        const Job& job = *stored;
        const TrainingInput& input = job.trainingInput;
        if (run->replicas.empty())
            buildReplicas(run);
        const QList<int> ports = freePorts(int(run->replicas.size()));
        if (ports.size() != int(run->replicas.size())) {
            finish(run, JobState::Failed, QStringLiteral("cannot find free loopback ports for the replicas"));
            return;
        }
        for (size_t i = 0; i < run->replicas.size(); ++i)
            run->replicas[i]->port = ports.at(int(i));

        const bool chief = input.useChiefInTfConfig.value_or(false);
        QJsonObject cluster;
        QMap<QString, QJsonArray> byRole;
        int masterPort = 0;
        int workers = 0;
        for (const auto& r : run->replicas) {
            if (r->role == QLatin1String("master"))
                masterPort = r->port;
            if (r->role == QLatin1String("worker"))
                ++workers;
            if (r->role == QLatin1String("evaluator"))
                continue; // evaluators are never part of the cluster
            const QString key = (r->role == QLatin1String("master") && chief) ? QStringLiteral("chief") : r->role;
            byRole[key].append(QStringLiteral("127.0.0.1:%1").arg(r->port));
        }
        for (auto it = byRole.cbegin(); it != byRole.cend(); ++it)
            cluster.insert(it.key(), it.value());
        const QJsonObject inputJson = JobJson::toJson(input);

        const QString jobDir = input.jobDir;
        // On the service the job dir is a Cloud Storage prefix that every replica can write under at once;
        // here it is a folder, so it exists before the first replica looks for checkpoints in it.
        if (!jobDir.isEmpty() && !QDir().mkpath(jobDir))
            service(run->jobId, QStringLiteral("Could not create the job dir %1; the trainer may fail to write to it.")
                                    .arg(jobDir),
                QStringLiteral("WARNING"));
        const QString staging = run->folder + QStringLiteral("/staging");
        const QProcessEnvironment base = QProcessEnvironment::systemEnvironment();
        const QString inheritedPythonPath = base.value(QStringLiteral("PYTHONPATH"));
        const QString executor = executorId();

        service(run->jobId, QStringLiteral("Waiting for training program to start."));
        for (const auto& r : run->replicas) {
            QJsonObject task;
            task.insert(QStringLiteral("type"),
                (r->role == QLatin1String("master") && chief) ? QStringLiteral("chief") : r->role);
            task.insert(QStringLiteral("index"), r->index);
            task.insert(QStringLiteral("cloud"), executor);
            QJsonObject tf;
            tf.insert(QStringLiteral("cluster"), cluster);
            tf.insert(QStringLiteral("task"), task);
            tf.insert(QStringLiteral("job"), inputJson);
            tf.insert(QStringLiteral("environment"), QStringLiteral("cloud"));
            const QString tfConfig = QString::fromUtf8(QJsonDocument(tf).toJson(QJsonDocument::Compact));

            const QString replicaDir = run->folder + QStringLiteral("/replicas/") + r->taskName;
            QDir().mkpath(replicaDir + QStringLiteral("/hypertune"));

            QProcessEnvironment env = base;
            env.insert(QStringLiteral("TF_CONFIG"), tfConfig);
            env.insert(QStringLiteral("CLUSTER_SPEC"), tfConfig);
            env.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
            env.insert(QStringLiteral("MASTER_PORT"), QString::number(masterPort));
            env.insert(QStringLiteral("WORLD_SIZE"), QString::number(1 + workers));
            if (r->role == QLatin1String("master"))
                env.insert(QStringLiteral("RANK"), QStringLiteral("0"));
            else if (r->role == QLatin1String("worker"))
                env.insert(QStringLiteral("RANK"), QString::number(r->index + 1));
            else
                env.remove(QStringLiteral("RANK"));
            env.insert(QStringLiteral("CLOUD_ML_JOB_ID"), run->jobId);
            env.remove(QStringLiteral("CLOUD_ML_TRIAL_ID"));
            env.insert(
                QStringLiteral("CLOUD_ML_HP_METRIC_FILE"), replicaDir + QStringLiteral("/hypertune/output.metrics"));
            QStringList gpus;
            for (int g : std::as_const(r->gpus))
                gpus << QString::number(g);
            env.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), gpus.join(QLatin1Char(',')));
            env.insert(QStringLiteral("OMP_NUM_THREADS"), QString::number(std::max(1, r->vcpus)));
            env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
            env.insert(QStringLiteral("PYTHONPATH"),
                inheritedPythonPath.isEmpty() ? staging : staging + QLatin1Char(':') + inheritedPythonPath);
            env.insert(jobMarkerVariable(), run->folder);

            QStringList args { QStringLiteral("-m"), input.pythonModule };
            args << input.args;
            if (!jobDir.isEmpty())
                args << QStringLiteral("--job-dir") << jobDir;

            auto* process = new QProcess(q);
            process->setProcessEnvironment(env);
            process->setWorkingDirectory(replicaDir);
            process->setProgram(run->interpreter);
            process->setArguments(args);
            const QString jobId = run->jobId;
            const QString taskName = r->taskName;
            Replica* replica = r.get();
            // Output through our own batched pipes (see OutputPipe); QProcess's channels go to /dev/null.
            r->out = new OutputPipe(
                [this, jobId, taskName](
                    const QByteArray& bytes) { logs->appendOutput(jobId, taskName, QString(), bytes, false); },
                OutputBatchMs, process);
            r->err = new OutputPipe(
                [this, jobId, taskName, replica](const QByteArray& bytes) {
                    replica->stderrTail += bytes;
                    if (replica->stderrTail.size() > StderrTailBytes)
                        replica->stderrTail.remove(0, replica->stderrTail.size() - StderrTailBytes);
                    logs->appendOutput(jobId, taskName, QString(), bytes, true);
                },
                OutputBatchMs, process);
            if (r->out->open() && r->err->open()) {
                process->setStandardOutputFile(QProcess::nullDevice());
                process->setStandardErrorFile(QProcess::nullDevice());
                makeOwnProcessGroup(process, r->out->writeFd(), r->err->writeFd());
            } else {
                qCWarning(
                    lcRuntime, "cannot create output pipes for %s: %s", qPrintable(taskName), std::strerror(errno));
                makeOwnProcessGroup(process);
            }
            r->process = process;
            r->state = QStringLiteral("STARTING");
            r->exitCode.reset();
            r->exitSignal.reset();
            r->stderrTail.clear();
            r->pid = 0;
            QObject::connect(process, &QProcess::started, q, [this, jobId, process, replica] {
                replica->pid = process->processId();
                replica->out->closeWriteEnd();
                replica->err->closeWriteEnd();
                replica->state = QStringLiteral("RUNNING");
                onReplicaStarted(jobId);
            });
            QObject::connect(process, &QProcess::finished, q,
                [this, jobId, process, replica](int code, QProcess::ExitStatus status) {
                    onReplicaFinished(jobId, replica, process, code, status);
                });
            QObject::connect(
                process, &QProcess::errorOccurred, q, [this, jobId, process, replica](QProcess::ProcessError e) {
                    if (e != QProcess::FailedToStart)
                        return;
                    service(jobId,
                        QStringLiteral("The replica %1 could not be started: %2")
                            .arg(replica->taskName, process->errorString()),
                        QStringLiteral("ERROR"));
                    onReplicaFinished(jobId, replica, process, 127, QProcess::NormalExit);
                });
        }
        run->phase = Phase::Running;
        run->stopReason = StopReason::None;
        run->stopMessage.clear();
        // Start them only now: every replica's environment names every port.
        for (const auto& r : run->replicas)
            r->process->start();
        Q_EMIT q->replicasChanged(run->jobId);
    }

    void onReplicaStarted(const QString& jobId)
    {
        Run* run = find(jobId);
        if (!run)
            return;
        Q_EMIT q->replicasChanged(jobId);
        const bool all = std::all_of(run->replicas.begin(), run->replicas.end(),
            [](const auto& r) { return r->pid != 0 || r->exitCode || r->exitSignal; });
        if (!all || run->phase != Phase::Running)
            return;
        const std::optional<Job> job = store->job(jobId);
        if (!job)
            return;
        if (job->state == JobState::Running) {
            if (run->restarts > 0)
                service(
                    jobId, QStringLiteral("Job is running (restart %1 of %2).").arg(run->restarts).arg(MaxRestarts));
            armRunTimer(run, *job);
            return;
        }
        mutate(jobId, [](Job& j) {
            j.state = JobState::Running;
            j.jobPosition.reset();
            if (j.startTime.isEmpty())
                j.startTime = nowRfc3339();
        });
        service(jobId, QStringLiteral("Job is running."));
        armRunTimer(run, *job);
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

    static QString replicaName(const Replica& r) { return r.role + QLatin1Char(' ') + QString::number(r.index); }

    static QString tailText(const QByteArray& tail)
    {
        QString text = QString::fromUtf8(tail).trimmed();
        const qsizetype nl = text.indexOf(QLatin1Char('\n'));
        if (tail.size() >= StderrTailBytes && nl >= 0)
            text = text.mid(nl + 1); // drop the cut first line
        return text;
    }

    void onReplicaFinished(
        const QString& jobId, Replica* replica, QProcess* process, int code, QProcess::ExitStatus status)
    {
        Run* run = find(jobId);
        if (!run || replica->process != process)
            return;
        // What the replica wrote before it exited is in the pipes: read it before judging the exit.
        if (replica->out)
            replica->out->drain();
        if (replica->err)
            replica->err->drain();
        replica->out = replica->err = nullptr;
        logs->finishOutput(jobId, replica->taskName);
        // Qt reports the signal number as the exit code of a crashed process.
        const bool crashed = status == QProcess::CrashExit;
        if (crashed)
            replica->exitSignal = code;
        else
            replica->exitCode = code;
        replica->process = nullptr;
        process->deleteLater();

        if (run->phase == Phase::Stopping || shuttingDown) {
            replica->state = (!crashed && code == 0) ? QStringLiteral("SUCCEEDED") : QStringLiteral("STOPPED");
            Q_EMIT q->replicasChanged(jobId);
            if (!shuttingDown)
                checkStopped(run);
            return;
        }
        const QString name = replicaName(*replica);
        if (crashed || code >= 128) {
            replica->state = QStringLiteral("FAILED");
            const int sig = crashed ? code : code - 128;
            const QString message = crashed
                ? QStringLiteral("The replica %1 was killed by signal %2 (%3).").arg(name).arg(sig).arg(signalName(sig))
                : QStringLiteral("The replica %1 exited with a non-zero status of %2 (signal %3, %4).")
                      .arg(name)
                      .arg(code)
                      .arg(sig)
                      .arg(signalName(sig));
            service(jobId, message, QStringLiteral("ERROR"));
            stopCluster(run, StopReason::Retry, message);
        } else if (code != 0) {
            replica->state = QStringLiteral("FAILED");
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
            stopCluster(run, StopReason::Failed, message);
        } else {
            replica->state = QStringLiteral("SUCCEEDED");
            if (replica->role == QLatin1String("master"))
                stopCluster(run, StopReason::Succeeded, QString());
        }
        Q_EMIT q->replicasChanged(jobId);
    }

    /// SIGTERM to every replica's process group now, SIGKILL after the grace period.
    void stopCluster(Run* run, StopReason reason, const QString& message)
    {
        if (run->phase == Phase::Stopping) {
            // A cancel beats whatever was stopping the cluster; nothing else overrides the first reason.
            if (reason == StopReason::Cancelled || reason == StopReason::Shutdown) {
                run->stopReason = reason;
                run->stopMessage = message;
            }
            return;
        }
        run->phase = Phase::Stopping;
        run->stopReason = reason;
        run->stopMessage = message;
        if (reason != StopReason::Succeeded && reason != StopReason::Shutdown)
            service(run->jobId, QStringLiteral("Tearing down training program."));
        for (const auto& r : run->replicas) {
            if (r->pid)
                signalGroup(r->pid, SIGTERM);
            if (r->process && r->process->state() == QProcess::Starting)
                r->process->kill();
        }
        if (!run->killTimer) {
            run->killTimer = new QTimer(q);
            run->killTimer->setSingleShot(true);
            const QString jobId = run->jobId;
            QObject::connect(run->killTimer, &QTimer::timeout, q, [this, jobId] {
                Run* r = find(jobId);
                if (!r)
                    return;
                for (const auto& rep : r->replicas) {
                    if (rep->pid)
                        signalGroup(rep->pid, SIGKILL);
                }
            });
        }
        run->killTimer->start(graceSeconds * 1000);
        checkStopped(run);
    }

    void checkStopped(Run* run)
    {
        const bool anyAlive = std::any_of(
            run->replicas.begin(), run->replicas.end(), [](const auto& r) { return r->process != nullptr; });
        if (anyAlive || run->phase != Phase::Stopping)
            return;
        run->killTimer->stop();
        // What a replica started outside its group (or its group's stragglers) dies with the job.
        for (const auto& r : run->replicas) {
            if (r->pid)
                signalGroup(r->pid, SIGKILL);
        }
        killJobLeftovers(run->folder);
        const QString jobId = run->jobId;
        switch (run->stopReason) {
        case StopReason::Succeeded:
            finish(run, JobState::Succeeded, QString());
            break;
        case StopReason::Failed:
            finish(run, JobState::Failed, run->stopMessage);
            break;
        case StopReason::Cancelled:
            finish(run, JobState::Cancelled, run->stopMessage);
            break;
        case StopReason::Retry:
            if (run->restarts >= MaxRestarts) {
                finish(run, JobState::Failed,
                    run->stopMessage
                        + QStringLiteral(" The cluster was restarted %1 times, the limit; the job failed.")
                              .arg(MaxRestarts));
            } else {
                ++run->restarts;
                writeRestarts(run->folder, run->restarts);
                service(jobId,
                    QStringLiteral("Restarting the cluster (restart %1 of %2).").arg(run->restarts).arg(MaxRestarts),
                    QStringLiteral("WARNING"));
                for (const auto& r : run->replicas)
                    r->state = QStringLiteral("RESTARTING");
                Q_EMIT q->replicasChanged(jobId);
                startCluster(run);
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
            run->stopReason = StopReason::Cancelled;
            run->stopMessage = message;
            if (run->staging)
                run->staging->cancel();
            else
                finish(run, JobState::Cancelled, message);
            return;
        case Phase::Running:
        case Phase::Stopping:
            mutate(run->jobId, [](Job& j) { j.state = JobState::Cancelling; });
            stopCluster(run, StopReason::Cancelled, message);
            return;
        }
    }

    /// Writes the final state, frees the job's resources and schedules what waits.
    void finish(Run* run, const QString& state, const QString& message)
    {
        run->phase = Phase::Done;
        for (QTimer* t : { run->waitTimer, run->runTimer, run->killTimer }) {
            if (t) {
                t->stop();
                t->deleteLater();
            }
        }
        run->waitTimer = run->runTimer = run->killTimer = nullptr;
        std::erase(queue, run->jobId);
        const bool held = run->holdsResources;
        run->holdsResources = false;
        run->gpus.clear();
        if (state == JobState::Succeeded)
            service(run->jobId, QStringLiteral("Job completed successfully."));
        else if (state == JobState::Failed)
            service(run->jobId, QStringLiteral("Job failed."), QStringLiteral("ERROR"));
        else if (state == JobState::Cancelled)
            service(run->jobId, QStringLiteral("Job was cancelled."));
        logs->closeJob(run->jobId);
        mutate(run->jobId, [&state, &message](Job& j) {
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
        // Executor shutdown: SIGTERM everything, wait up to the grace period (≤ 5 s: a shutdown must not
        // hang), then SIGKILL what is left. Runs synchronously; jobs keep their stored states.
        QList<QProcess*> alive;
        for (const auto& [id, run] : runs) {
            if (run->staging) {
                run->staging->cancel();
            }
            for (const auto& r : run->replicas) {
                if (r->process) {
                    if (r->pid)
                        signalGroup(r->pid, SIGTERM);
                    alive << r->process;
                }
            }
        }
        QElapsedTimer clock;
        clock.start();
        const qint64 budget = std::min(graceSeconds, 5) * 1000LL;
        for (QProcess* p : std::as_const(alive)) {
            const qint64 left = budget - clock.elapsed();
            if (left > 0)
                p->waitForFinished(int(left));
        }
        for (const auto& [id, run] : runs) {
            for (const auto& r : run->replicas) {
                if (r->pid)
                    signalGroup(r->pid, SIGKILL);
                if (r->process) {
                    r->process->waitForFinished(1000);
                    r->state = QStringLiteral("STOPPED");
                }
            }
            if (run->phase != Phase::Done && run->phase != Phase::Queued)
                killJobLeftovers(run->folder);
            logs->closeJob(run->jobId);
        }
    }
};

Scheduler::Scheduler(
    JobStore* store, LogStore* logs, const HostInventory& host, const QString& dataDir, QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->store = store;
    d->logs = logs;
    d->host = host;
    d->dataDir = dataDir;
}

Scheduler::~Scheduler()
{
    if (!d->shuttingDown)
        shutdown();
}

void Scheduler::submit(const Job& job)
{
    if (d->shuttingDown || JobState::isFinal(job.state))
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
        if (!job || JobState::isFinal(job->state))
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
    if (run->stopReason == Private::StopReason::Cancelled)
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
        killJobLeftovers(folder);
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
        if (run->restarts >= MaxRestarts) {
            d->service(job.jobId, QStringLiteral("The executor restarted while the job was running."),
                QStringLiteral("ERROR"));
            d->finish(run, JobState::Failed,
                QStringLiteral("The executor restarted while the job was running; the cluster was already "
                               "restarted %1 times, the limit; the job failed.")
                    .arg(MaxRestarts));
            continue;
        }
        ++run->restarts;
        Private::writeRestarts(folder, run->restarts);
        run->recovered = true;
        d->service(job.jobId,
            QStringLiteral("The executor restarted while the job was %1; restarting it (restart %2 of %3).")
                .arg(job.state.toLower())
                .arg(run->restarts)
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

QList<ReplicaStatus> Scheduler::replicas(const QString& jobId) const
{
    QList<ReplicaStatus> list;
    const Private::Run* run = d->find(jobId);
    if (!run)
        return list;
    for (const auto& r : run->replicas) {
        ReplicaStatus s;
        s.taskName = r->taskName;
        s.role = r->role;
        s.index = r->index;
        s.state = r->state;
        s.pid = r->process ? r->pid : 0;
        s.address = r->port ? QStringLiteral("127.0.0.1:%1").arg(r->port) : QString();
        s.gpus = r->gpus;
        s.restarts = run->restarts;
        s.exitCode = r->exitCode;
        s.exitSignal = r->exitSignal;
        s.machineType = r->machineType;
        list << s;
    }
    return list;
}

HostUsage Scheduler::usage() const
{
    HostUsage u;
    u.host = d->host;
    u.vcpusInUse = d->vcpusInUse();
    u.memoryGbInUse = d->memoryInUse();
    u.gpusInUse = d->gpusInUse();
    for (const auto& [id, run] : d->runs) {
        if (run->holdsResources)
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
