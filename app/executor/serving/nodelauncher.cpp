// SPDX-License-Identifier: GPL-2.0-or-later
#include "nodelauncher.h"

#include "processgroup.h"
#include "sandbox.h"

#include <QPointer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>

#include <csignal>

namespace Trainyard {

NodeProcess::~NodeProcess() = default;
NodeLauncher::~NodeLauncher() = default;

namespace {

/// A node as a process: QProcess's signals turned into NodeProcess's (stderr cut into whole lines).
class ProcessNode : public NodeProcess {
public:
    ProcessNode(bool sandboxed, QObject* parent)
        : NodeProcess(parent)
        , m_process(new QProcess(this))
        , m_sandboxed(sandboxed)
    {
        connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { Q_EMIT output(m_process->readAllStandardOutput()); });
        connect(m_process, &QProcess::readyReadStandardError, this, [this] {
            m_stderr += m_process->readAllStandardError();
            emitErrorLines(false);
        });
        connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
            emitErrorLines(true);
            // Inside bubblewrap the sandboxed command's signal death arrives as bwrap's exit status 128 + N.
            const bool signalled = status == QProcess::CrashExit || (m_sandboxed && Sandbox::exitSignal(code));
            Q_EMIT finished(signalled ? QStringLiteral("was killed by a signal")
                                      : QStringLiteral("exited with status %1").arg(code));
        });
    }

    QProcess* process() const { return m_process; }

    /// The sandbox refused: the node says why and finishes as one that exited with 126 (it never ran).
    void refuse(const QString& why)
    {
        QTimer::singleShot(0, this, [this, why] {
            Q_EMIT errorLine(why);
            Q_EMIT finished(QStringLiteral("exited with status 126"));
        });
    }

    void write(const QByteArray& bytes) override { m_process->write(bytes); }
    void stop(int graceMs) override
    {
        m_process->closeWriteChannel();
        QPointer<QProcess> process = m_process;
        QTimer::singleShot(graceMs, this, [process] {
            if (process && process->state() != QProcess::NotRunning)
                signalGroup(process->processId(), SIGKILL);
        });
    }
    void kill() override
    {
        if (m_process->state() != QProcess::NotRunning)
            signalGroup(m_process->processId(), SIGKILL);
    }
    void killAndWait() override
    {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            signalGroup(m_process->processId(), SIGKILL);
            m_process->waitForFinished(5000);
        }
    }
    bool isRunning() const override { return m_process->state() != QProcess::NotRunning; }
    qint64 pid() const override { return m_process->state() == QProcess::Running ? m_process->processId() : 0; }

private:
    void emitErrorLines(bool all)
    {
        qsizetype newline;
        while ((newline = m_stderr.indexOf('\n')) >= 0 || (all && !m_stderr.isEmpty())) {
            const qsizetype end = newline >= 0 ? newline : m_stderr.size();
            const QString line = QString::fromUtf8(m_stderr.left(end)).trimmed();
            m_stderr.remove(0, qMin(end + 1, m_stderr.size()));
            if (!line.isEmpty())
                Q_EMIT errorLine(line);
        }
    }

    QProcess* m_process;
    QByteArray m_stderr;
    bool m_sandboxed;
};

} // namespace

ProcessNodeLauncher::ProcessNodeLauncher(const Sandbox* sandbox)
    : m_sandbox(sandbox)
{
}

NodeProcess* ProcessNodeLauncher::start(int node, const NodeCommand& command, QObject* parent)
{
    Q_UNUSED(node);
    auto* result = new ProcessNode(m_sandbox && m_sandbox->isActive(), parent);
    QProcess* process = result->process();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QStringList path = command.pythonPath;
    if (const QString inherited = env.value(QStringLiteral("PYTHONPATH")); !inherited.isEmpty())
        path << inherited;
    env.insert(QStringLiteral("PYTHONPATH"), path.join(QLatin1Char(':')));
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
    env.insert(QStringLiteral("OPENBLAS_NUM_THREADS"), QStringLiteral("1"));
    process->setProcessEnvironment(env);
    SandboxView view;
    view.network = false;
    view.readable = command.readable;
    view.workingDirectory = command.workingDirectory;
    const Sandbox none;
    QString error;
    if (!(m_sandbox ? *m_sandbox : none).prepare(process, command.program, command.arguments, view, ChildSetup(), &error)) {
        result->refuse(error);
        return result;
    }
    process->start();
    return result;
}

} // namespace Trainyard
