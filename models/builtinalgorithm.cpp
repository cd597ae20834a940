// SPDX-License-Identifier: GPL-2.0-or-later
#include "builtinalgorithm.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QStringList>

namespace Trainyard::BuiltInAlgorithms {

QString imagePrefix()
{
    return QStringLiteral("gcr.io/cloud-ml-algos/");
}

const QList<BuiltInAlgorithm>& supported()
{
    // The same table as trainyard_algorithms.common.IMAGES (resources/algorithms/README.md §1); tst_builtinalgorithm
    // reads the Python table and compares.
    static const QList<BuiltInAlgorithm> all {
        { QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest"), QStringLiteral("trainyard_algorithms.xgboost"),
            QStringLiteral("XGBoost"), QStringLiteral("XGBOOST"), false, false, true },
        { QStringLiteral("gcr.io/cloud-ml-algos/xgboost_dist:latest"), QStringLiteral("trainyard_algorithms.xgboost"),
            QStringLiteral("Distributed XGBoost"), QStringLiteral("XGBOOST"), true, false, false },
        { QStringLiteral("gcr.io/cloud-ml-algos/linear_learner_cpu:latest"),
            QStringLiteral("trainyard_algorithms.linear_learner"), QStringLiteral("Linear learner"),
            QStringLiteral("PYTORCH"), false, false, true },
        { QStringLiteral("gcr.io/cloud-ml-algos/linear_learner_gpu:latest"),
            QStringLiteral("trainyard_algorithms.linear_learner"), QStringLiteral("Linear learner (GPU)"),
            QStringLiteral("PYTORCH"), false, true, true },
        { QStringLiteral("gcr.io/cloud-ml-algos/wide_deep_learner_cpu:latest"),
            QStringLiteral("trainyard_algorithms.wide_deep"), QStringLiteral("Wide and deep"),
            QStringLiteral("PYTORCH"), false, false, true },
        { QStringLiteral("gcr.io/cloud-ml-algos/wide_deep_learner_gpu:latest"),
            QStringLiteral("trainyard_algorithms.wide_deep"), QStringLiteral("Wide and deep (GPU)"),
            QStringLiteral("PYTORCH"), false, true, true },
    };
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
