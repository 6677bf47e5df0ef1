"""Truly asynchronous calls: ``invoke_async`` returns before the work runs,
on every device, and ``await fn.call_async(...)`` leaves the asyncio loop
free while the call runs.

The call under test is a kernel that spins until the test writes a flag
(tests/hand_kernels.py), so "returns at once" is an ordering fact (the
future is pending and the kernel has not finished when the flag is still
unset), not a timing.  Before, local-sync ran the whole call inside
``invoke_async`` (the kernel then spun until its 30 s limit)."""
from __future__ import annotations

import asyncio
import os

import numpy as np
import pytest

import hand_kernels
import tensorvm.runtime as rt
from tensorvm.hal.trace import Tracer
from tensorvm.runtime import InvalidArgumentError
from tvm_testing import compiled

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DRIVERS = ["local-sync", "local-task"]

pytestmark = pytest.mark.skipif(not hand_kernels.available(), reason="no C compiler")


@pytest.fixture(scope="module")
def vmfb():
    return hand_kernels.vmfb()


@pytest.mark.parametrize("device", DRIVERS)
def test_invoke_async_returns_before_the_work_runs(vmfb, device):
    m = rt.load_module(vmfb, device=device, timeout_s=60)
    flag = np.zeros(2, np.int32)
    fut = m.gate.invoke_async(flag)
    assert not fut.done()                 # returned while the kernel waits for the flag
    assert flag[1] == 0
    flag[0] = 1                           # release it
    assert fut.result(timeout=60) is None
    assert flag[1] == 1                   # the kernel saw the flag (not its 30 s limit)


@pytest.mark.parametrize("device", DRIVERS)
def test_many_pending_calls_complete_in_order_of_release(vmfb, device):
    m = rt.load_module(vmfb, device=device, timeout_s=60)
    flags = [np.zeros(2, np.int32) for _ in range(4)]
    futures = [m.gate.invoke_async(f) for f in flags]
    assert not any(f.done() for f in futures)
    for flag, fut in zip(flags, futures):
        flag[0] = 1
        fut.result(timeout=60)
        assert flag[1] == 1
    m.sleep(10)                            # the sync path still serves


@pytest.mark.parametrize("device", DRIVERS)
def test_asyncio_loop_runs_while_the_call_runs(vmfb, device):
    m = rt.load_module(vmfb, device=device, timeout_s=60)
    flag = np.zeros(2, np.int32)

    async def main():
        call = asyncio.ensure_future(m.gate.call_async(flag))
        ticks = 0
        while ticks < 20:                  # another coroutine makes progress meanwhile
            await asyncio.sleep(0.001)
            assert not call.done()
            ticks += 1
        flag[0] = 1
        await asyncio.wait_for(call, 60)
        return ticks
    assert asyncio.run(main()) == 20
    assert flag[1] == 1


def test_call_async_raises_the_call_error(vmfb):
    m = rt.load_module(vmfb, device="local-task")

    async def main():
        await m.gate.call_async()
    with pytest.raises(InvalidArgumentError, match="takes 1 arguments"):
        asyncio.run(main())


def test_call_async_results_match_the_sync_call():
    mlir = open(os.path.join(ROOT, "tests", "models", "while_data_dependent.mlir")).read()
    m = rt.load_module(compiled(mlir), device="local-task")
    x = np.linspace(0, 1, 12, dtype=np.float32).reshape(4, 3)
    want = [np.asarray(r) for r in m.main(x)]

    async def main():
        return await asyncio.gather(*(m.main.call_async(x) for _ in range(8)))
    for got in asyncio.run(main()):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize("path, shape", [
    ("tests/models/while_data_dependent.mlir", (4, 3)),    # host control flow
    ("samples/digits/digits_mlp_b1.mlir", (1, 64)),       # one recorded command buffer
])
def test_async_work_runs_on_the_queue_threads(path, shape):
    tracer = Tracer()
    m = rt.load_module(compiled(open(os.path.join(ROOT, path)).read()),
                       device="local-task://2", trace=tracer)
    x = np.linspace(0, 1, int(np.prod(shape)), dtype=np.float32).reshape(shape)
    want = m.main(x)                       # the sync call runs on this thread
    seen = len(tracer.spans())
    got = m.main.invoke_async(x).result(timeout=60)
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    names = {e["tid"]: e["args"]["name"] for e in tracer.to_json()["traceEvents"]
             if e["ph"] == "M" and e["name"] == "thread_name"}
    work = [(s["name"], names[s["tid"]]) for s in tracer.spans()[seen:]
            if s["cat"] in ("dispatch", "queue")]
    assert work and all("-queue" in t or "-worker" in t for _, t in work), work


def test_invoke_async_returns_before_an_opencl_call_finishes():
    """The GPU drivers queue work on their submit threads: a call of two
    1536^3 matmuls (about a second on PoCL) is still pending when
    invoke_async returns, and its result is right."""
    import tensorvm.hal as hal
    try:
        hal.create_device("opencl").close()
    except hal.HalError as e:
        pytest.skip(f"no OpenCL device: {e}")
    n = 1536
    t = f"tensor<{n}x{n}xf32>"
    text = f"""func.func @main(%a: {t}, %b: {t}) -> {t} {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({t}, {t}) -> {t}
  %1 = stablehlo.dot_general %0, %b, contracting_dims = [1] x [0] : ({t}, {t}) -> {t}
  return %1 : {t}
}}"""
    m = rt.load_module(compiled(text, targets=("opencl",)), device="opencl", timeout_s=120)
    a = np.eye(n, dtype=np.float32)
    b = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    fut = m.main.invoke_async(a, b)
    assert not fut.done()
    np.testing.assert_allclose(np.asarray(fut.result(timeout=120)), b @ b, rtol=1e-3, atol=1e-2)
