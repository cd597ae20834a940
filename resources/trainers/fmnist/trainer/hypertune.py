# SPDX-License-Identifier: GPL-2.0-or-later
"""Hyperparameter-tuning metric reporter, file-compatible with ``cloudml-hypertune``.

The service reads what a trial reports from the file named by ``CLOUD_ML_HP_METRIC_FILE``
(default /tmp/hypertune/output.metrics). Format, as GoogleCloudPlatform/cloudml-hypertune's
``HyperTune.report_hyperparameter_tuning_metric`` writes it: one JSON object per line
(``json.dumps(..., sort_keys=True)``) holding ``<tag>`` (the value as a string),
``global_step`` (string), ``timestamp`` (float seconds since the epoch), ``trial`` (string,
from ``CLOUD_ML_TRIAL_ID``, "0" when unset) and ``checkpoint_path`` (string); only the last
100 reports are kept and the whole file is rewritten on every report.
"""

import collections
import json
import os
import time

DEFAULT_METRIC_PATH = "/tmp/hypertune/output.metrics"
DEFAULT_METRIC_TAG = "training/hptuning/metric"
MAX_REPORTS = 100


class HyperTune:
    def __init__(self, path=None, trial_id=None):
        self.metric_path = path or os.environ.get("CLOUD_ML_HP_METRIC_FILE", DEFAULT_METRIC_PATH)
        self.trial_id = trial_id if trial_id is not None else os.environ.get("CLOUD_ML_TRIAL_ID", 0)
        self.reports = collections.deque(maxlen=MAX_REPORTS)
        folder = os.path.dirname(self.metric_path)
        if folder:
            os.makedirs(folder, exist_ok=True)

    def report_hyperparameter_tuning_metric(self, hyperparameter_metric_tag, metric_value, global_step=None,
                                            checkpoint_path=""):
        body = {
            "timestamp": time.time(),
            "trial": str(self.trial_id),
            (hyperparameter_metric_tag or DEFAULT_METRIC_TAG): str(float(metric_value)),
            "global_step": str(int(global_step) if global_step else 0),
            "checkpoint_path": checkpoint_path,
        }
        self.reports.append(body)
        # Rewritten in place, not renamed, as the library does: readers must cope with a
        # short read and retry, and they do (they de-duplicate by step and timestamp).
        with open(self.metric_path, "w") as f:
            for report in self.reports:
                f.write(json.dumps(report, sort_keys=True) + "\n")
