# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared support of the built-in algorithm tests: paths, running a module as the executor does, a cache of
finished jobs (several tests look at one job), and readers for the event and hypertune files.

Every job runs as a subprocess ``/usr/bin/python3 -m trainyard_algorithms.<module> ARGS --job-dir D`` with
PYTHONPATH = resources/algorithms (the source tree), OMP_NUM_THREADS=1 (the machines are shared; one thread
also keeps XGBoost's results independent of the core count), and the replica contract's variables.
"""

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PACKAGE_DIR = os.path.join(ROOT, "resources", "algorithms")
DATA = os.path.join(ROOT, "tests", "data", "builtin")
PYTHON = os.environ.get("TRAINYARD_TEST_PYTHON", "/usr/bin/python3")

if PACKAGE_DIR not in sys.path:
    sys.path.insert(0, PACKAGE_DIR)

IMAGES = {
    "xgboost": "gcr.io/cloud-ml-algos/boosted_trees:latest",
    "xgboost_dist": "gcr.io/cloud-ml-algos/xgboost_dist:latest",
    "linear_learner": "gcr.io/cloud-ml-algos/linear_learner_cpu:latest",
    "wide_deep": "gcr.io/cloud-ml-algos/wide_deep_learner_cpu:latest",
}
MODULES = {"xgboost": "xgboost", "xgboost_dist": "xgboost", "linear_learner": "linear_learner",
           "wide_deep": "wide_deep"}

_scratch = None


def scratch():
    """One temporary folder for the whole run, removed at exit."""
    global _scratch
    if _scratch is None:
        _scratch = tempfile.mkdtemp(prefix="trainyard-algorithms-tests-")
        import atexit
        atexit.register(shutil.rmtree, _scratch, True)
    return _scratch


def data(name):
    return os.path.join(DATA, name)


def environment(algorithm, extra=None, pythonpath=PACKAGE_DIR):
    env = dict(os.environ)
    for name in ("TF_CONFIG", "CLOUD_ML_TRIAL_ID", "CLOUD_ML_HP_METRIC_FILE", "CLOUD_ML_JOB_ID"):
        env.pop(name, None)
    env.update({"PYTHONPATH": pythonpath, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1",
                "CUDA_VISIBLE_DEVICES": "", "TRAINYARD_ALGORITHM_IMAGE": IMAGES[algorithm],
                "CLOUD_ML_JOB_ID": "test_job"})
    env.update(extra or {})
    return env


class Job:
    """A finished run: ``rc``, ``stdout``, ``stderr``, ``job_dir``, ``out_dir`` (the trial folder in a trial)."""

    def __init__(self, rc, stdout, stderr, job_dir, out_dir):
        self.rc, self.stdout, self.stderr, self.job_dir, self.out_dir = rc, stdout, stderr, job_dir, out_dir

    @property
    def model_dir(self):
        return os.path.join(self.out_dir, "model")

    def json(self, *parts):
        with open(os.path.join(self.out_dir, *parts), encoding="utf-8") as f:
            return json.load(f)

    def describe(self):
        return "exit %s\n--- stdout\n%s--- stderr\n%s" % (self.rc, self.stdout[-3000:], self.stderr[-3000:])


def start(algorithm, args, job_dir, extra_env=None, pythonpath=PACKAGE_DIR):
    """Starts one replica (a Popen with stdout and stderr piped)."""
    cmd = [PYTHON, "-m", "trainyard_algorithms." + MODULES[algorithm]] + list(args) + ["--job-dir", job_dir]
    return subprocess.Popen(cmd, env=environment(algorithm, extra_env, pythonpath), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=scratch())


def run(algorithm, args, extra_env=None, job_dir=None, timeout=180, pythonpath=PACKAGE_DIR):
    job_dir = job_dir or tempfile.mkdtemp(prefix="job-", dir=scratch())
    process = start(algorithm, args, job_dir, extra_env, pythonpath)
    out, err = process.communicate(timeout=timeout)
    trial = (extra_env or {}).get("CLOUD_ML_TRIAL_ID")
    return Job(process.returncode, out, err, job_dir, os.path.join(job_dir, trial) if trial else job_dir)


_cache = {}


def job(algorithm, *args, **kwargs):
    """run(), once per distinct (algorithm, args, env) in this test process."""
    key = (algorithm, args, tuple(sorted((kwargs.get("extra_env") or {}).items())))
    if key not in _cache:
        _cache[key] = run(algorithm, list(args), **kwargs)
    return _cache[key]


# ---------------------------------------------------------------------------------------------------------------
# Readers (independent of the package's writers)


def _varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, pos


def _fields(buf):
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            n, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError("wire type %d" % wire)
        yield field, value


def read_scalars(folder):
    """Every scalar of every event file under ``folder``: [(tag, step, value)] in file order."""
    out = []
    for base, _, files in os.walk(folder):
        for name in sorted(files):
            if "tfevents" not in name:
                continue
            with open(os.path.join(base, name), "rb") as f:
                data = f.read()
            pos = 0
            while pos < len(data):
                (n,) = struct.unpack("<Q", data[pos:pos + 8])
                record = data[pos + 12:pos + 12 + n]
                pos += 12 + n + 4
                step = 0
                for field, value in _fields(record):
                    if field == 2:
                        step = value
                    elif field == 5:
                        for f2, v in _fields(value):
                            if f2 != 1:
                                continue
                            tag, number = None, None
                            for f3, v3 in _fields(v):
                                if f3 == 1:
                                    tag = v3.decode()
                                elif f3 == 2:
                                    (number,) = struct.unpack("<f", v3)
                            out.append((tag, step, number))
    return out


def read_hypertune(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def read_matrix(path):
    """A processed_data CSV as (y [N], X [N, F]) numpy arrays."""
    import numpy as np
    m = np.loadtxt(path, delimiter=",", ndmin=2)
    return m[:, 0], m[:, 1:]


def write_csv(path, rows):
    """Writes rows (lists of str) as lines joined by commas: the tests' own tables, no quoting needed."""
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(",".join(str(c) for c in r) + "\n")
    return path


def read_rows(path):
    import csv
    with open(path, encoding="utf-8") as f:
        return [r for r in csv.reader(f) if r]
