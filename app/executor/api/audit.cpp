// SPDX-License-Identifier: GPL-2.0-or-later
// Audit logs: what each route is called in Cloud Audit Logs, the entry of a routed call or of the executor's own
// action, and `GET /v1/projects/{project}/auditLogs`. The router (router.cpp) records every call here.
#include "apicommon.h"
#include "httpapi.h"

#include "auditlog.h"
#include "auditstore.h"
#include "jobstore.h"
#include "logentry.h"
#include "rpcstatus.h"

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
    return int(Rpc::fromName(status).value_or(RpcCode::Unknown));
}

/// An error message as an audit entry records it: at most 4,096 characters (a message may quote a hostile value).
QString cappedMessage(const QString& message)
{
    constexpr qsizetype Max = 4096;
    return message.size() <= Max ? message
                                 : message.left(Max) + QStringLiteral("… (%1 characters)").arg(message.size());
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
    const QString& principal, const QString& now = nowRfc3339())
{
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
        // A built-in algorithm's model folder and artifacts: objects of the job dir, as the service's would be.
        { "GET", "jobs/{job}/model", "storage.objects.get", "storage.googleapis.com", false },
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
        { "GET", "models/{model}:getIamPolicy", "google.iam.v1.IAMPolicy.GetIamPolicy", "ml.googleapis.com", false },
        { "POST", "models/{model}:getIamPolicy", "google.iam.v1.IAMPolicy.GetIamPolicy", "ml.googleapis.com", false },
        { "POST", "models/{model}:setIamPolicy", "google.iam.v1.IAMPolicy.SetIamPolicy", "ml.googleapis.com", true },
        { "POST", "models/{model}:testIamPermissions", "google.iam.v1.IAMPolicy.TestIamPermissions",
            "ml.googleapis.com", false },
        { "GET", "v1/tokens", "trainyard.v1.TokenService.ListTokens", "ml.googleapis.com", false },
        { "POST", "v1/tokens", "trainyard.v1.TokenService.CreateToken", "ml.googleapis.com", true },
        { "POST", "tokens/{token}:revoke", "trainyard.v1.TokenService.RevokeToken", "ml.googleapis.com", true },
        { "GET", "projects/{project}/auditLogs", "google.logging.v2.LoggingServiceV2.ListLogEntries",
            "logging.googleapis.com", false },
        // Models and versions (the service's ModelService); a prediction is Data Access, as the service logs it.
        { "GET", "projects/{project}/models", "google.cloud.ml.v1.ModelService.ListModels", "ml.googleapis.com",
            false },
        { "POST", "projects/{project}/models", "google.cloud.ml.v1.ModelService.CreateModel", "ml.googleapis.com",
            true },
        { "GET", "models/{model}", "google.cloud.ml.v1.ModelService.GetModel", "ml.googleapis.com", false },
        { "PATCH", "models/{model}", "google.cloud.ml.v1.ModelService.UpdateModel", "ml.googleapis.com", true },
        { "DELETE", "models/{model}", "google.cloud.ml.v1.ModelService.DeleteModel", "ml.googleapis.com", true },
        { "POST", "models/{model}:predict", "google.cloud.ml.v1.OnlinePredictionService.Predict", "ml.googleapis.com",
            false },
        { "GET", "models/{model}/versions", "google.cloud.ml.v1.ModelService.ListVersions", "ml.googleapis.com",
            false },
        { "POST", "models/{model}/versions", "google.cloud.ml.v1.ModelService.CreateVersion", "ml.googleapis.com",
            true },
        { "GET", "versions/{version}", "google.cloud.ml.v1.ModelService.GetVersion", "ml.googleapis.com", false },
        { "DELETE", "versions/{version}", "google.cloud.ml.v1.ModelService.DeleteVersion", "ml.googleapis.com", true },
        { "PATCH", "versions/{version}", "google.cloud.ml.v1.ModelService.UpdateVersion", "ml.googleapis.com", true },
        { "GET", "versions/{version}/inputSchema", "google.cloud.ml.v1.ModelService.GetVersion", "ml.googleapis.com",
            false },
        { "GET", "versions/{version}/metrics", "google.monitoring.v3.MetricService.ListTimeSeries",
            "monitoring.googleapis.com", false },
        { "GET", "versions/{version}/logs", "google.logging.v2.LoggingServiceV2.ListLogEntries",
            "logging.googleapis.com", false },
        { "POST", "versions/{version}:setDefault", "google.cloud.ml.v1.ModelService.SetDefaultVersion",
            "ml.googleapis.com", true },
        { "POST", "versions/{version}:predict", "google.cloud.ml.v1.OnlinePredictionService.Predict",
            "ml.googleapis.com", false },
        { "GET", "projects/{project}/operations", "google.longrunning.Operations.ListOperations", "ml.googleapis.com",
            false },
        { "GET", "operations/{operation}", "google.longrunning.Operations.GetOperation", "ml.googleapis.com", false },
        { "POST", "operations/{operation}:cancel", "google.longrunning.Operations.CancelOperation", "ml.googleapis.com",
            true },
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

bool HttpApi::writeAuditLater(AuditFacts facts)
{
    QString problem;
    const QString methodName = facts.method.methodName;
    AuditStore::Builder build = [facts = std::move(facts)](qint64 seq, const QByteArray& prevHash) {
        return chainedAuditEntry(facts, seq, prevHash);
    };
    if (!m_audit || m_audit->appendDeferred(std::move(build), &problem))
        return true;
    qCCritical(lcApi).noquote() << "cannot hand over the audit entry of" << methodName << ":" << problem;
    return false;
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

QString HttpApi::auditRegionOf(const QString& project, const QString& jobId) const
{
    const QString key = project + QLatin1Char('/') + jobId;
    if (const auto it = m_jobRegions.constFind(key); it != m_jobRegions.cend())
        return *it;
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return QString(); // not remembered: the job may be created later
    if (m_jobRegions.size() >= 4096)
        m_jobRegions.clear();
    m_jobRegions.insert(key, job->trainingInput.region);
    return job->trainingInput.region;
}

bool HttpApi::auditSystemAction(const QString& project, const QString& jobId, const QString& methodName,
    const QString& message, const QString& trialId, QString* error, const QJsonObject& more)
{
    if (!m_audit)
        return true;
    const QString region = jobId.isEmpty() ? QString() : auditRegionOf(project, jobId);
    const QString p = project.isEmpty() ? QStringLiteral("-") : project;
    QJsonObject entry = baseEntry(p, jobId, region, true, false, mlService, methodName,
        jobId.isEmpty() ? QStringLiteral("projects/") + p : jobName(p, jobId), QStringLiteral("system"));
    QJsonObject payload = entry.value(QLatin1String("protoPayload")).toObject();
    payload.insert(QStringLiteral("status"), QJsonObject());
    QJsonObject metadata = more;
    metadata.insert(QStringLiteral("message"), message);
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

HttpApi::AuditFacts HttpApi::auditFacts(const ApiRequest& request, const Caller& caller, const AuditMethod& method,
    const QString& permission, const QHash<QString, QString>& params, const Reply& reply, bool granted) const
{
    AuditFacts facts;
    facts.timestamp = nowRfc3339();
    facts.httpMethod = request.method();
    facts.method = method;
    facts.permission = permission;
    facts.member = caller.member;
    facts.granted = granted;
    facts.replyStatus = reply.status;
    facts.project = params.value(QStringLiteral("project"));
    facts.jobId = params.value(QStringLiteral("job"));
    facts.token = params.value(QStringLiteral("token"));
    facts.hasToken = params.contains(QStringLiteral("token"));
    facts.callerIp = request.remoteAddress();
    facts.userAgent = request.header("User-Agent");
    const bool failed = !granted || reply.status >= 300;
    // The bodies only where the entry reads them: a read's entry copies no answer.
    if (failed || (request.method() == "POST" && method.methodName.endsWith(QLatin1String(".CreateToken"))))
        facts.replyBody = reply.body;
    if (request.method() == "POST" && method.methodName.endsWith(QLatin1String(".CreateJob")))
        facts.requestBody = request.body();
    else if (!facts.jobId.isEmpty())
        facts.region = auditRegionOf(facts.project, facts.jobId);
    if (request.method() == "PATCH")
        facts.updateMask = queryValue(request.query(), QStringLiteral("updateMask"));
    return facts;
}

namespace {

/// Whether `text` is written into JSON as it is, by any writer: printable ASCII without '"' and '\\'.
bool plainJson(QStringView text)
{
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u >= 0x7f || u == u'"' || u == u'\\')
            return false;
    }
    return true;
}

bool plainJson(QByteArrayView text)
{
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
            return false;
    }
    return true;
}

/// `"key":"value"` (plain strings only, see plainJson()).
void appendMember(QByteArray& out, const char* key, QStringView value)
{
    out += '"';
    out += key;
    out += "\":\"";
    out += value.toLatin1();
    out += '"';
}

void appendMember(QByteArray& out, const char* key, QByteArrayView value)
{
    out += '"';
    out += key;
    out += "\":\"";
    out += value;
    out += '"';
}

} // namespace

AuditStore::Chained HttpApi::chainedAuditEntry(
    const AuditFacts& facts, qint64 seq, const QByteArray& prevHash, bool* direct)
{
    // The common Data Access entry (a granted, successful read whose texts need no escaping) is written straight
    // into its canonical bytes, keys in code-point order at every depth: building it as a QJsonObject, serialising
    // and chaining that cost more than the read it records. Anything else goes the general way.
    // tst_auditlog::fastEntryBytes checks both ways give the same bytes.
    const bool failed = !facts.granted || facts.replyStatus >= 300;
    const QString logProject = facts.project.isEmpty() ? QStringLiteral("-") : facts.project;
    const QString logName = Audit::logName(logProject, Audit::LogKind::DataAccess);
    QString resourceName;
    if (!facts.jobId.isEmpty())
        resourceName = jobName(facts.project, facts.jobId);
    else if (!facts.project.isEmpty())
        resourceName = QStringLiteral("projects/") + facts.project;
    const QString principal = principalEmail(facts.member);
    const bool fast = !facts.method.adminActivity && !failed && facts.httpMethod == "GET" && !resourceName.isEmpty()
        && plainJson(logName) && plainJson(resourceName) && plainJson(principal) && plainJson(facts.callerIp)
        && plainJson(QByteArrayView(facts.userAgent)) && plainJson(facts.permission)
        && plainJson(facts.method.methodName) && plainJson(facts.method.serviceName) && plainJson(facts.region)
        && plainJson(facts.timestamp) && plainJson(facts.jobId) && plainJson(logProject);
    if (direct)
        *direct = fast;
    if (!fast)
        return AuditStore::chain(auditEntryOf(facts), seq, prevHash);

    QByteArray out;
    out.reserve(1024);
    out += '{';
    appendMember(out, "insertId", Audit::insertIdFor(seq));
    out += ",\"labels\":{";
    appendMember(out, "trainyard.io/prev-hash", QString::fromLatin1(prevHash));
    out += "},";
    appendMember(out, "logName", logName);
    out += ",\"protoPayload\":{";
    appendMember(out, "@type", u"type.googleapis.com/google.cloud.audit.AuditLog");
    out += ",\"authenticationInfo\":{";
    appendMember(out, "principalEmail", principal);
    out += '}';
    if (!facts.permission.isEmpty()) {
        out += ",\"authorizationInfo\":[{\"granted\":true,";
        appendMember(out, "permission", facts.permission);
        out += ',';
        appendMember(out, "resource", resourceName);
        out += "}]";
    }
    out += ',';
    appendMember(out, "methodName", facts.method.methodName);
    out += ",\"requestMetadata\":{";
    if (!facts.callerIp.isEmpty())
        appendMember(out, "callerIp", facts.callerIp);
    if (!facts.userAgent.isEmpty()) {
        if (!facts.callerIp.isEmpty())
            out += ',';
        appendMember(out, "callerSuppliedUserAgent", QByteArrayView(facts.userAgent));
    }
    out += "},";
    appendMember(out, "resourceName", resourceName);
    out += ',';
    appendMember(out, "serviceName", facts.method.serviceName);
    out += ",\"status\":{}},";
    appendMember(out, "receiveTimestamp", facts.timestamp);
    out += ",\"resource\":{\"labels\":{";
    if (!facts.jobId.isEmpty()) {
        appendMember(out, "job_id", facts.jobId);
        out += ',';
        appendMember(out, "project_id", logProject);
        out += ',';
        appendMember(out, "region", facts.region);
        out += "},\"type\":\"ml_job\"},";
    } else {
        appendMember(out, "method", facts.method.methodName);
        out += ',';
        appendMember(out, "project_id", logProject);
        out += ',';
        appendMember(out, "service", facts.method.serviceName);
        out += "},\"type\":\"audited_resource\"},";
    }
    appendMember(out, "severity", logSeverityString(LogSeverity::Info));
    out += ',';
    appendMember(out, "timestamp", facts.timestamp);
    out += '}';
    return AuditStore::Chained { out, logProject, true };
}

QJsonObject HttpApi::auditEntry(const ApiRequest& request, const Caller& caller, const AuditMethod& method,
    const QString& permission, const QHash<QString, QString>& params, const Reply& reply, bool granted) const
{
    return auditEntryOf(auditFacts(request, caller, method, permission, params, reply, granted));
}

QJsonObject HttpApi::auditEntryOf(const AuditFacts& facts)
{
    const QString& project = facts.project;
    QString jobId = facts.jobId;
    QString region = facts.region;
    const bool isCreateJob
        = facts.httpMethod == "POST" && facts.method.methodName.endsWith(QLatin1String(".CreateJob"));
    QJsonObject createRequest;
    QJsonObject truncated;
    if (isCreateJob) {
        // The job is named by the body (what the caller asked for, whether or not it was created).
        const QJsonObject body = QJsonDocument::fromJson(facts.requestBody).object();
        jobId = body.value(QLatin1String("jobId")).toString();
        region = body.value(QLatin1String("trainingInput")).toObject().value(QLatin1String("region")).toString();
        // The request as Cloud Audit Logs records a CreateJob (google.cloud.ml.v1.CreateJobRequest: parent, job).
        createRequest = QJsonObject {
            { QStringLiteral("@type"), QStringLiteral("type.googleapis.com/google.cloud.ml.v1.CreateJobRequest") },
            { QStringLiteral("parent"), QString(QStringLiteral("projects/") + project) },
        };
        // AuditLog.request "may not include all request parameters, such as those that are too large": past
        // MaxRecordedRequestBytes only what names the job is kept, and the entry says what was left out, so that
        // one request cannot write megabytes into the log (a denied create of 4 MiB wrote 4.2 MB).
        if (facts.requestBody.size() > MaxRecordedRequestBytes) {
            QJsonObject named;
            for (const char* key : { "jobId", "labels" }) {
                const QJsonValue value = body.value(QLatin1String(key));
                if (!value.isUndefined()
                    && QJsonDocument(QJsonObject { { QLatin1String(key), value } }).toJson().size()
                        < MaxRecordedRequestBytes / 4)
                    named.insert(QLatin1String(key), value);
            }
            if (!named.isEmpty())
                createRequest.insert(QStringLiteral("job"), named);
            truncated = QJsonObject {
                { QStringLiteral("requestSizeBytes"), QString::number(facts.requestBody.size()) },
                { QStringLiteral("recordedLimitBytes"), QString::number(MaxRecordedRequestBytes) },
                { QStringLiteral("message"),
                    QStringLiteral("The request was larger than the audit log records; only the job's ID and labels "
                                   "are kept.") },
            };
        } else if (!body.isEmpty()) {
            createRequest.insert(QStringLiteral("job"), body);
        }
    }
    QString resourceName;
    if (!jobId.isEmpty())
        resourceName = jobName(project, jobId);
    else if (!project.isEmpty())
        resourceName = QStringLiteral("projects/") + project;
    else if (facts.hasToken)
        resourceName = QStringLiteral("tokens/") + facts.token;
    else
        resourceName = QStringLiteral("tokens");

    // A reply that is not streamed carries its outcome: 2xx is OK, anything else Google's error object.
    QJsonObject status;
    const bool failed = !facts.granted || facts.replyStatus >= 300;
    if (failed) {
        const QJsonObject error
            = QJsonDocument::fromJson(facts.replyBody).object().value(QLatin1String("error")).toObject();
        status = QJsonObject {
            { QStringLiteral("code"), rpcCode(error.value(QLatin1String("status")).toString()) },
            { QStringLiteral("message"), cappedMessage(error.value(QLatin1String("message")).toString()) },
        };
        // google.rpc.Status keeps its details: a refused create's field violations say why (the job dir's rule,
        // the project ID's), which the message alone ("Request contains an invalid argument.") does not.
        const QJsonArray details = error.value(QLatin1String("details")).toArray();
        if (!details.isEmpty()
            && QJsonDocument(details).toJson(QJsonDocument::Compact).size() <= MaxRecordedRequestBytes)
            status.insert(QStringLiteral("details"), details);
    } else if (facts.httpMethod == "POST" && facts.method.methodName.endsWith(QLatin1String(".CreateToken"))) {
        // The new token's name, never the token.
        resourceName = QJsonDocument::fromJson(facts.replyBody).object().value(QLatin1String("name")).toString();
    }

    const QString logProject = project.isEmpty() ? QStringLiteral("-") : project;
    QJsonObject entry = baseEntry(logProject, jobId, region, facts.method.adminActivity, failed,
        facts.method.serviceName, facts.method.methodName, resourceName, principalEmail(facts.member), facts.timestamp);
    QJsonObject payload = entry.value(QLatin1String("protoPayload")).toObject();
    QJsonObject requestMetadata;
    if (!facts.callerIp.isEmpty())
        requestMetadata.insert(QStringLiteral("callerIp"), facts.callerIp);
    if (!facts.userAgent.isEmpty())
        requestMetadata.insert(QStringLiteral("callerSuppliedUserAgent"), QString::fromUtf8(facts.userAgent));
    payload.insert(QStringLiteral("requestMetadata"), requestMetadata);
    payload.insert(QStringLiteral("status"), status);
    if (!facts.permission.isEmpty())
        payload.insert(QStringLiteral("authorizationInfo"),
            QJsonArray { QJsonObject { { QStringLiteral("resource"), resourceName },
                { QStringLiteral("permission"), facts.permission }, { QStringLiteral("granted"), facts.granted } } });
    if (facts.httpMethod == "PATCH") {
        payload.insert(QStringLiteral("request"),
            QJsonObject {
                { QStringLiteral("@type"), QStringLiteral("type.googleapis.com/google.cloud.ml.v1.UpdateJobRequest") },
                { QStringLiteral("name"), resourceName }, { QStringLiteral("updateMask"), facts.updateMask } });
    } else if (!createRequest.isEmpty()) {
        payload.insert(QStringLiteral("request"), createRequest);
    }
    if (!truncated.isEmpty())
        payload.insert(QStringLiteral("metadata"), QJsonObject { { QStringLiteral("requestTruncated"), truncated } });
    entry.insert(QStringLiteral("protoPayload"), payload);
    return entry;
}

HttpApi::Reply HttpApi::auditLogs(const ApiRequest& request, const Caller& caller, const QString& project)
{
    if (!m_audit)
        return errorReply(RpcCode::Unavailable, QStringLiteral("The executor keeps no audit log."));
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
    Audit::Page page;
    page.entries.reserve(entries.size());
    for (const QJsonObject& entry : entries)
        page.entries.append(Audit::Entry::fromJson(entry));
    if (next > 0)
        page.nextPageToken = encodePageToken(QStringLiteral("auditLogs"), QString::number(next));
    return jsonReply(page.toJson());
}

} // namespace Trainyard
