# SPDX-License-Identifier: GPL-2.0-or-later
"""Explanations of a deployed model's predictions: per-feature attributions, in the service's shape.

The service's AI Explanations (``projects.explain``, a version's ``explanationConfig``) answer, per instance and per
explained output, ``{"label_index", "example_score", "baseline_score", "approx_error", "attributions"}``; the
attributions split ``example_score − baseline_score`` (the model's score for the instance, and for the baseline)
among the input features. The methods here:

- ``sampledShapley`` (Maleki et al. 2013, "Bounding the estimation error of sampling-based Shapley value
  approximation", arXiv 1306.4265; the service's reference): for each of ``numPaths`` random permutations of the
  features, walk from the baseline to the instance adding one feature at a time (one model call per path, the
  path's d+1 rows at once); a feature's attribution is the mean of its score steps. Every path's steps sum to
  ``example_score − baseline_score`` exactly, so the mean does too (completeness). ``approx_error`` is the largest
  per-feature standard error of that mean over the paths (sample standard deviation / √numPaths; 0 with one path,
  which cannot estimate it).
- ``exactShapley`` (ours, beyond the service): baseline Shapley values over all 2^d coalitions of at most
  MAX_EXACT_FEATURES features (v(S) is the score of the instance with the features outside S set to the baseline;
  Sundararajan and Najmi 2020, "The many Shapley values for model explanation"), one model call;
  ``approx_error`` 0. Sampled Shapley estimates exactly these values.
- ``integratedGradients`` (Sundararajan, Taly and Yan 2017, "Axiomatic attribution for deep networks"), TorchScript
  models only: the gradient of the score along the straight line from the baseline to the instance, by the
  trapezoid rule over ``numIntegralSteps`` intervals (its ``numIntegralSteps + 1`` points in one batched
  forward/backward), times ``instance − baseline``. ``approx_error`` is the completeness gap relative to the score
  difference, ``|Σ attributions − (example − baseline)| / |example − baseline|``; above 5 % the answer carries a
  warning, as the service advises raising the steps. An image (an instance nested [H][W] or [C][H][W]) gets an
  attribution array of its shape. A built-in algorithm's PyTorch model (linear learner, wide & deep) takes raw
  rows whose categorical columns are integer indices, which have no gradient: each such column is integrated along
  the vectors the model turns it into (its embedding or one-hot block, its wide weight row), from the baseline's
  category to the instance's, and its elements' attributions are summed into the column's
  (serving.BuiltinPredictor.integrated_gradients).
- ``xrai`` (Kapishnikov et al. 2019), TorchScript image models: integrated gradients aggregated over
  Felzenszwalb segments at several scales (scikit-image's segmentation), regions ranked greedily by attribution
  density; the attributions are each pixel's region rank score (they rank, they do not sum to the score
  difference), with ``xrai_top_regions`` (ours), the mask of the top 30 % of the image.
- ``treeShap`` (ours): an XGBoost booster's own TreeSHAP (Lundberg et al. 2020; ``Booster.predict(pred_contribs=
  True)``), exact for the trees, in margin (log-odds) space: ``baseline_score`` is the booster's expected margin
  over its training data (the bias term), ``example_score`` the instance's margin, and the attributions sum to
  their difference. It does not use the baseline instance, so it differs from baseline Shapley unless the model is
  linear in the margin.

Beside the service's fields each entry has ``method``, ``numPaths`` or ``numIntegralSteps``, a ``warning`` when
there is one, and for a list instance ``input_values`` (feature name → the instance's value), all ours.

What a feature and a baseline are comes from the model folder (``baselines_for``): ``explanation_metadata.json``
(the service's format: ``inputs`` name → ``{"input_baselines": [value], "index": i}``, ``index`` ours, the
position in a list instance, else the inputs' order; a single input with ``"modality": "image"`` explains the whole
array), or a built-in algorithm's ``preprocessing.json`` (numeric columns at their training mean, categorical
ones at their most frequent training value, else missing).
"""

import itertools
import json
import math
import os

from . import common

# All coalitions of d features are 2^d rows in one model call: 4,096 at 12.
MAX_EXACT_FEATURES = 12
# The service's defaults and bounds (AI Explanations' "ExplanationConfig" reference: numPaths 1-50 for sampled
# Shapley, numIntegralSteps 1-100 for integrated gradients and XRAI, 50 by default).
DEFAULT_PATHS = 10
MAX_PATHS = 50
DEFAULT_STEPS = 50
MAX_STEPS = 100
# Above this relative completeness gap, integrated gradients' answer says to raise numIntegralSteps.
COMPLETENESS_WARNING = 0.05

METHODS = ("sampledShapley", "integratedGradients", "xrai", "exactShapley", "treeShap")
# XRAI's over-segmentations (Felzenszwalb's scale parameter, as the paper's reference implementation sweeps it for
# 224-pixel images), scaled by the image's size; each segment is dilated by XRAI_DILATION pixels.
XRAI_SCALES = (50, 100, 150, 250, 500, 1200)
XRAI_DILATION = 1
# The share of the image XRAI's "top regions" cover (the answer's xrai_top_regions: a 0/1 mask).
XRAI_TOP_FRACTION = 0.3


class ExplanationError(ValueError):
    """The explanation cannot be computed as asked: the message names the field or file and the rule."""


# ---------------------------------------------------------------------------------------------------------------
# Baselines


class Baseline:
    """What the features of an instance are, and where attributions start from.

    ``names``: one per feature (list instances: by position). ``values``: the baseline instance (a list of the same
    length, a cell may be None = missing), or for an image input one number or an array of the instance's shape.
    ``image``: the instance is one array (integrated gradients attribute each element). ``all_values``: every
    baseline instance, ``values`` first: the metadata's ``input_baselines`` may hold several (XRAI's paper uses a
    black and a white image), and the attributions are then the mean of each baseline's, as the service's
    explanation metadata says ("If multiple baselines are specified, [it] returns the average attributions")."""

    def __init__(self, names, values, image=False, source="", all_values=None):
        self.names = list(names)
        self.values = values
        self.image = image
        self.source = source
        self.all_values = list(all_values) if all_values else [values]


def baselines_for(model_dir):
    """The Baseline of a model folder (module docstring), or None when the folder says nothing about one: the
    executor then refuses explanations with what to add. Raises ExplanationError for a malformed metadata file."""
    path = os.path.join(model_dir, "explanation_metadata.json")
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                metadata = json.load(f)
        except (OSError, ValueError) as e:
            raise ExplanationError("explanation_metadata.json cannot be read: %s" % e) from None
        return _from_metadata(metadata)
    pre = os.path.join(model_dir, "preprocessing.json")
    if os.path.exists(pre):
        with open(pre, encoding="utf-8") as f:
            return _from_preprocessing(json.load(f))
    return None


def _from_metadata(metadata):
    inputs = metadata.get("inputs") if isinstance(metadata, dict) else None
    if not isinstance(inputs, dict) or not inputs:
        raise ExplanationError("explanation_metadata.json: inputs must be an object naming each input feature, "
                               "e.g. {\"inputs\": {\"age\": {\"input_baselines\": [38.0]}}}")
    entries = []
    for order, (name, spec) in enumerate(inputs.items()):
        if not isinstance(spec, dict):
            raise ExplanationError("explanation_metadata.json: inputs.%s must be an object" % name)
        baselines = spec.get("input_baselines", [0])
        if not isinstance(baselines, list) or not baselines:
            raise ExplanationError("explanation_metadata.json: inputs.%s.input_baselines must be a non-empty list "
                                   "(the service's format; its first value is the baseline)" % name)
        index = spec.get("index", order)
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise ExplanationError("explanation_metadata.json: inputs.%s.index must be a position (0, 1, …)" % name)
        entries.append((index, name, baselines, spec.get("modality", "")))
    if len(entries) == 1 and entries[0][3] == "image":
        return Baseline([entries[0][1]], entries[0][2][0], image=True, source="explanation_metadata.json",
                        all_values=entries[0][2])
    entries.sort()
    if [e[0] for e in entries] != list(range(len(entries))):
        raise ExplanationError("explanation_metadata.json: the inputs' index values must be 0 … %d, each once"
                               % (len(entries) - 1))
    # Several baselines: the m-th baseline instance takes each input's m-th value (an input with one value gives
    # it to every baseline instance).
    widest = max(entries, key=lambda e: len(e[2]))
    count = len(widest[2])
    for e in entries:
        if len(e[2]) not in (1, count):
            raise ExplanationError("explanation_metadata.json: inputs.%s.input_baselines has %d values and inputs.%s's "
                                   "has %d: give each input one baseline value or the same number"
                                   % (e[1], len(e[2]), widest[1], count))
    instances = [[e[2][m] if len(e[2]) > 1 else e[2][0] for e in entries] for m in range(count)]
    return Baseline([e[1] for e in entries], instances[0], source="explanation_metadata.json",
                    all_values=instances)


def _from_preprocessing(recorded):
    """A built-in model: one feature per CSV column but the target ("column 2" … as the training CSV numbers
    them), numeric at the training mean, categorical at its most frequent training value ("mode", recorded since
    this module; missing before)."""
    columns = sorted(recorded.get("columns", []), key=lambda c: c["index"])
    names, values = [], []
    for c in columns:
        if c.get("type") == "target" or c["index"] == 0:
            continue
        names.append("column %d" % (c["index"] + 1))
        if c.get("type") == "numeric":
            values.append(float(c.get("mean", 0.0)))
        else:
            values.append(c.get("mode"))
    return Baseline(names, values, source="preprocessing.json (training means and most frequent values)")


def metadata_for_builtin(recorded):
    """The explanation_metadata.json a built-in algorithm's training job writes beside preprocessing.json
    (``recorded``, its body): the service's format, one input per CSV column but the target, its baseline the
    training mean (numeric) or most frequent value (categorical), ``index`` its position in an instance."""
    baseline = _from_preprocessing(recorded)
    return {"inputs": {name: {"input_baselines": [value], "index": j}
                       for j, (name, value) in enumerate(zip(baseline.names, baseline.values))},
            "outputs": {"scores" if recorded.get("task") == "classification" else "value": {}},
            "framework": "trainyard-built-in"}


# ---------------------------------------------------------------------------------------------------------------
# Scores


def score_function(predictor):
    """f(instances) → float64 [N, K]: the scores explanations split (class probabilities, or the predicted value
    as K = 1), from what the predictor is (prediction_server.ArrayPredictor, serving.BuiltinPredictor or a custom
    routine, whose answers must be numbers, lists of numbers or objects with "scores" or "predicted_value")."""
    np = common.require("numpy")

    def as_matrix(out):
        a = np.asarray(out, dtype=np.float64)
        return a.reshape(len(a), -1) if a.ndim != 2 else a

    kind = getattr(predictor, "kind", None)
    if hasattr(predictor, "predict_raw"):  # a built-in algorithm's model
        return lambda rows: as_matrix(predictor.predict_raw(rows))
    if kind == "estimator" and hasattr(predictor.model, "predict_proba"):
        return lambda rows: as_matrix(predictor.model.predict_proba(np.asarray(rows, dtype=np.float64)))
    if kind in ("estimator", "xgboost-booster", "torchscript"):
        return lambda rows: as_matrix(predictor.predict_unchecked(rows))

    def custom(rows):
        answers = predictor.predict(rows)
        scores = []
        for a in answers:
            if isinstance(a, dict):
                a = a.get("scores", a.get("probabilities", a.get("predicted_value")))
            if a is None or isinstance(a, str):
                raise ExplanationError("the prediction routine answers %r, which holds no score to explain (answer "
                                       "numbers, or objects with \"scores\" or \"predicted_value\")" % (a,))
            scores.append(a)
        return as_matrix(scores)
    return custom


def _chosen_outputs(scores, output_indices):
    """The outputs to explain for one instance's scores [K]: ``output_indices``, else the predicted class (the
    largest score; the only output of a regression)."""
    if output_indices:
        for k in output_indices:
            if not isinstance(k, int) or k < 0 or k >= len(scores):
                raise ExplanationError("outputIndices: %r is not an output of this model (it has %d: 0 … %d)"
                                       % (k, len(scores), len(scores) - 1))
        return list(output_indices)
    return [int(scores.argmax())] if len(scores) > 1 else [0]


# ---------------------------------------------------------------------------------------------------------------
# Methods on tabular instances (a list of d values)


def _mix(instance, baseline, mask):
    """The row with instance's values where mask is true, the baseline's elsewhere."""
    return [x if m else b for x, b, m in zip(instance, baseline, mask)]


def sampled_shapley(f, instance, baseline, num_paths, rng):
    """(attributions [d, K], example [K], baseline [K], standard errors [d, K]) by num_paths random permutations
    (module docstring). f: rows → [N, K]."""
    np = common.require("numpy")
    d = len(instance)
    per_path = []
    example = base = None
    for _ in range(num_paths):
        order = rng.permutation(d)
        mask = [False] * d
        rows = [list(baseline)]
        for j in order:
            mask[j] = True
            rows.append(_mix(instance, baseline, mask))
        scores = f(rows)  # [d + 1, K]
        steps = np.diff(scores, axis=0)  # step t adds feature order[t]
        phi = np.empty_like(steps)
        phi[order] = steps
        per_path.append(phi)
        base, example = scores[0], scores[-1]
    stack = np.stack(per_path)  # [paths, d, K]
    error = stack.std(axis=0, ddof=1) / math.sqrt(num_paths) if num_paths > 1 else np.zeros_like(stack[0])
    return stack.mean(axis=0), example, base, error


def exact_shapley(f, instance, baseline):
    """(attributions [d, K], example [K], baseline [K]): baseline Shapley values over all 2^d coalitions."""
    np = common.require("numpy")
    d = len(instance)
    if d > MAX_EXACT_FEATURES:
        raise ExplanationError("exactShapley: the model has %d features; exact Shapley values take 2^d model rows and "
                               "are offered up to %d features (use sampledShapley)" % (d, MAX_EXACT_FEATURES))
    masks = list(itertools.product((False, True), repeat=d))
    scores = f([_mix(instance, baseline, m) for m in masks])  # [2^d, K]
    index = {m: i for i, m in enumerate(masks)}
    weight = [math.factorial(s) * math.factorial(d - s - 1) / math.factorial(d) for s in range(d)]
    phi = np.zeros((d, scores.shape[1]))
    for m, i in index.items():
        size = sum(m)
        for j in range(d):
            if not m[j]:
                with_j = m[:j] + (True,) + m[j + 1:]
                phi[j] += weight[size] * (scores[index[with_j]] - scores[i])
    return phi, scores[-1], scores[0]


def tree_shap(predictor, instance):
    """(attributions [d, K], example margin [K], expected margin [K]) from an XGBoost booster's pred_contribs."""
    np = common.require("numpy")
    xgb = common.require("xgboost")
    if getattr(predictor, "kind", None) != "xgboost-booster":
        raise ExplanationError("treeShap: only an XGBoost booster (model.bst, or a booster in model.joblib/model.pkl) "
                               "has TreeSHAP; this model is %s" % getattr(predictor, "kind", "a custom routine"))
    matrix = xgb.DMatrix(np.asarray([instance], dtype=np.float64))
    contribs = np.asarray(predictor.model.predict(matrix, pred_contribs=True))[0]  # [d+1] or [K, d+1]
    if contribs.ndim == 1:
        contribs = contribs[None, :]
    phi = contribs[:, :-1].T  # [d, K]
    bias = contribs[:, -1]
    return phi, bias + phi.sum(axis=0), bias


def integrated_gradients(predictor, instance, baseline, steps, outputs):
    """{k: (attributions array of the instance's shape, example score, baseline score)} for each output k of a
    TorchScript model: one batched forward/backward over the path's steps + 1 points (module docstring)."""
    if hasattr(predictor, "integrated_gradients"):  # a built-in model: raw rows, categories through embeddings
        return predictor.integrated_gradients(instance, baseline, steps, outputs)
    np = common.require("numpy")
    torch = common.require("torch")
    if getattr(predictor, "kind", None) != "torchscript":
        raise ExplanationError("integratedGradients: only a PyTorch TorchScript model (model.pt) has gradients "
                               "here; use sampledShapley")
    x = torch.as_tensor(np.asarray(instance, dtype=np.float32))
    b = torch.as_tensor(np.broadcast_to(np.asarray(baseline, dtype=np.float32), x.shape).copy())
    alphas = torch.linspace(0.0, 1.0, steps + 1).reshape((-1,) + (1,) * x.dim())
    points = (b + alphas * (x - b)).detach().requires_grad_(True)
    out = predictor.model(points)
    out = out.reshape(steps + 1, -1)
    answers = {}
    for k in outputs:
        if k >= out.shape[1]:
            raise ExplanationError("outputIndices: %d is not an output of this model (it has %d)" % (k, out.shape[1]))
        grads, = torch.autograd.grad(out[:, k].sum(), points, retain_graph=True)
        trapezoid = (grads[:-1] + grads[1:]).sum(dim=0) / (2.0 * steps)
        phi = (trapezoid * (x - b)).detach().numpy().astype(np.float64)
        answers[k] = (phi, float(out[-1, k]), float(out[0, k]))
    return answers


def _image_layout(shape):
    """(height, width, channels, to_hwc) for an image instance's shape: [H, W], [H, W, C], [C, H, W] (C 1 or 3), or
    a flat square of at least 8 × 8 (the Fashion-MNIST sample's 784 pixels); raises ExplanationError otherwise."""
    np = common.require("numpy")
    if len(shape) == 1:
        side = int(round(math.sqrt(shape[0])))
        if side >= 8 and side * side == shape[0]:
            return side, side, 1, lambda a: np.reshape(a, (side, side, 1))
    elif len(shape) == 2:
        return shape[0], shape[1], 1, lambda a: np.reshape(a, (shape[0], shape[1], 1))
    elif len(shape) == 3 and shape[0] in (1, 3) and shape[2] not in (1, 3):
        return shape[1], shape[2], shape[0], lambda a: np.transpose(np.asarray(a), (1, 2, 0))
    elif len(shape) == 3 and shape[2] in (1, 3):
        return shape[0], shape[1], shape[2], lambda a: np.asarray(a)
    raise ExplanationError("xrai explains an image ([H][W], [H][W][C], [C][H][W], or a flat square of pixels); "
                           "this instance's shape is %s" % (list(shape),))


def averaged_gradients(predictor, instance, baselines, steps, outputs):
    """integrated_gradients() from each of ``baselines`` (a list of baseline instances), averaged: {k: (mean
    attributions, example score, mean baseline score)}. The mean keeps completeness (its sum is the example score
    minus the mean baseline score)."""
    np = common.require("numpy")
    runs = [integrated_gradients(predictor, instance, b, steps, outputs) for b in baselines]
    return {k: (np.mean([r[k][0] for r in runs], axis=0), runs[0][k][1], float(np.mean([r[k][2] for r in runs])))
            for k in runs[0]}


def xrai(predictor, instance, baselines, steps, outputs):
    """{k: (saliency array of the instance's shape, example score, baseline score, top-regions mask)} by XRAI
    (Kapishnikov et al. 2019, arXiv 1906.02825): integrated gradients (averaged over ``baselines``, a list: the
    paper's are a black and a white image; the metadata's input_baselines), summed over the
    segments of Felzenszwalb over-segmentations at XRAI_SCALES (scikit-image), each dilated; regions are then taken
    greedily by attribution per pixel of what they add, and each pixel's saliency is the gain of the region that
    first covered it (so the first regions rank highest). The attributions' sum is not the score difference: XRAI
    ranks regions, and approx_error is integrated gradients' completeness gap."""
    np = common.require("numpy")
    try:
        from skimage.segmentation import felzenszwalb
        from scipy.ndimage import binary_dilation
    except ImportError:
        raise ExplanationError("xrai needs scikit-image (python3-skimage) and SciPy on the executor's host") from None
    x = np.asarray(instance, dtype=np.float64)
    height, width, channels, to_hwc = _image_layout(x.shape)
    image = to_hwc(x)
    lo, hi = float(image.min()), float(image.max())
    normalised = (image - lo) / (hi - lo) if hi > lo else np.zeros_like(image)
    size_factor = (height * width) / (224.0 * 224.0)
    segments = []
    for scale in XRAI_SCALES:
        labels = felzenszwalb(normalised if channels == 3 else normalised[:, :, 0], scale=max(1.0, scale * size_factor),
                              sigma=0.8, min_size=max(4, int(150 * size_factor)),
                              channel_axis=-1 if channels == 3 else None)
        for label in np.unique(labels):
            mask = binary_dilation(labels == label, iterations=XRAI_DILATION)
            segments.append(mask)
    answers = {}
    for k, (phi, example, base) in averaged_gradients(predictor, instance, baselines, steps, outputs).items():
        per_pixel = to_hwc(phi).sum(axis=2)  # [H, W]
        saliency = np.full((height, width), -np.inf)
        covered = np.zeros((height, width), dtype=bool)
        remaining = list(segments)
        while remaining and not covered.all():
            best, best_gain = None, -np.inf
            for i, mask in enumerate(remaining):
                new = mask & ~covered
                n = int(new.sum())
                if n == 0:
                    continue
                gain = float(per_pixel[new].sum()) / n
                if gain > best_gain:
                    best, best_gain = i, gain
            if best is None:
                break
            new = remaining.pop(best) & ~covered
            saliency[new] = best_gain
            covered |= new
        saliency[~covered] = per_pixel[~covered]
        order = np.argsort(-saliency, axis=None)
        top = np.zeros(height * width, dtype=np.int8)
        top[order[:max(1, int(XRAI_TOP_FRACTION * height * width))]] = 1
        shaped = np.broadcast_to(saliency[:, :, None], (height, width, channels))
        # Back to the instance's own layout.
        if x.ndim == 1:
            out = shaped.reshape(-1)
        elif x.ndim == 2:
            out = shaped[:, :, 0]
        elif x.shape[0] in (1, 3) and x.shape[2] not in (1, 3):
            out = np.transpose(shaped, (2, 0, 1))
        else:
            out = shaped
        answers[k] = (np.ascontiguousarray(out), example, base, top.reshape(height, width), phi)
    return answers


# ---------------------------------------------------------------------------------------------------------------
# The answer


def _config(config):
    method = config.get("method", "sampledShapley")
    if method not in METHODS:
        raise ExplanationError("explanationConfig: %r is not a method here (%s)" % (method, ", ".join(METHODS)))
    paths = config.get("numPaths", DEFAULT_PATHS) or DEFAULT_PATHS
    steps = config.get("numIntegralSteps", DEFAULT_STEPS) or DEFAULT_STEPS
    if not isinstance(paths, int) or not 1 <= paths <= MAX_PATHS:
        raise ExplanationError("sampledShapleyAttribution.numPaths must be 1 … %d" % MAX_PATHS)
    if not isinstance(steps, int) or not 1 <= steps <= MAX_STEPS:
        raise ExplanationError("integratedGradientsAttribution.numIntegralSteps must be 1 … %d" % MAX_STEPS)
    return method, paths, steps


def explain(predictor, baseline, instances, config, seed=0):
    """The service's answer for ``instances``: ``{"explanations": [{"attributions_by_label": [...]}, …]}``, one per
    instance (module docstring). ``config``: {"method", "numPaths", "numIntegralSteps", "outputIndices"}. Raises
    ExplanationError (the request's fault) or InstanceError-like ValueError("instance i: …")."""
    np = common.require("numpy")
    method, paths, steps = _config(config)
    if baseline is None and method != "treeShap":
        raise ExplanationError("this version has no baseline: add explanation_metadata.json to the model folder "
                               "(inputs with input_baselines)")
    rng = np.random.default_rng(seed)
    f = score_function(predictor)
    out = []
    for i, instance in enumerate(instances):
        labels = []
        if method == "xrai":
            if baseline is None or not baseline.image:
                raise ExplanationError("xrai explains image inputs: explanation_metadata.json must name one input "
                                       "with \"modality\": \"image\"")
            scores = f([instance])[0]
            chosen = _chosen_outputs(scores, config.get("outputIndices"))
            for k, (saliency, example, base, top, phi) in xrai(predictor, instance, baseline.all_values, steps,
                                                               chosen).items():
                gap = abs(float(phi.sum()) - (example - base))
                relative = gap / abs(example - base) if abs(example - base) > 1e-12 else gap
                entry = _entry(k, example, base, relative, saliency, baseline, method, steps)
                entry["xrai_top_regions"] = top.tolist()
                labels.append(entry)
            out.append({"attributions_by_label": labels})
            continue
        if method == "integratedGradients":
            flat = isinstance(instance, list) and not baseline.image and not any(isinstance(v, list) for v in instance)
            if flat and len(instance) != len(baseline.values):
                raise ValueError("instance %d: %d values, and the baseline has %d (%s)"
                                 % (i, len(instance), len(baseline.values), baseline.source))
            scores = f([instance])[0]
            chosen = _chosen_outputs(scores, config.get("outputIndices"))
            for k, (phi, example, base) in averaged_gradients(predictor, instance, baseline.all_values, steps,
                                                              chosen).items():
                gap = abs(float(phi.sum()) - (example - base))
                relative = gap / abs(example - base) if abs(example - base) > 1e-12 else gap
                entry = _entry(k, example, base, relative, phi, baseline, method, steps)
                if relative > COMPLETENESS_WARNING:
                    entry["warning"] = ("the attributions miss the score difference by %.1f %%: raise "
                                        "integratedGradientsAttribution.numIntegralSteps (now %d)"
                                        % (100 * relative, steps))
                if flat:
                    entry["input_values"] = {name: _plain(v) for name, v in zip(baseline.names, instance)}
                labels.append(entry)
            out.append({"attributions_by_label": labels})
            continue
        if not isinstance(instance, list):
            raise ValueError("instance %d: %s explains a list of feature values, got %s"
                             % (i, method, type(instance).__name__))
        if baseline is not None and len(instance) != len(baseline.values):
            raise ValueError("instance %d: %d values, and the baseline has %d (%s)"
                             % (i, len(instance), len(baseline.values), baseline.source))
        if method == "treeShap":
            phi, example, base = tree_shap(predictor, instance)
            error = np.zeros_like(phi)
        elif method == "exactShapley":
            runs = [exact_shapley(f, instance, b) for b in baseline.all_values]
            phi, example, base = _mean_over_baselines(runs)
            error = np.zeros_like(phi)
        else:
            runs = [sampled_shapley(f, instance, b, paths, rng) for b in baseline.all_values]
            phi, example, base = _mean_over_baselines(runs)
            # The mean of independent estimates: its standard error is the root of the summed squares over B.
            error = np.sqrt(sum(r[3] ** 2 for r in runs)) / len(runs)
        chosen = _chosen_outputs(example if method != "treeShap" else f([instance])[0], config.get("outputIndices"))
        for k in chosen:
            if k >= phi.shape[1]:
                k_phi = 0 if phi.shape[1] == 1 else k  # a binary booster's one margin explains class 1
            else:
                k_phi = k
            entry = _entry(k, float(example[k_phi]), float(base[k_phi]), float(error[:, k_phi].max()),
                           phi[:, k_phi], baseline, method, paths)
            # Ours: each feature's value in the instance, so that a reader shows "age = 38" beside its bar.
            names = baseline.names if baseline is not None else ["feature %d" % j for j in range(len(instance))]
            entry["input_values"] = {name: _plain(v) for name, v in zip(names, instance)}
            labels.append(entry)
        out.append({"attributions_by_label": labels})
    return {"explanations": out}


def _mean_over_baselines(runs):
    """(mean attributions, example, mean baseline score) of per-baseline (attributions, example, baseline, …)."""
    np = common.require("numpy")
    return (np.mean([r[0] for r in runs], axis=0), runs[0][1], np.mean([r[2] for r in runs], axis=0))


def _plain(value):
    """A cell as JSON can carry it: numbers and text as they are, anything else as its str()."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value if not (isinstance(value, float) and not math.isfinite(value)) else None
    return str(value)


def _entry(k, example, base, error, phi, baseline, method, count):
    names = baseline.names if baseline is not None else ["feature %d" % j for j in range(len(phi))]
    entry = {"label_index": int(k), "example_score": example, "baseline_score": base, "approx_error": error,
             "method": method}
    if baseline is not None and len(baseline.all_values) > 1:
        entry["numBaselines"] = len(baseline.all_values)  # ours: the attributions are the mean over these
    if method == "sampledShapley":
        entry["numPaths"] = count
    elif method in ("integratedGradients", "xrai"):
        entry["numIntegralSteps"] = count
    if baseline is not None and baseline.image:
        entry["attributions"] = {names[0]: phi.tolist()}
    elif getattr(phi, "ndim", 1) > 1:  # integrated gradients on a nested tabular instance
        entry["attributions"] = {names[0] if len(names) == 1 else "input": phi.tolist()}
    else:
        entry["attributions"] = {name: float(v) for name, v in zip(names, phi)}
    return entry
