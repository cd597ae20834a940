// SPDX-License-Identifier: GPL-2.0-or-later
#include "job.h"

#include "explanationconfig.h"

#include "builtinalgorithm.h"
#include "jsonnumber.h"
#include "rfc3339.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonValue>
#include <QRegularExpression>
#include <QSet>

#include <cmath>
#include <limits>

// The proto3 JSON mapping (https://protobuf.dev/programming-guides/proto3/#json) is what the
// service speaks: int64/uint64 are written as strings and read from strings or numbers; int32 and
// double are numbers (strings accepted on input); non-finite doubles are "NaN", "Infinity",
// "-Infinity"; enums are written by name (integers accepted on input); `null` means "absent";
// parsers accept both the lowerCamelCase JSON name and the original snake_case proto name.

namespace Trainyard {

namespace {

QString joinPath(const QString& path, const QString& key)
{
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

QString indexPath(const QString& path, qsizetype index)
{
    return path + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

QString jsonTypeName(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

QString camelToSnake(const QString& camel)
{
    QString out;
    out.reserve(camel.size() + 4);
    for (const QChar c : camel) {
        if (c.isUpper()) {
            out += QLatin1Char('_');
            out += c.toLower();
        } else {
            out += c;
        }
    }
    return out;
}

// Closed enums of the schema, in proto order so that integer values map by index (and, for the
// state, so that a JobState is its name's index).
const QStringList& stateNames()
{
    static const QStringList names { QStringLiteral("STATE_UNSPECIFIED"), QStringLiteral("QUEUED"),
        QStringLiteral("PREPARING"), QStringLiteral("RUNNING"), QStringLiteral("SUCCEEDED"), QStringLiteral("FAILED"),
        QStringLiteral("CANCELLING"), QStringLiteral("CANCELLED") };
    return names;
}
const QStringList& goalNames()
{
    static const QStringList names { QStringLiteral("GOAL_TYPE_UNSPECIFIED"), QStringLiteral("MAXIMIZE"),
        QStringLiteral("MINIMIZE") };
    return names;
}
const QStringList& algorithmNames()
{
    static const QStringList names { QStringLiteral("ALGORITHM_UNSPECIFIED"), QStringLiteral("GRID_SEARCH"),
        QStringLiteral("RANDOM_SEARCH") };
    return names;
}
const QStringList& parameterTypeNames()
{
    static const QStringList names { QStringLiteral("PARAMETER_TYPE_UNSPECIFIED"), QStringLiteral("DOUBLE"),
        QStringLiteral("INTEGER"), QStringLiteral("CATEGORICAL"), QStringLiteral("DISCRETE") };
    return names;
}
const QStringList& scaleTypeNames()
{
    static const QStringList names { QStringLiteral("NONE"), QStringLiteral("UNIT_LINEAR_SCALE"),
        QStringLiteral("UNIT_LOG_SCALE"), QStringLiteral("UNIT_REVERSE_LOG_SCALE") };
    return names;
}

// Reads one JSON object of a message: every getter marks its key as known, finish() reports
// the keys nobody asked for. Violations carry the full dotted path of the field.
class Reader {
public:
    Reader(const QJsonObject& object, const QString& path, FieldViolations* violations)
        : m_object(object)
        , m_path(path)
        , m_violations(violations)
    {
    }

    QString path(const QString& key) const { return joinPath(m_path, key); }

    void fail(const QString& fieldPath, const QString& description)
    {
        if (m_violations)
            m_violations->append({ fieldPath, description });
    }

    // The value of `key` (or its snake_case alias); Undefined when absent or null.
    QJsonValue take(const QString& key)
    {
        m_known.insert(key);
        auto it = m_object.constFind(key);
        if (it == m_object.constEnd()) {
            const QString snake = camelToSnake(key);
            m_known.insert(snake);
            it = m_object.constFind(snake);
        }
        if (it == m_object.constEnd() || it->isNull())
            return QJsonValue(QJsonValue::Undefined);
        return *it;
    }

    QString string(const QString& key) { return stringValue(take(key), path(key)); }

    QString stringValue(const QJsonValue& v, const QString& fieldPath)
    {
        if (v.isUndefined())
            return {};
        if (!v.isString()) {
            fail(fieldPath, QStringLiteral("Expected a string, got ") + jsonTypeName(v) + QLatin1Char('.'));
            return {};
        }
        return v.toString();
    }

    QString timestamp(const QString& key)
    {
        const QString s = string(key);
        if (!s.isEmpty() && !Rfc3339::parseUs(s))
            fail(path(key), QStringLiteral("Invalid RFC 3339 timestamp \"") + s + QStringLiteral("\"."));
        return s;
    }

    QString enumValue(const QString& key, const QStringList& names)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return {};
        if (v.isDouble()) {
            const double d = v.toDouble();
            if (d >= 0 && d < names.size() && d == std::floor(d))
                return names.at(static_cast<qsizetype>(d));
        } else if (v.isString()) {
            if (names.contains(v.toString()))
                return v.toString();
        } else {
            fail(
                path(key), QStringLiteral("Expected an enum name (string), got ") + jsonTypeName(v) + QLatin1Char('.'));
            return {};
        }
        fail(path(key),
            QStringLiteral("Invalid value ") + valueText(v) + QStringLiteral("; expected one of ")
                + names.join(QStringLiteral(", ")) + QLatin1Char('.'));
        return {};
    }

    // Absent, and names the service does not have (a violation from enumValue), read as StateUnspecified.
    JobState state(const QString& key)
    {
        return jobStateFromName(enumValue(key, stateNames())).value_or(JobState::StateUnspecified);
    }

    std::optional<qint64> int64(const QString& key) { return int64Value(take(key), path(key)); }

    std::optional<qint64> int64Value(const QJsonValue& v, const QString& fieldPath)
    {
        if (v.isUndefined())
            return std::nullopt;
        if (v.isDouble()) {
            const double d = v.toDouble();
            // 2^63 is exactly representable; anything at or beyond it does not fit.
            if (d != std::floor(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0) {
                fail(fieldPath, QStringLiteral("Invalid int64 value ") + valueText(v) + QLatin1Char('.'));
                return std::nullopt;
            }
            return static_cast<qint64>(d);
        }
        if (v.isString()) {
            bool ok = false;
            const qint64 n = v.toString().toLongLong(&ok);
            if (!ok) {
                fail(fieldPath, QStringLiteral("Invalid int64 value ") + valueText(v) + QLatin1Char('.'));
                return std::nullopt;
            }
            return n;
        }
        fail(fieldPath,
            QStringLiteral("Expected an int64 (string or number), got ") + jsonTypeName(v) + QLatin1Char('.'));
        return std::nullopt;
    }

    std::optional<int> int32(const QString& key)
    {
        const QJsonValue v = take(key);
        const std::optional<qint64> n = int64Value(v, path(key));
        if (!n)
            return std::nullopt;
        if (*n < std::numeric_limits<int>::min() || *n > std::numeric_limits<int>::max()) {
            fail(path(key), QStringLiteral("Invalid int32 value ") + valueText(v) + QLatin1Char('.'));
            return std::nullopt;
        }
        return static_cast<int>(*n);
    }

    std::optional<double> real(const QString& key) { return realValue(take(key), path(key)); }

    std::optional<double> realValue(const QJsonValue& v, const QString& fieldPath)
    {
        if (v.isUndefined())
            return std::nullopt;
        if (const std::optional<double> d = jsonToDouble(v))
            return d;
        if (v.isString()) {
            fail(fieldPath, QStringLiteral("Invalid number ") + valueText(v) + QLatin1Char('.'));
            return std::nullopt;
        }
        fail(fieldPath, QStringLiteral("Expected a number, got ") + jsonTypeName(v) + QLatin1Char('.'));
        return std::nullopt;
    }

    std::optional<bool> boolean(const QString& key)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isBool()) {
            fail(path(key), QStringLiteral("Expected a boolean, got ") + jsonTypeName(v) + QLatin1Char('.'));
            return std::nullopt;
        }
        return v.toBool();
    }

    // An object-valued field; nullopt (and a violation) when it is not an object.
    std::optional<QJsonObject> object(const QString& key)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isObject()) {
            fail(path(key), QStringLiteral("Expected an object, got ") + jsonTypeName(v) + QLatin1Char('.'));
            return std::nullopt;
        }
        return v.toObject();
    }

    QJsonArray array(const QString& key)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return {};
        if (!v.isArray()) {
            fail(path(key), QStringLiteral("Expected an array, got ") + jsonTypeName(v) + QLatin1Char('.'));
            return {};
        }
        return v.toArray();
    }

    QStringList stringList(const QString& key)
    {
        const QJsonArray a = array(key);
        QStringList out;
        out.reserve(a.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QJsonValue item = a.at(i);
            if (item.isNull() || item.isUndefined()) {
                fail(indexPath(path(key), i), QStringLiteral("Expected a string, got null."));
                continue;
            }
            out.append(stringValue(item, indexPath(path(key), i)));
        }
        return out;
    }

    QMap<QString, QString> stringMap(const QString& key)
    {
        QMap<QString, QString> out;
        const std::optional<QJsonObject> o = object(key);
        if (!o)
            return out;
        for (auto it = o->constBegin(); it != o->constEnd(); ++it) {
            const QString fieldPath = joinPath(path(key), it.key());
            if (!it->isString()) {
                fail(fieldPath, QStringLiteral("Expected a string, got ") + jsonTypeName(*it) + QLatin1Char('.'));
                continue;
            }
            out.insert(it.key(), it->toString());
        }
        return out;
    }

    void finish(const QHash<QString, QString>& explanations = {})
    {
        for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
            if (m_known.contains(it.key()))
                continue;
            fail(path(it.key()), explanations.value(it.key(), QStringLiteral("Unknown field.")));
        }
    }

    FieldViolations* violations() const { return m_violations; }

private:
    static QString valueText(const QJsonValue& v)
    {
        if (v.isString())
            return QLatin1Char('"') + v.toString() + QLatin1Char('"');
        if (v.isDouble())
            return QString::number(v.toDouble(), 'g', 17);
        return jsonTypeName(v);
    }

    QJsonObject m_object;
    QString m_path;
    FieldViolations* m_violations;
    QSet<QString> m_known;
};

// ---- decoding ----------------------------------------------------------------------------------

AcceleratorConfig acceleratorFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    AcceleratorConfig a;
    a.count = r.int64(QStringLiteral("count"));
    a.type = r.string(QStringLiteral("type"));
    r.finish();
    return a;
}

DiskConfig diskFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    DiskConfig d;
    d.bootDiskType = r.string(QStringLiteral("bootDiskType"));
    d.bootDiskSizeGb = r.int32(QStringLiteral("bootDiskSizeGb"));
    r.finish();
    return d;
}

ReplicaConfig replicaFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    ReplicaConfig c;
    if (const auto a = r.object(QStringLiteral("acceleratorConfig")))
        c.acceleratorConfig = acceleratorFromJson(*a, r.path(QStringLiteral("acceleratorConfig")), v);
    c.imageUri = r.string(QStringLiteral("imageUri"));
    c.tpuTfVersion = r.string(QStringLiteral("tpuTfVersion"));
    c.containerCommand = r.stringList(QStringLiteral("containerCommand"));
    c.containerArgs = r.stringList(QStringLiteral("containerArgs"));
    if (const auto d = r.object(QStringLiteral("diskConfig")))
        c.diskConfig = diskFromJson(*d, r.path(QStringLiteral("diskConfig")), v);
    r.finish();
    return c;
}

Scheduling schedulingFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    Scheduling s;
    s.maxRunningTime = ProtoDuration(r.string(QStringLiteral("maxRunningTime")));
    s.maxWaitTime = ProtoDuration(r.string(QStringLiteral("maxWaitTime")));
    s.priority = r.int32(QStringLiteral("priority"));
    r.finish();
    return s;
}

ParameterSpec parameterFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    ParameterSpec p;
    p.parameterName = r.string(QStringLiteral("parameterName"));
    p.type = r.enumValue(QStringLiteral("type"), parameterTypeNames());
    p.minValue = r.real(QStringLiteral("minValue"));
    p.maxValue = r.real(QStringLiteral("maxValue"));
    p.categoricalValues = r.stringList(QStringLiteral("categoricalValues"));
    const QJsonArray discrete = r.array(QStringLiteral("discreteValues"));
    for (qsizetype i = 0; i < discrete.size(); ++i) {
        const QString itemPath = indexPath(r.path(QStringLiteral("discreteValues")), i);
        if (discrete.at(i).isNull()) {
            r.fail(itemPath, QStringLiteral("Expected a number, got null."));
            continue;
        }
        if (const auto d = r.realValue(discrete.at(i), itemPath))
            p.discreteValues.append(*d);
    }
    p.scaleType = r.enumValue(QStringLiteral("scaleType"), scaleTypeNames());
    r.finish();
    return p;
}

HyperparameterSpec hyperparametersFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    HyperparameterSpec h;
    h.goal = r.enumValue(QStringLiteral("goal"), goalNames());
    const QJsonArray params = r.array(QStringLiteral("params"));
    for (qsizetype i = 0; i < params.size(); ++i) {
        const QString itemPath = indexPath(r.path(QStringLiteral("params")), i);
        if (!params.at(i).isObject()) {
            r.fail(
                itemPath, QStringLiteral("Expected an object, got ") + jsonTypeName(params.at(i)) + QLatin1Char('.'));
            continue;
        }
        h.params.append(parameterFromJson(params.at(i).toObject(), itemPath, v));
    }
    h.maxTrials = r.int32(QStringLiteral("maxTrials"));
    h.maxParallelTrials = r.int32(QStringLiteral("maxParallelTrials"));
    h.maxFailedTrials = r.int32(QStringLiteral("maxFailedTrials"));
    h.hyperparameterMetricTag = r.string(QStringLiteral("hyperparameterMetricTag"));
    h.resumePreviousJobId = r.string(QStringLiteral("resumePreviousJobId"));
    h.enableTrialEarlyStopping = r.boolean(QStringLiteral("enableTrialEarlyStopping"));
    h.algorithm = r.enumValue(QStringLiteral("algorithm"), algorithmNames());
    r.finish();
    return h;
}

HyperparameterMetric metricFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    HyperparameterMetric m;
    m.trainingStep = r.int64(QStringLiteral("trainingStep"));
    m.objectiveValue = r.real(QStringLiteral("objectiveValue"));
    r.finish();
    return m;
}

BuiltInAlgorithmOutput builtInFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    BuiltInAlgorithmOutput b;
    b.framework = r.string(QStringLiteral("framework"));
    b.runtimeVersion = r.string(QStringLiteral("runtimeVersion"));
    b.pythonVersion = r.string(QStringLiteral("pythonVersion"));
    b.modelPath = r.string(QStringLiteral("modelPath"));
    r.finish();
    return b;
}

HyperparameterOutput trialFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    HyperparameterOutput t;
    t.trialId = r.string(QStringLiteral("trialId"));
    t.hyperparameters = r.stringMap(QStringLiteral("hyperparameters"));
    t.startTime = r.timestamp(QStringLiteral("startTime"));
    t.endTime = r.timestamp(QStringLiteral("endTime"));
    t.state = r.state(QStringLiteral("state"));
    if (const auto m = r.object(QStringLiteral("finalMetric")))
        t.finalMetric = metricFromJson(*m, r.path(QStringLiteral("finalMetric")), v);
    const QJsonArray all = r.array(QStringLiteral("allMetrics"));
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QString itemPath = indexPath(r.path(QStringLiteral("allMetrics")), i);
        if (!all.at(i).isObject()) {
            r.fail(itemPath, QStringLiteral("Expected an object, got ") + jsonTypeName(all.at(i)) + QLatin1Char('.'));
            continue;
        }
        t.allMetrics.append(metricFromJson(all.at(i).toObject(), itemPath, v));
    }
    t.isTrialStoppedEarly = r.boolean(QStringLiteral("isTrialStoppedEarly"));
    if (const auto b = r.object(QStringLiteral("builtInAlgorithmOutput")))
        t.builtInAlgorithmOutput = builtInFromJson(*b, r.path(QStringLiteral("builtInAlgorithmOutput")), v);
    r.finish();
    return t;
}

TrainingOutput trainingOutputFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    TrainingOutput out;
    out.completedTrialCount = r.int64(QStringLiteral("completedTrialCount"));
    const QJsonArray trials = r.array(QStringLiteral("trials"));
    for (qsizetype i = 0; i < trials.size(); ++i) {
        const QString itemPath = indexPath(r.path(QStringLiteral("trials")), i);
        if (!trials.at(i).isObject()) {
            r.fail(
                itemPath, QStringLiteral("Expected an object, got ") + jsonTypeName(trials.at(i)) + QLatin1Char('.'));
            continue;
        }
        out.trials.append(trialFromJson(trials.at(i).toObject(), itemPath, v));
    }
    out.consumedMLUnits = r.real(QStringLiteral("consumedMLUnits"));
    out.isHyperparameterTuningJob = r.boolean(QStringLiteral("isHyperparameterTuningJob"));
    out.hyperparameterMetricTag = r.string(QStringLiteral("hyperparameterMetricTag"));
    out.isBuiltInAlgorithmJob = r.boolean(QStringLiteral("isBuiltInAlgorithmJob"));
    if (const auto b = r.object(QStringLiteral("builtInAlgorithmOutput")))
        out.builtInAlgorithmOutput = builtInFromJson(*b, r.path(QStringLiteral("builtInAlgorithmOutput")), v);
    r.finish();
    return out;
}

const QStringList& dataFormatNames()
{
    // The service's PredictionInput.DataFormat, in its order.
    static const QStringList names { QStringLiteral("DATA_FORMAT_UNSPECIFIED"), QStringLiteral("JSON"),
        QStringLiteral("TEXT"), QStringLiteral("TF_RECORD"), QStringLiteral("TF_RECORD_GZIP"), QStringLiteral("CSV") };
    return names;
}

PredictionInput predictionInputFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    PredictionInput in;
    in.modelName = r.string(QStringLiteral("modelName"));
    in.versionName = r.string(QStringLiteral("versionName"));
    in.uri = r.string(QStringLiteral("uri"));
    in.dataFormat = r.enumValue(QStringLiteral("dataFormat"), dataFormatNames());
    in.outputDataFormat = r.enumValue(QStringLiteral("outputDataFormat"), dataFormatNames());
    in.inputPaths = r.stringList(QStringLiteral("inputPaths"));
    in.outputPath = r.string(QStringLiteral("outputPath"));
    in.maxWorkerCount = r.int64(QStringLiteral("maxWorkerCount"));
    in.region = r.string(QStringLiteral("region"));
    in.runtimeVersion = r.string(QStringLiteral("runtimeVersion"));
    in.batchSize = r.int64(QStringLiteral("batchSize"));
    in.signatureName = r.string(QStringLiteral("signatureName"));
    if (const QJsonValue config = r.take(QStringLiteral("explanationConfig")); !config.isUndefined()) {
        if (const std::optional<ExplanationConfig> c
            = ExplanationConfig::fromJson(config, r.path(QStringLiteral("explanationConfig")), v))
            in.explanationConfig = c->toJson();
    }
    r.finish();
    return in;
}

PredictionOutput predictionOutputFromJson(const QJsonObject& o, const QString& path, FieldViolations* v)
{
    Reader r(o, path, v);
    PredictionOutput out;
    out.outputPath = r.string(QStringLiteral("outputPath"));
    out.predictionCount = r.int64(QStringLiteral("predictionCount"));
    out.errorCount = r.int64(QStringLiteral("errorCount"));
    out.nodeHours = r.real(QStringLiteral("nodeHours"));
    out.inputInstanceCount = r.int64(QStringLiteral("inputInstanceCount"));
    r.finish();
    return out;
}

// ---- encoding ----------------------------------------------------------------------------------

void putString(QJsonObject& o, const QString& key, const QString& value)
{
    if (!value.isEmpty())
        o.insert(key, value);
}

// proto3 leaves an enum's zero value out.
void putState(QJsonObject& o, const QString& key, JobState value)
{
    if (value != JobState::StateUnspecified)
        o.insert(key, jobStateName(value));
}

void putInt64(QJsonObject& o, const QString& key, const std::optional<qint64>& value)
{
    if (value)
        o.insert(key, QString::number(*value));
}

void putInt32(QJsonObject& o, const QString& key, const std::optional<int>& value)
{
    if (value)
        o.insert(key, *value);
}

void putDouble(QJsonObject& o, const QString& key, const std::optional<double>& value)
{
    if (value)
        o.insert(key, doubleToJson(*value));
}

void putBool(QJsonObject& o, const QString& key, const std::optional<bool>& value)
{
    if (value)
        o.insert(key, *value);
}

void putStringList(QJsonObject& o, const QString& key, const QStringList& value)
{
    if (!value.isEmpty())
        o.insert(key, QJsonArray::fromStringList(value));
}

void putStringMap(QJsonObject& o, const QString& key, const QMap<QString, QString>& value)
{
    if (value.isEmpty())
        return;
    QJsonObject m;
    for (auto it = value.constBegin(); it != value.constEnd(); ++it)
        m.insert(it.key(), it.value());
    o.insert(key, m);
}

QJsonObject toJson(const AcceleratorConfig& a)
{
    QJsonObject o;
    putInt64(o, QStringLiteral("count"), a.count);
    putString(o, QStringLiteral("type"), a.type);
    return o;
}

QJsonObject toJson(const DiskConfig& d)
{
    QJsonObject o;
    putString(o, QStringLiteral("bootDiskType"), d.bootDiskType);
    // bootDiskSizeGb is int32 in the proto, so it is a JSON number.
    if (d.bootDiskSizeGb)
        o.insert(QStringLiteral("bootDiskSizeGb"), static_cast<double>(*d.bootDiskSizeGb));
    return o;
}

QJsonObject toJson(const ReplicaConfig& c)
{
    QJsonObject o;
    if (c.acceleratorConfig)
        o.insert(QStringLiteral("acceleratorConfig"), toJson(*c.acceleratorConfig));
    putString(o, QStringLiteral("imageUri"), c.imageUri);
    putString(o, QStringLiteral("tpuTfVersion"), c.tpuTfVersion);
    putStringList(o, QStringLiteral("containerCommand"), c.containerCommand);
    putStringList(o, QStringLiteral("containerArgs"), c.containerArgs);
    if (c.diskConfig)
        o.insert(QStringLiteral("diskConfig"), toJson(*c.diskConfig));
    return o;
}

QJsonObject toJson(const Scheduling& s)
{
    QJsonObject o;
    putString(o, QStringLiteral("maxRunningTime"), s.maxRunningTime.text);
    putString(o, QStringLiteral("maxWaitTime"), s.maxWaitTime.text);
    putInt32(o, QStringLiteral("priority"), s.priority);
    return o;
}

QJsonObject toJson(const ParameterSpec& p)
{
    QJsonObject o;
    putString(o, QStringLiteral("parameterName"), p.parameterName);
    putString(o, QStringLiteral("type"), p.type);
    putDouble(o, QStringLiteral("minValue"), p.minValue);
    putDouble(o, QStringLiteral("maxValue"), p.maxValue);
    putStringList(o, QStringLiteral("categoricalValues"), p.categoricalValues);
    if (!p.discreteValues.isEmpty()) {
        QJsonArray a;
        for (const double d : p.discreteValues)
            a.append(doubleToJson(d));
        o.insert(QStringLiteral("discreteValues"), a);
    }
    putString(o, QStringLiteral("scaleType"), p.scaleType);
    return o;
}

QJsonObject toJson(const HyperparameterSpec& h)
{
    QJsonObject o;
    putString(o, QStringLiteral("goal"), h.goal);
    if (!h.params.isEmpty()) {
        QJsonArray a;
        for (const ParameterSpec& p : h.params)
            a.append(toJson(p));
        o.insert(QStringLiteral("params"), a);
    }
    putInt32(o, QStringLiteral("maxTrials"), h.maxTrials);
    putInt32(o, QStringLiteral("maxParallelTrials"), h.maxParallelTrials);
    putInt32(o, QStringLiteral("maxFailedTrials"), h.maxFailedTrials);
    putString(o, QStringLiteral("hyperparameterMetricTag"), h.hyperparameterMetricTag);
    putString(o, QStringLiteral("resumePreviousJobId"), h.resumePreviousJobId);
    putBool(o, QStringLiteral("enableTrialEarlyStopping"), h.enableTrialEarlyStopping);
    putString(o, QStringLiteral("algorithm"), h.algorithm);
    return o;
}

QJsonObject toJson(const HyperparameterMetric& m)
{
    QJsonObject o;
    putInt64(o, QStringLiteral("trainingStep"), m.trainingStep);
    putDouble(o, QStringLiteral("objectiveValue"), m.objectiveValue);
    return o;
}

QJsonObject toJson(const BuiltInAlgorithmOutput& b)
{
    QJsonObject o;
    putString(o, QStringLiteral("framework"), b.framework);
    putString(o, QStringLiteral("runtimeVersion"), b.runtimeVersion);
    putString(o, QStringLiteral("pythonVersion"), b.pythonVersion);
    putString(o, QStringLiteral("modelPath"), b.modelPath);
    return o;
}

QJsonObject toJson(const HyperparameterOutput& t)
{
    QJsonObject o;
    putString(o, QStringLiteral("trialId"), t.trialId);
    putStringMap(o, QStringLiteral("hyperparameters"), t.hyperparameters);
    putString(o, QStringLiteral("startTime"), t.startTime);
    putString(o, QStringLiteral("endTime"), t.endTime);
    putState(o, QStringLiteral("state"), t.state);
    if (t.finalMetric)
        o.insert(QStringLiteral("finalMetric"), toJson(*t.finalMetric));
    if (!t.allMetrics.isEmpty()) {
        QJsonArray a;
        for (const HyperparameterMetric& m : t.allMetrics)
            a.append(toJson(m));
        o.insert(QStringLiteral("allMetrics"), a);
    }
    putBool(o, QStringLiteral("isTrialStoppedEarly"), t.isTrialStoppedEarly);
    if (t.builtInAlgorithmOutput)
        o.insert(QStringLiteral("builtInAlgorithmOutput"), toJson(*t.builtInAlgorithmOutput));
    return o;
}

QJsonObject toJson(const TrainingOutput& out)
{
    QJsonObject o;
    putInt64(o, QStringLiteral("completedTrialCount"), out.completedTrialCount);
    if (!out.trials.isEmpty()) {
        QJsonArray a;
        for (const HyperparameterOutput& t : out.trials)
            a.append(toJson(t));
        o.insert(QStringLiteral("trials"), a);
    }
    putDouble(o, QStringLiteral("consumedMLUnits"), out.consumedMLUnits);
    putBool(o, QStringLiteral("isHyperparameterTuningJob"), out.isHyperparameterTuningJob);
    putString(o, QStringLiteral("hyperparameterMetricTag"), out.hyperparameterMetricTag);
    putBool(o, QStringLiteral("isBuiltInAlgorithmJob"), out.isBuiltInAlgorithmJob);
    if (out.builtInAlgorithmOutput)
        o.insert(QStringLiteral("builtInAlgorithmOutput"), toJson(*out.builtInAlgorithmOutput));
    return o;
}

} // namespace

ContainerSpec containerFor(const TrainingInput& input, const QString& role)
{
    const std::optional<ReplicaConfig>* own = nullptr;
    if (role == QLatin1String("worker"))
        own = &input.workerConfig;
    else if (role == QLatin1String("ps"))
        own = &input.parameterServerConfig;
    else if (role == QLatin1String("evaluator"))
        own = &input.evaluatorConfig;
    const std::optional<ReplicaConfig>& config
        = (own && own->has_value() && !(*own)->imageUri.isEmpty()) ? *own : input.masterConfig;
    if (!config || config->imageUri.isEmpty() || BuiltInAlgorithms::isAlgorithmImage(config->imageUri))
        return {};
    return ContainerSpec { config->imageUri, config->containerCommand, config->containerArgs };
}

bool usesContainers(const TrainingInput& input)
{
    for (const auto* config :
        { &input.masterConfig, &input.workerConfig, &input.parameterServerConfig, &input.evaluatorConfig }) {
        if (config->has_value() && !(*config)->imageUri.isEmpty()
            && !BuiltInAlgorithms::isAlgorithmImage((*config)->imageUri))
            return true;
    }
    return false;
}

bool onlyContainers(const TrainingInput& input)
{
    // The master's image covers every role without its own.
    return input.masterConfig && !input.masterConfig->imageUri.isEmpty()
        && !BuiltInAlgorithms::isAlgorithmImage(input.masterConfig->imageUri);
}

namespace JobJson {

QJsonObject toJson(const TrainingInput& in)
{
    QJsonObject o;
    putString(o, QStringLiteral("scaleTier"), in.scaleTier);
    putString(o, QStringLiteral("masterType"), in.masterType);
    if (in.masterConfig)
        o.insert(QStringLiteral("masterConfig"), Trainyard::toJson(*in.masterConfig));
    putString(o, QStringLiteral("workerType"), in.workerType);
    if (in.workerConfig)
        o.insert(QStringLiteral("workerConfig"), Trainyard::toJson(*in.workerConfig));
    putString(o, QStringLiteral("parameterServerType"), in.parameterServerType);
    if (in.parameterServerConfig)
        o.insert(QStringLiteral("parameterServerConfig"), Trainyard::toJson(*in.parameterServerConfig));
    putString(o, QStringLiteral("evaluatorType"), in.evaluatorType);
    if (in.evaluatorConfig)
        o.insert(QStringLiteral("evaluatorConfig"), Trainyard::toJson(*in.evaluatorConfig));
    putInt64(o, QStringLiteral("workerCount"), in.workerCount);
    putInt64(o, QStringLiteral("parameterServerCount"), in.parameterServerCount);
    putInt64(o, QStringLiteral("evaluatorCount"), in.evaluatorCount);
    putStringList(o, QStringLiteral("packageUris"), in.packageUris);
    putString(o, QStringLiteral("pythonModule"), in.pythonModule);
    putStringList(o, QStringLiteral("args"), in.args);
    if (in.hyperparameters)
        o.insert(QStringLiteral("hyperparameters"), Trainyard::toJson(*in.hyperparameters));
    putString(o, QStringLiteral("region"), in.region);
    putString(o, QStringLiteral("jobDir"), in.jobDir);
    putString(o, QStringLiteral("runtimeVersion"), in.runtimeVersion);
    putString(o, QStringLiteral("pythonVersion"), in.pythonVersion);
    if (in.scheduling)
        o.insert(QStringLiteral("scheduling"), Trainyard::toJson(*in.scheduling));
    putString(o, QStringLiteral("network"), in.network);
    putString(o, QStringLiteral("serviceAccount"), in.serviceAccount);
    putBool(o, QStringLiteral("useChiefInTfConfig"), in.useChiefInTfConfig);
    putBool(o, QStringLiteral("enableWebAccess"), in.enableWebAccess);
    if (!in.encryptionConfig.isEmpty())
        o.insert(QStringLiteral("encryptionConfig"), in.encryptionConfig);
    return o;
}

QJsonObject toJson(const PredictionInput& in)
{
    QJsonObject o;
    putString(o, QStringLiteral("modelName"), in.modelName);
    putString(o, QStringLiteral("versionName"), in.versionName);
    putString(o, QStringLiteral("uri"), in.uri);
    putString(o, QStringLiteral("dataFormat"), in.dataFormat);
    putString(o, QStringLiteral("outputDataFormat"), in.outputDataFormat);
    putStringList(o, QStringLiteral("inputPaths"), in.inputPaths);
    putString(o, QStringLiteral("outputPath"), in.outputPath);
    putInt64(o, QStringLiteral("maxWorkerCount"), in.maxWorkerCount);
    putString(o, QStringLiteral("region"), in.region);
    putString(o, QStringLiteral("runtimeVersion"), in.runtimeVersion);
    putInt64(o, QStringLiteral("batchSize"), in.batchSize);
    putString(o, QStringLiteral("signatureName"), in.signatureName);
    if (!in.explanationConfig.isEmpty())
        o.insert(QStringLiteral("explanationConfig"), in.explanationConfig);
    return o;
}

QJsonObject toJson(const PredictionOutput& out)
{
    QJsonObject o;
    putString(o, QStringLiteral("outputPath"), out.outputPath);
    putInt64(o, QStringLiteral("predictionCount"), out.predictionCount);
    putInt64(o, QStringLiteral("errorCount"), out.errorCount);
    putDouble(o, QStringLiteral("nodeHours"), out.nodeHours);
    putInt64(o, QStringLiteral("inputInstanceCount"), out.inputInstanceCount);
    return o;
}

QJsonObject toJson(const HyperparameterOutput& trial)
{
    return Trainyard::toJson(trial);
}

QJsonObject toJson(const Job& job)
{
    QJsonObject o;
    putString(o, QStringLiteral("jobId"), job.jobId);
    if (job.predictionInput)
        o.insert(QStringLiteral("predictionInput"), toJson(*job.predictionInput));
    else
        o.insert(QStringLiteral("trainingInput"), toJson(job.trainingInput));
    putString(o, QStringLiteral("createTime"), job.createTime);
    putString(o, QStringLiteral("startTime"), job.startTime);
    putString(o, QStringLiteral("endTime"), job.endTime);
    putState(o, QStringLiteral("state"), job.state);
    putString(o, QStringLiteral("errorMessage"), job.errorMessage);
    putStringMap(o, QStringLiteral("labels"), job.labels);
    putString(o, QStringLiteral("etag"), job.etag);
    putInt64(o, QStringLiteral("jobPosition"), job.jobPosition);
    if (job.trainingOutput)
        o.insert(QStringLiteral("trainingOutput"), Trainyard::toJson(*job.trainingOutput));
    if (job.predictionOutput)
        o.insert(QStringLiteral("predictionOutput"), toJson(*job.predictionOutput));
    return o;
}

TrainingInput trainingInputFromJson(const QJsonObject& json, const QString& path, FieldViolations* violations)
{
    Reader r(json, path, violations);
    TrainingInput in;
    auto replica = [&](const QString& key) -> std::optional<ReplicaConfig> {
        if (const auto o = r.object(key))
            return replicaFromJson(*o, r.path(key), violations);
        return std::nullopt;
    };
    in.scaleTier = r.string(QStringLiteral("scaleTier"));
    in.masterType = r.string(QStringLiteral("masterType"));
    in.masterConfig = replica(QStringLiteral("masterConfig"));
    in.workerType = r.string(QStringLiteral("workerType"));
    in.workerConfig = replica(QStringLiteral("workerConfig"));
    in.parameterServerType = r.string(QStringLiteral("parameterServerType"));
    in.parameterServerConfig = replica(QStringLiteral("parameterServerConfig"));
    in.evaluatorType = r.string(QStringLiteral("evaluatorType"));
    in.evaluatorConfig = replica(QStringLiteral("evaluatorConfig"));
    in.workerCount = r.int64(QStringLiteral("workerCount"));
    in.parameterServerCount = r.int64(QStringLiteral("parameterServerCount"));
    in.evaluatorCount = r.int64(QStringLiteral("evaluatorCount"));
    in.packageUris = r.stringList(QStringLiteral("packageUris"));
    in.pythonModule = r.string(QStringLiteral("pythonModule"));
    in.args = r.stringList(QStringLiteral("args"));
    if (const auto h = r.object(QStringLiteral("hyperparameters")))
        in.hyperparameters = hyperparametersFromJson(*h, r.path(QStringLiteral("hyperparameters")), violations);
    in.region = r.string(QStringLiteral("region"));
    in.jobDir = r.string(QStringLiteral("jobDir"));
    in.runtimeVersion = r.string(QStringLiteral("runtimeVersion"));
    in.pythonVersion = r.string(QStringLiteral("pythonVersion"));
    if (const auto s = r.object(QStringLiteral("scheduling")))
        in.scheduling = schedulingFromJson(*s, r.path(QStringLiteral("scheduling")), violations);
    in.network = r.string(QStringLiteral("network"));
    in.serviceAccount = r.string(QStringLiteral("serviceAccount"));
    in.useChiefInTfConfig = r.boolean(QStringLiteral("useChiefInTfConfig"));
    in.enableWebAccess = r.boolean(QStringLiteral("enableWebAccess"));
    if (const auto e = r.object(QStringLiteral("encryptionConfig")))
        in.encryptionConfig = *e;
    r.finish();
    return in;
}

Job fromJson(const QJsonObject& json, FieldViolations* violations)
{
    Reader r(json, QString(), violations);
    Job job;
    job.jobId = r.string(QStringLiteral("jobId"));
    job.createTime = r.timestamp(QStringLiteral("createTime"));
    job.startTime = r.timestamp(QStringLiteral("startTime"));
    job.endTime = r.timestamp(QStringLiteral("endTime"));
    job.state = r.state(QStringLiteral("state"));
    job.errorMessage = r.string(QStringLiteral("errorMessage"));
    job.labels = r.stringMap(QStringLiteral("labels"));
    job.etag = r.string(QStringLiteral("etag"));
    job.jobPosition = r.int64(QStringLiteral("jobPosition"));
    if (const auto in = r.object(QStringLiteral("trainingInput")))
        job.trainingInput = trainingInputFromJson(*in, r.path(QStringLiteral("trainingInput")), violations);
    if (const auto out = r.object(QStringLiteral("trainingOutput")))
        job.trainingOutput = trainingOutputFromJson(*out, r.path(QStringLiteral("trainingOutput")), violations);
    if (const auto in = r.object(QStringLiteral("predictionInput")))
        job.predictionInput = predictionInputFromJson(*in, r.path(QStringLiteral("predictionInput")), violations);
    if (const auto out = r.object(QStringLiteral("predictionOutput")))
        job.predictionOutput = predictionOutputFromJson(*out, r.path(QStringLiteral("predictionOutput")), violations);
    r.finish();
    return job;
}

} // namespace JobJson

std::optional<double> parseDurationSeconds(const QString& text)
{
    // proto3 JSON: seconds in [-315576000000, 315576000000], nanos with 0, 3, 6 or 9 digits; we
    // accept 1-9 fractional digits as protobuf's own parsers do.
    static const QRegularExpression re(QStringLiteral("^(-?)(\\d{1,12})(?:\\.(\\d{1,9}))?s$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const double seconds = m.captured(2).toDouble();
    if (seconds > 315576000000.0)
        return std::nullopt;
    const QString fraction = m.captured(3);
    const double value = seconds + (fraction.isEmpty() ? 0.0 : QString(QLatin1String("0.") + fraction).toDouble());
    return m.captured(1).isEmpty() ? value : -value;
}

std::optional<double> ProtoDuration::seconds() const
{
    return text.isEmpty() ? std::nullopt : parseDurationSeconds(text);
}

qint64 ProtoDuration::milliseconds() const
{
    const std::optional<double> s = seconds();
    return s && *s >= 0 ? qint64(*s * 1000.0) : -1;
}

QString jobStateName(JobState state)
{
    const auto index = static_cast<qsizetype>(state);
    return index >= 0 && index < stateNames().size() ? stateNames().at(index) : QString();
}

std::optional<JobState> jobStateFromName(QStringView name)
{
    const qsizetype index = stateNames().indexOf(name);
    if (index < 0)
        return std::nullopt;
    return static_cast<JobState>(index);
}

bool isFinal(JobState state)
{
    return state == JobState::Succeeded || state == JobState::Failed || state == JobState::Cancelled;
}

} // namespace Trainyard
