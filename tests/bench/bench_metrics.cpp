// SPDX-License-Identifier: GPL-2.0-or-later
// Metrics benchmarks (issue 4). Each prints `NAME: ours X unit, baseline Y unit, ratio R`, the
// baseline measured in the same run:
// - parse_200MB_event_file: EventFileReader + ScalarRun over a 200 MB event file of scalars,
//   against reading the same file and computing its CRC-32C with the CPU's crc32 instruction
//   (the bound for any reader that verifies the records). Goal: ratio ≥ 0.5.
// - memory_per_point: heap bytes per stored point of ScalarRun (ScalarColumns chunks), against an exactly sized array
//   of 24-byte points. Goal: ≤ 24 bytes.
// - redraw_1M_points, redraw_10M_points: the Metrics tab's chart (MetricChart, 800×500) after one new
//   point arrives: append, M4 reduction of the raw and smoothed lines over the whole x range, replace()
//   of the reduced points and a render of the QChartView into a QImage (offscreen), averaged over 20
//   redraws; against giving Qt Charts all points with QLineSeries::replace() and rendering once (the
//   point list built beforehand, so the baseline is not charged for it; measured once at 10M).
//   Ratio = baseline / ours. Goal: ours ≤ 16 ms at 10M.
// - ingest_200MB_event_file: the executor's path for the same 200 MB event file in a job dir: MetricsCollector
//   (tick on its pool: find, read and decode) → MetricsStore (blocks in SQLite, WAL) → GET …/metrics through
//   HttpApi on a loopback socket, timed from the job turning RUNNING until the API lists every point; against
//   the formats library's parse alone (EventFileReader + ScalarRun), both in wall time, in the same run.
//   Points/s. Goal: ours ≥ 3 M points/s (issue 12). Measured on a shared 2-core AMD EPYC (load average 4.8–6.8):
//   before, 3.2–3.7 M points/s and 3.4–3.6 M points per CPU-second (1.06–1.13 CPU-s; a third of that was this
//   benchmark's own busy event loop); after, 5.6–8.3 M points/s and 11.3–12.2 M points per CPU-second (0.31–0.34
//   CPU-s), database 127 → 38 MB: blocks in a varint-difference encoding in a rowid table (a WITHOUT ROWID table
//   read every blob's overflow pages on each lookup), points per series instead of an op per point, and batches of
//   50,000 points written while the collector reads on.
// - memory_per_point_chart_store: heap bytes per point of the Metrics tab's store (MetricSeriesData,
//   10M float scalars), against an exactly sized array of 24-byte points. Goal: ≤ 24 bytes.
//
// Usage: bench_metrics [SIZE_MB] [--parse-only|--ingest-only|--profile-redraw] (default 200; 0 runs only the chart
// benchmarks, --parse-only only the event-file ones, for profiling the reader, --ingest-only only ingest_*,
// --profile-redraw our 10M-point redraws alone for SIZE_MB seconds, for perf record). Every figure is the
// median of BENCH_RUNS (default 7, at least 5) runs after a warm-up, ours and the baseline alternating run by run, with
// min / median / max on a `_detail` line and a `goal:` line per goal; the ratio is of the medians (benchreport.h says
// why). Parse and redraw times are CPU time of the benchmark thread (user + system, so the read() calls count): the
// development machines are shared, and wall time there measures the neighbours as much as the code; ingest is wall
// time (it spans threads), with the process's CPU time beside it. The file is in the page cache. On stderr, the last
// parse pass's minor page faults (about one per 2 MiB of points when transparent huge pages are granted).

#include "benchreport.h"
#include "crc32c.h"
#include "event.pb.h"
#include "eventfilereader.h"
#include "httpapi.h"
#include "jobkeys.h"
#include "jobstore.h"
#include "logstore.h"
#include "loopbackhttp.h"
#include "metricscollector.h"
#include "metricsmodel.h"
#include "metricspanel.h"
#include "metricsstore.h"
#include "scalarseriesstore.h"
#include "scheduler.h"
#include "tfrecordreader.h"

#include <QApplication>
#include <QChart>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineSeries>
#include <QLoggingCategory>
#include <QPainter>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>
#include <QValueAxis>

#include <malloc.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

using namespace Trainyard::Formats;

namespace {

quint32 crc32cFast(const char* data, size_t n, quint32 init)
{
    return crc32cHardwareAvailable() ? crc32cHardware(data, n, init) : crc32cPortable(data, n, init);
}

// CPU time of the calling thread, in nanoseconds.
class CpuTimer {
public:
    CpuTimer() { m_start = now(); }
    double seconds() const { return double(now() - m_start) / 1e9; }

private:
    static qint64 now()
    {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    }
    qint64 m_start;
};

// malloc's bytes in use plus the point chunks the store maps itself (mallinfo does not see those).
size_t heapInUse()
{
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd + PointChunkAllocator<double>::mappedBytes();
}

// An event file like a trainer's: four tags, one scalar per event, steps counting up.
qint64 writeEventFile(const QString& path, qint64 targetBytes, qint64* points)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return -1;
    const char* tags[] = { "train/loss", "train/accuracy", "eval/accuracy", "learning_rate" };
    QByteArray buffer;
    trainyard::tf::Event event;
    event.set_wall_time(1795317519.0);
    event.set_file_version("brain.Event:2");
    std::string bytes = event.SerializeAsString();
    appendTfRecord(buffer, bytes.data(), bytes.size());
    qint64 written = 0;
    qint64 count = 0;
    for (qint64 step = 0; written + buffer.size() < targetBytes; ++step) {
        for (int t = 0; t < 4; ++t) {
            trainyard::tf::Event scalar;
            scalar.set_wall_time(1795317519.0 + double(step) * 0.0123 + t * 1e-4);
            scalar.set_step(step);
            auto* value = scalar.mutable_summary()->add_value();
            value->set_tag(tags[t]);
            value->set_simple_value(float(std::exp(-double(step) * 1e-6) * (t + 1)));
            scalar.SerializeToString(&bytes);
            appendTfRecord(buffer, bytes.data(), bytes.size());
            ++count;
        }
        if (buffer.size() > (8 << 20)) {
            written += file.write(buffer);
            buffer.clear();
        }
    }
    written += file.write(buffer);
    *points = count;
    return written;
}

// Read in 1 MiB chunks and CRC the bytes with the crc32 instruction.
double readAndCrcSeconds(const QString& path, quint32* crcOut)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return -1;
    std::vector<char> buffer(size_t(1) << 20);
    const CpuTimer timer;
    quint32 crc = 0;
    for (;;) {
        const qint64 got = file.read(buffer.data(), qint64(buffer.size()));
        if (got <= 0)
            break;
        crc = crc32cFast(buffer.data(), size_t(got), crc);
    }
    *crcOut = crc;
    return timer.seconds();
}

// Minor page faults this thread has taken so far.
long minorFaults()
{
    rusage usage {};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt;
}

double parseSeconds(const QString& path, qint64* points, long* faults)
{
    const long faultsBefore = minorFaults();
    const CpuTimer timer;
    ScalarRun run(QStringLiteral("."));
    EventFileReader reader(path);
    reader.readAvailable(run);
    const double seconds = timer.seconds();
    *faults = minorFaults() - faultsBefore;
    *points = run.pointCount();
    if (!reader.takeIssues().empty())
        std::fprintf(stderr, "unexpected issues reading %s\n", qPrintable(path));
    return seconds;
}

// Parts of parseSeconds() on their own, for the breakdown line: TFRecord framing and CRCs only
// (TfRecordReader::next()), then that plus decoding each record with decodeEventRecord() into a sink
// that keeps nothing (a call per record and virtual calls per scalar). EventFileReader feeds a ScalarRun
// from one loop with all of that inlined, so the full parse can come out faster than the second part.
class CountingSink final : public ScalarSink {
public:
    void scalar(QByteArrayView, qint64, double, double value) override
    {
        ++count;
        sum += value;
    }
    qint64 count = 0;
    double sum = 0;
};

double framingSeconds(const QString& path, bool decode)
{
    const CpuTimer timer;
    TfRecordReader records(path);
    CountingSink sink;
    const char* data = nullptr;
    size_t size = 0;
    qint64 offset = 0;
    while (records.next(&data, &size) == TfRecordReader::Result::Record) {
        if (decode) {
            QString error;
            decodeEventRecord(data, size, offset, sink, &error);
        }
        offset += qint64(size);
    }
    const double seconds = timer.seconds();
    if (offset == 0 || (decode && sink.count == 0))
        std::fprintf(stderr, "read nothing from %s\n", qPrintable(path));
    return seconds;
}

using BenchReport::Goal;

constexpr int Warmups = 1;

/// MB/s of each run, from its seconds.
std::vector<double> throughput(double mb, const std::vector<double>& seconds)
{
    std::vector<double> rates;
    for (double t : seconds)
        rates.push_back(mb / t);
    return rates;
}

void benchParse(const QString& path, qint64 fileBytes, qint64 expectedPoints, std::vector<Goal>* goals)
{
    const double mb = double(fileBytes) / 1e6;
    const int runs = BenchReport::runs();
    quint32 crc = 0;
    long faults = 0;
    const BenchReport::Samples seconds = BenchReport::alternate(
        Warmups, runs,
        [&] {
            qint64 points = 0;
            const double t = parseSeconds(path, &points, &faults);
            if (points != expectedPoints) {
                std::fprintf(stderr, "parsed %lld points, wrote %lld\n", points, expectedPoints);
                return -1.0;
            }
            return t;
        },
        [&] { return readAndCrcSeconds(path, &crc); });
    std::fprintf(stderr, "last parse pass: %ld minor page faults\n", faults);
    // The breakdown: the record loop alone, then with a decode call per record (alternating too).
    const BenchReport::Samples parts = BenchReport::alternate(
        Warmups, runs, [&] { return framingSeconds(path, false); }, [&] { return framingSeconds(path, true); });
    const int size = int(std::lround(mb));
    std::printf("parse_%dMB_event_file_breakdown: read + framing + CRC %.1f MB/s, + decode (calls, nothing kept) "
                "%.1f MB/s, whole parse into ScalarRun (one inlined loop) %.1f MB/s (medians)\n",
        size, mb / BenchReport::median(parts.ours), mb / BenchReport::median(parts.baseline),
        mb / BenchReport::median(seconds.ours));
    const std::string name = "parse_" + std::to_string(size) + "MB_event_file";
    BenchReport::Samples rates { throughput(mb, seconds.ours), throughput(mb, seconds.baseline) };
    const double ratio = BenchReport::median(rates.ours) / BenchReport::median(rates.baseline);
    BenchReport::printLine(name, rates, "MB/s", ratio, Warmups, "CPU time; ratio = ours / baseline");
    goals->push_back({ name, "ratio", ratio, true, 0.5 });
}

void benchMemory(const QString& path, std::vector<Goal>* goals)
{
    std::vector<double> ours, baseline;
    for (int run = 0; run < Warmups + BenchReport::runs(); ++run) {
        const size_t before = heapInUse();
        auto store = std::make_unique<ScalarRun>(QStringLiteral("."));
        {
            EventFileReader reader(path);
            reader.readAvailable(*store);
        } // the reader's buffer is not the store's memory
        const size_t bytes = heapInUse() - before;
        const qint64 points = store->pointCount();
        store.reset();

        const size_t baselineBefore = heapInUse();
        std::unique_ptr<ScalarPoint[]> packed(new ScalarPoint[size_t(points)]);
        for (qint64 i = 0; i < points; ++i)
            packed[size_t(i)] = { i, double(i), double(i) };
        const size_t baselineBytes = heapInUse() - baselineBefore;
        if (run >= Warmups) {
            ours.push_back(double(bytes) / double(points));
            baseline.push_back(double(baselineBytes) / double(points));
        }
    }
    const double ratio = BenchReport::median(ours) / BenchReport::median(baseline);
    BenchReport::printLine("memory_per_point", { ours, baseline }, "bytes", ratio, Warmups,
        "heap bytes per point, the same in every run when nothing else allocates");
    goals->push_back({ "memory_per_point", "ours (bytes)", BenchReport::median(ours), false, 24 });
}

/// Points of a job that GET …/metrics lists (the sum of its series' `points`), -1 on failure.
qint64 apiPointCount(quint16 port, const QByteArray& token, const QByteArray& jobId)
{
    int status = 0;
    const QByteArray body
        = Trainyard::Test::httpGet(port, "/v1/projects/local/jobs/" + jobId + "/metrics", token, &status);
    if (status != 200)
        return -1;
    qint64 total = 0;
    const QJsonArray series = QJsonDocument::fromJson(body).object().value(QStringLiteral("series")).toArray();
    for (const QJsonValue& s : series)
        total += s.toObject().value(QStringLiteral("points")).toString().toLongLong();
    return total;
}

/// The baseline of ingest_*: the formats library's parse of the file alone, wall seconds (-1 on failure).
double parseWallSeconds(const QString& eventFile, qint64 expectedPoints)
{
    const double start = BenchReport::wallSeconds();
    ScalarRun run(QStringLiteral("."));
    EventFileReader reader(eventFile);
    reader.readAvailable(run);
    const double seconds = BenchReport::wallSeconds() - start;
    if (run.pointCount() != expectedPoints) {
        std::fprintf(stderr, "parsed %lld points, wrote %lld\n", run.pointCount(), expectedPoints);
        return -1;
    }
    return seconds;
}

/// One ingestion of the event file through a fresh executor (stores, collector, API): wall seconds from the job
/// turning RUNNING until the API lists every point, or -1. `*cpuSeconds` gets the process's CPU time meanwhile and
/// `*databaseMb` the metric database's size.
double ingestOnce(const QString& eventFile, qint64 expectedPoints, double* cpuSeconds, double* databaseMb)
{
    using namespace Trainyard;
    QTemporaryDir tmp;
    const QString dataDir = tmp.path() + QStringLiteral("/data");
    const QString jobDir = tmp.path() + QStringLiteral("/jobdir");
    QDir().mkpath(dataDir);
    QDir().mkpath(jobDir);
    // The job dir holds the file: moved there for the run and back after it (the same bytes, already in the page
    // cache). Not a hard link: the executor reads no file with more than one link (API.md, "Metrics").
    const QString placed = jobDir + QStringLiteral("/events.out.tfevents.bench");
    if (::rename(QFile::encodeName(eventFile).constData(), QFile::encodeName(placed).constData()) != 0) {
        std::fprintf(stderr, "cannot place the event file in the job dir\n");
        return -1;
    }
    const auto moveBack = qScopeGuard(
        [&] { ::rename(QFile::encodeName(placed).constData(), QFile::encodeName(eventFile).constData()); });
    JobStore store;
    MetricsStore metrics;
    QString error;
    if (!store.open(dataDir + QStringLiteral("/trainyard.sqlite"), &error)
        || !metrics.open(dataDir + QStringLiteral("/metrics.sqlite"), &error)) {
        std::fprintf(stderr, "cannot open the stores: %s\n", qPrintable(error));
        return -1;
    }
    LogStore logs(dataDir);
    HostInventory host;
    host.cpus = 64;
    host.memoryBytes = 1LL << 40;
    Scheduler scheduler(&store, &logs, host, dataDir);
    MetricsCollector collector(&metrics, &store, &logs, &scheduler, dataDir, false);
    collector.setInterval(50);
    collector.start();
    const QByteArray token = "bench-token";
    HttpApi api(&store, &logs, &scheduler, host, token);
    api.setMetricsStore(&metrics);
    auto* server = new QTcpServer(&api);
    if (!server->listen(QHostAddress::LocalHost, 0))
        return -1;
    api.bind(server);
    const quint16 port = server->serverPort();

    Job job;
    job.jobId = QStringLiteral("ingest");
    job.trainingInput.scaleTier = QStringLiteral("BASIC");
    job.trainingInput.pythonModule = QStringLiteral("trainer.task");
    job.trainingInput.region = QStringLiteral("us-central1");
    job.trainingInput.jobDir = jobDir;
    if (!store.insert(job, &error)) {
        std::fprintf(stderr, "cannot insert the job: %s\n", qPrintable(error));
        return -1;
    }
    std::atomic<qint64> seen { 0 };
    std::atomic<bool> stop { false };
    QElapsedTimer clock;
    std::atomic<qint64> doneNs { 0 };
    auto processCpu = [] {
        rusage u {};
        getrusage(RUSAGE_SELF, &u);
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    };
    const double cpuBefore = processCpu();
    clock.start();
    job = *store.job(Test::localJob(job.jobId));
    job.state = JobState::Running;
    store.update(JobStore::defaultProject(), job);
    std::thread poller([&] {
        while (!stop) {
            const qint64 n = apiPointCount(port, token, "ingest");
            seen = n;
            if (n == expectedPoints) {
                doneNs = clock.nsecsElapsed();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });
    // An event loop that sleeps while nothing happens: processEvents(flags, ms) drops WaitForMoreEvents, so a
    // loop of it spun a core on poll() and clock_gettime(), charged to the path and taken from the collector.
    QElapsedTimer limit;
    limit.start();
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (doneNs != 0 || limit.elapsed() >= 300000)
            loop.quit();
    });
    check.start(5);
    loop.exec();
    const double cpu = processCpu() - cpuBefore;
    stop = true;
    poller.join();
    collector.shutdown();
    if (doneNs == 0) {
        std::fprintf(stderr, "the API listed %lld of %lld points after 300 s\n", seen.load(), expectedPoints);
        return -1;
    }
    *cpuSeconds = cpu;
    *databaseMb = double(QFileInfo(dataDir + QStringLiteral("/metrics.sqlite")).size()
                      + QFileInfo(dataDir + QStringLiteral("/metrics.sqlite-wal")).size())
        / 1e6;
    return double(doneNs) / 1e9;
}

void benchIngest(const QString& eventFile, qint64 fileBytes, qint64 expectedPoints, std::vector<Goal>* goals)
{
    const double mb = double(fileBytes) / 1e6;
    std::vector<double> cpu, database;
    const BenchReport::Samples seconds = BenchReport::alternate(
        Warmups, BenchReport::runs(),
        [&] {
            double c = 0, d = 0;
            const double t = ingestOnce(eventFile, expectedPoints, &c, &d);
            cpu.push_back(c);
            database.push_back(d);
            return t;
        },
        [&] { return parseWallSeconds(eventFile, expectedPoints); });
    const double points = double(expectedPoints);
    const BenchReport::Samples rates { throughput(points / 1e6, seconds.ours),
        throughput(points / 1e6, seconds.baseline) };
    const std::string name = "ingest_" + std::to_string(int(std::lround(mb))) + "MB_event_file";
    const double ratio = BenchReport::median(rates.ours) / BenchReport::median(rates.baseline);
    BenchReport::printLine(name, rates, "M points/s", ratio, Warmups, "wall time; ratio = ours / baseline");
    // On a shared machine wall time measures the neighbours too: the process's CPU time (all threads, the
    // polling client included) says what the path itself costs.
    const std::vector<double> timedCpu(cpu.end() - std::ptrdiff_t(seconds.ours.size()), cpu.end());
    std::printf("%s_cpu: %lld points, job dir -> API %s CPU, %.2f M points per CPU-second (medians), database "
                "%.1f MB\n",
        name.c_str(), expectedPoints, BenchReport::describe(BenchReport::spread(timedCpu), "s").c_str(),
        points / BenchReport::median(timedCpu) / 1e6, database.empty() ? 0.0 : database.back());
    std::fflush(stdout);
    goals->push_back({ name, "ours (M points/s)", BenchReport::median(rates.ours), true, 3 });
}

using Trainyard::MetricChart;
using Trainyard::MetricSeriesData;
using Trainyard::MetricsModel;
using Trainyard::SeriesInfo;
using Trainyard::SeriesPoint;

const QSize ChartSize(800, 500);

// A loss-like float scalar series: step i, a wall time every 50 ms, noise around a decaying curve.
SeriesPoint benchPoint(qint64 i)
{
    const double noise = double((i * 2654435761LL) % 1000) / 1000.0 - 0.5;
    return { i, 1795317519.0 + double(i) * 0.05, double(float(std::exp(-double(i) * 1e-6) + 0.05 * noise)) };
}

void renderInto(QWidget* view, QImage& image)
{
    image.fill(Qt::white);
    QPainter painter(&image);
    view->render(&painter);
}

/// `profileSeconds` > 0: ours alone, redrawing for that long (for `perf record`), nothing printed but a summary.
void benchRedraw(qint64 points, const char* name, std::vector<Goal>* goals, double profileSeconds = 0)
{
    // Ours: the Metrics tab's chart over the model; one run is 20 redraws, each after one new point.
    MetricsModel model;
    SeriesInfo info;
    info.name = QStringLiteral("scalar/./train/loss");
    info.kind = QStringLiteral("scalar");
    info.run = QStringLiteral(".");
    info.tag = QStringLiteral("train/loss");
    model.addSeries(info);
    QList<SeriesPoint> batch;
    batch.reserve(100000);
    for (qint64 i = 0; i < points; ++i) {
        batch.append(benchPoint(i));
        if (batch.size() == 100000) {
            model.appendPoints(info.name, batch);
            batch.clear();
        }
    }
    model.appendPoints(info.name, batch);
    MetricChart chart(&model, QStringLiteral("scalar:train/loss"));
    chart.addSeries(0, Qt::blue);
    chart.resize(ChartSize);
    chart.refresh();
    QImage image(ChartSize, QImage::Format_ARGB32_Premultiplied);
    renderInto(&chart, image); // lays the chart out once
    const int redraws = 20;
    qint64 appended = points;
    std::vector<double> updateMs; // append + reduce + replace, per redraw, each run
    auto ours = [&] {
        double update = 0;
        const double start = BenchReport::threadCpuSeconds();
        for (int r = 0; r < redraws; ++r) {
            const double u = BenchReport::threadCpuSeconds();
            model.appendPoints(info.name, { benchPoint(appended++) });
            chart.refresh();
            update += BenchReport::threadCpuSeconds() - u;
            renderInto(&chart, image);
        }
        updateMs.push_back(update * 1000 / redraws);
        return (BenchReport::threadCpuSeconds() - start) * 1000 / redraws;
    };

    if (profileSeconds > 0) {
        {
            // What the chart's refresh() spends in the model: the two M4 reductions alone.
            std::vector<double> reduceMs;
            for (int r = 0; r < 20; ++r) {
                const double start = BenchReport::threadCpuSeconds();
                const auto range = model.xRange(0, Trainyard::MetricsXAxis::Step);
                for (auto column : { MetricSeriesData::Value, MetricSeriesData::Smoothed })
                    model.reduce(0, column, Trainyard::MetricsXAxis::Step, range->first, range->second, 700);
                reduceMs.push_back((BenchReport::threadCpuSeconds() - start) * 1000);
            }
            std::printf("%s: the two reductions at 700 pixels %s\n", name,
                BenchReport::describe(BenchReport::spread(reduceMs), "ms").c_str());
        }
        std::vector<double> ms;
        for (const double until = BenchReport::wallSeconds() + profileSeconds; BenchReport::wallSeconds() < until;)
            ms.push_back(ours());
        std::printf("%s: %zu runs of %d redraws, %s a redraw\n", name, ms.size(), redraws,
            BenchReport::describe(BenchReport::spread(ms), "ms").c_str());
        return;
    }

    // Baseline: every point to Qt Charts with replace(), rendered once (the point list is built beforehand, so
    // the baseline is not charged for it).
    QList<QPointF> all;
    all.reserve(points + 1);
    for (qint64 i = 0; i <= points; ++i) {
        const SeriesPoint p = benchPoint(i);
        all.append(QPointF(double(p.step), p.value));
    }
    QChart* qchart = new QChart;
    auto* series = new QLineSeries;
    qchart->addSeries(series);
    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    qchart->addAxis(x, Qt::AlignBottom);
    qchart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    x->setRange(0, double(points));
    y->setRange(0, 1.1);
    QChartView view(qchart);
    view.setRenderHint(QPainter::Antialiasing);
    view.resize(ChartSize);
    QImage baselineImage(ChartSize, QImage::Format_ARGB32_Premultiplied);
    renderInto(&view, baselineImage);
    auto baseline = [&] {
        const double start = BenchReport::threadCpuSeconds();
        series->replace(all);
        renderInto(&view, baselineImage);
        return (BenchReport::threadCpuSeconds() - start) * 1000;
    };

    const BenchReport::Samples ms = BenchReport::alternate(Warmups, BenchReport::runs(), ours, baseline);
    const std::vector<double> timedUpdate(updateMs.end() - std::ptrdiff_t(ms.ours.size()), updateMs.end());
    std::fprintf(stderr, "%s: append + reduce + replace %s, the rest is the render; %d + %d points drawn\n", name,
        BenchReport::describe(BenchReport::spread(timedUpdate), "ms").c_str(), int(chart.rawPoints(0).size()),
        int(chart.smoothedPoints(0).size()));
    // For looking: with TRAINYARD_SCREENSHOT_DIR set, the chart as the last redraw drew it.
    const QString shots = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        image.save(shots + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
    if (chart.rawPoints(0).size() > 4 * ChartSize.width() + 2)
        std::fprintf(
            stderr, "%s: %d points drawn, more than the reduction gives\n", name, int(chart.rawPoints(0).size()));
    const double oursMs = BenchReport::median(ms.ours);
    BenchReport::printLine(name, ms, "ms", BenchReport::median(ms.baseline) / oursMs, Warmups,
        "CPU time; ours = one redraw (mean of 20 per run); ratio = baseline / ours");
    if (points >= 10000000)
        goals->push_back({ name, "ours (ms)", oursMs, false, 16 });
}

void benchChartStoreMemory(qint64 points, std::vector<Goal>* goals)
{
    std::vector<double> ours;
    for (int run = 0; run < Warmups + BenchReport::runs(); ++run) {
        const size_t before = heapInUse();
        auto data = std::make_unique<MetricSeriesData>();
        for (qint64 i = 0; i < points; ++i) {
            const SeriesPoint p = benchPoint(i);
            data->append(p.step, p.wallTime, p.value);
        }
        const size_t bytes = heapInUse() - before;
        data.reset();
        if (run >= Warmups)
            ours.push_back(double(bytes) / double(points));
    }
    // int64 step + double wall time + double value, exactly sized
    const std::vector<double> baseline(ours.size(), 24.0);
    BenchReport::printLine("memory_per_point_chart_store", { ours, baseline }, "bytes",
        BenchReport::median(ours) / 24.0, Warmups, "heap bytes per point of 10M float scalars");
    goals->push_back({ "memory_per_point_chart_store", "ours (bytes)", BenchReport::median(ours), false, 24 });
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("*.debug=false"));
    bool ok = true;
    const qint64 sizeMb = argc > 1 ? QByteArray(argv[1]).toLongLong(&ok) : 200;
    const bool parseOnly = argc > 2 && QByteArray(argv[2]) == "--parse-only";
    const bool ingestOnly = argc > 2 && QByteArray(argv[2]) == "--ingest-only";
    const bool profileRedraw = argc > 2 && QByteArray(argv[2]) == "--profile-redraw";
    if (!ok || sizeMb < 0 || (argc > 2 && !parseOnly && !ingestOnly && !profileRedraw) || argc > 3) {
        std::fprintf(stderr, "usage: bench_metrics [SIZE_MB] [--parse-only|--ingest-only|--profile-redraw]\n");
        return 2;
    }
    if (profileRedraw) { // ours alone at 10M points for SIZE_MB seconds, for perf record
        benchRedraw(10000000, "redraw_10M_points", nullptr, double(std::max<qint64>(sizeMb, 1)));
        return 0;
    }
    BenchReport::printHost();
    std::vector<Goal> goals;
    auto printGoals = [&] {
        for (const Goal& g : goals)
            BenchReport::printGoal(g);
    };
    if (!parseOnly && !ingestOnly) {
        benchRedraw(1000000, "redraw_1M_points", &goals);
        benchRedraw(10000000, "redraw_10M_points", &goals);
        benchChartStoreMemory(10000000, &goals);
    }
    if (sizeMb == 0) {
        printGoals();
        return 0;
    }
    if (!crc32cHardwareAvailable())
        std::fprintf(stderr, "note: no SSE4.2 crc32 instruction; the baseline uses Boost.CRC\n");

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.bench"));
    qint64 points = 0;
    const qint64 bytes = writeEventFile(path, sizeMb * 1000 * 1000, &points);
    if (bytes <= 0) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return 1;
    }
    std::fprintf(stderr, "wrote %lld bytes, %lld scalar events\n", bytes, points);

    if (!ingestOnly) {
        benchParse(path, bytes, points, &goals);
        benchMemory(path, &goals);
    }
    if (!parseOnly)
        benchIngest(path, bytes, points, &goals);
    printGoals();
    return 0;
}
