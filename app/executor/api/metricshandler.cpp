// SPDX-License-Identifier: GPL-2.0-or-later
// The metrics of a job: its series, pages of one series' points, and the follow stream.
#include "metricshandler.h"

#include "apicommon.h"
#include "apicontext.h"
#include "ssestream.h"

#include "apitypes.h"
#include "jobstore.h"
#include "metricsstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRegularExpression>
#include <QUrlQuery>

#include <cmath>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

namespace {
/// A double as JSON: shortest round-trip digits; NaN and infinities as proto3 JSON strings.
QByteArray metricNumber(double v)
{
    if (std::isnan(v))
        return QByteArrayLiteral("\"NaN\"");
    if (std::isinf(v))
        return v > 0 ? QByteArrayLiteral("\"Infinity\"") : QByteArrayLiteral("\"-Infinity\"");
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

/// `{"step":"N","wallTime":W,"value":V}` for each point, comma-separated (built by hand: a series can hold
/// millions of points).
void appendPointsJson(QByteArray& out, const QList<MetricPoint>& points)
{
    for (qsizetype i = 0; i < points.size(); ++i) {
        const MetricPoint& p = points.at(i);
        if (i > 0)
            out += ',';
        out += "{\"step\":\"" + QByteArray::number(p.step) + "\",\"wallTime\":" + metricNumber(p.wallTime)
            + ",\"value\":" + metricNumber(p.value) + '}';
    }
}

/// `s` as the API sends it. In a tuning job (`tuning`), an event-file series of a run whose first folder is a trial's
/// (`<job-dir>/<trial>/…`, where the service's samples write each trial's summaries) carries that trial's ID, as its
/// hypertune and resource series do, so that a client can tell the trials' curves apart and filter them.
QJsonObject seriesToJson(const MetricSeriesInfo& s, bool tuning)
{
    SeriesInfo wire;
    wire.name = s.name;
    wire.kind = s.key.kind;
    wire.run = s.key.run;
    wire.tag = s.key.tag;
    wire.taskName = s.key.taskName;
    wire.pointCount = s.pointCount;
    wire.lastSeq = s.lastSeq;
    QString trial = s.key.trialId;
    if (trial.isEmpty() && tuning && s.key.kind == QLatin1String("scalar")) {
        const QString first = s.key.run.section(QLatin1Char('/'), 0, 0);
        static const QRegularExpression number(QStringLiteral("^[1-9][0-9]{0,8}$"));
        if (number.match(first).hasMatch())
            trial = first;
    }
    wire.trialId = trial;
    return wire.toJson();
}

/// One `points` event: `{"series":NAME,"points":[…]}`.
QByteArray pointsEvent(const QString& series, const QList<MetricPoint>& points)
{
    const QByteArray quoted = QJsonDocument(QJsonArray { series }).toJson(QJsonDocument::Compact); // ["…"]
    QByteArray out = "event: points\ndata: {\"series\":" + quoted.mid(1, quoted.size() - 2) + ",\"points\":[";
    appendPointsJson(out, points);
    out += "]}\n\n";
    return out;
}
} // namespace

MetricsHandler::MetricsHandler(ApiContext* context, JobStore* store, MetricsStore* metrics, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_store(store)
    , m_metrics(metrics)
{
}

HttpApi::Reply MetricsHandler::metrics(const ApiRequest& request, const QString& project, const QString& jobId,
    const HttpChannelPtr& channel, bool* streaming)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    const bool tuning = job->trainingInput.hyperparameters.has_value();
    const JobKey key { project, jobId };
    const QUrlQuery query = request.query();
    const QString seriesName = queryValue(query, QStringLiteral("series"));
    qint64 after = 0;
    const QString afterText = queryValue(query, QStringLiteral("after"));
    if (!afterText.isEmpty()) {
        bool ok = false;
        after = afterText.toLongLong(&ok);
        if (!ok || after < 0)
            return invalidArgument(QStringLiteral("after"),
                QStringLiteral("must be a non-negative integer (a point's seq, e.g. the lastSeq of a series)"));
    }
    const QString pageToken = queryValue(query, QStringLiteral("pageToken"));
    if (!pageToken.isEmpty()) {
        QString value;
        bool ok = false;
        if (decodePageToken(pageToken, QStringLiteral("metrics"), &value))
            after = value.toLongLong(&ok);
        if (!ok || after < 0)
            return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of these points"));
    }
    std::optional<MetricSeriesInfo> one;
    if (!seriesName.isEmpty()) {
        one = m_metrics->findSeries(key, seriesName);
        // While following, a series may appear later; otherwise it must exist.
        if (!one && !isTrue(queryValue(query, QStringLiteral("follow"))))
            return errorReply(RpcCode::NotFound,
                QStringLiteral("Job %1 has no metric series \"%2\".").arg(jobName(project, jobId), seriesName));
    }

    if (!isTrue(queryValue(query, QStringLiteral("follow")))) {
        if (!one) {
            QJsonArray list;
            const QList<MetricSeriesInfo> all = m_metrics->series(key);
            for (const MetricSeriesInfo& s : all)
                list.append(seriesToJson(s, tuning));
            return jsonReply(QJsonObject { { QStringLiteral("series"), list } });
        }
        int pageSize = 0;
        if (!parsePageSize(queryValue(query, QStringLiteral("pageSize")), HttpApi::DefaultMetricsPageSize,
                HttpApi::MaxMetricsPageSize, &pageSize))
            return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));
        const QList<MetricPoint> points = m_metrics->points(one->id, after, pageSize);
        const qint64 lastSeq = points.isEmpty() ? after : points.last().seq;
        QByteArray body = "{\"series\":" + compact(seriesToJson(*one, tuning)) + ",\"points\":[";
        appendPointsJson(body, points);
        body += "],\"lastSeq\":\"" + QByteArray::number(lastSeq) + '"';
        if (points.size() == pageSize && lastSeq < one->lastSeq)
            body += ",\"nextPageToken\":\""
                + encodePageToken(QStringLiteral("metrics"), QString::number(lastSeq)).toLatin1() + '"';
        body += '}';
        Reply reply;
        reply.body = body;
        return reply;
    }

    *streaming = true;
    SseStream* stream = m_context->openStream(channel, "metrics of " + jobId.toUtf8());
    QPointer<SseStream> guard(stream);
    QPointer<JobStore> jobStore(m_store);
    auto end = [guard, jobStore, key] {
        if (!guard || guard->isFinished())
            return;
        const std::optional<Job> now = jobStore ? jobStore->job(key) : std::nullopt;
        guard->writeEvent(
            "end", compact(QJsonObject { { QStringLiteral("state"), now ? jobStateName(now->state) : QString() } }));
        guard->finish(true);
    };
    // Subscribed before the backlog is read: both happen on this thread between two commits, so the backlog
    // ends exactly where the first update starts.
    const int subscription = m_metrics->subscribe(key, [guard, seriesName, end, tuning](const MetricsUpdate& update) {
        if (!guard || guard->isFinished())
            return;
        QByteArray out;
        for (const MetricSeriesInfo& s : update.newSeries) {
            if (seriesName.isEmpty() || s.name == seriesName)
                out += "event: series\ndata: " + compact(seriesToJson(s, tuning)) + "\n\n";
        }
        for (const auto& [name, fromStep] : update.purges) {
            if (seriesName.isEmpty() || name == seriesName)
                out += "event: purge\ndata: "
                    + compact(QJsonObject {
                        { QStringLiteral("series"), name }, { QStringLiteral("fromStep"), QString::number(fromStep) } })
                    + "\n\n";
        }
        for (const auto& [name, points] : update.appended) {
            if (!points.isEmpty() && (seriesName.isEmpty() || name == seriesName))
                out += pointsEvent(name, points);
        }
        guard->writeChunk(out);
        if (update.final)
            end();
    });
    QPointer<MetricsStore> metricsStore(m_metrics);
    stream->cleanup = [metricsStore, subscription] {
        if (metricsStore)
            metricsStore->unsubscribe(subscription);
    };

    QList<MetricSeriesInfo> backlogSeries;
    if (one)
        backlogSeries.append(*one);
    else if (seriesName.isEmpty())
        backlogSeries = m_metrics->series(key);
    constexpr int ChunkPoints = 5000;
    for (const MetricSeriesInfo& s : std::as_const(backlogSeries)) {
        stream->writeChunk("event: series\ndata: " + compact(seriesToJson(s, tuning)) + "\n\n");
        qint64 cursor = after;
        while (cursor < s.lastSeq) {
            const QList<MetricPoint> points = m_metrics->points(s.id, cursor, ChunkPoints);
            if (points.isEmpty())
                break;
            stream->writeChunk(pointsEvent(s.name, points));
            cursor = points.last().seq;
        }
    }
    if (isFinal(job->state) && !m_metrics->isCollecting(key))
        end();
    return {};
}

} // namespace Trainyard
