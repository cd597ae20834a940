# SPDX-License-Identifier: GPL-2.0-or-later
"""trainyard_algorithms.explanations: each method against what it must equal (issue 47).

- On a linear model every method equals w_i · (x_i − b_i).
- On nonlinear models of at most 12 features (a small XGBoost and an MLP), sampled Shapley's error against exact
  baseline Shapley shrinks as paths grow and stays within 3 × approx_error for every feature.
- Integrated gradients on a linear TorchScript model is exact; on a nonlinear one it meets completeness within its
  approx_error, and warns when the gap passes 5 %.
- Completeness on every answer in its own space (TreeSHAP's is the booster's margin).
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "resources", "algorithms"))

import numpy as np  # noqa: E402

from trainyard_algorithms import explanations  # noqa: E402
from trainyard_algorithms.prediction_server import ArrayPredictor  # noqa: E402


def _have(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def _entry(answer, i=0):
    return answer["explanations"][i]["attributions_by_label"][0]


def _vector(entry, names):
    return np.array([entry["attributions"][n] for n in names])


class _Data:
    rng = np.random.default_rng(7)
    X = rng.normal(size=(400, 6))
    y = X[:, 0] * 2 + np.sin(3 * X[:, 1]) + X[:, 2] * X[:, 3] - X[:, 4] ** 2 + 0.1 * rng.normal(size=400)
    names = ["f%d" % j for j in range(6)]
    baseline = explanations.Baseline(names, [float(v) for v in np.median(X, axis=0)])


@unittest.skipUnless(_have("sklearn"), "scikit-learn is not installed (python3-sklearn)")
class LinearModel(unittest.TestCase):
    def setUp(self):
        from sklearn.linear_model import LinearRegression
        rng = np.random.default_rng(1)
        X = rng.normal(size=(200, 5))
        self.w = np.array([1.5, -2.0, 0.5, 3.0, 0.0])
        self.model = LinearRegression().fit(X, X @ self.w + 4.0)
        self.predictor = ArrayPredictor("estimator", self.model)
        self.names = ["a", "b", "c", "d", "e"]
        self.baseline = explanations.Baseline(self.names, [0.1, 0.2, -0.3, 0.4, 1.0])
        self.x = [1.0, -1.0, 2.0, 0.5, 3.0]
        self.expected = self.model.coef_ * (np.array(self.x) - np.array(self.baseline.values))

    def test_every_method_equals_weight_times_difference(self):
        for config in ({"method": "sampledShapley", "numPaths": 3}, {"method": "exactShapley"}):
            entry = _entry(explanations.explain(self.predictor, self.baseline, [self.x], config))
            np.testing.assert_allclose(_vector(entry, self.names), self.expected, atol=1e-9, err_msg=str(config))
            self.assertAlmostEqual(entry["approx_error"], 0.0, places=9)
            self.assertAlmostEqual(sum(entry["attributions"].values()),
                                   entry["example_score"] - entry["baseline_score"], places=9)
            self.assertAlmostEqual(entry["example_score"], float(self.model.predict([self.x])[0]), places=9)

    def test_several_baselines_average_the_attributions(self):
        # Two baseline instances (the metadata's input_baselines with two values; "e" gives one to both): each method
        # answers the mean of its per-baseline attributions, w_i · (x_i − mean b_i), complete against the mean
        # baseline score.
        folder = tempfile.mkdtemp()
        inputs = {n: {"input_baselines": [v, -v] if n != "e" else [v], "index": j}
                  for j, (n, v) in enumerate(zip(self.names, self.baseline.values))}
        with open(os.path.join(folder, "explanation_metadata.json"), "w", encoding="utf-8") as f:
            json.dump({"inputs": inputs}, f)
        baseline = explanations.baselines_for(folder)
        self.assertEqual(len(baseline.all_values), 2)
        self.assertEqual(baseline.all_values[1], [-0.1, -0.2, 0.3, -0.4, 1.0])
        mean = np.mean(baseline.all_values, axis=0)
        for config in ({"method": "sampledShapley", "numPaths": 3}, {"method": "exactShapley"}):
            entry = _entry(explanations.explain(self.predictor, baseline, [self.x], config))
            np.testing.assert_allclose(_vector(entry, self.names), self.model.coef_ * (np.array(self.x) - mean),
                                       atol=1e-9, err_msg=str(config))
            self.assertEqual(entry["numBaselines"], 2)
            self.assertAlmostEqual(entry["baseline_score"], float(self.model.predict([mean])[0]), places=9)
            self.assertAlmostEqual(sum(entry["attributions"].values()),
                                   entry["example_score"] - entry["baseline_score"], places=9)
        inputs["a"]["input_baselines"] = [1.0, 2.0, 3.0]
        with open(os.path.join(folder, "explanation_metadata.json"), "w", encoding="utf-8") as f:
            json.dump({"inputs": inputs}, f)
        with self.assertRaisesRegex(explanations.ExplanationError, "inputs.b.input_baselines has 2 values and inputs.a's has 3"):
            explanations.baselines_for(folder)

    @unittest.skipUnless(_have("torch"), "PyTorch is not installed (python3-torch)")
    def test_integrated_gradients_on_a_linear_torchscript_model_is_exact(self):
        import torch
        layer = torch.nn.Linear(5, 1).double()
        with torch.no_grad():
            layer.weight.copy_(torch.as_tensor(self.w[None, :]))
            layer.bias.fill_(4.0)
        scripted = torch.jit.script(torch.nn.Sequential(layer).float())
        predictor = ArrayPredictor("torchscript", scripted)
        entry = _entry(explanations.explain(predictor, self.baseline, [self.x],
                                            {"method": "integratedGradients", "numIntegralSteps": 4}))
        expected = self.w * (np.array(self.x) - np.array(self.baseline.values))
        np.testing.assert_allclose(_vector(entry, self.names), expected, atol=1e-5)
        self.assertLess(entry["approx_error"], 1e-5)
        self.assertNotIn("warning", entry)


@unittest.skipUnless(_have("sklearn") and _have("xgboost"), "needs scikit-learn and XGBoost")
class NonlinearModels(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import xgboost as xgb
        from sklearn.neural_network import MLPRegressor
        booster = xgb.train({"max_depth": 4, "eta": 0.3, "seed": 0}, xgb.DMatrix(_Data.X, label=_Data.y), 40)
        cls.models = {
            "xgboost": ArrayPredictor("xgboost-booster", booster),
            "mlp": ArrayPredictor("estimator", MLPRegressor(hidden_layer_sizes=(32, 16), max_iter=800,
                                                            random_state=0).fit(_Data.X, _Data.y)),
        }

    def test_sampled_shapley_converges_to_exact_within_its_error(self):
        instances = [list(map(float, row)) for row in _Data.X[:8]]
        for name, predictor in self.models.items():
            exact = explanations.explain(predictor, _Data.baseline, instances, {"method": "exactShapley"})
            mean_error = {}
            for paths in (2, 8, 50):
                sampled = explanations.explain(predictor, _Data.baseline, instances,
                                               {"method": "sampledShapley", "numPaths": paths})
                errors = []
                for i in range(len(instances)):
                    s, e = _entry(sampled, i), _entry(exact, i)
                    diff = np.abs(_vector(s, _Data.names) - _vector(e, _Data.names))
                    errors.append(diff.max())
                    # Completeness holds exactly per path, so for the mean too.
                    self.assertAlmostEqual(sum(s["attributions"].values()), s["example_score"] - s["baseline_score"],
                                           places=6)
                    self.assertAlmostEqual(sum(e["attributions"].values()), e["example_score"] - e["baseline_score"],
                                           places=6)
                    if paths >= 8:
                        self.assertLessEqual(diff.max(), 3 * s["approx_error"] + 1e-9,
                                             "%s, %d paths, instance %d: %s vs approx_error %g"
                                             % (name, paths, i, diff, s["approx_error"]))
                mean_error[paths] = float(np.mean(errors))
            self.assertLess(mean_error[50], mean_error[8], "%s: %s" % (name, mean_error))
            self.assertLess(mean_error[8], mean_error[2], "%s: %s" % (name, mean_error))

    def test_tree_shap_is_complete_in_margin_space(self):
        import xgboost as xgb
        booster = self.models["xgboost"].model
        x = [float(v) for v in _Data.X[3]]
        entry = _entry(explanations.explain(self.models["xgboost"], _Data.baseline, [x], {"method": "treeShap"}))
        margin = float(booster.predict(xgb.DMatrix(np.asarray([x])), output_margin=True)[0])
        self.assertAlmostEqual(entry["example_score"], margin, places=4)
        self.assertAlmostEqual(sum(entry["attributions"].values()), entry["example_score"] - entry["baseline_score"],
                               places=4)

    def test_exact_shapley_refuses_many_features(self):
        wide = explanations.Baseline(["f%d" % j for j in range(13)], [0.0] * 13)
        with self.assertRaisesRegex(explanations.ExplanationError, "13 features.*up to 12"):
            explanations.explain(self.models["mlp"], wide, [[0.0] * 13], {"method": "exactShapley"})


@unittest.skipUnless(_have("torch"), "PyTorch is not installed (python3-torch)")
class IntegratedGradients(unittest.TestCase):
    def setUp(self):
        import torch
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3),
                                  torch.nn.Softmax(dim=1))
        self.predictor = ArrayPredictor("torchscript", torch.jit.script(net))
        self.baseline = explanations.Baseline(["a", "b", "c", "d"], [0.0, 0.0, 0.0, 0.0])
        self.x = [2.0, -3.0, 1.5, 4.0]

    def test_completeness_within_approx_error_and_warning(self):
        entry = _entry(explanations.explain(self.predictor, self.baseline, [self.x],
                                            {"method": "integratedGradients", "numIntegralSteps": 100}))
        gap = abs(sum(entry["attributions"].values()) - (entry["example_score"] - entry["baseline_score"]))
        self.assertLessEqual(gap, entry["approx_error"] * abs(entry["example_score"] - entry["baseline_score"]) + 1e-7)
        self.assertLess(entry["approx_error"], 0.05)
        coarse = _entry(explanations.explain(self.predictor, self.baseline, [self.x],
                                             {"method": "integratedGradients", "numIntegralSteps": 1}))
        self.assertGreater(coarse["approx_error"], entry["approx_error"])

    def test_trapezoid_is_exact_on_a_quadratic(self):
        # The trapezoid rule integrates a linear gradient exactly, with one step: f = Σ x², IG_i = x_i² − b_i².
        import torch

        class Square(torch.nn.Module):
            def forward(self, x):
                return (x * x).sum(dim=1, keepdim=True)
        predictor = ArrayPredictor("torchscript", torch.jit.script(Square()))
        baseline = explanations.Baseline(["a", "b"], [1.0, -1.0])
        entry = _entry(explanations.explain(predictor, baseline, [[3.0, 2.0]],
                                            {"method": "integratedGradients", "numIntegralSteps": 1}))
        np.testing.assert_allclose(_vector(entry, ["a", "b"]), [8.0, 3.0], atol=1e-5)

    def test_xrai_ranks_the_region_the_model_looks_at(self):
        # A model that only sums the top-left 10 × 10 corner of a 28 × 28 image: XRAI's top regions lie there.
        import torch

        class Corner(torch.nn.Module):
            def forward(self, x):
                return x.reshape(x.shape[0], 28, 28)[:, :10, :10].sum(dim=(1, 2)).reshape(-1, 1)
        predictor = ArrayPredictor("torchscript", torch.jit.script(Corner()))
        image = explanations.Baseline(["pixels"], 0.0, image=True)
        x = (np.random.default_rng(3).random(784) * 0.2 + 0.4).tolist()
        entry = _entry(explanations.explain(predictor, image, [x], {"method": "xrai", "numIntegralSteps": 10}))
        saliency = np.asarray(entry["attributions"]["pixels"]).reshape(28, 28)
        top = np.asarray(entry["xrai_top_regions"])
        self.assertEqual(top.shape, (28, 28))
        self.assertGreater(saliency[:10, :10].mean(), saliency[14:, 14:].mean())
        # The corner (100 of 784 pixels) is inside the top 30 % (235 pixels) nearly whole.
        self.assertGreater(top[:10, :10].mean(), 0.9)
        self.assertLess(entry["approx_error"], 1e-4)  # integrated gradients on a linear model: exact
        with self.assertRaisesRegex(explanations.ExplanationError, "image"):
            explanations.explain(predictor, explanations.Baseline(["a"], [0.0]), [[1.0]], {"method": "xrai"})

    def test_xrai_with_a_black_and_a_white_baseline_sees_a_dark_region(self):
        # The paper's reason for two baselines: a model that scores how dark the top-left 10 × 10 corner is, on an
        # image whose corner is black. From the black baseline alone the corner's pixels equal the baseline and get
        # nothing; averaged with the white one each gets (1 − 0) / 2, and XRAI's top regions find the corner.
        import torch

        class DarkCorner(torch.nn.Module):
            def forward(self, x):
                return (1.0 - x.reshape(x.shape[0], 28, 28)[:, :10, :10]).sum(dim=(1, 2)).reshape(-1, 1)
        predictor = ArrayPredictor("torchscript", torch.jit.script(DarkCorner()))
        x = (np.random.default_rng(5).random((28, 28)) * 0.4 + 0.3)
        x[:10, :10] = 0.0
        x = x.reshape(-1).tolist()
        black = explanations.Baseline(["pixels"], 0.0, image=True)
        both = explanations.Baseline(["pixels"], 0.0, image=True, all_values=[0.0, 1.0])
        ig = _entry(explanations.explain(predictor, black, [x], {"method": "integratedGradients"}))
        self.assertEqual(np.abs(np.asarray(ig["attributions"]["pixels"])).max(), 0.0)
        ig = _entry(explanations.explain(predictor, both, [x], {"method": "integratedGradients"}))
        phi = np.asarray(ig["attributions"]["pixels"]).reshape(28, 28)
        np.testing.assert_allclose(phi[:10, :10], 0.5, atol=1e-5)
        self.assertEqual(np.abs(phi[10:, :]).max(), 0.0)
        self.assertEqual((ig["example_score"], ig["baseline_score"], ig["numBaselines"]), (100.0, 50.0, 2))
        entry = _entry(explanations.explain(predictor, both, [x], {"method": "xrai", "numIntegralSteps": 10}))
        top = np.asarray(entry["xrai_top_regions"])
        self.assertGreater(top[:10, :10].mean(), 0.9)
        self.assertLess(entry["approx_error"], 1e-4)

    def test_image_input_gets_an_array_of_its_shape(self):
        import torch
        net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(25, 2))
        predictor = ArrayPredictor("torchscript", torch.jit.script(net))
        image = explanations.Baseline(["image"], 0.0, image=True)
        x = np.random.default_rng(0).random((5, 5)).tolist()
        entry = _entry(explanations.explain(predictor, image, [x], {"method": "integratedGradients"}))
        self.assertEqual(np.asarray(entry["attributions"]["image"]).shape, (5, 5))


@unittest.skipUnless(_have("xgboost") and _have("pandas"), "needs XGBoost and pandas")
class BuiltinModel(unittest.TestCase):
    """A built-in XGBoost model on raw rows (text category, blanks): baselines from its preprocessing.json, sampled
    Shapley complete in probability space, exact Shapley on its 10 columns, and the wrong width refused."""

    def test_builtin_rows_explained_from_their_preprocessing(self):
        import contextlib
        import io
        import support
        from test_serving import diabetes_with_text
        from trainyard_algorithms.serving import BuiltinPredictor
        folder = tempfile.mkdtemp(prefix="explain-", dir=support.scratch())
        train, test, rows = diabetes_with_text(folder, classify=True)
        with contextlib.redirect_stdout(io.StringIO()):
            job = support.job("xgboost", "--preprocess", "--training_data_path=" + train,
                              "--test_data_path=" + test, "--objective=binary:logistic", "--num_boost_round=10")
        self.assertEqual(job.rc, 0, job.describe())
        # The job wrote the service's explanation_metadata.json from its preprocessing; it is what is read.
        self.assertTrue(os.path.exists(os.path.join(job.model_dir, "explanation_metadata.json")))
        baseline = explanations.baselines_for(job.model_dir)
        self.assertEqual(baseline.source, "explanation_metadata.json")
        self.assertEqual(len(baseline.names), len(rows[0]))
        self.assertEqual(baseline.names[1], "column 3")
        self.assertIn(baseline.values[1], ("F", "M"))  # sex: its most frequent value, as text
        predictor = BuiltinPredictor.from_path(job.model_dir)
        answer = explanations.explain(predictor, baseline, rows[:3], {"method": "sampledShapley", "numPaths": 4})
        for i, row in enumerate(rows[:3]):
            entry = _entry(answer, i)
            scores = predictor.predict([row])[0]["scores"]
            self.assertEqual(entry["label_index"], int(np.argmax(scores)))
            self.assertAlmostEqual(entry["example_score"], max(scores), places=6)
            self.assertAlmostEqual(sum(entry["attributions"].values()),
                                   entry["example_score"] - entry["baseline_score"], places=6)
        exact = _entry(explanations.explain(predictor, baseline, rows[:1], {"method": "exactShapley"}))
        self.assertAlmostEqual(sum(exact["attributions"].values()), exact["example_score"] - exact["baseline_score"],
                               places=6)
        with self.assertRaisesRegex(ValueError, "instance 0: 3 values, and the baseline has 10"):
            explanations.explain(predictor, baseline, [[1, 2, 3]], {})

        # The Model tab's global importance: each column's mean |TreeSHAP attribution| over the test split, its
        # one-hot features summed, as computed here from the processed test rows and the booster.
        import xgboost
        from test_serving import processed_inputs
        importance = job.json("artifacts", "feature_importance.json")
        self.assertIn("TreeSHAP", importance["attribution_method"])
        _, x, _, _ = processed_inputs(job)
        contribs = predictor.model.predict(xgboost.DMatrix(x), pred_contribs=True)
        features = job.json("metadata.json")["features"]
        for c in importance["columns"]:
            indices = [i for i, f in enumerate(features) if f["column"] == c["column"]]
            expected = float(np.abs(contribs[:, indices].sum(axis=1)).mean())
            self.assertAlmostEqual(c["mean_abs_attribution"], expected, places=5, msg=str(c))
        self.assertEqual(len(importance["columns"]), 10)


@unittest.skipUnless(_have("torch") and _have("pandas"), "needs PyTorch and pandas")
class BuiltinGradients(unittest.TestCase):
    """Integrated gradients on a built-in PyTorch model's raw rows (issue 47): a categorical column (the text column
    "sex", blanks among it) is integrated along the vectors the model reads it as and summed into one attribution.
    On the linear learner's regression every column's attribution is exact (it equals exact baseline Shapley, the
    model being additive in each column); on the wide & deep (embeddings and the wide part, or one-hot) completeness
    holds within approx_error, a column at its baseline gets nothing, and a booster is refused by name."""

    @classmethod
    def setUpClass(cls):
        import contextlib
        import io
        import support
        from test_serving import diabetes_with_text
        cls.folder = tempfile.mkdtemp(prefix="explain-ig-", dir=support.scratch())
        os.makedirs(os.path.join(cls.folder, "r"))
        os.makedirs(os.path.join(cls.folder, "c"))
        cls.reg = diabetes_with_text(os.path.join(cls.folder, "r"))
        cls.cls = diabetes_with_text(os.path.join(cls.folder, "c"), classify=True)
        cls.quiet = contextlib.redirect_stdout(io.StringIO())

    def job(self, algorithm, table, *args):
        import support
        from trainyard_algorithms.serving import BuiltinPredictor
        train, test, rows = table
        with self.quiet:
            job = support.job(algorithm, "--preprocess", "--training_data_path=" + train,
                              "--test_data_path=" + test, "--seed=5", *args)
        self.assertEqual(job.rc, 0, job.describe())
        return BuiltinPredictor.from_path(job.model_dir), explanations.baselines_for(job.model_dir), rows

    def test_linear_learner_regression_is_exact_per_column(self):
        predictor, baseline, rows = self.job("linear_learner", self.reg, "--model_type=regression",
                                             "--optimizer_type=adam", "--learning_rate=0.05", "--max_steps=100")
        self.assertIn(baseline.values[1], ("F", "M"))
        for row in rows[:4]:
            ig = _entry(explanations.explain(predictor, baseline, [row], {"method": "integratedGradients",
                                                                           "numIntegralSteps": 8}))
            exact = _entry(explanations.explain(predictor, baseline, [row], {"method": "exactShapley"}))
            np.testing.assert_allclose(_vector(ig, baseline.names), _vector(exact, baseline.names), rtol=0,
                                       atol=1e-3 * max(1.0, abs(exact["example_score"])))
            self.assertLess(ig["approx_error"], 1e-4)
            self.assertEqual(ig["input_values"]["column 3"], row[1])
            if row[1] == baseline.values[1]:
                self.assertEqual(ig["attributions"]["column 3"], 0.0)
            else:  # the category moved the prediction by its weight row's difference, all of it to "sex"
                self.assertNotEqual(ig["attributions"]["column 3"], 0.0)

    def check_wide_deep(self, *flags):
        predictor, baseline, rows = self.job("wide_deep", self.cls, "--model_type=classification",
                                             "--dnn_optimizer_type=adam", "--dnn_learning_rate=0.01",
                                             "--max_steps=100", "--hidden_units=8,8", *flags)
        answer = explanations.explain(predictor, baseline, rows[:6], {"method": "integratedGradients",
                                                                       "numIntegralSteps": 50})
        moved = 0
        for i, row in enumerate(rows[:6]):
            entry = _entry(answer, i)
            scores = predictor.predict([row])[0]["scores"]
            self.assertEqual(entry["label_index"], int(np.argmax(scores)))
            self.assertAlmostEqual(entry["example_score"], max(scores), places=5)
            self.assertEqual(set(entry["attributions"]), set(baseline.names))
            gap = abs(sum(entry["attributions"].values()) - (entry["example_score"] - entry["baseline_score"]))
            difference = abs(entry["example_score"] - entry["baseline_score"])
            self.assertLessEqual(gap, entry["approx_error"] * max(difference, 1e-12) + 1e-6)
            self.assertLess(entry["approx_error"], explanations.COMPLETENESS_WARNING)
            if row[1] == baseline.values[1]:
                self.assertEqual(entry["attributions"]["column 3"], 0.0)
            else:
                moved += 1
        self.assertGreater(moved, 0, "the rows should hold a category other than the baseline's")

    def test_wide_deep_with_embeddings_and_the_wide_part(self):
        self.check_wide_deep("--use_wide", "--embed_categories")

    def test_wide_deep_with_one_hot_categories(self):
        self.check_wide_deep()

    def test_a_built_in_booster_is_refused_by_name(self):
        predictor, baseline, rows = self.job("xgboost", self.reg, "--objective=reg:squarederror",
                                             "--num_boost_round=3")
        with self.assertRaisesRegex(explanations.ExplanationError, "XGBoost booster, which has no gradients"):
            explanations.explain(predictor, baseline, rows[:1], {"method": "integratedGradients"})
        with self.assertRaisesRegex(ValueError, "instance 0: 3 values, and the baseline has 10"):
            explanations.explain(predictor, baseline, [[1, 2, 3]], {"method": "integratedGradients"})


class Baselines(unittest.TestCase):
    def _folder(self, name, body):
        folder = tempfile.mkdtemp()
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            json.dump(body, f)
        return folder

    def test_metadata_orders_inputs_by_index(self):
        folder = self._folder("explanation_metadata.json", {"inputs": {
            "b": {"input_baselines": [2.0], "index": 1}, "a": {"input_baselines": [1.0], "index": 0}}})
        b = explanations.baselines_for(folder)
        self.assertEqual(b.names, ["a", "b"])
        self.assertEqual(b.values, [1.0, 2.0])

    def test_malformed_metadata_names_the_field(self):
        folder = self._folder("explanation_metadata.json", {"inputs": {"a": {"input_baselines": 3}}})
        with self.assertRaisesRegex(explanations.ExplanationError, "inputs.a.input_baselines"):
            explanations.baselines_for(folder)

    def test_builtin_preprocessing_gives_means_and_modes(self):
        folder = self._folder("preprocessing.json", {"columns": [
            {"index": 0, "type": "target"}, {"index": 1, "type": "numeric", "mean": 2.5},
            {"index": 2, "type": "categorical", "vocabulary": ["x", "y"], "mode": "y"}]})
        b = explanations.baselines_for(folder)
        self.assertEqual(b.names, ["column 2", "column 3"])
        self.assertEqual(b.values, [2.5, "y"])

    def test_a_folder_without_either_has_no_baseline(self):
        self.assertIsNone(explanations.baselines_for(tempfile.mkdtemp()))


if __name__ == "__main__":
    unittest.main()
