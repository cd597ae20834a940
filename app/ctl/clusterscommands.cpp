// SPDX-License-Identifier: GPL-2.0-or-later
#include "clusterscommands.h"

#include "apiclient.h"
#include "argparser.h"
#include "ctlsession.h"
#include "printer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Trainyard {

namespace {



/// The region named on the command line, or nothing after printing the error (exit code in `*code`).
std::optional<QJsonObject> fetchRegion(CtlSession& s, const QString& command, const QString& name, int* code)
{
    ApiClient* client = s.client(command);
    if (!client) {
        *code = ExitCode::Error;
        return std::nullopt;
    }
    const ApiResult<QJsonObject> r = client->regionsBlocking(name);
    if (!r.ok()) {
        s.printApiError(command, r.error);
        *code = ExitCode::Error;
        return std::nullopt;
    }
    return r.value;
}

QString inUse(const QJsonArray& nodes, const char* used, const char* total)
{
    int u = 0;
    int t = 0;
    for (const QJsonValue& n : nodes) {
        u += n.toObject().value(QLatin1String(used)).toInt();
        t += n.toObject().value(QLatin1String(total)).toInt();
    }
    return QStringLiteral("%1/%2").arg(u).arg(t);
}

QString stateWords(const QJsonValue& state)
{
    QStringList words;
    for (const QJsonValue& w : state.toArray())
        words << w.toString();
    return words.join(QLatin1Char('+'));
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
    const std::optional<QJsonObject> answer = fetchRegion(s, command, QString(), &code);
    if (!answer)
        return code;
    const QJsonArray regions = answer->value(QLatin1String("regions")).toArray();
    if (s.format() == QLatin1String("json") || s.format() == QLatin1String("yaml")) {
        s.printResources(regions);
    } else {
        QList<QStringList> rows;
        QStringList problems;
        for (const QJsonValue& v : regions) {
            const QJsonObject r = v.toObject();
            const QJsonArray nodes = r.value(QLatin1String("nodes")).toArray();
            int idle = 0;
            for (const QJsonValue& n : nodes)
                idle
                    += n.toObject().value(QLatin1String("state")).toArray().first().toString() == QLatin1String("IDLE");
            const QString name = r.value(QLatin1String("name")).toString();
            const QString state = r.value(QLatin1String("state")).toString();
            rows.append({ name, r.value(QLatin1String("kind")).toString(), state,
                r.value(QLatin1String("kind")).toString() == QLatin1String("LOCAL")
                    ? QString::number(nodes.size())
                    : QStringLiteral("%1 (%2 idle)").arg(nodes.size()).arg(idle),
                inUse(nodes, "cpusInUse", "cpus"), inUse(nodes, "gpusInUse", "gpus"),
                QString::number(r.value(QLatin1String("jobs")).toArray().size()) });
            if (state != QLatin1String("UP"))
                problems << QStringLiteral("WARNING: %1 is %2: %3")
                                .arg(name, state, r.value(QLatin1String("message")).toString());
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
    const std::optional<QJsonObject> region = fetchRegion(s, command, p.positional(QStringLiteral("NAME")), &code);
    if (!region)
        return code;
    if (s.format() != QLatin1String("table")) {
        s.printResource(*region);
        s.out().flush();
        return ExitCode::Ok;
    }
    QList<QStringList> nodes;
    for (const QJsonValue& v : region->value(QLatin1String("nodes")).toArray()) {
        const QJsonObject n = v.toObject();
        QStringList partitions;
        for (const QJsonValue& part : n.value(QLatin1String("partitions")).toArray())
            partitions << part.toString();
        nodes.append({ n.value(QLatin1String("name")).toString(), stateWords(n.value(QLatin1String("state"))),
            QStringLiteral("%1/%2")
                .arg(n.value(QLatin1String("cpusInUse")).toInt())
                .arg(n.value(QLatin1String("cpus")).toInt()),
            QStringLiteral("%1/%2")
                .arg(n.value(QLatin1String("gpusInUse")).toInt())
                .arg(n.value(QLatin1String("gpus")).toInt()),
            partitions.join(QLatin1Char(',')) });
    }
    s.out() << Printer::table({ QStringLiteral("NODE"), QStringLiteral("STATE"), QStringLiteral("CPUS"),
                                  QStringLiteral("GPUS"), QStringLiteral("PARTITIONS") },
        nodes);
    QList<QStringList> jobs;
    for (const QJsonValue& v : region->value(QLatin1String("jobs")).toArray()) {
        QStringList clusterJobs;
        for (const QJsonValue& id : v.toObject().value(QLatin1String("clusterJobIds")).toArray())
            clusterJobs << id.toString();
        jobs.append({ v.toObject().value(QLatin1String("jobId")).toString(),
            v.toObject().value(QLatin1String("state")).toString(), clusterJobs.join(QLatin1Char(',')) });
    }
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
    const std::optional<QJsonObject> region = fetchRegion(s, command, name, &code);
    if (!region)
        return code;
    const QJsonArray checks = region->value(QLatin1String("checks")).toArray();
    if (s.format() == QLatin1String("yaml") || s.format() == QLatin1String("json")) {
        s.printResource(QJsonObject { { QStringLiteral("name"), region->value(QLatin1String("name")) },
            { QStringLiteral("state"), region->value(QLatin1String("state")) },
            { QStringLiteral("message"), region->value(QLatin1String("message")).toString() },
            { QStringLiteral("checks"), checks } });
    } else if (checks.isEmpty()) {
        s.out() << QStringLiteral("%1 is this host: there is nothing to reach or authenticate.\n").arg(name);
    } else {
        QList<QStringList> rows;
        for (const QJsonValue& v : checks) {
            const QJsonObject c = v.toObject();
            rows.append({ c.value(QLatin1String("name")).toString(),
                c.value(QLatin1String("ok")).toBool() ? QStringLiteral("OK") : QStringLiteral("FAILED"),
                c.value(QLatin1String("message")).toString() });
        }
        s.out() << Printer::table(
            { QStringLiteral("CHECK"), QStringLiteral("RESULT"), QStringLiteral("MESSAGE") }, rows);
    }
    s.out().flush();
    for (const QJsonValue& v : checks) {
        const QJsonObject c = v.toObject();
        if (c.value(QLatin1String("ok")).toBool())
            continue;
        s.printError(command,
            QStringLiteral("Cluster '%1' failed the %2 check: %3")
                .arg(name, c.value(QLatin1String("name")).toString(), c.value(QLatin1String("message")).toString()));
        return ExitCode::Error;
    }
    const QString state = region->value(QLatin1String("state")).toString();
    if (state != QLatin1String("UP")) {
        s.printError(command,
            QStringLiteral("Cluster '%1' is %2: %3")
                .arg(name, state, region->value(QLatin1String("message")).toString()));
        return ExitCode::Error;
    }
    return ExitCode::Ok;
}

} // namespace Trainyard
