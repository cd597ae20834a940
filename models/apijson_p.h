// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API client's files (apitypes.cpp, apiclient.cpp, apistream.cpp): the lenient readers of what the
// executor wrote, shared by the types' fromJson(), the client's answers and the event streams.

#include "apitypes.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QLoggingCategory>

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

} // namespace ApiJson

} // namespace Trainyard
