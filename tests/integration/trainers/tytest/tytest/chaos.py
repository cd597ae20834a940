# SPDX-License-Identifier: GPL-2.0-or-later
"""A replica for the chaos test (tst_chaos): holds a lock for its task while it runs, logs numbered lines, and
reports a hypertune metric when it is a trial.

The lock (flock on <job-dir>/locks/<trial>-<task>.lock, taken without waiting) proves that no task of a job ran
twice at once: a second live copy cannot take it, writes "OVERLAP ..." to <job-dir>/overlap.log and exits 4. The
kernel drops the lock when its holder dies (SIGKILL included), so a restart after a crash takes it again.

Arguments: --lines N (default 10) lines, --pause S (default 0.05) seconds between them, then the trial's
--<name>=<value> and --job-dir DIR.
"""
import argparse
import fcntl
import json
import os
import sys
import time

from tytest import common

parser = argparse.ArgumentParser()
parser.add_argument("--lines", type=int, default=10)
parser.add_argument("--pause", type=float, default=0.05)
parser.add_argument("--job-dir", required=True)
args, rest = parser.parse_known_args()
kind, index, tf = common.task()
name = common.task_name(kind, index)
trial = os.environ.get("CLOUD_ML_TRIAL_ID", "job")
locks = os.path.join(args.job_dir, "locks")
os.makedirs(locks, exist_ok=True)
lock = open(os.path.join(locks, "%s-%s.lock" % (trial, name)), "w")
try:
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
except OSError:
    with open(os.path.join(args.job_dir, "overlap.log"), "a") as f:
        f.write("OVERLAP %s %s pid %d\n" % (trial, name, os.getpid()))
    sys.exit(4)
run = "%d.%d" % (os.getpid(), time.monotonic_ns())
for i in range(args.lines):
    print("chaos %s %s run %s line %d" % (trial, name, run, i), flush=True)
    time.sleep(args.pause)
metric_file = os.environ.get("CLOUD_ML_HP_METRIC_FILE")
if trial != "job" and metric_file and kind == "master":
    value = sum(float(a.split("=", 1)[1]) for a in rest if a.startswith("--x="))
    os.makedirs(os.path.dirname(metric_file), exist_ok=True)
    with open(metric_file, "w") as f:
        f.write(json.dumps({os.environ.get("CLOUD_ML_HP_METRIC_TAG", "metric"): value, "global_step": 1,
                            "timestamp": time.time()}) + "\n")
print("chaos %s %s run %s done" % (trial, name, run), flush=True)
