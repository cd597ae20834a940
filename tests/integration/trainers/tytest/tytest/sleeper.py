# SPDX-License-Identifier: GPL-2.0-or-later
"""Sleeps until killed; records its pid and a child's pid (a process tree to stop) in the job dir."""
import os
import subprocess
import time

from tytest import common

kind, index, tf = common.task()
jd = common.job_dir()
pids = os.path.join(jd, "pids")
os.makedirs(pids, exist_ok=True)
child = subprocess.Popen(["sleep", "1000"])
name = common.task_name(kind, index)
with open(os.path.join(pids, name + ".tmp"), "w") as f:
    f.write("%d %d\n" % (os.getpid(), child.pid))
os.rename(os.path.join(pids, name + ".tmp"), os.path.join(pids, name))
print("sleeping", flush=True)
while True:
    time.sleep(1000)
