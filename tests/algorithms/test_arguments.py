# SPDX-License-Identifier: GPL-2.0-or-later
"""How a job fails before it trains: unknown and malformed arguments, a missing library, a path this host cannot
read; and staging the package as the executor does (pip, offline) and running it from there."""

import os
import subprocess
import tempfile
import unittest

import support

TRAIN = "--training_data_path=" + support.data("wine.csv")

# (algorithm, arguments, words stderr must hold). Every case must exit 1 with ERROR lines naming the argument.
CASES = [
    ("xgboost", [TRAIN, "--max_dept=3"], "unrecognized arguments: --max_dept=3"),
    ("xgboost", [TRAIN, "--max_depth=abc"], "argument --max_depth: invalid int value: 'abc'"),
    ("xgboost", [TRAIN, "--eta=1.5"], "argument --eta: 1.5 is outside [0, 1]"),
    ("xgboost", [TRAIN, "--objective=reg:bogus"], "argument --objective: invalid choice: 'reg:bogus'"),
    ("xgboost", [TRAIN, "--subsample=0"], "argument --subsample: 0 is outside (0, 1]"),
    ("xgboost", ["--objective=binary:logistic"], "the following arguments are required: --training_data_path"),
    ("xgboost", [TRAIN, "--preprocess=maybe"], "argument --preprocess: invalid boolean value: 'maybe'"),
    ("xgboost", [TRAIN, "--preprocess", "--validation_split=1.5"], "argument --validation_split: 1.5 is outside"),
    ("xgboost", [TRAIN, "--preprocess", "--validation_split=0.3", "--test_split=0.3", "--objective=multi:softmax"],
     "argument --test_split: validation_split + test_split must be at most 0.40"),
    ("xgboost", [TRAIN, "--preprocess", "--objective=binary:logistic"],
     "argument --objective: binary:logistic needs 2 classes, the target has 3"),
    ("xgboost", [TRAIN, "--preprocess", "--objective=multi:softmax", "--num_class=2"],
     "argument --num_class: 2, but the target has 3 classes"),
    ("xgboost_dist", [TRAIN, "--preprocess"], "unrecognized arguments: --preprocess"),
    ("linear_learner", [TRAIN, "--model_type=clustering"], "argument --model_type: invalid choice: 'clustering'"),
    ("linear_learner", [TRAIN, "--model_type=regression", "--batch_size=0"], "argument --batch_size: 0 is outside"),
    ("linear_learner", [TRAIN], "the following arguments are required: --model_type"),
    ("linear_learner", [TRAIN, "--model_type=regression", "--learning_rate=fast"],
     "argument --learning_rate: invalid float value: 'fast'"),
    ("linear_learner", [TRAIN, "--model_type=regression", "--hidden_units=3"], "unrecognized arguments: --hidden_units"),
    ("wide_deep", [TRAIN, "--model_type=regression", "--hidden_units=30,x"], "argument --hidden_units: invalid"),
    ("wide_deep", [TRAIN, "--model_type=regression", "--dnn_optimizer_type=rmsprop"],
     "argument --dnn_optimizer_type: invalid choice: 'rmsprop'"),
    ("wide_deep", [TRAIN, "--model_type=regression", "--dnn_dropout=1"], "argument --dnn_dropout: 1 is outside"),
    ("wide_deep", ["--training_data_path=gs://bucket/train.csv", "--model_type=regression"],
     "--training_data_path=gs://bucket/train.csv: Cloud Storage is not reachable"),
    ("wide_deep", ["--training_data_path=/nonexistent/train.csv", "--model_type=regression"],
     "/nonexistent/train.csv: line 1, column 1: no such file"),
]


class Arguments(unittest.TestCase):
    def test_each_bad_argument_exits_1_naming_it(self):
        for algorithm, args, words in CASES:
            with self.subTest("%s %s" % (algorithm, " ".join(args[1:] or args))):
                job = support.run(algorithm, args)
                self.assertEqual(job.rc, 1, job.describe())
                self.assertIn("ERROR: ", job.stderr)
                self.assertIn(words, job.stderr)
                self.assertFalse(os.path.exists(os.path.join(job.job_dir, "model")))

    def test_help_lists_the_service_arguments(self):
        expected = {
            "xgboost": ["--objective", "--num_boost_round", "--max_depth", "--eta", "--subsample",
                        "--colsample_bytree", "--colsample_bylevel", "--lambda", "--alpha", "--gamma",
                        "--min_child_weight", "--scale_pos_weight", "--base_score", "--tree_method", "--grow_policy",
                        "--num_class", "--eval_metric", "--preprocess", "--validation_split", "--test_split"],
            "linear_learner": ["--model_type", "--batch_size", "--max_steps", "--learning_rate",
                               "--eval_frequency_secs", "--optimizer_type", "--l1_regularization_strength",
                               "--l2_regularization_strength"],
            "wide_deep": ["--hidden_units", "--use_wide", "--embed_categories", "--dnn_learning_rate",
                          "--dnn_optimizer_type", "--dnn_dropout", "--model_type", "--max_steps"],
        }
        for algorithm, names in expected.items():
            job = support.run(algorithm, ["--help"])
            self.assertEqual(job.rc, 0)
            for name in names + ["--training_data_path", "--validation_data_path", "--test_data_path", "--job-dir"]:
                self.assertIn(name, job.stdout, algorithm)


class MissingLibrary(unittest.TestCase):
    def test_the_apt_line_that_fixes_it(self):
        fake = tempfile.mkdtemp(prefix="fake-", dir=support.scratch())
        for name in ("xgboost", "torch"):
            os.makedirs(os.path.join(fake, name))
            with open(os.path.join(fake, name, "__init__.py"), "w") as f:
                f.write("raise ImportError(%r)\n" % ("No module named %r (hidden by the test)" % name))
        path = fake + os.pathsep + support.PACKAGE_DIR
        for algorithm, package in (("xgboost", "python3-xgboost"), ("linear_learner", "python3-torch"),
                                   ("wide_deep", "python3-torch")):
            with self.subTest(algorithm):
                job = support.run(algorithm, [TRAIN, "--model_type=classification"] if algorithm != "xgboost"
                                  else [TRAIN], pythonpath=path)
                self.assertEqual(job.rc, 1, job.describe())
                self.assertIn("ERROR: the Python library", job.stderr)
                self.assertIn("sudo apt install %s" % package, job.stderr)


class Staging(unittest.TestCase):
    """As the executor stages a trainer: pip, offline, into a folder; then python -m from that folder."""

    def test_pip_install_and_run(self):
        target = tempfile.mkdtemp(prefix="staging-", dir=support.scratch())
        pip = subprocess.run([support.PYTHON, "-m", "pip", "install", "--no-index", "--no-deps",
                              "--no-build-isolation", "--no-cache-dir", "--upgrade", "--target", target,
                              support.PACKAGE_DIR], capture_output=True, text=True, timeout=300,
                             env=dict(os.environ, PIP_CONFIG_FILE="/dev/null", PIP_DISABLE_PIP_VERSION_CHECK="1"))
        self.assertEqual(pip.returncode, 0, pip.stdout + pip.stderr)
        package = os.path.join(target, "trainyard_algorithms")
        for name in ("events.py", "hypertune.py"):  # symbolic links in the source tree: plain files here
            self.assertTrue(os.path.isfile(os.path.join(package, name)) and
                            not os.path.islink(os.path.join(package, name)), name)
        with open(os.path.join(package, "events.py")) as f:
            self.assertIn("class EventFileWriter", f.read())
        job = support.run("xgboost", ["--preprocess", TRAIN, "--objective=multi:softprob", "--num_boost_round=2"],
                          pythonpath=target)
        self.assertEqual(job.rc, 0, job.describe())
        self.assertTrue(os.path.isfile(os.path.join(job.model_dir, "model.bst")))


if __name__ == "__main__":
    unittest.main()
