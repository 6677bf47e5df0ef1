"""Hostile clients against both service samples (stdlib server.py and the
ASGI asgi_server.py): every case gets a prompt answer or a closed
connection, never a traceback, a hang or a desynchronised connection, and
good requests keep being answered correctly.  Raw sockets, loopback only."""
from __future__ import annotations

import json
import pathlib
import socket
import sys
import time

import numpy as np
import pytest

SERVICE = pathlib.Path(__file__).resolve().parent.parent / "samples" / "service"
sys.path.insert(0, str(SERVICE))

import loadtest  # noqa: E402
import server as service  # noqa: E402

STALL_S = 0.5            # the servers' header/request timeouts in these tests
GOOD = json.dumps({"x": [0.25] * 64}).encode()


@pytest.fixture(scope="module")
def model():
    return service.Model("local-task")


def _stdlib(model, limit):
    return loadtest.start_server("stdlib", model, timeout_s=STALL_S, max_connections=limit)


def _asgi(model, limit):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    return loadtest.start_server("asgi", model, timeout_s=STALL_S, max_connections=limit)


SERVERS = {"stdlib": _stdlib, "asgi": _asgi}


@pytest.fixture(scope="module", params=sorted(SERVERS))
def server(request, model):
    port, stop = SERVERS[request.param](model, 64)
    yield request.param, port
    stop()


def _connect(port) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def _responses(sock, want=1):
    """Read until ``want`` complete responses or the server closes:
    [(status, body bytes)]."""
    data, out = b"", []
    while len(out) < want:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if sep:
            lines = head.split(b"\r\n")
            headers = {k.strip().lower(): v.strip() for k, _, v in
                       (ln.partition(b":") for ln in lines[1:])}
            n = int(headers.get(b"content-length", b"0"))
            if len(rest) >= n:
                out.append((int(lines[0].split()[1]), rest[:n]))
                data = rest[n:]
                continue
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return out


def _post(port, body: bytes, headers=None):
    hdrs = {"Host": "x", "Content-Type": "application/json", "Content-Length": str(len(body))}
    hdrs.update(headers or {})
    head = "".join(f"{k}: {v}\r\n" for k, v in hdrs.items() if v is not None)
    with _connect(port) as s:
        s.sendall(f"POST /predict HTTP/1.1\r\n{head}\r\n".encode() + body)
        got = _responses(s)
    assert got, "no response"
    status, data = got[0]
    return status, data


def _error(port, body, status, match, headers=None):
    got, data = _post(port, body, headers)
    assert got == status, data
    msg = json.loads(data)["error"]
    assert match in msg, msg


def test_good_request_is_answered_correctly(server, model):
    _, port = server
    status, data = _post(port, GOOD)
    assert status == 200
    assert json.loads(data) == model.predict(np.full(64, 0.25, np.float32))


@pytest.mark.parametrize("body, match", [
    (b'{"x": [' + b",".join([b"NaN"] * 64) + b"]}", "NaN"),
    (b'{"x": [Infinity' + b", 1" * 63 + b"]}", "Infinity"),
    (b'{"x": [-Infinity' + b", 1" * 63 + b"]}", "Infinity"),
    (b'{"x": [' + b"9" * 401 + b", 1" * 63 + b"]}", "finite float32"),
    (b'{"x": [1e39' + b", 1" * 63 + b"]}", "finite float32"),
    (b"[" * 30000 + b"]" * 30000, "nested too deeply"),
    (b'{"x": [1, 2]}', "64 numbers"),
    (b"\xff\xfe not json", "not JSON"),
    (b"", "not JSON"),
])
def test_bad_bodies_get_400_with_a_message(server, body, match):
    _error(server[1], body, 400, match)


def test_huge_content_length_is_refused_without_reading(server):
    t0 = time.monotonic()
    _error(server[1], b"", 413, "exceeds", {"Content-Length": "2000000000"})
    assert time.monotonic() - t0 < 10


def test_over_cap_body_is_refused(server):
    _error(server[1], b" " * (service.MAX_BODY_BYTES + 1), 413, "exceeds")


def test_non_numeric_content_length_gets_400(server):
    status, _ = _post(server[1], b"{}", {"Content-Length": "12abc"})
    assert status == 400


def test_missing_content_length_does_not_eat_the_next_request(server, model):
    _, port = server
    with _connect(port) as s:              # a body-less POST, then a good request
        s.sendall(b"POST /predict HTTP/1.1\r\nHost: x\r\n\r\n" +
                  b"POST /predict HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                  str(len(GOOD)).encode() + b"\r\n\r\n" + GOOD)
        got = _responses(s, 2)
    assert got and got[0][0] in (400, 411), got
    if len(got) == 2:                      # kept open: the next request was parsed as one
        assert got[1][0] == 200
        assert json.loads(got[1][1]) == model.predict(np.full(64, 0.25, np.float32))


@pytest.mark.parametrize("partial", [
    b"POST /predict HTTP/1.1\r\nHost: x\r\nContent-Le",                    # headers stall
    b"POST /predict HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{",  # body stalls
])
def test_a_stalled_request_is_dropped(server, partial):
    with _connect(server[1]) as s:
        s.sendall(partial)
        t0 = time.monotonic()
        _responses(s)                      # a timeout answer, or the server closes
        assert time.monotonic() - t0 < 10


def test_connection_limit(model):
    for name, start in SERVERS.items():
        port, stop = start(model, 4)
        try:
            idle = [_connect(port) for _ in range(4)]
            for s in idle:
                s.sendall(b"GET /health HTTP/1.1\r\nHo")         # holds its slot
            time.sleep(0.1)
            status, data = _post(port, GOOD)
            assert status == 503, (name, data)
            for s in idle:
                s.close()
            deadline = time.monotonic() + 10
            while _post(port, GOOD)[0] != 200:                  # slots come back
                assert time.monotonic() < deadline, name
                time.sleep(0.05)
        finally:
            stop()


def test_health_and_metrics(server):
    name, port = server
    with _connect(port) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        (status, data), = _responses(s)
    assert status == 200 and json.loads(data)["status"] == "ok"
    if name == "asgi":
        with _connect(port) as s:
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            (status, data), = _responses(s)
        assert status == 200 and b'digits_requests_total{status="200"}' in data


def test_non_finite_results_are_encoded_as_valid_json():
    doc = service.encode_output(np.array([np.nan, 1.0, np.inf, -2.0], np.float32))
    assert doc == {"class": 1, "logits": [None, 1.0, None, -2.0]}
    json.dumps(doc, allow_nan=False)
