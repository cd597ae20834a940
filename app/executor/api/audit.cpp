// SPDX-License-Identifier: GPL-2.0-or-later
// Audit logs: what each route is called in Cloud Audit Logs, the entry of a routed call or of the executor's own
// action, and `GET /v1/projects/{project}/auditLogs`. The router (router.cpp) records every call here.
#include "apicommon.h"
#include "httpapi.h"

#include "auditlog.h"
#include "auditstore.h"
#include "jobstore.h"
#include "logentry.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

#include <chrono>

namespace Trainyard {

using namespace Api;

namespace {

const QString mlService = QStringLiteral("ml.googleapis.com");

/// google.rpc.Code's number of a status name ("NOT_FOUND" → 5); 2 (UNKNOWN) for a name it does not know.
int rpcCode(const QString& status)
{
    static const QHash<QString, int> codes {
        { QStringLiteral("OK"), 0 },
        { QStringLiteral("CANCELLED"), 1 },
        { QStringLiteral("UNKNOWN"), 2 },
        { QStringLiteral("INVALID_ARGUMENT"), 3 },
        { QStringLiteral("DEADLINE_EXCEEDED"), 4 },
        { QStringLiteral("NOT_FOUND"), 5 },
        { QStringLiteral("ALREADY_EXISTS"), 6 },
        { QStringLiteral("PERMISSION_DENIED"), 7 },
        { QStringLiteral("RESOURCE_EXHAUSTED"), 8 },
        { QStringLiteral("FAILED_PRECONDITION"), 9 },
        { QStringLiteral("ABORTED"), 10 },
        { QStringLiteral("OUT_OF_RANGE"), 11 },
        { QStringLiteral("UNIMPLEMENTED"), 12 },
        { QStringLiteral("INTERNAL"), 13 },
        { QStringLiteral("UNAVAILABLE"), 14 },
        { QStringLiteral("DATA_LOSS"), 15 },
        { QStringLiteral("UNAUTHENTICATED"), 16 },
    };
    return codes.value(status, 2);
}

QString nowRfc3339()
{
    const qint64 us
        = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
    char text[LogJson::TimestampChars];
    LogJson::formatTimestamp(us, text);
    return QString::fromLatin1(text, LogJson::TimestampChars);
}

/// An IAM member's email ("user:alice@example.org" → "alice@example.org"); other text as it is ("system").
QString principalEmail(const QString& member)
{
    const qsizetype colon = member.indexOf(QLatin1Char(':'));
    return colon >= 0 ? member.mid(colon + 1) : member;
}

/// The skeleton of every entry: logName, timestamps, severity, resource, and the AuditLog's fixed parts.
QJsonObject baseEntry(const QString& project, const QString& jobId, const QString& region, bool adminActivity,
    bool failed, const QString& serviceName, const QString& methodName, const QString& resourceName,
    const QString& principal)
{
    const QString now = nowRfc3339();
    QJsonObject resource;
    if (!jobId.isEmpty()) {
        resource = QJsonObject {
            { QStringLiteral("type"), QStringLiteral("ml_job") },
            { QStringLiteral("labels"),
                QJsonObject { { QStringLiteral("project_id"), project }, { QStringLiteral("job_id"), jobId },
                    { QStringLiteral("region"), region } } },
        };
    } else {
        resource = QJsonObject {
            { QStringLiteral("type"), QStringLiteral("audited_resource") },
            { QStringLiteral("labels"),
                QJsonObject { { QStringLiteral("project_id"), project }, { QStringLiteral("service"), serviceName },
                    { QStringLiteral("method"), methodName } } },
        };
    }
    const QJsonObject payload {
        { QStringLiteral("@type"), QStringLiteral("type.googleapis.com/google.cloud.audit.AuditLog") },
        { QStringLiteral("serviceName"), serviceName },
        { QStringLiteral("methodName"), methodName },
        { QStringLiteral("resourceName"), resourceName },
        { QStringLiteral("authenticationInfo"), QJsonObject { { QStringLiteral("principalEmail"), principal } } },
    };
    return QJsonObject {
        { QStringLiteral("logName"),
            Audit::logName(project, adminActivity ? Audit::LogKind::Activity : Audit::LogKind::DataAccess) },
        { QStringLiteral("timestamp"), now },
        { QStringLiteral("receiveTimestamp"), now },
        { QStringLiteral("severity"),
            logSeverityString(failed ? LogSeverity::Error
                    : adminActivity  ? LogSeverity::Notice
                                     : LogSeverity::Info) },
        { QStringLiteral("resource"), resource },
        { QStringLiteral("protoPayload"), payload },
    };
}

} // namespace

HttpApi::AuditMethod HttpApi::auditMethod(const QByteArray& method, const QString& pattern, const QString& permission)
{
    struct Known {
        const char* method;
        const char* patternEnd; ///< the pattern's end after "/v1/", unique among the routes
        const char* methodName;
        const char* serviceName;
        bool adminActivity;
    };
    // The service's RPC names where it has them (AI Platform Training's google.cloud.ml.v1, Cloud Logging's,
    // Cloud Monitoring's, Cloud Storage's and Resource Manager's, as their audit logs write them); the executor's
    // extensions under trainyard.v1 in the same style (API.md, "Audit logs").
    static const Known known[] = {
        { "GET", "projects/{project}/jobs", "google.cloud.ml.v1.JobService.ListJobs", "ml.googleapis.com", false },
        { "POST", "projects/{project}/jobs", "google.cloud.ml.v1.JobService.CreateJob", "ml.googleapis.com", true },
        { "GET", "jobs/{job}", "google.cloud.ml.v1.JobService.GetJob", "ml.googleapis.com", false },
        { "PATCH", "jobs/{job}", "google.cloud.ml.v1.JobService.PatchJob", "ml.googleapis.com", true },
        { "POST", "jobs/{job}:cancel", "google.cloud.ml.v1.JobService.CancelJob", "ml.googleapis.com", true },
        { "GET", "jobs/{job}:events", "trainyard.v1.JobService.StreamJobEvents", "ml.googleapis.com", false },
        { "GET", "jobs/{job}/replicas", "trainyard.v1.JobService.ListReplicas", "ml.googleapis.com", false },
        { "GET", "jobs/{job}/logs", "google.logging.v2.LoggingServiceV2.ListLogEntries", "logging.googleapis.com",
            false },
        { "GET", "jobs/{job}/metrics", "google.monitoring.v3.MetricService.ListTimeSeries", "monitoring.googleapis.com",
            false },
        { "GET", "jobs/{job}/checkpoints", "storage.objects.list", "storage.googleapis.com", false },
        { "GET", "jobs/{job}/checkpoints/{name=**}", "storage.objects.get", "storage.googleapis.com", false },
        { "GET", "projects/{project}/scaleTiers", "google.cloud.ml.v1.ProjectManagementService.GetConfig",
            "ml.googleapis.com", false },
        { "GET", "projects/{project}/machineTypes", "google.cloud.ml.v1.ProjectManagementService.GetConfig",
            "ml.googleapis.com", false },
        { "GET", "projects/{project}/acceleratorTypes", "google.cloud.ml.v1.ProjectManagementService.GetConfig",
            "ml.googleapis.com", false },
        { "GET", "projects/{project}/runtimeVersions", "google.cloud.ml.v1.ProjectManagementService.GetConfig",
            "ml.googleapis.com", false },
        { "GET", "projects/{project}/host", "google.cloud.ml.v1.ProjectManagementService.GetConfig",
            "ml.googleapis.com", false },
        { "GET", "projects/{project}/images", "google.cloud.ml.v1.ProjectManagementService.GetConfig",
            "ml.googleapis.com", false },
        { "GET", "projects/{project}/regions", "google.cloud.ml.v1.ProjectManagementService.GetConfig",
            "ml.googleapis.com", false },
        { "GET", "regions/{region}", "google.cloud.ml.v1.ProjectManagementService.GetConfig", "ml.googleapis.com",
            false },
        { "GET", "projects/{project}:getIamPolicy", "GetIamPolicy", "cloudresourcemanager.googleapis.com", false },
        { "POST", "projects/{project}:getIamPolicy", "GetIamPolicy", "cloudresourcemanager.googleapis.com", false },
        { "POST", "projects/{project}:setIamPolicy", "SetIamPolicy", "cloudresourcemanager.googleapis.com", true },
        { "POST", "projects/{project}:testIamPermissions", "TestIamPermissions", "cloudresourcemanager.googleapis.com",
            false },
        { "GET", "jobs/{job}:getIamPolicy", "google.iam.v1.IAMPolicy.GetIamPolicy", "ml.googleapis.com", false },
        { "POST", "jobs/{job}:getIamPolicy", "google.iam.v1.IAMPolicy.GetIamPolicy", "ml.googleapis.com", false },
        { "POST", "jobs/{job}:setIamPolicy", "google.iam.v1.IAMPolicy.SetIamPolicy", "ml.googleapis.com", true },
        { "POST", "jobs/{job}:testIamPermissions", "google.iam.v1.IAMPolicy.TestIamPermissions", "ml.googleapis.com",
            false },
        { "GET", "v1/tokens", "trainyard.v1.TokenService.ListTokens", "ml.googleapis.com", false },
        { "POST", "v1/tokens", "trainyard.v1.TokenService.CreateToken", "ml.googleapis.com", true },
        { "POST", "tokens/{token}:revoke", "trainyard.v1.TokenService.RevokeToken", "ml.googleapis.com", true },
        { "GET", "projects/{project}/auditLogs", "google.logging.v2.LoggingServiceV2.ListLogEntries",
            "logging.googleapis.com", false },
    };
    for (const Known& k : known) {
        if (method == k.method && pattern.endsWith(QLatin1String(k.patternEnd))
            && (pattern.size() == qsizetype(qstrlen(k.patternEnd))
                || pattern.at(pattern.size() - qsizetype(qstrlen(k.patternEnd)) - 1) == QLatin1Char('/')))
            return AuditMethod { QLatin1String(k.methodName), QLatin1String(k.serviceName), k.adminActivity, true };
    }
    return AuditMethod { QStringLiteral("trainyard.v1.") + (permission.isEmpty() ? pattern : permission), mlService,
        method != "GET", false };
}

void HttpApi::setAuditLog(AuditStore* audit, bool dataAccess)
{
    m_audit = audit;
    m_auditDataAccess = dataAccess;
}

bool HttpApi::writeAudit(const QJsonObject& entry, QString* error)
{
    QString problem;
    if (!m_audit || m_audit->append(entry, &problem))
        return true;
    qCCritical(lcApi).noquote()
        << "cannot write the audit entry of"
        << entry.value(QLatin1String("protoPayload")).toObject().value(QLatin1String("methodName")).toString() << ":"
        << problem;
    if (error)
        *error = problem;
    return false;
}

bool HttpApi::auditSystemAction(const QString& project, const QString& jobId, const QString& methodName,
    const QString& message, const QString& trialId, QString* error)
{
    if (!m_audit)
        return true;
    QString region;
    if (!jobId.isEmpty()) {
        if (const std::optional<Job> job = m_store->job(project, jobId))
            region = job->trainingInput.region;
    }
    const QString p = project.isEmpty() ? QStringLiteral("-") : project;
    QJsonObject entry = baseEntry(p, jobId, region, true, false, mlService, methodName,
        jobId.isEmpty() ? QStringLiteral("projects/") + p : jobName(p, jobId), QStringLiteral("system"));
    QJsonObject payload = entry.value(QLatin1String("protoPayload")).toObject();
    payload.insert(QStringLiteral("status"), QJsonObject());
    QJsonObject metadata { { QStringLiteral("message"), message } };
    if (!trialId.isEmpty())
        metadata.insert(QStringLiteral("trialId"), trialId);
    payload.insert(QStringLiteral("metadata"), metadata);
    const QString version = QCoreApplication::applicationVersion();
    QString agent = QStringLiteral("trainyard-executor");
    if (!version.isEmpty())
        agent += QLatin1Char('/') + version;
    payload.insert(
        QStringLiteral("requestMetadata"), QJsonObject { { QStringLiteral("callerSuppliedUserAgent"), agent } });
    entry.insert(QStringLiteral("protoPayload"), payload);
    return writeAudit(entry, error);
}

QJsonObject HttpApi::auditEntry(const ApiRequest& request, const Caller& caller, const AuditMethod& method,
    const QString& permission, const QHash<QString, QString>& params, const Reply& reply, bool granted) const
{
    QString project = params.value(QStringLiteral("project"));
    QString jobId = params.value(QStringLiteral("job"));
    QString region;
    const bool isCreateJob = request.method() == "POST" && method.methodName.endsWith(QLatin1String(".CreateJob"));
    if (isCreateJob) {
        // The job is named by the body (what the caller asked for, whether or not it was created).
        const QJsonObject body = QJsonDocument::fromJson(request.body()).object();
        jobId = body.value(QLatin1String("jobId")).toString();
        region = body.value(QLatin1String("trainingInput")).toObject().value(QLatin1String("region")).toString();
    } else if (!jobId.isEmpty()) {
        if (const std::optional<Job> job = m_store->job(project, jobId))
            region = job->trainingInput.region;
    }
    QString resourceName;
    if (!jobId.isEmpty())
        resourceName = jobName(project, jobId);
    else if (!project.isEmpty())
        resourceName = QStringLiteral("projects/") + project;
    else if (params.contains(QStringLiteral("token")))
        resourceName = QStringLiteral("tokens/") + params.value(QStringLiteral("token"));
    else
        resourceName = QStringLiteral("tokens");

    // A reply that is not streamed carries its outcome: 2xx is OK, anything else Google's error object.
    QJsonObject status;
    const bool failed = !granted || reply.status >= 300;
    if (failed) {
        const QJsonObject error = QJsonDocument::fromJson(reply.body).object().value(QLatin1String("error")).toObject();
        status = QJsonObject {
            { QStringLiteral("code"), rpcCode(error.value(QLatin1String("status")).toString()) },
            { QStringLiteral("message"), error.value(QLatin1String("message")).toString() },
        };
    } else if (request.method() == "POST" && method.methodName.endsWith(QLatin1String(".CreateToken"))) {
        // The new token's name, never the token.
        resourceName = QJsonDocument::fromJson(reply.body).object().value(QLatin1String("name")).toString();
    }

    const QString logProject = project.isEmpty() ? QStringLiteral("-") : project;
    QJsonObject entry = baseEntry(logProject, jobId, region, method.adminActivity, failed, method.serviceName,
        method.methodName, resourceName, principalEmail(caller.member));
    QJsonObject payload = entry.value(QLatin1String("protoPayload")).toObject();
    QJsonObject requestMetadata;
    if (!request.remoteAddress().isEmpty())
        requestMetadata.insert(QStringLiteral("callerIp"), request.remoteAddress());
    const QByteArray agent = request.header("User-Agent");
    if (!agent.isEmpty())
        requestMetadata.insert(QStringLiteral("callerSuppliedUserAgent"), QString::fromUtf8(agent));
    payload.insert(QStringLiteral("requestMetadata"), requestMetadata);
    payload.insert(QStringLiteral("status"), status);
    if (!permission.isEmpty())
        payload.insert(QStringLiteral("authorizationInfo"),
            QJsonArray { QJsonObject { { QStringLiteral("resource"), resourceName },
                { QStringLiteral("permission"), permission }, { QStringLiteral("granted"), granted } } });
    if (request.method() == "PATCH") {
        const QString mask = queryValue(request.query(), QStringLiteral("updateMask"));
        payload.insert(QStringLiteral("request"),
            QJsonObject {
                { QStringLiteral("@type"), QStringLiteral("type.googleapis.com/google.cloud.ml.v1.UpdateJobRequest") },
                { QStringLiteral("name"), resourceName }, { QStringLiteral("updateMask"), mask } });
    }
    entry.insert(QStringLiteral("protoPayload"), payload);
    return entry;
}

HttpApi::Reply HttpApi::auditLogs(const ApiRequest& request, const Caller& caller, const QString& project)
{
    if (!m_audit)
        return errorReply(503, QStringLiteral("UNAVAILABLE"), QStringLiteral("The executor keeps no audit log."));
    const QUrlQuery query = request.query();
    QString problem;
    const std::optional<Audit::Filter> filter
        = Audit::Filter::parse(queryValue(query, QStringLiteral("filter")), &problem);
    if (!filter)
        return invalidArgument(QStringLiteral("filter"), problem);
    int pageSize = 0;
    if (!parsePageSize(
            queryValue(query, QStringLiteral("pageSize")), DefaultAuditPageSize, MaxAuditPageSize, &pageSize))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));
    qint64 before = 0;
    const QString pageToken = queryValue(query, QStringLiteral("pageToken"));
    if (!pageToken.isEmpty()) {
        QString value;
        bool ok = false;
        if (decodePageToken(pageToken, QStringLiteral("auditLogs"), &value))
            before = value.toLongLong(&ok);
        if (!ok || before <= 0)
            return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of this log"));
    }
    // Data Access entries are private logs (Cloud Logging's logging.privateLogEntries.list): a caller without it
    // reads the Admin Activity log alone, as in the cloud.
    const bool privateLogs = permitted(caller, Iam::Permission::privateLogsList(), project, QString());
    qint64 next = 0;
    const QList<QJsonObject> entries = m_audit->read(
        project, before, pageSize,
        [&](const QJsonObject& entry) {
            if (!privateLogs
                && Audit::logKindOf(entry.value(QLatin1String("logName")).toString()) != Audit::LogKind::Activity)
                return false;
            return filter->matches(entry);
        },
        &next);
    QJsonArray list;
    for (const QJsonObject& entry : entries)
        list.append(entry);
    QJsonObject answer { { QStringLiteral("entries"), list } };
    if (next > 0)
        answer.insert(
            QStringLiteral("nextPageToken"), encodePageToken(QStringLiteral("auditLogs"), QString::number(next)));
    return jsonReply(answer);
}

} // namespace Trainyard
