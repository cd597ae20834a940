#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Records slurmrestd's replies into this folder (replies/*.json, index in replies/INDEX.tsv).

Run as root against a running packaging/slurm-testcluster.sh cluster:
    eval "$(packaging/slurm-testcluster.sh env)" && tests/data/slurm/record-replies.py
SLURM_REST_API=v0.0.40 SLURM_REPLIES=replies-24.11 records another API version into another folder. The tests
never run this; they read the recorded files. Bodies are stored exactly as received."""
import json
import os
import pathlib
import time
import urllib.error
import urllib.request

URL = os.environ["SLURM_REST_URL"]
USER = os.environ["SLURM_REST_USER"]
TOKEN = os.environ["SLURM_JWT"]
JOBDIR = os.environ["SLURM_TEST_JOBDIR"]
API = os.environ.get("SLURM_REST_API", "v0.0.38")
OUT = pathlib.Path(__file__).resolve().parent / os.environ.get("SLURM_REPLIES", "replies")
OUT.mkdir(exist_ok=True)
INDEX = []
V = "/slurm/" + API
NEW = API != "v0.0.38"  # v0.0.39+: environment as ["K=V"], *_no_val structs, tres_per_node


def call(method, path, body=None, token=TOKEN, user=USER, content_type="application/json"):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(URL + path, data=data, method=method)
    if user is not None:
        req.add_header("X-SLURM-USER-NAME", user)
    if token is not None:
        req.add_header("X-SLURM-USER-TOKEN", token)
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def record(name, method, path, body=None, note="", **kw):
    status, reply = call(method, path, body, **kw)
    (OUT / (name + ".json")).write_bytes(reply)
    INDEX.append((name, method, path, str(status), note))
    return status, reply


def job_states(job_id):
    status, reply = call("GET", f"{V}/job/{job_id}")
    # v0.0.40: ["COMPLETED", "COMPLETING"]; the base state first
    return [j["job_state"][0] if isinstance(j["job_state"], list) else j["job_state"] for j in json.loads(reply)["jobs"]]


def wait_state(job_id, wanted, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        states = job_states(job_id)
        if all(s in wanted for s in states):
            return states
        time.sleep(0.1)
    raise SystemExit(f"job {job_id} never reached {wanted}: {job_states(job_id)}")


FINAL = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE",
         "OUT_OF_MEMORY"}
ENV = {"PATH": "/usr/bin:/bin"}


def env(variables):
    return [f"{k}={v}" for k, v in variables.items()] if NEW else dict(variables)


def minutes(n):
    return {"set": True, "infinite": False, "number": n} if NEW else n


def job(name, **extra):
    j = {"name": name, "partition": "debug", "nodes": "1" if NEW else 1, "tasks": 1, "time_limit": minutes(5),
         "current_working_directory": JOBDIR, "standard_output": f"{JOBDIR}/{name}-%j.out",
         "environment": env(ENV)}
    j.update(extra)
    return j


record("openapi-v3", "GET", "/openapi/v3", note="the version discovery: paths of every loaded plugin")
record("openapi-v3-no-token", "GET", "/openapi/v3", token=None, user=None, note="plain text, not JSON")
record("ping", "GET", f"{V}/ping")
record("nodes-idle", "GET", f"{V}/nodes", note="4 idle nodes with gres gpu:t4:1")
record("partitions", "GET", f"{V}/partitions")

# a simple job, seen pending (right after submit), then completed
_, reply = record("submit-simple", "POST", f"{V}/job/submit",
                  {"script": "#!/bin/bash\necho \"hello $FOO from $SLURMD_NODENAME\"\nsleep 1\n",
                   "job": job("ty-simple", environment=env({"PATH": "/usr/bin:/bin", "FOO": "bar"}),
                              standard_error=f"{JOBDIR}/ty-simple-%j.err")})
simple = json.loads(reply)["job_id"]
wait_state(simple, {"RUNNING"})
record("job-simple-running", "GET", f"{V}/job/{simple}")
wait_state(simple, FINAL)
record("job-simple-completed", "GET", f"{V}/job/{simple}")

# a 3-component het job (1 + 2 + 1 nodes): pending right after submit, running, completed
het_script = "#!/bin/bash\nsrun --het-group=1 --nodes=2 --ntasks=2 hostname\nsleep 2\n"
_, reply = record("submit-het", "POST", f"{V}/job/submit",
                  {"script": het_script,
                   "jobs": [job("ty-het"),
                            # 24.11 refuses a component without a working directory (2063); 22.05 did not care
                            {"name": "ty-het", "nodes": "2" if NEW else 2, "tasks": 2, "tasks_per_node": 1,
                             "time_limit": minutes(5), "environment": env(ENV), "current_working_directory": JOBDIR,
                             **({"tres_per_node": "gres/gpu:t4:1"} if NEW else {"gres": "gpu:t4:1"})},
                            {"name": "ty-het", "nodes": "1" if NEW else 1, "tasks": 1, "time_limit": minutes(5),
                             "environment": env(ENV), "current_working_directory": JOBDIR}]})
het = json.loads(reply)["job_id"]
record("job-het-pending", "GET", f"{V}/job/{het}", note="all components PENDING")
wait_state(het, {"RUNNING"})
record("job-het-running", "GET", f"{V}/job/{het}")
wait_state(het, FINAL)
record("job-het-completed", "GET", f"{V}/job/{het}")

# exit 3 -> FAILED, exit_code 768; kill -9 $$ -> FAILED, exit_code 9
_, reply = record("submit-exit3", "POST", f"{V}/job/submit", {"script": "#!/bin/bash\nexit 3\n", "job": job("ty-exit3")})
exit3 = json.loads(reply)["job_id"]
wait_state(exit3, FINAL)
record("job-exit3", "GET", f"{V}/job/{exit3}")
_, reply = call("POST", f"{V}/job/submit", {"script": "#!/bin/bash\nkill -9 $$\n", "job": job("ty-kill9")})
kill9 = json.loads(reply)["job_id"]
wait_state(kill9, FINAL)
record("job-kill9", "GET", f"{V}/job/{kill9}")

# hold:true -> HTTP 200 with errors[] (2042) and a job_id
_, reply = record("submit-held", "POST", f"{V}/job/submit",
                  {"script": "#!/bin/bash\nsleep 60\n", "job": job("ty-held", hold=True)},
                  note="errors[] non-empty AND job_id")
held = json.loads(reply)["job_id"]
record("cancel-pending", "DELETE", f"{V}/job/{held}")
wait_state(held, FINAL)
record("job-cancelled-pending", "GET", f"{V}/job/{held}")

# cancel a running job, then again
_, reply = call("POST", f"{V}/job/submit", {"script": "#!/bin/bash\nsleep 120\n", "job": job("ty-sleeper")})
sleeper = json.loads(reply)["job_id"]
wait_state(sleeper, {"RUNNING"})
# RUNNING comes before slurmd has launched the batch step: a signal sent at once is lost (seen: the job kept
# running), so give the step a moment
time.sleep(1)
record("signal-usr1", "DELETE", f"{V}/job/{sleeper}?signal=SIGUSR1", note="signal only")
wait_state(sleeper, FINAL)
record("job-signalled-usr1", "GET", f"{V}/job/{sleeper}", note="SIGUSR1 not trapped: FAILED, exit_code 10")
_, reply = call("POST", f"{V}/job/submit", {"script": "#!/bin/bash\nsleep 120\n", "job": job("ty-sleeper")})
sleeper = json.loads(reply)["job_id"]
wait_state(sleeper, {"RUNNING"})
record("cancel-running", "DELETE", f"{V}/job/{sleeper}")
wait_state(sleeper, FINAL)
record("job-cancelled-running", "GET", f"{V}/job/{sleeper}")
record("cancel-again", "DELETE", f"{V}/job/{sleeper}", note="idempotent")

# errors
record("job-unknown", "GET", f"{V}/job/999999", note="2017: the job vanished (MinJobAge) or never was")
record("cancel-unknown", "DELETE", f"{V}/job/999999")
record("submit-unknown-key", "POST", f"{V}/job/submit",
       {"script": "#!/bin/bash\ntrue\n", "job": job("ty-bad", **({"frobnicate": 1} if NEW else {"tres_per_node": "gres:gpu:1"}))})
record("submit-no-environment", "POST", f"{V}/job/submit",
       {"script": "#!/bin/bash\ntrue\n", "job": {"name": "ty-noenv"}})
if not NEW:
    record("submit-env-array", "POST", f"{V}/job/submit",
           {"script": "#!/bin/bash\ntrue\n", "job": job("ty-envarray", environment=["PATH=/usr/bin:/bin"])},
           note="v0.0.39's environment shape is refused by v0.0.38")
record("submit-bad-partition", "POST", f"{V}/job/submit",
       {"script": "#!/bin/bash\ntrue\n", "job": job("ty-badpart", partition="nosuch")})
record("submit-impossible-gres", "POST", f"{V}/job/submit",
       {"script": "#!/bin/bash\ntrue\n",
        "job": job("ty-badgres", **({"tres_per_node": "gres/gpu:a100:1"} if NEW else {"gres": "gpu:a100:1"}))})
record("submit-not-json", "POST", f"{V}/job/submit", {"script": "#!/bin/bash\ntrue\n"},
       content_type="application/x-www-form-urlencoded", note="plain text")
for what in ("ping", "nodes", "job/1"):
    record("bad-token-" + what.replace("/", "-"), "GET", f"{V}/{what}", token="not.a.token",
           note="a bad or expired token is HTTP 500, not 401")
record("bad-token-submit", "POST", f"{V}/job/submit", {"script": "#!/bin/bash\ntrue\n", "job": job("ty-badtoken")},
       token="not.a.token")
record("bad-token-cancel", "DELETE", f"{V}/job/1", token="not.a.token")
record("no-token-ping", "GET", f"{V}/ping", token=None, note="plain text")

with open(OUT / "INDEX.tsv", "w") as f:
    f.write("file\tmethod\tpath\thttp_status\tnote\n")
    for row in INDEX:
        f.write("\t".join(row) + "\n")
print(f"recorded {len(INDEX)} replies into {OUT}")
