#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Baselines of bench_builtin (issue 29): what the built-in algorithms are measured against.

Modes (each prints one JSON object on stdout; progress goes to stderr):

  --write-csv OUT [--limit N]
      Writes Fashion-MNIST (Debian's dataset-fashion-mnist, /usr/share/datasets/fashion-mnist, IDX files) as the
      service's CSV: OUT/fmnist_train.csv (60,000 rows) and OUT/fmnist_test.csv (10,000 rows), each row the label
      (0-9) then the 784 pixels (0-255), no header. --limit keeps the first N rows of each (quick runs).
      Answers {"train": path, "test": path, "rows": {"train": n, "test": n}, "columns": 785, "seconds": s}.

  --xgboost --train T --test T [--rounds 20] [--param KEY=VALUE ...]
      pandas.read_csv of both files + xgboost.train in this one process, as a user would write it. Default
      parameters: objective multi:softprob, num_class 10, tree_method hist, eta 0.1 (the built-in's default since
      issue 44; XGBoost's defaults otherwise): the built-in job given --objective=multi:softprob
      --tree_method=hist --num_boost_round=20 trains the same (it has no validation data, so it keeps every
      round).
      Answers {"read_s", "train_s", "predict_s", "total_s", "cpu_s", "test_accuracy", "params", "rounds"}.

  --linear --train T --test T [--batch-size 100] [--max-steps 6000] [--learning-rate 0.001]
           [--optimizer adam|sgd] [--seed 1]
      A plain PyTorch loop of the linear learner's model on the same data: logits = W·standardise(x) + b
      (784 → 10, zero init), softmax cross-entropy, --max-steps batches drawn from a shuffled permutation
      (reshuffled each epoch) — what trainyard_algorithms.linear_learner trains with --model_type=classification
      --optimizer_type=adam (or sgd) and the same --batch_size/--max_steps/--learning_rate, without --preprocess.
      Answers {"read_s", "train_s", "total_s", "cpu_s", "test_accuracy", "steps", "batch_size"}.

  --reference ALGORITHM --train T --test T [--task classification|regression]
      Issue 44's reference for a built-in algorithm run with only the arguments the service requires and our
      defaults (xgboost: --preprocess --objective=multi:softprob; linear_learner, wide_deep: --preprocess
      --model_type=classification): the standard scikit-learn pipeline of tests/algorithms/evidence.py
      (evidence.reference_model: numbers mean-imputed and standardised, text one-hot; HistGradientBoosting,
      LogisticRegression or MLP (64, 32)) fitted on the whole training file, scored on the test file.
      Answers {"read_s", "train_s", "total_s", "cpu_s", "test_accuracy" (classification) or "test_rmse",
      "model"}.

Times are wall-clock seconds (time.perf_counter): XGBoost and PyTorch use several threads, and the bench compares
with a job's create → SUCCEEDED wall time. cpu_s is the process's CPU time (all threads). Run it with Debian's
/usr/bin/python3 (python3-xgboost, python3-pandas, python3-torch).
"""

import argparse
import gzip
import json
import os
import sys
import time

DATA_DIR = "/usr/share/datasets/fashion-mnist"


def progress(message):
    print(message, file=sys.stderr, flush=True)


def read_idx(path):
    """An IDX file (optionally gzip'd) as a numpy array: magic 0x0000 08 NDIM, big-endian u32 dims, u8 data."""
    import numpy as np
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if data[:2] != b"\0\0" or data[2] != 0x08:
        raise ValueError("%s is not an unsigned-byte IDX file" % path)
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def find(name):
    for candidate in (name, name + ".gz"):
        path = os.path.join(DATA_DIR, candidate)
        if os.path.exists(path):
            return path
    raise SystemExit("ERROR: %s not found in %s (sudo apt install dataset-fashion-mnist)" % (name, DATA_DIR))


def write_csv(out, limit):
    import numpy as np
    import pandas as pd
    start = time.perf_counter()
    os.makedirs(out, exist_ok=True)
    answer = {"rows": {}, "columns": 785}
    for split, images, labels in (("train", "train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
                                  ("test", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")):
        x = read_idx(find(images)).reshape(-1, 784)
        y = read_idx(find(labels))
        if limit:
            x, y = x[:limit], y[:limit]
        table = pd.DataFrame(np.column_stack([y, x]).astype(np.int64))
        path = os.path.join(out, "fmnist_%s.csv" % split)
        progress("writing %s (%d rows)" % (path, len(table)))
        table.to_csv(path, header=False, index=False)
        answer[split] = os.path.abspath(path)
        answer["rows"][split] = len(table)
    answer["seconds"] = time.perf_counter() - start
    return answer


def read(path):
    import pandas as pd
    frame = pd.read_csv(path, header=None)
    return frame.iloc[:, 1:].to_numpy(dtype="float32"), frame.iloc[:, 0].to_numpy()


def parse_value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def run_xgboost(args):
    import numpy as np
    import xgboost
    params = {"objective": "multi:softprob", "num_class": 10, "tree_method": "hist", "eta": 0.1}
    for item in args.param or []:
        key, _, value = item.partition("=")
        params[key] = parse_value(value)
    cpu = time.process_time()
    start = time.perf_counter()
    x, y = read(args.train)
    tx, ty = read(args.test)
    read_s = time.perf_counter() - start
    progress("read in %.1f s; training %d rounds: %s" % (read_s, args.rounds, params))
    t = time.perf_counter()
    booster = xgboost.train(params, xgboost.DMatrix(x, label=y), num_boost_round=args.rounds)
    train_s = time.perf_counter() - t
    t = time.perf_counter()
    p = booster.predict(xgboost.DMatrix(tx))
    predicted = p.argmax(axis=1) if p.ndim == 2 else (p > 0.5).astype(np.int64)
    predict_s = time.perf_counter() - t
    return {"read_s": read_s, "train_s": train_s, "predict_s": predict_s, "total_s": time.perf_counter() - start,
            "cpu_s": time.process_time() - cpu, "test_accuracy": float((predicted == ty).mean()),
            "params": params, "rounds": args.rounds, "xgboost": xgboost.__version__}


def run_linear(args):
    import numpy as np
    import torch
    cpu = time.process_time()
    start = time.perf_counter()
    x, y = read(args.train)
    tx, ty = read(args.test)
    read_s = time.perf_counter() - start
    torch.manual_seed(args.seed)
    t = time.perf_counter()
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    std = np.where(std > 0, std, 1.0)
    xs = torch.as_tensor((x - mean) / std, dtype=torch.float32)
    ys = torch.as_tensor(y, dtype=torch.int64)
    model = torch.nn.Linear(784, 10)
    torch.nn.init.zeros_(model.weight)
    torch.nn.init.zeros_(model.bias)
    if args.optimizer == "adam":
        optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    else:
        optimizer = torch.optim.SGD(model.parameters(), lr=args.learning_rate)
    loss_fn = torch.nn.CrossEntropyLoss()
    generator = torch.Generator().manual_seed(args.seed)
    n = len(ys)
    order = torch.randperm(n, generator=generator)
    position = 0
    for _ in range(args.max_steps):
        if position + args.batch_size > n:
            order = torch.randperm(n, generator=generator)
            position = 0
        index = order[position:position + args.batch_size]
        position += args.batch_size
        loss = loss_fn(model(xs[index]), ys[index])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    train_s = time.perf_counter() - t
    with torch.no_grad():
        logits = model(torch.as_tensor((tx - mean) / std, dtype=torch.float32))
    accuracy = float((logits.argmax(dim=1).numpy() == ty).mean())
    return {"read_s": read_s, "train_s": train_s, "total_s": time.perf_counter() - start,
            "cpu_s": time.process_time() - cpu, "test_accuracy": accuracy, "steps": args.max_steps,
            "batch_size": args.batch_size, "torch": torch.__version__}


def run_reference(args):
    """The evidence table's reference (tests/algorithms/evidence.py) on one training and one test file."""
    import math
    import warnings
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "algorithms"))
    import evidence
    cpu = time.process_time()
    start = time.perf_counter()
    train = evidence.read_frame(args.train)
    test = evidence.read_frame(args.test)
    read_s = time.perf_counter() - start
    model = evidence.reference_model(args.reference, args.task, train, 0)
    classification = args.task == "classification"
    y = train["c0"].astype(str) if classification else train["c0"].astype(float)
    progress("fitting %s on %d rows" % (evidence.REFERENCE_NAMES[(args.reference, args.task)], len(train)))
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence warnings: the reference runs scikit-learn's defaults
        model.fit(train.iloc[:, 1:], y)
    train_s = time.perf_counter() - t
    predicted = model.predict(test.iloc[:, 1:])
    truth = test["c0"].astype(str) if classification else test["c0"].astype(float)
    answer = {"read_s": read_s, "train_s": train_s, "total_s": time.perf_counter() - start,
              "cpu_s": time.process_time() - cpu, "model": evidence.REFERENCE_NAMES[(args.reference, args.task)]}
    figures = evidence.score(args.task, truth, [str(p) for p in predicted] if classification else predicted)
    if classification:
        answer["test_accuracy"] = figures["accuracy"]
    else:
        answer["test_rmse"] = figures["rmse"]
        answer["test_r2"] = figures["r2"] if math.isfinite(figures["r2"]) else None
    return answer


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write-csv", metavar="OUT", help="write Fashion-MNIST as the service's CSV into OUT")
    mode.add_argument("--xgboost", action="store_true", help="the XGBoost baseline")
    mode.add_argument("--linear", action="store_true", help="the linear learner baseline")
    mode.add_argument("--reference", choices=("xgboost", "linear_learner", "wide_deep"),
                      help="issue 44's scikit-learn reference for a built-in algorithm with our defaults")
    p.add_argument("--task", choices=("classification", "regression"), default="classification",
                   help="--reference: the task (default classification)")
    p.add_argument("--limit", type=int, default=0, help="--write-csv: first N rows of each split only")
    p.add_argument("--train", help="training CSV (--xgboost, --linear, --reference)")
    p.add_argument("--test", help="test CSV (--xgboost, --linear, --reference)")
    p.add_argument("--rounds", type=int, default=20, help="--xgboost: boosting rounds (default 20)")
    p.add_argument("--param", action="append", metavar="KEY=VALUE", help="--xgboost: a parameter (repeatable)")
    p.add_argument("--batch-size", type=int, default=100)
    p.add_argument("--max-steps", type=int, default=6000)
    p.add_argument("--learning-rate", type=float, default=0.001)
    p.add_argument("--optimizer", choices=("adam", "sgd"), default="adam")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if args.write_csv:
        answer = write_csv(args.write_csv, args.limit)
    else:
        if not args.train or not args.test:
            p.error("--train and --test are required")
        if args.reference:
            answer = run_reference(args)
        else:
            answer = run_xgboost(args) if args.xgboost else run_linear(args)
    print(json.dumps(answer, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
