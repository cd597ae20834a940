// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Running this build's trainyardctl as a user would, for the tests that drive it against a real executor: its
// exit code, stdout and stderr.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

namespace Trainyard::Test {

/// One run of trainyardctl.
struct CtlRun {
    int code = -1; ///< the exit code; -1 when it crashed or did not finish
    QString out;
    QString err;
    /// All of it, for a failure message.
    QString text() const { return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(code).arg(out, err); }
};

/// The environment of a user whose XDG folders are `root`'s run/, data/ and config/ (made by the caller; run/ mode
/// 0700), with this build's executor for trainyardctl to start and no executor URL or token inherited: trainyardctl
/// then starts and finds its own executor there, as on a fresh account.
inline QProcessEnvironment isolatedCtlEnvironment(const QTemporaryDir& root)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), root.filePath(QStringLiteral("run")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), root.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), root.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("TRAINYARD_EXECUTOR_BIN"), QStringLiteral(TRAINYARD_EXECUTOR_BIN));
    env.remove(QStringLiteral("TRAINYARD_EXECUTOR"));
    env.remove(QStringLiteral("TRAINYARD_TOKEN"));
    return env;
}

/// The pid of the executor trainyardctl started in isolatedCtlEnvironment(`root`), from its runtime file
/// (run/trainyard/executor.json, app/executor/executor.cpp); 0 when there is none.
inline qint64 isolatedExecutorPid(const QTemporaryDir& root)
{
    QFile f(root.filePath(QStringLiteral("run/trainyard/executor.json")));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QJsonValue pid = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("pid"));
    return pid.isString() ? pid.toString().toLongLong() : static_cast<qint64>(pid.toDouble());
}

/// Runs trainyardctl (TRAINYARD_CTL_BIN) with `args` in `env` (and `workingDirectory` when given), waiting on the
/// event loop, not blocked, so that an executor or fake server in the test's own process can answer it. A run
/// that takes longer than `timeoutMs` is killed and reported as such in `err`.
inline CtlRun runCtl(const QProcessEnvironment& env, const QStringList& args, int timeoutMs = 180000,
    const QString& workingDirectory = {})
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.start(QStringLiteral(TRAINYARD_CTL_BIN), args);
    CtlRun run;
    if (!p.waitForStarted() || !QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning; }, timeoutMs)) {
        p.kill();
        p.waitForFinished();
        run.err = QStringLiteral("trainyardctl did not finish within %1 s: %2")
                      .arg(timeoutMs / 1000)
                      .arg(args.join(QLatin1Char(' ')));
        return run;
    }
    run.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = QString::fromUtf8(p.readAllStandardOutput());
    run.err = QString::fromUtf8(p.readAllStandardError());
    return run;
}

} // namespace Trainyard::Test
