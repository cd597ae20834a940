// SPDX-License-Identifier: GPL-2.0-or-later
#include "slurmcodec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace Trainyard::Slurm::Codec {

namespace {

/// A UTC time `seconds` after the epoch. Qt 6.8 deprecates the Qt::TimeSpec form; Qt 6.4 has no QTimeZone::UTC yet.
QDateTime utcFromSecs(qint64 seconds)
{
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    return QDateTime::fromSecsSinceEpoch(seconds, QTimeZone(QTimeZone::UTC));
#else
    return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
#endif
}

QString str(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toString();
}

// A number as v0.0.38 writes it, or as v0.0.39+'s {"set", "infinite", "number"}: nullopt when unset or infinite.
std::optional<qint64> number(const QJsonValue& v)
{
    if (v.isDouble())
        return qint64(std::llround(v.toDouble()));
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        if (!o.value(QLatin1String("set")).toBool(true) || o.value(QLatin1String("infinite")).toBool(false))
            return std::nullopt;
        if (o.value(QLatin1String("number")).isDouble())
            return qint64(std::llround(o.value(QLatin1String("number")).toDouble()));
    }
    return std::nullopt;
}

QDateTime time(const QJsonValue& v)
{
    const std::optional<qint64> seconds = number(v);
    return seconds && *seconds > 0 ? utcFromSecs(*seconds) : QDateTime();
}

// A raw wait status from every version's shape of exit_code (see the table in slurmcodec.h).
std::optional<int> waitStatus(const QJsonValue& v)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        if (o.contains(QLatin1String("return_code")) || o.contains(QLatin1String("signal"))) {
            const QJsonObject signal = o.value(QLatin1String("signal")).toObject();
            // v0.0.40 `signal.id` ({set, number}); the slurmdbd shape of v0.0.39 `signal.signal_id`
            std::optional<qint64> id = number(signal.value(QLatin1String("id")));
            if (!id)
                id = number(signal.value(QLatin1String("signal_id")));
            if (id && *id > 0)
                return WaitStatus { true, 0, int(*id) }.raw();
            if (const std::optional<qint64> rc = number(o.value(QLatin1String("return_code"))))
                return WaitStatus { false, int(*rc), 0 }.raw();
            return std::nullopt;
        }
    }
    if (const std::optional<qint64> n = number(v))
        return int(*n);
    return std::nullopt;
}

QStringList stringList(const QJsonValue& v)
{
    QStringList out;
    if (v.isArray()) {
        for (const QJsonValue& item : v.toArray())
            out.append(item.toString());
    } else if (v.isString() && !v.toString().isEmpty()) {
        // v0.0.38 writes node features as one comma-separated string
        for (const QString& part : v.toString().split(QLatin1Char(','), Qt::SkipEmptyParts))
            out.append(part.trimmed());
    }
    return out;
}

QJsonObject noVal(qint64 n)
{
    return QJsonObject { { QStringLiteral("set"), true }, { QStringLiteral("infinite"), false },
        { QStringLiteral("number"), n } };
}

bool missingArray(const QJsonObject& reply, const char* key, QString* error)
{
    if (reply.value(QLatin1String(key)).isArray())
        return false;
    if (error)
        *error = QStringLiteral("the reply has no \"%1\" array").arg(QLatin1String(key));
    return true;
}

// Base states of slurm.h's `enum job_states`; everything else in v0.0.40's job_state array is a flag.
bool isBaseState(const QString& s)
{
    static const QStringList base = { QStringLiteral("PENDING"), QStringLiteral("RUNNING"), QStringLiteral("SUSPENDED"),
        QStringLiteral("COMPLETED"), QStringLiteral("CANCELLED"), QStringLiteral("FAILED"), QStringLiteral("TIMEOUT"),
        QStringLiteral("NODE_FAIL"), QStringLiteral("PREEMPTED"), QStringLiteral("BOOT_FAIL"),
        QStringLiteral("DEADLINE"), QStringLiteral("OUT_OF_MEMORY") };
    return base.contains(s);
}

} // namespace

QString pathPrefix(ApiVersion version)
{
    return QStringLiteral("/slurm/") + apiVersionName(version);
}

QStringList announcedVersions(const QJsonObject& openapi)
{
    static const QRegularExpression path(QStringLiteral("^/slurm/(v\\d+\\.\\d+\\.\\d+)/"));
    QList<std::pair<QList<int>, QString>> found;
    const QJsonObject paths = openapi.value(QLatin1String("paths")).toObject();
    for (auto it = paths.begin(); it != paths.end(); ++it) {
        const QRegularExpressionMatch m = path.match(it.key());
        if (!m.hasMatch())
            continue;
        const QString name = m.captured(1);
        QList<int> parts;
        for (const QString& p : name.mid(1).split(QLatin1Char('.')))
            parts.append(p.toInt());
        const std::pair<QList<int>, QString> entry { parts, name };
        if (!found.contains(entry))
            found.append(entry);
    }
    std::sort(found.begin(), found.end());
    QStringList out;
    for (const auto& entry : found)
        out.append(entry.second);
    return out;
}

std::optional<ApiVersion> newestSupported(const QStringList& announced)
{
    std::optional<ApiVersion> best;
    for (const QString& name : announced) {
        const std::optional<ApiVersion> v = apiVersionFromName(name);
        if (v && (!best || *v > *best))
            best = v;
    }
    return best;
}

QJsonObject encodeComponent(ApiVersion version, const JobComponentRequest& c)
{
    const bool structs = version >= ApiVersion::V0_0_39;
    QJsonObject j;
    auto put = [&j](const char* key, const QString& value) {
        if (!value.isEmpty())
            j.insert(QLatin1String(key), value);
    };
    put("name", c.name);
    put("partition", c.partition);
    put("account", c.account);
    put("qos", c.qos);
    put("constraints", c.constraints);
    put("current_working_directory", c.currentWorkingDirectory);
    put("standard_output", c.standardOutput);
    put("standard_error", c.standardError);
    // sbatch -N's text ("2", "1-2") from v0.0.39 on; v0.0.38 wants a number (or [min, max])
    j.insert(QStringLiteral("nodes"), structs ? QJsonValue(QString::number(c.nodes)) : QJsonValue(c.nodes));
    j.insert(QStringLiteral("tasks"), c.tasks);
    if (c.tasksPerNode > 0)
        j.insert(QStringLiteral("tasks_per_node"), c.tasksPerNode);
    if (c.cpusPerTask > 0)
        j.insert(QStringLiteral("cpus_per_task"), c.cpusPerTask);
    if (c.memoryPerNode.bytes() > 0) {
        const qint64 mib = (c.memoryPerNode.bytes() + (1 << 20) - 1) >> 20;
        j.insert(QStringLiteral("memory_per_node"), structs ? QJsonValue(noVal(mib)) : QJsonValue(mib));
    }
    if (c.timeLimitMinutes > 0) {
        j.insert(QStringLiteral("time_limit"),
            structs ? QJsonValue(noVal(c.timeLimitMinutes)) : QJsonValue(c.timeLimitMinutes));
    }
    if (c.gpusPerNode > 0) {
        const QString gres = QStringLiteral("gpu:") + (c.gpuType.isEmpty() ? QString() : c.gpuType + QLatin1Char(':'))
            + QString::number(c.gpusPerNode);
        switch (version) {
        case ApiVersion::V0_0_38:
            j.insert(QStringLiteral("gres"), gres);
            break;
        case ApiVersion::V0_0_39:
            j.insert(QStringLiteral("tres_per_node"), QString(QStringLiteral("gres:") + gres));
            break;
        case ApiVersion::V0_0_40:
            j.insert(QStringLiteral("tres_per_node"), QString(QStringLiteral("gres/") + gres));
            break;
        }
    }
    if (structs) {
        QJsonArray env;
        for (auto it = c.environment.begin(); it != c.environment.end(); ++it)
            env.append(QString(it.key() + QLatin1Char('=') + it.value()));
        j.insert(QStringLiteral("environment"), env);
    } else {
        QJsonObject env;
        for (auto it = c.environment.begin(); it != c.environment.end(); ++it)
            env.insert(it.key(), it.value());
        j.insert(QStringLiteral("environment"), env);
    }
    return j;
}

QJsonObject encodeSubmission(ApiVersion version, const QString& script, const QList<JobComponentRequest>& components)
{
    QJsonObject body { { QStringLiteral("script"), script } };
    QJsonArray jobs;
    for (JobComponentRequest c : components) {
        if (c.environment.isEmpty())
            c.environment = components.first().environment;
        // 24.11 refuses a component without one (2063 "Job cannot be submitted without the current working
        // directory specified"); 22.05 only reads component 0's
        if (c.currentWorkingDirectory.isEmpty())
            c.currentWorkingDirectory = components.first().currentWorkingDirectory;
        jobs.append(encodeComponent(version, c));
    }
    if (jobs.size() == 1)
        body.insert(QStringLiteral("job"), jobs.first());
    else
        body.insert(QStringLiteral("jobs"), jobs);
    return body;
}

QList<RestError> decodeErrors(const QJsonObject& reply)
{
    QList<RestError> out;
    for (const QJsonValue& v : reply.value(QLatin1String("errors")).toArray()) {
        const QJsonObject o = v.toObject();
        RestError e;
        for (const char* key : { "error_number", "error_code", "errno" }) {
            if (o.value(QLatin1String(key)).isDouble()) {
                e.number = o.value(QLatin1String(key)).toInt();
                break;
            }
        }
        e.error = str(o, "error");
        e.description = str(o, "description");
        e.source = str(o, "source");
        out.append(e);
    }
    return out;
}

QList<RestWarning> decodeWarnings(const QJsonObject& reply)
{
    QList<RestWarning> out;
    for (const QJsonValue& v : reply.value(QLatin1String("warnings")).toArray()) {
        const QJsonObject o = v.toObject();
        out.append(RestWarning { str(o, "description"), str(o, "source") });
    }
    return out;
}

bool isRefusedToken(int httpStatus, const QList<RestError>& errors)
{
    if (httpStatus == 401 || httpStatus == 511)
        return true;
    if (httpStatus < 500 || errors.isEmpty())
        return false;
    return std::all_of(errors.begin(), errors.end(),
        [](const RestError& e) { return e.number == -1 || e.number == 5005 || e.number == 1007; });
}

bool isNoSuchJob(const QList<RestError>& errors)
{
    return std::any_of(errors.begin(), errors.end(), [](const RestError& e) { return e.number == 2017; });
}

std::optional<QList<ControllerPing>> decodePing(const QJsonObject& reply, QString* error)
{
    if (missingArray(reply, "pings", error))
        return std::nullopt;
    QList<ControllerPing> out;
    for (const QJsonValue& v : reply.value(QLatin1String("pings")).toArray()) {
        const QJsonObject o = v.toObject();
        ControllerPing p;
        p.hostname = str(o, "hostname");
        p.state = o.contains(QLatin1String("pinged")) ? str(o, "pinged") : str(o, "ping");
        p.mode = str(o, "mode");
        out.append(p);
    }
    return out;
}

std::optional<QList<Node>> decodeNodes(const QJsonObject& reply, QString* error)
{
    if (missingArray(reply, "nodes", error))
        return std::nullopt;
    QList<Node> out;
    for (const QJsonValue& v : reply.value(QLatin1String("nodes")).toArray()) {
        const QJsonObject o = v.toObject();
        Node n;
        n.name = str(o, "name");
        n.hostname = str(o, "hostname");
        n.address = str(o, "address");
        const QJsonValue state = o.value(QLatin1String("state"));
        n.state = state.isArray() ? stringList(state) : QStringList { state.toString() };
        n.state += stringList(o.value(QLatin1String("state_flags")));
        for (QString& s : n.state)
            s = s.toUpper();
        n.state.removeAll(QString());
        n.cpus = int(number(o.value(QLatin1String("cpus"))).value_or(0));
        n.allocatedCpus = int(number(o.value(QLatin1String("alloc_cpus"))).value_or(0));
        n.realMemory = Bytes::fromBytes(number(o.value(QLatin1String("real_memory"))).value_or(0) << 20);
        n.allocatedMemory = Bytes::fromBytes(number(o.value(QLatin1String("alloc_memory"))).value_or(0) << 20);
        n.gres = str(o, "gres");
        n.gresUsed = str(o, "gres_used");
        n.partitions = stringList(o.value(QLatin1String("partitions")));
        n.features = stringList(o.value(QLatin1String("active_features")));
        if (!o.contains(QLatin1String("active_features")))
            n.features = stringList(o.value(QLatin1String("features")));
        if (n.name.isEmpty()) {
            if (error)
                *error = QStringLiteral("a node without a name");
            return std::nullopt;
        }
        out.append(n);
    }
    return out;
}

std::optional<QList<Partition>> decodePartitions(const QJsonObject& reply, QString* error)
{
    if (missingArray(reply, "partitions", error))
        return std::nullopt;
    QList<Partition> out;
    for (const QJsonValue& v : reply.value(QLatin1String("partitions")).toArray()) {
        const QJsonObject o = v.toObject();
        Partition p;
        p.name = str(o, "name");
        const QJsonValue nodes = o.value(QLatin1String("nodes"));
        if (nodes.isObject()) { // v0.0.39+: {"configured", "total", "allowed_allocation"}
            p.nodes = nodes.toObject().value(QLatin1String("configured")).toString();
            p.totalNodes = int(number(nodes.toObject().value(QLatin1String("total"))).value_or(0));
        } else {
            p.nodes = nodes.toString();
            p.totalNodes = int(number(o.value(QLatin1String("total_nodes"))).value_or(0));
        }
        const QJsonValue cpus = o.value(QLatin1String("cpus"));
        p.totalCpus = int(number(
            cpus.isObject() ? cpus.toObject().value(QLatin1String("total")) : o.value(QLatin1String("total_cpus")))
                              .value_or(0));
        if (o.value(QLatin1String("state")).isString())
            p.state = QStringList { str(o, "state") };
        else
            p.state = stringList(o.value(QLatin1String("partition")).toObject().value(QLatin1String("state")));
        std::optional<qint64> maxTime = o.contains(QLatin1String("max_time_limit"))
            ? number(o.value(QLatin1String("max_time_limit")))
            : number(o.value(QLatin1String("maximums")).toObject().value(QLatin1String("time")));
        // v0.0.38 writes INFINITE as -1 (and NO_VAL as a huge number)
        if (maxTime && *maxTime >= 0 && *maxTime < 0xfffffffe)
            p.maxTimeMinutes = int(*maxTime);
        if (p.name.isEmpty()) {
            if (error)
                *error = QStringLiteral("a partition without a name");
            return std::nullopt;
        }
        out.append(p);
    }
    return out;
}

std::optional<SubmitResult> decodeSubmit(const QJsonObject& reply, QString* error)
{
    QJsonObject o = reply;
    if (!o.value(QLatin1String("job_id")).isDouble() && o.value(QLatin1String("result")).isObject())
        o = o.value(QLatin1String("result")).toObject();
    const std::optional<qint64> id = number(o.value(QLatin1String("job_id")));
    if (!id || *id <= 0) {
        if (error)
            *error = QStringLiteral("the reply has no job_id");
        return std::nullopt;
    }
    SubmitResult r;
    r.jobId = *id;
    const QJsonValue step = o.value(QLatin1String("step_id"));
    r.stepId = step.isString() ? step.toString() : QString::number(number(step).value_or(0));
    r.userMessage = str(o, "job_submit_user_msg");
    r.errors = decodeErrors(reply);
    r.warnings = decodeWarnings(reply);
    // v0.0.40 reports what v0.0.38 put in errors[] (2042 for a held job) in result.error_code, errors[] empty
    const QJsonObject result = reply.value(QLatin1String("result")).toObject();
    const int code = result.value(QLatin1String("error_code")).toInt();
    if (code != 0
        && std::none_of(r.errors.begin(), r.errors.end(), [code](const RestError& e) { return e.number == code; }))
        r.errors.append(RestError { code, str(result, "error"), QString(), QStringLiteral("result") });
    return r;
}

std::optional<QList<JobComponent>> decodeJob(const QJsonObject& reply, QString* error)
{
    if (missingArray(reply, "jobs", error))
        return std::nullopt;
    QList<JobComponent> out;
    for (const QJsonValue& v : reply.value(QLatin1String("jobs")).toArray()) {
        const QJsonObject o = v.toObject();
        JobComponent c;
        const std::optional<qint64> id = number(o.value(QLatin1String("job_id")));
        if (!id) {
            if (error)
                *error = QStringLiteral("a job without job_id");
            return std::nullopt;
        }
        c.jobId = *id;
        c.hetJobId = number(o.value(QLatin1String("het_job_id"))).value_or(0);
        c.hetJobOffset = int(number(o.value(QLatin1String("het_job_offset"))).value_or(0));
        c.name = str(o, "name");
        const QJsonValue state = o.value(QLatin1String("job_state"));
        if (state.isArray()) {
            const QStringList all = stringList(state);
            const auto base = std::find_if(all.begin(), all.end(), isBaseState);
            c.state = base != all.end() ? *base : all.value(0);
            for (const QString& s : all) {
                if (s != c.state)
                    c.stateFlags.append(s);
            }
        } else {
            c.state = state.toString();
        }
        c.stateReason = str(o, "state_reason");
        c.exitCode = waitStatus(o.value(QLatin1String("exit_code"))).value_or(0);
        c.derivedExitCode = waitStatus(o.value(QLatin1String("derived_exit_code"))).value_or(0);
        c.nodes = str(o, "nodes");
        c.batchHost = str(o, "batch_host");
        c.partition = str(o, "partition");
        c.submitTime = time(o.value(QLatin1String("submit_time")));
        c.startTime = time(o.value(QLatin1String("start_time")));
        c.endTime = time(o.value(QLatin1String("end_time")));
        out.append(c);
    }
    std::stable_sort(out.begin(), out.end(),
        [](const JobComponent& a, const JobComponent& b) { return a.hetJobOffset < b.hetJobOffset; });
    return out;
}

QString tokenFromCommandOutput(const QByteArray& output)
{
    const QString text = QString::fromUtf8(output);
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        const QString trimmed = line.trimmed();
        if (trimmed.startsWith(QLatin1String("SLURM_JWT=")))
            return trimmed.mid(10).trimmed();
    }
    const QString trimmed = text.trimmed();
    static const QRegularExpression space(QStringLiteral("\\s"));
    return trimmed.contains(space) ? QString() : trimmed;
}

std::optional<QDateTime> jwtExpiry(QStringView token)
{
    const QList<QStringView> parts = token.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return std::nullopt;
    const QByteArray::FromBase64Result payload = QByteArray::fromBase64Encoding(
        parts.at(1).toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!payload)
        return std::nullopt;
    const QJsonObject claims = QJsonDocument::fromJson(*payload).object();
    if (!claims.value(QLatin1String("exp")).isDouble())
        return std::nullopt;
    return utcFromSecs(qint64(claims.value(QLatin1String("exp")).toDouble()));
}

} // namespace Trainyard::Slurm::Codec
