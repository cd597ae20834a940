# SPDX-License-Identifier: GPL-2.0-or-later
"""The user code of integration/tst_sandbox: a trainer, a custom prediction routine, a pickled model and a batch
prediction job's model that each try to reach the executor's state, report what they reached, and then work.

    sandbox_probe.py OUT_DIR TARGETS_JSON

writes into OUT_DIR:
- ``package/`` a Python package (setup.py) ``sandboxprobe``: ``sandboxprobe.task`` (a trainer: probes, then exits 0),
  ``sandboxprobe.routine.Predictor`` (a custom prediction routine: probes in from_path, then predicts 2 * x);
- ``pickled/model.pkl``: a pickle whose unpickling runs the probe (as any pickle may run code) and gives a working
  scikit-learn LogisticRegression;
- ``routine/``: an empty model folder for the routine;
- ``input.json``: batch prediction input (two instances).

TARGETS_JSON names what must stay out of reach: {"token", "runtimeFile", "configDir", "tlsKey", "dataDir",
"executorPid"}. Each probe prints one line ``SANDBOX-PROBE <json>`` on stderr: for each attempt, "blocked: <why>" or
"REACHED: <what>". The test reads the line from the job's log or the version's log.
"""

import inspect
import json
import os
import pickle
import sys
import textwrap


def probe(targets):
    """Tries everything user code must not do to the executor; returns {attempt: "blocked: …" or "REACHED: …"}."""
    import ctypes
    import errno
    import os
    import signal
    import sqlite3

    report = {}

    def attempt(name, action):
        try:
            what = action()
            report[name] = "REACHED: %s" % (what,)
        except Exception as e:  # noqa: BLE001 - every failure is the sandbox's answer
            report[name] = "blocked: %s: %s" % (type(e).__name__, e)

    def read(path):
        with open(path, "rb") as f:
            return "%d bytes of %s" % (len(f.read()), path)

    attempt("token", lambda: read(targets["token"]))
    attempt("runtimeFile", lambda: read(targets["runtimeFile"]))
    attempt("configDir", lambda: "listed %s: %s" % (targets["configDir"], os.listdir(targets["configDir"])))
    attempt("knownExecutors", lambda: read(os.path.join(targets["configDir"], "known_executors")))
    attempt("tlsKey", lambda: read(targets["tlsKey"]))
    for name in ("trainyard.sqlite", "access.sqlite", "audit.sqlite", "models.sqlite"):
        path = os.path.join(targets["dataDir"], name)

        def query(path=path):
            connection = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
            try:
                return "%s: %s" % (path, connection.execute("SELECT count(*) FROM sqlite_master").fetchone())
            finally:
                connection.close()

        attempt("sqlite:" + name, query)

    def write():
        path = os.path.join(targets["dataDir"], "planted-by-user-code")
        with open(path, "w") as f:
            f.write("x")
        # The sandbox's root and $HOME are tmpfs of its own: a folder named like the data folder may exist there, empty
        # (a parent of a bound folder). It is the data folder only if the executor's databases are in it.
        if not os.path.exists(os.path.join(targets["dataDir"], "trainyard.sqlite")):
            raise PermissionError("wrote only into the sandbox's own empty stand-in of %s" % targets["dataDir"])
        return "wrote " + path

    attempt("writeDataDir", write)
    pid = int(targets["executorPid"])
    attempt("executorFds", lambda: "listed /proc/%d/fd: %s" % (pid, os.listdir("/proc/%d/fd" % pid)))

    def ptrace():
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        return "attached to %d" % pid

    attempt("ptrace", ptrace)

    def signal_executor():
        os.kill(pid, 0)
        return "may signal %d" % pid

    attempt("signal", signal_executor)
    # What the process holds open of the executor's: only its own stdio and what Python opened itself.
    own = []
    for fd in sorted(os.listdir("/proc/self/fd"), key=int):
        try:
            own.append("%s -> %s" % (fd, os.readlink("/proc/self/fd/" + fd)))
        except OSError:
            pass
    # (The model file a node is unpickling is its own: a copy the executor made for it.)
    executor_files = [f for f in own if any(t in f for t in (targets["token"], targets["runtimeFile"],
                                                                  targets["tlsKey"], ".sqlite", "socket:"))]
    report["inheritedFds"] = ("REACHED: %s" % executor_files) if executor_files else "blocked: %d own fds" % len(own)

    # What ordinary user code must still be able to do inside: shared memory and semaphores in /dev/shm (PyTorch's
    # DataLoader workers, multiprocessing, joblib). Reported as "need:…" = "ok" or "FAILED: …".
    def need(name, action):
        try:
            action()
            report["need:" + name] = "ok"
        except Exception as e:  # noqa: BLE001 - the failure is what the test shows
            report["need:" + name] = "FAILED: %s: %s" % (type(e).__name__, e)

    def shared_memory():
        from multiprocessing import shared_memory as shm
        block = shm.SharedMemory(create=True, size=4096)
        block.close()
        block.unlink()

    def semaphore():
        import multiprocessing
        multiprocessing.Lock()

    need("sharedMemory", shared_memory)
    need("semaphore", semaphore)
    return report


def report(targets, where):
    print("SANDBOX-PROBE " + json.dumps({"where": where, "uid": os.getuid(), "attempts": probe(targets)}),
          file=sys.stderr, flush=True)


PROBE_SOURCE = inspect.getsource(probe)


def write_package(out, targets):
    root = os.path.join(out, "package")
    os.makedirs(os.path.join(root, "sandboxprobe"), exist_ok=True)
    with open(os.path.join(root, "setup.py"), "w") as f:
        f.write("from setuptools import setup\nsetup(name='sandboxprobe', version='0.1', packages=['sandboxprobe'])\n")
    common = "import json, os, sys\nTARGETS = %r\n\n%s\n\ndef report(where):\n    print('SANDBOX-PROBE ' + " \
             "json.dumps({'where': where, 'uid': os.getuid(), 'attempts': probe(TARGETS)}), file=sys.stderr, " \
             "flush=True)\n" % (targets, PROBE_SOURCE)
    with open(os.path.join(root, "sandboxprobe", "__init__.py"), "w") as f:
        f.write("")
    with open(os.path.join(root, "sandboxprobe", "probe.py"), "w") as f:
        f.write(common)
    with open(os.path.join(root, "sandboxprobe", "task.py"), "w") as f:
        f.write(textwrap.dedent("""\
            import os
            from sandboxprobe.probe import report
            report("trainer")
            # The job dir is the trainer's: it may write there.
            job_dir = __import__("sys").argv[__import__("sys").argv.index("--job-dir") + 1]
            with open(os.path.join(job_dir, "trained.txt"), "w") as f:
                f.write("ok")
            """))
    with open(os.path.join(root, "sandboxprobe", "routine.py"), "w") as f:
        f.write(textwrap.dedent("""\
            from sandboxprobe.probe import report


            class Predictor:
                @classmethod
                def from_path(cls, model_dir):
                    report("custom routine")
                    return cls()

                def predict(self, instances, **kwargs):
                    return [2 * x for x in instances]
            """))


def write_pickle(out, targets):
    from sklearn.linear_model import LogisticRegression
    model = LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    code = "%s\nimport json, os, sys\nprint('SANDBOX-PROBE ' + json.dumps({'where': 'pickled model', " \
           "'uid': os.getuid(), 'attempts': probe(%r)}), file=sys.stderr, flush=True)\n" % (PROBE_SOURCE, targets)

    class Payload:
        # Unpickling calls eval(): the probe runs, then the real model is unpickled and returned.
        def __reduce__(self):
            return (eval, ("(exec(%r), __import__('pickle').loads(%r))[1]" % (code, pickle.dumps(model)),))

    os.makedirs(os.path.join(out, "pickled"), exist_ok=True)
    with open(os.path.join(out, "pickled", "model.pkl"), "wb") as f:
        pickle.dump(Payload(), f)


def main():
    out, targets = sys.argv[1], json.loads(sys.argv[2])
    write_package(out, targets)
    write_pickle(out, targets)
    os.makedirs(os.path.join(out, "routine"), exist_ok=True)
    with open(os.path.join(out, "input.json"), "w") as f:
        f.write("[0.5]\n[2.5]\n")


if __name__ == "__main__":
    main()
