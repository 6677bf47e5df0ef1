"""Load test for the digits services, on loopback only and bounded.

    python samples/service/loadtest.py [--server stdlib|asgi|both] [--clients 16]
                                       [--requests 200] [--half-open 200] [--time-cap 60]

Starts the server (server.py's stdlib one, asgi_server.py's Starlette/uvicorn
one, or each in turn) in this process on 127.0.0.1 with a free port, opens
``half-open`` connections that send part of a request and then stall (half
stop inside the headers, half inside the body) and keeps them open, then runs
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
import socket
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


def _load_xs():
    with np.load(TEST_SET) as z:
        return z["x"].astype(np.float32)


def _clients(port, clients, requests, time_cap, pipe) -> None:
    """The client side, in its own process (as real clients are: they do not
    compete with the server for its interpreter lock): ``clients`` threads,
    then (answers, wall seconds) through ``pipe``."""
    xs = _load_xs()
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
    pipe.send((out, time.perf_counter() - t0))
    pipe.close()


def start_server(kind: str, model, *, timeout_s=10.0, max_connections=512):
    """Serve ``model`` on 127.0.0.1 (a free port) on a daemon thread with the
    ``kind`` server ("stdlib" or "asgi"); returns (port, stop)."""
    if kind == "stdlib":
        server = service.make_server(model, "127.0.0.1", 0, timeout_s=timeout_s,
                                     max_connections=max_connections)
        threading.Thread(target=server.serve_forever, daemon=True).start()

        def stop():
            server.shutdown()
            server.server_close()
        return server.server_address[1], stop
    if kind != "asgi":
        raise ValueError(f"server must be 'stdlib' or 'asgi', got {kind!r}")
    import asgi_server
    server = asgi_server.make_server(
        asgi_server.make_app(model, request_timeout_s=timeout_s * 4),
        limit_concurrency=max_connections, header_timeout_s=timeout_s)
    thread, port = asgi_server.serve_in_thread(server)

    def stop():
        server.should_exit = True
        thread.join(10)
    return port, stop


def _half_open(port, count) -> list:
    """``count`` connections that send part of a request, then stall."""
    out = []
    for k in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"POST /predict HTTP/1.1\r\nHost: x\r\nContent-Le" if k % 2 else
                  b"POST /predict HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
        out.append(s)
    return out


def _still_open(sockets) -> int:
    """How many of ``sockets`` the server has neither answered nor closed."""
    n = 0
    for s in sockets:
        s.setblocking(False)
        try:
            s.recv(1)                    # an answer or EOF: the server dealt with it
        except BlockingIOError:
            n += 1
        except OSError:
            pass
        s.close()
    return n


def run_load(clients=8, requests=200, time_cap=60.0, device="local-task", server="stdlib",
             half_open=0) -> dict:
    """Serve, load, verify; returns the figures (see ``report``)."""
    import multiprocessing
    xs = _load_xs()
    model = service.Model(device)
    expected = [model.predict(x) for x in xs]           # sequential reference
    port, stop = start_server(server, model)
    stalled = []
    try:
        stalled = _half_open(port, half_open)
        ctx = multiprocessing.get_context("spawn")
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_clients, args=(port, clients, requests, time_cap, send))
        proc.start()
        send.close()
        out, wall = recv.recv() if recv.poll(time_cap + 120) else ([], 0.0)
        proc.join(30)
        held = _still_open(stalled)
    finally:
        for sock in stalled:
            sock.close()
        stop()
    lat = sorted(dt for _, _, _, dt in out)
    errors = [(i, s, d) for i, s, d, _ in out if s != 200]
    wrong = [i for i, s, d, _ in out if s == 200 and d != expected[i]]
    return {"requests": len(out), "clients": clients, "wall_s": wall,
            "throughput": len(out) / wall if wall else 0.0,
            "p50_ms": 1e3 * statistics.median(lat) if lat else None,
            "p99_ms": 1e3 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else None,
            "errors": errors, "wrong": wrong, "device": device, "server": server,
            "half_open": half_open, "half_open_held": held}


def report(r: dict) -> str:
    return (f"{r['server']}: {r['requests']} requests from {r['clients']} clients on "
            f"{r['device']} (+{r['half_open']} half-open connections, "
            f"{r['half_open_held']} still open at the end) in "
            f"{r['wall_s']:.2f} s: {r['throughput']:.0f} req/s, p50 {r['p50_ms']:.2f} ms, "
            f"p99 {r['p99_ms']:.2f} ms, {len(r['errors'])} errors, "
            f"{len(r['wrong'])} answers differ from sequential calls")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default="both", choices=["stdlib", "asgi", "both"])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--requests", type=int, default=200, help="per client")
    ap.add_argument("--half-open", type=int, default=200,
                    help="stalled connections held open during the load")
    ap.add_argument("--time-cap", type=float, default=60.0, help="seconds, all clients")
    ap.add_argument("--device", default="local-task")
    args = ap.parse_args(argv)
    failed = False
    for kind in (["stdlib", "asgi"] if args.server == "both" else [args.server]):
        r = run_load(args.clients, args.requests, args.time_cap, args.device, kind,
                     args.half_open)
        print(report(r), flush=True)
        failed = failed or bool(r["errors"] or r["wrong"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
