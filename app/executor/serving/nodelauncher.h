// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

namespace Trainyard {

class Sandbox;

/// What one prediction node runs: `program arguments` (the runtime's Python and
/// `-m trainyard_algorithms.prediction_server …`), with `pythonPath` put before the inherited PYTHONPATH, in
/// `workingDirectory` (the model's copy). `readable` is what the node may see of the executor's files (read only);
/// it has no network and talks only through its pipes.
struct NodeCommand {
    QString program;
    QStringList arguments;
    QStringList pythonPath;
    QString workingDirectory;
    QStringList readable;
};

/// One running prediction node as VersionNodes drives it: request lines in (write()), its stdout as read (output()),
/// its stderr line by line (errorLine()), and how it ended (finished()). Nothing else of a process leaks out, so that
/// VersionNodes' supervision (scaling, back-off, deadlines, recovery) runs the same over a real process and a
/// scripted one (tests/support/fakenodelauncher.h).
///
/// Contract: signals come from the event loop, never from inside one of these methods; finished() comes once, last.
/// Owned by the QObject parent given to NodeLauncher::start().
class NodeProcess : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~NodeProcess() override;

    /// Appends `bytes` (whole request lines, each ending in '\n') to the node's stdin.
    virtual void write(const QByteArray& bytes) = 0;
    /// Asks the node to exit (its stdin's end: the server returns at EOF); its process group is killed if it still
    /// runs after `graceMs` ms. finished() follows.
    virtual void stop(int graceMs) = 0;
    /// Kills the node's process group now (SIGKILL). finished() follows.
    virtual void kill() = 0;
    /// Kills the node's process group and waits for it (at most 5 s); no signal is emitted after (shutdown).
    virtual void killAndWait() = 0;
    /// Started and not finished yet.
    virtual bool isRunning() const = 0;
    /// The node's process ID (its process group); 0 when not running.
    virtual qint64 pid() const = 0;

Q_SIGNALS:
    /// A chunk of the node's stdout, as read (an answer line may be split across chunks).
    void output(const QByteArray& bytes);
    /// One line of the node's stderr, trimmed, never empty.
    void errorLine(const QString& line);
    /// The node is gone: `why` is "exited with status N" or "was killed by a signal" (as VersionNodes logs it).
    void finished(const QString& why);
};

/// Starts prediction nodes. The real one (ProcessNodeLauncher) runs them as processes in their own process group,
/// dying with the executor, inside the executor's sandbox; tests give VersionNodes a scripted one.
class NodeLauncher {
public:
    virtual ~NodeLauncher();
    /// Starts node `node` (0-based slot of its version) running `command`; the result is owned by `parent`. A node
    /// that cannot be started at all is still returned: it says why on errorLine() and finishes, from the event loop.
    virtual NodeProcess* start(int node, const NodeCommand& command, QObject* parent) = 0;
};

/// Real nodes: QProcess, own process group and PR_SET_PDEATHSIG (processgroup.h), `OMP_NUM_THREADS=1` (one node is
/// one process: BLAS and torch threads would fight the other nodes for the cores), unbuffered Python, and the
/// sandbox's view (no network, the command's readable folders only). A node whose sandbox cannot be prepared is never
/// run unconfined: it says why and finishes with status 126.
class ProcessNodeLauncher : public NodeLauncher {
public:
    /// `sandbox` (not owned; null or inactive: nodes run as the executor) must outlive the launcher.
    explicit ProcessNodeLauncher(const Sandbox* sandbox);
    NodeProcess* start(int node, const NodeCommand& command, QObject* parent) override;

private:
    const Sandbox* m_sandbox;
};

} // namespace Trainyard
