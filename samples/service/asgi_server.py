"""The digits service on an ASGI stack (Starlette under uvicorn).

    pip install 'tensorvm[service]'
    python samples/service/asgi_server.py [--host 127.0.0.1] [--port 8000]
                                          [--device local-task] [--vmfb model.vmfb]
                                          [--model digits|bert|decode] [--batch 16[,2]]

The same API as server.py, served by one asyncio event loop.  Requests call
the runtime with ``await module.main.call_async(x)``: the call runs on the
runtime's scheduler and device queue threads, so the loop keeps accepting,
reading and answering other requests meanwhile (no thread per request).
With ``--batch MAX[,DELAY_MS]`` (a model with a symbolic batch: ``--model
bert``) requests go through a ``runtime.Batcher`` instead (``await
batcher.call_async(...)``): concurrent requests share one call of up to MAX
rows; a full queue answers 503, a request past its deadline 504.

    POST /predict   {"x": [64 numbers]}  ->  {"class": k, "logits": [10 numbers]}
    GET  /health    ->  {"status": "ok", "device": "...", "requests": n, "in_flight": n}
    GET  /metrics   ->  Prometheus text: requests by status, in-flight, latency sum/count

Bounded everything: a body over ``max_body`` bytes is refused with 413
(from its Content-Length, before reading, or while streaming it); each
request has ``request_timeout_s`` to arrive and be answered (else 504); a
connection that has not completed a request's headers within
``header_timeout_s`` is closed; past ``limit_concurrency`` connections
uvicorn answers 503.  Errors are JSON ``{"error": message}``: 400 for bad
JSON, NaN/Infinity, values outside float32 or the wrong shape.
"""
from __future__ import annotations

import asyncio
import pathlib
import socket
import sys
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from server import MAX_BODY_BYTES, Model, cli_model, error_status  # noqa: E402

from starlette.applications import Starlette  # noqa: E402
from starlette.exceptions import HTTPException  # noqa: E402
from starlette.responses import JSONResponse, PlainTextResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402


class _Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Metrics:
    """Counters /metrics reports (touched only on the event loop thread)."""

    def __init__(self):
        self.by_status = {}
        self.in_flight = 0
        self.latency_sum_s = 0.0
        self.latency_count = 0

    def done(self, status: int, seconds: float) -> None:
        self.by_status[status] = self.by_status.get(status, 0) + 1
        self.latency_sum_s += seconds
        self.latency_count += 1

    def text(self) -> str:
        lines = ["# TYPE digits_requests_total counter"]
        lines += [f'digits_requests_total{{status="{s}"}} {n}'
                  for s, n in sorted(self.by_status.items())]
        lines += ["# TYPE digits_in_flight gauge", f"digits_in_flight {self.in_flight}",
                  "# TYPE digits_request_seconds summary",
                  f"digits_request_seconds_sum {self.latency_sum_s:.6f}",
                  f"digits_request_seconds_count {self.latency_count}"]
        return "\n".join(lines) + "\n"


async def _read_body(request, max_body: int) -> bytes:
    text = request.headers.get("content-length")
    if text is not None and int(text) > max_body:       # h11 checked it is a number
        raise _Refused(413, f"body of {text} bytes exceeds the {max_body}-byte limit")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > max_body:
            raise _Refused(413, f"body exceeds the {max_body}-byte limit")
    return bytes(body)


def make_app(model: Model, *, max_body=MAX_BODY_BYTES, request_timeout_s=10.0) -> Starlette:
    """The Starlette application serving ``model`` (a server.Model)."""
    metrics = Metrics()

    async def answer(request):
        body = await _read_body(request, max_body)
        try:
            x = model.parse(body)
        except ValueError as e:
            raise _Refused(400, str(e)) from None
        return await model.predict_async(x)

    async def predict(request):
        t0 = time.perf_counter()
        metrics.in_flight += 1
        try:
            doc, status = await asyncio.wait_for(answer(request), request_timeout_s), 200
        except _Refused as e:
            doc, status = {"error": str(e)}, e.status
        except asyncio.TimeoutError:
            doc, status = {"error": f"request not answered within {request_timeout_s} s"}, 504
        except Exception as e:           # noqa: BLE001 - the runtime's typed errors
            doc, status = {"error": f"{type(e).__name__}: {e}"}, error_status(e)
        finally:
            metrics.in_flight -= 1
        metrics.done(status, time.perf_counter() - t0)
        return JSONResponse(doc, status)

    async def health(request):
        doc = {"status": "ok", "device": model.device, "requests": model.requests,
               "in_flight": metrics.in_flight}
        if model.batcher is not None:       # merged calls, rows, expired, queue_full...
            doc["batcher"] = dict(model.batcher.stats)
        return JSONResponse(doc)

    async def metrics_text(request):
        return PlainTextResponse(metrics.text(), media_type="text/plain; version=0.0.4")

    async def http_error(request, exc):
        return JSONResponse({"error": exc.detail}, exc.status_code)

    app = Starlette(routes=[Route("/predict", predict, methods=["POST"]),
                            Route("/health", health, methods=["GET"]),
                            Route("/metrics", metrics_text, methods=["GET"])],
                    exception_handlers={HTTPException: http_error})
    app.state.metrics = metrics
    return app


def _timed_protocol(header_timeout_s: float):
    """uvicorn's h11 protocol, closing a connection that has not started a new
    request within ``header_timeout_s`` of connecting or of its last answer
    (uvicorn's keep-alive timer stops at the first byte, so a half-sent
    request would hold its connection forever), with TCP_NODELAY (else each
    answer waits ~40 ms for the client's delayed ACK)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11Protocol(H11Protocol):
        def _arm(self):
            cycle = self.cycle
            self._header_timer = self.loop.call_later(
                header_timeout_s, lambda: self._expire(cycle))

        def _expire(self, cycle):
            if self.cycle is cycle and not self.transport.is_closing():
                self.transport.close()       # no new request began: a stalled client

        def connection_made(self, transport):
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            if sock is not None:         # headers and body are separate writes: no
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # Nagle wait
            self._arm()

        def on_response_complete(self):
            self._header_timer.cancel()
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc):
            self._header_timer.cancel()
            super().connection_lost(exc)
    return TimedH11Protocol


def make_server(app, *, limit_concurrency=512, header_timeout_s=10.0, keep_alive_s=5):
    """A ``uvicorn.Server`` for ``app`` (run it with ``serve``)."""
    import uvicorn
    config = uvicorn.Config(app, http=_timed_protocol(header_timeout_s), lifespan="off",
                            limit_concurrency=limit_concurrency, timeout_keep_alive=keep_alive_s,
                            h11_max_incomplete_event_size=16 * 1024, access_log=False,
                            log_level="warning")
    return uvicorn.Server(config)


def serve_in_thread(server, host="127.0.0.1", port=0):
    """Start ``server`` on a daemon thread bound to (host, port); returns
    (thread, port) once it accepts connections (port 0: a free one)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the ASGI server did not start")
        time.sleep(0.01)
    return thread, sock.getsockname()[1]


def main(argv=None) -> int:
    args, model = cli_model(__doc__.splitlines()[0], argv)
    server = make_server(make_app(model))
    print(f"serving {args.model} on http://{args.host}:{args.port}/predict ({args.device}"
          f"{', batched' if args.batch else ''})", flush=True)
    server.config.host, server.config.port = args.host, args.port
    try:
        server.run()
    finally:
        model.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
