// SPDX-License-Identifier: GPL-2.0-or-later
// validateJob(): the create-time rules of ARCHITECTURE.md "A job's life" step 1 (the job ID, project ID and label
// rules are namerules.cpp's, a batch prediction's input predictionvalidation.cpp's). Sources of the service's rules:
// - REST v1 projects.jobs (Job.jobId, Job.labels, TrainingInput, HyperparameterSpec, ParameterSpec,
//   Scheduling): https://cloud.google.com/ai-platform/training/docs/reference/rest/v1/projects.jobs
// - "Specifying machine types or scale tiers" and "Using GPUs" (machine types, families, accelerators)
// - "Hyperparameter tuning overview" (parameter types, scale types, GRID_SEARCH limits)
// - Resource Manager label rules (keys/values ≤ 63 chars of [a-z0-9_-], keys start with a letter, ≤ 64 labels).
// The host rules (GPUs present, capacity) are Trainyard's; see resources/catalog/README.md.
#include "builtinalgorithm.h"
#include "machinecatalog.h"
#include "pathname.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {

const QString Custom = QStringLiteral("CUSTOM");
constexpr qsizetype MaxDiscreteValues = 1000;

// Every description below is translated in the context "Trainyard::JobValidation" (lupdate reads the
// literal context and source text at each QCoreApplication::translate() and QT_TRANSLATE_N_NOOP): the
// console installs its translators, the executor and trainyardctl install none and so answer in the
// exact English of the source texts. API field names, enum values, machine and accelerator types in the
// texts are the API's identifiers and stay as they are in every language.
constexpr char Context[] = "Trainyard::JobValidation";

// translate() of a text with Qt's plural form (%n, marked with QT_TRANSLATE_N_NOOP). Its English source
// writes the plural ending as "(s)"; without a translation (no translator installed) Qt returns that
// source, and this resolves "(s)" to the English singular or plural, as the API has always spelled it.
QString translateN(const char* sourceText, qint64 n)
{
    const QString translated = QCoreApplication::translate("Trainyard::JobValidation", sourceText, nullptr, int(n));
    QString english = QString::fromUtf8(sourceText);
    english.replace(QLatin1String("%n"), QString::number(n));
    if (translated != english)
        return translated;
    return english.replace(QLatin1String("(s)"), n == 1 ? QString() : QStringLiteral("s"));
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
    Validator(const Job& job, const MachineCatalog& catalog, const HostInventory* host)
        : m_job(job)
        , m_in(job.trainingInput)
        , m_catalog(catalog)
        , m_host(host ? *host : HostInventory {})
        , m_checkHost(host != nullptr)
    {
    }

    FieldViolations run()
    {
        for (const QString& p : jobIdProblems(m_job.jobId))
            add(QStringLiteral("jobId"), p);
        m_violations.append(labelViolations(m_job.labels));
        if (m_job.predictionInput) {
            // A batch prediction job: its own rules; a trainingInput beside it is refused (a job is one or the other).
            if (m_job.trainingInput != TrainingInput())
                add(QStringLiteral("trainingInput"),
                    QCoreApplication::translate(
                        "Trainyard::JobValidation", "A job has a trainingInput or a predictionInput, not both."));
            m_violations.append(validatePredictionInput(*m_job.predictionInput));
            return m_violations;
        }
        checkSizes();
        checkProgram();
        const bool clusterOk = checkCluster();
        if (clusterOk && m_checkHost)
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

    /// What one job may hold, so that no job makes every list page and every follower's stream megabytes (three
    /// jobs of 4 MB `args` made a job list of 12.6 MB): the service's 100 package URIs, no argument longer than the
    /// kernel passes to a program (MAX_ARG_STRLEN, 128 KiB), and MaxJobArgsBytes of arguments together (the service
    /// documents no limit on args; this is the kernel's limit for one argument).
    void checkSizes()
    {
        qsizetype argsBytes = 0;
        for (qsizetype i = 0; i < m_in.args.size(); ++i) {
            const qsizetype bytes = m_in.args.at(i).toUtf8().size();
            argsBytes += bytes;
            if (bytes > MaxJobArgsBytes)
                //: %1 and %2 are byte counts.
                add(in("args") + QStringLiteral("[%1]").arg(i),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "An argument may be at most %2 bytes long (the kernel's limit for one argument); this one has "
                        "%1.")
                        .arg(bytes)
                        .arg(MaxJobArgsBytes));
        }
        if (argsBytes > MaxJobArgsBytes)
            add(in("args"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "The arguments together may be at most %2 bytes; these have %1. Pass large inputs as a file in "
                    "the package or the job dir.")
                    .arg(argsBytes)
                    .arg(MaxJobArgsBytes));
        if (m_in.packageUris.size() > MaxPackageUris)
            add(in("packageUris"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "At most %1 package URIs are allowed (the service's limit); this job gives %2.")
                    .arg(MaxPackageUris)
                    .arg(m_in.packageUris.size()));
        // Whatever else a job carries (container arguments, a module name, tuning parameters) counts here.
        if (const qsizetype total = QJsonDocument(JobJson::toJson(m_job)).toJson(QJsonDocument::Compact).size();
            total > MaxJobBytes)
            add(QStringLiteral("trainingInput"),
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "A job may be at most %2 bytes as JSON; this one has %1.")
                    .arg(total)
                    .arg(MaxJobBytes));
        for (qsizetype i = 0; i < m_in.packageUris.size(); ++i) {
            const QString& uri = m_in.packageUris.at(i);
            if (uri.contains(QChar(0)) || uri.toUtf8().size() >= PathName::PathMax)
                add(in("packageUris") + QStringLiteral("[%1]").arg(i),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "A package URI must be a path of fewer than %1 bytes, without NUL characters.")
                        .arg(PathName::PathMax));
        }
    }

    /// True when the master names an image: a custom container, or a built-in algorithm's image (which runs
    /// the bundled package, but takes neither a package nor a module from the job, as on the service).
    bool masterImage() const { return m_in.masterConfig && !m_in.masterConfig->imageUri.isEmpty(); }

    void checkProgram()
    {
        const bool container = masterImage();
        checkContainers();
        checkBuiltInAlgorithm();
        static const QRegularExpression module(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$"));
        if (container) {
            // checkContainers() refused a module and packages beside a master image.
        } else if (m_in.pythonModule.isEmpty()) {
            add(in("pythonModule"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "pythonModule is required: the Python module to run, e.g. trainer.task."));
        } else if (!module.match(m_in.pythonModule).hasMatch()) {
            //: %1 is the pythonModule the job gives.
            add(in("pythonModule"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "\"%1\" is not a Python module name (dotted identifiers, e.g. trainer.task).")
                    .arg(m_in.pythonModule));
        }
        if (m_in.packageUris.isEmpty() && !container)
            add(in("packageUris"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "At least one training package is required (a directory with setup.py or pyproject.toml, "
                    "or an sdist .tar.gz)."));
        for (qsizetype i = 0; i < m_in.packageUris.size(); ++i) {
            if (m_in.packageUris.at(i).trimmed().isEmpty())
                add(in("packageUris") + QStringLiteral("[%1]").arg(i),
                    QCoreApplication::translate("Trainyard::JobValidation", "A package URI must not be empty."));
        }
    }

    /// The service's custom-container rules (REST reference, ReplicaConfig and TrainingInput): an image
    /// reference per config, containerCommand/containerArgs only beside an image, containerArgs or args but not
    /// both, and a master image instead of a runtime version and a package.
    void checkContainers()
    {
        static const QRegularExpression reference(
            QStringLiteral("^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)"
                           "*(?::[0-9]+)?/)?"
                           "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*"
                           "(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$"));
        const char* fields[] = { "masterConfig", "workerConfig", "parameterServerConfig", "evaluatorConfig" };
        const std::optional<ReplicaConfig>* configs[]
            = { &m_in.masterConfig, &m_in.workerConfig, &m_in.parameterServerConfig, &m_in.evaluatorConfig };
        for (int i = 0; i < 4; ++i) {
            if (!configs[i]->has_value())
                continue;
            const ReplicaConfig& c = **configs[i];
            const QString field = in(fields[i]);
            if (!c.imageUri.isEmpty() && !reference.match(c.imageUri).hasMatch())
                //: %1 is the imageUri the job gives.
                add(field + QStringLiteral(".imageUri"),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "\"%1\" is not a container image reference ([host[:port]/]name[:tag][@sha256:digest], "
                        "e.g. localhost/trainer:1).")
                        .arg(c.imageUri));
            if (c.imageUri.isEmpty()) {
                for (const auto& [name, value] : { std::pair { "containerCommand", &c.containerCommand },
                         std::pair { "containerArgs", &c.containerArgs } }) {
                    if (!value->isEmpty())
                        //: %1 is containerCommand or containerArgs, kept as is.
                        add(field + QLatin1Char('.') + QLatin1String(name),
                            QCoreApplication::translate("Trainyard::JobValidation",
                                "%1 can be set only together with imageUri (a custom container).")
                                .arg(QLatin1String(name)));
                }
            }
            if (!c.containerArgs.isEmpty() && !m_in.args.isEmpty())
                add(field + QStringLiteral(".containerArgs"),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "containerArgs and trainingInput.args are mutually exclusive: give the arguments in one of "
                        "them."));
        }
        if (!masterImage())
            return;
        // Every replica runs an image: there is no package to install and no runtime version to pick.
        const auto notWithImage = [this](const char* field, bool set) {
            if (set)
                //: %1 is an API field name (runtimeVersion, packageUris …), kept as is.
                add(in(field),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "%1 must not be set with masterConfig.imageUri: every replica runs a container image.")
                        .arg(QLatin1String(field)));
        };
        notWithImage("runtimeVersion", !m_in.runtimeVersion.isEmpty());
        notWithImage("pythonVersion", !m_in.pythonVersion.isEmpty());
        notWithImage("packageUris", !m_in.packageUris.isEmpty());
        notWithImage("pythonModule", !m_in.pythonModule.isEmpty());
    }

    /// Built-in algorithms (builtinalgorithm.h): only the images Trainyard runs, named on the master, and the
    /// replicas each algorithm takes. Sources: algorithms/reference/xgboost ("Single-replica"; "To train with GPUs
    /// [or distributed], use the built-in distributed XGBoost algorithm"), reference/linear-learner and
    /// wide-and-deep ("Not supported: … distributed training"), algorithms/distributed-xgboost ("Specify a master
    /// worker and at least one worker … Do not specify any parameter servers").
    void checkBuiltInAlgorithm()
    {
        const char* fields[] = { "workerConfig", "parameterServerConfig", "evaluatorConfig" };
        const std::optional<ReplicaConfig>* configs[]
            = { &m_in.workerConfig, &m_in.parameterServerConfig, &m_in.evaluatorConfig };
        const QString master = m_in.masterConfig ? m_in.masterConfig->imageUri : QString();
        const bool masterIsAlgorithm = BuiltInAlgorithms::isAlgorithmImage(master);
        for (int i = 0; i < 3; ++i) {
            if (!configs[i]->has_value() || !BuiltInAlgorithms::isAlgorithmImage((*configs[i])->imageUri))
                continue;
            if (!masterIsAlgorithm || (*configs[i])->imageUri != master)
                //: %1 is the image URI; masterConfig.imageUri is an API field, kept as is.
                add(in(fields[i]) + QStringLiteral(".imageUri"),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "%1 is a built-in algorithm's image: name it as masterConfig.imageUri (the other replicas "
                        "run the master's).")
                        .arg((*configs[i])->imageUri));
        }
        if (!masterIsAlgorithm)
            return;
        const BuiltInAlgorithm* algorithm = BuiltInAlgorithms::find(master);
        if (!algorithm) {
            //: %1 is the image the job names, %2 the list of image URIs Trainyard runs.
            add(in("masterConfig") + QStringLiteral(".imageUri"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "%1 is not a built-in algorithm Trainyard runs (image classification, object detection, BERT "
                    "and TabNet need TensorFlow, which Debian does not ship). The built-in algorithms here: %2.")
                    .arg(master, BuiltInAlgorithms::supportedList()));
            return;
        }
        if (m_in.jobDir.isEmpty())
            //: %1 is the algorithm's name.
            add(in("jobDir"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "%1 writes its model under the job dir: set jobDir (gcloud's --job-dir).")
                    .arg(algorithm->name));
        for (const char* field : { "containerCommand", "containerArgs" }) {
            const QStringList& value = QLatin1String(field) == QLatin1String("containerCommand")
                ? m_in.masterConfig->containerCommand
                : m_in.masterConfig->containerArgs;
            if (!value.isEmpty())
                //: %1 is containerCommand or containerArgs; trainingInput.args is an API field. Kept as is.
                add(in("masterConfig") + QLatin1Char('.') + QLatin1String(field),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "A built-in algorithm takes no %1: give its arguments in trainingInput.args (after -- on "
                        "the gcloud command line).")
                        .arg(QLatin1String(field)));
        }
        const qint64 workers = m_in.workerCount.value_or(0);
        const qint64 servers = m_in.parameterServerCount.value_or(0);
        const qint64 evaluators = m_in.evaluatorCount.value_or(0);
        const QString tier = m_in.scaleTier.isEmpty() ? QStringLiteral("BASIC") : m_in.scaleTier;
        if (algorithm->distributed) {
            if (tier != QLatin1String("CUSTOM"))
                //: %1 is the algorithm's name, %2 the scale tier.
                add(in("scaleTier"),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "%1 needs scaleTier CUSTOM with a master and at least one worker (not %2).")
                        .arg(algorithm->name, tier));
            else if (workers < 1)
                add(in("workerCount"),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "%1 needs a master and at least one worker: set workerCount to 1 or more.")
                        .arg(algorithm->name));
            if (servers > 0)
                add(in("parameterServerCount"),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "%1 takes no parameter servers: the replicas train together with XGBoost's own collective.")
                        .arg(algorithm->name));
            if (evaluators > 0)
                add(in("evaluatorCount"),
                    QCoreApplication::translate("Trainyard::JobValidation", "%1 takes no evaluators.")
                        .arg(algorithm->name));
            return;
        }
        if (tier != QLatin1String("BASIC") && tier != QLatin1String("BASIC_GPU") && tier != QLatin1String("CUSTOM"))
            //: %1 is the algorithm's name, %2 the scale tier.
            add(in("scaleTier"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "%1 trains on one replica: use scaleTier BASIC, BASIC_GPU or CUSTOM with no workers (not %2).")
                    .arg(algorithm->name, tier));
        for (const auto& [field, count] : { std::pair { "workerCount", workers },
                 std::pair { "parameterServerCount", servers }, std::pair { "evaluatorCount", evaluators } }) {
            if (count > 0)
                //: %1 is the algorithm's name, %2 the distributed XGBoost image URI.
                add(in(field),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "%1 trains on one replica, the master: set no other replicas (for distributed training, "
                        "use %2).")
                        .arg(algorithm->name, QStringLiteral("gcr.io/cloud-ml-algos/xgboost_dist:latest")));
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

    // "%1 must not be negative." for a count field (workerCount, maxFailedTrials …).
    static QString notNegative(const QString& field)
    {
        //: %1 is an API field name (workerCount, maxFailedTrials …), kept as is.
        return QCoreApplication::translate("Trainyard::JobValidation", "%1 must not be negative.").arg(field);
    }

    // "%1 must be at least 1." for a count field (maxTrials, maxParallelTrials).
    static QString atLeastOne(const QString& field)
    {
        //: %1 is an API field name (maxTrials, maxParallelTrials), kept as is.
        return QCoreApplication::translate("Trainyard::JobValidation", "%1 must be at least 1.").arg(field);
    }

    // "%1 is a Cloud TPU; …" for a machine type (cloud_tpu) or an accelerator type (TPU_V2).
    static QString cloudTpu(const QString& type)
    {
        //: %1 is a machine type (cloud_tpu) or an accelerator type (TPU_V2).
        return QCoreApplication::translate("Trainyard::JobValidation",
            "%1 is a Cloud TPU; Cloud TPUs exist only in Google Cloud and this workstation has none.")
            .arg(type);
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
            //: %1 is the scale tier the job gives, %2 the list of scale tiers (BASIC, STANDARD_1 …).
            add(in("scaleTier"),
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "Unknown scale tier \"%1\"; expected one of %2.")
                    .arg(tierName, names.join(QStringLiteral(", "))));
            return false;
        }
        // The reason is the machine catalog's text (resources/catalog/machines.json), translated with it.
        if (!tier->available)
            //: %1 is a scale tier (BASIC_TPU), %2 the machine catalog's reason.
            add(in("scaleTier"),
                QCoreApplication::translate("Trainyard::JobValidation", "%1 is not available here: %2")
                    .arg(tierName, translatedCatalogText(tier->unavailableReason)));

        const bool custom = tierName == Custom;
        const QList<RoleFields> all = roles();
        if (custom && m_in.masterType.isEmpty())
            add(in("masterType"),
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "masterType is required when scaleTier is CUSTOM."));

        // "%1 can only be set when scaleTier is CUSTOM (scaleTier is %2)."
        const auto onlyCustom = [&](const QString& field) {
            //: %1 is an API field name (masterType, workerCount, acceleratorConfig …), %2 the job's scale tier.
            return QCoreApplication::translate(
                "Trainyard::JobValidation", "%1 can only be set when scaleTier is CUSTOM (scaleTier is %2).")
                .arg(field, tierName);
        };
        QString referenceFamilyField;
        bool referenceIsComputeEngine = false;
        for (const RoleFields& r : all) {
            const QString typePath = in(r.typeField);
            const QString configPath = in(r.configField);
            if (r.countField && r.count && *r.count < 0)
                add(in(r.countField), notNegative(QString::fromLatin1(r.countField)));
            if (!custom) {
                if (!r.type.isEmpty())
                    add(typePath, onlyCustom(QString::fromLatin1(r.typeField)));
                if (r.countField && r.count.value_or(0) > 0)
                    add(in(r.countField), onlyCustom(QString::fromLatin1(r.countField)));
                if (r.config->has_value() && (*r.config)->acceleratorConfig)
                    add(configPath + QStringLiteral(".acceleratorConfig"),
                        onlyCustom(QStringLiteral("acceleratorConfig")));
                continue;
            }
            const bool used = !r.countField || r.count.value_or(0) > 0;
            if (r.countField && used && r.type.isEmpty())
                //: %1 is a machine type field (workerType …), %2 its count field (workerCount …), %3 the count.
                add(typePath,
                    QCoreApplication::translate("Trainyard::JobValidation", "%1 is required when %2 is %3.")
                        .arg(QString::fromLatin1(r.typeField), QString::fromLatin1(r.countField),
                            QString::number(*r.count)));
            if (r.type.isEmpty())
                continue;
            const MachineType* machine = m_catalog.machineType(r.type);
            if (!machine) {
                //: %1 is the machine type the job gives. "Compute Engine" is Google's product name.
                add(typePath,
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "Unknown machine type \"%1\"; use a Compute Engine type such as n1-standard-4 or a legacy "
                        "type such as standard (see /v1/projects/-/machineTypes).")
                        .arg(r.type));
                continue;
            }
            if (machine->family == QLatin1String("tpu")) {
                add(typePath, cloudTpu(r.type));
                continue;
            }
            if (!used)
                continue;
            if (referenceFamilyField.isEmpty()) {
                referenceFamilyField = QString::fromLatin1(r.typeField) + QStringLiteral(" ") + r.type;
                referenceIsComputeEngine = isComputeEngine(machine);
            } else if (isComputeEngine(machine) && !referenceIsComputeEngine) {
                //: %1 is a machine type (n1-standard-4), %2 an API field and its machine type
                //: ("masterType complex_model_m").
                add(typePath,
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "All machine types of a job must be Compute Engine types or all legacy types; %1 is a "
                        "Compute Engine type but %2 is not.")
                        .arg(r.type, referenceFamilyField));
            } else if (!isComputeEngine(machine) && referenceIsComputeEngine) {
                //: %1 is a machine type (complex_model_m), %2 an API field and its machine type
                //: ("masterType n1-standard-4").
                add(typePath,
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "All machine types of a job must be Compute Engine types or all legacy types; %1 is a "
                        "legacy type but %2 is not.")
                        .arg(r.type, referenceFamilyField));
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
                add(typePath,
                    QCoreApplication::translate(
                        "Trainyard::JobValidation", "An accelerator type is required when count is set."));
            return;
        }
        const AcceleratorTypeInfo* type = m_catalog.acceleratorType(a.type);
        if (!type) {
            QStringList names;
            for (const AcceleratorTypeInfo& t : m_catalog.acceleratorTypes())
                names.append(t.name);
            //: %1 is the accelerator type the job gives, %2 the list of accelerator types (NVIDIA_TESLA_T4 …).
            add(typePath,
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "Unknown accelerator type \"%1\"; expected one of %2.")
                    .arg(a.type, names.join(QStringLiteral(", "))));
            return;
        }
        if (type->isTpu) {
            add(typePath, cloudTpu(a.type));
            return;
        }
        if (count <= 0) {
            add(countPath,
                QCoreApplication::translate("Trainyard::JobValidation", "The accelerator count must be at least 1."));
            return;
        }
        if (!isComputeEngine(&machine)) {
            const qint64 implied = machine.impliedAccelerator.count.value_or(0);
            if (implied > 0)
                //: %1 is a legacy machine type (standard_gpu), %2 x %3 the GPUs it brings ("1 x NVIDIA_TESLA_K80").
                add(path,
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "acceleratorConfig can only be used with Compute Engine machine types; %1 is a legacy type "
                        "that brings %2 x %3 itself. Use e.g. n1-standard-8 with acceleratorConfig instead.")
                        .arg(machine.name, QString::number(implied), machine.impliedAccelerator.type));
            else
                //: %1 is a legacy machine type (complex_model_m).
                add(path,
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "acceleratorConfig can only be used with Compute Engine machine types; %1 is a legacy type. "
                        "Use e.g. n1-standard-8 with acceleratorConfig instead.")
                        .arg(machine.name));
            return;
        }
        const QList<int> allowed = machine.acceleratorCounts.value(a.type);
        if (allowed.isEmpty()) {
            QStringList withIt;
            for (const MachineType& m : m_catalog.machineTypes()) {
                if (m.acceleratorCounts.contains(a.type))
                    withIt.append(m.name);
            }
            //: %1 is an accelerator type (NVIDIA_TESLA_A100), %2 a machine type, %3 a list of machine types.
            add(typePath,
                QCoreApplication::translate("Trainyard::JobValidation",
                    "%1 cannot be attached to machine type %2; machine types that take it: %3.")
                    .arg(a.type, machine.name, withIt.join(QStringLiteral(", "))));
            return;
        }
        if (!allowed.contains(int(count))) {
            QStringList counts;
            for (int c : allowed)
                counts.append(QString::number(c));
            //: %1 is a machine type, %2 the allowed counts ("1, 2, 4"), %3 an accelerator type, %4 the job's count.
            add(countPath,
                QCoreApplication::translate("Trainyard::JobValidation", "Machine type %1 takes %2 x %3, not %4.")
                    .arg(machine.name, counts.join(QStringLiteral(", ")), a.type, QString::number(count)));
        }
    }

    // The second half of a sentence on this host's GPUs: "this host has no GPUs" or "this host has 2 GPUs
    // (0: Tesla T4 (NVIDIA_TESLA_T4), …), 2 of which can serve NVIDIA_TESLA_T4".
    QString hostGpusText(const QString& requestedType) const
    {
        if (m_host.gpus.isEmpty())
            //: The second half of a sentence ("The cluster asks for 2 GPUs in all; this host has no GPUs.").
            return QCoreApplication::translate("Trainyard::JobValidation", "this host has no GPUs");
        QStringList gpus;
        for (const GpuInfo& g : m_host.gpus)
            gpus.append(QString::number(g.index) + QStringLiteral(": ") + g.name + QStringLiteral(" (")
                + g.acceleratorType + QLatin1Char(')'));
        const int usable = m_catalog.hostGpusFor(m_host, requestedType);
        //: The second half of a sentence ("The cluster asks for 3 GPUs in all; this host has …"). %1 is the list
        //: of the host's GPUs ("0: Tesla T4 (NVIDIA_TESLA_T4), 1: …"), %2 a count, %3 an accelerator type.
        return translateN(
            QT_TRANSLATE_N_NOOP("Trainyard::JobValidation", "this host has %n GPU(s) (%1), %2 of which can serve %3"),
            m_host.gpus.size())
            .arg(gpus.join(QStringLiteral(", ")), QString::number(usable), requestedType);
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
            //: %1 is a replica role as TF_CONFIG names it (master, worker, ps, evaluator; kept as is), %2 x %3
            //: the GPUs per replica ("2 x NVIDIA_TESLA_T4"), %4 the GPUs of that type in all, %5 "this host has …".
            add(path,
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "The %1 asks for %2 x %3 per replica (%4 in all); %5.")
                    .arg(r.role, QString::number(r.acceleratorCount), r.acceleratorType, QString::number(asked),
                        hostGpusText(r.acceleratorType)));
        }
        if (plan.totalGpus() > m_host.gpus.size() && askedPerType.size() > 1)
            //: %1 is "this host has …".
            add(QStringLiteral("trainingInput"),
                translateN(
                    QT_TRANSLATE_N_NOOP("Trainyard::JobValidation", "The cluster asks for %n GPU(s) in all; %1."),
                    plan.totalGpus())
                    .arg(hostGpusText(QStringLiteral("NVIDIA_GPU"))));

        const HostCapacity cap = m_catalog.capacity(m_host);
        QStringList over;
        if (plan.totalReplicas() > cap.replicas)
            //: A part of "This host can never hold the cluster: it asks for %1; …". %1 is this host's limit.
            over.append(translateN(QT_TRANSLATE_N_NOOP("Trainyard::JobValidation", "%n replica(s) (at most %1 here)"),
                plan.totalReplicas())
                            .arg(QString::number(cap.replicas)));
        if (plan.totalVcpus() > cap.vcpus)
            //: A part of "This host can never hold the cluster: it asks for %1; …". %2 is this host's limit.
            over.append(QCoreApplication::translate("Trainyard::JobValidation", "%1 vCPUs (at most %2 here)")
                            .arg(QString::number(plan.totalVcpus()), number(std::floor(cap.vcpus))));
        if (plan.totalMemory() > cap.memory)
            //: A part of "This host can never hold the cluster: it asks for %1; …". %2 is this host's limit.
            over.append(QCoreApplication::translate("Trainyard::JobValidation", "%1 GB of memory (at most %2 GB here)")
                            .arg(number(plan.totalMemory().gb()), number(std::floor(cap.memory.gb()))));
        if (!over.isEmpty()) {
            const HostPolicy& policy = m_catalog.hostPolicy();
            //: %1 is a list of what the cluster asks for ("61 replicas (at most 32 here), 244 vCPUs (at most 64
            //: here)"), %n this host's CPUs, %2 its memory, %3 to %6 the host policy's limits.
            add(QStringLiteral("trainingInput"),
                translateN(QT_TRANSLATE_N_NOOP("Trainyard::JobValidation",
                               "This host can never hold the cluster: it asks for %1; this host has %n CPU(s) and %2 "
                               "GB of memory, and a job may use %3 vCPUs per CPU, %4 GB per GB of memory and %5 "
                               "replicas per CPU (at least %6). Use fewer or smaller replicas."),
                    m_host.cpus)
                    .arg(over.join(QStringLiteral(", ")),
                        number(std::round(Bytes::fromBytes(m_host.memoryBytes).gb() * 10) / 10),
                        number(policy.cpuOvercommit), number(policy.memoryOvercommit),
                        QString::number(policy.replicasPerCpu), QString::number(policy.minReplicaLimit)));
        }
    }

    void checkHyperparameters(const HyperparameterSpec& hp)
    {
        const QString base = QStringLiteral("trainingInput.hyperparameters");
        auto at = [&](const char* field) -> QString { return base + QLatin1Char('.') + QLatin1String(field); };
        if (hp.goal.isEmpty() || hp.goal == QLatin1String("GOAL_TYPE_UNSPECIFIED"))
            add(at("goal"),
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "goal is required for hyperparameter tuning: MAXIMIZE or MINIMIZE."));
        if (hp.maxTrials && *hp.maxTrials < 1)
            add(at("maxTrials"), atLeastOne(QStringLiteral("maxTrials")));
        if (hp.maxParallelTrials && *hp.maxParallelTrials < 1)
            add(at("maxParallelTrials"), atLeastOne(QStringLiteral("maxParallelTrials")));
        if (hp.maxFailedTrials && *hp.maxFailedTrials < 0)
            add(at("maxFailedTrials"), notNegative(QStringLiteral("maxFailedTrials")));
        // Trainyard's rule, not the service's: a study ends after maxTrials trials (1 when absent, as the
        // service defaults it), so a larger failure limit could never be reached and reads as a typo.
        else if (hp.maxFailedTrials && *hp.maxFailedTrials > hp.maxTrials.value_or(1) && hp.maxTrials.value_or(1) >= 1)
            //: %1 is the maxFailedTrials the job gives, %2 its maxTrials (API field names, kept as is).
            add(at("maxFailedTrials"),
                QCoreApplication::translate("Trainyard::JobValidation",
                    "maxFailedTrials (%1) must not be more than maxTrials (%2): the study ends before that many "
                    "trials can fail. 0 lets the service decide.")
                    .arg(*hp.maxFailedTrials)
                    .arg(hp.maxTrials.value_or(1)));
        if (!hp.resumePreviousJobId.isEmpty() && !jobIdProblems(hp.resumePreviousJobId).isEmpty())
            //: %1 is the resumePreviousJobId the job gives.
            add(at("resumePreviousJobId"),
                QCoreApplication::translate("Trainyard::JobValidation", "\"%1\" is not a valid job ID.")
                    .arg(hp.resumePreviousJobId));
        if (hp.params.isEmpty()) {
            add(at("params"),
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "At least one parameter is required for hyperparameter tuning."));
            return;
        }
        const bool grid = hp.algorithm == QLatin1String("GRID_SEARCH");
        // Texts more than one parameter type uses.
        const QString onlyCategorical = QCoreApplication::translate(
            "Trainyard::JobValidation", "categoricalValues are only for CATEGORICAL parameters.");
        const QString onlyDiscrete = QCoreApplication::translate(
            "Trainyard::JobValidation", "discreteValues are only for DISCRETE parameters.");
        const QString onlyNumeric = QCoreApplication::translate(
            "Trainyard::JobValidation", "minValue/maxValue are only for DOUBLE and INTEGER parameters.");
        QSet<QString> seen;
        for (qsizetype i = 0; i < hp.params.size(); ++i) {
            const ParameterSpec& p = hp.params.at(i);
            const QString path = base + QStringLiteral(".params[%1]").arg(i);
            auto field = [&](const char* f) -> QString { return path + QLatin1Char('.') + QLatin1String(f); };
            static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]*$"));
            if (p.parameterName.isEmpty())
                add(field("parameterName"),
                    QCoreApplication::translate("Trainyard::JobValidation", "parameterName is required."));
            else if (!name.match(p.parameterName).hasMatch())
                //: %1 is the parameterName the job gives; --NAME is a command-line flag, kept as is.
                add(field("parameterName"),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "\"%1\" is not a valid parameter name (letters, digits, '_', '-', '.'; it is passed to the "
                        "trainer as --NAME).")
                        .arg(p.parameterName));
            else if (seen.contains(p.parameterName))
                add(field("parameterName"),
                    QCoreApplication::translate("Trainyard::JobValidation", "Duplicate parameter name \"%1\".")
                        .arg(p.parameterName));
            seen.insert(p.parameterName);

            const bool numeric = p.type == QLatin1String("DOUBLE") || p.type == QLatin1String("INTEGER");
            if (p.type.isEmpty() || p.type == QLatin1String("PARAMETER_TYPE_UNSPECIFIED")) {
                add(field("type"),
                    QCoreApplication::translate(
                        "Trainyard::JobValidation", "type is required: DOUBLE, INTEGER, CATEGORICAL or DISCRETE."));
                continue;
            }
            if (numeric) {
                if (!p.minValue)
                    //: %1 is a parameter type (DOUBLE or INTEGER).
                    add(field("minValue"),
                        QCoreApplication::translate(
                            "Trainyard::JobValidation", "minValue is required for %1 parameters.")
                            .arg(p.type));
                if (!p.maxValue)
                    //: %1 is a parameter type (DOUBLE or INTEGER).
                    add(field("maxValue"),
                        QCoreApplication::translate(
                            "Trainyard::JobValidation", "maxValue is required for %1 parameters.")
                            .arg(p.type));
                if (p.type == QLatin1String("INTEGER")) {
                    if (p.minValue && *p.minValue != std::floor(*p.minValue))
                        add(field("minValue"),
                            QCoreApplication::translate(
                                "Trainyard::JobValidation", "minValue of an INTEGER parameter must be an integer."));
                    if (p.maxValue && *p.maxValue != std::floor(*p.maxValue))
                        add(field("maxValue"),
                            QCoreApplication::translate(
                                "Trainyard::JobValidation", "maxValue of an INTEGER parameter must be an integer."));
                }
                if (p.minValue && p.maxValue && !(*p.minValue < *p.maxValue))
                    add(field("maxValue"),
                        QCoreApplication::translate(
                            "Trainyard::JobValidation", "maxValue (%1) must be greater than minValue (%2).")
                            .arg(number(*p.maxValue), number(*p.minValue)));
                if (!p.categoricalValues.isEmpty())
                    add(field("categoricalValues"), onlyCategorical);
                if (!p.discreteValues.isEmpty())
                    add(field("discreteValues"), onlyDiscrete);
                if (grid && p.type == QLatin1String("DOUBLE"))
                    add(field("type"),
                        QCoreApplication::translate("Trainyard::JobValidation",
                            "DOUBLE parameters cannot be searched with algorithm GRID_SEARCH; use INTEGER, "
                            "CATEGORICAL or DISCRETE, or another algorithm."));
            } else if (p.type == QLatin1String("CATEGORICAL")) {
                if (p.categoricalValues.isEmpty())
                    add(field("categoricalValues"),
                        QCoreApplication::translate(
                            "Trainyard::JobValidation", "CATEGORICAL parameters need categoricalValues."));
                if (QSet<QString>(p.categoricalValues.cbegin(), p.categoricalValues.cend()).size()
                    != p.categoricalValues.size())
                    add(field("categoricalValues"),
                        QCoreApplication::translate("Trainyard::JobValidation", "categoricalValues must be distinct."));
                if (p.minValue || p.maxValue)
                    add(field(p.minValue ? "minValue" : "maxValue"), onlyNumeric);
                if (!p.discreteValues.isEmpty())
                    add(field("discreteValues"), onlyDiscrete);
            } else if (p.type == QLatin1String("DISCRETE")) {
                if (p.discreteValues.isEmpty())
                    add(field("discreteValues"),
                        QCoreApplication::translate(
                            "Trainyard::JobValidation", "DISCRETE parameters need discreteValues."));
                // The REST reference: "This list should not contain more than 1,000 values."
                if (p.discreteValues.size() > MaxDiscreteValues)
                    //: %1 is how many discreteValues the job gives, %2 the limit (1000).
                    add(field("discreteValues"),
                        QCoreApplication::translate(
                            "Trainyard::JobValidation", "discreteValues holds %1 values; at most %2 are allowed.")
                            .arg(p.discreteValues.size())
                            .arg(MaxDiscreteValues));
                for (qsizetype j = 1; j < p.discreteValues.size(); ++j) {
                    if (!(p.discreteValues.at(j - 1) < p.discreteValues.at(j))) {
                        //: %1 and %2 are two values of discreteValues; %1 comes right after %2.
                        add(field("discreteValues"),
                            QCoreApplication::translate("Trainyard::JobValidation",
                                "discreteValues must be strictly increasing; %1 follows %2.")
                                .arg(number(p.discreteValues.at(j)), number(p.discreteValues.at(j - 1))));
                        break;
                    }
                }
                if (p.minValue || p.maxValue)
                    add(field(p.minValue ? "minValue" : "maxValue"), onlyNumeric);
                if (!p.categoricalValues.isEmpty())
                    add(field("categoricalValues"), onlyCategorical);
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
                    //: %1 is a scale type (UNIT_LOG_SCALE, UNIT_REVERSE_LOG_SCALE), %2 the lowest value.
                    add(field(numeric ? "minValue" : "discreteValues"),
                        QCoreApplication::translate(
                            "Trainyard::JobValidation", "%1 needs values greater than 0; the lowest is %2.")
                            .arg(p.scaleType, number(lowest)));
                if (p.type == QLatin1String("CATEGORICAL"))
                    add(field("scaleType"),
                        QCoreApplication::translate(
                            "Trainyard::JobValidation", "CATEGORICAL parameters have no scale."));
            }
        }
    }

    void checkScheduling(const Scheduling& s)
    {
        const QString base = QStringLiteral("trainingInput.scheduling.");
        auto duration = [&](const char* field, const ProtoDuration& d) {
            if (d.isEmpty())
                return;
            const QString& value = d.text;
            const std::optional<double> seconds = d.seconds();
            if (!seconds)
                //: %1 is the duration the job gives; "7200s" is the API's duration format, kept as is.
                add(base + QLatin1String(field),
                    QCoreApplication::translate("Trainyard::JobValidation",
                        "\"%1\" is not a duration; write seconds with an \"s\" suffix, e.g. \"7200s\".")
                        .arg(value));
            else if (*seconds <= 0)
                //: %1 is an API field name (maxRunningTime, maxWaitTime), kept as is.
                add(base + QLatin1String(field),
                    QCoreApplication::translate("Trainyard::JobValidation", "%1 must be greater than 0s.")
                        .arg(QString::fromLatin1(field)));
        };
        duration("maxRunningTime", s.maxRunningTime);
        duration("maxWaitTime", s.maxWaitTime);
        if (s.priority && (*s.priority < 0 || *s.priority > 1000))
            add(base + QStringLiteral("priority"),
                QCoreApplication::translate("Trainyard::JobValidation", "priority must be between 0 and 1000."));
    }

    void checkVersions()
    {
        static const QRegularExpression version(QStringLiteral("^\\d+\\.\\d+$"));
        if (!m_in.runtimeVersion.isEmpty() && !version.match(m_in.runtimeVersion).hasMatch())
            //: %1 is the runtimeVersion the job gives.
            add(in("runtimeVersion"),
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "\"%1\" is not a runtime version; expected MAJOR.MINOR, e.g. \"2.11\".")
                    .arg(m_in.runtimeVersion));
        if (!m_in.pythonVersion.isEmpty() && !version.match(m_in.pythonVersion).hasMatch())
            //: %1 is the pythonVersion the job gives.
            add(in("pythonVersion"),
                QCoreApplication::translate(
                    "Trainyard::JobValidation", "\"%1\" is not a Python version; expected MAJOR.MINOR, e.g. \"3.7\".")
                    .arg(m_in.pythonVersion));
    }

    const Job& m_job;
    const TrainingInput& m_in;
    const MachineCatalog& m_catalog;
    const HostInventory m_host;
    const bool m_checkHost; // false for a cluster job (validateClusterJob)
    FieldViolations m_violations;
};

} // namespace

FieldViolations validateJob(const Job& job, const MachineCatalog& catalog, const HostInventory& host)
{
    return Validator(job, catalog, &host).run();
}

FieldViolations validateClusterJob(const Job& job, const MachineCatalog& catalog)
{
    return Validator(job, catalog, nullptr).run();
}

} // namespace Trainyard
