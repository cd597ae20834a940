# SPDX-License-Identifier: GPL-2.0-or-later
"""Prints the replica contract and succeeds; the master waits for every other replica first."""
import logging
import os

from tytest import common

kind, index, tf = common.task()
name = common.task_name(kind, index)
common.print_contract()
logging.basicConfig(level=logging.INFO)
logging.warning("a warning from %s", name)
jd = common.job_dir()
os.makedirs(os.path.join(jd, "ready"), exist_ok=True)
open(os.path.join(jd, "ready", name), "w").close()
if kind in ("master", "chief"):
    for other in common.all_task_names(tf):
        if not common.wait_for(os.path.join(jd, "ready", other)):
            raise SystemExit("replica %s never started" % other)
