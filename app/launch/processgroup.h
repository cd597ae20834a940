// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QList>
#include <QProcessEnvironment>
#include <QString>

class QProcess;

namespace Trainyard {

/// Makes `process` start in its own process group (setpgid(0, 0)), so that a stop signal reaches the
/// whole tree with kill(-pgid), and die with the executor (PR_SET_PDEATHSIG = SIGKILL; the executor's
/// main thread, which starts every child, lives as long as the executor). `stdoutFd`/`stderrFd` (≥ 0):
/// descriptors the child gets as its stdout/stderr (an OutputPipe's write end), replacing QProcess's own.
void makeOwnProcessGroup(QProcess* process, int stdoutFd = -1, int stderrFd = -1);

/// Sends `signal` to the process group `pgid` (the child's pid). Returns false when none is left.
bool signalGroup(qint64 pgid, int signal);

/// The environment variable whose value marks every process of a job (inherited by grandchildren):
/// TRAINYARD_JOB_FOLDER=<dataDir>/jobs/<jobId>.
inline QString jobMarkerVariable()
{
    return QStringLiteral("TRAINYARD_JOB_FOLDER");
}

/// The pids of this user's live processes (zombies excluded: they are dead, only not yet reaped) whose
/// environment carries TRAINYARD_JOB_FOLDER=`jobFolder`, found by scanning /proc. Another user's
/// processes are not readable and never listed.
QList<qint64> jobProcesses(const QString& jobFolder);

/// SIGKILLs every process jobProcesses(`jobFolder`) lists: what a replica left behind after its group
/// was killed (a child that called setsid), or what survived an executor crash. Returns how many were
/// signalled. A SIGKILLed process may take a moment to die (a large address space is freed first):
/// callers that must know it is gone poll jobProcesses() until it is empty.
int killJobLeftovers(const QString& jobFolder);

} // namespace Trainyard
