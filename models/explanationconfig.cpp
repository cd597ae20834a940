// SPDX-License-Identifier: GPL-2.0-or-later
#include "explanationconfig.h"

#include "prediction.h"

#include <QDir>
#include <QFileInfo>

namespace Trainyard {

namespace {
struct MethodInfo {
    ExplanationConfig::Method method;
    const char* key; ///< the explanationConfig field
    const char* node; ///< prediction_server.py's method name
    const char* flag; ///< gcloud's --explanation-method value
    const char* count; ///< the count it takes: "numPaths", "numIntegralSteps", or none
};
constexpr MethodInfo Methods[] = {
    { ExplanationConfig::Method::SampledShapley, "sampledShapleyAttribution", "sampledShapley", "sampled-shapley",
        "numPaths" },
    { ExplanationConfig::Method::IntegratedGradients, "integratedGradientsAttribution", "integratedGradients",
        "integrated-gradients", "numIntegralSteps" },
    { ExplanationConfig::Method::Xrai, "xraiAttribution", "xrai", "xrai", "numIntegralSteps" },
    { ExplanationConfig::Method::TreeShap, "treeShapAttribution", "treeShap", "tree-shap", nullptr },
    { ExplanationConfig::Method::ExactShapley, "exactShapleyAttribution", "exactShapley", "exact-shapley", nullptr },
};

const MethodInfo& info(ExplanationConfig::Method method)
{
    for (const MethodInfo& m : Methods) {
        if (m.method == method)
            return m;
    }
    return Methods[0];
}
} // namespace

std::optional<ExplanationConfig> ExplanationConfig::fromJson(
    const QJsonValue& value, const QString& field, FieldViolations* violations)
{
    const qsizetype before = violations->size();
    if (!value.isObject()) {
        violations->append({ field,
            QStringLiteral("must be an object with one method, e.g. {\"sampledShapleyAttribution\": {\"numPaths\": "
                           "10}}") });
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    std::optional<ExplanationConfig> found;
    QStringList keys;
    for (const MethodInfo& m : Methods)
        keys << QLatin1String(m.key);
    for (auto it = o.begin(); it != o.end(); ++it) {
        const MethodInfo* m = nullptr;
        for (const MethodInfo& candidate : Methods) {
            if (it.key() == QLatin1String(candidate.key))
                m = &candidate;
        }
        const QString sub = field + QLatin1Char('.') + it.key();
        if (!m) {
            violations->append({ sub, QStringLiteral("unknown field (one of %1)").arg(keys.join(QStringLiteral(", "))) });
            continue;
        }
        if (found) {
            violations->append({ field, QStringLiteral("gives more than one method; a version has exactly one") });
            continue;
        }
        if (!it->isObject()) {
            violations->append({ sub, QStringLiteral("must be an object") });
            continue;
        }
        ExplanationConfig config;
        config.method = m->method;
        const QJsonObject params = it->toObject();
        for (auto p = params.begin(); p != params.end(); ++p) {
            if (!m->count || p.key() != QLatin1String(m->count)) {
                violations->append({ sub + QLatin1Char('.') + p.key(),
                    m->count ? QStringLiteral("unknown field (%1 takes %2)").arg(it.key(), QLatin1String(m->count))
                             : QStringLiteral("unknown field (%1 takes none)").arg(it.key()) });
                continue;
            }
            const bool paths = config.method == Method::SampledShapley;
            const int most = paths ? MaxPaths : MaxSteps;
            const double n = p->toDouble(-1);
            if (!p->isDouble() || n != double(qint64(n)) || n < 1 || n > most) {
                violations->append({ sub + QLatin1Char('.') + p.key(),
                    QStringLiteral("must be a whole number from 1 to %1").arg(most) });
                continue;
            }
            (paths ? config.numPaths : config.numIntegralSteps) = int(n);
        }
        if (config.method == Method::SampledShapley && config.numPaths == 0)
            config.numPaths = DefaultPaths;
        if ((config.method == Method::IntegratedGradients || config.method == Method::Xrai)
            && config.numIntegralSteps == 0)
            config.numIntegralSteps = DefaultSteps;
        found = config;
    }
    if (!found && violations->size() == before)
        violations->append({ field, QStringLiteral("names no method: give one of %1").arg(keys.join(QStringLiteral(", "))) });
    if (violations->size() != before)
        return std::nullopt;
    return found;
}

QJsonObject ExplanationConfig::toJson() const
{
    const MethodInfo& m = info(method);
    QJsonObject params;
    if (method == Method::SampledShapley)
        params.insert(QStringLiteral("numPaths"), numPaths > 0 ? numPaths : DefaultPaths);
    else if (m.count)
        params.insert(QStringLiteral("numIntegralSteps"), numIntegralSteps > 0 ? numIntegralSteps : DefaultSteps);
    return QJsonObject { { QLatin1String(m.key), params } };
}

QJsonObject ExplanationConfig::nodeJson() const
{
    QJsonObject o { { QStringLiteral("method"), QLatin1String(info(method).node) } };
    if (method == Method::SampledShapley)
        o.insert(QStringLiteral("numPaths"), numPaths > 0 ? numPaths : DefaultPaths);
    if (method == Method::IntegratedGradients || method == Method::Xrai)
        o.insert(QStringLiteral("numIntegralSteps"), numIntegralSteps > 0 ? numIntegralSteps : DefaultSteps);
    return o;
}

QString ExplanationConfig::methodKey(Method method)
{
    return QLatin1String(info(method).key);
}

std::optional<ExplanationConfig::Method> ExplanationConfig::methodFromFlag(const QString& flag)
{
    for (const MethodInfo& m : Methods) {
        if (flag == QLatin1String(m.flag))
            return m.method;
    }
    return std::nullopt;
}

QStringList ExplanationConfig::flagNames()
{
    QStringList names;
    for (const MethodInfo& m : Methods)
        names << QLatin1String(m.flag);
    return names;
}

FieldViolations ExplanationConfig::problemsFor(
    PredictionFramework framework, bool predictionClass, const QString& folder) const
{
    const QString field = QStringLiteral("version.explanationConfig.") + methodKey(method);
    FieldViolations out;
    const bool gradients = method == Method::IntegratedGradients || method == Method::Xrai;
    if (gradients && (predictionClass || framework != PredictionFramework::PyTorch))
        out.append({ field,
            QStringLiteral("%1 needs the model's gradients: a PYTORCH (TorchScript model.pt) version; use "
                           "sampledShapleyAttribution for this one")
                .arg(method == Method::Xrai ? QStringLiteral("XRAI") : QStringLiteral("integrated gradients")) });
    else if (method == Method::Xrai && QFileInfo::exists(QDir(folder).filePath(QStringLiteral("preprocessing.json"))))
        // A built-in algorithm's model takes table rows; integrated gradients walk its categories' embeddings
        // (serving.BuiltinPredictor.integrated_gradients), but XRAI's regions are an image's.
        out.append({ field,
            QStringLiteral("XRAI explains images, and a built-in algorithm's model takes table rows; use "
                           "integratedGradientsAttribution or sampledShapleyAttribution") });
    if (method == Method::TreeShap && (predictionClass || framework != PredictionFramework::XGBoost))
        out.append({ field,
            QStringLiteral("TreeSHAP reads an XGBoost booster's trees: an XGBOOST version; use "
                           "sampledShapleyAttribution for this one") });
    if (method != Method::TreeShap) {
        const QDir dir(folder);
        if (!QFileInfo::exists(dir.filePath(QStringLiteral("explanation_metadata.json")))
            && !QFileInfo::exists(dir.filePath(QStringLiteral("preprocessing.json"))))
            out.append({ field,
                QStringLiteral("needs each feature's baseline, and %1 has none: add explanation_metadata.json "
                               "(the service's format: {\"inputs\": {\"age\": {\"input_baselines\": [38.0], "
                               "\"index\": 0}, …}}, index being the feature's position in an instance)")
                    .arg(folder) });
    }
    return out;
}

} // namespace Trainyard
