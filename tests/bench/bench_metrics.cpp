// SPDX-License-Identifier: GPL-2.0-or-later
// Metrics benchmarks (issue 4). Each prints `NAME: ours X unit, baseline Y unit, ratio R`, the
// baseline measured in the same run:
// - parse_200MB_event_file: EventFileReader + ScalarRun over a 200 MB event file of scalars,
//   against reading the same file and computing its CRC-32C with the CPU's crc32 instruction
//   (the bound for any reader that verifies the records). Goal: ratio ≥ 0.5.
// - memory_per_point: heap bytes per stored point of ScalarRun, against an exactly sized array
//   of 24-byte points. Goal: ≤ 24 bytes.
// Chart redraw benchmarks (1 and 10 million points) join here as further bench functions.
//
// Usage: bench_metrics [SIZE_MB] (default 200). Times are the best of three passes with the
// file in the page cache, in CPU time of the benchmark thread (user + system, so the read()
// calls count): the development machines are shared, and wall time there measures the
// neighbours as much as the code.

#include "crc32c.h"
#include "event.pb.h"
#include "eventfilereader.h"
#include "scalarseriesstore.h"
#include "tfrecordreader.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

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

size_t heapInUse()
{
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
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

double parseSeconds(const QString& path, qint64* points)
{
    const CpuTimer timer;
    ScalarRun run(QStringLiteral("."));
    EventFileReader reader(path);
    reader.readAvailable(run);
    const double seconds = timer.seconds();
    *points = run.pointCount();
    if (!reader.takeIssues().empty())
        std::fprintf(stderr, "unexpected issues reading %s\n", qPrintable(path));
    return seconds;
}

void benchParse(const QString& path, qint64 fileBytes, qint64 expectedPoints)
{
    const double mb = double(fileBytes) / 1e6;
    double baseline = 1e300;
    double ours = 1e300;
    quint32 crc = 0;
    for (int pass = 0; pass < 3; ++pass) {
        baseline = std::min(baseline, readAndCrcSeconds(path, &crc));
        qint64 points = 0;
        ours = std::min(ours, parseSeconds(path, &points));
        if (points != expectedPoints)
            std::fprintf(stderr, "parsed %lld points, wrote %lld\n", points, expectedPoints);
    }
    std::printf("parse_%dMB_event_file: ours %.1f MB/s, baseline %.1f MB/s, ratio %.2f\n", int(std::lround(mb)),
        mb / ours, mb / baseline, baseline / ours);
    std::fflush(stdout);
}

void benchMemory(const QString& path)
{
    const size_t before = heapInUse();
    auto run = std::make_unique<ScalarRun>(QStringLiteral("."));
    {
        EventFileReader reader(path);
        reader.readAvailable(*run);
    } // the reader's buffer is not the store's memory
    const size_t ours = heapInUse() - before;
    const qint64 points = run->pointCount();
    run.reset();

    const size_t baselineBefore = heapInUse();
    std::unique_ptr<ScalarPoint[]> packed(new ScalarPoint[size_t(points)]);
    for (qint64 i = 0; i < points; ++i)
        packed[size_t(i)] = { i, double(i), double(i) };
    const size_t baseline = heapInUse() - baselineBefore;

    const double oursPerPoint = double(ours) / double(points);
    const double baselinePerPoint = double(baseline) / double(points);
    std::printf("memory_per_point: ours %.2f bytes, baseline %.2f bytes, ratio %.3f\n", oursPerPoint, baselinePerPoint,
        oursPerPoint / baselinePerPoint);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const qint64 sizeMb = argc > 1 ? QByteArray(argv[1]).toLongLong() : 200;
    if (sizeMb <= 0) {
        std::fprintf(stderr, "usage: bench_metrics [SIZE_MB]\n");
        return 2;
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

    benchParse(path, bytes, points);
    benchMemory(path);
    return 0;
}
