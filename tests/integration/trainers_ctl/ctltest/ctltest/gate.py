# SPDX-License-Identifier: GPL-2.0-or-later
"""Every replica logs that it started, then waits until `<job-dir>/release` exists and exits 0.

The end-to-end tests kill replicas (or the executor) while the job waits at the gate, then open it:
a job that was restarted correctly succeeds. Gives up (exit 1) after 300 s so that nothing hangs.
"""
import json
import os
import sys
import time

job_dir = sys.argv[sys.argv.index("--job-dir") + 1]
task = json.loads(os.environ["TF_CONFIG"])["task"]
print("gate: %s %d started, pid %d" % (task["type"], task["index"], os.getpid()), flush=True)
deadline = time.time() + 300
while not os.path.exists(os.path.join(job_dir, "release")):
    if time.time() > deadline:
        print("gate: never released", file=sys.stderr, flush=True)
        sys.exit(1)
    time.sleep(0.1)
print("gate: %s %d released" % (task["type"], task["index"]), flush=True)
