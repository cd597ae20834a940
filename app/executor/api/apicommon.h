// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API's files (not installed, not included outside app/executor/api/): the buffered reply,
// the helpers that build error replies in Google's shape, body and query parsing, page tokens. Each
// resource's handler (the *handler.cpp files), the authorizer and the audit recorder include it.

#include "httpapi.h"
#include "pathpolicy.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QLoggingCategory>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

class QUrlQuery;

namespace Trainyard {

/// A buffered JSON answer: the HTTP status, the body (compact JSON, or bytes spliced by hand in the same
/// shape) and headers beyond the ones every answer gets (`Content-Type`, `Cache-Control`, see HttpApi::send).
/// A handler that streams or answers later returns a default one, which is not sent.
struct HttpApi::Reply {
    int status = 200;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
};

namespace Api {

/// The API's logging category: the executor's subsystem category "trainyard.executor".
Q_DECLARE_LOGGING_CATEGORY(lcApi)

/// After a job became final, late log lines of exiting replicas (and the scheduler's closing
/// `service` lines) may still be on their way through the event loop; streams that end with the job
/// (logs, events) give them this long (ms) before their `end` event.
constexpr int EndSettleMs = 250;

/// `object` as compact JSON (one line, as SSE `data:` needs).
QByteArray compact(const QJsonObject& object);

/// "projects/{project}/jobs/{jobId}", the resource name in messages.
QString jobName(const QString& project, const QString& jobId);

/// `value` as a message may quote it: control characters as \xNN, and cut to 100 characters with "…" (a hostile
/// path segment can be kilobytes of anything).
QString printable(const QString& value);

/// An opaque page token: base64url (no padding) of "KIND:VALUE", so a token of one list is refused by another.
QString encodePageToken(const QString& kind, const QString& value);
/// Decodes a token made by encodePageToken for `kind`; false when it is not one.
bool decodePageToken(const QString& token, const QString& kind, QString* value);

/// Parses `pageSize`: empty = default; above the maximum = the maximum (as the service); else a
/// non-negative integer (0 = default). False when `text` is not such a number.
bool parsePageSize(const QString& text, int defaultSize, int maxSize, int* size);

/// A query parameter, fully percent-decoded; empty when absent.
QString queryValue(const QUrlQuery& query, const QString& key);
/// A boolean query parameter: "true" or "1".
bool isTrue(const QString& value);

/// `object` as the reply's body with HTTP `status`.
HttpApi::Reply jsonReply(const QJsonObject& object, int status = 200);
/// An error in Google's shape (HttpApi::errorJson): `code`'s name as `status` ("INVALID_ARGUMENT") and its HTTP
/// status (code.proto's mapping: 400, 404, …), `violations` a google.rpc.BadRequest detail when not empty.
HttpApi::Reply errorReply(RpcCode code, const QString& message, const FieldViolations& violations = {});
/// The same with an HTTP status that is not `status`'s own mapping: HTTP's own refusals (405 Method Not Allowed
/// as UNIMPLEMENTED, 413 as INVALID_ARGUMENT), which google.rpc has no code for.
HttpApi::Reply errorReply(
    int httpStatus, const QString& status, const QString& message, const FieldViolations& violations = {});
/// 404 NOT_FOUND for a job that is not in `project` (the service's wording).
HttpApi::Reply jobNotFound(const QString& project, const QString& jobId);
/// The service's NOT_FOUND for a model: "Field: name Error: The model resource \"projects/p/models/m\" was not found."
HttpApi::Reply modelNotFound(const QString& project, const QString& model);
/// NOT_FOUND for the version `version` of `project`'s model `model`, in the service's words.
HttpApi::Reply versionNotFound(const QString& project, const QString& model, const QString& version);
/// The answer to a call whose change a store refused (`storeError`, SQLite's or the file system's message): a full
/// disk is google.rpc's RESOURCE_EXHAUSTED ("perhaps the entire file system is out of space", HTTP 429) with what to
/// do, anything else UNAVAILABLE (503): the call can be made again once the store can be written. Never a 500: nothing
/// is wrong with the request or the executor's code. `what` says what could not be stored ("the job").
HttpApi::Reply storeFailure(const QString& what, const QString& storeError);
/// 400 INVALID_ARGUMENT naming one field (a query parameter or a body field) and what is wrong with it.
HttpApi::Reply invalidArgument(const QString& field, const QString& description);
/// Parses a request body as a JSON object, or explains why it is not one in `error` (the service's wording).
std::optional<QJsonObject> parseBody(const QByteArray& body, HttpApi::Reply* error);
/// A violation "unknown field" for each key of `body` that is not in `known` (a request message's fields: the service
/// refuses the others, as proto3 JSON parsing does).
FieldViolations unknownFields(const QJsonObject& body, std::initializer_list<QLatin1String> known);

/// The `updateMask` of a PATCH (jobs, models, versions): its field paths, each trimmed. `etag` among them is not a
/// field to change but asks for the etag check (the service's API description gives `updateMask=labels,etag` for an
/// etag-checked jobs.patch; models and versions take it the same way here): it is taken out and `checksEtag` set.
/// nullopt with *error (400 naming updateMask; `updatable` ends the message: "of description and labels") when the
/// mask is missing or names no field to change.
struct UpdateMask {
    QStringList paths;
    bool checksEtag = false;
};
std::optional<UpdateMask> parseUpdateMask(const ApiRequest& request, const QString& updatable, HttpApi::Reply* error);
/// The etag rule of an update (AIP-154): a body's `etag` that is not the resource's `current` one answers 409 ABORTED
/// (`what`: "job", "model", "version"); a mask that names etag (UpdateMask::checksEtag) needs one in the body (400).
/// nullopt when the update may go on.
std::optional<HttpApi::Reply> etagProblem(
    const QString& what, const QString& current, const QString& given, bool required);

/// What a PATCH of a model or a version asks (the service's `…patch` with `updateMask`): its body with the resource's
/// ID put in as `name` (update bodies leave it out, and the decoders read it), and its update mask (parseUpdateMask()).
/// nullopt with *error when the body is not a JSON object or the mask is refused.
struct PatchRequest {
    QJsonObject body;
    QStringList mask;
    bool checksEtag = false;
};
std::optional<PatchRequest> parsePatch(
    const ApiRequest& request, const QString& id, const QString& updatable, HttpApi::Reply* error);
/// The first key of `json`'s top-level object that appears twice ("instances"), or an empty string: QJsonDocument
/// keeps one value per key and drops the others silently. A scan of the text (strings and nesting followed, nothing
/// decoded); a body that is not an object answers empty.
QString duplicateTopLevelKey(const QByteArray& json);
/// How deeply `value` nests arrays and objects (a number is 0, [1] is 1), counted without recursion and up to
/// `limit` + 1 (a deeper value is not walked further).
int jsonDepth(const QJsonValue& value, int limit);
/// 400 INVALID_ARGUMENT for a body that JobJson could not decode: the first violation in the message, all
/// of them in the details. `violations` must not be empty.
HttpApi::Reply decodeErrorReply(const FieldViolations& violations);

/// The job dir whose files the executor serves (checkpoints, a built-in algorithm's model), or why there is none
/// to serve (`error` set, false). A job stored before job dirs were checked on create may name any folder ("/",
/// "$HOME", "/etc"): nothing under it is served unless it follows today's rule (PathPolicy), so a job record
/// cannot open the host's files to API clients. An empty job dir is allowed (`dir` empty, true).
bool localJobDir(const Job& job, const PathPolicy& policy, QString* dir, HttpApi::Reply* error);

} // namespace Api
} // namespace Trainyard
