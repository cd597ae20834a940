// SPDX-License-Identifier: GPL-2.0-or-later
// GET …/jobs/{job}/model[?trial=ID]: what a built-in algorithm job trained, for the console's Model tab (issue 29).
// The files are the bundled package's (resources/algorithms/README.md §4): <out>/artifacts/evaluation.json,
// <out>/artifacts/feature_importance.json and the model folder <out>/model, where <out> is the job dir or, for a
// tuning trial, <job dir>/<trial>. Nothing outside those two folders is read.
#include "trainedmodelhandler.h"

#include "apicommon.h"
#include "apicontext.h"

#include "builtinalgorithm.h"
#include "jobstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrlQuery>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

namespace {

/// A JSON object from a file the algorithm wrote, at most `limit` bytes (evaluation.json holds ≤ 2,000 points and a
/// K×K matrix; feature_importance.json one entry per encoded feature). Empty when absent, too large or not JSON.
QJsonObject readArtifact(const QString& path, qint64 limit = 16 * 1024 * 1024)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() > limit)
        return {};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    return doc.isObject() ? doc.object() : QJsonObject();
}

/// The model folder's files (not recursive, no links followed), by name, at most 1,000 (the service's limit on a
/// version's deploymentUri).
QJsonArray modelFiles(const QString& folder)
{
    QJsonArray files;
    const QFileInfoList entries = QDir(folder).entryInfoList(QDir::Files | QDir::NoSymLinks | QDir::Hidden, QDir::Name);
    for (const QFileInfo& e : entries) {
        if (files.size() >= 1000)
            break;
        files.append(QJsonObject {
            { QStringLiteral("name"), e.fileName() }, { QStringLiteral("sizeBytes"), QString::number(e.size()) } });
    }
    return files;
}

} // namespace

TrainedModelHandler::TrainedModelHandler(ApiContext* context, JobStore* store, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_store(store)
{
}

HttpApi::Reply TrainedModelHandler::trainedModel(const ApiRequest& request, const QString& project,
    const QString& jobId, const HttpChannelPtr& channel, bool* deferred)
{
    const std::optional<Job> job = m_store->job(project, jobId);
    if (!job)
        return jobNotFound(project, jobId);
    if (!BuiltInAlgorithms::forJob(job->trainingInput))
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Job %1 is not a built-in algorithm job: its trainer's outputs are its own.").arg(jobId));
    QString dir;
    Reply error;
    if (!localJobDir(*job, m_context->pathPolicy(), &dir, &error))
        return error;
    const QString trial = queryValue(request.query(), QStringLiteral("trial"));
    if (!trial.isEmpty()) {
        // A trial of this job, by the IDs the executor gave (1, 2, …): never a path.
        static const QRegularExpression digits(QStringLiteral("^[1-9][0-9]{0,8}$"));
        bool known = false;
        if (job->trainingOutput) {
            for (const HyperparameterOutput& t : job->trainingOutput->trials)
                known = known || t.trialId == trial;
        }
        if (!digits.match(trial).hasMatch() || !known)
            return invalidArgument(
                QStringLiteral("trial"), QStringLiteral("%1 is not a trial of job %2.").arg(trial, jobId));
    }
    const QString out = trial.isEmpty() ? dir : dir + QLatin1Char('/') + trial;
    *deferred = true;
    m_context->runLater(channel, [out]() -> Reply {
        const QString model = out + QStringLiteral("/model");
        QJsonObject result { { QStringLiteral("modelPath"), model } };
        if (const auto builtIn = BuiltInAlgorithms::readOutput(model))
            result.insert(QStringLiteral("framework"), builtIn->framework);
        const QJsonObject evaluation = readArtifact(out + QStringLiteral("/artifacts/evaluation.json"));
        if (!evaluation.isEmpty())
            result.insert(QStringLiteral("evaluation"), evaluation);
        const QJsonObject importance = readArtifact(out + QStringLiteral("/artifacts/feature_importance.json"));
        if (!importance.isEmpty())
            result.insert(QStringLiteral("featureImportance"), importance);
        // The training table's columns, as a version of this model describes them: the Model tab names columns by it.
        if (const QJsonObject schema = BuiltInAlgorithms::inputSchemaJson(model); !schema.isEmpty())
            result.insert(QStringLiteral("inputSchema"), schema);
        result.insert(QStringLiteral("files"), modelFiles(model));
        return jsonReply(result);
    });
    return {};
}

} // namespace Trainyard
