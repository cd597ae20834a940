// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// gcloud `--config` files: `gcloud ai-platform jobs submit training --config FILE` takes a YAML or
// JSON document holding a Job resource (REST v1 `projects.jobs`), usually just `trainingInput:`,
// sometimes with `jobId` and `labels`. See
// https://cloud.google.com/ai-platform/training/docs/reference/rest/v1/projects.jobs and
// https://cloud.google.com/sdk/gcloud/reference/ai-platform/jobs/submit/training (--config).

#include "job.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Trainyard {

class ConfigLoader {
public:
    enum class Format {
        Auto, ///< by file extension in loadFile (.json → Json, anything else → Yaml); Yaml in loadText
        Yaml,
        Json,
    };

    /// Reads and decodes a config file. On failure returns nullopt and sets *error to one
    /// human-readable message (file/syntax problem, or every schema violation joined by "; ");
    /// schema problems are also appended to *violations, each with its field path in the Job
    /// JSON (e.g. "trainingInput.hyperparameters.params[0].minValue").
    /// Does not validate the job (see validateJob()); it only decodes it.
    static std::optional<Job> loadFile(
        const QString& path, QString* error, FieldViolations* violations = nullptr, Format format = Format::Auto);

    /// As loadFile, from text (UTF-8).
    static std::optional<Job> loadText(
        const QByteArray& text, Format format, QString* error, FieldViolations* violations = nullptr);

    /// The document as Job JSON, before decoding: YAML scalars are converted to the JSON type the
    /// schema wants for that field (int64 → string, int32/double → number, bool → bool from
    /// true/True/TRUE/yes/on…, string fields keep the text as written, so `runtimeVersion: 1.10`
    /// stays "1.10"); unknown fields are converted generically and left for the decoder to name.
    /// Returns nullopt and sets *error on a syntax error or when the top level is not a mapping.
    /// Which resource a document holds, for the types of its fields: a Job, or a model Version (gcloud's `versions
    /// create --config`).
    enum class Resource { Job, Version };
    static std::optional<QJsonObject> toJsonObject(
        const QByteArray& text, Format format, QString* error, Resource resource = Resource::Job);
};

/// The gcloud `--config` form of a job: YAML with only the input fields (`labels`, and `trainingInput` or a batch
/// prediction's `predictionInput`), keys sorted as gcloud prints them, int64 counts as plain integers, strings
/// quoted where a YAML reader would otherwise take them for numbers, booleans or null. ConfigLoader::loadText() of
/// the result gives back the job's labels and input unchanged.
QString jobToYaml(const Job& job);

} // namespace Trainyard
