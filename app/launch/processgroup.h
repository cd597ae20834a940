// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QList>
#include <QProcessEnvironment>
#include <QString>

class QProcess;

namespace Trainyard {

/// What a child process is given between fork and exec, besides its own process group (makeOwnProcessGroup()).
struct ChildSetup {
    int stdoutFd = -1; ///< ≥ 0: its stdout (an OutputPipe's write end), replacing QProcess's own
    int stderrFd = -1; ///< ≥ 0: its stderr
    /// Descriptors the executor opened close-on-exec that this child alone keeps across exec (the folders a sandbox
    /// binds: bwrap's --bind-fd). Every other descriptor above 2 is closed at exec, whatever its flag.
    QList<int> inheritFds;
    /// The program ignores SIGTERM (inherited SIG_IGN): bubblewrap, whose outer process would otherwise die of the
    /// group's SIGTERM and take its sandbox down before the trainer could save; the sandboxed command restores the
    /// default itself (`env --default-signal=TERM`).
    bool ignoreTerm = false;
};

/// Makes `process` start in its own process group (setpgid(0, 0)), so that a stop signal reaches the
/// whole tree with kill(-pgid), and die with the executor (PR_SET_PDEATHSIG = SIGKILL; the executor's main thread,
/// which starts every child, lives as long as the executor),
/// with `setup` applied. No descriptor of the executor's but `setup.inheritFds` survives the exec (close_range(2)'s
/// CLOSE_RANGE_CLOEXEC, Linux 5.11; on older kernels only those opened close-on-exec, as Qt and SQLite open theirs).
void makeOwnProcessGroup(QProcess* process, const ChildSetup& setup);
/// makeOwnProcessGroup() with only stdout and stderr given (≥ 0: an OutputPipe's write end).
void makeOwnProcessGroup(QProcess* process, int stdoutFd = -1, int stderrFd = -1);

/// Sends `signal` to the process group `pgid` (the child's pid). Returns false when none is left.
bool signalGroup(qint64 pgid, int signal);

/// The environment variable whose value marks every process of a job (inherited by grandchildren):
/// TRAINYARD_JOB_FOLDER=<job folder> (JobKey::folder(), or a trial's folder in it).
inline QString jobMarkerVariable()
{
    return QStringLiteral("TRAINYARD_JOB_FOLDER");
}

/// The pids of this user's live processes (zombies excluded: they are dead, only not yet reaped) that belong
/// to a job: whose environment carries TRAINYARD_JOB_FOLDER=`jobFolder`, or whose process group is one of
/// `groups` (the replicas' groups; a process being torn down after SIGKILL can no longer show its
/// environment, but still shows its group). Found by scanning /proc; another user's processes are not
/// readable and never listed.
/// `startedSince` > 0 (clock ticks since boot, as bootTicksNow() gives): only processes started at or after
/// it, which spares reading the environment of every older process (a replica's descendants cannot be older
/// than its launch; recovery after an executor restart passes 0). Then a process older than it is not listed even
/// when it is in one of `groups` (none can be: the groups are the replicas', made at their launch), and the start
/// times of such processes are kept between scans (with the inode of their /proc entry, which tells a reused pid), so
/// that a scan reads only the stat files of the processes that started since the oldest run it looked for.
/// Any thread (scans are serialised).
QList<qint64> jobProcesses(const QString& jobFolder, const QList<qint64>& groups = {}, qint64 startedSince = 0);

/// SIGKILLs every process jobProcesses(`jobFolder`, `groups`) lists: what a replica left behind after its
/// group was killed (a child that called setsid), or what survived an executor crash. Returns the pids
/// signalled. A SIGKILLed process may take a while to die (the kernel frees its memory first: long for a
/// trainer holding gigabytes): callers that must know it is gone poll processGone() on these pids.
QList<qint64> killJobLeftovers(
    const QString& jobFolder, const QList<qint64>& groups = {}, qint64 startedSince = 0);

/// Now, in the unit of /proc/<pid>/stat's `starttime` (clock ticks since boot, sysconf(_SC_CLK_TCK) a second),
/// rounded down; 0 when /proc/uptime cannot be read.
qint64 bootTicksNow();

/// True when `pid` no longer runs: no /proc entry, or a zombie.
bool processGone(qint64 pid);

} // namespace Trainyard
