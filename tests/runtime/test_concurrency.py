"""Concurrency and asynchrony end to end: many threads and futures on one
module, overlap of independent dispatches seen in the trace, failures that
surface in the caller (within the timeout) while the module keeps serving.
No timing assertions: overlap is read from the trace, waits only bound hangs."""
from __future__ import annotations

import concurrent.futures as cf
import os
import shutil
import threading

import numpy as np
import pytest

import tensorvm.hal as hal
import tensorvm.runtime as rt
from tensorvm.hal.trace import Tracer, overlapping
from tensorvm.runtime import VmTrap
from tensorvm.vmfb import assembler
from tensorvm.vmfb.container import write_module
from tensorvm.vmfb.model import EntryPoint, ExecutableDef, ExecutableVariant, ModuleDef
from hand_kernels import SUBMIT_AND_WAIT, shared_object
from tvm_testing import compiled

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DIGITS = os.path.join(ROOT, "samples", "digits")
DRIVERS = ["local-sync", "local-task"]

KERNELS = r"""
#include <stdint.h>
#include <unistd.h>
typedef struct { void* const* b; const uint64_t* l; const uint32_t* c; uint32_t n[3]; } st_t;
int sleepy(const st_t* s, uint32_t b, uint32_t e) { usleep(s->c[0]); return 0; }
int fail_code(const st_t* s, uint32_t b, uint32_t e) { return (int)s->c[0]; }
"""

ASM = """
module @conc
import @hal.device.get() -> (ref)
import @hal.executable.load(ref, ref) -> (ref)
import @hal.command_buffer.create(ref) -> (ref)
import @hal.command_buffer.dispatch(ref, ref, i32, i32, i32, i32, *i32, *ref, *i64) -> ()
import @hal.command_buffer.finalize(ref) -> ()
import @hal.fence.create(ref) -> (ref)
import @hal.device.queue.execute(ref, ref, ref, *ref) -> ()
import @hal.fence.await(i32, *ref) -> (i32)

func @run(%entry: i32, %count: i32, %arg: i32) -> () export {
entry:
  %dev = call.import @hal.device.get()
  %e = const.ref.executable @k
  %exe = call.import @hal.executable.load(%dev, %e)
  %cb = call.import @hal.command_buffer.create(%dev)
  %one = const.i32 1
  %i = const.i32 0
  br loop
loop:
  call.import @hal.command_buffer.dispatch(%cb, %exe, %entry, %one, %one, %one, [%arg], [], [])
  %i = add.i32 %i, %one
  %more = cmp.lt.s.i32 %i, %count
  cond_br %more, loop, submit
submit:
  call.import @hal.command_buffer.finalize(%cb)""" + SUBMIT_AND_WAIT + """}
func @gated(%gate: ref) -> () export {
entry:
  %m1 = const.i32 -1
  %r = call.import @hal.fence.await(%m1, [%gate])
  ret
}
"""


@pytest.fixture(scope="module")
def hand_vmfb():
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler for the test kernels")
    dev = hal.create_device("local-sync")
    base = ModuleDef(name="conc")
    base.executables.append(ExecutableDef("k", [ExecutableVariant(
        dev.supported_formats()[0], {"features": []},
        [EntryPoint("sleepy", 0, 1), EntryPoint("fail_code", 0, 1)], shared_object(KERNELS))]))
    return write_module(assembler.assemble(ASM, base=base))


@pytest.fixture(scope="module")
def digits():
    vmfb = compiled(open(os.path.join(DIGITS, "digits_mlp_b1.mlir")).read())
    with np.load(os.path.join(DIGITS, "test_set.npz")) as z:
        return vmfb, z["x"].astype(np.float32)


@pytest.mark.parametrize("device", DRIVERS)
def test_threads_match_sequential(digits, device):
    vmfb, x = digits
    m = rt.load_module(vmfb, device=device)
    inputs = [x[i % len(x)][None] for i in range(16 * 25)]
    want = [np.array(m.main(a)) for a in inputs]

    def worker(t):
        return [(i, np.array(m.main(inputs[i]))) for i in range(t, len(inputs), 16)]
    with cf.ThreadPoolExecutor(16) as pool:
        got = [r for rs in pool.map(worker, range(16)) for r in rs]
    assert len(got) == len(inputs)
    for i, y in got:
        np.testing.assert_array_equal(y, want[i])


@pytest.mark.parametrize("device", DRIVERS)
def test_invoke_async_futures_match_sequential(digits, device):
    vmfb, x = digits
    m = rt.load_module(vmfb, device=device)
    want = [np.array(m.main(x[i][None])) for i in range(64)]
    futures = [m.main.invoke_async(x[i][None]) for i in range(64)]
    for f, w in zip(futures, want):
        np.testing.assert_array_equal(np.asarray(f.result(timeout=30)), w)


def test_device_arrays_chain_without_copies(digits):
    vmfb, x = digits
    m = rt.load_module(compiled(open(os.path.join(ROOT, "tests", "models", "add4.mlir")).read()),
                       device="local-task")
    a = np.arange(4, dtype=np.float32)
    y = m.main(a, a)
    z = m.main(y, y)                       # a DeviceArray goes straight back in
    np.testing.assert_array_equal(np.asarray(z), 4 * a)
    fut = m.main.invoke_async(z, y)
    np.testing.assert_array_equal(np.asarray(fut.result(timeout=30)), 6 * a)


def test_invoke_async_from_asyncio(digits):
    import asyncio
    vmfb, x = digits
    m = rt.load_module(vmfb, device="local-task")

    async def main():
        return await asyncio.gather(*(asyncio.wrap_future(m.main.invoke_async(x[i][None]))
                                      for i in range(8)))
    got = asyncio.run(main())
    for i, y in enumerate(got):
        np.testing.assert_array_equal(np.asarray(y), np.asarray(m.main(x[i][None])))


def test_independent_dispatches_overlap_in_the_trace(hand_vmfb):
    dev = hal.create_device("local-task://2")
    try:
        for attempt in range(5):          # overlap is what the scheduler does, not timing
            tracer = Tracer()
            m = rt.load_module(hand_vmfb, device=dev, trace=tracer)
            m.run(0, 2, 30000)            # two independent 30 ms dispatches, one segment
            spans = tracer.spans("dispatch")
            assert [s["name"] for s in spans] == ["sleepy", "sleepy"]
            if overlapping(*spans) and spans[0]["tid"] != spans[1]["tid"]:
                break
        else:
            pytest.fail(f"the two dispatches never overlapped: {spans}")
        assert tracer.spans("queue") and tracer.spans("invocation")
        assert any(e["ph"] == "M" for e in tracer.to_json()["traceEvents"])
    finally:
        dev.close()


@pytest.mark.parametrize("device", DRIVERS)
def test_failing_dispatch_raises_and_module_keeps_serving(hand_vmfb, device):
    m = rt.load_module(hand_vmfb, device=device, timeout_s=30)
    with pytest.raises(hal.HalError, match="fail_code' failed with code 7"):
        m.run(1, 1, 7)
    fut = m.run.invoke_async(1, 1, 9)
    with pytest.raises(hal.HalError, match="failed with code 9"):
        fut.result(timeout=30)
    m.run(1, 1, 0)                       # code 0: success, the module still serves
    m.run.invoke_async(0, 2, 0).result(timeout=30)


def test_compiled_module_serves_after_a_failed_call(digits):
    vmfb, x = digits
    m = rt.load_module(vmfb, device="local-task")
    gate = m.device.create_fence()
    gate.fail(hal.HalError("upstream producer failed"))
    a = x[0][None]
    view = hal.BufferView(m.device.allocator.import_host(a), a.shape, a.dtype)
    fut = m.main.invoke_async(rt.DeviceArray(view, m.device, gate))   # its producer failed
    with pytest.raises(hal.HalError, match="upstream producer failed"):
        fut.result(timeout=30)
    np.testing.assert_array_equal(np.asarray(m.main(x[1][None])),
                                  np.asarray(m.main.invoke_async(x[1][None]).result(30)))


def test_await_minus_one_uses_the_default_timeout(hand_vmfb):
    m = rt.load_module(hand_vmfb, device="local-sync", timeout_s=0.2)
    gate = m.device.create_fence()       # never signalled
    with pytest.raises(VmTrap, match="timed out after 200 ms"):
        m.gated(gate)
    with pytest.raises(VmTrap, match="timed out"):
        m.gated.invoke_async(gate).result(timeout=30)


def test_suspended_invocations_share_one_scheduler_thread(hand_vmfb):
    m = rt.load_module(hand_vmfb, device="local-task", timeout_s=30)
    gate = m.device.create_fence()
    before = threading.active_count()
    futures = [m.gated.invoke_async(gate) for _ in range(50)]
    assert not any(f.done() for f in futures)          # all parked, none blocks a thread
    assert threading.active_count() <= before + 1       # at most the scheduler thread
    gate.signal()
    for f in futures:
        f.result(timeout=30)


def test_cli_run_writes_a_trace(tmp_path):
    from tensorvm.runtime.cli import run
    path = tmp_path / "add4.vmfb"
    path.write_bytes(compiled(open(os.path.join(ROOT, "tests", "models", "add4.mlir")).read()))
    out = tmp_path / "trace.json"
    assert run.main([f"--module={path}", "--input=4xf32=1,2,3,4", "--input=4xf32=1,1,1,1",
                     f"--trace={out}"]) == 0
    import json
    events = json.loads(out.read_text())["traceEvents"]
    assert {"dispatch", "queue", "invocation"} <= {e.get("cat") for e in events}
    assert all(e["ph"] in ("X", "M") for e in events)


def test_short_static_kernels_keep_the_gil_and_native_loops_never_do(monkeypatch):
    """A static-shape dispatch measured short is called holding the GIL (so
    threads calling one module do not hand it over per kernel); a native
    loop, whose run time depends on its data, always releases it, so another
    thread can cancel it (test_vm_bounds)."""
    from tensorvm.hal.drivers import cpu_program
    held = {}
    orig = cpu_program.DispatchPacket.run_all

    def spy(self):
        try:
            orig(self)
        finally:
            held[self.name] = self.held
    monkeypatch.setattr(cpu_program.DispatchPacket, "run_all", spy)
    add = rt.load_module(compiled(open(os.path.join(ROOT, "tests", "models", "add4.mlir")).read()),
                         device="local-sync")
    x = np.arange(4, dtype=np.float32)
    for _ in range(cpu_program.HOLD_GIL_TRIES + 2):
        np.testing.assert_array_equal(np.asarray(add.main(x, x)), 2 * x)
    assert held and all(held.values()), held
    held.clear()
    from test_vm_bounds import NATIVE_FOREVER          # one native entry, stopped by timeout
    loop = rt.load_module(compiled(NATIVE_FOREVER), device="local-sync", timeout_s=0.02)
    for _ in range(cpu_program.HOLD_GIL_TRIES + 2):
        with pytest.raises(rt.CallTimeoutError):
            loop.main(np.int32(0), x)
    natives = {k: v for k, v in held.items() if k.endswith("_native")}
    assert natives and not any(natives.values()), held
