// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "nodecapacity.h"
#include "nodelauncher.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// Warm spare prediction nodes, one per runtime (issue 48's cold start): a version that scales to zero answers its
/// next request only after a node has started, and nine tenths of that start is the interpreter importing the
/// framework (scikit-learn's import alone is ~0.5 s). So while such a version exists, a spare process of its runtime
/// waits with the framework imported — `python -m trainyard_algorithms.prediction_server --spare --framework F`, in the
/// same sandbox a node gets but with no model folder bound — and the next node of any version of that runtime takes
/// it: the version's files are sent to it over its stdin (prediction_server.adopt()) and it loads the model, as
/// gunicorn's preload and a zygote do. Then another spare is started for the next one.
///
/// What a spare is for and what it may see:
/// - only framework models (SCIKIT_LEARN, XGBOOST, PYTORCH) of the bundled package: a custom prediction routine
///   imports its own packages, which a spare cannot know (VersionNodes asks only for those);
/// - its sandbox binds the bundled package alone, read-only; it sees a version's files only once it is that
///   version's node, and only those it was sent, never another version's folder;
/// - it reserves a node of the service's default machine type (mls1-c1-m2: 1 vCPU, 2 GB) on the host
///   (NodeCapacity) under a job's rule, as a node for load does (Need::IfFits: it starts when it fits beside every
///   reservation, or when no job holds one; so it never takes a running job's CPUs, and with no room there is no
///   spare, which the executor's log says once; it is tried again every 30 s, when another version wants one and
///   when a node of its runtime has to start cold) and gives it back when it is taken or let go; the node that takes it
///   holds its own version's reservation;
/// - it dies with the executor as every node does (PR_SET_PDEATHSIG, stdin's end); one that exits unasked is started
///   again after 5 s (30 s after repeated failures), and the executor's log says why.
///
/// Keys are (interpreter, framework, bundled package folder): want() and unwant() count the versions that want one.
/// Main thread.
class SpareNodes : public QObject {
    Q_OBJECT
public:
    struct Key {
        QString interpreter;
        QString framework;
        QString package; ///< the bundled trainyard_algorithms folder (the spare's only PYTHONPATH entry)
        bool operator==(const Key&) const = default;
    };

    /// `launcher` (not owned, outlives this) starts the spares; `capacity` (not owned; null: spares reserve nothing)
    /// is the host's admission.
    explicit SpareNodes(NodeLauncher* launcher, NodeCapacity* capacity = nullptr, QObject* parent = nullptr);
    ~SpareNodes() override;

    void setCapacity(NodeCapacity* capacity) { m_capacity = capacity; }
    /// One more version wants a spare for `key` (started now if none runs).
    void want(const Key& key);
    /// Starts the spare of `key` that the host refused, if it fits now (a job may have ended): VersionNodes calls it
    /// when a node of such a runtime had to start cold. A spare that exited waits out its back-off instead.
    void ensure(const Key& key);
    /// One version fewer wants it; the last one lets the spare go (stdin closed, killed after 5 s).
    void unwant(const Key& key);
    /// A spare of `key` that has imported its framework, now the caller's (reparented to `parent`; its signals no
    /// longer reach this object; it waits for its adopt line), or null when none is ready. Another spare is started
    /// for the key while versions still want one.
    NodeProcess* take(const Key& key, QObject* parent);
    /// Spares running now (starting or ready), for tests and diagnostics.
    int running() const;
    /// Spares ready now (framework imported).
    int ready() const;
    /// Whether a spare of `key` is ready now (take() would give one).
    bool hasReady(const Key& key) const;
    /// Spares handed to nodes so far.
    int taken() const { return m_taken; }
    /// The process IDs of the spares running now.
    QList<qint64> pids() const;

Q_SIGNALS:
    /// A spare of `key` imported its framework and waits (tests wait on this).
    void spareReady(const QString& framework);

private:
    struct Spare {
        Key key;
        int wanted = 0;
        NodeProcess* process = nullptr;
        QByteArray buffer;
        bool ready = false;
        bool reserved = false;
        bool refusalLogged = false;
        bool retryScheduled = false; ///< refused by the host: tried again after RestartAfterFailuresMs
        int failures = 0; ///< exits in a row before it was ready or taken
        QElapsedTimer launched;
        QString reservation;
        QString lastError;
    };
    static QString id(const Key& key);
    void start(Spare& spare);
    void stop(Spare& spare);
    void release(Spare& spare);
    void readOutput(const QString& id);
    void finished(const QString& id, const QString& why);

    NodeLauncher* m_launcher;
    NodeCapacity* m_capacity;
    QHash<QString, Spare> m_spares;
    int m_taken = 0;
};

} // namespace Trainyard
