# SPDX-License-Identifier: GPL-2.0-or-later
"""Evidence (issue 44): every built-in algorithm, given only what the service requires, against the simplest
scikit-learn model a data scientist would try, on tables the package was not tuned for.

Tables (target first, no header, as the service's CSV): scikit-learn's iris (sorted by class, as scikit-learn
ships it), wine (sorted by class), breast cancer (text labels), digits (8×8 pixels 0..16) and diabetes
(regression), all from Debian's python3-sklearn; and ``tests/data/builtin/sorted_gaps.csv`` (written by
:func:`write_gaps_table`): 3 unbalanced classes sorted by class, two text columns, integers in grams beside
decimals in millimetres, a few blank numbers and a column that is 90 % blank.

Splits: 5 stratified folds (``StratifiedKFold(5, shuffle=True, random_state=SPLIT_SEED)``; regression stratified
on the target's quintiles), so every row is tested once. Each fold's training rows keep the file's order (a sorted
table stays sorted) and are written as the service's CSV.

Ours: the package's own job, in process (``trainyard_algorithms.<module>.main(argv)``: --preprocess, the split,
training, the model export), with ``--preprocess --training_data_path=TRAIN --test_data_path=TEST`` plus only
what the service requires for the task — ``--objective`` (XGBoost: binary:logistic, multi:softprob or
reg:linear) or ``--model_type`` (linear learner, wide & deep) — and ``--seed=<fold>``, which only fixes the random
draws (validation rows, initialisation, batches) so that a run can be repeated; every other value is our default.
The figure is the exported model's, through the serving path (``serving.BuiltinPredictor`` on the raw test rows),
so every test row counts, including rows --preprocess would drop for missing values.

Reference: one standard scikit-learn pipeline fitted on the whole training file: numbers mean-imputed and
standardised, text columns most-frequent-imputed and one-hot encoded (pandas' dtype says which: a column with any
text is text); then LogisticRegression (max_iter 1000: to convergence) / LinearRegression (linear learner),
MLPClassifier / MLPRegressor with hidden layers (64, 32) (wide & deep; the regressor on a standardised target),
HistGradientBoostingClassifier / Regressor (XGBoost), scikit-learn's defaults otherwise.

Figures: mean test accuracy over the folds (classification), mean test RMSE and R² (regression). Goal: accuracy
at most GOAL_ACCURACY below the reference's, RMSE at most GOAL_RMSE_FACTOR times; the test fails past
FAIL_ACCURACY / FAIL_RMSE_FACTOR (issue 44).

    /usr/bin/python3 tests/algorithms/evidence.py [--tables iris,wine] [--algorithms linear_learner] [--workers 2]

prints the table as Markdown (resources/algorithms/README.md §9 holds it); ``test_evidence`` is the ctest part.
"""

import argparse
import contextlib
import io
import math
import multiprocessing
import os
import sys
import tempfile
import time
import unittest
import warnings

# One thread per worker: the workers run side by side, and one thread keeps XGBoost and PyTorch results
# independent of the core count. Set before numpy, torch or xgboost are first imported.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import support  # noqa: E402  (puts resources/algorithms on sys.path)

SPLITS = 5
SPLIT_SEED = 44
GOAL_ACCURACY = 0.02
FAIL_ACCURACY = 0.05
GOAL_RMSE_FACTOR = 1.05
FAIL_RMSE_FACTOR = 1.10

ALGORITHMS = ("xgboost", "linear_learner", "wide_deep")
# (name, task, how the rows are read). Every table lists its rows as lists of cell texts, target first.
TABLES = (
    ("iris", "classification"),
    ("wine", "classification"),
    ("breast_cancer", "classification"),
    ("digits", "classification"),
    ("sorted_gaps", "classification"),
    ("diabetes", "regression"),
)
GAPS_TABLE = support.data("sorted_gaps.csv")


# ---------------------------------------------------------------------------------------------------------------
# Tables


def _cell(value):
    """A number as the CSV writes it: integers without ".0", others by repr (shortest round-trip)."""
    if isinstance(value, str):
        return value
    if value != value:
        return ""
    if float(value) == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def load_rows(name):
    """The table's rows: lists of cell texts ("" = missing), the target first."""
    if name in ("wine", "breast_cancer", "diabetes"):
        return support.read_rows(support.data(name + ".csv"))
    if name == "sorted_gaps":
        return support.read_rows(GAPS_TABLE)
    from sklearn import datasets
    if name == "iris":
        bunch = datasets.load_iris()  # sorted by class: 50 setosa, 50 versicolor, 50 virginica
        labels = [str(bunch.target_names[t]) for t in bunch.target]
    elif name == "digits":
        bunch = datasets.load_digits()
        labels = [str(int(t)) for t in bunch.target]
    else:
        raise ValueError("unknown table %r" % name)
    return [[label] + [_cell(v) for v in row] for label, row in zip(labels, bunch.data.tolist())]


def write_gaps_table(path, seed=44):
    """Writes the table of our own (module docstring): 342 rows, sorted by class (rock 150, reef 124, shore 68).

    Columns: class (text); site (text, 3 values, tied to the class); length_mm (decimal); depth_mm (decimal);
    fin_mm (integer, 170..240: numeric by the type rule); mass_g (integer grams, 2,700..6,300); sex (text, 3 %
    blank); year (2007..2009, noise: categorical by the type rule); tag (decimal, 90 % blank, class-dependent
    where present). Every numeric column has about 2 % blanks. numpy's default_rng(seed) draws it; the file is
    committed, so the figures do not depend on numpy's stream."""
    import numpy as np
    rng = np.random.default_rng(seed)
    classes = (  # name, rows, site probabilities (north, south, cay), means of length, depth, fin, mass, tag
        ("rock", 150, (0.3, 0.35, 0.35), 38.8, 18.3, 190.0, 3700.0, 1.0),
        ("reef", 124, (0.0, 1.0, 0.0), 48.8, 18.4, 196.0, 3730.0, 2.0),
        ("shore", 68, (1.0, 0.0, 0.0), 47.5, 15.0, 217.0, 5080.0, 3.0),
    )
    rows = []
    for name, n, sites, length, depth, fin, mass, tag in classes:
        for _ in range(n):
            male = rng.random() < 0.5
            row = [name,
                   ["north", "south", "cay"][rng.choice(3, p=sites)],
                   "%.1f" % (length + (2.0 if male else -2.0) + rng.normal(0, 2.2)),
                   "%.1f" % (depth + (0.6 if male else -0.6) + rng.normal(0, 0.8)),
                   "%d" % round(fin + (3 if male else -3) + rng.normal(0, 5.5)),
                   "%d" % round(mass + (350 if male else -350) + rng.normal(0, 300)),
                   "male" if male else "female",
                   "%d" % rng.integers(2007, 2010),
                   "%.2f" % (tag + rng.normal(0, 0.5))]
            for column in (2, 3, 4, 5):
                if rng.random() < 0.02:
                    row[column] = ""
            if rng.random() < 0.03:
                row[6] = ""
            if rng.random() < 0.90:
                row[8] = ""
            rows.append(row)
    support.write_csv(path, rows)
    return path


def folds(rows, task):
    """SPLITS (training positions, test positions) pairs: stratified by class, or by the target's quintiles."""
    import numpy as np
    from sklearn.model_selection import StratifiedKFold
    target = [r[0] for r in rows]
    if task == "regression":
        values = np.asarray([float(t) for t in target])
        strata = np.searchsorted(np.quantile(values, [0.2, 0.4, 0.6, 0.8]), values)
    else:
        strata = np.asarray(target)
    splitter = StratifiedKFold(n_splits=SPLITS, shuffle=True, random_state=SPLIT_SEED)
    return [(np.sort(train), np.sort(test)) for train, test in splitter.split(np.zeros(len(rows)), strata)]


# ---------------------------------------------------------------------------------------------------------------
# One fold: ours and the reference


def required_arguments(algorithm, task, classes):
    """What the service requires for the task, and nothing else (module docstring)."""
    if algorithm == "xgboost":
        if task == "regression":
            return ["--objective=reg:linear"]
        return ["--objective=" + ("binary:logistic" if classes == 2 else "multi:softprob")]
    return ["--model_type=" + task]


def score(task, truth, predicted):
    """Accuracy (classification: ``predicted`` labels as text) or (rmse, r2) (regression)."""
    import numpy as np
    if task == "classification":
        return {"accuracy": float(np.mean(np.asarray(truth) == np.asarray(predicted)))}
    y = np.asarray(truth, dtype=np.float64)
    p = np.asarray(predicted, dtype=np.float64)
    mse = float(np.mean((p - y) ** 2))
    return {"rmse": math.sqrt(mse), "r2": 1.0 - mse / float(np.var(y))}


def run_ours(algorithm, task, train_path, test_rows, job_dir, seed, extra=()):
    """Trains with the package's own entry point and scores the exported model on every test row.
    Returns (metrics, seconds, log text)."""
    import importlib
    from trainyard_algorithms import serving
    module = importlib.import_module("trainyard_algorithms." + support.MODULES[algorithm])
    classes = len({r[0] for r in support.read_rows(train_path)})
    argv = (["--preprocess", "--training_data_path=" + train_path,
             "--test_data_path=" + os.path.join(os.path.dirname(train_path), "test.csv")]
            + required_arguments(algorithm, task, classes) + ["--seed=%d" % seed] + list(extra)
            + ["--job-dir", job_dir])
    env = support.environment(algorithm)
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    out = io.StringIO()
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            module.main(argv)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    seconds = time.perf_counter() - start
    predictor = serving.BuiltinPredictor.from_path(os.path.join(job_dir, "model"))
    answers = predictor.predict([r[1:] for r in test_rows])
    truth = [r[0] for r in test_rows]
    if task == "classification":
        predicted = [a["predicted_label"] for a in answers]
    else:
        predicted = [a["predicted_value"] for a in answers]
    return score(task, truth, predicted), seconds, out.getvalue()


def read_frame(source):
    """The service's CSV (a path or a text stream) as pandas reads it: numbers as numbers, blanks as NaN; columns
    named c0 (the target), c1, … (ColumnTransformer would read integer names as positions)."""
    import pandas as pd
    frame = pd.read_csv(source, header=None, na_values=[""], keep_default_na=False)
    frame.columns = ["c%d" % c for c in range(frame.shape[1])]
    return frame


def frame_of(rows):
    """Rows of cell texts as :func:`read_frame` reads them from a file."""
    return read_frame(io.StringIO("\n".join(",".join(r) for r in rows) + "\n"))


def reference_model(algorithm, task, frame, seed):
    """The standard pipeline (module docstring) for ``frame``'s feature columns (1..C-1)."""
    from sklearn.compose import ColumnTransformer, TransformedTargetRegressor
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.neural_network import MLPClassifier, MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    features = list(frame.columns[1:])
    text = [c for c in features if frame[c].dtype == object]
    numbers = [c for c in features if c not in text]
    prepare = ColumnTransformer(
        [("numbers", make_pipeline(SimpleImputer(strategy="mean"), StandardScaler()), numbers),
         ("text", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                OneHotEncoder(handle_unknown="ignore", sparse_output=False)), text)])
    classification = task == "classification"
    if algorithm == "linear_learner":
        # max_iter: lbfgs to convergence (the default 100 stops short on digits' 64 columns).
        model = LogisticRegression(max_iter=1000) if classification else LinearRegression()
    elif algorithm == "wide_deep":
        if classification:
            model = MLPClassifier((64, 32), random_state=seed)
        else:
            model = TransformedTargetRegressor(MLPRegressor((64, 32), random_state=seed),
                                               transformer=StandardScaler())
    else:
        model = (HistGradientBoostingClassifier(random_state=seed) if classification
                 else HistGradientBoostingRegressor(random_state=seed))
    return make_pipeline(prepare, model)


def run_reference(algorithm, task, train_rows, test_rows, seed):
    train = frame_of(train_rows)
    test = frame_of(test_rows)
    for c in train.columns[1:]:  # a test fold's column reads as the training file's does
        if train[c].dtype == object:
            test[c] = test[c].map(lambda v: v if v != v else _cell(v))
    model = reference_model(algorithm, task, train, seed)
    y = train["c0"].astype(str) if task == "classification" else train["c0"].astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence warnings of the MLP on small tables
        model.fit(train.iloc[:, 1:], y)
        predicted = model.predict(test.iloc[:, 1:])
    truth = [r[0] for r in test_rows]
    return score(task, truth, [str(p) for p in predicted] if task == "classification" else predicted)


def run_fold(job):
    """One (table, algorithm, fold): {"ours", "reference", "seconds", "log"}; in a worker process."""
    table, task, algorithm, fold, train_path, train_rows, test_rows, folder, extra = job
    ours, seconds, log = run_ours(algorithm, task, train_path, test_rows, os.path.join(folder, algorithm), fold,
                                  extra)
    reference = run_reference(algorithm, task, train_rows, test_rows, fold)
    return {"table": table, "task": task, "algorithm": algorithm, "fold": fold, "ours": ours,
            "reference": reference, "seconds": seconds, "log": log}


# ---------------------------------------------------------------------------------------------------------------
# The whole table


def evaluate(tables=None, algorithms=None, workers=2, extra=None, progress=None):
    """Runs every (table, algorithm, fold); returns one summary per (table, algorithm) in TABLES × ALGORITHMS
    order: {"table", "task", "algorithm", "metric", "ours", "reference", "ours_r2", "reference_r2", "folds",
    "seconds"} with the fold means. ``extra``: {algorithm: [arguments]} added to ours (tuning experiments)."""
    folder = tempfile.mkdtemp(prefix="evidence-", dir=support.scratch())
    jobs = []
    for table, task in TABLES:
        if tables and table not in tables:
            continue
        rows = load_rows(table)
        for fold, (train, test) in enumerate(folds(rows, task)):
            fold_dir = os.path.join(folder, table, str(fold))
            os.makedirs(fold_dir)
            train_rows = [rows[i] for i in train]
            test_rows = [rows[i] for i in test]
            train_path = support.write_csv(os.path.join(fold_dir, "train.csv"), train_rows)
            support.write_csv(os.path.join(fold_dir, "test.csv"), test_rows)
            for algorithm in ALGORITHMS:
                if algorithms and algorithm not in algorithms:
                    continue
                jobs.append((table, task, algorithm, fold, train_path, train_rows, test_rows, fold_dir,
                             tuple((extra or {}).get(algorithm, ()))))
    results = []
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for r in pool.imap_unordered(run_fold, jobs):
                results.append(r)
                if progress:
                    progress(r)
    else:
        for job in jobs:
            results.append(run_fold(job))
            if progress:
                progress(results[-1])
    return summarise(results)


def summarise(results):
    order = {(t, a): i for i, (t, a) in enumerate((t, a) for t, _ in TABLES for a in ALGORITHMS)}
    groups = {}
    for r in results:
        groups.setdefault((r["table"], r["algorithm"]), []).append(r)
    out = []
    for (table, algorithm), runs in sorted(groups.items(), key=lambda kv: order[kv[0]]):
        task = runs[0]["task"]
        metric = "accuracy" if task == "classification" else "rmse"

        def mean(side, name):
            return sum(r[side][name] for r in runs) / len(runs)
        row = {"table": table, "task": task, "algorithm": algorithm, "metric": metric, "folds": len(runs),
               "ours": mean("ours", metric), "reference": mean("reference", metric),
               "per_fold": [(r["fold"], r["ours"][metric], r["reference"][metric]) for r in
                            sorted(runs, key=lambda r: r["fold"])],
               "seconds": sum(r["seconds"] for r in runs)}
        if task == "regression":
            row["ours_r2"], row["reference_r2"] = mean("ours", "r2"), mean("reference", "r2")
        out.append(row)
    return out


def verdict(row):
    """"goal", "within the fail margin" or "FAIL" for one summary row (module docstring)."""
    if row["metric"] == "accuracy":
        gap = row["reference"] - row["ours"]
        return "goal" if gap <= GOAL_ACCURACY + 1e-12 else ("margin" if gap <= FAIL_ACCURACY + 1e-12 else "FAIL")
    ratio = row["ours"] / row["reference"]
    return "goal" if ratio <= GOAL_RMSE_FACTOR else ("margin" if ratio <= FAIL_RMSE_FACTOR else "FAIL")


REFERENCE_NAMES = {
    ("xgboost", "classification"): "HistGradientBoostingClassifier",
    ("xgboost", "regression"): "HistGradientBoostingRegressor",
    ("linear_learner", "classification"): "LogisticRegression",
    ("linear_learner", "regression"): "LinearRegression",
    ("wide_deep", "classification"): "MLPClassifier (64, 32)",
    ("wide_deep", "regression"): "MLPRegressor (64, 32)",
}


def markdown(rows):
    lines = ["| table | algorithm | metric | ours | reference | difference | | reference model |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["metric"] == "accuracy":
            ours, ref, diff = "%.3f" % r["ours"], "%.3f" % r["reference"], "%+.3f" % (r["ours"] - r["reference"])
            metric = "accuracy"
        else:
            ours = "%.2f (R² %.3f)" % (r["ours"], r["ours_r2"])
            ref = "%.2f (R² %.3f)" % (r["reference"], r["reference_r2"])
            diff = "%+.1f %%" % (100.0 * (r["ours"] / r["reference"] - 1.0))
            metric = "RMSE"
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["table"], r["algorithm"], metric, ours, ref, diff, verdict(r),
            REFERENCE_NAMES[(r["algorithm"], r["task"])]))
    return "\n".join(lines)


class Evidence(unittest.TestCase):
    """The ctest part (algorithms/evidence): every row of the table within the fail margin of its reference."""

    @classmethod
    def setUpClass(cls):
        start = time.perf_counter()
        cls.rows = evaluate(workers=int(os.environ.get("EVIDENCE_WORKERS", "2")))
        print("\n" + markdown(cls.rows), file=sys.stderr)
        print("(%.0f s)" % (time.perf_counter() - start), file=sys.stderr)

    def test_every_row_is_within_the_margin(self):
        self.assertEqual(len(self.rows), sum(len(ALGORITHMS) for _ in TABLES))
        for r in self.rows:
            with self.subTest("%s %s" % (r["table"], r["algorithm"])):
                self.assertEqual(r["folds"], SPLITS)
                detail = "ours %.4f, reference %.4f; folds %s" % (r["ours"], r["reference"], r["per_fold"])
                if r["metric"] == "accuracy":
                    self.assertGreaterEqual(r["ours"], r["reference"] - FAIL_ACCURACY, detail)
                else:
                    self.assertLessEqual(r["ours"], r["reference"] * FAIL_RMSE_FACTOR, detail)


# ---------------------------------------------------------------------------------------------------------------
# A hyperparameter tuning job over the built-in algorithms' arguments

# The search each trial's arguments come from: the service's argument names, one dict per trial, appended to the
# job's arguments as the executor appends a trial's parameters (the last value of a repeated argument wins). Each
# search holds the service's own defaults (XGBoost 0.81's eta 0.3; the learners' learning rates 0.001) beside
# ours and one more, so the objective has something to choose. Objective: the hypertune tag ``log_loss``
# (classification; accuracy ties on a validation split of 50 rows) or ``rmse``, MINIMIZE, each trial's last
# report (the kept model's, at the last step or round), as the service takes a trial's final measurement.
TUNING_TABLES = (("sorted_gaps", "classification"), ("diabetes", "regression"))
TUNING_TRIALS = {
    "xgboost": ({"eta": "0.3", "max_depth": "6"}, {"eta": "0.1", "max_depth": "6"},
                {"eta": "0.05", "max_depth": "3"}),
    "linear_learner": ({"learning_rate": "0.001"}, {"learning_rate": "0.05"}, {"learning_rate": "0.2"}),
    "wide_deep": ({"dnn_learning_rate": "0.001"}, {"dnn_learning_rate": "0.05"},
                  {"dnn_learning_rate": "0.05", "hidden_units": "64,32"}),
}
# The first three of the evidence's folds: a trial is a process of its own (importing PyTorch costs seconds), and
# 2 tables × 3 folds × 3 algorithms × 3 trials = 54 jobs keep the ctest part near two minutes on two cores.
TUNING_FOLDS = 3


def run_trial(job):
    """One trial as the executor runs it: a subprocess with CLOUD_ML_TRIAL_ID and CLOUD_ML_HP_METRIC_FILE, the
    trial's parameters appended. Returns (trial, its last reported objective value or None, Job)."""
    algorithm, args, job_dir, trial, params, tag = job
    metrics = os.path.join(job_dir, "trials", trial, "hypertune", "output.metrics")
    argv = list(args) + ["--%s=%s" % kv for kv in params.items()]
    result = support.run(algorithm, argv, job_dir=job_dir, timeout=600,
                         extra_env={"CLOUD_ML_TRIAL_ID": trial, "CLOUD_ML_HP_METRIC_FILE": metrics})
    value = None
    if result.rc == 0 and os.path.exists(metrics):
        reports = [r for r in support.read_hypertune(metrics) if tag in r]
        if reports:
            value = float(max(reports, key=lambda r: int(r["global_step"]))[tag])
    return trial, value, result


def tune(workers=2, tables=None, algorithms=None, folds_used=TUNING_FOLDS):
    """Per (table, algorithm, fold): the trials of TUNING_TRIALS, the best by the objective (the lowest), and the
    best trial's
    test figure (its exported model on every test row, as :func:`run_ours`) beside the reference's. Returns one
    summary per (table, algorithm) as :func:`summarise` gives, plus "trials" [(fold, best trial, params)]."""
    from multiprocessing.pool import ThreadPool
    from trainyard_algorithms import serving
    folder = tempfile.mkdtemp(prefix="tuning-", dir=support.scratch())
    jobs, cases = [], []
    for table, task in TUNING_TABLES:
        if tables and table not in tables:
            continue
        rows = load_rows(table)
        tag = "log_loss" if task == "classification" else "rmse"
        for fold, (train, test) in enumerate(folds(rows, task)[:folds_used]):
            fold_dir = os.path.join(folder, table, str(fold))
            os.makedirs(fold_dir)
            train_rows = [rows[i] for i in train]
            test_rows = [rows[i] for i in test]
            train_path = support.write_csv(os.path.join(fold_dir, "train.csv"), train_rows)
            test_path = support.write_csv(os.path.join(fold_dir, "test.csv"), test_rows)
            classes = len({r[0] for r in train_rows})
            for algorithm in ALGORITHMS:
                if algorithms and algorithm not in algorithms:
                    continue
                job_dir = os.path.join(fold_dir, algorithm)
                args = (["--preprocess", "--training_data_path=" + train_path, "--test_data_path=" + test_path]
                        + required_arguments(algorithm, task, classes) + ["--seed=%d" % fold])
                cases.append((table, task, algorithm, fold, job_dir, train_rows, test_rows, tag))
                for i, params in enumerate(TUNING_TRIALS[algorithm]):
                    jobs.append((algorithm, args, job_dir, str(i + 1), params, tag))
    with ThreadPool(workers) as pool:
        outcomes = pool.map(run_trial, jobs)
    by_dir = {}
    for (algorithm, _, job_dir, trial, params, _), (_, value, result) in zip(jobs, outcomes):
        if value is None:
            raise AssertionError("trial %s of %s failed or reported nothing:\n%s" % (trial, job_dir,
                                                                                   result.describe()))
        by_dir.setdefault(job_dir, []).append((value, trial, params))
    results = []
    for table, task, algorithm, fold, job_dir, train_rows, test_rows, tag in cases:
        trials = by_dir[job_dir]
        value, trial, params = min(trials, key=lambda t: t[0])
        predictor = serving.BuiltinPredictor.from_path(os.path.join(job_dir, trial, "model"))
        answers = predictor.predict([r[1:] for r in test_rows])
        key = "predicted_label" if task == "classification" else "predicted_value"
        ours = score(task, [r[0] for r in test_rows], [a[key] for a in answers])
        reference = run_reference(algorithm, task, train_rows, test_rows, fold)
        results.append({"table": table, "task": task, "algorithm": algorithm, "fold": fold, "ours": ours,
                        "reference": reference, "seconds": 0.0, "best": (trial, params, value)})
    rows = summarise(results)
    for row in rows:
        row["trials"] = [(r["fold"],) + r["best"] for r in results
                         if (r["table"], r["algorithm"]) == (row["table"], row["algorithm"])]
    return rows


class Tuning(unittest.TestCase):
    """The ctest part (algorithms/evidence_tuning): a tuning job's best trial, on every fold, within the fail
    margin of the reference."""

    def test_best_trial_reaches_the_reference(self):
        start = time.perf_counter()
        rows = tune(workers=int(os.environ.get("EVIDENCE_WORKERS", "2")))
        print("\n" + markdown(rows), file=sys.stderr)
        for r in rows:
            print("%s %s best trials: %s" % (r["table"], r["algorithm"], r["trials"]), file=sys.stderr)
        print("(%.0f s)" % (time.perf_counter() - start), file=sys.stderr)
        self.assertEqual(len(rows), len(TUNING_TABLES) * len(ALGORITHMS))
        for r in rows:
            with self.subTest("%s %s" % (r["table"], r["algorithm"])):
                self.assertEqual(r["folds"], TUNING_FOLDS)
                detail = "best trials %s; ours %.4f, reference %.4f" % (r["trials"], r["ours"], r["reference"])
                if r["metric"] == "accuracy":
                    self.assertGreaterEqual(r["ours"], r["reference"] - FAIL_ACCURACY, detail)
                else:
                    self.assertLessEqual(r["ours"], r["reference"] * FAIL_RMSE_FACTOR, detail)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", help="comma-separated subset of %s" % ",".join(t for t, _ in TABLES))
    p.add_argument("--algorithms", help="comma-separated subset of %s" % ",".join(ALGORITHMS))
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--extra", action="append", default=[], metavar="ALGORITHM:--ARG=VALUE",
                   help="an argument added to one algorithm's jobs (experiments; repeatable)")
    p.add_argument("--folds", action="store_true", help="print every fold's figures too")
    p.add_argument("--write-gaps-table", action="store_true", help="(re)write %s and exit" % GAPS_TABLE)
    p.add_argument("--tuning", action="store_true", help="the tuning job's table (TUNING_TRIALS) instead")
    args = p.parse_args()
    if args.write_gaps_table:
        print(write_gaps_table(GAPS_TABLE))
        return
    if args.tuning:
        start = time.perf_counter()
        rows = tune(args.workers, args.tables.split(",") if args.tables else None,
                    args.algorithms.split(",") if args.algorithms else None)
        print(markdown(rows))
        for r in rows:
            print("%s %s best trials (fold, trial, arguments, objective): %s" % (r["table"], r["algorithm"],
                                                                                r["trials"]))
        print("%.0f s with %d workers" % (time.perf_counter() - start, args.workers))
        return
    extra = {}
    for item in args.extra:
        algorithm, _, argument = item.partition(":")
        extra.setdefault(algorithm, []).append(argument)
    start = time.perf_counter()
    rows = evaluate(args.tables.split(",") if args.tables else None,
                    args.algorithms.split(",") if args.algorithms else None, args.workers, extra,
                    progress=lambda r: print("%s %s fold %d: ours %s, reference %s (%.1f s)" % (
                        r["table"], r["algorithm"], r["fold"], r["ours"], r["reference"], r["seconds"]),
                        file=sys.stderr, flush=True))
    print(markdown(rows))
    if args.folds:
        for r in rows:
            print("%s %s: %s" % (r["table"], r["algorithm"],
                                 " ".join("%.3f/%.3f" % (o, f) for _, o, f in r["per_fold"])))
    print("%.0f s with %d workers" % (time.perf_counter() - start, args.workers))


if __name__ == "__main__":
    main()
