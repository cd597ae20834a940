// SPDX-License-Identifier: GPL-2.0-or-later
#include "clusterscommands.h"

#include "apiclient.h"
#include "argparser.h"
#include "ctlsession.h"
#include "printer.h"
#include "regioninfo.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

namespace Trainyard {

namespace {

/// The regions the executor answers for `name` (all of them when empty), decoded; nothing after printing the error
/// (exit code in `*code`).
std::optional<QList<RegionInfo>> fetchRegions(CtlSession& s, const QString& command, const QString& name, int* code)
{
    ApiClient* client = s.client(command);
    if (!client) {
        *code = ExitCode::Error;
        return std::nullopt;
    }
    const ApiResult<QList<RegionInfo>> r = client->regionsBlocking(name);
    if (!r.ok()) {
        s.printApiError(command, r.error);
        *code = ExitCode::Error;
        return std::nullopt;
    }
    return r.value;
}

/// "used/total" of the nodes' `used` and `total` counts.
template <typename Used, typename Total> QString inUse(const QList<RegionNodeInfo>& nodes, Used used, Total total)
{
    int u = 0;
    int t = 0;
    for (const RegionNodeInfo& n : nodes) {
        u += used(n);
        t += total(n);
    }
    return QStringLiteral("%1/%2").arg(u).arg(t);
}

} // namespace

int ClustersCommands::list(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.clusters.list");
    ArgParser p(command, QStringLiteral("trainyardctl clusters list"),
        QStringLiteral("list where jobs can run\nThis host (local) and the Slurm clusters of clusters.yaml, each with "
                       "its state as it answers now (UP, DOWN, UNAUTHENTICATED), its nodes and the project's jobs "
                       "there."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    int code = ExitCode::Ok;
    const std::optional<QList<RegionInfo>> regions = fetchRegions(s, command, QString(), &code);
    if (!regions)
        return code;
    if (s.printsResources()) {
        s.printResources(*regions);
    } else {
        QList<QStringList> rows;
        QStringList problems;
        for (const RegionInfo& r : *regions) {
            const qsizetype idle = std::count_if(r.nodes.cbegin(), r.nodes.cend(),
                [](const RegionNodeInfo& n) { return n.state.value(0) == QLatin1String("IDLE"); });
            rows.append({ r.name, r.kind, r.state,
                r.isCluster() ? QStringLiteral("%1 (%2 idle)").arg(r.nodes.size()).arg(idle)
                              : QString::number(r.nodes.size()),
                inUse(
                    r.nodes, [](const RegionNodeInfo& n) { return n.cpusInUse; },
                    [](const RegionNodeInfo& n) { return n.cpus; }),
                inUse(
                    r.nodes, [](const RegionNodeInfo& n) { return n.gpusInUse; },
                    [](const RegionNodeInfo& n) { return n.gpus; }),
                QString::number(r.jobs.size()) });
            if (!r.isUp())
                problems << QStringLiteral("WARNING: %1 is %2: %3").arg(r.name, r.state, r.message);
        }
        s.out() << Printer::table(
            { QStringLiteral("NAME"), QStringLiteral("KIND"), QStringLiteral("STATE"), QStringLiteral("NODES"),
                QStringLiteral("CPUS"), QStringLiteral("GPUS"), QStringLiteral("JOBS") },
            rows);
        for (const QString& line : std::as_const(problems))
            s.err() << line << '\n';
    }
    s.out().flush();
    s.err().flush();
    return ExitCode::Ok;
}

int ClustersCommands::describe(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.clusters.describe");
    ArgParser p(command, QStringLiteral("trainyardctl clusters describe NAME"),
        QStringLiteral("describe a cluster\nPrints the region (YAML by default; --format json): its state and checks, "
                       "partitions, nodes (state, CPUs, GPUs) and the project's jobs there. --format table prints "
                       "the nodes and the jobs as tables."));
    p.addPositional(QStringLiteral("NAME"), QStringLiteral("The cluster's name in clusters.yaml, or local."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    int code = ExitCode::Ok;
    const std::optional<QList<RegionInfo>> regions
        = fetchRegions(s, command, p.positional(QStringLiteral("NAME")), &code);
    if (!regions)
        return code;
    const RegionInfo& region = regions->first();
    if (s.format() != QLatin1String("table") || s.printsResources()) {
        s.printResource(region.toJson());
        s.out().flush();
        return ExitCode::Ok;
    }
    QList<QStringList> nodes;
    for (const RegionNodeInfo& n : region.nodes)
        nodes.append({ n.name, n.state.join(QLatin1Char('+')), QStringLiteral("%1/%2").arg(n.cpusInUse).arg(n.cpus),
            QStringLiteral("%1/%2").arg(n.gpusInUse).arg(n.gpus), n.partitions.join(QLatin1Char(',')) });
    s.out() << Printer::table({ QStringLiteral("NODE"), QStringLiteral("STATE"), QStringLiteral("CPUS"),
                                  QStringLiteral("GPUS"), QStringLiteral("PARTITIONS") },
        nodes);
    QList<QStringList> jobs;
    for (const RegionJobInfo& j : region.jobs)
        jobs.append({ j.jobId, j.state, j.clusterJobIds.join(QLatin1Char(',')) });
    if (!jobs.isEmpty())
        s.out() << '\n'
                << Printer::table(
                       { QStringLiteral("JOB_ID"), QStringLiteral("STATUS"), QStringLiteral("CLUSTER_JOB") }, jobs);
    s.out().flush();
    return ExitCode::Ok;
}

int ClustersCommands::check(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.clusters.check");
    ArgParser p(command, QStringLiteral("trainyardctl clusters check NAME"),
        QStringLiteral("check that a cluster takes jobs\nAsks the cluster now: slurmrestd reachable, the token "
                       "accepted, slurmctld answering, the configured partition there and UP. Exits 1 naming the "
                       "first check that failed."));
    p.addPositional(QStringLiteral("NAME"), QStringLiteral("The cluster's name in clusters.yaml, or local."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const QString name = p.positional(QStringLiteral("NAME"));
    int code = ExitCode::Ok;
    const std::optional<QList<RegionInfo>> regions = fetchRegions(s, command, name, &code);
    if (!regions)
        return code;
    const RegionInfo& region = regions->first();
    if (s.printsResources()) {
        QJsonArray checks;
        for (const RegionCheckInfo& c : region.checks)
            checks.append(c.toJson());
        s.printResource(
            QJsonObject { { QStringLiteral("name"), region.name }, { QStringLiteral("state"), region.state },
                { QStringLiteral("message"), region.message }, { QStringLiteral("checks"), checks } });
    } else if (region.checks.isEmpty()) {
        s.out() << QStringLiteral("%1 is this host: there is nothing to reach or authenticate.\n").arg(name);
    } else {
        QList<QStringList> rows;
        for (const RegionCheckInfo& c : region.checks)
            rows.append({ c.name, c.ok ? QStringLiteral("OK") : QStringLiteral("FAILED"), c.message });
        s.out() << Printer::table(
            { QStringLiteral("CHECK"), QStringLiteral("RESULT"), QStringLiteral("MESSAGE") }, rows);
    }
    s.out().flush();
    for (const RegionCheckInfo& c : region.checks) {
        if (c.ok)
            continue;
        s.printError(command, QStringLiteral("Cluster '%1' failed the %2 check: %3").arg(name, c.name, c.message));
        return ExitCode::Error;
    }
    if (!region.isUp()) {
        s.printError(command, QStringLiteral("Cluster '%1' is %2: %3").arg(name, region.state, region.message));
        return ExitCode::Error;
    }
    return ExitCode::Ok;
}

} // namespace Trainyard
