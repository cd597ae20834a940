# SPDX-License-Identifier: GPL-2.0-or-later
"""A trial of a tuning job, for the tuning tests (tst_tuning): reports an objective of its hyperparameters.

Arguments: the job's args, then the trial's ``--<name>=<value>`` (as the executor passes them), then
``--job-dir DIR``. Parameters: ``x`` (a number, default 0), ``n`` (an integer, default 0), ``opt``
(``a``, ``b`` or ``c``, default ``a``). The objective is

    f = 1 - (x - 0.3)**2 - (n - 3)**2 / 10 - {"a": 0, "b": 0.5, "c": 1}[opt]

reported with the cloudml-hypertune file format (the whole file rewritten each time, as the library does)
under the tag CLOUD_ML_HP_METRIC_TAG, at steps 1..S: at step k the value ``f - (S - k) * drop``, so the
curve rises to f at the last step.

Job args that change the behaviour:
  --steps S            steps reported (default 3)
  --step-seconds T     pause before each report (default 0.05)
  --drop D             the curve's drop per step before the last (default 0.1)
  --fail-when NAME=V   exit 3 (a permanent failure) when the trial's NAME is V, before reporting
  --garbage            write a line that is not JSON to the metric file instead of any report, exit 0
  --tag TAG            report under TAG instead of the study's tag
  --hold FILE          before the last report, wait (at most 60 s) for <job-dir>/FILE ("{trial}" in FILE is
                       replaced by the trial ID)
Each run appends "<trial> <argv>" to <job-dir>/runs.log (the tests count how often a trial ran).
"""
import json
import os
import sys
import time

from tytest import common


def _flags(argv):
    flags = {}
    for a in argv:
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            flags[k] = v
    return flags


def _option(argv, name, default=None):
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
    return default


def main():
    argv = sys.argv[1:]
    flags = _flags(argv)
    job_dir = common.job_dir()
    trial = os.environ.get("CLOUD_ML_TRIAL_ID", "")
    os.makedirs(job_dir, exist_ok=True)
    with open(os.path.join(job_dir, "runs.log"), "a") as f:
        f.write("%s %s\n" % (trial, json.dumps(argv)))

    x = float(flags.get("x", "0"))
    n = int(flags.get("n", "0"))
    opt = flags.get("opt", "a")
    f_value = 1 - (x - 0.3) ** 2 - (n - 3) ** 2 / 10.0 - {"a": 0.0, "b": 0.5, "c": 1.0}[opt]

    fail_when = _option(argv, "--fail-when")
    if fail_when:
        name, value = fail_when.split("=", 1)
        if flags.get(name) == value:
            print("failing on purpose: %s=%s" % (name, value), file=sys.stderr, flush=True)
            sys.exit(3)

    path = os.environ.get("CLOUD_ML_HP_METRIC_FILE", "/tmp/hypertune/output.metrics")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if "--garbage" in argv:
        with open(path, "w") as f:
            f.write("this is not a metric\n")
        return

    tag = _option(argv, "--tag") or os.environ.get("CLOUD_ML_HP_METRIC_TAG", "training/hptuning/metric")
    steps = int(_option(argv, "--steps", "3"))
    pause = float(_option(argv, "--step-seconds", "0.05"))
    drop = float(_option(argv, "--drop", "0.1"))
    hold = _option(argv, "--hold")
    if hold:
        hold = hold.replace("{trial}", trial)
    reports = []
    for k in range(1, steps + 1):
        time.sleep(pause)
        if hold and k == steps:
            common.wait_for(os.path.join(job_dir, hold))
        value = f_value - (steps - k) * drop
        reports.append({tag: str(value), "checkpoint_path": "", "global_step": str(k),
                        "timestamp": time.time(), "trial": trial})
        with open(path + ".tmp", "w") as f:
            for r in reports:
                f.write(json.dumps(r) + "\n")
        os.replace(path + ".tmp", path)
        print("step %d %s=%s" % (k, tag, value), flush=True)


if __name__ == "__main__":
    main()
