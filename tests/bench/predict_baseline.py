#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench_predict's baselines, with the same scikit-learn model (a joblib file) the executor serves.

    predict_baseline.py inprocess MODEL.joblib INSTANCES.json SECONDS
        calls model.predict on one instance at a time for SECONDS (the physical floor of online prediction: no
        transport at all) and prints {"p50Ms": …, "perSecond": …}.
    predict_baseline.py server MODEL.joblib
        the minimal HTTP server a user would write around the model (http.server's ThreadingHTTPServer, HTTP/1.1
        keep-alive with TCP_NODELAY, POST {"instances": […]} → {"predictions": […]}); prints its port on the first line, serves until
        stdin ends.
    predict_baseline.py fastapi MODEL.joblib PORT WORKERS
        FastAPI on uvicorn (uvloop, httptools, WORKERS processes, access log off) around the model
        (predict_fastapi.py): replaces itself with uvicorn, which serves on 127.0.0.1:PORT until it is terminated.
        Exits 2 with a message when FastAPI, uvicorn, uvloop or httptools is missing.
    predict_baseline.py loop MODEL.joblib INPUT.jsonl OUTPUT BATCH_SIZE
        batch prediction as one Python loop would do it: reads the JSON-lines input, calls model.predict on batches
        of BATCH_SIZE instances and writes {"instance": …, "prediction": …} lines to OUTPUT, as the executor's
        workers write them; prints {"seconds": …, "instances": …}.
"""
import http.server
import importlib.util
import json
import os
import statistics
import sys
import threading
import time

import joblib
import numpy as np


def inprocess(model_path, instances_path, seconds):
    model = joblib.load(model_path)
    with open(instances_path) as f:
        instances = json.load(f)
    samples = []
    deadline = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < deadline:
        instance = instances[i % len(instances)]
        t0 = time.perf_counter()
        model.predict(np.asarray([instance])).tolist()
        samples.append((time.perf_counter() - t0) * 1000.0)
        i += 1
    print(json.dumps({"p50Ms": statistics.median(samples), "perSecond": len(samples) / seconds}))


def server(model_path):
    model = joblib.load(model_path)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # http.server writes the head and the body separately: with Nagle's algorithm on, each keep-alive answer
        # waits ~40 ms for the client's delayed ACK. A user who measured would turn it off, so the baseline does.
        disable_nagle_algorithm = True

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            instances = json.loads(body)["instances"]
            answer = json.dumps({"predictions": model.predict(np.asarray(instances)).tolist()}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(httpd.server_address[1], flush=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    sys.stdin.read()
    httpd.shutdown()


def fastapi(model_path, port, workers):
    missing = [m for m in ("fastapi", "uvicorn", "uvloop", "httptools") if importlib.util.find_spec(m) is None]
    if missing:
        print("FastAPI's stack is not installed (%s): apt install python3-fastapi python3-uvicorn python3-uvloop "
              "python3-httptools" % ", ".join(missing), file=sys.stderr)
        sys.exit(2)
    os.environ["TRAINYARD_BENCH_MODEL"] = model_path
    os.execv(sys.executable, [sys.executable, "-m", "uvicorn", "predict_fastapi:app",
                              "--app-dir", os.path.dirname(os.path.abspath(__file__)),
                              "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
                              "--loop", "uvloop", "--http", "httptools", "--no-access-log", "--log-level", "warning"])


def loop(model_path, input_path, output_path, batch_size):
    model = joblib.load(model_path)
    started = time.perf_counter()
    count = 0
    with open(input_path, encoding="utf-8") as src, open(output_path, "w", encoding="utf-8") as out:
        batch, texts = [], []

        def flush():
            for text, prediction in zip(texts, model.predict(np.asarray(batch)).tolist()):
                out.write('{"instance": %s, "prediction": %s}\n' % (text, json.dumps(prediction)))

        for line in src:
            text = line.rstrip("\n")
            if not text.strip():
                continue
            batch.append(json.loads(text))
            texts.append(text)
            if len(batch) >= batch_size:
                flush()
                count += len(batch)
                batch, texts = [], []
        if batch:
            flush()
            count += len(batch)
    print(json.dumps({"seconds": time.perf_counter() - started, "instances": count}))


if __name__ == "__main__":
    if sys.argv[1] == "loop":
        loop(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif sys.argv[1] == "fastapi":
        fastapi(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "inprocess":
        inprocess(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        server(sys.argv[2])
