# SPDX-License-Identifier: GPL-2.0-or-later
"""The Metrics tab test's replica (tst_metricspanel): writes TensorBoard scalars while it runs.

Arguments: --job-dir D, --steps N (default 40), --interval S (seconds between steps, default 0.1),
--hold-at K (after step K, wait until ``<job-dir>/continue`` exists, at most 120 s: so a test sees the
first points arrive while more are still to come, however slow the machine).
Each replica writes an event file in its own run folder ``<job-dir>/<task>/`` (``master-replica-0``,
``worker-replica-0``, ...; a tuning trial's under ``<job-dir>/<trial>/``) with, for step = 1..N:

* ``train/loss`` = 1/step (as float32), wall time 1700000000 + step (+ 0.5 on workers),
* ``train/accuracy`` = 1 - 1/(step + 1),

and the master also ``eval/accuracy`` = step/100 at every 5th step in ``<job-dir>/eval``. Then it
waits until ``<job-dir>/release`` exists (at most 120 s), so the test sees a running job.

Event-file bytes are made by hand (TFRecord framing, masked CRC-32C) as tytest.metrics does.
"""
import json
import os
import struct
import sys
import time

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


def record(data):
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


class Writer:
    def __init__(self, folder, base):
        os.makedirs(folder, exist_ok=True)
        self.f = open(os.path.join(folder, "events.out.tfevents.%d.test.%d.0" % (int(base), os.getpid())), "ab")
        self.add(event(base, file_version="brain.Event:2"))

    def add(self, data):
        self.f.write(record(data))
        self.f.flush()


args = sys.argv[1:]
job_dir = args[args.index("--job-dir") + 1]
steps = int(args[args.index("--steps") + 1]) if "--steps" in args else 40
interval = float(args[args.index("--interval") + 1]) if "--interval" in args else 0.1
hold_at = int(args[args.index("--hold-at") + 1]) if "--hold-at" in args else 0
task = json.loads(os.environ.get("TF_CONFIG", "{}")).get("task", {})
name = "%s-replica-%d" % (task.get("type", "master"), task.get("index", 0))
master = task.get("type", "master") in ("master", "chief")
base = 1700000000.0
offset = 0.0 if master else 0.5
# A tuning trial writes under <job-dir>/<trial-id>/, as the service's samples do (every trial gets the same
# --job-dir); the continue and release files stay in the job dir itself.
trial = str(task.get("trial") or os.environ.get("CLOUD_ML_TRIAL_ID") or "")
run_dir = os.path.join(job_dir, trial) if trial else job_dir
train = Writer(os.path.join(run_dir, name), base)
evaluation = Writer(os.path.join(run_dir, "eval"), base) if master else None
for step in range(1, steps + 1):
    train.add(event(base + step + offset, step,
                    scalars=[("train/loss", 1.0 / step), ("train/accuracy", 1.0 - 1.0 / (step + 1))]))
    if evaluation and step % 5 == 0:
        evaluation.add(event(base + step, step, scalars=[("eval/accuracy", step / 100.0)]))
    time.sleep(interval)
    if step == hold_at:
        deadline = time.time() + 120
        while time.time() < deadline and not os.path.exists(os.path.join(job_dir, "continue")):
            time.sleep(0.05)
print("%s wrote %d steps" % (name, steps), flush=True)
deadline = time.time() + 120
while time.time() < deadline and not os.path.exists(os.path.join(job_dir, "release")):
    time.sleep(0.1)
