# SPDX-License-Identifier: GPL-2.0-or-later
"""The console tests' resuming replica: resumes as the sample trainer does, then waits for a file.

Arguments: --job-dir D [--crash-once]. Looks for the newest `<job-dir>/checkpoints/ckpt-epoch-N.pt`
(the sample trainer's layout, resources/trainers/fmnist/trainer/common.py) and logs the sample
trainer's line `Resuming from checkpoint <path> (epoch N)`. With --crash-once, the first run then
kills itself with SIGKILL (a retryable failure: the executor restarts the cluster, which resumes
again). Then waits until `<job-dir>/release` exists (at most 120 s).
"""
import glob
import logging
import os
import re
import signal
import sys
import time

args = sys.argv[1:]
job_dir = args[args.index("--job-dir") + 1]
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s", stream=sys.stderr)

best = (0, None)
for path in glob.glob(os.path.join(job_dir, "checkpoints", "ckpt-epoch-*.pt")):
    m = re.match(r"^ckpt-epoch-(\d+)\.pt$", os.path.basename(path))
    if m and int(m.group(1)) > best[0]:
        best = (int(m.group(1)), path)
epoch, path = best
if path:
    logging.info("Resuming from checkpoint %s (epoch %d)", path, epoch)
else:
    logging.info("No checkpoint in %s; starting from scratch", job_dir)

marker = os.path.join(job_dir, "crashed-once")
if "--crash-once" in args and not os.path.exists(marker):
    open(marker, "w").close()
    logging.info("crashing on purpose")
    os.kill(os.getpid(), signal.SIGKILL)

deadline = time.time() + 120
while time.time() < deadline and not os.path.exists(os.path.join(job_dir, "release")):
    time.sleep(0.1)
print("resume done", flush=True)
