# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes metrics as a trainer does, in two runs, for the metrics collection test (tst_metricsapi).

First run (no ``first-run-done`` in the job dir): an event file in the job dir with ``train/loss`` =
1/step for steps 1..10, one record with a broken data CRC between steps 3 and 4, and an event file
in ``<job-dir>/eval`` with ``accuracy`` at steps 5 and 10; hypertune reports ``accuracy`` at steps 5
and 10. Then it writes ``first-run-done`` and burns a little CPU until ``release`` appears in the
job dir (so resource samples exist), at most 600 s: the test restarts the executor while it waits, and
on a loaded machine that may come late (a deadline here would end the run as SUCCEEDED first).

Second run (after an executor restart restarted the cluster): "resumes from the checkpoint of step
5": a second event file with ``train/loss`` = 2/step for steps 6..12 (TensorBoard's restart rule
replaces the first run's steps 6..10), and the hypertune file rewritten with the first run's
reports kept plus one at step 12 (the reader must not store the old ones twice). Then it writes
``second-run-done`` and exits 0 once ``release2`` appears (at most 600 s).

Event-file bytes are made by hand (TFRecord framing, masked CRC-32C), as the sample trainer's
events.py does.
"""
import json
import os
import struct
import time

from tytest import common

_POLY = 0x82F63B78
_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ _POLY if _c & 1 else _c >> 1
    _TABLE.append(_c)


def masked_crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(number, payload):
    return _varint((number << 3) | 2) + _varint(len(payload)) + payload


def event(wall_time, step=0, file_version=None, scalars=()):
    out = bytearray(b"\x09" + struct.pack("<d", wall_time))
    if step:
        out += b"\x10" + _varint(step)
    if file_version:
        out += _field(3, file_version.encode())
    if scalars:
        summary = b"".join(_field(1, _field(1, tag.encode()) + b"\x15" + struct.pack("<f", value))
                           for tag, value in scalars)
        out += _field(5, summary)
    return bytes(out)


def record(data, corrupt=False):
    header = struct.pack("<Q", len(data))
    crc = masked_crc32c(data) ^ (0xFF if corrupt else 0)
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", crc)


def write_events(path, events):
    with open(path, "ab") as f:
        for e in events:
            f.write(e)
            f.flush()


def report(path, reports):
    # As cloudml-hypertune: the whole file rewritten on every report.
    with open(path, "w") as f:
        for r in reports:
            f.write(json.dumps(r, sort_keys=True) + "\n")


def wait_busy(path):
    deadline = time.time() + 600
    x = 0
    while not os.path.exists(path) and time.time() < deadline:
        for i in range(20000):  # a little CPU work between checks
            x += i * i
        time.sleep(0.01)


jd = common.job_dir()
metric_file = os.environ["CLOUD_ML_HP_METRIC_FILE"]
base = 1700000000.0
if not os.path.exists(os.path.join(jd, "first-run-done")):
    name = os.path.join(jd, "events.out.tfevents.1700000000.test.1.0")
    records = [record(event(base, file_version="brain.Event:2"))]
    for step in range(1, 11):
        records.append(record(event(base + step, step, scalars=[("train/loss", 1.0 / step)])))
        if step == 3:
            records.append(record(event(base + 3.5, 3, scalars=[("train/loss", 99.0)]), corrupt=True))
    write_events(name, records)
    os.makedirs(os.path.join(jd, "eval"), exist_ok=True)
    write_events(os.path.join(jd, "eval", "events.out.tfevents.1700000000.test.1.1"),
                 [record(event(base, file_version="brain.Event:2")),
                  record(event(base + 5, 5, scalars=[("accuracy", 0.5)])),
                  record(event(base + 10, 10, scalars=[("accuracy", 0.75)]))])
    reports = []
    for step, acc in ((5, 0.5), (10, 0.75)):
        reports.append({"accuracy": str(acc), "checkpoint_path": "", "global_step": str(step),
                        "timestamp": base + step, "trial": "0"})
        report(metric_file, reports)
    open(os.path.join(jd, "first-run-done"), "w").close()
    print("first run done", flush=True)
    wait_busy(os.path.join(jd, "release"))
else:
    name = os.path.join(jd, "events.out.tfevents.1700000100.test.1.0")
    records = [record(event(base + 100, file_version="brain.Event:2"))]
    for step in range(6, 13):
        records.append(record(event(base + 100 + step, step, scalars=[("train/loss", 2.0 / step)])))
    write_events(name, records)
    reports = []
    if os.path.exists(metric_file):
        with open(metric_file) as f:
            reports = [json.loads(line) for line in f if line.strip()]
    reports.append({"accuracy": "0.875", "checkpoint_path": "", "global_step": "12",
                    "timestamp": base + 112, "trial": "0"})
    report(metric_file, reports)
    open(os.path.join(jd, "second-run-done"), "w").close()
    print("second run done", flush=True)
    wait_busy(os.path.join(jd, "release2"))
