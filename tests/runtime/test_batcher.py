"""runtime.Batcher: merged calls equal single calls; deadlines, back-pressure,
per-request errors, shutdown, the asyncio path, refusals of unbatchable
functions."""
from __future__ import annotations

import asyncio
import threading
import time

import numpy as np
import pytest

from tensorvm import compiler, runtime
from tensorvm.compiler import HostCall
from tensorvm.runtime import (Batcher, BatcherClosedError, DeadlineExceededError,
                              InvalidArgumentError, NotBatchableError, QueueFullError)

# x @ w plus the result of a host call that sees min(x): it raises on a
# negative input, so one bad request fails a merged call at run time
CHECKED = """func.func @main(%w: tensor<4x3xf32>, %x: tensor<?x4xf32>) -> tensor<?x3xf32> {
  %init = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %init) applies stablehlo.minimum across dimensions = [0, 1]
       : (tensor<?x4xf32>, tensor<f32>) -> tensor<f32>
  %z = stablehlo.custom_call @py.check(%m) : (tensor<f32>) -> tensor<f32>
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0]
       : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %s = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %shape = stablehlo.concatenate %s, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %zb = stablehlo.dynamic_broadcast_in_dim %z, %shape, dims = []
       : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
  %r = stablehlo.add %0, %zb : tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}"""

OTHERS = """func.func @two(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?xf32>) {
  %s = stablehlo.add %x, %y : tensor<?x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [1]
       : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
  return %s, %r : tensor<?x4xf32>, tensor<?xf32>
}
func.func @fixed(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  return %x : tensor<2x4xf32>
}
func.func @total(%x: tensor<?x4xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1]
       : (tensor<?x4xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}"""


def _check(m):
    if m < 0:
        raise ValueError(f"negative input ({float(m)})")
    return np.zeros((), np.float32)


@pytest.fixture(scope="module")
def checked():
    vmfb = compiler.compile_str(CHECKED, custom_kernels=[HostCall("py.check", inputs=["f32"],
                                                                  outputs=["f32"])])
    return runtime.load_module(vmfb, custom_calls={"py.check": _check})


@pytest.fixture(scope="module")
def others():
    return runtime.load_module(compiler.compile_str(OTHERS))


W = np.arange(12, dtype=np.float32).reshape(4, 3) / 10


def _same(got, want):
    """Equal to a single call's result up to rounding: kernels may take a
    differently vectorised path for more rows (a 1-ulp difference)."""
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def _rows(k, n):
    return (np.arange(n * 4, dtype=np.float32).reshape(n, 4) + k) / 7


def test_merged_results_equal_single_calls_from_threads(checked):
    xs = [_rows(k, 1 + k % 3) for k in range(24)]
    want = [np.asarray(checked.main(W, x)) for x in xs]
    got = [None] * len(xs)
    with Batcher(checked.main, max_batch=16, max_delay_ms=20) as b:
        def client(k):
            got[k] = b(W, xs[k])
        threads = [threading.Thread(target=client, args=(k,)) for k in range(len(xs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stats = dict(b.stats)
    for g, w in zip(got, want):
        _same(g, w)
    assert stats["requests"] == 24 and stats["rows"] == sum(len(x) for x in xs)
    assert stats["calls"] < 24                     # requests were merged


def test_queued_requests_merge_into_one_call_and_pad(checked):
    xs = [_rows(k, 1) for k in range(3)]
    with Batcher(checked.main, max_batch=16, max_delay_ms=300, pad_to=[8, 16]) as b:
        futs = [b.submit(W, x) for x in xs]
        got = [f.result(10) for f in futs]
        assert b.stats["calls"] == 1 and b.stats["padded"] == 5
    for g, x in zip(got, xs):
        assert g.shape == (1, 3)
        _same(g, np.asarray(checked.main(W, x)))


def test_async_callers_share_a_call(checked):
    xs = [_rows(k, 2) for k in range(6)]

    async def clients(b):
        return await asyncio.gather(*(b.call_async(W, x) for x in xs))
    with Batcher(checked.main, max_batch=64, max_delay_ms=100) as b:
        got = asyncio.run(clients(b))
        assert b.stats["calls"] == 1
    for g, x in zip(got, xs):
        _same(g, np.asarray(checked.main(W, x)))


def test_a_failing_request_gets_its_error_alone(checked):
    xs = [_rows(k, 2) for k in range(7)]
    xs[3] = -xs[3] - 1                              # fails inside the call (host check)
    with Batcher(checked.main, max_batch=64, max_delay_ms=200) as b:
        futs = [b.submit(W, x) for x in xs]
        for k, (f, x) in enumerate(zip(futs, xs)):
            if k == 3:
                with pytest.raises(ValueError, match="negative input"):
                    f.result(10)
            else:
                _same(f.result(10), np.asarray(checked.main(W, x)))
        assert b.stats["retries"] >= 1


def test_bad_shape_or_dtype_is_refused_alone_at_submission(checked):
    with Batcher(checked.main, max_batch=64, max_delay_ms=100) as b:
        good = b.submit(W, _rows(0, 2))
        with pytest.raises(InvalidArgumentError, match=r"expected tensor<\?x4xf32>, got "
                                                        r"tensor<2x5xf32>"):
            b(W, np.ones((2, 5), np.float32))
        with pytest.raises(InvalidArgumentError, match="got tensor<2x4xf64>"):
            b(W, np.ones((2, 4), np.float64))
        with pytest.raises(InvalidArgumentError, match="takes 2 arguments"):
            b(W)
        _same(good.result(10), np.asarray(checked.main(W, _rows(0, 2))))


def test_deadline_fails_only_that_request(checked):
    with Batcher(checked.main, max_batch=64, max_delay_ms=400) as b:
        other = b.submit(W, _rows(1, 1))
        t0 = time.monotonic()
        with pytest.raises(DeadlineExceededError, match="within its deadline") as e:
            b(W, _rows(0, 1), timeout_ms=50)
        assert time.monotonic() - t0 < 0.35 and e.value.function == "main"
        _same(other.result(10), np.asarray(checked.main(W, _rows(1, 1))))
        assert b.stats["expired"] == 1 and b.stats["calls"] == 1   # the expired one never ran


def test_async_deadline(checked):
    async def late(b):
        return await b.call_async(W, _rows(0, 1), timeout_ms=30)
    with Batcher(checked.main, max_delay_ms=400) as b:
        with pytest.raises(DeadlineExceededError):
            asyncio.run(late(b))


def test_full_queue_refuses_at_once_and_close_fails_waiting_requests(checked):
    b = Batcher(checked.main, max_batch=64, max_delay_ms=5000, max_queue=2)
    waiting = [b.submit(W, _rows(k, 1)) for k in range(2)]
    t0 = time.monotonic()
    with pytest.raises(QueueFullError, match="max_queue"):
        b(W, _rows(2, 1))
    assert time.monotonic() - t0 < 0.5
    b.close()
    for f in waiting:
        with pytest.raises(BatcherClosedError, match="closed before this request ran"):
            f.result(1)
    with pytest.raises(BatcherClosedError, match="is closed"):
        b.submit(W, _rows(0, 1))
    assert not any(t.is_alive() for t in b._workers)


def test_requests_with_other_shared_arguments_are_not_merged(checked):
    w2 = W * 2
    with Batcher(checked.main, max_batch=64, max_delay_ms=200) as b:
        f1, f2 = b.submit(W, _rows(0, 1)), b.submit(w2, _rows(0, 1))
        _same(f1.result(10), np.asarray(checked.main(W, _rows(0, 1))))
        _same(f2.result(10), np.asarray(checked.main(w2, _rows(0, 1))))
        assert b.stats["calls"] == 2


def test_several_batched_arguments_and_results(others):
    x, y = _rows(0, 3), _rows(5, 3)
    with Batcher(others.two, max_delay_ms=100) as b:
        f1, f2 = b.submit(x, y), b.submit(y[:1], x[:1])
        s, r = f1.result(10)
        want_s, want_r = others.two(x, y)
        _same(s, np.asarray(want_s))
        _same(r, np.asarray(want_r))
        assert f2.result(10)[0].shape == (1, 4)
        with pytest.raises(InvalidArgumentError, match="disagree on the batch size.*3 rows.*2"):
            b(x, y[:2])


def test_unbatchable_functions_are_refused_by_name(others):
    with pytest.raises(NotBatchableError, match="function 'fixed' has no argument with a "
                                                "symbolic leading"):
        Batcher(others.fixed)
    with pytest.raises(NotBatchableError, match=r"'total': result #0 \(tensor<f32>\)"):
        Batcher(others.total)


def test_rows_of_a_store_merge_as_a_view_of_it(others):
    """State the server holds (Rows of one store) is read in place when the
    merged requests' rows are adjacent, gathered otherwise; either way each
    request gets a single call's answer."""
    store = np.arange(8 * 4, dtype=np.float32).reshape(8, 4) / 3
    ys = [_rows(k, 1) for k in range(8)]

    def single(k):
        return [np.asarray(r) for r in others.two(store[k:k + 1], ys[k])]
    for slots, in_place in (([5, 3, 4, 2], True), ([0, 2, 7], False)):
        with Batcher(others.two, max_batch=16, max_delay_ms=300) as b:
            futs = {k: b.submit(runtime.Rows(store, k), ys[k]) for k in slots}
            got = {k: f.result(10) for k, f in futs.items()}
            stats = dict(b.stats)
        assert stats["calls"] == 1
        assert (stats["rows_in_place"], stats["rows_gathered"]) == ((1, 0) if in_place else (0, 1))
        for k in slots:
            for g, w in zip(got[k], single(k)):
                np.testing.assert_array_equal(g, w)


def test_bad_rows_are_refused_at_submission(others):
    with Batcher(others.two, max_batch=4, max_delay_ms=1) as b:
        with pytest.raises(InvalidArgumentError, match="outside a store of 2 rows"):
            runtime.Rows(np.zeros((2, 4), np.float32), 2)
        with pytest.raises(InvalidArgumentError, match="C-contiguous"):
            runtime.Rows(np.zeros((4, 2), np.float32).T, 0)
        with pytest.raises(InvalidArgumentError, match=r"expected tensor<\?x4xf32>, got tensor<1x5xf32>"):
            b(runtime.Rows(np.zeros((2, 5), np.float32), 0), _rows(0, 1))
