// SPDX-License-Identifier: GPL-2.0-or-later
// A job's event stream (`…:events`): the job and its replicas now, then every change until the job ends.
#include "eventshandler.h"

#include "apicommon.h"
#include "apicontext.h"
#include "ssestream.h"

#include "jobstore.h"
#include "scheduler.h"

#include <QJsonArray>
#include <QPointer>
#include <QTimer>
#include <QUrlQuery>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

EventsHandler::EventsHandler(ApiContext* context, JobStore* store, Scheduler* scheduler, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_store(store)
    , m_scheduler(scheduler)
{
}

HttpApi::Reply EventsHandler::events(const ApiRequest& request, const QString& project, const QString& jobId,
    const HttpChannelPtr& channel, bool* streaming)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    const bool follow = isTrue(queryValue(request.query(), QStringLiteral("follow")));

    *streaming = true;
    SseStream* stream = m_context->openStream(channel, "events " + jobId.toUtf8());
    QPointer<SseStream> guard(stream);
    QPointer<Scheduler> scheduler(m_scheduler);
    const JobKey key { project, jobId };
    // The replicas as last heard (Scheduler::replicasChanged carries the whole list): the stream's last event
    // repeats them once the job ended.
    auto replicas = std::make_shared<QList<ReplicaInfo>>(scheduler ? scheduler->replicas(key) : QList<ReplicaInfo>());
    auto sendReplicas = [guard, replicas] {
        if (!guard || guard->isFinished())
            return;
        QJsonArray list;
        for (const ReplicaInfo& r : std::as_const(*replicas))
            list.append(r.toJson());
        guard->writeEvent("replicas", compact(QJsonObject { { QStringLiteral("replicas"), list } }));
    };
    stream->writeEvent("job", compact(JobJson::toJson(*job)));
    sendReplicas();
    if (!follow) {
        stream->finish(true);
        return {};
    }

    auto ending = std::make_shared<bool>(false);
    auto onJob = [guard, key, sendReplicas, ending](const JobKey& changedKey, const Job& changed, bool announce) {
        if (changedKey != key || !guard || *ending)
            return;
        if (announce)
            guard->writeEvent("job", compact(JobJson::toJson(changed)));
        if (!isFinal(changed.state))
            return;
        *ending = true;
        const QString state = jobStateName(changed.state);
        QTimer::singleShot(EndSettleMs, guard, [guard, sendReplicas, state] {
            if (!guard || guard->isFinished())
                return;
            sendReplicas();
            guard->writeEvent("end", compact(QJsonObject { { QStringLiteral("state"), state } }));
            guard->finish(true);
        });
    };
    connect(m_store, &JobStore::jobChanged, stream, [onJob](const QString& changedProject, const Job& changed) {
        onJob(JobKey { changedProject, changed.jobId }, changed, true);
    });
    connect(m_scheduler, &Scheduler::replicasChanged, stream,
        [key, replicas, sendReplicas, ending](const JobKey& changed, const QList<ReplicaInfo>& now) {
            if (changed != key)
                return;
            *replicas = now;
            if (!*ending)
                sendReplicas();
        });
    onJob(key, *job, false);
    return {};
}

} // namespace Trainyard
