// SPDX-License-Identifier: GPL-2.0-or-later
#include "apiclient.h"
#include "jsonnumber.h"
#include "rfc3339.h"
#include "rpcstatus.h"

#include <QDateTime>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimeZone>
#include <QUrlQuery>

#include <utility>

namespace Trainyard {

Q_LOGGING_CATEGORY(lcApiClient, "trainyard.models")

namespace {

// google.rpc.Code names for HTTP answers without Google's error body (a proxy, a crashed handler).
QString statusForHttp(int http)
{
    return Rpc::name(Rpc::forHttpStatus(http));
}

/// A double the executor wrote (metric points, tensor statistics): lenient, 0 when it is not one.
double doubleField(const QJsonValue& v)
{
    return jsonToDouble(v).value_or(0);
}

qint64 int64Field(const QJsonValue& v)
{
    if (v.isString())
        return v.toString().toLongLong();
    return static_cast<qint64>(v.toDouble());
}

QList<int> intList(const QJsonValue& v)
{
    QList<int> out;
    const QJsonArray array = v.toArray();
    for (const QJsonValue& item : array)
        out.append(static_cast<int>(int64Field(item)));
    return out;
}

GpuInfo gpuFromJson(const QJsonObject& o)
{
    GpuInfo g;
    g.index = static_cast<int>(int64Field(o.value(QLatin1String("index"))));
    g.uuid = o.value(QLatin1String("uuid")).toString();
    g.name = o.value(QLatin1String("name")).toString();
    g.acceleratorType = o.value(QLatin1String("acceleratorType")).toString();
    g.memoryBytes = int64Field(o.value(QLatin1String("memoryBytes")));
    return g;
}

QList<GpuInfo> gpuList(const QJsonValue& v)
{
    QList<GpuInfo> out;
    const QJsonArray array = v.toArray();
    for (const QJsonValue& item : array)
        out.append(gpuFromJson(item.toObject()));
    return out;
}

std::optional<QJsonObject> parseObject(const QByteArray& body, ApiError* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        error->status = QStringLiteral("INTERNAL");
        error->message = QStringLiteral("The executor answered with malformed JSON: ") + parseError.errorString();
        return std::nullopt;
    }
    return doc.object();
}

// Decodes a Job from an answer; a Job the client cannot decode is reported, not half-used.
Job decodeJob(const QJsonObject& json, ApiError* error)
{
    FieldViolations violations;
    Job job = JobJson::fromJson(json, &violations);
    if (!violations.isEmpty()) {
        error->status = QStringLiteral("INTERNAL");
        error->message = QStringLiteral("The executor sent a Job this client cannot read: ") + violations.first().field
            + QStringLiteral(": ") + violations.first().description;
        error->violations = violations;
        return {};
    }
    return job;
}

// Replicas of an answer or event. A replica in a state this client does not know (a newer executor's) is
// still shown, as Unspecified, and the name is logged rather than dropped unseen.
QList<ReplicaInfo> replicaList(const QJsonArray& array)
{
    QList<ReplicaInfo> out;
    out.reserve(array.size());
    for (qsizetype i = 0; i < array.size(); ++i) {
        FieldViolations violations;
        out.append(ReplicaInfo::fromJson(array.at(i).toObject(), &violations));
        for (const FieldViolation& v : std::as_const(violations))
            qCWarning(lcApiClient).noquote() << QStringLiteral("replicas[%1].%2:").arg(i).arg(v.field) << v.description;
    }
    return out;
}

QString pathSegment(const QString& id)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(id));
}

} // namespace

QString ApiError::summary() const
{
    return status.isEmpty() ? message : status + QStringLiteral(": ") + message;
}

ApiError ApiError::fromBody(int httpStatus, const QByteArray& body, const QString& fallbackMessage)
{
    ApiError e;
    e.httpStatus = httpStatus;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    const QJsonObject error = doc.object().value(QLatin1String("error")).toObject();
    if (!error.isEmpty()) {
        e.status = error.value(QLatin1String("status")).toString();
        e.message = error.value(QLatin1String("message")).toString();
        const QJsonArray details = error.value(QLatin1String("details")).toArray();
        for (const QJsonValue& d : details) {
            const QJsonArray fv = d.toObject().value(QLatin1String("fieldViolations")).toArray();
            for (const QJsonValue& v : fv) {
                const QJsonObject o = v.toObject();
                e.violations.append(
                    { o.value(QLatin1String("field")).toString(), o.value(QLatin1String("description")).toString() });
            }
        }
    }
    if (e.status.isEmpty())
        e.status = statusForHttp(httpStatus);
    if (e.message.isEmpty())
        e.message = fallbackMessage.isEmpty() ? QString::fromUtf8(body.left(500)).trimmed() : fallbackMessage;
    return e;
}

ReplicaInfo ReplicaInfo::fromJson(const QJsonObject& o, FieldViolations* violations)
{
    ReplicaInfo r;
    r.taskName = o.value(QLatin1String("taskName")).toString();
    r.role = o.value(QLatin1String("role")).toString();
    r.index = static_cast<int>(int64Field(o.value(QLatin1String("index"))));
    const QString state = o.value(QLatin1String("state")).toString();
    r.state = replicaStateFromName(state).value_or(ReplicaState::Unspecified);
    if (violations && !replicaStateFromName(state))
        violations->append(
            { QStringLiteral("state"), QStringLiteral("Unknown replica state \"") + state + QStringLiteral("\".") });
    r.pid = int64Field(o.value(QLatin1String("pid")));
    r.address = o.value(QLatin1String("address")).toString();
    r.node = o.value(QLatin1String("node")).toString();
    r.gpus = intList(o.value(QLatin1String("gpus")));
    r.restarts = static_cast<int>(int64Field(o.value(QLatin1String("restarts"))));
    if (o.contains(QLatin1String("exitCode")))
        r.exitCode = static_cast<int>(int64Field(o.value(QLatin1String("exitCode"))));
    if (o.contains(QLatin1String("exitSignal")))
        r.exitSignal = static_cast<int>(int64Field(o.value(QLatin1String("exitSignal"))));
    r.machineType = o.value(QLatin1String("machineType")).toString();
    r.trialId = o.value(QLatin1String("trialId")).toString();
    if (o.contains(QLatin1String("startTime")))
        r.startTime = QDateTime::fromString(o.value(QLatin1String("startTime")).toString(), Qt::ISODateWithMs);
    return r;
}

QString replicaStateName(ReplicaState state)
{
    switch (state) {
    case ReplicaState::Unspecified:
        return QStringLiteral("STATE_UNSPECIFIED");
    case ReplicaState::Pending:
        return QStringLiteral("PENDING");
    case ReplicaState::Starting:
        return QStringLiteral("STARTING");
    case ReplicaState::Running:
        return QStringLiteral("RUNNING");
    case ReplicaState::Restarting:
        return QStringLiteral("RESTARTING");
    case ReplicaState::Succeeded:
        return QStringLiteral("SUCCEEDED");
    case ReplicaState::Failed:
        return QStringLiteral("FAILED");
    case ReplicaState::Stopped:
        return QStringLiteral("STOPPED");
    }
    return QString();
}

std::optional<ReplicaState> replicaStateFromName(QStringView name)
{
    for (auto state : { ReplicaState::Unspecified, ReplicaState::Pending, ReplicaState::Starting, ReplicaState::Running,
             ReplicaState::Restarting, ReplicaState::Succeeded, ReplicaState::Failed, ReplicaState::Stopped }) {
        if (name == replicaStateName(state))
            return state;
    }
    return std::nullopt;
}

QJsonObject ReplicaInfo::toJson() const
{
    QJsonArray gpuArray;
    for (int g : gpus)
        gpuArray.append(g);
    QJsonObject o {
        { QStringLiteral("taskName"), taskName },
        { QStringLiteral("role"), role },
        { QStringLiteral("index"), index },
        { QStringLiteral("state"), replicaStateName(state) },
        { QStringLiteral("address"), address },
        { QStringLiteral("gpus"), gpuArray },
        { QStringLiteral("restarts"), restarts },
        { QStringLiteral("machineType"), machineType },
        { QStringLiteral("trialId"), trialId },
    };
    if (pid > 0)
        o.insert(QStringLiteral("pid"), QString::number(pid));
    if (!node.isEmpty())
        o.insert(QStringLiteral("node"), node);
    if (exitCode)
        o.insert(QStringLiteral("exitCode"), *exitCode);
    if (exitSignal)
        o.insert(QStringLiteral("exitSignal"), *exitSignal);
    if (startTime.isValid())
        o.insert(QStringLiteral("startTime"), startTime.toUTC().toString(Qt::ISODateWithMs));
    return o;
}

HostStatus HostStatus::fromJson(const QJsonObject& o)
{
    HostStatus h;
    h.cpus = static_cast<int>(int64Field(o.value(QLatin1String("cpus"))));
    h.memoryBytes = int64Field(o.value(QLatin1String("memoryBytes")));
    h.gpus = gpuList(o.value(QLatin1String("gpus")));
    h.vcpusInUse = static_cast<int>(int64Field(o.value(QLatin1String("vcpusInUse"))));
    h.memoryInUse = Bytes::fromGb(o.value(QLatin1String("memoryGbInUse")).toDouble());
    h.gpusInUse = intList(o.value(QLatin1String("gpusInUse")));
    h.runningJobs = static_cast<int>(int64Field(o.value(QLatin1String("runningJobs"))));
    h.queuedJobs = static_cast<int>(int64Field(o.value(QLatin1String("queuedJobs"))));
    for (const QJsonValue& root : o.value(QLatin1String("jobDirRoots")).toArray())
        h.jobDirRoots << root.toString();
    return h;
}

QJsonObject HostStatus::toJson() const
{
    QJsonArray gpuArray;
    for (const GpuInfo& g : gpus)
        gpuArray.append(QJsonObject {
            { QStringLiteral("index"), g.index },
            { QStringLiteral("uuid"), g.uuid },
            { QStringLiteral("name"), g.name },
            { QStringLiteral("acceleratorType"), g.acceleratorType },
            { QStringLiteral("memoryBytes"), QString::number(g.memoryBytes) },
        });
    QJsonArray inUse;
    for (int g : gpusInUse)
        inUse.append(g);
    QJsonObject json {
        { QStringLiteral("cpus"), cpus },
        { QStringLiteral("memoryBytes"), QString::number(memoryBytes) },
        { QStringLiteral("gpus"), gpuArray },
        { QStringLiteral("vcpusInUse"), vcpusInUse },
        { QStringLiteral("memoryGbInUse"), memoryInUse.gb() },
        { QStringLiteral("gpusInUse"), inUse },
        { QStringLiteral("runningJobs"), runningJobs },
        { QStringLiteral("queuedJobs"), queuedJobs },
    };
    if (!jobDirRoots.isEmpty())
        json.insert(QStringLiteral("jobDirRoots"), QJsonArray::fromStringList(jobDirRoots));
    return json;
}

namespace {
std::optional<qint64> optionalInt64(const QJsonObject& o, QLatin1String key)
{
    if (!o.contains(key))
        return std::nullopt;
    return int64Field(o.value(key));
}

QStringList stringList(const QJsonValue& v)
{
    QStringList out;
    const QJsonArray array = v.toArray();
    for (const QJsonValue& item : array)
        out.append(item.toString());
    return out;
}
} // namespace

CheckpointSummary CheckpointSummary::fromJson(const QJsonObject& o)
{
    CheckpointSummary c;
    c.name = o.value(QLatin1String("name")).toString();
    c.format = o.value(QLatin1String("format")).toString();
    c.step = optionalInt64(o, QLatin1String("step"));
    c.epoch = optionalInt64(o, QLatin1String("epoch"));
    c.updateTimeMs = Rfc3339::parseUs(o.value(QLatin1String("updateTime")).toString()).value_or(0) / 1000;
    c.sizeBytes = int64Field(o.value(QLatin1String("sizeBytes")));
    c.current = o.value(QLatin1String("current")).toBool();
    c.trialId = o.value(QLatin1String("trialId")).toString();
    c.files = stringList(o.value(QLatin1String("files")));
    return c;
}

CheckpointTensor CheckpointTensor::fromJson(const QJsonObject& o)
{
    CheckpointTensor t;
    t.name = o.value(QLatin1String("name")).toString();
    t.displayName = o.value(QLatin1String("displayName")).toString();
    t.dtype = o.value(QLatin1String("dtype")).toString();
    t.elementType = o.value(QLatin1String("elementType")).toString();
    const QJsonArray shape = o.value(QLatin1String("shape")).toArray();
    for (const QJsonValue& d : shape)
        t.shape.append(int64Field(d));
    t.sizeBytes = o.contains(QLatin1String("sizeBytes")) ? int64Field(o.value(QLatin1String("sizeBytes"))) : -1;
    t.shard = static_cast<int>(int64Field(o.value(QLatin1String("shard"))));
    t.file = o.value(QLatin1String("file")).toString();
    t.metadata = o.value(QLatin1String("metadata")).toBool();
    return t;
}

SeriesInfo SeriesInfo::fromJson(const QJsonObject& o)
{
    SeriesInfo s;
    s.name = o.value(QLatin1String("name")).toString();
    s.kind = o.value(QLatin1String("kind")).toString();
    s.run = o.value(QLatin1String("run")).toString();
    s.tag = o.value(QLatin1String("tag")).toString();
    s.taskName = o.value(QLatin1String("taskName")).toString();
    s.trialId = o.value(QLatin1String("trialId")).toString();
    s.pointCount = int64Field(o.value(QLatin1String("points")));
    s.lastSeq = int64Field(o.value(QLatin1String("lastSeq")));
    return s;
}

SeriesPoint SeriesPoint::fromJson(const QJsonObject& o)
{
    return { int64Field(o.value(QLatin1String("step"))), doubleField(o.value(QLatin1String("wallTime"))),
        doubleField(o.value(QLatin1String("value"))) };
}

ApiClient::ApiClient(const QUrl& baseUrl, const QByteArray& token, QObject* parent)
    : QObject(parent)
    , m_nam(new QNetworkAccessManager(this))
    , m_tls(new TlsTrustGuard(m_nam, this))
    , m_baseUrl(baseUrl)
    , m_token(token)
{
    // The executor is on the loopback address; a system proxy must never see the token.
    m_nam->setProxy(QNetworkProxy::NoProxy);
}

ApiClient::~ApiClient() = default;

void ApiClient::setTlsTrust(const TlsTrust& trust)
{
    m_tls->setTrust(trust);
}

QUrl ApiClient::projectUrl(const QString& suffix, const QString& query) const
{
    QUrl url = m_baseUrl;
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + QStringLiteral("/v1/projects/") + pathSegment(m_project) + suffix, QUrl::TolerantMode);
    if (!query.isEmpty())
        url.setQuery(query);
    return url;
}

void ApiClient::request(const QByteArray& verb, const QString& path, const QString& query, const QByteArray& body,
    QObject* context, std::function<void(int, const QByteArray&, const ApiError&)> done)
{
    QUrl url = m_baseUrl;
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + path, QUrl::TolerantMode);
    if (!query.isEmpty())
        url.setQuery(query);
    QNetworkRequest req(url);
    m_tls->prepare(&req);
    req.setRawHeader("Authorization", "Bearer " + m_token);
    req.setRawHeader("Accept", "application/json");
    if (!body.isEmpty() || verb == "POST" || verb == "PATCH")
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    if (m_timeoutMs > 0)
        req.setTransferTimeout(m_timeoutMs);
    QNetworkReply* reply = m_nam->sendCustomRequest(req, verb, body);
    QPointer<QObject> guard(context);
    const bool hasContext = context != nullptr;
    connect(reply, &QNetworkReply::finished, this, [reply, guard, hasContext, done = std::move(done)]() {
        reply->deleteLater();
        if (hasContext && !guard)
            return;
        const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray data = reply->readAll();
        ApiError error;
        if (http == 0) {
            error.status = QStringLiteral("UNAVAILABLE");
            error.message = TlsTrustGuard::problem(reply);
            if (error.message.isEmpty())
                error.message = QStringLiteral("Cannot reach the executor at ")
                    + reply->url().toString(QUrl::RemoveQuery) + QStringLiteral(": ") + reply->errorString();
        } else if (http < 200 || http >= 300) {
            error = ApiError::fromBody(
                http, data, reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString());
        }
        done(http, data, error);
    });
}

namespace {
template <typename T> using Done = ApiClient::Callback<T>;

// Wraps a typed callback: transport/HTTP errors pass through, a 2xx body is parsed by `decode`.
template <typename T, typename Decode>
std::function<void(int, const QByteArray&, const ApiError&)> typed(Done<T> done, Decode decode)
{
    return [done = std::move(done), decode](int, const QByteArray& body, const ApiError& error) {
        if (!error.isNull()) {
            done(T {}, error);
            return;
        }
        ApiError parseError;
        const std::optional<QJsonObject> object = parseObject(body, &parseError);
        if (!object) {
            done(T {}, parseError);
            return;
        }
        T value = decode(*object, &parseError);
        done(parseError.isNull() ? value : T {}, parseError);
    };
}
} // namespace

void ApiClient::createJob(const Job& job, QObject* context, Callback<Job> done)
{
    const QByteArray body = QJsonDocument(JobJson::toJson(job)).toJson(QJsonDocument::Compact);
    request("POST", projectUrl(QStringLiteral("/jobs")).path(), {}, body, context,
        typed<Job>(std::move(done), [](const QJsonObject& o, ApiError* e) { return decodeJob(o, e); }));
}

void ApiClient::getJob(const QString& jobId, QObject* context, Callback<Job> done)
{
    request("GET", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId)).path(), {}, {}, context,
        typed<Job>(std::move(done), [](const QJsonObject& o, ApiError* e) { return decodeJob(o, e); }));
}

void ApiClient::listJobs(
    const QString& filter, int pageSize, const QString& pageToken, QObject* context, Callback<JobPage> done)
{
    QUrlQuery q;
    if (!filter.isEmpty())
        q.addQueryItem(QStringLiteral("filter"), QString::fromLatin1(QUrl::toPercentEncoding(filter)));
    if (pageSize > 0)
        q.addQueryItem(QStringLiteral("pageSize"), QString::number(pageSize));
    if (!pageToken.isEmpty())
        q.addQueryItem(QStringLiteral("pageToken"), QString::fromLatin1(QUrl::toPercentEncoding(pageToken)));
    request("GET", projectUrl(QStringLiteral("/jobs")).path(), q.query(QUrl::FullyEncoded), {}, context,
        typed<JobPage>(std::move(done), [](const QJsonObject& o, ApiError* e) {
            JobPage page;
            page.nextPageToken = o.value(QLatin1String("nextPageToken")).toString();
            const QJsonArray jobs = o.value(QLatin1String("jobs")).toArray();
            for (const QJsonValue& j : jobs) {
                Job job = decodeJob(j.toObject(), e);
                if (!e->isNull())
                    return JobPage {};
                page.jobs.append(job);
            }
            return page;
        }));
}

void ApiClient::cancelJob(const QString& jobId, QObject* context, Callback<bool> done)
{
    request("POST", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral(":cancel")).path(), {},
        QByteArray("{}"), context, typed<bool>(std::move(done), [](const QJsonObject&, ApiError*) { return true; }));
}

void ApiClient::patchLabels(const QString& jobId, const QMap<QString, QString>& labels, const QString& etag,
    QObject* context, Callback<Job> done)
{
    QJsonObject labelsJson;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it)
        labelsJson.insert(it.key(), it.value());
    QJsonObject body { { QStringLiteral("labels"), labelsJson } };
    if (!etag.isEmpty())
        body.insert(QStringLiteral("etag"), etag);
    request("PATCH", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId)).path(),
        QStringLiteral("updateMask=labels"), QJsonDocument(body).toJson(QJsonDocument::Compact), context,
        typed<Job>(std::move(done), [](const QJsonObject& o, ApiError* e) { return decodeJob(o, e); }));
}

void ApiClient::replicas(const QString& jobId, QObject* context, Callback<QList<ReplicaInfo>> done)
{
    request("GET", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/replicas")).path(), {},
        {}, context, typed<QList<ReplicaInfo>>(std::move(done), [](const QJsonObject& o, ApiError*) {
            return replicaList(o.value(QLatin1String("replicas")).toArray());
        }));
}

void ApiClient::logs(const QString& jobId, const QString& taskName, const QString& minSeverity, int pageSize,
    const QString& pageToken, QObject* context, Callback<LogPage> done)
{
    logs(jobId, taskName, minSeverity, QString(), pageSize, pageToken, context, std::move(done));
}

void ApiClient::logs(const QString& jobId, const QString& taskName, const QString& minSeverity, const QString& contains,
    int pageSize, const QString& pageToken, QObject* context, Callback<LogPage> done)
{
    QUrlQuery q;
    if (!taskName.isEmpty())
        q.addQueryItem(QStringLiteral("taskName"), QString::fromLatin1(QUrl::toPercentEncoding(taskName)));
    if (!minSeverity.isEmpty())
        q.addQueryItem(QStringLiteral("severity"), QString::fromLatin1(QUrl::toPercentEncoding(minSeverity)));
    if (!contains.isEmpty())
        q.addQueryItem(QStringLiteral("contains"), QString::fromLatin1(QUrl::toPercentEncoding(contains)));
    if (pageSize > 0)
        q.addQueryItem(QStringLiteral("pageSize"), QString::number(pageSize));
    if (!pageToken.isEmpty())
        q.addQueryItem(QStringLiteral("pageToken"), QString::fromLatin1(QUrl::toPercentEncoding(pageToken)));
    request("GET", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/logs")).path(),
        q.query(QUrl::FullyEncoded), {}, context, typed<LogPage>(std::move(done), [](const QJsonObject& o, ApiError*) {
            LogPage page;
            page.nextPageToken = o.value(QLatin1String("nextPageToken")).toString();
            const QJsonArray array = o.value(QLatin1String("entries")).toArray();
            page.entries.reserve(array.size());
            for (const QJsonValue& e : array)
                page.entries.append(LogEntry::fromJson(e.toObject()));
            return page;
        }));
}

void ApiClient::scaleTiers(QObject* context, Callback<QJsonArray> done)
{
    request("GET", projectUrl(QStringLiteral("/scaleTiers")).path(), {}, {}, context,
        typed<QJsonArray>(std::move(done),
            [](const QJsonObject& o, ApiError*) { return o.value(QLatin1String("scaleTiers")).toArray(); }));
}

void ApiClient::machineTypes(QObject* context, Callback<QList<MachineType>> done)
{
    request("GET", projectUrl(QStringLiteral("/machineTypes")).path(), {}, {}, context,
        typed<QList<MachineType>>(std::move(done), [](const QJsonObject& o, ApiError*) {
            QList<MachineType> out;
            const QJsonArray array = o.value(QLatin1String("machineTypes")).toArray();
            for (const QJsonValue& v : array) {
                const QJsonObject m = v.toObject();
                MachineType t;
                t.name = m.value(QLatin1String("name")).toString();
                t.family = m.value(QLatin1String("family")).toString();
                t.vcpus = static_cast<int>(int64Field(m.value(QLatin1String("vcpus"))));
                t.memory = Bytes::fromGb(m.value(QLatin1String("memoryGb")).toDouble());
                const QJsonObject counts = m.value(QLatin1String("acceleratorCounts")).toObject();
                for (auto it = counts.begin(); it != counts.end(); ++it)
                    t.acceleratorCounts.insert(it.key(), intList(it.value()));
                out.append(t);
            }
            return out;
        }));
}

void ApiClient::acceleratorTypes(QObject* context,
    std::function<void(const QList<AcceleratorAvailability>&, const QList<GpuInfo>&, const ApiError&)> done)
{
    using Pair = QPair<QList<AcceleratorAvailability>, QList<GpuInfo>>;
    request("GET", projectUrl(QStringLiteral("/acceleratorTypes")).path(), {}, {}, context,
        typed<Pair>([done = std::move(done)](const Pair& p, const ApiError& e) { done(p.first, p.second, e); },
            [](const QJsonObject& o, ApiError*) {
                Pair p;
                const QJsonArray array = o.value(QLatin1String("acceleratorTypes")).toArray();
                for (const QJsonValue& v : array) {
                    const QJsonObject a = v.toObject();
                    p.first.append({ a.value(QLatin1String("name")).toString(),
                        a.value(QLatin1String("displayName")).toString(), a.value(QLatin1String("isTpu")).toBool(),
                        static_cast<int>(int64Field(a.value(QLatin1String("availableOnHost")))) });
                }
                p.second = gpuList(o.value(QLatin1String("gpus")));
                return p;
            }));
}

void ApiClient::runtimeVersions(QObject* context, Callback<QList<RuntimeVersionInfo>> done)
{
    request("GET", projectUrl(QStringLiteral("/runtimeVersions")).path(), {}, {}, context,
        typed<QList<RuntimeVersionInfo>>(std::move(done), [](const QJsonObject& o, ApiError*) {
            QList<RuntimeVersionInfo> out;
            const QJsonArray array = o.value(QLatin1String("runtimeVersions")).toArray();
            for (const QJsonValue& v : array) {
                const QJsonObject r = v.toObject();
                RuntimeVersionInfo info;
                info.runtimeVersion = r.value(QLatin1String("runtimeVersion")).toString();
                const QJsonArray pythons = r.value(QLatin1String("pythonVersions")).toArray();
                for (const QJsonValue& p : pythons)
                    info.pythonVersions.append(p.toString());
                info.interpreter = r.value(QLatin1String("interpreter")).toString();
                out.append(info);
            }
            return out;
        }));
}

void ApiClient::host(QObject* context, Callback<HostStatus> done)
{
    request("GET", projectUrl(QStringLiteral("/host")).path(), {}, {}, context,
        typed<HostStatus>(std::move(done), [](const QJsonObject& o, ApiError*) { return HostStatus::fromJson(o); }));
}

void ApiClient::images(QObject* context, Callback<QList<ContainerImageInfo>> done)
{
    request("GET", projectUrl(QStringLiteral("/images")).path(), {}, {}, context,
        typed<QList<ContainerImageInfo>>(std::move(done), [](const QJsonObject& o, ApiError*) {
            QList<ContainerImageInfo> list;
            for (const QJsonValue& v : o.value(QLatin1String("images")).toArray()) {
                const QJsonObject i = v.toObject();
                ContainerImageInfo info;
                for (const QJsonValue& n : i.value(QLatin1String("names")).toArray())
                    info.names << n.toString();
                info.id = i.value(QLatin1String("id")).toString();
                info.sizeBytes = i.value(QLatin1String("sizeBytes")).toString().toLongLong();
                info.createTime = i.value(QLatin1String("createTime")).toString();
                list << info;
            }
            return list;
        }));
}

void ApiClient::regions(const QString& region, QObject* context, Callback<QJsonObject> done)
{
    const QString suffix
        = region.isEmpty() ? QStringLiteral("/regions") : QStringLiteral("/regions/") + pathSegment(region);
    request("GET", projectUrl(suffix).path(QUrl::FullyEncoded), {}, {}, context,
        typed<QJsonObject>(std::move(done), [](const QJsonObject& o, ApiError*) { return o; }));
}

TrainedModel TrainedModel::fromJson(const QJsonObject& o)
{
    TrainedModel m;
    m.modelPath = o.value(QLatin1String("modelPath")).toString();
    m.framework = o.value(QLatin1String("framework")).toString();
    const QJsonObject evaluation = o.value(QLatin1String("evaluation")).toObject();
    m.split = evaluation.value(QLatin1String("split")).toString();
    m.task = evaluation.value(QLatin1String("task")).toString();
    m.rows = evaluation.value(QLatin1String("rows")).toInteger();
    const QJsonObject metrics = evaluation.value(QLatin1String("metrics")).toObject();
    for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
        if (it.value().isDouble())
            m.metrics.append({ it.key(), it.value().toDouble() });
    }
    const QJsonObject matrix = evaluation.value(QLatin1String("confusion_matrix")).toObject();
    for (const QJsonValue& label : matrix.value(QLatin1String("labels")).toArray())
        m.classLabels << (label.isString() ? label.toString() : QString::number(label.toDouble()));
    const qsizetype k = m.classLabels.size();
    for (const QJsonValue& row : matrix.value(QLatin1String("counts")).toArray()) {
        QList<qint64> counts;
        for (const QJsonValue& c : row.toArray())
            counts << c.toInteger();
        // A square matrix over the labels, or none: a view indexes it by both.
        if (counts.size() != k)
            break;
        m.confusion << counts;
    }
    if (m.confusion.size() != k)
        m.confusion.clear();
    for (const QJsonValue& point : evaluation.value(QLatin1String("predicted_vs_actual")).toArray()) {
        const QJsonArray pair = point.toArray();
        if (pair.size() == 2 && pair.at(0).isDouble() && pair.at(1).isDouble())
            m.actualPredicted.append({ pair.at(0).toDouble(), pair.at(1).toDouble() });
    }
    const QJsonObject importance = o.value(QLatin1String("featureImportance")).toObject();
    for (const QJsonValue& c : importance.value(QLatin1String("columns")).toArray()) {
        const QJsonObject column = c.toObject();
        m.importance.append({ column.value(QLatin1String("column")).toInt(),
            column.value(QLatin1String("total_gain")).toDouble(), column.value(QLatin1String("splits")).toInteger() });
    }
    for (const QJsonValue& f : o.value(QLatin1String("files")).toArray()) {
        const QJsonObject file = f.toObject();
        m.files.append({ file.value(QLatin1String("name")).toString(),
            file.value(QLatin1String("sizeBytes")).toString().toLongLong() });
    }
    return m;
}

void ApiClient::trainedModel(
    const QString& jobId, const QString& trialId, QObject* context, Callback<TrainedModel> done)
{
    QUrlQuery q;
    if (!trialId.isEmpty())
        q.addQueryItem(QStringLiteral("trial"), trialId);
    request("GET",
        projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/model")).path(QUrl::FullyEncoded),
        q.query(QUrl::FullyEncoded), {}, context,
        typed<TrainedModel>(
            std::move(done), [](const QJsonObject& o, ApiError*) { return TrainedModel::fromJson(o); }));
}

void ApiClient::checkpoints(const QString& jobId, QObject* context, Callback<CheckpointList> done)
{
    request("GET",
        projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/checkpoints"))
            .path(QUrl::FullyEncoded),
        {}, {}, context, typed<CheckpointList>(std::move(done), [](const QJsonObject& o, ApiError*) {
            CheckpointList list;
            list.jobDir = o.value(QLatin1String("jobDir")).toString();
            list.truncated = o.value(QLatin1String("truncated")).toBool();
            const QJsonArray array = o.value(QLatin1String("checkpoints")).toArray();
            for (const QJsonValue& c : array)
                list.checkpoints.append(CheckpointSummary::fromJson(c.toObject()));
            return list;
        }));
}

void ApiClient::checkpointDetail(
    const QString& jobId, const QString& name, QObject* context, Callback<CheckpointDetail> done)
{
    // The name is one path segment on the wire (`/` as %2F), so FullyEncoded keeps it that way.
    request("GET",
        projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/checkpoints/") + pathSegment(name))
            .path(QUrl::FullyEncoded),
        {}, {}, context, typed<CheckpointDetail>(std::move(done), [](const QJsonObject& o, ApiError*) {
            CheckpointDetail d;
            d.name = o.value(QLatin1String("name")).toString();
            d.format = o.value(QLatin1String("format")).toString();
            d.totalBytes = int64Field(o.value(QLatin1String("totalBytes")));
            d.files = stringList(o.value(QLatin1String("files")));
            const QJsonArray tensors = o.value(QLatin1String("tensors")).toArray();
            d.tensors.reserve(tensors.size());
            for (const QJsonValue& t : tensors)
                d.tensors.append(CheckpointTensor::fromJson(t.toObject()));
            d.scalars = o.value(QLatin1String("scalars")).toObject();
            d.metadata = o.value(QLatin1String("metadata")).toObject();
            return d;
        }));
}

void ApiClient::tensorValues(const QString& jobId, const QString& name, const QString& tensor, int values,
    QObject* context, Callback<TensorValues> done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("tensor"), QString::fromLatin1(QUrl::toPercentEncoding(tensor)));
    q.addQueryItem(QStringLiteral("values"), QString::number(std::max(0, values)));
    request("GET",
        projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/checkpoints/") + pathSegment(name))
            .path(QUrl::FullyEncoded),
        q.query(QUrl::FullyEncoded), {}, context,
        typed<TensorValues>(std::move(done), [](const QJsonObject& o, ApiError*) {
            TensorValues v;
            v.checkpoint = o.value(QLatin1String("name")).toString();
            v.tensor = CheckpointTensor::fromJson(o.value(QLatin1String("tensor")).toObject());
            const QJsonObject s = o.value(QLatin1String("statistics")).toObject();
            v.count = int64Field(s.value(QLatin1String("count")));
            v.nanCount = int64Field(s.value(QLatin1String("nanCount")));
            v.infCount = int64Field(s.value(QLatin1String("infCount")));
            v.min = doubleField(s.value(QLatin1String("min")));
            v.max = doubleField(s.value(QLatin1String("max")));
            v.mean = doubleField(s.value(QLatin1String("mean")));
            v.std = doubleField(s.value(QLatin1String("std")));
            const QJsonArray values = s.value(QLatin1String("values")).toArray();
            v.values.reserve(values.size());
            for (const QJsonValue& x : values)
                v.values.append(doubleField(x));
            return v;
        }));
}

void ApiClient::metricSeries(const QString& jobId, QObject* context, Callback<QList<SeriesInfo>> done)
{
    request("GET", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/metrics")).path(), {},
        {}, context, typed<QList<SeriesInfo>>(std::move(done), [](const QJsonObject& o, ApiError*) {
            QList<SeriesInfo> out;
            const QJsonArray array = o.value(QLatin1String("series")).toArray();
            for (const QJsonValue& v : array)
                out.append(SeriesInfo::fromJson(v.toObject()));
            return out;
        }));
}

void ApiClient::metricPoints(const QString& jobId, const QString& series, qint64 after, int pageSize,
    const QString& pageToken, QObject* context, Callback<SeriesPage> done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("series"), QString::fromLatin1(QUrl::toPercentEncoding(series)));
    if (after > 0)
        q.addQueryItem(QStringLiteral("after"), QString::number(after));
    if (pageSize > 0)
        q.addQueryItem(QStringLiteral("pageSize"), QString::number(pageSize));
    if (!pageToken.isEmpty())
        q.addQueryItem(QStringLiteral("pageToken"), QString::fromLatin1(QUrl::toPercentEncoding(pageToken)));
    request("GET", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/metrics")).path(),
        q.query(QUrl::FullyEncoded), {}, context,
        typed<SeriesPage>(std::move(done), [](const QJsonObject& o, ApiError*) {
            SeriesPage page;
            page.series = SeriesInfo::fromJson(o.value(QLatin1String("series")).toObject());
            const QJsonArray array = o.value(QLatin1String("points")).toArray();
            page.points.reserve(array.size());
            for (const QJsonValue& v : array)
                page.points.append(SeriesPoint::fromJson(v.toObject()));
            page.lastSeq = int64Field(o.value(QLatin1String("lastSeq")));
            page.nextPageToken = o.value(QLatin1String("nextPageToken")).toString();
            return page;
        }));
}

ApiStream* ApiClient::followMetrics(const QString& jobId, const QString& series, qint64 after)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("follow"), QStringLiteral("true"));
    if (!series.isEmpty())
        q.addQueryItem(QStringLiteral("series"), QString::fromLatin1(QUrl::toPercentEncoding(series)));
    if (after > 0)
        q.addQueryItem(QStringLiteral("after"), QString::number(after));
    QNetworkRequest req(projectUrl(
        QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/metrics"), q.query(QUrl::FullyEncoded)));
    m_tls->prepare(&req);
    req.setRawHeader("Authorization", "Bearer " + m_token);
    req.setRawHeader("Accept", "text/event-stream");
    return new ApiStream(m_nam->get(req), jobId, nullptr);
}

ApiStream* ApiClient::followLogs(const QString& jobId, const QString& taskName, const QString& minSeverity,
    const QString& contains, const QString& trialId)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("follow"), QStringLiteral("true"));
    if (!taskName.isEmpty())
        q.addQueryItem(QStringLiteral("taskName"), QString::fromLatin1(QUrl::toPercentEncoding(taskName)));
    if (!minSeverity.isEmpty())
        q.addQueryItem(QStringLiteral("severity"), QString::fromLatin1(QUrl::toPercentEncoding(minSeverity)));
    if (!contains.isEmpty())
        q.addQueryItem(QStringLiteral("contains"), QString::fromLatin1(QUrl::toPercentEncoding(contains)));
    if (!trialId.isEmpty())
        q.addQueryItem(QStringLiteral("trialId"), QString::fromLatin1(QUrl::toPercentEncoding(trialId)));
    QNetworkRequest req(projectUrl(
        QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/logs"), q.query(QUrl::FullyEncoded)));
    m_tls->prepare(&req);
    req.setRawHeader("Authorization", "Bearer " + m_token);
    req.setRawHeader("Accept", "text/event-stream");
    return new ApiStream(m_nam->get(req), jobId, nullptr);
}

ApiStream* ApiClient::followEvents(const QString& jobId)
{
    QNetworkRequest req(projectUrl(
        QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral(":events"), QStringLiteral("follow=true")));
    m_tls->prepare(&req);
    req.setRawHeader("Authorization", "Bearer " + m_token);
    req.setRawHeader("Accept", "text/event-stream");
    return new ApiStream(m_nam->get(req), jobId, nullptr);
}

ApiStream* ApiClient::followJobs(const QByteArray& since)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("follow"), QStringLiteral("true"));
    if (!since.isEmpty())
        q.addQueryItem(
            QStringLiteral("since"), QString::fromLatin1(QUrl::toPercentEncoding(QString::fromLatin1(since))));
    QNetworkRequest req(projectUrl(QStringLiteral("/jobs"), q.query(QUrl::FullyEncoded)));
    m_tls->prepare(&req);
    req.setRawHeader("Authorization", "Bearer " + m_token);
    req.setRawHeader("Accept", "text/event-stream");
    return new ApiStream(m_nam->get(req), QString(), nullptr);
}

template <typename T, typename Call> ApiResult<T> ApiClient::blocking(Call call)
{
    ApiResult<T> result;
    QEventLoop loop;
    bool done = false;
    call(&loop, [&](const T& value, const ApiError& error) {
        result.value = value;
        result.error = error;
        done = true;
        loop.quit();
    });
    if (!done)
        loop.exec();
    return result;
}

ApiResult<QJsonObject> ApiClient::jsonBlocking(const QByteArray& verb, const QString& path, const QByteArray& body)
{
    return blocking<QJsonObject>([&](QObject* ctx, Callback<QJsonObject> cb) {
        request(
            verb, path, QString(), body, ctx, [cb = std::move(cb)](int, const QByteArray& data, const ApiError& error) {
                if (!error.isNull()) {
                    cb(QJsonObject {}, error);
                    return;
                }
                QJsonParseError parseError;
                const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
                if (!doc.isObject()) {
                    ApiError bad;
                    bad.status = QStringLiteral("INTERNAL");
                    bad.message
                        = QStringLiteral("The executor's answer is not a JSON object: ") + parseError.errorString();
                    cb(QJsonObject {}, bad);
                    return;
                }
                cb(doc.object(), ApiError {});
            });
    });
}

ApiResult<Job> ApiClient::createJobBlocking(const Job& job)
{
    return blocking<Job>([&](QObject* ctx, Callback<Job> cb) { createJob(job, ctx, std::move(cb)); });
}

ApiResult<Job> ApiClient::getJobBlocking(const QString& jobId)
{
    return blocking<Job>([&](QObject* ctx, Callback<Job> cb) { getJob(jobId, ctx, std::move(cb)); });
}

ApiResult<JobPage> ApiClient::listJobsBlocking(const QString& filter, int pageSize, const QString& pageToken)
{
    return blocking<JobPage>(
        [&](QObject* ctx, Callback<JobPage> cb) { listJobs(filter, pageSize, pageToken, ctx, std::move(cb)); });
}

void ApiClient::auditLogs(const QString& project, const QString& filter, int pageSize, const QString& pageToken,
    QObject* context, Callback<QJsonObject> done)
{
    QUrlQuery q;
    if (!filter.isEmpty())
        q.addQueryItem(QStringLiteral("filter"), QString::fromLatin1(QUrl::toPercentEncoding(filter)));
    if (pageSize > 0)
        q.addQueryItem(QStringLiteral("pageSize"), QString::number(pageSize));
    if (!pageToken.isEmpty())
        q.addQueryItem(QStringLiteral("pageToken"), QString::fromLatin1(QUrl::toPercentEncoding(pageToken)));
    const QString path = QStringLiteral("/v1/projects/")
        + QString::fromLatin1(QUrl::toPercentEncoding(project.isEmpty() ? m_project : project))
        + QStringLiteral("/auditLogs");
    request("GET", path, q.query(QUrl::FullyEncoded), {}, context,
        typed<QJsonObject>(std::move(done), [](const QJsonObject& o, ApiError*) { return o; }));
}

ApiResult<QJsonObject> ApiClient::auditLogsBlocking(
    const QString& project, const QString& filter, int pageSize, const QString& pageToken)
{
    return blocking<QJsonObject>([&](QObject* ctx, Callback<QJsonObject> cb) {
        auditLogs(project, filter, pageSize, pageToken, ctx, std::move(cb));
    });
}

ApiResult<bool> ApiClient::cancelJobBlocking(const QString& jobId)
{
    return blocking<bool>([&](QObject* ctx, Callback<bool> cb) { cancelJob(jobId, ctx, std::move(cb)); });
}

ApiResult<Job> ApiClient::patchLabelsBlocking(
    const QString& jobId, const QMap<QString, QString>& labels, const QString& etag)
{
    return blocking<Job>([&](QObject* ctx, Callback<Job> cb) { patchLabels(jobId, labels, etag, ctx, std::move(cb)); });
}

ApiResult<QList<ReplicaInfo>> ApiClient::replicasBlocking(const QString& jobId)
{
    return blocking<QList<ReplicaInfo>>(
        [&](QObject* ctx, Callback<QList<ReplicaInfo>> cb) { replicas(jobId, ctx, std::move(cb)); });
}

ApiResult<LogPage> ApiClient::logsBlocking(
    const QString& jobId, const QString& taskName, const QString& minSeverity, int pageSize, const QString& pageToken)
{
    return blocking<LogPage>([&](QObject* ctx, Callback<LogPage> cb) {
        logs(jobId, taskName, minSeverity, pageSize, pageToken, ctx, std::move(cb));
    });
}

ApiResult<HostStatus> ApiClient::hostBlocking()
{
    return blocking<HostStatus>([&](QObject* ctx, Callback<HostStatus> cb) { host(ctx, std::move(cb)); });
}

ApiResult<QJsonObject> ApiClient::regionsBlocking(const QString& region)
{
    return blocking<QJsonObject>([&](QObject* ctx, Callback<QJsonObject> cb) { regions(region, ctx, std::move(cb)); });
}

ApiResult<CheckpointList> ApiClient::checkpointsBlocking(const QString& jobId)
{
    return blocking<CheckpointList>(
        [&](QObject* ctx, Callback<CheckpointList> cb) { checkpoints(jobId, ctx, std::move(cb)); });
}

ApiResult<CheckpointDetail> ApiClient::checkpointDetailBlocking(const QString& jobId, const QString& name)
{
    return blocking<CheckpointDetail>(
        [&](QObject* ctx, Callback<CheckpointDetail> cb) { checkpointDetail(jobId, name, ctx, std::move(cb)); });
}

ApiResult<TensorValues> ApiClient::tensorValuesBlocking(
    const QString& jobId, const QString& name, const QString& tensor, int values)
{
    return blocking<TensorValues>([&](QObject* ctx, Callback<TensorValues> cb) {
        tensorValues(jobId, name, tensor, values, ctx, std::move(cb));
    });
}

ApiResult<QList<SeriesInfo>> ApiClient::metricSeriesBlocking(const QString& jobId)
{
    return blocking<QList<SeriesInfo>>(
        [&](QObject* ctx, Callback<QList<SeriesInfo>> cb) { metricSeries(jobId, ctx, std::move(cb)); });
}

ApiResult<SeriesPage> ApiClient::metricPointsBlocking(const QString& jobId, const QString& series, qint64 after)
{
    ApiResult<SeriesPage> all;
    QString token;
    do {
        const ApiResult<SeriesPage> page = blocking<SeriesPage>([&](QObject* ctx, Callback<SeriesPage> cb) {
            metricPoints(jobId, series, token.isEmpty() ? after : 0, 0, token, ctx, std::move(cb));
        });
        if (!page.ok())
            return page;
        all.value.series = page.value.series;
        all.value.points += page.value.points;
        all.value.lastSeq = page.value.lastSeq;
        token = page.value.nextPageToken;
    } while (!token.isEmpty());
    return all;
}

ApiStream::ApiStream(QNetworkReply* reply, const QString& jobId, QObject* parent)
    : QObject(parent)
    , m_reply(reply)
    , m_jobId(jobId)
{
    reply->setParent(this);
    connect(reply, &QNetworkReply::readyRead, this, &ApiStream::onReadyRead);
    connect(reply, &QNetworkReply::finished, this, &ApiStream::onFinished);
}

ApiStream::~ApiStream()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

void ApiStream::abort()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
    finish();
}

void ApiStream::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    Q_EMIT finished();
}

void ApiStream::onReadyRead()
{
    if (!m_reply)
        return;
    const int http = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (http != 0 && http != 200)
        return; // the body is an error document; onFinished reports it
    m_buffer.append(m_reply->readAll());
    QList<LogEntry> batch;
    QList<Job> jobBatch;
    qsizetype start = 0;
    // SSE framing (WHATWG HTML "Server-sent events"): lines end in \n (or \r\n); a blank line
    // dispatches the event gathered so far.
    while (true) {
        const qsizetype nl = m_buffer.indexOf('\n', start);
        if (nl < 0)
            break;
        QByteArray line = m_buffer.mid(start, nl - start);
        start = nl + 1;
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty()) {
            if (!m_data.isEmpty() || !m_event.isEmpty())
                dispatch(m_event.isEmpty() ? QStringLiteral("message") : m_event, m_data, &batch, &jobBatch);
            m_event.clear();
            m_data.clear();
            continue;
        }
        if (line.startsWith(':'))
            continue;
        const qsizetype colon = line.indexOf(':');
        const QByteArray field = colon < 0 ? line : line.left(colon);
        QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
        if (value.startsWith(' '))
            value.remove(0, 1);
        if (field == "data") {
            if (!m_data.isEmpty())
                m_data.append('\n');
            m_data.append(value);
        } else if (field == "event") {
            m_event = QString::fromUtf8(value);
        } else if (field == "id" && !value.contains('\0')) {
            m_lastEventId = value;
        }
    }
    m_buffer.remove(0, start);
    flushJobs(&jobBatch);
    if (!batch.isEmpty())
        Q_EMIT logEntries(batch);
    if (m_sawEnd)
        finish();
}

void ApiStream::flushJobs(QList<Job>* jobBatch)
{
    if (jobBatch->isEmpty())
        return;
    const QList<Job> jobs = std::exchange(*jobBatch, {});
    for (const Job& job : jobs)
        Q_EMIT jobChanged(job);
    Q_EMIT jobsChanged(jobs);
}

void ApiStream::dispatch(const QString& event, const QByteArray& data, QList<LogEntry>* logBatch, QList<Job>* jobBatch)
{
    const QJsonObject object = QJsonDocument::fromJson(data).object();
    if (event != QLatin1String("job"))
        flushJobs(jobBatch); // the jobs before this event go out first, in order
    if (event == QLatin1String("message") || event == QLatin1String("log")) {
        logBatch->append(LogEntry::fromJson(object));
    } else if (event == QLatin1String("end")) {
        // Entries gathered before the end event go out first so that receivers see them in order.
        if (!logBatch->isEmpty()) {
            Q_EMIT logEntries(*logBatch);
            logBatch->clear();
        }
        m_sawEnd = true;
        const QString name = object.value(QLatin1String("state")).toString();
        const std::optional<JobState> state = jobStateFromName(name);
        if (!state && !name.isEmpty())
            qCWarning(lcApiClient) << "the end event names an unknown job state:" << name;
        Q_EMIT ended(state.value_or(JobState::StateUnspecified));
    } else if (event == QLatin1String("job")) {
        ApiError error;
        const Job job = decodeJob(object, &error);
        if (error.isNull())
            jobBatch->append(job);
        else
            qCWarning(lcApiClient) << "ignoring an undecodable job event:" << error.message;
    } else if (event == QLatin1String("synced")) {
        Q_EMIT jobsSynced(object.value(QLatin1String("cursor")).toString().toLatin1());
    } else if (event == QLatin1String("reset")) {
        Q_EMIT jobsReset();
    } else if (event == QLatin1String("series")) {
        Q_EMIT metricSeriesAdded(SeriesInfo::fromJson(object));
    } else if (event == QLatin1String("points")) {
        QList<SeriesPoint> points;
        const QJsonArray array = object.value(QLatin1String("points")).toArray();
        points.reserve(array.size());
        for (const QJsonValue& v : array)
            points.append(SeriesPoint::fromJson(v.toObject()));
        Q_EMIT metricPoints(object.value(QLatin1String("series")).toString(), points);
    } else if (event == QLatin1String("purge")) {
        Q_EMIT metricsPurged(
            object.value(QLatin1String("series")).toString(), int64Field(object.value(QLatin1String("fromStep"))));
    } else if (event == QLatin1String("replicas")) {
        Q_EMIT replicasChanged(m_jobId, replicaList(object.value(QLatin1String("replicas")).toArray()));
    }
}

void ApiStream::onFinished()
{
    if (!m_reply)
        return;
    onReadyRead();
    const int http = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (!m_finished) {
        if (http == 0) {
            ApiError error;
            error.status = QStringLiteral("UNAVAILABLE");
            error.message = TlsTrustGuard::problem(m_reply);
            if (error.message.isEmpty())
                error.message = QStringLiteral("The stream from the executor broke: ") + m_reply->errorString();
            Q_EMIT failed(error);
        } else if (http != 200) {
            Q_EMIT failed(ApiError::fromBody(
                http, m_reply->readAll(), m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString()));
        } else {
            // A log stream ends with its `end` event and an events stream never ends: a close without
            // one means the executor went away (restart, crash) and the caller may reconnect.
            ApiError error;
            error.httpStatus = http;
            error.status = QStringLiteral("UNAVAILABLE");
            error.message = QStringLiteral("The executor closed the stream before the job ended");
            Q_EMIT failed(error);
        }
    }
    m_reply->deleteLater();
    finish();
}

} // namespace Trainyard
