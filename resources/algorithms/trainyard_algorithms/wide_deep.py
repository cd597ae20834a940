# SPDX-License-Identifier: GPL-2.0-or-later
"""Built-in wide & deep: the service's ``gcr.io/cloud-ml-algos/wide_deep_learner_cpu:latest`` and ``_gpu``, in
PyTorch (the service's was TensorFlow 1.14's DNNLinearCombined estimator; Debian has no TensorFlow).

    python -m trainyard_algorithms.wide_deep --preprocess --model_type=classification --use_wide \\
        --embed_categories --hidden_units=30,30,30 --training_data_path=T.csv --job-dir D

The model (argument meanings from the Vertex AI wide & deep component, whose names match the service's;
research notes §5.5):

- deep part: standardised numeric features, and each categorical column embedded in ceil(√cardinality)
  dimensions (--embed_categories: "Embedding size is the square root of the column cardinality") or one-hot
  (without it; inferred), through --hidden_units ReLU layers with --dnn_dropout, to the logits; trained by
  --dnn_optimizer_type at --dnn_learning_rate (--dnn_l1/l2…, --dnn_beta_1/2).
- wide part (--use_wide: "the categorical columns will be used in the wide part"): a one-hot linear model of the
  categorical columns plus a bias, added to the deep logits; trained by --optimizer_type at --learning_rate.
Defaults: hidden_units 30,30,30, dnn_optimizer_type ftrl, dnn_dropout 0 (the Vertex component's);
dnn_learning_rate by optimizer (ftrl and sgd 0.05, adam 0.001; estimator.default_learning_rate says why) and
learning_rate as the linear learner's (its F: the categorical columns, the wide part's features). use_wide and
embed_categories are bare flags on the service (public job specs pass them without a value), so they default to
off.
"""

import math

from . import common, estimator
from .common import number


def hidden_units(text):
    """"30,30,30" → [30, 30, 30]; each a positive integer."""
    try:
        units = [int(u) for u in str(text).split(",") if u.strip()]
    except ValueError:
        units = []
    if not units or any(u < 1 for u in units):
        import argparse
        raise argparse.ArgumentTypeError("invalid hidden_units value: %r (comma-separated positive integers, "
                                         "e.g. 30,30,30)" % text)
    return units


hidden_units.__name__ = "hidden_units"


def build_parser():
    p = common.ArgumentParser(prog="trainyard_algorithms.wide_deep", description="Built-in wide & deep (PyTorch).")
    common.add_data_arguments(p)
    estimator.add_training_arguments(p)
    g = p.add_argument_group("deep part (the service's names)")
    g.add_argument("--hidden_units", type=hidden_units, default=[30, 30, 30],
                   help="hidden layer sizes, comma-separated (default 30,30,30)")
    common.add_flag(g, "--use_wide", "use the categorical columns in the wide (linear) part")
    common.add_flag(g, "--embed_categories", "embed the categorical columns in the deep part (dimension "
                                             "ceil(sqrt(cardinality)))")
    g.add_argument("--dnn_dropout", type=number(float, 0, 1, high_open=True), default=0.0,
                   help="dropout probability of the hidden layers (default 0)")
    g.add_argument("--dnn_learning_rate", type=number(float, 0, low_open=True), default=None,
                   help="the deep part's learning rate (default by --dnn_optimizer_type: ftrl and sgd 0.05, adam "
                        "0.001; see README.md)")
    g.add_argument("--dnn_optimizer_type", default="ftrl", choices=estimator.OPTIMIZERS,
                   help="the deep part's optimizer: ftrl, adam or sgd (default ftrl)")
    g.add_argument("--dnn_l1_regularization_strength", type=number(float, 0), default=0.0, help="ftrl (default 0)")
    g.add_argument("--dnn_l2_regularization_strength", type=number(float, 0), default=0.0, help="ftrl (default 0)")
    g.add_argument("--dnn_l2_shrinkage_regularization_strength", type=number(float, 0), default=0.0,
                   help="ftrl (default 0)")
    g.add_argument("--dnn_beta_1", type=number(float, 0, 1, high_open=True), default=0.9, help="adam (default 0.9)")
    g.add_argument("--dnn_beta_2", type=number(float, 0, 1, high_open=True), default=0.999,
                   help="adam (default 0.999)")
    return p


def build_model(torch, args, n_numeric, cardinalities, out_dim, mean, inv_std):
    nn = torch.nn
    embed = bool(args.embed_categories)
    use_wide = bool(args.use_wide)
    total = sum(cardinalities)

    class WideDeepModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mean", mean)
            self.register_buffer("inv_std", inv_std)
            self.register_buffer("offsets", estimator.category_offsets(torch, cardinalities))
            self.embed_categories = embed
            self.total = total
            # Deep inputs of the categorical columns: a learnt embedding per column (--embed_categories), or the
            # one-hot vector of every column's categories (total wide, all zeros for "no category").
            self.deep_categories = nn.ModuleList()
            width = n_numeric
            blocks = []  # (column, width) of embed()'s output, in order
            if embed:
                for j, k in enumerate(cardinalities):
                    dim = int(math.ceil(math.sqrt(k)))
                    self.deep_categories.append(nn.Embedding(k + 1, dim, padding_idx=0))
                    blocks.append((j, dim))
            else:
                blocks += [(j, k) for j, k in enumerate(cardinalities)]
            self.deep_width = sum(w for _, w in blocks)
            width += self.deep_width
            if use_wide:
                blocks += [(j, out_dim) for j in range(len(cardinalities))]
            self.register_buffer("embedding_columns", estimator.embedding_columns(torch, blocks))
            self.n_categorical = len(cardinalities)
            self.out_dim = out_dim
            layers = []
            for units in args.hidden_units:
                layers += [nn.Linear(width, units), nn.ReLU()]
                if args.dnn_dropout > 0:
                    layers.append(nn.Dropout(args.dnn_dropout))
                width = units
            layers.append(nn.Linear(width, out_dim))
            self.dnn = nn.Sequential(*layers)
            # The wide part: one weight row per category of every column (row 0, "no category", stays zero).
            self.wide_categories = nn.Embedding(1 + (total if use_wide else 0), out_dim, padding_idx=0)
            self.use_wide = use_wide
            self.wide_bias = nn.Parameter(torch.zeros(out_dim), requires_grad=use_wide)
            with torch.no_grad():
                self.wide_categories.weight.zero_()

        def forward(self, numeric, categorical):
            return self.forward_embedded(numeric, self.embed(categorical))

        @torch.jit.export
        def embed(self, categorical):
            """float32 [N, E]: what the model reads of the categorical columns, as vectors: the deep part's
            (each column's embedding, or its one-hot block of the vocabulary), then with --use_wide each column's
            wide weight row (K outputs). A missing category is the zero vector in each."""
            n = categorical.shape[0]
            parts = [torch.zeros(n, 0, device=categorical.device)]
            if self.embed_categories:
                for i, embedding in enumerate(self.deep_categories):
                    parts.append(embedding(categorical[:, i] + 1))
            else:
                rows = torch.where(categorical >= 0, categorical + self.offsets, torch.zeros_like(categorical))
                one_hot = torch.zeros(n, 1 + self.total, device=categorical.device)
                one_hot.scatter_(1, rows, 1.0)
                parts.append(one_hot[:, 1:])
            if self.use_wide:
                rows = torch.where(categorical >= 0, categorical + self.offsets, torch.zeros_like(categorical))
                parts.append(self.wide_categories(rows).reshape(n, self.n_categorical * self.out_dim))
            return torch.cat(parts, dim=1)

        @torch.jit.export
        def forward_embedded(self, numeric, embedded):
            deep = torch.cat([(numeric - self.mean) * self.inv_std, embedded[:, :self.deep_width]], dim=1)
            out = self.dnn(deep) + self.wide_bias
            if self.use_wide:
                wide = embedded[:, self.deep_width:]
                out = out + wide.reshape(numeric.shape[0], self.n_categorical, self.out_dim).sum(dim=1)
            return out

    model = WideDeepModel()
    wide = ([model.wide_categories.weight, model.wide_bias]) if use_wide else []
    deep = list(model.dnn.parameters()) + list(model.deep_categories.parameters())
    return model, [(wide, "linear"), (deep, "dnn")]


# The wide part's feature columns (estimator.default_learning_rate's F): the categorical ones.
build_model.linear_features = lambda n_numeric, n_categorical: n_categorical


def main(argv):
    estimator.run_job(argv, "wide_deep", build_parser(), build_model)


if __name__ == "__main__":
    common.run(main)
