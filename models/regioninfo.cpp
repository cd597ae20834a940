// SPDX-License-Identifier: GPL-2.0-or-later
#include "regioninfo.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>

namespace Trainyard {

namespace {

QStringList strings(const QJsonValue& value)
{
    QStringList list;
    for (const QJsonValue& v : value.toArray())
        list << v.toString();
    return list;
}

} // namespace

bool RegionNodeInfo::usable() const
{
    // Slurm prints flags after the base state ("IDLE", "DRAIN"; "MIXED+DRAIN" as two words): any of these
    // means the controller gives the node no new job.
    static const QStringList unusable { QStringLiteral("DOWN"), QStringLiteral("DRAIN"), QStringLiteral("DRAINED"),
        QStringLiteral("DRAINING"), QStringLiteral("FAIL"), QStringLiteral("FAILING"), QStringLiteral("FUTURE"),
        QStringLiteral("POWERED_DOWN"), QStringLiteral("POWER_DOWN"), QStringLiteral("NOT_RESPONDING"),
        QStringLiteral("INVALID"), QStringLiteral("UNKNOWN") };
    if (state.isEmpty())
        return false;
    return std::none_of(state.cbegin(), state.cend(), [](const QString& s) { return unusable.contains(s.toUpper()); });
}

bool RegionNodeInfo::idle() const
{
    return usable() && cpusInUse == 0 && gpusInUse == 0;
}

QList<RegionNodeInfo> RegionInfo::partitionNodes() const
{
    if (partition.isEmpty())
        return nodes;
    QList<RegionNodeInfo> list;
    for (const RegionNodeInfo& n : nodes) {
        if (n.partitions.isEmpty() || n.partitions.contains(partition))
            list << n;
    }
    return list;
}

QJsonObject RegionNodeInfo::toJson() const
{
    return QJsonObject { { QStringLiteral("name"), name },
        { QStringLiteral("state"), QJsonArray::fromStringList(state) }, { QStringLiteral("cpus"), cpus },
        { QStringLiteral("cpusInUse"), cpusInUse }, { QStringLiteral("gpus"), gpus },
        { QStringLiteral("gpusInUse"), gpusInUse }, { QStringLiteral("memoryBytes"), QString::number(memory.bytes()) },
        { QStringLiteral("memoryInUseBytes"), QString::number(memoryInUse.bytes()) },
        { QStringLiteral("partitions"), QJsonArray::fromStringList(partitions) } };
}

RegionNodeInfo RegionNodeInfo::fromJson(const QJsonObject& o)
{
    RegionNodeInfo n;
    n.name = o.value(QLatin1String("name")).toString();
    n.state = strings(o.value(QLatin1String("state")));
    n.cpus = o.value(QLatin1String("cpus")).toInt();
    n.cpusInUse = o.value(QLatin1String("cpusInUse")).toInt();
    n.gpus = o.value(QLatin1String("gpus")).toInt();
    n.gpusInUse = o.value(QLatin1String("gpusInUse")).toInt();
    // int64 as a string, as the service sends 64-bit integers in JSON
    n.memory = Bytes::fromBytes(o.value(QLatin1String("memoryBytes")).toString().toLongLong());
    n.memoryInUse = Bytes::fromBytes(o.value(QLatin1String("memoryInUseBytes")).toString().toLongLong());
    n.partitions = strings(o.value(QLatin1String("partitions")));
    return n;
}

QJsonObject RegionPartitionInfo::toJson() const
{
    return QJsonObject { { QStringLiteral("name"), name },
        { QStringLiteral("state"), QJsonArray::fromStringList(state) }, { QStringLiteral("nodes"), nodes },
        { QStringLiteral("totalNodes"), totalNodes }, { QStringLiteral("totalCpus"), totalCpus } };
}

RegionPartitionInfo RegionPartitionInfo::fromJson(const QJsonObject& o)
{
    return RegionPartitionInfo { o.value(QLatin1String("name")).toString(), strings(o.value(QLatin1String("state"))),
        o.value(QLatin1String("nodes")).toString(), o.value(QLatin1String("totalNodes")).toInt(),
        o.value(QLatin1String("totalCpus")).toInt() };
}

QJsonObject RegionCheckInfo::toJson() const
{
    return QJsonObject { { QStringLiteral("name"), name }, { QStringLiteral("ok"), ok },
        { QStringLiteral("message"), message } };
}

RegionCheckInfo RegionCheckInfo::fromJson(const QJsonObject& o)
{
    return RegionCheckInfo { o.value(QLatin1String("name")).toString(), o.value(QLatin1String("ok")).toBool(),
        o.value(QLatin1String("message")).toString() };
}

QJsonObject RegionJobInfo::toJson() const
{
    QJsonObject o { { QStringLiteral("jobId"), jobId }, { QStringLiteral("state"), state } };
    if (!clusterJobIds.isEmpty())
        o.insert(QStringLiteral("clusterJobIds"), QJsonArray::fromStringList(clusterJobIds));
    return o;
}

RegionJobInfo RegionJobInfo::fromJson(const QJsonObject& o)
{
    return RegionJobInfo { o.value(QLatin1String("jobId")).toString(), o.value(QLatin1String("state")).toString(),
        strings(o.value(QLatin1String("clusterJobIds"))) };
}

RegionInfo RegionInfo::fromJson(const QJsonObject& json)
{
    RegionInfo r;
    r.name = json.value(QLatin1String("name")).toString();
    r.kind = json.value(QLatin1String("kind")).toString();
    r.state = json.value(QLatin1String("state")).toString();
    r.message = json.value(QLatin1String("message")).toString();
    r.endpoint = json.value(QLatin1String("endpoint")).toString();
    r.user = json.value(QLatin1String("user")).toString();
    r.partition = json.value(QLatin1String("partition")).toString();
    for (const QJsonValue& v : json.value(QLatin1String("checks")).toArray())
        r.checks << RegionCheckInfo::fromJson(v.toObject());
    for (const QJsonValue& v : json.value(QLatin1String("partitions")).toArray())
        r.partitions << RegionPartitionInfo::fromJson(v.toObject());
    for (const QJsonValue& v : json.value(QLatin1String("nodes")).toArray())
        r.nodes << RegionNodeInfo::fromJson(v.toObject());
    for (const QJsonValue& v : json.value(QLatin1String("jobs")).toArray())
        r.jobs << RegionJobInfo::fromJson(v.toObject());
    return r;
}

QJsonObject RegionInfo::toJson() const
{
    QJsonObject o { { QStringLiteral("name"), name }, { QStringLiteral("kind"), kind },
        { QStringLiteral("state"), state } };
    auto optional = [&o](const char* key, const QString& value) {
        if (!value.isEmpty())
            o.insert(QLatin1String(key), value);
    };
    optional("message", message);
    optional("endpoint", endpoint);
    optional("user", user);
    optional("partition", partition);
    auto list = [](const auto& items) {
        QJsonArray a;
        for (const auto& item : items)
            a.append(item.toJson());
        return a;
    };
    o.insert(QStringLiteral("checks"), list(checks));
    o.insert(QStringLiteral("partitions"), list(partitions));
    o.insert(QStringLiteral("nodes"), list(nodes));
    o.insert(QStringLiteral("jobs"), list(jobs));
    return o;
}

QList<RegionInfo> RegionInfo::listFromJson(const QJsonObject& json)
{
    QList<RegionInfo> list;
    for (const QJsonValue& v : json.value(QLatin1String("regions")).toArray())
        list << fromJson(v.toObject());
    return list;
}

QJsonObject RegionInfo::listToJson(const QList<RegionInfo>& regions)
{
    QJsonArray a;
    for (const RegionInfo& r : regions)
        a.append(r.toJson());
    return QJsonObject { { QStringLiteral("regions"), a } };
}

ClusterFit assessClusterFit(const ClusterPlan& plan, const RegionInfo& region)
{
    ClusterFit fit;
    if (!region.isUp()) {
        fit.reasons << (region.message.isEmpty()
                ? ClusterFit::tr("The cluster is not reachable now.")
                : ClusterFit::tr("The cluster is not reachable now: %1").arg(region.message));
        return fit;
    }
    const QList<RegionNodeInfo> nodes = region.partitionNodes();
    int maxCpus = 0;
    Bytes maxMemory;
    for (const RegionNodeInfo& n : nodes) {
        if (!n.usable())
            continue;
        ++fit.usableNodes;
        if (n.idle())
            ++fit.idleNodes;
        fit.maxGpusPerNode = std::max(fit.maxGpusPerNode, n.gpus);
        maxCpus = std::max(maxCpus, n.cpus);
        maxMemory = std::max(maxMemory, n.memory);
    }
    const int replicas = plan.totalReplicas();
    if (replicas > fit.usableNodes)
        fit.reasons << ClusterFit::tr("It needs %n node(s), one per replica (Slurm gives each replica its own node)",
                           nullptr, replicas)
                + ClusterFit::tr("; the partition has %n usable node(s).", nullptr, fit.usableNodes);
    for (const RolePlan& r : plan.roles) {
        if (r.acceleratorCount > fit.maxGpusPerNode)
            fit.reasons << ClusterFit::tr(
                "Each %1 replica asks for %2 GPUs; the largest node has %n.", nullptr, fit.maxGpusPerNode)
                               .arg(r.role)
                               .arg(r.acceleratorCount);
        if (maxCpus > 0 && r.vcpus > maxCpus)
            fit.notes << ClusterFit::tr("%1 (%2 vCPUs) gets the largest node's %n CPUs.", nullptr, maxCpus)
                             .arg(r.machineType)
                             .arg(r.vcpus);
        if (maxMemory.bytes() > 0 && r.memory > maxMemory)
            fit.notes << ClusterFit::tr("%1 (%2 GB) gets the largest node's %3 GB of memory.")
                             .arg(r.machineType)
                             .arg(r.memory.gb(), 0, 'f', 1)
                             .arg(maxMemory.gb(), 0, 'f', 1);
    }
    if (!fit.reasons.isEmpty())
        return fit;

    // Enough idle nodes now, GPUs included: replicas that ask for GPUs need idle nodes with that many.
    QList<int> idleGpus;
    for (const RegionNodeInfo& n : nodes) {
        if (n.idle())
            idleGpus << n.gpus;
    }
    std::sort(idleGpus.begin(), idleGpus.end(), std::greater<>());
    QList<int> wanted;
    for (const RolePlan& r : plan.roles) {
        for (int i = 0; i < r.count; ++i)
            wanted << r.acceleratorCount;
    }
    std::sort(wanted.begin(), wanted.end(), std::greater<>());
    bool now = wanted.size() <= idleGpus.size();
    for (qsizetype i = 0; now && i < wanted.size(); ++i)
        now = idleGpus.at(i) >= wanted.at(i); // largest asks to largest nodes: optimal for one resource
    fit.verdict = now ? ClusterFit::Verdict::Fits : ClusterFit::Verdict::Queue;
    return fit;
}

} // namespace Trainyard
