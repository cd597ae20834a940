# SPDX-License-Identifier: GPL-2.0-or-later
"""Where this replica stands in its cluster, from the environment the service sets.

``TF_CONFIG`` (AI Platform Training's contract, see Trainyard's ARCHITECTURE.md "A job's life"):
``{"cluster": {"master"|"chief": ["host:port"], "worker": [...], "ps": [...]},
"task": {"type": ..., "index": N, "trial": "T"?}, "job": <TrainingInput>, "environment": "cloud"}``.
Evaluators are never listed in ``cluster``. For PyTorch the service also sets ``MASTER_ADDR``,
``MASTER_PORT``, ``WORLD_SIZE`` and ``RANK`` (master 0, workers 1..N) on the master and the
workers. Without ``TF_CONFIG`` the replica is a single master (a plain local run).
"""

import json
import os

MASTER_TYPES = ("master", "chief")


class Cluster:
    def __init__(self, environ=None):
        env = os.environ if environ is None else environ
        raw = env.get("TF_CONFIG", "")
        try:
            config = json.loads(raw) if raw.strip() else {}
        except ValueError as e:
            raise ValueError("TF_CONFIG is not valid JSON: %s" % e) from None
        if not isinstance(config, dict):
            raise ValueError("TF_CONFIG must be a JSON object")
        cluster = config.get("cluster") or {}
        task = config.get("task") or {}
        self.spec = cluster
        self.job = config.get("job") or {}
        self.env_metric_tag = env.get("CLOUD_ML_HP_METRIC_TAG", "")
        self.task_type = task.get("type") or "master"
        self.task_index = int(task.get("index") or 0)
        self.trial = str(task.get("trial") or env.get("CLOUD_ML_TRIAL_ID") or "")
        self.master_key = "chief" if "chief" in cluster else "master"
        masters = cluster.get(self.master_key) or []
        self.workers = list(cluster.get("worker") or [])
        self.ps = list(cluster.get("ps") or [])
        if self.task_type not in MASTER_TYPES + ("worker", "ps", "evaluator"):
            raise ValueError("TF_CONFIG task.type %r is not master, chief, worker, ps or evaluator" % self.task_type)
        if self.task_type in ("worker", "ps"):
            count = len(self.workers if self.task_type == "worker" else self.ps)
            if self.task_index >= count:
                raise ValueError("TF_CONFIG task %s/%d is not in cluster.%s (%d entries)" %
                                 (self.task_type, self.task_index, self.task_type, count))
        master_address = masters[0] if masters else ""
        host, _, port = master_address.rpartition(":")
        self.master_addr = env.get("MASTER_ADDR") or host or "127.0.0.1"
        # 0: nothing says where the master listens (a plain local run); the master picks a free port.
        self.master_port = int(env.get("MASTER_PORT") or port or 0)

    @property
    def is_master(self):
        return self.task_type in MASTER_TYPES

    @property
    def task_name(self):
        """The service's task name: master-replica-0, worker-replica-N, ps-replica-N, evaluator-replica-N."""
        kind = "master" if self.is_master else self.task_type
        return "%s-replica-%d" % (kind, self.task_index)

    # Data-parallel group: the master and the workers (the PyTorch variables' contract).
    @property
    def trainer_count(self):
        return 1 + len(self.workers)

    def trainer_rank(self):
        """0 for the master, 1..N for workers; None for ps and evaluators."""
        if self.is_master:
            return 0
        if self.task_type == "worker":
            return 1 + self.task_index
        return None

    # Parameter-server world: master 0, workers 1..N, ps N+1..N+P.
    @property
    def rpc_world_size(self):
        return self.trainer_count + len(self.ps)

    def rpc_rank(self):
        if self.task_type == "ps":
            return self.trainer_count + self.task_index
        return self.trainer_rank()

    def rpc_name(self, rank):
        if rank == 0:
            return "master-replica-0"
        if rank < self.trainer_count:
            return "worker-replica-%d" % (rank - 1)
        return "ps-replica-%d" % (rank - self.trainer_count)

    def metric_tag(self, default="accuracy"):
        """The hyperparameter metric tag of the study: CLOUD_ML_HP_METRIC_TAG (the executor sets it for a
        tuning job's replicas), else the job's HyperparameterSpec in TF_CONFIG, else ``default``."""
        hp = self.job.get("hyperparameters") or {}
        return self.env_metric_tag or hp.get("hyperparameterMetricTag") or default
