# SPDX-License-Identifier: GPL-2.0-or-later
"""Says it runs, then holds until told to end: each replica creates <job dir>/ready/<task> as soon as its
interpreter runs, then exits 0 once <job dir>/release exists (polled every 10 ms; gives up after 600 s with exit 1).
bench_executor times a cluster job's start (create → every ready file) and how soon its end shows (release →
SUCCEEDED) with it."""
import os
import time

from tytest import common

kind, index, tf = common.task()
name = common.task_name(kind, index)
jd = common.job_dir()
os.makedirs(os.path.join(jd, "ready"), exist_ok=True)
open(os.path.join(jd, "ready", name), "w").close()
release = os.path.join(jd, "release")
deadline = time.monotonic() + 600
while not os.path.exists(release):
    if time.monotonic() > deadline:
        raise SystemExit("%s: never released" % name)
    time.sleep(0.01)
