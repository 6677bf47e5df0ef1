"""A running call is bounded: ``timeout_s`` and cancellation stop VM loops and
runaway recursion (checked on backward branches and calls), with typed
errors, instead of running forever."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import tensorvm.runtime as rt
from tensorvm.runtime import CallCancelledError, CallTimeoutError, VmTrap
from tensorvm.runtime.vm import BytecodeModule, Context
from tensorvm.vmfb import assembler

ASM = """
func @spin() -> () export {
entry:
  br entry
}
func @spin_cond(%x: i32) -> (i32) export {
entry:
  %one = const.i32 1
  br loop
loop:
  %x = add.i32 %x, %one
  %zero = const.i32 0
  %c = cmp.ne.i32 %one, %zero
  cond_br %c, loop, done
done:
  ret %x
}
func @tree(%n: i32) -> () export {
entry:
  %zero = const.i32 0
  %leaf = cmp.eq.i32 %n, %zero
  cond_br %leaf, leaf, rec
leaf:
  ret
rec:
  %one = const.i32 1
  %m = sub.i32 %n, %one
  call @tree(%m)
  call @tree(%m)
  ret
}
"""

GATED = """
import @hal.fence.await(i, *r) -> (i)
func @gated_spin(%gate: ref) -> () export {
entry:
  %m1 = const.i32 -1
  %r = call.import @hal.fence.await(%m1, [%gate])
  br loop
loop:
  br loop
}
func @gated(%gate: ref) -> () export {
entry:
  %m1 = const.i32 -1
  %r = call.import @hal.fence.await(%m1, [%gate])
  ret
}
"""

# A while loop whose condition is always true.  It swaps two carried tensors,
# which keeps it a VM loop (a native loop's carried device values must be
# body dispatch results, unchanged, or from outside the loop).
FOREVER = """
func.func @main(%x: tensor<i32>, %v: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<i32> {
  %r:3 = stablehlo.while(%i = %x, %a = %v, %b = %w) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
    cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n, %b, %a : tensor<i32>, tensor<4xf32>, tensor<4xf32>
    }
  return %r#0 : tensor<i32>
}
"""


def _context(timeout_s):
    return Context([BytecodeModule.from_def(assembler.assemble(ASM))],
                   default_timeout_s=timeout_s)


@pytest.mark.parametrize("fn, args", [("spin", []), ("spin_cond", [0]), ("tree", [60])])
def test_timeout_stops_loops_and_runaway_recursion(fn, args):
    t0 = time.monotonic()
    with pytest.raises(CallTimeoutError, match=f"in function '{fn}'.*timed out") as e:
        _context(0.2).invoke(fn, args)
    assert isinstance(e.value, TimeoutError) and isinstance(e.value, VmTrap)
    assert time.monotonic() - t0 < 10


def test_loops_that_end_are_unaffected():
    ctx = _context(5.0)
    assert ctx.invoke("tree", [8]) == []


def test_cancel_stops_a_running_invocation():
    ctx = _context(None)                       # no deadline: only cancel() stops it
    inv = ctx.begin_invoke("spin")
    errors = []

    def run():
        try:
            inv.run()
        except BaseException as e:             # noqa: BLE001 - checked below
            errors.append(e)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    time.sleep(0.05)
    assert t.is_alive()
    inv.cancel()
    t.join(10)
    assert not t.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], CallCancelledError), errors
    assert "'spin'" in str(errors[0])


def test_future_cancel_stops_a_looping_async_call():
    mdef = assembler.assemble(GATED)
    m = rt.load_module(mdef, device="local-sync", timeout_s=30)
    gate = m.device.create_fence()
    fut = m.gated_spin.invoke_async(gate)       # parked on the gate
    assert not fut.done()
    gate.signal()                               # the scheduler thread now spins
    time.sleep(0.05)
    assert fut.cancel()
    # The scheduler thread is free again: a parked call it must resume completes.
    gate2 = m.device.create_fence()
    other = m.gated.invoke_async(gate2)
    gate2.signal()
    assert other.result(timeout=10) is None
    assert fut.cancelled()


def test_compiled_infinite_while_times_out():
    from tvm_testing import compiled
    m = rt.load_module(compiled(FOREVER), device="local-sync", timeout_s=0.3)
    with pytest.raises(CallTimeoutError, match="timed out"):
        m.main(np.array(0, np.int32), np.zeros(4, np.float32), np.ones(4, np.float32))


# The same endless loop in a form that runs as ONE native CPU entry point
# (host/native_loop.py): it stops on the call's bounds (its stop word and
# deadline), not on a VM back-branch.
NATIVE_FOREVER = """
func.func @main(%x: tensor<i32>, %v: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = stablehlo.while(%i = %x, %a = %v) : tensor<i32>, tensor<4xf32>
    cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      %b = stablehlo.tanh %a : tensor<4xf32>
      stablehlo.return %n, %b : tensor<i32>, tensor<4xf32>
    }
  return %r#1 : tensor<4xf32>
}
"""


@pytest.fixture(scope="module")
def native_forever():
    from tensorvm.compiler.api import CompileOptions, compile_text
    res = compile_text(NATIVE_FOREVER, CompileOptions(keep_source=True))
    assert "_native(const tvm_dispatch_state_t* st" in res.stats["c_source"], "must be native"
    return res.vmfb


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_timeout_stops_a_native_loop(native_forever, device):
    m = rt.load_module(native_forever, device=device, timeout_s=0.3)
    t0 = time.monotonic()
    with pytest.raises(CallTimeoutError, match="timed out") as e:
        m.main(np.array(0, np.int32), np.ones(4, np.float32))
    assert time.monotonic() - t0 < 10
    assert "stopped" in str(e.value.__cause__)
    # the device is free afterwards (no thread left spinning): the next call
    # is bounded the same way
    err = m.main.invoke_async(np.array(0, np.int32), np.ones(4, np.float32)).exception(10)
    assert isinstance(err, CallTimeoutError)


def test_future_cancel_stops_a_native_loop(native_forever):
    m = rt.load_module(native_forever, device="local-task", timeout_s=None)
    fut = m.main.invoke_async(np.array(0, np.int32), np.ones(4, np.float32))
    time.sleep(0.2)
    assert not fut.done()
    assert fut.cancel()
    # the worker that ran the loop is free again: a new call gets through
    m2 = rt.load_module(native_forever, device=m.device, timeout_s=0.2)
    t0 = time.monotonic()
    with pytest.raises(CallTimeoutError):
        m2.main(np.array(0, np.int32), np.ones(4, np.float32))
    assert time.monotonic() - t0 < 5
