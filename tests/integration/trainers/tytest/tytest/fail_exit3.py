# SPDX-License-Identifier: GPL-2.0-or-later
"""Worker 1 fails permanently (exit 3); the other replicas wait to be stopped."""
import sys
import time

from tytest import common

kind, index, tf = common.task()
print("replica %s %d up" % (kind, index), flush=True)
if kind == "worker" and index == 1:
    print("ValueError: bad input shard 7", file=sys.stderr, flush=True)
    sys.exit(3)
time.sleep(120)
