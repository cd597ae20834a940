// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "explanationconfig.h"
#include "job.h"
#include "machinecatalog.h"
#include "rpcstatus.h"
#include "units.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard {

/// The prediction half of the service's REST v1 (`projects.models`, `projects.models.versions`,
/// `projects.operations`), as wire types with one codec each, shared by the executor and its clients. Field names,
/// enums and rules are the service's reference pages' ("REST Resource: projects.models", "…models.versions",
/// "…operations"); app/executor/API.md "Models and versions" says what Trainyard does with each.

/// Online prediction's and the prediction resources' limits. The service documents the request's 1.5 MB and the
/// label rules; the rest are ours (app/executor/API.md "Limits of models and versions" says why each), so that one
/// request can neither take a version down nor make a list or a record unbounded.
namespace PredictionLimits {
/// The service's limit on an online prediction request ("Online prediction … request payload … 1.5 MB").
constexpr qsizetype MaxRequestBytes = 1572864;
/// How deeply an instance may nest lists and objects. An image is 3 or 4 levels; the executor refuses a deeper
/// instance, and passes the same limit to its nodes (prediction_server.py --max-depth), which answer it as that
/// instance's error.
constexpr int MaxInstanceDepth = 64;
/// The most bytes one prediction answer may have (the nodes answer an error instead; the executor never holds more
/// than this of a node's line).
constexpr qsizetype MaxAnswerBytes = 16 * 1024 * 1024;
/// How long a prediction may take before it answers DEADLINE_EXCEEDED, unless the version says otherwise
/// (`predictionTimeout`, ours), and the longest a version may ask for.
constexpr int DefaultTimeoutSeconds = 60;
constexpr int MaxTimeoutSeconds = 3600;
/// A node that misses this many deadlines in a row is stopped and started again (it hangs, or is stopped).
constexpr int MissedDeadlinesBeforeRestart = 3;
/// `signature_name`: a name, never a payload.
constexpr qsizetype MaxSignatureNameChars = 256;
/// A model's or a version's description (UTF-8 bytes), and any other text field of theirs but deploymentUri and
/// packageUris (which follow the path rules).
constexpr qsizetype MaxDescriptionBytes = 16 * 1024;
constexpr qsizetype MaxNameFieldBytes = 1024;
/// A whole model, version or operation as JSON, as a job's record (MaxJobBytes).
constexpr qsizetype MaxRecordBytes = 512 * 1024;
/// A list page ends after the item that takes it past this many bytes (at least one item a page), whatever pageSize
/// asked for: bounded answers, as a job list's.
constexpr qsizetype MaxListPageBytes = 4 * 1024 * 1024;
} // namespace PredictionLimits

/// A model: a named container of versions. `name` is the short ID ("census"); the wire's `name` is the full
/// resource name "projects/{project}/models/{model}" and is read back to the ID.
struct ModelResource {
    QString project;
    QString name; ///< the model's ID: a letter first, then letters, digits and underscores, at most 128
    QString description;
    QString defaultVersion; ///< the default version's ID; empty until the first version exists
    QStringList regions; ///< at most one (the service's rule); empty = the executor's "local"
    bool onlinePredictionLogging = false;
    bool onlinePredictionConsoleLogging = false;
    QMap<QString, QString> labels;
    QString etag; ///< a hash of the fields above, changed by every update

    /// "projects/{project}/models/{name}".
    QString resourceName() const;
    /// The service's JSON: `name` in full, `defaultVersion` as `{"name": "projects/…/versions/v"}` (only the
    /// name; the version's whole object is get/list's), booleans and labels only when set.
    QJsonObject toJson() const;
    /// Decodes a create body (or a stored record): unknown fields, a bad ID, more than one region and bad labels are
    /// violations named `model.<field>`; `name` may be the ID or the full name of `project`.
    static ModelResource fromJson(const QJsonObject& json, const QString& project, FieldViolations* violations);
    /// A fresh etag of the current fields (base64 of a SHA-256 prefix, as IAM policies' etags here).
    QString computeEtag() const;
};

/// The service's Version.Framework enum, our PYTORCH added (Vertex AI's; a TorchScript archive). TENSORFLOW is
/// decoded so that it can be refused with the reason, never served.
enum class PredictionFramework { Unspecified, TensorFlow, ScikitLearn, XGBoost, PyTorch };

/// A version's life (the service's Version.State): CREATING until its nodes loaded the model, READY, FAILED with
/// `errorMessage`; DELETING while its nodes stop; UPDATING is the service's and unused here.
enum class VersionState { Unknown, Ready, Creating, Failed, Deleting, Updating };

namespace PredictionJson {
QString frameworkName(PredictionFramework framework); ///< "SCIKIT_LEARN"; "FRAMEWORK_UNSPECIFIED"
std::optional<PredictionFramework> frameworkFromName(const QString& name);
QString versionStateName(VersionState state); ///< "READY"; "UNKNOWN"
VersionState versionStateFromName(const QString& name);
/// The ID rule of a model and of a version (the service's: "must start with a letter and contain only letters,
/// numbers and underscores", at most 128 characters): the problems of `id` as sentences, empty when it is valid.
QStringList idProblems(const QString& id);

/// A model's or a version's full resource name, parsed: REST v1's `projects/PROJECT/models/MODEL` and
/// `projects/PROJECT/models/MODEL/versions/VERSION` ("REST Resource: projects.models", "…models.versions").
struct ResourceName {
    QString project; ///< any non-empty segment without '/' (the executor checks projects where it reads them)
    QString model; ///< an ID idProblems() accepts
    QString version; ///< an ID idProblems() accepts; empty in a model's name
};
/// "projects/PROJECT/models/MODEL". The IDs are not checked: callers hold valid ones.
QString modelResourceName(const QString& project, const QString& model);
/// "projects/PROJECT/models/MODEL/versions/VERSION". The IDs are not checked: callers hold valid ones.
QString versionResourceName(const QString& project, const QString& model, const QString& version);
/// `name` parsed as a model's or a version's full name, or nullopt when it has another shape or an ID that
/// idProblems() refuses. The one reader of these names: batch prediction's `modelName`/`versionName`, an
/// operation's version, the console's and trainyardctl's references.
std::optional<ResourceName> parseResourceName(const QString& name);
} // namespace PredictionJson

/// A version of a model: one deployed copy of a model's files, served by its own prediction nodes.
struct VersionResource {
    QString project;
    QString model; ///< the model's ID
    QString name; ///< the version's ID (idProblems())
    QString description;
    QString deploymentUri; ///< as the caller gave it: a local folder (or file:// URL)
    QString runtimeVersion; ///< "2.11"; empty = the newest the executor has
    QString pythonVersion;
    PredictionFramework framework = PredictionFramework::Unspecified;
    /// `frameworkDetectedFrom` (ours, output only): the file the framework was detected from when create gave none
    /// (resolveFramework(), as the service detects it), "model.joblib"; empty when the caller named the framework.
    QString frameworkDetectedFrom;
    QString machineType; ///< accepted and shown; a node here is a process on this host
    int manualScalingNodes = 0; ///< `manualScaling.nodes`; 0 = not given
    std::optional<int> autoScalingMinNodes; ///< `autoScaling.minNodes` (0 allowed)
    std::optional<int> autoScalingMaxNodes; ///< `autoScaling.maxNodes`
    QString predictionClass; ///< a custom prediction routine's "module.Class"
    QStringList packageUris; ///< its packages (staged as a trainer's)
    /// `predictionTimeout` (ours, a google.protobuf.Duration such as "30s"): how long a prediction may take before it
    /// answers DEADLINE_EXCEEDED; 0 = PredictionLimits::DefaultTimeoutSeconds.
    int predictionTimeoutSeconds = 0;
    /// `explanationConfig`: how projects.explain attributes this version's predictions; none = explain refuses.
    std::optional<ExplanationConfig> explanationConfig;
    QMap<QString, QString> labels;
    VersionState state = VersionState::Unknown;
    QString errorMessage;
    QString createTime; ///< RFC 3339
    QString lastUseTime; ///< RFC 3339; empty until the first prediction
    bool isDefault = false;
    QString etag;

    /// "projects/{project}/models/{model}/versions/{name}".
    QString resourceName() const;
    /// The nodes to run while serving: manualScaling.nodes, else autoScaling.minNodes, else 1.
    int nodes() const;
    QJsonObject toJson() const;
    /// Decodes a create body (or a stored record); violations are named `version.<field>`. Output-only fields
    /// (state, createTime, …) are read only with `stored`, and ignored in a create body as the service ignores them.
    static VersionResource fromJson(const QJsonObject& json, const QString& project, const QString& model,
        FieldViolations* violations, bool stored = false);
    QString computeEtag() const;
    /// The service's rule for a version created without `framework` (nor a predictionClass): the framework is detected
    /// from the files in `folder` (deploymentUri's), by the rule the console's Deploy dialog shows
    /// (PredictionJson::detectFramework()), and frameworkDetectedFrom names the file. A version that gives one, or a
    /// routine, is left as it is. False, with *error on version.framework saying what the folder holds, when nothing
    /// this system serves is found.
    bool resolveFramework(const QString& folder, FieldViolation* error);
};

/// A machine type a version's nodes may ask for (`machineType`), as the service's "Choosing a machine type for online
/// prediction" lists them: the legacy MLS1 types mls1-c1-m2 (1 vCPU, 2 GB; the default) and mls1-c4-m2 (4 vCPUs,
/// 2 GB), and Compute Engine's n1-standard, n1-highmem and n1-highcpu types (2 to 32 vCPUs; their sizes from the
/// machine catalog). Here a node is a process that reserves what its type says (ours: the same rule as a replica's).
struct PredictionMachineType {
    QString name;
    int vcpus = 0;
    Bytes memory;
};
/// `name`'s type ("" = mls1-c1-m2), or nullopt when online prediction offers no such type.
std::optional<PredictionMachineType> predictionMachineType(const QString& name);
/// Every name predictionMachineType() knows, for messages and the console.
QStringList predictionMachineTypeNames();
/// Violations of a version's scaling on `host` (field "version.manualScaling.nodes" or "version.autoScaling.…"): the
/// most nodes it may run (manualScaling.nodes, else the larger of autoScaling's minNodes and maxNodes) times its
/// machine type's vCPUs and memory, and the nodes as processes, against what one run may hold on this host
/// (MachineCatalog::capacity, the rule a job's replicas follow); an unknown machine type is a violation of
/// "version.machineType". Empty when the host can hold it.
FieldViolations versionScalingViolations(const VersionResource& version, const HostInventory& host);

/// What a model folder holds, as the deploy dialog explains it: the framework its files need (the service's "Exporting
/// models for prediction" names, our PYTORCH for a TorchScript `model.pt`), the file that says so, whether it is a
/// built-in algorithm's folder (`preprocessing.json`: raw rows in, the training data's labels out), and one sentence
/// for the user. `framework` is Unspecified when nothing servable is there (then `explanation` says what is missing).
struct FrameworkGuess {
    PredictionFramework framework = PredictionFramework::Unspecified;
    QString file; ///< "model.bst"
    bool builtInAlgorithm = false;
    QString explanation; ///< translated ("Trainyard::FrameworkGuess" context)
};

namespace PredictionJson {
/// Looks at `folder`'s files (not their contents) and guesses its framework (FrameworkGuess). The executor's nodes
/// check the files when they load them; this is for the user's choice only.
FrameworkGuess detectFramework(const QString& folder);
} // namespace PredictionJson

/// A long-running operation (google.longrunning.Operation) with the service's OperationMetadata: what version
/// create and delete and model delete return, and `projects.operations` get/list/cancel show.
struct OperationResource {
    QString project;
    QString id; ///< "create_census_v1-1764388800123"; the wire's name is "projects/{project}/operations/{id}"
    QString operationType; ///< "CREATE_VERSION", "DELETE_VERSION", "DELETE_MODEL", "UPDATE_VERSION", "UPDATE_MODEL"
    QString modelName; ///< "projects/p/models/census"
    QJsonObject version; ///< the version as it was asked for (metadata.version)
    QString createTime, startTime, endTime; ///< RFC 3339
    bool done = false;
    bool cancelled = false; ///< metadata.isCancellationRequested
    std::optional<RpcCode> errorCode; ///< done with an error
    QString errorMessage;
    /// Done without an error: the version (CREATE_VERSION, UPDATE_VERSION) or the model (UPDATE_MODEL), else empty
    /// (a delete). On the wire (toJson()) it is an Any with its @type, responseType()'s; an empty one is
    /// google.protobuf.Empty, so that a done operation always carries exactly one of `response` and `error`.
    QJsonObject response;
    /// The @type of an operation's response by its operationType (type.googleapis.com/google.cloud.ml.v1.Version,
    /// …Model, google.protobuf.Empty for a delete).
    static QString responseType(const QString& operationType);

    /// Done, with an error.
    bool failed() const { return done && errorCode.has_value(); }
    /// What `response` holds, as a client prints it: the resource without its `@type`.
    QJsonObject responseResource() const
    {
        QJsonObject r = response;
        r.remove(QStringLiteral("@type"));
        return r;
    }
    QString resourceName() const;
    QJsonObject toJson() const;
    static OperationResource fromJson(const QJsonObject& json);
};

} // namespace Trainyard
