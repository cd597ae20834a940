// SPDX-License-Identifier: GPL-2.0-or-later
#include "inspectcheckpoint.h"

#include "apitypes.h"

#include "checkpointindex.h"
#include "checkpointreader.h"
#include "tensorbundle.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace Trainyard {

using namespace Trainyard::Formats;

namespace {

// Values are shown for tensors up to this size; bigger ones are refused with the limit named.
constexpr qint64 kMaxValueBytes = qint64(256) << 20;

const char kCheckpointUsage[] = "usage: trainyardctl inspect checkpoint PATH [--format table|json] [--values NAME]... "
                      "[--count N] [--verify]\n"
                      "PATH: a checkpoint (a TF bundle prefix or .index, a SavedModel, a .pt, a .safetensors), or a "
                      "folder of checkpoints, such as a job dir, to list them\n";

QString shapeText(const QList<qint64>& shape)
{
    QStringList dims;
    dims.reserve(shape.size());
    for (qint64 d : shape)
        dims.append(QString::number(d));
    return QLatin1Char('[') % dims.join(QStringLiteral(", ")) % QLatin1Char(']');
}

QString bytesText(qint64 bytes)
{
    if (bytes < 0)
        return QStringLiteral("?");
    return QString::number(bytes);
}

QString humanBytes(qint64 bytes)
{
    const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    return u == 0 ? QStringLiteral("%1 B").arg(bytes)
                  : QStringLiteral("%1 %2").arg(v, 0, 'f', 1).arg(QLatin1String(units[u]));
}

QString number(double v)
{
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(v, 'g', 8);
}

QJsonValue jsonScalar(const QVariant& v)
{
    return QJsonValue::fromVariant(v);
}

QString stepText(const std::optional<qint64>& v)
{
    return v ? QString::number(*v) : QStringLiteral("-");
}

/// `trainyardctl inspect checkpoint DIR` for a folder that holds checkpoints: one row each, newest first. Returns 0;
/// 1 when the folder holds none.
int listCheckpoints(const QString& dir, const QString& format, QTextStream& out, QTextStream& err)
{
    bool truncated = false;
    const QList<CheckpointEntry> found = CheckpointIndex().scan(dir, true, &truncated);
    if (format == QLatin1String("json")) {
        QJsonArray list;
        for (const CheckpointEntry& e : found)
            list.append(CheckpointSummary::fromEntry(e).toJson());
        QJsonObject json { { QStringLiteral("path"), QFileInfo(dir).absoluteFilePath() },
            { QStringLiteral("checkpoints"), list } };
        if (truncated)
            json.insert(QStringLiteral("truncated"), true);
        out << QJsonDocument(json).toJson(QJsonDocument::Indented);
        return found.isEmpty() ? 1 : 0;
    }
    if (found.isEmpty()) {
        err << "error: " << dir << ": no checkpoint in this folder (TensorFlow bundles, SavedModels, torch.save "
            << "archives, safetensors), nor is it one\n";
        return 1;
    }
    QList<QStringList> rows;
    for (const CheckpointEntry& e : found)
        rows.append({ e.name, e.format, stepText(e.step), stepText(e.epoch), humanBytes(e.sizeBytes),
            e.updateTime.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
            e.current ? QStringLiteral("yes") : e.exportedModel ? QStringLiteral("exported model") : QString() });
    const QStringList head { QStringLiteral("NAME"), QStringLiteral("FORMAT"), QStringLiteral("STEP"),
        QStringLiteral("EPOCH"), QStringLiteral("SIZE"), QStringLiteral("UPDATED"), QStringLiteral("NOTE") };
    QList<int> widths;
    for (int c = 0; c < head.size(); ++c) {
        int w = int(head.at(c).size());
        for (const QStringList& r : std::as_const(rows))
            w = std::max(w, int(r.at(c).size()));
        widths << w;
    }
    auto line = [&](const QStringList& cells) {
        QString text;
        for (int c = 0; c < cells.size(); ++c)
            text += cells.at(c).leftJustified(c + 1 < cells.size() ? widths.at(c) + 2 : 0);
        out << text.trimmed() << '\n';
    };
    line(head);
    for (const QStringList& r : std::as_const(rows))
        line(r);
    if (truncated)
        out << "(the folder was not read to its end: it holds more than " << CheckpointIndex::MaxEntries
            << " entries)\n";
    // The suggestion is the newest checkpoint (the exported model, listed last, was suggested before: issue 46).
    auto newest = std::find_if(found.cbegin(), found.cend(), [](const CheckpointEntry& e) { return !e.exportedModel; });
    if (newest == found.cend())
        newest = found.cbegin();
    out << "\nInspect one: trainyardctl inspect checkpoint " << QDir(dir).filePath(newest->name) << '\n';
    return 0;
}

} // namespace

int runInspectCheckpoint(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QString path;
    QString format = QStringLiteral("table");
    QStringList valueNames;
    int count = 10;
    bool verify = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args.at(i);
        auto value = [&](const QString& option, QString* out) {
            if (a.startsWith(option + QLatin1Char('='))) {
                *out = a.mid(option.size() + 1);
                return true;
            }
            if (a == option && i + 1 < args.size()) {
                *out = args.at(++i);
                return true;
            }
            return false;
        };
        QString v;
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            out << QLatin1String(kCheckpointUsage);
            return 0;
        } else if (value(QStringLiteral("--format"), &v)) {
            format = v;
        } else if (value(QStringLiteral("--values"), &v)) {
            valueNames.append(v);
        } else if (value(QStringLiteral("--count"), &v)) {
            bool ok = false;
            count = v.toInt(&ok);
            if (!ok || count < 0) {
                err << "--count: expected a non-negative integer, got \"" << v << "\"\n";
                return 2;
            }
        } else if (a == QLatin1String("--verify")) {
            verify = true;
        } else if (a.startsWith(QLatin1String("--"))) {
            err << "unknown option " << a << '\n' << QLatin1String(kCheckpointUsage);
            return 2;
        } else if (path.isEmpty()) {
            path = a;
        } else {
            err << "unexpected argument \"" << a << "\" (one PATH only)\n" << QLatin1String(kCheckpointUsage);
            return 2;
        }
    }
    if (path.isEmpty()) {
        err << "missing PATH\n" << QLatin1String(kCheckpointUsage);
        return 2;
    }
    if (format != QLatin1String("table") && format != QLatin1String("json")) {
        err << "--format: expected table or json, got \"" << format << "\"\n";
        return 2;
    }

    QString error;
    const auto info = CheckpointReader::read(path, &error);
    if (!info) {
        // A folder that is no checkpoint itself: a job dir, say. List the checkpoints in it as the console's
        // Checkpoints tab does (CheckpointIndex, the executor's rule), and how to open one.
        if (QFileInfo(path).isDir() && valueNames.isEmpty() && !verify)
            return listCheckpoints(path, format, out, err);
        err << "error: " << error << '\n';
        return 1;
    }

    int status = 0;
    QStringList verifyFailures;
    if (verify) {
        if (info->format != QLatin1String("tf-bundle")) {
            err << "--verify: " << info->format << " checkpoints carry no per-tensor checksums\n";
            return 2;
        }
        for (const TensorInfo& t : info->tensors) {
            if (!TensorBundle::verifyCrc(t, &error))
                verifyFailures.append(error);
        }
    }

    QJsonObject valuesJson;
    QList<std::pair<const TensorInfo*, TensorStats>> stats;
    for (const QString& name : std::as_const(valueNames)) {
        const TensorInfo* t = info->find(name);
        if (!t) {
            err << "error: no tensor named \"" << name << "\" in " << info->path << '\n';
            return 1;
        }
        auto s = CheckpointReader::tensorStats(*info, *t, kMaxValueBytes, count, &error);
        if (!s) {
            err << "error: " << error << '\n';
            status = 1;
            continue;
        }
        valuesJson.insert(t->name, s->toJson());
        stats.append({ t, *s });
    }

    if (format == QLatin1String("json")) {
        QJsonArray tensors;
        for (const TensorInfo& t : info->tensors) {
            QJsonArray shape;
            for (qint64 d : t.shape)
                shape.append(d);
            QJsonObject o {
                { QStringLiteral("name"), t.name },
                { QStringLiteral("dtype"), t.dtype },
                { QStringLiteral("shape"), shape },
                { QStringLiteral("bytes"), t.size },
                { QStringLiteral("file"), t.file },
                { QStringLiteral("offset"), t.offset },
            };
            if (t.displayName != t.name)
                o.insert(QStringLiteral("objectPath"), t.displayName);
            if (info->format == QLatin1String("tf-bundle"))
                o.insert(QStringLiteral("shard"), t.shard);
            if (t.crc32c)
                o.insert(QStringLiteral("crc32c"), QStringLiteral("%1").arg(*t.crc32c, 8, 16, QLatin1Char('0')));
            if (!t.storageKey.isEmpty()) {
                QJsonArray strides;
                for (qint64 s : t.strides)
                    strides.append(s);
                o.insert(QStringLiteral("strides"), strides);
                o.insert(QStringLiteral("storageKey"), t.storageKey);
                o.insert(QStringLiteral("storageOffset"), t.storageOffset);
                o.insert(QStringLiteral("storageBytes"), t.storageBytes);
            }
            if (t.isMetadata)
                o.insert(QStringLiteral("metadata"), true);
            tensors.append(o);
        }
        QJsonObject scalars;
        for (auto it = info->scalars.cbegin(); it != info->scalars.cend(); ++it)
            scalars.insert(it.key(), jsonScalar(it.value()));
        QJsonObject doc {
            { QStringLiteral("format"), info->format },
            { QStringLiteral("path"), info->path },
            { QStringLiteral("tensors"), tensors },
            { QStringLiteral("totalBytes"), info->totalBytes() },
            { QStringLiteral("scalars"), scalars },
            { QStringLiteral("metadata"), info->metadata },
        };
        if (!valuesJson.isEmpty())
            doc.insert(QStringLiteral("values"), valuesJson);
        if (verify)
            doc.insert(QStringLiteral("verifyErrors"), QJsonArray::fromStringList(verifyFailures));
        out << QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    } else {
        out << "Checkpoint: " << info->path << " (" << info->format << ", " << info->tensors.size() << " tensors, "
            << humanBytes(info->totalBytes()) << ")\n";
        const QStringList headers { QStringLiteral("NAME"), QStringLiteral("DTYPE"), QStringLiteral("SHAPE"),
            QStringLiteral("BYTES") };
        QList<QStringList> rows;
        rows.reserve(info->tensors.size());
        for (const TensorInfo& t : info->tensors)
            rows.append({ t.displayName, t.dtype, shapeText(t.shape), bytesText(t.size) });
        QList<qsizetype> widths;
        for (const QString& h : headers)
            widths.append(h.size());
        for (const QStringList& r : std::as_const(rows)) {
            for (qsizetype c = 0; c < r.size(); ++c)
                widths[c] = std::max(widths[c], r[c].size());
        }
        auto printRow = [&](const QStringList& r) {
            QString line;
            for (qsizetype c = 0; c < r.size(); ++c) {
                // Bytes are numbers: right-aligned; the last column carries no trailing blanks.
                if (c == r.size() - 1)
                    line += r[c].rightJustified(widths[c]);
                else
                    line += r[c].leftJustified(widths[c]) + QStringLiteral("  ");
            }
            out << line << '\n';
        };
        printRow(headers);
        for (const QStringList& r : std::as_const(rows))
            printRow(r);
        if (!info->scalars.isEmpty()) {
            out << "\nScalars:\n";
            for (auto it = info->scalars.cbegin(); it != info->scalars.cend(); ++it)
                out << "  " << it.key() << " = " << it.value().toString() << '\n';
        }
        for (const auto& [t, s] : std::as_const(stats)) {
            out << "\nValues of " << t->displayName << " (" << t->dtype << ' ' << shapeText(t->shape) << ", " << s.count
                << " elements):\n";
            out << "  min " << number(s.min) << "  max " << number(s.max) << "  mean " << number(s.mean) << "  std "
                << number(s.std) << "  NaN " << s.nanCount << "  Inf " << s.infCount << '\n';
            QStringList first;
            for (double v : s.firstValues)
                first.append(number(v));
            out << "  first " << s.firstValues.size() << ": " << first.join(QStringLiteral(", ")) << '\n';
        }
        if (verify) {
            if (verifyFailures.isEmpty())
                out << "\nCRC-32C: all " << info->tensors.size() << " tensors match\n";
            else
                out << "\nCRC-32C: " << verifyFailures.size() << " mismatches\n";
        }
    }
    for (const QString& f : std::as_const(verifyFailures))
        err << "error: " << f << '\n';
    if (!verifyFailures.isEmpty())
        status = 1;
    out.flush();
    return status;
}

} // namespace Trainyard
