"""Load test for the digits and BERT services, on loopback only and bounded.

    python samples/service/loadtest.py [--server stdlib|asgi|both] [--clients 16]
                                       [--requests 200] [--half-open 200] [--time-cap 60]
                                       [--model digits|bert|decode] [--batch 16[,2]] [--compare]

Starts the server (server.py's stdlib one, asgi_server.py's Starlette/uvicorn
one, or each in turn) in this process on 127.0.0.1 with a free port, opens
``half-open`` connections that send part of a request and then stall (half
stop inside the headers, half inside the body) and keeps them open, then runs
``clients`` threads that each send up to ``requests`` POSTs over one
keep-alive connection (all stop at ``--time-cap`` seconds), checks every
answer against a sequential call of the same module, and reports throughput
and p50 / p99 latency.  Exit status 1 if an answer differs or a request failed.
An answer "differs" when its class or a logit (beyond rounding: rtol 1e-5)
does; answers that match but not bit for bit are counted apart ("inexact":
a merged call's kernels may round differently from a call of one row).

``--model decode``: each request is a greedy generation of DECODE_TOKENS
tokens (generation.py); answers are compared bit for bit (every token and
its logits' CRC-32) with the same generation run alone.

``--batch MAX[,DELAY_MS]`` serves through a runtime.Batcher (decode: MAX
sequences per continuously batched step); ``--compare``
runs the model three times on one server kind: one client unbatched (the
single-call latency), ``clients`` unbatched, ``clients`` batched (``--batch``,
default 16,2), and prints throughput and p99 ratios.
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
KEYS = {"digits": "x", "bert": "ids"}


def _client(port, key, xs, first, count, deadline, out):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        for k in range(count):
            if time.monotonic() > deadline:
                break
            i = (first + k) % len(xs)
            body = json.dumps({key: xs[i].tolist()})
            t0 = time.perf_counter()
            conn.request("POST", "/predict", body, {"Content-Type": "application/json"})
            resp = conn.getresponse()
            data = resp.read()
            dt = time.perf_counter() - t0
            out.append((i, resp.status, json.loads(data), dt))
    finally:
        conn.close()


def _decode_client(port, first, count, deadline, out):
    """``count`` generations of DECODE_TOKENS tokens, each prompted with
    ``decode_starts()[first]``: the answers are keyed by ``first``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    body = json.dumps({"prompt": [decode_starts()[first]], "max_tokens": DECODE_TOKENS})
    try:
        for _ in range(count):
            if time.monotonic() > deadline:
                break
            t0 = time.perf_counter()
            conn.request("POST", "/predict", body, {"Content-Type": "application/json"})
            resp = conn.getresponse()
            data = resp.read()
            out.append((first, resp.status, json.loads(data), time.perf_counter() - t0))
    finally:
        conn.close()


DECODE_TOKENS = 24                 # tokens per generation of the decode load test


def decode_starts() -> list[int]:
    """The decode clients' prompts: client i sends the i-th token, every time."""
    import decode
    return [(7919 * i + 13) % decode.CONFIG["vocab"] for i in range(64)]


def request_inputs(model="digits") -> np.ndarray:
    """What the clients send: the digits test set, or 64 random BERT token
    sequences (a fixed seed)."""
    if model == "bert":
        import bert
        rng = np.random.default_rng(1)
        return rng.integers(0, bert.CONFIG["vocab"], (64, bert.CONFIG["seq"]), dtype=np.int32)
    with np.load(TEST_SET) as z:
        return z["x"].astype(np.float32)


def _clients(port, model, clients, requests, time_cap, pipe) -> None:
    """The client side, in its own process (as real clients are: they do not
    compete with the server for its interpreter lock): ``clients`` threads,
    then (answers, wall seconds) through ``pipe``."""
    xs = request_inputs(model) if model != "decode" else None
    out, threads = [], []
    deadline = time.monotonic() + time_cap
    t0 = time.perf_counter()
    for c in range(clients):
        t = threading.Thread(target=_decode_client, args=(port, c, requests, deadline, out)) \
            if model == "decode" else threading.Thread(
                target=_client, args=(port, KEYS[model], xs, c * requests, requests, deadline, out))
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


def _matches(got: dict, want: dict) -> bool:
    """The same class and logits equal up to float32 rounding."""
    return got["class"] == want["class"] and np.allclose(
        np.array(got["logits"], dtype=float), np.array(want["logits"], dtype=float),
        rtol=1e-5, atol=1e-6)


_REFERENCE = {}          # (model, client count) -> the sequential answers


def run_load(clients=8, requests=200, time_cap=60.0, device="local-task", server="stdlib",
             half_open=0, model="digits", batch=None, vmfb=None) -> dict:
    """Serve, load, verify; returns the figures (see ``report``).  ``batch``:
    (max_batch, max_delay_ms) to serve through a Batcher; ``vmfb``: the
    compiled model (default: compiled now)."""
    import multiprocessing
    model_name = model
    model = service.make_model(device, vmfb, model=model_name, batch=batch)
    if model_name == "decode":      # each client's generation, run alone
        key = (model_name, clients)
        if key not in _REFERENCE:
            _REFERENCE[key] = [model.reference([decode_starts()[c]], DECODE_TOKENS)
                               for c in range(clients)]
        expected = _REFERENCE[key]
    else:
        expected = [model.predict_single(x) for x in request_inputs(model_name)]  # sequential
    port, stop = start_server(server, model)
    stalled = []
    try:
        stalled = _half_open(port, half_open)
        ctx = multiprocessing.get_context("spawn")
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_clients, args=(port, model_name, clients, requests,
                                                  time_cap, send))
        proc.start()
        send.close()
        out, wall = recv.recv() if recv.poll(time_cap + 120) else ([], 0.0)
        proc.join(30)
        held = _still_open(stalled)
    finally:
        for sock in stalled:
            sock.close()
        stop()
        model.close()
    lat = sorted(dt for _, _, _, dt in out)
    errors = [(i, s, d) for i, s, d, _ in out if s != 200]
    if model_name == "decode":      # bit for bit: every token and its logits' CRC
        wrong = [i for i, s, d, _ in out if s == 200 and d != expected[i]]
        inexact = []
    else:
        wrong = [i for i, s, d, _ in out if s == 200 and not _matches(d, expected[i])]
        inexact = [i for i, s, d, _ in out if s == 200 and d != expected[i] and i not in wrong]
    stats = dict(model.batcher.stats) if model.batcher is not None else dict(
        getattr(model, "stats", {}))
    return {"requests": len(out), "clients": clients, "wall_s": wall, "model": model_name,
            "batch": batch, "inexact": inexact, "batcher": stats,
            "throughput": len(out) / wall if wall else 0.0,
            "p50_ms": 1e3 * statistics.median(lat) if lat else None,
            "p99_ms": 1e3 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else None,
            "errors": errors, "wrong": wrong, "device": device, "server": server,
            "half_open": half_open, "half_open_held": held}


def report(r: dict) -> str:
    batched = ""
    if r.get("batch") and "steps" in r["batcher"]:       # decode: continuous batching
        steps = r["batcher"]["steps"]
        batched = (f", batched {r['batch'][0]}: {steps} steps, "
                   f"{r['batcher']['rows'] / max(steps, 1):.1f} sequences per step, "
                   f"{1e3 * r['batcher']['call_s'] / max(steps, 1):.1f} ms per step's call, "
                   f"{1e3 * r['batcher']['step_s'] / max(steps, 1):.1f} ms per step")
    elif r.get("batch"):
        calls = r["batcher"].get("calls", 0)
        batched = (f", batched {r['batch'][0]},{r['batch'][1]:g}: {calls} calls, "
                   f"{r['batcher'].get('rows', 0) / max(calls, 1):.1f} rows per call")
    return (f"{r['server']} {r.get('model', 'digits')}{batched}: {r['requests']} requests "
            f"from {r['clients']} clients on "
            f"{r['device']} (+{r['half_open']} half-open connections, "
            f"{r['half_open_held']} still open at the end) in "
            f"{r['wall_s']:.2f} s: {r['throughput']:.0f} req/s, p50 {r['p50_ms']:.2f} ms, "
            f"p99 {r['p99_ms']:.2f} ms, {len(r['errors'])} errors, "
            f"{len(r['wrong'])} answers differ from sequential calls "
            f"({len(r.get('inexact', []))} equal only up to rounding)")


def compare(server, clients, requests, time_cap, device, half_open, model, batch,
            vmfb=None) -> list:
    """One client unbatched, ``clients`` unbatched, ``clients`` batched (one
    compiled module, ``vmfb`` or compiled now): the three results, with the
    ratios printed."""
    if vmfb is None:
        import bert
        import decode
        from tensorvm import compiler
        source = {"bert": bert.MLIR, "decode": decode.MLIR}.get(model, service.MODEL_MLIR)
        vmfb = compiler.compile_str(source.read_text(), targets=["cpu"])
    kw = dict(time_cap=time_cap, device=device, server=server, half_open=half_open,
              model=model, vmfb=vmfb)
    single = run_load(1, max(20, requests // 4), **kw)
    plain = run_load(clients, requests, **kw)
    merged = run_load(clients, requests, batch=batch, **kw)
    for r in (single, plain, merged):
        print(report(r), flush=True)
    print(f"batched / unbatched throughput: {merged['throughput'] / plain['throughput']:.2f}x; "
          f"batched p99 / single-call p50: {merged['p99_ms'] / single['p50_ms']:.2f}x "
          f"(single call: p50 {single['p50_ms']:.2f} ms)", flush=True)
    return [single, plain, merged]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default="both", choices=["stdlib", "asgi", "both"])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--requests", type=int, default=200, help="per client")
    ap.add_argument("--half-open", type=int, default=200,
                    help="stalled connections held open during the load")
    ap.add_argument("--time-cap", type=float, default=60.0, help="seconds, all clients")
    ap.add_argument("--device", default="local-task")
    ap.add_argument("--model", default="digits", choices=["digits", "bert", "decode"])
    ap.add_argument("--batch", type=service.parse_batch, metavar="MAX[,DELAY_MS]",
                    help="serve through runtime.Batcher (a model with a symbolic batch)")
    ap.add_argument("--vmfb", help="the model precompiled (default: compile it now)")
    ap.add_argument("--compare", action="store_true",
                    help="1 client, then clients unbatched, then clients batched")
    args = ap.parse_args(argv)
    kinds = ["stdlib", "asgi"] if args.server == "both" else [args.server]
    vmfb = pathlib.Path(args.vmfb).read_bytes() if args.vmfb else None
    if args.compare:
        results = [r for kind in kinds for r in compare(
            kind, args.clients, args.requests, args.time_cap, args.device, args.half_open,
            args.model, args.batch or (16, 2.0), vmfb)]
    else:
        results = []
        for kind in kinds:
            results.append(run_load(args.clients, args.requests, args.time_cap, args.device,
                                    kind, args.half_open, args.model, args.batch, vmfb))
            print(report(results[-1]), flush=True)
    return 1 if any(r["errors"] or r["wrong"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
