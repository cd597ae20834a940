# SPDX-License-Identifier: GPL-2.0-or-later
"""Built-in XGBoost: the service's ``gcr.io/cloud-ml-algos/boosted_trees:latest`` (single replica) and
``gcr.io/cloud-ml-algos/xgboost_dist:latest`` (distributed), on Debian's XGBoost 1.7.

    python -m trainyard_algorithms.xgboost --training_data_path=T.csv [--preprocess] [--objective=…] … --job-dir D

Arguments: the service's names (research notes §5.2; the Cloud Console's own job spec confirms
``--objective --booster --subsample --colsample_bytree --lambda --tree_method --colsample_bylevel
--scale_pos_weight --updater --refresh_leaf --process_type --grow_policy --num_boost_round --max_depth --eta
--csv_weight --base_score``, and a public script ``--num_class``). The reference page says the algorithm wraps
XGBoost 0.81 and takes its defaults: so every default below is XGBoost 0.81's (marked "0.81"), except where
marked "inferred" and two of ours (issue 44: --num_boost_round 100, --eta 0.1; build_parser says why). With
validation data the model keeps the rounds up to its best validation round (keep_best_rounds). 1.7 renamed
``reg:linear`` to ``reg:squarederror`` (same loss): it is passed on renamed.

Distributed (TF_CONFIG with workers, or the xgboost_dist image): the master starts XGBoost's own Rabit
tracker (``xgboost.tracker.RabitTracker``) on its TF_CONFIG address; every replica joins
``xgboost.collective`` with a fixed rank (master 0, worker i → i+1) and trains on its contiguous block of the
training rows (rank r of W: rows [N·r/W, N·(r+1)/W)); XGBoost all-reduces the gradient histograms. Two choices
make a run of 1 + W replicas give the single replica's model:
- with tree_method hist (or gpu_hist) every replica reads the whole training file and computes the histogram
  bins from all of it (a QuantileDMatrix, outside the collective) before it keeps its block, so the bins are
  the single replica's; XGBoost's own distributed sketch merges per-replica sketches into other bins, and the
  models then differ (measured: mean |Δp| 0.04 on 24,000 rows). The cost: each replica reads and sketches
  all rows. With approx (auto's choice when distributed) the sketch is per replica, as XGBoost does it;
- every replica evaluates the whole validation file, so the metrics XGBoost all-reduces are the single
  replica's (a sharded AUC would be a weighted mean of per-shard AUCs).
Only the master writes. The service's distributed algorithm takes no --preprocess (research notes §2): neither
does this.

Outputs (README.md, "Outputs"): ``<out>/model/model.bst`` (XGBoost's binary format, as the service wrote),
``preprocessing.json``, ``deployment_config.yaml``, ``builtin_algorithm_output.json``;
``<out>/artifacts/evaluation.json`` and ``feature_importance.json``; event scalars and hypertune reports per
boosting round. ``<out>`` is the job dir, or ``<job-dir>/<trial>`` in a tuning trial.
"""

import os

from . import common, preprocess
from .common import JobError, log, number

# Objectives XGBoost 1.7 knows (0.81's, plus the later ones a config may name).
OBJECTIVES = ("reg:linear", "reg:squarederror", "reg:squaredlogerror", "reg:logistic", "reg:pseudohubererror",
              "reg:absoluteerror", "reg:gamma", "reg:tweedie", "binary:logistic", "binary:logitraw", "binary:hinge",
              "count:poisson", "survival:cox", "survival:aft", "multi:softmax", "multi:softprob", "rank:pairwise",
              "rank:ndcg", "rank:map")
RENAMED_OBJECTIVES = {"reg:linear": "reg:squarederror"}
# What XGBoost's metrics mean in the common tags (error → accuracy = 1 - error).
_TAG_OF_METRIC = {"logloss": "log_loss", "mlogloss": "log_loss", "error": "accuracy", "merror": "accuracy",
                  "auc": "auc", "rmse": "rmse", "mae": "mae"}
FRAMEWORK = "XGBOOST"


def build_parser(distributed):
    p = common.ArgumentParser(prog="trainyard_algorithms.xgboost",
                              description="Built-in XGBoost (%s)." % ("distributed" if distributed else
                                                                       "single replica"))
    common.add_data_arguments(p, preprocessing=not distributed)
    g = p.add_argument_group("hyperparameters (the service's names; XGBoost 0.81's defaults)")
    g.add_argument("--objective", default="reg:linear", choices=OBJECTIVES, metavar="OBJECTIVE",
                   help="learning task (default reg:linear, XGBoost 0.81's; one of %s)" % ", ".join(OBJECTIVES))
    g.add_argument("--eval_metric", default=None,
                   help="metric(s) XGBoost evaluates, comma-separated (default: by objective, XGBoost's)")
    g.add_argument("--booster", default="gbtree", choices=("gbtree", "gblinear", "dart"), help="(default gbtree)")
    g.add_argument("--num_boost_round", type=number(int, 1), default=100,
                   help="boosting rounds (default 100; XGBoost's 10 is too few, see README.md); with validation "
                        "data the model keeps the rounds up to the best validation round")
    g.add_argument("--max_depth", type=number(int, 0), default=6, help="(default 6)")
    # Two defaults differ from XGBoost 0.81's (README.md §2; issue 44): 100 rounds, not 10 (10 left digits 0.035
    # and breast cancer 0.025 below scikit-learn's HistGradientBoosting), and eta 0.1, not 0.3 (100 rounds of
    # 0.3 fit the noise of the diabetes regression: RMSE 6 % over the reference even at the best round, 3 % at
    # 0.1); 100 rounds of 0.1 are scikit-learn's and LightGBM's defaults too.
    g.add_argument("--eta", type=number(float, 0, 1), default=0.1,
                   help="learning rate (default 0.1; XGBoost's 0.3, see README.md)")
    g.add_argument("--gamma", type=number(float, 0), default=0.0, help="min split loss (default 0)")
    g.add_argument("--min_child_weight", type=number(float, 0), default=1.0, help="(default 1)")
    g.add_argument("--max_delta_step", type=number(float, 0), default=0.0, help="(default 0)")
    g.add_argument("--subsample", type=number(float, 0, 1, low_open=True), default=1.0, help="(default 1)")
    g.add_argument("--colsample_bytree", type=number(float, 0, 1, low_open=True), default=1.0, help="(default 1)")
    g.add_argument("--colsample_bylevel", type=number(float, 0, 1, low_open=True), default=1.0,
                   help="(default 1)")
    g.add_argument("--lambda", dest="reg_lambda", type=number(float, 0), default=1.0, help="L2 weight (default 1)")
    g.add_argument("--alpha", type=number(float, 0), default=0.0, help="L1 weight (default 0)")
    g.add_argument("--tree_method", default="auto",
                   choices=("auto", "exact", "approx", "hist", "gpu_hist", "gpu_exact"),
                   help="(default auto; gpu_hist on an accelerator, see README.md)")
    g.add_argument("--sketch_eps", type=number(float, 0, 1, low_open=True, high_open=True), default=0.03,
                   help="approx's sketch accuracy (default 0.03; XGBoost 1.7 uses max_bin instead)")
    g.add_argument("--scale_pos_weight", type=number(float, 0, low_open=True), default=1.0, help="(default 1)")
    g.add_argument("--updater", default=None, help="comma-separated updaters (default: XGBoost's choice)")
    g.add_argument("--refresh_leaf", type=number(int, 0, 1), default=1, help="(default 1)")
    g.add_argument("--process_type", default="default", choices=("default", "update"), help="(default default)")
    g.add_argument("--grow_policy", default="depthwise", choices=("depthwise", "lossguide"),
                   help="(default depthwise)")
    g.add_argument("--max_leaves", type=number(int, 0), default=0, help="(default 0: no limit)")
    g.add_argument("--max_bin", type=number(int, 2), default=256, help="(default 256)")
    g.add_argument("--predictor", default=None, choices=("cpu_predictor", "gpu_predictor", "auto"),
                   help="(default: XGBoost's choice)")
    g.add_argument("--num_parallel_tree", type=number(int, 1), default=1, help="(default 1)")
    g.add_argument("--sample_type", default="uniform", choices=("uniform", "weighted"), help="dart (default uniform)")
    g.add_argument("--normalize_type", default="tree", choices=("tree", "forest"), help="dart (default tree)")
    g.add_argument("--rate_drop", type=number(float, 0, 1), default=0.0, help="dart (default 0)")
    g.add_argument("--one_drop", type=number(int, 0, 1), default=0, help="dart (default 0)")
    g.add_argument("--skip_drop", type=number(float, 0, 1), default=0.0, help="dart (default 0)")
    g.add_argument("--tweedie_variance_power", type=number(float, 1, 2, low_open=True, high_open=True),
                   default=1.5, help="reg:tweedie (default 1.5)")
    g.add_argument("--base_score", type=float, default=0.5, help="initial prediction (default 0.5)")
    g.add_argument("--seed", type=int, default=None,
                   help="XGBoost's random seed (default 0) and, with --preprocess, the split's (default random)")
    g.add_argument("--num_class", type=number(int, 2), default=None,
                   help="classes of a multi: objective (default: the target's classes, logged)")
    g.add_argument("--csv_weight", type=number(int, 0, 1), default=0,
                   help="1: the CSV's second column holds instance weights (default 0)")
    return p


def task_of(objective):
    return "classification" if objective.startswith(("binary:", "multi:")) else "regression"


def booster_params(args, tree_method, num_class):
    """XGBoost's parameter dict from the arguments (only what the chosen booster and objective read, so that
    XGBoost 1.7 does not warn about unused ones)."""
    objective = RENAMED_OBJECTIVES.get(args.objective, args.objective)
    params = {
        "objective": objective,
        "booster": args.booster,
        "eta": args.eta,
        "seed": args.seed if args.seed is not None else 0,
        "base_score": args.base_score,
        "lambda": args.reg_lambda,
        "alpha": args.alpha,
    }
    if args.booster in ("gbtree", "dart"):
        params.update({
            "max_depth": args.max_depth, "gamma": args.gamma, "min_child_weight": args.min_child_weight,
            "max_delta_step": args.max_delta_step, "subsample": args.subsample,
            "colsample_bytree": args.colsample_bytree, "colsample_bylevel": args.colsample_bylevel,
            "tree_method": tree_method, "grow_policy": args.grow_policy, "max_leaves": args.max_leaves,
            "max_bin": args.max_bin, "num_parallel_tree": args.num_parallel_tree,
            "process_type": args.process_type, "refresh_leaf": args.refresh_leaf,
        })
        if args.updater:
            params["updater"] = args.updater
    if args.booster == "dart":
        params.update({"sample_type": args.sample_type, "normalize_type": args.normalize_type,
                       "rate_drop": args.rate_drop, "one_drop": args.one_drop, "skip_drop": args.skip_drop})
    if args.predictor:
        params["predictor"] = args.predictor
    if objective.startswith("binary:"):
        params["scale_pos_weight"] = args.scale_pos_weight
    if objective == "reg:tweedie":
        params["tweedie_variance_power"] = args.tweedie_variance_power
    if objective.startswith("multi:"):
        params["num_class"] = num_class
    return params


def eval_metrics(args, task, num_class):
    """The metrics XGBoost evaluates on the validation set: the job's --eval_metric first, then what the common
    tags need (classification: logloss/error/auc or mlogloss/merror; regression: rmse, mae)."""
    own = [m.strip() for m in (args.eval_metric or "").split(",") if m.strip()]
    if task == "classification":
        ours = ["logloss", "error", "auc"] if num_class == 2 else ["mlogloss", "merror"]
    else:
        ours = ["rmse", "mae"]
    return own + [m for m in ours if m not in own]


def choose_tree_method(args, env, xgb):
    """gpu_hist where the job has an accelerator and this XGBoost has CUDA; a log line says what was chosen
    when a GPU was asked for (by --tree_method=gpu_hist/gpu_exact, or an accelerator with auto/hist) and
    cannot be used."""
    asked = args.tree_method
    wants_gpu = asked in ("gpu_hist", "gpu_exact") or (env.has_gpu is True and asked in ("auto", "hist"))
    if not wants_gpu:
        return asked
    cuda = bool(xgb.build_info().get("USE_CUDA"))
    fallback = "hist" if asked in ("gpu_hist", "gpu_exact", "hist") else asked
    if not cuda:
        log("GPU: this XGBoost (%s) is built without CUDA (Debian's python3-xgboost is); tree_method %s "
            "instead of gpu_hist" % (xgb.__version__, fallback))
        return fallback
    if env.has_gpu is False:
        log("GPU: the job has no accelerator (CUDA_VISIBLE_DEVICES is empty); tree_method %s instead of %s"
            % (fallback, asked))
        return fallback
    log("GPU: tree_method gpu_hist on CUDA device(s) %s" % os.environ.get("CUDA_VISIBLE_DEVICES", "?"))
    return "gpu_hist"


def probabilities(np, margin, num_class):
    """Class probabilities [N, K] from XGBoost's margins ([N] for binary, [N, K] for multi)."""
    if num_class == 2:
        p = 1.0 / (1.0 + np.exp(-np.asarray(margin, dtype=np.float64).reshape(-1)))
        return np.column_stack([1.0 - p, p])
    m = np.asarray(margin, dtype=np.float64).reshape(len(margin), -1)
    m = m - m.max(axis=1, keepdims=True)
    e = np.exp(m)
    return e / e.sum(axis=1, keepdims=True)


def predict(booster, dmatrix, task, num_class, np):
    """(probabilities [N, K], predicted class [N]) for classification, (values [N], values) for regression.
    Classification goes through the margins, so multi:softmax and binary:logitraw give probabilities too."""
    if task == "classification":
        proba = probabilities(np, booster.predict(dmatrix, output_margin=True), num_class)
        return proba, proba.argmax(axis=1)
    values = booster.predict(dmatrix).astype(np.float64)
    return values, values


class _Cluster:
    """Rabit membership of one replica (distributed mode): rank, world size, and the tracker on the master."""

    def __init__(self, env, xgb):
        if env.cluster.get("ps"):
            raise JobError("distributed XGBoost takes no parameter servers (the service: 'Do not specify any "
                           "parameter servers'); TF_CONFIG has %d" % len(env.cluster["ps"]))
        masters = env.cluster.get("master") or []
        if not masters:
            raise JobError("TF_CONFIG has no master address (cluster.master), which the tracker needs")
        workers = env.cluster.get("worker") or []
        self.world = 1 + len(workers)
        if env.task_type == "master":
            self.rank = 0
        elif env.task_type == "worker":
            if not 0 <= env.task_index < len(workers):
                raise JobError("TF_CONFIG task worker %d is not in the cluster's %d workers"
                               % (env.task_index, len(workers)))
            self.rank = 1 + env.task_index
        else:
            raise JobError("distributed XGBoost runs on the master and workers, not on a %s replica"
                           % env.task_type)
        host, port = common.host_of(masters[0])
        address = common.resolve(host)
        self.tracker = None
        if self.rank == 0:
            from xgboost.tracker import RabitTracker
            # Loopback stays loopback; any other address listens on every interface, as a host name can
            # resolve to 127.0.1.1 on the master (Debian's /etc/hosts) while workers reach it from outside.
            bind = address if address.startswith("127.") else "0.0.0.0"
            self.tracker = RabitTracker(host_ip=bind, n_workers=self.world, port=port, sortby="task")
            self.tracker.start(self.world)
            log("Rabit tracker listening on %s:%d for %d replicas" % (bind, port, self.world))
        self.args = {"DMLC_TRACKER_URI": address, "DMLC_TRACKER_PORT": port, "DMLC_TASK_ID": str(self.rank),
                     # rabit sleeps 2, 4, 6… s between tries: 10 tries wait up to 90 s for the master.
                     "DMLC_WORKER_CONNECT_RETRY": 10}
        self.collective = xgb.collective

    def __enter__(self):
        self.collective.init(**self.args)
        log("Joined the XGBoost collective as rank %d of %d" % (self.collective.get_rank(),
                                                                self.collective.get_world_size()))
        return self

    def __exit__(self, *exc):
        self.collective.finalize()
        if self.tracker is not None:
            self.tracker.join()


class _NullCluster:
    rank, world = 0, 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def main(argv):
    env = common.ReplicaEnv()
    variant = env.image_variant()
    workers = env.cluster.get("worker") or []
    distributed = variant == "distributed" or (variant == "" and bool(workers))
    if variant == "single" and workers:
        raise JobError("gcr.io/cloud-ml-algos/boosted_trees:latest is the single-replica algorithm (the job has %d "
                       "workers); use gcr.io/cloud-ml-algos/xgboost_dist:latest to train on several" % len(workers))
    args = build_parser(distributed).parse_args(argv)
    np = common.require("numpy")
    common.require("pandas")
    xgb = common.require("xgboost")
    for name in ("training_data_path", "validation_data_path", "test_data_path"):
        common.check_local_path(name, getattr(args, name))
    out_dir = env.output_dir(args.job_dir)
    task = task_of(args.objective)
    if args.objective in RENAMED_OBJECTIVES:
        log("objective %s is %s in XGBoost %s (the same loss)" % (args.objective, RENAMED_OBJECTIVES[args.objective],
                                                                  xgb.__version__))
    if args.sketch_eps != 0.03:
        common.warn("--sketch_eps is ignored: XGBoost %s sizes approx's sketch by --max_bin" % xgb.__version__)
    # The master's tracker listens from the start; every replica joins the collective once its data is ready
    # (rabit's connect retries cover the time the master takes to load its own).
    cluster = _Cluster(env, xgb) if distributed else _NullCluster()
    data = load(args, env, xgb, np, task, out_dir, cluster, distributed)
    with cluster:
        booster, sink = train(args, xgb, np, out_dir, cluster, distributed, *data)
    # After the collective is closed: a DMatrix built inside it all-reduces its shape with peers that are gone.
    prepared, num_class = data[0], data[1]
    if cluster.rank == 0:
        finish(booster, prepared, num_class, sink, env=env, np=np, xgb=xgb, task=task, out_dir=out_dir)
    else:
        log("Replica %d done" % cluster.rank)


def _training_paths(args, distributed):
    """Distributed XGBoost takes a glob pattern (several files, read in name order) [M, research notes §5.3]."""
    if not distributed or not any(ch in args.training_data_path for ch in "*?["):
        return [args.training_data_path]
    import glob
    paths = sorted(glob.glob(args.training_data_path))
    if not paths:
        raise JobError("argument --training_data_path: no file matches %s" % args.training_data_path)
    return paths


def load(args, env, xgb, np, task, out_dir, cluster, distributed):
    """Reads and prepares the data (every replica reads the whole training file), checks the classes, and
    builds what must be built outside the collective. Returns (prepared, num_class, params, bins): ``bins`` is
    the training data's QuantileDMatrix for the hist tree methods (its quantile cuts are the bins of every
    replica, so a distributed run bins exactly as a single replica does), else None."""
    master = cluster.rank == 0
    multi = args.objective.startswith("multi:")
    num_class = 2 if args.objective.startswith("binary:") else (args.num_class if multi else None)
    paths = _training_paths(args, distributed)
    if len(paths) > 1:
        raise JobError("argument --training_data_path: %d files match %s; Trainyard reads one training file "
                       "(concatenate them)" % (len(paths), args.training_data_path))
    args.training_data_path = paths[0]
    prepared = preprocess.prepare(args, task, out_dir, "xgboost", num_class=num_class, keep_missing=True,
                                  weight_column=bool(args.csv_weight), write=master)
    pre = prepared.preprocessor
    if task == "classification":
        k = len(pre.labels)
        if multi and args.num_class is None:
            log("num_class %d: taken from the target's classes (%s)" % (
                k, ", ".join(pre.labels[:20]) + (", …" if k > 20 else "")))
        elif multi and args.num_class < k:
            raise JobError("argument --num_class: %d, but the target has %d classes (%s)"
                           % (args.num_class, k, ", ".join(pre.labels[:20])))
        if not multi and k != 2:
            raise JobError("argument --objective: %s needs 2 classes, the target has %d (%s); use multi:softprob"
                           % (args.objective, k, ", ".join(pre.labels[:20])))
        num_class = max(k, args.num_class or 0) if multi else 2
        if multi and num_class > len(pre.labels):
            pre.labels = pre.labels + [str(i) for i in range(len(pre.labels), num_class)]
    tree_method = choose_tree_method(args, env, xgb)
    params = booster_params(args, tree_method, num_class)
    params["eval_metric"] = eval_metrics(args, task, num_class)
    bins = None
    if args.booster != "gblinear" and tree_method in ("hist", "gpu_hist"):
        train = prepared.splits["training"]
        bins = xgb.QuantileDMatrix(pre.flat(train.num, train.cat), label=train.y, weight=train.weight,
                                   missing=np.nan, max_bin=args.max_bin)
    return prepared, num_class, params, bins


def train(args, xgb, np, out_dir, cluster, distributed, prepared, num_class, params, bins):
    """Trains inside the collective. Rank r of W trains on rows [N·r/W, N·(r+1)/W) of the training split;
    everyone evaluates the whole validation split. Returns (booster, the master's MetricsSink)."""
    master = cluster.rank == 0
    pre = prepared.preprocessor
    splits = prepared.splits
    train = splits["training"]
    x = pre.flat(train.num, train.cat)
    if cluster.world > 1:
        n = len(train)
        lo, hi = n * cluster.rank // cluster.world, n * (cluster.rank + 1) // cluster.world
        log("Replica %d of %d: training rows %d to %d of %d" % (cluster.rank, cluster.world, lo + 1, hi, n))
        weight = None if train.weight is None else train.weight[lo:hi]
        if bins is not None:
            dtrain = xgb.QuantileDMatrix(x[lo:hi], label=train.y[lo:hi], weight=weight, missing=np.nan,
                                         max_bin=args.max_bin, ref=bins)
        else:
            dtrain = xgb.DMatrix(x[lo:hi], label=train.y[lo:hi], weight=weight, missing=np.nan)
    else:
        dtrain = bins if bins is not None else xgb.DMatrix(x, label=train.y, weight=train.weight, missing=np.nan)
    del x
    evals = []
    if "validation" in splits:
        val = splits["validation"]
        evals.append((xgb.DMatrix(pre.flat(val.num, val.cat), label=val.y, weight=val.weight, missing=np.nan),
                      "validation"))
    elif master:
        log("No validation data: no per-round metrics (pass --validation_data_path%s)"
            % ("" if distributed else " or --validation_split"))
    sink = common.MetricsSink(out_dir, enabled=master)
    log("Training: %d rows x %d features, %s" % (dtrain.num_row(), dtrain.num_col(),
                                                 " ".join("%s=%s" % kv for kv in sorted(params.items())
                                                          if kv[0] != "eval_metric")))
    callbacks = [round_reporter(xgb, sink, args.num_boost_round, master)] if evals else []
    history = {}
    try:
        booster = xgb.train(params, dtrain, num_boost_round=args.num_boost_round, evals=evals,
                            callbacks=callbacks, verbose_eval=False, evals_result=history)
    except xgb.core.XGBoostError as e:
        lines = [line for line in str(e).strip().splitlines() if line.strip()]
        raise JobError("XGBoost: %s" % (lines[0] if lines else e)) from None
    if evals:
        booster, kept = keep_best_rounds(booster, history, params, args, master)
        values = validation_values(history, kept - 1)
        if master:  # the kept model's figures at the last round: a tuning trial's final measurement
            sink.validation(args.num_boost_round, values)
            log("[round %d/%d] validation %s" % (args.num_boost_round, args.num_boost_round,
                                                 common.format_metrics(values)))
    return booster, sink


# Metrics XGBoost improves by raising (its early stopping's rule); the others it lowers.
_MAXIMIZED_METRICS = ("auc", "aucpr", "map", "ndcg", "pre")


def keep_best_rounds(booster, history, params, args, master):
    """The booster cut to its best validation round (issue 44): the rounds up to the lowest (or, for auc, map,
    ndcg, pre, highest) value of the first eval_metric — the job's --eval_metric, else logloss, mlogloss or
    rmse. More rounds than a small table bears fit its noise (diabetes at eta 0.3: RMSE 7 % over the reference
    after 100 rounds, 6 % at the best one); the validation split the service holds out picks the count, as
    XGBoost's early stopping does, without stopping (every round is reported). Every replica computes the same cut (all
    evaluate the whole validation file). Returns (booster, rounds kept)."""
    metric = params["eval_metric"][0]
    series = history.get("validation", {}).get(metric) or []
    rounds = booster.num_boosted_rounds()
    if len(series) != rounds or rounds < 2:
        return booster, rounds
    maximize = metric.split("@")[0] in _MAXIMIZED_METRICS
    best = max(range(rounds), key=lambda i: (series[i] if maximize else -series[i], -i))
    if best + 1 == rounds:
        return booster, rounds
    if args.booster == "gblinear":  # a linear booster has no rounds to cut
        if master:
            log("Validation %s was best at round %d of %d; a gblinear model keeps every round" % (
                metric, best + 1, rounds))
        return booster, rounds
    if master:
        log("Kept rounds 1 to %d of %d: the best validation %s (%.6g; round %d: %.6g)" % (
            best + 1, rounds, metric, series[best], rounds, series[-1]))
    return booster[:best + 1], best + 1


def finish(booster, prepared, num_class, sink, env, np, xgb, task, out_dir):
    """The master's outputs: the model folder, the final evaluation, feature importance, test metrics."""
    pre = prepared.preprocessor
    splits = prepared.splits
    rounds = booster.num_boosted_rounds()
    model_dir = os.path.join(out_dir, "model")
    os.makedirs(model_dir, exist_ok=True)
    booster.save_model(os.path.join(model_dir, "model.bst"))
    common.write_json(os.path.join(model_dir, "preprocessing.json"), pre.to_json())
    # What projects.explain starts from (the service's explanation_metadata.json): the training means and modes.
    from .explanations import metadata_for_builtin
    common.write_json(os.path.join(model_dir, "explanation_metadata.json"), metadata_for_builtin(pre.to_json()))
    final_split = "test" if "test" in splits else ("validation" if "validation" in splits else None)
    final = {}
    if final_split:
        split = splits[final_split]
        matrix = xgb.DMatrix(pre.flat(split.num, split.cat), label=split.y, missing=np.nan)
        out, predicted = predict(booster, matrix, task, num_class, np)
        final = (common.classification_metrics(split.y, out) if task == "classification"
                 else common.regression_metrics(split.y, out))
        log("%s: %s" % (final_split, common.format_metrics(final)))
        if final_split == "test":
            sink.test(rounds, final)
        common.write_evaluation(out_dir, final_split, task, pre.labels, split.y, predicted, final)
    _write_importance(out_dir, booster, pre, matrix if final_split else None, np)
    common.write_model_files(model_dir, env, FRAMEWORK, common.deployment_labels(task, rounds, final, "xgboost"))
    sink.close()
    log("Model written to %s" % model_dir)


def validation_values(evals_log, index=-1):
    """The common tags from XGBoost's validation results of round ``index`` (0-based; default the latest):
    {"accuracy" (1 - error/merror), "log_loss", "auc", "rmse", "mae", "loss" (log_loss, or rmse²)}, plus any
    other --eval_metric under its own name."""
    values = {}
    for name, series in evals_log.get("validation", {}).items():
        value = float(series[index])
        tag = _TAG_OF_METRIC.get(name)
        if tag:
            values.setdefault(tag, 1.0 - value if tag == "accuracy" else value)
        else:
            values.setdefault(name, value)
    if "log_loss" in values:
        values["loss"] = values["log_loss"]
    elif "rmse" in values:
        values["loss"] = values["rmse"] ** 2
    return values


def round_reporter(xgb, sink, rounds, master):
    """An XGBoost callback: after every round the validation metrics as event scalars and hypertune reports,
    and a log line (master only; the other replicas take part in the metrics' all-reduce and say nothing)."""

    class RoundReporter(xgb.callback.TrainingCallback):
        def after_iteration(self, model, epoch, evals_log):
            # The last round's report is the kept model's, made after training (train()).
            if master and epoch + 1 < rounds:
                values = validation_values(evals_log)
                sink.validation(epoch + 1, values)
                log("[round %d/%d] validation %s" % (epoch + 1, rounds, common.format_metrics(values)))
            return False  # never stops training early

    return RoundReporter()


def _write_importance(out_dir, booster, pre, matrix=None, np=None):
    """``<out>/artifacts/feature_importance.json``: XGBoost's split gain per encoded feature and summed per CSV
    column (0-based index, target = 0): {"importance_type": "gain", "features": [{"feature", "column", "kind",
    "value"?, "total_gain", "splits", "gain"}], "columns": [{"column", "total_gain", "splits", "gain",
    "mean_abs_attribution"?}]} ("gain" = total_gain / splits, XGBoost's "gain"). With ``matrix`` (the final split:
    test, else validation), each column's global importance as explanations measure it: the mean over the split's
    rows of |the column's TreeSHAP attribution| (its one-hot features' attributions added up first; in margin
    space, averaged over the classes of a multi-class model), "attribution_method" saying so (issue 47)."""
    total = booster.get_score(importance_type="total_gain")
    splits = booster.get_score(importance_type="weight")
    features = pre.features()
    rows, by_column = [], {}
    for i, f in enumerate(features):
        key = "f%d" % i
        if key not in total:
            continue
        g, n = float(total[key]), int(splits.get(key, 0))
        rows.append(dict(f, feature=i, total_gain=g, splits=n, gain=g / n if n else 0.0))
        c = by_column.setdefault(f["column"], {"column": f["column"], "total_gain": 0.0, "splits": 0})
        c["total_gain"] += g
        c["splits"] += n
    for c in by_column.values():
        c["gain"] = c["total_gain"] / c["splits"] if c["splits"] else 0.0
    body = {"importance_type": "gain", "features": rows}
    if matrix is not None and matrix.num_row() > 0:
        contribs = np.asarray(booster.predict(matrix, pred_contribs=True))  # [N, F+1] or [N, K, F+1]
        if contribs.ndim == 2:
            contribs = contribs[:, None, :]
        per_column = {}
        for i, f in enumerate(features):
            per_column.setdefault(f["column"], []).append(i)
        for column, indices in per_column.items():
            # A column's attribution is its encoded features' sum (a one-hot block moves the margin together).
            attribution = contribs[:, :, indices].sum(axis=2)  # [N, K]
            c = by_column.setdefault(column, {"column": column, "total_gain": 0.0, "splits": 0, "gain": 0.0})
            c["mean_abs_attribution"] = float(np.abs(attribution).mean())
        body["attribution_method"] = ("mean |TreeSHAP attribution| over the %d rows of the final split, in margin "
                                      "(log-odds) space" % matrix.num_row())
    body["columns"] = sorted(by_column.values(), key=lambda c: c["column"])
    folder = os.path.join(out_dir, "artifacts")
    os.makedirs(folder, exist_ok=True)
    common.write_json(os.path.join(folder, "feature_importance.json"), body)


if __name__ == "__main__":
    common.run(main)
