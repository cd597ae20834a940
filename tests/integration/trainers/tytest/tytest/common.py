# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers shared by the test trainers: the job dir, the task, and waiting for files."""
import json
import os
import sys
import time

CONTRACT_VARS = ["TF_CONFIG", "CLUSTER_SPEC", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK",
                 "CLOUD_ML_JOB_ID", "CLOUD_ML_TRIAL_ID", "CLOUD_ML_HP_METRIC_FILE", "CUDA_VISIBLE_DEVICES",
                 "OMP_NUM_THREADS", "PYTHONUNBUFFERED", "PYTHONPATH"]


def job_dir():
    argv = sys.argv
    for i, a in enumerate(argv):
        if a == "--job-dir" and i + 1 < len(argv):
            return argv[i + 1]
    raise SystemExit("no --job-dir given")


def task():
    tf = json.loads(os.environ["TF_CONFIG"])
    return tf["task"]["type"], tf["task"]["index"], tf


def task_name(kind, index):
    prefix = {"master": "master", "chief": "master", "worker": "worker", "ps": "ps", "evaluator": "evaluator"}[kind]
    return "%s-replica-%d" % (prefix, index)


def print_contract():
    env = {k: os.environ.get(k) for k in CONTRACT_VARS}
    print("CONTRACT " + json.dumps({"argv": sys.argv[1:], "env": env, "cwd": os.getcwd()}), flush=True)


def wait_for(path, timeout=60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(path):
            return True
        time.sleep(0.05)
    return False


def all_task_names(tf):
    names = []
    for kind, addresses in tf["cluster"].items():
        names += [task_name(kind, i) for i in range(len(addresses))]
    names += [task_name("evaluator", i) for i in range(int(tf["job"].get("evaluatorCount", "0")))]
    return names
