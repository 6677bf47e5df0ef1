"""Measure the interpreter's per-op cost: ``python -m tensorvm.runtime.vm.bench``.

Two loops differ only in 10 extra ``add.i32`` per iteration; the time
difference divided by the extra ops is the marginal cost of one simple op
(dispatch + register reads/writes + wrap).  Also reports a call's cost.
"""
from __future__ import annotations

import time

_LOOP = """
module @bench
func @loop(%n: i32) -> (i32) export {{
entry:
  %i = const.i32 0
  %one = const.i32 1
  %acc = const.i32 0
  br loop
loop:
{body}
  %i = add.i32 %i, %one
  %c = cmp.lt.s.i32 %i, %n
  cond_br %c, loop, done
done:
  ret %acc
}}
func @leaf(%x: i32) -> (i32) {{
entry:
  ret %x
}}
func @calls(%n: i32) -> (i32) export {{
entry:
  %i = const.i32 0
  %one = const.i32 1
  br loop
loop:
  %i = call @leaf(%i)
  %i = add.i32 %i, %one
  %c = cmp.lt.s.i32 %i, %n
  cond_br %c, loop, done
done:
  ret %i
}}
"""


def _context(extra_adds: int):
    from tensorvm.vmfb.assembler import assemble
    from . import BytecodeModule, Context
    body = "\n".join(["  %acc = add.i32 %acc, %i"] * extra_adds)
    return Context([BytecodeModule.from_def(assemble(_LOOP.format(body=body)))])


def _best(ctx, fn, n, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        ctx.invoke(fn, [n])
        best = min(best, time.perf_counter() - t)
    return best


def measure(iterations: int = 200_000, repeat: int = 3) -> dict:
    """``{"add_i32_ns", "loop_op_ns", "call_ns"}`` (best of ``repeat`` runs)."""
    small, big = _context(1), _context(11)
    t1 = _best(small, "loop", iterations, repeat)
    t11 = _best(big, "loop", iterations, repeat)
    tc = _best(small, "calls", iterations, repeat)
    add_ns = (t11 - t1) / (10 * iterations) * 1e9
    return {"add_i32_ns": add_ns,
            "loop_op_ns": t1 / (4 * iterations) * 1e9,           # add, add, cmp, cond_br
            "call_ns": (tc - t1 * 3 / 4) / iterations * 1e9}     # call+ret over the 3 other ops


if __name__ == "__main__":
    r = measure()
    print(f"add.i32: {r['add_i32_ns']:.1f} ns/op (marginal); loop ops: "
          f"{r['loop_op_ns']:.1f} ns/op (mean of add/add/cmp/cond_br); "
          f"call+ret: {r['call_ns']:.0f} ns")
