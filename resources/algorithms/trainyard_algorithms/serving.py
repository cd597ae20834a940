# SPDX-License-Identifier: GPL-2.0-or-later
"""Online prediction for a built-in algorithm's model folder, as a custom prediction routine.

The interface is the service's custom prediction routine ("Predictor" class: ``from_path(model_dir)``, a
classmethod that loads what the folder holds, and ``predict(instances, **kwargs)`` → a JSON-serialisable list,
one answer per instance). Deploy with ``predictionClass: trainyard_algorithms.serving.BuiltinPredictor``.

An instance is a raw row of the training CSV without its target column, either
- a list of C-1 values (numbers, strings; None, "" or NaN = missing; a number given for a text category is
  matched by its str(), so send categories as the CSV wrote them), or
- one CSV line as a string (the CSV's own quoting).
It goes through the preprocessing the training job recorded (``preprocessing.json``: means for missing numbers,
vocabularies, one-hot order), then the model (``model.bst`` with XGBoost, or the TorchScript ``model.pt``).

Answers: classification {"predicted_label": "<label>", "classes": ["<label>", …], "scores": [p, …]} with the
training data's class labels (text, as the CSV wrote them) and one probability per class; regression
{"predicted_value": x}. A malformed instance raises ValueError("instance <i>: …") naming its 0-based index (and a column by the
training CSV's numbering: the target is column 1, an instance's first value column 2).
"""

import csv
import json
import math
import os

from . import common, preprocess


class BuiltinPredictor:
    """Predicts from raw rows with a model folder (``<job-dir>/model``). Not thread-safe; load once per process.
    Raises (from_path) FileNotFoundError for a folder without preprocessing.json or a model file."""

    # Each row is preprocessed and predicted on its own: waiting requests may share one call
    # (prediction_server.answer_all()).
    rows_independent = True

    def __init__(self, model_dir, preprocessor, kind, model):
        self.model_dir = model_dir
        self.preprocessor = preprocessor
        self.kind = kind  # "xgboost" or "torch"
        self.model = model

    @classmethod
    def from_path(cls, model_dir):
        path = os.path.join(model_dir, "preprocessing.json")
        with open(path, encoding="utf-8") as f:
            pre = preprocess.Preprocessor.from_json(json.load(f))
        bst = os.path.join(model_dir, "model.bst")
        pt = os.path.join(model_dir, "model.pt")
        if os.path.exists(bst):
            xgb = common.require("xgboost")
            booster = xgb.Booster(model_file=bst)
            return cls(model_dir, pre, "xgboost", booster)
        if os.path.exists(pt):
            torch = common.require("torch")
            model = torch.jit.load(pt, map_location="cpu")
            model.eval()
            return cls(model_dir, pre, "torch", model)
        raise FileNotFoundError("%s holds neither model.bst nor model.pt" % model_dir)

    @property
    def width(self):
        """Values an instance has: the training CSV's columns without the target."""
        return self.preprocessor.num_columns - 1

    def _rows(self, instances):
        """Instances as lists of C-1 cells; raises ValueError naming the first bad one."""
        if not isinstance(instances, (list, tuple)):
            raise ValueError("instances must be a list, got %s" % type(instances).__name__)
        rows = []
        for i, instance in enumerate(instances):
            if isinstance(instance, str):
                parsed = list(csv.reader([instance]))
                cells = parsed[0] if parsed else []
            elif isinstance(instance, (list, tuple)):
                cells = list(instance)
            else:
                raise ValueError("instance %d: a list of %d values or a CSV line, got %s"
                                 % (i, self.width, type(instance).__name__))
            if len(cells) != self.width:
                raise ValueError("instance %d: %d values, expected %d (the training CSV's columns without the "
                                 "target)" % (i, len(cells), self.width))
            for j, cell in enumerate(cells):
                if cell is not None and not isinstance(cell, (str, int, float)):
                    raise ValueError("instance %d: column %d: %r is neither a number nor text" % (i, j + 2, cell))
                if isinstance(cell, float) and math.isinf(cell):
                    raise ValueError("instance %d: column %d: %r is not a finite number" % (i, j + 2, cell))
            rows.append(cells)
        return rows

    def transform(self, instances):
        """(numeric float32 [N, n_numeric], categorical int64 [N, n_categorical]) as the training job made them."""
        pd = common.require("pandas")
        rows = self._rows(instances)
        frame = pd.DataFrame(rows, columns=range(1, self.width + 1), dtype=object)
        frame = frame.where(frame.notna(), None).replace("", None)
        try:
            return self.preprocessor.transform(frame)
        except preprocess.BadCell as e:
            raise ValueError("instance %d: column %d: %r %s" % (e.row, e.column + 1, e.value, e.problem)) from None

    def predict_raw(self, instances):
        """Probabilities [N, K] (classification) or values [N] (regression), numpy float64."""
        np = common.require("numpy")
        num, cat = self.transform(instances)
        if not len(num):
            return np.zeros((0, len(self.preprocessor.labels or [])) if self.preprocessor.task ==
                            "classification" else (0,))
        if self.kind == "xgboost":
            xgb = common.require("xgboost")
            from .xgboost import probabilities
            matrix = xgb.DMatrix(self.preprocessor.flat(num, cat), missing=np.nan)
            if self.preprocessor.task == "classification":
                return probabilities(np, self.model.predict(matrix, output_margin=True),
                                     len(self.preprocessor.labels))
            return self.model.predict(matrix).astype(np.float64)
        torch = common.require("torch")
        with torch.no_grad():
            out = self.model(torch.as_tensor(num), torch.as_tensor(cat))
        return out.numpy().astype(np.float64)

    def integrated_gradients(self, instance, baseline, steps, outputs):
        """Integrated gradients of a raw row (explanations.integrated_gradients' contract: {k: (attributions
        float64 [C-1], example score, baseline score)}, one attribution per value of an instance). Numeric columns
        are integrated in their own units (the model standardises them); a categorical column, which the model
        reads as integer indices, is integrated along the vectors it becomes (its embedding or one-hot block in
        the deep part, its weight row in the wide or linear part; embed()), from the baseline's category to the
        instance's, and its elements' attributions are summed into the column's. Completeness holds over all
        columns as for any integrated gradients. Raises ExplanationError for an XGBoost model or a model.pt
        trained before embed() existed."""
        np = common.require("numpy")
        torch = common.require("torch")
        from .explanations import ExplanationError
        if self.kind != "torch":
            raise ExplanationError("integratedGradients: this built-in model is an XGBoost booster, which has no "
                                   "gradients; use treeShap or sampledShapley")
        if not hasattr(self.model, "scores_embedded"):
            raise ExplanationError("integratedGradients: this model.pt was trained by an older Trainyard whose "
                                   "models cannot be integrated along their categories; run the training job again "
                                   "or use sampledShapley")
        num, cat = self.transform([instance, baseline])
        num = torch.as_tensor(num)
        cat = torch.as_tensor(cat)
        with torch.no_grad():
            embedded = self.model.embed(cat)
        owner = self.model.core.embedding_columns
        alphas = torch.linspace(0.0, 1.0, steps + 1).reshape(-1, 1)
        num_points = (num[1] + alphas * (num[0] - num[1])).detach().requires_grad_(True)
        emb_points = (embedded[1] + alphas * (embedded[0] - embedded[1])).detach().requires_grad_(True)
        out = self.model.scores_embedded(num_points, emb_points).reshape(steps + 1, -1)
        answers = {}
        for k in outputs:
            if k >= out.shape[1]:
                raise ExplanationError("outputIndices: %d is not an output of this model (it has %d)"
                                       % (k, out.shape[1]))
            g_num, g_emb = torch.autograd.grad(out[:, k].sum(), [num_points, emb_points], retain_graph=True)
            phi_num = ((g_num[:-1] + g_num[1:]).sum(dim=0) / (2.0 * steps)) * (num[0] - num[1])
            phi_emb = ((g_emb[:-1] + g_emb[1:]).sum(dim=0) / (2.0 * steps)) * (embedded[0] - embedded[1])
            phi_cat = torch.zeros(cat.shape[1], dtype=phi_emb.dtype).index_add_(0, owner, phi_emb)
            phi = np.zeros(self.width)
            for j, c in enumerate(self.preprocessor.numeric):
                phi[c["index"] - 1] = float(phi_num[j])
            for j, c in enumerate(self.preprocessor.categorical):
                phi[c["index"] - 1] = float(phi_cat[j])
            answers[k] = (phi, float(out[-1, k]), float(out[0, k]))
        return answers

    def predict(self, instances, **kwargs):
        """One answer per instance (module docstring); ``kwargs`` (the request's other fields) are ignored."""
        out = self.predict_raw(instances)
        if self.preprocessor.task == "classification":
            labels = list(self.preprocessor.labels)
            return [{"predicted_label": labels[int(row.argmax())], "classes": labels,
                     "scores": [float(p) for p in row]} for row in out]
        return [{"predicted_value": float(v)} for v in out]
