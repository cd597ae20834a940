// SPDX-License-Identifier: GPL-2.0-or-later
#include "versionnodes.h"

#include "rfc3339.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTimer>

#include <limits>

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcServing, "trainyard.executor")

constexpr int MaxBackoffMs = 30000;
/// A node that served this long before it exited starts again after the shortest back-off.
constexpr qint64 StableServiceMs = 60000;
/// The most of one answer line the executor holds: the node's own cap, and room for its error in place of an answer.
constexpr qsizetype MaxLineBytes = PredictionLimits::MaxAnswerBytes + 64 * 1024;

QJsonObject unavailable(const QString& why)
{
    return QJsonObject { { QStringLiteral("unavailable"), why } };
}

} // namespace

VersionNodes::VersionNodes(Spec spec, NodeLauncher* launcher, NodeCapacity* capacity, QObject* parent)
    : QObject(parent)
    , m_spec(std::move(spec))
    , m_launcher(launcher)
    , m_capacity(capacity)
{
    static quint64 instances = 0;
    m_reservationPrefix = QStringLiteral("%1#%2").arg(m_spec.name).arg(++instances);
    m_clock.start();
    m_deadlineTimer = new QTimer(this);
    m_deadlineTimer->setSingleShot(true);
    m_deadlineTimer->setTimerType(Qt::PreciseTimer);
    connect(m_deadlineTimer, &QTimer::timeout, this, &VersionNodes::checkDeadlines);
    m_spec.maxNodes = qMax(1, qMax(m_spec.maxNodes, m_spec.minNodes));
    m_nodes.resize(m_spec.maxNodes); // never resized again: slots capture indexes into it
    for (int i = 0; i < m_nodes.size(); ++i) {
        m_nodes[i].index = i;
        m_nodes[i].backoffMs = m_spec.restartBackoffMs;
    }
    if (!m_spec.logFile.isEmpty()) {
        m_log.setFileName(m_spec.logFile);
        if (!m_log.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
            qCWarning(lcServing).noquote()
                << "cannot write the version's log" << m_spec.logFile << ":" << m_log.errorString();
    }
}

VersionNodes::~VersionNodes()
{
    killAll();
    if (m_wantsSpare)
        m_spares->unwant(*spareKey());
    while (!m_waiting.isEmpty())
        m_waiting.dequeue().answer(unavailable(QStringLiteral("the version's prediction nodes were stopped")));
}

void VersionNodes::killAll()
{
    for (Node& node : m_nodes) {
        if (!node.process)
            continue;
        node.process->disconnect(this);
        node.process->killAndWait();
        delete node.process;
        node.process = nullptr;
        node.up = false;
        releaseNode(node);
        failInFlight(node, unavailable(QStringLiteral("the version's prediction nodes were stopped")));
    }
}

void VersionNodes::failInFlight(Node& node, const QJsonObject& why)
{
    node.skipping = false;
    while (!node.inFlight.isEmpty()) {
        Pending pending = node.inFlight.dequeue();
        if (!pending.answered)
            pending.answer(why); // one told its deadline passed has had its answer
    }
}

void VersionNodes::log(int node, const QString& line)
{
    if (!m_log.isOpen())
        return;
    m_log.write((Rfc3339::now() + QStringLiteral(" node %1: ").arg(node) + line + QLatin1Char('\n')).toUtf8());
    m_log.flush();
}

void VersionNodes::start()
{
    const int initial = qMax(1, m_spec.minNodes);
    for (int i = 0; i < initial; ++i)
        startNode(m_nodes[i]);
    // A version that scales to zero starts cold at its next request: a warm spare of its runtime takes that away.
    // Wanted after the first node reserved its room on the host, which a spare never takes from it.
    if (m_spares && m_spec.minNodes == 0 && spareKey()) {
        m_spares->want(*spareKey());
        m_wantsSpare = true;
    }
    if (m_spec.maxNodes > m_spec.minNodes) {
        m_idleCheck = new QTimer(this);
        m_idleCheck->setInterval(qBound(100, m_spec.idleStopMs / 4, 5000));
        connect(m_idleCheck, &QTimer::timeout, this, &VersionNodes::scaleDown);
        m_idleCheck->start();
    }
}

int VersionNodes::runningNodes() const
{
    int running = 0;
    for (const Node& node : m_nodes)
        running += isRunning(node) ? 1 : 0;
    return running;
}

bool VersionNodes::scaleUp(const QString& why, NodeCapacity::Need need)
{
    if (m_failed)
        return false;
    for (Node& node : m_nodes) {
        if (node.process && (node.process->isRunning() || node.stopping || node.restartScheduled))
            continue;
        if (!reserve(node, need))
            return false;
        ++m_scaleUps;
        log(node.index, QStringLiteral("scaling up: %1").arg(why));
        node.backoffMs = m_spec.restartBackoffMs;
        return startNode(node);
    }
    return false;
}

QString VersionNodes::reservationId(const Node& node) const
{
    return m_reservationPrefix + QStringLiteral("/node-%1").arg(node.index);
}

void VersionNodes::releaseNode(Node& node)
{
    if (!node.reserved)
        return;
    node.reserved = false;
    m_refusalLogged = false; // what the host holds changed: a later refusal is news
    if (m_capacity)
        m_capacity->releaseNode(reservationId(node));
}

void VersionNodes::scaleDown()
{
    if (!m_readySignalled || m_failed)
        return;
    int running = runningNodes();
    for (Node& node : m_nodes) {
        if (running <= m_spec.minNodes)
            return;
        if (!node.up || node.stopping || !node.inFlight.isEmpty() || !node.lastAnswer.isValid()
            || node.lastAnswer.elapsed() < m_spec.idleStopMs)
            continue;
        // Idle beyond minNodes: its stdin's end makes it exit; killed if it has not within stopGraceMs.
        node.stopping = true;
        node.up = false;
        ++m_scaleDowns;
        --running;
        log(node.index,
            QStringLiteral("scaling down: idle for %1 s (%2 node(s) still run, at least %3)")
                .arg(node.lastAnswer.elapsed() / 1000)
                .arg(running)
                .arg(m_spec.minNodes));
        node.process->stop(m_spec.stopGraceMs);
    }
}

bool VersionNodes::reserve(Node& node, NodeCapacity::Need need)
{
    if (!m_capacity || node.reserved)
        return true;
    const NodeCapacity::Grant grant
        = m_capacity->reserveNode(reservationId(node), m_spec.machineType.vcpus, m_spec.machineType.memory, need);
    if (!grant.granted) {
        ++m_scaleUpsRefused;
        if (!m_refusalLogged)
            log(node.index,
                QStringLiteral("not started for load: a %1 node does not fit beside what runs on this host (%2); "
                               "requests wait for the running nodes")
                    .arg(m_spec.machineType.name, grant.refused));
        m_refusalLogged = true;
        return false;
    }
    node.reserved = true;
    m_refusalLogged = false;
    if (!grant.oversubscribes.isEmpty())
        log(node.index,
            QStringLiteral("starts although it does not fit beside what runs on this host (%1): a version's first "
                           "nodes, a cold start and a restart always start, sharing the CPUs and memory")
                .arg(grant.oversubscribes));
    return true;
}

bool VersionNodes::startNode(Node& node, NodeCapacity::Need need)
{
    if (m_failed || !reserve(node, need))
        return false;
    if (node.process) {
        // Possibly inside its own finished(): let go of it, never delete it under its emitter.
        node.process->disconnect(this);
        node.process->deleteLater();
        node.process = nullptr;
    }
    node.buffer.clear();
    node.skipping = false;
    node.missedDeadlines = 0;
    node.up = false;
    node.stopping = false;
    node.restartScheduled = false;
    node.lastError.clear();
    // The node takes what the executor takes, and answers no more than it holds (PredictionLimits).
    NodeCommand command;
    command.program = m_spec.interpreter;
    command.arguments = QStringList { QStringLiteral("-m"), QStringLiteral("trainyard_algorithms.prediction_server"),
        QStringLiteral("--model-dir"), m_spec.modelDir, QStringLiteral("--max-depth"),
        QString::number(PredictionLimits::MaxInstanceDepth), QStringLiteral("--max-answer-bytes"),
        QString::number(PredictionLimits::MaxAnswerBytes) };
    if (!m_spec.framework.isEmpty())
        command.arguments << QStringLiteral("--framework") << m_spec.framework;
    if (!m_spec.predictionClass.isEmpty())
        command.arguments << QStringLiteral("--prediction-class") << m_spec.predictionClass;
    command.pythonPath = m_spec.pythonPath;
    command.workingDirectory = m_spec.modelDir;
    command.readable << m_spec.modelDir << m_spec.pythonPath;
    const int index = node.index;
    node.process = nullptr;
    if (const std::optional<SpareNodes::Key> key = spareKey(); key && m_spares && m_spares->hasReady(*key)) {
        QString why;
        const QByteArray payload = adoptPayload(&why);
        if (payload.isEmpty())
            log(index, QStringLiteral("starts cold, not from a warm spare: %1").arg(why));
        else if ((node.process = m_spares->take(*key, this))) {
            ++m_spareStarts;
            log(index,
                QStringLiteral("starting: a warm spare (%1 imported) takes the model folder (%2 bytes through its stdin)")
                    .arg(m_spec.framework)
                    .arg(payload.size()));
            node.launched.start();
            node.process->write(payload);
        }
    }
    if (!node.process) {
        // No spare was ready: one that did not fit on the host before may fit now, for the next cold start.
        if (const std::optional<SpareNodes::Key> key = spareKey(); key && m_spares && m_wantsSpare)
            m_spares->ensure(*key);
        log(index, QStringLiteral("starting: %1 %2").arg(m_spec.interpreter, command.arguments.join(QLatin1Char(' '))));
        node.launched.start();
        node.process = m_launcher->start(index, command, this);
    }
    connect(node.process, &NodeProcess::output, this, [this, index](const QByteArray& bytes) {
        Node& n = m_nodes[index];
        n.buffer += bytes;
        readOutput(n);
    });
    connect(node.process, &NodeProcess::errorLine, this, [this, index](const QString& line) {
        log(index, line);
        m_nodes[index].lastError = line;
    });
    connect(node.process, &NodeProcess::finished, this,
        [this, index](const QString& why) { nodeFinished(m_nodes[index], why); });
    return true;
}

std::optional<SpareNodes::Key> VersionNodes::spareKey() const
{
    // A routine imports its own packages (staged beside the bundled one): no spare can have them imported.
    if (!m_spec.predictionClass.isEmpty() || m_spec.framework.isEmpty() || m_spec.pythonPath.size() != 1)
        return std::nullopt;
    return SpareNodes::Key { m_spec.interpreter, m_spec.framework, m_spec.pythonPath.first() };
}

QByteArray VersionNodes::adoptPayload(QString* why) const
{
    // prediction_server.adopt()'s format: {"adopt": {"modelDir", "files": [[path, size], …]}}\n, then the bytes.
    const QDir root(m_spec.modelDir);
    QJsonArray files;
    QByteArray bytes;
    QDirIterator it(m_spec.modelDir, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
        QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info = it.nextFileInfo();
        if (info.isSymLink()) {
            *why = QStringLiteral("%1 is a link").arg(root.relativeFilePath(info.filePath()));
            return {};
        }
        if (info.isDir())
            continue;
        if (bytes.size() + info.size() > MaxAdoptBytes) {
            *why = QStringLiteral("the model folder holds more than %1 MiB").arg(MaxAdoptBytes >> 20);
            return {};
        }
        QFile file(info.filePath());
        if (!file.open(QIODevice::ReadOnly)) {
            *why = QStringLiteral("%1 cannot be read: %2").arg(info.filePath(), file.errorString());
            return {};
        }
        const QByteArray data = file.readAll();
        files.append(QJsonArray { root.relativeFilePath(info.filePath()), data.size() });
        bytes += data;
    }
    const QJsonObject adopt { { QStringLiteral("adopt"),
        QJsonObject { { QStringLiteral("modelDir"), m_spec.modelDir }, { QStringLiteral("files"), files } } } };
    return QJsonDocument(adopt).toJson(QJsonDocument::Compact) + '\n' + bytes;
}

bool VersionNodes::takePending(Node& node, Pending* pending)
{
    while (!node.inFlight.isEmpty()) {
        *pending = node.inFlight.dequeue();
        if (!pending->answered) {
            node.missedDeadlines = 0;
            return true;
        }
        // Its deadline passed and it was answered so: this is its late answer, or the oversized line's end.
        return false;
    }
    return false;
}

void VersionNodes::readOutput(Node& node)
{
    qsizetype newline;
    for (;;) {
        newline = node.buffer.indexOf('\n');
        if (node.skipping) {
            // The rest of an answer too large to hold: dropped up to its line's end.
            if (newline < 0) {
                node.buffer.clear();
                return;
            }
            node.buffer.remove(0, newline + 1);
            node.skipping = false;
            continue;
        }
        if (newline < 0 && node.buffer.size() > MaxLineBytes) {
            // A node writes no answer line this long (it answers an error instead): a model's runaway print, or a
            // node that is not ours. Its request gets the error; the node goes on.
            log(node.index,
                QStringLiteral("wrote an answer of more than %1 bytes; it is dropped").arg(PredictionLimits::MaxAnswerBytes));
            node.buffer.clear();
            node.skipping = true;
            Pending pending;
            if (takePending(node, &pending))
                pending.answer(QJsonObject { { QStringLiteral("error"),
                    QStringLiteral("the answer is more than %1 bytes, the most a prediction may answer: send fewer "
                                   "instances at once")
                        .arg(PredictionLimits::MaxAnswerBytes) } });
            return;
        }
        if (newline < 0)
            return;
        const QByteArray line = node.buffer.left(newline);
        node.buffer.remove(0, newline + 1);
        const QJsonObject reply = QJsonDocument::fromJson(line).object();
        if (!node.up && reply.contains(QLatin1String("ready"))) {
            if (!reply.value(QStringLiteral("ready")).toBool()) {
                node.lastError = reply.value(QStringLiteral("error")).toString();
                continue; // the exit follows; nodeFinished() reports it
            }
            node.up = true;
            node.everUp = true;
            node.upSince.start();
            node.lastAnswer.start();
            m_kind = reply.value(QStringLiteral("kind")).toString();
            // The split of a start (a cold start's cost, issue 48): the node's main() began at `startedAt` on the
            // same CLOCK_MONOTONIC as QElapsedTimer's, so what came before it is the process's and interpreter's
            // start (the sandbox's included).
            const double sinceLaunch = double(node.launched.nsecsElapsed()) / 1e9;
            const double mainAt = reply.value(QStringLiteral("startedAt")).toDouble(-1);
            const double processStart = mainAt - double(node.launched.msecsSinceReference()) / 1000.0;
            QString split;
            if (reply.value(QStringLiteral("spare")).toBool())
                split = QStringLiteral(" (a warm spare: model copy %1 s, model load %2 s)")
                            .arg(reply.value(QStringLiteral("copySeconds")).toDouble(), 0, 'f', 3)
                            .arg(reply.value(QStringLiteral("modelSeconds")).toDouble(), 0, 'f', 3);
            else if (mainAt >= 0 && processStart >= 0 && processStart <= sinceLaunch)
                split = QStringLiteral(" (process and interpreter start %1 s, imports %2 s, model load %3 s)")
                            .arg(processStart, 0, 'f', 3)
                            .arg(reply.value(QStringLiteral("importSeconds")).toDouble(), 0, 'f', 3)
                            .arg(reply.value(QStringLiteral("modelSeconds")).toDouble(), 0, 'f', 3);
            log(node.index, QStringLiteral("ready in %1 s: %2%3").arg(sinceLaunch, 0, 'f', 3).arg(m_kind, split));
            if (!m_readySignalled && readyNodes() >= qMax(1, m_spec.minNodes)) {
                m_readySignalled = true;
                Q_EMIT ready();
            }
            dispatchWaiting();
            continue;
        }
        if (node.inFlight.isEmpty()) {
            log(node.index,
                QStringLiteral("answered nothing that was asked: %1").arg(QString::fromUtf8(line.left(200))));
            continue;
        }
        node.lastAnswer.start();
        Pending pending;
        if (!takePending(node, &pending))
            continue; // a late answer to a request that was told its deadline passed
        if (reply.value(QStringLiteral("id")).toInteger() != qint64(pending.id))
            log(node.index,
                QStringLiteral("answered request %1 out of order (expected %2)")
                    .arg(reply.value(QStringLiteral("id")).toInteger())
                    .arg(pending.id));
        QJsonObject answer = reply;
        answer.remove(QStringLiteral("id"));
        pending.answer(answer);
    }
}

void VersionNodes::nodeFinished(Node& node, const QString& why)
{
    const bool wasUp = node.up;
    node.up = false;
    releaseNode(node);
    if (node.stopping) {
        log(node.index, QStringLiteral("stopped (%1)").arg(why));
        failInFlight(node, unavailable(QStringLiteral("the prediction node was scaled down")));
        node.stopping = false;
        // A request that came while this, the last node, was stopping found no slot to start: it starts one now.
        if (!m_waiting.isEmpty() && runningNodes() == 0)
            scaleUp(QStringLiteral("a request arrived while the last node stopped"));
        dispatchWaiting();
        return;
    }
    if (!node.everUp) {
        // It never loaded the model: the version cannot be served. Every node is stopped.
        QString message = node.lastError;
        if (message.isEmpty())
            message = QStringLiteral("the prediction node %1 before it loaded the model").arg(why);
        log(node.index, QStringLiteral("could not load the model: %1").arg(message));
        if (!m_failed) {
            m_failed = true;
            m_failure = message;
            for (Node& other : m_nodes) {
                if (other.process && other.process != node.process && other.process->isRunning())
                    other.process->kill();
            }
            while (!m_waiting.isEmpty())
                m_waiting.dequeue().answer(unavailable(message));
            Q_EMIT failed(message);
        }
        return;
    }
    log(node.index, QStringLiteral("%1 while serving; restarting it in %2 s").arg(why).arg(node.backoffMs / 1000.0));
    qCWarning(lcServing).noquote()
        << QStringLiteral("prediction node %1 of %2 %3; restarting it").arg(node.index).arg(m_spec.modelDir, why);
    failInFlight(node,
        unavailable(
            QStringLiteral("the prediction node that took the request %1 before it answered; it is being restarted")
                .arg(why)));
    ++m_restarts;
    Q_EMIT restarted(node.index, why);
    if (wasUp && node.upSince.isValid() && node.upSince.elapsed() > StableServiceMs)
        node.backoffMs = m_spec.restartBackoffMs;
    const int delay = node.backoffMs;
    node.backoffMs = qMin(MaxBackoffMs, node.backoffMs * 2);
    const int index = node.index;
    node.restartScheduled = true;
    QTimer::singleShot(delay, this, [this, index] {
        Node& n = m_nodes[index];
        if (n.process && !n.process->isRunning())
            startNode(n);
    });
    dispatchWaiting();
}

int VersionNodes::readyNodes() const
{
    int up = 0;
    for (const Node& node : m_nodes)
        up += node.up ? 1 : 0;
    return up;
}

QList<qint64> VersionNodes::pids() const
{
    QList<qint64> list;
    for (const Node& node : m_nodes) {
        if (node.process && node.process->pid() > 0)
            list << node.process->pid();
    }
    return list;
}

void VersionNodes::predict(const QJsonArray& instances, const QString& signatureName, Answer answer)
{
    QJsonObject fields;
    if (!signatureName.isEmpty())
        fields.insert(QStringLiteral("signature_name"), signatureName);
    request(instances, fields, std::move(answer));
}

void VersionNodes::explain(const QJsonArray& instances, const QJsonObject& config, Answer answer)
{
    request(instances, QJsonObject { { QStringLiteral("explain"), config } }, std::move(answer));
}

void VersionNodes::request(const QJsonArray& instances, const QJsonObject& fields, Answer answer)
{
    if (m_failed) {
        QTimer::singleShot(0, this, [answer = std::move(answer), why = m_failure] { answer(unavailable(why)); });
        return;
    }
    const quint64 id = m_nextId++;
    // Deadlines grow with the ids (one timeout for all): a running timer is due no later than this one.
    if (!m_deadlineTimer->isActive())
        m_deadlineTimer->start(m_spec.timeoutMs);
    predict(Waiting { id, m_clock.elapsed() + m_spec.timeoutMs, instances, fields, std::move(answer) });
}

void VersionNodes::checkDeadlines()
{
    const qint64 now = m_clock.elapsed();
    QList<quint64> overdue;
    qint64 next = std::numeric_limits<qint64>::max();
    auto consider = [&](quint64 id, qint64 deadline) {
        if (deadline <= now)
            overdue << id;
        else
            next = qMin(next, deadline);
    };
    for (const Waiting& w : std::as_const(m_waiting))
        consider(w.id, w.deadline);
    for (const Node& node : std::as_const(m_nodes)) {
        for (const Pending& pending : node.inFlight) {
            if (!pending.answered)
                consider(pending.id, pending.deadline);
        }
    }
    for (const quint64 id : std::as_const(overdue))
        expire(id);
    if (next != std::numeric_limits<qint64>::max())
        m_deadlineTimer->start(int(qMax<qint64>(0, next - now)));
}

void VersionNodes::expire(quint64 id)
{
    const QString why = QStringLiteral("no answer within %1 s (the version's predictionTimeout)")
                            .arg(double(m_spec.timeoutMs) / 1000.0);
    for (qsizetype i = 0; i < m_waiting.size(); ++i) {
        if (m_waiting.at(i).id == id) {
            Waiting w = m_waiting.takeAt(i);
            w.answer(QJsonObject { { QStringLiteral("deadline"), QString(why + QStringLiteral(": no node was up to take it")) } });
            return;
        }
    }
    for (Node& node : m_nodes) {
        for (Pending& pending : node.inFlight) {
            if (pending.id != id || pending.answered)
                continue;
            pending.answered = true;
            Answer answer = std::move(pending.answer);
            pending.answer = nullptr;
            answer(QJsonObject { { QStringLiteral("deadline"), why } });
            if (++node.missedDeadlines >= PredictionLimits::MissedDeadlinesBeforeRestart && node.process
                && node.process->isRunning()) {
                log(node.index,
                    QStringLiteral("missed %1 deadlines in a row; killing it (it is started again)")
                        .arg(node.missedDeadlines));
                node.missedDeadlines = 0;
                node.process->kill();
            }
            return;
        }
    }
}

void VersionNodes::predict(Waiting request)
{
    QJsonArray instances = std::move(request.instances);
    const QJsonObject fields = std::move(request.fields);
    Answer answer = std::move(request.answer);
    const quint64 id = request.id;
    Node* best = nullptr;
    for (Node& node : m_nodes) {
        if (node.up && (!best || node.inFlight.size() < best->inFlight.size()))
            best = &node;
    }
    if (!best) {
        // Scaled to zero (or every node restarting): a node starts for this request, which waits for it.
        if (runningNodes() == 0)
            scaleUp(QStringLiteral("a request arrived while no node ran (cold start)"));
        m_waiting.enqueue(Waiting { id, request.deadline, instances, fields, std::move(answer) });
        return;
    }
    // Every running node already has a request waiting behind the one it answers: one more node, up to maxNodes.
    if (best->inFlight.size() >= 2 && runningNodes() < m_spec.maxNodes && runningNodes() == readyNodes())
        scaleUp(QStringLiteral("every node has requests waiting"), NodeCapacity::Need::IfFits);
    send(*best, id, request.deadline, instances, fields, std::move(answer));
}

void VersionNodes::dispatchWaiting()
{
    while (!m_waiting.isEmpty() && readyNodes() > 0)
        predict(m_waiting.dequeue());
}

void VersionNodes::send(
    Node& node, quint64 id, qint64 deadline, const QJsonArray& instances, const QJsonObject& fields, Answer answer)
{
    QJsonObject request = fields;
    request.insert(QStringLiteral("instances"), instances);
    // The id is written first (a JSON object's keys are sorted, "explain" before "id"): a node reads it from a line
    // it cannot decode, to answer that request (prediction_server.py's _REQUEST_ID).
    QByteArray line = "{\"id\":" + QByteArray::number(id) + ',';
    line += QJsonDocument(request).toJson(QJsonDocument::Compact).mid(1);
    line += '\n';
    node.inFlight.enqueue(Pending { id, std::move(answer), deadline });
    node.process->write(line);
}

} // namespace Trainyard
