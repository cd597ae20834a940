# SPDX-License-Identifier: GPL-2.0-or-later
"""A custom-container replica for tst_containers, run as `python3 <job-dir>/probe.py MODE …` inside
localhost/trainyard-py:bookworm (the job dir is mounted at the same path, so the script is there).

Modes:
  contract  writes <job-dir>/contract/<task>.json (argv, the contract's variables, PID 1's name, uid), reports a
            hypertune metric, and talks over TCP: the master listens on its TF_CONFIG address, every worker
            connects to it (host networking keeps the cluster's addresses valid)
  gate      logs that it started, waits until <job-dir>/release exists, exits 0 (gives up after 300 s)
  crash     the first run of each task SIGKILLs itself (exit 137: retryable); later runs exit 0
  fail      exits 3 (a permanent failure)
"""
import json
import os
import signal
import socket
import sys
import time

mode = sys.argv[1]
job_dir = sys.argv[sys.argv.index("--job-dir") + 1]
tf_config = json.loads(os.environ["TF_CONFIG"])
task = tf_config["task"]
name = "%s-%d" % (task["type"], task["index"])
print("probe: %s %s started" % (mode, name), flush=True)

if mode == "contract":
    env = {k: os.environ.get(k) for k in (
        "TF_CONFIG", "CLUSTER_SPEC", "CLOUD_ML_JOB_ID", "CLOUD_ML_TRIAL_ID", "CLOUD_ML_HP_METRIC_FILE", "RANK",
        "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "CUDA_VISIBLE_DEVICES", "OMP_NUM_THREADS", "PYTHONUNBUFFERED",
        "TRAINYARD_JOB_FOLDER", "PYTHONPATH")}
    with open("/proc/1/comm") as f:
        pid1 = f.read().strip()
    peers = []
    host, port = tf_config["cluster"]["master"][0].rsplit(":", 1)
    workers = len(tf_config["cluster"].get("worker", []))
    if task["type"] == "master":
        server = socket.create_server((host, int(port)))
        server.settimeout(120)
        for _ in range(workers):
            conn, _ = server.accept()
            peers.append(conn.recv(64).decode())
            conn.sendall(b"ack")
            conn.close()
    else:
        deadline = time.time() + 120
        while True:
            try:
                with socket.create_connection((host, int(port)), timeout=5) as c:
                    c.sendall(name.encode())
                    peers.append(c.recv(16).decode())
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
    os.makedirs(os.path.join(job_dir, "contract"), exist_ok=True)
    with open(os.path.join(job_dir, "contract", name + ".json"), "w") as f:
        json.dump({"argv": sys.argv[1:], "env": env, "pid1": pid1, "uid": os.getuid(), "peers": sorted(peers)}, f)
    with open(os.environ["CLOUD_ML_HP_METRIC_FILE"], "a") as f:
        f.write(json.dumps({"accuracy": 0.5 + task["index"] / 10.0, "global_step": 1, "timestamp": time.time()}) + "\n")
elif mode == "gate":
    deadline = time.time() + 300
    while not os.path.exists(os.path.join(job_dir, "release")):
        if time.time() > deadline:
            print("probe: never released", file=sys.stderr, flush=True)
            sys.exit(1)
        time.sleep(0.1)
    print("probe: %s released" % name, flush=True)
elif mode == "crash":
    marker = os.path.join(job_dir, "crashed-" + name)
    if not os.path.exists(marker):
        open(marker, "w").close()
        print("probe: %s crashes" % name, flush=True)
        # Podman can drop what a container wrote just before its process dies (conmon's copy to the attached client
        # races the exit; podman issues #2692, #10675): under load (ctest -j3) this line was once lost. The probe
        # tests the restart, so it gives the copy a moment before the crash.
        time.sleep(1)
        os.kill(os.getpid(), signal.SIGKILL)
elif mode == "fail":
    print("probe: %s fails" % name, file=sys.stderr, flush=True)
    sys.exit(3)
print("probe: %s done" % name, flush=True)
