#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs one training job's replicas on this machine under the service's replica contract,
without the executor: for trying the sample trainer by hand.

Each replica is ``python -m <module> <args> --job-dir <job-dir>`` with TF_CONFIG,
CLUSTER_SPEC, MASTER_ADDR/MASTER_PORT (the master's port), WORLD_SIZE/RANK (master and
workers), CLOUD_ML_JOB_ID, CLOUD_ML_TRIAL_ID, CLOUD_ML_HP_METRIC_FILE (one per replica),
CUDA_VISIBLE_DEVICES (empty), OMP_NUM_THREADS and PYTHONUNBUFFERED=1, as Trainyard's
ARCHITECTURE.md "A job's life" specifies; every replica gets its own free loopback port.
Output lines are prefixed with the task name. The master's exit decides: the others are then
sent SIGTERM (SIGKILL after --grace seconds). Exit status: the master's.

  launch_local.py --module trainer.task --workers 2 --ps 1 --job-dir /tmp/fmnist -- --epochs 2
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", default="trainer.task")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--ps", type=int, default=0)
    parser.add_argument("--evaluators", type=int, default=0)
    parser.add_argument("--job-dir", required=True)
    parser.add_argument("--job-id", default="local_job")
    parser.add_argument("--python", default="/usr/bin/python3")
    parser.add_argument("--package-path", default=os.path.dirname(os.path.abspath(__file__)),
                        help="folder put on PYTHONPATH (a staging folder or the package source)")
    parser.add_argument("--omp-threads", type=int, default=4, help="OMP_NUM_THREADS (the machine type's vCPUs)")
    parser.add_argument("--kill", default="", help="TASK:SECONDS: SIGKILL that replica after SECONDS")
    parser.add_argument("--grace", type=float, default=10.0)
    parser.add_argument("args", nargs=argparse.REMAINDER, help="-- then the trainer's own arguments")
    opts = parser.parse_args()
    user_args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args

    cluster = {"master": ["127.0.0.1:%d" % free_port()]}
    if opts.workers:
        cluster["worker"] = ["127.0.0.1:%d" % free_port() for _ in range(opts.workers)]
    if opts.ps:
        cluster["ps"] = ["127.0.0.1:%d" % free_port() for _ in range(opts.ps)]
    replicas = [("master", 0)] + [("worker", i) for i in range(opts.workers)] + \
        [("ps", i) for i in range(opts.ps)] + [("evaluator", i) for i in range(opts.evaluators)]
    master_port = cluster["master"][0].rsplit(":", 1)[1]
    metrics_root = os.path.join(opts.job_dir + ".metrics")
    training_input = {"scaleTier": "CUSTOM", "masterType": "n1-standard-4", "workerCount": str(opts.workers),
                      "parameterServerCount": str(opts.ps), "evaluatorCount": str(opts.evaluators),
                      "pythonModule": opts.module, "args": user_args, "jobDir": opts.job_dir}

    procs = {}
    started = time.monotonic()
    for kind, index in replicas:
        name = "%s-replica-%d" % (kind, index)
        env = dict(os.environ)
        env.update({
            "TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": kind, "index": index, "cloud": "local"},
                                     "job": training_input, "environment": "cloud"}),
            "CLUSTER_SPEC": json.dumps({"cluster": cluster, "task": {"type": kind, "index": index}}),
            "MASTER_ADDR": "127.0.0.1",
            "MASTER_PORT": master_port,
            "CLOUD_ML_JOB_ID": opts.job_id,
            "CLOUD_ML_TRIAL_ID": "",
            "CLOUD_ML_HP_METRIC_FILE": os.path.join(metrics_root, name, "output.metrics"),
            "CUDA_VISIBLE_DEVICES": "",
            "OMP_NUM_THREADS": str(opts.omp_threads),
            "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": opts.package_path,
        })
        env.pop("WORLD_SIZE", None)
        env.pop("RANK", None)
        if kind in ("master", "worker"):
            env["WORLD_SIZE"] = str(1 + opts.workers)
            env["RANK"] = str(0 if kind == "master" else 1 + index)
        cmd = [opts.python, "-m", opts.module] + user_args + ["--job-dir", opts.job_dir]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        procs[name] = proc

        def pump(p=proc, n=name):
            for line in p.stdout:
                sys.stdout.write("%7.1f %s\t%s" % (time.monotonic() - started, n, line.decode(errors="replace")))
                sys.stdout.flush()

        threading.Thread(target=pump, daemon=True).start()

    if opts.kill:
        victim, seconds = opts.kill.rsplit(":", 1)

        def kill_later():
            time.sleep(float(seconds))
            if procs[victim].poll() is None:
                print("%7.1f launcher\tSIGKILL %s" % (time.monotonic() - started, victim), flush=True)
                procs[victim].send_signal(signal.SIGKILL)

        threading.Thread(target=kill_later, daemon=True).start()

    # The master decides; a replica killed by a signal (or exiting >= 128) ends the run too,
    # as the service would restart the cluster.
    master = procs["master-replica-0"]
    failed = None
    while master.poll() is None and failed is None:
        for name, p in procs.items():
            rc = p.poll()
            if rc is not None and (rc < 0 or rc >= 128 or (rc != 0 and name != "master-replica-0")):
                failed = (name, rc)
        time.sleep(0.2)
    for name, p in procs.items():
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    deadline = time.monotonic() + opts.grace
    for name, p in procs.items():
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    time.sleep(0.2)
    elapsed = time.monotonic() - started
    for name, p in procs.items():
        print("%7.1f launcher\t%s exit %s" % (elapsed, name, p.returncode), flush=True)
    if failed:
        print("%7.1f launcher\tfailure: %s exit %s" % (elapsed, failed[0], failed[1]), flush=True)
        return 1
    return master.returncode


if __name__ == "__main__":
    sys.exit(main())
