# SPDX-License-Identifier: GPL-2.0-or-later
"""Worker 0 kills itself with SIGKILL the first time (a retryable failure), then succeeds."""
import os
import signal

from tytest import common

kind, index, tf = common.task()
jd = common.job_dir()
os.makedirs(jd, exist_ok=True)
marker = os.path.join(jd, "crashed-once")
done = os.path.join(jd, "worker-0-done")
print("replica %s %d up" % (kind, index), flush=True)
if kind == "worker" and index == 0:
    if not os.path.exists(marker):
        open(marker, "w").close()
        print("crashing on purpose", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    open(done, "w").close()
elif kind in ("master", "chief"):
    if not common.wait_for(done, timeout=120):
        raise SystemExit("worker 0 never finished")
    print("master done", flush=True)
