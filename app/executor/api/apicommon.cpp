// SPDX-License-Identifier: GPL-2.0-or-later
#include "apicommon.h"

#include "jobstore.h"
#include "prediction.h"
#include <QSet>

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

#include <algorithm>

namespace Trainyard::Api {

Q_LOGGING_CATEGORY(lcApi, "trainyard.executor")

QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QString jobName(const QString& project, const QString& jobId)
{
    return QStringLiteral("projects/") + project + QStringLiteral("/jobs/") + jobId;
}

QString printable(const QString& value)
{
    constexpr qsizetype Shown = 100;
    QString out;
    for (const QChar c : value.left(Shown)) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    if (value.size() > Shown)
        out += QChar(0x2026);
    return out;
}

QString encodePageToken(const QString& kind, const QString& value)
{
    const QByteArray raw = (kind + QLatin1Char(':') + value).toUtf8();
    return QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool decodePageToken(const QString& token, const QString& kind, QString* value)
{
    const auto decoded = QByteArray::fromBase64Encoding(
        token.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    const QString text = QString::fromUtf8(*decoded);
    const QString prefix = kind + QLatin1Char(':');
    if (!text.startsWith(prefix))
        return false;
    *value = text.mid(prefix.size());
    return true;
}

bool parsePageSize(const QString& text, int defaultSize, int maxSize, int* size)
{
    if (text.isEmpty()) {
        *size = defaultSize;
        return true;
    }
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    if (!ok || value < 0)
        return false;
    *size = value == 0 ? defaultSize : int(std::min<qlonglong>(value, maxSize));
    return true;
}

QString queryValue(const QUrlQuery& query, const QString& key)
{
    return query.queryItemValue(key, QUrl::FullyDecoded);
}

bool isTrue(const QString& value)
{
    return value == QLatin1String("true") || value == QLatin1String("1");
}

HttpApi::Reply jsonReply(const QJsonObject& object, int status)
{
    HttpApi::Reply reply;
    reply.status = status;
    reply.body = compact(object);
    return reply;
}

HttpApi::Reply errorReply(RpcCode code, const QString& message, const FieldViolations& violations)
{
    return errorReply(Rpc::httpStatus(code), Rpc::name(code), message, violations);
}

HttpApi::Reply errorReply(
    int httpStatus, const QString& status, const QString& message, const FieldViolations& violations)
{
    return jsonReply(HttpApi::errorJson(httpStatus, status, message, violations), httpStatus);
}

HttpApi::Reply modelNotFound(const QString& project, const QString& model)
{
    return errorReply(RpcCode::NotFound,
        QStringLiteral("Field: name Error: The model resource \"%1\" was not found.")
            .arg(printable(PredictionJson::modelResourceName(project, model))));
}

FieldViolations unknownFields(const QJsonObject& body, std::initializer_list<QLatin1String> known)
{
    FieldViolations violations;
    for (auto it = body.begin(); it != body.end(); ++it) {
        if (std::find(known.begin(), known.end(), it.key()) == known.end())
            violations.append({ it.key(), QStringLiteral("unknown field") });
    }
    return violations;
}

std::optional<UpdateMask> parseUpdateMask(const ApiRequest& request, const QString& updatable, HttpApi::Reply* error)
{
    const QString text = queryValue(request.query(), QStringLiteral("updateMask"));
    if (text.isEmpty()) {
        *error = invalidArgument(
            QStringLiteral("updateMask"), QStringLiteral("is required: the fields to change, of %1").arg(updatable));
        return std::nullopt;
    }
    UpdateMask mask;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString path = part.trimmed();
        if (path == QLatin1String("etag"))
            mask.checksEtag = true;
        else if (!path.isEmpty())
            mask.paths << path;
    }
    if (mask.paths.isEmpty()) {
        *error = invalidArgument(QStringLiteral("updateMask"),
            QStringLiteral("names no field to change (etag only asks for the etag check), of %1").arg(updatable));
        return std::nullopt;
    }
    return mask;
}

std::optional<HttpApi::Reply> etagProblem(
    const QString& what, const QString& current, const QString& given, bool required)
{
    if (given.isEmpty()) {
        if (!required)
            return std::nullopt;
        return invalidArgument(QStringLiteral("etag"),
            QStringLiteral("updateMask names etag, so the body must carry the %1's etag as it was read").arg(what));
    }
    if (given == current)
        return std::nullopt;
    return errorReply(RpcCode::Aborted,
        QStringLiteral("The %1's etag is %2, not %3: the %1 was changed since it was read. Read it again and retry.")
            .arg(what, current, given));
}

std::optional<PatchRequest> parsePatch(
    const ApiRequest& request, const QString& id, const QString& updatable, HttpApi::Reply* error)
{
    std::optional<QJsonObject> body = parseBody(request.body(), error);
    if (!body)
        return std::nullopt;
    const std::optional<UpdateMask> mask = parseUpdateMask(request, updatable, error);
    if (!mask)
        return std::nullopt;
    PatchRequest patch;
    patch.body = std::move(*body);
    patch.body.insert(QStringLiteral("name"), id);
    patch.mask = mask->paths;
    patch.checksEtag = mask->checksEtag;
    return patch;
}

HttpApi::Reply versionNotFound(const QString& project, const QString& model, const QString& version)
{
    return errorReply(RpcCode::NotFound,
        QStringLiteral("Field: name Error: The version resource \"%1/versions/%2\" was not found.")
            .arg(printable(PredictionJson::modelResourceName(project, model)), printable(version)));
}

HttpApi::Reply jobNotFound(const QString& project, const QString& jobId)
{
    return errorReply(RpcCode::NotFound,
        QStringLiteral("Field: name Error: The specified job does not exist: ") + jobName(project, jobId)
            + QLatin1Char('.'));
}

HttpApi::Reply invalidArgument(const QString& field, const QString& description)
{
    return errorReply(RpcCode::InvalidArgument,
        QStringLiteral("Field: ") + field + QStringLiteral(" Error: ") + description,
        { FieldViolation { field, description } });
}

std::optional<QJsonObject> parseBody(const QByteArray& body, HttpApi::Reply* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = errorReply(RpcCode::InvalidArgument,
            QStringLiteral("Invalid JSON payload received. %1 at offset %2.")
                .arg(body.trimmed().isEmpty() ? QStringLiteral("Empty body") : parseError.errorString())
                .arg(parseError.offset));
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = errorReply(
            RpcCode::InvalidArgument, QStringLiteral("Invalid JSON payload received. Expected a JSON object."));
        return std::nullopt;
    }
    return doc.object();
}

HttpApi::Reply decodeErrorReply(const FieldViolations& violations)
{
    QString message = QStringLiteral("Invalid JSON payload received. ") + violations.first().field
        + QStringLiteral(": ") + violations.first().description;
    if (violations.size() > 1)
        message += QStringLiteral(" (and %1 more)").arg(violations.size() - 1);
    return errorReply(RpcCode::InvalidArgument, message, violations);
}

HttpApi::Reply storeFailure(const QString& what, const QString& storeError)
{
    if (JobStore::isDiskFull(storeError))
        return errorReply(RpcCode::ResourceExhausted,
            QStringLiteral(
                "The executor's data disk is full, so %1 cannot be stored (%2). Free space where the executor "
                "keeps its data and try again.")
                .arg(what, storeError));
    return errorReply(RpcCode::Unavailable,
        QStringLiteral("The executor cannot store %1 (%2); nothing was changed. Try again later.")
            .arg(what, storeError));
}

QString duplicateTopLevelKey(const QByteArray& json)
{
    QSet<QByteArray> seen;
    int depth = 0;
    bool expectKey = false; // at depth 1, the next string is a key
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json.at(i);
        if (c == '"') {
            // A string: to its closing quote, escapes skipped.
            qsizetype end = i + 1;
            while (end < json.size() && json.at(end) != '"')
                end += json.at(end) == '\\' ? 2 : 1;
            if (depth == 1 && expectKey) {
                const QByteArray key = json.mid(i + 1, end - i - 1);
                if (seen.contains(key))
                    return QString::fromUtf8(key);
                seen.insert(key);
                expectKey = false;
            }
            i = end;
        } else if (c == '{' || c == '[') {
            ++depth;
            if (depth == 1)
                expectKey = c == '{';
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (c == ',' && depth == 1) {
            expectKey = true;
        }
    }
    return {};
}

int jsonDepth(const QJsonValue& value, int limit)
{
    int deepest = 0;
    QList<std::pair<QJsonValue, int>> stack { { value, 0 } };
    while (!stack.isEmpty()) {
        const auto [item, level] = stack.takeLast();
        if (!item.isArray() && !item.isObject())
            continue;
        const int here = level + 1;
        deepest = qMax(deepest, here);
        if (deepest > limit)
            return deepest;
        if (item.isArray()) {
            for (const QJsonValue& child : item.toArray())
                stack.append({ child, here });
        } else {
            const QJsonObject object = item.toObject();
            for (auto it = object.begin(); it != object.end(); ++it)
                stack.append({ it.value(), here });
        }
    }
    return deepest;
}

bool localJobDir(const Job& job, const PathPolicy& policy, QString* dir, HttpApi::Reply* error)
{
    *dir = job.trainingInput.jobDir;
    if (dir->contains(QLatin1String("://"))) {
        *error = errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("The job dir %1 is not a local folder; files are served from local job dirs only.")
                .arg(*dir));
        return false;
    }
    QString why;
    if (!dir->isEmpty() && !policy.allowsExistingJobDir(*dir, &why)) {
        *error = errorReply(
            RpcCode::PermissionDenied, QStringLiteral("The files of this job's dir are not served: %1").arg(why));
        return false;
    }
    return true;
}

} // namespace Trainyard::Api
