// SPDX-License-Identifier: GPL-2.0-or-later
#include "processgroup.h"

#include <QDir>
#include <QLoggingCategory>
#include <QFile>
#include <QProcess>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace Trainyard {

namespace {
// Same category as the executor's runtime: its log lines read as one subsystem.
Q_LOGGING_CATEGORY(lcLaunch, "trainyard.executor")
} // namespace

void makeOwnProcessGroup(QProcess* process, const ChildSetup& setup)
{
    const pid_t parent = getpid();
    // Runs in the child between fork and exec (after QProcess set up fds 0-2): async-signal-safe calls only, and no
    // allocation (the captured list is only read).
    process->setChildProcessModifier([parent, setup] {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        // The executor may have died between fork and prctl: then nobody would kill us.
        if (getppid() != parent)
            _exit(128 + SIGKILL);
        if (setup.ignoreTerm) {
            struct sigaction ignore { };
            ignore.sa_handler = SIG_IGN;
            sigaction(SIGTERM, &ignore, nullptr);
        }
        if (setup.stdoutFd >= 0)
            dup2(setup.stdoutFd, STDOUT_FILENO); // dup2 clears FD_CLOEXEC on the copy
        if (setup.stderrFd >= 0)
            dup2(setup.stderrFd, STDERR_FILENO);
        // Nothing of the executor's reaches the program: its databases, sockets and the TLS key stay behind even
        // where a library opened one without O_CLOEXEC.
        ::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
        for (const int fd : setup.inheritFds)
            fcntl(fd, F_SETFD, 0);
    });
}

void makeOwnProcessGroup(QProcess* process, int stdoutFd, int stderrFd)
{
    ChildSetup setup;
    setup.stdoutFd = stdoutFd;
    setup.stderrFd = stderrFd;
    makeOwnProcessGroup(process, setup);
}

bool signalGroup(qint64 pgid, int signal)
{
    if (pgid <= 0)
        return false;
    return ::kill(-pid_t(pgid), signal) == 0 || errno == EPERM;
}

namespace {

struct Stat {
    char state = 0; ///< "R", "S", "D", "Z" …; 0 when gone
    qint64 group = 0;
    qint64 startTime = 0; ///< clock ticks since boot
};

/// State letter, process group and start time of /proc/<pid>/stat (proc(5)).
Stat statOf(const QString& pid)
{
    QFile stat(QStringLiteral("/proc/") + pid + QStringLiteral("/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = stat.readAll();
    // "pid (comm) S ppid pgrp …": comm may hold spaces and parentheses, so parse from the last ')'.
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0 || close + 2 >= text.size())
        return {};
    // Fields from the 3rd (state): pgrp is the 5th, starttime the 22nd.
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    const QByteArray state = fields.value(0);
    return { state.isEmpty() ? '?' : state.at(0), fields.value(2).toLongLong(), fields.value(19).toLongLong() };
}

} // namespace

qint64 bootTicksNow()
{
    QFile uptime(QStringLiteral("/proc/uptime"));
    if (!uptime.open(QIODevice::ReadOnly))
        return 0;
    bool ok = false;
    const double seconds = uptime.readAll().split(' ').value(0).toDouble(&ok);
    return ok ? qint64(seconds * double(sysconf(_SC_CLK_TCK))) : 0;
}

QList<qint64> jobProcesses(const QString& jobFolder, const QList<qint64>& groups, qint64 startedSince)
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
        const Stat st = statOf(name);
        if (st.state == 0 || st.state == 'Z')
            continue; // gone, or dead and not yet reaped
        bool ours = groups.contains(st.group);
        if (!ours && st.startTime >= startedSince) {
            QFile environ(QStringLiteral("/proc/") + name + QStringLiteral("/environ"));
            if (!environ.open(QIODevice::ReadOnly))
                continue; // another user's process (not readable), or gone
            // Exact variable match: each entry is NUL-terminated.
            ours = environ.readAll().split('\0').contains(marker);
        }
        if (ours)
            pids << pid;
    }
    return pids;
}

QList<qint64> killJobLeftovers(const QString& jobFolder, const QList<qint64>& groups, qint64 startedSince)
{
    QList<qint64> killed;
    for (const qint64 pid : jobProcesses(jobFolder, groups, startedSince)) {
        if (::kill(pid_t(pid), SIGKILL) == 0) {
            killed << pid;
            qCInfo(lcLaunch, "killed leftover process %d of %s", int(pid), qPrintable(jobFolder));
        }
    }
    return killed;
}

bool processGone(qint64 pid)
{
    const char state = statOf(QString::number(pid)).state;
    return state == 0 || state == 'Z';
}

} // namespace Trainyard
