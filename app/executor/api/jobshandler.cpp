// SPDX-License-Identifier: GPL-2.0-or-later
// The jobs resource: create, get, list (and its stream), patch, cancel, and the replicas of a job.
#include "jobshandler.h"

#include "apicommon.h"
#include "apicontext.h"
#include "backend.h"
#include "containerhost.h"
#include "rfc3339.h"
#include "ssestream.h"

#include "builtinalgorithm.h"
#include "jobfilter.h"
#include "jobstore.h"
#include "pathpolicy.h"
#include "predictionservice.h"
#include "scheduler.h"

#include <QDateTime>
#include <QJsonArray>
#include <QPointer>
#include <QSslSocket>
#include <QThread>
#include <QUrlQuery>

#include <algorithm>
#include <limits>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

JobsHandler::JobsHandler(ApiContext* context, JobStore* store, Scheduler* scheduler, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_store(store)
    , m_scheduler(scheduler)
{
}

FieldViolations JobsHandler::resumeViolations(const QString& project, const HyperparameterSpec& spec) const
{
    // The service: "the previous job's trials are used as the starting point"; it must be a tuning job of
    // this project with the same parameters and goal, or the prior observations would be of another study.
    const QString field = QStringLiteral("trainingInput.hyperparameters.resumePreviousJobId");
    const std::optional<Job> previous = m_store->job(project, spec.resumePreviousJobId);
    if (!previous)
        return { { field,
            QStringLiteral("There is no job \"%1\" in project %2 to resume.")
                .arg(spec.resumePreviousJobId, project) } };
    if (!previous->trainingInput.hyperparameters)
        return { { field,
            QStringLiteral("Job \"%1\" is not a hyperparameter tuning job.").arg(spec.resumePreviousJobId) } };
    const HyperparameterSpec& before = *previous->trainingInput.hyperparameters;
    if (before.params != spec.params)
        return { { field,
            QStringLiteral("Job \"%1\" searched other parameters; a resumed study must have the same params.")
                .arg(spec.resumePreviousJobId) } };
    if (before.goal != spec.goal)
        return { { field,
            QStringLiteral("Job \"%1\" had goal %2; a resumed study must have the same goal.")
                .arg(spec.resumePreviousJobId, before.goal) } };
    if (!isFinal(previous->state))
        return { { field,
            QStringLiteral("Job \"%1\" is still %2; resume a study once it has ended.")
                .arg(spec.resumePreviousJobId, jobStateName(previous->state)) } };
    return {};
}

HttpApi::Reply JobsHandler::createJob(const ApiRequest& request, const QString& project, const HttpApi::Caller& caller)
{
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations;
    Job job = JobJson::fromJson(*body, &violations);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);

    // Output-only fields are ignored on create, as the service ignores them.
    job.createTime.clear();
    job.startTime.clear();
    job.endTime.clear();
    job.state = JobState::StateUnspecified;
    job.errorMessage.clear();
    job.etag.clear();
    job.jobPosition.reset();
    job.trainingOutput.reset();
    job.predictionOutput.reset();
    if (job.predictionInput)
        return createPredictionJob(project, std::move(job), caller);
    if (BuiltInAlgorithms::forJob(job.trainingInput)) {
        job.trainingOutput = TrainingOutput {};
        job.trainingOutput->isBuiltInAlgorithmJob = true;
    }

    // A job whose region names a cluster runs on its nodes: this workstation's size does not matter, and its job
    // dir must be in the cluster's shared folder, which the nodes see at the same path.
    if (const Backend* cluster = m_scheduler->clusterBackend(job.trainingInput.region)) {
        violations = validateClusterJob(job, MachineCatalog::builtin());
        violations += pathsFor(cluster).violations(job.trainingInput.jobDir);
        if (usesContainers(job.trainingInput))
            violations.append({ QStringLiteral("trainingInput.region"),
                QStringLiteral("Custom containers (imageUri) do not run on the Slurm cluster %1: Trainyard does not "
                               "pass images to Slurm's container support. Run the job on this host (region local) or "
                               "give a Python package.")
                    .arg(cluster->name()) });
    } else {
        violations = validateJob(job, MachineCatalog::builtin(), m_context->hostInventory());
        violations += m_context->pathPolicy().violations(job.trainingInput.jobDir);
        violations += m_context->pathPolicy().packageViolations(
            QStringLiteral("trainingInput.packageUris"), job.trainingInput.packageUris);
        // Only a job valid so far costs a podman call per image.
        if (violations.isEmpty() && usesContainers(job.trainingInput))
            violations = ContainerHost::violations(job.trainingInput, m_scheduler->containerRuntime());
    }
    // A built-in algorithm runs the bundled package: a job that names one is refused where it is not installed.
    if (violations.isEmpty() && BuiltInAlgorithms::forJob(job.trainingInput)
        && BuiltInAlgorithms::packageDir().isEmpty())
        violations.append({ QStringLiteral("trainingInput.masterConfig.imageUri"),
            BuiltInAlgorithms::notInstalledMessage(job.trainingInput.masterConfig->imageUri) });
    if (violations.isEmpty() && job.trainingInput.hyperparameters
        && !job.trainingInput.hyperparameters->resumePreviousJobId.isEmpty())
        violations = resumeViolations(project, *job.trainingInput.hyperparameters);
    if (!violations.isEmpty())
        return errorReply(
            RpcCode::InvalidArgument, QStringLiteral("Request contains an invalid argument."), violations);
    return storeNewJob(project, std::move(job), caller);
}

HttpApi::Reply JobsHandler::storeNewJob(
    const QString& project, Job job, const HttpApi::Caller& caller, std::optional<BatchPlan> batchPlan)
{
    const auto alreadyExists = [] {
        // A job ID is unique within its project (another project may hold the same ID), as in the service.
        const QString description = QStringLiteral("A job with this id already exists.");
        return errorReply(RpcCode::AlreadyExists, QStringLiteral("Field: job.job_id Error: ") + description,
            { FieldViolation { QStringLiteral("jobId"), description } });
    };
    if (m_store->contains(project, job.jobId))
        return alreadyExists();

    job.createTime = Rfc3339::now();
    job.state = JobState::Queued;
    QString storeError;
    // The creator is kept beside the job, not in it (the service's Job has no such field): it is the job's
    // roles/ml.jobOwner, what the job's IAM policy shows until someone sets another.
    if (!m_store->insert(project, job, &storeError, caller.member)) {
        if (m_store->contains(project, job.jobId))
            return alreadyExists();
        qCWarning(lcApi).noquote() << "create" << job.jobId << "failed:" << storeError;
        return storeFailure(QStringLiteral("the job"), storeError);
    }
    qCInfo(lcApi).noquote() << "job" << jobName(project, job.jobId) << "created";
    const std::optional<Job> stored = m_store->job(project, job.jobId);
    if (!stored)
        return errorReply(RpcCode::Internal, QStringLiteral("The stored job cannot be read back."));
    // The scheduler writes the service's first log lines ("Validating job requirements...") and queues it.
    m_scheduler->submit(project, *stored, std::move(batchPlan));
    // The scheduler may already have moved it on (position in the queue, PREPARING).
    return jsonReply(JobJson::toJson(m_store->job(project, job.jobId).value_or(*stored)));
}

PathPolicy JobsHandler::pathsFor(const Backend* cluster) const
{
    if (!cluster)
        return m_context->pathPolicy();
    PathPolicy policy({ cluster->runFolderRoot(QString()) });
    policy.setExecutorFolders(m_context->pathPolicy().executorFolders());
    return policy;
}

HttpApi::Reply JobsHandler::createPredictionJob(const QString& project, Job job, const HttpApi::Caller& caller)
{
    PredictionInput& in = *job.predictionInput;
    FieldViolations violations;
    const Backend* cluster = m_scheduler->clusterBackend(in.region);
    violations = cluster ? validateClusterJob(job, MachineCatalog::builtin())
                         : validateJob(job, MachineCatalog::builtin(), m_context->hostInventory());
    // The workers write outputPath and read uri and the input files: paths the one rule allows (a cluster's shared
    // folder there). Each file a pattern matches is checked again when the plan is made (BatchPlan::make).
    const PathPolicy policy = pathsFor(cluster);
    // The one URL rule (PathPolicy::urlProblem()) is also the job's own: the same violation is not given twice.
    const auto checkPath = [&](const QString& path, const QString& field, PathUse use) {
        for (const FieldViolation& v : policy.violations(path, field, use)) {
            if (!violations.contains(v))
                violations.append(v);
        }
    };
    checkPath(in.outputPath, QStringLiteral("predictionInput.outputPath"), PathUse::OutputFolder);
    checkPath(in.uri, QStringLiteral("predictionInput.uri"), PathUse::ModelFolder);
    for (qsizetype i = 0; i < in.inputPaths.size(); ++i)
        checkPath(in.inputPaths.at(i), QStringLiteral("predictionInput.inputPaths[%1]").arg(i), PathUse::InputFile);
    if (violations.isEmpty() && BuiltInAlgorithms::packageDir().isEmpty())
        violations.append({ QStringLiteral("predictionInput"),
            BuiltInAlgorithms::notInstalledMessage(QStringLiteral("Batch prediction")) });
    // The model and the input files, as the job will find them when it starts: an error now rather than a job
    // that fails at once.
    // The plan is made once, here, and travels with the job to the scheduler (its driver keeps it in the job's folder).
    std::optional<BatchPlan> plan;
    if (violations.isEmpty()) {
        FieldViolation error { QStringLiteral("predictionInput"), QStringLiteral("this executor serves no models") };
        std::optional<BatchModel> model;
        if (PredictionService* prediction = m_context->predictionService())
            model = prediction->batchModel(project, in, &error);
        // A cluster's nodes are many; on this host, more workers than vCPUs only take turns.
        const int workerLimit = cluster ? std::numeric_limits<int>::max() : QThread::idealThreadCount();
        if (model)
            plan = BatchPlan::make(in, *model, workerLimit, QString(), policy, &error);
        if (!plan)
            violations.append(error);
    }
    if (!violations.isEmpty())
        return errorReply(
            RpcCode::InvalidArgument, QStringLiteral("Request contains an invalid argument."), violations);
    job.trainingInput = TrainingInput();
    job.predictionOutput = PredictionOutput { in.outputPath, {}, {}, {}, {} };
    return storeNewJob(project, std::move(job), caller, std::move(plan));
}

HttpApi::Reply JobsHandler::getJob(const QString& project, const QString& jobId)
{
    // The stored record is the job's API JSON (JobStore writes JobJson::toJson with its etag): answered as it is,
    // as a page of the list is, a GET neither decodes nor encodes the job.
    std::optional<JobRecord> record = m_store->record(project, jobId);
    if (!record)
        return jobNotFound(project, jobId);
    Reply reply;
    reply.body = std::move(record->json);
    return reply;
}

HttpApi::Reply JobsHandler::listJobs(
    const ApiRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming)
{
    const QUrlQuery query = request.query();
    if (isTrue(queryValue(query, QStringLiteral("follow"))))
        return watchJobs(request, project, channel, streaming);
    const QString filterText = queryValue(query, QStringLiteral("filter"));
    QString filterError;
    const std::optional<JobFilter> filter = JobFilter::parse(filterText, &filterError);
    if (!filter)
        return invalidArgument(QStringLiteral("filter"), filterError);
    int pageSize = 0;
    if (!parsePageSize(queryValue(query, QStringLiteral("pageSize")), HttpApi::DefaultJobsPageSize,
            HttpApi::MaxJobsPageSize, &pageSize))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));

    // Newest first; a page token names the last job of the previous page, so a page stays stable
    // while new jobs are created (they go in front) — jobs are never deleted.
    QString afterId;
    const QString pageToken = queryValue(query, QStringLiteral("pageToken"));
    if (!pageToken.isEmpty() && !decodePageToken(pageToken, QStringLiteral("jobs"), &afterId))
        return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of this list"));
    QList<JobRecord> page;
    bool more = false;
    QString storeError;
    if (!m_store->listPage(project, *filter, pageSize, afterId, &page, &more, &storeError)) {
        if (!afterId.isEmpty())
            return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of this list"));
        return errorReply(RpcCode::Internal, QStringLiteral("Cannot list the jobs: ") + storeError);
    }
    // The stored records are the jobs' API JSON (JobStore writes JobJson::toJson): spliced in as they
    // are, a page costs no decoding and no encoding. Keys in the order QJsonDocument writes them.
    Reply reply;
    reply.body = "{";
    if (!page.isEmpty()) {
        reply.body += "\"jobs\":[";
        for (qsizetype i = 0; i < page.size(); ++i) {
            if (i > 0)
                reply.body += ',';
            reply.body += page.at(i).json;
        }
        reply.body += ']';
    }
    if (more) {
        if (!page.isEmpty())
            reply.body += ',';
        reply.body
            += "\"nextPageToken\":\"" + encodePageToken(QStringLiteral("jobs"), page.last().jobId).toLatin1() + '"';
    }
    reply.body += '}';
    return reply;
}

namespace {
/// The job stream's cursor: which database (JobStore::storeId) and the last revision seen.
QByteArray jobsCursor(const QString& storeId, qint64 revision)
{
    return storeId.toLatin1() + '.' + QByteArray::number(revision);
}
} // namespace

HttpApi::Reply JobsHandler::watchJobs(
    const ApiRequest& request, const QString& project, const HttpChannelPtr& channel, bool* streaming)
{
    const QUrlQuery query = request.query();
    if (!queryValue(query, QStringLiteral("filter")).isEmpty())
        return invalidArgument(QStringLiteral("filter"),
            QStringLiteral("is not supported with follow=true; the stream sends every job of the project"));
    // Resume: `since=CURSOR` (or the SSE `Last-Event-ID` header, which EventSource clients send by
    // themselves) from this database sends only the jobs written after it. A cursor of another
    // database, or from this one's future (a restored backup), gets `reset` and everything.
    QByteArray cursor = queryValue(query, QStringLiteral("since")).toLatin1();
    if (cursor.isEmpty())
        cursor = request.header("Last-Event-ID");
    const qint64 now = m_store->revision();
    qint64 since = 0;
    bool reset = false;
    if (!cursor.isEmpty()) {
        const qsizetype dot = cursor.lastIndexOf('.');
        bool ok = false;
        const qint64 revision = dot > 0 ? cursor.mid(dot + 1).toLongLong(&ok) : 0;
        if (!ok || revision < 0)
            return invalidArgument(QStringLiteral("since"), QStringLiteral("is not a cursor of this stream"));
        if (cursor.left(dot) == m_store->storeId().toLatin1() && revision <= now)
            since = revision;
        else
            reset = true;
    }

    *streaming = true;
    SseStream* stream = m_context->openStream(channel, "jobs of " + project.toUtf8());
    if (reset)
        stream->writeEvent("reset", "{}");
    const QString storeId = m_store->storeId();

    // The stream is paced by its client: records are read from the store (JobStore::changedSince, from the last
    // revision sent) and written only while the client has less than JobStreamUnreadBytes unread; the rest waits in
    // the store, not in memory, until the socket drains. A change that comes while the client is behind is not
    // buffered either: it is in the store under a newer revision, and the next read sends it (a job changed twice
    // is sent once, as it is now). So a follower holds at most about JobStreamUnreadBytes plus one job however
    // slowly it reads, where the whole list was buffered for every follower before (40 non-reading followers of a
    // 12.6 MB list: 336 MB). The client still gets every job in its latest form, then `synced`, then the changes.
    constexpr qint64 JobStreamUnreadBytes = 256 * 1024;
    // Writing resumes once the client has read all but this much: a socket that drains a little at a time (TCP
    // window probes of a client that stopped reading) must not cost a read of the store each time.
    constexpr qint64 JobStreamResumeBytes = 64 * 1024;
    // Records are read a few at a time: what is read beyond the client's allowance is read again next time.
    constexpr int JobStreamBatch = 4;
    struct Follow {
        qint64 sent = 0; ///< every change of the project up to this revision was sent
        bool synced = false; ///< the snapshot's end (`synced`) was sent
        qint64 snapshotJobs = 0;
        bool behind = true; ///< changes past `sent` may wait in the store
    };
    auto follow = std::make_shared<Follow>();
    follow->sent = since;
    QPointer<SseStream> guard(stream);
    QPointer<JobStore> store(m_store);
    auto frame = [storeId](const JobRecord& record) -> QByteArray {
        return "id: " + jobsCursor(storeId, record.revision) + "\nevent: job\ndata: " + record.json + "\n\n";
    };
    auto pump = std::make_shared<std::function<void()>>();
    *pump = [guard, channel, store, project, storeId, follow, frame] {
        while (guard && !guard->isFinished() && store && follow->behind && channel->backlog() <= JobStreamUnreadBytes) {
            const QList<JobRecord> batch = store->changedSince(project, follow->sent, JobStreamBatch);
            // Written in chunks of about 64 KiB, and no further than the client's unread allowance: what is left of
            // the batch is read again next time.
            QByteArray out;
            bool full = false;
            for (const JobRecord& record : batch) {
                out += frame(record);
                follow->sent = record.revision;
                if (!follow->synced)
                    ++follow->snapshotJobs;
                if (out.size() >= 64 * 1024) {
                    guard->writeChunk(std::exchange(out, QByteArray()));
                    if (!guard || guard->isFinished())
                        return;
                    if (channel->backlog() > JobStreamUnreadBytes) {
                        full = true;
                        break;
                    }
                }
            }
            if (!out.isEmpty())
                guard->writeChunk(out);
            if (full || batch.size() == JobStreamBatch)
                continue;
            // Caught up: nothing of the project past `sent` is stored. The store's revision now covers it too.
            follow->behind = false;
            follow->sent = qMax(follow->sent, store->revision());
            if (!follow->synced && guard && !guard->isFinished()) {
                // The end of the snapshot: a client shows its list from here on, and resumes from this cursor.
                follow->synced = true;
                const QByteArray cursor = jobsCursor(storeId, follow->sent);
                guard->writeChunk("id: " + cursor + "\nevent: synced\ndata: "
                    + compact(QJsonObject { { QStringLiteral("cursor"), QString::fromLatin1(cursor) },
                        { QStringLiteral("jobs"), QString::number(follow->snapshotJobs) } })
                    + "\n\n");
            }
        }
    };
    connect(m_store, &JobStore::jobStored, stream,
        [guard, channel, project, follow, frame, pump](const JobRecord& record, const Job&) {
            if (!guard || guard->isFinished() || record.project != project || record.revision <= follow->sent)
                return;
            if (!follow->behind && channel->backlog() <= JobStreamUnreadBytes) {
                // Caught up and read: the change is the next one, written as it comes.
                guard->writeChunk(frame(record));
                follow->sent = record.revision;
                return;
            }
            follow->behind = true;
            (*pump)();
        });
    if (QTcpSocket* socket = channel->socket()) {
        std::weak_ptr<std::function<void()>> weakPump = pump;
        auto drained = [follow, weakPump, channel] {
            if (const auto again = weakPump.lock();
                again && follow->behind && channel->backlog() <= JobStreamResumeBytes)
                (*again)();
        };
        connect(socket, &QTcpSocket::bytesWritten, stream, drained);
        // On TLS the backlog is the encrypted bytes as well (HttpChannel::backlog()), which drain later.
        if (auto* tls = qobject_cast<QSslSocket*>(socket))
            connect(tls, &QSslSocket::encryptedBytesWritten, stream, drained);
    }
    // The stream owns the reader; the socket's handler above only borrows it.
    stream->cleanup = [keep = pump]() mutable { keep.reset(); };
    (*pump)();
    return {};
}

HttpApi::Reply JobsHandler::cancelJob(const QString& project, const QString& jobId)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    const auto alreadyDone = [] {
        return errorReply(RpcCode::FailedPrecondition, QStringLiteral("Cannot cancel an already completed job."));
    };
    if (isFinal(job->state))
        return alreadyDone();
    if (job->state != JobState::Cancelling && !m_scheduler->cancel(JobKey { project, jobId })) {
        const std::optional<Job> now = m_store->job(project, jobId);
        if (!now || isFinal(now->state))
            return alreadyDone();
    }
    qCInfo(lcApi).noquote() << "job" << jobName(project, jobId) << "cancel requested";
    return jsonReply(QJsonObject {});
}

HttpApi::Reply JobsHandler::patchJob(const ApiRequest& request, const QString& project, const QString& jobId)
{
    Reply error;
    const std::optional<UpdateMask> mask = parseUpdateMask(request, QStringLiteral("labels"), &error);
    if (!mask)
        return error;
    for (const QString& path : mask->paths) {
        if (path != QLatin1String("labels"))
            return invalidArgument(QStringLiteral("updateMask"),
                QStringLiteral("\"%1\" cannot be updated; only \"labels\" can").arg(printable(path)));
    }
    std::optional<Job> current = m_store->job(project, jobId);
    if (!current)
        return jobNotFound(project, jobId);
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    FieldViolations violations;
    const Job patch = JobJson::fromJson(*body, &violations);
    if (!violations.isEmpty())
        return decodeErrorReply(violations);
    violations = labelViolations(patch.labels);
    if (!violations.isEmpty())
        return errorReply(
            RpcCode::InvalidArgument, QStringLiteral("Request contains an invalid argument."), violations);
    if (const auto stale = etagProblem(QStringLiteral("job"), current->etag, patch.etag, mask->checksEtag))
        return *stale;
    current->labels = patch.labels;
    QString storeError;
    if (!m_store->update(project, *current, &storeError))
        return storeFailure(QStringLiteral("the job's labels"), storeError);
    return jsonReply(JobJson::toJson(m_store->job(project, jobId).value_or(*current)));
}

HttpApi::Reply JobsHandler::replicas(const QString& project, const QString& jobId)
{
    if (!m_store->contains(project, jobId))
        return jobNotFound(project, jobId);
    QJsonArray list;
    const QList<ReplicaInfo> replicas = m_scheduler->replicas(JobKey { project, jobId });
    for (const ReplicaInfo& r : replicas)
        list.append(r.toJson());
    return jsonReply(QJsonObject { { QStringLiteral("replicas"), list } });
}

} // namespace Trainyard
