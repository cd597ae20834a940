# SPDX-License-Identifier: GPL-2.0-or-later
"""Prints log lines at a steady rate (bench_api's live job): --rate lines per second (default 10000) in batches every
10 ms, for --seconds (default 3600), each line numbered. With --progress PATH it keeps the count of lines written so
far in PATH (20 digits, rewritten in place after each batch), so that a reader knows what was written in an interval.
Falls behind rather than bursting: a late batch is written at once, and the schedule is not caught up beyond it."""
import os
import sys
import time


def arg(name, default):
    argv = sys.argv
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
    return default


rate = float(arg("--rate", "10000"))
seconds = float(arg("--seconds", "3600"))
progress = arg("--progress", "")
fd = os.open(progress, os.O_WRONLY | os.O_CREAT, 0o644) if progress else -1
out = sys.stdout.buffer
period = 0.01
written = 0
start = time.monotonic()
while True:
    now = time.monotonic()
    elapsed = now - start
    if elapsed >= seconds:
        break
    due = int(elapsed * rate) + 1
    if due > written:
        out.write(b"".join(b"INFO:root:step %d loss=0.123456 accuracy=0.987654 examples/sec=12345.6\n" % i
                           for i in range(written, due)))
        out.flush()
        written = due
        if fd >= 0:
            os.pwrite(fd, b"%020d" % written, 0)
    next_batch = start + (int(elapsed / period) + 1) * period
    time.sleep(max(0.0, next_batch - time.monotonic()))
