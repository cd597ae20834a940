// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QList>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Trainyard {

/// AI Platform Training's built-in algorithms (beta), as Trainyard runs them: a job whose
/// `masterConfig.imageUri` names one of Google's algorithm images runs the bundled Python package
/// `trainyard_algorithms` (resources/algorithms; its README is the contract) as an ordinary staged trainer,
/// with no container and no network. The job keeps the `imageUri` it was given.
///
/// Sources of the image URIs: the service's reference pages (`algorithms/reference/xgboost`: "Single-replica —
/// … gcr.io/cloud-ml-algos/boosted_trees:latest") and public job specs for the linear learner and wide & deep;
/// the distributed XGBoost and the linear learner's GPU URIs are inferred (resources/algorithms/README.md §1).
struct BuiltInAlgorithm {
    QString imageUri; ///< e.g. "gcr.io/cloud-ml-algos/boosted_trees:latest"
    QString module; ///< the Python module every replica runs: "trainyard_algorithms.xgboost"
    QString name; ///< what the console calls it: "XGBoost", "Distributed XGBoost", "Linear learner" …
    QString framework; ///< builtInAlgorithmOutput.framework: "XGBOOST" or "PYTORCH"
    bool distributed = false; ///< master + at least one worker, no parameter servers (distributed XGBoost)
    bool gpu = false; ///< an `_gpu` image: the algorithm trains on the job's accelerator
    bool preprocess = true; ///< takes `--preprocess` (distributed XGBoost does not, as on the service)
};

namespace BuiltInAlgorithms {

/// The prefix every Google algorithm image shares ("gcr.io/cloud-ml-algos/").
QString imagePrefix();

/// Every algorithm Trainyard runs, in the order the console offers them: the package's image table
/// (resources/algorithms/trainyard_algorithms/images.json, compiled in), the one definition that
/// trainyard_algorithms.common.IMAGES also reads. `name` is translated.
const QList<BuiltInAlgorithm>& supported();

/// Reads an image table in images.json's format (`{"images": [{imageUri, module, name, framework,
/// variant: single|distributed|cpu|gpu, preprocess: bool}, …]}`). Returns the algorithms in the table's order, or
/// an empty list with `error` naming the entry and field ("images[2].variant: must be …").
QList<BuiltInAlgorithm> fromImageTable(const QByteArray& json, QString* error);

/// True when `imageUri` is one of Google's algorithm images (the prefix), supported or not.
bool isAlgorithmImage(const QString& imageUri);

/// The algorithm an image names, or nullptr. The tag may be left out (`…/boosted_trees` is `:latest`, as a
/// registry reads it); any other tag is not an image the service published.
const BuiltInAlgorithm* find(const QString& imageUri);

/// The algorithm a job runs (its master's image), or nullptr for a trainer package or a custom container.
const BuiltInAlgorithm* forJob(const TrainingInput& input);

/// The supported image URIs, comma-separated, for messages that list them.
QString supportedList();

/// The bundled package's folder (the one with setup.py): `trainyard/algorithms` in the XDG data folders (the
/// .deb installs /usr/share/trainyard/algorithms), else `share/trainyard/algorithms` up to four folders above
/// the program, which a build tree mirrors (resources/CMakeLists.txt). Empty when it is nowhere.
QString packageDir();

/// The executor's one message for a missing package (packageDir() empty), for what needs it: `user` is a built-in
/// algorithm's image URI, "Batch prediction" or "A version's prediction server". "USER runs Trainyard's bundled
/// package trainyard_algorithms, which is not installed with this executor (trainyard/algorithms in the data
/// folders)."
QString notInstalledMessage(const QString& user);

/// The `…/versions/{v}/inputSchema` answer (app/executor/API.md) for a built-in algorithm's model folder, from its
/// preprocessing.json (resources/algorithms/README.md §4): `{"task", "labels", "numColumns", "columns": [{"column"
/// (1-based, the target 1), "type", "mean"?, "vocabulary"?, "treatment"?}]}`. An empty object for a folder without
/// one (any other model), or one over 4 MiB or not JSON. The Model tab gets the same object (`…/jobs/{id}/model`).
QJsonObject inputSchemaJson(const QString& modelDir);

/// What `modelDir`/builtin_algorithm_output.json says (trainyard_algorithms writes it when training ends), with
/// `modelPath` = `modelDir` whatever the file says; nullopt when the file is missing or not such an object.
std::optional<BuiltInAlgorithmOutput> readOutput(const QString& modelDir);

} // namespace BuiltInAlgorithms
} // namespace Trainyard
