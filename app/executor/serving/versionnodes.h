// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QQueue>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

#include "nodecapacity.h"
#include "nodelauncher.h"
#include "prediction.h"
#include "sparenodes.h"

class QTimer;

namespace Trainyard {

/// The prediction nodes of one deployed version: `nodes` processes of
/// `python -m trainyard_algorithms.prediction_server` (resources/algorithms/trainyard_algorithms/prediction_server.py
/// has the protocol: JSON lines on the node's stdin and stdout), each loading the model once and keeping it.
///
/// Supervision:
/// - each node runs in its own process group and dies with the executor (PR_SET_PDEATHSIG, and stdin's end), so an
///   executor that is SIGKILLed leaves none behind; the next one starts the version's nodes again;
/// - a node that cannot load the model on its first start fails the version (failed(), the loader's message);
/// - a node that exits later is restarted after a back-off (Spec::restartBackoffMs, 1 s, doubling to 30 s, reset after
///   60 s of service), its
///   requests in flight answered UNAVAILABLE; restarted() says so, and the version's log has the exit and the
///   restart.
/// - the destructor kills every node's process group and waits for it.
///
/// Requests are spread over the nodes that are up: each goes to the node with the fewest requests in flight (a node
/// answers its requests in order). Requests that arrive before any node is up wait for the first one.
///
/// Scaling (the service's autoScaling): `minNodes` run at all times, up to `maxNodes` under load. A request that finds
/// every running node with a request already waiting behind the one it answers starts another node (when fewer than
/// maxNodes run); a node beyond minNodes that has answered nothing for `idleStopMs` is stopped (stdin closed, then
/// SIGKILL after 5 s). With minNodes 0 the version scales to zero, and the next request starts a node (a cold start:
/// the model is loaded again) and waits for it. manualScaling is minNodes = maxNodes = nodes. start() starts
/// max(minNodes, 1) nodes, so that a version is READY only once its model loaded.
///
/// What a node writes on stderr (the model's and the user's prints, the loader's warnings) is appended to `logFile`
/// as "node N: line".
///
/// Host accounting (backends/nodecapacity.h, its rule): every node reserves Spec::machineType's vCPUs and memory
/// before it starts and gives them back when its process is gone. The first max(minNodes, 1) nodes, a cold start and
/// a restart start whatever the host holds (the log says when they oversubscribe it); a node for load follows a job's
/// rule (it fits, or no job holds a reservation), else the requests wait for the nodes that run and the log says why,
/// once until a node starts or ends.
///
/// Nodes are started through a NodeLauncher (nodelauncher.h): the real one runs processes in the executor's sandbox;
/// tests/support/fakenodelauncher.h scripts them, so that scaling, back-off, deadlines and recovery are unit-tested
/// (tst_versionnodes) without Python. Main thread.
class VersionNodes : public QObject {
    Q_OBJECT
public:
    struct Spec {
        QString interpreter; ///< the runtime version's Python, a full path
        QStringList pythonPath; ///< the bundled package's folder, then staged packages
        QString modelDir; ///< the executor's copy of deploymentUri
        QString framework; ///< "SCIKIT_LEARN", "XGBOOST", "PYTORCH"; empty with a predictionClass
        QString predictionClass;
        int minNodes = 1; ///< nodes kept running (0: scale to zero when idle)
        int maxNodes = 1; ///< nodes at most, under load
        int idleStopMs = 60000; ///< a node beyond minNodes idle this long is stopped
        QString logFile; ///< the version's log
        /// What each node reserves on the host (the version's machineType; the service's default mls1-c1-m2).
        PredictionMachineType machineType { QStringLiteral("mls1-c1-m2"), 1, Bytes::fromGb(2) };
        /// The version's name, for the nodes' reservations ("projects/p/models/m/versions/v").
        QString name;
        /// How long a request may wait for its answer (ms), from predict() on: then it is answered
        /// `{"deadline": …}` (DEADLINE_EXCEEDED), and a node that misses PredictionLimits::MissedDeadlinesBeforeRestart
        /// in a row is killed and started again (it hangs, or was stopped).
        int timeoutMs = PredictionLimits::DefaultTimeoutSeconds * 1000;
        /// The first restart of a node that died while serving waits this long (ms); each further one twice as long,
        /// up to 30 s.
        int restartBackoffMs = 1000;
        /// How long a node stopped for idleness may take to exit after its stdin's end before it is killed (ms).
        int stopGraceMs = 5000;
    };

    /// One answer: `{"predictions": [...]}`, `{"error": "<the runtime's message>", "instance": i}` (a bad request;
    /// also an answer over PredictionLimits::MaxAnswerBytes, which the executor never holds whole),
    /// `{"unavailable": "<why>"}` (no node could answer: the version failed, or the node exited), or
    /// `{"deadline": "<why>"}` (no answer within Spec::timeoutMs).
    using Answer = std::function<void(const QJsonObject&)>;

    /// `launcher` starts the nodes (not owned; it must outlive this). A node sees the model's copy and its packages
    /// (read only), nothing else of the executor's, and has no network: it talks through its pipes. `capacity` (not
    /// owned, outlives this; null: nodes reserve nothing) is where nodes reserve their machine type.
    VersionNodes(Spec spec, NodeLauncher* launcher, NodeCapacity* capacity = nullptr, QObject* parent = nullptr);
    ~VersionNodes() override;

    /// Where nodes may take a warm spare (sparenodes.h; not owned, outlives this; set before start()): a node of a
    /// framework model (no predictionClass, no staged packages, a model folder of at most MaxAdoptBytes) takes a ready
    /// spare of its runtime when there is one, is sent the model folder's files and loads them, instead of starting
    /// an interpreter and importing its framework; the version's log says so. A version that scales to zero
    /// (minNodes 0) keeps one wanted while it lives.
    void setSpares(SpareNodes* spares) { m_spares = spares; }
    /// The most of a model folder sent to a warm spare (bytes): a larger one starts its nodes cold (the files travel
    /// through the spare's stdin into its sandbox's own /tmp).
    static constexpr qint64 MaxAdoptBytes = qint64(128) << 20;
    /// Nodes that took a warm spare so far.
    int spareStarts() const { return m_spareStarts; }

    /// Starts every node. ready() once all loaded the model; failed() when one could not.
    void start();
    /// Sends `instances` (and `signatureName` when not empty) to a node; `answer` runs once, from the event loop.
    void predict(const QJsonArray& instances, const QString& signatureName, Answer answer);
    /// Asks a node to explain `instances` with `config` (the node's "explain" object: ExplanationConfig::nodeJson()
    /// and the request's outputIndices); answered as predict() is, with `{"explanations": [...]}` on success and
    /// `{"error": …, "explanation": true}` when the model folder cannot be explained so.
    void explain(const QJsonArray& instances, const QJsonObject& config, Answer answer);
    /// Nodes that loaded the model and run now.
    int readyNodes() const;
    /// The process IDs of the nodes running now (tests, diagnostics).
    QList<qint64> pids() const;
    /// Nodes running now (loading or up).
    int runningNodes() const;
    /// Nodes started on demand: by load, or by a request while none ran (scale from zero).
    int scaleUps() const { return m_scaleUps; }
    /// Nodes stopped for idleness.
    int scaleDowns() const { return m_scaleDowns; }
    /// Nodes for load that did not start because they did not fit beside the host's reservations.
    int scaleUpsRefused() const { return m_scaleUpsRefused; }
    /// How many times a node was restarted.
    int restarts() const { return m_restarts; }
    /// What the first node said it loaded ("scikit-learn LogisticRegression from model.joblib").
    QString kind() const { return m_kind; }

Q_SIGNALS:
    /// Every node loaded the model (once, after start()).
    void ready();
    /// A node could not load the model on its first start: `message` is the loader's. The nodes are stopped.
    void failed(const QString& message);
    /// Node `node` exited after it served (`why`: its exit status) and will be started again.
    void restarted(int node, const QString& why);

private:
    struct Pending {
        quint64 id;
        Answer answer;
        qint64 deadline = 0; ///< m_clock's ms when it is answered `{"deadline": …}`
        bool answered = false; ///< past its deadline: the node's late answer is read and dropped
    };
    struct Node {
        int index = 0;
        NodeProcess* process = nullptr;
        QByteArray buffer;
        bool up = false;
        bool everUp = false;
        QQueue<Pending> inFlight;
        QElapsedTimer upSince;
        QElapsedTimer launched; ///< since its process was asked to start (monotonic: the ready line's split)
        int backoffMs = 1000;
        QString lastError; ///< the last stderr lines, for a node that dies before it says anything
        bool stopping = false; ///< stopped for idleness: its exit is not a crash
        QElapsedTimer lastAnswer; ///< since its last answer (or since it came up)
        bool skipping = false; ///< reading past an answer over PredictionLimits::MaxAnswerBytes to its line's end
        int missedDeadlines = 0; ///< in a row
        /// Died while serving and waits out its back-off: a request meanwhile waits for it, never starts it early
        /// (a node that crashes on every request would otherwise be restarted by every request).
        bool restartScheduled = false;
        bool reserved = false; ///< holds its reservation on the host (NodeCapacity)
    };

    /// Reserves the node's machine type on the host as `need` allows (true at once when it holds its reservation or
    /// there is no NodeCapacity); logs an oversubscription or a refusal.
    bool reserve(Node& node, NodeCapacity::Need need);
    /// Reserves the node's machine type as `need` allows and starts it; false (and nothing started) when it did not
    /// fit or the version failed.
    bool startNode(Node& node, NodeCapacity::Need need = NodeCapacity::Need::Required);
    /// Gives the node's reservation back (its process is gone).
    void releaseNode(Node& node);
    QString reservationId(const Node& node) const;
    void readOutput(Node& node);
    void nodeFinished(Node& node, const QString& why);
    /// Started and neither finished nor stopping.
    static bool isRunning(const Node& node) { return node.process && node.process->isRunning() && !node.stopping; }
    void dispatchWaiting();
    /// Writes request `id` to `node`: its instances and `fields` (signature_name, explain) on one line.
    void send(Node& node, quint64 id, qint64 deadline, const QJsonArray& instances, const QJsonObject& fields,
        Answer answer);
    /// predict() and explain(): request `fields` beside the instances.
    void request(const QJsonArray& instances, const QJsonObject& fields, Answer answer);
    /// Request `id`'s deadline passed: it is answered so, wherever it waits.
    void expire(quint64 id);
    /// The deadline timer: expires every request past its deadline, then waits for the earliest one left. One timer
    /// for all requests, not one each: Qt keeps its timers in a sorted list, and a 60 s timer per request made every
    /// request's insert walk tens of thousands of them under load (issue 48's profile: 12 % of the executor's CPU).
    void checkDeadlines();
    /// Answers every request the node holds with `why` (those past their deadline were answered).
    void failInFlight(Node& node, const QJsonObject& why);
    /// Takes the answer of the node's oldest request (late ones dropped); false when none was asked.
    bool takePending(Node& node, Pending* pending);
    void log(int node, const QString& line);
    void killAll();
    /// Starts a stopped node slot, if any (scaling up), as `need` allows; false when every slot runs or it did not fit.
    bool scaleUp(const QString& why, NodeCapacity::Need need = NodeCapacity::Need::Required);
    /// Stops nodes beyond minNodes that are idle (the scale-down timer).
    void scaleDown();

    Spec m_spec;
    NodeLauncher* m_launcher;
    NodeCapacity* m_capacity;
    QString m_reservationPrefix; ///< unique on the host for this object's life: a new version of the same name differs
    QList<Node> m_nodes;
    struct Waiting {
        quint64 id;
        qint64 deadline; ///< m_clock's ms
        QJsonArray instances;
        QJsonObject fields; ///< the request line's other fields (signature_name, explain)
        Answer answer;
    };
    void predict(Waiting request);
    /// The spare key of this version, or nullopt when its nodes cannot take a spare (a routine, staged packages).
    std::optional<SpareNodes::Key> spareKey() const;
    /// The model folder's files as a warm spare takes them: the adopt line and the files' bytes; empty when the
    /// folder cannot be sent (over MaxAdoptBytes, a link, unreadable: the node starts cold; `why` says so).
    QByteArray adoptPayload(QString* why) const;
    SpareNodes* m_spares = nullptr;
    bool m_wantsSpare = false;
    int m_spareStarts = 0;
    QQueue<Waiting> m_waiting;
    quint64 m_nextId = 1;
    int m_restarts = 0;
    int m_scaleUps = 0;
    int m_scaleDowns = 0;
    int m_scaleUpsRefused = 0;
    bool m_refusalLogged = false; ///< a refused scale-up was logged; again only after a node starts or ends
    QTimer* m_idleCheck = nullptr;
    QTimer* m_deadlineTimer = nullptr;
    QElapsedTimer m_clock; ///< the requests' deadlines are in its ms
    bool m_readySignalled = false;
    bool m_failed = false;
    QString m_failure;
    QString m_kind;
    QFile m_log;
};

} // namespace Trainyard
