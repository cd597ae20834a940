# SPDX-License-Identifier: GPL-2.0-or-later
"""Built-in linear learner: the service's ``gcr.io/cloud-ml-algos/linear_learner_cpu:latest`` and ``_gpu``, in
PyTorch (the service's was TensorFlow 1.14's LinearClassifier/LinearRegressor; Debian has no TensorFlow).

    python -m trainyard_algorithms.linear_learner --preprocess --model_type=classification \\
        --training_data_path=T.csv [--batch_size=100 --max_steps=1000 --learning_rate=0.2 …] --job-dir D

The model: logits = W·standardise(numeric) + b + Σ_c E_c[category_c], one weight row per category (a one-hot
linear model, as the estimator's categorical columns are); a missing or unseen category adds nothing. One logit
for binary classification (sigmoid) and regression, K for K classes (softmax). Weights start at zero, as the
estimator's. Arguments: estimator.add_training_arguments (the service's names and defaults). Outputs:
README.md, "Outputs"; the model file is TorchScript (estimator.py's docstring gives its signature).
"""

from . import common, estimator


def build_parser():
    p = common.ArgumentParser(prog="trainyard_algorithms.linear_learner",
                              description="Built-in linear learner (PyTorch).")
    common.add_data_arguments(p)
    estimator.add_training_arguments(p)
    return p


def build_model(torch, args, n_numeric, cardinalities, out_dim, mean, inv_std):
    nn = torch.nn

    class LinearModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mean", mean)
            self.register_buffer("inv_std", inv_std)
            self.register_buffer("offsets", estimator.category_offsets(torch, cardinalities))
            self.register_buffer("embedding_columns",
                                 estimator.embedding_columns(torch, [(j, out_dim) for j in range(len(cardinalities))]))
            self.n_categorical = len(cardinalities)
            self.out_dim = out_dim
            self.numeric = nn.Linear(n_numeric, out_dim)
            # One weight row per category of every column (estimator.category_offsets); row 0 is "no category"
            # and padding_idx keeps it zero.
            self.categories = nn.Embedding(1 + sum(cardinalities), out_dim, padding_idx=0)
            with torch.no_grad():
                self.numeric.weight.zero_()
                self.numeric.bias.zero_()
                self.categories.weight.zero_()

        def forward(self, numeric, categorical):
            return self.forward_embedded(numeric, self.embed(categorical))

        @torch.jit.export
        def embed(self, categorical):
            """float32 [N, n_categorical · K]: each column's weight row (K outputs), the columns in order."""
            rows = torch.where(categorical >= 0, categorical + self.offsets, torch.zeros_like(categorical))
            return self.categories(rows).reshape(categorical.shape[0], self.n_categorical * self.out_dim)

        @torch.jit.export
        def forward_embedded(self, numeric, embedded):
            out = self.numeric((numeric - self.mean) * self.inv_std)
            return out + embedded.reshape(numeric.shape[0], self.n_categorical, self.out_dim).sum(dim=1)

    model = LinearModel()
    return model, [(list(model.parameters()), "linear")]


def main(argv):
    estimator.run_job(argv, "linear_learner", build_parser(), build_model)


if __name__ == "__main__":
    common.run(main)
