# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU thread budget of one replica; imported (by the package) before torch is.

The service sets OMP_NUM_THREADS to the machine type's vCPUs, but on a workstation every
replica of a job shares the same cores: three replicas with 4 threads each on 2 cores spend
their time spinning in OpenMP barriers. So a replica uses at most its share of the cores it
may run on (cores / master-and-worker replicas listed in TF_CONFIG), and idle OpenMP/OpenBLAS
threads sleep instead of spinning (OMP_WAIT_POLICY=PASSIVE). OpenBLAS reads its variables
when torch loads it, hence this runs before ``import torch``. Variables the user set win.
"""

import json
import os


def available_cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def replica_threads(environ=None):
    env = os.environ if environ is None else environ
    cores = available_cores()
    try:
        cluster = (json.loads(env.get("TF_CONFIG") or "{}") or {}).get("cluster") or {}
        trainers = sum(len(cluster.get(k) or []) for k in ("master", "chief", "worker"))
    except (ValueError, AttributeError, TypeError):
        trainers = 1
    share = max(1, cores // max(1, trainers))
    try:
        wanted = int(env.get("OMP_NUM_THREADS") or share)
    except ValueError:
        wanted = share
    return max(1, min(wanted, share))


def configure(environ=None):
    env = os.environ if environ is None else environ
    threads = replica_threads(env)
    env.setdefault("OPENBLAS_NUM_THREADS", str(threads))
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return threads
