// SPDX-License-Identifier: GPL-2.0-or-later
#include "childprocess.h"
#include "runtimelogging.h"

#include <QDir>
#include <QFile>
#include <QProcess>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace Trainyard {

void makeOwnProcessGroup(QProcess* process, bool largePipes)
{
    const pid_t parent = getpid();
    // Runs in the child between fork and exec: only async-signal-safe calls.
    process->setChildProcessModifier([parent, largePipes] {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (largePipes) {
            // A chatty trainer fills a 64 KiB pipe in microseconds; 1 MiB (the unprivileged maximum,
            // /proc/sys/fs/pipe-max-size) means fewer, larger reads for the executor and fewer stalls for
            // the trainer. Failure just keeps the default size.
            fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
            fcntl(STDERR_FILENO, F_SETPIPE_SZ, 1 << 20);
        }
        // The executor may have died between fork and prctl: then nobody would kill us.
        if (getppid() != parent)
            _exit(128 + SIGKILL);
    });
}

bool signalGroup(qint64 pgid, int signal)
{
    if (pgid <= 0)
        return false;
    return ::kill(-pid_t(pgid), signal) == 0 || errno == EPERM;
}

int killJobLeftovers(const QString& jobFolder)
{
    const QByteArray marker = (jobMarkerVariable() + QLatin1Char('=') + jobFolder).toLocal8Bit();
    const pid_t self = getpid();
    int killed = 0;
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
        bool found = false;
        for (const QByteArray& var : env.split('\0')) {
            if (var == marker) {
                found = true;
                break;
            }
        }
        if (!found)
            continue;
        if (::kill(pid, SIGKILL) == 0) {
            ++killed;
            qCInfo(lcRuntime, "killed leftover process %d of %s", int(pid), qPrintable(jobFolder));
        }
    }
    return killed;
}

} // namespace Trainyard
