// SPDX-License-Identifier: GPL-2.0-or-later
// validateJob(), jobIdProblems(), labelViolations(): the create-time rules of ARCHITECTURE.md
// "A job's life" step 1. Sources of the service's rules:
// - REST v1 projects.jobs (Job.jobId, Job.labels, TrainingInput, HyperparameterSpec, ParameterSpec,
//   Scheduling): https://cloud.google.com/ai-platform/training/docs/reference/rest/v1/projects.jobs
// - "Specifying machine types or scale tiers" and "Using GPUs" (machine types, families, accelerators)
// - "Hyperparameter tuning overview" (parameter types, scale types, GRID_SEARCH limits)
// - Resource Manager label rules (keys/values ≤ 63 chars of [a-z0-9_-], keys start with a letter, ≤ 64 labels).
// The host rules (GPUs present, capacity) are Trainyard's; see resources/catalog/README.md.
#include "machinecatalog.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {

const QString Custom = QStringLiteral("CUSTOM");

QString plural(qint64 n, const char* one, const char* many)
{
    return QString::number(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

QString number(double d)
{
    return QString::number(d, 'g', 10);
}

bool isComputeEngine(const MachineType* m)
{
    return m && m->family != QLatin1String("legacy") && m->family != QLatin1String("tpu");
}

// One replica role as the job spells it, with the JSON field names that name its parts.
struct RoleFields {
    const char* typeField;
    const char* configField;
    const char* countField; ///< nullptr for the master (always one)
    const char* planRole; ///< RolePlan::role
    QString type;
    const std::optional<ReplicaConfig>* config;
    std::optional<qint64> count;
};

class Validator {
public:
    Validator(const Job& job, const MachineCatalog& catalog, const HostInventory& host)
        : m_job(job)
        , m_in(job.trainingInput)
        , m_catalog(catalog)
        , m_host(host)
    {
    }

    FieldViolations run()
    {
        for (const QString& p : jobIdProblems(m_job.jobId))
            add(QStringLiteral("jobId"), p);
        m_violations.append(labelViolations(m_job.labels));
        checkProgram();
        const bool clusterOk = checkCluster();
        if (clusterOk)
            checkHost();
        if (m_in.hyperparameters)
            checkHyperparameters(*m_in.hyperparameters);
        if (m_in.scheduling)
            checkScheduling(*m_in.scheduling);
        checkVersions();
        return m_violations;
    }

private:
    void add(const QString& field, const QString& description) { m_violations.append({ field, description }); }
    static QString in(const char* field) { return QStringLiteral("trainingInput.") + QLatin1String(field); }

    void checkProgram()
    {
        bool container = false;
        for (const auto* config :
            { &m_in.masterConfig, &m_in.workerConfig, &m_in.parameterServerConfig, &m_in.evaluatorConfig }) {
            if (config->has_value() && !(*config)->imageUri.isEmpty())
                container = true;
        }
        if (container) {
            const char* fields[] = { "masterConfig", "workerConfig", "parameterServerConfig", "evaluatorConfig" };
            const std::optional<ReplicaConfig>* configs[]
                = { &m_in.masterConfig, &m_in.workerConfig, &m_in.parameterServerConfig, &m_in.evaluatorConfig };
            for (int i = 0; i < 4; ++i) {
                if (configs[i]->has_value() && !(*configs[i])->imageUri.isEmpty())
                    add(in(fields[i]) + QStringLiteral(".imageUri"),
                        QStringLiteral("Custom containers are not supported on a workstation; give a Python "
                                       "package (packageUris) and pythonModule instead."));
            }
        }
        static const QRegularExpression module(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$"));
        if (m_in.pythonModule.isEmpty()) {
            if (!container)
                add(in("pythonModule"),
                    QStringLiteral("pythonModule is required: the Python module to run, e.g. trainer.task."));
        } else if (!module.match(m_in.pythonModule).hasMatch()) {
            add(in("pythonModule"),
                QStringLiteral("\"") + m_in.pythonModule
                    + QStringLiteral("\" is not a Python module name (dotted identifiers, e.g. trainer.task)."));
        }
        if (m_in.packageUris.isEmpty() && !container)
            add(in("packageUris"),
                QStringLiteral("At least one training package is required (a directory with setup.py or "
                               "pyproject.toml, or an sdist .tar.gz)."));
        for (qsizetype i = 0; i < m_in.packageUris.size(); ++i) {
            if (m_in.packageUris.at(i).trimmed().isEmpty())
                add(in("packageUris") + QStringLiteral("[%1]").arg(i),
                    QStringLiteral("A package URI must not be empty."));
        }
    }

    QList<RoleFields> roles() const
    {
        return {
            { "masterType", "masterConfig", nullptr, "master", m_in.masterType, &m_in.masterConfig, 1 },
            { "workerType", "workerConfig", "workerCount", "worker", m_in.workerType, &m_in.workerConfig,
                m_in.workerCount },
            { "parameterServerType", "parameterServerConfig", "parameterServerCount", "ps", m_in.parameterServerType,
                &m_in.parameterServerConfig, m_in.parameterServerCount },
            { "evaluatorType", "evaluatorConfig", "evaluatorCount", "evaluator", m_in.evaluatorType,
                &m_in.evaluatorConfig, m_in.evaluatorCount },
        };
    }

    // Scale tier, machine types, counts, families and accelerator configs. Returns whether the
    // cluster is well-formed enough to be planned against the host.
    bool checkCluster()
    {
        const qsizetype before = m_violations.size();
        const QString tierName = m_in.scaleTier.isEmpty() ? QStringLiteral("BASIC") : m_in.scaleTier;
        const ScaleTierInfo* tier = m_catalog.scaleTier(tierName);
        if (!tier) {
            QStringList names;
            for (const ScaleTierInfo& t : m_catalog.scaleTiers())
                names.append(t.name);
            add(in("scaleTier"),
                QStringLiteral("Unknown scale tier \"") + tierName + QStringLiteral("\"; expected one of ")
                    + names.join(QStringLiteral(", ")) + QLatin1Char('.'));
            return false;
        }
        if (!tier->available)
            add(in("scaleTier"), tierName + QStringLiteral(" is not available here: ") + tier->unavailableReason);

        const bool custom = tierName == Custom;
        const QList<RoleFields> all = roles();
        if (custom && m_in.masterType.isEmpty())
            add(in("masterType"), QStringLiteral("masterType is required when scaleTier is CUSTOM."));

        QString referenceFamilyField;
        bool referenceIsComputeEngine = false;
        for (const RoleFields& r : all) {
            const QString typePath = in(r.typeField);
            const QString configPath = in(r.configField);
            if (r.countField && r.count && *r.count < 0)
                add(in(r.countField), QString::fromLatin1(r.countField) + QStringLiteral(" must not be negative."));
            if (!custom) {
                if (!r.type.isEmpty())
                    add(typePath,
                        QString::fromLatin1(r.typeField)
                            + QStringLiteral(" can only be set when scaleTier is CUSTOM (scaleTier is ") + tierName
                            + QStringLiteral(")."));
                if (r.countField && r.count.value_or(0) > 0)
                    add(in(r.countField),
                        QString::fromLatin1(r.countField)
                            + QStringLiteral(" can only be set when scaleTier is CUSTOM (scaleTier is ") + tierName
                            + QStringLiteral(")."));
                if (r.config->has_value() && (*r.config)->acceleratorConfig)
                    add(configPath + QStringLiteral(".acceleratorConfig"),
                        QStringLiteral("acceleratorConfig can only be set when scaleTier is CUSTOM (scaleTier is ")
                            + tierName + QStringLiteral(")."));
                continue;
            }
            const bool used = !r.countField || r.count.value_or(0) > 0;
            if (r.countField && used && r.type.isEmpty())
                add(typePath,
                    QString::fromLatin1(r.typeField) + QStringLiteral(" is required when ")
                        + QString::fromLatin1(r.countField) + QStringLiteral(" is ") + QString::number(*r.count)
                        + QLatin1Char('.'));
            if (r.type.isEmpty())
                continue;
            const MachineType* machine = m_catalog.machineType(r.type);
            if (!machine) {
                add(typePath,
                    QStringLiteral("Unknown machine type \"") + r.type
                        + QStringLiteral("\"; use a Compute Engine type such as n1-standard-4 or a legacy type such as "
                                         "standard (see /v1/projects/-/machineTypes)."));
                continue;
            }
            if (machine->family == QLatin1String("tpu")) {
                add(typePath,
                    r.type
                        + QStringLiteral(" is a Cloud TPU; Cloud TPUs exist only in Google Cloud and this "
                                         "workstation has none."));
                continue;
            }
            if (!used)
                continue;
            if (referenceFamilyField.isEmpty()) {
                referenceFamilyField = QString::fromLatin1(r.typeField) + QStringLiteral(" ") + r.type;
                referenceIsComputeEngine = isComputeEngine(machine);
            } else if (isComputeEngine(machine) != referenceIsComputeEngine) {
                add(typePath,
                    QStringLiteral("All machine types of a job must be Compute Engine types or all legacy types; ")
                        + r.type + QStringLiteral(" is ")
                        + (isComputeEngine(machine) ? QStringLiteral("a Compute Engine type")
                                                    : QStringLiteral("a legacy type"))
                        + QStringLiteral(" but ") + referenceFamilyField + QStringLiteral(" is not."));
            }
            if (r.config->has_value() && (*r.config)->acceleratorConfig)
                checkAccelerator(
                    *(*r.config)->acceleratorConfig, *machine, configPath + QStringLiteral(".acceleratorConfig"));
        }
        return m_violations.size() == before;
    }

    void checkAccelerator(const AcceleratorConfig& a, const MachineType& machine, const QString& path)
    {
        const QString countPath = path + QStringLiteral(".count");
        const QString typePath = path + QStringLiteral(".type");
        const qint64 count = a.count.value_or(0);
        if (a.type.isEmpty() || a.type == QLatin1String("ACCELERATOR_TYPE_UNSPECIFIED")) {
            if (count != 0)
                add(typePath, QStringLiteral("An accelerator type is required when count is set."));
            return;
        }
        const AcceleratorTypeInfo* type = m_catalog.acceleratorType(a.type);
        if (!type) {
            QStringList names;
            for (const AcceleratorTypeInfo& t : m_catalog.acceleratorTypes())
                names.append(t.name);
            add(typePath,
                QStringLiteral("Unknown accelerator type \"") + a.type + QStringLiteral("\"; expected one of ")
                    + names.join(QStringLiteral(", ")) + QLatin1Char('.'));
            return;
        }
        if (type->isTpu) {
            add(typePath,
                a.type
                    + QStringLiteral(
                        " is a Cloud TPU; Cloud TPUs exist only in Google Cloud and this workstation has none."));
            return;
        }
        if (count <= 0) {
            add(countPath, QStringLiteral("The accelerator count must be at least 1."));
            return;
        }
        if (!isComputeEngine(&machine)) {
            add(path,
                QStringLiteral("acceleratorConfig can only be used with Compute Engine machine types; ") + machine.name
                    + QStringLiteral(" is a legacy type")
                    + (machine.impliedAccelerator.count.value_or(0) > 0
                            ? QStringLiteral(" that brings ") + QString::number(*machine.impliedAccelerator.count)
                                + QStringLiteral(" x ") + machine.impliedAccelerator.type + QStringLiteral(" itself.")
                            : QStringLiteral("."))
                    + QStringLiteral(" Use e.g. n1-standard-8 with acceleratorConfig instead."));
            return;
        }
        const QList<int> allowed = machine.acceleratorCounts.value(a.type);
        if (allowed.isEmpty()) {
            QStringList withIt;
            for (const MachineType& m : m_catalog.machineTypes()) {
                if (m.acceleratorCounts.contains(a.type))
                    withIt.append(m.name);
            }
            add(typePath,
                a.type + QStringLiteral(" cannot be attached to machine type ") + machine.name
                    + QStringLiteral("; machine types that take it: ") + withIt.join(QStringLiteral(", "))
                    + QLatin1Char('.'));
            return;
        }
        if (!allowed.contains(int(count))) {
            QStringList counts;
            for (int c : allowed)
                counts.append(QString::number(c));
            add(countPath,
                QStringLiteral("Machine type ") + machine.name + QStringLiteral(" takes ")
                    + counts.join(QStringLiteral(", ")) + QStringLiteral(" x ") + a.type + QStringLiteral(", not ")
                    + QString::number(count) + QLatin1Char('.'));
        }
    }

    QString hostGpusText(const QString& requestedType) const
    {
        if (m_host.gpus.isEmpty())
            return QStringLiteral("this host has no GPUs");
        QStringList gpus;
        for (const GpuInfo& g : m_host.gpus)
            gpus.append(QString::number(g.index) + QStringLiteral(": ") + g.name + QStringLiteral(" (")
                + g.acceleratorType + QLatin1Char(')'));
        const int usable = m_catalog.hostGpusFor(m_host, requestedType);
        return QStringLiteral("this host has ") + plural(m_host.gpus.size(), "GPU", "GPUs") + QStringLiteral(" (")
            + gpus.join(QStringLiteral(", ")) + QStringLiteral("), ") + QString::number(usable)
            + QStringLiteral(" of which can serve ") + requestedType;
    }

    // GPUs present and the cluster's size against what this host can hold.
    void checkHost()
    {
        const ClusterPlan plan = planCluster(m_in, m_catalog);
        const bool custom = (m_in.scaleTier.isEmpty() ? QStringLiteral("BASIC") : m_in.scaleTier) == Custom;
        const QList<RoleFields> all = roles();

        // Per requested type, summed over roles (two roles asking for T4s compete for the same T4s).
        QMap<QString, int> askedPerType;
        for (const RolePlan& r : plan.roles) {
            if (r.acceleratorCount > 0)
                askedPerType[r.acceleratorType] += r.count * r.acceleratorCount;
        }
        for (const RolePlan& r : plan.roles) {
            if (r.acceleratorCount <= 0 || r.count <= 0)
                continue;
            const int asked = askedPerType.value(r.acceleratorType);
            const int available = m_catalog.hostGpusFor(m_host, r.acceleratorType);
            if (asked <= available)
                continue;
            QString path = in("scaleTier");
            if (custom) {
                const auto role = std::find_if(
                    all.cbegin(), all.cend(), [&](const RoleFields& f) { return r.role == QLatin1String(f.planRole); });
                const bool explicitConfig = role != all.cend() && role->config->has_value()
                    && (*role->config)->acceleratorConfig && (*role->config)->acceleratorConfig->count.value_or(0) > 0;
                if (role != all.cend())
                    path = explicitConfig ? in(role->configField) + QStringLiteral(".acceleratorConfig.count")
                                          : in(role->typeField);
            }
            add(path,
                QStringLiteral("The ") + r.role + QStringLiteral(" asks for ") + QString::number(r.acceleratorCount)
                    + QStringLiteral(" x ") + r.acceleratorType + QStringLiteral(" per replica (")
                    + QString::number(asked) + QStringLiteral(" in all); ") + hostGpusText(r.acceleratorType)
                    + QLatin1Char('.'));
        }
        if (plan.totalGpus() > m_host.gpus.size() && askedPerType.size() > 1)
            add(QStringLiteral("trainingInput"),
                QStringLiteral("The cluster asks for ") + plural(plan.totalGpus(), "GPU", "GPUs")
                    + QStringLiteral(" in all; ") + hostGpusText(QStringLiteral("NVIDIA_GPU")) + QLatin1Char('.'));

        const HostCapacity cap = m_catalog.capacity(m_host);
        QStringList over;
        if (plan.totalReplicas() > cap.replicas)
            over.append(plural(plan.totalReplicas(), "replica", "replicas") + QStringLiteral(" (at most ")
                + QString::number(cap.replicas) + QStringLiteral(" here)"));
        if (plan.totalVcpus() > cap.vcpus)
            over.append(QString::number(plan.totalVcpus()) + QStringLiteral(" vCPUs (at most ")
                + number(std::floor(cap.vcpus)) + QStringLiteral(" here)"));
        if (plan.totalMemoryGb() > cap.memoryGb)
            over.append(number(plan.totalMemoryGb()) + QStringLiteral(" GB of memory (at most ")
                + number(std::floor(cap.memoryGb)) + QStringLiteral(" GB here)"));
        if (!over.isEmpty()) {
            const HostPolicy& policy = m_catalog.hostPolicy();
            add(QStringLiteral("trainingInput"),
                QStringLiteral("This host can never hold the cluster: it asks for ") + over.join(QStringLiteral(", "))
                    + QStringLiteral("; this host has ") + plural(m_host.cpus, "CPU", "CPUs") + QStringLiteral(" and ")
                    + number(std::round(double(m_host.memoryBytes) / (1024.0 * 1024 * 1024) * 10) / 10)
                    + QStringLiteral(" GiB of memory, and a job may use ") + number(policy.cpuOvercommit)
                    + QStringLiteral(" vCPUs per CPU, ") + number(policy.memoryOvercommit)
                    + QStringLiteral(" GB per GB of memory and ") + QString::number(policy.replicasPerCpu)
                    + QStringLiteral(" replicas per CPU (at least ") + QString::number(policy.minReplicaLimit)
                    + QStringLiteral("). Use fewer or smaller replicas."));
        }
    }

    void checkHyperparameters(const HyperparameterSpec& hp)
    {
        const QString base = QStringLiteral("trainingInput.hyperparameters");
        auto at = [&](const char* field) -> QString { return base + QLatin1Char('.') + QLatin1String(field); };
        if (hp.goal.isEmpty() || hp.goal == QLatin1String("GOAL_TYPE_UNSPECIFIED"))
            add(at("goal"), QStringLiteral("goal is required for hyperparameter tuning: MAXIMIZE or MINIMIZE."));
        if (hp.maxTrials && *hp.maxTrials < 1)
            add(at("maxTrials"), QStringLiteral("maxTrials must be at least 1."));
        if (hp.maxParallelTrials && *hp.maxParallelTrials < 1)
            add(at("maxParallelTrials"), QStringLiteral("maxParallelTrials must be at least 1."));
        if (hp.maxFailedTrials && *hp.maxFailedTrials < 0)
            add(at("maxFailedTrials"), QStringLiteral("maxFailedTrials must not be negative."));
        if (!hp.resumePreviousJobId.isEmpty() && !jobIdProblems(hp.resumePreviousJobId).isEmpty())
            add(at("resumePreviousJobId"),
                QStringLiteral("\"") + hp.resumePreviousJobId + QStringLiteral("\" is not a valid job ID."));
        if (hp.params.isEmpty()) {
            add(at("params"), QStringLiteral("At least one parameter is required for hyperparameter tuning."));
            return;
        }
        const bool grid = hp.algorithm == QLatin1String("GRID_SEARCH");
        QSet<QString> seen;
        for (qsizetype i = 0; i < hp.params.size(); ++i) {
            const ParameterSpec& p = hp.params.at(i);
            const QString path = base + QStringLiteral(".params[%1]").arg(i);
            auto field = [&](const char* f) -> QString { return path + QLatin1Char('.') + QLatin1String(f); };
            static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]*$"));
            if (p.parameterName.isEmpty())
                add(field("parameterName"), QStringLiteral("parameterName is required."));
            else if (!name.match(p.parameterName).hasMatch())
                add(field("parameterName"),
                    QStringLiteral("\"") + p.parameterName
                        + QStringLiteral(
                            "\" is not a valid parameter name (letters, digits, '_', '-', '.'; it is passed "
                            "to the trainer as --NAME)."));
            else if (seen.contains(p.parameterName))
                add(field("parameterName"),
                    QStringLiteral("Duplicate parameter name \"") + p.parameterName + QStringLiteral("\"."));
            seen.insert(p.parameterName);

            const bool numeric = p.type == QLatin1String("DOUBLE") || p.type == QLatin1String("INTEGER");
            if (p.type.isEmpty() || p.type == QLatin1String("PARAMETER_TYPE_UNSPECIFIED")) {
                add(field("type"), QStringLiteral("type is required: DOUBLE, INTEGER, CATEGORICAL or DISCRETE."));
                continue;
            }
            if (numeric) {
                if (!p.minValue)
                    add(field("minValue"),
                        QStringLiteral("minValue is required for ") + p.type + QStringLiteral(" parameters."));
                if (!p.maxValue)
                    add(field("maxValue"),
                        QStringLiteral("maxValue is required for ") + p.type + QStringLiteral(" parameters."));
                if (p.type == QLatin1String("INTEGER")) {
                    if (p.minValue && *p.minValue != std::floor(*p.minValue))
                        add(field("minValue"), QStringLiteral("minValue of an INTEGER parameter must be an integer."));
                    if (p.maxValue && *p.maxValue != std::floor(*p.maxValue))
                        add(field("maxValue"), QStringLiteral("maxValue of an INTEGER parameter must be an integer."));
                }
                if (p.minValue && p.maxValue && !(*p.minValue < *p.maxValue))
                    add(field("maxValue"),
                        QStringLiteral("maxValue (") + number(*p.maxValue)
                            + QStringLiteral(") must be greater than minValue (") + number(*p.minValue)
                            + QStringLiteral(")."));
                if (!p.categoricalValues.isEmpty())
                    add(field("categoricalValues"),
                        QStringLiteral("categoricalValues are only for CATEGORICAL parameters."));
                if (!p.discreteValues.isEmpty())
                    add(field("discreteValues"), QStringLiteral("discreteValues are only for DISCRETE parameters."));
                if (grid && p.type == QLatin1String("DOUBLE"))
                    add(field("type"),
                        QStringLiteral("DOUBLE parameters cannot be searched with algorithm GRID_SEARCH; use "
                                       "INTEGER, CATEGORICAL or DISCRETE, or another algorithm."));
            } else if (p.type == QLatin1String("CATEGORICAL")) {
                if (p.categoricalValues.isEmpty())
                    add(field("categoricalValues"), QStringLiteral("CATEGORICAL parameters need categoricalValues."));
                if (QSet<QString>(p.categoricalValues.cbegin(), p.categoricalValues.cend()).size()
                    != p.categoricalValues.size())
                    add(field("categoricalValues"), QStringLiteral("categoricalValues must be distinct."));
                if (p.minValue || p.maxValue)
                    add(field(p.minValue ? "minValue" : "maxValue"),
                        QStringLiteral("minValue/maxValue are only for DOUBLE and INTEGER parameters."));
                if (!p.discreteValues.isEmpty())
                    add(field("discreteValues"), QStringLiteral("discreteValues are only for DISCRETE parameters."));
            } else if (p.type == QLatin1String("DISCRETE")) {
                if (p.discreteValues.isEmpty())
                    add(field("discreteValues"), QStringLiteral("DISCRETE parameters need discreteValues."));
                for (qsizetype j = 1; j < p.discreteValues.size(); ++j) {
                    if (!(p.discreteValues.at(j - 1) < p.discreteValues.at(j))) {
                        add(field("discreteValues"),
                            QStringLiteral("discreteValues must be strictly increasing; ")
                                + number(p.discreteValues.at(j)) + QStringLiteral(" follows ")
                                + number(p.discreteValues.at(j - 1)) + QLatin1Char('.'));
                        break;
                    }
                }
                if (p.minValue || p.maxValue)
                    add(field(p.minValue ? "minValue" : "maxValue"),
                        QStringLiteral("minValue/maxValue are only for DOUBLE and INTEGER parameters."));
                if (!p.categoricalValues.isEmpty())
                    add(field("categoricalValues"),
                        QStringLiteral("categoricalValues are only for CATEGORICAL parameters."));
            }
            const bool logScale = p.scaleType == QLatin1String("UNIT_LOG_SCALE")
                || p.scaleType == QLatin1String("UNIT_REVERSE_LOG_SCALE");
            if (logScale) {
                double lowest = 0;
                bool haveLowest = false;
                if (numeric && p.minValue) {
                    lowest = *p.minValue;
                    haveLowest = true;
                } else if (p.type == QLatin1String("DISCRETE") && !p.discreteValues.isEmpty()) {
                    lowest = *std::min_element(p.discreteValues.cbegin(), p.discreteValues.cend());
                    haveLowest = true;
                }
                if (haveLowest && !(lowest > 0))
                    add(field(numeric ? "minValue" : "discreteValues"),
                        p.scaleType + QStringLiteral(" needs values greater than 0; the lowest is ") + number(lowest)
                            + QLatin1Char('.'));
                if (p.type == QLatin1String("CATEGORICAL"))
                    add(field("scaleType"), QStringLiteral("CATEGORICAL parameters have no scale."));
            }
        }
    }

    void checkScheduling(const Scheduling& s)
    {
        const QString base = QStringLiteral("trainingInput.scheduling.");
        auto duration = [&](const char* field, const QString& value) {
            if (value.isEmpty())
                return;
            const std::optional<double> seconds = parseDurationSeconds(value);
            if (!seconds)
                add(base + QLatin1String(field),
                    QStringLiteral("\"") + value
                        + QStringLiteral("\" is not a duration; write seconds with an \"s\" suffix, e.g. \"7200s\"."));
            else if (*seconds <= 0)
                add(base + QLatin1String(field),
                    QString::fromLatin1(field) + QStringLiteral(" must be greater than 0s."));
        };
        duration("maxRunningTime", s.maxRunningTime);
        duration("maxWaitTime", s.maxWaitTime);
        if (s.priority && (*s.priority < 0 || *s.priority > 1000))
            add(base + QStringLiteral("priority"), QStringLiteral("priority must be between 0 and 1000."));
    }

    void checkVersions()
    {
        static const QRegularExpression version(QStringLiteral("^\\d+\\.\\d+$"));
        if (!m_in.runtimeVersion.isEmpty() && !version.match(m_in.runtimeVersion).hasMatch())
            add(in("runtimeVersion"),
                QStringLiteral("\"") + m_in.runtimeVersion
                    + QStringLiteral("\" is not a runtime version; expected MAJOR.MINOR, e.g. \"2.11\"."));
        if (!m_in.pythonVersion.isEmpty() && !version.match(m_in.pythonVersion).hasMatch())
            add(in("pythonVersion"),
                QStringLiteral("\"") + m_in.pythonVersion
                    + QStringLiteral("\" is not a Python version; expected MAJOR.MINOR, e.g. \"3.7\"."));
    }

    const Job& m_job;
    const TrainingInput& m_in;
    const MachineCatalog& m_catalog;
    const HostInventory& m_host;
    FieldViolations m_violations;
};

bool isLabelChar(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
        || c == QLatin1Char('_') || c == QLatin1Char('-');
}

} // namespace

// The job ID and label rules are shown live in the console's submit wizard: translated there (the
// console installs translators), English in the executor's API errors (it installs none).
QStringList jobIdProblems(const QString& jobId)
{
    QStringList problems;
    if (jobId.isEmpty()) {
        problems.append(QCoreApplication::translate("Trainyard::JobValidation", "A job ID is required."));
        return problems;
    }
    if (jobId.size() > 128)
        problems.append(QCoreApplication::translate(
            "Trainyard::JobValidation", "A job ID may be at most 128 characters long (this one has %1).")
                            .arg(jobId.size()));
    const QChar first = jobId.at(0);
    if (!(first.isLetter() && first.unicode() < 128))
        problems.append(QCoreApplication::translate("Trainyard::JobValidation", "A job ID must start with a letter."));
    QString bad;
    for (const QChar c : jobId) {
        const bool ok = c.unicode() < 128 && (c.isLetterOrNumber() || c == QLatin1Char('_'));
        if (!ok && !bad.contains(c))
            bad += c;
    }
    if (!bad.isEmpty())
        problems.append(QCoreApplication::translate(
            "Trainyard::JobValidation", "A job ID may contain only letters, digits and underscores, not \"%1\".")
                            .arg(bad));
    return problems;
}

FieldViolations labelViolations(const QMap<QString, QString>& labels)
{
    FieldViolations v;
    if (labels.size() > 64)
        v.append({ QStringLiteral("labels"),
            QCoreApplication::translate(
                "Trainyard::JobValidation", "A job may have at most 64 labels (this one has %1).")
                .arg(labels.size()) });
    for (auto it = labels.constBegin(); it != labels.constEnd(); ++it) {
        // One violation per label, naming every rule it breaks.
        QStringList problems;
        const QString& key = it.key();
        if (key.isEmpty()) {
            problems.append(QCoreApplication::translate("Trainyard::JobValidation", "A label key must not be empty."));
        } else {
            if (key.size() > 63)
                problems.append(QCoreApplication::translate(
                    "Trainyard::JobValidation", "A label key may be at most 63 characters long."));
            if (!(key.at(0) >= QLatin1Char('a') && key.at(0) <= QLatin1Char('z')))
                problems.append(QCoreApplication::translate(
                    "Trainyard::JobValidation", "A label key must start with a lowercase letter."));
            if (!std::all_of(key.cbegin(), key.cend(), isLabelChar))
                problems.append(QCoreApplication::translate("Trainyard::JobValidation",
                    "A label key may contain only lowercase letters, digits, '_' and '-'."));
        }
        const QString& value = it.value();
        if (value.size() > 63)
            problems.append(QCoreApplication::translate(
                "Trainyard::JobValidation", "A label value may be at most 63 characters long."));
        if (!std::all_of(value.cbegin(), value.cend(), isLabelChar))
            problems.append(QCoreApplication::translate("Trainyard::JobValidation",
                "A label value may contain only lowercase letters, digits, '_' and '-' (\"%1\").")
                                .arg(value));
        if (!problems.isEmpty())
            v.append({ QStringLiteral("labels.") + key, problems.join(QLatin1Char(' ')) });
    }
    return v;
}

FieldViolations validateJob(const Job& job, const MachineCatalog& catalog, const HostInventory& host)
{
    return Validator(job, catalog, host).run();
}

} // namespace Trainyard
