// SPDX-License-Identifier: GPL-2.0-or-later
#include "processgroup.h"

#include <QLoggingCategory>
#include <QFile>
#include <QHash>
#include <QMutex>
#include <QProcess>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
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

/// Reads all of a small /proc file into `buffer` (its whole size at most); the bytes read, or -1.
ssize_t readProcFile(const char* path, char* buffer, size_t size)
{
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t total = 0;
    while (total < size) {
        const ssize_t n = ::read(fd, buffer + total, size - total);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        total += size_t(n);
    }
    ::close(fd);
    return ssize_t(total);
}

/// State letter, process group and start time of /proc/<pid>/stat (proc(5)). Plain syscalls and a stack buffer:
/// a scan for a run's leftovers reads every process's, once per replica that ends (a tuning job's trials end by the
/// hundred), and QFile + QByteArray::split cost ten times the read.
Stat statOf(pid_t pid)
{
    char path[32];
    std::snprintf(path, sizeof path, "/proc/%d/stat", int(pid));
    char text[1024];
    const ssize_t size = readProcFile(path, text, sizeof text - 1);
    if (size <= 0)
        return {};
    text[size] = 0;
    // "pid (comm) S ppid pgrp …": comm may hold spaces and parentheses, so parse from the last ')'.
    const char* close = std::strrchr(text, ')');
    if (!close || close + 2 >= text + size)
        return {};
    // Fields from the 3rd (state): pgrp is the 5th, starttime the 22nd.
    const char* p = close + 2;
    Stat st;
    st.state = *p ? *p : '?';
    for (int field = 3; field < 22 && *p; ++field) {
        p = std::strchr(p, ' ');
        if (!p)
            return { st.state, 0, 0 };
        ++p;
        if (field + 1 == 5)
            st.group = std::strtoll(p, nullptr, 10);
    }
    st.startTime = std::strtoll(p, nullptr, 10);
    return st;
}

/// Whether /proc/<pid>/environ holds `marker` ("NAME=value") as one of its NUL-terminated entries; false when it
/// cannot be read (another user's process, or gone).
bool environHolds(pid_t pid, const QByteArray& marker)
{
    char path[32];
    std::snprintf(path, sizeof path, "/proc/%d/environ", int(pid));
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    QByteArray environ;
    char chunk[16384];
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        environ.append(chunk, n);
    }
    ::close(fd);
    for (qsizetype at = 0; at < environ.size();) {
        const qsizetype end = environ.indexOf('\0', at);
        const qsizetype stop = end < 0 ? environ.size() : end;
        if (QByteArrayView(environ.constData() + at, stop - at) == QByteArrayView(marker))
            return true;
        at = stop + 1;
    }
    return false;
}

/// What earlier scans read of a process that is older than the runs they looked for: its start time, with the inode
/// number of its /proc/<pid> entry, which readdir gives with the name. A process's start time never changes, so a
/// later scan need not read its stat again while the same process holds the pid; a pid reused by a new process is
/// a new /proc entry with a new inode number (the kernel drops a dead process's entries and numbers inodes from a
/// counter), so it is read again. Each scan keeps what it saw: the pids that went are dropped.
struct KnownStart {
    ino_t inode = 0;
    qint64 startTime = 0;
};

QMutex g_knownStartsMutex;
QHash<pid_t, KnownStart> g_knownStarts;

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
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return pids;
    const QMutexLocker lock(&g_knownStartsMutex);
    QHash<pid_t, KnownStart> seen;
    seen.reserve(g_knownStarts.size() + 16);
    while (const dirent* entry = ::readdir(proc)) {
        char* end = nullptr;
        const long value = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != 0 || value <= 0)
            continue; // not a process
        const pid_t pid = pid_t(value);
        if (pid == self)
            continue;
        // A process older than the run is none of its processes (its replicas' groups and their descendants all
        // started after its launch): known from an earlier scan, its stat is not read again. A run's end scans every
        // process, and reading the stat files was most of the scan's cost.
        if (startedSince > 0) {
            const auto known = g_knownStarts.constFind(pid);
            if (known != g_knownStarts.cend() && known->inode == entry->d_ino && known->startTime < startedSince) {
                seen.insert(pid, *known);
                continue;
            }
        }
        const Stat st = statOf(pid);
        if (st.state == 0 || st.state == 'Z')
            continue; // gone, or dead and not yet reaped
        seen.insert(pid, KnownStart { entry->d_ino, st.startTime });
        if (st.startTime < startedSince)
            continue;
        // Exact variable match in the environment of what started since the run did and left its groups.
        if (groups.contains(st.group) || environHolds(pid, marker))
            pids << pid;
    }
    ::closedir(proc);
    g_knownStarts = std::move(seen);
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
    const char state = statOf(pid_t(pid)).state;
    return state == 0 || state == 'Z';
}

} // namespace Trainyard
