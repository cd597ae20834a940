# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes --lines N log lines (mixed severities) to stdout as fast as Python can."""
import sys

n = 100000
argv = sys.argv
for i, a in enumerate(argv):
    if a == "--lines":
        n = int(argv[i + 1])
out = sys.stdout.buffer
chunk = []
for i in range(n):
    if i % 10 == 0:
        chunk.append(b"WARNING:root:step %d loss is rising\n" % i)
    else:
        chunk.append(b"INFO:root:step %d loss=0.123456 accuracy=0.987654 examples/sec=12345.6\n" % i)
    if len(chunk) == 4096:
        out.write(b"".join(chunk))
        chunk = []
out.write(b"".join(chunk))
out.flush()
