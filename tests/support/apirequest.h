// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// One HTTP request to the executor's API and its whole answer, for tests that check the wire itself (status codes,
// error bodies, headers) rather than what ApiClient makes of it. Waits on the reply's finished signal (QSignalSpy),
// so the test's event loop keeps serving an in-process API meanwhile.

#include <QByteArray>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>

#include <utility>

namespace Trainyard::Test {

/// An answer of the API: the HTTP status (0 when none came within the timeout), the body, the body as a JSON object
/// (empty when it is not one) and the headers (names in lower case).
struct ApiResponse {
    int status = 0;
    QByteArray body;
    QJsonObject json;
    QHash<QByteArray, QByteArray> headers;

    /// The header `name` (any case), empty when absent.
    QByteArray header(const QByteArray& name) const { return headers.value(name.toLower()); }
    /// `error.status` of the service's error body (e.g. "PERMISSION_DENIED"), empty when the body is not an error.
    QString errorStatus() const
    {
        return json.value(QStringLiteral("error")).toObject().value(QStringLiteral("status")).toString();
    }
    /// `error.message` of the service's error body.
    QString errorMessage() const
    {
        return json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
    }
};

/// Sends `verb` to `url` with `headers` (raw, e.g. {"Authorization", "Bearer …"}) and `body`, labelled
/// application/json when not empty, and waits up to `timeoutMs` for the whole answer (a warning when none came).
inline ApiResponse sendApiRequest(QNetworkAccessManager& nam, const QByteArray& verb, const QUrl& url,
    const QByteArray& body = {}, const QList<std::pair<QByteArray, QByteArray>>& headers = {}, int timeoutMs = 30000)
{
    QNetworkRequest request(url);
    for (const auto& [name, value] : headers)
        request.setRawHeader(name, value);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply* reply
        = verb == "GET" && body.isEmpty() ? nam.get(request) : nam.sendCustomRequest(request, verb, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished() && !finished.wait(timeoutMs))
        qWarning() << "no answer to" << verb << url;
    ApiResponse response;
    response.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    response.body = reply->readAll();
    response.json = QJsonDocument::fromJson(response.body).object();
    for (const auto& pair : reply->rawHeaderPairs())
        response.headers.insert(pair.first.toLower(), pair.second);
    reply->deleteLater();
    return response;
}

/// `base` with `pathAndQuery` ("/v1/…?a=b"): the path set as given (decoded), the query after the first '?'.
inline QUrl apiUrl(const QUrl& base, const QString& pathAndQuery)
{
    QUrl url = base;
    const qsizetype q = pathAndQuery.indexOf(QLatin1Char('?'));
    url.setPath(q < 0 ? pathAndQuery : pathAndQuery.left(q));
    if (q >= 0)
        url.setQuery(pathAndQuery.mid(q + 1));
    return url;
}

/// Calls `get` (a GET of one resource: an operation, a job) until `done` holds for its answer or `timeoutMs` passed,
/// with the event loop running between calls; returns the last answer, which the caller checks.
template <typename Get, typename Done>
QJsonObject pollUntil(Get get, Done done, int timeoutMs)
{
    QJsonObject last;
    // The caller reads the outcome from the answer.
    (void)QTest::qWaitFor(
        [&] {
            last = get();
            return done(last);
        },
        timeoutMs);
    return last;
}

/// Whether a Job's `state` (its JSON) is final: SUCCEEDED, FAILED or CANCELLED.
inline bool jobStateIsFinal(const QJsonObject& job)
{
    const QString s = job.value(QStringLiteral("state")).toString();
    return s == QLatin1String("SUCCEEDED") || s == QLatin1String("FAILED") || s == QLatin1String("CANCELLED");
}

} // namespace Trainyard::Test
