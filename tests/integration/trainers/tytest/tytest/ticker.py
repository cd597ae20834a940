# SPDX-License-Identifier: GPL-2.0-or-later
"""Counts: every replica prints "<task> tick N" on stdout and "<task> tock N" on stderr for N = 0 … TICKS - 1, one
pair every INTERVAL seconds (arguments --ticks, default 50, and --interval, default 0.5), then exits 0. A test
that restarts the executor meanwhile checks that each line reached the job's log exactly once."""
import sys
import time

from tytest import common


def arg(name, default):
    argv = sys.argv
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
    return default


kind, index, tf = common.task()
name = common.task_name(kind, index)
ticks = int(arg("--ticks", "50"))
interval = float(arg("--interval", "0.5"))
for n in range(ticks):
    print("%s tick %d" % (name, n), flush=True)
    print("%s tock %d" % (name, n), file=sys.stderr, flush=True)
    time.sleep(interval)
print("%s done" % name, flush=True)
