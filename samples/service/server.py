"""An HTTP inference service that embeds the tensorvm runtime.

    python samples/service/server.py [--host 127.0.0.1] [--port 8000]
                                     [--device local-task] [--vmfb model.vmfb]

Serves the digits MLP (samples/digits/digits_mlp_b1.mlir, compiled at start,
or a precompiled ``--vmfb``) to concurrent clients with the standard
library's ``ThreadingHTTPServer`` (one thread per connection, HTTP/1.1
keep-alive).  All request threads share ONE loaded module: tensorvm modules
are safe to call from any number of threads at once.

    POST /predict   {"x": [64 numbers]}  ->  {"class": k, "logits": [10 numbers]}
    GET  /health    ->  {"status": "ok", "device": "...", "requests": n}

Bad input gets a 400 with the runtime's message; a failed call a 500.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
MODEL_MLIR = HERE.parent / "digits" / "digits_mlp_b1.mlir"
N_FEATURES = 64


class Model:
    """The loaded digits module plus the request counter /health reports."""

    def __init__(self, device="local-task", vmfb=None, timeout_s=30.0):
        from tensorvm import runtime
        if vmfb is None:
            from tensorvm import compiler
            vmfb = compiler.compile_str(MODEL_MLIR.read_text(), targets=["cpu"])
        self.module = runtime.load_module(vmfb, device=device, timeout_s=timeout_s)
        self.device = device
        self.requests = 0
        self._lock = threading.Lock()

    def predict(self, x: np.ndarray) -> dict:
        logits = np.asarray(self.module.main(x.reshape(1, N_FEATURES)))[0]
        with self._lock:
            self.requests += 1
        return {"class": int(np.argmax(logits)), "logits": [float(v) for v in logits]}


def parse_input(body: bytes) -> np.ndarray:
    """The 64 features of a request body (ValueError with a message otherwise)."""
    try:
        doc = json.loads(body)
    except json.JSONDecodeError as e:
        raise ValueError(f"body is not JSON: {e}") from None
    x = doc.get("x") if isinstance(doc, dict) else doc
    if not isinstance(x, list) or len(x) != N_FEATURES or \
            not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in x):
        raise ValueError(f'expected {{"x": [{N_FEATURES} numbers]}}')
    return np.asarray(x, dtype=np.float32)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"        # keep-alive: one connection per client
    model: Model = None                  # set by make_server

    def setup(self):
        super().setup()                  # no Nagle delay between headers and body
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _send(self, code: int, doc: dict) -> None:
        body = json.dumps(doc).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path != "/health":
            return self._send(404, {"error": f"no route {self.path}"})
        self._send(200, {"status": "ok", "device": self.model.device,
                         "requests": self.model.requests})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if self.path != "/predict":
            return self._send(404, {"error": f"no route {self.path}"})
        try:
            x = parse_input(body)
        except ValueError as e:
            return self._send(400, {"error": str(e)})
        try:
            self._send(200, self.model.predict(x))
        except Exception as e:           # noqa: BLE001 - the runtime's typed errors
            self._send(500, {"error": f"{type(e).__name__}: {e}"})

    def log_message(self, fmt, *args):   # quiet: a load test makes thousands of requests
        pass


def make_server(model: Model, host="127.0.0.1", port=8000) -> ThreadingHTTPServer:
    """A server bound to (host, port) (port 0: a free one; see server_address)."""
    handler = type("DigitsHandler", (Handler,), {"model": model})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--device", default="local-task", help="local-task (default) or local-sync")
    ap.add_argument("--vmfb", help="a precompiled module (default: compile the digits MLP now)")
    args = ap.parse_args(argv)
    model = Model(args.device, pathlib.Path(args.vmfb).read_bytes() if args.vmfb else None)
    server = make_server(model, args.host, args.port)
    host, port = server.server_address[:2]
    print(f"serving digits on http://{host}:{port}/predict ({args.device})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
