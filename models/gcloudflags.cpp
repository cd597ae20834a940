// SPDX-License-Identifier: GPL-2.0-or-later
#include "gcloudflags.h"
#include "prediction.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace Trainyard::GcloudFlags {

namespace {

ReplicaConfig& replicaConfig(std::optional<ReplicaConfig>& config)
{
    if (!config)
        config = ReplicaConfig {};
    return *config;
}

std::optional<QString> nonEmpty(const QString& value)
{
    return value.isEmpty() ? std::nullopt : std::optional<QString>(value);
}

/// A flag that sets one text field of the training input.
Flag textFlag(const char* name, const char* metavar, const char* help, QString TrainingInput::*field)
{
    return Flag { QLatin1String(name), QLatin1String(metavar), QString::fromUtf8(help), false,
        [field](Job& job, const QString& value, QString*) {
            job.trainingInput.*field = value;
            return true;
        },
        [field](const Job& job) { return nonEmpty(job.trainingInput.*field); } };
}

/// A role's replica count (`--worker-count`).
Flag countFlag(
    const char* name, const char* metavar, const char* help, std::optional<qint64> TrainingInput::*field)
{
    const QString flag = QLatin1String(name);
    return Flag { flag, QLatin1String(metavar), QString::fromUtf8(help), false,
        [field, flag](Job& job, const QString& value, QString* error) {
            int n = 0;
            if (!parseInt(flag, value, 0, &n, error))
                return false;
            job.trainingInput.*field = n;
            return true;
        },
        [field](const Job& job) {
            const std::optional<qint64>& n = job.trainingInput.*field;
            return n ? std::optional<QString>(QString::number(*n)) : std::nullopt;
        } };
}

/// A role's container image (`--worker-image-uri`): its ReplicaConfig's imageUri.
Flag imageFlag(
    const char* name, const char* metavar, const char* help, std::optional<ReplicaConfig> TrainingInput::*config)
{
    return Flag { QLatin1String(name), QLatin1String(metavar), QString::fromUtf8(help), false,
        [config](Job& job, const QString& value, QString*) {
            replicaConfig(job.trainingInput.*config).imageUri = value;
            return true;
        },
        [config](const Job& job) {
            const std::optional<ReplicaConfig>& c = job.trainingInput.*config;
            return c ? nonEmpty(c->imageUri) : std::nullopt;
        } };
}

/// A role's accelerators (`--worker-accelerator count=N,type=T`): its ReplicaConfig's acceleratorConfig.
Flag acceleratorFlag(const char* name, const char* help, std::optional<ReplicaConfig> TrainingInput::*config)
{
    const QString flag = QLatin1String(name);
    return Flag { flag, QStringLiteral("[count=COUNT],[type=TYPE]"), QString::fromUtf8(help), false,
        [config, flag](Job& job, const QString& value, QString* error) {
            AcceleratorConfig accelerator;
            if (!parseAccelerator(flag, value, &accelerator, error))
                return false;
            replicaConfig(job.trainingInput.*config).acceleratorConfig = accelerator;
            return true;
        },
        [config](const Job& job) -> std::optional<QString> {
            const std::optional<ReplicaConfig>& c = job.trainingInput.*config;
            if (!c || !c->acceleratorConfig || c->acceleratorConfig->type.isEmpty())
                return std::nullopt;
            return QStringLiteral("count=%1,type=%2")
                .arg(c->acceleratorConfig->count.value_or(1))
                .arg(c->acceleratorConfig->type.toLower().replace(QLatin1Char('_'), QLatin1Char('-')));
        } };
}

/// `--labels KEY=VALUE,…`: the job's labels (both commands).
Flag labelsFlag()
{
    return Flag { QStringLiteral("labels"), QStringLiteral("[KEY=VALUE,...]"), QStringLiteral("Labels to add to the job."),
        false,
        [](Job& job, const QString& value, QString* error) {
            QMap<QString, QString> labels;
            if (!parseDict(QStringLiteral("labels"), value, &labels, error))
                return false;
            for (auto it = labels.cbegin(); it != labels.cend(); ++it)
                job.labels.insert(it.key(), it.value());
            return true;
        },
        [](const Job& job) -> std::optional<QString> {
            QStringList pairs;
            for (auto it = job.labels.cbegin(); it != job.labels.cend(); ++it)
                pairs << it.key() + QLatin1Char('=') + it.value();
            return nonEmpty(pairs.join(QLatin1Char(',')));
        } };
}

PredictionInput& predictionInput(Job& job)
{
    if (!job.predictionInput)
        job.predictionInput = PredictionInput {};
    return *job.predictionInput;
}

/// A path on this host, absolute against the current folder (gcloud reads local paths the same way).
QString localPath(const QString& value)
{
    return QDir::cleanPath(QDir::current().absoluteFilePath(value));
}

/// A flag that sets one text field of the prediction input; `transform` reads the value (e.g. localPath).
Flag predictionTextFlag(const char* name, const char* metavar, const QString& help, QString PredictionInput::*field,
    QString (*transform)(const QString&) = nullptr)
{
    return Flag { QLatin1String(name), QLatin1String(metavar), help, false,
        [field, transform](Job& job, const QString& value, QString*) {
            predictionInput(job).*field = transform ? transform(value) : value;
            return true;
        },
        [field](const Job& job) { return job.predictionInput ? nonEmpty((*job.predictionInput).*field) : std::nullopt; } };
}

/// A positive count of the prediction input (`--batch-size`), gcloud's "Value must be greater than or equal to 1".
Flag predictionCountFlag(const char* name, const char* metavar, const QString& help,
    std::optional<qint64> PredictionInput::*field)
{
    const QString flag = QLatin1String(name);
    return Flag { flag, QLatin1String(metavar), help, false,
        [field, flag](Job& job, const QString& value, QString* error) {
            int n = 0;
            if (!parseInt(flag, value, 1, &n, error))
                return false;
            predictionInput(job).*field = n;
            return true;
        },
        [field](const Job& job) -> std::optional<QString> {
            const std::optional<qint64> n = job.predictionInput ? (*job.predictionInput).*field : std::nullopt;
            return n ? std::optional<QString>(QString::number(*n)) : std::nullopt;
        } };
}

/// `--data-format`'s and `--output-data-format`'s choices: gcloud's lower-case words, the API's enum names.
const QList<std::pair<QString, QString>>& dataFormats()
{
    static const QList<std::pair<QString, QString>> formats {
        { QStringLiteral("text"), QStringLiteral("TEXT") },
        { QStringLiteral("json"), QStringLiteral("JSON") },
        { QStringLiteral("csv"), QStringLiteral("CSV") },
        { QStringLiteral("tf-record"), QStringLiteral("TF_RECORD") },
        { QStringLiteral("tf-record-gzip"), QStringLiteral("TF_RECORD_GZIP") },
    };
    return formats;
}

/// A data format flag: the choice (or the enum name) into the field; gcloud's "Invalid choice" for any other.
/// Which formats a job can use here is the API's rule (validatePredictionInput()), not the flag's.
Flag formatFlag(const char* name, const char* metavar, const QString& help, QString PredictionInput::*field)
{
    const QString flag = QLatin1String(name);
    return Flag { flag, QLatin1String(metavar), help, false,
        [field, flag](Job& job, const QString& value, QString* error) {
            QStringList choices;
            for (const auto& [choice, enumName] : dataFormats()) {
                if (value.compare(choice, Qt::CaseInsensitive) == 0 || value.compare(enumName, Qt::CaseInsensitive) == 0) {
                    predictionInput(job).*field = enumName;
                    return true;
                }
                choices << choice;
            }
            *error = QStringLiteral("argument --%1: Invalid choice: '%2'. Valid choices are [%3].")
                         .arg(flag, value, choices.join(QStringLiteral(", ")));
            return false;
        },
        [field](const Job& job) -> std::optional<QString> {
            const QString enumName = job.predictionInput ? (*job.predictionInput).*field : QString();
            if (enumName.isEmpty())
                return std::nullopt;
            for (const auto& [choice, name] : dataFormats()) {
                if (name == enumName)
                    return choice;
            }
            return enumName; // not a choice: written as it is, so that the command shows it
        } };
}

QList<Flag> makePredictionTable(const QString& project)
{
    QList<Flag> t;
    t << predictionTextFlag("model-dir", "MODEL_DIR",
        QStringLiteral("Folder of a model to use instead of a deployed one; its framework is detected from its files."),
        &PredictionInput::uri, &localPath);
    t << Flag { QStringLiteral("model"), QStringLiteral("MODEL"),
        QStringLiteral("Name of the model to use (its default version, or --version)."), false,
        [project](Job& job, const QString& value, QString*) {
            predictionInput(job).modelName = PredictionJson::modelResourceName(project, value);
            return true;
        },
        [](const Job& job) -> std::optional<QString> {
            if (!job.predictionInput)
                return std::nullopt;
            const PredictionInput& in = *job.predictionInput;
            const auto name = PredictionJson::parseResourceName(in.versionName.isEmpty() ? in.modelName : in.versionName);
            return name ? std::optional<QString>(name->model) : std::nullopt;
        } };
    t << Flag { QStringLiteral("version"), QStringLiteral("VERSION"), QStringLiteral("Model version to use."), false,
        [](Job& job, const QString& value, QString* error) {
            PredictionInput& in = predictionInput(job);
            const auto model = PredictionJson::parseResourceName(in.modelName);
            if (!model) {
                *error = QStringLiteral("argument --version: --model must be specified too.");
                return false;
            }
            in.versionName = PredictionJson::versionResourceName(model->project, model->model, value);
            in.modelName.clear();
            return true;
        },
        [](const Job& job) -> std::optional<QString> {
            const auto name
                = job.predictionInput ? PredictionJson::parseResourceName(job.predictionInput->versionName) : std::nullopt;
            return name ? nonEmpty(name->version) : std::nullopt;
        } };
    t << formatFlag("data-format", "DATA_FORMAT",
        QStringLiteral("Data format of the input files: text (JSON instances, or text lines), json, csv (tf-record and "
                       "tf-record-gzip need TensorFlow, which this system has not)."),
        &PredictionInput::dataFormat);
    t << Flag { QStringLiteral("input-paths"), QStringLiteral("INPUT_PATH,[INPUT_PATH,...]"),
        QStringLiteral("Paths of the instances' files on this host; a wildcard (*) is accepted in the file name."),
        false,
        [](Job& job, const QString& value, QString*) {
            QStringList paths;
            for (const QString& path : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
                paths << localPath(path);
            predictionInput(job).inputPaths = paths;
            return true;
        },
        [](const Job& job) {
            return job.predictionInput ? nonEmpty(job.predictionInput->inputPaths.join(QLatin1Char(','))) : std::nullopt;
        } };
    t << predictionTextFlag("output-path", "OUTPUT_PATH",
        QStringLiteral("Folder to write the predictions and the errors to (made if missing)."),
        &PredictionInput::outputPath, &localPath);
    t << predictionTextFlag("region", "REGION",
        QStringLiteral("Region: a Slurm cluster of the executor's clusters.yaml runs the workers there; local (or any "
                       "region of the service) runs them on the executor's host."),
        &PredictionInput::region);
    t << formatFlag("output-data-format", "OUTPUT_DATA_FORMAT",
        QStringLiteral("Format of the results files: json (default: the instance and its prediction a line) or csv "
                       "(the prediction's values). Trainyard's; gcloud has no such flag."),
        &PredictionInput::outputDataFormat);
    t << predictionCountFlag("max-worker-count", "MAX_WORKER_COUNT",
        QStringLiteral("Maximum number of workers (default 10; on this host, at most its CPUs)."),
        &PredictionInput::maxWorkerCount);
    t << predictionCountFlag("batch-size", "BATCH_SIZE", QStringLiteral("Number of records per batch (default 64)."),
        &PredictionInput::batchSize);
    t << predictionTextFlag("runtime-version", "RUNTIME_VERSION",
        QStringLiteral("Runtime version; picks the Python interpreter."), &PredictionInput::runtimeVersion);
    t << predictionTextFlag("signature-name", "SIGNATURE_NAME",
        QStringLiteral("Name of the signature, passed to the model's predict()."), &PredictionInput::signatureName);
    t << labelsFlag();
    return t;
}

bool isSdist(const QString& uri)
{
    return uri.endsWith(QLatin1String(".tar.gz"));
}

QList<Flag> makeTable()
{
    QList<Flag> t;
    // packageUris is the two flags together: the package folder first, then the sdists. A caller that applies them
    // over a config's packageUris clears that first (the flags replace the field).
    t << Flag { QStringLiteral("package-path"), QStringLiteral("PACKAGE_PATH"),
        QStringLiteral("Path to the trainer's Python package, as gcloud's: the package folder (trainer/, with "
                       "__init__.py; built with its parent's setup.py when there is one, else with a generated one) "
                       "or a project folder (setup.py or pyproject.toml). The executor installs it offline into the "
                       "job's staging folder."),
        false,
        [](Job& job, const QString& value, QString* error) {
            const QFileInfo dir(value);
            if (!dir.isDir()) {
                *error = QStringLiteral("argument --package-path: [%1] is not a directory.").arg(value);
                return false;
            }
            job.trainingInput.packageUris.prepend(dir.absoluteFilePath());
            return true;
        },
        [](const Job& job) -> std::optional<QString> {
            for (const QString& uri : job.trainingInput.packageUris) {
                if (!isSdist(uri))
                    return uri;
            }
            return std::nullopt;
        } };
    t << Flag { QStringLiteral("packages"), QStringLiteral("[PACKAGE,...]"),
        QStringLiteral("Paths of built Python packages (.tar.gz sdists) to install."), false,
        [](Job& job, const QString& value, QString* error) {
            for (const QString& pkg : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                const QFileInfo file(pkg.trimmed());
                if (!file.exists()) {
                    *error = QStringLiteral("argument --packages: [%1] does not exist.").arg(pkg);
                    return false;
                }
                job.trainingInput.packageUris.append(file.absoluteFilePath());
            }
            return true;
        },
        [](const Job& job) -> std::optional<QString> {
            // The first folder is --package-path's; every other URI is a package to install.
            QStringList sdists;
            bool folderTaken = false;
            for (const QString& uri : job.trainingInput.packageUris) {
                if (!folderTaken && !isSdist(uri))
                    folderTaken = true;
                else
                    sdists << uri;
            }
            return nonEmpty(sdists.join(QLatin1Char(',')));
        } };
    t << textFlag("module-name", "MODULE_NAME", "Name of the module to run (python -m MODULE_NAME).",
        &TrainingInput::pythonModule);
    t << Flag { QStringLiteral("job-dir"), QStringLiteral("JOB_DIR"),
        QStringLiteral("Directory for the job's output (checkpoints); passed to the trainer as --job-dir."), false,
        [](Job& job, const QString& value, QString*) {
            // Local paths are made absolute: the replicas run in the staging folder, not in the caller's.
            job.trainingInput.jobDir
                = value.contains(QLatin1String("://")) ? value : QFileInfo(value).absoluteFilePath();
            return true;
        },
        [](const Job& job) { return nonEmpty(job.trainingInput.jobDir); } };
    t << imageFlag("master-image-uri", "MASTER_IMAGE_URI",
        "Container image (in the executor host's local podman store) to run on the master; every replica without "
        "its own image runs it too. Replaces --package-path, --module-name and --runtime-version; USER_ARGS and "
        "--job-dir go to the image's entrypoint.",
        &TrainingInput::masterConfig);
    t << imageFlag("worker-image-uri", "WORKER_IMAGE_URI",
        "Container image to run on the workers (default: the master's image, or its package).",
        &TrainingInput::workerConfig);
    t << imageFlag("parameter-server-image-uri", "PARAMETER_SERVER_IMAGE_URI",
        "Container image to run on the parameter servers (default: the master's image, or its package).",
        &TrainingInput::parameterServerConfig);
    t << Flag { QStringLiteral("scale-tier"), QStringLiteral("SCALE_TIER"),
        QStringLiteral("One of: ") + scaleTierChoices() + QLatin1Char('.'), false,
        [](Job& job, const QString& value, QString* error) {
            const std::optional<QString> tier = scaleTierFromFlag(value);
            if (!tier) {
                *error = QStringLiteral("argument --scale-tier: Invalid choice: '%1'. Valid choices are [%2].")
                             .arg(value, scaleTierChoices());
                return false;
            }
            job.trainingInput.scaleTier = *tier;
            return true;
        },
        [](const Job& job) -> std::optional<QString> {
            return job.trainingInput.scaleTier.isEmpty()
                ? std::nullopt
                : std::optional<QString>(scaleTierFlag(job.trainingInput.scaleTier));
        } };
    t << textFlag("master-machine-type", "MASTER_MACHINE_TYPE",
        "Machine type of the master (n1-standard-4, complex_model_m …).", &TrainingInput::masterType);
    t << acceleratorFlag("master-accelerator", "Accelerators for the master, e.g. type=nvidia-tesla-t4,count=1.",
        &TrainingInput::masterConfig);
    t << countFlag("worker-count", "WORKER_COUNT", "Number of workers.", &TrainingInput::workerCount);
    t << textFlag(
        "worker-machine-type", "WORKER_MACHINE_TYPE", "Machine type of the workers.", &TrainingInput::workerType);
    t << acceleratorFlag("worker-accelerator", "Accelerators for each worker.", &TrainingInput::workerConfig);
    t << countFlag("parameter-server-count", "PARAMETER_SERVER_COUNT", "Number of parameter servers.",
        &TrainingInput::parameterServerCount);
    t << textFlag("parameter-server-machine-type", "PARAMETER_SERVER_MACHINE_TYPE",
        "Machine type of the parameter servers.", &TrainingInput::parameterServerType);
    t << acceleratorFlag("parameter-server-accelerator", "Accelerators for each parameter server.",
        &TrainingInput::parameterServerConfig);
    t << countFlag("evaluator-count", "EVALUATOR_COUNT", "Number of evaluators.", &TrainingInput::evaluatorCount);
    t << textFlag("evaluator-machine-type", "EVALUATOR_MACHINE_TYPE", "Machine type of the evaluators.",
        &TrainingInput::evaluatorType);
    t << imageFlag("evaluator-image-uri", "EVALUATOR_IMAGE_URI",
        "Container image to run on the evaluators (default: the master's image, or its package).",
        &TrainingInput::evaluatorConfig);
    t << acceleratorFlag("evaluator-accelerator", "Accelerators for each evaluator.", &TrainingInput::evaluatorConfig);
    t << textFlag("network", "NETWORK",
        "The VPC network the service would peer (trainingInput.network): recorded in the job; replicas here use this "
        "host's network (or the cluster's).",
        &TrainingInput::network);
    t << textFlag("service-account", "SERVICE_ACCOUNT",
        "The service account the service would run the job as (trainingInput.serviceAccount): recorded in the job; "
        "replicas here run as the executor's sandbox user.",
        &TrainingInput::serviceAccount);
    t << Flag { QStringLiteral("enable-web-access"), QString(),
        QStringLiteral("Ask for the service's interactive shell on the replicas (trainingInput.enableWebAccess): "
                       "recorded in the job; the console's Logs and Replicas tabs are this executor's way in."),
        true,
        [](Job& job, const QString& value, QString*) {
            job.trainingInput.enableWebAccess = value == QLatin1String("true");
            return true;
        },
        [](const Job& job) -> std::optional<QString> {
            return job.trainingInput.enableWebAccess.value_or(false) ? std::optional<QString>(QStringLiteral("true"))
                                                                     : std::nullopt;
        } };
    t << textFlag("region", "REGION",
        "Region: a Slurm cluster of the executor's clusters.yaml runs the job there (trainyardctl clusters list); "
        "any other region (local, us-central1 …) runs it on the executor's host.",
        &TrainingInput::region);
    t << textFlag("runtime-version", "RUNTIME_VERSION",
        "Runtime version; picks the Python interpreter (see the executor's runtimeVersions).",
        &TrainingInput::runtimeVersion);
    t << textFlag("python-version", "PYTHON_VERSION", "Python version.", &TrainingInput::pythonVersion);
    t << labelsFlag();
    t << Flag { QStringLiteral("use-chief-in-tf-config"), QString(),
        QStringLiteral("Use \"chief\" instead of \"master\" in TF_CONFIG."), true,
        [](Job& job, const QString& value, QString*) {
            job.trainingInput.useChiefInTfConfig = value == QLatin1String("true");
            return true;
        },
        [](const Job& job) -> std::optional<QString> {
            return job.trainingInput.useChiefInTfConfig.value_or(false) ? std::optional<QString>(QStringLiteral("true"))
                                                                        : std::nullopt;
        } };
    return t;
}

} // namespace

const QList<Flag>& trainingFlags()
{
    static const QList<Flag> table = makeTable();
    return table;
}

QList<Flag> predictionFlags(const QString& project)
{
    return makePredictionTable(project);
}

QStringList flagsFor(const Job& job, const QList<Flag>& table)
{
    QStringList words;
    for (const Flag& f : table) {
        const std::optional<QString> value = f.valueOf(job);
        if (!value)
            continue;
        words << (f.isSwitch ? QStringLiteral("--") + f.name : QStringLiteral("--%1=%2").arg(f.name, *value));
    }
    return words;
}

bool applyWords(Job& job, const QStringList& words, QString* error, const QList<Flag>& table)
{
    for (const QString& word : words) {
        if (!word.startsWith(QLatin1String("--"))) {
            *error = QStringLiteral("%1 is not a flag").arg(word);
            return false;
        }
        const qsizetype eq = word.indexOf(QLatin1Char('='));
        const QString name = word.mid(2, eq < 0 ? -1 : eq - 2);
        const auto flag
            = std::find_if(table.cbegin(), table.cend(), [&name](const Flag& f) { return f.name == name; });
        if (flag == table.cend()) {
            *error = QStringLiteral("unrecognized arguments: --%1").arg(name);
            return false;
        }
        if (flag->isSwitch != (eq < 0)) {
            *error = flag->isSwitch
                ? QStringLiteral("argument --%1: ignored explicit argument '%2'").arg(name, word.mid(eq + 1))
                : QStringLiteral("argument --%1: expected one argument").arg(name);
            return false;
        }
        if (!flag->apply(job, flag->isSwitch ? QStringLiteral("true") : word.mid(eq + 1), error))
            return false;
    }
    return true;
}

bool needsConfigFile(const Job& job)
{
    const TrainingInput& in = job.trainingInput;
    // network, serviceAccount and enableWebAccess have flags of their own; a KMS key has none here (refused).
    if (in.hyperparameters || in.scheduling || !in.encryptionConfig.isEmpty()
        || (in.enableWebAccess.has_value() && !*in.enableWebAccess))
        return true;
    for (const std::optional<ReplicaConfig>* config :
        { &in.masterConfig, &in.workerConfig, &in.parameterServerConfig, &in.evaluatorConfig }) {
        if (!*config)
            continue;
        ReplicaConfig rest = **config;
        rest.acceleratorConfig.reset();
        rest.imageUri.clear(); // --*-image-uri say it
        if (!(rest == ReplicaConfig {}))
            return true;
    }
    return false;
}

QString scaleTierFlag(const QString& scaleTier)
{
    return scaleTier.toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
}

// gcloud's `--scale-tier` choices are the enum names lower-cased with dashes (basic, standard-1, custom …);
// the enum names themselves are accepted too.
std::optional<QString> scaleTierFromFlag(const QString& text)
{
    static const QStringList tiers { QStringLiteral("BASIC"), QStringLiteral("STANDARD_1"), QStringLiteral("PREMIUM_1"),
        QStringLiteral("BASIC_GPU"), QStringLiteral("BASIC_TPU"), QStringLiteral("CUSTOM") };
    const QString normalized = text.trimmed().toUpper().replace(QLatin1Char('-'), QLatin1Char('_'));
    if (tiers.contains(normalized))
        return normalized;
    return std::nullopt;
}

QString scaleTierChoices()
{
    return QStringLiteral("basic, basic-gpu, basic-tpu, custom, premium-1, standard-1");
}

bool parseInt(const QString& flag, const QString& text, int minimum, int* out, QString* error)
{
    bool ok = false;
    const int v = text.trimmed().toInt(&ok);
    if (!ok) {
        *error = QStringLiteral("argument --%1: Invalid integer value [%2]").arg(flag, text);
        return false;
    }
    if (v < minimum) {
        *error = QStringLiteral("argument --%1: Value must be greater than or equal to %2; received: %3")
                     .arg(flag)
                     .arg(minimum)
                     .arg(v);
        return false;
    }
    *out = v;
    return true;
}

bool parseDict(const QString& flag, const QString& text, QMap<QString, QString>* out, QString* error)
{
    const QStringList items = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& item : items) {
        const qsizetype eq = item.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            *error = QStringLiteral("argument --%1: Bad syntax for dict arg: [%2]. Please see `--help` for the "
                                    "expected KEY=VALUE format.")
                         .arg(flag, item);
            return false;
        }
        out->insert(item.left(eq).trimmed(), item.mid(eq + 1).trimmed());
    }
    return true;
}

bool parseAccelerator(const QString& flag, const QString& text, AcceleratorConfig* out, QString* error)
{
    QMap<QString, QString> dict;
    if (!parseDict(flag, text, &dict, error))
        return false;
    for (auto it = dict.cbegin(); it != dict.cend(); ++it) {
        if (it.key() != QLatin1String("type") && it.key() != QLatin1String("count")) {
            *error = QStringLiteral("argument --%1: valid keys are [count, type]; received: %2").arg(flag, it.key());
            return false;
        }
    }
    if (!dict.contains(QStringLiteral("type"))) {
        *error = QStringLiteral("argument --%1: Key [type] required in dict arg but not provided").arg(flag);
        return false;
    }
    out->type = dict.value(QStringLiteral("type")).toUpper().replace(QLatin1Char('-'), QLatin1Char('_'));
    int count = 1;
    if (dict.contains(QStringLiteral("count"))
        && !parseInt(flag + QStringLiteral(" count"), dict.value(QStringLiteral("count")), 1, &count, error))
        return false;
    out->count = count;
    return true;
}

} // namespace Trainyard::GcloudFlags
