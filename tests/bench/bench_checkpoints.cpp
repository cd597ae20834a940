// SPDX-License-Identifier: GPL-2.0-or-later
// Listing the tensors of a 10,000-tensor checkpoint in each format, against what a user would
// otherwise run, measured in the same run:
//   list_pt_10000           PyTorchArchive::read      vs torch.load(map_location="cpu") in /usr/bin/python3
//                                                     goal: ratio ≥ 20
//   list_safetensors_10000  SafeTensors::read         vs open + read + json.loads of the header in /usr/bin/python3
//                                                     goal: ratio > 1 (faster than Python)
//   list_tfbundle_10000     TensorBundle::read        vs plain leveldb::Table iteration, no protobuf decode
// Ratio = baseline / ours (above 1: ours is faster). Each line is the median of BENCH_RUNS (default 7) runs after
// one warm-up, wall time on the steady clock; ours and the baseline alternate run by run. The Python baselines run
// warm in one long-lived interpreter that times each load with time.perf_counter() and answers on stdout, so they
// pay neither the interpreter's start-up nor a first call's lazy imports, as ours pays no first-run page faults.
// (Until issue 17 each Python run was a fresh interpreter and each figure the best of 5: the first load in a
// process is the slowest and the most variable one, which moved the pt ratio between 8 and 19 on one machine.)
//
// Usage: bench_checkpoints [--profile pt|safetensors|tfbundle [SECONDS]]: ours alone in a loop (default 10 s) for
// `perf record`, no baseline. BENCH_DEBUG_FAULTS=1 prints each of our runs' CPU ms and minor page faults on stderr.
#include "benchreport.h"
#include "crc32c.h"
#include "pytorcharchive.h"
#include "safetensors.h"
#include "tensor_bundle.pb.h"
#include "tensorbundle.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtEndian>

#include <leveldb/env.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>
#include <leveldb/table_builder.h>

#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>

using namespace Trainyard::Formats;

namespace {

constexpr int kTensors = 10000;
constexpr int kElements = 4; // float32 [4] each: the listing cost is per tensor, not per byte
constexpr int kWarmups = 1;
const QString kPython = QStringLiteral("/usr/bin/python3");

/// CPU ms of the calling thread for one call of `run`, or -1 when it failed; its wall ms go to `wallMs`.
double timedMs(const std::function<bool()>& run, std::vector<double>* wallMs = nullptr)
{
    const double wall = BenchReport::wallSeconds();
    const double start = BenchReport::threadCpuSeconds();
    rusage before {};
    getrusage(RUSAGE_THREAD, &before);
    const bool ok = run();
    const double ms = (BenchReport::threadCpuSeconds() - start) * 1000;
    rusage after {};
    getrusage(RUSAGE_THREAD, &after);
    if (std::getenv("BENCH_DEBUG_FAULTS"))
        std::fprintf(stderr, "run: %.3f ms CPU, %ld minor faults\n", ms, after.ru_minflt - before.ru_minflt);
    if (wallMs)
        wallMs->push_back((BenchReport::wallSeconds() - wall) * 1000);
    return ok ? ms : -1;
}

/// A long-lived /usr/bin/python3 that runs one baseline load per request, warm: the interpreter, its imports and
/// the first call's lazy set-up are paid before the first timed request. Each request is a line with a path; the
/// answer a line with the thread CPU seconds (time.thread_time()) and the wall seconds (time.perf_counter()) of
/// the load alone.
class PythonBaseline {
public:
    /// `kind`: "pt" (torch.load(path, map_location="cpu")) or "json" (open, read the 8-byte length and the
    /// header, json.loads).
    explicit PythonBaseline(const char* kind)
    {
        static const QString script = QStringLiteral("import sys, time, json, struct\n"
                                                     "kind = sys.argv[1]\n"
                                                     "if kind == 'pt':\n"
                                                     "    import torch\n"
                                                     "    torch.set_num_threads(1)\n"
                                                     "def load(path):\n"
                                                     "    if kind == 'pt':\n"
                                                     "        return torch.load(path, map_location='cpu')\n"
                                                     "    with open(path, 'rb') as f:\n"
                                                     "        n = struct.unpack('<Q', f.read(8))[0]\n"
                                                     "        return json.loads(f.read(n))\n"
                                                     "for line in sys.stdin:\n"
                                                     "    w = time.perf_counter(); c = time.thread_time()\n"
                                                     "    load(line.rstrip('\\n'))\n"
                                                     "    c = time.thread_time() - c; w = time.perf_counter() - w\n"
                                                     "    sys.stdout.write('%r %r\\n' % (c, w)); sys.stdout.flush()\n");
        // One thread for torch's pools, as the load uses: on a 2-CPU machine, workers left spinning after a load
        // took the other CPU (a hyperthread sibling, on some hosts), and our next run measured them.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : { "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS" })
            env.insert(QString::fromLatin1(name), QStringLiteral("1"));
        m_process.setProcessEnvironment(env);
        m_process.start(kPython, { QStringLiteral("-c"), script, QString::fromLatin1(kind) });
    }
    ~PythonBaseline()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(30000))
            m_process.kill();
    }

    /// One load of `path`, in CPU ms; -1 when Python failed (its stderr is printed). Its wall ms go to `wallMs`.
    double loadMs(const QString& path, std::vector<double>* wallMs)
    {
        m_process.write(QFile::encodeName(path) + '\n');
        while (!m_process.canReadLine()) {
            if (!m_process.waitForReadyRead(600000)) {
                std::fprintf(stderr, "python failed: %s\n", m_process.readAllStandardError().constData());
                return -1;
            }
        }
        const QList<QByteArray> fields = m_process.readLine().trimmed().split(' ');
        bool cpuOk = false, wallOk = false;
        const double cpu = fields.value(0).toDouble(&cpuOk), wall = fields.value(1).toDouble(&wallOk);
        if (!cpuOk || !wallOk)
            return -1;
        wallMs->push_back(wall * 1000);
        return cpu * 1000;
    }

private:
    QProcess m_process;
};

/// Wall-clock ms of each run (warm-ups included), beside the CPU times that the line reports.
struct WallTimes {
    std::vector<double> ours;
    std::vector<double> baseline;
};

/// Prints the line, its detail and (with `goal` > 0) its goal line: ratio = baseline / ours, of the medians.
/// `strict`: the goal is ratio > goal ("faster than"), not ≥.
void report(const char* name, const BenchReport::Samples& s, const WallTimes& wall, double goal, bool strict = false)
{
    const double ratio = s.ours.empty() ? NAN : BenchReport::median(s.baseline) / BenchReport::median(s.ours);
    if (s.ours.empty()) {
        std::printf("%s: failed\n", name);
    } else {
        const auto timed = [&](const std::vector<double>& v) { // without the warm-ups
            return std::vector<double>(v.end() - std::ptrdiff_t(std::min(v.size(), s.ours.size())), v.end());
        };
        char note[160];
        std::snprintf(note, sizeof note, "CPU time; wall-time medians: ours %.4g ms, baseline %.4g ms",
            BenchReport::median(timed(wall.ours)), BenchReport::median(timed(wall.baseline)));
        BenchReport::printLine(name, s, "ms", ratio, kWarmups, note);
    }
    if (goal > 0)
        BenchReport::printGoal({ name, "ratio", ratio, true, goal, strict });
}

QString tensorName(int i)
{
    // Nested like a real state_dict: blocks of layers with weight/bias.
    return QStringLiteral("model.blocks.%1.layer%2.%3")
        .arg(i / 100)
        .arg((i / 2) % 50)
        .arg(i % 2 ? QStringLiteral("bias") : QStringLiteral("weight"));
}

bool makePt(const QString& path)
{
    const QString script = QStringLiteral(
        "import sys, torch, collections\n"
        "sd = collections.OrderedDict()\n"
        "for i in range(%1):\n"
        "    sd['blocks.%d.layer%d.%s' % (i // 100, (i // 2) % 50, 'bias' if i % 2 else 'weight')] = torch.randn(%2)\n"
        "torch.save({'epoch': 1, 'global_step': 100, 'model': sd}, sys.argv[1])\n")
                               .arg(kTensors)
                               .arg(kElements);
    QProcess p;
    p.start(kPython, { QStringLiteral("-c"), script, path });
    if (!p.waitForFinished(600000) || p.exitCode() != 0) {
        std::fprintf(stderr, "torch.save failed: %s\n", p.readAllStandardError().constData());
        return false;
    }
    return true;
}

bool makeSafeTensors(const QString& path)
{
    QJsonObject header;
    header.insert(QStringLiteral("__metadata__"), QJsonObject { { QStringLiteral("format"), QStringLiteral("pt") } });
    // safetensors lays tensors out in name order; any order is valid as long as they tile the buffer.
    QStringList names;
    for (int i = 0; i < kTensors; ++i)
        names.append(tensorName(i));
    names.sort();
    qint64 offset = 0;
    for (const QString& name : std::as_const(names)) {
        header.insert(name,
            QJsonObject {
                { QStringLiteral("dtype"), QStringLiteral("F32") },
                { QStringLiteral("shape"), QJsonArray { kElements } },
                { QStringLiteral("data_offsets"), QJsonArray { offset, offset + kElements * 4 } },
            });
        offset += kElements * 4;
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8)
        json.append(' ');
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    char length[8];
    qToLittleEndian<quint64>(quint64(json.size()), length);
    f.write(length, 8);
    f.write(json);
    f.write(QByteArray(offset, '\0'));
    return true;
}

// A bundle as TensorFlow's BundleWriter lays it out: a LevelDB-format table without
// compression, key "" → BundleHeaderProto, then the tensor names in bytewise order.
bool makeBundle(const QString& prefix)
{
    QStringList names;
    for (int i = 0; i < kTensors; ++i)
        names.append(tensorName(i));
    std::sort(names.begin(), names.end(), [](const QString& a, const QString& b) { return a.toUtf8() < b.toUtf8(); });
    QFile data(TensorBundle::shardFileName(prefix, 0, 1));
    if (!data.open(QIODevice::WriteOnly))
        return false;
    leveldb::WritableFile* raw = nullptr;
    if (!leveldb::Env::Default()->NewWritableFile(QString(prefix + QStringLiteral(".index")).toStdString(), &raw).ok())
        return false;
    std::unique_ptr<leveldb::WritableFile> file(raw);
    leveldb::Options options;
    options.compression = leveldb::kNoCompression;
    leveldb::TableBuilder builder(options, file.get());
    trainyard::tfckpt::BundleHeaderProto header;
    header.set_num_shards(1);
    header.mutable_version()->set_producer(1);
    builder.Add("", header.SerializeAsString());
    QByteArray values(kElements * 4, '\0');
    qint64 offset = 0;
    for (const QString& name : std::as_const(names)) {
        for (int e = 0; e < kElements; ++e)
            qToLittleEndian<float>(float(offset + e), values.data() + e * 4);
        data.write(values);
        trainyard::tfckpt::BundleEntryProto entry;
        entry.set_dtype(trainyard::tfckpt::DT_FLOAT);
        entry.mutable_shape()->add_dim()->set_size(kElements);
        entry.set_offset(offset);
        entry.set_size(values.size());
        entry.set_crc32c(maskCrc(crc32c(values.constData(), size_t(values.size()))));
        builder.Add(name.toStdString(), entry.SerializeAsString());
        offset += values.size();
    }
    return builder.Finish().ok() && file->Close().ok();
}

bool iterateTable(const QString& indexPath)
{
    leveldb::RandomAccessFile* raw = nullptr;
    uint64_t size = 0;
    leveldb::Env* env = leveldb::Env::Default();
    if (!env->GetFileSize(indexPath.toStdString(), &size).ok()
        || !env->NewRandomAccessFile(indexPath.toStdString(), &raw).ok())
        return false;
    std::unique_ptr<leveldb::RandomAccessFile> file(raw);
    leveldb::Table* table = nullptr;
    if (!leveldb::Table::Open(leveldb::Options(), file.get(), size, &table).ok())
        return false;
    std::unique_ptr<leveldb::Table> owner(table);
    std::unique_ptr<leveldb::Iterator> it(table->NewIterator(leveldb::ReadOptions()));
    size_t entries = 0, bytes = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
        ++entries;
        bytes += it->key().size() + it->value().size();
    }
    return it->status().ok() && entries == size_t(kTensors) + 1 && bytes > 0;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const QString profile = args.value(0) == QLatin1String("--profile") ? args.value(1) : QString();
    const double profileSeconds = args.size() > 2 ? args.at(2).toDouble() : 10;
    if ((!args.isEmpty() && profile.isEmpty()) || profileSeconds <= 0) {
        std::fprintf(stderr, "usage: bench_checkpoints [--profile pt|safetensors|tfbundle [SECONDS]]\n");
        return 2;
    }
    QTemporaryDir dir;
    if (!dir.isValid())
        return 1;
    if (profile.isEmpty())
        BenchReport::printHost();
    const int runs = BenchReport::runs();
    QString error;

    // Ours alone for `perf record`: as many reads as fit in profileSeconds.
    auto profileLoop = [&](const std::function<bool()>& ours) {
        const double until = BenchReport::wallSeconds() + profileSeconds;
        std::vector<double> ms;
        while (BenchReport::wallSeconds() < until) {
            ms.push_back(timedMs(ours));
            if (ms.back() < 0) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
        }
        std::printf("%s: %zu reads, %s\n", qPrintable(profile), ms.size(),
            BenchReport::describe(BenchReport::spread(ms), "ms").c_str());
        return 0;
    };

    if (profile.isEmpty() || profile == QLatin1String("pt")) {
        const QString pt = dir.filePath(QStringLiteral("ckpt.pt"));
        if (makePt(pt)) {
            auto ours = [&] {
                const auto info = PyTorchArchive::read(pt, &error);
                return info && info->tensors.size() == kTensors;
            };
            if (!profile.isEmpty())
                return profileLoop(ours);
            PythonBaseline python("pt");
            WallTimes wall;
            const auto samples = BenchReport::alternate(
                kWarmups, runs, [&] { return timedMs(ours, &wall.ours); },
                [&] { return python.loadMs(pt, &wall.baseline); });
            if (samples.ours.empty())
                std::fprintf(stderr, "list_pt_10000: %s\n", qPrintable(error));
            report("list_pt_10000", samples, wall, 20);
        } else {
            std::printf("list_pt_10000: skipped (torch.save failed)\n");
            BenchReport::printGoal({ "list_pt_10000", "ratio", NAN, true, 20 });
        }
    }

    if (profile.isEmpty() || profile == QLatin1String("safetensors")) {
        const QString st = dir.filePath(QStringLiteral("model.safetensors"));
        if (makeSafeTensors(st)) {
            auto ours = [&] {
                const auto info = SafeTensors::read(st, &error);
                return info && info->tensors.size() == kTensors;
            };
            if (!profile.isEmpty())
                return profileLoop(ours);
            PythonBaseline python("json");
            WallTimes wall;
            const auto samples = BenchReport::alternate(
                kWarmups, runs, [&] { return timedMs(ours, &wall.ours); },
                [&] { return python.loadMs(st, &wall.baseline); });
            if (samples.ours.empty())
                std::fprintf(stderr, "list_safetensors_10000: %s\n", qPrintable(error));
            report("list_safetensors_10000", samples, wall, 1, true);
        }
    }

    if (profile.isEmpty() || profile == QLatin1String("tfbundle")) {
        const QString prefix = dir.filePath(QStringLiteral("model.ckpt-100"));
        if (makeBundle(prefix)) {
            auto ours = [&] {
                const auto info = TensorBundle::read(prefix, &error);
                return info && info->tensors.size() == kTensors;
            };
            if (!profile.isEmpty())
                return profileLoop(ours);
            WallTimes wall;
            const auto samples = BenchReport::alternate(
                kWarmups, runs, [&] { return timedMs(ours, &wall.ours); },
                [&] {
                    return timedMs([&] { return iterateTable(prefix + QStringLiteral(".index")); }, &wall.baseline);
                });
            if (samples.ours.empty())
                std::fprintf(stderr, "list_tfbundle_10000: %s\n", qPrintable(error));
            report("list_tfbundle_10000", samples, wall, 0);
        }
    }
    if (!profile.isEmpty()) {
        std::fprintf(stderr, "unknown --profile %s\n", qPrintable(profile));
        return 2;
    }
    return 0;
}
