# SPDX-License-Identifier: GPL-2.0-or-later
"""Counts: every replica prints "<task> tick N" on stdout and "<task> tock N" on stderr for N = 0 … TICKS - 1, one
pair every INTERVAL seconds (arguments --ticks, default 50, and --interval, default 0.5), then prints "<task> done"
and exits 0. A test that restarts the executor meanwhile checks that each line reached the job's log exactly once.

The master prints its "done" only after every other replica printed theirs (each marks it in JOB_DIR/ticker-done/):
the master's exit 0 ends the job and stops the others, and replicas that started a second later (srun launches
them one by one; under load more) would otherwise lose their last lines to that stop, as a CI run saw."""
import os
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
marks = os.path.join(common.job_dir(), "ticker-done")
if kind in ("master", "chief"):
    for other in common.all_task_names(tf):
        if other != name and not common.wait_for(os.path.join(marks, other), timeout=300):
            raise SystemExit("replica %s never finished its ticks" % other)
    print("%s done" % name, flush=True)
else:
    print("%s done" % name, flush=True)
    os.makedirs(marks, exist_ok=True)
    open(os.path.join(marks, name), "w").close()
