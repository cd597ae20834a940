// SPDX-License-Identifier: GPL-2.0-or-later
#include "explanation.h"

namespace Trainyard {

namespace {
double sumOf(const QJsonValue& v)
{
    if (v.isDouble())
        return v.toDouble();
    double sum = 0;
    for (const QJsonValue& e : v.toArray())
        sum += sumOf(e);
    return sum;
}
} // namespace

double LabelAttribution::attributionSum() const
{
    double sum = 0;
    for (const auto& [name, value] : attributions)
        sum += sumOf(value);
    return sum;
}

LabelAttribution LabelAttribution::fromJson(const QJsonObject& json)
{
    LabelAttribution a;
    a.labelIndex = json.value(QStringLiteral("label_index")).toInt();
    a.exampleScore = json.value(QStringLiteral("example_score")).toDouble();
    a.baselineScore = json.value(QStringLiteral("baseline_score")).toDouble();
    a.approxError = json.value(QStringLiteral("approx_error")).toDouble();
    a.method = json.value(QStringLiteral("method")).toString();
    a.numPaths = json.value(QStringLiteral("numPaths")).toInt();
    a.numIntegralSteps = json.value(QStringLiteral("numIntegralSteps")).toInt();
    a.warning = json.value(QStringLiteral("warning")).toString();
    a.inputValues = json.value(QStringLiteral("input_values")).toObject();
    a.xraiTopRegions = json.value(QStringLiteral("xrai_top_regions"));
    const QJsonObject attributions = json.value(QStringLiteral("attributions")).toObject();
    for (auto it = attributions.begin(); it != attributions.end(); ++it)
        a.attributions.append({ it.key(), *it });
    return a;
}

Explanation Explanation::fromJson(const QJsonObject& json)
{
    Explanation e;
    for (const QJsonValue& v : json.value(QStringLiteral("attributions_by_label")).toArray())
        e.byLabel.append(LabelAttribution::fromJson(v.toObject()));
    return e;
}

ExplainResponse ExplainResponse::fromReply(int httpStatus, const QJsonObject& body, const QString& transportError)
{
    ExplainResponse r;
    r.reply = PredictResponse::fromReply(httpStatus, body, transportError, QLatin1String("explanations"));
    if (r.reply.ok()) {
        for (const QJsonValue& v : r.reply.predictions)
            r.explanations.append(Explanation::fromJson(v.toObject()));
    }
    return r;
}

} // namespace Trainyard
