# SPDX-License-Identifier: GPL-2.0-or-later
"""What the linear learner and wide & deep share: their arguments, the TensorFlow-estimator-like training loop in
PyTorch, FTRL, and the TorchScript export.

The service's two algorithms were TensorFlow 1.14 estimators (LinearClassifier/Regressor and
DNNLinearCombined…; research notes §2, §5.4–5.5). Debian ships no TensorFlow, so these are PyTorch models with the
estimators' structure and the service's arguments; ``framework`` says PYTORCH. Where we chose what TensorFlow
does not say, the code says so:

- numeric features are standardised inside the model with the training split's mean and standard deviation
  (gradient methods need comparable scales; the service's pipeline transformed its inputs too, in ways its
  pages do not give);
- a regression target is standardised for training and the model's output scaled back (metrics are in the
  target's units), so the default learning rates work on targets of any size;
- evaluation runs every ``eval_frequency_secs`` of training and after the last step, as train_and_evaluate's
  throttle does; ``eval_steps`` batches of the validation set each time (default: all of it).

Model file: ``model.pt``, a TorchScript module: ``forward(numeric: float32 [N, n_numeric], categorical: int64
[N, n_categorical]) -> probabilities float32 [N, K]`` (classification, K >= 2) or ``values float32 [N]``
(regression); inputs are what ``Preprocessor.transform`` returns (-1 = missing or unseen category).
"""

import math
import os

from . import common, preprocess
from .common import JobError, log, number

FRAMEWORK = "PYTORCH"
OPTIMIZERS = ("ftrl", "adam", "sgd")
LOG_EVERY_STEPS = 100  # training/loss points and log lines
EVAL_BATCH = 8192  # rows per evaluation forward pass when eval_steps is unset


def add_training_arguments(parser):
    """The arguments both algorithms take (research notes §5.4: names verified from public job specs; defaults
    from memory of the reference page unless marked inferred)."""
    g = parser.add_argument_group("training (the service's names)")
    g.add_argument("--model_type", required=True, choices=("classification", "regression"),
                   help="classification or regression (required)")
    g.add_argument("--max_steps", type=number(int, 1), default=None,
                   help="training steps, one batch each (default: 1000, or 10 epochs of the training rows where "
                        "that is more; inferred)")
    g.add_argument("--batch_size", type=number(int, 1), default=100, help="rows per step (default 100)")
    g.add_argument("--learning_rate", type=number(float, 0, low_open=True), default=None,
                   help="the linear part's learning rate (default by --optimizer_type: ftrl and sgd "
                        "min(0.2, 1/sqrt(feature columns)), adam 0.01; the service's 0.001 is too small, see "
                        "README.md)")
    g.add_argument("--eval_steps", type=number(int, 1), default=None,
                   help="validation batches per evaluation (default: the whole validation set)")
    g.add_argument("--eval_frequency_secs", type=number(int, 1), default=600,
                   help="seconds of training between evaluations (default 600)")
    g.add_argument("--optimizer_type", default="ftrl", choices=OPTIMIZERS,
                   help="the linear part's optimizer: ftrl, adam or sgd (default ftrl)")
    g.add_argument("--l1_regularization_strength", type=number(float, 0), default=0.0, help="ftrl (default 0)")
    g.add_argument("--l2_regularization_strength", type=number(float, 0), default=0.0, help="ftrl (default 0)")
    g.add_argument("--l2_shrinkage_regularization_strength", type=number(float, 0), default=0.0,
                   help="ftrl (default 0)")
    g.add_argument("--beta_1", type=number(float, 0, 1, high_open=True), default=0.9, help="adam (default 0.9)")
    g.add_argument("--beta_2", type=number(float, 0, 1, high_open=True), default=0.999, help="adam (default 0.999)")
    g.add_argument("--seed", type=int, default=None,
                   help="seed of the split, the initialisation and the shuffling (default random, recorded in "
                        "metadata.json and the log; inferred)")
    return g


# Default learning rates by part and optimizer, where the job gives none (README.md §2; issue 44). The service's
# documented 0.001 moves an FTRL weight by at most about 0.001·√steps (FTRL's step is lr/√Σg² per weight): 0.03
# after 1,000 steps, where a logistic model of standardised features needs weights of several units (iris 0.73,
# digits 0.86 against scikit-learn's 0.95 and 0.97).
# - linear part, ftrl and sgd: TensorFlow's own default for its linear estimators, min(0.2, 1/√F) for F feature
#   columns (tensorflow_estimator canned/linear.py, _get_default_learning_rate; 0.05–1.0 all within 0.02 of the
#   reference on the evidence tables);
# - linear part, adam: 0.01 (0.001 left iris at 0.91 after 1,000 steps; 0.01 within 0.02 everywhere);
# - deep part, ftrl and sgd: 0.05, TensorFlow's DNN estimators' Adagrad rate (FTRL from the initial weights
#   without l1/l2 is Adagrad); deep part, adam: 0.001, Adam's own default.
LINEAR_RATE_CAP = 0.2
DEFAULT_DNN_RATES = {"ftrl": 0.05, "sgd": 0.05, "adam": 0.001}
DEFAULT_LINEAR_ADAM_RATE = 0.01

# Default --max_steps (inferred; README.md §2): 1,000 steps, or DEFAULT_EPOCHS passes over the training rows where
# that is more. 1,000 steps of 100 rows are two epochs of Fashion-MNIST's 48,000 training rows: wide & deep then
# stood 0.028 below scikit-learn's MLP (0.845 against 0.873), 0.002 after 10 epochs. The kept model (run_job)
# makes the longer run safe on a noisy table.
DEFAULT_MIN_STEPS = 1000
DEFAULT_EPOCHS = 10


def default_max_steps(rows, batch_size):
    """--max_steps when the job gives none: max(1000, ceil(10 · rows / batch)), ``rows`` the training split's."""
    return max(DEFAULT_MIN_STEPS, math.ceil(DEFAULT_EPOCHS * rows / max(1, min(batch_size, rows or 1))))


def default_learning_rate(part, optimizer, features):
    """The learning rate of ``part`` ("linear" or "dnn") trained by ``optimizer`` when the job passes none;
    ``features`` is the linear part's feature column count (CSV columns, a categorical one counting once)."""
    if part == "dnn":
        return DEFAULT_DNN_RATES[optimizer]
    if optimizer == "adam":
        return DEFAULT_LINEAR_ADAM_RATE
    return min(LINEAR_RATE_CAP, 1.0 / math.sqrt(max(1, features)))


def make_ftrl_class(torch):
    class Ftrl(torch.optim.Optimizer):
        """TensorFlow's FTRL-Proximal (tf.compat.v1.train.FtrlOptimizer, ApplyFtrlV2) with its defaults
        learning_rate_power -0.5 and initial_accumulator_value 0.1:

            n' = n + g²;  z += g + 2·l2_shrinkage·w − (√n' − √n)/lr · w;  n = n'
            w = (sign(z)·l1 − z) / (√n'/lr + 2·l2)  where |z| > l1, else 0

        One departure (issue 44): TensorFlow starts z at 0, so the first step leaves (1 − √n/√n') of a non-zero
        initial weight — about 0.001 of it — and a network trained by FTRL loses its random initialisation: its
        ReLU layers start dead and it predicts the class prior (wide & deep gave 0.10 on digits, 0.33 on iris).
        Here z starts where the formula gives the initial weight back, z = −w·(√n/lr + 2·l2) − sign(w)·l1, so
        the first step moves from the initial weights as Adagrad would. For zero-initialised weights (the linear
        learner, the wide part) z starts at 0 and nothing changes."""

        def __init__(self, params, lr, l1=0.0, l2=0.0, l2_shrinkage=0.0, initial_accumulator_value=0.1):
            super().__init__(params, dict(lr=lr, l1=l1, l2=l2, l2_shrinkage=l2_shrinkage,
                                          initial_accumulator_value=initial_accumulator_value))

        @torch.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                lr, l1, l2, shrink = group["lr"], group["l1"], group["l2"], group["l2_shrinkage"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    g = p.grad
                    state = self.state[p]
                    if not state:
                        state["n"] = torch.full_like(p, group["initial_accumulator_value"])
                        state["z"] = -p * (state["n"].sqrt() / lr + 2.0 * l2) - torch.sign(p) * l1
                    n, z = state["n"], state["z"]
                    n_new = n + g * g
                    sqrt_new = n_new.sqrt()
                    g_shr = g + (2.0 * shrink) * p if shrink else g
                    z.add_(g_shr - (sqrt_new - n.sqrt()) / lr * p)
                    n.copy_(n_new)
                    w = (torch.sign(z) * l1 - z) / (sqrt_new / lr + 2.0 * l2)
                    p.copy_(torch.where(z.abs() > l1, w, torch.zeros_like(w)))
            return None

    return Ftrl


def make_optimizer(torch, kind, params, lr, l1, l2, l2_shrinkage, beta_1, beta_2):
    """The optimizer an --optimizer_type names; l1/l2 apply to ftrl only, as on the service."""
    if kind == "ftrl":
        return make_ftrl_class(torch)(params, lr=lr, l1=l1, l2=l2, l2_shrinkage=l2_shrinkage)
    if kind == "adam":
        return torch.optim.Adam(params, lr=lr, betas=(beta_1, beta_2))
    return torch.optim.SGD(params, lr=lr)


def choose_device(env, torch):
    """cuda:0 for a _gpu image (or a hand-started run) when the job has an accelerator and torch sees CUDA;
    else the CPU, with a log line saying why when a GPU was asked for."""
    variant = env.image_variant()
    if variant == "cpu":
        return torch.device("cpu")
    wanted = variant == "gpu" or env.has_gpu is True
    if not wanted:
        return torch.device("cpu")
    if env.has_gpu is False:
        log("GPU: %s asks for a GPU but the job has no accelerator (CUDA_VISIBLE_DEVICES is empty): training on "
            "the CPU" % (env.image or "the job"))
        return torch.device("cpu")
    if not torch.cuda.is_available():
        log("GPU: torch %s sees no CUDA device (Debian's python3-torch is built without CUDA): training on the "
            "CPU" % torch.__version__)
        return torch.device("cpu")
    log("GPU: training on %s" % torch.cuda.get_device_name(0))
    return torch.device("cuda:0")


def make_predictor_class(torch):
    class Predictor(torch.nn.Module):
        """The exported model: the core's logits as probabilities [N, K] or values [N] (module docstring).
        ``kind``: 0 regression (value = mean + std · output), 1 binary (one logit), 2 multi-class."""

        def __init__(self, core, kind: int, y_mean: float, y_std: float):
            super().__init__()
            self.core = core
            self.kind = kind
            self.y_mean = y_mean
            self.y_std = y_std

        def forward(self, numeric, categorical):
            return self.scores(self.core(numeric, categorical))

        @torch.jit.export
        def embed(self, categorical):
            """float32 [N, E]: the categorical columns as the vectors the model reads (see the core's embed())."""
            return self.core.embed(categorical)

        @torch.jit.export
        def scores_embedded(self, numeric, embedded):
            """forward() from embed()'s vectors: integrated gradients walk them (explanations.py)."""
            return self.scores(self.core.forward_embedded(numeric, embedded))

        def scores(self, logits):
            if self.kind == 0:
                return logits[:, 0] * self.y_std + self.y_mean
            if self.kind == 1:
                p = torch.sigmoid(logits[:, 0])
                return torch.stack([1.0 - p, p], dim=1)
            return torch.softmax(logits, dim=1)

    return Predictor


def embedding_columns(torch, widths):
    """int64 [E]: the categorical column each element of a core's embed() output belongs to, from the
    per-column widths of its blocks in order (``[(column, width), …]``); integrated gradients sum a column's
    elements into its attribution (explanations.py)."""
    owner = []
    for column, width in widths:
        owner += [column] * int(width)
    return torch.tensor(owner, dtype=torch.int64)


def category_offsets(torch, cardinalities):
    """int64 [n_categorical]: where each categorical column's categories start in one table of every column's
    categories (1-based: row 0 is "no category"). A model looks up ``where(cat >= 0, cat + offsets, 0)`` once for
    all columns: a lookup per column cost 64 small kernels a step on scikit-learn's digits (issue 44: 30 s a
    1,000-step job, 3 s now)."""
    offsets, start = [], 1
    for k in cardinalities:
        offsets.append(start)
        start += int(k)
    return torch.tensor(offsets, dtype=torch.int64)


def standardisation(torch, np, num):
    """(mean, 1/std) float32 tensors [n_numeric] of the training split's numeric features; std 0 → 1."""
    mean = num.mean(axis=0) if len(num) else np.zeros(num.shape[1])
    std = num.std(axis=0) if len(num) else np.ones(num.shape[1])
    std = np.where(std > 0, std, 1.0)
    return torch.tensor(mean, dtype=torch.float32), torch.tensor(1.0 / std, dtype=torch.float32)


def run_job(argv, algorithm, parser, build_model):
    """The whole job for one PyTorch algorithm.

    ``build_model(torch, args, n_numeric, cardinalities, out_dim, mean, inv_std)`` returns (core module,
    [(param list, "linear"|"dnn")]): which parameters the linear part's optimizer (--optimizer_type,
    --learning_rate, --l1/l2…) and which the DNN's (--dnn_…) train."""
    env = common.ReplicaEnv()
    args = parser.parse_args(argv)
    np = common.require("numpy")
    common.require("pandas")
    torch = common.require("torch")
    for name in ("training_data_path", "validation_data_path", "test_data_path"):
        common.check_local_path(name, getattr(args, name))
    if env.cluster.get("worker") or env.cluster.get("ps"):
        if not env.is_master:
            log("The service's %s trains on one replica only; this %s replica has nothing to do" % (
                algorithm, env.task_type))
            return
        log("The service's %s trains on one replica only: the master trains, the other replicas idle" % algorithm)
    out_dir = env.output_dir(args.job_dir)
    task = args.model_type
    prepared = preprocess.prepare(args, task, out_dir, algorithm)
    seed = prepared.seed if prepared.seed is not None else int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
    if prepared.seed is None:
        log("Seed %d (initialisation and shuffling)" % seed)
    torch.manual_seed(seed)
    pre = prepared.preprocessor
    device = choose_device(env, torch)
    train = prepared.splits["training"]
    mean, inv_std = standardisation(torch, np, train.num)
    if task == "classification":
        num_class = prepared.num_class
        out_dim = 1 if num_class == 2 else num_class
        kind = 1 if num_class == 2 else 2
        y_mean, y_std = 0.0, 1.0
        if num_class > 2:
            log("%d classes: %s" % (num_class, ", ".join(pre.labels[:20]) + (", …" if num_class > 20 else "")))
    else:
        out_dim, kind = 1, 0
        y_mean = float(train.y.mean())
        y_std = float(train.y.std()) or 1.0
    if args.max_steps is None:
        args.max_steps = default_max_steps(len(train), args.batch_size)
        log("max_steps %d: the default for %d training rows in batches of %d (at least 1,000 steps and %d epochs; "
            "README.md §2)" % (args.max_steps, len(train), args.batch_size, DEFAULT_EPOCHS))
    if args.learning_rate is None:
        features = getattr(build_model, "linear_features", lambda n, c: n + c)(train.num.shape[1],
                                                                             train.cat.shape[1])
        args.learning_rate = default_learning_rate("linear", args.optimizer_type, features)
        log("learning_rate %.4g: the default for %s over %d feature columns (README.md §2)" % (
            args.learning_rate, args.optimizer_type, features))
    if getattr(args, "dnn_learning_rate", 0) is None:
        args.dnn_learning_rate = default_learning_rate("dnn", args.dnn_optimizer_type, 0)
        log("dnn_learning_rate %.4g: the default for %s (README.md §2)" % (args.dnn_learning_rate,
                                                                         args.dnn_optimizer_type))
    core, groups = build_model(torch, args, train.num.shape[1], pre.cardinalities(), out_dim, mean, inv_std)
    core.to(device)
    optimizers = []
    for params, part in groups:
        params = [p for p in params if p.requires_grad]
        if not params:
            continue
        if part == "linear":
            optimizers.append(make_optimizer(torch, args.optimizer_type, params, args.learning_rate,
                                             args.l1_regularization_strength, args.l2_regularization_strength,
                                             args.l2_shrinkage_regularization_strength, args.beta_1, args.beta_2))
        else:
            optimizers.append(make_optimizer(torch, args.dnn_optimizer_type, params, args.dnn_learning_rate,
                                             args.dnn_l1_regularization_strength,
                                             args.dnn_l2_regularization_strength,
                                             args.dnn_l2_shrinkage_regularization_strength, args.dnn_beta_1,
                                             args.dnn_beta_2))
    predictor = make_predictor_class(torch)(core, kind, y_mean, y_std)

    def tensors(split):
        y = torch.as_tensor(split.y)
        if task == "regression":
            y = (y.to(torch.float32) - y_mean) / y_std
        elif kind == 1:
            y = y.to(torch.float32)
        return (torch.as_tensor(split.num).to(device), torch.as_tensor(split.cat).to(device), y.to(device))

    x_num, x_cat, y = tensors(train)
    n = len(train)
    if kind == 2:
        loss_fn = torch.nn.CrossEntropyLoss()
    elif kind == 1:
        loss_fn = torch.nn.BCEWithLogitsLoss()
    else:
        loss_fn = torch.nn.MSELoss()
    sink = common.MetricsSink(out_dir, enabled=env.is_master)

    def evaluate(split, steps=None):
        rows = len(split) if steps is None else min(len(split), steps * args.batch_size)
        predictor.eval()
        outs = []
        with torch.no_grad():
            step = EVAL_BATCH if steps is None else args.batch_size
            for start in range(0, rows, step):
                stop = min(rows, start + step)
                outs.append(predictor(torch.as_tensor(split.num[start:stop]).to(device),
                                      torch.as_tensor(split.cat[start:stop]).to(device)).cpu().numpy())
        predictor.train()
        out = np.concatenate(outs) if outs else np.zeros((0,))
        truth = split.y[:rows]
        if task == "classification":
            return common.classification_metrics(truth, out), truth, out.argmax(axis=1)
        return common.regression_metrics(truth, out), truth, out

    log("Training %s (%s): %d rows, %d numeric and %d categorical features, %d steps of %d rows, on %s" % (
        algorithm, task, n, train.num.shape[1], train.cat.shape[1], args.max_steps, args.batch_size, device))
    validation = prepared.splits.get("validation")
    if validation is None:
        log("No validation data: no evaluations during training (pass --validation_data_path or "
            "--validation_split with --preprocess)")
    # The kept model: the one with the lowest validation loss, measured after every epoch (a pass over the training
    # rows) and after the last step. On a small table max_steps is hundreds of epochs, and a network then fits the
    # noise of a regression target (issue 44: wide & deep's diabetes RMSE 68 to 74 after 1,000 steps, 55 with
    # the kept epoch's model); the validation split the service holds out is what picks the step, as early
    # stopping does. Without validation rows the last step's model is kept.
    steps_per_epoch = max(1, math.ceil(n / min(args.batch_size, n)))
    if validation is not None:
        v_num, v_cat, v_y = tensors(validation)
    best = None  # (validation loss, step, state_dict copy)

    def validation_loss():
        core.eval()
        with torch.no_grad():
            logits = core(v_num, v_cat)
            value = float(loss_fn(logits if kind == 2 else logits[:, 0], v_y))
        core.train()
        return value

    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(n, generator=generator)
    position = 0
    clock = common.Stopwatch()
    last_eval = clock.seconds()
    running = 0.0
    counted = 0
    batch = min(args.batch_size, n)
    predictor.train()
    for step in range(1, args.max_steps + 1):
        if position + batch > n:  # a new epoch: reshuffle, as a repeated, shuffled input_fn does
            order = torch.randperm(n, generator=generator)
            position = 0
        index = order[position:position + batch].to(device)
        position += batch
        logits = core(x_num.index_select(0, index), x_cat.index_select(0, index))
        target = y.index_select(0, index)
        loss = loss_fn(logits if kind == 2 else logits[:, 0], target)
        for opt in optimizers:
            opt.zero_grad(set_to_none=True)
        loss.backward()
        for opt in optimizers:
            opt.step()
        running += float(loss.detach())
        counted += 1
        if step % LOG_EVERY_STEPS == 0 or step == args.max_steps:
            average = running / counted
            if not math.isfinite(average):
                raise JobError("the training loss is %s at step %d: lower --learning_rate%s" % (
                    average, step, "/--dnn_learning_rate" if hasattr(args, "dnn_learning_rate") else ""))
            sink.scalar("training/loss", average, step)
            if step % (LOG_EVERY_STEPS * 10) == 0 or step == args.max_steps:
                log("[step %d/%d] training loss %.6g (%.1f s)" % (step, args.max_steps, average, clock.seconds()))
            running, counted = 0.0, 0
        if validation is not None and (step % steps_per_epoch == 0 or step == args.max_steps):
            value = validation_loss()
            if math.isfinite(value) and (best is None or value < best[0]):
                best = (value, step, {k: v.detach().clone() for k, v in core.state_dict().items()})
        due = clock.seconds() - last_eval >= args.eval_frequency_secs
        if validation is not None and due and step < args.max_steps:
            metrics, _, _ = evaluate(validation, args.eval_steps)
            sink.validation(step, metrics)
            log("[step %d/%d] validation %s" % (step, args.max_steps, common.format_metrics(metrics)))
            last_eval = clock.seconds()
    log("Trained in %.1f s" % clock.seconds())
    kept_step = args.max_steps
    if best is not None and best[1] != args.max_steps:
        kept_step = best[1]
        core.load_state_dict(best[2])
        log("Kept the model of step %d: the lowest validation loss (%.6g), measured after every epoch of %d steps"
            % (best[1], best[0], steps_per_epoch))
    if validation is not None:
        # The kept model's figures, reported at the last step: a tuning trial's final measurement.
        metrics, _, _ = evaluate(validation, args.eval_steps)
        sink.validation(args.max_steps, metrics)
        log("[step %d/%d] validation %s" % (args.max_steps, args.max_steps, common.format_metrics(metrics)))

    final_split = "test" if "test" in prepared.splits else ("validation" if validation is not None else None)
    final = {}
    if final_split:
        final, truth, predicted = evaluate(prepared.splits[final_split])
        log("%s: %s" % (final_split, common.format_metrics(final)))
        if final_split == "test":
            sink.test(args.max_steps, final)
        common.write_evaluation(out_dir, final_split, task, pre.labels, truth, predicted, final)
    model_dir = os.path.join(out_dir, "model")
    os.makedirs(model_dir, exist_ok=True)
    predictor.eval()
    predictor.to("cpu")
    scripted = torch.jit.script(predictor)
    tmp = os.path.join(model_dir, ".model.pt.tmp%d" % os.getpid())
    scripted.save(tmp)
    os.replace(tmp, os.path.join(model_dir, "model.pt"))
    body = pre.to_json()
    body["model"] = {"file": "model.pt", "algorithm": algorithm}
    common.write_json(os.path.join(model_dir, "preprocessing.json"), body)
    # What projects.explain starts from (the service's explanation_metadata.json): the training means and modes.
    from .explanations import metadata_for_builtin
    common.write_json(os.path.join(model_dir, "explanation_metadata.json"), metadata_for_builtin(body))
    common.write_model_files(model_dir, env, FRAMEWORK,
                             common.deployment_labels(task, kept_step, final, algorithm))
    sink.close()
    log("Model written to %s" % model_dir)
