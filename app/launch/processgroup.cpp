// SPDX-License-Identifier: GPL-2.0-or-later
#include "processgroup.h"

#include <QDir>
#include <QLoggingCategory>
#include <QFile>
#include <QProcess>

#include <cerrno>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace Trainyard {

namespace {
// Same category as the executor's runtime: its log lines read as one subsystem.
Q_LOGGING_CATEGORY(lcLaunch, "trainyard.executor")
} // namespace

void makeOwnProcessGroup(QProcess* process, int stdoutFd, int stderrFd)
{
    const pid_t parent = getpid();
    // Runs in the child between fork and exec (after QProcess set up fds 0-2): async-signal-safe calls only.
    process->setChildProcessModifier([parent, stdoutFd, stderrFd] {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        // The executor may have died between fork and prctl: then nobody would kill us.
        if (getppid() != parent)
            _exit(128 + SIGKILL);
        if (stdoutFd >= 0)
            dup2(stdoutFd, STDOUT_FILENO); // dup2 clears FD_CLOEXEC on the copy
        if (stderrFd >= 0)
            dup2(stderrFd, STDERR_FILENO);
    });
}

bool signalGroup(qint64 pgid, int signal)
{
    if (pgid <= 0)
        return false;
    return ::kill(-pid_t(pgid), signal) == 0 || errno == EPERM;
}

QList<qint64> jobProcesses(const QString& jobFolder)
{
    const QByteArray marker = (jobMarkerVariable() + QLatin1Char('=') + jobFolder).toLocal8Bit();
    const pid_t self = getpid();
    QList<qint64> pids;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& name : entries) {
        bool ok = false;
        const pid_t pid = pid_t(name.toInt(&ok));
        if (!ok || pid == self)
            continue;
        QFile environ(QStringLiteral("/proc/") + name + QStringLiteral("/environ"));
        if (!environ.open(QIODevice::ReadOnly))
            continue; // another user's process (not readable), or gone
        const QByteArray env = environ.readAll();
        // Exact variable match: each entry is NUL-terminated.
        const QList<QByteArray> vars = env.split('\0');
        if (!vars.contains(marker))
            continue;
        // A zombie (already dead, not yet reaped by its new parent) is not running.
        QFile stat(QStringLiteral("/proc/") + name + QStringLiteral("/stat"));
        if (stat.open(QIODevice::ReadOnly)) {
            const QByteArray text = stat.readAll();
            const qsizetype close = text.lastIndexOf(')');
            if (close >= 0 && text.mid(close + 2, 1) == "Z")
                continue;
        }
        pids << pid;
    }
    return pids;
}

int killJobLeftovers(const QString& jobFolder)
{
    int killed = 0;
    for (const qint64 pid : jobProcesses(jobFolder)) {
        if (::kill(pid_t(pid), SIGKILL) == 0) {
            ++killed;
            qCInfo(lcLaunch, "killed leftover process %d of %s", int(pid), qPrintable(jobFolder));
        }
    }
    return killed;
}

} // namespace Trainyard
