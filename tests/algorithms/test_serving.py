# SPDX-License-Identifier: GPL-2.0-or-later
"""BuiltinPredictor: raw rows in, the same predictions the library gives on the job's processed data.

"The library's own predictions": XGBoost's Booster.predict on processed_data/test.csv; for the PyTorch models
the TorchScript model.pt applied to processed_data/test.csv (its one-hot blocks turned back into category
indices with metadata.json's feature list). Served: the raw test file's rows (no target), as lists and as CSV
lines. The tables are derived from tests/data/builtin at test time: diabetes with its sex column as text
("F"/"M") and blanks, so vocabularies, mean filling and one-hot order are on the path."""

import contextlib
import io
import os
import tempfile
import unittest

import support

from trainyard_algorithms.serving import BuiltinPredictor


def diabetes_with_text(folder, classify=False):
    """(train path, raw test path, test rows without target): sex 1/2 → F/M, some blanks, a fixed 80-row test
    file. classify: the target becomes "high" (progression > 140) or "low"."""
    rows = support.read_rows(support.data("diabetes.csv"))
    out = []
    for i, r in enumerate(rows):
        r = list(r)
        r[2] = {"1": "F", "2": "M"}[r[2]]
        if i % 17 == 3:
            r[4] = ""  # bmi missing: the training mean
        if i % 23 == 5:
            r[2] = ""  # sex missing: no category
        if classify:
            r[0] = "high" if float(r[0]) > 140 else "low"
        out.append(r)
    train = support.write_csv(os.path.join(folder, "train.csv"), out[:362])
    test = support.write_csv(os.path.join(folder, "test.csv"), out[362:])
    return train, test, [r[1:] for r in out[362:]]


def processed_inputs(job, split="test"):
    """(y, flat X, numeric, categorical) of processed_data/<split>.csv, the latter two rebuilt from one-hot."""
    import numpy as np
    y, x = support.read_matrix(os.path.join(job.out_dir, "processed_data", split + ".csv"))
    features = job.json("metadata.json")["features"]
    num_cols = [i for i, f in enumerate(features) if f["kind"] == "numeric"]
    blocks = {}
    for i, f in enumerate(features):
        if f["kind"] != "numeric":
            blocks.setdefault(f["column"], []).append(i)
    cat = np.full((len(y), len(blocks)), -1, dtype=np.int64)
    for j, column in enumerate(sorted(blocks)):
        part = x[:, blocks[column]]
        hot = part.sum(axis=1) > 0
        cat[hot, j] = part[hot].argmax(axis=1)
    return y, x, x[:, num_cols].astype(np.float32), cat


class Serving(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="serve-", dir=support.scratch())
        os.makedirs(os.path.join(cls.dir, "r"))
        os.makedirs(os.path.join(cls.dir, "c"))
        cls.reg = diabetes_with_text(os.path.join(cls.dir, "r"))
        cls.cls = diabetes_with_text(os.path.join(cls.dir, "c"), classify=True)

    def setUp(self):
        self.enterContext(contextlib.redirect_stdout(io.StringIO()))

    def job(self, algorithm, table, *args):
        train, test, _ = table
        job = support.job(algorithm, "--preprocess", "--training_data_path=" + train, "--test_data_path=" + test,
                          "--seed=5", *args)
        self.assertEqual(job.rc, 0, job.describe())
        return job

    def test_xgboost_regression_from_raw_rows(self):
        import numpy as np
        import xgboost
        job = self.job("xgboost", self.reg, "--objective=reg:squarederror", "--num_boost_round=15")
        _, x, _, _ = processed_inputs(job)
        library = xgboost.Booster(model_file=os.path.join(job.model_dir, "model.bst")).predict(xgboost.DMatrix(x))
        predictor = BuiltinPredictor.from_path(job.model_dir)
        served = np.array([a["predicted_value"] for a in predictor.predict(self.reg[2])])
        np.testing.assert_allclose(served, library, rtol=0, atol=1e-5)
        lines = [",".join(r) for r in self.reg[2]]
        self.assertEqual(predictor.predict(lines), predictor.predict(self.reg[2]))

    def test_xgboost_text_labels_and_probabilities(self):
        import numpy as np
        import xgboost
        job = self.job("xgboost", self.cls, "--objective=binary:logistic", "--num_boost_round=15")
        _, x, _, _ = processed_inputs(job)
        library = xgboost.Booster(model_file=os.path.join(job.model_dir, "model.bst")).predict(xgboost.DMatrix(x))
        answers = BuiltinPredictor.from_path(job.model_dir).predict(self.cls[2])
        self.assertEqual({a["predicted_label"] for a in answers}, {"high", "low"})
        self.assertTrue(all(a["classes"] == ["high", "low"] for a in answers))
        np.testing.assert_allclose([a["scores"][1] for a in answers], library, atol=1e-6)
        for a in answers:
            self.assertEqual(a["predicted_label"], a["classes"][int(np.argmax(a["scores"]))])

    def torch_check(self, job, table):
        import numpy as np
        import torch
        _, _, num, cat = processed_inputs(job)
        model = torch.jit.load(os.path.join(job.model_dir, "model.pt"))
        with torch.no_grad():
            library = model(torch.as_tensor(num), torch.as_tensor(cat)).numpy()
        answers = BuiltinPredictor.from_path(job.model_dir).predict(table[2])
        if library.ndim == 2:
            np.testing.assert_allclose([a["scores"] for a in answers], library, atol=1e-6)
        else:
            np.testing.assert_allclose([a["predicted_value"] for a in answers], library, rtol=1e-6, atol=1e-4)
        return answers

    def test_wide_deep_classification_from_raw_rows(self):
        job = self.job("wide_deep", self.cls, "--model_type=classification", "--use_wide", "--embed_categories",
                       "--dnn_optimizer_type=adam", "--dnn_learning_rate=0.01", "--max_steps=100",
                       "--hidden_units=8")
        answers = self.torch_check(job, self.cls)
        self.assertEqual(answers[0]["classes"], ["high", "low"])

    def test_linear_regression_from_raw_rows(self):
        job = self.job("linear_learner", self.reg, "--model_type=regression", "--optimizer_type=adam",
                       "--learning_rate=0.05", "--max_steps=100")
        self.torch_check(job, self.reg)

    def test_bad_instances_name_their_index(self):
        job = self.job("xgboost", self.reg, "--objective=reg:squarederror", "--num_boost_round=3")
        predictor = BuiltinPredictor.from_path(job.model_dir)
        good = list(self.reg[2][0])
        cases = [
            ([good, good[:-1]], "instance 1: 9 values, expected 10"),
            ([good, good, good[:3] + ["heavy"] + good[4:]], "instance 2: column 5: 'heavy' is not a number"),
            ([good, {"x": 1}], "instance 1: a list of 10 values or a CSV line"),
            ([[1, [2]] + good[2:]], "instance 0: column 3: [2] is neither a number nor text"),
            ("1,2,3", "instances must be a list"),
        ]
        for instances, message in cases:
            with self.subTest(message):
                with self.assertRaises(ValueError) as caught:
                    predictor.predict(instances)
                self.assertIn(message, str(caught.exception))

    def test_missing_and_unseen_values_are_served(self):
        job = self.job("xgboost", self.reg, "--objective=reg:squarederror", "--num_boost_round=3")
        predictor = BuiltinPredictor.from_path(job.model_dir)
        row = list(self.reg[2][0])
        numbers = [float(v) if v not in ("", "F", "M") else v for v in row]
        blanks = [None] + row[1:3] + [""] + row[4:]
        unseen = row[:1] + ["X"] + row[2:]
        answers = predictor.predict([numbers, blanks, unseen])
        self.assertEqual(answers[0], predictor.predict([row])[0])
        self.assertTrue(all(isinstance(a["predicted_value"], float) for a in answers))


if __name__ == "__main__":
    unittest.main()
