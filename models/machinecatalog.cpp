// SPDX-License-Identifier: GPL-2.0-or-later
#include "machinecatalog.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

#include <algorithm>
#include <cmath>

// Outside any namespace, as Q_INIT_RESOURCE requires. The resource is compiled into the static
// library trainyard_resources; calling the initialiser makes sure the linker keeps it.
static void initCatalogResource()
{
    Q_INIT_RESOURCE(trainyard_resources);
}

namespace Trainyard {

namespace {

Q_LOGGING_CATEGORY(lcModels, "trainyard.models")

// Every translatable text of resources/catalog/machines.json, for lupdate (which does not read JSON).
// tst_translations fails when the catalog has a text that is not listed here.
[[maybe_unused]] const char* const CatalogTexts[] = {
    QT_TRANSLATE_NOOP("Trainyard::MachineCatalog", "Cloud TPUs exist only in Google Cloud; a workstation has none."),
};

// Reads a catalog document; the first problem found is reported with its JSON path.
class CatalogReader {
public:
    QString error;

    bool ok() const { return error.isEmpty(); }

    void fail(const QString& path, const QString& what)
    {
        if (error.isEmpty())
            error = path + QStringLiteral(": ") + what;
    }

    QString string(const QJsonObject& o, const QString& path, const char* key, bool required)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull()) {
            if (required)
                fail(path + QLatin1Char('.') + QLatin1String(key), QStringLiteral("required string is missing"));
            return {};
        }
        if (!v.isString())
            fail(path + QLatin1Char('.') + QLatin1String(key), QStringLiteral("expected a string"));
        return v.toString();
    }

    double number(const QJsonObject& o, const QString& path, const char* key, double fallback)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return fallback;
        if (!v.isDouble() || v.toDouble() < 0) {
            fail(path + QLatin1Char('.') + QLatin1String(key), QStringLiteral("expected a number >= 0"));
            return fallback;
        }
        return v.toDouble();
    }

    int integer(const QJsonObject& o, const QString& path, const char* key, int fallback)
    {
        const double d = number(o, path, key, fallback);
        if (d != std::floor(d)) {
            fail(path + QLatin1Char('.') + QLatin1String(key), QStringLiteral("expected an integer"));
            return fallback;
        }
        return int(d);
    }

    AcceleratorConfig accelerator(const QJsonObject& o, const QString& path, const char* key)
    {
        AcceleratorConfig a;
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return a;
        if (!v.isObject()) {
            fail(path + QLatin1Char('.') + QLatin1String(key), QStringLiteral("expected an object"));
            return a;
        }
        const QString p = path + QLatin1Char('.') + QLatin1String(key);
        a.type = string(v.toObject(), p, "type", true);
        a.count = integer(v.toObject(), p, "count", 0);
        return a;
    }

    QJsonArray array(const QJsonObject& o, const char* key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isArray()) {
            fail(QLatin1String(key), QStringLiteral("expected an array"));
            return {};
        }
        return v.toArray();
    }
};

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber();
}

// `word` occurs in `text` with no letter or digit right before or after it.
bool containsWord(const QString& text, const QString& word)
{
    if (word.isEmpty())
        return false;
    qsizetype from = 0;
    while (true) {
        const qsizetype at = text.indexOf(word, from, Qt::CaseInsensitive);
        if (at < 0)
            return false;
        const qsizetype end = at + word.size();
        const bool startOk = at == 0 || !isWordChar(text.at(at - 1));
        const bool endOk = end == text.size() || !isWordChar(text.at(end));
        if (startOk && endOk)
            return true;
        from = at + 1;
    }
}

} // namespace

QString translatedCatalogText(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    return QCoreApplication::translate("Trainyard::MachineCatalog", utf8.constData());
}

const MachineCatalog& MachineCatalog::builtin()
{
    // A function-local static is initialised once, thread-safely (C++11 "magic statics").
    static const MachineCatalog catalog = [] {
        initCatalogResource();
        QFile file(QStringLiteral(":/catalog/machines.json"));
        if (!file.open(QIODevice::ReadOnly)) {
            qCCritical(lcModels, "The built-in machine catalog :/catalog/machines.json is missing");
            return MachineCatalog {};
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
        QString error;
        MachineCatalog c = fromJson(doc.object(), &error);
        if (parseError.error != QJsonParseError::NoError || !error.isEmpty())
            qCCritical(lcModels, "The built-in machine catalog is malformed: %s %s",
                qPrintable(parseError.errorString()), qPrintable(error));
        return c;
    }();
    return catalog;
}

MachineCatalog MachineCatalog::fromJson(const QJsonObject& json, QString* error)
{
    CatalogReader r;
    MachineCatalog c;

    if (json.contains(QLatin1String("hostPolicy"))) {
        const QJsonObject p = json.value(QLatin1String("hostPolicy")).toObject();
        const QString path = QStringLiteral("hostPolicy");
        c.m_hostPolicy.cpuOvercommit = r.number(p, path, "cpuOvercommit", c.m_hostPolicy.cpuOvercommit);
        c.m_hostPolicy.memoryOvercommit = r.number(p, path, "memoryOvercommit", c.m_hostPolicy.memoryOvercommit);
        c.m_hostPolicy.replicasPerCpu = r.integer(p, path, "replicasPerCpu", c.m_hostPolicy.replicasPerCpu);
        c.m_hostPolicy.minReplicaLimit = r.integer(p, path, "minReplicaLimit", c.m_hostPolicy.minReplicaLimit);
        const QString unknown = r.string(p, path, "unknownGpuType", false);
        if (!unknown.isEmpty())
            c.m_hostPolicy.unknownGpuType = unknown;
    }

    const QJsonArray accelerators = r.array(json, "acceleratorTypes");
    for (qsizetype i = 0; i < accelerators.size(); ++i) {
        const QString path = QStringLiteral("acceleratorTypes[%1]").arg(i);
        const QJsonObject o = accelerators.at(i).toObject();
        AcceleratorTypeInfo a;
        a.name = r.string(o, path, "name", true);
        a.displayName = r.string(o, path, "displayName", false);
        a.isTpu = o.value(QLatin1String("isTpu")).toBool();
        for (const QJsonValue& n : o.value(QLatin1String("nvmlNames")).toArray())
            a.nvmlNames.append(n.toString());
        if (c.acceleratorType(a.name))
            r.fail(path + QStringLiteral(".name"), QStringLiteral("duplicate accelerator type ") + a.name);
        c.m_acceleratorTypes.append(a);
    }

    const QJsonArray machines = r.array(json, "machineTypes");
    for (qsizetype i = 0; i < machines.size(); ++i) {
        const QString path = QStringLiteral("machineTypes[%1]").arg(i);
        const QJsonObject o = machines.at(i).toObject();
        MachineType m;
        m.name = r.string(o, path, "name", true);
        m.family = r.string(o, path, "family", true);
        m.vcpus = r.integer(o, path, "vcpus", 0);
        m.memory = Bytes::fromGb(r.number(o, path, "memoryGb", 0));
        const QJsonObject counts = o.value(QLatin1String("acceleratorCounts")).toObject();
        for (auto it = counts.constBegin(); it != counts.constEnd(); ++it) {
            if (!c.acceleratorType(it.key()))
                r.fail(path + QStringLiteral(".acceleratorCounts.") + it.key(),
                    QStringLiteral("unknown accelerator type"));
            QList<int> allowed;
            for (const QJsonValue& n : it->toArray()) {
                if (n.toInt() <= 0)
                    r.fail(
                        path + QStringLiteral(".acceleratorCounts.") + it.key(), QStringLiteral("counts must be > 0"));
                allowed.append(n.toInt());
            }
            std::sort(allowed.begin(), allowed.end());
            m.acceleratorCounts.insert(it.key(), allowed);
        }
        m.impliedAccelerator = r.accelerator(o, path, "impliedAccelerator");
        if (!m.impliedAccelerator.type.isEmpty() && !c.acceleratorType(m.impliedAccelerator.type))
            r.fail(path + QStringLiteral(".impliedAccelerator.type"), QStringLiteral("unknown accelerator type"));
        if (c.machineType(m.name))
            r.fail(path + QStringLiteral(".name"), QStringLiteral("duplicate machine type ") + m.name);
        c.m_machineTypes.append(m);
    }

    const QJsonArray tiers = r.array(json, "scaleTiers");
    for (qsizetype i = 0; i < tiers.size(); ++i) {
        const QString path = QStringLiteral("scaleTiers[%1]").arg(i);
        const QJsonObject o = tiers.at(i).toObject();
        ScaleTierInfo t;
        t.name = r.string(o, path, "name", true);
        t.description = r.string(o, path, "description", false);
        t.available = o.value(QLatin1String("available")).toBool(true);
        t.unavailableReason = r.string(o, path, "unavailableReason", !t.available);
        t.masterType = r.string(o, path, "masterType", false);
        t.workerCount = r.integer(o, path, "workerCount", 0);
        t.workerType = r.string(o, path, "workerType", t.workerCount > 0);
        t.parameterServerCount = r.integer(o, path, "parameterServerCount", 0);
        t.parameterServerType = r.string(o, path, "parameterServerType", t.parameterServerCount > 0);
        t.masterAccelerator = r.accelerator(o, path, "masterAccelerator");
        if (!t.masterAccelerator.count)
            t.masterAccelerator.count = 0;
        for (const QString& type : { t.masterType, t.workerType, t.parameterServerType }) {
            if (!type.isEmpty() && !c.machineType(type))
                r.fail(path, QStringLiteral("unknown machine type ") + type);
        }
        c.m_scaleTiers.append(t);
    }

    if (!r.ok()) {
        if (error)
            *error = r.error;
        return MachineCatalog {};
    }
    return c;
}

QJsonObject ScaleTierInfo::toJson() const
{
    QJsonObject o {
        { QStringLiteral("name"), name },
        { QStringLiteral("description"), description },
        { QStringLiteral("available"), available },
        { QStringLiteral("masterType"), masterType },
        { QStringLiteral("workerCount"), workerCount },
        { QStringLiteral("parameterServerCount"), parameterServerCount },
    };
    if (!unavailableReason.isEmpty())
        o.insert(QStringLiteral("unavailableReason"), unavailableReason);
    if (!workerType.isEmpty())
        o.insert(QStringLiteral("workerType"), workerType);
    if (!parameterServerType.isEmpty())
        o.insert(QStringLiteral("parameterServerType"), parameterServerType);
    if (masterAccelerator.count.value_or(0) > 0 && !masterAccelerator.type.isEmpty())
        o.insert(QStringLiteral("masterAcceleratorConfig"),
            QJsonObject { { QStringLiteral("count"), QString::number(*masterAccelerator.count) },
                { QStringLiteral("type"), masterAccelerator.type } });
    return o;
}

ScaleTierInfo ScaleTierInfo::fromJson(const QJsonObject& o)
{
    ScaleTierInfo t;
    t.name = o.value(QLatin1String("name")).toString();
    t.description = o.value(QLatin1String("description")).toString();
    t.available = o.value(QLatin1String("available")).toBool(true);
    t.unavailableReason = o.value(QLatin1String("unavailableReason")).toString();
    t.masterType = o.value(QLatin1String("masterType")).toString();
    t.workerCount = o.value(QLatin1String("workerCount")).toInt();
    t.workerType = o.value(QLatin1String("workerType")).toString();
    t.parameterServerCount = o.value(QLatin1String("parameterServerCount")).toInt();
    t.parameterServerType = o.value(QLatin1String("parameterServerType")).toString();
    const QJsonObject accelerator = o.value(QLatin1String("masterAcceleratorConfig")).toObject();
    const QJsonValue count = accelerator.value(QLatin1String("count"));
    // int64 as a string, as the service writes it; a plain number is read too
    t.masterAccelerator.count = count.isString() ? count.toString().toLongLong() : qint64(count.toDouble());
    t.masterAccelerator.type = accelerator.value(QLatin1String("type")).toString();
    return t;
}

const ScaleTierInfo* MachineCatalog::scaleTier(const QString& name) const
{
    const auto it
        = std::find_if(m_scaleTiers.cbegin(), m_scaleTiers.cend(), [&](const auto& t) { return t.name == name; });
    return it == m_scaleTiers.cend() ? nullptr : &*it;
}

const MachineType* MachineCatalog::machineType(const QString& name) const
{
    const auto it
        = std::find_if(m_machineTypes.cbegin(), m_machineTypes.cend(), [&](const auto& t) { return t.name == name; });
    return it == m_machineTypes.cend() ? nullptr : &*it;
}

const AcceleratorTypeInfo* MachineCatalog::acceleratorType(const QString& name) const
{
    const auto it = std::find_if(
        m_acceleratorTypes.cbegin(), m_acceleratorTypes.cend(), [&](const auto& t) { return t.name == name; });
    return it == m_acceleratorTypes.cend() ? nullptr : &*it;
}

QString MachineCatalog::acceleratorTypeForGpuName(const QString& nvmlName) const
{
    QString best;
    qsizetype bestLength = 0;
    for (const AcceleratorTypeInfo& type : m_acceleratorTypes) {
        if (type.isTpu)
            continue;
        for (const QString& word : type.nvmlNames) {
            if (word.size() > bestLength && containsWord(nvmlName, word)) {
                best = type.name;
                bestLength = word.size();
            }
        }
    }
    return best.isEmpty() ? m_hostPolicy.unknownGpuType : best;
}

bool MachineCatalog::gpuSatisfies(const GpuInfo& gpu, const QString& requestedType) const
{
    const AcceleratorTypeInfo* requested = acceleratorType(requestedType);
    if (!requested || requested->isTpu)
        return false;
    if (gpu.acceleratorType == requestedType)
        return true;
    return requestedType == m_hostPolicy.unknownGpuType || gpu.acceleratorType == m_hostPolicy.unknownGpuType
        || gpu.acceleratorType.isEmpty();
}

int MachineCatalog::hostGpusFor(const HostInventory& host, const QString& requestedType) const
{
    return int(std::count_if(
        host.gpus.cbegin(), host.gpus.cend(), [&](const GpuInfo& g) { return gpuSatisfies(g, requestedType); }));
}

HostCapacity MachineCatalog::capacity(const HostInventory& host) const
{
    HostCapacity c;
    c.vcpus = host.cpus * m_hostPolicy.cpuOvercommit;
    c.memory = Bytes::fromGb(Bytes::fromBytes(host.memoryBytes).gb() * m_hostPolicy.memoryOvercommit);
    c.replicas = std::max(m_hostPolicy.minReplicaLimit, host.cpus * m_hostPolicy.replicasPerCpu);
    c.gpus = int(host.gpus.size());
    return c;
}

int ClusterPlan::totalReplicas() const
{
    int n = 0;
    for (const RolePlan& r : roles)
        n += r.count;
    return n;
}

int ClusterPlan::totalVcpus() const
{
    int n = 0;
    for (const RolePlan& r : roles)
        n += r.count * r.vcpus;
    return n;
}

Bytes ClusterPlan::totalMemory() const
{
    Bytes n;
    for (const RolePlan& r : roles)
        n += r.memory * r.count;
    return n;
}

int ClusterPlan::totalGpus() const
{
    int n = 0;
    for (const RolePlan& r : roles)
        n += r.count * r.acceleratorCount;
    return n;
}

namespace {

RolePlan makeRole(const QString& role, const QString& prefix, qint64 count, const QString& machineType,
    const std::optional<ReplicaConfig>& config, const MachineCatalog& catalog)
{
    RolePlan r;
    r.role = role;
    r.taskPrefix = prefix;
    r.count = int(std::clamp<qint64>(count, 0, 1 << 20));
    r.machineType = machineType;
    if (const MachineType* m = catalog.machineType(machineType)) {
        r.vcpus = m->vcpus;
        r.memory = m->memory;
        if (m->impliedAccelerator.count.value_or(0) > 0) {
            r.acceleratorType = m->impliedAccelerator.type;
            r.acceleratorCount = int(*m->impliedAccelerator.count);
        }
    }
    if (config && config->acceleratorConfig && config->acceleratorConfig->count.value_or(0) > 0) {
        r.acceleratorType = config->acceleratorConfig->type;
        r.acceleratorCount = int(std::clamp<qint64>(*config->acceleratorConfig->count, 0, 1 << 20));
    }
    return r;
}

} // namespace

ClusterPlan planCluster(const TrainingInput& input, const MachineCatalog& catalog)
{
    ClusterPlan plan;
    const QString tierName = input.scaleTier.isEmpty() ? QStringLiteral("BASIC") : input.scaleTier;
    const QString master = QStringLiteral("master");
    const QString masterPrefix = QStringLiteral("master-replica");
    if (tierName != QLatin1String("CUSTOM")) {
        const ScaleTierInfo* tier = catalog.scaleTier(tierName);
        if (!tier)
            return plan;
        std::optional<ReplicaConfig> masterConfig;
        if (tier->masterAccelerator.count.value_or(0) > 0)
            masterConfig = ReplicaConfig { tier->masterAccelerator, {}, {}, {}, {}, {} };
        plan.roles.append(makeRole(master, masterPrefix, 1, tier->masterType, masterConfig, catalog));
        if (tier->workerCount > 0)
            plan.roles.append(makeRole(QStringLiteral("worker"), QStringLiteral("worker-replica"), tier->workerCount,
                tier->workerType, std::nullopt, catalog));
        if (tier->parameterServerCount > 0)
            plan.roles.append(makeRole(QStringLiteral("ps"), QStringLiteral("ps-replica"), tier->parameterServerCount,
                tier->parameterServerType, std::nullopt, catalog));
        return plan;
    }
    plan.roles.append(makeRole(master, masterPrefix, 1, input.masterType, input.masterConfig, catalog));
    if (input.workerCount.value_or(0) > 0)
        plan.roles.append(makeRole(QStringLiteral("worker"), QStringLiteral("worker-replica"), *input.workerCount,
            input.workerType, input.workerConfig, catalog));
    if (input.parameterServerCount.value_or(0) > 0)
        plan.roles.append(makeRole(QStringLiteral("ps"), QStringLiteral("ps-replica"), *input.parameterServerCount,
            input.parameterServerType, input.parameterServerConfig, catalog));
    if (input.evaluatorCount.value_or(0) > 0)
        plan.roles.append(makeRole(QStringLiteral("evaluator"), QStringLiteral("evaluator-replica"),
            *input.evaluatorCount, input.evaluatorType, input.evaluatorConfig, catalog));
    return plan;
}

} // namespace Trainyard
