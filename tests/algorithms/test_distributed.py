# SPDX-License-Identifier: GPL-2.0-or-later
"""Distributed XGBoost: a master and two workers, started here with hand-made TF_CONFIGs as the executor makes
them, against a single replica on the same data and seed.

Tolerance: predictions within 1e-6 of the single replica's (float sums in another order may differ in the last
bits; measured: byte-identical model files) and the same validation metrics every round. tree_method hist with
max_bin 16, so that the bins come from a real quantile sketch (400 rows have more than 16 distinct values per
column): with XGBoost's own distributed sketch the models differ."""

import json
import os
import socket
import tempfile
import unittest

import support

ROUNDS = 10


def free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def derived_tables(folder):
    """breast_cancer.csv without --preprocess's help: class indices (malignant = 1), split 400/80/89 by row."""
    rows = support.read_rows(support.data("breast_cancer.csv"))
    rows = [["1" if r[0] == "malignant" else "0"] + r[1:] for r in rows]
    paths = {}
    for name, part in (("train", rows[:400]), ("validation", rows[400:480]), ("test", rows[480:])):
        paths[name] = support.write_csv(os.path.join(folder, name + ".csv"), part)
    return paths


def run_cluster(args, workers, job_dir):
    """Runs 1 + workers replicas of the xgboost_dist image; returns their Jobs, master first."""
    ports = free_ports(1 + workers)
    cluster = {"master": ["127.0.0.1:%d" % ports[0]], "worker": ["127.0.0.1:%d" % p for p in ports[1:]]}
    tasks = [("master", 0)] + [("worker", i) for i in range(workers)]
    processes = []
    for kind, index in tasks:
        tf_config = {"cluster": cluster, "task": {"type": kind, "index": index, "cloud": "test"},
                     "job": {"scaleTier": "CUSTOM"}, "environment": "cloud"}
        processes.append(support.start("xgboost_dist", args, job_dir, {"TF_CONFIG": json.dumps(tf_config)}))
    jobs = []
    for p in processes:
        try:
            out, err = p.communicate(timeout=180)
        except Exception:
            for q in processes:
                q.kill()
            raise
        jobs.append(support.Job(p.returncode, out, err, job_dir, job_dir))
    return jobs


def predictions(model_dir, test_path):
    import numpy as np
    import xgboost
    x = np.loadtxt(test_path, delimiter=",")[:, 1:]
    booster = xgboost.Booster(model_file=os.path.join(model_dir, "model.bst"))
    return booster.predict(xgboost.DMatrix(x))


def validation_series(job_dir):
    return sorted((tag, step, value) for tag, step, value in support.read_scalars(job_dir)
                  if tag.startswith("validation/"))


class Distributed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dist-", dir=support.scratch())
        cls.paths = derived_tables(cls.dir)

    def compare(self, objective, train, validation, test, extra=()):
        args = ["--training_data_path=" + train, "--validation_data_path=" + validation, "--test_data_path=" + test,
                "--objective=" + objective, "--tree_method=hist", "--max_bin=16",
                "--num_boost_round=%d" % ROUNDS, "--seed=3"] + list(extra)
        single = support.run("xgboost", args)
        self.assertEqual(single.rc, 0, single.describe())
        dist_dir = tempfile.mkdtemp(prefix="job-", dir=support.scratch())
        master, *workers = run_cluster(args, 2, dist_dir)
        for j in [master] + workers:
            self.assertEqual(j.rc, 0, j.describe())
        self.assertIn("Rabit tracker listening on 127.0.0.1", master.stdout)
        for i, w in enumerate(workers):
            self.assertIn("Replica %d of 3: training rows" % (i + 1), w.stdout)
        a = predictions(single.model_dir, test)
        b = predictions(os.path.join(dist_dir, "model"), test)
        difference = float(abs(a - b).max())
        print("\n1+2 vs single (%s): max |prediction difference| %.3g, model files identical: %s" % (
            objective, difference, _same(single.model_dir, os.path.join(dist_dir, "model"))))
        self.assertLessEqual(difference, 1e-6)
        one, three = validation_series(single.job_dir), validation_series(dist_dir)
        self.assertEqual([(t, s) for t, s, _ in one], [(t, s) for t, s, _ in three])
        for (_, _, x), (_, _, y) in zip(one, three):
            self.assertAlmostEqual(x, y, places=6)
        # Only the master writes: one event file, one model.
        events = [n for n in os.listdir(os.path.join(dist_dir, "experiment")) if "tfevents" in n]
        self.assertEqual(len(events), 1)
        return single, master

    def test_binary_1_plus_2_equals_single(self):
        self.compare("binary:logistic", self.paths["train"], self.paths["validation"], self.paths["test"])

    def test_regression_1_plus_2_equals_single(self):
        rows = support.read_rows(support.data("diabetes.csv"))
        paths = [support.write_csv(os.path.join(self.dir, "d%d.csv" % i), part)
                 for i, part in enumerate((rows[:300], rows[300:370], rows[370:]))]
        self.compare("reg:squarederror", *paths, extra=["--eta=0.1"])

    def test_parameter_servers_are_refused(self):
        ports = free_ports(2)
        tf_config = {"cluster": {"master": ["127.0.0.1:%d" % ports[0]], "ps": ["127.0.0.1:%d" % ports[1]]},
                     "task": {"type": "master", "index": 0}}
        job = support.run("xgboost_dist", ["--training_data_path=" + self.paths["train"]],
                          extra_env={"TF_CONFIG": json.dumps(tf_config)})
        self.assertEqual(job.rc, 1)
        self.assertIn("ERROR: distributed XGBoost takes no parameter servers", job.stderr)

    def test_single_replica_image_refuses_workers(self):
        ports = free_ports(2)
        tf_config = {"cluster": {"master": ["127.0.0.1:%d" % ports[0]], "worker": ["127.0.0.1:%d" % ports[1]]},
                     "task": {"type": "master", "index": 0}}
        job = support.run("xgboost", ["--training_data_path=" + self.paths["train"]],
                          extra_env={"TF_CONFIG": json.dumps(tf_config)})
        self.assertEqual(job.rc, 1)
        self.assertIn("xgboost_dist", job.stderr)


def _same(a, b):
    with open(os.path.join(a, "model.bst"), "rb") as f, open(os.path.join(b, "model.bst"), "rb") as g:
        return f.read() == g.read()


if __name__ == "__main__":
    unittest.main()
