"""Load test for the digits service, on loopback only and bounded.

    python samples/service/loadtest.py [--clients 8] [--requests 200] [--time-cap 60]

Starts the server in this process on 127.0.0.1 with a free port, runs
``clients`` threads that each send up to ``requests`` POSTs over one
keep-alive connection (all stop at ``--time-cap`` seconds), checks every
answer against a sequential call of the same module, and reports throughput
and p50 / p99 latency.  Exit status 1 if an answer differs or a request failed.
"""
from __future__ import annotations

import argparse
import http.client
import json
import pathlib
import statistics
import sys
import threading
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import server as service  # noqa: E402

TEST_SET = HERE.parent / "digits" / "test_set.npz"


def _client(port, xs, first, count, deadline, out):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        for k in range(count):
            if time.monotonic() > deadline:
                break
            i = (first + k) % len(xs)
            body = json.dumps({"x": xs[i].tolist()})
            t0 = time.perf_counter()
            conn.request("POST", "/predict", body, {"Content-Type": "application/json"})
            resp = conn.getresponse()
            data = resp.read()
            dt = time.perf_counter() - t0
            out.append((i, resp.status, json.loads(data), dt))
    finally:
        conn.close()


def run_load(clients=8, requests=200, time_cap=60.0, device="local-task") -> dict:
    """Serve, load, verify; returns the figures (see ``report``)."""
    with np.load(TEST_SET) as z:
        xs = z["x"].astype(np.float32)
    model = service.Model(device)
    expected = [model.predict(x) for x in xs]           # sequential reference
    server = service.make_server(model, "127.0.0.1", 0)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        out, threads = [], []
        deadline = time.monotonic() + time_cap
        t0 = time.perf_counter()
        for c in range(clients):
            t = threading.Thread(target=_client, args=(port, xs, c * requests, requests,
                                                       deadline, out))
            t.start()
            threads.append(t)
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
    finally:
        server.shutdown()
        server.server_close()
    lat = sorted(dt for _, _, _, dt in out)
    errors = [(i, s, d) for i, s, d, _ in out if s != 200]
    wrong = [i for i, s, d, _ in out if s == 200 and d != expected[i]]
    return {"requests": len(out), "clients": clients, "wall_s": wall,
            "throughput": len(out) / wall if wall else 0.0,
            "p50_ms": 1e3 * statistics.median(lat) if lat else None,
            "p99_ms": 1e3 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else None,
            "errors": errors, "wrong": wrong, "device": device}


def report(r: dict) -> str:
    return (f"{r['requests']} requests from {r['clients']} clients on {r['device']} in "
            f"{r['wall_s']:.2f} s: {r['throughput']:.0f} req/s, p50 {r['p50_ms']:.2f} ms, "
            f"p99 {r['p99_ms']:.2f} ms, {len(r['errors'])} errors, "
            f"{len(r['wrong'])} answers differ from sequential calls")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=200, help="per client")
    ap.add_argument("--time-cap", type=float, default=60.0, help="seconds, all clients")
    ap.add_argument("--device", default="local-task")
    args = ap.parse_args(argv)
    r = run_load(args.clients, args.requests, args.time_cap, args.device)
    print(report(r))
    return 1 if r["errors"] or r["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
