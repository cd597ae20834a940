# SPDX-License-Identifier: GPL-2.0-or-later
"""Each algorithm, classification and regression, to a finished model whose test-split figure is within a stated
margin of a scikit-learn reference model trained on the same split (the job's own processed_data/).

Margins (the test splits are small, 36 to 114 rows): accuracy at least the reference's minus 0.06; RMSE at most
1.15 times the reference's. References: XGBoost ↔ HistGradientBoosting with the same rounds, learning rate and
depth; linear learner and wide & deep ↔ LogisticRegression / Ridge on standardised features (a deep model on these
tables should do about as well as a good linear one). Settings are fast ones (tens to hundreds of steps)."""

import math
import os
import unittest
import warnings

import support

from trainyard_algorithms import xgboost as xgboost_algorithm

CLASSIFICATION_MARGIN = 0.06
RMSE_FACTOR = 1.15

XGB_BINARY = ("--preprocess", "--training_data_path=" + support.data("breast_cancer.csv"),
              "--objective=binary:logistic", "--num_boost_round=20", "--seed=7")
XGB_MULTI = ("--preprocess", "--training_data_path=" + support.data("wine.csv"), "--objective=multi:softprob",
             "--num_boost_round=20", "--seed=7")
XGB_REGRESSION = ("--preprocess", "--training_data_path=" + support.data("diabetes.csv"), "--objective=reg:linear",
                  "--num_boost_round=30", "--eta=0.1", "--max_depth=3", "--seed=7")
LINEAR_CLASSIFICATION = ("--preprocess", "--training_data_path=" + support.data("breast_cancer.csv"),
                         "--model_type=classification", "--optimizer_type=adam", "--learning_rate=0.05",
                         "--max_steps=300", "--batch_size=50", "--seed=7")
LINEAR_REGRESSION = ("--preprocess", "--training_data_path=" + support.data("diabetes.csv"),
                     "--model_type=regression", "--optimizer_type=adam", "--learning_rate=0.05", "--max_steps=400",
                     "--batch_size=50", "--seed=7")
WIDE_DEEP_CLASSIFICATION = ("--preprocess", "--training_data_path=" + support.data("wine.csv"),
                            "--model_type=classification", "--use_wide", "--embed_categories", "--hidden_units=32,16",
                            "--dnn_optimizer_type=adam", "--dnn_learning_rate=0.01", "--optimizer_type=adam",
                            "--learning_rate=0.01", "--max_steps=300", "--batch_size=32", "--seed=7")
WIDE_DEEP_REGRESSION = ("--preprocess", "--training_data_path=" + support.data("diabetes.csv"),
                        "--model_type=regression", "--use_wide", "--embed_categories", "--hidden_units=16",
                        "--dnn_optimizer_type=adam", "--dnn_learning_rate=0.01", "--optimizer_type=adam",
                        "--learning_rate=0.01", "--max_steps=400", "--batch_size=32", "--dnn_dropout=0.1",
                        "--seed=7")


def reference(job, task, kind):
    """The scikit-learn model's test figure (accuracy or RMSE) on the job's processed_data split."""
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    y, x = support.read_matrix(os.path.join(job.out_dir, "processed_data", "training.csv"))
    ty, tx = support.read_matrix(os.path.join(job.out_dir, "processed_data", "test.csv"))
    if kind == "trees":
        rounds = int(_arg(job, "num_boost_round"))
        defaults = xgboost_algorithm.build_parser(False)  # what the job trained with where it gave nothing
        params = dict(max_iter=rounds, learning_rate=float(_arg(job, "eta", defaults.get_default("eta"))),
                      max_depth=int(_arg(job, "max_depth", defaults.get_default("max_depth"))), random_state=0)
        model = (HistGradientBoostingClassifier(**params) if task == "classification"
                 else HistGradientBoostingRegressor(**params))
    else:
        model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000) if task == "classification"
                              else Ridge(alpha=1.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(x, y.astype(np.int64) if task == "classification" else y)
    predicted = model.predict(tx)
    if task == "classification":
        return float((predicted == ty).mean())
    return math.sqrt(float(((predicted - ty) ** 2).mean()))


def _arg(job, name, default=None):
    for a in job.args:
        if a.startswith("--%s=" % name):
            return a.split("=", 1)[1]
    return default


def run_job(algorithm, args):
    job = support.job(algorithm, *args)
    job.args = args
    return job


class Figures:
    """Shared by the algorithm test classes: runs the job once and checks it against the reference."""

    algorithm = None
    cases = {}  # name -> (args, task, reference kind)

    def check(self, name):
        args, task, kind = self.cases[name]
        job = run_job(self.algorithm, args)
        self.assertEqual(job.rc, 0, job.describe())
        evaluation = job.json("artifacts", "evaluation.json")
        self.assertEqual(evaluation["split"], "test")
        ref = reference(job, task, kind)
        if task == "classification":
            ours = evaluation["metrics"]["accuracy"]
            print("\n%s %s: test accuracy %.4f, scikit-learn %.4f" % (self.algorithm, name, ours, ref))
            self.assertGreaterEqual(ours, ref - CLASSIFICATION_MARGIN)
        else:
            ours = evaluation["metrics"]["rmse"]
            print("\n%s %s: test RMSE %.3f, scikit-learn %.3f" % (self.algorithm, name, ours, ref))
            self.assertLessEqual(ours, ref * RMSE_FACTOR)
        self.check_outputs(job, task)
        return job

    def check_outputs(self, job, task):
        model_dir = job.model_dir
        model_file = "model.bst" if self.algorithm == "xgboost" else "model.pt"
        for name in (model_file, "preprocessing.json", "deployment_config.yaml", "builtin_algorithm_output.json",
                     "explanation_metadata.json"):
            self.assertTrue(os.path.isfile(os.path.join(model_dir, name)), name)
        output = job.json("model", "builtin_algorithm_output.json")
        self.assertEqual(set(output), {"framework", "modelPath", "pythonVersion", "runtimeVersion"})
        self.assertEqual(output["framework"], "XGBOOST" if self.algorithm == "xgboost" else "PYTORCH")
        self.assertEqual(output["modelPath"], os.path.abspath(model_dir))
        with open(os.path.join(model_dir, "deployment_config.yaml")) as f:
            config = f.read()
        for key in ("deploymentUri:", "framework:", "runtimeVersion:", "pythonVersion:", "labels:", "global_step:"):
            self.assertIn(key, config)
        if task == "classification":
            self.assertRegex(config, r'accuracy: "\d+"')
        metadata = job.json("metadata.json")
        self.assertIn("seed", metadata)
        tags = {tag for tag, _, _ in support.read_scalars(os.path.join(job.out_dir, "experiment"))}
        expected = {"accuracy", "log_loss"} if task == "classification" else {"rmse", "mae"}
        for metric in expected:
            self.assertIn("validation/" + metric, tags)
            self.assertIn("test/" + metric, tags)


class XGBoost(Figures, unittest.TestCase):
    algorithm = "xgboost"
    cases = {"binary": (XGB_BINARY, "classification", "trees"), "multi": (XGB_MULTI, "classification", "trees"),
             "regression": (XGB_REGRESSION, "regression", "trees")}

    def test_binary_with_text_labels(self):
        job = self.check("binary")
        self.assertEqual(job.json("metadata.json")["target"]["labels"], ["benign", "malignant"])
        tags = {tag for tag, _, _ in support.read_scalars(os.path.join(job.out_dir, "experiment"))}
        self.assertIn("validation/auc", tags)
        steps = [step for tag, step, _ in support.read_scalars(job.out_dir) if tag == "validation/accuracy"]
        self.assertEqual(steps, list(range(1, 21)))  # one point per boosting round

    def test_multiclass_takes_num_class_from_the_target(self):
        job = self.check("multi")
        self.assertIn("num_class 3: taken from the target's classes (0, 1, 2)", job.stdout)

    def test_regression(self):
        job = self.check("regression")
        self.assertIn("objective reg:linear is reg:squarederror", job.stdout)
        importance = job.json("artifacts", "feature_importance.json")
        self.assertTrue(importance["columns"])
        self.assertTrue(all(1 <= c["column"] <= 10 for c in importance["columns"]))


class LinearLearner(Figures, unittest.TestCase):
    algorithm = "linear_learner"
    cases = {"classification": (LINEAR_CLASSIFICATION, "classification", "linear"),
             "regression": (LINEAR_REGRESSION, "regression", "linear")}

    def test_classification(self):
        self.check("classification")

    def test_regression(self):
        self.check("regression")

    def test_ftrl_default_optimizer_learns(self):
        # The service's default optimizer at our default learning rate (30 feature columns: 1/sqrt(30)).
        args = ("--preprocess", "--training_data_path=" + support.data("breast_cancer.csv"),
                "--model_type=classification", "--max_steps=200", "--seed=7",
                "--l1_regularization_strength=0.001")
        job = run_job("linear_learner", args)
        self.assertEqual(job.rc, 0, job.describe())
        self.assertIn("learning_rate 0.1826: the default for ftrl over 30 feature columns", job.stdout)
        self.assertGreater(job.json("artifacts", "evaluation.json")["metrics"]["accuracy"], 0.9)


class WideDeep(Figures, unittest.TestCase):
    algorithm = "wide_deep"
    cases = {"classification": (WIDE_DEEP_CLASSIFICATION, "classification", "linear"),
             "regression": (WIDE_DEEP_REGRESSION, "regression", "linear")}

    def test_classification(self):
        self.check("classification")

    def test_regression_with_a_categorical_column(self):
        job = self.check("regression")
        columns = job.json("metadata.json")["columns"]
        self.assertEqual(columns[2]["type"], "categorical")  # sex, embedded and in the wide part


class Tuning(unittest.TestCase):
    """A trial writes under <job-dir>/<trial> and reports the validation metrics to the hypertune file."""

    def test_trial_layout_and_hypertune_reports(self):
        job_dir = os.path.join(support.scratch(), "tuning-job")
        metrics = os.path.join(job_dir, "replicas", "master-replica-0", "hypertune", "output.metrics")
        job = support.run("xgboost", list(XGB_BINARY[:-2]) + ["--num_boost_round=5", "--max_depth=3"],
                          extra_env={"CLOUD_ML_TRIAL_ID": "3", "CLOUD_ML_HP_METRIC_FILE": metrics,
                                     "TF_CONFIG": '{"cluster": {"master": ["127.0.0.1:1"]}, "task": {"type": '
                                                  '"master", "index": 0, "trial": "3"}, "environment": "cloud"}'},
                          job_dir=job_dir)
        self.assertEqual(job.rc, 0, job.describe())
        trial_dir = os.path.join(job_dir, "3")
        self.assertTrue(os.path.isfile(os.path.join(trial_dir, "model", "model.bst")))
        self.assertTrue(os.path.isfile(os.path.join(trial_dir, "metadata.json")))
        self.assertFalse(os.path.exists(os.path.join(job_dir, "model")))
        output = job.json("model", "builtin_algorithm_output.json")
        self.assertEqual(output["modelPath"], os.path.join(trial_dir, "model"))
        reports = support.read_hypertune(metrics)
        tags = {k for r in reports for k in r if k not in ("timestamp", "trial", "global_step", "checkpoint_path")}
        self.assertEqual(tags, {"accuracy", "log_loss", "auc", "loss"})
        self.assertEqual({r["trial"] for r in reports}, {"3"})
        self.assertEqual(sorted({int(r["global_step"]) for r in reports}), [1, 2, 3, 4, 5])
        self.assertTrue(all(isinstance(r[t], str) for r in reports for t in tags if t in r))


if __name__ == "__main__":
    unittest.main()
