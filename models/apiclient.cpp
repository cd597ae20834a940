// SPDX-License-Identifier: GPL-2.0-or-later
#include "apiclient.h"
#include "apijson_p.h"
#include "jsonnumber.h"
#include "rfc3339.h"
#include "rpcstatus.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimeZone>
#include <QUrlQuery>

#include <algorithm>
#include <memory>
#include <utility>

namespace Trainyard {

using ApiJson::pathSegment;

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
    m_trust = trust;
    m_tls->setTrust(trust);
    for (StreamLane& lane : m_streamLanes)
        lane.tls->setTrust(trust);
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

QString ApiClient::projectPath(const QString& suffix) const
{
    return QStringLiteral("/v1/projects/") + pathSegment(m_project) + suffix;
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
    req.setHeader(QNetworkRequest::UserAgentHeader, userAgent());
    if (!body.isEmpty() || verb == "POST" || verb == "PATCH")
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    if (m_timeoutMs > 0)
        req.setTransferTimeout(m_timeoutMs);
    if (m_httpLog)
        m_httpLog(httpRequestText(req, verb, body));
    QElapsedTimer roundTrip;
    roundTrip.start();
    QNetworkReply* reply = m_nam->sendCustomRequest(req, verb, body);
    QPointer<QObject> guard(context);
    const bool hasContext = context != nullptr;
    connect(reply, &QNetworkReply::finished, this,
        [reply, guard, hasContext, roundTrip, log = m_httpLog, done = std::move(done)]() {
            reply->deleteLater();
            const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QByteArray data = reply->readAll();
            if (log)
                log(httpResponseText(reply, data, roundTrip.elapsed()));
            if (hasContext && !guard)
                return;
            ApiError error;
            if (http == 0) {
                error.status = Rpc::name(RpcCode::Unavailable);
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

using ApiJson::typed;

QString ApiClient::httpRequestText(const QNetworkRequest& request, const QByteArray& verb, const QByteArray& body)
{
    QString text = QStringLiteral("=======================\n==== request start ====\nuri: %1\nmethod: %2\n"
                                  "== headers start ==\n")
                       .arg(request.url().toString(), QString::fromLatin1(verb));
    for (const QByteArray& name : request.rawHeaderList()) {
        const bool secret = name.compare("Authorization", Qt::CaseInsensitive) == 0;
        text += QStringLiteral("%1: %2\n")
                    .arg(QString::fromLatin1(name),
                        secret ? QStringLiteral("--- Token Redacted ---") : QString::fromUtf8(request.rawHeader(name)));
    }
    text += QStringLiteral("== headers end ==\n== body start ==\n%1\n== body end ==\n==== request end ====")
                .arg(QString::fromUtf8(body));
    return text;
}

QString ApiClient::httpResponseText(QNetworkReply* reply, const QByteArray& body, qint64 elapsedMs)
{
    QString text = QStringLiteral("---- response start ----\nstatus: %1\n-- headers start --\n")
                       .arg(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt());
    for (const auto& [name, value] : reply->rawHeaderPairs())
        text += QStringLiteral("%1: %2\n").arg(QString::fromLatin1(name), QString::fromUtf8(value));
    text += QStringLiteral("-- headers end --\n-- body start --\n%1\n-- body end --\ntotal round trip time "
                           "(request+response): %2 secs\n---- response end ----\n----------------------")
                .arg(QString::fromUtf8(body), QString::number(double(elapsedMs) / 1000.0, 'f', 3));
    return text;
}

void ApiClient::createJob(const Job& job, QObject* context, Callback<Job> done)
{
    const QByteArray body = QJsonDocument(JobJson::toJson(job)).toJson(QJsonDocument::Compact);
    request("POST", projectUrl(QStringLiteral("/jobs")).path(), {}, body, context,
        typed<Job>(std::move(done), [](const QJsonObject& o, ApiError* e) { return ApiJson::decodeJob(o, e); }));
}

void ApiClient::getJob(const QString& jobId, QObject* context, Callback<Job> done)
{
    request("GET", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId)).path(), {}, {}, context,
        typed<Job>(std::move(done), [](const QJsonObject& o, ApiError* e) { return ApiJson::decodeJob(o, e); }));
}

void ApiClient::listJobs(
    const QString& filter, int pageSize, const QString& pageToken, QObject* context, Callback<JobPage> done)
{
    request("GET", projectUrl(QStringLiteral("/jobs")).path(), ApiJson::listQuery(filter, pageSize, pageToken), {},
        context, typed<JobPage>(std::move(done), [](const QJsonObject& o, ApiError* e) {
            JobPage page;
            page.nextPageToken = o.value(QLatin1String("nextPageToken")).toString();
            const QJsonArray jobs = o.value(QLatin1String("jobs")).toArray();
            for (const QJsonValue& j : jobs) {
                Job job = ApiJson::decodeJob(j.toObject(), e);
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
        typed<Job>(std::move(done), [](const QJsonObject& o, ApiError* e) { return ApiJson::decodeJob(o, e); }));
}

void ApiClient::replicas(const QString& jobId, QObject* context, Callback<QList<ReplicaInfo>> done)
{
    request("GET", projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/replicas")).path(), {},
        {}, context, typed<QList<ReplicaInfo>>(std::move(done), [](const QJsonObject& o, ApiError*) {
            return ApiJson::replicaList(o.value(QLatin1String("replicas")).toArray());
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

void ApiClient::scaleTiers(QObject* context, Callback<QList<ScaleTierInfo>> done)
{
    request("GET", projectUrl(QStringLiteral("/scaleTiers")).path(), {}, {}, context,
        typed<QList<ScaleTierInfo>>(std::move(done), [](const QJsonObject& o, ApiError*) {
            QList<ScaleTierInfo> tiers;
            for (const QJsonValue& v : o.value(QLatin1String("scaleTiers")).toArray())
                tiers.append(ScaleTierInfo::fromJson(v.toObject()));
            return tiers;
        }));
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
                t.vcpus = static_cast<int>(ApiJson::int64Field(m.value(QLatin1String("vcpus"))));
                t.memory = Bytes::fromGb(m.value(QLatin1String("memoryGb")).toDouble());
                const QJsonObject counts = m.value(QLatin1String("acceleratorCounts")).toObject();
                for (auto it = counts.begin(); it != counts.end(); ++it)
                    t.acceleratorCounts.insert(it.key(), ApiJson::intList(it.value()));
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
                        static_cast<int>(ApiJson::int64Field(a.value(QLatin1String("availableOnHost")))) });
                }
                p.second = ApiJson::gpuList(o.value(QLatin1String("gpus")));
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
                info.interpreterPythonVersion = r.value(QLatin1String("interpreterPythonVersion")).toString();
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

void ApiClient::location(const QString& location, QObject* context, Callback<Location> done)
{
    request("GET", projectUrl(QStringLiteral("/locations/") + pathSegment(location)).path(), {}, {}, context,
        typed<Location>(std::move(done), [](const QJsonObject& o, ApiError*) { return Location::fromJson(o); }));
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

void ApiClient::regions(const QString& region, QObject* context, Callback<QList<RegionInfo>> done)
{
    const bool one = !region.isEmpty();
    const QString suffix = one ? QStringLiteral("/regions/") + pathSegment(region) : QStringLiteral("/regions");
    request("GET", projectUrl(suffix).path(QUrl::FullyEncoded), {}, {}, context,
        typed<QList<RegionInfo>>(std::move(done), [one](const QJsonObject& o, ApiError*) {
            return one ? QList<RegionInfo> { RegionInfo::fromJson(o) } : RegionInfo::listFromJson(o);
        }));
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

void ApiClient::hyperparameterImportance(
    const QString& jobId, QObject* context, Callback<HyperparameterImportance> done)
{
    request("GET",
        projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/hyperparameterImportance"))
            .path(QUrl::FullyEncoded),
        {}, {}, context, typed<HyperparameterImportance>(std::move(done), [](const QJsonObject& o, ApiError*) {
            return HyperparameterImportance::fromJson(o);
        }));
}

void ApiClient::checkpoints(const QString& jobId, QObject* context, Callback<CheckpointList> done)
{
    request("GET",
        projectUrl(QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral("/checkpoints"))
            .path(QUrl::FullyEncoded),
        {}, {}, context, typed<CheckpointList>(std::move(done), [](const QJsonObject& o, ApiError*) {
            return CheckpointList::fromJson(o);
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
            return CheckpointDetail::fromJson(o);
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
        typed<TensorValues>(
            std::move(done), [](const QJsonObject& o, ApiError*) { return TensorValues::fromJson(o); }));
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
            page.lastSeq = ApiJson::int64Field(o.value(QLatin1String("lastSeq")));
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
    return openStream(req, jobId);
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
    return openStream(req, jobId);
}

ApiStream* ApiClient::followEvents(const QString& jobId)
{
    QNetworkRequest req(projectUrl(
        QStringLiteral("/jobs/") + pathSegment(jobId) + QStringLiteral(":events"), QStringLiteral("follow=true")));
    return openStream(req, jobId);
}

ApiStream* ApiClient::followJobs(const QByteArray& since)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("follow"), QStringLiteral("true"));
    if (!since.isEmpty())
        q.addQueryItem(
            QStringLiteral("since"), QString::fromLatin1(QUrl::toPercentEncoding(QString::fromLatin1(since))));
    QNetworkRequest req(projectUrl(QStringLiteral("/jobs"), q.query(QUrl::FullyEncoded)));
    return openStream(req, QString());
}

ApiStream* ApiClient::followModels()
{
    QNetworkRequest req(projectUrl(QStringLiteral("/models"), QStringLiteral("follow=true")));
    ApiStream* stream = openStream(req, QString());
    stream->m_project = project();
    return stream;
}

ApiStream* ApiClient::openStream(QNetworkRequest request, const QString& jobId)
{
    auto lane = std::find_if(
        m_streamLanes.begin(), m_streamLanes.end(), [](const StreamLane& l) { return l.open < StreamsPerLane; });
    if (lane == m_streamLanes.end()) {
        StreamLane added;
        added.nam = new QNetworkAccessManager(this);
        // The executor is on the loopback address; a system proxy must never see the token.
        added.nam->setProxy(QNetworkProxy::NoProxy);
        added.tls = new TlsTrustGuard(added.nam, this);
        added.tls->setTrust(m_trust);
        m_streamLanes.push_back(added);
        lane = m_streamLanes.end() - 1;
    }
    lane->tls->prepare(&request);
    request.setRawHeader("Authorization", "Bearer " + m_token);
    request.setRawHeader("Accept", "text/event-stream");
    request.setHeader(QNetworkRequest::UserAgentHeader, userAgent());
    if (m_httpLog)
        m_httpLog(httpRequestText(request, "GET", QByteArray()));
    QNetworkReply* reply = lane->nam->get(request);
    ++lane->open;
    // Its connection is free again once the reply finished (an abort finishes it too) or is gone, whichever is first.
    const auto freed = std::make_shared<bool>(false);
    const auto release = [this, nam = lane->nam, freed] {
        if (std::exchange(*freed, true))
            return;
        for (StreamLane& l : m_streamLanes) {
            if (l.nam == nam)
                --l.open;
        }
    };
    connect(reply, &QNetworkReply::finished, this, release);
    connect(reply, &QObject::destroyed, this, release);
    return new ApiStream(reply, jobId, nullptr);
}

ApiResult<Job> ApiClient::createJobBlocking(const Job& job)
{
    return ApiJson::blocking<Job>([&](QObject* ctx, Callback<Job> cb) { createJob(job, ctx, std::move(cb)); });
}

ApiResult<Job> ApiClient::getJobBlocking(const QString& jobId)
{
    return ApiJson::blocking<Job>([&](QObject* ctx, Callback<Job> cb) { getJob(jobId, ctx, std::move(cb)); });
}

ApiResult<JobPage> ApiClient::listJobsBlocking(const QString& filter, int pageSize, const QString& pageToken)
{
    return ApiJson::blocking<JobPage>(
        [&](QObject* ctx, Callback<JobPage> cb) { listJobs(filter, pageSize, pageToken, ctx, std::move(cb)); });
}

void ApiClient::auditLogs(const QString& project, const QString& filter, int pageSize, const QString& pageToken,
    QObject* context, Callback<Audit::Page> done)
{
    const QString path = QStringLiteral("/v1/projects/")
        + QString::fromLatin1(QUrl::toPercentEncoding(project.isEmpty() ? m_project : project))
        + QStringLiteral("/auditLogs");
    request("GET", path, ApiJson::listQuery(filter, pageSize, pageToken), {}, context,
        typed<Audit::Page>(std::move(done), [](const QJsonObject& o, ApiError*) { return Audit::Page::fromJson(o); }));
}

ApiResult<Audit::Page> ApiClient::auditLogsBlocking(
    const QString& project, const QString& filter, int pageSize, const QString& pageToken)
{
    return ApiJson::blocking<Audit::Page>([&](QObject* ctx, Callback<Audit::Page> cb) {
        auditLogs(project, filter, pageSize, pageToken, ctx, std::move(cb));
    });
}

ApiResult<bool> ApiClient::cancelJobBlocking(const QString& jobId)
{
    return ApiJson::blocking<bool>([&](QObject* ctx, Callback<bool> cb) { cancelJob(jobId, ctx, std::move(cb)); });
}

ApiResult<Job> ApiClient::patchLabelsBlocking(
    const QString& jobId, const QMap<QString, QString>& labels, const QString& etag)
{
    return ApiJson::blocking<Job>(
        [&](QObject* ctx, Callback<Job> cb) { patchLabels(jobId, labels, etag, ctx, std::move(cb)); });
}

ApiResult<QList<ReplicaInfo>> ApiClient::replicasBlocking(const QString& jobId)
{
    return ApiJson::blocking<QList<ReplicaInfo>>(
        [&](QObject* ctx, Callback<QList<ReplicaInfo>> cb) { replicas(jobId, ctx, std::move(cb)); });
}

ApiResult<LogPage> ApiClient::logsBlocking(
    const QString& jobId, const QString& taskName, const QString& minSeverity, int pageSize, const QString& pageToken)
{
    return ApiJson::blocking<LogPage>([&](QObject* ctx, Callback<LogPage> cb) {
        logs(jobId, taskName, minSeverity, pageSize, pageToken, ctx, std::move(cb));
    });
}

ApiResult<HostStatus> ApiClient::hostBlocking()
{
    return ApiJson::blocking<HostStatus>([&](QObject* ctx, Callback<HostStatus> cb) { host(ctx, std::move(cb)); });
}

ApiResult<Location> ApiClient::locationBlocking(const QString& location)
{
    return ApiJson::blocking<Location>(
        [&](QObject* ctx, Callback<Location> cb) { this->location(location, ctx, std::move(cb)); });
}

ApiResult<QList<RegionInfo>> ApiClient::regionsBlocking(const QString& region)
{
    return ApiJson::blocking<QList<RegionInfo>>(
        [&](QObject* ctx, Callback<QList<RegionInfo>> cb) { regions(region, ctx, std::move(cb)); });
}

ApiResult<CheckpointList> ApiClient::checkpointsBlocking(const QString& jobId)
{
    return ApiJson::blocking<CheckpointList>(
        [&](QObject* ctx, Callback<CheckpointList> cb) { checkpoints(jobId, ctx, std::move(cb)); });
}

ApiResult<CheckpointDetail> ApiClient::checkpointDetailBlocking(const QString& jobId, const QString& name)
{
    return ApiJson::blocking<CheckpointDetail>(
        [&](QObject* ctx, Callback<CheckpointDetail> cb) { checkpointDetail(jobId, name, ctx, std::move(cb)); });
}

ApiResult<TensorValues> ApiClient::tensorValuesBlocking(
    const QString& jobId, const QString& name, const QString& tensor, int values)
{
    return ApiJson::blocking<TensorValues>([&](QObject* ctx, Callback<TensorValues> cb) {
        tensorValues(jobId, name, tensor, values, ctx, std::move(cb));
    });
}

ApiResult<QList<SeriesInfo>> ApiClient::metricSeriesBlocking(const QString& jobId)
{
    return ApiJson::blocking<QList<SeriesInfo>>(
        [&](QObject* ctx, Callback<QList<SeriesInfo>> cb) { metricSeries(jobId, ctx, std::move(cb)); });
}

ApiResult<SeriesPage> ApiClient::metricPointsBlocking(const QString& jobId, const QString& series, qint64 after)
{
    ApiResult<SeriesPage> all;
    QString token;
    do {
        const ApiResult<SeriesPage> page = ApiJson::blocking<SeriesPage>([&](QObject* ctx, Callback<SeriesPage> cb) {
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

QByteArray ApiClient::userAgent()
{
    // The console's application name is "trainyard"; its requests say which client made them.
    QString name = QCoreApplication::applicationName();
    if (name == QLatin1String("trainyard"))
        name = QStringLiteral("trainyard-console");
    else if (name.isEmpty())
        name = QStringLiteral("trainyard-client");
    QString version = QCoreApplication::applicationVersion();
    if (version.isEmpty())
        version = QStringLiteral(TRAINYARD_VERSION);
    return (name + QLatin1Char('/') + version).toUtf8();
}

} // namespace Trainyard
