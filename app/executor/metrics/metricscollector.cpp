// SPDX-License-Identifier: GPL-2.0-or-later
#include "metricscollector.h"

#include "jobfolder.h"
#include "slurmscripts.h"

#include "checkpointindex.h"

#include "backend.h"
#include "eventfilereader.h"
#include "hypertunereader.h"
#include "jobstore.h"
#include "logstore.h"
#include "metricsstore.h"
#include "resourcesampler.h"
#include "scheduler.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QPointer>
#include <QSet>
#include <QThreadPool>
#include <QTimer>

#include <cstring>
#include <limits>
#include <map>
#include <memory>

namespace Trainyard {

using namespace Trainyard::Formats;

namespace {
Q_LOGGING_CATEGORY(lcMetrics, "trainyard.executor")

/// Points written per transaction during a catch-up (see BatchQueue): a few ms of the main thread's time each
/// (bench_metrics' 3.8 M points are 77 batches, 0.32 CPU-s with the reading).
constexpr size_t MaxPointsPerBatch = 50000;

quint64 bitsOf(double d)
{
    quint64 bits = 0;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

/// What the collector keeps of one job between ticks. While a tick is in flight (`busy`), only the pool
/// thread running it touches the reading state.
struct JobCollection {
    JobKey job;
    QString jobDir;
    QString folder; // JobKey::folder()
    bool onCluster = false; // its replicas run on a cluster's nodes: their pids are not this host's
    /// Its live replicas' processes as the scheduler last told (Scheduler::replicasChanged); sampled each tick.
    QList<ReplicaProcess> processes;

    struct File {
        QString run;
        std::unique_ptr<EventFileReader> reader;
        qint64 resumeOffset = 0; // records before it are stored already (an earlier executor read them)
        qint64 storedOffset = -1;
    };
    std::map<QString, File> files; // by absolute path
    QHash<QString, qint64> storedOffsets; // from the store, for files not opened yet

    /// TensorBoard's restart-rule state of one run (ScalarRun's m_mostRecentStep and m_purgeTagsOfEvent).
    struct Rule {
        qint64 mostRecentStep = std::numeric_limits<qint64>::min();
        bool purgeTagsOfEvent = false;
    };
    std::map<QString, Rule> rules;

    std::map<QString, std::unique_ptr<HypertuneReader>> hypertune; // by file path
    /// (step, timestamp bits) stored already, by (task name, trial ID) as the series key has them; from the
    /// store at first.
    QHash<QPair<QString, QString>, QSet<QPair<qint64, quint64>>> hypertuneSeen;

    QHash<QString, qint64> nextSampleStep; // resource series name → next step
    ProcessTreeSampler sampler;
    /// A Slurm replica's samples file (`<run folder>/slurm/resources/<task>`, written on its node by the
    /// backend's task script): where reading goes on, and the last line, for the CPU time's difference.
    struct NodeSamples {
        qint64 offset = -1; // -1: not opened yet
        qint64 lastNs = 0;
        qint64 lastTicks = -1;
    };
    std::map<QString, NodeSamples> nodeSamples; // by file path

    bool busy = false;
    bool finishing = false; // the job is final: one more tick, then done
    bool tickAgain = false; // a final tick was asked for while one was in flight
};

/// The batches of one tick. A catch-up (an event file that appeared with millions of points) is cut into batches
/// of about MaxPointsPerBatch points, each ending at a record boundary and carrying its file's offset there, so
/// that each is one transaction that a crash keeps or loses whole. A full batch is handed to `ready` at once:
/// the main thread writes it while this thread reads on, and the event loop runs between the transactions, so
/// the API keeps answering (one million points in one transaction held the main thread for 3.5 s).
class BatchQueue {
public:
    BatchQueue(const JobKey& job, std::function<void(MetricBatch&&)> ready)
        : m_ready(std::move(ready))
    {
        m_current.job = job;
    }

    MetricBatch& current() { return m_current; }

    /// At a record boundary of `path`, `offset` being the record's offset: hands the batch over when it is full.
    /// Its successor keeps its series and runs, so that indices into them stay valid.
    void recordBoundary(const QString& path, qint64 offset)
    {
        if (m_current.pointCount() < MaxPointsPerBatch)
            return;
        MetricBatch next;
        next.job = m_current.job;
        next.series = m_current.series;
        next.runs = m_current.runs;
        next.points.resize(next.series.size());
        for (size_t i = 0; i < next.points.size(); ++i)
            next.points[i].reserve(m_current.points[i].size());
        m_current.fileOffsets.emplace_back(path, offset);
        m_ready(std::exchange(m_current, std::move(next)));
    }

    /// The last batch.
    MetricBatch take() { return std::move(m_current); }

private:
    std::function<void(MetricBatch&&)> m_ready;
    MetricBatch m_current;
};

/// Turns decoded events of one run into batch points and purges, applying the restart rules.
class BatchSink final : public ScalarSink {
public:
    BatchSink(BatchQueue& batches, JobCollection::Rule& rule, const QString& run)
        : m_batches(batches)
        , m_rule(rule)
        , m_run(run)
    {
    }

    /// The file read next; records before `skipBefore` only update the rule state (their points are stored already).
    void setFile(const QString& path, qint64 skipBefore)
    {
        m_path = path;
        m_skipBefore = skipBefore;
    }

    void beginEvent(const EventInfo& event) override
    {
        m_skipping = event.offset < m_skipBefore;
        if (!m_skipping)
            m_batches.recordBoundary(m_path, event.offset);
        m_rule.purgeTagsOfEvent = false;
        switch (event.kind) {
        case EventInfo::Kind::Summary:
            if (event.step < m_rule.mostRecentStep)
                m_rule.purgeTagsOfEvent = true;
            else
                m_rule.mostRecentStep = event.step;
            break;
        case EventInfo::Kind::SessionStart:
            if (!m_skipping)
                m_batches.current().purgeRun(m_run, event.step);
            m_rule.mostRecentStep = event.step;
            break;
        default:
            break;
        }
    }

    void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        if (m_skipping)
            return;
        const int index = seriesIndex(tag);
        MetricBatch& batch = m_batches.current();
        if (m_rule.purgeTagsOfEvent)
            batch.purgeSeries(index, step);
        batch.append(index, step, wallTime, value);
    }

private:
    struct Tag {
        QByteArray utf8;
        int series; ///< index in the batches' series
        int next = -1; ///< the m_tags entry whose scalar came after this one's last time
    };

    /// The batch's series index of `tag`. Trainers write their tags in the same order at every step,
    /// so the tag is looked for first where the previous tag's successor was last time, then in a hash
    /// by a view of the reader's bytes; only a new tag is copied (before, every scalar made a
    /// QByteArray to look its tag up).
    int seriesIndex(QByteArrayView tag)
    {
        const int predicted = m_last >= 0 ? m_tags[size_t(m_last)].next : -1;
        int found = predicted >= 0 && m_tags[size_t(predicted)].utf8 == tag ? predicted : -1;
        if (found < 0)
            found = m_byTag.value(QByteArray::fromRawData(tag.data(), tag.size()), -1);
        if (found < 0) {
            const QByteArray utf8 = tag.toByteArray();
            const int series
                = m_batches.current().seriesIndex({ QStringLiteral("scalar"), m_run, QString::fromUtf8(utf8), {}, {} });
            found = int(m_tags.size());
            m_tags.push_back({ utf8, series });
            m_byTag.insert(utf8, found);
        }
        if (m_last >= 0)
            m_tags[size_t(m_last)].next = found;
        m_last = found;
        return m_tags[size_t(found)].series;
    }

    BatchQueue& m_batches;
    JobCollection::Rule& m_rule;
    QString m_run;
    QString m_path;
    std::vector<Tag> m_tags;
    QHash<QByteArray, int> m_byTag; ///< index in m_tags
    int m_last = -1;
    qint64 m_skipBefore = 0;
    bool m_skipping = false;
};

struct TickResult {
    MetricBatch batch; ///< the last batch (the earlier ones of a catch-up went to `ready`)
    QStringList warnings;
};

/// One tick of one job, on a pool thread: reads what is new and samples the replicas. Full batches of a
/// catch-up go to `ready` as they fill, in order.
TickResult collect(JobCollection& job, const QList<ReplicaProcess>& replicas, GpuSampler* gpu,
    const std::function<void(MetricBatch&&)>& ready)
{
    TickResult result;
    BatchQueue batches(job.job, ready);

    // Event files, run by run, each run's files in name order (TensorBoard's order).
    if (!job.jobDir.isEmpty() && QFileInfo(job.jobDir).isDir()) {
        QString error;
        const std::vector<EventRunFiles> runs = findEventRuns(job.jobDir, &error);
        const QString root = QFileInfo(job.jobDir).canonicalFilePath();
        for (const EventRunFiles& run : runs) {
            JobCollection::Rule& rule = job.rules[run.run];
            BatchSink sink(batches, rule, run.run);
            for (const QString& path : run.files) {
                // Only files of the job dir are read and served, as its checkpoints are: not what a symlink leads
                // to outside it, nor a file with more than one hard link (its other links may lie outside).
                if (!CheckpointIndex::isInside(root, QFileInfo(path).canonicalFilePath())
                    || CheckpointIndex::hardLinks(path))
                    continue;
                auto it = job.files.find(path);
                if (it == job.files.end()) {
                    JobCollection::File file;
                    file.run = run.run;
                    file.reader = std::make_unique<EventFileReader>(path);
                    file.resumeOffset = job.storedOffsets.value(path, 0);
                    file.storedOffset = job.storedOffsets.value(path, -1);
                    it = job.files.emplace(path, std::move(file)).first;
                }
                JobCollection::File& file = it->second;
                sink.setFile(path, file.resumeOffset);
                file.reader->readAvailable(sink);
                for (const RecordIssue& issue : file.reader->takeIssues()) {
                    // Damage before the resume offset was reported by the executor that read it first.
                    if (issue.offset >= file.resumeOffset)
                        result.warnings.append(QStringLiteral("Metrics: ") + issue.message);
                }
                if (file.reader->offset() != file.storedOffset) {
                    file.storedOffset = file.reader->offset();
                    batches.current().fileOffsets.emplace_back(path, file.storedOffset);
                }
            }
        }
    }

    MetricBatch& batch = batches.current();
    // Hypertune reports of every replica that has a metrics folder (also after the replicas ended): the job's
    // replicas, and each trial's (`trials/<trialId>/replicas/<task>`), whose series carry the folder's trial.
    const JobFolder jobFolder(job.folder);
    QList<std::pair<QString, QString>> replicaDirs { { jobFolder.replicaRoot(), QString() } };
    for (const QString& trial : jobFolder.trialIds())
        replicaDirs.append({ jobFolder.trial(trial).replicaRoot(), trial });
    for (const auto& [replicasDir, folderTrial] : std::as_const(replicaDirs)) {
        const QStringList tasks = QDir(replicasDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString& task : tasks) {
            const QString path = RunFolder::hypertuneFileIn(replicasDir + QLatin1Char('/') + task);
            auto it = job.hypertune.find(path);
            if (it == job.hypertune.end()) {
                if (!QFileInfo::exists(path))
                    continue;
                it = job.hypertune.emplace(path, std::make_unique<HypertuneReader>(path)).first;
            }
            HypertuneReader& reader = *it->second;
            for (const HypertuneReport& r : reader.readNew()) {
                const QString trial = folderTrial.isEmpty() ? r.trial : folderTrial;
                QSet<QPair<qint64, quint64>>& seen = job.hypertuneSeen[{ task, trial }];
                const QPair<qint64, quint64> id { r.step, bitsOf(r.timestamp) };
                if (seen.contains(id))
                    continue;
                seen.insert(id);
                const int index = batch.seriesIndex({ QStringLiteral("hypertune"), {}, r.tag, task, trial });
                batch.append(index, r.step, r.timestamp, r.value);
            }
            for (const QString& issue : reader.takeIssues())
                result.warnings.append(QStringLiteral("Metrics: ") + issue);
        }
    }

    // Resource samples.
    const QList<ResourceSample> samples = job.sampler.sample(replicas, gpu);
    for (const ResourceSample& s : samples) {
        auto add = [&](const QString& tag, const std::optional<double>& value) {
            if (!value)
                return;
            const MetricSeriesKey key { QStringLiteral("resource"), {}, tag, s.taskName, s.trialId };
            qint64& step = job.nextSampleStep[key.name()];
            batch.append(batch.seriesIndex(key), step++, s.wallTime, *value);
        };
        add(QStringLiteral("cpu_percent"), s.cpuPercent);
        add(QStringLiteral("rss_bytes"), s.rssBytes);
        add(QStringLiteral("gpu_utilization_percent"), s.gpuUtilizationPercent);
        add(QStringLiteral("gpu_memory_bytes"), s.gpuMemoryBytes);
    }

    // Replicas on a Slurm cluster's nodes: their processes are not this host's, so their task scripts sample the
    // replica's process tree on the node (Slurm::ResourceSample, every 2 s) into the shared folder; the same series
    // as local samples. A file
    // first seen by this executor is read from its last line on (what came before is not stored twice after an
    // executor restart).
    QList<std::pair<QString, QString>> runDirs { { job.folder, QString() } };
    for (const QString& trial : jobFolder.trialIds())
        runDirs.append({ jobFolder.trial(trial).path(), trial });
    for (const auto& run : std::as_const(runDirs)) {
        const QString& trial = run.second; // a plain reference: clang's C++20 does not capture structured bindings
        const QString dir = Slurm::RunFiles::ofRunFolder(run.first).resourcesDir();
        for (const QString& task : QDir(dir).entryList(QDir::Files, QDir::Name)) {
            const QString path = dir + QLatin1Char('/') + task;
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            JobCollection::NodeSamples& state = job.nodeSamples[path];
            QByteArray text;
            if (state.offset < 0) {
                const QByteArray all = file.readAll();
                const qsizetype end = all.lastIndexOf('\n');
                const qsizetype start = end > 0 ? all.lastIndexOf('\n', end - 1) + 1 : 0;
                state.offset = start;
            }
            if (!file.seek(state.offset))
                continue;
            text = file.read(1 << 20);
            const qsizetype complete = text.lastIndexOf('\n') + 1;
            state.offset += complete;
            for (const QByteArray& line : text.left(complete).split('\n')) {
                const std::optional<Slurm::ResourceSample> sample = Slurm::ResourceSample::parse(line);
                if (!sample)
                    continue;
                const qint64 ns = sample->timeNs;
                const qint64 ticks = sample->cpuTicks;
                const qint64 hz = sample->ticksPerSecond;
                const qint64 rss = sample->rssBytes;
                const double wallTime = double(ns) / 1e9;
                auto add = [&](const QString& tag, double value) {
                    const MetricSeriesKey key { QStringLiteral("resource"), {}, tag, task, trial };
                    qint64& step = job.nextSampleStep[key.name()];
                    batch.append(batch.seriesIndex(key), step++, wallTime, value);
                };
                if (state.lastTicks >= 0 && ns > state.lastNs && ticks >= state.lastTicks)
                    add(QStringLiteral("cpu_percent"),
                        100.0 * double(ticks - state.lastTicks) / double(hz) / (double(ns - state.lastNs) / 1e9));
                add(QStringLiteral("rss_bytes"), double(rss));
                state.lastNs = ns;
                state.lastTicks = ticks;
            }
        }
    }
    result.batch = batches.take();
    return result;
}

} // namespace

struct MetricsCollector::Private {
    MetricsCollector* q = nullptr;
    MetricsStore* metrics = nullptr;
    JobStore* jobs = nullptr;
    LogStore* logs = nullptr;
    QPointer<Scheduler> scheduler;
    QString dataDir;
    bool sampleGpus = false;
    PathPolicy jobDirs;
    std::unique_ptr<GpuSampler> gpu;
    QThreadPool pool;
    QTimer timer;
    std::map<JobKey, std::unique_ptr<JobCollection>> collections;
    bool stopped = false;

    void attach(const JobKey& key, const Job& job)
    {
        if (collections.count(key))
            return;
        // A job without a folder of its own (no safe folder name: JobKey::folder()) never runs; nothing to collect.
        const Backend* cluster = scheduler ? scheduler->clusterBackend(job.trainingInput.region) : nullptr;
        const QString folder = key.folder(cluster ? cluster->runFolderRoot(dataDir) : dataDir);
        if (folder.isEmpty())
            return;
        auto c = std::make_unique<JobCollection>();
        c->job = key;
        QString why;
        if (jobDirs.allowsExistingJobDir(job.trainingInput.jobDir, &why)) {
            c->jobDir = job.trainingInput.jobDir;
        } else {
            LogEntry e;
            e.severity = logSeverityString(LogSeverity::Warning);
            e.taskName = QStringLiteral("service");
            e.message = QStringLiteral("Event files of this job are not read: %1").arg(why);
            logs->append(key, e);
        }
        // A cluster job's replica folders are in the cluster's shared folder (Backend::runFolderRoot).
        c->folder = folder;
        c->onCluster = cluster != nullptr;
        // Later changes come with Scheduler::replicasChanged.
        if (scheduler)
            c->processes = processesOf(scheduler->replicas(key));
        // What an earlier executor stored already: resume after it.
        c->storedOffsets = metrics->eventFileOffsets(key);
        const QList<MetricSeriesInfo> stored = metrics->series(key);
        for (const MetricSeriesInfo& s : stored) {
            if (s.key.kind == QLatin1String("hypertune")) {
                auto& seen = c->hypertuneSeen[{ s.key.taskName, s.key.trialId }];
                for (const MetricPoint& p : metrics->points(s.id, 0, std::numeric_limits<int>::max()))
                    seen.insert({ p.step, bitsOf(p.wallTime) });
            } else if (s.key.kind == QLatin1String("resource") && s.lastSeq > 0) {
                const QList<MetricPoint> last = metrics->points(s.id, s.lastSeq - 1, 1);
                if (!last.isEmpty())
                    c->nextSampleStep.insert(s.name, last.first().step + 1);
            }
        }
        qCDebug(lcMetrics).noquote() << "collecting metrics of" << key.name();
        metrics->setCollecting(key);
        collections.emplace(key, std::move(c));
    }

    /// The replicas that have a process now (pid > 0).
    static QList<ReplicaProcess> processesOf(const QList<ReplicaInfo>& replicas)
    {
        QList<ReplicaProcess> out;
        for (const ReplicaInfo& r : replicas) {
            if (r.pid > 0)
                out.append({ r.taskName, r.trialId, r.pid, r.gpus });
        }
        return out;
    }

    void replicasChanged(const JobKey& key, const QList<ReplicaInfo>& replicas)
    {
        if (auto it = collections.find(key); it != collections.end())
            it->second->processes = processesOf(replicas);
    }

    void tick(JobCollection* c)
    {
        if (stopped)
            return;
        if (c->busy) {
            if (c->finishing)
                c->tickAgain = true;
            return;
        }
        c->busy = true;
        const bool last = c->finishing;
        const QList<ReplicaProcess> replicas = last || c->onCluster ? QList<ReplicaProcess> {} : c->processes;
        GpuSampler* gpuSampler = gpu.get();
        // The destructor waits for the pool, so `this` outlives the task; the queued call is dropped when
        // the collector is gone by the time it would run.
        pool.start([this, c, replicas, gpuSampler, last] {
            // Queued calls to one receiver run in the order posted: every slice is written before the result.
            auto ready = [this, c](MetricBatch&& batch) {
                auto slice = std::make_shared<const MetricBatch>(std::move(batch));
                QMetaObject::invokeMethod(
                    q, [this, c, slice] { store(c, *slice); }, Qt::QueuedConnection);
            };
            auto result = std::make_shared<const TickResult>(collect(*c, replicas, gpuSampler, ready));
            QMetaObject::invokeMethod(
                q, [this, c, last, result] { finished(c, last, result); }, Qt::QueuedConnection);
        });
    }

    /// Writes one batch of a tick in its own transaction. A crash between a catch-up's batches keeps those written,
    /// each with the offset of the record after its last: the next executor reads on from there.
    void store(JobCollection* c, const MetricBatch& batch)
    {
        QString error;
        if (!metrics->apply(batch, &error))
            qCWarning(lcMetrics).noquote() << "metrics of" << c->job.name() << "lost:" << error;
    }

    void finished(JobCollection* c, bool last, const std::shared_ptr<const TickResult>& result)
    {
        for (const QString& warning : result->warnings) {
            LogEntry e;
            e.severity = logSeverityString(LogSeverity::Warning);
            e.taskName = QStringLiteral("service");
            e.message = warning;
            logs->append(c->job, e);
        }
        store(c, result->batch);
        c->busy = false;
        if (c->finishing && (!last || c->tickAgain)) {
            // The job became final while this tick ran: the final tick reads what it wrote last.
            c->tickAgain = false;
            tick(c);
            return;
        }
        if (last) {
            const JobKey key = c->job;
            collections.erase(key); // deletes c
            metrics->finishCollecting(key);
        }
    }
};

MetricsCollector::MetricsCollector(MetricsStore* metrics, JobStore* jobs, LogStore* logs, Scheduler* scheduler,
    const QString& dataDir, bool sampleGpus, QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->metrics = metrics;
    d->jobs = jobs;
    d->logs = logs;
    d->scheduler = scheduler;
    d->dataDir = dataDir;
    d->sampleGpus = sampleGpus;
    d->pool.setMaxThreadCount(2);
    d->timer.setInterval(1000);
    connect(&d->timer, &QTimer::timeout, this, [this] {
        for (const auto& [id, c] : d->collections) {
            if (!c->finishing)
                d->tick(c.get());
        }
    });
    connect(jobs, &JobStore::jobChanged, this, &MetricsCollector::onJobChanged);
    if (scheduler) {
        connect(scheduler, &Scheduler::replicasChanged, this,
            [this](const JobKey& key, const QList<ReplicaInfo>& replicas) { d->replicasChanged(key, replicas); });
    }
}

MetricsCollector::~MetricsCollector()
{
    shutdown();
}

void MetricsCollector::start()
{
    if (d->sampleGpus && !d->gpu) {
        QString why;
        d->gpu = GpuSampler::open(&why);
        if (!d->gpu)
            qCInfo(lcMetrics).noquote() << "no GPU samples:" << why;
    }
    const QList<StoredJob> live = d->jobs->liveJobs();
    for (const StoredJob& stored : live) {
        if (stored.job.state == JobState::Running || stored.job.state == JobState::Cancelling)
            d->attach(stored.key(), stored.job);
    }
    d->timer.start();
}

void MetricsCollector::setPathPolicy(const PathPolicy& policy)
{
    d->jobDirs = policy;
}

void MetricsCollector::setInterval(int ms)
{
    d->timer.setInterval(std::max(50, ms));
}

void MetricsCollector::shutdown()
{
    d->stopped = true;
    d->timer.stop();
    d->pool.waitForDone();
}

void MetricsCollector::onJobChanged(const QString& project, const Job& job)
{
    if (d->stopped)
        return;
    const JobKey key { project, job.jobId };
    if (job.state == JobState::Running) {
        d->attach(key, job);
        return;
    }
    if (!isFinal(job.state))
        return;
    const auto it = d->collections.find(key);
    if (it == d->collections.end()) {
        // Never ran (failed while preparing, cancelled in the queue): nothing will come.
        d->metrics->finishCollecting(key);
        return;
    }
    JobCollection* c = it->second.get();
    if (c->finishing)
        return;
    c->finishing = true;
    d->tick(c);
}

} // namespace Trainyard
