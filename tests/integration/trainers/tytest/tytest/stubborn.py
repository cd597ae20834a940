# SPDX-License-Identifier: GPL-2.0-or-later
"""Leaves a stubborn grandchild behind: a process that left the replica's process group (setsid) and
ignores SIGTERM, as a badly written data loader or a detached shell might. Records its pid, waits until it
runs, then exits 0 (--exit) or sleeps until stopped."""
import os
import signal
import subprocess
import sys
import time

from tytest import common

kind, index, tf = common.task()
jd = common.job_dir()
os.makedirs(jd, exist_ok=True)
# It holds 1 GiB of written memory, so that dying takes the kernel a while (freeing its pages), as a
# trainer's data loader full of tensors does: the moment SIGKILL is sent is not the moment it is gone.
code = ("import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nheld = b'x' * (1 << 30)\n"
        "print('ready', flush=True)\ntime.sleep(1000)\n")
child = subprocess.Popen([sys.executable, "-c", code], start_new_session=True, stdout=subprocess.PIPE)
child.stdout.readline()  # its SIGTERM handler is in place
name = common.task_name(kind, index)
with open(os.path.join(jd, name + ".stubborn.tmp"), "w") as f:
    f.write("%d\n" % child.pid)
os.rename(os.path.join(jd, name + ".stubborn.tmp"), os.path.join(jd, name + ".stubborn"))
print("left a stubborn child %d" % child.pid, flush=True)
if "--exit" in sys.argv:
    sys.exit(0)
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the replica itself ignores SIGTERM too: only SIGKILL ends it
while True:
    time.sleep(1000)
