// SPDX-License-Identifier: GPL-2.0-or-later
// Audit logs (auditrecorder.h): what each route is called in Cloud Audit Logs, the entry of a routed call or of the
// executor's own action, and how entries reach the audit store. The router (router.cpp) records every call here.
#include "auditrecorder.h"

#include "apicommon.h"

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
#include <cstring>

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

AuditRecorder::Method AuditRecorder::methodOf(
    const QByteArray& method, const QString& pattern, const QString& permission)
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
        { "GET", "jobs/{job}/hyperparameterImportance", "trainyard.v1.JobService.GetHyperparameterImportance",
            "ml.googleapis.com", false },
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
        { "GET", "projects/{project}:getConfig", "google.cloud.ml.v1.ProjectManagementService.GetConfig",
            "ml.googleapis.com", false },
        { "GET", "projects/{project}/locations", "google.cloud.ml.v1.LocationService.ListLocations",
            "ml.googleapis.com", false },
        { "GET", "locations/{location}", "google.cloud.ml.v1.LocationService.GetLocation", "ml.googleapis.com", false },
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
        { "POST", "models/{model}:explain", "google.cloud.ml.v1.OnlinePredictionService.Explain", "ml.googleapis.com",
            false },
        // The Vizier API is answered 501 (not served): its calls are recorded under its service's name.
        { "GET", "locations/{location}/studies", "google.cloud.ml.v1.VizierService.ListStudies", "ml.googleapis.com",
            false },
        { "POST", "locations/{location}/studies", "google.cloud.ml.v1.VizierService.CreateStudy", "ml.googleapis.com",
            true },
        { "DELETE", "locations/{location}/studies", "google.cloud.ml.v1.VizierService", "ml.googleapis.com", true },
        { "GET", "studies/{study=**}", "google.cloud.ml.v1.VizierService.GetStudy", "ml.googleapis.com", false },
        { "POST", "studies/{study=**}", "google.cloud.ml.v1.VizierService", "ml.googleapis.com", true },
        { "DELETE", "studies/{study=**}", "google.cloud.ml.v1.VizierService.DeleteStudy", "ml.googleapis.com", true },
        { "POST", "versions/{version}:explain", "google.cloud.ml.v1.OnlinePredictionService.Explain",
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
            return Method { QLatin1String(k.methodName), QLatin1String(k.serviceName), k.adminActivity, true };
    }
    return Method { QStringLiteral("trainyard.v1.") + (permission.isEmpty() ? pattern : permission), mlService,
        method != "GET", false };
}

AuditRecorder::AuditRecorder(const JobStore* jobs)
    : m_jobs(jobs)
{
}

void AuditRecorder::setStore(AuditStore* store, bool dataAccess)
{
    m_store = store;
    m_dataAccess = dataAccess;
}

namespace {

/// AuditRecorder::Facts as the bytes of an audit store record (AuditStore::appendDeferred()): each field in declaration
/// order, a QString as its UTF-16 length and code units, a QByteArray as its length and bytes, a flag or number as it
/// is in memory. Both ends are this file, in one process.
class FactsWriter {
public:
    explicit FactsWriter(std::string& out)
        : m_out(out)
    {
        m_out.clear();
    }
    template <typename T> void number(T value) { m_out.append(reinterpret_cast<const char*>(&value), sizeof value); }
    void text(QStringView value)
    {
        number(qint32(value.size()));
        if (!value.isEmpty())
            m_out.append(reinterpret_cast<const char*>(value.utf16()), std::size_t(value.size()) * sizeof(char16_t));
    }
    void bytes(QByteArrayView value)
    {
        number(qint32(value.size()));
        if (!value.isEmpty())
            m_out.append(value.data(), std::size_t(value.size()));
    }

private:
    std::string& m_out;
};

class FactsReader {
public:
    explicit FactsReader(QByteArrayView in)
        : m_at(in.data())
    {
    }
    template <typename T> T number()
    {
        T value;
        std::memcpy(&value, m_at, sizeof value);
        m_at += sizeof value;
        return value;
    }
    QString text()
    {
        const auto size = number<qint32>();
        QString value(size, Qt::Uninitialized);
        std::memcpy(value.data(), m_at, std::size_t(size) * sizeof(char16_t));
        m_at += std::size_t(size) * sizeof(char16_t);
        return value;
    }
    QByteArray bytes()
    {
        const auto size = number<qint32>();
        QByteArray value(m_at, size);
        m_at += size;
        return value;
    }

private:
    const char* m_at;
};

AuditRecorder::Facts readFacts(QByteArrayView record)
{
    FactsReader r(record);
    AuditRecorder::Facts f;
    char timestamp[LogJson::TimestampChars];
    LogJson::formatTimestamp(r.number<qint64>(), timestamp);
    f.timestamp = QString::fromLatin1(timestamp, LogJson::TimestampChars);
    f.httpMethod = r.bytes();
    f.method.methodName = r.text();
    f.method.serviceName = r.text();
    f.method.adminActivity = r.number<bool>();
    f.method.explicitlyMapped = r.number<bool>();
    f.permission = r.text();
    f.member = r.text();
    f.granted = r.number<bool>();
    f.replyStatus = r.number<int>();
    f.replyBody = r.bytes();
    f.requestBody = r.bytes();
    f.project = r.text();
    f.jobId = r.text();
    f.token = r.text();
    f.hasToken = r.number<bool>();
    f.region = r.text();
    f.callerIp = r.text();
    f.userAgent = r.bytes();
    f.updateMask = r.text();
    f.resource = r.text();
    return f;
}

} // namespace

bool AuditRecorder::writeLater(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
    const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply, bool granted)
{
    // The facts go over as bytes, built on the writer's thread into the entry (see appendDeferred()).
    recordNow(request, caller, method, permission, params, reply, granted, &m_record);
    QString problem;
    if (!m_store
        || m_store->appendDeferred(
            QByteArrayView(m_record.data(), qsizetype(m_record.size())), &AuditRecorder::chainedRecord, &problem))
        return true;
    qCCritical(lcApi).noquote() << "cannot hand over the audit entry of" << method.methodName << ":" << problem;
    return false;
}

void AuditRecorder::recordNow(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
    const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply, bool granted,
    std::string* record) const
{
    const bool isCreateJob = request.method() == "POST" && method.methodName.endsWith(QLatin1String(".CreateJob"));
    QString region;
    if (!isCreateJob) {
        const QString* project = nullptr;
        const QString* job = nullptr;
        for (auto it = params.cbegin(); it != params.cend(); ++it) {
            if (it.key() == QLatin1String("project"))
                project = &*it;
            else if (it.key() == QLatin1String("job"))
                job = &*it;
        }
        if (job && !job->isEmpty())
            region = regionOf(project ? *project : QString(), *job);
    }
    const qint64 us
        = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
    AuditRecorder::record(request, caller, method, permission, params, reply, granted, region, us, record);
}

void AuditRecorder::record(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
    const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply, bool granted,
    const QString& region, qint64 timeUs, std::string* record)
{
    // The path's captures are a handful: looked at in turn rather than hashed (a QString's hash costs more).
    QStringView project, job, token, model, version;
    bool hasToken = false;
    for (auto it = params.cbegin(); it != params.cend(); ++it) {
        if (it.key() == QLatin1String("project")) {
            project = *it;
        } else if (it.key() == QLatin1String("job")) {
            job = *it;
        } else if (it.key() == QLatin1String("token")) {
            token = *it;
            hasToken = true;
        } else if (it.key() == QLatin1String("model")) {
            model = *it;
        } else if (it.key() == QLatin1String("version")) {
            version = *it;
        }
    }
    const bool failed = !granted || reply.status >= 300;
    const bool isPost = request.method() == "POST";
    // A model's or a version's calls name it, as the service's entries do (issue 46: CreateModel and CreateVersion
    // named projects/local); a create's new name is its body's.
    QString resource;
    const bool createModel = isPost && method.methodName.endsWith(QLatin1String(".CreateModel"));
    const bool createVersion = isPost && method.methodName.endsWith(QLatin1String(".CreateVersion"));
    if (!model.isEmpty() || createModel) {
        QString created;
        if ((createModel || createVersion) && !failed)
            created = QJsonDocument::fromJson(request.body()).object().value(QLatin1String("name")).toString();
        resource = QStringLiteral("projects/") + project + QStringLiteral("/models/");
        resource += createModel ? created : model.toString();
        if (!version.isEmpty())
            resource += QStringLiteral("/versions/") + version;
        else if (createVersion && !created.isEmpty())
            resource += QStringLiteral("/versions/") + created;
        if (createModel && created.isEmpty())
            resource.clear(); // refused: the project, as before
    }
    FactsWriter w(*record);
    w.number(timeUs);
    w.bytes(request.method());
    w.text(method.methodName);
    w.text(method.serviceName);
    w.number(method.adminActivity);
    w.number(method.explicitlyMapped);
    w.text(permission);
    w.text(caller.member);
    w.number(granted);
    w.number(reply.status);
    // The bodies only where the entry reads them: a read's entry copies no answer.
    w.bytes(failed || (isPost && method.methodName.endsWith(QLatin1String(".CreateToken"))) ? QByteArrayView(reply.body)
                                                                                            : QByteArrayView());
    w.bytes(isPost && method.methodName.endsWith(QLatin1String(".CreateJob")) ? QByteArrayView(request.body())
                                                                              : QByteArrayView());
    w.text(project);
    w.text(job);
    w.text(token);
    w.number(hasToken);
    w.text(region);
    w.text(request.remoteAddress());
    w.bytes(request.header("User-Agent"));
    w.text(request.method() == "PATCH" ? queryValue(request.query(), QStringLiteral("updateMask")) : QString());
    w.text(resource);
}

AuditStore::Chained AuditRecorder::chainedRecord(QByteArrayView record, qint64 seq, const QByteArray& prevHash)
{
    return chainedEntry(readFacts(record), seq, prevHash);
}

bool AuditRecorder::write(const QJsonObject& entry, QString* error)
{
    QString problem;
    if (!m_store || m_store->append(entry, &problem))
        return true;
    qCCritical(lcApi).noquote()
        << "cannot write the audit entry of"
        << entry.value(QLatin1String("protoPayload")).toObject().value(QLatin1String("methodName")).toString() << ":"
        << problem;
    if (error)
        *error = problem;
    return false;
}

QString AuditRecorder::regionOf(const QString& project, const QString& jobId) const
{
    const QString key = project + QLatin1Char('/') + jobId;
    if (const auto it = m_jobRegions.constFind(key); it != m_jobRegions.cend())
        return *it;
    const std::optional<Job> job = m_jobs->job(project, jobId);
    if (!job)
        return QString(); // not remembered: the job may be created later
    if (m_jobRegions.size() >= 4096)
        m_jobRegions.clear();
    m_jobRegions.insert(key, job->trainingInput.region);
    return job->trainingInput.region;
}

bool AuditRecorder::systemAction(const QString& project, const QString& jobId, const QString& methodName,
    const QString& message, const QString& trialId, QString* error, const QJsonObject& more)
{
    if (!m_store)
        return true;
    const QString region = jobId.isEmpty() ? QString() : regionOf(project, jobId);
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
    return write(entry, error);
}

AuditRecorder::Facts AuditRecorder::facts(const ApiRequest& request, const HttpApi::Caller& caller,
    const Method& method, const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply,
    bool granted) const
{
    // The same facts as a deferred entry's, by the same code.
    std::string record;
    recordNow(request, caller, method, permission, params, reply, granted, &record);
    return readFacts(QByteArrayView(record.data(), qsizetype(record.size())));
}

namespace {

/// Writes the common Data Access entry's canonical bytes in one pass (chainedEntry()): constant parts as they
/// are, and texts that JSON writes as they are (printable ASCII without '"' and '\\': "plain") copied a character a
/// byte. A text that is not plain makes the entry go the general way, so the writer only notes it (plain()). The
/// buffer is sized once for the longest entry its texts can make (reserve()), so that no append reallocates: an
/// append through QByteArray (Qt 6.4: insert() at the end, with its overlap checks) cost more than the bytes.
class PlainJsonWriter {
public:
    /// `capacity`: an upper bound of the bytes that will be written.
    explicit PlainJsonWriter(qsizetype capacity)
        : m_bytes(capacity, Qt::Uninitialized)
        , m_at(m_bytes.data())
    {
    }

    bool plain() const { return m_plain; }

    template <qsizetype N> void raw(const char (&text)[N]) { raw(text, N - 1); }
    void raw(const char* text, qsizetype size)
    {
        std::memcpy(m_at, text, size_t(size));
        m_at += size;
    }
    void raw(char c) { *m_at++ = c; }
    /// A text's characters (not quoted); a character that is not plain is written too, and noted.
    void text(QStringView value)
    {
        for (const QChar qc : value) {
            const char16_t u = qc.unicode();
            m_plain = m_plain && u >= 0x20 && u < 0x7f && u != u'"' && u != u'\\';
            *m_at++ = char(u);
        }
    }
    void text(QByteArrayView value)
    {
        for (const char ch : value) {
            const auto c = static_cast<unsigned char>(ch);
            m_plain = m_plain && c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
            *m_at++ = ch;
        }
    }
    /// `"key":"value"`.
    template <qsizetype N, typename Text> void member(const char (&key)[N], const Text& value)
    {
        raw('"');
        raw(key, N - 1);
        raw("\":\"");
        text(value);
        raw('"');
    }

    QByteArray take()
    {
        m_bytes.truncate(m_at - m_bytes.constData());
        return std::move(m_bytes);
    }

private:
    QByteArray m_bytes;
    char* m_at;
    bool m_plain = true;
};

/// Audit::insertIdFor(seq), the place zero-padded to 20 digits, for a place ≥ 0.
void appendInsertId(PlainJsonWriter& out, qint64 seq)
{
    char digits[20];
    quint64 v = quint64(seq);
    for (int i = 19; i >= 0; --i) {
        digits[i] = char('0' + v % 10);
        v /= 10;
    }
    out.raw(digits, 20);
}

} // namespace

AuditStore::Chained AuditRecorder::chainedEntry(
    const Facts& facts, qint64 seq, const QByteArray& prevHash, bool* direct)
{
    // The common Data Access entry (a granted, successful read whose texts need no escaping) is written straight
    // into its canonical bytes, keys in code-point order at every depth: building it as a QJsonObject, serialising
    // and chaining that cost more than the read it records. Anything else goes the general way.
    // tst_auditlog::fastEntryBytes checks both ways give the same bytes.
    const bool failed = !facts.granted || facts.replyStatus >= 300;
    const bool candidate
        = !facts.method.adminActivity && !failed && facts.httpMethod == "GET" && !facts.project.isEmpty() && seq >= 0;
    if (!candidate) {
        if (direct)
            *direct = false;
        return AuditStore::chain(entryOf(facts), seq, prevHash);
    }
    const QString& project = facts.project; // "-" only for an entry without a project, which is not this one
    // principalEmail(): the member after its "type:".
    const qsizetype colon = facts.member.indexOf(QLatin1Char(':'));
    const QStringView principal = colon >= 0 ? QStringView(facts.member).mid(colon + 1) : QStringView(facts.member);
    static constexpr char DataAccessLog[] = "cloudaudit.googleapis.com%2Fdata_access";
    const QString& severity = logSeverityString(LogSeverity::Info);
    const auto resourceName = [&](PlainJsonWriter& out) {
        if (!facts.resource.isEmpty()) {
            out.text(facts.resource);
            return;
        }
        out.raw("projects/");
        out.text(project);
        if (!facts.jobId.isEmpty()) {
            out.raw("/jobs/");
            out.text(facts.jobId);
        }
    };

    // Every text the entry writes, counted as often as it is written, and 1 KiB for the keys and punctuation (the
    // constant parts come to under 700 bytes).
    const qsizetype texts = 3 * project.size() + 2 * facts.jobId.size() + 2 * facts.resource.size() + principal.size() + prevHash.size()
        + facts.permission.size() + 2 * facts.method.methodName.size() + 2 * facts.method.serviceName.size()
        + facts.callerIp.size() + facts.userAgent.size() + 2 * facts.timestamp.size() + facts.region.size()
        + severity.size();
    PlainJsonWriter out(texts + 1024);
    out.raw("{\"insertId\":\"");
    appendInsertId(out, seq);
    out.raw("\",\"labels\":{");
    out.member("trainyard.io/prev-hash", QByteArrayView(prevHash));
    out.raw("},\"logName\":\"projects/");
    out.text(project);
    out.raw("/logs/");
    out.raw(DataAccessLog);
    out.raw("\",\"protoPayload\":{");
    out.member("@type", QByteArrayView("type.googleapis.com/google.cloud.audit.AuditLog"));
    out.raw(",\"authenticationInfo\":{");
    out.member("principalEmail", principal);
    out.raw('}');
    if (!facts.permission.isEmpty()) {
        out.raw(",\"authorizationInfo\":[{\"granted\":true,");
        out.member("permission", facts.permission);
        out.raw(",\"resource\":\"");
        resourceName(out);
        out.raw("\"}]");
    }
    out.raw(',');
    out.member("methodName", facts.method.methodName);
    out.raw(",\"requestMetadata\":{");
    if (!facts.callerIp.isEmpty())
        out.member("callerIp", facts.callerIp);
    if (!facts.userAgent.isEmpty()) {
        if (!facts.callerIp.isEmpty())
            out.raw(',');
        out.member("callerSuppliedUserAgent", QByteArrayView(facts.userAgent));
    }
    out.raw("},\"resourceName\":\"");
    resourceName(out);
    out.raw("\",");
    out.member("serviceName", facts.method.serviceName);
    out.raw(",\"status\":{}},");
    out.member("receiveTimestamp", facts.timestamp);
    out.raw(",\"resource\":{\"labels\":{");
    if (!facts.jobId.isEmpty()) {
        out.member("job_id", facts.jobId);
        out.raw(',');
        out.member("project_id", project);
        out.raw(',');
        out.member("region", facts.region);
        out.raw("},\"type\":\"ml_job\"},");
    } else {
        out.member("method", facts.method.methodName);
        out.raw(',');
        out.member("project_id", project);
        out.raw(',');
        out.member("service", facts.method.serviceName);
        out.raw("},\"type\":\"audited_resource\"},");
    }
    out.member("severity", severity);
    out.raw(',');
    out.member("timestamp", facts.timestamp);
    out.raw('}');
    if (direct)
        *direct = out.plain();
    if (!out.plain())
        return AuditStore::chain(entryOf(facts), seq, prevHash);
    return AuditStore::Chained { out.take(), project, true };
}

QJsonObject AuditRecorder::entry(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
    const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply, bool granted) const
{
    return entryOf(facts(request, caller, method, permission, params, reply, granted));
}

QJsonObject AuditRecorder::entryOf(const Facts& facts)
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
    if (!facts.resource.isEmpty())
        resourceName = facts.resource;
    else if (!jobId.isEmpty())
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

} // namespace Trainyard
