// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API client's files (apitypes.cpp, apiclient.cpp, apistream.cpp): the lenient readers of what the
// executor wrote, shared by the types' fromJson(), the client's answers and the event streams.

#include "apitypes.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QUrl>
#include <QUrlQuery>

#include <functional>

#include <optional>

namespace Trainyard {

Q_DECLARE_LOGGING_CATEGORY(lcApiClient)

namespace ApiJson {

/// A double the executor wrote (metric points, tensor statistics): lenient, 0 when it is not one.
double doubleField(const QJsonValue& v);
/// An int64 as the service writes it (a JSON string), or a plain JSON number; 0 when neither.
qint64 int64Field(const QJsonValue& v);
/// A JSON array of int64Field()s as ints.
QList<int> intList(const QJsonValue& v);
/// One GPU of `…/host` (index, uuid, name, acceleratorType, memoryBytes).
GpuInfo gpuFromJson(const QJsonObject& o);
/// A JSON array of gpuFromJson()s.
QList<GpuInfo> gpuList(const QJsonValue& v);
/// `body` as a JSON object; nullopt with an INTERNAL `*error` naming the parser's complaint.
std::optional<QJsonObject> parseObject(const QByteArray& body, ApiError* error);
/// A Job of an answer; one the client cannot decode is an INTERNAL `*error` with its first violation, not half-used.
Job decodeJob(const QJsonObject& json, ApiError* error);
/// Replicas of an answer or event. A replica in a state this client does not know (a newer executor's) is still
/// shown, as Unspecified, and the name is logged rather than dropped unseen.
QList<ReplicaInfo> replicaList(const QJsonArray& array);
/// The int64 at `key`; nullopt when the key is absent.
std::optional<qint64> optionalInt64(const QJsonObject& o, QLatin1String key);
/// A JSON array of strings.
QStringList stringList(const QJsonValue& v);

/// One segment of a request's path: `id` percent-encoded (a "/" in it stays part of the segment).
inline QString pathSegment(const QString& id)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(id));
}

/// A list call's query (the service's list methods: `filter`, `pageSize`, `pageToken`), fully encoded; each left out
/// when empty (a page size ≤ 0: the server's default).
inline QString listQuery(const QString& filter, int pageSize, const QString& pageToken)
{
    QUrlQuery q;
    if (!filter.isEmpty())
        q.addQueryItem(QStringLiteral("filter"), QString::fromLatin1(QUrl::toPercentEncoding(filter)));
    if (pageSize > 0)
        q.addQueryItem(QStringLiteral("pageSize"), QString::number(pageSize));
    if (!pageToken.isEmpty())
        q.addQueryItem(QStringLiteral("pageToken"), QString::fromLatin1(QUrl::toPercentEncoding(pageToken)));
    return q.query(QUrl::FullyEncoded);
}

/// A typed client callback as ApiClient::request()'s: transport and HTTP errors pass through, a 2xx body is parsed
/// as a JSON object and decoded by `decode(object, &error)` (which may set an INTERNAL error of its own).
template <typename T, typename Decode>
std::function<void(int, const QByteArray&, const ApiError&)> typed(
    std::function<void(const T&, const ApiError&)> done, Decode decode)
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

/// Runs the asynchronous `call(context, callback)` to its answer in a local event loop (the clients' `…Blocking`
/// calls, for trainyardctl; never in the console's GUI thread).
template <typename T, typename Call> ApiResult<T> blocking(Call call)
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

} // namespace ApiJson

} // namespace Trainyard
