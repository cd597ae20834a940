# SPDX-License-Identifier: GPL-2.0-or-later
"""Copies --file to stdout as fast as the pipe takes it (the log-ingestion benchmark's replica)."""
import shutil
import sys

path = sys.argv[sys.argv.index("--file") + 1]
with open(path, "rb") as f:
    shutil.copyfileobj(f, sys.stdout.buffer, 1 << 20)
sys.stdout.buffer.flush()
