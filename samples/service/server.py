"""An HTTP inference service that embeds the tensorvm runtime.

    python samples/service/server.py [--host 127.0.0.1] [--port 8000]
                                     [--device local-task] [--vmfb model.vmfb]
                                     [--model digits|bert|decode] [--batch 16[,2]]

Serves the digits MLP (samples/digits/digits_mlp_b1.mlir, compiled at start,
or a precompiled ``--vmfb``), with ``--model bert`` a BERT-style
classifier with a symbolic batch (bert.py; ``{"ids": [128 token ids]}``),
or with ``--model decode`` greedy GPT-2-small generation from KV caches the
server holds (generation.py; ``{"prompt": [464], "max_tokens": 16}``),
to concurrent clients with the standard
library's ``ThreadingHTTPServer`` (one thread per connection, HTTP/1.1
keep-alive).  All request threads share ONE loaded module: tensorvm modules
are safe to call from any number of threads at once.  (asgi_server.py is the
asyncio version a deployment would use.)

    POST /predict   {"x": [64 numbers]}  ->  {"class": k, "logits": [10 numbers]}
    GET  /health    ->  {"status": "ok", "device": "...", "requests": n}

``--batch MAX[,DELAY_MS]`` merges concurrent requests into calls of up to
MAX rows (runtime.Batcher; the oldest waits at most DELAY_MS, default 2):
needs a model with a symbolic batch.  A full queue answers 503, a request
past its deadline 504.

Every answer is JSON.  Bad input gets a 400 with a message (not JSON, not 64
finite float32 numbers, NaN/Infinity, nesting too deep); a POST without
Content-Length a 411; a body over ``max_body`` bytes a 413 (never read); a
failed call a 500.  A connection that stalls for ``timeout_s`` mid-request is
closed; past ``max_connections`` open connections a new one gets a 503.
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
    """The loaded module (``model``: "digits" or "bert"), its optional
    Batcher (``batch``: (max_batch, max_delay_ms)), and the request counter
    /health reports."""

    def __init__(self, device="local-task", vmfb=None, timeout_s=30.0, model="digits",
                 batch=None):
        from tensorvm import runtime
        if model == "bert":
            import bert
            source, self.shared, self.key = bert.MLIR, bert.weights(0), "ids"
            self.parse = lambda body: parse_ids(body, bert.CONFIG["seq"], bert.CONFIG["vocab"])
        elif model == "digits":
            source, self.shared, self.key, self.parse = MODEL_MLIR, [], "x", parse_input
        else:
            raise ValueError(f"model must be 'digits' or 'bert', got {model!r}")
        if vmfb is None:
            from tensorvm import compiler
            vmfb = compiler.compile_str(source.read_text(), targets=["cpu"])
        self.module = runtime.load_module(vmfb, device=device, timeout_s=timeout_s)
        self.device, self.model = device, model
        self.batcher = None
        if batch:
            self.batcher = runtime.Batcher(self.module.main, max_batch=batch[0],
                                           max_delay_ms=batch[1], timeout_ms=1e3 * timeout_s)
        self.requests = 0
        self._lock = threading.Lock()

    def predict(self, x: np.ndarray) -> dict:
        """The answer for one request's input (through the batcher if any)."""
        call = self.batcher or self.module.main
        logits = np.asarray(call(*self.shared, x[None]))[0]
        self.count()
        return encode_output(logits)

    def predict_single(self, x: np.ndarray) -> dict:
        """The answer of a call of its own (the reference a batched answer
        is compared with)."""
        return encode_output(np.asarray(self.module.main(*self.shared, x[None]))[0])

    async def predict_async(self, x: np.ndarray) -> dict:
        call = self.batcher.call_async if self.batcher else self.module.main.call_async
        logits = np.asarray(await call(*self.shared, x[None]))[0]
        self.count()
        return encode_output(logits)

    def close(self) -> None:
        if self.batcher is not None:
            self.batcher.close()

    def count(self) -> None:
        with self._lock:
            self.requests += 1


MAX_BODY_BYTES = 64 * 1024            # a request is ~1.5 KB of JSON
_F32_MAX = float(np.finfo(np.float32).max)


def _refuse_constant(name):
    raise ValueError(f"{name} is not a number JSON allows")


def _json_field(body: bytes, key: str, **hooks):
    """``doc[key]`` of a strict JSON body (NaN/Infinity refused; deep nesting
    a ValueError, not a RecursionError), or the document itself."""
    try:
        doc = json.loads(body, parse_constant=_refuse_constant, **hooks)
    except RecursionError:
        raise ValueError("body is not JSON: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:     # JSONDecodeError is a ValueError
        raise ValueError(f"body is not JSON: {e}") from None
    return doc.get(key) if isinstance(doc, dict) else doc


def parse_input(body: bytes) -> np.ndarray:
    """The 64 features of a request body (ValueError with a message otherwise).

    Integers are read as floats (a 401-digit integer is then out of float32
    range, not an OverflowError)."""
    x = _json_field(body, "x", parse_int=float)
    if not isinstance(x, list) or len(x) != N_FEATURES or \
            not all(isinstance(v, float) for v in x):
        raise ValueError(f'expected {{"x": [{N_FEATURES} numbers]}}')
    if not all(-_F32_MAX <= v <= _F32_MAX for v in x):
        raise ValueError("every feature must be a finite float32 number")
    return np.asarray(x, dtype=np.float32)


def parse_ids(body: bytes, seq: int, vocab: int) -> np.ndarray:
    """The ``seq`` token ids of a BERT request body, each in [0, vocab)."""
    ids = _json_field(body, "ids")
    if not isinstance(ids, list) or len(ids) != seq or \
            not all(type(v) is int and 0 <= v < vocab for v in ids):
        raise ValueError(f'expected {{"ids": [{seq} integers in [0, {vocab})]}}')
    return np.asarray(ids, dtype=np.int32)


def encode_output(logits: np.ndarray) -> dict:
    """The response document; a non-finite logit is null (JSON has no NaN)."""
    finite = np.isfinite(logits)
    cls = int(np.argmax(np.where(finite, logits, -np.inf))) if finite.any() else None
    return {"class": cls, "logits": [float(v) if ok else None for v, ok in zip(logits, finite)]}


def error_status(e: Exception) -> int:
    """The HTTP status of a failed call: its own (``status``: the decode
    service's refusals), 503 when the batcher's queue is full (back-pressure:
    retry later), 504 past the request's deadline, else 500."""
    from tensorvm.runtime import DeadlineExceededError, QueueFullError
    status = getattr(e, "status", None)
    if type(status) is int:
        return status
    return 503 if isinstance(e, QueueFullError) else 504 if isinstance(
        e, DeadlineExceededError) else 500


def make_model(device="local-task", vmfb=None, model="digits", batch=None, timeout_s=30.0):
    """The served model: a ``Model`` ("digits", "bert") or, for "decode", a
    ``generation.DecodeModel`` (the same interface)."""
    if model == "decode":
        import generation
        return generation.DecodeModel(device, vmfb, timeout_s=timeout_s, batch=batch)
    return Model(device, vmfb, timeout_s=timeout_s, model=model, batch=batch)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"        # keep-alive: one connection per client
    model: Model = None                  # set by make_server
    max_body = MAX_BODY_BYTES
    timeout = 10.0                       # socket timeout: a stalled request is dropped

    def setup(self):
        super().setup()                  # no Nagle delay between headers and body
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _send(self, code: int, doc: dict, close: bool = False) -> None:
        body = json.dumps(doc, allow_nan=False).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if close:                        # the rest of the request was not read
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def send_error(self, code, message=None, explain=None):
        """The stdlib's own errors (bad request line, header too long) as JSON."""
        self._send(code, {"error": message or self.responses.get(code, ("error",))[0]},
                   close=True)

    def do_GET(self):
        if self.path != "/health":
            return self._send(404, {"error": f"no route {self.path}"})
        self._send(200, {"status": "ok", "device": self.model.device,
                         "requests": self.model.requests})

    def _body(self):
        """The request body, or None after answering why it cannot be read."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._send(411, {"error": "chunked bodies are not accepted; send "
                                             "Content-Length"}, close=True)
        text = self.headers.get("Content-Length")
        if text is None:
            return self._send(411, {"error": "Content-Length required"}, close=True)
        if not text.strip().isdigit():
            return self._send(400, {"error": f"Content-Length {text[:40]!r} is not a "
                                             "non-negative integer"}, close=True)
        length = int(text)
        if length > self.max_body:
            return self._send(413, {"error": f"body of {length} bytes exceeds the "
                                             f"{self.max_body}-byte limit"}, close=True)
        body = self.rfile.read(length)
        if len(body) < length:
            return self._send(400, {"error": "body shorter than Content-Length"}, close=True)
        return body

    def do_POST(self):
        body = self._body()
        if body is None:
            return
        if self.path != "/predict":
            return self._send(404, {"error": f"no route {self.path}"})
        try:
            x = self.model.parse(body)
        except ValueError as e:
            return self._send(400, {"error": str(e)})
        try:
            self._send(200, self.model.predict(x))
        except Exception as e:           # noqa: BLE001 - the runtime's typed errors
            self._send(error_status(e), {"error": f"{type(e).__name__}: {e}"})

    def log_message(self, fmt, *args):   # quiet: a load test makes thousands of requests
        pass


class BoundedServer(ThreadingHTTPServer):
    """``ThreadingHTTPServer`` with at most ``max_connections`` open
    connections (threads); one more gets a 503 and is closed at once."""

    daemon_threads = True
    max_connections = 512
    request_queue_size = 1024            # listen backlog (socketserver's default is 5)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._slots = threading.BoundedSemaphore(self.max_connections)

    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            body = b'{"error": "too many connections"}'
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                                b"application/json\r\nConnection: close\r\nContent-Length: "
                                + str(len(body)).encode() + b"\r\n\r\n" + body)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def handle_error(self, request, client_address):
        """A client that went away mid-answer is not a server error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def make_server(model: Model, host="127.0.0.1", port=8000, *, max_body=MAX_BODY_BYTES,
                timeout_s=10.0, max_connections=512) -> ThreadingHTTPServer:
    """A server bound to (host, port) (port 0: a free one; see server_address)."""
    handler = type("DigitsHandler", (Handler,), {"model": model, "max_body": max_body,
                                                  "timeout": timeout_s})
    server_cls = type("DigitsServer", (BoundedServer,), {"max_connections": max_connections})
    return server_cls((host, port), handler)


def cli_model(description: str, argv=None):
    """The command line both servers take, and the Model it names: (args, model)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--device", default="local-task", help="local-task (default) or local-sync")
    ap.add_argument("--vmfb", help="a precompiled module (default: compile the model now)")
    ap.add_argument("--model", default="digits", choices=["digits", "bert", "decode"])
    ap.add_argument("--batch", type=parse_batch, metavar="MAX[,DELAY_MS]",
                    help="merge concurrent requests (runtime.Batcher); needs --model bert or decode")
    args = ap.parse_args(argv)
    return args, make_model(args.device, pathlib.Path(args.vmfb).read_bytes() if args.vmfb else None,
                            model=args.model, batch=args.batch)


def parse_batch(text: str) -> tuple[int, float]:
    """``--batch MAX[,DELAY_MS]`` as (max_batch, max_delay_ms)."""
    parts = text.split(",")
    try:
        if len(parts) > 2:
            raise ValueError(text)
        return int(parts[0]), float(parts[1]) if len(parts) == 2 else 2.0
    except ValueError:
        raise argparse.ArgumentTypeError(f"--batch wants MAX[,DELAY_MS] (e.g. 16,2), "
                                         f"got {text!r}") from None


def main(argv=None) -> int:
    args, model = cli_model(__doc__.splitlines()[0], argv)
    server = make_server(model, args.host, args.port)
    host, port = server.server_address[:2]
    print(f"serving {args.model} on http://{host}:{port}/predict ({args.device}"
          f"{', batched' if args.batch else ''})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        model.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
