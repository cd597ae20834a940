// SPDX-License-Identifier: GPL-2.0-or-later
#include "predictionresults.h"

#include <QJsonDocument>

namespace Trainyard {

namespace {

std::optional<double> optionalNumber(const QJsonObject& o, const char* key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

} // namespace

ModelPage ModelPage::fromJson(const QJsonObject& json, const QString& project)
{
    ModelPage page;
    page.nextPageToken = json.value(QStringLiteral("nextPageToken")).toString();
    FieldViolations ignored; // an answer of the executor's is read leniently
    for (const QJsonValue& m : json.value(QStringLiteral("models")).toArray())
        page.models.append(ModelResource::fromJson(m.toObject(), project, &ignored));
    return page;
}

ModelChange ModelChange::fromJson(const QJsonObject& json, const QString& project)
{
    ModelChange change;
    FieldViolations ignored; // the executor's own records, read leniently
    change.model = ModelResource::fromJson(json.value(QStringLiteral("model")).toObject(), project, &ignored);
    for (const QJsonValue& v : json.value(QStringLiteral("versions")).toArray())
        change.versions.append(VersionResource::fromJson(v.toObject(), project, change.model.name, &ignored, true));
    return change;
}

VersionRates VersionRates::fromJson(const QJsonObject& json)
{
    VersionRates rates;
    const QJsonObject all = json.value(QStringLiteral("rates")).toObject();
    for (auto it = all.begin(); it != all.end(); ++it)
        rates.perSecond.insert(it.key(), it.value().toDouble());
    return rates;
}

VersionPage VersionPage::fromJson(const QJsonObject& json, const QString& project, const QString& model)
{
    VersionPage page;
    page.nextPageToken = json.value(QStringLiteral("nextPageToken")).toString();
    FieldViolations ignored;
    for (const QJsonValue& v : json.value(QStringLiteral("versions")).toArray())
        page.versions.append(VersionResource::fromJson(v.toObject(), project, model, &ignored, true));
    return page;
}

OperationPage OperationPage::fromJson(const QJsonObject& json)
{
    OperationPage page;
    page.nextPageToken = json.value(QStringLiteral("nextPageToken")).toString();
    for (const QJsonValue& o : json.value(QStringLiteral("operations")).toArray())
        page.operations.append(OperationResource::fromJson(o.toObject()));
    return page;
}

PredictResponse PredictResponse::fromReply(
    int httpStatus, const QJsonObject& body, const QString& transportError, QLatin1String answerKey)
{
    PredictResponse r;
    if (httpStatus == 0 || (!transportError.isEmpty() && !body.contains(QLatin1String("error")))) {
        r.kind = Kind::TransportError;
        r.message = transportError;
        return r;
    }
    if (httpStatus == 200 && body.contains(answerKey)) {
        r.kind = Kind::Predictions;
        r.predictions = body.value(answerKey).toArray();
        return r;
    }
    const QJsonObject error = body.value(QStringLiteral("error")).toObject();
    r.status = error.value(QStringLiteral("status")).toString();
    r.message = error.value(QStringLiteral("message")).toString();
    if (r.message.isEmpty())
        r.message = transportError;
    r.kind = httpStatus == 503 ? Kind::Unavailable : httpStatus == 504 ? Kind::DeadlineExceeded : Kind::RequestError;
    // An instance's refusal names it: a violation of "instances[N]".
    for (const QJsonValue& d : error.value(QStringLiteral("details")).toArray()) {
        for (const QJsonValue& v : d.toObject().value(QStringLiteral("fieldViolations")).toArray()) {
            const QString field = v.toObject().value(QStringLiteral("field")).toString();
            if (r.kind == Kind::RequestError && field.startsWith(QLatin1String("instances[")) && field.endsWith(QLatin1Char(']'))) {
                bool ok = false;
                const int index = field.mid(10, field.size() - 11).toInt(&ok);
                if (ok) {
                    r.kind = Kind::InstanceError;
                    r.instance = index;
                    r.instanceError = v.toObject().value(QStringLiteral("description")).toString();
                }
            }
        }
    }
    return r;
}

PredictionValue PredictionValue::read(const QJsonValue& prediction)
{
    PredictionValue v;
    v.json = QString::fromUtf8(QJsonDocument(QJsonArray { prediction }).toJson(QJsonDocument::Compact)).chopped(1).mid(1);
    v.printed = prediction.isString() ? prediction.toString() : v.json;
    const QJsonObject o = prediction.toObject();
    for (const QJsonValue& c : o.value(QStringLiteral("classes")).toArray())
        v.classes << c.toString();
    for (const QJsonValue& s : o.value(QStringLiteral("scores")).toArray())
        v.scores << s.toDouble();
    if (prediction.isObject() && o.contains(QLatin1String("predicted_label"))) {
        v.kind = Kind::Label;
        v.label = o.value(QStringLiteral("predicted_label")).toString();
    } else if (prediction.isObject() && o.contains(QLatin1String("predicted_value"))) {
        v.kind = Kind::Number;
        v.number = o.value(QStringLiteral("predicted_value")).toDouble();
    } else if (prediction.isString()) {
        v.kind = Kind::Label;
        v.label = prediction.toString();
    } else if (prediction.isDouble()) {
        v.kind = Kind::Number;
        v.number = prediction.toDouble();
    } else if (prediction.isArray() && !prediction.toArray().isEmpty()) {
        const QJsonArray numbers = prediction.toArray();
        const bool allNumbers
            = std::all_of(numbers.begin(), numbers.end(), [](const QJsonValue& n) { return n.isDouble(); });
        if (allNumbers) {
            v.kind = Kind::Scores;
            for (const QJsonValue& n : numbers)
                v.scores << n.toDouble();
            v.best = 0;
            for (int i = 1; i < v.scores.size(); ++i)
                v.best = v.scores.at(i) > v.scores.at(v.best) ? i : v.best;
        }
    }
    return v;
}

std::optional<QJsonArray> parseInstances(const QByteArray& data, InstanceFormat format, QString* error)
{
    QJsonArray instances;
    int number = 0;
    for (QByteArray line : data.split('\n')) {
        ++number;
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        if (format == InstanceFormat::TextLines) {
            instances.append(QString::fromUtf8(line));
            continue;
        }
        // One JSON value of any kind (a number, a list, an object): read as the one element of a list.
        QJsonParseError parse;
        const QJsonDocument doc = QJsonDocument::fromJson("[" + line + "]", &parse);
        if (parse.error == QJsonParseError::NoError && doc.array().size() == 1) {
            instances.append(doc.array().first());
        } else if (format == InstanceFormat::JsonOrText) {
            instances.append(QString::fromUtf8(line.trimmed()));
        } else {
            *error = QStringLiteral("line %1: not one JSON value: %2")
                         .arg(number)
                         .arg(parse.error == QJsonParseError::NoError ? QStringLiteral("more than one value")
                                                                      : parse.errorString());
            return std::nullopt;
        }
    }
    return instances;
}

std::optional<QJsonArray> parseRequestInstances(const QByteArray& data, QString* signatureName, QString* error)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parse);
    if (!doc.isObject()) {
        *error = QStringLiteral("not a JSON object: %1").arg(parse.errorString());
        return std::nullopt;
    }
    const QJsonObject request = doc.object();
    if (!request.value(QStringLiteral("instances")).isArray()) {
        *error = QStringLiteral("it has no \"instances\" list");
        return std::nullopt;
    }
    if (signatureName)
        *signatureName = request.value(QStringLiteral("signature_name")).toString();
    return request.value(QStringLiteral("instances")).toArray();
}

VersionMetrics VersionMetrics::fromJson(const QJsonObject& json)
{
    VersionMetrics m;
    m.intervalSeconds = json.value(QStringLiteral("intervalSeconds")).toInt(10);
    for (const QJsonValue& value : json.value(QStringLiteral("points")).toArray()) {
        const QJsonObject p = value.toObject();
        m.points.append({ p.value(QStringLiteral("time")).toString(), p.value(QStringLiteral("requestsPerSecond")).toDouble(),
            p.value(QStringLiteral("errorsPerSecond")).toDouble(), optionalNumber(p, "latencyP50Ms"),
            optionalNumber(p, "latencyP90Ms"), optionalNumber(p, "latencyP99Ms") });
    }
    return m;
}

InputSchema InputSchema::fromJson(const QJsonObject& json)
{
    InputSchema s;
    s.task = json.value(QStringLiteral("task")).toString();
    for (const QJsonValue& l : json.value(QStringLiteral("labels")).toArray())
        s.labels << l.toString();
    s.numColumns = json.value(QStringLiteral("numColumns")).toInt();
    for (const QJsonValue& value : json.value(QStringLiteral("columns")).toArray()) {
        const QJsonObject c = value.toObject();
        Column column;
        column.column = c.value(QStringLiteral("column")).toInt();
        column.type = c.value(QStringLiteral("type")).toString();
        column.mean = optionalNumber(c, "mean");
        // An integer column's categories (identity treatment) are numbers: their text, not "".
        for (const QJsonValue& v : c.value(QStringLiteral("vocabulary")).toArray())
            column.vocabulary << (v.isString() ? v.toString() : QString::number(v.toDouble(), 'g', 17));
        column.treatment = c.value(QStringLiteral("treatment")).toString();
        s.columns.append(column);
    }
    return s;
}

VersionLogPage VersionLogPage::fromJson(const QJsonObject& json)
{
    VersionLogPage page;
    for (const QJsonValue& value : json.value(QStringLiteral("entries")).toArray()) {
        const QJsonObject e = value.toObject();
        page.entries.append({ e.value(QStringLiteral("timestamp")).toString(), e.value(QStringLiteral("text")).toString() });
    }
    return page;
}

} // namespace Trainyard
