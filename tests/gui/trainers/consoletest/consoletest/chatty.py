# SPDX-License-Identifier: GPL-2.0-or-later
"""The console tests' replica: prints numbered lines, one error line, then waits for a file.

Arguments: --lines N (default 50), --job-dir D. Each replica prints `TASK line K` lines and one
`ERROR: TASK simulated failure report` line on stderr, then waits until `<job-dir>/release` exists
(at most 120 s) so a test can look at a running job before it succeeds.
"""
import json
import os
import sys
import time

args = sys.argv[1:]
lines = int(args[args.index("--lines") + 1]) if "--lines" in args else 50
job_dir = args[args.index("--job-dir") + 1]
tf = json.loads(os.environ.get("TF_CONFIG", "{}"))
task = tf.get("task", {})
name = "%s-replica-%d" % (task.get("type", "master"), task.get("index", 0))
for k in range(lines):
    print("%s line %d" % (name, k), flush=True)
print("ERROR: %s simulated failure report" % name, file=sys.stderr, flush=True)
deadline = time.time() + 120
while time.time() < deadline and not os.path.exists(os.path.join(job_dir, "release")):
    time.sleep(0.1)
print("%s done" % name, flush=True)
