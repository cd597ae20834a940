// SPDX-License-Identifier: GPL-2.0-or-later
#include "checkpointreader.h"

#include "checkpointstate.h"
#include "kerasarchive.h"
#include "pytorcharchive.h"
#include "safetensors.h"
#include "tensorbundle.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstring>

namespace Trainyard::Formats {

namespace {

const QString kTfBundle = QStringLiteral("tf-bundle");
const QString kPyTorch = QStringLiteral("pytorch");
const QString kSafeTensors = QStringLiteral("safetensors");
const QString kKeras = QStringLiteral("keras");

QString detectFile(const QString& path)
{
    if (path.endsWith(QLatin1String(".safetensors")) || path.endsWith(QLatin1String(".safetensors.index.json")))
        return kSafeTensors;
    if (!TensorBundle::prefixFromPath(path).isEmpty())
        return kTfBundle;
    if (path.endsWith(QLatin1String(".keras")))
        return kKeras; // a zip too, but not torch.save's
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = file.read(9);
    if (head.startsWith("PK\x03\x04"))
        return kPyTorch;
    if (path.endsWith(QLatin1String(".pt")) || path.endsWith(QLatin1String(".pth")))
        return kPyTorch; // the reader explains what is wrong with it
    if (head.size() == 9 && head.at(8) == '{')
        return kSafeTensors;
    if (path.endsWith(QLatin1String(".json")))
        return kSafeTensors;
    return {};
}

} // namespace

QString CheckpointReader::detect(const QString& path, QString* resolved)
{
    const QFileInfo info(path);
    *resolved = path;
    if (info.isDir()) {
        const QDir dir(path);
        if (QFileInfo::exists(dir.filePath(QStringLiteral("checkpoint")))) {
            QString error;
            if (const auto state = CheckpointState::readFile(dir.filePath(QStringLiteral("checkpoint")), &error)) {
                QString target = CheckpointState::resolve(state->modelCheckpointPath, path);
                if (TensorBundle::prefixFromPath(target).isEmpty())
                    target = dir.filePath(QFileInfo(state->modelCheckpointPath).fileName());
                if (!state->modelCheckpointPath.isEmpty() && !TensorBundle::prefixFromPath(target).isEmpty()) {
                    *resolved = target;
                    return kTfBundle;
                }
            }
        }
        if (!TensorBundle::prefixFromPath(path).isEmpty())
            return kTfBundle;
        const QStringList indexes = dir.entryList({ QStringLiteral("*.safetensors.index.json") }, QDir::Files);
        if (indexes.size() == 1) {
            *resolved = dir.filePath(indexes.first());
            return kSafeTensors;
        }
        const QStringList bundles = dir.entryList({ QStringLiteral("*.index") }, QDir::Files);
        if (bundles.size() == 1) {
            *resolved = dir.filePath(bundles.first());
            return kTfBundle;
        }
        return {};
    }
    if (!info.exists()) {
        // A bundle prefix is not a file itself.
        return TensorBundle::prefixFromPath(path).isEmpty() ? QString() : kTfBundle;
    }
    return detectFile(path);
}

std::optional<CheckpointInfo> CheckpointReader::read(const QString& path, QString* error)
{
    QString resolved;
    const QString format = detect(path, &resolved);
    if (format == kTfBundle)
        return TensorBundle::read(resolved, error);
    if (format == kPyTorch)
        return PyTorchArchive::read(resolved, error);
    if (format == kSafeTensors)
        return SafeTensors::read(resolved, error);
    if (format == kKeras)
        return KerasArchive::read(resolved, error);
    if (error) {
        if (!QFileInfo::exists(path))
            *error = QStringLiteral("%1: no such file, folder or tensor bundle prefix").arg(path);
        else
            *error = QStringLiteral("%1: not a recognised checkpoint (TensorFlow bundle, SavedModel, torch.save "
                                    "archive, safetensors or Keras archive)")
                         .arg(path);
    }
    return std::nullopt;
}

std::optional<QByteArray> CheckpointReader::readTensorData(
    const CheckpointInfo& info, const TensorInfo& tensor, qint64 maxBytes, QString* error)
{
    if (info.format == kTfBundle) {
        if (info.metadata.value(QStringLiteral("endianness")).toString() == QLatin1String("BIG")) {
            if (error)
                *error = QStringLiteral("%1: big-endian bundles are not decoded").arg(info.path);
            return std::nullopt;
        }
        return TensorBundle::readTensorData(tensor, maxBytes, true, error);
    }
    if (info.format == kPyTorch)
        return PyTorchArchive::readTensorData(tensor, maxBytes, error);
    if (info.format == kSafeTensors)
        return SafeTensors::readTensorData(tensor, maxBytes, error);
    if (info.format == kKeras)
        return KerasArchive::readTensorData(tensor, maxBytes, error);
    if (error)
        *error = QStringLiteral("unknown checkpoint format \"%1\"").arg(info.format);
    return std::nullopt;
}

std::optional<TensorStats> CheckpointReader::tensorStats(
    const CheckpointInfo& info, const TensorInfo& tensor, qint64 maxBytes, int firstN, QString* error)
{
    if (elementSize(tensor.elementType) == 0) {
        if (error)
            *error = QStringLiteral("tensor \"%1\": values of dtype %2 are not decoded").arg(tensor.name, tensor.dtype);
        return std::nullopt;
    }
    auto bytes = readTensorData(info, tensor, maxBytes, error);
    if (!bytes)
        return std::nullopt;
    // A strided PyTorch view spans more bytes than it has elements; gather them in order.
    const qint64 count = tensor.elementCount();
    const int size = elementSize(tensor.elementType);
    if (!tensor.strides.isEmpty() && count * size != bytes->size()) {
        // Broadcast views (stride 0) have more elements than bytes: bound the gathered copy too.
        if (count < 0 || count > maxBytes / size) {
            if (error)
                *error = QStringLiteral("tensor \"%1\" has %2 elements, more than the limit of %3 bytes allows")
                             .arg(tensor.name)
                             .arg(count)
                             .arg(maxBytes);
            return std::nullopt;
        }
        QByteArray gathered(count * size, Qt::Uninitialized);
        QList<qint64> index(tensor.shape.size(), 0);
        for (qint64 i = 0; i < count; ++i) {
            qint64 at = 0;
            for (qsizetype d = 0; d < index.size(); ++d)
                at += index[d] * tensor.strides[d];
            std::memcpy(gathered.data() + i * size, bytes->constData() + at * size, size_t(size));
            for (qsizetype d = index.size() - 1; d >= 0; --d) {
                if (++index[d] < tensor.shape[d])
                    break;
                index[d] = 0;
            }
        }
        bytes = gathered;
    }
    return TensorStats::compute(tensor.elementType, *bytes, firstN, error);
}

} // namespace Trainyard::Formats
