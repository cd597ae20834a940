# SPDX-License-Identifier: GPL-2.0-or-later
"""SIGTERM ends a replica at once, even while its main thread is blocked in a collective or
an RPC (where a Python-level signal handler would never get to run).

The service stops replicas with SIGTERM (then SIGKILL after a grace period). SIGTERM is
blocked in the main thread before torch, OpenBLAS or gloo start any thread (threads inherit
the mask), and one thread waits for it with sigwait(), logs, and ends the process with status
128 + SIGTERM. Checkpoints are written to a temporary file and renamed, so ending without
unwinding never leaves a half-written checkpoint. Installed by the package's __init__ since
importing ``trainer`` is the first thing ``python -m trainer.<module>`` does.
"""

import json
import os
import signal
import sys
import threading

EXIT_TERMINATED = 128 + signal.SIGTERM

_installed = False


def _task_name():
    try:
        task = (json.loads(os.environ.get("TF_CONFIG") or "{}") or {}).get("task") or {}
        kind = task.get("type") or "master"
        return "%s-replica-%d" % ("master" if kind == "chief" else kind, int(task.get("index") or 0))
    except (ValueError, AttributeError, TypeError):
        return "replica"


def install():
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    _installed = True
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})

    def wait_for_sigterm():
        signal.sigwait({signal.SIGTERM})
        try:
            sys.stderr.write("WARNING:root:%s received SIGTERM; stopping.\n" % _task_name())
            sys.stderr.flush()
        finally:
            os._exit(EXIT_TERMINATED)

    threading.Thread(target=wait_for_sigterm, name="sigterm", daemon=True).start()
