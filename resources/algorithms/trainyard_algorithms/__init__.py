# SPDX-License-Identifier: GPL-2.0-or-later
"""Trainyard's implementations of the service's built-in algorithms (AI Platform Training, "built-in
algorithms (beta)"), run as ordinary trainers. README.md beside setup.py holds the contract with the executor.

Modules:

- ``trainyard_algorithms.xgboost``: gcr.io/cloud-ml-algos/boosted_trees:latest and xgboost_dist:latest
- ``trainyard_algorithms.linear_learner``: linear_learner_cpu:latest, linear_learner_gpu:latest
- ``trainyard_algorithms.wide_deep``: wide_deep_learner_cpu:latest, wide_deep_learner_gpu:latest
- ``trainyard_algorithms.preprocess``: the CSV rules (``--preprocess``) and ``preview()`` for the console
- ``trainyard_algorithms.serving``: ``BuiltinPredictor``, a custom prediction routine over a model folder
"""

__version__ = "0.1.0"
