// SPDX-License-Identifier: GPL-2.0-or-later
#include "explanation.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

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

namespace {

/// `value`'s numbers in row-major order and its shape ([28, 28], [1, 28, 28]); false when it is not a rectangular
/// array of numbers (at most 4 levels deep).
bool flatten(const QJsonValue& value, QList<double>* out, QList<int>* shape, int depth = 0)
{
    if (value.isDouble()) {
        out->append(value.toDouble());
        return depth == shape->size();
    }
    if (!value.isArray() || depth > 4)
        return false;
    const QJsonArray a = value.toArray();
    if (depth == shape->size())
        shape->append(int(a.size()));
    else if (shape->at(depth) != a.size())
        return false;
    for (const QJsonValue& v : a) {
        if (!flatten(v, out, shape, depth + 1))
            return false;
    }
    return true;
}

struct ImageShape {
    int height = 0;
    int width = 0;
    int channels = 1;
    bool channelsFirst = false;
};

/// The image layout of `shape` (LabelAttribution::image()'s list); height 0 when it is none.
ImageShape imageShape(const QList<int>& shape)
{
    ImageShape s;
    if (shape.size() == 1) {
        const int side = int(std::lround(std::sqrt(double(shape[0]))));
        if (side >= 8 && side * side == shape[0])
            s.height = s.width = side;
    } else if (shape.size() == 2) {
        s.height = shape[0];
        s.width = shape[1];
    } else if (shape.size() == 3 && (shape[0] == 1 || shape[0] == 3)) {
        s = { shape[1], shape[2], shape[0], true };
    } else if (shape.size() == 3 && (shape[2] == 1 || shape[2] == 3)) {
        s = { shape[0], shape[1], shape[2], false };
    }
    if (s.height < 2 || s.width < 2)
        s.height = s.width = 0;
    return s;
}

/// Per pixel: the mean over channels of `values` (of |values| with `absolute`).
QList<double> perPixel(const QList<double>& values, const ImageShape& s, bool absolute)
{
    QList<double> pixels(qsizetype(s.height) * s.width, 0.0);
    for (int y = 0; y < s.height; ++y) {
        for (int x = 0; x < s.width; ++x) {
            double sum = 0;
            for (int c = 0; c < s.channels; ++c) {
                const qsizetype i = s.channelsFirst ? (qsizetype(c) * s.height + y) * s.width + x
                                                    : (qsizetype(y) * s.width + x) * s.channels + c;
                const double v = values.value(i);
                sum += absolute ? std::abs(v) : v;
            }
            pixels[qsizetype(y) * s.width + x] = sum / s.channels;
        }
    }
    return pixels;
}

} // namespace

std::optional<ExplanationImage> LabelAttribution::image(const QJsonValue& instance) const
{
    if (attributions.size() != 1 || !attributions.first().second.isArray())
        return std::nullopt;
    QList<double> phi, pixels;
    QList<int> phiShape, pixelShape;
    if (!flatten(attributions.first().second, &phi, &phiShape) || !flatten(instance, &pixels, &pixelShape)
        || phiShape != pixelShape)
        return std::nullopt;
    const ImageShape s = imageShape(phiShape);
    if (s.height == 0)
        return std::nullopt;
    ExplanationImage image;
    image.height = s.height;
    image.width = s.width;
    image.grey = perPixel(pixels, s, false);
    image.heat = perPixel(phi, s, true);
    QList<double> regions;
    QList<int> regionsShape;
    if (method == QLatin1String("xrai") && flatten(xraiTopRegions, &regions, &regionsShape)
        && regions.size() == image.heat.size()) {
        const QList<double> rank = perPixel(phi, s, false);
        const double least = *std::min_element(rank.cbegin(), rank.cend());
        for (qsizetype i = 0; i < image.heat.size(); ++i)
            image.heat[i] = regions[i] > 0 ? rank[i] - least : 0.0;
    }
    return image;
}

QString LabelAttribution::inputValueText(const QString& name) const
{
    const auto it = inputValues.constFind(name);
    if (it == inputValues.constEnd())
        return QString();
    if (it->isDouble())
        return QLocale().toString(it->toDouble(), 'g', 4);
    if (it->isString())
        return it->toString();
    return QStringLiteral(""); // null: missing
}

QList<std::pair<QString, double>> LabelAttribution::byMagnitude() const
{
    QList<std::pair<QString, double>> items;
    for (const auto& [name, value] : attributions) {
        if (value.isDouble())
            items.append({ name, value.toDouble() });
    }
    std::stable_sort(items.begin(), items.end(),
        [](const auto& x, const auto& y) { return std::abs(x.second) > std::abs(y.second); });
    return items;
}

QStringList LabelAttribution::arrayFeatures() const
{
    QStringList names;
    for (const auto& [name, value] : attributions) {
        if (value.isArray())
            names << name;
    }
    return names;
}

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
