#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Baselines of bench_tuning (issue 13): Optuna's TPE sampler and a plain scikit-learn GP-EI loop.

bench_tuning starts this script with Debian's /usr/bin/python3 (BENCH_PYTHON overrides it), writes one JSON
request to its stdin and reads one JSON answer from its stdout; progress goes to stderr. Requests:

- {"mode": "check", "points": {FUNCTION: [assignment, ...]}}
  answers {"values": {FUNCTION: [objective, ...]}, "python": version, "available": {"tpe": null or why not,
  "gp": null or why not}, "versions": {"optuna": ..., "sklearn": ...}}. bench_tuning compares the values with
  its own (tests/support/optimizerfunctions.h) before it trusts any figure from here.
- {"mode": "run", "baselines": ["tpe", "gp"], "functions": [FUNCTION, ...], "seeds": S, "trials": T,
   "timing": {"function": FUNCTION, "histories": {"50": [assignment, ...], ...}, "warmups": W, "runs": R}}
   "jobs": J, "cache": PATH or absent, "use_cache": false}
  answers {"best": {BASELINE: {FUNCTION: [[best objective after trial 1..T] per seed]}},
  "cached": {BASELINE: {FUNCTION: number of those seeds read from the cache}},
  "suggest_ms": {BASELINE: {"50": [R CPU times in ms], ...}}}.

The studies run in J worker processes (default: the CPU count), one (baseline, function, seed) study each. Every
study is deterministic for its seed (TPESampler(seed=s); the GP-EI loop's NumPy generators; one BLAS thread), so
the pool changes the wall time, not the traces. Each trace is stored in the JSON file PATH under a key of the
baseline, function, seed, trial count, this script's SHA-256 and the library versions; with "use_cache" the
traces found there are answered instead of run again, and "cached" counts them so that bench_tuning can mark its
lines. Times are never cached: they are measured by the main process after the pool has finished.

An assignment is a list of parameter values in the space's order (numbers; strings for CATEGORICAL), as the
C++ side's Assignment. Times are the process's CPU time (time.process_time) with BLAS held to one thread, as
our optimiser is single-threaded and measured in its thread's CPU time: the machines are shared, and wall time
there measures the neighbours.
"""

import os

# One BLAS thread, set before numpy loads: see the docstring.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import hashlib
import json
import math
import multiprocessing
import sys
import time
import warnings

# ---------------------------------------------------------------------------------------------------------------
# The test functions: tests/support/optimizerfunctions.h, operation for operation (same libm calls, same order of
# floating-point operations), so that both sides compute the same doubles. Change them together.


def branin(a):
    x1, x2 = float(a[0]), float(a[1])
    pi = math.pi
    b = 5.1 / (4 * pi * pi)
    c = 5 / pi
    t = 1 / (8 * pi)
    u = x2 - b * x1 * x1 + c * x1 - 6
    return u * u + 10 * (1 - t) * math.cos(x1) + 10


_H6_ALPHA = (1.0, 1.2, 3.0, 3.2)
_H6_A = ((10, 3, 17, 3.5, 1.7, 8), (0.05, 10, 17, 0.1, 8, 14), (3, 3.5, 1.7, 10, 17, 8), (17, 8, 0.05, 10, 0.1, 14))
_H6_P = ((1312, 1696, 5569, 124, 8283, 5886), (2329, 4135, 8307, 3736, 1004, 9991),
         (2348, 1451, 3522, 2883, 3047, 6650), (4047, 8828, 8732, 5743, 1091, 381))


def hartmann6(a):
    total = 0.0
    for i in range(4):
        inner = 0.0
        for j in range(6):
            diff = float(a[j]) - _H6_P[i][j] * 1e-4
            inner += _H6_A[i][j] * diff * diff
        total += _H6_ALPHA[i] * math.exp(-inner)
    return -total


_M4_FLOOR = (0.30, 0.18, 0.12)
_M4_BEST_RATE = (-1.7, -2.5, -3.8)
_M4_BEST_BATCH = (0.0, 1.0, 2.0)


def mixed4(a):
    """Ours; formula and optimum (0.12) in optimizerfunctions.h."""
    c = {"sgd": 0, "momentum": 1}.get(a[3], 2)
    l = math.log10(float(a[0]))
    b = math.log2(float(a[2]) / 64)
    d = l - (_M4_BEST_RATE[c] + 0.3 * b)
    units = math.log2(float(a[1]) / 96)
    batch = b - _M4_BEST_BATCH[c]
    return _M4_FLOOR[c] + (1.2 if d > 0 else 0.35) * d * d + 0.25 * units * units + 0.04 * batch * batch


def goldstein_price(a):
    x1, x2 = float(a[0]), float(a[1])
    s = x1 + x2 + 1
    a1 = 19 - 14 * x1 + 3 * x1 * x1 - 14 * x2 + 6 * x1 * x2 + 3 * x2 * x2
    t = 2 * x1 - 3 * x2
    a2 = 18 - 32 * x1 + 12 * x1 * x1 + 48 * x2 - 36 * x1 * x2 + 27 * x2 * x2
    return (1 + s * s * a1) * (30 + t * t * a2)


def rosenbrock(a):
    total = 0.0
    for i in range(len(a) - 1):
        x, nxt = float(a[i]), float(a[i + 1])
        valley = nxt - x * x
        total += 100 * valley * valley + (x - 1) * (x - 1)
    return total


def styblinski_tang(a):
    total = 0.0
    for v in a:
        x = float(v)
        total += x * x * x * x - 16 * x * x + 5 * x
    return 0.5 * total


def ackley(a):
    squares, cosines = 0.0, 0.0
    for v in a:
        x = float(v)
        squares += x * x
        cosines += math.cos(2 * math.pi * x)
    n = len(a)
    return -20 * math.exp(-0.2 * math.sqrt(squares / n)) - math.exp(cosines / n) + 20 + math.e


def levy(a):
    pi = math.pi
    w = [1 + (float(v) - 1) / 4 for v in a]
    first = math.sin(pi * w[0])
    total = first * first
    for i in range(len(w) - 1):
        s = math.sin(pi * w[i] + 1)
        total += (w[i] - 1) * (w[i] - 1) * (1 + 10 * s * s)
    last = math.sin(2 * pi * w[-1])
    return total + (w[-1] - 1) * (w[-1] - 1) * (1 + last * last)


# Search spaces, as the C++ ParameterSpecs: ("double", lo, hi, log), ("int", lo, hi), ("discrete", values, log),
# ("categorical", values).
SPACES = {
    "branin": [("double", -5.0, 10.0, False), ("double", 0.0, 15.0, False)],
    "hartmann6": [("double", 0.0, 1.0, False)] * 6,
    "mixed4": [("double", 1e-5, 1e-1, True), ("int", 8, 256),
               ("discrete", [16.0, 32.0, 64.0, 128.0, 256.0, 512.0], True),
               ("categorical", ["sgd", "momentum", "adam"])],
    "goldstein_price": [("double", -2.0, 2.0, False)] * 2,
    "rosenbrock2": [("double", -5.0, 10.0, False)] * 2,
    "rosenbrock4": [("double", -5.0, 10.0, False)] * 4,
    "styblinski_tang4": [("double", -5.0, 5.0, False)] * 4,
    "ackley5": [("double", -10.0, 30.0, False)] * 5,
    "levy4": [("double", -10.0, 10.0, False)] * 4,
}
FUNCTIONS = {"branin": branin, "hartmann6": hartmann6, "mixed4": mixed4, "goldstein_price": goldstein_price,
             "rosenbrock2": rosenbrock, "rosenbrock4": rosenbrock, "styblinski_tang4": styblinski_tang,
             "ackley5": ackley, "levy4": levy}


def log(message):
    print("tuning_baselines: " + message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------------
# Optuna TPE, default settings: TPESampler(seed=s), nothing else set.


def tpe_suggest(trial, space):
    """The trial's values for `space`: DOUBLE as suggest_float (log when log-scaled), INTEGER as suggest_int,
    DISCRETE and CATEGORICAL as suggest_categorical (Optuna has no ordered list of numbers)."""
    values = []
    for i, p in enumerate(space):
        name = "p%d" % i
        if p[0] == "double":
            values.append(trial.suggest_float(name, p[1], p[2], log=p[3]))
        elif p[0] == "int":
            values.append(trial.suggest_int(name, p[1], p[2]))
        else:
            values.append(trial.suggest_categorical(name, p[1]))
    return values


def tpe_distributions(space):
    import optuna
    out = {}
    for i, p in enumerate(space):
        name = "p%d" % i
        if p[0] == "double":
            out[name] = optuna.distributions.FloatDistribution(p[1], p[2], log=p[3])
        elif p[0] == "int":
            out[name] = optuna.distributions.IntDistribution(p[1], p[2])
        else:
            out[name] = optuna.distributions.CategoricalDistribution(p[1])
    return out


def tpe_study(seed, space, history, function):
    import optuna
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
    if history:
        distributions = tpe_distributions(space)
        study.add_trials([optuna.trial.create_trial(params={"p%d" % i: v for i, v in enumerate(a)},
                                                    distributions=distributions, value=function(a)) for a in history])
    return study


def tpe_run(function_name, seed, trials):
    space, function = SPACES[function_name], FUNCTIONS[function_name]
    study = tpe_study(seed, space, [], function)
    best, trace = math.inf, []
    for _ in range(trials):
        trial = study.ask()
        value = function(tpe_suggest(trial, space))
        study.tell(trial, value)
        best = min(best, value)
        trace.append(best)
    return trace


def tpe_time_ms(function_name, history, seed):
    space, function = SPACES[function_name], FUNCTIONS[function_name]
    study = tpe_study(seed, space, history, function)
    start = time.process_time()
    trial = study.ask()
    tpe_suggest(trial, space)
    return (time.process_time() - start) * 1e3


# ---------------------------------------------------------------------------------------------------------------
# A plain GP-EI loop, as in the textbooks (Jones et al. 1998; Brochu et al. 2010): scikit-learn's
# GaussianProcessRegressor with a constant × Matérn-5/2 ARD kernel, normalize_y, hyperparameters by maximum
# likelihood with 5 restarts; EI (no margin) maximised by 2,000 uniform candidates and L-BFGS-B from the 5 best.
# The first points are uniform random: as many as our optimiser's initial trials (parameters + 1, 4 to 10).
# Mixed spaces are relaxed to the unit box as our SearchSpace does (log warps, integers over [min − ½, max + ½],
# categories one-hot) and the maximiser is rounded to the nearest feasible point; a point already tried is
# replaced by the best untried candidate, so that discrete spaces do not waste trials on repeats.


def box_dimensions(space):
    return sum(len(p[1]) if p[0] == "categorical" else 1 for p in space)


def _warp(value, lo, hi, log_scale):
    if log_scale:
        return (math.log(value) - math.log(lo)) / (math.log(hi) - math.log(lo))
    return (value - lo) / (hi - lo)


def _unwarp(u, lo, hi, log_scale):
    if log_scale:
        return math.exp(math.log(lo) + u * (math.log(hi) - math.log(lo)))
    return lo + u * (hi - lo)


def encode(space, a):
    out = []
    for p, v in zip(space, a):
        if p[0] == "double":
            out.append(_warp(float(v), p[1], p[2], p[3]))
        elif p[0] == "int":
            out.append(_warp(float(v), p[1] - 0.5, p[2] + 0.5, False))
        elif p[0] == "discrete":
            out.append(_warp(float(v), p[1][0], p[1][-1], p[2]))
        else:
            out.extend(1.0 if c == v else 0.0 for c in p[1])
    return out


def decode(space, x):
    out, k = [], 0
    for p in space:
        if p[0] == "double":
            out.append(min(p[2], max(p[1], _unwarp(min(1.0, max(0.0, x[k])), p[1], p[2], p[3]))))
            k += 1
        elif p[0] == "int":
            v = round(_unwarp(min(1.0, max(0.0, x[k])), p[1] - 0.5, p[2] + 0.5, False))
            out.append(int(min(p[2], max(p[1], v))))
            k += 1
        elif p[0] == "discrete":
            out.append(min(p[1], key=lambda v: abs(_warp(v, p[1][0], p[1][-1], p[2]) - x[k])))
            k += 1
        else:
            n = len(p[1])
            out.append(p[1][max(range(n), key=lambda i: x[k + i])])
            k += n
    return out


def gp_ei_suggest(space, points, values, rng, random_state):
    """The next assignment after `points` (assignments) with objectives `values` (minimised)."""
    import numpy as np
    from scipy.optimize import minimize
    from scipy.stats import norm
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import ConstantKernel, Matern

    d = box_dimensions(space)
    x = np.array([encode(space, a) for a in points])
    y = np.array(values)
    kernel = ConstantKernel(1.0) * Matern(length_scale=np.ones(d), nu=2.5)
    gp = GaussianProcessRegressor(kernel=kernel, alpha=1e-6, normalize_y=True, n_restarts_optimizer=5,
                                  random_state=random_state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning at the length scales' bounds
        gp.fit(x, y)
    best = y.min()

    def ei(z):
        mean, sd = gp.predict(np.atleast_2d(z), return_std=True)
        sd = np.maximum(sd, 1e-12)
        u = (best - mean) / sd
        return (best - mean) * norm.cdf(u) + sd * norm.pdf(u)

    candidates = rng.uniform(size=(2000, d))
    scores = ei(candidates)
    order = np.argsort(-scores)
    finalists = []
    for i in order[:5]:
        result = minimize(lambda z: -ei(z)[0], candidates[i], bounds=[(0.0, 1.0)] * d, method="L-BFGS-B")
        finalists.append((-result.fun, result.x))
    finalists.sort(key=lambda f: -f[0])
    seen = {tuple(a) for a in points}
    for _, z in finalists + [(None, candidates[i]) for i in order]:
        a = decode(space, z)
        if tuple(a) not in seen:
            return a
    return decode(space, finalists[0][1])


def random_assignment(space, rng):
    return decode(space, rng.uniform(size=box_dimensions(space)))


def gp_initial_trials(space):
    return max(4, min(10, len(space) + 1))


def gp_run(function_name, seed, trials):
    import numpy as np
    space, function = SPACES[function_name], FUNCTIONS[function_name]
    rng = np.random.default_rng(seed)
    random_state = np.random.RandomState(seed)
    points, values, trace, best = [], [], [], math.inf
    for t in range(trials):
        if t < gp_initial_trials(space):
            a = random_assignment(space, rng)
        else:
            a = gp_ei_suggest(space, points, values, rng, random_state)
        value = function(a)
        points.append(a)
        values.append(value)
        best = min(best, value)
        trace.append(best)
    return trace


def gp_time_ms(function_name, history, seed):
    import numpy as np
    space, function = SPACES[function_name], FUNCTIONS[function_name]
    values = [function(a) for a in history]
    rng, random_state = np.random.default_rng(seed), np.random.RandomState(seed)
    start = time.process_time()
    gp_ei_suggest(space, history, values, rng, random_state)
    return (time.process_time() - start) * 1e3


# ---------------------------------------------------------------------------------------------------------------

RUNNERS = {"tpe": (tpe_run, tpe_time_ms), "gp": (gp_run, gp_time_ms)}


def run_study(task):
    """One study in a worker: (baseline, function, seed, trials) → (task, trace, CPU seconds)."""
    baseline, name, seed, trials = task
    started = time.process_time()
    trace = RUNNERS[baseline][0](name, seed, trials)
    return task, trace, time.process_time() - started


def cache_key(task, versions):
    with open(os.path.abspath(__file__), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    baseline, name, seed, trials = task
    return "%s/%s/seed %d/%d trials/script %s/optuna %s/sklearn %s" % (
        baseline, name, seed, trials, digest, versions.get("optuna"), versions.get("sklearn"))


def run_studies(request, versions):
    """The traces of every requested (baseline, function, seed), from the cache or from a pool of workers."""
    tasks = [(b, name, seed, request["trials"]) for b in request["baselines"] for name in request["functions"]
             for seed in range(request["seeds"])]
    cache_path = request.get("cache")
    cache = {}
    if cache_path and os.path.exists(cache_path):
        try:
            with open(cache_path) as f:
                cache = json.load(f)
        except (OSError, ValueError) as e:
            log("cache %s unreadable (%s); running every study" % (cache_path, e))
    traces, cached = {}, {}
    todo = []
    for task in tasks:
        key = cache_key(task, versions)
        if request.get("use_cache") and key in cache:
            traces[task] = cache[key]
            cached[task] = True
        else:
            todo.append(task)
    jobs = max(1, int(request.get("jobs") or os.cpu_count() or 1))
    log("%d studies to run in %d processes, %d from the cache" % (len(todo), jobs, len(tasks) - len(todo)))
    started = time.monotonic()
    cpu = {}
    # The slowest first (GP-EI, higher dimensions), so that the pool does not end on one long study.
    todo.sort(key=lambda t: (t[0] != "gp", -len(SPACES[t[1]])))
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for done, (task, trace, seconds) in enumerate(pool.imap_unordered(run_study, todo), 1):
            traces[task] = trace
            cache[cache_key(task, versions)] = trace
            cpu[task[:2]] = cpu.get(task[:2], 0.0) + seconds
            if done % 20 == 0 or done == len(todo):
                log("%d of %d studies done after %.0f s" % (done, len(todo), time.monotonic() - started))
    for (baseline, name), seconds in sorted(cpu.items()):
        log("%s on %s: %.0f s of CPU" % (baseline, name, seconds))
    if cache_path and todo:
        try:
            with open(cache_path + ".tmp", "w") as f:
                json.dump(cache, f)
            os.replace(cache_path + ".tmp", cache_path)
        except OSError as e:
            log("cache %s not written (%s)" % (cache_path, e))
    best, counts = {}, {}
    for b in request["baselines"]:
        best[b], counts[b] = {}, {}
        for name in request["functions"]:
            seeds = [(b, name, seed, request["trials"]) for seed in range(request["seeds"])]
            best[b][name] = [traces[t] for t in seeds]
            counts[b][name] = sum(1 for t in seeds if cached.get(t))
    return best, counts


def availability():
    available, versions = {}, {}
    try:
        import optuna
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        versions["optuna"] = optuna.__version__
        available["tpe"] = None
    except Exception as e:  # noqa: BLE001 - any import failure means "cannot run", with its reason
        available["tpe"] = "import optuna failed (%s: %s); Debian: apt-get install python3-optuna" % (
            type(e).__name__, e)
    try:
        import scipy  # noqa: F401 - the GP-EI loop's L-BFGS-B and normal distribution
        import sklearn
        versions["sklearn"] = sklearn.__version__
        available["gp"] = None
    except Exception as e:  # noqa: BLE001
        available["gp"] = "import sklearn failed (%s: %s); Debian: apt-get install python3-sklearn" % (
            type(e).__name__, e)
    return available, versions


def main():
    # The answer goes to the original stdout; everything else that writes to fd 1 (SciPy's Fortran L-BFGS-B prints
    # "ascent direction in projection" there) is sent to stderr, where it cannot corrupt the JSON.
    answer_file = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    request = json.load(sys.stdin)
    available, versions = availability()
    if request["mode"] == "check":
        answer = {"python": sys.version.split()[0], "available": available, "versions": versions,
                  "values": {name: [FUNCTIONS[name](a) for a in points] for name, points in request["points"].items()}}
    else:
        for baseline in request["baselines"]:
            if available.get(baseline):
                raise SystemExit("tuning_baselines: %s: %s" % (baseline, available[baseline]))
        best, cached = run_studies(request, versions)
        answer = {"best": best, "cached": cached, "suggest_ms": {}}
        for baseline in request["baselines"]:
            time_ms = RUNNERS[baseline][1]
            timing = request["timing"]
            answer["suggest_ms"][baseline] = {}
            for n, history in timing["histories"].items():
                for w in range(timing["warmups"]):
                    time_ms(timing["function"], history, 1000 + w)
                answer["suggest_ms"][baseline][n] = [time_ms(timing["function"], history, r)
                                                     for r in range(timing["runs"])]
                log("%s: one suggestion with %s trials, median %.1f ms CPU" % (
                    baseline, n, sorted(answer["suggest_ms"][baseline][n])[timing["runs"] // 2]))
    json.dump(answer, answer_file)
    answer_file.write("\n")
    answer_file.close()


if __name__ == "__main__":
    main()
