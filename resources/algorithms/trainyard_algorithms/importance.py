# SPDX-License-Identifier: GPL-2.0-or-later
"""Hyperparameter importance of a tuning job's trials, as optuna-dashboard shows it: optuna's fANOVA evaluator
(``optuna.importance.FanovaImportanceEvaluator``: a random forest fitted to the objective over the parameters, and
each parameter's share of the forest's variance by functional ANOVA; Hutter, Hoos and Leyton-Brown, "An Efficient
Approach for Assessing Hyperparameter Importance", ICML 2014). The executor runs ``python3 -m
trainyard_algorithms.importance`` for ``GET …/jobs/{job}/hyperparameterImportance`` (app/executor/API.md).

Reads from stdin ``{"goal": "MAXIMIZE"|"MINIMIZE", "params": [the job's ParameterSpec objects, the service's field
names], "trials": [{"hyperparameters": {name: value as text}, "objective": number}]}`` (completed trials only) and
writes ``{"method": text, "trials": count, "importances": [{"parameterName", "importance"}]}``, importances summing to
1, largest first. Errors: a line on stderr and exit status 2 (fewer than two trials, a value outside its parameter's
range)."""
import json
import math
import sys

METHOD = ("fANOVA: optuna.importance.FanovaImportanceEvaluator (a random forest of 64 trees fitted to the objective, "
          "each parameter's share of its variance; Hutter et al., ICML 2014), as optuna-dashboard shows it")


def distribution(optuna, spec):
    """The optuna distribution of one of the service's ParameterSpec objects."""
    kind = spec.get("type")
    log = spec.get("scaleType") == "UNIT_LOG_SCALE"
    if kind == "DOUBLE":
        return optuna.distributions.FloatDistribution(float(spec["minValue"]), float(spec["maxValue"]), log=log)
    if kind == "INTEGER":
        return optuna.distributions.IntDistribution(int(spec["minValue"]), int(spec["maxValue"]), log=log)
    if kind == "DISCRETE":
        values = [float(v) for v in spec["discreteValues"]]
        # Ordered numbers: a range the forest can split, not unordered categories.
        return optuna.distributions.FloatDistribution(min(values), max(values))
    if kind == "CATEGORICAL":
        return optuna.distributions.CategoricalDistribution(list(spec["categoricalValues"]))
    raise ValueError("parameter %s: type %r is not one of DOUBLE, INTEGER, DISCRETE, CATEGORICAL"
                     % (spec.get("parameterName"), kind))


def value(spec, text):
    kind = spec.get("type")
    if kind == "INTEGER":
        return int(round(float(text)))
    if kind in ("DOUBLE", "DISCRETE"):
        return float(text)
    return text


def importances(body):
    """The answer for a request body (see the module's docstring)."""
    try:
        import optuna
        import sklearn  # noqa: F401 (the fANOVA evaluator's forest)
    except ImportError as e:
        raise ValueError("hyperparameter importance needs Optuna and scikit-learn on the executor's host (Debian: "
                         "apt install python3-optuna python3-sklearn): %s" % e) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    specs = {p["parameterName"]: p for p in body["params"]}
    distributions = {name: distribution(optuna, spec) for name, spec in specs.items()}
    trials = []
    for t in body["trials"]:
        objective = t.get("objective")
        if not isinstance(objective, (int, float)) or not math.isfinite(objective):
            continue
        params = {name: value(specs[name], t["hyperparameters"][name]) for name in specs
                  if name in t.get("hyperparameters", {})}
        if len(params) != len(specs):
            continue
        trials.append(optuna.trial.create_trial(params=params, distributions=distributions, value=float(objective)))
    if len(trials) < 2:
        raise ValueError("hyperparameter importance needs at least 2 completed trials with an objective value; "
                         "the job has %d" % len(trials))
    direction = "maximize" if body.get("goal") == "MAXIMIZE" else "minimize"
    study = optuna.create_study(direction=direction)
    study.add_trials(trials)
    evaluator = optuna.importance.FanovaImportanceEvaluator(seed=0)
    found = optuna.importance.get_param_importances(study, evaluator=evaluator, normalize=True)
    return {"method": METHOD, "trials": len(trials),
            "importances": [{"parameterName": name, "importance": float(v)} for name, v in found.items()]}


def main():
    try:
        answer = importances(json.load(sys.stdin))
    except (ValueError, KeyError, TypeError) as e:
        print("%s" % e, file=sys.stderr)
        return 2
    json.dump(answer, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
