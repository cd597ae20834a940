// SPDX-License-Identifier: GPL-2.0-or-later
// Where jobs run (our extension, app/executor/API.md "Regions"): `local` (this host) and each Slurm cluster of
// clusters.yaml, with its state as the cluster answers now, its partitions, nodes, and the project's live jobs there.
#include "apicommon.h"
#include "backend.h"
#include "httpapi.h"
#include "jobstore.h"
#include "scheduler.h"

#include <QJsonArray>
#include <QSysInfo>

#include <memory>

namespace Trainyard {

using namespace Api;

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

/// One region as API.md shows it; `jobs`: the project's live jobs there.
QJsonObject regionJson(const QString& name, const RegionStatus& status, const QJsonArray& jobs)
{
    QJsonObject o { { QStringLiteral("name"), name }, { QStringLiteral("kind"), status.kind },
        { QStringLiteral("state"), regionStateName(status.state) } };
    auto optional = [&o](const char* key, const QString& value) {
        if (!value.isEmpty())
            o.insert(QLatin1String(key), value);
    };
    optional("message", status.message);
    optional("endpoint", status.endpoint);
    optional("user", status.user);
    optional("partition", status.partition);
    QJsonArray checks;
    for (const RegionCheck& c : status.checks)
        checks.append(QJsonObject { { QStringLiteral("name"), c.name }, { QStringLiteral("ok"), c.ok },
            { QStringLiteral("message"), c.message } });
    QJsonArray partitions;
    for (const RegionPartition& p : status.partitions)
        partitions.append(QJsonObject { { QStringLiteral("name"), p.name },
            { QStringLiteral("state"), QJsonArray::fromStringList(p.state) }, { QStringLiteral("nodes"), p.nodes },
            { QStringLiteral("totalNodes"), p.totalNodes }, { QStringLiteral("totalCpus"), p.totalCpus } });
    QJsonArray nodes;
    for (const RegionNode& n : status.nodes)
        nodes.append(QJsonObject { { QStringLiteral("name"), n.name },
            { QStringLiteral("state"), QJsonArray::fromStringList(n.state) }, { QStringLiteral("cpus"), n.cpus },
            { QStringLiteral("cpusInUse"), n.cpusInUse }, { QStringLiteral("gpus"), n.gpus },
            { QStringLiteral("gpusInUse"), n.gpusInUse },
            { QStringLiteral("memoryBytes"), QString::number(n.memory.bytes()) },
            { QStringLiteral("memoryInUseBytes"), QString::number(n.memoryInUse.bytes()) },
            { QStringLiteral("partitions"), QJsonArray::fromStringList(n.partitions) } });
    o.insert(QStringLiteral("checks"), checks);
    o.insert(QStringLiteral("partitions"), partitions);
    o.insert(QStringLiteral("nodes"), nodes);
    o.insert(QStringLiteral("jobs"), jobs);
    return o;
}

} // namespace

HttpApi::Reply HttpApi::regions(
    const QString& project, const QString& region, const HttpChannelPtr& channel, bool* deferred)
{
    const QList<Backend*> clusters = m_scheduler->clusterBackends();
    QStringList names { QStringLiteral("local") };
    for (const Backend* b : clusters)
        names << b->name();
    if (!region.isEmpty() && !names.contains(region))
        return errorReply(404, QStringLiteral("NOT_FOUND"),
            QStringLiteral("Region '%1' is not configured on this executor; its regions are: %2 (clusters come from "
                           "clusters.yaml).")
                .arg(region, names.join(QStringLiteral(", "))));

    // The project's live jobs by region: a cluster's name, else this host.
    QHash<QString, QJsonArray> jobs;
    for (const StoredJob& stored : m_store->liveJobs()) {
        if (stored.project != project)
            continue;
        const QString where
            = names.contains(stored.job.trainingInput.region) ? stored.job.trainingInput.region : names.first();
        QJsonObject entry { { QStringLiteral("jobId"), stored.job.jobId },
            { QStringLiteral("state"), jobStateName(stored.job.state) } };
        const QStringList clusterJobs = m_scheduler->clusterJobIds(stored.key());
        if (!clusterJobs.isEmpty())
            entry.insert(QStringLiteral("clusterJobIds"), QJsonArray::fromStringList(clusterJobs));
        jobs[where].append(entry);
    }

    // This host: always up; its one node is what `…/host` reports.
    const HostStatus host = m_scheduler->usage();
    RegionStatus local;
    local.kind = QStringLiteral("LOCAL");
    local.nodes << RegionNode { QSysInfo::machineHostName(), { QStringLiteral("UP") }, host.cpus, host.vcpusInUse,
        int(host.gpus.size()), int(host.gpusInUse.size()), Bytes::fromBytes(host.memoryBytes), {}, host.memoryInUse };
    const QJsonObject localJson = regionJson(names.first(), local, jobs.value(names.first()));

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
                pending->answers[i] = regionJson(name, status, regionJobs);
                if (--pending->left > 0)
                    return;
                if (single) {
                    send(channel, jsonReply(*pending->answers.first()));
                    return;
                }
                QJsonArray list { localJson };
                for (const std::optional<QJsonObject>& a : std::as_const(pending->answers))
                    list.append(*a);
                send(channel, jsonReply(QJsonObject { { QStringLiteral("regions"), list } }));
            });
    }
    return {};
}

} // namespace Trainyard
