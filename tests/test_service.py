"""The service sample under a small load test: loopback only, bounded in
requests and time; every answer must equal a sequential call."""
from __future__ import annotations

import http.client
import json
import pathlib
import sys
import threading

import numpy as np
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


# a GPT-2-shaped decoder small enough for CI (samples/service/decode.py's step)
TINY_DECODER = dict(layers=2, hidden=64, heads=4, ffn=128, vocab=300, positions=64, cache=12)


@pytest.fixture(scope="module")
def tiny_decoder():
    pytest.importorskip("jax")
    import decode
    from tensorvm import compiler
    return compiler.compile_str(decode.export_mlir(TINY_DECODER), targets=["cpu"])


def test_continuously_batched_generations_equal_lone_ones(tiny_decoder):
    """Generations of different prompt and output lengths join and leave
    the scheduler's steps at different times; each answer equals the same
    generation run alone, bit for bit (tokens and the logits' CRCs)."""
    import generation
    model = generation.DecodeModel("local-task", tiny_decoder, batch=(8, 0.0), cfg=TINY_DECODER)
    jobs = [([7 * k % 300, 11 * k % 300][:1 + k % 2], 3 + k % 5) for k in range(16)]
    got = [None] * len(jobs)

    def client(k):
        got[k] = model.predict((np.asarray(jobs[k][0], np.int32), jobs[k][1]))
    try:
        threads = [threading.Thread(target=client, args=(k,)) for k in range(len(jobs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stats = dict(model.stats)
        for (prompt, n), answer in zip(jobs, got):
            assert len(answer["tokens"]) == n and answer == model.reference(prompt, n)
    finally:
        model.close()
    rows = sum(len(p) + n - 1 for p, n in jobs)
    assert stats["rows"] == rows and stats["steps"] < rows       # steps were shared
    assert sorted(model.free) == list(range(16))                  # every slot came back


def test_decode_service_refusals(tiny_decoder):
    import generation
    model = generation.DecodeModel("local-sync", tiny_decoder, slots=1, cfg=TINY_DECODER)
    with pytest.raises(ValueError, match=r"1 to 12 integers in \[0, 300\)"):
        model.parse(json.dumps({"prompt": [300]}).encode())
    with pytest.raises(ValueError, match=r"max_tokens.*\[1, 11\].*cache of 12"):
        model.parse(json.dumps({"prompt": [1, 2], "max_tokens": 12}).encode())
    model._admit(np.zeros(1, np.int32), 1)                        # the only slot
    with pytest.raises(generation.Refused, match="all 1 generation slots are busy") as e:
        model.predict((np.zeros(1, np.int32), 1))
    assert service.error_status(e.value) == 503
    model.free.append(0)
    srv = service.make_server(model, "127.0.0.1", 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=30)
        conn.request("POST", "/predict", json.dumps({"prompt": [5], "max_tokens": 4}))
        resp = conn.getresponse()
        doc = json.loads(resp.read())
        assert resp.status == 200 and doc == model.reference([5], 4)
        conn.request("POST", "/predict", json.dumps({"prompt": "hi"}))
        resp = conn.getresponse()
        assert resp.status == 400 and "prompt" in json.loads(resp.read())["error"]
        conn.close()
    finally:
        srv.shutdown()
        srv.server_close()
