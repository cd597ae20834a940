# SPDX-License-Identifier: GPL-2.0-or-later
"""The training rules issue 44 added or changed, one case each (the evidence that they pay is evidence.py):
FTRL from the initial weights, the default learning rates, and the kept model (the best validation epoch or
round)."""

import math
import os
import unittest

import support

from trainyard_algorithms import estimator, xgboost as xgboost_algorithm

DIABETES = "--training_data_path=" + support.data("diabetes.csv")


class Ftrl(unittest.TestCase):
    def setUp(self):
        import torch
        self.torch = torch
        self.Ftrl = estimator.make_ftrl_class(torch)

    def step(self, weights, gradient, **kw):
        p = self.torch.nn.Parameter(self.torch.tensor(weights, dtype=self.torch.float64))
        optimizer = self.Ftrl([p], **kw)
        p.grad = self.torch.tensor(gradient, dtype=self.torch.float64)
        optimizer.step()
        return p.detach().tolist()

    def test_a_zero_gradient_keeps_the_initial_weights(self):
        # TensorFlow's z = 0 start would leave (1 - sqrt(0.1/0.1)) = 0 of them; ours starts z at the weights.
        for l1, l2 in ((0.0, 0.0), (0.01, 0.5)):
            with self.subTest(l1=l1, l2=l2):
                got = self.step([0.7, -1.3, 0.0], [0.0, 0.0, 0.0], lr=0.05, l1=l1, l2=l2)
                for a, b in zip(got, [0.7, -1.3, 0.0]):
                    self.assertAlmostEqual(a, b, places=12)

    def test_from_zero_it_is_tensorflows_step(self):
        # ApplyFtrlV2 from w = 0, n = 0.1: z = g, w = -z / (sqrt(0.1 + g²) / lr) (l1 = l2 = 0); w = 0 where |z| <= l1.
        g, lr = [0.3, -2.0, 0.01], 0.2
        got = self.step([0.0, 0.0, 0.0], g, lr=lr)
        for w, gi in zip(got, g):
            self.assertAlmostEqual(w, -gi * lr / math.sqrt(0.1 + gi * gi), places=12)
        got = self.step([0.0, 0.0, 0.0], g, lr=lr, l1=0.05)
        self.assertEqual(got[2], 0.0)
        self.assertAlmostEqual(got[0], (0.05 - 0.3) * lr / math.sqrt(0.1 + 0.09), places=12)

    def test_a_network_trained_by_ftrl_learns(self):
        # The default wide & deep (FTRL for the DNN) on wine, whose largest class is 0.40 of the rows: with
        # TensorFlow's z = 0 start it predicted that class (0.40 accuracy).
        job = support.run("wide_deep", ["--preprocess", "--training_data_path=" + support.data("wine.csv"),
                                        "--model_type=classification", "--max_steps=300", "--seed=3"])
        self.assertEqual(job.rc, 0, job.describe())
        self.assertGreater(job.json("artifacts", "evaluation.json")["metrics"]["accuracy"], 0.9)


class LearningRates(unittest.TestCase):
    def test_defaults_by_part_and_optimizer(self):
        cases = [("linear", "ftrl", 4, 0.2), ("linear", "ftrl", 100, 0.1), ("linear", "sgd", 64, 0.125),
                 ("linear", "ftrl", 0, 0.2), ("linear", "adam", 4, 0.01), ("dnn", "ftrl", 4, 0.05),
                 ("dnn", "sgd", 4, 0.05), ("dnn", "adam", 4, 0.001)]
        for part, optimizer, features, expected in cases:
            with self.subTest(part=part, optimizer=optimizer, features=features):
                self.assertAlmostEqual(estimator.default_learning_rate(part, optimizer, features), expected)

    def test_a_job_logs_the_default_it_took_and_keeps_a_given_one(self):
        job = support.run("linear_learner", ["--preprocess", DIABETES, "--model_type=regression", "--max_steps=20",
                                             "--seed=1"])
        self.assertEqual(job.rc, 0, job.describe())
        # diabetes: 10 feature columns (sex categorical, 9 numeric): min(0.2, 1/sqrt(10)) = 0.2
        self.assertIn("learning_rate 0.2: the default for ftrl over 10 feature columns", job.stdout)
        job = support.run("wide_deep", ["--preprocess", DIABETES, "--model_type=regression", "--max_steps=20",
                                        "--seed=1", "--dnn_optimizer_type=adam", "--learning_rate=0.3"])
        self.assertEqual(job.rc, 0, job.describe())
        self.assertIn("dnn_learning_rate 0.001: the default for adam", job.stdout)
        self.assertNotIn("learning_rate 0.3", job.stdout)  # given, so not a default
        self.assertNotIn("learning_rate 0.2:", job.stdout)


class MaxSteps(unittest.TestCase):
    def test_at_least_1000_steps_and_10_epochs(self):
        for rows, batch, expected in ((266, 100, 1000), (50, 100, 1000), (48000, 100, 4800), (48001, 100, 4801),
                                      (20000, 32, 6250), (0, 100, 1000)):
            with self.subTest(rows=rows, batch=batch):
                self.assertEqual(estimator.default_max_steps(rows, batch), expected)

    def test_a_job_logs_the_default_and_labels_the_kept_step(self):
        job = support.run("linear_learner", ["--preprocess", DIABETES, "--model_type=regression", "--seed=1",
                                             "--batch_size=10"])
        self.assertEqual(job.rc, 0, job.describe())
        # 266 training rows in batches of 10: 27 steps an epoch, 10 epochs = 266 steps < 1,000.
        self.assertIn("max_steps 1000: the default for 266 training rows in batches of 10", job.stdout)
        job = support.run("linear_learner", ["--preprocess", DIABETES, "--model_type=regression", "--seed=1",
                                             "--batch_size=2", "--eval_frequency_secs=3600"])
        self.assertEqual(job.rc, 0, job.describe())
        self.assertIn("max_steps 1330: the default for 266 training rows in batches of 2", job.stdout)
        kept = [line for line in job.stdout.splitlines() if line.startswith("Kept the model of step ")]
        step = int(kept[0].split()[5].rstrip(":")) if kept else 1330
        with open(os.path.join(job.model_dir, "deployment_config.yaml"), encoding="utf-8") as f:
            self.assertIn('global_step: "%d"' % step, f.read())


class KeptModel(unittest.TestCase):
    def validation(self, job, tag):
        return [(step, value) for t, step, value in support.read_scalars(os.path.join(job.out_dir, "experiment"))
                if t == "validation/" + tag]

    def test_xgboost_keeps_the_rounds_up_to_the_best_validation_round(self):
        job = support.run("xgboost", ["--preprocess", DIABETES, "--objective=reg:linear", "--eta=0.3",
                                      "--num_boost_round=60", "--seed=1"])
        self.assertEqual(job.rc, 0, job.describe())
        points = self.validation(job, "rmse")
        self.assertEqual([s for s, _ in points], list(range(1, 61)))
        per_round, final = [v for _, v in points[:-1]], points[-1][1]
        kept = per_round.index(min(per_round)) + 1
        self.assertLess(kept, 60, "diabetes at eta 0.3 overfits before 60 rounds")
        self.assertIn("Kept rounds 1 to %d of 60: the best validation rmse" % kept, job.stdout)
        self.assertAlmostEqual(final, min(per_round), places=4)  # the last report is the kept model's
        with open(os.path.join(job.model_dir, "deployment_config.yaml"), encoding="utf-8") as f:
            self.assertIn('global_step: "%d"' % kept, f.read())
        import xgboost
        self.assertEqual(xgboost.Booster(model_file=os.path.join(job.model_dir, "model.bst")).num_boosted_rounds(),
                         kept)

    def test_xgboost_defaults(self):
        parser = xgboost_algorithm.build_parser(False)
        self.assertEqual((parser.get_default("num_boost_round"), parser.get_default("eta")), (100, 0.1))

    def test_pytorch_keeps_the_best_epoch_and_reports_it_last(self):
        job = support.run("wide_deep", ["--preprocess", DIABETES, "--model_type=regression", "--seed=1",
                                        "--dnn_optimizer_type=adam", "--dnn_learning_rate=0.01"])
        self.assertEqual(job.rc, 0, job.describe())
        kept = [line for line in job.stdout.splitlines() if line.startswith("Kept the model of step ")]
        self.assertEqual(len(kept), 1, job.stdout)
        step = int(kept[0].split()[5].rstrip(":"))
        self.assertLess(step, 1000)
        self.assertIn("measured after every epoch of 3 steps", kept[0])  # 266 training rows, batches of 100
        self.assertEqual(step % 3, 0)
        self.assertEqual([s for s, _ in self.validation(job, "rmse")], [1000])

    def test_without_validation_rows_the_last_step_is_kept(self):
        job = support.run("linear_learner", ["--preprocess", DIABETES, "--model_type=regression", "--seed=1",
                                             "--validation_split=0", "--max_steps=50"])
        self.assertEqual(job.rc, 0, job.describe())
        self.assertNotIn("Kept the model", job.stdout)


if __name__ == "__main__":
    unittest.main()
