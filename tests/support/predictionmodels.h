// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The prediction tests' shared setup: an isolated account's folders, and the models tests/integration/
// prediction_models.py trains with the libraries themselves (scikit-learn, XGBoost, TorchScript on the breast cancer
// table) with what each answers.

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <optional>

namespace Trainyard::Test {

/// Makes `root`'s run/ (mode 0700, as XDG_RUNTIME_DIR must be), data/ and config/, and each of `more` (e.g.
/// "models"). False when a folder cannot be made.
inline bool makeAccountFolders(const QTemporaryDir& root, const QStringList& more = {})
{
    for (const QString& d : QStringList { QStringLiteral("run"), QStringLiteral("data"), QStringLiteral("config") } + more) {
        if (!QDir().mkpath(root.filePath(d)))
            return false;
    }
    return QFile::setPermissions(root.filePath(QStringLiteral("run")),
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

/// Runs prediction_models.py into `folder` (sklearn/, xgboost/, torch/ and expected.json; up to 5 minutes) and
/// returns expected.json: {"instances": the first 5 rows, "sklearn"|"xgboost"|"torch": each model's answers,
/// "allInstances", "sklearnAll", "xgboostAll"}. nullopt when the script fails or writes no answers.
inline std::optional<QJsonObject> trainPredictionModels(const QString& folder)
{
    QProcess python;
    python.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    python.start(QStringLiteral("/usr/bin/python3"),
        { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/prediction_models.py"), folder });
    if (!python.waitForFinished(300000) || python.exitStatus() != QProcess::NormalExit || python.exitCode() != 0)
        return std::nullopt;
    QFile expected(folder + QStringLiteral("/expected.json"));
    if (!expected.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject answers = QJsonDocument::fromJson(expected.readAll()).object();
    if (answers.isEmpty())
        return std::nullopt;
    return answers;
}

} // namespace Trainyard::Test
