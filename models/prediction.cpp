// SPDX-License-Identifier: GPL-2.0-or-later
// Models, versions and operations on the wire (prediction.h). Rules and names: the service's REST reference
// (projects.models, projects.models.versions, projects.operations) and its "Creating a model version" page.
#include "prediction.h"
#include "pathname.h"

#include "machinecatalog.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

namespace Trainyard {

namespace {

const QString modelsPrefix = QStringLiteral("/models/");
const QString versionsInfix = QStringLiteral("/versions/");

QJsonObject labelsJson(const QMap<QString, QString>& labels)
{
    QJsonObject o;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QMap<QString, QString> readLabels(
    const QJsonValue& value, const QString& field, const QString& prefix, FieldViolations* violations)
{
    QMap<QString, QString> labels;
    if (!value.isObject()) {
        violations->append({ field, QStringLiteral("must be an object of string values") });
        return labels;
    }
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it->isString())
            violations->append({ field + QLatin1Char('.') + it.key(), QStringLiteral("must be a string") });
        else
            labels.insert(it.key(), it->toString());
    }
    for (FieldViolation v : labelViolations(labels)) {
        v.field = prefix + v.field;
        violations->append(v);
    }
    return labels;
}

/// The ID at the end of `value` when it is the full name under `collection` ("projects/p/models/m" → "m"), else
/// `value` itself.
QString lastSegment(const QString& value, const QString& fullPrefix)
{
    return value.startsWith(fullPrefix) ? value.mid(fullPrefix.size()) : value;
}

/// A non-negative int32 field (proto3 JSON: a number or a decimal string).
std::optional<int> readCount(const QJsonValue& value, const QString& field, FieldViolations* violations)
{
    bool ok = false;
    qint64 n = -1;
    if (value.isDouble()) {
        const double d = value.toDouble();
        ok = d == double(qint64(d));
        n = qint64(d);
    } else if (value.isString()) {
        n = value.toString().toLongLong(&ok);
    }
    if (!ok || n < 0 || n > 1000) {
        violations->append({ field, QStringLiteral("must be a whole number from 0 to 1000") });
        return std::nullopt;
    }
    return int(n);
}

/// A string field of at most `maxBytes` UTF-8 bytes (null reads as empty); a violation of `field` otherwise.
QString readText(const QJsonValue& value, const QString& field, qsizetype maxBytes, FieldViolations* violations)
{
    if (!value.isString() && !value.isNull()) {
        violations->append({ field, QStringLiteral("must be a string") });
        return {};
    }
    const QString text = value.toString();
    if (const qsizetype bytes = text.toUtf8().size(); bytes > maxBytes) {
        violations->append(
            { field, QStringLiteral("may be at most %1 bytes long; this one has %2").arg(maxBytes).arg(bytes) });
        return {};
    }
    return text;
}

/// A bool field: true or false, never a string that looks like one.
bool readBool(const QJsonValue& value, const QString& field, FieldViolations* violations)
{
    if (!value.isBool() && !value.isNull())
        violations->append({ field, QStringLiteral("must be true or false") });
    return value.toBool();
}

/// Whether a create body or an update's JSON is within PredictionLimits::MaxRecordBytes; a violation of `field`
/// otherwise.
void checkRecordSize(const QJsonObject& json, const QString& field, FieldViolations* violations)
{
    if (const qsizetype bytes = QJsonDocument(json).toJson(QJsonDocument::Compact).size();
        bytes > PredictionLimits::MaxRecordBytes)
        violations->append({ field,
            QStringLiteral("may be at most %1 bytes as JSON; this one has %2")
                .arg(PredictionLimits::MaxRecordBytes)
                .arg(bytes) });
}

QString etagOf(const QJsonObject& fields)
{
    const QByteArray digest
        = QCryptographicHash::hash(QJsonDocument(fields).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256);
    return QString::fromLatin1(digest.left(8).toBase64());
}

} // namespace

namespace PredictionJson {

QString frameworkName(PredictionFramework framework)
{
    switch (framework) {
    case PredictionFramework::TensorFlow:
        return QStringLiteral("TENSORFLOW");
    case PredictionFramework::ScikitLearn:
        return QStringLiteral("SCIKIT_LEARN");
    case PredictionFramework::XGBoost:
        return QStringLiteral("XGBOOST");
    case PredictionFramework::PyTorch:
        return QStringLiteral("PYTORCH");
    case PredictionFramework::Unspecified:
        break;
    }
    return QStringLiteral("FRAMEWORK_UNSPECIFIED");
}

std::optional<PredictionFramework> frameworkFromName(const QString& name)
{
    for (PredictionFramework f : { PredictionFramework::Unspecified, PredictionFramework::TensorFlow,
             PredictionFramework::ScikitLearn, PredictionFramework::XGBoost, PredictionFramework::PyTorch }) {
        if (frameworkName(f) == name)
            return f;
    }
    return std::nullopt;
}

QString versionStateName(VersionState state)
{
    switch (state) {
    case VersionState::Ready:
        return QStringLiteral("READY");
    case VersionState::Creating:
        return QStringLiteral("CREATING");
    case VersionState::Failed:
        return QStringLiteral("FAILED");
    case VersionState::Deleting:
        return QStringLiteral("DELETING");
    case VersionState::Updating:
        return QStringLiteral("UPDATING");
    case VersionState::Unknown:
        break;
    }
    return QStringLiteral("UNKNOWN");
}

VersionState versionStateFromName(const QString& name)
{
    for (VersionState s : { VersionState::Ready, VersionState::Creating, VersionState::Failed, VersionState::Deleting,
             VersionState::Updating }) {
        if (versionStateName(s) == name)
            return s;
    }
    return VersionState::Unknown;
}

QStringList idProblems(const QString& id)
{
    QStringList problems;
    if (id.isEmpty())
        return { QStringLiteral("It is empty.") };
    if (id.size() > 128)
        problems << QStringLiteral("It has %1 characters; at most 128 are allowed.").arg(id.size());
    const QChar first = id.front();
    if (!((first >= QLatin1Char('a') && first <= QLatin1Char('z'))
            || (first >= QLatin1Char('A') && first <= QLatin1Char('Z'))))
        problems << QStringLiteral("It must start with a letter.");
    for (QChar c : id) {
        const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
            || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
            || c == QLatin1Char('_');
        if (!ok) {
            problems << QStringLiteral("It may contain only letters, numbers and underscores (not '%1').").arg(c);
            break;
        }
    }
    return problems;
}

QString modelResourceName(const QString& project, const QString& model)
{
    return QStringLiteral("projects/") + project + modelsPrefix + model;
}

QString versionResourceName(const QString& project, const QString& model, const QString& version)
{
    return modelResourceName(project, model) + versionsInfix + version;
}

std::optional<ResourceName> parseResourceName(const QString& name)
{
    const QStringList parts = name.split(QLatin1Char('/'));
    if ((parts.size() != 4 && parts.size() != 6) || parts.at(0) != QLatin1String("projects") || parts.at(1).isEmpty()
        || parts.at(2) != QLatin1String("models") || !idProblems(parts.at(3)).isEmpty())
        return std::nullopt;
    ResourceName r { parts.at(1), parts.at(3), QString() };
    if (parts.size() == 6) {
        if (parts.at(4) != QLatin1String("versions") || !idProblems(parts.at(5)).isEmpty())
            return std::nullopt;
        r.version = parts.at(5);
    }
    return r;
}

FrameworkGuess detectFramework(const QString& folder)
{
    const QDir dir(folder);
    auto has = [&dir](const char* name) { return QFileInfo(dir.filePath(QLatin1String(name))).isFile(); };
    FrameworkGuess g;
    if (folder.isEmpty() || !dir.exists()) {
        g.explanation = QCoreApplication::translate("Trainyard::FrameworkGuess", "The folder does not exist.");
        return g;
    }
    const bool builtIn = has("preprocessing.json");
    if (has("model.bst")) {
        g.framework = PredictionFramework::XGBoost;
        g.file = QStringLiteral("model.bst");
        g.builtInAlgorithm = builtIn;
        g.explanation = builtIn
            ? QCoreApplication::translate("Trainyard::FrameworkGuess",
                "model.bst and preprocessing.json: a built-in algorithm's XGBoost model. It takes "
                "raw rows of the training table and answers its labels.")
            : QCoreApplication::translate("Trainyard::FrameworkGuess", "model.bst: an XGBoost booster.");
    } else if (has("model.pt")) {
        g.framework = PredictionFramework::PyTorch;
        g.file = QStringLiteral("model.pt");
        g.builtInAlgorithm = builtIn;
        g.explanation = builtIn ? QCoreApplication::translate("Trainyard::FrameworkGuess",
                            "model.pt and preprocessing.json: a built-in algorithm's PyTorch model. It takes "
                            "raw rows of the training table and answers its labels.")
                                : QCoreApplication::translate("Trainyard::FrameworkGuess",
                                    "model.pt: a PyTorch model, served if it is TorchScript (torch.jit.script or "
                                    "torch.jit.trace).");
    } else if (has("model.joblib") || has("model.pkl")) {
        g.framework = PredictionFramework::ScikitLearn;
        g.file = has("model.joblib") ? QStringLiteral("model.joblib") : QStringLiteral("model.pkl");
        g.explanation = QCoreApplication::translate("Trainyard::FrameworkGuess",
            "%1: a scikit-learn model (an XGBoost model saved through its scikit-learn API takes "
            "XGBOOST).")
                            .arg(g.file);
    } else if (has("saved_model.pb")) {
        g.file = QStringLiteral("saved_model.pb");
        g.explanation = QCoreApplication::translate("Trainyard::FrameworkGuess",
            "saved_model.pb: a TensorFlow SavedModel, which cannot be served here (this system has no "
            "TensorFlow runtime).");
    } else {
        g.explanation = QCoreApplication::translate("Trainyard::FrameworkGuess",
            "No model file: expected model.joblib or model.pkl (scikit-learn), model.bst (XGBoost) or "
            "model.pt (TorchScript).");
    }
    return g;
}

} // namespace PredictionJson

using namespace PredictionJson;

QString ModelResource::resourceName() const
{
    return modelResourceName(project, name);
}

QJsonObject ModelResource::toJson() const
{
    QJsonObject o { { QStringLiteral("name"), resourceName() } };
    if (!description.isEmpty())
        o.insert(QStringLiteral("description"), description);
    if (!defaultVersion.isEmpty())
        o.insert(QStringLiteral("defaultVersion"),
            QJsonObject { { QStringLiteral("name"), versionResourceName(project, name, defaultVersion) } });
    if (!regions.isEmpty())
        o.insert(QStringLiteral("regions"), QJsonArray::fromStringList(regions));
    if (onlinePredictionLogging)
        o.insert(QStringLiteral("onlinePredictionLogging"), true);
    if (onlinePredictionConsoleLogging)
        o.insert(QStringLiteral("onlinePredictionConsoleLogging"), true);
    if (!labels.isEmpty())
        o.insert(QStringLiteral("labels"), labelsJson(labels));
    if (!etag.isEmpty())
        o.insert(QStringLiteral("etag"), etag);
    return o;
}

ModelResource ModelResource::fromJson(const QJsonObject& json, const QString& project, FieldViolations* violations)
{
    ModelResource m;
    m.project = project;
    const QString fullPrefix = modelResourceName(project, QString());
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QString& key = it.key();
        const QString field = QStringLiteral("model.") + key;
        if (key == QLatin1String("name")) {
            m.name = lastSegment(it->toString(), fullPrefix);
        } else if (key == QLatin1String("description")) {
            m.description = readText(*it, field, PredictionLimits::MaxDescriptionBytes, violations);
        } else if (key == QLatin1String("defaultVersion")) {
            const QString full = it->toObject().value(QStringLiteral("name")).toString();
            m.defaultVersion = full.section(QLatin1Char('/'), -1);
        } else if (key == QLatin1String("regions")) {
            if (!it->isArray()) {
                violations->append({ field, QStringLiteral("must be a list of region names") });
                continue;
            }
            for (const QJsonValue& r : it->toArray())
                m.regions << r.toString();
            if (m.regions.size() > 1)
                violations->append({ field, QStringLiteral("at most one region may be given (the service's rule)") });
        } else if (key == QLatin1String("onlinePredictionLogging")) {
            m.onlinePredictionLogging = readBool(*it, field, violations);
        } else if (key == QLatin1String("onlinePredictionConsoleLogging")) {
            m.onlinePredictionConsoleLogging = readBool(*it, field, violations);
        } else if (key == QLatin1String("labels")) {
            m.labels = readLabels(*it, field, QStringLiteral("model."), violations);
        } else if (key == QLatin1String("etag")) {
            m.etag = it->toString();
        } else {
            violations->append({ field, QStringLiteral("unknown field") });
        }
    }
    checkRecordSize(json, QStringLiteral("model"), violations);
    if (!json.contains(QLatin1String("name")))
        violations->append({ QStringLiteral("model.name"), QStringLiteral("is required") });
    else if (const QStringList problems = idProblems(m.name); !problems.isEmpty())
        violations->append({ QStringLiteral("model.name"),
            QStringLiteral("\"%1\" is not a valid model name: %2").arg(m.name, problems.join(QLatin1Char(' '))) });
    return m;
}

QString ModelResource::computeEtag() const
{
    ModelResource copy = *this;
    copy.etag.clear();
    return etagOf(copy.toJson());
}

QString VersionResource::resourceName() const
{
    return versionResourceName(project, model, name);
}

int VersionResource::nodes() const
{
    if (manualScalingNodes > 0)
        return manualScalingNodes;
    if (autoScalingMinNodes && *autoScalingMinNodes > 0)
        return *autoScalingMinNodes;
    return 1;
}

QJsonObject VersionResource::toJson() const
{
    QJsonObject o { { QStringLiteral("name"), resourceName() } };
    auto put = [&o](const char* key, const QString& value) {
        if (!value.isEmpty())
            o.insert(QLatin1String(key), value);
    };
    put("description", description);
    put("deploymentUri", deploymentUri);
    put("runtimeVersion", runtimeVersion);
    put("pythonVersion", pythonVersion);
    if (framework != PredictionFramework::Unspecified)
        o.insert(QStringLiteral("framework"), frameworkName(framework));
    put("frameworkDetectedFrom", frameworkDetectedFrom);
    put("machineType", machineType);
    if (manualScalingNodes > 0)
        o.insert(QStringLiteral("manualScaling"), QJsonObject { { QStringLiteral("nodes"), manualScalingNodes } });
    if (autoScalingMinNodes || autoScalingMaxNodes) {
        QJsonObject a;
        if (autoScalingMinNodes)
            a.insert(QStringLiteral("minNodes"), *autoScalingMinNodes);
        if (autoScalingMaxNodes)
            a.insert(QStringLiteral("maxNodes"), *autoScalingMaxNodes);
        o.insert(QStringLiteral("autoScaling"), a);
    }
    put("predictionClass", predictionClass);
    if (predictionTimeoutSeconds > 0)
        o.insert(QStringLiteral("predictionTimeout"), QStringLiteral("%1s").arg(predictionTimeoutSeconds));
    if (!packageUris.isEmpty())
        o.insert(QStringLiteral("packageUris"), QJsonArray::fromStringList(packageUris));
    if (explanationConfig)
        o.insert(QStringLiteral("explanationConfig"), explanationConfig->toJson());
    if (!labels.isEmpty())
        o.insert(QStringLiteral("labels"), labelsJson(labels));
    if (state != VersionState::Unknown)
        o.insert(QStringLiteral("state"), versionStateName(state));
    put("errorMessage", errorMessage);
    put("createTime", createTime);
    put("lastUseTime", lastUseTime);
    if (isDefault)
        o.insert(QStringLiteral("isDefault"), true);
    put("etag", etag);
    return o;
}

VersionResource VersionResource::fromJson(
    const QJsonObject& json, const QString& project, const QString& model, FieldViolations* violations, bool stored)
{
    VersionResource v;
    v.project = project;
    v.model = model;
    const QString fullPrefix = versionResourceName(project, model, QString());
    auto string = [&](const QJsonValue& value, const QString& field) {
        if (!value.isString() && !value.isNull())
            violations->append({ field, QStringLiteral("must be a string") });
        return value.toString();
    };
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QString& key = it.key();
        const QString field = QStringLiteral("version.") + key;
        const auto text = [&](qsizetype maxBytes) { return readText(*it, field, maxBytes, violations); };
        if (key == QLatin1String("name")) {
            v.name = lastSegment(text(PredictionLimits::MaxNameFieldBytes), fullPrefix);
        } else if (key == QLatin1String("description")) {
            v.description = text(PredictionLimits::MaxDescriptionBytes);
        } else if (key == QLatin1String("deploymentUri")) {
            v.deploymentUri = text(PathName::PathMax);
        } else if (key == QLatin1String("runtimeVersion")) {
            v.runtimeVersion = text(PredictionLimits::MaxNameFieldBytes);
        } else if (key == QLatin1String("pythonVersion")) {
            v.pythonVersion = text(PredictionLimits::MaxNameFieldBytes);
        } else if (key == QLatin1String("framework")) {
            const QString name = string(*it, field);
            if (const auto f = frameworkFromName(name))
                v.framework = *f;
            else
                violations->append({ field,
                    QStringLiteral("\"%1\" is not a framework; expected TENSORFLOW, SCIKIT_LEARN, XGBOOST or PYTORCH")
                        .arg(name) });
        } else if (key == QLatin1String("machineType")) {
            v.machineType = text(PredictionLimits::MaxNameFieldBytes);
        } else if (key == QLatin1String("predictionTimeout")) {
            // Ours (the service documents no deadline): a google.protobuf.Duration of whole seconds.
            const std::optional<double> seconds = ProtoDuration(it->toString()).seconds();
            if (!it->isString() || !seconds || *seconds < 1 || *seconds > PredictionLimits::MaxTimeoutSeconds)
                violations->append({ field,
                    QStringLiteral("must be a duration from \"1s\" to \"%1s\", such as \"30s\"")
                        .arg(PredictionLimits::MaxTimeoutSeconds) });
            else
                v.predictionTimeoutSeconds = int(*seconds);
        } else if (key == QLatin1String("manualScaling")) {
            const QJsonObject m = it->toObject();
            if (!it->isObject() || (m.size() != 1 && !m.isEmpty())
                || (!m.isEmpty() && !m.contains(QLatin1String("nodes"))))
                violations->append({ field, QStringLiteral("must be {\"nodes\": N}") });
            else if (m.contains(QLatin1String("nodes")))
                v.manualScalingNodes
                    = readCount(m.value(QStringLiteral("nodes")), field + QStringLiteral(".nodes"), violations)
                          .value_or(0);
        } else if (key == QLatin1String("autoScaling")) {
            const QJsonObject a = it->toObject();
            for (auto at = a.begin(); at != a.end(); ++at) {
                const QString afield = field + QLatin1Char('.') + at.key();
                if (at.key() == QLatin1String("minNodes"))
                    v.autoScalingMinNodes = readCount(*at, afield, violations);
                else if (at.key() == QLatin1String("maxNodes"))
                    v.autoScalingMaxNodes = readCount(*at, afield, violations);
                else
                    violations->append({ afield, QStringLiteral("unknown field (minNodes and maxNodes are read)") });
            }
        } else if (key == QLatin1String("predictionClass")) {
            v.predictionClass = text(PredictionLimits::MaxNameFieldBytes);
        } else if (key == QLatin1String("packageUris")) {
            if (!it->isArray())
                violations->append({ field, QStringLiteral("must be a list of package paths") });
            const QJsonArray uris = it->toArray();
            for (qsizetype i = 0; i < uris.size(); ++i) {
                if (!uris.at(i).isString())
                    violations->append({ field + QStringLiteral("[%1]").arg(i), QStringLiteral("must be a string") });
                else
                    v.packageUris << uris.at(i).toString();
            }
        } else if (key == QLatin1String("explanationConfig")) {
            if (!it->isNull())
                v.explanationConfig = ExplanationConfig::fromJson(*it, field, violations);
        } else if (key == QLatin1String("labels")) {
            v.labels = readLabels(*it, field, QStringLiteral("version."), violations);
        } else if (key == QLatin1String("state")) {
            if (stored)
                v.state = versionStateFromName(it->toString());
        } else if (key == QLatin1String("errorMessage")) {
            if (stored)
                v.errorMessage = it->toString();
        } else if (key == QLatin1String("createTime")) {
            if (stored)
                v.createTime = it->toString();
        } else if (key == QLatin1String("frameworkDetectedFrom")) {
            if (stored)
                v.frameworkDetectedFrom = it->toString();
        } else if (key == QLatin1String("lastUseTime")) {
            if (stored)
                v.lastUseTime = it->toString();
        } else if (key == QLatin1String("isDefault")) {
            if (stored)
                v.isDefault = it->toBool();
        } else if (key == QLatin1String("etag")) {
            v.etag = it->toString();
        } else if (key == QLatin1String("serviceAccount") || key == QLatin1String("requestLoggingConfig")
            || key == QLatin1String("acceleratorConfig") || key == QLatin1String("container") || key == QLatin1String("routes")) {
            violations->append({ field, QStringLiteral("is not supported by this executor") });
        } else {
            violations->append({ field, QStringLiteral("unknown field") });
        }
    }
    if (stored)
        return v;
    checkRecordSize(json, QStringLiteral("version"), violations);
    if (!json.contains(QLatin1String("name")))
        violations->append({ QStringLiteral("version.name"), QStringLiteral("is required") });
    else if (const QStringList problems = idProblems(v.name); !problems.isEmpty())
        violations->append({ QStringLiteral("version.name"),
            QStringLiteral("\"%1\" is not a valid version name: %2").arg(v.name, problems.join(QLatin1Char(' '))) });
    if (v.deploymentUri.isEmpty())
        violations->append({ QStringLiteral("version.deploymentUri"),
            QStringLiteral("is required: the folder that holds the model's files") });
    if (v.framework == PredictionFramework::TensorFlow)
        violations->append({ QStringLiteral("version.framework"),
            QStringLiteral("TENSORFLOW models cannot be served here: this system has no TensorFlow runtime (Debian "
                           "packages none). Export the model for SCIKIT_LEARN, XGBOOST or PYTORCH (TorchScript), or "
                           "serve it through a predictionClass") });
    if (v.framework != PredictionFramework::Unspecified && !v.predictionClass.isEmpty())
        violations->append({ QStringLiteral("version.predictionClass"),
            QStringLiteral("a custom prediction routine takes no framework: leave framework out") });
    if (v.manualScalingNodes > 0 && (v.autoScalingMinNodes || v.autoScalingMaxNodes))
        violations->append({ QStringLiteral("version.autoScaling"),
            QStringLiteral("give either manualScaling or autoScaling, not both") });
    if (v.autoScalingMinNodes && v.autoScalingMaxNodes && *v.autoScalingMaxNodes < *v.autoScalingMinNodes)
        violations->append({ QStringLiteral("version.autoScaling.maxNodes"),
            QStringLiteral("must be at least minNodes (%1)").arg(*v.autoScalingMinNodes) });
    return v;
}

bool VersionResource::resolveFramework(const QString& folder, FieldViolation* error)
{
    if (framework != PredictionFramework::Unspecified || !predictionClass.isEmpty())
        return true;
    const FrameworkGuess guess = PredictionJson::detectFramework(folder);
    if (guess.framework == PredictionFramework::Unspecified || guess.framework == PredictionFramework::TensorFlow) {
        *error = { QStringLiteral("version.framework"),
            QStringLiteral("was not given, and none this system serves can be detected from the files of %1 (%2): "
                           "give SCIKIT_LEARN, XGBOOST or PYTORCH, or a predictionClass")
                .arg(folder, guess.explanation) };
        return false;
    }
    framework = guess.framework;
    frameworkDetectedFrom = guess.file;
    return true;
}

QString VersionResource::computeEtag() const
{
    VersionResource copy = *this;
    copy.etag.clear();
    copy.lastUseTime.clear(); // a prediction is not an update
    return etagOf(copy.toJson());
}

QString OperationResource::resourceName() const
{
    return QStringLiteral("projects/") + project + QStringLiteral("/operations/") + id;
}

QJsonObject OperationResource::toJson() const
{
    QJsonObject metadata { { QStringLiteral("@type"),
                               QStringLiteral("type.googleapis.com/google.cloud.ml.v1.OperationMetadata") },
        { QStringLiteral("operationType"), operationType }, { QStringLiteral("modelName"), modelName } };
    if (!version.isEmpty())
        metadata.insert(QStringLiteral("version"), version);
    if (!createTime.isEmpty())
        metadata.insert(QStringLiteral("createTime"), createTime);
    if (!startTime.isEmpty())
        metadata.insert(QStringLiteral("startTime"), startTime);
    if (!endTime.isEmpty())
        metadata.insert(QStringLiteral("endTime"), endTime);
    if (cancelled)
        metadata.insert(QStringLiteral("isCancellationRequested"), true);
    QJsonObject o { { QStringLiteral("name"), resourceName() }, { QStringLiteral("metadata"), metadata } };
    if (done) {
        o.insert(QStringLiteral("done"), true);
        // google.longrunning.Operation's `result` is a oneof: a done operation has exactly one of them.
        if (errorCode) {
            o.insert(QStringLiteral("error"),
                QJsonObject {
                    { QStringLiteral("code"), int(*errorCode) }, { QStringLiteral("message"), errorMessage } });
        } else {
            QJsonObject any = response;
            if (!any.contains(QLatin1String("@type")))
                any.insert(QStringLiteral("@type"),
                    any.isEmpty() ? QStringLiteral("type.googleapis.com/google.protobuf.Empty")
                                  : responseType(operationType));
            o.insert(QStringLiteral("response"), any);
        }
    }
    return o;
}

QString OperationResource::responseType(const QString& operationType)
{
    if (operationType == QLatin1String("CREATE_VERSION") || operationType == QLatin1String("UPDATE_VERSION"))
        return QStringLiteral("type.googleapis.com/google.cloud.ml.v1.Version");
    if (operationType == QLatin1String("UPDATE_MODEL"))
        return QStringLiteral("type.googleapis.com/google.cloud.ml.v1.Model");
    return QStringLiteral("type.googleapis.com/google.protobuf.Empty");
}

OperationResource OperationResource::fromJson(const QJsonObject& json)
{
    OperationResource op;
    const QString name = json.value(QStringLiteral("name")).toString();
    op.project = name.section(QLatin1Char('/'), 1, 1);
    op.id = name.section(QLatin1Char('/'), 3);
    const QJsonObject metadata = json.value(QStringLiteral("metadata")).toObject();
    op.operationType = metadata.value(QStringLiteral("operationType")).toString();
    op.modelName = metadata.value(QStringLiteral("modelName")).toString();
    op.version = metadata.value(QStringLiteral("version")).toObject();
    op.createTime = metadata.value(QStringLiteral("createTime")).toString();
    op.startTime = metadata.value(QStringLiteral("startTime")).toString();
    op.endTime = metadata.value(QStringLiteral("endTime")).toString();
    op.cancelled = metadata.value(QStringLiteral("isCancellationRequested")).toBool();
    op.done = json.value(QStringLiteral("done")).toBool();
    if (json.contains(QLatin1String("error"))) {
        const QJsonObject error = json.value(QStringLiteral("error")).toObject();
        op.errorCode = RpcCode(error.value(QStringLiteral("code")).toInt());
        op.errorMessage = error.value(QStringLiteral("message")).toString();
    }
    op.response = json.value(QStringLiteral("response")).toObject();
    return op;
}

std::optional<PredictionMachineType> predictionMachineType(const QString& name)
{
    if (name.isEmpty() || name == QLatin1String("mls1-c1-m2"))
        return PredictionMachineType { QStringLiteral("mls1-c1-m2"), 1, Bytes::fromGb(2) };
    if (name == QLatin1String("mls1-c4-m2"))
        return PredictionMachineType { name, 4, Bytes::fromGb(2) };
    static const QRegularExpression n1(QStringLiteral("^n1-(standard|highmem|highcpu)-(2|4|8|16|32)$"));
    if (n1.match(name).hasMatch()) {
        if (const MachineType* type = MachineCatalog::builtin().machineType(name))
            return PredictionMachineType { name, type->vcpus, type->memory };
    }
    return std::nullopt;
}

QStringList predictionMachineTypeNames()
{
    QStringList names { QStringLiteral("mls1-c1-m2"), QStringLiteral("mls1-c4-m2") };
    for (const char* kind : { "standard", "highmem", "highcpu" }) {
        for (const int cpus : { 2, 4, 8, 16, 32 }) {
            const QString name = QStringLiteral("n1-%1-%2").arg(QLatin1String(kind)).arg(cpus);
            if (predictionMachineType(name))
                names << name;
        }
    }
    return names;
}

FieldViolations versionScalingViolations(const VersionResource& version, const HostInventory& host)
{
    const std::optional<PredictionMachineType> type = predictionMachineType(version.machineType);
    if (!type)
        return { { QStringLiteral("version.machineType"),
            QStringLiteral("\"%1\" is not a machine type of online prediction (%2)")
                .arg(version.machineType, predictionMachineTypeNames().join(QStringLiteral(", "))) } };
    int nodes = version.manualScalingNodes;
    QString field = QStringLiteral("version.manualScaling.nodes");
    if (nodes <= 0) {
        nodes = qMax(version.autoScalingMinNodes.value_or(0), version.autoScalingMaxNodes.value_or(0));
        field = version.autoScalingMaxNodes.value_or(0) >= version.autoScalingMinNodes.value_or(0)
            ? QStringLiteral("version.autoScaling.maxNodes")
            : QStringLiteral("version.autoScaling.minNodes");
    }
    nodes = qMax(1, nodes);
    const HostCapacity capacity = MachineCatalog::builtin().capacity(host);
    const double vcpus = double(nodes) * type->vcpus;
    const double gb = double(nodes) * type->memory.gb();
    if (nodes <= capacity.replicas && vcpus <= capacity.vcpus && gb <= capacity.memory.gb())
        return {};
    return { { field,
        QStringLiteral("%1 nodes of %2 (%3 vCPUs and %4 GB each) need %5 vCPUs, %6 GB and %1 processes; this host (%7 "
                       "CPUs, %8 GB) holds at most %9 vCPUs, %10 GB and %11 processes for one version or job")
            .arg(nodes)
            .arg(type->name)
            .arg(type->vcpus)
            .arg(type->memory.gb(), 0, 'g', 3)
            .arg(vcpus, 0, 'g', 6)
            .arg(gb, 0, 'g', 6)
            .arg(host.cpus)
            .arg(Bytes::fromBytes(host.memoryBytes).gb(), 0, 'f', 1)
            .arg(capacity.vcpus, 0, 'g', 6)
            .arg(capacity.memory.gb(), 0, 'f', 0)
            .arg(capacity.replicas) } };
}

} // namespace Trainyard
