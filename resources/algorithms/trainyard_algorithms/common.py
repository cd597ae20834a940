# SPDX-License-Identifier: GPL-2.0-or-later
"""What the three algorithms share: argument parsing, the replica environment, metrics, and the output files.

Errors that fail a job are raised as :class:`JobError` and printed by :func:`run` as one ``ERROR: …`` line on
stderr, exit status 1 (a permanent failure for the executor: no retry). Log lines go to stdout, flushed, so the
executor's per-replica log has them as they happen.
"""

import argparse
import importlib
import json
import math
import os
import socket
import sys
import time
import traceback


def _read_images():
    """images.json beside this file: the one table of Google's algorithm images (also compiled into the programs,
    models/builtinalgorithm.cpp). Sources of the URIs: README.md section 1."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "images.json"), encoding="utf-8") as f:
        return [dict(entry) for entry in json.load(f)["images"]]


# The service's images and what they mean here: image URI -> (module, variant).
IMAGE_TABLE = _read_images()
IMAGES = {entry["imageUri"]: (entry["module"], entry["variant"]) for entry in IMAGE_TABLE}

# What `apt install` brings each library a module imports (Debian 12 package names).
DEBIAN_PACKAGES = {
    "numpy": "python3-numpy",
    "pandas": "python3-pandas",
    "xgboost": "python3-xgboost",
    "torch": "python3-torch",
}

# The runtime version written to builtin_algorithm_output.json when the job names none: the newest that the
# executor accepts (app/executor/scheduling/staging.h). Inferred: the service wrote its images' own version.
DEFAULT_RUNTIME_VERSION = "2.11"


class JobError(Exception):
    """A failure of the job's input or arguments: printed as ``ERROR: <message>``, exit status 1."""


def log(message):
    print(message, flush=True)


def warn(message):
    print("WARNING: " + message, file=sys.stderr, flush=True)


def require(module):
    """Imports a third-party library, or fails the job with the apt line that installs it.

    Raises JobError("... apt install python3-xgboost") when the import fails, naming the import error too (a
    broken install reads differently from a missing one)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        package = DEBIAN_PACKAGES.get(module, "python3-" + module)
        raise JobError("the Python library %s is missing (%s); install it with: sudo apt install %s"
                       % (module, e, package)) from None


def run(main, argv=None):
    """Runs ``main(argv)`` as a job's entry point: JobError and unexpected exceptions exit 1 with ERROR lines."""
    try:
        main(sys.argv[1:] if argv is None else argv)
    except JobError as e:
        print("ERROR: %s" % e, file=sys.stderr, flush=True)
        sys.exit(1)
    except KeyboardInterrupt:
        print("ERROR: interrupted", file=sys.stderr, flush=True)
        sys.exit(130)
    except SystemExit:
        raise
    except BaseException as e:  # a bug or a library failure: keep the traceback for the log
        traceback.print_exc()
        print("ERROR: %s: %s" % (type(e).__name__, e), file=sys.stderr, flush=True)
        sys.exit(1)


# ---------------------------------------------------------------------------------------------------------------
# Arguments


class ArgumentParser(argparse.ArgumentParser):
    """argparse with the service's failure shape: ``ERROR: argument --max_depth: …`` on stderr, exit 1.

    Abbreviations are off (``--max_dep`` is unknown, not ``--max_depth``): the service matches names exactly.
    A repeated argument keeps its last value, so a tuning trial's ``--eta=…`` appended after the job's args
    wins, as on the service."""

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(**kwargs)

    def error(self, message):
        sys.stderr.write("ERROR: %s\n" % message)
        sys.stderr.write("ERROR: usage: %s\n" % self.format_usage().strip().replace("usage: ", "", 1))
        sys.exit(1)


def boolean(text):
    """A flag's optional value: ``--preprocess`` alone is true; ``--preprocess=false`` (as some configs write
    it) is false. Accepts true/false/1/0/yes/no, any case."""
    value = str(text).strip().lower()
    if value in ("true", "1", "yes", "t", "y"):
        return True
    if value in ("false", "0", "no", "f", "n"):
        return False
    raise argparse.ArgumentTypeError("invalid boolean value: %r (true or false)" % text)


boolean.__name__ = "boolean"


def add_flag(parser, name, help):
    parser.add_argument(name, type=boolean, nargs="?", const=True, default=False, help=help)


def number(kind, low=None, high=None, low_open=False, high_open=False):
    """A type function for argparse: ``kind`` (int or float) within [low, high] (open ends where asked).
    A value outside reads ``argument --eta: 1.5 is outside [0, 1]``."""

    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError("invalid %s value: %r" % (kind.__name__, text)) from None
        if kind is float and not math.isfinite(value):
            raise argparse.ArgumentTypeError("invalid %s value: %r" % (kind.__name__, text))
        bad = ((low is not None and (value < low or (low_open and value == low)))
               or (high is not None and (value > high or (high_open and value == high))))
        if bad:
            raise argparse.ArgumentTypeError("%s is outside %s%s, %s%s" % (
                text, "(" if low_open else "[", "-inf" if low is None else "%g" % low,
                "inf" if high is None else "%g" % high, ")" if high_open else "]"))
        return value

    parse.__name__ = kind.__name__
    return parse


def add_data_arguments(parser, preprocessing=True):
    """The data-format arguments of the service's reference pages (research notes §5.1, verified unless said).

    ``preprocessing=False`` (distributed XGBoost, which has no automatic preprocessing) leaves out
    --preprocess, --validation_split and --test_split."""
    group = parser.add_argument_group("data format (the service's reference pages)")
    if preprocessing:
        add_flag(group, "--preprocess", "apply the service's automatic preprocessing (README.md, 'Preprocessing')")
    group.add_argument("--training_data_path", required=True,
                       help="CSV file: UTF-8, no header, target in the first column, blank = missing"
                            + ("" if preprocessing else "; a glob pattern names several files"))
    group.add_argument("--validation_data_path", help="CSV file in the training file's format")
    group.add_argument("--test_data_path", help="CSV file in the training file's format")
    if preprocessing:
        # Defaults: 0.20 is documented for validation_split; test_split's default is from memory of the same
        # table (research notes §4) and so inferred. Both apply only with --preprocess.
        group.add_argument("--validation_split", type=number(float, 0, 1), default=None,
                           help="fraction of the training rows held out for validation (default 0.20)")
        group.add_argument("--test_split", type=number(float, 0, 1), default=None,
                           help="fraction of the training rows held out for testing (default 0.20)")
    group.add_argument("--job-dir", dest="job_dir", required=True,
                       help="where the model, processed data and event files go (the executor passes it)")
    return group


# ---------------------------------------------------------------------------------------------------------------
# The replica environment (ARCHITECTURE.md, "A job's life", step 4)


class ReplicaEnv:
    """What the executor tells a replica, parsed once.

    - ``tf_config``: TF_CONFIG as a dict ({} when unset or empty).
    - ``task_type`` "master" (also for "chief" and for no TF_CONFIG), "worker", …; ``task_index`` int.
    - ``cluster``: {"master": ["host:port"], "worker": [...], ...} with "chief" read as "master".
    - ``trial_id``: CLOUD_ML_TRIAL_ID, else TF_CONFIG's task.trial; "" outside a tuning job.
    - ``job_id``: CLOUD_ML_JOB_ID ("" when unset).
    - ``image``: TRAINYARD_ALGORITHM_IMAGE ("" when unset: the module was started by hand).
    - ``has_gpu``: True when CUDA_VISIBLE_DEVICES names a device (the job has an accelerator), False when it is
      set empty (the executor's "no accelerator"), None when unset (started by hand: CUDA sees every GPU).
    - ``runtime_version``: TF_CONFIG's job.runtimeVersion, else DEFAULT_RUNTIME_VERSION.

    Raises JobError for a TF_CONFIG that is not a JSON object."""

    def __init__(self, environ=None):
        environ = os.environ if environ is None else environ
        text = environ.get("TF_CONFIG", "").strip()
        try:
            self.tf_config = json.loads(text) if text else {}
        except ValueError as e:
            raise JobError("TF_CONFIG is not valid JSON: %s" % e) from None
        if not isinstance(self.tf_config, dict):
            raise JobError("TF_CONFIG is not a JSON object")
        task = self.tf_config.get("task") or {}
        cluster = dict(self.tf_config.get("cluster") or {})
        if "chief" in cluster and "master" not in cluster:
            cluster["master"] = cluster.pop("chief")
        self.cluster = cluster
        task_type = task.get("type") or "master"
        self.task_type = "master" if task_type == "chief" else task_type
        try:
            self.task_index = int(task.get("index") or 0)
        except (TypeError, ValueError):
            raise JobError("TF_CONFIG task.index is not a number: %r" % task.get("index")) from None
        self.trial_id = str(environ.get("CLOUD_ML_TRIAL_ID") or task.get("trial") or "")
        self.job_id = environ.get("CLOUD_ML_JOB_ID", "")
        self.image = environ.get("TRAINYARD_ALGORITHM_IMAGE", "")
        visible = environ.get("CUDA_VISIBLE_DEVICES")
        self.has_gpu = None if visible is None else visible.strip() not in ("", "-1", "none", "NoDevFiles")
        job = self.tf_config.get("job") or {}
        self.runtime_version = str(job.get("runtimeVersion") or DEFAULT_RUNTIME_VERSION)

    @property
    def is_master(self):
        return self.task_type == "master"

    def image_variant(self):
        """"cpu", "gpu", "single", "distributed" for a known image, "" otherwise."""
        return IMAGES.get(self.image, ("", ""))[1]

    def output_dir(self, job_dir):
        """The folder a replica writes to: ``<job-dir>/<trial>`` in a tuning trial, as the service's built-ins
        do (the executor gives every trial the same --job-dir), else the job dir."""
        return os.path.join(job_dir, self.trial_id) if self.trial_id else job_dir


def check_local_path(name, path):
    """Fails for what this host cannot read: a gs:// URI (no network here) or a missing file."""
    if path is None:
        return None
    if path.startswith("gs://"):
        raise JobError("--%s=%s: Cloud Storage is not reachable from Trainyard; copy the file to this host and "
                       "pass its local path" % (name, path))
    return path


# ---------------------------------------------------------------------------------------------------------------
# Metrics (the hypertune tags and the event-file tags; README.md, "Metrics")

CLASSIFICATION_METRICS = ("accuracy", "log_loss", "auc", "loss")
REGRESSION_METRICS = ("rmse", "mae", "loss")
LOG_LOSS_EPS = 1e-15  # as scikit-learn's log_loss clips probabilities


def auc_score(y_true, score):
    """Area under the ROC curve of binary labels ``y_true`` (0/1, shape [N]) for ``score`` (shape [N]): the
    Mann-Whitney statistic with tied scores counted half. NaN when only one class is present."""
    np = require("numpy")
    pd = require("pandas")
    y = np.asarray(y_true).astype(bool)
    positives = int(y.sum())
    negatives = len(y) - positives
    if positives == 0 or negatives == 0:
        return float("nan")
    ranks = pd.Series(np.asarray(score, dtype=np.float64)).rank(method="average").to_numpy()
    return float((ranks[y].sum() - positives * (positives + 1) / 2.0) / (positives * negatives))


def classification_metrics(y_true, proba):
    """``y_true``: class indices, shape [N]; ``proba``: class probabilities, shape [N, K] (K >= 2).

    Returns {"accuracy", "log_loss", "loss"} (loss = log_loss, the TF estimators' name that public tuning specs
    use), plus "auc" when K == 2. Probabilities are clipped to [1e-15, 1 - 1e-15] for the log."""
    np = require("numpy")
    y = np.asarray(y_true).astype(np.int64)
    p = np.asarray(proba, dtype=np.float64)
    picked = np.clip(p[np.arange(len(y)), y], LOG_LOSS_EPS, 1 - LOG_LOSS_EPS)
    log_loss = float(-np.log(picked).mean())
    out = {"accuracy": float((p.argmax(axis=1) == y).mean()), "log_loss": log_loss, "loss": log_loss}
    if p.shape[1] == 2:
        out["auc"] = auc_score(y, p[:, 1])
    return out


def regression_metrics(y_true, predicted):
    """Shapes [N]; returns {"rmse", "mae", "loss"} (loss = mean squared error, the TF estimators' loss)."""
    np = require("numpy")
    d = np.asarray(predicted, dtype=np.float64) - np.asarray(y_true, dtype=np.float64)
    mse = float((d * d).mean())
    return {"rmse": math.sqrt(mse), "mae": float(np.abs(d).mean()), "loss": mse}


def format_metrics(metrics):
    return " ".join("%s=%.6g" % (k, v) for k, v in metrics.items())


class MetricsSink:
    """Writes evaluation results where the executor reads them (only the master replica writes anything).

    - Event file ``<out>/experiment/events.out.tfevents.*``: one Event per evaluation with scalars
      ``validation/<metric>`` (step = boosting round or training step), and ``test/<metric>`` once at the end.
    - The hypertune file (CLOUD_ML_HP_METRIC_FILE; nothing is written when it is unset, that is outside the
      executor): one report per validation metric per evaluation, the tag being the metric's bare name
      (``accuracy``, ``log_loss``, ``auc``, ``loss``; ``rmse``, ``mae``, ``loss``).
    The writers are the repository's own (events.py and hypertune.py, shared with the Fashion-MNIST trainer)."""

    def __init__(self, out_dir, enabled=True, environ=None):
        environ = os.environ if environ is None else environ
        self.enabled = enabled
        self._events = None
        self._hypertune = None
        if not enabled:
            return
        from . import events, hypertune
        self._events = events.EventFileWriter(os.path.join(out_dir, "experiment"))
        if environ.get("CLOUD_ML_HP_METRIC_FILE"):
            self._hypertune = hypertune.HyperTune(path=environ["CLOUD_ML_HP_METRIC_FILE"],
                                                  trial_id=environ.get("CLOUD_ML_TRIAL_ID") or "0")

    def _scalars(self, prefix, step, metrics):
        finite = [(prefix + k, v) for k, v in metrics.items() if v is not None and math.isfinite(v)]
        if finite:
            self._events.add_scalars(step, finite)
        return finite

    def validation(self, step, metrics):
        if not self.enabled:
            return
        self._scalars("validation/", step, metrics)
        if self._hypertune is not None:
            for tag, value in metrics.items():
                if value is not None and math.isfinite(value):
                    self._hypertune.report_hyperparameter_tuning_metric(tag, value, global_step=step)

    def test(self, step, metrics):
        if self.enabled:
            self._scalars("test/", step, metrics)

    def scalar(self, tag, value, step):
        if self.enabled and value is not None and math.isfinite(value):
            self._events.add_scalar(tag, value, step)

    def close(self):
        if self._events is not None:
            self._events.close()


# ---------------------------------------------------------------------------------------------------------------
# Output files (README.md, "Outputs")


def python_version():
    return "%d.%d" % sys.version_info[:2]


def _yaml_scalar(value):
    """A YAML scalar for a plain string or number; strings are double-quoted JSON strings (valid YAML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(str(value))


def write_json(path, value):
    """Writes ``value`` to ``path`` through a temporary file and a rename, so a reader never sees half a file."""
    tmp = "%s.tmp%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def write_model_files(model_dir, env, framework, labels):
    """Writes ``deployment_config.yaml`` and ``builtin_algorithm_output.json`` into ``model_dir``.

    - builtin_algorithm_output.json: {"framework", "modelPath" (absolute), "pythonVersion", "runtimeVersion"},
      the fields of the service's BuiltInAlgorithmOutput; the executor copies it into
      trainingOutput.builtInAlgorithmOutput (a trial's into its HyperparameterOutput).
    - deployment_config.yaml: a Version for ``versions create --config`` (deploymentUri, framework,
      runtimeVersion, pythonVersion, labels). ``labels`` are the service's: ``global_step`` and, for
      classification, ``accuracy`` as a whole percentage (the service's sample reads it with float()/100;
      a label value may hold no '.', so whole percent is what fits both).
    framework is "XGBOOST" or "PYTORCH" (the service's linear and wide & deep were TensorFlow 1.14; Debian has
    no TensorFlow, so ours are PyTorch and say so)."""
    model_dir = os.path.abspath(model_dir)
    output = {
        "framework": framework,
        "modelPath": model_dir,
        "pythonVersion": python_version(),
        "runtimeVersion": env.runtime_version,
    }
    write_json(os.path.join(model_dir, "builtin_algorithm_output.json"), output)
    lines = [
        "# Written by Trainyard's built-in algorithm (trainyard_algorithms). Deploy with",
        "#   trainyardctl versions create VERSION --model MODEL --config %s/deployment_config.yaml"
        % model_dir,
        "# Raw CSV rows are served by the custom prediction routine",
        "#   predictionClass: trainyard_algorithms.serving.BuiltinPredictor",
        "deploymentUri: %s" % _yaml_scalar(model_dir),
        "framework: %s" % framework,
        "runtimeVersion: %s" % _yaml_scalar(env.runtime_version),
        "pythonVersion: %s" % _yaml_scalar(python_version()),
        "labels:",
    ]
    for key in sorted(labels):
        lines.append("  %s: %s" % (key, _yaml_scalar(str(labels[key]))))
    tmp = os.path.join(model_dir, ".deployment_config.yaml.tmp%d" % os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, os.path.join(model_dir, "deployment_config.yaml"))
    return output


def deployment_labels(task, step, metrics, algorithm):
    """The labels of deployment_config.yaml: global_step, accuracy (whole percent; classification) and the
    algorithm's name. ``metrics`` are the last evaluation's (test split when there is one, else validation)."""
    labels = {"global_step": str(int(step)), "algorithm": algorithm}
    if task == "classification" and metrics and "accuracy" in metrics and math.isfinite(metrics["accuracy"]):
        labels["accuracy"] = str(int(round(100 * metrics["accuracy"])))
    return labels


def write_evaluation(out_dir, split, task, labels, y_true, predicted, metrics, max_points=2000):
    """``<out>/artifacts/evaluation.json`` for the console's Model tab: the final metrics of ``split`` ("test"
    when there is a test split, else "validation") and, for classification, the confusion matrix
    ``counts[true][predicted]`` over ``labels``; for regression up to ``max_points`` [actual, predicted] pairs
    (evenly spaced rows when there are more)."""
    np = require("numpy")
    body = {"split": split, "task": task, "rows": int(len(y_true)), "metrics": metrics}
    if task == "classification":
        k = len(labels)
        counts = np.zeros((k, k), dtype=np.int64)
        np.add.at(counts, (np.asarray(y_true, dtype=np.int64), np.asarray(predicted, dtype=np.int64)), 1)
        body["confusion_matrix"] = {"labels": list(labels), "counts": counts.tolist()}
    else:
        n = len(y_true)
        rows = np.linspace(0, n - 1, min(n, max_points)).astype(np.int64) if n else np.zeros(0, np.int64)
        body["predicted_vs_actual"] = [[float(y_true[i]), float(predicted[i])] for i in rows]
    folder = os.path.join(out_dir, "artifacts")
    os.makedirs(folder, exist_ok=True)
    write_json(os.path.join(folder, "evaluation.json"), body)


def host_of(address):
    """"host:port" → ("host", port); raises JobError for anything else."""
    host, sep, port = str(address).rpartition(":")
    if not sep or not host or not port.isdigit():
        raise JobError("TF_CONFIG cluster address %r is not host:port" % address)
    return host.strip("[]"), int(port)


def resolve(host):
    """An address for ``host`` that sockets can bind and connect (IPv4 first)."""
    try:
        return socket.gethostbyname(host)
    except OSError:
        return host


class Stopwatch:
    def __init__(self):
        self.start = time.monotonic()

    def seconds(self):
        return time.monotonic() - self.start
