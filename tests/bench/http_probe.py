#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The probe of issue 15 (#4) against a running trainyard-executor: holds slowloris, idle and unfinished-body
connections for a while and counts how many are still open, then checks `Connection: close`, a request smuggled
behind Content-Length + Transfer-Encoding, and a burst of pipelined requests.

    tests/bench/http_probe.py RUNTIME_DIR [SECONDS]

RUNTIME_DIR holds the executor's executor.json and token (--runtime-dir); SECONDS (default 45) is how long the held
connections are given (the executor's default timeouts: head 10 s, body 30 s, idle 30 s). Prints one line per figure.
"""
import json
import os
import select
import socket
import sys
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.setblocking(False)
    return s


def is_closed(s):
    """True when the peer closed (EOF or reset); drains what was sent."""
    try:
        while True:
            r, _, _ = select.select([s], [], [], 0)
            if not r:
                return False
            data = s.recv(65536)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except BlockingIOError:
        return False


def read_all(s, seconds):
    """Everything the peer sends within `seconds` or until it closes; and whether it closed."""
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r, _, _ = select.select([s], [], [], max(0.0, end - time.monotonic()))
        if not r:
            break
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            return data, True
        if not chunk:
            return data, True
        data += chunk
    return data, False


def main():
    runtime = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 45
    info = json.load(open(os.path.join(runtime, "executor.json")))
    token = open(info["tokenFile"], "rb").read().strip()
    port = int(info["url"].rsplit(":", 1)[1].strip("/"))
    get = b"GET /v1/projects/local/host HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token + b"\r\n"

    slow = [connect(port) for _ in range(30)]
    for s in slow:
        s.send(b"GET /v1/projects/local/host HTTP/1.1\r\n")
    idle = [connect(port) for _ in range(200)]
    bodies = [connect(port) for _ in range(50)]
    for s in bodies:
        s.send(b"POST /v1/projects/local/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
               + b"\r\nContent-Length: 1000\r\n\r\n{\"jobId\":")
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for s in slow:  # one header byte every second: never a complete head
            try:
                s.send(b"X")
            except OSError:
                pass
        time.sleep(1)
    print("after %.0f s still open: slowloris %d/30, idle %d/200, unfinished body %d/50" % (
        seconds, sum(not is_closed(s) for s in slow), sum(not is_closed(s) for s in idle),
        sum(not is_closed(s) for s in bodies)))
    for s in slow + idle + bodies:
        s.close()

    s = connect(port)
    s.send(get + b"Connection: close\r\n\r\n")
    data, closed = read_all(s, 5)
    print("Connection: close: answered %s, closed after the answer: %s" % (data[:12].decode(errors="replace"), closed))
    s.close()

    s = connect(port)
    s.send(b"POST /v1/projects/local/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
           + b"\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + get + b"\r\n")
    data, closed = read_all(s, 5)
    answers = data.count(b"HTTP/1.1 ")
    print("CL+TE: first answer %s, answers %d, smuggled request answered: %s, closed: %s" % (
        data[:12].decode(errors="replace"), answers, answers > 1, closed))
    s.close()

    s = connect(port)
    s.send((get + b"\r\n") * 50)
    data, closed = read_all(s, 5)
    print("pipelined: %d of 50 answered (%d with 200)" % (data.count(b"HTTP/1.1 "), data.count(b"HTTP/1.1 200")))
    s.close()


if __name__ == "__main__":
    main()
