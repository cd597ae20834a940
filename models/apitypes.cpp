// SPDX-License-Identifier: GPL-2.0-or-later
#include "apitypes.h"

#include "apijson_p.h"
#include "checkpointindex.h"
#include "jsonnumber.h"
#include "rfc3339.h"
#include "rpcstatus.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QTimeZone>

#include <QUrl>
#include <algorithm>

namespace Trainyard {

Q_LOGGING_CATEGORY(lcApiClient, "trainyard.models")

namespace ApiJson {

double doubleField(const QJsonValue& v)
{
    return jsonToDouble(v).value_or(0);
}

qint64 int64Field(const QJsonValue& v)
{
    if (v.isString())
        return v.toString().toLongLong();
    return static_cast<qint64>(v.toDouble());
}

QList<int> intList(const QJsonValue& v)
{
    QList<int> out;
    const QJsonArray array = v.toArray();
    for (const QJsonValue& item : array)
        out.append(static_cast<int>(int64Field(item)));
    return out;
}

GpuInfo gpuFromJson(const QJsonObject& o)
{
    GpuInfo g;
    g.index = static_cast<int>(int64Field(o.value(QLatin1String("index"))));
    g.uuid = o.value(QLatin1String("uuid")).toString();
    g.name = o.value(QLatin1String("name")).toString();
    g.acceleratorType = o.value(QLatin1String("acceleratorType")).toString();
    g.memoryBytes = int64Field(o.value(QLatin1String("memoryBytes")));
    return g;
}

QList<GpuInfo> gpuList(const QJsonValue& v)
{
    QList<GpuInfo> out;
    const QJsonArray array = v.toArray();
    for (const QJsonValue& item : array)
        out.append(gpuFromJson(item.toObject()));
    return out;
}

std::optional<QJsonObject> parseObject(const QByteArray& body, ApiError* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        error->status = Rpc::name(RpcCode::Internal);
        error->message = QStringLiteral("The executor answered with malformed JSON: ") + parseError.errorString();
        return std::nullopt;
    }
    return doc.object();
}

Job decodeJob(const QJsonObject& json, ApiError* error)
{
    FieldViolations violations;
    Job job = JobJson::fromJson(json, &violations);
    if (!violations.isEmpty()) {
        error->status = Rpc::name(RpcCode::Internal);
        error->message = QStringLiteral("The executor sent a Job this client cannot read: ") + violations.first().field
            + QStringLiteral(": ") + violations.first().description;
        error->violations = violations;
        return {};
    }
    return job;
}

QList<ReplicaInfo> replicaList(const QJsonArray& array)
{
    QList<ReplicaInfo> out;
    out.reserve(array.size());
    for (qsizetype i = 0; i < array.size(); ++i) {
        FieldViolations violations;
        out.append(ReplicaInfo::fromJson(array.at(i).toObject(), &violations));
        for (const FieldViolation& v : std::as_const(violations))
            qCWarning(lcApiClient).noquote() << QStringLiteral("replicas[%1].%2:").arg(i).arg(v.field) << v.description;
    }
    return out;
}

std::optional<qint64> optionalInt64(const QJsonObject& o, QLatin1String key)
{
    if (!o.contains(key))
        return std::nullopt;
    return int64Field(o.value(key));
}

QStringList stringList(const QJsonValue& v)
{
    QStringList out;
    const QJsonArray array = v.toArray();
    for (const QJsonValue& item : array)
        out.append(item.toString());
    return out;
}

} // namespace ApiJson

namespace {
// google.rpc.Code names for HTTP answers without Google's error body (a proxy, a crashed handler).
QString statusForHttp(int http)
{
    return Rpc::name(Rpc::forHttpStatus(http));
}
} // namespace

QString ApiError::summary() const
{
    return status.isEmpty() ? message : status + QStringLiteral(": ") + message;
}

ApiError ApiError::fromBody(int httpStatus, const QByteArray& body, const QString& fallbackMessage)
{
    ApiError e;
    e.httpStatus = httpStatus;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    const QJsonObject error = doc.object().value(QLatin1String("error")).toObject();
    if (!error.isEmpty()) {
        e.status = error.value(QLatin1String("status")).toString();
        e.message = error.value(QLatin1String("message")).toString();
        const QJsonArray details = error.value(QLatin1String("details")).toArray();
        for (const QJsonValue& d : details) {
            const QJsonArray fv = d.toObject().value(QLatin1String("fieldViolations")).toArray();
            for (const QJsonValue& v : fv) {
                const QJsonObject o = v.toObject();
                e.violations.append(
                    { o.value(QLatin1String("field")).toString(), o.value(QLatin1String("description")).toString() });
            }
        }
    }
    if (e.status.isEmpty())
        e.status = statusForHttp(httpStatus);
    if (e.message.isEmpty())
        e.message = fallbackMessage.isEmpty() ? QString::fromUtf8(body.left(500)).trimmed() : fallbackMessage;
    return e;
}

ReplicaInfo ReplicaInfo::fromJson(const QJsonObject& o, FieldViolations* violations)
{
    ReplicaInfo r;
    r.taskName = o.value(QLatin1String("taskName")).toString();
    r.role = o.value(QLatin1String("role")).toString();
    r.index = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("index"))));
    const QString state = o.value(QLatin1String("state")).toString();
    r.state = replicaStateFromName(state).value_or(ReplicaState::Unspecified);
    if (violations && !replicaStateFromName(state))
        violations->append(
            { QStringLiteral("state"), QStringLiteral("Unknown replica state \"") + state + QStringLiteral("\".") });
    r.pid = ApiJson::int64Field(o.value(QLatin1String("pid")));
    r.address = o.value(QLatin1String("address")).toString();
    r.node = o.value(QLatin1String("node")).toString();
    r.gpus = ApiJson::intList(o.value(QLatin1String("gpus")));
    r.restarts = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("restarts"))));
    if (o.contains(QLatin1String("exitCode")))
        r.exitCode = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("exitCode"))));
    if (o.contains(QLatin1String("exitSignal")))
        r.exitSignal = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("exitSignal"))));
    r.machineType = o.value(QLatin1String("machineType")).toString();
    r.trialId = o.value(QLatin1String("trialId")).toString();
    if (o.contains(QLatin1String("startTime")))
        r.startTime = Rfc3339::parse(o.value(QLatin1String("startTime")).toString());
    return r;
}

QString replicaStateName(ReplicaState state)
{
    switch (state) {
    case ReplicaState::Unspecified:
        return QStringLiteral("STATE_UNSPECIFIED");
    case ReplicaState::Pending:
        return QStringLiteral("PENDING");
    case ReplicaState::Starting:
        return QStringLiteral("STARTING");
    case ReplicaState::Running:
        return QStringLiteral("RUNNING");
    case ReplicaState::Restarting:
        return QStringLiteral("RESTARTING");
    case ReplicaState::Succeeded:
        return QStringLiteral("SUCCEEDED");
    case ReplicaState::Failed:
        return QStringLiteral("FAILED");
    case ReplicaState::Stopped:
        return QStringLiteral("STOPPED");
    }
    return QString();
}

std::optional<ReplicaState> replicaStateFromName(QStringView name)
{
    for (auto state : { ReplicaState::Unspecified, ReplicaState::Pending, ReplicaState::Starting, ReplicaState::Running,
             ReplicaState::Restarting, ReplicaState::Succeeded, ReplicaState::Failed, ReplicaState::Stopped }) {
        if (name == replicaStateName(state))
            return state;
    }
    return std::nullopt;
}

QJsonObject ReplicaInfo::toJson() const
{
    QJsonArray gpuArray;
    for (int g : gpus)
        gpuArray.append(g);
    QJsonObject o {
        { QStringLiteral("taskName"), taskName },
        { QStringLiteral("role"), role },
        { QStringLiteral("index"), index },
        { QStringLiteral("state"), replicaStateName(state) },
        { QStringLiteral("address"), address },
        { QStringLiteral("gpus"), gpuArray },
        { QStringLiteral("restarts"), restarts },
        { QStringLiteral("machineType"), machineType },
        { QStringLiteral("trialId"), trialId },
    };
    if (pid > 0)
        o.insert(QStringLiteral("pid"), QString::number(pid));
    if (!node.isEmpty())
        o.insert(QStringLiteral("node"), node);
    if (exitCode)
        o.insert(QStringLiteral("exitCode"), *exitCode);
    if (exitSignal)
        o.insert(QStringLiteral("exitSignal"), *exitSignal);
    if (startTime.isValid())
        o.insert(QStringLiteral("startTime"), startTime.toUTC().toString(Qt::ISODateWithMs));
    return o;
}

bool Location::can(const QString& type) const
{
    return std::any_of(capabilities.cbegin(), capabilities.cend(), [&](const Capability& c) { return c.type == type; });
}

Location Location::fromJson(const QJsonObject& json)
{
    Location l;
    l.name = json.value(QLatin1String("name")).toString();
    for (const QJsonValue& v : json.value(QLatin1String("capabilities")).toArray()) {
        const QJsonObject c = v.toObject();
        Capability capability;
        capability.type = c.value(QLatin1String("type")).toString();
        for (const QJsonValue& a : c.value(QLatin1String("availableAccelerators")).toArray())
            capability.availableAccelerators << a.toString();
        l.capabilities << capability;
    }
    return l;
}

HostStatus HostStatus::fromJson(const QJsonObject& o)
{
    HostStatus h;
    h.cpus = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("cpus"))));
    h.memory = Bytes::fromBytes(ApiJson::int64Field(o.value(QLatin1String("memoryBytes"))));
    h.gpus = ApiJson::gpuList(o.value(QLatin1String("gpus")));
    h.vcpusInUse = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("vcpusInUse"))));
    h.memoryInUse = Bytes::fromGb(o.value(QLatin1String("memoryGbInUse")).toDouble());
    h.gpusInUse = ApiJson::intList(o.value(QLatin1String("gpusInUse")));
    h.runningJobs = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("runningJobs"))));
    h.queuedJobs = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("queuedJobs"))));
    h.predictionNodes = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("predictionNodes"))));
    for (const QJsonValue& root : o.value(QLatin1String("jobDirRoots")).toArray())
        h.jobDirRoots << root.toString();
    return h;
}

QJsonObject HostStatus::toJson() const
{
    QJsonArray gpuArray;
    for (const GpuInfo& g : gpus)
        gpuArray.append(QJsonObject {
            { QStringLiteral("index"), g.index },
            { QStringLiteral("uuid"), g.uuid },
            { QStringLiteral("name"), g.name },
            { QStringLiteral("acceleratorType"), g.acceleratorType },
            { QStringLiteral("memoryBytes"), QString::number(g.memoryBytes) },
        });
    QJsonArray inUse;
    for (int g : gpusInUse)
        inUse.append(g);
    QJsonObject json {
        { QStringLiteral("cpus"), cpus },
        { QStringLiteral("memoryBytes"), QString::number(memory.bytes()) },
        { QStringLiteral("gpus"), gpuArray },
        { QStringLiteral("vcpusInUse"), vcpusInUse },
        { QStringLiteral("memoryGbInUse"), memoryInUse.gb() },
        { QStringLiteral("gpusInUse"), inUse },
        { QStringLiteral("runningJobs"), runningJobs },
        { QStringLiteral("queuedJobs"), queuedJobs },
        { QStringLiteral("predictionNodes"), predictionNodes },
    };
    if (!jobDirRoots.isEmpty())
        json.insert(QStringLiteral("jobDirRoots"), QJsonArray::fromStringList(jobDirRoots));
    return json;
}

CheckpointSummary CheckpointSummary::fromJson(const QJsonObject& o)
{
    CheckpointSummary c;
    c.name = o.value(QLatin1String("name")).toString();
    c.format = o.value(QLatin1String("format")).toString();
    c.step = ApiJson::optionalInt64(o, QLatin1String("step"));
    c.epoch = ApiJson::optionalInt64(o, QLatin1String("epoch"));
    c.updateTimeMs = Rfc3339::parseUs(o.value(QLatin1String("updateTime")).toString()).value_or(0) / 1000;
    c.sizeBytes = ApiJson::int64Field(o.value(QLatin1String("sizeBytes")));
    c.current = o.value(QLatin1String("current")).toBool();
    c.trialId = o.value(QLatin1String("trialId")).toString();
    c.exportedModel = o.value(QLatin1String("exportedModel")).toBool();
    c.files = ApiJson::stringList(o.value(QLatin1String("files")));
    return c;
}

CheckpointSummary CheckpointSummary::fromEntry(const CheckpointEntry& e)
{
    CheckpointSummary c;
    c.name = e.name;
    c.format = e.format;
    c.step = e.step;
    c.epoch = e.epoch;
    c.updateTimeMs = e.updateTime.isValid() ? e.updateTime.toMSecsSinceEpoch() : 0;
    c.sizeBytes = e.sizeBytes;
    c.current = e.current;
    c.trialId = e.trialId;
    c.exportedModel = e.exportedModel;
    c.files = e.files;
    return c;
}

QJsonObject CheckpointSummary::toJson() const
{
    QJsonObject o {
        { QStringLiteral("name"), name },
        { QStringLiteral("format"), format },
        { QStringLiteral("updateTime"),
            Rfc3339::format(QDateTime::fromMSecsSinceEpoch(updateTimeMs, QTimeZone::utc())) },
        { QStringLiteral("sizeBytes"), QString::number(sizeBytes) },
        { QStringLiteral("files"), QJsonArray::fromStringList(files) },
    };
    if (step)
        o.insert(QStringLiteral("step"), QString::number(*step));
    if (epoch)
        o.insert(QStringLiteral("epoch"), QString::number(*epoch));
    if (current)
        o.insert(QStringLiteral("current"), true);
    if (!trialId.isEmpty())
        o.insert(QStringLiteral("trialId"), trialId);
    if (exportedModel)
        o.insert(QStringLiteral("exportedModel"), true);
    return o;
}

CheckpointList CheckpointList::fromJson(const QJsonObject& o)
{
    CheckpointList list;
    list.jobDir = o.value(QLatin1String("jobDir")).toString();
    list.truncated = o.value(QLatin1String("truncated")).toBool();
    const QJsonArray array = o.value(QLatin1String("checkpoints")).toArray();
    list.checkpoints.reserve(array.size());
    for (const QJsonValue& c : array)
        list.checkpoints.append(CheckpointSummary::fromJson(c.toObject()));
    return list;
}

QJsonObject CheckpointList::toJson() const
{
    QJsonArray array;
    for (const CheckpointSummary& c : checkpoints)
        array.append(c.toJson());
    QJsonObject o { { QStringLiteral("checkpoints"), array } };
    if (!jobDir.isEmpty())
        o.insert(QStringLiteral("jobDir"), jobDir);
    if (truncated)
        o.insert(QStringLiteral("truncated"), true);
    return o;
}

QJsonObject CheckpointTensor::toJson() const
{
    QJsonArray dims;
    for (qint64 d : shape)
        dims.append(QString::number(d));
    QJsonObject o {
        { QStringLiteral("name"), name },
        { QStringLiteral("displayName"), displayName },
        { QStringLiteral("dtype"), dtype },
        { QStringLiteral("shape"), dims },
        { QStringLiteral("shard"), shard },
        { QStringLiteral("file"), file },
    };
    if (!elementType.isEmpty())
        o.insert(QStringLiteral("elementType"), elementType);
    if (sizeBytes >= 0)
        o.insert(QStringLiteral("sizeBytes"), QString::number(sizeBytes));
    if (metadata)
        o.insert(QStringLiteral("metadata"), true);
    return o;
}

CheckpointDetail CheckpointDetail::fromJson(const QJsonObject& o)
{
    CheckpointDetail d;
    d.name = o.value(QLatin1String("name")).toString();
    d.format = o.value(QLatin1String("format")).toString();
    d.totalBytes = ApiJson::int64Field(o.value(QLatin1String("totalBytes")));
    d.files = ApiJson::stringList(o.value(QLatin1String("files")));
    const QJsonArray tensors = o.value(QLatin1String("tensors")).toArray();
    d.tensors.reserve(tensors.size());
    for (const QJsonValue& t : tensors)
        d.tensors.append(CheckpointTensor::fromJson(t.toObject()));
    d.scalars = o.value(QLatin1String("scalars")).toObject();
    d.metadata = o.value(QLatin1String("metadata")).toObject();
    return d;
}

QJsonObject CheckpointDetail::toJson() const
{
    QJsonArray list;
    for (const CheckpointTensor& t : tensors)
        list.append(t.toJson());
    QJsonObject o {
        { QStringLiteral("name"), name },
        { QStringLiteral("format"), format },
        { QStringLiteral("totalBytes"), QString::number(totalBytes) },
        { QStringLiteral("files"), QJsonArray::fromStringList(files) },
        { QStringLiteral("tensors"), list },
    };
    if (!scalars.isEmpty())
        o.insert(QStringLiteral("scalars"), scalars);
    if (!metadata.isEmpty())
        o.insert(QStringLiteral("metadata"), metadata);
    return o;
}

TensorValues TensorValues::fromJson(const QJsonObject& o)
{
    TensorValues v;
    v.checkpoint = o.value(QLatin1String("name")).toString();
    v.tensor = CheckpointTensor::fromJson(o.value(QLatin1String("tensor")).toObject());
    const QJsonObject s = o.value(QLatin1String("statistics")).toObject();
    v.count = ApiJson::int64Field(s.value(QLatin1String("count")));
    v.nanCount = ApiJson::int64Field(s.value(QLatin1String("nanCount")));
    v.infCount = ApiJson::int64Field(s.value(QLatin1String("infCount")));
    v.min = ApiJson::doubleField(s.value(QLatin1String("min")));
    v.max = ApiJson::doubleField(s.value(QLatin1String("max")));
    v.mean = ApiJson::doubleField(s.value(QLatin1String("mean")));
    v.std = ApiJson::doubleField(s.value(QLatin1String("std")));
    const QJsonArray values = s.value(QLatin1String("values")).toArray();
    v.values.reserve(values.size());
    for (const QJsonValue& x : values)
        v.values.append(ApiJson::doubleField(x));
    return v;
}

QJsonObject TensorValues::toJson() const
{
    QJsonArray first;
    for (double x : values)
        first.append(doubleToJson(x));
    const QJsonObject statistics {
        { QStringLiteral("count"), QString::number(count) },
        { QStringLiteral("min"), min },
        { QStringLiteral("max"), max },
        { QStringLiteral("mean"), mean },
        { QStringLiteral("std"), std },
        { QStringLiteral("nanCount"), QString::number(nanCount) },
        { QStringLiteral("infCount"), QString::number(infCount) },
        { QStringLiteral("values"), first },
    };
    return QJsonObject {
        { QStringLiteral("name"), checkpoint },
        { QStringLiteral("tensor"), tensor.toJson() },
        { QStringLiteral("statistics"), statistics },
    };
}

CheckpointTensor CheckpointTensor::fromJson(const QJsonObject& o)
{
    CheckpointTensor t;
    t.name = o.value(QLatin1String("name")).toString();
    t.displayName = o.value(QLatin1String("displayName")).toString();
    t.dtype = o.value(QLatin1String("dtype")).toString();
    t.elementType = o.value(QLatin1String("elementType")).toString();
    const QJsonArray shape = o.value(QLatin1String("shape")).toArray();
    for (const QJsonValue& d : shape)
        t.shape.append(ApiJson::int64Field(d));
    t.sizeBytes
        = o.contains(QLatin1String("sizeBytes")) ? ApiJson::int64Field(o.value(QLatin1String("sizeBytes"))) : -1;
    t.shard = static_cast<int>(ApiJson::int64Field(o.value(QLatin1String("shard"))));
    t.file = o.value(QLatin1String("file")).toString();
    t.metadata = o.value(QLatin1String("metadata")).toBool();
    return t;
}

SeriesInfo SeriesInfo::fromJson(const QJsonObject& o)
{
    SeriesInfo s;
    s.name = o.value(QLatin1String("name")).toString();
    s.kind = o.value(QLatin1String("kind")).toString();
    s.run = o.value(QLatin1String("run")).toString();
    s.tag = o.value(QLatin1String("tag")).toString();
    s.taskName = o.value(QLatin1String("taskName")).toString();
    s.trialId = o.value(QLatin1String("trialId")).toString();
    s.pointCount = ApiJson::int64Field(o.value(QLatin1String("points")));
    s.lastSeq = ApiJson::int64Field(o.value(QLatin1String("lastSeq")));
    return s;
}

QJsonObject SeriesInfo::toJson() const
{
    QJsonObject o {
        { QStringLiteral("name"), name },
        { QStringLiteral("kind"), kind },
        { QStringLiteral("tag"), tag },
        { QStringLiteral("points"), QString::number(pointCount) },
        { QStringLiteral("lastSeq"), QString::number(lastSeq) },
    };
    if (!run.isEmpty())
        o.insert(QStringLiteral("run"), run);
    if (!taskName.isEmpty())
        o.insert(QStringLiteral("taskName"), taskName);
    if (!trialId.isEmpty())
        o.insert(QStringLiteral("trialId"), trialId);
    return o;
}

SeriesPoint SeriesPoint::fromJson(const QJsonObject& o)
{
    return { ApiJson::int64Field(o.value(QLatin1String("step"))),
        ApiJson::doubleField(o.value(QLatin1String("wallTime"))),
        ApiJson::doubleField(o.value(QLatin1String("value"))) };
}

HyperparameterImportance HyperparameterImportance::fromJson(const QJsonObject& o)
{
    HyperparameterImportance h;
    h.method = o.value(QLatin1String("method")).toString();
    h.trials = o.value(QLatin1String("trials")).toInt();
    for (const QJsonValue& v : o.value(QLatin1String("importances")).toArray()) {
        const QJsonObject p = v.toObject();
        h.importances.append(
            { p.value(QLatin1String("parameterName")).toString(), p.value(QLatin1String("importance")).toDouble() });
    }
    return h;
}

QString TrainedModel::columnName(int index) const
{
    //: A CSV column by its 1-based position (the target is column 1).
    QString name = QCoreApplication::translate("Trainyard::TrainedModel", "column %1").arg(index + 1);
    const QList<InputSchema::Column>& columns = inputSchema.columns;
    const auto it = std::find_if(
        columns.cbegin(), columns.cend(), [&](const InputSchema::Column& c) { return c.column == index + 1; });
    if (it == columns.cend())
        return name;
    if (it->type == QLatin1String("categorical") && !it->vocabulary.isEmpty()) {
        QString values = it->vocabulary.mid(0, 5).join(QStringLiteral(", "));
        if (it->vocabulary.size() > 5)
            values += QStringLiteral(", …");
        return QCoreApplication::translate("Trainyard::TrainedModel", "%1 · categorical (%2)").arg(name, values);
    }
    if (it->type == QLatin1String("categorical"))
        return QCoreApplication::translate("Trainyard::TrainedModel", "%1 · categorical").arg(name);
    if (it->type == QLatin1String("numeric"))
        return QCoreApplication::translate("Trainyard::TrainedModel", "%1 · numeric").arg(name);
    return name;
}

TrainedModel TrainedModel::fromJson(const QJsonObject& o)
{
    TrainedModel m;
    m.modelPath = o.value(QLatin1String("modelPath")).toString();
    m.framework = o.value(QLatin1String("framework")).toString();
    const QJsonObject evaluation = o.value(QLatin1String("evaluation")).toObject();
    m.split = evaluation.value(QLatin1String("split")).toString();
    m.task = evaluation.value(QLatin1String("task")).toString();
    m.rows = evaluation.value(QLatin1String("rows")).toInteger();
    const QJsonObject metrics = evaluation.value(QLatin1String("metrics")).toObject();
    for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
        if (it.value().isDouble())
            m.metrics.append({ it.key(), it.value().toDouble() });
    }
    const QJsonObject matrix = evaluation.value(QLatin1String("confusion_matrix")).toObject();
    for (const QJsonValue& label : matrix.value(QLatin1String("labels")).toArray())
        m.classLabels << (label.isString() ? label.toString() : QString::number(label.toDouble()));
    const qsizetype k = m.classLabels.size();
    for (const QJsonValue& row : matrix.value(QLatin1String("counts")).toArray()) {
        QList<qint64> counts;
        for (const QJsonValue& c : row.toArray())
            counts << c.toInteger();
        // A square matrix over the labels, or none: a view indexes it by both.
        if (counts.size() != k)
            break;
        m.confusion << counts;
    }
    if (m.confusion.size() != k)
        m.confusion.clear();
    for (const QJsonValue& point : evaluation.value(QLatin1String("predicted_vs_actual")).toArray()) {
        const QJsonArray pair = point.toArray();
        if (pair.size() == 2 && pair.at(0).isDouble() && pair.at(1).isDouble())
            m.actualPredicted.append({ pair.at(0).toDouble(), pair.at(1).toDouble() });
    }
    const QJsonObject importance = o.value(QLatin1String("featureImportance")).toObject();
    for (const QJsonValue& c : importance.value(QLatin1String("columns")).toArray()) {
        const QJsonObject column = c.toObject();
        m.importance.append({ column.value(QLatin1String("column")).toInt(),
            column.value(QLatin1String("total_gain")).toDouble(), column.value(QLatin1String("splits")).toInteger(),
            column.value(QLatin1String("mean_abs_attribution")).toDouble(-1) });
    }
    m.attributionMethod = importance.value(QLatin1String("attribution_method")).toString();
    m.inputSchema = InputSchema::fromJson(o.value(QLatin1String("inputSchema")).toObject());
    for (const QJsonValue& f : o.value(QLatin1String("files")).toArray()) {
        const QJsonObject file = f.toObject();
        m.files.append({ file.value(QLatin1String("name")).toString(),
            file.value(QLatin1String("sizeBytes")).toString().toLongLong() });
    }
    return m;
}

} // namespace Trainyard
