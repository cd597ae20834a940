#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench_explain's baselines and its built-in model, with the package the executor's nodes run.

    explain_baseline.py builtin TABLE.csv JOB_DIR
        trains the built-in XGBoost algorithm (--preprocess, binary:logistic, 20 rounds) on TABLE into JOB_DIR, as a
        training job's master does; its JOB_DIR/model is then deployed.
    explain_baseline.py inprocess MODEL_DIR FRAMEWORK INSTANCES.json PATHS SECONDS
        the floor of online explanation: the same sampled Shapley (explanations.explain, PATHS paths) on one instance
        at a time in one Python process, with the model and baseline loaded once; prints {"p50Ms": …}.
    explain_baseline.py gradients MODEL_DIR INSTANCES.json|fashion-mnist STEPS SECONDS
        integrated gradients of a TorchScript model two ways, alternating: batched (explanations.integrated_gradients:
        one forward/backward over the path's STEPS + 1 points) and a per-step loop (one forward/backward per point, the
        way it is often written); prints {"batchedP50Ms": …, "loopP50Ms": …} per instance.
"""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "..", "..", "resources", "algorithms")
sys.path.insert(0, PACKAGE)

from trainyard_algorithms import explanations, prediction_server  # noqa: E402


def builtin(table, job_dir):
    env = dict(os.environ, PYTHONPATH=PACKAGE, OMP_NUM_THREADS="1", CLOUD_ML_JOB_ID="bench_explain",
               TRAINYARD_ALGORITHM_IMAGE="gcr.io/cloud-ml-algos/boosted_trees:latest")
    env.pop("TF_CONFIG", None)
    subprocess.run([sys.executable, "-m", "trainyard_algorithms.xgboost", "--preprocess", "--training_data_path=" + table,
                    "--objective=binary:logistic", "--num_boost_round=20", "--job-dir", job_dir],
                   env=env, check=True, stdout=subprocess.DEVNULL)


def inprocess(model_dir, framework, instances_path, paths, seconds):
    predictor, _ = prediction_server.load(model_dir, framework, "")
    baseline = explanations.baselines_for(model_dir)
    with open(instances_path) as f:
        instances = json.load(f)
    config = {"method": "sampledShapley", "numPaths": paths}
    samples = []
    deadline = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < deadline:
        t0 = time.perf_counter()
        explanations.explain(predictor, baseline, [instances[i % len(instances)]], config, seed=i)
        samples.append((time.perf_counter() - t0) * 1000.0)
        i += 1
    print(json.dumps({"p50Ms": statistics.median(samples), "count": len(samples)}))


def gradients(model_dir, instances_path, steps, seconds):
    import numpy as np
    import torch
    predictor, _ = prediction_server.load(model_dir, "PYTORCH", "")
    if instances_path == "fashion-mnist":
        # The test set's first 20 images, raw pixels as the sample's model takes them.
        import gzip
        raw = gzip.open("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz").read()
        instances = np.frombuffer(raw, np.uint8, offset=16).reshape(-1, 784)[:20].astype(float).tolist()
    else:
        with open(instances_path) as f:
            instances = json.load(f)
    model = predictor.model

    def loop(instance, k):
        # One forward and backward per point of the path, summed by the trapezoid rule: the same integral.
        x = torch.as_tensor(np.asarray([instance], dtype=np.float32))
        b = torch.zeros_like(x)
        grads = []
        for s in range(steps + 1):
            point = (b + (s / steps) * (x - b)).detach().requires_grad_(True)
            out = model(point).reshape(1, -1)
            g, = torch.autograd.grad(out[0, k], point)
            grads.append(g)
        total = sum((grads[s] + grads[s + 1]) for s in range(steps)) / (2.0 * steps)
        return (total * (x - b)).detach().numpy()

    batched, looped = [], []
    deadline = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < deadline:
        instance = instances[i % len(instances)]
        k = int(np.argmax(predictor.predict_unchecked([instance])[0]))
        t0 = time.perf_counter()
        fast = explanations.integrated_gradients(predictor, instance, 0.0, steps, [k])[k][0]
        t1 = time.perf_counter()
        slow = loop(instance, k)[0]
        t2 = time.perf_counter()
        if not np.allclose(fast, slow, rtol=1e-3, atol=1e-5):
            raise SystemExit("the batched and the looped integrals differ")
        batched.append((t1 - t0) * 1000.0)
        looped.append((t2 - t1) * 1000.0)
        i += 1
    print(json.dumps({"batchedP50Ms": statistics.median(batched), "loopP50Ms": statistics.median(looped),
                      "count": len(batched)}))


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "builtin":
        builtin(sys.argv[2], sys.argv[3])
    elif mode == "inprocess":
        inprocess(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), float(sys.argv[6]))
    elif mode == "gradients":
        gradients(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    else:
        raise SystemExit("unknown mode %r" % mode)
