// SPDX-License-Identifier: GPL-2.0-or-later
// Listing the tensors of a 10,000-tensor checkpoint in each format, against what a user would
// otherwise run, measured in the same run:
//   list_pt_10000           PyTorchArchive::read      vs torch.load(map_location="cpu") in /usr/bin/python3
//   list_safetensors_10000  SafeTensors::read         vs json.loads of the header in /usr/bin/python3
//   list_tfbundle_10000     TensorBundle::read        vs plain leveldb::Table iteration, no protobuf decode
// Each figure is the best of several runs (ms); the Python baselines time only the load, not
// the interpreter's start-up. Prints `NAME: ours X ms, baseline Y ms, ratio R`.
#include "crc32c.h"
#include "pytorcharchive.h"
#include "safetensors.h"
#include "tensor_bundle.pb.h"
#include "tensorbundle.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
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

#include <cstdio>
#include <functional>
#include <memory>

using namespace Trainyard::Formats;

namespace {

constexpr int kTensors = 10000;
constexpr int kElements = 4; // float32 [4] each: the listing cost is per tensor, not per byte
constexpr int kRuns = 5;
const QString kPython = QStringLiteral("/usr/bin/python3");

double bestMs(const std::function<bool()>& run)
{
    double best = 1e300;
    for (int i = 0; i < kRuns; ++i) {
        QElapsedTimer timer;
        timer.start();
        if (!run())
            return -1;
        best = std::min(best, double(timer.nsecsElapsed()) / 1e6);
    }
    return best;
}

// Runs a Python snippet that prints one float (seconds); best of kRuns runs, in ms.
double pythonBestMs(const QString& script, const QString& arg)
{
    double best = 1e300;
    for (int i = 0; i < kRuns; ++i) {
        QProcess p;
        p.start(kPython, { QStringLiteral("-c"), script, arg });
        if (!p.waitForFinished(600000) || p.exitCode() != 0) {
            std::fprintf(stderr, "python failed: %s\n", p.readAllStandardError().constData());
            return -1;
        }
        bool ok = false;
        const double seconds = p.readAllStandardOutput().trimmed().toDouble(&ok);
        if (!ok)
            return -1;
        best = std::min(best, seconds * 1000);
    }
    return best;
}

void report(const char* name, double ours, double baseline)
{
    if (ours < 0 || baseline < 0) {
        std::printf("%s: failed (ours %.3f, baseline %.3f)\n", name, ours, baseline);
        return;
    }
    std::printf("%s: ours %.3f ms, baseline %.3f ms, ratio %.3g\n", name, ours, baseline, baseline / ours);
    std::fflush(stdout);
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
        header.insert(name, QJsonObject {
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
    QTemporaryDir dir;
    if (!dir.isValid())
        return 1;
    QString error;

    const QString pt = dir.filePath(QStringLiteral("ckpt.pt"));
    if (makePt(pt)) {
        const double ours = bestMs([&] {
            const auto info = PyTorchArchive::read(pt, &error);
            return info && info->tensors.size() == kTensors;
        });
        if (ours < 0)
            std::fprintf(stderr, "list_pt_10000: %s\n", qPrintable(error));
        const double baseline = pythonBestMs(
            QStringLiteral("import sys, time, torch\n"
                           "t = time.perf_counter(); torch.load(sys.argv[1], map_location='cpu'); "
                           "print(time.perf_counter() - t)\n"),
            pt);
        report("list_pt_10000", ours, baseline);
    } else {
        std::printf("list_pt_10000: skipped (torch.save failed)\n");
    }

    const QString st = dir.filePath(QStringLiteral("model.safetensors"));
    if (makeSafeTensors(st)) {
        const double ours = bestMs([&] {
            const auto info = SafeTensors::read(st, &error);
            return info && info->tensors.size() == kTensors;
        });
        if (ours < 0)
            std::fprintf(stderr, "list_safetensors_10000: %s\n", qPrintable(error));
        const double baseline = pythonBestMs(
            QStringLiteral("import sys, time, json, struct\n"
                           "t = time.perf_counter()\n"
                           "with open(sys.argv[1], 'rb') as f:\n"
                           "    n = struct.unpack('<Q', f.read(8))[0]; h = json.loads(f.read(n))\n"
                           "print(time.perf_counter() - t)\n"),
            st);
        report("list_safetensors_10000", ours, baseline);
    }

    const QString prefix = dir.filePath(QStringLiteral("model.ckpt-100"));
    if (makeBundle(prefix)) {
        const double ours = bestMs([&] {
            const auto info = TensorBundle::read(prefix, &error);
            return info && info->tensors.size() == kTensors;
        });
        if (ours < 0)
            std::fprintf(stderr, "list_tfbundle_10000: %s\n", qPrintable(error));
        const double baseline = bestMs([&] { return iterateTable(prefix + QStringLiteral(".index")); });
        report("list_tfbundle_10000", ours, baseline);
    }
    return 0;
}
