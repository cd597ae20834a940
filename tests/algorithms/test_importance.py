# SPDX-License-Identifier: GPL-2.0-or-later
"""trainyard_algorithms.importance (issue 46 item 21): optuna's fANOVA importance of a tuning job's parameters, as
the executor's GET …/hyperparameterImportance runs it (JSON on stdin, JSON on stdout, status 2 for bad input)."""
import json
import os
import random
import subprocess
import sys
import unittest

import support


def run(body):
    env = dict(os.environ, PYTHONPATH=support.PACKAGE_DIR, OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "trainyard_algorithms.importance"], input=json.dumps(body),
                          capture_output=True, text=True, env=env, timeout=120)


PARAMS = [{"parameterName": "x", "type": "DOUBLE", "minValue": 0, "maxValue": 1},
          {"parameterName": "lr", "type": "DOUBLE", "minValue": 1e-4, "maxValue": 1, "scaleType": "UNIT_LOG_SCALE"},
          {"parameterName": "n", "type": "INTEGER", "minValue": 1, "maxValue": 8},
          {"parameterName": "opt", "type": "CATEGORICAL", "categoricalValues": ["adam", "sgd"]},
          {"parameterName": "batch", "type": "DISCRETE", "discreteValues": [16, 32, 64]}]


class Importance(unittest.TestCase):
    def test_the_parameter_the_objective_depends_on_comes_first(self):
        rng = random.Random(3)
        trials = []
        for _ in range(40):
            h = {"x": rng.random(), "lr": 10 ** rng.uniform(-4, 0), "n": rng.randint(1, 8),
                 "opt": rng.choice(["adam", "sgd"]), "batch": rng.choice([16, 32, 64])}
            # The objective is x's alone (a little of opt's): x must explain most of its variance.
            objective = 3 * h["x"] ** 2 + (0.1 if h["opt"] == "sgd" else 0)
            trials.append({"hyperparameters": {k: str(v) for k, v in h.items()}, "objective": objective})
        done = run({"goal": "MAXIMIZE", "params": PARAMS, "trials": trials})
        self.assertEqual(done.returncode, 0, done.stderr)
        answer = json.loads(done.stdout)
        self.assertEqual(answer["trials"], 40)
        self.assertIn("fANOVA", answer["method"])
        names = [i["parameterName"] for i in answer["importances"]]
        self.assertEqual(sorted(names), sorted(p["parameterName"] for p in PARAMS))
        self.assertEqual(names[0], "x")
        self.assertGreater(answer["importances"][0]["importance"], 0.7)
        self.assertAlmostEqual(sum(i["importance"] for i in answer["importances"]), 1.0, places=6)

    def test_fewer_than_two_trials_is_refused(self):
        done = run({"goal": "MINIMIZE", "params": PARAMS[:1],
                    "trials": [{"hyperparameters": {"x": "0.5"}, "objective": 1.0}]})
        self.assertEqual(done.returncode, 2)
        self.assertIn("at least 2 completed trials", done.stderr)

    def test_an_unknown_type_names_the_parameter(self):
        done = run({"goal": "MINIMIZE", "params": [{"parameterName": "w", "type": "FLOAT"}], "trials": []})
        self.assertEqual(done.returncode, 2)
        self.assertIn("parameter w", done.stderr)


if __name__ == "__main__":
    unittest.main()
