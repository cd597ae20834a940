// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QProcess>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace Trainyard::Test {

/// Makes the child `process` starts die with this test or bench (PR_SET_PDEATHSIG = SIGKILL, set in the child
/// before exec), so that a run killed with SIGKILL, a CI timeout or an abort leaves no executor or server
/// behind. The signal is tied to the thread that started the child: start it from the main thread. A parent
/// that died before the call is caught by comparing getppid() with the pid the parent had.
inline void dieWithParent(QProcess* process)
{
    const pid_t parent = getpid();
    process->setChildProcessModifier([parent] {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
    });
}

} // namespace Trainyard::Test
