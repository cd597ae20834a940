// SPDX-License-Identifier: GPL-2.0-or-later
#include "modelscommands.h"

#include "argparser.h"
#include "ctlsession.h"
#include "printer.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QUrl>

namespace Trainyard {

namespace {

QString segment(const QString& s)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(s));
}

QString modelPath(CtlSession& s, const QString& model)
{
    return QStringLiteral("/v1/projects/%1/models/%2").arg(segment(s.project()), segment(model));
}

QByteArray compact(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// Runs one call; prints the API's error under `command` and returns nullopt on failure.
std::optional<QJsonObject> call(
    CtlSession& s, const QString& command, const QByteArray& verb, const QString& path, const QByteArray& body = {})
{
    ApiClient* client = s.client(command);
    if (!client)
        return std::nullopt;
    const ApiResult<QJsonObject> r = client->jsonBlocking(verb, path, body);
    if (!r.ok()) {
        s.printApiError(command, r.error);
        return std::nullopt;
    }
    return r.value;
}

bool structured(CtlSession& s)
{
    return s.format() == QLatin1String("json") || s.format() == QLatin1String("yaml");
}

/// Every item of a paged list (`path` with "?pageSize=100", then each nextPageToken), from the answers' `field`,
/// that passes `filter` (the API's; empty: all); nullopt after an error was printed.
std::optional<QJsonArray> listAll(
    CtlSession& s, const QString& command, const QString& path, const QString& field, const QString& filter = {})
{
    QJsonArray items;
    QString token;
    do {
        const std::optional<QJsonObject> page = call(s, command, "GET",
            path + QStringLiteral("?pageSize=100")
                + (filter.isEmpty() ? QString() : QStringLiteral("&filter=") + segment(filter))
                + (token.isEmpty() ? QString() : QStringLiteral("&pageToken=") + segment(token)));
        if (!page)
            return std::nullopt;
        for (const QJsonValue& item : page->value(field).toArray())
            items.append(item);
        token = page->value(QStringLiteral("nextPageToken")).toString();
    } while (!token.isEmpty());
    return items;
}

/// Polls operation `name` ("projects/p/operations/id") until it is done, printing gcloud's progress dots on stderr
/// after `progress` ("Creating version (this might take a few minutes)"). The done operation, or nullopt after an
/// error was printed.
std::optional<QJsonObject> waitFor(CtlSession& s, const QString& command, const QString& name, const QString& progress)
{
    if (!progress.isEmpty()) {
        s.err() << progress;
        s.err().flush();
    }
    int wait = 200;
    for (;;) {
        const std::optional<QJsonObject> op = call(s, command, "GET", QStringLiteral("/v1/") + name);
        if (!op)
            return std::nullopt;
        if (op->value(QStringLiteral("done")).toBool()) {
            if (!progress.isEmpty()) {
                s.err() << (op->contains(QLatin1String("error")) ? "failed.\n" : "done.\n");
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

/// gcloud's usage error when --model is missing (every versions verb and predict need it); false then.
bool requireModel(CtlSession& s, const ArgParser& p)
{
    if (p.isSet(QStringLiteral("model")))
        return true;
    s.err() << p.usageError(QStringLiteral("argument --model: Must be specified."));
    return false;
}

/// An operation that ended with an error: printed as gcloud prints a failed operation; ExitCode::Error.
int operationFailed(CtlSession& s, const QString& command, const QJsonObject& op)
{
    const QJsonObject error = op.value(QStringLiteral("error")).toObject();
    s.err() << "ERROR: (" << command << ") " << error.value(QStringLiteral("message")).toString() << '\n';
    s.err().flush();
    return ExitCode::Error;
}

/// gcloud's --framework values ("scikit-learn", "xgboost", "tensorflow"), ours ("pytorch"), or the API's enum.
QString frameworkEnum(const QString& flag)
{
    const QString f = flag.trimmed().toUpper().replace(QLatin1Char('-'), QLatin1Char('_'));
    return f;
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
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    QJsonObject body { { QStringLiteral("name"), p.positional(QStringLiteral("MODEL")) } };
    if (p.isSet(QStringLiteral("description")))
        body.insert(QStringLiteral("description"), p.value(QStringLiteral("description")));
    if (p.isSet(QStringLiteral("regions")))
        body.insert(QStringLiteral("regions"),
            QJsonArray::fromStringList(p.value(QStringLiteral("regions")).split(QLatin1Char(','))));
    if (p.isSet(QStringLiteral("labels"))) {
        QMap<QString, QString> labels;
        QString error;
        if (!ArgParser::parseDict(QStringLiteral("--labels"), p.value(QStringLiteral("labels")), &labels, &error)) {
            s.err() << p.usageError(error);
            return ExitCode::Usage;
        }
        QJsonObject l;
        for (auto it = labels.cbegin(); it != labels.cend(); ++it)
            l.insert(it.key(), it.value());
        body.insert(QStringLiteral("labels"), l);
    }
    if (p.isTrue(QStringLiteral("enable-logging")))
        body.insert(QStringLiteral("onlinePredictionLogging"), true);
    if (p.isTrue(QStringLiteral("enable-console-logging")))
        body.insert(QStringLiteral("onlinePredictionConsoleLogging"), true);
    const std::optional<QJsonObject> model
        = call(s, command, "POST", QStringLiteral("/v1/projects/%1/models").arg(segment(s.project())), compact(body));
    if (!model)
        return ExitCode::Error;
    if (structured(s))
        s.printResource(*model);
    s.err() << "Created ai platform model [" << model->value(QStringLiteral("name")).toString() << "].\n";
    s.err().flush();
    return ExitCode::Ok;
}

int ModelsCommands::describeModel(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.models.describe");
    ArgParser p(command, QStringLiteral("trainyardctl models describe MODEL"), QStringLiteral("describe a model"));
    p.addPositional(QStringLiteral("MODEL"), QStringLiteral("Name of the model."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const std::optional<QJsonObject> model
        = call(s, command, "GET", modelPath(s, p.positional(QStringLiteral("MODEL"))));
    if (!model)
        return ExitCode::Error;
    s.printResource(*model);
    return ExitCode::Ok;
}

int ModelsCommands::listModels(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.models.list");
    ArgParser p(command, QStringLiteral("trainyardctl models list [--filter=EXPRESSION]"),
        QStringLiteral("list existing models"));
    p.addFlag(QStringLiteral("filter"), QStringLiteral("EXPRESSION"),
        QStringLiteral("Only the models that pass it: name, labels.KEY (: = !=), e.g. \"labels.team=vision\"."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const std::optional<QJsonArray> all
        = listAll(s, command, QStringLiteral("/v1/projects/%1/models").arg(segment(s.project())),
            QStringLiteral("models"), p.value(QStringLiteral("filter")));
    if (!all)
        return ExitCode::Error;
    const QJsonArray& models = *all;
    if (structured(s)) {
        s.printResources(models);
        return ExitCode::Ok;
    }
    if (models.isEmpty()) {
        s.err() << "Listed 0 items.\n";
        return ExitCode::Ok;
    }
    QList<QStringList> rows;
    for (const QJsonValue& v : std::as_const(models)) {
        const QJsonObject m = v.toObject();
        rows.append({ m.value(QStringLiteral("name")).toString().section(QLatin1Char('/'), -1),
            m.value(QStringLiteral("defaultVersion"))
                .toObject()
                .value(QStringLiteral("name"))
                .toString()
                .section(QLatin1Char('/'), -1) });
    }
    s.out() << Printer::table({ QStringLiteral("NAME"), QStringLiteral("DEFAULT_VERSION_NAME") }, rows);
    s.out().flush();
    return ExitCode::Ok;
}

int ModelsCommands::deleteModel(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.models.delete");
    ArgParser p(command, QStringLiteral("trainyardctl models delete MODEL"),
        QStringLiteral(
            "delete an existing model\nA model with versions cannot be deleted: delete its versions first."));
    p.addPositional(QStringLiteral("MODEL"), QStringLiteral("Name of the model."));
    if (!p.parse(args))
        return s.usage(p);
    const QString model = p.positional(QStringLiteral("MODEL"));
    const std::optional<QJsonObject> op = call(s, command, "DELETE", modelPath(s, model));
    if (!op)
        return ExitCode::Error;
    if (op->contains(QLatin1String("error")))
        return operationFailed(s, command, *op);
    s.err() << "Deleted ai platform model [" << QStringLiteral("projects/%1/models/%2").arg(s.project(), model)
            << "].\n";
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
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    for (const char* required : { "model", "origin" }) {
        if (!p.isSet(QLatin1String(required))) {
            s.err() << p.usageError(QStringLiteral("argument --%1: Must be specified.").arg(QLatin1String(required)));
            return ExitCode::Usage;
        }
    }
    QJsonObject body { { QStringLiteral("name"), p.positional(QStringLiteral("VERSION")) },
        { QStringLiteral("deploymentUri"), p.value(QStringLiteral("origin")) } };
    if (p.isSet(QStringLiteral("framework")))
        body.insert(QStringLiteral("framework"), frameworkEnum(p.value(QStringLiteral("framework"))));
    const QList<QPair<const char*, const char*>> strings { { "runtime-version", "runtimeVersion" },
        { "python-version", "pythonVersion" }, { "prediction-class", "predictionClass" },
        { "description", "description" }, { "machine-type", "machineType" } };
    for (const auto& [flag, field] : strings) {
        if (p.isSet(QLatin1String(flag)))
            body.insert(QLatin1String(field), p.value(QLatin1String(flag)));
    }
    if (p.isSet(QStringLiteral("package-uris")))
        body.insert(QStringLiteral("packageUris"),
            QJsonArray::fromStringList(
                p.value(QStringLiteral("package-uris")).split(QLatin1Char(','), Qt::SkipEmptyParts)));
    if (p.isSet(QStringLiteral("labels"))) {
        QMap<QString, QString> labels;
        QString error;
        if (!ArgParser::parseDict(QStringLiteral("--labels"), p.value(QStringLiteral("labels")), &labels, &error)) {
            s.err() << p.usageError(error);
            return ExitCode::Usage;
        }
        QJsonObject l;
        for (auto it = labels.cbegin(); it != labels.cend(); ++it)
            l.insert(it.key(), it.value());
        body.insert(QStringLiteral("labels"), l);
    }
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
    if (p.isSet(QStringLiteral("nodes"))) {
        if (!count("nodes", &n))
            return ExitCode::Usage;
        body.insert(QStringLiteral("manualScaling"), QJsonObject { { QStringLiteral("nodes"), n } });
    }
    QJsonObject autoScaling;
    if (p.isSet(QStringLiteral("min-nodes"))) {
        if (!count("min-nodes", &n))
            return ExitCode::Usage;
        autoScaling.insert(QStringLiteral("minNodes"), n);
    }
    if (p.isSet(QStringLiteral("max-nodes"))) {
        if (!count("max-nodes", &n))
            return ExitCode::Usage;
        autoScaling.insert(QStringLiteral("maxNodes"), n);
    }
    if (!autoScaling.isEmpty())
        body.insert(QStringLiteral("autoScaling"), autoScaling);

    const QString model = p.value(QStringLiteral("model"));
    const std::optional<QJsonObject> op
        = call(s, command, "POST", modelPath(s, model) + QStringLiteral("/versions"), compact(body));
    if (!op)
        return ExitCode::Error;
    const QString opName = op->value(QStringLiteral("name")).toString();
    if (p.isTrue(QStringLiteral("async"))) {
        if (structured(s))
            s.printResource(*op);
        s.err() << "Create request issued for: [" << p.positional(QStringLiteral("VERSION")) << "]\nCheck operation ["
                << opName << "] for status.\n";
        s.err().flush();
        return ExitCode::Ok;
    }
    const std::optional<QJsonObject> done
        = waitFor(s, command, opName, QStringLiteral("Creating version (this might take a few minutes)......"));
    if (!done)
        return ExitCode::Error;
    if (done->contains(QLatin1String("error")))
        return operationFailed(s, command, *done);
    if (structured(s))
        s.printResource(done->value(QStringLiteral("response")).toObject());
    return ExitCode::Ok;
}

int ModelsCommands::describeVersion(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.describe");
    ArgParser p(command, QStringLiteral("trainyardctl versions describe VERSION --model=MODEL"),
        QStringLiteral("describe an existing model version"));
    p.addPositional(QStringLiteral("VERSION"), QStringLiteral("Name of the version."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model of the version."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    const std::optional<QJsonObject> v = call(s, command, "GET",
        modelPath(s, p.value(QStringLiteral("model"))) + QStringLiteral("/versions/")
            + segment(p.positional(QStringLiteral("VERSION"))));
    if (!v)
        return ExitCode::Error;
    s.printResource(*v);
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
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    const std::optional<QJsonArray> all
        = listAll(s, command, modelPath(s, p.value(QStringLiteral("model"))) + QStringLiteral("/versions"),
            QStringLiteral("versions"), p.value(QStringLiteral("filter")));
    if (!all)
        return ExitCode::Error;
    const QJsonArray& versions = *all;
    if (structured(s)) {
        s.printResources(versions);
        return ExitCode::Ok;
    }
    if (versions.isEmpty()) {
        s.err() << "Listed 0 items.\n";
        return ExitCode::Ok;
    }
    QList<QStringList> rows;
    for (const QJsonValue& value : std::as_const(versions)) {
        const QJsonObject v = value.toObject();
        rows.append({ v.value(QStringLiteral("name")).toString().section(QLatin1Char('/'), -1),
            v.value(QStringLiteral("deploymentUri")).toString(), v.value(QStringLiteral("state")).toString(),
            v.value(QStringLiteral("predictionClass")).toString().isEmpty()
                ? v.value(QStringLiteral("framework")).toString()
                : v.value(QStringLiteral("predictionClass")).toString(),
            v.value(QStringLiteral("isDefault")).toBool() ? QStringLiteral("yes") : QString() });
    }
    s.out() << Printer::table({ QStringLiteral("NAME"), QStringLiteral("DEPLOYMENT_URI"), QStringLiteral("STATE"),
                                  QStringLiteral("FRAMEWORK"), QStringLiteral("DEFAULT") },
        rows);
    s.out().flush();
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
    if (!p.parse(args))
        return s.usage(p);
    if (!requireModel(s, p))
        return ExitCode::Usage;
    const std::optional<QJsonObject> op = call(s, command, "DELETE",
        modelPath(s, p.value(QStringLiteral("model"))) + QStringLiteral("/versions/")
            + segment(p.positional(QStringLiteral("VERSION"))));
    if (!op)
        return ExitCode::Error;
    if (p.isTrue(QStringLiteral("async"))) {
        s.err() << "Delete request issued for: [" << p.positional(QStringLiteral("VERSION")) << "]\nCheck operation ["
                << op->value(QStringLiteral("name")).toString() << "] for status.\n";
        s.err().flush();
        return ExitCode::Ok;
    }
    const std::optional<QJsonObject> done = waitFor(s, command, op->value(QStringLiteral("name")).toString(),
        QStringLiteral("Deleting version [%1]......").arg(p.positional(QStringLiteral("VERSION"))));
    if (!done)
        return ExitCode::Error;
    return done->contains(QLatin1String("error")) ? operationFailed(s, command, *done) : ExitCode::Ok;
}

int ModelsCommands::updateVersion(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.update");
    ArgParser p(command,
        QStringLiteral("trainyardctl versions update VERSION --model=MODEL [--description=DESCRIPTION] "
                       "[--update-labels=[KEY=VALUE,...]] [--nodes=N | --min-nodes=N [--max-nodes=N]] [--async]"),
        QStringLiteral("update an existing model version\nIts description, labels or scaling; new scaling starts its "
                       "nodes again with the new numbers (UPDATING, then READY)."));
    p.addPositional(QStringLiteral("VERSION"), QStringLiteral("Name of the version."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model of the version."));
    p.addFlag(QStringLiteral("description"), QStringLiteral("DESCRIPTION"), QStringLiteral("The new description."));
    p.addFlag(QStringLiteral("update-labels"), QStringLiteral("[KEY=VALUE,...]"),
        QStringLiteral("Labels to add or change; the others stay."));
    p.addFlag(QStringLiteral("nodes"), QStringLiteral("N"), QStringLiteral("manualScaling.nodes: this many nodes."));
    p.addFlag(QStringLiteral("min-nodes"), QStringLiteral("N"),
        QStringLiteral("autoScaling.minNodes (0: scale to zero when idle)."));
    p.addFlag(QStringLiteral("max-nodes"), QStringLiteral("N"), QStringLiteral("autoScaling.maxNodes."));
    p.addSwitch(QStringLiteral("async"), QStringLiteral("Return at once, without waiting for the operation."));
    if (!p.parse(args))
        return s.usage(p);
    if (!requireModel(s, p))
        return ExitCode::Usage;
    if (p.isSet(QStringLiteral("nodes"))
        && (p.isSet(QStringLiteral("min-nodes")) || p.isSet(QStringLiteral("max-nodes")))) {
        s.err() << p.usageError(QStringLiteral("argument --nodes: At most one of --nodes | --min-nodes --max-nodes may "
                                               "be specified."));
        return ExitCode::Usage;
    }
    const QString path = modelPath(s, p.value(QStringLiteral("model"))) + QStringLiteral("/versions/")
        + segment(p.positional(QStringLiteral("VERSION")));
    QJsonObject body;
    QStringList mask;
    if (p.isSet(QStringLiteral("description"))) {
        body.insert(QStringLiteral("description"), p.value(QStringLiteral("description")));
        mask << QStringLiteral("description");
    }
    if (p.isSet(QStringLiteral("update-labels"))) {
        // Merged into the labels the version has, as gcloud's --update-labels.
        const std::optional<QJsonObject> current = call(s, command, "GET", path);
        if (!current)
            return ExitCode::Error;
        QJsonObject labels = current->value(QStringLiteral("labels")).toObject();
        QMap<QString, QString> added;
        QString error;
        if (!GcloudFlags::parseDict(
                QStringLiteral("update-labels"), p.value(QStringLiteral("update-labels")), &added, &error)) {
            s.err() << p.usageError(error);
            return ExitCode::Usage;
        }
        for (auto it = added.cbegin(); it != added.cend(); ++it)
            labels.insert(it.key(), it.value());
        body.insert(QStringLiteral("labels"), labels);
        mask << QStringLiteral("labels");
    }
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
        body.insert(QStringLiteral("manualScaling"), QJsonObject { { QStringLiteral("nodes"), n } });
        mask << QStringLiteral("manualScaling.nodes");
    }
    QJsonObject autoScaling;
    if (p.isSet(QStringLiteral("min-nodes"))) {
        if (!number("min-nodes", 0, &n))
            return ExitCode::Usage;
        autoScaling.insert(QStringLiteral("minNodes"), n);
        mask << QStringLiteral("autoScaling.minNodes");
    }
    if (p.isSet(QStringLiteral("max-nodes"))) {
        if (!number("max-nodes", 1, &n))
            return ExitCode::Usage;
        autoScaling.insert(QStringLiteral("maxNodes"), n);
        mask << QStringLiteral("autoScaling.maxNodes");
    }
    if (!autoScaling.isEmpty())
        body.insert(QStringLiteral("autoScaling"), autoScaling);
    if (mask.isEmpty()) {
        s.err() << p.usageError(QStringLiteral("Nothing to update: give --description, --update-labels, --nodes, "
                                               "--min-nodes or --max-nodes."));
        return ExitCode::Usage;
    }
    const std::optional<QJsonObject> op
        = call(s, command, "PATCH", path + QStringLiteral("?updateMask=") + segment(mask.join(QLatin1Char(','))),
            QJsonDocument(body).toJson(QJsonDocument::Compact));
    if (!op)
        return ExitCode::Error;
    if (p.isTrue(QStringLiteral("async"))) {
        s.err() << "Update request issued for: [" << p.positional(QStringLiteral("VERSION")) << "]\nCheck operation ["
                << op->value(QStringLiteral("name")).toString() << "] for status.\n";
        s.err().flush();
        return ExitCode::Ok;
    }
    const std::optional<QJsonObject> done = waitFor(s, command, op->value(QStringLiteral("name")).toString(),
        QStringLiteral("Updating version [%1]......").arg(p.positional(QStringLiteral("VERSION"))));
    if (!done)
        return ExitCode::Error;
    return done->contains(QLatin1String("error")) ? operationFailed(s, command, *done) : ExitCode::Ok;
}

int ModelsCommands::setDefaultVersion(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.versions.set-default");
    ArgParser p(command, QStringLiteral("trainyardctl versions set-default VERSION --model=MODEL"),
        QStringLiteral("set an existing version as the default for its model\nThe model's :predict goes to it."));
    p.addPositional(QStringLiteral("VERSION"), QStringLiteral("Name of the version."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model of the version."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    const std::optional<QJsonObject> v = call(s, command, "POST",
        modelPath(s, p.value(QStringLiteral("model"))) + QStringLiteral("/versions/")
            + segment(p.positional(QStringLiteral("VERSION"))) + QStringLiteral(":setDefault"),
        "{}");
    if (!v)
        return ExitCode::Error;
    s.printResource(*v);
    return ExitCode::Ok;
}

namespace {

/// "projects/p/operations/id" of what the user typed (the ID, or the full name).
QString operationName(CtlSession& s, const QString& typed)
{
    return typed.startsWith(QLatin1String("projects/"))
        ? typed
        : QStringLiteral("projects/%1/operations/%2").arg(s.project(), typed);
}

} // namespace

int ModelsCommands::describeOperation(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.operations.describe");
    ArgParser p(
        command, QStringLiteral("trainyardctl operations describe OPERATION"), QStringLiteral("describe an operation"));
    p.addPositional(QStringLiteral("OPERATION"), QStringLiteral("The operation's ID or name."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const std::optional<QJsonObject> op
        = call(s, command, "GET", QStringLiteral("/v1/") + operationName(s, p.positional(QStringLiteral("OPERATION"))));
    if (!op)
        return ExitCode::Error;
    s.printResource(*op);
    return ExitCode::Ok;
}

int ModelsCommands::listOperations(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.operations.list");
    ArgParser p(command, QStringLiteral("trainyardctl operations list"),
        QStringLiteral("list the project's operations, newest first"));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const std::optional<QJsonObject> page
        = call(s, command, "GET", QStringLiteral("/v1/projects/%1/operations?pageSize=100").arg(segment(s.project())));
    if (!page)
        return ExitCode::Error;
    const QJsonArray ops = page->value(QStringLiteral("operations")).toArray();
    if (structured(s)) {
        s.printResources(ops);
        return ExitCode::Ok;
    }
    if (ops.isEmpty()) {
        s.err() << "Listed 0 items.\n";
        return ExitCode::Ok;
    }
    QList<QStringList> rows;
    for (const QJsonValue& value : ops) {
        const QJsonObject op = value.toObject();
        const QJsonObject metadata = op.value(QStringLiteral("metadata")).toObject();
        const QString status = !op.value(QStringLiteral("done")).toBool() ? QStringLiteral("RUNNING")
            : op.contains(QLatin1String("error"))                         ? QStringLiteral("FAILED")
                                                                          : QStringLiteral("DONE");
        rows.append({ op.value(QStringLiteral("name")).toString().section(QLatin1Char('/'), -1),
            metadata.value(QStringLiteral("operationType")).toString(), status });
    }
    s.out() << Printer::table({ QStringLiteral("NAME"), QStringLiteral("TYPE"), QStringLiteral("STATUS") }, rows);
    s.out().flush();
    return ExitCode::Ok;
}

int ModelsCommands::waitOperation(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.operations.wait");
    ArgParser p(command, QStringLiteral("trainyardctl operations wait OPERATION"),
        QStringLiteral("wait for an operation to complete"));
    p.addPositional(QStringLiteral("OPERATION"), QStringLiteral("The operation's ID or name."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    const QString name = operationName(s, p.positional(QStringLiteral("OPERATION")));
    const std::optional<QJsonObject> done
        = waitFor(s, command, name, QStringLiteral("Waiting for operation [%1] to complete...").arg(name));
    if (!done)
        return ExitCode::Error;
    if (done->contains(QLatin1String("error")))
        return operationFailed(s, command, *done);
    s.printResource(done->value(QStringLiteral("response")).toObject());
    return ExitCode::Ok;
}

int ModelsCommands::predict(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.predict");
    ArgParser p(command,
        QStringLiteral("trainyardctl predict --model=MODEL (--json-instances=FILE | --json-request=FILE | "
                       "--text-instances=FILE) [--version=VERSION]"),
        QStringLiteral("run online prediction\nSends the instances to the model's default version (or --version) "
                       "and prints one prediction per line. FILE '-' reads stdin."));
    p.addFlag(QStringLiteral("model"), QStringLiteral("MODEL"), QStringLiteral("The model."));
    p.addFlag(QStringLiteral("version"), QStringLiteral("VERSION"),
        QStringLiteral("The version (default: the model's default)."));
    p.addFlag(QStringLiteral("json-instances"), QStringLiteral("JSON_INSTANCES"),
        QStringLiteral("A file of instances, one JSON value per line."));
    p.addFlag(QStringLiteral("json-request"), QStringLiteral("JSON_REQUEST"),
        QStringLiteral("A file holding a whole request: {\"instances\": […]}."));
    p.addFlag(QStringLiteral("text-instances"), QStringLiteral("TEXT_INSTANCES"),
        QStringLiteral("A file of instances, one per line, each sent as a string (a CSV row, say)."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    if (!requireModel(s, p))
        return ExitCode::Usage;
    QStringList given;
    for (const char* flag : { "json-instances", "json-request", "text-instances" }) {
        if (p.isSet(QLatin1String(flag)))
            given << QLatin1String(flag);
    }
    if (given.size() != 1) {
        s.err() << p.usageError(QStringLiteral("Exactly one of (--json-instances | --json-request | --text-instances) "
                                               "must be specified."));
        return ExitCode::Usage;
    }
    const QString flag = given.first();
    const QString path = p.value(flag);
    QFile file;
    const bool opened = path == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly)
                                                   : (file.setFileName(path), file.open(QIODevice::ReadOnly));
    if (!opened) {
        s.printError(command, QStringLiteral("Cannot read --%1 %2: %3").arg(flag, path, file.errorString()));
        return ExitCode::Error;
    }
    const QByteArray data = file.readAll();
    QJsonObject body;
    if (flag == QLatin1String("json-request")) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
        if (!doc.isObject()) {
            s.printError(
                command, QStringLiteral("--json-request %1 is not a JSON object: %2").arg(path, error.errorString()));
            return ExitCode::Error;
        }
        body = doc.object();
    } else {
        QJsonArray instances;
        int line = 0;
        for (const QByteArray& raw : data.split('\n')) {
            ++line;
            if (raw.trimmed().isEmpty())
                continue;
            if (flag == QLatin1String("text-instances")) {
                instances.append(QString::fromUtf8(raw.endsWith('\r') ? raw.chopped(1) : raw));
                continue;
            }
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson("[" + raw + "]", &error);
            if (error.error != QJsonParseError::NoError || doc.array().size() != 1) {
                s.printError(command,
                    QStringLiteral("--json-instances %1, line %2: not one JSON value: %3")
                        .arg(path)
                        .arg(line)
                        .arg(error.errorString()));
                return ExitCode::Error;
            }
            instances.append(doc.array().first());
        }
        body.insert(QStringLiteral("instances"), instances);
    }
    QString target = modelPath(s, p.value(QStringLiteral("model")));
    if (p.isSet(QStringLiteral("version")))
        target += QStringLiteral("/versions/") + segment(p.value(QStringLiteral("version")));
    const std::optional<QJsonObject> answer
        = call(s, command, "POST", target + QStringLiteral(":predict"), compact(body));
    if (!answer)
        return ExitCode::Error;
    if (structured(s)) {
        s.printResource(*answer);
        return ExitCode::Ok;
    }
    for (const QJsonValue& prediction : answer->value(QStringLiteral("predictions")).toArray()) {
        if (prediction.isString())
            s.out() << prediction.toString() << '\n';
        else
            s.out() << QString::fromUtf8(
                QJsonDocument(QJsonArray { prediction }).toJson(QJsonDocument::Compact).chopped(1).mid(1))
                    << '\n';
    }
    s.out().flush();
    return ExitCode::Ok;
}

} // namespace Trainyard
