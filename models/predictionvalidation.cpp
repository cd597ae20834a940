// SPDX-License-Identifier: GPL-2.0-or-later
// validatePredictionInput() (job.h): the create-time rules of a batch prediction job's PredictionInput, from REST v1
// projects.jobs (PredictionInput: https://cloud.google.com/ai-platform/prediction/docs/reference/rest/v1/projects.jobs)
// and "Batch prediction" in app/executor/API.md. The texts are translated in the context "Trainyard::JobValidation",
// as jobvalidation.cpp's.
#include "job.h"
#include "pathpolicy.h"
#include "prediction.h"

#include <QCoreApplication>

namespace Trainyard {

FieldViolations validatePredictionInput(const PredictionInput& in)
{
    FieldViolations v;
    const auto field
        = [](const char* name) -> QString { return QStringLiteral("predictionInput.") + QLatin1String(name); };
    const int sources = int(!in.modelName.isEmpty()) + int(!in.versionName.isEmpty()) + int(!in.uri.isEmpty());
    if (sources != 1)
        v.append({ field("modelName"),
            QCoreApplication::translate("Trainyard::JobValidation",
                "Exactly one of modelName, versionName and uri must be given (the model's default version, one "
                "version, or a model folder); %1 given.")
                .arg(sources) });
    // One reader of these names (PredictionJson::parseResourceName) and so one ID rule (idProblems()).
    const auto isName = [](const QString& name, bool version) {
        const std::optional<PredictionJson::ResourceName> r = PredictionJson::parseResourceName(name);
        return r && r->version.isEmpty() != version;
    };
    if (!in.modelName.isEmpty() && !isName(in.modelName, false))
        v.append({ field("modelName"),
            QCoreApplication::translate(
                "Trainyard::JobValidation", "modelName must be projects/PROJECT/models/MODEL (\"%1\").")
                .arg(in.modelName) });
    if (!in.versionName.isEmpty() && !isName(in.versionName, true))
        v.append({ field("versionName"),
            QCoreApplication::translate("Trainyard::JobValidation",
                "versionName must be projects/PROJECT/models/MODEL/versions/VERSION (\"%1\").")
                .arg(in.versionName) });
    const auto localPath = [&](const QString& path, const QString& name, PathUse use) {
        if (const QString url = PathPolicy::urlProblem(path, use); !url.isEmpty())
            v.append({ name, url });
        else if (!path.startsWith(QLatin1Char('/')))
            v.append({ name,
                QCoreApplication::translate("Trainyard::JobValidation", "The path must be absolute (\"%1\").")
                    .arg(path) });
    };
    if (!in.uri.isEmpty())
        localPath(in.uri, field("uri"), PathUse::ModelFolder);
    if (in.dataFormat.isEmpty() || in.dataFormat == QLatin1String("DATA_FORMAT_UNSPECIFIED"))
        v.append({ field("dataFormat"),
            QCoreApplication::translate("Trainyard::JobValidation", "dataFormat is required: JSON, TEXT or CSV.") });
    else if (in.dataFormat.startsWith(QLatin1String("TF_RECORD")))
        v.append({ field("dataFormat"),
            QCoreApplication::translate("Trainyard::JobValidation",
                "%1 input cannot be read here: this system has no TensorFlow runtime. Give JSON, TEXT or CSV lines.")
                .arg(in.dataFormat) });
    if (!in.outputDataFormat.isEmpty() && in.outputDataFormat != QLatin1String("JSON")
        && in.outputDataFormat != QLatin1String("CSV"))
        v.append({ field("outputDataFormat"),
            QCoreApplication::translate("Trainyard::JobValidation", "outputDataFormat must be JSON or CSV, not %1.")
                .arg(in.outputDataFormat) });
    if (in.inputPaths.isEmpty())
        v.append({ field("inputPaths"),
            QCoreApplication::translate(
                "Trainyard::JobValidation", "inputPaths is required: at least one file or pattern.") });
    for (qsizetype i = 0; i < in.inputPaths.size(); ++i) {
        const QString name = field("inputPaths") + QLatin1Char('[') + QString::number(i) + QLatin1Char(']');
        localPath(in.inputPaths.at(i), name, PathUse::InputFile);
        const QString path = in.inputPaths.at(i);
        const qsizetype star = path.indexOf(QLatin1Char('*'));
        if (star >= 0 && path.indexOf(QLatin1Char('/'), star) >= 0)
            v.append({ name,
                QCoreApplication::translate("Trainyard::JobValidation",
                    "A wildcard (*) is allowed only in the last part of a path, as the service allows (\"%1\").")
                    .arg(path) });
    }
    if (in.outputPath.isEmpty())
        v.append({ field("outputPath"),
            QCoreApplication::translate("Trainyard::JobValidation", "outputPath is required.") });
    else
        localPath(in.outputPath, field("outputPath"), PathUse::OutputFolder);
    if (in.maxWorkerCount && *in.maxWorkerCount < 1)
        v.append({ field("maxWorkerCount"),
            QCoreApplication::translate("Trainyard::JobValidation", "maxWorkerCount must be at least 1.") });
    if (in.batchSize && (*in.batchSize < 1 || *in.batchSize > 10000))
        v.append({ field("batchSize"),
            QCoreApplication::translate(
                "Trainyard::JobValidation", "batchSize must be between 1 and 10000 records.") });
    return v;
}

} // namespace Trainyard
