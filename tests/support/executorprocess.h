// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "childprocess.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTest>
#include <QUrl>

namespace Trainyard::Test {

/// A real trainyard-executor process of a test, started as a console starts it: no --listen or --data-dir, only
/// the XDG folders of `root` (`root`/run, `root`/data, `root`/config, which the caller makes, e.g. with
/// isolateExecutorEnvironment()), so it listens on loopback with a token and writes its runtime file
/// (`root`/run/trainyard/executor.json: url, pid, tokenFile, dataDir; app/executor/executor.cpp) there.
/// start() may be called again after kill() or stop(): same folders, same data. The process dies with the test
/// (dieWithParent()); the destructor stops it as stop() does.
class ExecutorProcess {
public:
    explicit ExecutorProcess(QString root)
        : m_root(std::move(root))
    {
    }
    ~ExecutorProcess() { stop(); }
    ExecutorProcess(const ExecutorProcess&) = delete;
    ExecutorProcess& operator=(const ExecutorProcess&) = delete;

    /// This environment with XDG_RUNTIME_DIR, XDG_DATA_HOME and XDG_CONFIG_HOME under the root, and without
    /// TRAINYARD_EXECUTOR and TRAINYARD_TOKEN (a client run in it, trainyardctl, finds this executor).
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root + QStringLiteral("/run"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_root + QStringLiteral("/data"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_root + QStringLiteral("/config"));
        env.remove(QStringLiteral("TRAINYARD_EXECUTOR"));
        env.remove(QStringLiteral("TRAINYARD_TOKEN"));
        for (auto it = m_extraEnvironment.cbegin(); it != m_extraEnvironment.cend(); ++it)
            env.insert(it.key(), it.value());
        return env;
    }

    /// Sets `name` to `value` in environment() from the next start() on (a stand-in's settings, say).
    void setEnvironmentVariable(const QString& name, const QString& value) { m_extraEnvironment.insert(name, value); }

    /// Appends the executor's stdout and stderr to `path` from the next start() on, instead of forwarding its
    /// stderr to the test's (for tests that kill and restart it many times, and keep its log to read on a failure).
    void setLogFile(const QString& path) { m_logFile = path; }

    /// The runtime file's path.
    QString runtimeFile() const { return m_root + QStringLiteral("/run/trainyard/executor.json"); }

    /// What start() passes when given no arguments: the grace period that tests use (2 s, instead of 30).
    static QStringList defaultArguments() { return { QStringLiteral("--grace-period"), QStringLiteral("2") }; }

    /// start() with defaultArguments().
    bool start(QString* error) { return start(defaultArguments(), error); }

    /// Starts the executor with `arguments` (its stderr forwarded to the test's) and waits, for at most 30 s, for a
    /// runtime file that names this process's pid (one left by a killed executor does not), then reads the URL
    /// and the token. False with `*error` (when given) when it does not come up.
    bool start(const QStringList& arguments = defaultArguments(), QString* error = nullptr)
    {
        auto fail = [error](const QString& why) {
            if (error)
                *error = why;
            return false;
        };
        QFile::remove(runtimeFile());
        m_runtime = {};
        m_url = {};
        m_token.clear();
        m_process.setProcessEnvironment(environment());
        if (m_logFile.isEmpty()) {
            m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        } else {
            m_process.setProcessChannelMode(QProcess::MergedChannels);
            m_process.setStandardOutputFile(m_logFile, QIODevice::Append);
        }
        dieWithParent(&m_process);
        m_process.start(QStringLiteral(TRAINYARD_EXECUTOR_BIN), arguments);
        if (!m_process.waitForStarted())
            return fail(m_process.errorString());
        // The test's event loop runs while it waits: in-process servers (a fake slurmrestd) go on answering.
        const bool up = QTest::qWaitFor(
            [this] {
                QFile file(runtimeFile());
                if (!file.open(QIODevice::ReadOnly))
                    return false;
                const QJsonObject runtime = QJsonDocument::fromJson(file.readAll()).object();
                if (runtime.value(QStringLiteral("pid")).toInteger() != m_process.processId())
                    return false;
                m_runtime = runtime;
                return true;
            },
            30000);
        if (!up)
            return fail(m_process.state() == QProcess::NotRunning
                    ? QStringLiteral("the executor exited (%1) before it wrote %2")
                          .arg(m_process.exitCode())
                          .arg(runtimeFile())
                    : QStringLiteral("no %1 naming pid %2 within 30 s").arg(runtimeFile()).arg(m_process.processId()));
        m_url = QUrl(m_runtime.value(QStringLiteral("url")).toString());
        QFile tokenFile(m_runtime.value(QStringLiteral("tokenFile")).toString());
        if (!m_url.isValid() || !tokenFile.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("%1 names no usable url or tokenFile").arg(runtimeFile()));
        m_token = tokenFile.readAll().trimmed();
        return true;
    }

    /// SIGKILL: the executor gets no chance to stop anything (its replicas or cluster jobs live on).
    void kill()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.kill();
        m_process.waitForFinished(30000);
    }

    /// SIGTERM: the executor stops its jobs' replicas and cancels its cluster jobs before it exits; SIGKILL when it
    /// has not exited within `timeoutMs`. True when it exited by itself with status 0 (and when it was not
    /// running).
    bool stop(int timeoutMs = 60000)
    {
        if (m_process.state() == QProcess::NotRunning)
            return true;
        m_process.terminate();
        if (!m_process.waitForFinished(timeoutMs)) {
            kill();
            return false;
        }
        return m_process.exitStatus() == QProcess::NormalExit && m_process.exitCode() == 0;
    }

    bool running() const { return m_process.state() != QProcess::NotRunning; }
    qint64 pid() const { return m_process.processId(); }
    QProcess& process() { return m_process; }
    /// What the runtime file said when start() last succeeded.
    QJsonObject runtime() const { return m_runtime; }
    QUrl url() const { return m_url; }
    /// The admin token from the runtime file's tokenFile (the holder of the token file is the admin).
    QByteArray token() const { return m_token; }
    QString root() const { return m_root; }

private:
    QString m_root;
    QString m_logFile;
    QMap<QString, QString> m_extraEnvironment;
    QProcess m_process;
    QJsonObject m_runtime;
    QUrl m_url;
    QByteArray m_token;
};

} // namespace Trainyard::Test
