# SPDX-License-Identifier: GPL-2.0-or-later
"""One worker of a batch prediction job: predicts its share of the input and writes the service's output files.

The executor runs a batch prediction job (``projects.jobs`` with ``predictionInput``) as a cluster of N replicas, a
master and N-1 workers, each running

    python -m trainyard_algorithms.batch_prediction --plan <job folder>/batch/plan.json

The plan (app/executor/scheduling/batchplan.h, BatchPlan) lists the input files, expanded once, and N. Worker k
(the master is 0, worker i is i+1, from TF_CONFIG) takes the lines whose first byte lies in
[total·k/N, total·(k+1)/N) of the files end to end, so every line is read by exactly one worker and no worker
reads another's bytes. It writes, in the plan's ``outputPath``, the service's files, named by the plan's
``outputFiles[k]`` (the executor's one definition of the names):

- ``prediction.results-0000k-of-0000N``: one line per good instance, in input order. JSON output:
  ``{"instance": <the instance>, "prediction": <the model's answer>}``, and with the plan's ``explanation`` (ours:
  predictionInput.explanationConfig, as Vertex AI's generateExplanation) ``"explanation": {"attributions_by_label":
  [...]}``, projects.explain's answer for that instance (explanations.py); an instance that cannot be explained is
  an error line instead; CSV output: the prediction's values.
- ``prediction.errors_stats-0000k-of-0000N``: one JSON line per bad line: ``{"error": "<why>", "file": path,
  "offset": <its byte offset>, "line": "<its first 200 characters>"}``. A bad line (not JSON, the wrong width, a
  value the model refuses) is counted and reported here; it never fails the job.

Input formats (the service's ``dataFormat``): JSON (each line a JSON instance), TEXT (each line a JSON instance when
it parses as one, else the line as a string: gcloud's "text and JSON files"), CSV (each line a row; numbers become
numbers). Blank lines are no instances.

Restarts lose nothing and repeat nothing: about once a second the worker flushes and fsyncs both files, then
replaces ``<stateDir>/progress-k.json`` (write, fsync, rename) with where it is: the next input line, the files'
committed sizes, its counts and its run time. A worker started again (the executor was killed, a replica restarted)
truncates its files to the committed sizes and goes on from the committed line; one whose progress says done exits
at once. The executor sums the progress files into the job's ``predictionOutput``.
"""

import csv
import errno
import itertools
import json
import os
import re
import sys
import time

from . import common
from . import prediction_server

COMMIT_SECONDS = 1.0
LOG_SECONDS = 10.0
MAX_ERROR_LINE = 200
COUNT_BLOCK = 4 << 20
# An empty line after the first of a block: a line ending followed by another.
_EMPTY_LINE = re.compile(rb"\n(?=\r?\n)")


def shard_index(env):
    """0 for the master, i+1 for worker i: the worker's share of the plan."""
    if env.task_type == "master":
        return 0
    if env.task_type == "worker":
        return env.task_index + 1
    raise common.JobError("a batch prediction job has a master and workers, not a %s" % env.task_type)


def shard_range(plan, shard):
    """The global byte range [start, end) whose line starts belong to ``shard``."""
    total = sum(int(f["size"]) for f in plan["files"])
    workers = int(plan["workers"])
    return total * shard // workers, total * (shard + 1) // workers


def spans(plan, start, end, resume=None):
    """Yields (file index, path, first, high) for each file holding line starts of [start, end) of the files end to
    end: read the lines that start at byte ``first`` (a line start) up to ``high`` of the file. ``resume`` (file
    index, offset) is a line start to go on from, inside the range."""
    base = 0
    for index, entry in enumerate(plan["files"]):
        size = int(entry["size"])
        first, last = base, base + size
        base = last
        if last <= start or first >= end:
            continue
        if resume is not None and index < resume[0]:
            continue
        low, high = max(start - first, 0), end - first
        if resume is not None and index == resume[0]:
            yield index, entry["path"], resume[1], high
            resume = None
            continue
        if low > 0:
            # The line that runs across our start belongs to the worker before us.
            try:
                with open(entry["path"], "rb") as handle:
                    handle.seek(low - 1)
                    if handle.read(1) != b"\n":
                        handle.readline()
                    low = handle.tell()
            except OSError as e:
                raise common.JobError("input file %s cannot be read: %s" % (entry["path"], e.strerror)) from None
        yield index, entry["path"], low, high


def open_input(path):
    try:
        return open(path, "rb")
    except OSError as e:
        raise common.JobError("input file %s cannot be read: %s" % (path, e.strerror)) from None


def parse(data_format, raw):
    """(instance, its JSON text as bytes) of one non-empty TEXT or CSV line (bytes, without its line ending); raises
    ValueError with the reason. JSON lines are parsed in Worker.run() itself, on the hot path."""
    if data_format == "TEXT":
        try:
            return json.loads(raw), raw
        except (ValueError, RecursionError):
            text = raw.decode("utf-8", errors="replace")
            return text, json.dumps(text).encode("utf-8")
    if data_format == "CSV":
        row = next(csv.reader([raw.decode("utf-8", errors="replace")]))
        values = []
        for cell in row:
            try:
                values.append(int(cell) if cell.strip().lstrip("-").isdigit() else float(cell))
            except ValueError:
                values.append(cell)
        return values, json.dumps(values).encode("utf-8")
    raise common.JobError("dataFormat %s cannot be read here (JSON, TEXT or CSV)" % data_format)


def csv_line(prediction):
    if isinstance(prediction, dict):
        prediction = list(prediction.values())
    if not isinstance(prediction, list):
        prediction = [prediction]
    out = []
    for value in prediction:
        out.append(json.dumps(value, default=prediction_server._json_default) if isinstance(value, (list, dict))
                   else str(value))
    return ",".join(out)


class Worker:
    def __init__(self, plan, shard):
        self.plan = plan
        self.shard = shard
        self.workers = int(plan["workers"])
        self.output = plan["outputPath"]
        self.state_dir = plan["stateDir"]
        # The names are the executor's (models/job.h, BatchOutput), written into the plan for each worker.
        names = plan["outputFiles"][shard]
        self.results_path = os.path.join(self.output, names["results"])
        self.errors_path = os.path.join(self.output, names["errors"])
        self.progress_path = os.path.join(self.state_dir, "progress-%d.json" % shard)
        self.csv_output = plan.get("outputDataFormat") == "CSV"
        self.kwargs = {"signature_name": plan["signatureName"]} if plan.get("signatureName") else {}
        # Explanations of each result (the plan's "explanation": the node's explain object), from the model folder's
        # baseline, read once.
        self.explanation = plan.get("explanation") or None
        self.baseline = None
        if self.explanation:
            from . import explanations
            self.baseline = explanations.baselines_for(plan["model"]["dir"])
        # One encoder: json.dumps(..., default=…) would make one for every prediction.
        self.encode = json.JSONEncoder(default=prediction_server._json_default).encode
        self.started = time.monotonic()
        self.progress = {"shard": shard, "workers": self.workers, "position": None, "predictionCount": 0,
                         "errorCount": 0, "resultsBytes": 0, "errorsBytes": 0, "totalInstances": None,
                         "seconds": 0.0, "done": False}
        self.prior_seconds = 0.0
        # What an online prediction's instance may nest (prediction_server's limit, the executor's): deeper lines
        # are errors of their own.
        self.max_depth = prediction_server.DEFAULT_MAX_DEPTH

    # ---- committed progress --------------------------------------------------------------------------------

    def load_progress(self):
        try:
            with open(self.progress_path, encoding="utf-8") as f:
                saved = json.load(f)
        except FileNotFoundError:
            return
        except ValueError:
            common.warn("%s is unreadable; this worker starts its share again" % self.progress_path)
            return
        if saved.get("workers") != self.workers or saved.get("shard") != self.shard:
            return
        self.progress.update(saved)
        self.prior_seconds = float(saved.get("seconds") or 0.0)

    def commit(self, position, results, errors, done=False):
        for f in (results, errors):
            f.flush()
            os.fsync(f.fileno())
        self.progress.update({"position": position, "resultsBytes": results.tell(), "errorsBytes": errors.tell(),
                              "seconds": round(self.prior_seconds + time.monotonic() - self.started, 3),
                              "done": done})
        temporary = self.progress_path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(self.progress, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.progress_path)

    # ---- the work ----------------------------------------------------------------------------------------

    def open_output(self, path, committed):
        """The output file, cut back to what was committed (a batch written after the last commit goes)."""
        handle = open(path, "ab")
        if handle.tell() < committed:
            handle.close()
            raise common.JobError("%s is shorter (%d bytes) than its committed %d bytes: it was changed while the "
                                  "job ran" % (path, os.path.getsize(path), committed))
        handle.truncate(committed)
        handle.seek(committed)
        return handle

    def count(self, start, end):
        """The instances of the share: its lines that are not empty. Read in blocks of whole lines and counted
        with bytes.count() and one regular expression (a line-by-line loop took a tenth of the whole job)."""
        total = 0
        for _, path, first, high in spans(self.plan, start, end):
            with open_input(path) as handle:
                handle.seek(first)
                remaining = high - first  # bytes in which our lines start
                while remaining > 0:
                    data = handle.read(min(remaining, COUNT_BLOCK))
                    if not data:
                        break
                    remaining -= len(data)
                    if not data.endswith(b"\n"):
                        # The last line started inside the share: it is ours, whole.
                        rest = handle.readline()
                        remaining -= len(rest)
                        data += rest
                    lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
                    empty = len(_EMPTY_LINE.findall(data))
                    if data.startswith(b"\n") or data.startswith(b"\r\n"):  # a block starts at a line start
                        empty += 1
                    total += lines - empty
        return total

    def run(self, predictor):
        """Predicts the worker's share; a full disk (the output folder's or the data folder's, where progress is
        committed) ends the job with that reason, and what was committed stays: a rerun resumes there."""
        try:
            self._run(predictor)
        except OSError as e:
            if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
            raise common.JobError("%s: %s, after %d prediction(s) and %d error(s) were committed; free space and "
                                  "submit the job again" % (self.full_folder(), e.strerror,
                                                            self.progress["predictionCount"],
                                                            self.progress["errorCount"])) from None

    def full_folder(self):
        """Which of the output folder and the job's state folder has no space left (the output folder if both)."""
        for label, folder in (("the output folder " + self.output, self.output),
                              ("the executor's data folder (this job's progress, " + self.state_dir + ")",
                               self.state_dir)):
            try:
                stat = os.statvfs(folder)
            except OSError:
                continue
            if stat.f_bavail * stat.f_frsize < 1 << 20:
                return label + " is full"
        return "a disk this job writes to is full (%s or %s)" % (self.output, self.state_dir)

    def _run(self, predictor):
        os.makedirs(self.output, exist_ok=True)
        os.makedirs(self.state_dir, exist_ok=True)
        self.load_progress()
        start, end = shard_range(self.plan, self.shard)
        if self.progress["done"]:
            common.log("worker %d of %d: its share was done before (%d predictions, %d errors)"
                       % (self.shard, self.workers, self.progress["predictionCount"], self.progress["errorCount"]))
            return
        resume = tuple(self.progress["position"]) if self.progress["position"] else None
        if self.progress["totalInstances"] is None:
            self.progress["totalInstances"] = self.count(start, end)
        common.log("worker %d of %d: bytes [%d, %d) of %d input file(s), %d instance(s)%s"
                   % (self.shard, self.workers, start, end, len(self.plan["files"]), self.progress["totalInstances"],
                      "; resuming after %d prediction(s) and %d error(s)"
                      % (self.progress["predictionCount"], self.progress["errorCount"]) if resume else ""))
        results = self.open_output(self.results_path, self.progress["resultsBytes"])
        errors = self.open_output(self.errors_path, self.progress["errorsBytes"])
        data_format = self.plan["dataFormat"]
        is_json = data_format == "JSON"
        scan = json.JSONDecoder().scan_once
        batch_size = max(1, int(self.plan.get("batchSize") or 64))
        position = resume
        last_commit = last_log = time.monotonic()
        with results, errors:
            # Nothing read yet: the share's first line, and the count, are committed.
            self.commit(position, results, errors)
            for index, path, first, high in spans(self.plan, start, end, resume):
                with open_input(path) as handle:
                    handle.seek(first)
                    offset = first
                    while offset < high:
                        # One batch: up to batch_size lines that start before `high` (the next worker's).
                        chunk = list(itertools.islice(handle, batch_size))
                        if not chunk:
                            break
                        instances, texts, offsets = [], [], []
                        for line in chunk:
                            if offset >= high:
                                break
                            line_offset = offset
                            offset += len(line)
                            raw = line.rstrip(b"\r\n")
                            if not raw:
                                continue  # an empty line is no instance (count() agrees)
                            try:
                                if is_json:  # the common case, inline: the scanner without decode()'s wrapper
                                    decoded = raw.decode("utf-8").strip()
                                    try:
                                        instance, stop = scan(decoded, 0)
                                    except StopIteration:
                                        raise ValueError("Expecting value: char 0") from None
                                    if stop != len(decoded):
                                        raise ValueError("Extra data: char %d" % stop)
                                    text = raw
                                else:
                                    instance, text = parse(data_format, raw)
                                if isinstance(instance, (list, dict)) \
                                        and prediction_server.depth(instance, self.max_depth) > self.max_depth:
                                    raise ValueError("the instance nests lists or objects more than %d levels deep"
                                                     % self.max_depth)
                            except RecursionError:
                                # A line nested deeper than the decoder goes: that line's error, never the job's.
                                self.error(errors, "the instance nests lists or objects more than %d levels deep"
                                           % self.max_depth, path, line_offset, raw)
                                continue
                            except ValueError as e:
                                self.error(errors, ("not a JSON instance: %s" % e) if is_json else str(e), path,
                                           line_offset, raw)
                                continue
                            instances.append(instance)
                            texts.append(text)
                            offsets.append(line_offset)
                        if instances:
                            self.predict(predictor, instances, texts, offsets, path, results, errors)
                        position = (index, offset)
                        now = time.monotonic()
                        if now - last_commit >= COMMIT_SECONDS:
                            self.commit(position, results, errors)
                            last_commit = now
                        if now - last_log >= LOG_SECONDS:
                            common.log("worker %d: %d predictions, %d errors"
                                       % (self.shard, self.progress["predictionCount"], self.progress["errorCount"]))
                            last_log = now
            self.commit(position, results, errors, done=True)
        common.log("worker %d of %d done: %d predictions, %d errors in %.1f s"
                   % (self.shard, self.workers, self.progress["predictionCount"], self.progress["errorCount"],
                      self.progress["seconds"]))

    def error(self, errors, message, path, offset, raw):
        text = raw.decode("utf-8", errors="replace")
        record = {"error": message, "file": path, "offset": offset, "line": text[:MAX_ERROR_LINE]}
        errors.write((json.dumps(record) + "\n").encode("utf-8"))
        self.progress["errorCount"] += 1

    def predict(self, predictor, instances, texts, offsets, path, results, errors):
        unchecked = getattr(predictor, "predict_unchecked", None)
        try:
            if unchecked is not None and not self.kwargs:
                predictions = list(unchecked(instances))
            else:
                predictions = list(predictor.predict(instances, **self.kwargs))
            if len(predictions) != len(instances):
                raise ValueError("the model answered %d predictions for %d instances" % (len(predictions),
                                                                                         len(instances)))
        except Exception:  # noqa: BLE001 - which instance is bad is found one by one below
            predictions = None
        if predictions is None:
            # One bad instance fails its batch: each is tried alone, and only the bad ones are errors.
            good_instances, good_texts, good_offsets, good_predictions = [], [], [], []
            for instance, text, offset in zip(instances, texts, offsets):
                try:
                    answer = list(predictor.predict([instance], **self.kwargs))
                    if len(answer) != 1:
                        raise ValueError("the model answered %d predictions for 1 instance" % len(answer))
                except Exception as e:  # noqa: BLE001 - the runtime's message is the reason
                    self.error(errors, prediction_server._message(e), path, offset, text)
                    continue
                good_instances.append(instance)
                good_texts.append(text)
                good_offsets.append(offset)
                good_predictions.append(answer[0])
            instances, texts, offsets, predictions = good_instances, good_texts, good_offsets, good_predictions
        explained = None
        if self.explanation and instances:
            instances, texts, predictions, explained = self.explain(predictor, instances, texts, offsets, predictions,
                                                                    path, errors)
        self.write(results, texts, predictions, explained)

    def explain(self, predictor, instances, texts, offsets, predictions, path, errors):
        """The explanations of the good instances (one call; one by one when that fails): an instance that cannot
        be explained becomes an error line, so each result line carries its explanation."""
        from . import explanations
        try:
            answer = explanations.explain(predictor, self.baseline, instances, self.explanation)["explanations"]
            return instances, texts, predictions, answer
        except Exception:  # noqa: BLE001 - which instance cannot be explained is found one by one below
            pass
        kept = ([], [], [], [])
        for instance, text, offset, prediction in zip(instances, texts, offsets, predictions):
            try:
                one = explanations.explain(predictor, self.baseline, [instance], self.explanation)["explanations"][0]
            except Exception as e:  # noqa: BLE001 - the method's message is the reason
                self.error(errors, "cannot be explained: %s" % prediction_server._message(e), path, offset, text)
                continue
            for part, value in zip(kept, (instance, text, prediction, one)):
                part.append(value)
        return kept

    def write(self, results, texts, predictions, explained=None):
        if self.csv_output:
            lines = [(csv_line(p) + "\n").encode("utf-8") for p in predictions]
        elif explained is not None:
            encode = self.encode
            lines = [b'{"instance": %s, "prediction": %s, "explanation": %s}\n'
                     % (text, encode(p).encode("utf-8"), encode(e).encode("utf-8"))
                     for text, p, e in zip(texts, predictions, explained)]
        else:
            encode = self.encode
            lines = [b'{"instance": %s, "prediction": %s}\n' % (text, encode(p).encode("utf-8"))
                     for text, p in zip(texts, predictions)]
        results.write(b"".join(lines))
        self.progress["predictionCount"] += len(lines)


def main(argv):
    parser = common.ArgumentParser(prog="python -m trainyard_algorithms.batch_prediction")
    parser.add_argument("--plan", required=True, help="the job's batch/plan.json (written by the executor)")
    args = parser.parse_args(argv)
    try:
        with open(args.plan, encoding="utf-8") as f:
            plan = json.load(f)
    except (OSError, ValueError) as e:
        raise common.JobError("the batch plan %s cannot be read: %s" % (args.plan, e)) from None
    env = common.ReplicaEnv()
    shard = shard_index(env)
    if shard >= int(plan["workers"]):
        raise common.JobError("this is worker %d, and the plan has %d" % (shard, plan["workers"]))
    model = plan["model"]
    for folder in reversed(model.get("pythonPath") or []):
        sys.path.insert(0, folder)
    started = time.monotonic()
    try:
        predictor, kind = prediction_server.load(model["dir"], model.get("framework") or "",
                                                 model.get("predictionClass") or "")
    except (prediction_server.LoadError, FileNotFoundError, ValueError) as e:
        raise common.JobError("the model in %s cannot be loaded: %s" % (model["dir"], prediction_server._message(e))) \
            from None
    common.log("worker %d: %s loaded from %s in %.2f s" % (shard, kind, model["dir"], time.monotonic() - started))
    Worker(plan, shard).run(predictor)


if __name__ == "__main__":
    common.run(main)
