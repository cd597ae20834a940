// SPDX-License-Identifier: GPL-2.0-or-later
#include "configloader.h"
#include "jsonnumber.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>

#include <yaml-cpp/yaml.h>

#include <cmath>

namespace Trainyard {

namespace {

// What the schema wants at a field: enough of the proto descriptor to convert YAML scalars by
// the field's declared type instead of by how the text looks.
enum class Kind {
    String, ///< also enums and timestamps
    Int64,
    Int32,
    Double,
    Bool,
    Message,
    StringMap,
    Struct, ///< free-form (encryptionConfig): converted generically
};

struct FieldType {
    Kind kind = Kind::Struct;
    bool repeated = false;
    const char* message = nullptr; ///< for Kind::Message
};

using MessageSchema = QHash<QString, FieldType>;

const QHash<QString, MessageSchema>& schema()
{
    static const QHash<QString, MessageSchema> s = [] {
        const FieldType str { Kind::String };
        const FieldType strs { Kind::String, true };
        const FieldType i64 { Kind::Int64 };
        const FieldType i32 { Kind::Int32 };
        const FieldType dbl { Kind::Double };
        const FieldType dbls { Kind::Double, true };
        const FieldType boolean { Kind::Bool };
        const FieldType map { Kind::StringMap };
        auto msg = [](const char* name, bool repeated = false) { return FieldType { Kind::Message, repeated, name }; };
        QHash<QString, MessageSchema> m;
        m.insert(QStringLiteral("Job"),
            { { QStringLiteral("jobId"), str }, { QStringLiteral("createTime"), str },
                { QStringLiteral("startTime"), str }, { QStringLiteral("endTime"), str },
                { QStringLiteral("state"), str }, { QStringLiteral("errorMessage"), str },
                { QStringLiteral("labels"), map }, { QStringLiteral("etag"), str },
                { QStringLiteral("jobPosition"), i64 }, { QStringLiteral("trainingInput"), msg("TrainingInput") },
                { QStringLiteral("trainingOutput"), msg("TrainingOutput") },
                { QStringLiteral("predictionInput"), msg("PredictionInput") } });
        m.insert(QStringLiteral("PredictionInput"),
            { { QStringLiteral("modelName"), str }, { QStringLiteral("versionName"), str },
                { QStringLiteral("uri"), str }, { QStringLiteral("dataFormat"), str },
                { QStringLiteral("outputDataFormat"), str }, { QStringLiteral("inputPaths"), strs },
                { QStringLiteral("outputPath"), str }, { QStringLiteral("maxWorkerCount"), i64 },
                { QStringLiteral("region"), str }, { QStringLiteral("runtimeVersion"), str },
                { QStringLiteral("batchSize"), i64 }, { QStringLiteral("signatureName"), str } });
        m.insert(QStringLiteral("TrainingInput"),
            { { QStringLiteral("scaleTier"), str }, { QStringLiteral("masterType"), str },
                { QStringLiteral("masterConfig"), msg("ReplicaConfig") }, { QStringLiteral("workerType"), str },
                { QStringLiteral("workerConfig"), msg("ReplicaConfig") },
                { QStringLiteral("parameterServerType"), str },
                { QStringLiteral("parameterServerConfig"), msg("ReplicaConfig") },
                { QStringLiteral("evaluatorType"), str }, { QStringLiteral("evaluatorConfig"), msg("ReplicaConfig") },
                { QStringLiteral("workerCount"), i64 }, { QStringLiteral("parameterServerCount"), i64 },
                { QStringLiteral("evaluatorCount"), i64 }, { QStringLiteral("packageUris"), strs },
                { QStringLiteral("pythonModule"), str }, { QStringLiteral("args"), strs },
                { QStringLiteral("hyperparameters"), msg("HyperparameterSpec") }, { QStringLiteral("region"), str },
                { QStringLiteral("jobDir"), str }, { QStringLiteral("runtimeVersion"), str },
                { QStringLiteral("pythonVersion"), str }, { QStringLiteral("scheduling"), msg("Scheduling") },
                { QStringLiteral("network"), str }, { QStringLiteral("serviceAccount"), str },
                { QStringLiteral("useChiefInTfConfig"), boolean }, { QStringLiteral("enableWebAccess"), boolean },
                { QStringLiteral("encryptionConfig"), FieldType { Kind::Struct } } });
        m.insert(QStringLiteral("ReplicaConfig"),
            { { QStringLiteral("acceleratorConfig"), msg("AcceleratorConfig") }, { QStringLiteral("imageUri"), str },
                { QStringLiteral("tpuTfVersion"), str }, { QStringLiteral("containerCommand"), strs },
                { QStringLiteral("containerArgs"), strs }, { QStringLiteral("diskConfig"), msg("DiskConfig") } });
        m.insert(
            QStringLiteral("AcceleratorConfig"), { { QStringLiteral("count"), i64 }, { QStringLiteral("type"), str } });
        m.insert(QStringLiteral("DiskConfig"),
            { { QStringLiteral("bootDiskType"), str }, { QStringLiteral("bootDiskSizeGb"), i32 } });
        m.insert(QStringLiteral("Scheduling"),
            { { QStringLiteral("maxRunningTime"), str }, { QStringLiteral("maxWaitTime"), str },
                { QStringLiteral("priority"), i32 } });
        m.insert(QStringLiteral("HyperparameterSpec"),
            { { QStringLiteral("goal"), str }, { QStringLiteral("params"), msg("ParameterSpec", true) },
                { QStringLiteral("maxTrials"), i32 }, { QStringLiteral("maxParallelTrials"), i32 },
                { QStringLiteral("maxFailedTrials"), i32 }, { QStringLiteral("hyperparameterMetricTag"), str },
                { QStringLiteral("resumePreviousJobId"), str }, { QStringLiteral("enableTrialEarlyStopping"), boolean },
                { QStringLiteral("algorithm"), str } });
        m.insert(QStringLiteral("ParameterSpec"),
            { { QStringLiteral("parameterName"), str }, { QStringLiteral("type"), str },
                { QStringLiteral("minValue"), dbl }, { QStringLiteral("maxValue"), dbl },
                { QStringLiteral("categoricalValues"), strs }, { QStringLiteral("discreteValues"), dbls },
                { QStringLiteral("scaleType"), str } });
        m.insert(QStringLiteral("TrainingOutput"),
            { { QStringLiteral("completedTrialCount"), i64 },
                { QStringLiteral("trials"), msg("HyperparameterOutput", true) },
                { QStringLiteral("consumedMLUnits"), dbl }, { QStringLiteral("isHyperparameterTuningJob"), boolean },
                { QStringLiteral("hyperparameterMetricTag"), str } });
        m.insert(QStringLiteral("HyperparameterOutput"),
            { { QStringLiteral("trialId"), str }, { QStringLiteral("hyperparameters"), map },
                { QStringLiteral("startTime"), str }, { QStringLiteral("endTime"), str },
                { QStringLiteral("state"), str }, { QStringLiteral("finalMetric"), msg("HyperparameterMetric") },
                { QStringLiteral("allMetrics"), msg("HyperparameterMetric", true) },
                { QStringLiteral("isTrialStoppedEarly"), boolean } });
        m.insert(QStringLiteral("HyperparameterMetric"),
            { { QStringLiteral("trainingStep"), i64 }, { QStringLiteral("objectiveValue"), dbl } });
        // A model version (gcloud's `versions create --config`): runtimeVersion: 2.10 stays "2.10".
        m.insert(QStringLiteral("Version"),
            { { QStringLiteral("name"), str }, { QStringLiteral("description"), str },
                { QStringLiteral("deploymentUri"), str }, { QStringLiteral("runtimeVersion"), str },
                { QStringLiteral("pythonVersion"), str }, { QStringLiteral("framework"), str },
                { QStringLiteral("predictionClass"), str }, { QStringLiteral("packageUris"), strs },
                { QStringLiteral("machineType"), str }, { QStringLiteral("labels"), map },
                { QStringLiteral("predictionTimeout"), str }, { QStringLiteral("etag"), str },
                { QStringLiteral("manualScaling"), msg("ManualScaling") },
                { QStringLiteral("autoScaling"), msg("AutoScaling") } });
        m.insert(QStringLiteral("ManualScaling"), { { QStringLiteral("nodes"), i32 } });
        m.insert(QStringLiteral("AutoScaling"),
            { { QStringLiteral("minNodes"), i32 }, { QStringLiteral("maxNodes"), i32 } });
        return m;
    }();
    return s;
}

// The field's type by its JSON name or its proto (snake_case) name; nullptr when unknown.
const FieldType* fieldType(const char* message, const QString& key)
{
    const MessageSchema& fields = schema()[QLatin1String(message)];
    auto it = fields.constFind(key);
    if (it != fields.constEnd())
        return &*it;
    if (key.contains(QLatin1Char('_'))) {
        QString camel;
        bool upper = false;
        for (const QChar c : key) {
            if (c == QLatin1Char('_')) {
                upper = true;
                continue;
            }
            camel += upper ? c.toUpper() : c;
            upper = false;
        }
        it = fields.constFind(camel);
        if (it != fields.constEnd())
            return &*it;
    }
    return nullptr;
}

QString text(const YAML::Node& node)
{
    return QString::fromStdString(node.Scalar());
}

bool isPlain(const YAML::Node& node)
{
    // yaml-cpp tags plain scalars "?" and quoted ones "!".
    return node.Tag() == "?" || node.Tag().empty();
}

// YAML 1.1 (PyYAML, which gcloud uses) and 1.2 core schema spellings.
std::optional<bool> yamlBool(const QString& s)
{
    static const QStringList yes { QStringLiteral("true"), QStringLiteral("True"), QStringLiteral("TRUE"),
        QStringLiteral("yes"), QStringLiteral("Yes"), QStringLiteral("YES"), QStringLiteral("on"), QStringLiteral("On"),
        QStringLiteral("ON"), QStringLiteral("y"), QStringLiteral("Y") };
    static const QStringList no { QStringLiteral("false"), QStringLiteral("False"), QStringLiteral("FALSE"),
        QStringLiteral("no"), QStringLiteral("No"), QStringLiteral("NO"), QStringLiteral("off"), QStringLiteral("Off"),
        QStringLiteral("OFF"), QStringLiteral("n"), QStringLiteral("N") };
    if (yes.contains(s))
        return true;
    if (no.contains(s))
        return false;
    return std::nullopt;
}

bool isYamlNull(const QString& s)
{
    return s.isEmpty() || s == QLatin1String("~") || s == QLatin1String("null") || s == QLatin1String("Null")
        || s == QLatin1String("NULL");
}

std::optional<double> yamlDouble(const QString& s)
{
    static const QRegularExpression inf(QStringLiteral("^([-+]?)\\.(inf|Inf|INF)$"));
    static const QRegularExpression nan(QStringLiteral("^\\.(nan|NaN|NAN)$"));
    if (const auto m = inf.match(s); m.hasMatch())
        return m.captured(1) == QLatin1String("-") ? -INFINITY : INFINITY;
    if (nan.match(s).hasMatch())
        return NAN;
    bool ok = false;
    const double d = s.trimmed().toDouble(&ok);
    if (ok && std::isfinite(d))
        return d;
    return std::nullopt;
}

// Conversion of a node whose field the schema does not know (or free-form Struct): YAML 1.2 core
// schema resolution for plain scalars, strings for quoted ones.
// YAML aliases share nodes, so a few lines can stand for billions of nodes ("billion laughs").
// Converting counts nodes and gives up past this many; a real config has a few dozen.
constexpr int MaxConvertedNodes = 100000;
thread_local int convertedNodes = 0;

struct TooLarge { };

void countNode()
{
    if (++convertedNodes > MaxConvertedNodes)
        throw TooLarge {};
}

QJsonValue genericValue(const YAML::Node& node)
{
    countNode();
    switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        return QJsonValue(QJsonValue::Null);
    case YAML::NodeType::Sequence: {
        QJsonArray a;
        for (const YAML::Node& item : node)
            a.append(genericValue(item));
        return a;
    }
    case YAML::NodeType::Map: {
        QJsonObject o;
        for (const auto& kv : node)
            o.insert(text(kv.first), genericValue(kv.second));
        return o;
    }
    case YAML::NodeType::Scalar:
        break;
    }
    const QString s = text(node);
    if (!isPlain(node))
        return s;
    if (isYamlNull(s))
        return QJsonValue(QJsonValue::Null);
    if (const auto b = yamlBool(s))
        return *b;
    static const QRegularExpression number(QStringLiteral("^[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?$"));
    if (number.match(s).hasMatch()) {
        if (const auto d = yamlDouble(s))
            return *d;
    }
    return s;
}

QJsonValue convert(const YAML::Node& node, const FieldType* type);

QJsonObject convertMessage(const YAML::Node& node, const char* message)
{
    countNode();
    QJsonObject o;
    for (const auto& kv : node) {
        const QString key = text(kv.first);
        const FieldType* type = fieldType(message, key);
        o.insert(key, type ? convert(kv.second, type) : genericValue(kv.second));
    }
    return o;
}

QJsonValue convertScalar(const YAML::Node& node, Kind kind)
{
    const QString s = text(node);
    if (isPlain(node) && isYamlNull(s))
        return QJsonValue(QJsonValue::Null);
    switch (kind) {
    case Kind::String:
        return s;
    case Kind::Int64:
        // proto3 JSON writes int64 as a string; the decoder checks that it is an integer.
        return s.trimmed();
    case Kind::Int32: {
        bool ok = false;
        const int n = s.trimmed().toInt(&ok);
        return ok ? QJsonValue(n) : QJsonValue(s);
    }
    case Kind::Double:
        if (const auto d = yamlDouble(s))
            return doubleToJson(*d);
        return s;
    case Kind::Bool:
        if (const auto b = yamlBool(s.trimmed()))
            return *b;
        return s;
    case Kind::Message:
    case Kind::StringMap:
    case Kind::Struct:
        break;
    }
    return genericValue(node);
}

QJsonValue convertSingle(const YAML::Node& node, const FieldType& type)
{
    if (node.IsNull())
        return QJsonValue(QJsonValue::Null);
    switch (type.kind) {
    case Kind::Message:
        if (node.IsMap())
            return convertMessage(node, type.message);
        return genericValue(node);
    case Kind::StringMap:
        if (node.IsMap()) {
            QJsonObject o;
            for (const auto& kv : node)
                o.insert(text(kv.first), kv.second.IsScalar() ? QJsonValue(text(kv.second)) : genericValue(kv.second));
            return o;
        }
        return genericValue(node);
    case Kind::Struct:
        return genericValue(node);
    default:
        if (node.IsScalar())
            return convertScalar(node, type.kind);
        return genericValue(node);
    }
}

QJsonValue convert(const YAML::Node& node, const FieldType* type)
{
    countNode();
    if (type->repeated) {
        if (!node.IsSequence())
            return node.IsNull() ? QJsonValue(QJsonValue::Null) : genericValue(node);
        FieldType item = *type;
        item.repeated = false;
        QJsonArray a;
        for (const YAML::Node& element : node)
            a.append(convertSingle(element, item));
        return a;
    }
    return convertSingle(node, *type);
}

QString violationsText(const FieldViolations& violations)
{
    QStringList parts;
    for (const FieldViolation& v : violations)
        parts.append(v.field + QStringLiteral(": ") + v.description);
    return parts.join(QStringLiteral("; "));
}

// ---- YAML output -------------------------------------------------------------------------------

// Strings that a YAML 1.1 or 1.2 reader would resolve to something else when written plain.
bool needsQuotes(const QString& s)
{
    static const QRegularExpression numberLike(
        QStringLiteral("^[-+]?(\\d[\\d_]*\\.?[\\d_]*|\\.\\d+|0x[0-9a-fA-F]+|0o?[0-7]+)([eE][-+]?\\d+)?$|^[-+]?\\.(inf|"
                       "Inf|INF)$|^\\.(nan|NaN|NAN)$|^\\d+(:[0-5]?\\d)+$"));
    return isYamlNull(s) || yamlBool(s) || numberLike.match(s).hasMatch() || s.trimmed() != s;
}

void emitValue(YAML::Emitter& out, const QJsonValue& value, const FieldType* type);

void emitScalarString(YAML::Emitter& out, const QString& s)
{
    if (needsQuotes(s))
        out << YAML::DoubleQuoted << s.toStdString();
    else
        out << s.toStdString();
}

void emitObject(YAML::Emitter& out, const QJsonObject& o, const char* message)
{
    out << YAML::BeginMap;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        out << YAML::Key;
        emitScalarString(out, it.key());
        out << YAML::Value;
        emitValue(out, *it, message ? fieldType(message, it.key()) : nullptr);
    }
    out << YAML::EndMap;
}

void emitValue(YAML::Emitter& out, const QJsonValue& value, const FieldType* type)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out << YAML::Null;
        return;
    case QJsonValue::Bool:
        out << value.toBool();
        return;
    case QJsonValue::Double:
        out << QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest).toStdString();
        return;
    case QJsonValue::String: {
        const QString s = value.toString();
        if (type && type->kind == Kind::Int64) {
            bool ok = false;
            s.toLongLong(&ok);
            if (ok) {
                out << s.toStdString();
                return;
            }
        }
        emitScalarString(out, s);
        return;
    }
    case QJsonValue::Array: {
        FieldType item;
        if (type) {
            item = *type;
            item.repeated = false;
        }
        out << YAML::BeginSeq;
        for (const QJsonValue& v : value.toArray())
            emitValue(out, v, type ? &item : nullptr);
        out << YAML::EndSeq;
        return;
    }
    case QJsonValue::Object:
        emitObject(out, value.toObject(), type && type->kind == Kind::Message ? type->message : nullptr);
        return;
    }
}

} // namespace

std::optional<QJsonObject> ConfigLoader::toJsonObject(
    const QByteArray& text, Format format, QString* error, Resource resource)
{
    auto fail = [&](const QString& message) -> std::optional<QJsonObject> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (format == Format::Json) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            return fail(QStringLiteral("Invalid JSON at offset ") + QString::number(parseError.offset)
                + QStringLiteral(": ") + parseError.errorString() + QLatin1Char('.'));
        if (!doc.isObject())
            return fail(QStringLiteral("The config must be a JSON object (a Job resource)."));
        return doc.object();
    }
    try {
        const YAML::Node root = YAML::Load(text.toStdString());
        if (root.IsNull() || !root.IsDefined())
            return fail(QStringLiteral("The config is empty; expected a Job resource such as \"trainingInput: ...\"."));
        if (!root.IsMap())
            return fail(
                QStringLiteral("The config must be a mapping (a Job resource such as \"trainingInput: ...\")."));
        convertedNodes = 0;
        return convertMessage(root, resource == Resource::Version ? "Version" : "Job");
    } catch (const TooLarge&) {
        return fail(QStringLiteral("The config expands to more than %1 values (YAML aliases?); it is not a job config.")
                        .arg(MaxConvertedNodes));
    } catch (const YAML::Exception& e) {
        if (!e.mark.is_null())
            return fail(QStringLiteral("Invalid YAML at line %1, column %2: %3")
                            .arg(e.mark.line + 1)
                            .arg(e.mark.column + 1)
                            .arg(QString::fromStdString(e.msg)));
        return fail(QStringLiteral("Invalid YAML: ") + QString::fromStdString(e.msg));
    }
}

std::optional<Job> ConfigLoader::loadText(
    const QByteArray& text, Format format, QString* error, FieldViolations* violations)
{
    const std::optional<QJsonObject> json = toJsonObject(text, format == Format::Auto ? Format::Yaml : format, error);
    if (!json)
        return std::nullopt;
    FieldViolations found;
    Job job = JobJson::fromJson(*json, &found);
    if (!found.isEmpty()) {
        if (error)
            *error = violationsText(found);
        if (violations)
            violations->append(found);
        return std::nullopt;
    }
    return job;
}

std::optional<Job> ConfigLoader::loadFile(
    const QString& path, QString* error, FieldViolations* violations, Format format)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("Cannot read config file ") + path + QStringLiteral(": ") + file.errorString();
        return std::nullopt;
    }
    if (format == Format::Auto)
        format = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? Format::Json : Format::Yaml;
    QString message;
    std::optional<Job> job = loadText(file.readAll(), format, &message, violations);
    if (!job && error)
        *error = path + QStringLiteral(": ") + message;
    return job;
}

QString jobToYaml(const Job& job)
{
    QJsonObject o;
    const QJsonObject full = JobJson::toJson(job);
    for (const QLatin1String key :
        { QLatin1String("labels"), QLatin1String("trainingInput"), QLatin1String("predictionInput") }) {
        if (full.contains(key))
            o.insert(key, full.value(key));
    }
    YAML::Emitter out;
    out.SetIndent(2);
    out.SetSeqFormat(YAML::Block);
    emitObject(out, o, "Job");
    return QString::fromUtf8(out.c_str()) + QLatin1Char('\n');
}

} // namespace Trainyard
