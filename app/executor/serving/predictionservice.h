// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "batchplan.h"
#include "modelstore.h"
#include "nodecapacity.h"
#include "nodelauncher.h"
#include "prediction.h"
#include "requeststats.h"
#include "sparenodes.h"
#include "sandbox.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

namespace Trainyard {

class VersionNodes;

/// Deployed versions' lives (ARCHITECTURE.md "Models and predictions"): create, serve, delete, recover.
///
/// - createVersion(): the version is stored CREATING with its CREATE_VERSION operation; its `deploymentUri` is
///   copied into `<dataDir>/projects/<p>/models/<m>/versions/<v>/model` (copyDeployment(): the folder's own files
///   within the machine type's DeploymentQuota, off the main thread), its packageUris staged with pip (a custom
///   prediction routine's), then its nodes started (VersionNodes). All nodes loaded → READY, the operation done with
///   the version as its response; a copy, a stage or a load that fails → FAILED with the message in `errorMessage`, the
///   operation done with the error (the service's "Create Version failed. Bad model detected with error: …"), and no
///   node left running.
/// - deleteVersion(): DELETING with its DELETE_VERSION operation; the nodes are stopped, the copy removed, the record
///   deleted (and the model's default cleared when it was the last one), the operation done. A version still
///   CREATING may be deleted too: its copy and pip stop, and its CREATE_VERSION operation ends CANCELLED.
/// - predict(): a READY version's nodes answer; `lastUseTime` is kept (stored at most once a minute).
/// - recover(): after a start, READY versions are served again (new nodes: an executor's nodes die with it),
///   CREATING ones are created again from their copy (or their deploymentUri when the copy is incomplete), DELETING
///   ones deleted; their operations finish as they would have.
///
/// Main thread; the store and the stopped nodes are used from it only.
class PredictionService : public QObject {
    Q_OBJECT
public:
    PredictionService(ModelStore* store, const QString& dataDir, QObject* parent = nullptr);
    ~PredictionService() override;

    ModelStore* store() const { return m_store; }
    /// How long a node beyond a version's autoScaling.minNodes may idle before it is stopped (ms; default 60 s,
    /// `trainyard-executor --prediction-idle-seconds`). Applies to nodes started from now on.
    void setIdleStopMs(int ms) { m_idleStopMs = ms; }
    /// Where the prediction nodes and pip (a custom routine's packages) run (app/launch/sandbox.h; inactive by
    /// default): a node sees its version's copy of the model and its packages, read only; a version's copy and its
    /// staging are handed to the sandbox's account when the executor runs as root.
    void setSandbox(const Sandbox& sandbox) { m_sandbox = sandbox; }
    /// Where every version's nodes reserve their machine type (the scheduler's host, Scheduler::nodeCapacity(); not
    /// owned, outlives this; null: nodes reserve nothing). Set before serve().
    void setNodeCapacity(NodeCapacity* capacity)
    {
        m_nodeCapacity = capacity;
        m_spares.setCapacity(capacity);
    }
    /// Whether versions that scale to zero keep a warm spare node of their runtime (sparenodes.h; on by default).
    void setWarmSpares(bool on) { m_warmSpares = on; }
    /// The warm spares (tests, diagnostics).
    const SpareNodes& spares() const { return m_spares; }

    /// Stores `version` (validated by the caller; state, createTime and isDefault are set here) and starts its
    /// creation; `model` is its model, whose defaultVersion becomes this one when it has none. Returns the operation
    /// (not done), or nullopt with *error when the store refused.
    std::optional<OperationResource> createVersion(VersionResource version, ModelResource model, QString* error);
    /// Updates a READY `version` to `updated` (its description, labels and scaling, validated by the caller) with an
    /// UPDATE_VERSION operation. A change of description or labels alone is stored at once (the operation done). A
    /// change of scaling makes it UPDATING while its nodes are started again with the new numbers (the old ones are
    /// stopped), then READY with the operation done, its response the version (FAILED and the operation's error when
    /// the nodes cannot load the model). nullopt with *error when the store refused.
    std::optional<OperationResource> updateVersion(
        const VersionResource& current, VersionResource updated, QString* error);
    /// Starts deleting `version` (READY, FAILED, or CREATING: its creation stops); nullopt with *error when the store
    /// refused.
    std::optional<OperationResource> deleteVersion(VersionResource version, QString* error);
    /// A DELETE_MODEL operation, done at once (the caller checked the model has no versions and deleted it).
    std::optional<OperationResource> modelDeleted(const ModelResource& model, QString* error);

    /// The answer to a prediction: `{"predictions": [...]}`, `{"error": "…", "instance": i}` (the runtime refused an
    /// instance) or `{"unavailable": "…"}`.
    using Answer = std::function<void(const QJsonObject&)>;
    /// Sends `instances` to `version`'s nodes (it must be READY). `answer` runs once.
    void predict(
        const VersionResource& version, const QJsonArray& instances, const QString& signatureName, Answer answer);
    /// Asks `version`'s nodes (it must be READY) to explain `instances` (projects.explain): `config` is the node's
    /// "explain" object (ExplanationConfig::nodeJson() with the request's outputIndices). `answer` runs once, with
    /// `{"explanations": [...]}` or an error as predict()'s.
    void explain(
        const VersionResource& version, const QJsonArray& instances, const QJsonObject& config, Answer answer);

    /// Appends `line` to `version`'s log (its nodes' log) with a timestamp: a request's record when the model has
    /// onlinePredictionLogging.
    void logRequest(const VersionResource& version, const QString& line);
    /// Counts one answered request of `version` (its latency through the executor, and whether it was HTTP 200) in
    /// its RequestStats.
    void recordRequest(const VersionResource& version, double latencyMs, bool ok);
    /// `version`'s requests/s, errors/s and latency percentiles over the last hour (RequestStats::toJson()).
    QJsonObject requestStats(const VersionResource& version) const;
    /// `version`'s requests per second in the current 10-second interval (RequestStats::latestRequestsPerSecond()),
    /// 0 when it had none: what the models stream's `rates` event carries.
    double latestRequestRate(const VersionResource& version) const;
    /// The last `count` lines of `version`'s log (oldest first): each {"timestamp": RFC 3339, "text": …}.
    QJsonArray readLog(const VersionResource& version, int count) const;

    /// Serves what the store holds after a start (the class comment).
    void recover();
    /// Stops every node (the executor's shutdown). Versions stay READY in the store.
    void shutdown();

    /// The model a batch prediction job of `project` runs (the API plans the job with it once: BatchPlan::make()):
    /// `modelName`'s default version or `versionName`, which must be READY (their copy here, with a custom prediction
    /// routine's staged packages), or the folder `uri` (its framework detected from its files,
    /// PredictionJson::detectFramework()). nullopt with *error, the field and the rule ({"predictionInput.modelName",
    /// "model projects/local/models/m has no default version"}), otherwise.
    std::optional<BatchModel> batchModel(
        const QString& project, const PredictionInput& input, FieldViolation* error) const;

    /// The folder of a version's files here.
    QString versionFolder(const QString& project, const QString& model, const QString& version) const;
    /// The version's log (its nodes' output, starts, exits).
    QString versionLog(const QString& project, const QString& model, const QString& version) const;
    /// The running nodes' process IDs of a version (tests).
    QList<qint64> nodePids(const QString& project, const QString& model, const QString& version) const;

    /// The RFC 3339 time now, as records keep it.
    static QString now();

Q_SIGNALS:
    /// A version's state changed (READY, FAILED) or it was deleted (`deleted`).
    void versionChanged(const QString& project, const QString& model, const QString& version, bool deleted);

private:
    struct Serving;
    void beginCreate(const VersionResource& version, const QString& operationId);
    void afterCopy(const QString& key, const QString& error);
    void startNodes(const QString& key);
    void finishCreate(const QString& key, const QString& error);
    void finishDelete(const VersionResource& version, const QString& operationId);
    void serve(const VersionResource& version);
    static QString keyOf(const VersionResource& version);
    /// `version`'s running nodes, its lastUseTime kept (written at most once a minute); null after answering
    /// `answer` UNAVAILABLE when none run.
    VersionNodes* servingNodes(const VersionResource& version, const Answer& answer);

    ModelStore* m_store;
    QString m_dataDir;
    int m_idleStopMs = 60000;
    Sandbox m_sandbox;
    ProcessNodeLauncher m_nodeLauncher { &m_sandbox }; ///< every version's nodes, in m_sandbox
    SpareNodes m_spares { &m_nodeLauncher }; ///< warm spares of the runtimes of versions that scale to zero
    bool m_warmSpares = true;
    NodeCapacity* m_nodeCapacity = nullptr;
    QHash<QString, std::shared_ptr<Serving>> m_serving; ///< "project/model/version" → its nodes and pending creation
    QHash<QString, RequestStats> m_stats; ///< "project/model/version" → its requests (kept after a delete: an hour)
};

} // namespace Trainyard
