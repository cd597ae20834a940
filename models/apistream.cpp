// SPDX-License-Identifier: GPL-2.0-or-later
#include "apistream.h"

#include "apijson_p.h"

#include <QNetworkReply>

namespace Trainyard {

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
        const Job job = ApiJson::decodeJob(object, &error);
        if (error.isNull())
            jobBatch->append(job);
        else
            qCWarning(lcApiClient) << "ignoring an undecodable job event:" << error.message;
    } else if (event == QLatin1String("synced")) {
        Q_EMIT jobsSynced(object.value(QLatin1String("cursor")).toString().toLatin1());
        Q_EMIT synced();
    } else if (event == QLatin1String("model")) {
        Q_EMIT modelChanged(ModelChange::fromJson(object, m_project));
    } else if (event == QLatin1String("modelDeleted")) {
        if (const auto name = PredictionJson::parseResourceName(object.value(QLatin1String("name")).toString()))
            Q_EMIT modelDeleted(name->model);
    } else if (event == QLatin1String("rates")) {
        Q_EMIT versionRates(VersionRates::fromJson(object));
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
        Q_EMIT metricsPurged(object.value(QLatin1String("series")).toString(),
            ApiJson::int64Field(object.value(QLatin1String("fromStep"))));
    } else if (event == QLatin1String("replicas")) {
        Q_EMIT replicasChanged(m_jobId, ApiJson::replicaList(object.value(QLatin1String("replicas")).toArray()));
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
            error.status = Rpc::name(RpcCode::Unavailable);
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
            error.status = Rpc::name(RpcCode::Unavailable);
            error.message = QStringLiteral("The executor closed the stream before the job ended");
            Q_EMIT failed(error);
        }
    }
    m_reply->deleteLater();
    finish();
}

} // namespace Trainyard
