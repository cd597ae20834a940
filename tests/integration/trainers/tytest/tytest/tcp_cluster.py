# SPDX-License-Identifier: GPL-2.0-or-later
"""A cluster that really talks: every replica checks that TF_CONFIG names it at an address on its own node
(SLURMD_NODENAME on a Slurm cluster, else any), the master listens on its TF_CONFIG address and waits until every
worker and parameter server connected and said who it is, and each of them connects to the master (retrying for
up to 60 s) and waits for its acknowledgement. Prints one line per step, with the replica's node."""
import json
import os
import socket
import time

from tytest import common

kind, index, tf = common.task()
name = common.task_name(kind, index)
node = os.environ.get("SLURMD_NODENAME", socket.gethostname())
cluster = tf["cluster"]
mine = cluster[kind][index]
host, port = mine.rsplit(":", 1)
if "SLURMD_NODENAME" in os.environ and host != node:
    raise SystemExit("%s: TF_CONFIG puts me at %s, but I run on %s" % (name, mine, node))
print("%s on %s: TF_CONFIG %s" % (name, node, json.dumps(cluster, sort_keys=True)), flush=True)
master_key = "chief" if "chief" in cluster else "master"
master_host, master_port = cluster[master_key][0].rsplit(":", 1)
peers = sum(len(v) for k, v in cluster.items() if k != master_key)

if kind == master_key:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((socket.gethostbyname(master_host), int(master_port)))
    server.listen(peers)
    server.settimeout(120)
    print("%s listening on %s:%s for %d peers" % (name, master_host, master_port, peers), flush=True)
    for _ in range(peers):
        conn, _ = server.accept()
        who = conn.recv(256).decode()
        conn.sendall(("ack " + name).encode())
        conn.close()
        print("%s got %s" % (name, who), flush=True)
    print("%s: all %d peers connected" % (name, peers), flush=True)
elif kind != "evaluator":
    deadline = time.time() + 60
    while True:
        try:
            conn = socket.create_connection((master_host, int(master_port)), timeout=5)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)
    conn.sendall(("%s@%s" % (name, node)).encode())
    print("%s connected to the master: %s" % (name, conn.recv(256).decode()), flush=True)
    conn.close()
