// SPDX-License-Identifier: GPL-2.0-or-later
// The checkpoints of a job: the list of its job dir's checkpoints and one checkpoint's tensors (read on the
// thread pool).
#include "checkpointshandler.h"

#include "apicommon.h"
#include "apicontext.h"

#include "apitypes.h"
#include "checkpointindex.h"
#include "checkpointreader.h"
#include "jobstore.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>
#include <QUrlQuery>

#include <algorithm>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

namespace {
using Formats::CheckpointInfo;
using Formats::CheckpointReader;
using Formats::TensorInfo;

/// The wire type of a tensor the reader found; its file relative to the job dir `root`.
CheckpointTensor wireTensor(const TensorInfo& t, const QDir& root)
{
    CheckpointTensor w;
    w.name = t.name;
    w.displayName = t.displayName;
    w.dtype = t.dtype;
    w.elementType = t.elementType != Formats::ElementType::Other ? Formats::elementTypeName(t.elementType) : QString();
    w.shape = t.shape;
    w.sizeBytes = t.size >= 0 ? t.size : -1;
    w.shard = t.shard;
    w.file = root.relativeFilePath(t.file);
    w.metadata = t.isMetadata;
    return w;
}

QString checkpointMessage(const QString& project, const QString& jobId, const QString& name, const QString& why)
{
    return QStringLiteral("Checkpoint \"%1\" of %2: %3.").arg(name, jobName(project, jobId), why);
}

/// Reads checkpoint `name` of a job dir and answers with its tensors, or with statistics and the
/// first values of one of them. Runs on the thread pool: touches nothing but its arguments.
HttpApi::Reply readCheckpoint(const QString& project, const QString& jobId, const QString& jobDir, const QString& name,
    const QString& tensorName, int values)
{
    QString path;
    QString why;
    switch (CheckpointIndex::resolve(jobDir, name, &path, &why)) {
    case CheckpointIndex::Resolution::Ok:
        break;
    case CheckpointIndex::Resolution::Invalid:
        return invalidArgument(QStringLiteral("name"), QStringLiteral("\"%1\" %2").arg(name, why));
    case CheckpointIndex::Resolution::Outside:
        return errorReply(RpcCode::PermissionDenied, checkpointMessage(project, jobId, name, why));
    case CheckpointIndex::Resolution::NotFound:
        return errorReply(RpcCode::NotFound, checkpointMessage(project, jobId, name, why));
    }
    const QString root = QFileInfo(jobDir).canonicalFilePath();
    QString resolved;
    if (CheckpointReader::detect(path, &resolved).isEmpty())
        return errorReply(
            RpcCode::NotFound, checkpointMessage(project, jobId, name, QStringLiteral("not a checkpoint")));
    // A sharded index's shards are named by the index: one outside its folder is refused as a symlink out is (the
    // reader would fail on it, which said DATA_LOSS about a file it must not read).
    for (const QString& index : { resolved, path }) {
        const QString shard = CheckpointIndex::shardOutside(root, index);
        if (!shard.isEmpty())
            return errorReply(RpcCode::PermissionDenied,
                checkpointMessage(project, jobId, name,
                    QStringLiteral("its index names the shard \"%1\", which lies outside the index's folder")
                        .arg(shard)));
    }
    QString error;
    const std::optional<CheckpointInfo> info = CheckpointReader::read(path, &error);
    if (!info)
        return errorReply(
            RpcCode::DataLoss, checkpointMessage(project, jobId, name, QStringLiteral("cannot be read: ") + error));
    // A shard, a safetensors part or a state file's target may lead elsewhere (a symlink, an absolute
    // path): every byte served must come from inside the job dir.
    QSet<QString> files(info->files.cbegin(), info->files.cend());
    for (const TensorInfo& t : info->tensors)
        files.insert(t.file);
    for (const QString& f : std::as_const(files)) {
        const QString canonical = QFileInfo(f).canonicalFilePath();
        if (!CheckpointIndex::isInside(root, canonical))
            return errorReply(RpcCode::PermissionDenied,
                checkpointMessage(project, jobId, name,
                    QStringLiteral("its file %1 lies outside the job dir").arg(QFileInfo(f).fileName())));
        // A hard link's other names may lie outside the job dir, and nothing here tells where: not served.
        if (const qint64 links = CheckpointIndex::hardLinks(canonical))
            return errorReply(RpcCode::PermissionDenied,
                checkpointMessage(project, jobId, name,
                    QStringLiteral("its file %1 has %2 hard links; a file with more than one is not served, because "
                                   "its other links may lie outside the job dir (copy it instead of linking it)")
                        .arg(QFileInfo(f).fileName())
                        .arg(links)));
    }
    QString format = info->format;
    if (QFileInfo(path).isDir()
        && (QFileInfo::exists(path + QStringLiteral("/saved_model.pb"))
            || QFileInfo::exists(path + QStringLiteral("/saved_model.pbtxt"))))
        format = QStringLiteral("tf-saved-model");

    const QDir rootDir(root);
    if (tensorName.isNull()) {
        CheckpointDetail detail;
        detail.name = name;
        detail.format = format;
        detail.totalBytes = info->totalBytes();
        for (const QString& f : info->files)
            detail.files.append(rootDir.relativeFilePath(f));
        detail.tensors.reserve(info->tensors.size());
        for (const TensorInfo& t : info->tensors)
            detail.tensors.append(wireTensor(t, rootDir));
        for (auto it = info->scalars.cbegin(); it != info->scalars.cend(); ++it)
            detail.scalars.insert(it.key(), QJsonValue::fromVariant(it.value()));
        detail.metadata = info->metadata;
        return jsonReply(detail.toJson());
    }

    const TensorInfo* tensor = info->find(tensorName);
    if (!tensor)
        return errorReply(RpcCode::NotFound,
            checkpointMessage(project, jobId, name, QStringLiteral("has no tensor named \"%1\"").arg(tensorName)));
    const int elementSize = Formats::elementSize(tensor->elementType);
    if (elementSize == 0)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Tensor \"%1\": values of dtype %2 are not decoded.").arg(tensorName, tensor->dtype));
    const qint64 count = tensor->elementCount();
    if (count < 0 || count > HttpApi::MaxTensorValueBytes / elementSize || tensor->size > HttpApi::MaxTensorValueBytes)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Tensor \"%1\" has %2 elements of %3 bytes; values and statistics are read for tensors "
                           "of at most %4 bytes.")
                .arg(tensorName)
                .arg(count)
                .arg(elementSize)
                .arg(HttpApi::MaxTensorValueBytes));
    const auto stats = CheckpointReader::tensorStats(*info, *tensor, HttpApi::MaxTensorValueBytes, values, &error);
    if (!stats)
        return errorReply(RpcCode::DataLoss, QStringLiteral("Tensor \"%1\" cannot be read: %2").arg(tensorName, error));
    TensorValues answer;
    answer.checkpoint = name;
    answer.tensor = wireTensor(*tensor, rootDir);
    answer.count = stats->count;
    answer.nanCount = stats->nanCount;
    answer.infCount = stats->infCount;
    answer.min = stats->min;
    answer.max = stats->max;
    answer.mean = stats->mean;
    answer.std = stats->std;
    answer.values = QList<double>(stats->firstValues.cbegin(), stats->firstValues.cend());
    return jsonReply(answer.toJson());
}

} // namespace

CheckpointsHandler::CheckpointsHandler(ApiContext* context, JobStore* store, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_store(store)
    , m_checkpoints(std::make_shared<CheckpointIndex>())
{
}

bool CheckpointsHandler::jobDir(
    const QString& project, const QString& jobId, Job* job, QString* dir, HttpApi::Reply* error) const
{
    std::optional<Job> stored = m_store->job(project, jobId);
    if (!stored) {
        *error = jobNotFound(project, jobId);
        return false;
    }
    *job = std::move(*stored);
    return localJobDir(*job, m_context->pathPolicy(), dir, error);
}

HttpApi::Reply CheckpointsHandler::checkpoints(
    const QString& project, const QString& jobId, const HttpChannelPtr& channel, bool* deferred)
{
    Job job;
    QString dir;
    Reply error;
    if (!jobDir(project, jobId, &job, &dir, &error))
        return error;
    const bool trials = job.trainingInput.hyperparameters.has_value();
    *deferred = true;
    m_context->runLater(channel, [index = m_checkpoints, dir, trials]() -> Reply {
        CheckpointList list;
        const QList<CheckpointEntry> entries = index->scan(dir, trials, &list.truncated);
        list.checkpoints.reserve(entries.size());
        for (const CheckpointEntry& e : entries)
            list.checkpoints.append(CheckpointSummary::fromEntry(e));
        list.jobDir = dir;
        return jsonReply(list.toJson());
    });
    return {};
}

HttpApi::Reply CheckpointsHandler::checkpoint(const ApiRequest& request, const QString& project, const QString& jobId,
    const QString& name, const HttpChannelPtr& channel, bool* deferred)
{
    Job job;
    QString dir;
    Reply error;
    if (!jobDir(project, jobId, &job, &dir, &error))
        return error;
    const QUrlQuery query = request.query();
    QString tensor;
    if (query.hasQueryItem(QStringLiteral("tensor"))) {
        tensor = queryValue(query, QStringLiteral("tensor"));
        if (tensor.isEmpty())
            return invalidArgument(QStringLiteral("tensor"), QStringLiteral("must name a tensor of the checkpoint"));
    }
    int values = HttpApi::DefaultTensorValues;
    const QString valuesText = queryValue(query, QStringLiteral("values"));
    if (!valuesText.isEmpty()) {
        bool ok = false;
        const qlonglong n = valuesText.toLongLong(&ok);
        if (!ok || n < 0)
            return invalidArgument(QStringLiteral("values"), QStringLiteral("must be a non-negative integer"));
        values = int(std::min<qlonglong>(n, HttpApi::MaxTensorValues));
    }
    *deferred = true;
    m_context->runLater(channel, [project, jobId, dir, name, tensor, values]() {
        return readCheckpoint(project, jobId, dir, name, tensor, values);
    });
    return {};
}

} // namespace Trainyard
