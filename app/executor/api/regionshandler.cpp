// SPDX-License-Identifier: GPL-2.0-or-later
// Where jobs run (our extension, app/executor/API.md "Regions"): `local` (this host) and each Slurm cluster of
// clusters.yaml, with its state as the cluster answers now, its partitions, nodes, and the project's live jobs there.
#include "regionshandler.h"

#include "apicommon.h"
#include "apicontext.h"
#include "backend.h"
#include "jobstore.h"
#include "scheduler.h"

#include <QJsonArray>
#include <QSysInfo>

#include <memory>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

namespace {

QString regionStateName(RegionStatus::State state)
{
    switch (state) {
    case RegionStatus::State::Up:
        return QStringLiteral("UP");
    case RegionStatus::State::Down:
        return QStringLiteral("DOWN");
    case RegionStatus::State::Unauthenticated:
        return QStringLiteral("UNAUTHENTICATED");
    }
    return QString();
}

/// One region as API.md shows it (RegionInfo, the type the clients decode); `jobs`: the project's live jobs there.
RegionInfo regionInfo(const QString& name, const RegionStatus& status, const QList<RegionJobInfo>& jobs)
{
    RegionInfo r;
    r.name = name;
    r.kind = status.kind;
    r.state = regionStateName(status.state);
    r.message = status.message;
    r.endpoint = status.endpoint;
    r.user = status.user;
    r.partition = status.partition;
    r.checks = status.checks;
    r.partitions = status.partitions;
    r.nodes = status.nodes;
    r.jobs = jobs;
    return r;
}

} // namespace

RegionsHandler::RegionsHandler(ApiContext* context, JobStore* store, Scheduler* scheduler, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_store(store)
    , m_scheduler(scheduler)
{
}

HttpApi::Reply RegionsHandler::regions(
    const QString& project, const QString& region, const HttpChannelPtr& channel, bool* deferred)
{
    const QList<Backend*> clusters = m_scheduler->clusterBackends();
    QStringList names { QStringLiteral("local") };
    for (const Backend* b : clusters)
        names << b->name();
    if (!region.isEmpty() && !names.contains(region))
        return errorReply(RpcCode::NotFound,
            QStringLiteral("Region '%1' is not configured on this executor; its regions are: %2 (clusters come from "
                           "clusters.yaml).")
                .arg(region, names.join(QStringLiteral(", "))));

    // The project's live jobs by region: a cluster's name, else this host.
    QHash<QString, QList<RegionJobInfo>> jobs;
    for (const StoredJob& stored : m_store->liveJobs()) {
        if (stored.project != project)
            continue;
        const QString where
            = names.contains(stored.job.trainingInput.region) ? stored.job.trainingInput.region : names.first();
        jobs[where].append(RegionJobInfo {
            stored.job.jobId, jobStateName(stored.job.state), m_scheduler->clusterJobIds(stored.key()) });
    }

    // This host: always up; its one node is what `…/host` reports.
    const HostStatus host = m_scheduler->usage();
    RegionStatus local;
    local.kind = QStringLiteral("LOCAL");
    local.nodes << RegionNode { QSysInfo::machineHostName(), { QStringLiteral("UP") }, host.cpus, host.vcpusInUse,
        int(host.gpus.size()), int(host.gpusInUse.size()), host.memory, {}, host.memoryInUse };
    const QJsonObject localJson = regionInfo(names.first(), local, jobs.value(names.first())).toJson();

    QList<Backend*> asked;
    for (Backend* b : clusters) {
        if (region.isEmpty() || b->name() == region)
            asked << b;
    }
    if (asked.isEmpty())
        return region.isEmpty() ? jsonReply(QJsonObject { { QStringLiteral("regions"), QJsonArray { localJson } } })
                                : jsonReply(localJson);

    // The clusters answer from the event loop; the reply goes once all of them did, in clusters.yaml's order.
    struct Pending {
        QList<std::optional<QJsonObject>> answers;
        int left = 0;
    };
    auto pending = std::make_shared<Pending>();
    pending->answers.resize(asked.size());
    pending->left = int(asked.size());
    *deferred = true;
    for (qsizetype i = 0; i < asked.size(); ++i) {
        const QString name = asked.at(i)->name();
        asked.at(i)->regionStatus(this,
            [this, pending, i, name, channel, localJson, single = !region.isEmpty(), regionJobs = jobs.value(name)](
                const RegionStatus& status) {
                pending->answers[i] = regionInfo(name, status, regionJobs).toJson();
                if (--pending->left > 0)
                    return;
                if (single) {
                    m_context->sendLater(channel, jsonReply(*pending->answers.first()));
                    return;
                }
                QJsonArray list { localJson };
                for (const std::optional<QJsonObject>& a : std::as_const(pending->answers))
                    list.append(*a);
                m_context->sendLater(channel, jsonReply(QJsonObject { { QStringLiteral("regions"), list } }));
            });
    }
    return {};
}

} // namespace Trainyard
