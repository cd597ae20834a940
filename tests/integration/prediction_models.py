# SPDX-License-Identifier: GPL-2.0-or-later
"""Makes the models tst_predictionapi deploys, with the libraries themselves, and what each answers.

Usage: prediction_models.py OUT. Trains on tests/data/builtin/breast_cancer.csv (label first, then 30 numbers):
- OUT/sklearn/model.joblib: a scikit-learn pipeline (StandardScaler + LogisticRegression) predicting the text labels;
- OUT/xgboost/model.bst: an XGBoost booster (binary:logistic, 20 rounds) predicting P(malignant);
- OUT/torch/model.pt: a TorchScript module (Linear 30→2 after a fixed standardisation) answering two logits;
- OUT/explain/{linear,xgboost,torch}: models to explain, each with an explanation_metadata.json (the service's
  format; features "feature_1" … "feature_30" at their training medians): a scikit-learn LinearRegression of the
  label (0/1) on the 30 numbers, and copies of the booster and the TorchScript module above;
- OUT/explain/image: a TorchScript image model (784 pixels, the sum of the top-left 10 × 10 corner of the 28 × 28
  image) whose metadata names one image input with a black baseline, for XRAI;
- OUT/explain/widedeep/model: a built-in wide & deep's model folder (its own training job, --embed_categories
  --use_wide, 200 steps) on tests/data/builtin/sorted_gaps.csv (the target "species" first, two text categories,
  blanks), with the explanation_metadata.json the job wrote, for integrated gradients over raw rows;
- OUT/expected.json: {"instances": the first 5 rows' features, "sklearn"|"xgboost"|"torch": each model's answer,
  "allInstances": every row's features, "sklearnAll"|"xgboostAll": each model's answer to every row (batch jobs),
  "explain": {"names", "baseline", "linearWeights"}}.
"""

import csv
import json
import os
import subprocess
import sys

import joblib
import numpy as np
import torch
import xgboost as xgb
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))


def main(out):
    with open(os.path.join(HERE, "..", "data", "builtin", "breast_cancer.csv"), newline="") as f:
        rows = [row for row in csv.reader(f) if row]
    labels = np.array([row[0] for row in rows])
    X = np.array([[float(v) for v in row[1:]] for row in rows])
    y = (labels == "malignant").astype(np.float64)
    instances = X[:5]

    os.makedirs(os.path.join(out, "sklearn"), exist_ok=True)
    pipeline = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(X, labels)
    joblib.dump(pipeline, os.path.join(out, "sklearn", "model.joblib"))

    os.makedirs(os.path.join(out, "xgboost"), exist_ok=True)
    booster = xgb.train({"objective": "binary:logistic", "max_depth": 3, "nthread": 1}, xgb.DMatrix(X, label=y), 20)
    booster.save_model(os.path.join(out, "xgboost", "model.bst"))

    os.makedirs(os.path.join(out, "torch"), exist_ok=True)
    torch.manual_seed(0)
    mean = torch.tensor(X.mean(axis=0), dtype=torch.float32)
    std = torch.tensor(X.std(axis=0), dtype=torch.float32)

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mean", mean)
            self.register_buffer("std", std)
            self.linear = torch.nn.Linear(30, 2)

        def forward(self, x):
            return self.linear((x - self.mean) / self.std)

    net = Net()
    optimiser = torch.optim.SGD(net.parameters(), lr=0.1)
    inputs = torch.tensor(X, dtype=torch.float32)
    targets = torch.tensor(y, dtype=torch.long)
    for _ in range(50):
        optimiser.zero_grad()
        torch.nn.functional.cross_entropy(net(inputs), targets).backward()
        optimiser.step()
    net.eval()
    scripted = torch.jit.script(net)
    scripted.save(os.path.join(out, "torch", "model.pt"))

    names = ["feature_%d" % (j + 1) for j in range(X.shape[1])]
    baseline = np.median(X, axis=0)
    metadata = {"inputs": {name: {"input_baselines": [float(b)], "index": j}
                           for j, (name, b) in enumerate(zip(names, baseline))},
                "outputs": {"score": {}}, "framework": "trainyard"}
    linear = LinearRegression().fit(X, y)
    for name in ("linear", "xgboost", "torch"):
        folder = os.path.join(out, "explain", name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "explanation_metadata.json"), "w") as f:
            json.dump(metadata, f)
    joblib.dump(linear, os.path.join(out, "explain", "linear", "model.joblib"))
    booster.save_model(os.path.join(out, "explain", "xgboost", "model.bst"))
    scripted.save(os.path.join(out, "explain", "torch", "model.pt"))

    # An image model for XRAI through the executor: it sums the top-left 10 × 10 corner of a 28 × 28 image (784 pixels
    # flat, as the Fashion-MNIST sample's), so its top regions must lie there.
    class Corner(torch.nn.Module):
        def forward(self, x):
            return x.reshape(x.shape[0], 28, 28)[:, :10, :10].sum(dim=(1, 2)).reshape(-1, 1)

    image_folder = os.path.join(out, "explain", "image")
    os.makedirs(image_folder, exist_ok=True)
    torch.jit.script(Corner()).save(os.path.join(image_folder, "model.pt"))
    with open(os.path.join(image_folder, "explanation_metadata.json"), "w") as f:
        json.dump({"inputs": {"pixels": {"input_baselines": [0.0], "modality": "image"}},
                   "outputs": {"score": {}}, "framework": "trainyard"}, f)

    # A built-in wide & deep, trained by its own job as the executor would run it.
    table = os.path.join(HERE, "..", "data", "builtin", "sorted_gaps.csv")
    job_dir = os.path.join(out, "explain", "widedeep")
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "..", "resources", "algorithms"))
    job = subprocess.run([sys.executable, "-m", "trainyard_algorithms.wide_deep", "--preprocess",
                          "--model_type=classification", "--embed_categories", "--use_wide", "--hidden_units=8,8",
                          "--dnn_optimizer_type=adam", "--dnn_learning_rate=0.01", "--max_steps=200", "--seed=3",
                          "--training_data_path=" + table, "--job-dir", job_dir], env=env, capture_output=True,
                         text=True)
    if job.returncode != 0:
        sys.exit("the wide & deep job failed:\n" + job.stdout + job.stderr)
    with open(table, newline="") as f:
        gaps = [row[1:] for row in csv.reader(f) if row]

    with torch.no_grad():
        torch_answer = scripted(torch.tensor(instances, dtype=torch.float32)).tolist()
    expected = {
        "instances": instances.tolist(),
        "sklearn": pipeline.predict(instances).tolist(),
        "xgboost": booster.predict(xgb.DMatrix(instances)).tolist(),
        "torch": torch_answer,
        "allInstances": X.tolist(),
        "sklearnAll": pipeline.predict(X).tolist(),
        "xgboostAll": booster.predict(xgb.DMatrix(X)).tolist(),
        "explain": {"names": names, "baseline": baseline.tolist(), "linearWeights": linear.coef_.tolist(),
                    "wideDeepRows": [gaps[0], gaps[15], gaps[200], gaps[-1]]},
    }
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f)


if __name__ == "__main__":
    main(sys.argv[1])
