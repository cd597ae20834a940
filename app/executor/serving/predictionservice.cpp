// SPDX-License-Identifier: GPL-2.0-or-later
#include "predictionservice.h"

#include "builtinalgorithm.h"
#include "deploymentcopy.h"
#include "jobfolder.h"
#include "rfc3339.h"
#include "staging.h"
#include "versionnodes.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLoggingCategory>
#include <QPointer>
#include <QThread>
#include <QUrl>
#include <QtConcurrent>

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcPrediction, "trainyard.executor")

/// How often a served version's lastUseTime is written (a prediction per millisecond must not be a write each).
constexpr qint64 LastUseWriteMs = 60000;

/// A local path of a deploymentUri: a path, or a file:// URL.
QString localPath(const QString& uri)
{
    if (uri.startsWith(QLatin1String("file:")))
        return QUrl(uri).toLocalFile();
    return uri;
}

QString interpreterOf(const VersionResource& version)
{
    const QList<RuntimeVersion> all = runtimeVersions();
    for (const RuntimeVersion& v : all) {
        if (v.runtimeVersion == version.runtimeVersion)
            return v.interpreter;
    }
    return all.isEmpty() ? QStringLiteral("/usr/bin/python3") : all.last().interpreter;
}

} // namespace

struct PredictionService::Serving {
    VersionResource version;
    bool creating = false; ///< being created: READY or FAILED comes with its first load
    /// The model's copy while it runs (deploymentcopy.h), and what stops it: a version deleted meanwhile.
    QPointer<QFutureWatcher<QString>> copying;
    std::shared_ptr<std::atomic_bool> copyCancelled = std::make_shared<std::atomic_bool>(false);
    QString operationId; ///< its CREATE_VERSION operation (empty when the record of it is missing)
    VersionNodes* nodes = nullptr;
    Staging* staging = nullptr;
    qint64 lastUseWrittenMs = 0;
    ~Serving()
    {
        delete nodes;
        delete staging;
    }
};

PredictionService::PredictionService(ModelStore* store, const QString& dataDir, QObject* parent)
    : QObject(parent)
    , m_store(store)
    , m_dataDir(dataDir)
{
}

PredictionService::~PredictionService()
{
    shutdown();
}

QString PredictionService::now()
{
    return Rfc3339::now();
}

QString PredictionService::keyOf(const VersionResource& version)
{
    return version.project + QLatin1Char('/') + version.model + QLatin1Char('/') + version.name;
}

QString PredictionService::versionFolder(const QString& project, const QString& model, const QString& version) const
{
    return m_dataDir + QStringLiteral("/projects/") + project + QStringLiteral("/models/") + model
        + QStringLiteral("/versions/") + version;
}

QString PredictionService::versionLog(const QString& project, const QString& model, const QString& version) const
{
    return versionFolder(project, model, version) + QStringLiteral("/nodes.log");
}

QList<qint64> PredictionService::nodePids(const QString& project, const QString& model, const QString& version) const
{
    const auto it = m_serving.constFind(project + QLatin1Char('/') + model + QLatin1Char('/') + version);
    return it != m_serving.cend() && (*it)->nodes ? (*it)->nodes->pids() : QList<qint64>();
}

std::optional<OperationResource> PredictionService::createVersion(
    VersionResource version, ModelResource model, QString* error)
{
    const QString time = now();
    version.state = VersionState::Creating;
    version.createTime = time;
    version.errorMessage.clear();
    version.lastUseTime.clear();
    version.isDefault = model.defaultVersion.isEmpty();
    version.etag = version.computeEtag();
    const bool newDefault = version.isDefault;
    if (newDefault) {
        model.defaultVersion = version.name;
        model.etag = model.computeEtag();
    }
    OperationResource op;
    op.project = version.project;
    op.id = QStringLiteral("create_%1_%2-%3").arg(version.model, version.name).arg(QDateTime::currentMSecsSinceEpoch());
    op.operationType = QStringLiteral("CREATE_VERSION");
    op.modelName = model.resourceName();
    op.version = version.toJson();
    op.createTime = time;
    op.startTime = time;
    if (!m_store->putOperation(op, error) || !m_store->insertVersion(version, newDefault ? &model : nullptr, error))
        return std::nullopt;
    beginCreate(version, op.id);
    return op;
}

void PredictionService::beginCreate(const VersionResource& version, const QString& operationId)
{
    auto serving = std::make_shared<Serving>();
    serving->version = version;
    serving->creating = true;
    serving->operationId = operationId;
    const QString key = keyOf(version);
    m_serving.insert(key, serving);
    const QString folder = versionFolder(version.project, version.model, version.name);
    QDir().mkpath(folder);
    const QString target = folder + QStringLiteral("/model");
    if (QFileInfo::exists(target)) {
        // Copied before the executor stopped: a copy is only ever in place whole.
        afterCopy(key, QString());
        return;
    }
    auto* watcher = new QFutureWatcher<QString>(this);
    serving->copying = watcher;
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, key] {
        watcher->deleteLater();
        afterCopy(key, watcher->result());
    });
    const std::shared_ptr<std::atomic_bool> cancelled = serving->copyCancelled;
    watcher->setFuture(QtConcurrent::run([source = localPath(version.deploymentUri), target,
                                             quota = DeploymentQuota::forMachineType(version.machineType), cancelled] {
        return copyDeployment(source, target, quota, cancelled.get());
    }));
}

void PredictionService::afterCopy(const QString& key, const QString& error)
{
    const auto serving = m_serving.value(key);
    if (!serving)
        return; // deleted meanwhile
    if (!error.isEmpty()) {
        finishCreate(key, error);
        return;
    }
    const VersionResource& v = serving->version;
    // The nodes read the copy as the sandbox's account (the executor copied it as root, keeping the files' modes).
    QString handOverError;
    if (!m_sandbox.handOver(versionFolder(v.project, v.model, v.name) + QStringLiteral("/model"), &handOverError)) {
        finishCreate(key, handOverError);
        return;
    }
    if (v.packageUris.isEmpty()) {
        startNodes(key);
        return;
    }
    serving->staging = new Staging(versionFolder(v.project, v.model, v.name), interpreterOf(v), v.packageUris);
    serving->staging->setSandbox(&m_sandbox);
    connect(serving->staging, &Staging::finished, this, [this, key](bool ok, const QString& message) {
        if (ok)
            startNodes(key);
        else
            finishCreate(key, QStringLiteral("packageUris could not be installed: %1").arg(message));
    });
    serving->staging->start();
}

std::optional<BatchModel> PredictionService::batchModel(
    const QString& project, const PredictionInput& input, FieldViolation* error) const
{
    if (!input.uri.isEmpty()) {
        const FrameworkGuess guess = PredictionJson::detectFramework(input.uri);
        if (!QFileInfo(input.uri).isDir()) {
            *error = { QStringLiteral("predictionInput.uri"), QStringLiteral("%1 is not a folder").arg(input.uri) };
            return std::nullopt;
        }
        if (guess.framework == PredictionFramework::Unspecified || guess.framework == PredictionFramework::TensorFlow) {
            *error = { QStringLiteral("predictionInput.uri"),
                QStringLiteral("%1 holds no model this system can serve (%2)").arg(input.uri, guess.explanation) };
            return std::nullopt;
        }
        BatchModel model;
        model.modelDir = input.uri;
        model.framework = PredictionJson::frameworkName(guess.framework);
        return model;
    }
    const bool byModel = !input.modelName.isEmpty();
    const QString field
        = byModel ? QStringLiteral("predictionInput.modelName") : QStringLiteral("predictionInput.versionName");
    // projects/P/models/M[/versions/V], as validatePredictionInput() checked.
    const std::optional<PredictionJson::ResourceName> name
        = PredictionJson::parseResourceName(byModel ? input.modelName : input.versionName);
    if (!name || name->project != project) {
        *error = { field, QStringLiteral("the model must be in this job's project (%1)").arg(project) };
        return std::nullopt;
    }
    const std::optional<ModelResource> model = m_store->model(project, name->model);
    if (!model) {
        *error = { field,
            QStringLiteral("there is no model %1").arg(PredictionJson::modelResourceName(project, name->model)) };
        return std::nullopt;
    }
    QString versionId = name->version;
    if (byModel) {
        versionId = model->defaultVersion;
        if (versionId.isEmpty()) {
            *error = { field, QStringLiteral("model %1 has no default version").arg(model->resourceName()) };
            return std::nullopt;
        }
    }
    const std::optional<VersionResource> v = m_store->version(project, model->name, versionId);
    if (!v) {
        *error = { field,
            QStringLiteral("there is no version %1")
                .arg(PredictionJson::versionResourceName(project, model->name, versionId)) };
        return std::nullopt;
    }
    if (v->state != VersionState::Ready) {
        *error = { field,
            QStringLiteral("version %1 is %2; only a READY version predicts")
                .arg(v->resourceName(), PredictionJson::versionStateName(v->state)) };
        return std::nullopt;
    }
    BatchModel result;
    const QString folder = versionFolder(project, model->name, v->name);
    result.modelDir = folder + QStringLiteral("/model");
    result.framework = v->predictionClass.isEmpty() ? PredictionJson::frameworkName(v->framework) : QString();
    result.predictionClass = v->predictionClass;
    if (!v->packageUris.isEmpty())
        result.pythonPath << JobFolder(folder).stagingDir();
    result.runtimeVersion = v->runtimeVersion;
    return result;
}

void PredictionService::startNodes(const QString& key)
{
    const auto serving = m_serving.value(key);
    if (!serving)
        return;
    const VersionResource& v = serving->version;
    const QString package = BuiltInAlgorithms::packageDir();
    if (package.isEmpty()) {
        finishCreate(key, BuiltInAlgorithms::notInstalledMessage(QStringLiteral("A version's prediction server")));
        return;
    }
    VersionNodes::Spec spec;
    spec.interpreter = interpreterOf(v);
    spec.pythonPath << package;
    const QString folder = versionFolder(v.project, v.model, v.name);
    // A custom prediction routine's packages, staged into the version's folder at create (kept across restarts).
    if (!v.packageUris.isEmpty())
        spec.pythonPath << JobFolder(folder).stagingDir();
    spec.modelDir = folder + QStringLiteral("/model");
    spec.framework = v.predictionClass.isEmpty() ? PredictionJson::frameworkName(v.framework) : QString();
    spec.predictionClass = v.predictionClass;
    if (v.manualScalingNodes > 0 || (!v.autoScalingMinNodes && !v.autoScalingMaxNodes)) {
        spec.minNodes = spec.maxNodes = v.nodes();
    } else {
        spec.minNodes = v.autoScalingMinNodes.value_or(0);
        // The service's maxNodes defaults to what the project may use; here a node per CPU is the most that helps.
        spec.maxNodes = v.autoScalingMaxNodes.value_or(qMax(spec.minNodes, QThread::idealThreadCount()));
    }
    spec.idleStopMs = m_idleStopMs;
    spec.logFile = versionLog(v.project, v.model, v.name);
    spec.name = v.resourceName();
    // Validated at create (versionScalingViolations()); a stored record of an older executor has the default.
    if (const std::optional<PredictionMachineType> type = predictionMachineType(v.machineType))
        spec.machineType = *type;
    spec.timeoutMs = 1000
        * (v.predictionTimeoutSeconds > 0 ? v.predictionTimeoutSeconds : PredictionLimits::DefaultTimeoutSeconds);
    delete serving->nodes;
    serving->nodes = new VersionNodes(spec, &m_nodeLauncher, m_nodeCapacity, this);
    if (m_warmSpares)
        serving->nodes->setSpares(&m_spares);
    connect(serving->nodes, &VersionNodes::ready, this, [this, key] {
        const auto s = m_serving.value(key);
        if (s && s->creating)
            finishCreate(key, QString());
        else if (s)
            qCInfo(lcPrediction).noquote() << "serving" << s->version.resourceName() << "again:" << s->nodes->kind();
    });
    connect(serving->nodes, &VersionNodes::failed, this, [this, key](const QString& message) {
        const auto s = m_serving.value(key);
        if (!s)
            return;
        if (s->creating) {
            finishCreate(key, message);
            return;
        }
        // A version that served before cannot load its model now (its runtime changed under it): FAILED, as the
        // service marks a version it cannot serve.
        s->version.state = VersionState::Failed;
        s->version.errorMessage = message;
        QString error;
        if (!m_store->updateVersion(s->version, &error))
            qCWarning(lcPrediction).noquote() << "cannot store" << s->version.resourceName() << ":" << error;
        const VersionResource v = s->version;
        m_serving.remove(key);
        Q_EMIT versionChanged(v.project, v.model, v.name, false);
    });
    serving->nodes->start();
}

void PredictionService::finishCreate(const QString& key, const QString& error)
{
    const auto serving = m_serving.value(key);
    if (!serving)
        return;
    VersionResource& v = serving->version;
    v.state = error.isEmpty() ? VersionState::Ready : VersionState::Failed;
    const std::optional<OperationResource> pending = m_store->operation(v.project, serving->operationId);
    const bool update = pending && pending->operationType == QLatin1String("UPDATE_VERSION");
    v.errorMessage = error.isEmpty() ? QString()
        : update                     ? QStringLiteral("Update Version failed: ") + error
                                     : QStringLiteral("Create Version failed. Bad model detected with error: ") + error;
    v.etag = v.computeEtag();
    QString problem;
    if (!m_store->updateVersion(v, &problem))
        qCWarning(lcPrediction).noquote() << "cannot store" << v.resourceName() << ":" << problem;
    if (std::optional<OperationResource> op = m_store->operation(v.project, serving->operationId)) {
        op->done = true;
        op->endTime = now();
        if (error.isEmpty()) {
            op->response = v.toJson(); // an Any of its operation's type on the wire (OperationResource::toJson())
        } else {
            op->errorCode = RpcCode::InvalidArgument;
            op->errorMessage = v.errorMessage;
        }
        if (!m_store->putOperation(*op, &problem))
            qCWarning(lcPrediction).noquote() << "cannot store the operation" << op->resourceName() << ":" << problem;
    }
    serving->creating = false;
    serving->operationId.clear();
    qCInfo(lcPrediction).noquote() << v.resourceName()
                                   << (error.isEmpty() ? QStringLiteral("is READY")
                                                       : QStringLiteral("FAILED: ") + error);
    const VersionResource copy = v;
    if (!error.isEmpty())
        m_serving.remove(key); // its nodes are stopped with it
    Q_EMIT versionChanged(copy.project, copy.model, copy.name, false);
}

void PredictionService::recordRequest(const VersionResource& version, double latencyMs, bool ok)
{
    m_stats[keyOf(version)].record(QDateTime::currentMSecsSinceEpoch(), latencyMs, ok);
}

double PredictionService::latestRequestRate(const VersionResource& version) const
{
    const auto it = m_stats.constFind(keyOf(version));
    return it == m_stats.cend() ? 0.0 : it->latestRequestsPerSecond(QDateTime::currentMSecsSinceEpoch());
}

QJsonObject PredictionService::requestStats(const VersionResource& version) const
{
    const auto it = m_stats.constFind(keyOf(version));
    return (it == m_stats.cend() ? RequestStats() : *it).toJson(QDateTime::currentMSecsSinceEpoch());
}

std::optional<OperationResource> PredictionService::updateVersion(
    const VersionResource& current, VersionResource updated, QString* error)
{
    const QString time = now();
    OperationResource op;
    op.project = updated.project;
    op.id = QStringLiteral("update_%1_%2-%3").arg(updated.model, updated.name).arg(QDateTime::currentMSecsSinceEpoch());
    op.operationType = QStringLiteral("UPDATE_VERSION");
    op.modelName = PredictionJson::modelResourceName(updated.project, updated.model);
    op.createTime = time;
    op.startTime = time;
    const bool rescale = updated.manualScalingNodes != current.manualScalingNodes
        || updated.autoScalingMinNodes != current.autoScalingMinNodes
        || updated.autoScalingMaxNodes != current.autoScalingMaxNodes;
    updated.state = rescale ? VersionState::Updating : VersionState::Ready;
    updated.etag = updated.computeEtag();
    op.version = updated.toJson();
    if (!rescale) {
        op.done = true;
        op.endTime = time;
        op.response = updated.toJson();
    }
    if (!m_store->putOperation(op, error) || !m_store->updateVersion(updated, error))
        return std::nullopt;
    const QString key = keyOf(updated);
    if (!rescale) {
        if (const auto serving = m_serving.value(key))
            serving->version = updated;
        return op;
    }
    // New nodes with the new numbers; READY (and the operation done) when they loaded, as a create's.
    auto serving = std::make_shared<Serving>();
    serving->version = updated;
    serving->creating = true;
    serving->operationId = op.id;
    m_serving.insert(key, serving); // the old nodes stop with their Serving
    startNodes(key);
    return op;
}

std::optional<OperationResource> PredictionService::deleteVersion(VersionResource version, QString* error)
{
    const QString time = now();
    OperationResource op;
    op.project = version.project;
    op.id = QStringLiteral("delete_%1_%2-%3").arg(version.model, version.name).arg(QDateTime::currentMSecsSinceEpoch());
    op.operationType = QStringLiteral("DELETE_VERSION");
    op.modelName = PredictionJson::modelResourceName(version.project, version.model);
    op.version = version.toJson();
    op.createTime = time;
    op.startTime = time;
    version.state = VersionState::Deleting;
    if (!m_store->putOperation(op, error) || !m_store->updateVersion(version, error))
        return std::nullopt;
    // The nodes stop now (their answers in flight end UNAVAILABLE), pip with them; a copy in progress stops at its
    // next block, and the files and the record go once it has (from the event loop).
    const std::shared_ptr<Serving> serving = m_serving.take(keyOf(version));
    if (serving && serving->creating && !serving->operationId.isEmpty()) {
        // Its create never finishes now: its operation ends here, as cancelled.
        if (std::optional<OperationResource> create = m_store->operation(version.project, serving->operationId)) {
            create->done = true;
            create->endTime = time;
            create->errorCode = RpcCode::Cancelled;
            create->errorMessage = QStringLiteral("The version was deleted while it was being created.");
            QString problem;
            if (!m_store->putOperation(*create, &problem))
                qCWarning(lcPrediction).noquote()
                    << "cannot store the operation" << create->resourceName() << ":" << problem;
        }
    }
    if (serving && serving->copying && serving->copying->isRunning()) {
        serving->copyCancelled->store(true);
        connect(serving->copying.data(), &QFutureWatcher<QString>::finished, this,
            [this, version, id = op.id] { finishDelete(version, id); });
        return op;
    }
    QMetaObject::invokeMethod(
        this, [this, version, id = op.id] { finishDelete(version, id); }, Qt::QueuedConnection);
    return op;
}

void PredictionService::finishDelete(const VersionResource& version, const QString& operationId)
{
    QDir(versionFolder(version.project, version.model, version.name)).removeRecursively();
    std::optional<ModelResource> model = m_store->model(version.project, version.model);
    const bool wasDefault = model && model->defaultVersion == version.name;
    if (wasDefault) {
        model->defaultVersion.clear();
        model->etag = model->computeEtag();
    }
    QString error;
    std::optional<OperationResource> op = m_store->operation(version.project, operationId);
    if (!m_store->deleteVersion(version, wasDefault ? &*model : nullptr, &error)) {
        qCWarning(lcPrediction).noquote() << "cannot delete" << version.resourceName() << ":" << error;
        if (op) {
            op->errorCode = RpcCode::Unavailable;
            op->errorMessage = QStringLiteral("the version's record could not be deleted: %1").arg(error);
        }
    }
    if (op) {
        op->done = true;
        op->endTime = now();
        if (!m_store->putOperation(*op, &error))
            qCWarning(lcPrediction).noquote() << "cannot store the operation" << op->resourceName() << ":" << error;
    }
    Q_EMIT versionChanged(version.project, version.model, version.name, true);
}

std::optional<OperationResource> PredictionService::modelDeleted(const ModelResource& model, QString* error)
{
    const QString time = now();
    OperationResource op;
    op.project = model.project;
    op.id = QStringLiteral("delete_%1-%2").arg(model.name).arg(QDateTime::currentMSecsSinceEpoch());
    op.operationType = QStringLiteral("DELETE_MODEL");
    op.modelName = model.resourceName();
    op.createTime = op.startTime = op.endTime = time;
    op.done = true;
    if (!m_store->putOperation(op, error))
        return std::nullopt;
    QDir(m_dataDir + QStringLiteral("/projects/") + model.project + QStringLiteral("/models/") + model.name)
        .removeRecursively();
    return op;
}

void PredictionService::predict(
    const VersionResource& version, const QJsonArray& instances, const QString& signatureName, Answer answer)
{
    if (VersionNodes* nodes = servingNodes(version, answer))
        nodes->predict(instances, signatureName, std::move(answer));
}

void PredictionService::explain(
    const VersionResource& version, const QJsonArray& instances, const QJsonObject& config, Answer answer)
{
    if (VersionNodes* nodes = servingNodes(version, answer))
        nodes->explain(instances, config, std::move(answer));
}

VersionNodes* PredictionService::servingNodes(const VersionResource& version, const Answer& answer)
{
    const QString key = keyOf(version);
    const auto serving = m_serving.value(key);
    if (!serving || !serving->nodes) {
        answer(QJsonObject { { QStringLiteral("unavailable"),
            QStringLiteral("version %1 has no prediction node running").arg(version.resourceName()) } });
        return nullptr;
    }
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    if (nowMs - serving->lastUseWrittenMs >= LastUseWriteMs) {
        serving->lastUseWrittenMs = nowMs;
        if (std::optional<VersionResource> stored = m_store->version(version.project, version.model, version.name)) {
            stored->lastUseTime = now();
            QString error;
            if (!m_store->updateVersion(*stored, &error))
                qCWarning(lcPrediction).noquote()
                    << "cannot store lastUseTime of" << version.resourceName() << ":" << error;
        }
    }
    return serving->nodes;
}

void PredictionService::logRequest(const VersionResource& version, const QString& line)
{
    QFile log(versionLog(version.project, version.model, version.name));
    if (!log.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
        return;
    log.write((now() + QStringLiteral(" ") + line + QLatin1Char('\n')).toUtf8());
}

QJsonArray PredictionService::readLog(const VersionResource& version, int count) const
{
    QFile log(versionLog(version.project, version.model, version.name));
    QJsonArray entries;
    if (!log.open(QIODevice::ReadOnly))
        return entries;
    // The log is the nodes' output and request records: its tail is read (at most 4 MiB), never the whole file.
    constexpr qint64 MaxTail = 4 << 20;
    if (log.size() > MaxTail)
        log.seek(log.size() - MaxTail);
    QList<QByteArray> lines = log.readAll().split('\n');
    if (log.size() > MaxTail && !lines.isEmpty())
        lines.removeFirst(); // cut in the middle
    QList<QByteArray> kept;
    for (auto it = lines.crbegin(); it != lines.crend() && kept.size() < count; ++it) {
        if (!it->trimmed().isEmpty())
            kept.prepend(*it);
    }
    for (const QByteArray& raw : std::as_const(kept)) {
        const QString line = QString::fromUtf8(raw);
        const qsizetype space = line.indexOf(QLatin1Char(' '));
        entries.append(QJsonObject {
            { QStringLiteral("timestamp"), line.left(space) }, { QStringLiteral("text"), line.mid(space + 1) } });
    }
    return entries;
}

void PredictionService::serve(const VersionResource& version)
{
    auto serving = std::make_shared<Serving>();
    serving->version = version;
    const QString key = keyOf(version);
    m_serving.insert(key, serving);
    startNodes(key); // a READY version's packages were staged at create: startNodes() takes the folder as it is
}

void PredictionService::recover()
{
    const QList<OperationResource> operations = m_store->operations(QString());
    for (const VersionResource& v : m_store->versions(QString(), QString())) {
        switch (v.state) {
        case VersionState::Ready:
            serve(v);
            break;
        case VersionState::Creating: {
            QString id;
            for (const OperationResource& op : operations) {
                if (!op.done && op.operationType == QLatin1String("CREATE_VERSION")
                    && op.version.value(QStringLiteral("name")).toString() == v.resourceName())
                    id = op.id;
            }
            beginCreate(v, id);
            break;
        }
        case VersionState::Updating: {
            // Its nodes were being started again with new numbers: they are, and its operation ends.
            QString id;
            for (const OperationResource& op : operations) {
                if (!op.done && op.operationType == QLatin1String("UPDATE_VERSION")
                    && op.version.value(QStringLiteral("name")).toString() == v.resourceName())
                    id = op.id;
            }
            auto serving = std::make_shared<Serving>();
            serving->version = v;
            serving->creating = true;
            serving->operationId = id;
            m_serving.insert(keyOf(v), serving);
            startNodes(keyOf(v));
            break;
        }
        case VersionState::Deleting: {
            QString id;
            for (const OperationResource& op : operations) {
                if (!op.done && op.operationType == QLatin1String("DELETE_VERSION")
                    && op.version.value(QStringLiteral("name")).toString() == v.resourceName())
                    id = op.id;
            }
            finishDelete(v, id);
            break;
        }
        default:
            break;
        }
    }
}

void PredictionService::shutdown()
{
    m_serving.clear();
}

} // namespace Trainyard
