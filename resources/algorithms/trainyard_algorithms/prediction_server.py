# SPDX-License-Identifier: GPL-2.0-or-later
"""One prediction node of a deployed model version: loads the model once, then answers requests until its stdin ends.

The executor (app/executor/serving/versionnodes.h) starts one such process per node of a version:

    python -m trainyard_algorithms.prediction_server --model-dir DIR --framework FRAMEWORK [--prediction-class C]

``DIR`` is the executor's own copy of the version's ``deploymentUri``; ``FRAMEWORK`` the service's enum
(SCIKIT_LEARN, XGBOOST, PYTORCH; empty with ``--prediction-class``). The protocol is JSON lines on the process's
own pipes, so a node has no port to guard and dies with its executor (stdin's end is the signal to exit):

- once loaded, one line on stdout: ``{"ready": true, "kind": "<what was loaded>", "loadSeconds": s, "startedAt": t,
  "importSeconds": i, "modelSeconds": m}`` (``startedAt``: CLOCK_MONOTONIC seconds when main() began, so that the
  executor can tell the process's and interpreter's start from the rest; ``importSeconds``: the framework's packages,
  imported before the model; ``modelSeconds``: the model's load, with what its files import beyond them); a model that
  cannot be loaded: ``{"ready": false, "error": "<why, the loader's own message>"}`` and exit status 3;
- then, for each request line ``{"id": N, "instances": [...], "signature_name": "..."}`` on stdin, one answer line
  in the same order: ``{"id": N, "predictions": [...]}`` (one per instance), or
  ``{"id": N, "error": "<the runtime's message>", "instance": i}`` naming the 0-based index of the first instance
  that fails alone (``instance`` left out when every instance works alone and only the batch fails). An instance
  nested deeper than ``--max-depth``, a line that cannot be decoded and an answer longer than
  ``--max-answer-bytes`` are answered as errors too: nothing a request holds ends the node.
- requests that are waiting together are answered together: consecutive plain predict requests (no ``explain``, the
  same ``signature_name``) to a framework or built-in model are one ``predict`` call on their instances, split back
  into one answer per request in order (dynamic batching, as TensorFlow Serving's: under load the model's per-call
  cost is paid once per batch, not per request). A row's prediction must not depend on the other rows of the call,
  which holds for these models (an estimator's ``predict``, a booster, a TorchScript module in eval mode). A batch
  that fails is answered request by request, so each error names its own request's instance. A custom prediction
  routine is called once per request, as the service does.
- a request line with ``"explain": {"method": …, "numPaths": …, "numIntegralSteps": …, "outputIndices": […]}`` is
  answered ``{"id": N, "explanations": [...]}`` (explanations.explain(): the service's shape), or an error as above.
  What a feature and its baseline are is read from the model folder at the first such request
  (explanations.baselines_for()).

What the model files mean is the service's "Exporting models for prediction" page: ``model.joblib`` or
``model.pkl`` for scikit-learn (joblib or pickle), ``model.bst`` (or joblib/pickle) for XGBoost; PYTORCH is our
extension (a TorchScript archive ``model.pt``, as Vertex AI serves it). A folder written by a built-in algorithm
(``preprocessing.json`` beside ``model.bst`` or ``model.pt``) is served through ``serving.BuiltinPredictor``: raw rows
in, the training data's labels out. A custom prediction routine's class (``module.Class``) has the service's
interface: ``Class.from_path(model_dir)`` and ``predict(instances, **kwargs)``.

A warm spare (``--spare --framework FRAMEWORK``, no ``--model-dir``; the executor keeps one per runtime for versions
that scale to zero, app/executor/serving/sparenodes.h) imports the framework's packages, says ``{"spare": true,
"importSeconds": i}``, and waits: the executor then writes ``{"adopt": {"modelDir": D, "files": [[path, size], …]}}``
and the files' bytes (adopt()), which the spare writes into its sandbox's own /tmp, and from there on it is a node of
that version: it loads the model and says ready (with ``"spare": true`` and ``"copySeconds"``), and so on. Its
sandbox binds no model folder, so it never sees another version's; stdin's end before the adopt line ends it.

Anything the model or a user's class prints goes to stderr (the version's log), never into the protocol.
"""

import argparse
import importlib
import json
import os
import pickle
import re
import select
import sys
import threading
import time

from . import common

FRAMEWORK_FILES = {
    "SCIKIT_LEARN": ("model.joblib", "model.pkl"),
    "XGBOOST": ("model.bst", "model.joblib", "model.pkl"),
    "PYTORCH": ("model.pt",),
}

# What each model file is, for the message when the framework does not match the files.
FILE_FRAMEWORK = {
    "model.joblib": "a joblib file: SCIKIT_LEARN or XGBOOST",
    "model.pkl": "a pickle file: SCIKIT_LEARN or XGBOOST",
    "model.bst": "an XGBoost booster: XGBOOST",
    "model.pt": "a TorchScript archive: PYTORCH",
    "saved_model.pb": "a TensorFlow SavedModel: TENSORFLOW, which this system cannot serve",
}

# "instance 3: …": a predictor that names the instance itself (serving.BuiltinPredictor).
_NAMED_INSTANCE = re.compile(r"^instance (\d+): (.*)$", re.S)
# The request's id, read from the line when the line itself cannot be decoded: the executor writes it first.
_REQUEST_ID = re.compile(rb'^\s*\{\s*"id"\s*:\s*(\d+)')

# How deeply an instance may nest lists and objects, and how many bytes one answer line may have. The executor passes
# its own limits (app/executor/serving/versionnodes.h: --max-depth, --max-answer-bytes), so that what it accepts the
# node answers, and a deeper instance is that instance's error, never the node's end.
DEFAULT_MAX_DEPTH = 64
DEFAULT_MAX_ANSWER_BYTES = 16 << 20


class LoadError(Exception):
    """The model cannot be served: the message says why, for the version's errorMessage."""


class InstanceError(ValueError):
    """Instance ``index`` cannot be predicted (its message says why)."""

    def __init__(self, index, message):
        super().__init__(message)
        self.index = index


def _json_default(value):
    # numpy scalars and arrays a model answers with.
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    raise TypeError("%s is not JSON serializable" % type(value).__name__)


def _held(model_dir):
    known = [name for name in FILE_FRAMEWORK if os.path.exists(os.path.join(model_dir, name))]
    return ", ".join("%s (%s)" % (name, FILE_FRAMEWORK[name]) for name in known) or "no model file"


def _load_pickled(path):
    if path.endswith(".joblib"):
        joblib = common.require("joblib")
        return joblib.load(path)
    with open(path, "rb") as f:
        return pickle.load(f)


class ArrayPredictor:
    """A scikit-learn estimator or pipeline, an XGBoost booster or sklearn-API model, or a TorchScript module,
    called on the instances as one array (the service's SCIKIT_LEARN/XGBOOST behaviour: ``predict``)."""

    # Each row's prediction depends on that row alone: waiting requests may share one call (answer_all()).
    rows_independent = True

    def __init__(self, kind, model):
        self.kind = kind
        self.model = model

    def width(self):
        """Values an instance must have, when the model says (an XGBoost booster, a fitted estimator)."""
        if self.kind == "xgboost-booster":
            return self.model.num_features()
        return getattr(self.model, "n_features_in_", None)

    def check(self, instances):
        """Every instance a flat list of numbers of the model's width (or of the first instance's): else
        InstanceError naming the first that is not, as the libraries' own messages name none."""
        if not isinstance(instances, list):
            raise ValueError("instances must be a list")
        width = self.width()
        for i, instance in enumerate(instances):
            if not isinstance(instance, list):
                continue  # a model of scalar instances (a text model, say) checks them itself
            if width is None:
                width = len(instance)
            if len(instance) != width:
                raise InstanceError(i, "%d values, expected %d" % (len(instance), width))

    def predict(self, instances, **kwargs):
        self.check(instances)
        return self.predict_unchecked(instances)

    def predict_unchecked(self, instances):
        """predict() without the per-instance width check: a batch job's hot path, which checks instances one by
        one (predict()) only when a batch fails."""
        np = common.require("numpy")
        if self.kind == "xgboost-booster":
            xgb = common.require("xgboost")
            return self.model.predict(xgb.DMatrix(np.asarray(instances, dtype=np.float64))).tolist()
        if self.kind == "torchscript":
            torch = common.require("torch")
            with torch.no_grad():
                out = self.model(torch.as_tensor(np.asarray(instances, dtype=np.float32)))
            return out.tolist()
        return np.asarray(self.model.predict(np.asarray(instances))).tolist()


def load(model_dir, framework, prediction_class):
    """(predictor, kind): what serves ``model_dir``; raises LoadError with the reason."""
    if prediction_class:
        module_name, _, class_name = prediction_class.rpartition(".")
        if not module_name:
            raise LoadError("predictionClass %r must be module.Class" % prediction_class)
        sys.path.insert(0, model_dir)
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as e:
            raise LoadError("predictionClass %s cannot be imported: %s" % (prediction_class, e)) from None
        if not hasattr(cls, "from_path"):
            raise LoadError("predictionClass %s has no from_path(model_dir) classmethod" % prediction_class)
        return cls.from_path(model_dir), "custom prediction routine %s" % prediction_class
    if framework not in FRAMEWORK_FILES:
        raise LoadError("framework %r cannot be served here (SCIKIT_LEARN, XGBOOST, PYTORCH, or a predictionClass)"
                        % framework)
    if os.path.exists(os.path.join(model_dir, "preprocessing.json")):
        # A built-in algorithm's model folder: raw rows through its recorded preprocessing.
        native = "model.bst" if framework == "XGBOOST" else "model.pt" if framework == "PYTORCH" else None
        if native is None or not os.path.exists(os.path.join(model_dir, native)):
            raise LoadError("this is a built-in algorithm's model folder (preprocessing.json) holding %s; deploy it "
                            "with the framework that file needs, not %s" % (_held(model_dir), framework))
        from .serving import BuiltinPredictor
        return BuiltinPredictor.from_path(model_dir), "built-in algorithm model (%s, raw rows)" % native
    candidates = [name for name in FRAMEWORK_FILES[framework] if os.path.exists(os.path.join(model_dir, name))]
    if not candidates:
        raise LoadError("Could not find a %s model: the deployment folder needs %s, and it holds %s"
                        % (framework, " or ".join(FRAMEWORK_FILES[framework]), _held(model_dir)))
    path = os.path.join(model_dir, candidates[0])
    name = candidates[0]
    if framework == "PYTORCH":
        torch = common.require("torch")
        try:
            model = torch.jit.load(path, map_location="cpu")
        except Exception as e:  # noqa: BLE001 - the loader's own message is the answer
            raise LoadError("model.pt is not a TorchScript archive (save it with torch.jit.script(model).save or "
                            "torch.jit.trace): %s" % str(e).strip().splitlines()[0]) from None
        model.eval()
        return ArrayPredictor("torchscript", model), "TorchScript %s" % name
    if name == "model.bst":
        xgb = common.require("xgboost")
        try:
            booster = xgb.Booster(model_file=path)
        except Exception as e:  # noqa: BLE001
            raise LoadError("model.bst cannot be loaded by XGBoost %s: %s" % (xgb.__version__, e)) from None
        return ArrayPredictor("xgboost-booster", booster), "XGBoost booster model.bst"
    try:
        model = _load_pickled(path)
    except Exception as e:  # noqa: BLE001
        raise LoadError("%s cannot be loaded: %s: %s" % (name, type(e).__name__, e)) from None
    if framework == "XGBOOST" and type(model).__module__.startswith("xgboost") and hasattr(model, "save_raw") \
            and not hasattr(model, "fit"):
        return ArrayPredictor("xgboost-booster", model), "XGBoost booster %s" % name
    if not hasattr(model, "predict"):
        raise LoadError("%s holds a %s.%s, which has no predict()" % (name, type(model).__module__,
                                                                        type(model).__name__))
    if framework == "SCIKIT_LEARN" and type(model).__module__.startswith("xgboost"):
        raise LoadError("%s holds an XGBoost model (%s); deploy it with framework XGBOOST" % (name,
                                                                                              type(model).__name__))
    return ArrayPredictor("estimator", model), "%s %s from %s" % (type(model).__module__.split(".")[0],
                                                                 type(model).__name__, name)


def _message(error):
    """One line of an exception's message: TorchScript's start with a header and end with the error itself."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    text = lines[-1] if len(lines) > 1 and lines[0].endswith("TorchScript interpreter.") else lines[0]
    return text[:2000]


# What a JSON decoder gives besides lists and objects.
_SCALAR_TYPES = frozenset((int, float, str, bool, type(None)))


def depth(value, limit):
    """How deeply ``value`` nests lists and objects (a number is 0, ``[1]`` is 1), counted without recursion and
    up to ``limit + 1``: a value deeper than ``limit`` is not walked further."""
    # The common instance, a flat list of numbers or strings, at C speed (``map(type, …)`` into a set): walking its
    # elements one by one in Python cost a batch prediction worker a third of its time per instance.
    if type(value) is list and _SCALAR_TYPES.issuperset(map(type, value)):
        return 1
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    return deepest
            stack.extend((child, level) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def too_deep(instances, limit):
    """The answer for the first instance nested deeper than ``limit``, or None."""
    if not isinstance(instances, list):
        return None
    for i, instance in enumerate(instances):
        if depth(instance, limit) > limit:
            return {"error": "the instance nests lists or objects more than %d levels deep, the most a prediction "
                             "takes" % limit, "instance": i}
    return None


def decode_request(line, max_depth):
    """(request, None) for one request line (bytes or str), or (None, answer) when it cannot be decoded: the answer
    carries the line's id where it can be read, so the executor matches it to its request."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError) as e:
        raw = line if isinstance(line, bytes) else line.encode("utf-8", "replace")
        found = _REQUEST_ID.match(raw)
        reason = "nested too deeply" if isinstance(e, RecursionError) else str(e)
        return None, {"id": int(found.group(1)) if found else None,
                      "error": "not a JSON request line: %s" % reason}
    if not isinstance(request, dict):
        return None, {"id": None, "error": "not a JSON request object"}
    problem = too_deep(request.get("instances"), max_depth)
    if problem is not None:
        problem["id"] = request.get("id")
        return None, problem
    return request, None


def encode_answer(reply, max_bytes):
    """The answer line's text (without its newline): ``reply`` as JSON, or an error in its place when it is not
    JSON or longer than ``max_bytes``."""
    try:
        text = json.dumps(reply, default=_json_default, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        return json.dumps({"id": reply.get("id"), "error": "the model's answer is not JSON: %s" % e})
    if len(text) > max_bytes:
        return json.dumps({"id": reply.get("id"),
                           "error": "the answer is %d bytes, more than the %d a prediction may answer: send fewer "
                                    "instances at once" % (len(text), max_bytes)})
    return text


class Explainer:
    """A node's explanations: the model folder's baseline, read once at the first explain request."""

    def __init__(self, model_dir):
        self.model_dir = model_dir
        self._baseline = None
        self._read = False

    def answer(self, predictor, request):
        from . import explanations
        instances = request.get("instances")
        config = request.get("explain")
        if not isinstance(config, dict):
            return {"error": "explain must be an object (the version's explanationConfig)"}
        try:
            if not self._read:
                self._baseline = explanations.baselines_for(self.model_dir)
                self._read = True
            return explanations.explain(predictor, self._baseline, instances, config)
        except explanations.ExplanationError as e:
            return {"error": str(e), "explanation": True}
        except Exception as e:  # noqa: BLE001 - the model's own refusal of a perturbed row is the request's error
            named = _NAMED_INSTANCE.match(_message(e))
            if named and isinstance(instances, list) and int(named.group(1)) < len(instances):
                return {"error": named.group(2), "instance": int(named.group(1))}
            return {"error": "%s: %s" % (type(e).__name__, _message(e))}


def answer(predictor, request, explainer=None):
    """The answer object for one request object (the module docstring's shapes)."""
    instances = request.get("instances")
    if "explain" in request:
        if explainer is None:
            return {"error": "this node explains nothing"}
        return explainer.answer(predictor, request)
    kwargs = {}
    if request.get("signature_name"):
        kwargs["signature_name"] = request["signature_name"]
    try:
        predictions = list(predictor.predict(instances, **kwargs))
    except InstanceError as e:
        return {"error": _message(e), "instance": e.index}
    except Exception as batch_error:  # noqa: BLE001 - a bad instance is the caller's error, not ours
        named = _NAMED_INSTANCE.match(_message(batch_error))
        if named and isinstance(instances, list) and int(named.group(1)) < len(instances):
            return {"error": named.group(2), "instance": int(named.group(1))}
        # Which instance? The first that fails alone is named.
        if isinstance(instances, list) and len(instances) > 1:
            for i, instance in enumerate(instances):
                try:
                    predictor.predict([instance], **kwargs)
                except Exception as e:  # noqa: BLE001
                    return {"error": _message(e), "instance": i}
        elif isinstance(instances, list) and len(instances) == 1:
            return {"error": _message(batch_error), "instance": 0}
        return {"error": _message(batch_error)}
    if len(predictions) != len(instances):
        return {"error": "the model answered %d predictions for %d instances" % (len(predictions), len(instances))}
    return {"predictions": predictions}


# The most requests, and instances, one batched call takes (answer_all()): a batch's answer is held whole in memory.
MAX_BATCH_REQUESTS = 64
MAX_BATCH_INSTANCES = 4096


def _batchable(predictor, request):
    instances = request.get("instances")
    return (getattr(predictor, "rows_independent", False) and "explain" not in request
            and isinstance(instances, list) and instances)


def answer_all(predictor, requests, explainer=None):
    """The answer objects for ``requests`` (decoded request objects, in their order), each with its ``id``.

    Consecutive plain predict requests with the same signature_name share one ``predictor.predict`` call (the module
    docstring's batching); a batch whose call fails, or answers another number of predictions, is answered request by
    request (answer()), so that errors are each request's own."""
    replies = []
    i = 0
    while i < len(requests):
        request = requests[i]
        j = i + 1
        if _batchable(predictor, request):
            count = len(request["instances"])
            signature = request.get("signature_name")
            while (j < len(requests) and j - i < MAX_BATCH_REQUESTS and _batchable(predictor, requests[j])
                   and requests[j].get("signature_name") == signature
                   and count + len(requests[j]["instances"]) <= MAX_BATCH_INSTANCES):
                count += len(requests[j]["instances"])
                j += 1
        group = requests[i:j]
        answers = _batched(predictor, group) if len(group) > 1 else None
        if answers is None:
            answers = []
            for one in group:
                try:
                    answers.append(answer(predictor, one, explainer))
                except RecursionError:  # a model that recursed on a (legal) deep instance: that request's error
                    answers.append({"error": "the model recursed too deeply on these instances"})
        for one, reply in zip(group, answers):
            reply["id"] = one.get("id")
            replies.append(reply)
        i = j
    return replies


def _batched(predictor, group):
    """One answer per request of ``group`` from one predict call, or None when that call does not answer them all."""
    instances = [instance for request in group for instance in request["instances"]]
    kwargs = {"signature_name": group[0]["signature_name"]} if group[0].get("signature_name") else {}
    try:
        predictions = list(predictor.predict(instances, **kwargs))
    except Exception:  # noqa: BLE001 - answered request by request, each with its own error
        return None
    if len(predictions) != len(instances):
        return None
    answers = []
    start = 0
    for request in group:
        end = start + len(request["instances"])
        answers.append({"predictions": predictions[start:end]})
        start = end
    return answers


def serve(predictor, explainer, protocol, max_depth, max_answer_bytes, stdin_fd=0, pending=b""):
    """Answers request lines from ``stdin_fd`` until its end: every complete line read at once is answered together
    (answer_all()), the answers written with one write. A last line without its newline is answered at the end.
    ``pending``: bytes already read from it (after a warm spare's model files)."""
    # Lines already read (a spare's first request may come with its model files) are answered before reading more.
    unread_lines = b"\n" in pending
    while True:
        chunk = b"-" if unread_lines else os.read(stdin_fd, 65536)
        if chunk:
            if not unread_lines:
                pending += chunk
            unread_lines = False
            lines = pending.split(b"\n")
            pending = lines.pop()
        else:
            lines, pending = [pending], b""
        requests, out = [], []
        for line in lines:
            if not line.strip():
                continue
            request, refused = decode_request(line, max_depth)
            if refused is not None:
                out.append((len(requests), refused))
            else:
                requests.append(request)
        replies = answer_all(predictor, requests, explainer)
        # Refusals keep their place among the answers: the executor matches answers to requests in order.
        for position, refused in reversed(out):
            replies.insert(position, refused)
        if replies:
            protocol.write("".join(encode_answer(reply, max_answer_bytes) + "\n" for reply in replies))
            protocol.flush()
        if not chunk:
            return


# What each framework's models need imported before they load (the rest, such as a pickle's own modules, is imported
# by the load itself): imported first, and timed apart from the load (the ready line's importSeconds).
FRAMEWORK_IMPORTS = {
    "SCIKIT_LEARN": ("numpy", "sklearn", "joblib"),
    "XGBOOST": ("numpy", "xgboost"),
    "PYTORCH": ("numpy", "torch"),
}


def import_framework(framework):
    """Imports ``framework``'s packages (FRAMEWORK_IMPORTS); a missing one is left to load(), which names it."""
    for module in FRAMEWORK_IMPORTS.get(framework, ()):
        try:
            importlib.import_module(module)
        except ImportError:
            pass


def _exit_if_executor_goes(loaded):
    """Ends the process at once if its stdin's writer (the executor) is gone before the model is loaded.

    The executor's death signal (PR_SET_PDEATHSIG) reaches the sandbox's outer process; bubblewrap passes it on with
    --die-with-parent, set in its child only after its clone. An executor killed inside that window (a version's
    nodes start right after its create is answered) leaves the node without a death signal, and a model's imports
    and load can take seconds before the request loop would read stdin's end. Once loaded, that loop ends the node
    at stdin's end itself, and a graceful stop (stdin closed) lets in-flight requests finish.
    """
    def watch():
        waiter = select.poll()
        waiter.register(0, 0)  # an empty mask: only POLLHUP, POLLERR and POLLNVAL are reported
        while not loaded.is_set():
            for _fd, events in waiter.poll(500):
                if events & (select.POLLHUP | select.POLLERR | select.POLLNVAL) and not loaded.is_set():
                    os._exit(0)
    threading.Thread(target=watch, name="executor-watch", daemon=True).start()


# A warm spare's model copy: at most this many files (the executor sends no more; a folder with more starts cold).
MAX_ADOPTED_FILES = 10000


def _read_exactly(fd, size, pending):
    """``size`` bytes from ``fd``, ``pending`` (bytes already read) first: (the bytes, what was read beyond them).
    Raises EOFError when the writer is gone before."""
    chunks, have = [pending[:size]], min(len(pending), size)
    rest = pending[size:]
    while have < size:
        chunk = os.read(fd, min(1 << 20, size - have))
        if not chunk:
            raise EOFError("stdin ended %d bytes into %d" % (have, size))
        chunks.append(chunk)
        have += len(chunk)
    return b"".join(chunks), rest


def adopt(fd=0):
    """A warm spare's wait (issue 48's cold start): reads the executor's adopt line from ``fd`` —
    ``{"adopt": {"modelDir": the executor's folder (for messages), "files": [[relative path, size], …]}}`` — and the
    files' bytes after it, in that order, and writes them into a fresh folder of the sandbox's own /tmp (the spare's
    sandbox binds no model folder: it was started before any version needed it, and sees only what it is sent).
    Returns (the folder, the executor's modelDir, seconds the copy took, bytes read beyond the files); raises EOFError when stdin ends first (the
    executor let the spare go) and ValueError for a malformed adopt line or a path outside the folder."""
    import tempfile
    pending = b""
    while b"\n" not in pending:
        chunk = os.read(fd, 65536)
        if not chunk:
            raise EOFError("stdin ended before an adopt line")
        pending += chunk
    line, pending = pending.split(b"\n", 1)
    started = time.monotonic()
    message = json.loads(line).get("adopt")
    files = message.get("files") if isinstance(message, dict) else None
    if not isinstance(files, list) or len(files) > MAX_ADOPTED_FILES:
        raise ValueError("the adopt line has no files list")
    folder = tempfile.mkdtemp(prefix="model-")
    # In a sandbox /tmp is the sandbox's own and goes with it; without one (--sandbox off) the copy is removed at exit.
    import atexit
    import shutil
    atexit.register(shutil.rmtree, folder, True)
    root = os.path.realpath(folder)
    for entry in files:
        if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str)
                or not isinstance(entry[1], int) or entry[1] < 0):
            raise ValueError("the adopt line's files are [path, size] pairs")
        relative, size = entry
        target = os.path.realpath(os.path.join(root, relative))
        if os.path.isabs(relative) or not target.startswith(root + os.sep):
            raise ValueError("%r is not a path inside the model folder" % relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        data, pending = _read_exactly(fd, size, pending)
        with open(target, "wb") as f:
            f.write(data)
    return folder, message.get("modelDir") or folder, time.monotonic() - started, pending


def main(argv=None):
    started_at = time.monotonic()
    parser = argparse.ArgumentParser(prog="python -m trainyard_algorithms.prediction_server")
    parser.add_argument("--model-dir", default="")
    parser.add_argument("--spare", action="store_true",
                        help="a warm spare: import --framework's packages, say {\"spare\": true}, then wait for the "
                             "executor to send a model folder (adopt()) and serve it as any node")
    parser.add_argument("--framework", default="")
    parser.add_argument("--prediction-class", default="")
    parser.add_argument("--max-depth", type=int, default=DEFAULT_MAX_DEPTH)
    parser.add_argument("--max-answer-bytes", type=int, default=DEFAULT_MAX_ANSWER_BYTES)
    args = parser.parse_args(argv)
    if not args.spare and not args.model_dir:
        parser.error("--model-dir is required (or --spare)")
    # The executor forwards instances nested up to --max-depth; json's decoder recurses once a level.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * args.max_depth + 1000))

    # The protocol keeps the real stdout; everything else printed goes to stderr.
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    loaded = threading.Event()
    if args.spare:
        # Imported before any version needs it; the model folder comes later, over stdin. The spare's own start
        # (interpreter and imports) is not a cold start's: the ready line then says only what adoption cost.
        import_framework(args.framework)
        protocol.write(json.dumps({"spare": True, "importSeconds": round(time.monotonic() - started_at, 3)}) + "\n")
        protocol.flush()
        try:
            model_dir, shown, copy_seconds, unread = adopt()
        except EOFError:
            return 0  # let go before it was needed
        except (ValueError, OSError) as e:
            protocol.write(json.dumps({"ready": False, "error": "the spare could not take the model folder: %s"
                                       % _message(e)}) + "\n")
            protocol.flush()
            return 3
        os.chdir(model_dir)
        started_at = time.monotonic()
    else:
        model_dir, shown, copy_seconds, unread = args.model_dir, args.model_dir, None, b""
        _exit_if_executor_goes(loaded)
        import_framework(args.framework)
    imported_at = time.monotonic()
    try:
        predictor, kind = load(model_dir, args.framework, args.prediction_class)
    except (LoadError, common.JobError, FileNotFoundError, ValueError) as e:
        protocol.write(json.dumps({"ready": False, "error": _message(e)}) + "\n")
        protocol.flush()
        return 3
    except Exception as e:  # noqa: BLE001 - a user's class may raise anything while loading
        protocol.write(json.dumps({"ready": False, "error": "%s: %s" % (type(e).__name__, _message(e))}) + "\n")
        protocol.flush()
        return 3
    loaded.set()
    loaded_at = time.monotonic()
    ready = {"ready": True, "kind": kind, "loadSeconds": round(loaded_at - started_at, 3),
             "startedAt": started_at, "importSeconds": round(imported_at - started_at, 3),
             "modelSeconds": round(loaded_at - imported_at, 3)}
    if copy_seconds is not None:
        ready.update({"spare": True, "copySeconds": round(copy_seconds, 3)})
    protocol.write(json.dumps(ready) + "\n")
    protocol.flush()
    print("prediction node ready: %s from %s" % (kind, shown), file=sys.stderr, flush=True)
    serve(predictor, Explainer(model_dir), protocol, args.max_depth, args.max_answer_bytes, pending=unread)
    return 0


if __name__ == "__main__":
    sys.exit(main())
