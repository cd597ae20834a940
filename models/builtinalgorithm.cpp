// SPDX-License-Identifier: GPL-2.0-or-later
#include "builtinalgorithm.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QStandardPaths>
#include <QStringList>

static void initAlgorithmsResource()
{
    Q_INIT_RESOURCE(trainyard_resources);
}

namespace Trainyard::BuiltInAlgorithms {

QString imagePrefix()
{
    return QStringLiteral("gcr.io/cloud-ml-algos/");
}

namespace {

Q_LOGGING_CATEGORY(lcAlgorithms, "trainyard.models")

// What the console calls each algorithm (images.json's "name"), for lupdate, which does not read JSON.
[[maybe_unused]] const char* const AlgorithmNames[] = {
    QT_TRANSLATE_NOOP("Trainyard::BuiltInAlgorithms", "XGBoost"),
    QT_TRANSLATE_NOOP("Trainyard::BuiltInAlgorithms", "Distributed XGBoost"),
    QT_TRANSLATE_NOOP("Trainyard::BuiltInAlgorithms", "Linear learner"),
    QT_TRANSLATE_NOOP("Trainyard::BuiltInAlgorithms", "Linear learner (GPU)"),
    QT_TRANSLATE_NOOP("Trainyard::BuiltInAlgorithms", "Wide and deep"),
    QT_TRANSLATE_NOOP("Trainyard::BuiltInAlgorithms", "Wide and deep (GPU)"),
};

} // namespace

QList<BuiltInAlgorithm> fromImageTable(const QByteArray& json, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("not JSON: %1 at byte %2").arg(parseError.errorString()).arg(parseError.offset);
        return {};
    }
    const QJsonValue images = doc.object().value(QStringLiteral("images"));
    if (!images.isArray()) {
        *error = QStringLiteral("images: must be an array");
        return {};
    }
    QList<BuiltInAlgorithm> all;
    const QJsonArray array = images.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonObject o = array.at(i).toObject();
        const QString at = QStringLiteral("images[%1].").arg(i);
        for (const char* field : { "imageUri", "module", "name", "framework", "variant" }) {
            if (o.value(QLatin1String(field)).toString().isEmpty()) {
                *error = at + QLatin1String(field) + QStringLiteral(": must be a non-empty string");
                return {};
            }
        }
        const QString variant = o.value(QStringLiteral("variant")).toString();
        if (!QStringList { QStringLiteral("single"), QStringLiteral("distributed"), QStringLiteral("cpu"), QStringLiteral("gpu") }
                 .contains(variant)) {
            *error = at + QStringLiteral("variant: must be single, distributed, cpu or gpu, not \"%1\"").arg(variant);
            return {};
        }
        if (!o.value(QStringLiteral("preprocess")).isBool()) {
            *error = at + QStringLiteral("preprocess: must be true or false");
            return {};
        }
        BuiltInAlgorithm a;
        a.imageUri = o.value(QStringLiteral("imageUri")).toString();
        a.module = o.value(QStringLiteral("module")).toString();
        a.name = QCoreApplication::translate("Trainyard::BuiltInAlgorithms", o.value(QStringLiteral("name")).toString().toUtf8().constData());
        a.framework = o.value(QStringLiteral("framework")).toString();
        a.distributed = variant == QLatin1String("distributed");
        a.gpu = variant == QLatin1String("gpu");
        a.preprocess = o.value(QStringLiteral("preprocess")).toBool();
        all << a;
    }
    return all;
}

const QList<BuiltInAlgorithm>& supported()
{
    // The one table, trainyard_algorithms/images.json, compiled in (resources/CMakeLists.txt); the package reads the
    // same file. Read once; a malformed table is a build defect (tst_builtinalgorithms checks it), never user input.
    static const QList<BuiltInAlgorithm> all = [] {
        initAlgorithmsResource();
        QFile file(QStringLiteral(":/algorithms/trainyard_algorithms/images.json"));
        QString error = QStringLiteral("missing");
        QList<BuiltInAlgorithm> table;
        if (file.open(QIODevice::ReadOnly))
            table = fromImageTable(file.readAll(), &error);
        if (table.isEmpty())
            qCCritical(lcAlgorithms).noquote() << "the built-in algorithm table :/algorithms/trainyard_algorithms/images.json:" << error;
        return table;
    }();
    return all;
}

bool isAlgorithmImage(const QString& imageUri)
{
    return imageUri.startsWith(imagePrefix());
}

const BuiltInAlgorithm* find(const QString& imageUri)
{
    if (!isAlgorithmImage(imageUri))
        return nullptr;
    // A reference without a tag means :latest (and a digest pins bytes we do not have).
    const QString last = imageUri.section(QLatin1Char('/'), -1);
    const QString uri = last.contains(QLatin1Char(':')) ? imageUri : imageUri + QStringLiteral(":latest");
    for (const BuiltInAlgorithm& a : supported()) {
        if (a.imageUri == uri)
            return &a;
    }
    return nullptr;
}

const BuiltInAlgorithm* forJob(const TrainingInput& input)
{
    return input.masterConfig ? find(input.masterConfig->imageUri) : nullptr;
}

QString supportedList()
{
    QStringList uris;
    for (const BuiltInAlgorithm& a : supported())
        uris << a.imageUri;
    return uris.join(QStringLiteral(", "));
}

QString packageDir()
{
    const QString installed = QStandardPaths::locate(
        QStandardPaths::GenericDataLocation, QStringLiteral("trainyard/algorithms"), QStandardPaths::LocateDirectory);
    if (!installed.isEmpty() && QFileInfo::exists(installed + QStringLiteral("/setup.py")))
        return QDir(installed).canonicalPath();
    QDir dir(QCoreApplication::applicationDirPath());
    for (int up = 0; up < 4 && dir.cdUp(); ++up) {
        const QString candidate = dir.filePath(QStringLiteral("share/trainyard/algorithms"));
        if (QFileInfo::exists(candidate + QStringLiteral("/setup.py")))
            return QDir(candidate).canonicalPath();
    }
    return {};
}

QString notInstalledMessage(const QString& user)
{
    return QStringLiteral("%1 runs Trainyard's bundled package trainyard_algorithms, which is not installed with this "
                          "executor (trainyard/algorithms in the data folders).")
        .arg(user);
}

QJsonObject inputSchemaJson(const QString& modelDir)
{
    QFile file(modelDir + QStringLiteral("/preprocessing.json"));
    if (!file.open(QIODevice::ReadOnly) || file.size() > (4 << 20))
        return {};
    const QJsonObject recorded = QJsonDocument::fromJson(file.readAll()).object();
    if (recorded.isEmpty())
        return {};
    QJsonArray columns;
    for (const QJsonValue& c : recorded.value(QStringLiteral("columns")).toArray()) {
        const QJsonObject in = c.toObject();
        QJsonObject out { { QStringLiteral("column"), in.value(QStringLiteral("index")).toInt() + 1 },
            { QStringLiteral("type"), in.value(QStringLiteral("type")) } };
        for (const char* key : { "mean", "vocabulary", "treatment" }) {
            if (in.contains(QLatin1String(key)))
                out.insert(QLatin1String(key), in.value(QLatin1String(key)));
        }
        columns.append(out);
    }
    return QJsonObject { { QStringLiteral("task"), recorded.value(QStringLiteral("task")) },
        { QStringLiteral("labels"), recorded.value(QStringLiteral("target")).toObject().value(QStringLiteral("labels")) },
        { QStringLiteral("numColumns"), recorded.value(QStringLiteral("num_columns")) },
        { QStringLiteral("columns"), columns } };
}

std::optional<BuiltInAlgorithmOutput> readOutput(const QString& modelDir)
{
    QFile file(modelDir + QStringLiteral("/builtin_algorithm_output.json"));
    // A trainer's file: small, or not what we read.
    if (!file.open(QIODevice::ReadOnly) || file.size() > 64 * 1024)
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    if (!doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    BuiltInAlgorithmOutput out;
    out.framework = o.value(QStringLiteral("framework")).toString();
    out.runtimeVersion = o.value(QStringLiteral("runtimeVersion")).toString();
    out.pythonVersion = o.value(QStringLiteral("pythonVersion")).toString();
    out.modelPath = modelDir;
    if (out.framework.isEmpty())
        return std::nullopt;
    return out;
}

} // namespace Trainyard::BuiltInAlgorithms
