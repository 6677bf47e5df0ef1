"""The service sample under a small load test: loopback only, bounded in
requests and time; every answer must equal a sequential call."""
from __future__ import annotations

import http.client
import json
import pathlib
import sys
import threading

import pytest

SERVICE = pathlib.Path(__file__).resolve().parent.parent / "samples" / "service"
sys.path.insert(0, str(SERVICE))

import loadtest  # noqa: E402
import server as service  # noqa: E402


@pytest.mark.parametrize("server", ["stdlib", "asgi"])
def test_load_test_answers_equal_sequential_results(server):
    if server == "asgi":
        pytest.importorskip("starlette")
        pytest.importorskip("uvicorn")
    r = loadtest.run_load(clients=4, requests=25, time_cap=60.0, device="local-task",
                          server=server, half_open=10)
    assert r["requests"] == 100
    assert r["errors"] == [] and r["wrong"] == []
    assert "req/s" in loadtest.report(r)


def test_bad_requests_get_400_and_health_counts():
    model = service.Model("local-sync")
    srv = service.make_server(model, "127.0.0.1", 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=30)
        conn.request("POST", "/predict", json.dumps({"x": [1, 2]}))
        resp = conn.getresponse()
        assert resp.status == 400 and "64 numbers" in json.loads(resp.read())["error"]
        conn.request("POST", "/predict", json.dumps({"x": [0.5] * 64}))
        resp = conn.getresponse()
        doc = json.loads(resp.read())
        assert resp.status == 200 and len(doc["logits"]) == 10 and 0 <= doc["class"] < 10
        conn.request("GET", "/health")
        assert json.loads(conn.getresponse().read())["requests"] == 1
        conn.close()
    finally:
        srv.shutdown()
        srv.server_close()


def test_batched_bert_service_answers_equal_single_calls():
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    r = loadtest.run_load(clients=4, requests=4, time_cap=60.0, server="asgi",
                          model="bert", batch=(4, 5.0))
    assert r["requests"] == 16 and r["errors"] == [] and r["wrong"] == []
    assert 1 <= r["batcher"]["calls"] <= 16 and r["batcher"]["rows"] == 16
    assert "rows per call" in loadtest.report(r)


def test_batch_flag_refuses_a_static_batch_model_and_bad_ids():
    from tensorvm.runtime import NotBatchableError
    with pytest.raises(NotBatchableError, match="function 'main' has no argument"):
        service.Model("local-sync", batch=(4, 2.0))
    with pytest.raises(ValueError, match=r"128 integers in \[0, 8192\)"):
        service.parse_ids(json.dumps({"ids": [0] * 127}).encode(), 128, 8192)
    with pytest.raises(ValueError, match="integers"):
        service.parse_ids(json.dumps({"ids": [8192] * 128}).encode(), 128, 8192)
    assert service.parse_ids(json.dumps({"ids": [3] * 128}).encode(), 128, 8192).dtype == "int32"
