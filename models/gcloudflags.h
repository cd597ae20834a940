// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Trainyard::GcloudFlags {

/// One flag of `gcloud ai-platform jobs submit training` (https://cloud.google.com/sdk/gcloud/reference/ai-platform/
/// jobs/submit/training) or `… jobs submit prediction` (…/jobs/submit/prediction) and the Job field it stands for:
/// the tables that `trainyardctl jobs submit training|prediction` parse their flags with and the console's submit
/// wizard writes its "equivalent command" from, so that the two say the same thing the same way. What no training
/// flag can say (hyperparameters, scheduling, a replica's other settings…) goes through `--config`
/// (needsConfigFile()).
struct Flag {
    QString name; ///< "master-machine-type" (without the dashes)
    QString metavar; ///< "MASTER_MACHINE_TYPE", or empty for a switch
    QString help; ///< the CLI's help text (English, as gcloud's)
    bool isSwitch = false; ///< a flag without a value (`--use-chief-in-tf-config`)
    /// Sets the field from the flag's `value` ("true" for a switch). False with `*error`, gcloud's argparse wording
    /// ("argument --worker-count: Invalid integer value [x]"), when the value is not one the flag takes.
    std::function<bool(Job& job, const QString& value, QString* error)> apply;
    /// The flag's value for `job` ("true" for a set switch); nullopt when the job leaves the field to its default,
    /// so that no flag is written.
    std::function<std::optional<QString>(const Job& job)> valueOf;
};

/// Every flag that sets a field of the job, in gcloud's help order: --package-path, --packages, --module-name,
/// --job-dir, the three image URIs, --scale-tier, each role's machine type, count and accelerator, --region,
/// --runtime-version, --python-version, --labels, --use-chief-in-tf-config. (--config, --async, --stream-logs and
/// the trainer's arguments after `--` are the command's, not a field's.)
const QList<Flag>& trainingFlags();

/// Every flag of `jobs submit prediction` that sets a field of the job's predictionInput (or its labels), in the
/// order the console writes them: --model-dir, --model, --version, --data-format, --input-paths, --output-path,
/// --region, --output-data-format (Trainyard's; gcloud has none), --max-worker-count, --batch-size,
/// --runtime-version, --signature-name, --labels. `project` makes --model's full resource name when the flags are
/// applied (projects/PROJECT/models/MODEL[/versions/VERSION]); flagsFor() does not use it. --version applies after
/// --model (an error without it).
/// Local paths (--model-dir, --input-paths, --output-path) are made absolute against the current folder. Which
/// flags a command requires is the command's (gcloud's: --data-format, --input-paths, --output-path, --region, and
/// one of --model and --model-dir).
QList<Flag> predictionFlags(const QString& project);

/// The words that say `job` in flags ("--name=value", "--switch"), in `table`'s order.
QStringList flagsFor(const Job& job, const QList<Flag>& table = trainingFlags());

/// Applies words as flagsFor() writes them to `job`, in order: the inverse of flagsFor() for a job without
/// packages (the package flags add to packageUris). False with `*error` at the first word that is no flag of the
/// table, a switch written with a value (or the reverse), or a value the flag does not take.
bool applyWords(Job& job, const QStringList& words, QString* error, const QList<Flag>& table = trainingFlags());

/// True when `job` sets something that no flag can say, so that an equivalent command needs `--config`: its
/// hyperparameters, scheduling, evaluator config, network, service account, web access, encryption, or any
/// replica setting beyond its accelerator and image.
bool needsConfigFile(const Job& job);

/// gcloud's `--scale-tier` choice for a ScaleTier name: lower case with dashes ("basic-gpu" for BASIC_GPU).
QString scaleTierFlag(const QString& scaleTier);
/// The ScaleTier name of a `--scale-tier` value (a choice or the enum name); nullopt for any other.
std::optional<QString> scaleTierFromFlag(const QString& text);
/// The `--scale-tier` choices, as gcloud lists them ("basic, basic-gpu, …").
QString scaleTierChoices();

/// An integer flag value ≥ `minimum`; false with argparse's `*error` naming `--flag` otherwise.
bool parseInt(const QString& flag, const QString& text, int minimum, int* out, QString* error);
/// gcloud's ArgDict "KEY=VALUE,…" into `*out` (added to what it holds); false with `*error` for an item without "=".
bool parseDict(const QString& flag, const QString& text, QMap<QString, QString>* out, QString* error);
/// `--master-accelerator count=N,type=T` (gcloud's ArgDict with spec {type: str, count: int}); the type is accepted
/// as gcloud's lower-case choice (nvidia-tesla-t4) or the enum name; count defaults to 1.
bool parseAccelerator(const QString& flag, const QString& text, AcceleratorConfig* out, QString* error);

} // namespace Trainyard::GcloudFlags
