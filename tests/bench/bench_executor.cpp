// SPDX-License-Identifier: GPL-2.0-or-later
// bench_executor: what the executor adds to the work of running replicas.
//
// 1. spawn_1_8_4: create (JobStore insert + Scheduler::submit) until all 13 replicas of a 1 master +
//    8 workers + 4 ps cluster of a trivial module have started, against starting the same 13 processes
//    (same interpreter, arguments and environment) directly with QProcess. Median of several rounds.
//    The job has no packageUris (nothing to stage: the module is on the inherited PYTHONPATH), so the
//    figure is the scheduler's own cost, not pip's.
// 2. log_ingest: one replica copies a file of log lines to stdout; ours = replica output → LogStore
//    (severity detection, JSONL files) → a live subscriber, until the subscriber has every line;
//    baseline = `cat` of the same file into a file. Lines/s, and the process's peak RSS before and after.
//
// 3. jobs_list_page: one page (20 jobs, the service's default) of `jobs.list` with 10,000 stored jobs:
//    ours = what the API's handler does (JobStore::listPage + the reply body); baseline = reading the
//    same rows' JSON from SQLite on a plain connection, no decoding. Median of many pages.
// 4. job_list_change: the console's job list with 10,000 jobs, per change of one job: ours = decode
//    the stream event's job + JobListModel::updateJobs under a sorting proxy (as the table sees it);
//    baseline = what the console did every 2 s before the job stream (decode the 10,000 jobs of every
//    page + JobListModel::setJobs), not counting the executor's own decodes for those pages.
// 5. log_page: page 1,000 (entries 999,000 … 999,999 of the merged order; at 10,000 a page, the last page) of a
//    job whose four replica logs hold 10 million lines together (BENCH_LOG_PAGE_LINES; 0 skips), through the
//    API: ours = `GET …/logs?pageSize=N&pageToken=…` answered by HttpApi::serve(), the router and the handler as
//    over HTTP (a cached page of a finished job copied on the event loop, a bigger one read on the pool) without a
//    socket; `_http` = the same GET over a loopback socket (a blocking client on its own thread, the executor's
//    event loop on the main thread), while a second client GETs the job over and over (the latency it sees is
//    printed: the executor keeps answering). Baseline = open + pread + close of the same bytes of the same files,
//    run by run with ours. 21 runs (BENCH_RUNS) after 3 warm-ups; ratio of medians. The files are written directly
//    in the store's on-disk format; the first read after the start builds the line index (its own line).
// 6. container_start: the service's custom containers against plain process replicas (issue 16): create until
//    SUCCEEDED of a 1-replica job whose replica runs `python3 -c pass`, ours = in a container of
//    localhost/trainyard-py:bookworm (podman run --init --network=host …, then the container's removal),
//    baseline = the same job as a process replica (`python3 -m tytest.trivial`). Alternated run by run,
//    BENCH_RUNS after a warm-up; ratio of medians, and the difference in ms. Needs root, podman and the image
//    (packaging/container-images.sh); otherwise says why and skips. BENCH_CONTAINERS=0 skips it.
// 7. slurm_submit_to_running and slurm_state_latency (issue 14): a 1 master + 2 workers + 1 parameter server job on
//    the Slurm test cluster (packaging/slurm-testcluster.sh; needs root) against `sbatch` of the same het job by
//    hand, and how soon the job's end shows against slurmrestd's own report; benchSlurm() says how. BENCH_SLURM=0
//    skips it.
//
// Prints `NAME: ours X unit, baseline Y unit, ratio R` lines (ratio = ours / baseline) with X and Y medians of
// repeated runs after a warm-up (benchreport.h says why), a `_detail` line with min / median / max of each, and a
// `goal:` line per goal: jobs_list_page and jobs_list_page_deep ≤ 3 (issue 12), log_page_1000_of_10M ≤ 3 (issue
// 12, in process). spawn, log ingestion and the list's change have no numeric goal. Wall
// time throughout: each measurement spans processes or threads (the executor, replicas, an HTTP client).
#include "benchreport.h"
#include "clusterconfig.h"
#include "executorenvironment.h"
#include "httpapi.h"
#include "jobfilter.h"
#include "jobkeys.h"
#include "joblistmodel.h"
#include "jobstore.h"
#include "logstore.h"
#include "loopbackhttp.h"
#include "scheduler.h"
#include "slurmbackend.h"
#include "slurmrestclient.h"
#include "slurmtestcluster.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QProcess>
#include <QScopeGuard>
#include <QSortFilterProxyModel>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace Trainyard;

namespace {

const QString TrainerDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");
const QString Python = QStringLiteral("/usr/bin/python3");

double peakRssMiB()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

double cpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double median(const QList<double>& v)
{
    return v.isEmpty() ? 0 : BenchReport::median(std::vector<double>(v.begin(), v.end()));
}

BenchReport::Spread spreadOf(const QList<double>& v)
{
    return BenchReport::spread(std::vector<double>(v.begin(), v.end()));
}

std::vector<BenchReport::Goal>& goals()
{
    static std::vector<BenchReport::Goal> all;
    return all;
}

void printGoals()
{
    for (const BenchReport::Goal& g : goals())
        BenchReport::printGoal(g);
}

/// Runs the event loop until `done()` or `timeoutMs`; returns whether done() became true.
template <typename F> bool spinUntil(F done, int timeoutMs = 120000)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    }
    return true;
}

/// Writes `YYYY-MM-DDTHH:MM:SS.ffffffZ` (27 bytes) of µs since the epoch, caching the second's prefix.
void formatUs(qint64 us, char* out)
{
    static qint64 cachedSecond = -1;
    static char prefix[21];
    const qint64 second = us / 1000000;
    if (second != cachedSecond) {
        const QDateTime t = QDateTime::fromSecsSinceEpoch(second, Qt::UTC);
        std::memcpy(prefix, t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.")).toLatin1().constData(), 20);
        cachedSecond = second;
    }
    std::memcpy(out, prefix, 20);
    qint64 frac = us % 1000000;
    for (int i = 25; i >= 20; --i) {
        out[i] = char('0' + frac % 10);
        frac /= 10;
    }
    out[26] = 'Z';
}

Job clusterJob(const QString& id, const QString& module, int workers, int ps, const QStringList& args)
{
    Job job = Test::customJob(id, module, workers, ps);
    job.trainingInput.args = args;
    return job;
}

} // namespace

/// Parts 3 and 4 (see the top); returns non-zero on failure.
int benchJobList(const QString& dir)
{
    constexpr int Jobs = 10000;
    constexpr int PageSize = 20;
    JobStore store;
    QString error;
    const QString path = dir + QStringLiteral("/jobs.sqlite");
    if (!store.open(path, &error)) {
        std::fprintf(stderr, "cannot open the job store: %s\n", qPrintable(error));
        return 1;
    }
    QElapsedTimer fill;
    fill.start();
    for (int i = 0; i < Jobs; ++i) {
        Job job = clusterJob(QStringLiteral("list_%1").arg(i, 5, 10, QLatin1Char('0')),
            QStringLiteral("tytest.trivial"), i % 4, i % 2, { QStringLiteral("--epochs"), QString::number(i % 10) });
        job.labels.insert(QStringLiteral("owner"), i % 10 == 0 ? QStringLiteral("alice") : QStringLiteral("bob"));
        job.state = i % 3 == 0 ? JobState::Failed : JobState::Succeeded;
        if (!store.insert(job, &error)) {
            std::fprintf(stderr, "cannot store a job: %s\n", qPrintable(error));
            return 1;
        }
    }
    const double fillSeconds = double(fill.nsecsElapsed()) / 1e9;

    // ---- 3. one page ----
    const QString project = JobStore::defaultProject();
    auto page = [&](const JobFilter& filter, const QString& after) {
        QList<JobRecord> records;
        bool more = false;
        store.listPage(project, filter, PageSize, after, &records, &more, &error);
        QByteArray body = "{\"jobs\":[";
        for (const JobRecord& r : std::as_const(records))
            body += r.json + ',';
        body += "]}";
        return std::make_pair(records.size(), body.size());
    };
    QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bench-raw"));
    raw.setDatabaseName(path);
    raw.open();
    auto rawPage = [&](qint64 beforeSeq) {
        QSqlQuery q(raw);
        q.setForwardOnly(true);
        q.prepare(
            QStringLiteral("SELECT job_id, json FROM jobs WHERE project = ? AND seq < ? ORDER BY seq DESC LIMIT ?"));
        q.addBindValue(project);
        q.addBindValue(beforeSeq);
        q.addBindValue(PageSize);
        q.exec();
        qsizetype n = 0, bytes = 0;
        while (q.next()) {
            bytes += q.value(1).toString().toUtf8().size();
            ++n;
        }
        return std::make_pair(n, bytes);
    };
    const JobFilter all = *JobFilter::parse({}, &error);
    const JobFilter labelled = *JobFilter::parse(QStringLiteral("labels.owner=alice AND state:FAILED"), &error);
    const JobFilter timed = *JobFilter::parse(QStringLiteral("createTime>=\"2000-01-01T00:00:00Z\""), &error);
    // 200 pages each after 20 warm-up pages, ours and the raw read alternating page by page.
    constexpr int Reps = 200;
    constexpr int PageWarmups = 20;
    auto ms = [](auto fn) {
        const double start = BenchReport::wallSeconds();
        fn();
        return (BenchReport::wallSeconds() - start) * 1000;
    };
    const qint64 decodesBefore = JobStore::decodeCount();
    const BenchReport::Samples first = BenchReport::alternate(
        PageWarmups, Reps, [&] { return ms([&] { page(all, {}); }); }, [&] { return ms([&] { rawPage(LLONG_MAX); }); });
    const BenchReport::Samples deep = BenchReport::alternate(
        PageWarmups, Reps, [&] { return ms([&] { page(all, QStringLiteral("list_05000")); }); },
        [&] { return ms([&] { rawPage(Jobs - 5000); }); });
    const std::vector<double> label
        = BenchReport::repeat(PageWarmups, Reps, [&] { return ms([&] { page(labelled, {}); }); });
    const qint64 decodes = JobStore::decodeCount() - decodesBefore;
    const std::vector<double> timedFilter
        = BenchReport::repeat(PageWarmups, Reps, [&] { return ms([&] { page(timed, {}); }); });
    const double labelOurs = BenchReport::median(label), timedOurs = BenchReport::median(timedFilter);
    // The handler before this change: decode every stored job, then filter and page.
    QList<double> oldSamples;
    for (int i = 0; i < 1 + 5; ++i) { // the first is a warm-up
        QElapsedTimer t;
        t.start();
        const QList<StoredJob> every = store.jobs();
        QJsonArray jobs;
        for (int j = int(every.size()) - 1; j >= 0 && jobs.size() < PageSize; --j)
            jobs.append(JobJson::toJson(every.at(j).job));
        if (i > 0)
            oldSamples << double(t.nsecsElapsed()) / 1e6;
    }
    const double oldPage = median(oldSamples);
    const double firstRatio = BenchReport::median(first.ours) / BenchReport::median(first.baseline);
    const double deepRatio = BenchReport::median(deep.ours) / BenchReport::median(deep.baseline);
    BenchReport::printLine("jobs_list_page", first, "ms", firstRatio, PageWarmups, "wall time, one page each");
    BenchReport::printLine("jobs_list_page_deep", deep, "ms", deepRatio, PageWarmups, "wall time, one page each");
    goals().push_back({ "jobs_list_page", "ratio", firstRatio, false, 3 });
    goals().push_back({ "jobs_list_page_deep", "ratio", deepRatio, false, 3 });
    std::printf("jobs_list_page_context: %d jobs stored (%.1f s to insert, one durable transaction each); page of %d; "
                "label+state filter %.3f ms; time filter (decoded rows) %.3f ms; JSON decodes for %d unfiltered, "
                "deep and label pages: %lld; the handler before this change (decode all, then page): %.1f ms a page\n",
        Jobs, fillSeconds, PageSize, labelOurs, timedOurs, 3 * Reps, decodes, oldPage);

    // ---- 4. the console's list, per change ----
    QList<Job> jobs;
    for (const StoredJob& stored : store.jobs())
        jobs << stored.job;
    QList<QByteArray> jsons;
    jsons.reserve(jobs.size());
    for (const Job& job : std::as_const(jobs))
        jsons << QJsonDocument(JobJson::toJson(job)).toJson(QJsonDocument::Compact);
    JobListModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(JobListModel::SortRole);
    proxy.setDynamicSortFilter(true);
    proxy.sort(JobListModel::CreatedColumn, Qt::DescendingOrder);
    model.updateJobs(jobs);
    auto decodeJson = [](const QByteArray& json) {
        FieldViolations violations;
        return JobJson::fromJson(QJsonDocument::fromJson(json).object(), &violations);
    };
    QList<double> changeSamples;
    for (int i = 0; i < PageWarmups + Reps; ++i) {
        Job changed = jobs.at((i * 37) % Jobs);
        changed.labels.insert(QStringLiteral("step"), QString::number(i));
        const QByteArray event = QJsonDocument(JobJson::toJson(changed)).toJson(QJsonDocument::Compact);
        QElapsedTimer t;
        t.start();
        model.updateJobs({ decodeJson(event) });
        if (i >= PageWarmups)
            changeSamples << double(t.nsecsElapsed()) / 1e6;
    }
    const double perChange = median(changeSamples);
    QList<double> refreshSamples;
    const int refreshRuns = BenchReport::runs();
    for (int i = 0; i < 1 + refreshRuns; ++i) { // the first is a warm-up
        jobs[(i * 37) % Jobs].labels.insert(QStringLiteral("step"), QStringLiteral("r%1").arg(i));
        jsons[(i * 37) % Jobs]
            = QJsonDocument(JobJson::toJson(jobs.at((i * 37) % Jobs))).toJson(QJsonDocument::Compact);
        QElapsedTimer t;
        t.start();
        QList<Job> listed;
        listed.reserve(jsons.size());
        for (const QByteArray& json : std::as_const(jsons))
            listed << decodeJson(json);
        model.setJobs(listed);
        if (i > 0)
            refreshSamples << double(t.nsecsElapsed()) / 1e6;
    }
    const double perRefresh = median(refreshSamples);
    std::printf(
        "job_list_change: ours %.4g ms, baseline %.4g ms, ratio %.3g\n", perChange, perRefresh, perChange / perRefresh);
    std::printf("job_list_change_detail: ours %s (%d changes after %d); baseline %s (%d refreshes after 1)\n",
        BenchReport::describe(spreadOf(changeSamples), "ms").c_str(), Reps, PageWarmups,
        BenchReport::describe(spreadOf(refreshSamples), "ms").c_str(), refreshRuns);
    std::printf("job_list_change_context: %d rows under a sorting proxy; ours = 1 JSON decode + 1 row update per "
                "change; baseline = %d client decodes + setJobs every 2 s, and the executor then decoded all %d jobs "
                "for each of the %d pages of 100 (%d decodes a refresh, ~%.0f ms of executor time at the old "
                "page cost above)\n",
        Jobs, Jobs, Jobs, Jobs / 100, Jobs / 100 * Jobs, oldPage * (Jobs / 100));
    raw.close();
    raw = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("bench-raw"));
    return 0;
}

/// Part 7 (issue 14): a 1 master + 2 workers + 1 parameter server job of tytest.hold on the Slurm test cluster
/// (packaging/slurm-testcluster.sh, found running or started and stopped again; needs root).
/// - slurm_submit_to_running: create (JobStore insert + Scheduler::submit) until every replica's interpreter runs
///   (its ready file in the job dir), ours = through the executor (staging the package, the het job through
///   slurmrestd, the per-replica scripts), baseline = `sbatch` of a het job script of the same four components
///   written by hand, as the cluster's user: it reads the nodes into a TF_CONFIG per task and runs the same trainer
///   with the same interpreter under `srun --het-group`. Alternated, run k of each side started at the same point
///   of the wall clock's second (Slurm's backfill pass comes at a fixed one); goal ≤ 1.2.
///   slurm_submit_added_latency: the median of the paired differences.
/// - slurm_state_latency: from the release file (the replicas exit 0) until the executor shows the job SUCCEEDED
///   (ours) and until slurmrestd reports the het job out of RUNNING (baseline, polled every 20 ms by this bench): the
///   difference is what the executor's job-state poll adds, goal ≤ 1,000 ms.
int benchSlurm(JobStore& store, Scheduler& scheduler)
{
    Test::SlurmTestCluster cluster;
    if (!cluster.acquire()) {
        std::printf("slurm_submit_to_running: skipped: %s\n", qPrintable(cluster.reason()));
        return 0;
    }
    QStringList errors;
    const std::optional<QList<Slurm::ClusterConfig>> configs
        = Slurm::ClusterConfig::parse(cluster.clustersYaml(), QStringLiteral("clusters.yaml"), &errors);
    if (!configs || configs->isEmpty()) {
        std::fprintf(stderr, "slurm: %s\n", qPrintable(errors.join(QLatin1Char('\n'))));
        return 1;
    }
    const Slurm::ClusterConfig config = configs->first();
    scheduler.addBackend(std::make_unique<Slurm::SlurmBackend>(config));
    Slurm::SlurmRestClient rest(config);
    const QString base
        = config.sharedDir + QStringLiteral("/bench-executor-%1").arg(QCoreApplication::applicationPid());
    auto cleanup = qScopeGuard([&base] { QDir(base).removeRecursively(); });
    const QStringList tasks { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0"),
        QStringLiteral("worker-replica-1"), QStringLiteral("ps-replica-0") };
    // A folder the cluster's user (the replicas') may write in.
    const auto makeDir = [](const QString& dir) {
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFileDevice::Permissions(0x7777));
    };
    makeDir(base);
    const auto allReady = [&tasks](const QString& dir) {
        for (const QString& t : tasks) {
            if (!QFileInfo::exists(dir + QStringLiteral("/ready/") + t))
                return false;
        }
        return true;
    };
    // The Slurm state of het job `leader` (its first component's), or empty while unknown.
    const auto slurmState = [&rest](qint64 leader) {
        // Shared with the callback: it may come after a timeout here.
        auto answer = std::make_shared<std::pair<bool, QString>>();
        rest.job(leader, &rest, [answer](const Slurm::Result<QList<Slurm::JobComponent>>& r) {
            if (r.ok() && !r.value().isEmpty())
                answer->second = r.value().first().state;
            answer->first = true;
        });
        spinUntil([&] { return answer->first; }, 10000);
        return answer->second;
    };
    // Slurm knows the job's processes ended once it leaves RUNNING (COMPLETING, then COMPLETED; or CANCELLED
    // when the executor, which saw every replica's exit first, cancels what is left of the het job).
    const auto ended = [](const QString& state) {
        return !state.isEmpty() && state != QLatin1String("PENDING") && state != QLatin1String("CONFIGURING")
            && state != QLatin1String("RUNNING");
    };

    // Slurm starts het jobs only in its backfill pass, every bf_interval (1 s on the test cluster) at a fixed
    // point of the wall clock's second: a job waits 0–1 s for it by when in the second it reaches slurmctld. Run k of
    // each side is started at the same point of the second, k × the golden ratio's fraction of it (spread evenly
    // over the second), so that both sides meet the same waits, as users' jobs meet them at random. Without it,
    // each run starts when the last one ended, which is locked to the pass: one side then always waited ~0.3 s and
    // the other always ~1 s (ratio 1.47, from the phase alone).
    const auto startAtPhase = [](int round) {
        const qint64 target = qint64(std::fmod(round * 0.6180339887498949, 1.0) * 1000);
        const qint64 now = QDateTime::currentMSecsSinceEpoch() % 1000;
        const qint64 wait = (target - now + 1000) % 1000;
        const qint64 until = QDateTime::currentMSecsSinceEpoch() + wait;
        spinUntil([until] { return QDateTime::currentMSecsSinceEpoch() >= until; }, 2000);
    };
    int n = 0;
    int oursRound = 0;
    int baselineRound = 0;
    QList<double> latencyOurs, latencySlurm;
    const auto ours = [&]() -> double {
        const QString id = QStringLiteral("slurmbench_%1_%2").arg(QCoreApplication::applicationPid()).arg(n++);
        Job job = clusterJob(id, QStringLiteral("tytest.hold"), 2, 1, {});
        job.trainingInput.region = config.name;
        job.trainingInput.packageUris = QStringList { TrainerDir };
        job.trainingInput.jobDir = base + QLatin1Char('/') + id;
        makeDir(job.trainingInput.jobDir);
        QString error;
        startAtPhase(oursRound++);
        QElapsedTimer clock;
        clock.start();
        if (!store.insert(job, &error))
            return -1;
        scheduler.submit(JobStore::defaultProject(), *store.job(Test::localJob(id)));
        if (!spinUntil([&] { return allReady(job.trainingInput.jobDir); }, 180000)) {
            std::fprintf(stderr, "slurm: %s never ran all its replicas (%s)\n", qPrintable(id),
                qPrintable(store.job(Test::localJob(id))->errorMessage));
            return -1;
        }
        const double started = double(clock.nsecsElapsed()) / 1e6;
        const qint64 leader = scheduler.clusterJobIds(Test::localJob(id)).value(0).toLongLong();
        QFile release(job.trainingInput.jobDir + QStringLiteral("/release"));
        release.open(QIODevice::WriteOnly);
        release.close();
        QElapsedTimer since;
        since.start();
        double slurmMs = -1;
        double oursMs = -1;
        QTimer poll;
        poll.setInterval(20);
        bool asking = false;
        QObject::connect(&poll, &QTimer::timeout, [&] {
            if (asking || slurmMs >= 0)
                return;
            asking = true;
            rest.job(leader, &rest, [&](const Slurm::Result<QList<Slurm::JobComponent>>& r) {
                asking = false;
                if (qEnvironmentVariableIsSet("BENCH_SLURM_DEBUG"))
                    std::fprintf(stderr, "%.0f ms: %s\n", double(since.nsecsElapsed()) / 1e6,
                        r.ok() ? qPrintable(r.value().isEmpty()
                                ? QStringLiteral("none")
                                : r.value().first().state + QLatin1Char('/') + r.value().last().state)
                               : qPrintable(r.error().message));
                if (slurmMs < 0 && r.ok() && !r.value().isEmpty() && ended(r.value().first().state))
                    slurmMs = double(since.nsecsElapsed()) / 1e6;
            });
        });
        poll.start();
        if (!spinUntil(
                [&] {
                    if (oursMs < 0 && isFinal(store.job(Test::localJob(id))->state))
                        oursMs = double(since.nsecsElapsed()) / 1e6;
                    return oursMs >= 0 && slurmMs >= 0;
                },
                120000)
            || store.job(Test::localJob(id))->state != JobState::Succeeded) {
            std::fprintf(stderr,
                "slurm: %s did not end as SUCCEEDED: %s '%s', %.0f ms, Slurm job %lld seen COMPLETED after %.0f ms\n",
                qPrintable(id), qPrintable(jobStateName(store.job(Test::localJob(id))->state)),
                qPrintable(store.job(Test::localJob(id))->errorMessage), oursMs, leader, slurmMs);
            return -1;
        }
        latencyOurs << oursMs;
        latencySlurm << slurmMs;
        return started;
    };
    const auto baseline = [&]() -> double {
        const QString dir = base + QStringLiteral("/sbatch_%1").arg(n++);
        makeDir(dir);
        makeDir(dir + QStringLiteral("/ready"));
        // The same job as a user would write it by hand: the same four components as the executor's het job (one
        // node and task each per replica, the cluster's partition), the nodes read from their node lists into a
        // TF_CONFIG per task, and the same trainer run by the same interpreter (tytest.hold: its ready file as soon
        // as it runs, then it waits for the release). Only what the executor adds differs: the REST submission, the
        // staged copy of the package, the per-replica scripts and their resource sampler.
        const QByteArray d = dir.toUtf8();
        const QByteArray p = config.partition.toUtf8();
        const QByteArray python
            = (config.python.isEmpty() ? QStringLiteral("/usr/bin/python3") : config.python).toUtf8();
        QByteArray script = "#!/bin/bash\n#SBATCH --job-name=bench-sbatch --partition=" + p
            + " --nodes=1 --ntasks=1 --cpus-per-task=1 --output=" + d + "/out-%j\n#SBATCH hetjob\n#SBATCH --partition="
            + p + " --nodes=2 --ntasks=2 --ntasks-per-node=1 --cpus-per-task=1\n#SBATCH hetjob\n#SBATCH --partition="
            + p + " --nodes=1 --ntasks=1 --cpus-per-task=1\n";
        script += "export PYTHONPATH=" + QFile::encodeName(TrainerDir) + "\n";
        script += R"(mapfile -t M < <(scontrol show hostnames "$SLURM_JOB_NODELIST_HET_GROUP_0")
mapfile -t W < <(scontrol show hostnames "$SLURM_JOB_NODELIST_HET_GROUP_1")
mapfile -t P < <(scontrol show hostnames "$SLURM_JOB_NODELIST_HET_GROUP_2")
export C="\"cluster\":{\"master\":[\"${M[0]}:2222\"],\"worker\":[\"${W[0]}:2222\",\"${W[1]}:2222\"],\"ps\":[\"${P[0]}:2222\"]}"
)";
        const auto task = [&](int group, const char* type, const char* index) -> QByteArray {
            return "srun --het-group=" + QByteArray::number(group)
                + " bash -c 'TF_CONFIG=\"{$C,\\\"task\\\":{\\\"type\\\":\\\"" + type + "\\\",\\\"index\\\":" + index
                + "}}\" exec " + python + " -m tytest.hold --job-dir " + d + "' &\n";
        };
        script += task(0, "master", "0") + task(1, "worker", "$SLURM_PROCID") + task(2, "ps", "0") + "wait\n";
        QFile file(dir + QStringLiteral("/het.sh"));
        if (!file.open(QIODevice::WriteOnly))
            return -1;
        file.write(script);
        file.close();
        QProcess sbatch;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!config.slurmConf.isEmpty())
            env.insert(QStringLiteral("SLURM_CONF"), config.slurmConf);
        sbatch.setProcessEnvironment(env);
        sbatch.setWorkingDirectory(dir);
        startAtPhase(baselineRound++);
        QElapsedTimer clock;
        clock.start();
        sbatch.start(QStringLiteral("runuser"),
            { QStringLiteral("-u"), config.user, QStringLiteral("--"), QStringLiteral("sbatch"),
                QStringLiteral("--parsable"), file.fileName() });
        if (!sbatch.waitForFinished(30000) || sbatch.exitCode() != 0) {
            std::fprintf(stderr, "slurm: sbatch failed: %s\n", sbatch.readAllStandardError().constData());
            return -1;
        }
        if (!spinUntil([&] { return allReady(dir); }, 180000))
            return -1;
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        const qint64 leader = sbatch.readAllStandardOutput().trimmed().split(';').first().toLongLong();
        QFile release(dir + QStringLiteral("/release"));
        release.open(QIODevice::WriteOnly);
        release.close();
        // The next run needs the nodes: wait until Slurm is done with this one.
        spinUntil(
            [&] {
                const QString state = slurmState(leader);
                return ended(state) && state != QLatin1String("COMPLETING");
            },
            60000);
        return ms;
    };
    // Enough runs for the start points to cover the second (see startAtPhase).
    const BenchReport::Samples s = BenchReport::alternate(1, std::max(10, BenchReport::runs() / 2), ours, baseline);
    if (s.ours.empty()) {
        std::fprintf(stderr, "slurm_submit_to_running: no run succeeded\n");
        return 1;
    }
    const double o = BenchReport::median(s.ours), b = BenchReport::median(s.baseline);
    BenchReport::printLine("slurm_submit_to_running", s, "ms", o / b, 1,
        "wall time from create (ours) or sbatch (baseline) until all 4 replicas of a 1 + 2 + 1 het job run on the "
        "test cluster; run k of each side starts at the same point of the second");
    goals().push_back({ "slurm_submit_to_running", "ratio", o / b, false, 1.2 });
    std::vector<double> added;
    for (size_t i = 0; i < s.ours.size(); ++i)
        added.push_back(s.ours[i] - s.baseline[i]);
    std::printf("slurm_submit_added_latency: %.0f ms (median of the differences of runs started at the same point)\n",
        BenchReport::median(added));
    latencyOurs.removeFirst(); // the warm-up's
    latencySlurm.removeFirst();
    const double lo = median(latencyOurs), ls = median(latencySlurm);
    BenchReport::printLine("slurm_state_latency", spreadOf(latencyOurs), spreadOf(latencySlurm), "ms",
        ls > 0 ? lo / ls : 0, size_t(latencyOurs.size()), 1,
        "from the replicas' release until the executor shows SUCCEEDED (ours) or slurmrestd reports the het job "
        "out of RUNNING (baseline, polled every 20 ms)");
    std::printf("slurm_state_added_latency: %.0f ms (median difference)\n", lo - ls);
    goals().push_back({ "slurm_state_added_latency", "ours - baseline (ms)", lo - ls, false, 1000 });
    return 0;
}

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("trainyard.executor.debug=false"));
    BenchReport::printHost();
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return 1;
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(tmp.path() + QStringLiteral("/run")));
    qputenv("XDG_DATA_HOME", QFile::encodeName(tmp.path() + QStringLiteral("/data")));
    qputenv("PYTHONPATH", QFile::encodeName(TrainerDir));
    const QString dataDir = tmp.path() + QStringLiteral("/data/trainyard");
    QDir().mkpath(dataDir);

    JobStore store;
    QString error;
    if (!store.open(dataDir + QStringLiteral("/trainyard.sqlite"), &error)) {
        std::fprintf(stderr, "cannot open the job store: %s\n", qPrintable(error));
        return 1;
    }
    LogStore logs(dataDir);
    HostInventory host;
    host.cpus = 1024;
    host.memoryBytes = 1LL << 42;
    Scheduler scheduler(&store, &logs, host, dataDir);
    scheduler.setGracePeriodSeconds(2);

    // ---- 3. and 4. first: they need no processes. BENCH_JOBLIST=0 skips them. ----------------
    bool listSet = false;
    const int listEnv = qEnvironmentVariableIntValue("BENCH_JOBLIST", &listSet);
    if (!listSet || listEnv != 0) {
        // The inserts are durable (an fsync each): /dev/shm keeps filling 10,000 jobs short where it exists.
        QTemporaryDir listDir(QDir(QStringLiteral("/dev/shm")).exists()
                ? QStringLiteral("/dev/shm/bench-joblist-XXXXXX")
                : QDir::tempPath() + QStringLiteral("/bench-joblist-XXXXXX"));
        if (!listDir.isValid() || benchJobList(listDir.path()) != 0)
            return 1;
    }

    // ---- 1. spawn ---------------------------------------------------------------------------
    // BENCH_ROUNDS=0 skips this part; BENCH_LINES sets the size of part 2.
    bool roundsSet = false;
    const int roundsEnv = qEnvironmentVariableIntValue("BENCH_ROUNDS", &roundsSet);
    const int rounds = roundsSet && roundsEnv >= 0 ? roundsEnv : std::max(7, BenchReport::runs());
    QList<double> ours, baseline;
    // Round 0 is a warm-up (the interpreter's files into the page cache, the store's first pages); its figures
    // are dropped.
    for (int round = 0; round < (rounds > 0 ? rounds + 1 : 0); ++round) {
        // Ours.
        const QString id = QStringLiteral("spawn_%1").arg(round);
        const Job job = clusterJob(id, QStringLiteral("tytest.trivial"), 8, 4, {});
        bool allStarted = false;
        qint64 startedNs = 0;
        QElapsedTimer clock;
        auto conn = QObject::connect(
            &scheduler, &Scheduler::replicasChanged, [&](const JobKey& changed, const QList<ReplicaInfo>& reps) {
                if (changed.jobId != id || allStarted)
                    return;
                if (reps.size() != 13)
                    return;
                for (const ReplicaInfo& r : reps) {
                    if (r.state == ReplicaState::Pending || r.state == ReplicaState::Starting)
                        return;
                }
                allStarted = true;
                startedNs = clock.nsecsElapsed();
            });
        clock.start();
        if (!store.insert(job, &error)) {
            std::fprintf(stderr, "insert failed: %s\n", qPrintable(error));
            return 1;
        }
        scheduler.submit(JobStore::defaultProject(), *store.job(Test::localJob(id)));
        if (!spinUntil([&] { return allStarted; })) {
            std::fprintf(stderr, "replicas never all started\n");
            return 1;
        }
        QObject::disconnect(conn);
        if (round > 0)
            ours << double(startedNs) / 1e6;
        spinUntil([&] { return isFinal(store.job(Test::localJob(id))->state); });

        // Baseline: the same 13 processes, same program, arguments and environment.
        QList<QProcess*> procs;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TF_CONFIG"), QStringLiteral("{\"cluster\":{}}"));
        env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
        int started = 0;
        int finished = 0;
        QElapsedTimer base;
        base.start();
        for (int i = 0; i < 13; ++i) {
            auto* p = new QProcess;
            p->setProgram(Python);
            p->setArguments({ QStringLiteral("-m"), QStringLiteral("tytest.trivial") });
            p->setProcessEnvironment(env);
            QObject::connect(p, &QProcess::started, [&] { ++started; });
            QObject::connect(p, &QProcess::finished, [&] { ++finished; });
            procs << p;
        }
        for (QProcess* p : std::as_const(procs))
            p->start();
        spinUntil([&] { return started == 13; });
        if (round > 0)
            baseline << double(base.nsecsElapsed()) / 1e6;
        spinUntil([&] { return finished == 13; });
        qDeleteAll(procs);
    }
    const double o = median(ours), b = median(baseline);
    if (rounds > 0)
        BenchReport::printLine("spawn_1_8_4", spreadOf(ours), spreadOf(baseline), "ms", b > 0 ? o / b : 0.0,
            size_t(ours.size()), 1, "wall time until all 13 replicas started");

    // ---- 2. log ingestion ---------------------------------------------------------------------
    const int lines
        = qEnvironmentVariableIntValue("BENCH_LINES") > 0 ? qEnvironmentVariableIntValue("BENCH_LINES") : 1000000;
    const QString input = tmp.path() + QStringLiteral("/lines.txt");
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        QByteArray chunk;
        for (int i = 0; i < lines; ++i) {
            if (i % 10 == 0)
                chunk += "WARNING:root:step " + QByteArray::number(i) + " loss is rising\n";
            else
                chunk += "INFO:root:step " + QByteArray::number(i)
                    + " loss=0.123456 accuracy=0.987654 examples/sec=12345.6\n";
            if (chunk.size() > (1 << 20)) {
                f.write(chunk);
                chunk.clear();
            }
        }
        f.write(chunk);
    }
    const qint64 bytes = QFileInfo(input).size();

    // Rounds of: ours (a job whose replica copies the file to stdout: replica output → LogStore → a live
    // subscriber, until it has every line), then the baseline (cat of the same bytes into a file). Round 0 is a
    // warm-up.
    const double rssBefore = peakRssMiB();
    const int ingestRuns = BenchReport::runs(5);
    QList<double> oursRates, catRates, oursCpus;
    qint64 logBytes = 0;
    for (int round = 0; round <= ingestRuns; ++round) {
        const QString id = QStringLiteral("ingest_%1").arg(round);
        qint64 received = 0;
        logs.subscribe(Test::localJob(id), [&](const QList<LogEntry>& batch) {
            for (const LogEntry& e : batch)
                received += e.taskName == QLatin1String("master-replica-0") ? 1 : 0;
        });
        const double cpuBefore = cpuSeconds();
        const double start = BenchReport::wallSeconds();
        store.insert(
            clusterJob(id, QStringLiteral("tytest.catfile"), 0, 0, { QStringLiteral("--file"), input }), &error);
        scheduler.submit(JobStore::defaultProject(), *store.job(Test::localJob(id)));
        if (!spinUntil([&] { return received >= lines; }, 600000)) {
            std::fprintf(stderr, "ingestion incomplete: %lld of %d lines\n", received, lines);
            return 1;
        }
        logs.flush();
        const double oursSeconds = BenchReport::wallSeconds() - start;
        const double oursCpu = cpuSeconds() - cpuBefore;
        spinUntil([&] { return isFinal(store.job(Test::localJob(id))->state); });
        logBytes
            = QFileInfo(Test::localJob(id).folder(dataDir) + QStringLiteral("/logs/master-replica-0.jsonl")).size();

        QProcess cat;
        cat.setStandardOutputFile(tmp.path() + QStringLiteral("/cat.out"));
        const double catStart = BenchReport::wallSeconds();
        cat.start(QStringLiteral("cat"), { input });
        cat.waitForFinished(-1);
        const double catSeconds = BenchReport::wallSeconds() - catStart;
        if (round > 0) {
            oursRates << lines / oursSeconds;
            catRates << lines / catSeconds;
            oursCpus << oursCpu;
        }
    }
    const double rssAfter = peakRssMiB();
    BenchReport::printLine("log_ingest_lines", spreadOf(oursRates), spreadOf(catRates), "lines/s",
        median(oursRates) / median(catRates), size_t(oursRates.size()), 1, "wall time");
    std::printf("log_ingest_context: %d lines, %.1f MiB in, %.1f MiB of JSONL written\n", lines,
        double(bytes) / 1048576.0, double(logBytes) / 1048576.0);
    // On a shared machine wall time depends on the neighbours; CPU time says what the executor itself needs.
    std::printf("log_ingest_cpu: executor used %s for %d lines = %.0f lines per CPU-second (median)\n",
        BenchReport::describe(spreadOf(oursCpus), "CPU-s").c_str(), lines, lines / median(oursCpus));
    std::printf("peak_rss: before ingestion %.1f MiB, after %.1f MiB\n", rssBefore, rssAfter);
    // ---- 6. container start against process start -------------------------------------------------------
    bool containersSet = false;
    const int containersEnv = qEnvironmentVariableIntValue("BENCH_CONTAINERS", &containersSet);
    if (!containersSet || containersEnv != 0) {
        const Launch::ContainerRuntime runtime = scheduler.containerRuntime();
        const QString image = QStringLiteral("localhost/trainyard-py:bookworm");
        QString whyNot;
        if (::geteuid() != 0)
            whyNot = QStringLiteral("not root (custom containers run under rootful podman)");
        else if (runtime.podman.isEmpty())
            whyNot = QStringLiteral("podman is not installed");
        else if (QProcess::execute(runtime.podman,
                     runtime.globalArgs + QStringList { QStringLiteral("image"), QStringLiteral("exists"), image })
            != 0)
            whyNot = image + QStringLiteral(" is missing (packaging/container-images.sh builds it)");
        if (!whyNot.isEmpty()) {
            std::printf("container_start: skipped: %s\n", qPrintable(whyNot));
        } else {
            int n = 0;
            // One job to SUCCEEDED; returns its wall time in ms, or -1.
            const auto runJob = [&](bool container) -> double {
                const QString id
                    = QStringLiteral("%1_%2").arg(container ? QStringLiteral("ctr") : QStringLiteral("proc")).arg(n++);
                Job job = clusterJob(id, QStringLiteral("tytest.trivial"), 0, 0, {});
                if (container) {
                    job.trainingInput.pythonModule.clear();
                    job.trainingInput.masterConfig = ReplicaConfig {};
                    job.trainingInput.masterConfig->imageUri = image;
                    job.trainingInput.masterConfig->containerCommand
                        = { QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral("pass") };
                }
                QElapsedTimer clock;
                clock.start();
                if (!store.insert(job, &error))
                    return -1;
                scheduler.submit(JobStore::defaultProject(), *store.job(Test::localJob(id)));
                if (!spinUntil([&] { return isFinal(store.job(Test::localJob(id))->state); }))
                    return -1;
                const double ms = double(clock.nsecsElapsed()) / 1e6;
                return store.job(Test::localJob(id))->state == JobState::Succeeded ? ms : -1;
            };
            const BenchReport::Samples s = BenchReport::alternate(
                1, std::max(5, BenchReport::runs() / 4), [&] { return runJob(true); }, [&] { return runJob(false); });
            if (s.ours.empty()) {
                std::fprintf(stderr, "container_start: the container job did not succeed\n");
                return 1;
            }
            const double o = BenchReport::median(s.ours), b = BenchReport::median(s.baseline);
            BenchReport::printLine("container_start", s, "ms", o / b, 1,
                "wall time from create to SUCCEEDED of one replica running python3 -c pass: in a container "
                "(ours) vs as a process (baseline)");
            std::printf("container_start_overhead: %.0f ms per container replica (median difference)\n", o - b);
        }
    }

    // ---- 7. a 1 + 2 + 1 job on the Slurm test cluster ---------------------------------------------------
    bool slurmSet = false;
    const int slurmEnv = qEnvironmentVariableIntValue("BENCH_SLURM", &slurmSet);
    if ((!slurmSet || slurmEnv != 0) && benchSlurm(store, scheduler) != 0)
        return 1;

    // ---- 5. a page of a 10-million-line log through the API ------------------------------------------
    const qint64 pageLines = qEnvironmentVariableIsSet("BENCH_LOG_PAGE_LINES")
        ? qEnvironmentVariableIntValue("BENCH_LOG_PAGE_LINES")
        : 10000000;
    if (pageLines <= 0) {
        printGoals();
        return 0;
    }
    const int replicas = 4;
    const qint64 perReplica = pageLines / replicas;
    // Page 1,000 at the API's default size (1,000 entries) and at its maximum (10,000: the last page of 10
    // million lines); BENCH_LOG_PAGE_SIZE measures one size only.
    const qint64 pageNumber = 1000;
    QList<qint64> pageSizes { 1000, 10000 };
    if (qEnvironmentVariableIntValue("BENCH_LOG_PAGE_SIZE") > 0)
        pageSizes = { qEnvironmentVariableIntValue("BENCH_LOG_PAGE_SIZE") };
    // Entry k of the merged order is line k / 4 of replica k % 4 (stamps base + 4·line + replica).
    struct PageLines {
        qint64 first = 0; ///< entries before the page
        qint64 firstLine = 0, lastLine = 0; ///< of each replica
        QList<QPair<qint64, qint64>> ranges; ///< per replica: bytes of its lines on the page
    };
    QList<PageLines> pagesToRead;
    for (const qint64 size : std::as_const(pageSizes)) {
        PageLines p;
        p.first = (pageNumber - 1) * size;
        p.firstLine = p.first / replicas;
        p.lastLine = (p.first + size - 1) / replicas;
        if (p.lastLine >= perReplica) {
            std::fprintf(stderr, "BENCH_LOG_PAGE_LINES too small for page %lld of %lld\n", pageNumber, size);
            return 1;
        }
        p.ranges = QList<QPair<qint64, qint64>>(replicas);
        pagesToRead << p;
    }
    const QString bigJob = QStringLiteral("biglog");
    Job big = clusterJob(bigJob, QStringLiteral("tytest.trivial"), 0, 0, {});
    big.state = JobState::Succeeded;
    if (!store.insert(big, &error)) {
        std::fprintf(stderr, "insert failed: %s\n", qPrintable(error));
        return 1;
    }
    const QString logsDir = Test::localJob(bigJob).folder(dataDir) + QStringLiteral("/logs");
    QDir().mkpath(logsDir);
    QStringList files;
    qint64 logBytesTotal = 0;
    QElapsedTimer generate;
    generate.start();
    const qint64 base = 1795323883000000LL;
    for (int r = 0; r < replicas; ++r) {
        const QByteArray task = "worker-replica-" + QByteArray::number(r);
        files << logsDir + QLatin1Char('/') + QString::fromLatin1(task) + QStringLiteral(".jsonl");
        const int fd
            = ::open(QFile::encodeName(files.last()).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
            return 1;
        const QByteArray middle
            = "\",\"severity\":\"INFO\",\"taskName\":\"" + task + "\",\"trialId\":\"\",\"message\":\"step ";
        const QByteArray tail = " loss=0.123456 accuracy=0.987654 examples/sec=12345.6\",\"stream\":\"stdout\"}\n";
        std::string buffer;
        buffer.reserve(9 << 20);
        qint64 offset = 0;
        char number[24];
        for (qint64 i = 0; i < perReplica; ++i) {
            for (PageLines& p : pagesToRead) {
                if (i == p.firstLine)
                    p.ranges[r].first = offset + qint64(buffer.size());
            }
            buffer.append("{\"timestamp\":\"", 14);
            char ts[27];
            formatUs(base + 4 * i + r, ts);
            buffer.append(ts, 27);
            buffer.append(middle.constData(), size_t(middle.size()));
            const int n = std::snprintf(number, sizeof number, "%lld", i);
            buffer.append(number, size_t(n));
            buffer.append(tail.constData(), size_t(tail.size()));
            for (PageLines& p : pagesToRead) {
                if (i == p.lastLine)
                    p.ranges[r].second = offset + qint64(buffer.size());
            }
            if (buffer.size() > (8 << 20)) {
                if (::write(fd, buffer.data(), buffer.size()) != ssize_t(buffer.size()))
                    return 1;
                offset += qint64(buffer.size());
                buffer.clear();
            }
        }
        if (::write(fd, buffer.data(), buffer.size()) != ssize_t(buffer.size()))
            return 1;
        offset += qint64(buffer.size());
        ::close(fd);
        logBytesTotal += offset;
    }
    std::fprintf(stderr, "wrote %lld lines, %.1f MiB of JSONL, in %.2f s\n", perReplica * replicas,
        double(logBytesTotal) / 1048576.0, double(generate.nsecsElapsed()) / 1e9);

    const QByteArray token = "bench-token";
    HttpApi api(&store, &logs, &scheduler, host, token);
    auto* server = new QTcpServer(&api);
    if (!server->listen(QHostAddress::LocalHost, 0)) {
        std::fprintf(stderr, "cannot listen\n");
        return 1;
    }
    api.bind(server);
    const quint16 port = server->serverPort();
    auto pageTarget = [&](const PageLines& p, qint64 size) -> QByteArray {
        const QByteArray pageToken = QByteArray("logs:" + QByteArray::number(p.first))
                                         .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
        return "/v1/projects/local/jobs/" + bigJob.toLatin1() + "/logs?pageSize=" + QByteArray::number(size)
            + "&pageToken=" + pageToken;
    };
    const QByteArray jobTarget = "/v1/projects/local/jobs/" + bigJob.toLatin1();

    // Runs `reads` page reads over HTTP on one thread while another GETs the job until they are done; the event
    // loop (the executor) runs here. Returns each page read's ms and fills the GET latencies seen meanwhile.
    auto measureHttp = [&](const QByteArray& target, int reads, std::vector<double>* getMs, QByteArray* lastBody) {
        std::vector<double> pageMs;
        std::atomic<bool> done { false };
        std::atomic<bool> failed { false };
        std::thread pager([&] {
            for (int i = 0; i < reads; ++i) {
                QElapsedTimer t;
                t.start();
                int status = 0;
                *lastBody = Test::httpGet(port, target, token, &status);
                pageMs.push_back(double(t.nsecsElapsed()) / 1e6);
                if (status != 200)
                    failed = true;
            }
            done = true;
        });
        std::atomic<bool> getterDone { false };
        std::thread getter([&] {
            while (!done) {
                QElapsedTimer t;
                t.start();
                int status = 0;
                Test::httpGet(port, jobTarget, token, &status);
                if (!done)
                    getMs->push_back(double(t.nsecsElapsed()) / 1e6);
                if (status != 200)
                    failed = true;
            }
            getterDone = true;
        });
        // Both threads' last requests need this event loop to be answered.
        spinUntil([&] { return done.load() && getterDone.load(); }, 600000);
        pager.join();
        getter.join();
        if (failed)
            std::fprintf(stderr, "a request failed\n");
        return pageMs;
    };
    // One request through HttpApi::serve(): the router and the handler as over HTTP, no socket; the page is
    // read on the pool and answered from this thread's event loop, as over HTTP. Returns ms.
    auto serveOnce = [&](const QByteArray& target, QByteArray* body, int* status) {
        QElapsedTimer t;
        t.start();
        bool answered = false;
        QEventLoop loop;
        api.serve(ApiRequest("GET", QUrl::fromEncoded(target), { { "Authorization", "Bearer " + token } }),
            [&](int code, const HttpHeaderList&, const QByteArray& answer) {
                answered = true;
                *status = code;
                *body = answer;
                loop.quit();
            });
        if (!answered)
            loop.exec();
        return double(t.nsecsElapsed()) / 1e6;
    };
    auto describeGets = [](const std::vector<double>& v) {
        if (v.empty())
            return std::string("no requests");
        return std::to_string(v.size()) + " requests, " + BenchReport::describe(BenchReport::spread(v), "ms");
    };
    // The page holds the entries it should: `size` of them, the first line `firstLine` of replica 0.
    auto checkPage = [](const QByteArray& body, const PageLines& p, qint64 size, const char* how) {
        const QJsonArray entries = QJsonDocument::fromJson(body).object().value(QStringLiteral("entries")).toArray();
        const QString firstMessage
            = entries.isEmpty() ? QString() : entries.first().toObject().value(QStringLiteral("message")).toString();
        if (entries.size() != size || !firstMessage.startsWith(QStringLiteral("step %1 ").arg(p.firstLine))) {
            std::fprintf(stderr, "unexpected page %s: %lld entries, first \"%s\"\n", how, qint64(entries.size()),
                qPrintable(firstMessage));
            return false;
        }
        return true;
    };
    constexpr int WarmUps = 3;
    // Runs are cheap here (≤ a few ms): more of them than the house default (BENCH_RUNS still sets the count).
    const int Runs = BenchReport::runs(21);

    // The first read after the start builds the line index, over HTTP, while the job is asked for meanwhile.
    std::vector<double> coldGets;
    QByteArray body;
    const std::vector<double> cold
        = measureHttp(pageTarget(pagesToRead.first(), pageSizes.first()), 1, &coldGets, &body);
    std::printf("log_index_build: %lld lines (%.0f MiB) indexed by the first page read, which took %.0f ms "
                "(%.1f M lines/s); a GET of the job meanwhile: %s\n",
        perReplica * replicas, double(logBytesTotal) / 1048576.0, cold.front(),
        double(perReplica * replicas) / cold.front() / 1000.0, describeGets(coldGets).c_str());

    // The HTTP floor: the cheapest request (GET of the job) with nothing else running, in process and over HTTP.
    std::vector<double> getServe, getHttp;
    for (int round = 0; round < WarmUps + Runs; ++round) {
        QByteArray jobBody;
        int status = 0;
        const double ms = serveOnce(jobTarget, &jobBody, &status);
        if (round >= WarmUps)
            getServe.push_back(ms);
    }
    {
        std::atomic<bool> done { false };
        std::thread getter([&] {
            for (int i = 0; i < WarmUps + Runs; ++i) {
                QElapsedTimer t;
                t.start();
                int status = 0;
                Test::httpGet(port, jobTarget, token, &status);
                if (i >= WarmUps)
                    getHttp.push_back(double(t.nsecsElapsed()) / 1e6);
            }
            done = true;
        });
        spinUntil([&] { return done.load(); });
        getter.join();
    }

    // The handler's other costs: capturing what a read sees (LogStore::prepareRead(): a folder listing and a
    // stat per file), and a round trip to the thread pool and back to the event loop (QtConcurrent::run of nothing,
    // answered through a QFutureWatcher, as HttpApi::answerLater() does).
    std::vector<double> prepareMs, hopMs;
    for (int round = 0; round < WarmUps + Runs; ++round) {
        QElapsedTimer t;
        t.start();
        const LogStore::ReadRequest request = logs.prepareRead(Test::localJob(bigJob), LogQuery {});
        const double prepare = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        QEventLoop loop;
        QFutureWatcher<int> watcher;
        QObject::connect(&watcher, &QFutureWatcher<int>::finished, &loop, &QEventLoop::quit);
        watcher.setFuture(QtConcurrent::run([] { return 1; }));
        if (!watcher.isFinished())
            loop.exec();
        const double hop = double(t.nsecsElapsed()) / 1e6;
        if (round >= WarmUps) {
            prepareMs.push_back(prepare);
            hopMs.push_back(hop);
        }
        if (!request.index)
            std::fprintf(stderr, "nothing to read\n");
    }

    for (qsizetype k = 0; k < pageSizes.size(); ++k) {
        const qint64 size = pageSizes.at(k);
        const PageLines& p = pagesToRead.at(k);
        const QByteArray target = pageTarget(p, size);
        const std::string name = "log_page_1000_of_" + std::to_string(pageLines / 1000000) + "M"
            + (size == 1000 ? std::string() : "_size_" + std::to_string(size));

        // Ours in process (HttpApi::serve() of the GET) and the baseline (the same bytes straight from the files),
        // run by run.
        qint64 pageBytes = 0;
        QByteArray servedBody;
        const BenchReport::Samples inProcess = BenchReport::alternate(
            WarmUps, Runs,
            [&] {
                int status = 0;
                const double ms = serveOnce(target, &servedBody, &status);
                if (status != 200)
                    std::fprintf(stderr, "a request failed in process: %d\n", status);
                return status == 200 ? ms : -1.0;
            },
            [&] {
                const double start = BenchReport::wallSeconds();
                pageBytes = 0;
                for (int r = 0; r < replicas; ++r) {
                    const int fd = ::open(QFile::encodeName(files.at(r)).constData(), O_RDONLY | O_CLOEXEC);
                    std::vector<char> bytes(size_t(p.ranges[r].second - p.ranges[r].first));
                    pageBytes += ::pread(fd, bytes.data(), bytes.size(), p.ranges[r].first);
                    ::close(fd);
                }
                return (BenchReport::wallSeconds() - start) * 1000;
            });
        checkPage(servedBody, p, size, "in process");

        // Ours, over HTTP, while another client GETs the job (the executor keeps answering).
        std::vector<double> gets;
        QByteArray httpBody;
        measureHttp(target, WarmUps, &gets, &httpBody);
        gets.clear();
        const std::vector<double> overHttp = measureHttp(target, Runs, &gets, &httpBody);
        checkPage(httpBody, p, size, "over HTTP");
        if (httpBody != servedBody)
            std::fprintf(stderr, "the page over HTTP differs from the page in process\n");

        // Where the time goes: the store's read alone, on this thread, as the page path does it and as readLines
        // (a QByteArray per line, LogStore::read()'s path) does.
        std::vector<double> appendOnly, linesOnly;
        for (int round = 0; round < WarmUps + Runs; ++round) {
            const LogStore::ReadRequest request
                = logs.prepareRead(Test::localJob(bigJob), LogQuery { {}, {}, {}, p.first, int(size), {} });
            QElapsedTimer t;
            t.start();
            QByteArray out;
            const LogIndex::PageInfo info = LogStore::appendLines(request, {}, ",", &out);
            const double appendMs = double(t.nsecsElapsed()) / 1e6;
            t.restart();
            const QList<QByteArray> lines = LogStore::readLines(request);
            const double linesMs = double(t.nsecsElapsed()) / 1e6;
            if (info.entries != size || lines.size() != size)
                std::fprintf(stderr, "store read %lld / %lld lines\n", info.entries, qint64(lines.size()));
            if (round >= WarmUps) {
                appendOnly.push_back(appendMs);
                linesOnly.push_back(linesMs);
            }
        }

        const BenchReport::Spread o = BenchReport::spread(inProcess.ours), d = BenchReport::spread(inProcess.baseline),
                                  h = BenchReport::spread(overHttp);
        BenchReport::printLine(name, inProcess, "ms", o.median / d.median, WarmUps,
            "wall time; ours = the GET through HttpApi::serve() (router, handler, no socket), baseline = open + pread "
            "+ "
            "close of the same bytes, run by run");
        BenchReport::printLine(name + "_http", h, d, "ms", h.median / d.median, overHttp.size(), WarmUps,
            "wall time; ours = the same GET over a loopback socket while another client GETs the job");
        std::printf("%s_context: %lld bytes of %lld lines from %d files, body %lld bytes\n", name.c_str(), pageBytes,
            size, replicas, qint64(servedBody.size()));
        std::printf("%s_breakdown: LogStore::appendLines alone (the handler's read) %s; LogStore::readLines alone "
                    "(a QByteArray per line) %s\n",
            name.c_str(), BenchReport::describe(BenchReport::spread(appendOnly), "ms").c_str(),
            BenchReport::describe(BenchReport::spread(linesOnly), "ms").c_str());
        if (size == 1000)
            goals().push_back({ name, "ratio", o.median / d.median, false, 3 });
        std::printf("%s_concurrent_get_job: a GET of the job while the pages are read over HTTP: %s\n", name.c_str(),
            describeGets(gets).c_str());
    }
    std::printf("log_page_floor: a GET of the job alone, in process (serve) %s; over HTTP %s; "
                "LogStore::prepareRead() %s; a thread-pool round trip %s\n",
        BenchReport::describe(BenchReport::spread(getServe), "ms").c_str(),
        BenchReport::describe(BenchReport::spread(getHttp), "ms").c_str(),
        BenchReport::describe(BenchReport::spread(prepareMs), "ms").c_str(),
        BenchReport::describe(BenchReport::spread(hopMs), "ms").c_str());
    printGoals();
    return 0;
}
