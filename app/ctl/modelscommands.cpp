// SPDX-License-Identifier: GPL-2.0-or-later
#include "modelscommands.h"

#include "argparser.h"
#include "builtinalgorithm.h"
#include "configloader.h"
#include "ctlsession.h"
#include "predictionclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QJsonArray>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>

namespace Trainyard {

namespace {

/// gcloud's `--region` on every model, version, prediction and operation command (the service's regional endpoints).
void addRegionFlag(ArgParser& p)
{
    p.addFlag(QStringLiteral("region"), QStringLiteral("REGION"),
        QStringLiteral("The region of the regional endpoint, as gcloud's. Prediction nodes run on the executor's host, "
                       "so any region but a Slurm cluster's (us-central1, local …) means that host; a cluster's is "
                       "refused."));
}

/// False, after printing why, when --region names a Slurm cluster (a location without ONLINE_PREDICTION,
/// `projects.locations.get`); a region the executor does not list is one of the service's: this host.
bool regionAllowed(CtlSession& s, const ArgParser& p)
{
    if (!p.isSet(QStringLiteral("region")))
        return true;
    const QString region = p.value(QStringLiteral("region"));
    ApiClient* client = s.client(p.command());
    if (!client)
        return false;
    const ApiResult<Location> location = client->locationBlocking(region);
    if (location.ok() && !location.value.can(QStringLiteral("ONLINE_PREDICTION"))) {
        s.printError(p.command(),
            QStringLiteral("argument --region: %1 is a Slurm cluster, and prediction nodes run on the executor's host "
                           "only: leave --region out, or give local or a region of the service (us-central1).")
                .arg(region));
        return false;
    }
    return true;
}

bool structured(CtlSession& s)
{
    return s.printsResources();
}

/// The wire types' JSON, as `--format json` prints them: what a list's format reads.
template <typename Resource> QJsonArray toJsonArray(const QList<Resource>& resources)
{
    QJsonArray array;
    for (const Resource& r : resources)
        array.append(r.toJson());
    return array;
}

/// gcloud's label flags on an update verb: --update-labels (merged), --remove-labels, --clear-labels.
void addLabelUpdateFlags(ArgParser& p)
{
    p.addFlag(QStringLiteral("update-labels"), QStringLiteral("[KEY=VALUE,...]"),
        QStringLiteral("Labels to add or change; the others stay."));
    p.addFlag(QStringLiteral("remove-labels"), QStringLiteral("[KEY,...]"),
        QStringLiteral("Labels to remove (a key that is not there is ignored)."));
    p.addSwitch(QStringLiteral("clear-labels"),
        QStringLiteral("Remove every label; --update-labels then sets the new ones, as gcloud's."));
}

/// Whether the label flags ask for a change.
bool labelsChange(const ArgParser& p)
{
    return p.isSet(QStringLiteral("update-labels")) || p.isSet(QStringLiteral("remove-labels"))
        || p.isTrue(QStringLiteral("clear-labels"));
}

/// gcloud's rule for the label flags over `current`: cleared first, then removed, then updated. nullopt and *error
/// (gcloud's usage words) for a malformed --update-labels.
std::optional<QMap<QString, QString>> changedLabels(
    const ArgParser& p, const QMap<QString, QString>& current, QString* error)
{
    QMap<QString, QString> labels = p.isTrue(QStringLiteral("clear-labels")) ? QMap<QString, QString>() : current;
    for (const QString& key : p.value(QStringLiteral("remove-labels")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        labels.remove(key.trimmed());
    if (p.isSet(QStringLiteral("update-labels"))) {
        QMap<QString, QString> added;
        if (!GcloudFlags::parseDict(QStringLiteral("update-labels"), p.value(QStringLiteral("update-labels")), &added, error))
            return std::nullopt;
        for (auto it = added.cbegin(); it != added.cend(); ++it)
            labels.insert(it.key(), it.value());
    }
    return labels;
}

/// --framework's value: gcloud's names ("scikit-learn", "xgboost", "tensorflow"), ours ("pytorch"), or the API's
/// enum; nullopt for another.
std::optional<PredictionFramework> frameworkFlag(const ArgParser& p)
{
    return PredictionJson::frameworkFromName(
        p.value(QStringLiteral("framework")).trimmed().toUpper().replace(QLatin1Char('-'), QLatin1Char('_')));
}

/// gcloud's list flags on a list verb (--flatten, --sort-by, --limit, --uri); false after the usage error.
bool takeListDisplay(CtlSession& s, const ArgParser& p, ListDisplay* display)
{
    QString error;
    if (display->take(p, &error))
        return true;
    s.err() << p.usageError(error);
    return false;
}

/// The session's prediction client; nullptr after an error was printed (no executor).
std::optional<PredictionClient> prediction(CtlSession& s, const QString& command)
{
    ApiClient* client = s.client(command);
    if (!client)
        return std::nullopt;
    return PredictionClient(client);
}

/// `r`'s value, or nullopt after its error was printed under `command`.
template <typename T> std::optional<T> ok(CtlSession& s, const QString& command, const ApiResult<T>& r)
{
    if (!r.ok()) {
        s.printApiError(command, r.error);
        return std::nullopt;
    }
    return r.value;
}

/// An update verb's --description and label flags into `changes` and the update mask (a model's or a version's);
/// `get` reads the resource's labels when the label flags ask for a change. ExitCode::Ok, or the code after printing
/// why.
template <typename Resource, typename Get>
int describeAndLabel(CtlSession& s, const ArgParser& p, const QString& command, Resource* changes, QStringList* mask,
    Get get)
{
    if (p.isSet(QStringLiteral("description"))) {
        changes->description = p.value(QStringLiteral("description"));
        *mask << QStringLiteral("description");
    }
    if (!labelsChange(p))
        return ExitCode::Ok;
    // Over the labels the resource has, as gcloud's label flags.
    const std::optional<Resource> current = ok(s, command, get());
    if (!current)
        return ExitCode::Error;
    QString error;
    const std::optional<QMap<QString, QString>> labels = changedLabels(p, current->labels, &error);
    if (!labels) {
        s.err() << p.usageError(error);
        return ExitCode::Usage;
    }
    changes->labels = *labels;
    *mask << QStringLiteral("labels");
    return ExitCode::Ok;
}

/// Polls operation `name` ("projects/p/operations/id" or its ID) until it is done, printing gcloud's progress dots on
/// stderr after `progress` ("Creating version (this might take a few minutes)"). The done operation, or nullopt after
/// an error was printed.
std::optional<OperationResource> waitFor(
    CtlSession& s, PredictionClient& client, const QString& command, const QString& name, const QString& progress)
{
    if (!progress.isEmpty()) {
        s.err() << progress;
        s.err().flush();
    }
    const QString id = name.section(QLatin1Char('/'), -1);
    int wait = 200;
    for (;;) {
        const std::optional<OperationResource> op = ok(s, command, client.getOperationBlocking(id));
        if (!op)
            return std::nullopt;
        if (op->done) {
            if (!progress.isEmpty()) {
                s.err() << (op->failed() ? "failed.\n" : "done.\n");
                s.err().flush();
            }
            return op;
        }
        if (!progress.isEmpty()) {
            s.err() << '.';
            s.err().flush();
        }
        QThread::msleep(wait); // a CLI between two HTTP calls: nothing else runs on this thread
        wait = qMin(2000, wait * 2);
    }
}

/// gcloud's default output of `ai-platform predict` (command_lib/ml_engine/predict_utilities.GetDefaultFormat): a
/// table with a column per key when the predictions are objects (their keys sorted), else each prediction list as
/// one row with no heading; JSON when the keys are not names a projection can hold.
ResourceFormat defaultPredictFormat(const QJsonArray& predictions)
{
    QString spec = QStringLiteral("table[no-heading](predictions)");
    if (!predictions.isEmpty() && predictions.first().isObject()) {
        QStringList keys = predictions.first().toObject().keys();
        keys.sort();
        static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        const bool plain = std::all_of(keys.cbegin(), keys.cend(), [](const QString& k) { return name.match(k).hasMatch(); });
        spec = plain ? QStringLiteral("table(predictions:format=\"table(%1)\")").arg(keys.join(QStringLiteral(", ")))
                     : QStringLiteral("json");
    }
    QString error;
    return *ResourceFormat::parse(spec, &error);
}

/// gcloud's usage error when --model is missing (every versions verb and predict need it); false then.
bool requireModel(CtlSession& s, const ArgParser& p)
{
    if (p.isSet(QStringLiteral("model")))
        return true;
    s.err() << p.usageError(QStringLiteral("argument --model: Must be specified."));
    return false;
}

/// An operation that ended with an error: printed as gcloud prints a failed operation; ExitCode::Error.
int operationFailed(CtlSession& s, const QString& command, const OperationResource& op)
{
    s.err() << "ERROR: (" << command << ") " << op.errorMessage << '\n';
    s.err().flush();
    return ExitCode::Error;
}

/// --labels KEY=VALUE,…; false after a usage error was printed.
bool labelsFlag(CtlSession& s, const ArgParser& p, QMap<QString, QString>* labels)
{
    if (!p.isSet(QStringLiteral("labels")))
        return true;
    QString error;
    if (!ArgParser::parseDict(QStringLiteral("--labels"), p.value(QStringLiteral("labels")), labels, &error)) {
        s.err() << p.usageError(error);
        return false;
    }
    return true;
}

} // namespace

int ModelsCommands::createModel(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.models.create");
    ArgParser p(command, QStringLiteral("trainyardctl models create MODEL [optional flags]"),
        QStringLiteral("create a new model\nA model holds versions: deployed copies of trained models, each served by "
                       "prediction nodes on the executor's host."));
    p.addPositional(QStringLiteral("MODEL"), QStringLiteral("Name of the model: a letter, then letters, digits, '_'."));
    p.addFlag(
        QStringLiteral("description"), QStringLiteral("DESCRIPTION"), QStringLiteral("Description of the model."));
    p.addFlag(QStringLiteral("regions"), QStringLiteral("REGION"), QStringLiteral("The region of the model (one)."));
    p.addFlag(QStringLiteral("labels"), QStringLiteral("KEY=VALUE,[…]"), QStringLiteral("Labels of the model."));
    p.addSwitch(QStringLiteral("enable-logging"), QStringLiteral("Set onlinePredictionLogging."));
    p.addSwitch(QStringLiteral("enable-console-logging"), QStringLiteral("Set onlinePredictionConsoleLogging."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    ModelResource asked;
    asked.name = p.positional(QStringLiteral("MODEL"));
    asked.description = p.value(QStringLiteral("description"));
    if (p.isSet(QStringLiteral("regions")))
        asked.regions = p.value(QStringLiteral("regions")).split(QLatin1Char(','));
    if (!labelsFlag(s, p, &asked.labels))
        return ExitCode::Usage;
    asked.onlinePredictionLogging = p.isTrue(QStringLiteral("enable-logging"));
    asked.onlinePredictionConsoleLogging = p.isTrue(QStringLiteral("enable-console-logging"));
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<ModelResource> model
        = client ? ok(s, command, client->createModelBlocking(asked)) : std::nullopt;
    if (!model)
        return ExitCode::Error;
    if (structured(s))
        s.printResource(model->toJson());
    s.err() << "Created ai platform model [" << model->resourceName() << "].\n";
    s.err().flush();
    return ExitCode::Ok;
}

int ModelsCommands::describeModel(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.models.describe");
    ArgParser p(command, QStringLiteral("trainyardctl models describe MODEL"), QStringLiteral("describe a model"));
    p.addPositional(QStringLiteral("MODEL"), QStringLiteral("Name of the model."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<ModelResource> model
        = client ? ok(s, command, client->getModelBlocking(p.positional(QStringLiteral("MODEL")))) : std::nullopt;
    if (!model)
        return ExitCode::Error;
    s.printResource(model->toJson());
    return ExitCode::Ok;
}

int ModelsCommands::listModels(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.models.list");
    ArgParser p(command, QStringLiteral("trainyardctl models list [--filter=EXPRESSION]"),
        QStringLiteral("list existing models"));
    p.addFlag(QStringLiteral("filter"), QStringLiteral("EXPRESSION"),
        QStringLiteral("Only the models that pass it: name, labels.KEY (: = !=), e.g. \"labels.team=vision\"."));
    addRegionFlag(p);
    ListDisplay::addFlags(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    ListDisplay display;
    if (!takeListDisplay(s, p, &display))
        return ExitCode::Usage;
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<QList<ModelResource>> models
        = client ? ok(s, command, client->allModelsBlocking(p.value(QStringLiteral("filter")))) : std::nullopt;
    if (!models)
        return ExitCode::Error;
    // gcloud's default for `ai-platform models list`.
    s.printList(toJsonArray(*models),
        QStringLiteral("table(name.basename(), defaultVersion.name.basename():label=DEFAULT_VERSION_NAME)"), display);
    return ExitCode::Ok;
}

int ModelsCommands::deleteModel(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.models.delete");
    ArgParser p(command, QStringLiteral("trainyardctl models delete MODEL"),
        QStringLiteral(
            "delete an existing model\nA model with versions cannot be deleted: delete its versions first."));
    p.addPositional(QStringLiteral("MODEL"), QStringLiteral("Name of the model."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    const QString model = p.positional(QStringLiteral("MODEL"));
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<OperationResource> op
        = client ? ok(s, command, client->deleteModelBlocking(model)) : std::nullopt;
    if (!op)
        return ExitCode::Error;
    if (op->failed())
        return operationFailed(s, command, *op);
    s.err() << "Deleted ai platform model [" << PredictionJson::modelResourceName(s.project(), model) << "].\n";
    s.err().flush();
    return ExitCode::Ok;
}

int ModelsCommands::createVersion(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.create");
    ArgParser p(command,
        QStringLiteral("trainyardctl versions create VERSION --model=MODEL --origin=FOLDER [optional flags]"),
        QStringLiteral(
            "create a new model version\nThe folder is copied into the executor's data folder and served by "
            "prediction nodes: the framework's model file (scikit-learn: model.joblib or model.pkl; XGBoost: "
            "model.bst; PyTorch: a TorchScript model.pt), or a custom prediction routine's class. The first "
            "version of a model becomes its default."));
    p.addPositional(QStringLiteral("VERSION"), QStringLiteral("Name of the version."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model of the version."));
    p.addFlag(QStringLiteral("origin"), QStringLiteral("ORIGIN"),
        QStringLiteral("The folder of the model's files (a built-in algorithm's <job-dir>/model, say)."));
    p.addFlag(QStringLiteral("framework"), QStringLiteral("FRAMEWORK"),
        QStringLiteral("scikit-learn, xgboost or pytorch (tensorflow cannot be served here)."));
    p.addFlag(QStringLiteral("runtime-version"), QStringLiteral("RUNTIME_VERSION"), QStringLiteral("Runtime version."));
    p.addFlag(QStringLiteral("python-version"), QStringLiteral("PYTHON_VERSION"), QStringLiteral("Python version."));
    p.addFlag(QStringLiteral("prediction-class"), QStringLiteral("PREDICTION_CLASS"),
        QStringLiteral("A custom prediction routine's class, module.Class (from_path and predict)."));
    p.addFlag(QStringLiteral("package-uris"), QStringLiteral("PACKAGE_URI,[…]"),
        QStringLiteral("Packages of the custom prediction routine, staged with pip."));
    p.addFlag(
        QStringLiteral("description"), QStringLiteral("DESCRIPTION"), QStringLiteral("Description of the version."));
    p.addFlag(QStringLiteral("labels"), QStringLiteral("KEY=VALUE,[…]"), QStringLiteral("Labels of the version."));
    p.addFlag(QStringLiteral("machine-type"), QStringLiteral("MACHINE_TYPE"), QStringLiteral("Kept with the version."));
    p.addFlag(
        QStringLiteral("nodes"), QStringLiteral("NODES"), QStringLiteral("Prediction nodes (manualScaling.nodes)."));
    p.addFlag(QStringLiteral("min-nodes"), QStringLiteral("MIN_NODES"), QStringLiteral("autoScaling.minNodes."));
    p.addFlag(QStringLiteral("max-nodes"), QStringLiteral("MAX_NODES"), QStringLiteral("autoScaling.maxNodes."));
    p.addSwitch(QStringLiteral("async"), QStringLiteral("Return at once, without waiting for the operation."));
    p.addFlag(QStringLiteral("config"), QStringLiteral("CONFIG"),
        QStringLiteral("A YAML (or JSON) file of the Version's fields (deploymentUri, framework, runtimeVersion, "
                       "autoScaling, labels …), as gcloud's; the flags given override it."));
    p.addFlag(QStringLiteral("staging-bucket"), QStringLiteral("STAGING_BUCKET"),
        QStringLiteral("Accepted and not used, with a warning: gcloud uploads --origin there; here the executor "
                       "copies the folder itself."));
    p.addFlag(QStringLiteral("service-account"), QStringLiteral("SERVICE_ACCOUNT"),
        QStringLiteral("Refused: prediction nodes run as the executor's sandbox user, not as a service account."));
    p.addFlag(QStringLiteral("accelerator"), QStringLiteral("[count=COUNT],[type=TYPE]"),
        QStringLiteral("Refused: prediction nodes run on this host's CPUs."));
    p.addFlag(QStringLiteral("explanation-method"), QStringLiteral("EXPLANATION_METHOD"),
        QStringLiteral("Explanations of the version's predictions (trainyardctl explain), as gcloud beta's: "
                       "sampled-shapley (any model), integrated-gradients (PyTorch), xrai; ours: tree-shap "
                       "(XGBoost), exact-shapley (at most 12 features). The model folder's "
                       "explanation_metadata.json gives each feature's baseline."));
    p.addFlag(QStringLiteral("num-paths"), QStringLiteral("NUM_PATHS"),
        QStringLiteral("sampled-shapley's feature permutations, 1-50; default=50."));
    p.addFlag(QStringLiteral("num-integral-steps"), QStringLiteral("NUM_INTEGRAL_STEPS"),
        QStringLiteral("integrated-gradients' and xrai's steps, 1-100; default=50."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    // What the executor does not serve is refused here with the API's reason (it refuses those fields by name).
    for (const auto& [flag, why] :
        { std::pair { "service-account", "prediction nodes run as the executor's sandbox user" },
            std::pair { "accelerator", "prediction nodes run on this host's CPUs (no accelerator is given to them)" } }) {
        if (p.isSet(QLatin1String(flag))) {
            s.err() << p.usageError(QStringLiteral("argument --%1: not served here: %2.")
                                        .arg(QLatin1String(flag), QLatin1String(why)));
            return ExitCode::Usage;
        }
    }
    if (p.isSet(QStringLiteral("staging-bucket")))
        s.err() << "WARNING: --staging-bucket is accepted and not used: the executor copies --origin itself.\n";
    VersionResource asked;
    if (p.isSet(QStringLiteral("config"))) {
        // gcloud's --config: the Version's fields; flags override them.
        const QString path = p.value(QStringLiteral("config"));
        QFile file(path);
        QString error;
        std::optional<QJsonObject> fields;
        if (!file.open(QIODevice::ReadOnly))
            error = file.errorString();
        else
            fields = ConfigLoader::toJsonObject(file.readAll(),
                path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? ConfigLoader::Format::Json
                                                                           : ConfigLoader::Format::Yaml,
                &error, ConfigLoader::Resource::Version);
        FieldViolations violations;
        if (fields) {
            // The version's name is the positional argument's, whatever the file says.
            fields->insert(QStringLiteral("name"), p.positional(QStringLiteral("VERSION")));
            asked = VersionResource::fromJson(*fields, s.project(), p.value(QStringLiteral("model")), &violations);
        }
        if (!fields || !violations.isEmpty()) {
            QStringList why;
            for (const FieldViolation& v : std::as_const(violations))
                why << v.field + QStringLiteral(": ") + v.description;
            s.printError(command,
                QStringLiteral("Invalid --config file [%1]: %2").arg(path, fields ? why.join(QStringLiteral("; ")) : error));
            return ExitCode::Error;
        }
    }
    if (!p.isSet(QStringLiteral("model"))) {
        s.err() << p.usageError(QStringLiteral("argument --model: Must be specified."));
        return ExitCode::Usage;
    }
    if (!p.isSet(QStringLiteral("origin")) && asked.deploymentUri.isEmpty()) {
        s.err() << p.usageError(QStringLiteral("argument --origin: Must be specified (or deploymentUri in --config)."));
        return ExitCode::Usage;
    }
    asked.project = s.project();
    asked.model = p.value(QStringLiteral("model"));
    asked.name = p.positional(QStringLiteral("VERSION"));
    if (p.isSet(QStringLiteral("origin")))
        asked.deploymentUri = p.value(QStringLiteral("origin"));
    if (p.isSet(QStringLiteral("framework"))) {
        const std::optional<PredictionFramework> framework = frameworkFlag(p);
        if (!framework) {
            s.err() << p.usageError(QStringLiteral("argument --framework: Invalid choice: '%1'. Valid choices are "
                                                   "[scikit-learn, xgboost, pytorch, tensorflow].")
                                        .arg(p.value(QStringLiteral("framework"))));
            return ExitCode::Usage;
        }
        asked.framework = *framework;
    }
    // Each flag given overrides --config's field.
    for (const auto& [flag, field] : { std::pair { "runtime-version", &VersionResource::runtimeVersion },
             std::pair { "python-version", &VersionResource::pythonVersion },
             std::pair { "prediction-class", &VersionResource::predictionClass },
             std::pair { "description", &VersionResource::description },
             std::pair { "machine-type", &VersionResource::machineType } }) {
        if (p.isSet(QLatin1String(flag)))
            asked.*field = p.value(QLatin1String(flag));
    }
    if (p.isSet(QStringLiteral("package-uris")))
        asked.packageUris = p.value(QStringLiteral("package-uris")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (p.isSet(QStringLiteral("labels")))
        asked.labels.clear(); // the flag replaces --config's labels
    if (!labelsFlag(s, p, &asked.labels))
        return ExitCode::Usage;
    auto count = [&](const char* flag, int* out) {
        QString error;
        if (!ArgParser::parseInt(
                QStringLiteral("--") + QLatin1String(flag), p.value(QLatin1String(flag)), 0, out, &error)) {
            s.err() << p.usageError(error);
            return false;
        }
        return true;
    };
    int n = 0;
    if (p.isSet(QStringLiteral("explanation-method"))) {
        const std::optional<ExplanationConfig::Method> method
            = ExplanationConfig::methodFromFlag(p.value(QStringLiteral("explanation-method")));
        if (!method) {
            s.err() << p.usageError(QStringLiteral("argument --explanation-method: Invalid choice: '%1'. Valid "
                                                   "choices are [%2].")
                                        .arg(p.value(QStringLiteral("explanation-method")),
                                            ExplanationConfig::flagNames().join(QStringLiteral(", "))));
            return ExitCode::Usage;
        }
        ExplanationConfig config;
        config.method = *method;
        config.numPaths = ExplanationConfig::DefaultPaths;
        config.numIntegralSteps = ExplanationConfig::DefaultSteps;
        if (p.isSet(QStringLiteral("num-paths")) && !count("num-paths", &config.numPaths))
            return ExitCode::Usage;
        if (p.isSet(QStringLiteral("num-integral-steps")) && !count("num-integral-steps", &config.numIntegralSteps))
            return ExitCode::Usage;
        asked.explanationConfig = config;
    } else if (p.isSet(QStringLiteral("num-paths")) || p.isSet(QStringLiteral("num-integral-steps"))) {
        s.err() << p.usageError(QStringLiteral("argument --num-paths/--num-integral-steps: only with "
                                               "--explanation-method."));
        return ExitCode::Usage;
    }
    if (p.isSet(QStringLiteral("nodes"))) {
        if (!count("nodes", &n))
            return ExitCode::Usage;
        asked.manualScalingNodes = n;
    }
    if (p.isSet(QStringLiteral("min-nodes"))) {
        if (!count("min-nodes", &n))
            return ExitCode::Usage;
        asked.autoScalingMinNodes = n;
    }
    if (p.isSet(QStringLiteral("max-nodes"))) {
        if (!count("max-nodes", &n))
            return ExitCode::Usage;
        asked.autoScalingMaxNodes = n;
    }

    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<OperationResource> op
        = client ? ok(s, command, client->createVersionBlocking(asked)) : std::nullopt;
    if (!op)
        return ExitCode::Error;
    const QString opName = op->resourceName();
    if (p.isTrue(QStringLiteral("async"))) {
        if (structured(s))
            s.printResource(op->toJson());
        s.err() << "Create request issued for: [" << p.positional(QStringLiteral("VERSION")) << "]\nCheck operation ["
                << opName << "] for status.\n";
        s.err().flush();
        return ExitCode::Ok;
    }
    const std::optional<OperationResource> done = waitFor(
        s, *client, command, opName, QStringLiteral("Creating version (this might take a few minutes)......"));
    if (!done)
        return ExitCode::Error;
    if (done->failed())
        return operationFailed(s, command, *done);
    if (structured(s))
        s.printResource(done->responseResource());
    return ExitCode::Ok;
}

int ModelsCommands::describeVersion(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.describe");
    ArgParser p(command, QStringLiteral("trainyardctl versions describe VERSION --model=MODEL"),
        QStringLiteral("describe an existing model version"));
    p.addPositional(QStringLiteral("VERSION"), QStringLiteral("Name of the version."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model of the version."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<VersionResource> v = client
        ? ok(s, command,
            client->getVersionBlocking(p.value(QStringLiteral("model")), p.positional(QStringLiteral("VERSION"))))
        : std::nullopt;
    if (!v)
        return ExitCode::Error;
    s.printResource(v->toJson());
    return ExitCode::Ok;
}

int ModelsCommands::listVersions(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.list");
    ArgParser p(command, QStringLiteral("trainyardctl versions list --model=MODEL [--filter=EXPRESSION]"),
        QStringLiteral("list existing versions of a model"));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model."));
    p.addFlag(QStringLiteral("filter"), QStringLiteral("EXPRESSION"),
        QStringLiteral("Only the versions that pass it: name, labels.KEY, createTime (>= RFC 3339)."));
    addRegionFlag(p);
    ListDisplay::addFlags(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    ListDisplay display;
    if (!takeListDisplay(s, p, &display))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<QList<VersionResource>> versions = client
        ? ok(s, command,
            client->allVersionsBlocking(p.value(QStringLiteral("model")), p.value(QStringLiteral("filter"))))
        : std::nullopt;
    if (!versions)
        return ExitCode::Error;
    // gcloud's default `table(name.basename(), deploymentUri, state)`, with the framework (a custom routine's
    // class) and which version is the default (ours).
    s.printList(toJsonArray(*versions),
        QStringLiteral("table(name.basename(), deploymentUri, state, firstof(predictionClass, framework):label=FRAMEWORK, "
                       "isDefault.yesno(yes=yes, no=''):label=DEFAULT)"),
        display);
    return ExitCode::Ok;
}

int ModelsCommands::deleteVersion(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.delete");
    ArgParser p(command, QStringLiteral("trainyardctl versions delete VERSION --model=MODEL [--async]"),
        QStringLiteral("delete an existing model version\nIts prediction nodes stop and its files are removed. The "
                       "default version can be deleted only when it is the model's last."));
    p.addPositional(QStringLiteral("VERSION"), QStringLiteral("Name of the version."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model of the version."));
    p.addSwitch(QStringLiteral("async"), QStringLiteral("Return at once, without waiting for the operation."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<OperationResource> op = client
        ? ok(s, command,
            client->deleteVersionBlocking(p.value(QStringLiteral("model")), p.positional(QStringLiteral("VERSION"))))
        : std::nullopt;
    if (!op)
        return ExitCode::Error;
    if (p.isTrue(QStringLiteral("async"))) {
        s.err() << "Delete request issued for: [" << p.positional(QStringLiteral("VERSION")) << "]\nCheck operation ["
                << op->resourceName() << "] for status.\n";
        s.err().flush();
        return ExitCode::Ok;
    }
    const std::optional<OperationResource> done = waitFor(s, *client, command, op->resourceName(),
        QStringLiteral("Deleting version [%1]......").arg(p.positional(QStringLiteral("VERSION"))));
    if (!done)
        return ExitCode::Error;
    return done->failed() ? operationFailed(s, command, *done) : ExitCode::Ok;
}

int ModelsCommands::updateVersion(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.update");
    ArgParser p(command,
        QStringLiteral("trainyardctl versions update VERSION --model=MODEL [--description=DESCRIPTION] "
                       "[--update-labels=[KEY=VALUE,...]] [--remove-labels=[KEY,...]] [--clear-labels] "
                       "[--nodes=N | --min-nodes=N [--max-nodes=N]] [--async]"),
        QStringLiteral("update an existing model version\nIts description, labels or scaling; new scaling starts its "
                       "nodes again with the new numbers (UPDATING, then READY)."));
    p.addPositional(QStringLiteral("VERSION"), QStringLiteral("Name of the version."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model of the version."));
    p.addFlag(QStringLiteral("description"), QStringLiteral("DESCRIPTION"), QStringLiteral("The new description."));
    addLabelUpdateFlags(p);
    p.addFlag(QStringLiteral("nodes"), QStringLiteral("N"), QStringLiteral("manualScaling.nodes: this many nodes."));
    p.addFlag(QStringLiteral("min-nodes"), QStringLiteral("N"),
        QStringLiteral("autoScaling.minNodes (0: scale to zero when idle)."));
    p.addFlag(QStringLiteral("max-nodes"), QStringLiteral("N"), QStringLiteral("autoScaling.maxNodes."));
    p.addSwitch(QStringLiteral("async"), QStringLiteral("Return at once, without waiting for the operation."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    if (p.isSet(QStringLiteral("nodes"))
        && (p.isSet(QStringLiteral("min-nodes")) || p.isSet(QStringLiteral("max-nodes")))) {
        s.err() << p.usageError(QStringLiteral("argument --nodes: At most one of --nodes | --min-nodes --max-nodes may "
                                               "be specified."));
        return ExitCode::Usage;
    }
    std::optional<PredictionClient> client = prediction(s, command);
    if (!client)
        return ExitCode::Error;
    VersionResource changes;
    changes.project = s.project();
    changes.model = p.value(QStringLiteral("model"));
    changes.name = p.positional(QStringLiteral("VERSION"));
    QStringList mask;
    if (const int code = describeAndLabel(s, p, command, &changes, &mask,
            [&] { return client->getVersionBlocking(changes.model, changes.name); });
        code != ExitCode::Ok)
        return code;
    const auto number = [&](const char* flag, int least, int* out) {
        bool ok = false;
        *out = p.value(QLatin1String(flag)).toInt(&ok);
        if (!ok || *out < least) {
            s.err() << p.usageError(
                QStringLiteral("argument --%1: Value must be an integer of at least %2; received: %3")
                    .arg(QLatin1String(flag))
                    .arg(least)
                    .arg(p.value(QLatin1String(flag))));
            return false;
        }
        return true;
    };
    int n = 0;
    if (p.isSet(QStringLiteral("nodes"))) {
        if (!number("nodes", 1, &n))
            return ExitCode::Usage;
        changes.manualScalingNodes = n;
        mask << QStringLiteral("manualScaling.nodes");
    }
    if (p.isSet(QStringLiteral("min-nodes"))) {
        if (!number("min-nodes", 0, &n))
            return ExitCode::Usage;
        changes.autoScalingMinNodes = n;
        mask << QStringLiteral("autoScaling.minNodes");
    }
    if (p.isSet(QStringLiteral("max-nodes"))) {
        if (!number("max-nodes", 1, &n))
            return ExitCode::Usage;
        changes.autoScalingMaxNodes = n;
        mask << QStringLiteral("autoScaling.maxNodes");
    }
    if (mask.isEmpty()) {
        s.err() << p.usageError(QStringLiteral("Nothing to update: give --description, --update-labels, "
                                               "--remove-labels, --clear-labels, --nodes, --min-nodes or --max-nodes."));
        return ExitCode::Usage;
    }
    const std::optional<OperationResource> op = ok(s, command, client->patchVersionBlocking(changes, mask));
    if (!op)
        return ExitCode::Error;
    if (p.isTrue(QStringLiteral("async"))) {
        s.err() << "Update request issued for: [" << p.positional(QStringLiteral("VERSION")) << "]\nCheck operation ["
                << op->resourceName() << "] for status.\n";
        s.err().flush();
        return ExitCode::Ok;
    }
    const std::optional<OperationResource> done = waitFor(s, *client, command, op->resourceName(),
        QStringLiteral("Updating version [%1]......").arg(p.positional(QStringLiteral("VERSION"))));
    if (!done)
        return ExitCode::Error;
    return done->failed() ? operationFailed(s, command, *done) : ExitCode::Ok;
}

int ModelsCommands::setDefaultVersion(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.set-default");
    ArgParser p(command, QStringLiteral("trainyardctl versions set-default VERSION --model=MODEL"),
        QStringLiteral("set an existing version as the default for its model\nThe model's :predict goes to it."));
    p.addPositional(QStringLiteral("VERSION"), QStringLiteral("Name of the version."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model of the version."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<VersionResource> v = client ? ok(s, command,
                                                 client->setDefaultVersionBlocking(p.value(QStringLiteral("model")),
                                                     p.positional(QStringLiteral("VERSION"))))
                                                    : std::nullopt;
    if (!v)
        return ExitCode::Error;
    s.printResource(v->toJson());
    return ExitCode::Ok;
}

int ModelsCommands::updateModel(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.models.update");
    ArgParser p(command,
        QStringLiteral("trainyardctl models update MODEL [--description=DESCRIPTION] [--update-labels=[KEY=VALUE,...]] "
                       "[--remove-labels=[KEY,...]] [--clear-labels]"),
        QStringLiteral("update an existing model\nIts description or labels (an UPDATE_MODEL operation, waited for)."));
    p.addPositional(QStringLiteral("MODEL"), QStringLiteral("Name of the model."));
    p.addFlag(QStringLiteral("description"), QStringLiteral("DESCRIPTION"), QStringLiteral("The new description."));
    addLabelUpdateFlags(p);
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!p.isSet(QStringLiteral("description")) && !labelsChange(p)) {
        s.err() << p.usageError(QStringLiteral("Nothing to update: give --description, --update-labels, "
                                               "--remove-labels or --clear-labels."));
        return ExitCode::Usage;
    }
    std::optional<PredictionClient> client = prediction(s, command);
    if (!client)
        return ExitCode::Error;
    ModelResource changes;
    changes.project = s.project();
    changes.name = p.positional(QStringLiteral("MODEL"));
    QStringList mask;
    if (const int code = describeAndLabel(
            s, p, command, &changes, &mask, [&] { return client->getModelBlocking(changes.name); });
        code != ExitCode::Ok)
        return code;
    const std::optional<OperationResource> op = ok(s, command, client->patchModelBlocking(changes, mask));
    if (!op)
        return ExitCode::Error;
    const std::optional<OperationResource> done = waitFor(s, *client, command, op->resourceName(),
        QStringLiteral("Updating model [%1]......").arg(changes.name));
    if (!done)
        return ExitCode::Error;
    return done->failed() ? operationFailed(s, command, *done) : ExitCode::Ok;
}

int ModelsCommands::cancelOperation(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.operations.cancel");
    ArgParser p(command, QStringLiteral("trainyardctl operations cancel OPERATION"),
        QStringLiteral("cancel an operation\nA version being created stops and is removed; a finished operation "
                       "stays as it ended."));
    p.addPositional(QStringLiteral("OPERATION"), QStringLiteral("The operation's ID or name."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    std::optional<PredictionClient> client = prediction(s, command);
    if (!client)
        return ExitCode::Error;
    const QString id = p.positional(QStringLiteral("OPERATION")).section(QLatin1Char('/'), -1);
    if (!ok(s, command, client->cancelOperationBlocking(id)))
        return ExitCode::Error;
    s.err() << "Cancelled [projects/" << s.project() << "/operations/" << id << "].\n";
    s.err().flush();
    return ExitCode::Ok;
}

int ModelsCommands::describeOperation(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.operations.describe");
    ArgParser p(
        command, QStringLiteral("trainyardctl operations describe OPERATION"), QStringLiteral("describe an operation"));
    p.addPositional(QStringLiteral("OPERATION"), QStringLiteral("The operation's ID or name."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<OperationResource> op = client
        ? ok(s, command,
            client->getOperationBlocking(p.positional(QStringLiteral("OPERATION")).section(QLatin1Char('/'), -1)))
        : std::nullopt;
    if (!op)
        return ExitCode::Error;
    s.printResource(op->toJson());
    return ExitCode::Ok;
}

int ModelsCommands::listOperations(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.operations.list");
    ArgParser p(command, QStringLiteral("trainyardctl operations list"),
        QStringLiteral("list the project's operations, newest first"));
    addRegionFlag(p);
    ListDisplay::addFlags(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    ListDisplay display;
    if (!takeListDisplay(s, p, &display))
        return ExitCode::Usage;
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<QList<OperationResource>> ops
        = client ? ok(s, command, client->allOperationsBlocking(QString())) : std::nullopt;
    if (!ops)
        return ExitCode::Error;
    // NAME, TYPE and STATUS (RUNNING, DONE or FAILED), the status from the typed operations.
    QHash<QString, QString> statuses;
    for (const OperationResource& op : *ops)
        statuses.insert(op.resourceName(),
            !op.done ? QStringLiteral("RUNNING") : op.failed() ? QStringLiteral("FAILED") : QStringLiteral("DONE"));
    const ResourceFormat::Transform status = [&statuses](const QJsonValue&, const QJsonValue& op, const QStringList&) {
        return QJsonValue(statuses.value(op[QLatin1String("name")].toString()));
    };
    s.printList(toJsonArray(*ops),
        QStringLiteral("table(name.basename():label=NAME, metadata.operationType:label=TYPE, "
                       "operationStatus():label=STATUS)"),
        display, { { QStringLiteral("operationStatus"), status } });
    return ExitCode::Ok;
}

int ModelsCommands::waitOperation(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.operations.wait");
    ArgParser p(command, QStringLiteral("trainyardctl operations wait OPERATION"),
        QStringLiteral("wait for an operation to complete"));
    p.addPositional(QStringLiteral("OPERATION"), QStringLiteral("The operation's ID or name."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const QString typed = p.positional(QStringLiteral("OPERATION"));
    const QString name = typed.startsWith(QLatin1String("projects/"))
        ? typed
        : QStringLiteral("projects/%1/operations/%2").arg(s.project(), typed);
    std::optional<PredictionClient> client = prediction(s, command);
    const std::optional<OperationResource> done = client
        ? waitFor(s, *client, command, name, QStringLiteral("Waiting for operation [%1] to complete...").arg(name))
        : std::nullopt;
    if (!done)
        return ExitCode::Error;
    if (done->failed())
        return operationFailed(s, command, *done);
    s.printResource(done->responseResource());
    return ExitCode::Ok;
}

namespace {

/// predict's and local predict's input flags, as gcloud's: exactly one of --json-instances, --json-request and
/// --text-instances (FILE '-' reads stdin), and --signature-name.
void addInstanceFlags(ArgParser& p)
{
    p.addFlag(QStringLiteral("json-instances"), QStringLiteral("JSON_INSTANCES"),
        QStringLiteral("A file of instances, one JSON value per line."));
    p.addFlag(QStringLiteral("json-request"), QStringLiteral("JSON_REQUEST"),
        QStringLiteral("A file holding a whole request: {\"instances\": […]}."));
    p.addFlag(QStringLiteral("text-instances"), QStringLiteral("TEXT_INSTANCES"),
        QStringLiteral("A file of instances, one per line, each sent as a string (a CSV row, say)."));
    p.addFlag(QStringLiteral("signature-name"), QStringLiteral("SIGNATURE_NAME"),
        QStringLiteral("The request's signature_name (a custom prediction routine receives it; the frameworks' "
                       "models here have one signature)."));
}

/// The instances the input flags name, and the signature; nullopt after printing why (*code the exit code).
std::optional<QJsonArray> instancesFromFlags(
    CtlSession& s, const ArgParser& p, const QString& command, QString* signature, int* code)
{
    QStringList given;
    for (const char* flag : { "json-instances", "json-request", "text-instances" }) {
        if (p.isSet(QLatin1String(flag)))
            given << QLatin1String(flag);
    }
    if (given.size() != 1) {
        s.err() << p.usageError(QStringLiteral("Exactly one of (--json-instances | --json-request | --text-instances) "
                                               "must be specified."));
        *code = ExitCode::Usage;
        return std::nullopt;
    }
    *code = ExitCode::Error;
    const QString flag = given.first();
    const QString path = p.value(flag);
    QFile file;
    const bool opened = path == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly)
                                                   : (file.setFileName(path), file.open(QIODevice::ReadOnly));
    if (!opened) {
        s.printError(command, QStringLiteral("Cannot read --%1 %2: %3").arg(flag, path, file.errorString()));
        return std::nullopt;
    }
    const QByteArray data = file.readAll();
    QString error;
    const std::optional<QJsonArray> instances = flag == QLatin1String("json-request")
        ? parseRequestInstances(data, signature, &error)
        : parseInstances(data,
            flag == QLatin1String("text-instances") ? InstanceFormat::TextLines : InstanceFormat::JsonLines, &error);
    if (!instances) {
        s.printError(command, QStringLiteral("--%1 %2: %3").arg(flag, path, error));
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("signature-name")))
        *signature = p.value(QStringLiteral("signature-name"));
    return instances;
}

/// A refused predict or explain, printed as the API's error: ExitCode::Error.
int refused(CtlSession& s, const QString& command, const PredictResponse& answer)
{
    ApiError apiError;
    apiError.status = answer.status;
    apiError.message = answer.message;
    s.printApiError(command, apiError);
    return ExitCode::Error;
}

/// The answer as --format says, else gcloud's default for predictions.
void printPredictions(CtlSession& s, const PredictResponse& answer)
{
    if (structured(s)) {
        s.printResource(answer.toJson());
        return;
    }
    s.out() << defaultPredictFormat(answer.predictions).renderOne(answer.toJson());
    s.out().flush();
}

} // namespace

int ModelsCommands::predict(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.predict");
    ArgParser p(command,
        QStringLiteral("trainyardctl predict --model=MODEL (--json-instances=FILE | --json-request=FILE | "
                       "--text-instances=FILE) [--version=VERSION]"),
        QStringLiteral("run online prediction\nSends the instances to the model's default version (or --version) "
                       "and prints the predictions as gcloud does: a table with a column per key when they are "
                       "objects, else the list on one line (--format='value(predictions)' splits it with ';', "
                       "--format=json prints the answer). FILE '-' reads stdin."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model."));
    p.addFlag(QStringLiteral("version"), QStringLiteral("VERSION"),
        QStringLiteral("The version (default: the model's default)."));
    addInstanceFlags(p);
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    QString signature;
    int code = ExitCode::Ok;
    const std::optional<QJsonArray> instances = instancesFromFlags(s, p, command, &signature, &code);
    if (!instances)
        return code;
    std::optional<PredictionClient> client = prediction(s, command);
    if (!client)
        return ExitCode::Error;
    const PredictResponse answer = client->predictBlocking(
        p.value(QStringLiteral("model")), p.value(QStringLiteral("version")), *instances, signature);
    if (!answer.ok())
        return refused(s, command, answer);
    printPredictions(s, answer);
    return ExitCode::Ok;
}

int ModelsCommands::explain(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.explain");
    ArgParser p(command,
        QStringLiteral("trainyardctl explain --model=MODEL (--json-instances=FILE | --json-request=FILE | "
                       "--text-instances=FILE) [--version=VERSION] [--output-indices=K,…]"),
        QStringLiteral("run AI Platform explanation\nSends the instances to the model's default version (or "
                       "--version), which must have an explanationConfig (versions create --explanation-method), "
                       "and prints the explanations: per instance and explained output, each feature's "
                       "attribution, the example and baseline scores and the approximation error (--format=json "
                       "prints the service's answer). FILE '-' reads stdin."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("Name of the model."));
    p.addFlag(QStringLiteral("version"), QStringLiteral("VERSION"),
        QStringLiteral("Model version to be used (default: the model's default)."));
    addInstanceFlags(p);
    p.addFlag(QStringLiteral("output-indices"), QStringLiteral("K,[…]"),
        QStringLiteral("The outputs to explain (ours, after Vertex AI), e.g. 0,1; default: the predicted class."));
    addRegionFlag(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!regionAllowed(s, p))
        return ExitCode::Error;
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    QList<int> outputs;
    for (const QString& k : p.value(QStringLiteral("output-indices")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        int index = 0;
        QString error;
        if (!ArgParser::parseInt(QStringLiteral("--output-indices"), k.trimmed(), 0, &index, &error)) {
            s.err() << p.usageError(error);
            return ExitCode::Usage;
        }
        outputs << index;
    }
    QString signature;
    int code = ExitCode::Ok;
    const std::optional<QJsonArray> instances = instancesFromFlags(s, p, command, &signature, &code);
    if (!instances)
        return code;
    std::optional<PredictionClient> client = prediction(s, command);
    if (!client)
        return ExitCode::Error;
    const ExplainResponse answer = client->explainBlocking(
        p.value(QStringLiteral("model")), p.value(QStringLiteral("version")), *instances, outputs);
    if (!answer.ok())
        return refused(s, command, answer.reply);
    if (structured(s)) {
        s.printResource(answer.toJson());
        return ExitCode::Ok;
    }
    // A readable default: each explained output, its features by |attribution| (gcloud prints the JSON; --format=json
    // does here).
    for (qsizetype i = 0; i < answer.explanations.size(); ++i) {
        for (const LabelAttribution& a : answer.explanations.at(i).byLabel) {
            s.out() << QStringLiteral("instance %1, output %2: score %3, baseline %4 (%5, approx_error %6)\n")
                           .arg(i)
                           .arg(a.labelIndex)
                           .arg(a.exampleScore, 0, 'g', 6)
                           .arg(a.baselineScore, 0, 'g', 6)
                           .arg(a.method)
                           .arg(a.approxError, 0, 'g', 3);
            if (!a.warning.isEmpty())
                s.out() << "  WARNING: " << a.warning << '\n';
            const QList<std::pair<QString, double>> sorted = a.byMagnitude();
            const QStringList arrays = a.arrayFeatures();
            qsizetype width = 0;
            for (const auto& [name, value] : sorted)
                width = std::max(width, name.size());
            for (const QString& name : arrays)
                width = std::max(width, name.size());
            for (const auto& [name, value] : sorted)
                s.out() << "  " << name.leftJustified(width) << "  " << QString::number(value, 'g', 6) << '\n';
            for (const QString& name : arrays)
                s.out() << "  " << name.leftJustified(width) << "  an array (--format=json shows it)\n";
        }
    }
    s.out().flush();
    return ExitCode::Ok;
}

int ModelsCommands::localPredict(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.local.predict");
    ArgParser p(command,
        QStringLiteral("trainyardctl local predict --model-dir=MODEL_DIR (--json-instances=FILE | "
                       "--json-request=FILE | --text-instances=FILE) [--framework=FRAMEWORK]"),
        QStringLiteral("run prediction locally\nLoads the model folder as a prediction node does (the same "
                       "trainyard_algorithms.prediction_server, here without an executor or a sandbox), sends it the "
                       "instances and prints the predictions as predict does."));
    p.addFlag(QStringLiteral("model-dir"), QStringLiteral("MODEL_DIR"), QStringLiteral("The model folder."));
    p.addFlag(QStringLiteral("framework"), QStringLiteral("FRAMEWORK"),
        QStringLiteral("scikit-learn, xgboost or pytorch (default: detected from the folder's files, as "
                       "versions create does)."));
    addInstanceFlags(p);
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const QString modelDir = p.value(QStringLiteral("model-dir"));
    if (modelDir.isEmpty() || !QFileInfo(modelDir).isDir()) {
        s.err() << p.usageError(modelDir.isEmpty()
                ? QStringLiteral("argument --model-dir: Must be specified.")
                : QStringLiteral("argument --model-dir: [%1] is not a directory.").arg(modelDir));
        return ExitCode::Usage;
    }
    // The framework: the flag's, else the rule versions.create applies to a folder (PredictionJson).
    PredictionFramework framework = PredictionFramework::Unspecified;
    if (p.isSet(QStringLiteral("framework"))) {
        const std::optional<PredictionFramework> named = frameworkFlag(p);
        if (!named || *named == PredictionFramework::TensorFlow) {
            s.err() << p.usageError(QStringLiteral("argument --framework: Invalid choice: '%1'. Valid choices are "
                                                   "[scikit-learn, xgboost, pytorch].")
                                        .arg(p.value(QStringLiteral("framework"))));
            return ExitCode::Usage;
        }
        framework = *named;
    } else {
        const FrameworkGuess guess = PredictionJson::detectFramework(modelDir);
        if (guess.framework == PredictionFramework::Unspecified) {
            s.printError(command, QStringLiteral("--model-dir %1: %2").arg(modelDir, guess.explanation));
            return ExitCode::Error;
        }
        framework = guess.framework;
    }
    QString signature;
    int code = ExitCode::Ok;
    const std::optional<QJsonArray> instances = instancesFromFlags(s, p, command, &signature, &code);
    if (!instances)
        return code;
    const QString package = BuiltInAlgorithms::packageDir();
    if (package.isEmpty()) {
        s.printError(command, BuiltInAlgorithms::notInstalledMessage(QStringLiteral("local predict")));
        return ExitCode::Error;
    }
    // One node's protocol (prediction_server.py): a "ready" line, then one answer line per request line; stdin stays
    // open until the answer came (a node ends at once when its stdin ends while it loads).
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PYTHONPATH"), package);
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    node.setProcessEnvironment(env);
    node.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const QString python = qEnvironmentVariable("TRAINYARD_PYTHON",
        QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable() ? QStringLiteral("/usr/bin/python3")
                                                                      : QStringLiteral("python3"));
    node.start(python,
        { QStringLiteral("-m"), QStringLiteral("trainyard_algorithms.prediction_server"), QStringLiteral("--model-dir"),
            QFileInfo(modelDir).absoluteFilePath(), QStringLiteral("--framework"),
            PredictionJson::frameworkName(framework) });
    const auto line = [&node]() -> QJsonObject {
        while (!node.canReadLine()) {
            if (node.state() == QProcess::NotRunning || !node.waitForReadyRead(600000))
                return {};
        }
        return QJsonDocument::fromJson(node.readLine()).object();
    };
    const QJsonObject ready = line();
    if (!ready.value(QStringLiteral("ready")).toBool()) {
        s.printError(command,
            QStringLiteral("The model in %1 cannot be loaded: %2")
                .arg(modelDir, ready.value(QStringLiteral("error")).toString(node.errorString())));
        node.kill();
        node.waitForFinished();
        return ExitCode::Error;
    }
    QJsonObject request { { QStringLiteral("id"), 1 }, { QStringLiteral("instances"), *instances } };
    if (!signature.isEmpty())
        request.insert(QStringLiteral("signature_name"), signature);
    node.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    const QJsonObject reply = line();
    node.closeWriteChannel();
    node.waitForFinished(30000);
    if (!reply.value(QStringLiteral("predictions")).isArray()) {
        const QString why = reply.value(QStringLiteral("error")).toString(QStringLiteral("the node ended without an answer"));
        s.printError(command,
            reply.contains(QLatin1String("instance"))
                ? QStringLiteral("Prediction failed: instance %1: %2").arg(reply.value(QStringLiteral("instance")).toInt()).arg(why)
                : QStringLiteral("Prediction failed: %1").arg(why));
        return ExitCode::Error;
    }
    PredictResponse answer;
    answer.kind = PredictResponse::Kind::Predictions;
    answer.predictions = reply.value(QStringLiteral("predictions")).toArray();
    printPredictions(s, answer);
    return ExitCode::Ok;
}

} // namespace Trainyard
