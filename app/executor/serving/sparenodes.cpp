// SPDX-License-Identifier: GPL-2.0-or-later
#include "sparenodes.h"

#include "prediction.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTimer>

namespace Trainyard {

namespace {
Q_LOGGING_CATEGORY(lcSpares, "trainyard.executor")

/// What a spare reserves: the service's default machine type (predictionMachineType("")), as a node of a version
/// without one.
const PredictionMachineType SpareMachineType = *predictionMachineType(QString());
constexpr int RestartMs = 5000;
constexpr int RestartAfterFailuresMs = 30000;
constexpr int StopGraceMs = 5000;
} // namespace

SpareNodes::SpareNodes(NodeLauncher* launcher, NodeCapacity* capacity, QObject* parent)
    : QObject(parent)
    , m_launcher(launcher)
    , m_capacity(capacity)
{
}

SpareNodes::~SpareNodes()
{
    for (Spare& spare : m_spares) {
        if (spare.process) {
            spare.process->disconnect(this);
            spare.process->killAndWait();
        }
        release(spare);
    }
}

QString SpareNodes::id(const Key& key)
{
    return key.interpreter + QLatin1Char('|') + key.framework + QLatin1Char('|') + key.package;
}

void SpareNodes::want(const Key& key)
{
    const QString k = id(key);
    auto it = m_spares.find(k);
    if (it == m_spares.end()) {
        Spare spare;
        spare.key = key;
        static quint64 instances = 0;
        spare.reservation = QStringLiteral("warm spare %1 #%2").arg(key.framework).arg(++instances);
        it = m_spares.insert(k, spare);
    }
    // The first version starts it; a later one retries a spare the host refused (it may have room now).
    if (++it->wanted == 1 || it->retryScheduled)
        start(*it);
}

void SpareNodes::ensure(const Key& key)
{
    // Only one the host refused: a spare that exited waits out its back-off (finished()).
    const auto it = m_spares.find(id(key));
    if (it != m_spares.end() && it->retryScheduled)
        start(*it);
}

void SpareNodes::unwant(const Key& key)
{
    const auto it = m_spares.find(id(key));
    if (it == m_spares.end() || --it->wanted > 0)
        return;
    stop(*it);
    m_spares.erase(it);
}

void SpareNodes::start(Spare& spare)
{
    if (spare.process || spare.wanted <= 0)
        return;
    if (m_capacity && !spare.reserved) {
        const NodeCapacity::Grant grant = m_capacity->reserveNode(spare.reservation, SpareMachineType.vcpus,
            SpareMachineType.memory, NodeCapacity::Need::IfFits);
        if (!grant.granted) {
            if (!spare.refusalLogged)
                qCInfo(lcSpares).noquote() << "no warm spare for" << spare.key.framework
                                           << "models: it does not fit beside what runs on this host:" << grant.refused
                                           << "(a version that scales to zero then starts cold)";
            spare.refusalLogged = true;
            // Tried again later (a job may end), and at each want() and ensure() meanwhile.
            if (!spare.retryScheduled) {
                spare.retryScheduled = true;
                const QString k = id(spare.key);
                QTimer::singleShot(RestartAfterFailuresMs, this, [this, k] {
                    const auto again = m_spares.find(k);
                    if (again == m_spares.end())
                        return;
                    again->retryScheduled = false;
                    start(*again);
                });
            }
            return;
        }
        spare.reserved = true;
        spare.refusalLogged = false;
    }
    NodeCommand command;
    command.program = spare.key.interpreter;
    command.arguments = QStringList { QStringLiteral("-m"), QStringLiteral("trainyard_algorithms.prediction_server"),
        QStringLiteral("--spare"), QStringLiteral("--framework"), spare.key.framework, QStringLiteral("--max-depth"),
        QString::number(PredictionLimits::MaxInstanceDepth), QStringLiteral("--max-answer-bytes"),
        QString::number(PredictionLimits::MaxAnswerBytes) };
    command.pythonPath = QStringList { spare.key.package };
    command.workingDirectory = spare.key.package;
    command.readable = QStringList { spare.key.package };
    spare.buffer.clear();
    spare.ready = false;
    spare.lastError.clear();
    spare.launched.start();
    const QString k = id(spare.key);
    spare.process = m_launcher->start(-1, command, this);
    connect(spare.process, &NodeProcess::output, this, [this, k](const QByteArray& bytes) {
        const auto it = m_spares.find(k);
        if (it == m_spares.end())
            return;
        it->buffer += bytes;
        readOutput(k);
    });
    connect(spare.process, &NodeProcess::errorLine, this, [this, k](const QString& line) {
        const auto it = m_spares.find(k);
        if (it != m_spares.end())
            it->lastError = line;
    });
    connect(spare.process, &NodeProcess::finished, this, [this, k](const QString& why) { finished(k, why); });
}

void SpareNodes::readOutput(const QString& k)
{
    Spare& spare = m_spares[k];
    const qsizetype newline = spare.buffer.indexOf('\n');
    if (newline < 0)
        return;
    const QJsonObject line = QJsonDocument::fromJson(spare.buffer.left(newline)).object();
    spare.buffer.remove(0, newline + 1);
    if (!line.value(QStringLiteral("spare")).toBool())
        return;
    spare.ready = true;
    spare.failures = 0;
    qCInfo(lcSpares).noquote() << QStringLiteral("warm spare for %1 models ready in %2 s (imports %3 s)")
                                      .arg(spare.key.framework)
                                      .arg(double(spare.launched.nsecsElapsed()) / 1e9, 0, 'f', 3)
                                      .arg(line.value(QStringLiteral("importSeconds")).toDouble(), 0, 'f', 3);
    Q_EMIT spareReady(spare.key.framework);
}

void SpareNodes::finished(const QString& k, const QString& why)
{
    const auto it = m_spares.find(k);
    if (it == m_spares.end())
        return;
    Spare& spare = *it;
    if (spare.process) {
        spare.process->disconnect(this);
        spare.process->deleteLater();
        spare.process = nullptr;
    }
    const bool wasReady = spare.ready;
    spare.ready = false;
    release(spare);
    if (spare.wanted <= 0)
        return;
    if (!wasReady)
        ++spare.failures;
    const int delay = spare.failures >= 3 ? RestartAfterFailuresMs : RestartMs;
    qCWarning(lcSpares).noquote() << QStringLiteral("the warm spare for %1 models %2%3; another starts in %4 s")
                                         .arg(spare.key.framework, why,
                                             spare.lastError.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(spare.lastError))
                                         .arg(delay / 1000);
    QTimer::singleShot(delay, this, [this, k] {
        const auto again = m_spares.find(k);
        if (again != m_spares.end())
            start(*again);
    });
}

void SpareNodes::stop(Spare& spare)
{
    if (spare.process) {
        spare.process->disconnect(this);
        // Its stdin's end before an adopt line ends it (prediction_server.adopt()); killed if it has not in time.
        spare.process->stop(StopGraceMs);
        connect(spare.process, &NodeProcess::finished, spare.process, &QObject::deleteLater);
        spare.process = nullptr;
    }
    release(spare);
}

void SpareNodes::release(Spare& spare)
{
    if (spare.reserved && m_capacity)
        m_capacity->releaseNode(spare.reservation);
    spare.reserved = false;
}

NodeProcess* SpareNodes::take(const Key& key, QObject* parent)
{
    if (!hasReady(key))
        return nullptr;
    const auto it = m_spares.find(id(key));
    NodeProcess* process = it->process;
    process->disconnect(this);
    process->setParent(parent);
    it->process = nullptr;
    it->ready = false;
    ++m_taken;
    release(*it);
    start(*it);
    return process;
}

bool SpareNodes::hasReady(const Key& key) const
{
    const auto it = m_spares.constFind(id(key));
    return it != m_spares.cend() && it->ready && it->process && it->process->isRunning();
}

int SpareNodes::running() const
{
    int n = 0;
    for (const Spare& spare : m_spares)
        n += spare.process && spare.process->isRunning() ? 1 : 0;
    return n;
}

int SpareNodes::ready() const
{
    int n = 0;
    for (const Spare& spare : m_spares)
        n += spare.ready ? 1 : 0;
    return n;
}

QList<qint64> SpareNodes::pids() const
{
    QList<qint64> out;
    for (const Spare& spare : m_spares) {
        if (spare.process && spare.process->pid() > 0)
            out << spare.process->pid();
    }
    return out;
}

} // namespace Trainyard
