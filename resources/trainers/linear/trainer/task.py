# SPDX-License-Identifier: GPL-2.0-or-later
"""Fits y = w*x + b to noisy synthetic points with mini-batch SGD, in plain Python.

Run by the service as ``python -m trainer.task [--epochs N] [--learning-rate X] [--batch-size N]
[--examples N] [--seed N] [--job-dir D]``. Every epoch it logs ``epoch N loss L w W b B`` and
reports the loss (mean squared error over all points) as the hyperparameter-tuning metric
``loss``; at the end it writes ``<job-dir>/model.json`` (a tuning trial writes under
``<job-dir>/<trial-id>/``). The points come from a fixed line (w = 3, b = -2) plus Gaussian noise
(sigma 0.1) drawn from --seed, so a run is reproducible and the loss ends near 0.01.
"""

import argparse
import json
import logging
import os
import random
import time

TRUE_W = 3.0
TRUE_B = -2.0
NOISE = 0.1
_reports = []


def report_metric(tag, value, step):
    """One report in cloudml-hypertune's file format (the file named by CLOUD_ML_HP_METRIC_FILE).

    The service reads what a trial reports from that file: one JSON object per line with the value
    as a string under the tag, plus global_step, timestamp, trial and checkpoint_path. The library
    keeps the last 100 reports and rewrites the whole file each time; so does this function.
    """
    path = os.environ.get("CLOUD_ML_HP_METRIC_FILE", "/tmp/hypertune/output.metrics")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    report = {
        tag: str(float(value)),
        "global_step": str(int(step)),
        "timestamp": time.time(),
        "trial": str(os.environ.get("CLOUD_ML_TRIAL_ID", 0)),
        "checkpoint_path": "",
    }
    _reports.append(report)
    del _reports[:-100]
    with open(path, "w") as f:
        for r in _reports:
            f.write(json.dumps(r, sort_keys=True) + "\n")


def trial_id():
    """The tuning trial this replica runs, from TF_CONFIG's task.trial or CLOUD_ML_TRIAL_ID; "" outside tuning."""
    try:
        trial = json.loads(os.environ.get("TF_CONFIG", "{}")).get("task", {}).get("trial", "")
    except ValueError:
        trial = ""
    return str(trial or os.environ.get("CLOUD_ML_TRIAL_ID", ""))


def main():
    parser = argparse.ArgumentParser(prog="python -m trainer.task", description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--learning-rate", type=float, default=0.1)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--examples", type=int, default=512)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--job-dir", default="")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    rng = random.Random(args.seed)
    points = []
    for _ in range(args.examples):
        x = rng.uniform(-1.0, 1.0)
        points.append((x, TRUE_W * x + TRUE_B + rng.gauss(0.0, NOISE)))

    w = b = 0.0
    loss = float("nan")
    for epoch in range(1, args.epochs + 1):
        rng.shuffle(points)
        for start in range(0, len(points), args.batch_size):
            batch = points[start:start + args.batch_size]
            grad_w = sum(2.0 * (w * x + b - y) * x for x, y in batch) / len(batch)
            grad_b = sum(2.0 * (w * x + b - y) for x, y in batch) / len(batch)
            w -= args.learning_rate * grad_w
            b -= args.learning_rate * grad_b
        loss = sum((w * x + b - y) ** 2 for x, y in points) / len(points)
        logging.info("epoch %d loss %.6f w %.4f b %.4f", epoch, loss, w, b)
        report_metric("loss", loss, epoch)

    if args.job_dir:
        out = os.path.join(args.job_dir, trial_id()) if trial_id() else args.job_dir
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "model.json.tmp"), "w") as f:
            json.dump({"w": w, "b": b, "loss": loss, "epochs": args.epochs}, f)
        os.replace(os.path.join(out, "model.json.tmp"), os.path.join(out, "model.json"))
        logging.info("wrote %s", os.path.join(out, "model.json"))


if __name__ == "__main__":
    main()
