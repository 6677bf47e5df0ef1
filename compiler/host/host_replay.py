"""Loop bodies recorded once and replayed (issue 33 point 1, GPU part; issue 36
point 3).

A ``while`` that does not run as a native loop (every loop on a GPU device)
is walked by the VM.  Without this, each iteration re-ran the body's host
code: one ``hal.allocator.allocate``, ``command_buffer.barrier`` and
``command_buffer.dispatch`` per kernel, then a fresh recording to prepare
(a decoder step: ~58 kernels, ~1.5 ms of Python per iteration on PoCL).

A body whose work is only device commands plus host scalar math (no nested
control flow, no read-back, no host transfer or call, static shapes) is
instead recorded once into its own command buffer against binding-table
slots (``_binding``) and constant-table slots (``hal.command_buffer
.dispatch.slotted``: a push constant that is not a compile-time constant is
a slot), kept in the function's recording global across calls.  Each
iteration then only computes its host scalars, allocates the values it
yields, and appends the recording to the call's command buffer with its
buffers and constants (``hal.command_buffer.execute.slotted``, IREE's
execute_commands); the condition is read back as before, so a loop whose
condition the device computes submits once per iteration, one whose
condition is a host counter once per call.

Buffers: the body's other values are ranges of one slab per call (the
iterations run one after another, so every iteration reuses it); values it
yields get buffers of their own (iteration k+1 reads them while writing its
own).  The recording path and the replay path are emitted by the same walk
of the body, so their slots line up; a body that turns out to need a
read-back while recording is rolled back to the plain VM loop.
"""
from __future__ import annotations

from types import SimpleNamespace

from ..custom_kernels import HOST_CALL_ATTR
from ..dialects.registry import EFFECTFUL, with_trait
from .collectives import CHANNEL_OPS
from .host_slab import Slab, returned_values
from .host_transfer import HOST_TRANSFER_OPS, TOKEN_OPS

#: Ops that keep a body on the plain VM loop: host interaction (effectful
#: ops: custom calls, infeed/outfeed, send/recv; channels and transfers).
#: Control flow holds regions, which the body check refuses as well.
_NOT_IN_BODY = with_trait(EFFECTFUL) | CHANNEL_OPS | HOST_TRANSFER_OPS | TOKEN_OPS


class _NoReplay(Exception):
    """The body needs what a recording cannot replay (a read-back)."""


def replayable(body) -> bool:
    """Static check: ``body`` dispatches kernels, and has no nested control
    flow, host interaction or dynamic shape."""
    ops = body.operations[:-1]
    if not any(op.name == "tvm.dispatch" for op in ops):
        return False
    def static(values) -> bool:
        return all(getattr(v.type, "is_static", False) for v in values)
    if not static(body.arguments):
        return False
    for op in ops:
        if op.name in _NOT_IN_BODY or HOST_CALL_ATTR in op.attributes \
                or op.regions and op.name != "tvm.dispatch":
            return False
        if not static(op.results) or not static(op.operands) or op.attributes.get("tvm.dims"):
            return False
    return True


def loop_ordinal(func, op) -> int:
    """``op``'s index among the function's whiles (its recording's list entry)."""
    whiles = [o for o in func.walk() if o.name == "stablehlo.while"]
    return next(k for k, o in enumerate(whiles) if o is op), len(whiles)


class BodyReplay:
    """Emits one loop's recording (before the loop) and its replay (each
    iteration) on a GeneralFunction ``fn``."""

    def __init__(self, fn, op, body, loop_vars):
        self.fn, self.op, self.body, self.loop_vars = fn, op, body, loop_vars
        # values the body yields (and what they alias): buffers of their own
        self.yielded = returned_values(SimpleNamespace(regions=[SimpleNamespace(blocks=[body])]))
        self.cb = fn.f.reg("lcb")
        self.slab = None
        self.slots = self.constants = 0

    def _enter(self, record: bool):
        """Switch ``fn`` to slot mode (recording or replaying); returns what to restore."""
        fn = self.fn
        saved = (fn.slots, fn.record, fn.constant_table, fn.slab, fn.returned, fn.cb,
                 fn.need_barrier)
        fn.slots, fn.record, fn.constant_table = [], record, []
        fn.slab, fn.returned = self.slab, fn.returned | self.yielded
        fn.need_barrier = False
        if record:
            fn.cb = self.cb
        self.slab.size = 0            # both paths place the same values at the same offsets
        return saved

    def _leave(self, saved) -> None:
        fn = self.fn
        (fn.slots, fn.record, fn.constant_table, fn.slab, fn.returned, fn.cb,
         fn.need_barrier) = saved

    def record(self) -> bool:
        """Emit, at the current point (run once per call, before the loop):
        submit what is pending, allocate the slab, and record the body into
        the function's recording list unless a previous call did.  False
        (nothing emitted) when the body needs a read-back."""
        fn, f = self.fn, self.fn.f
        mark, consts, env = len(f.body), dict(f.consts), dict(fn.env)
        reads, dims, barrier = fn.read_backs, dict(fn.dim_cache), fn.need_barrier
        try:
            return self._record()
        except _NoReplay:
            del f.body[mark:]
            f.consts, fn.env, fn.read_backs, fn.dim_cache = consts, env, reads, dims
            fn.need_barrier = barrier
            return False

    def _record(self) -> bool:
        fn, f = self.fn, self.fn.f
        self.slab = Slab(f, fn.dev)
        k, n = loop_ordinal(fn.func, self.op)
        have, rec = fn.label("recorded"), fn.label("record")
        if fn.cache_global is not None:
            lst = f.reg("ll")
            f.op("global.load.ref", lst, fn.cache_global)
            ok, make = f.reg("i"), fn.label("lists")
            f.op("cmp.nz.ref", ok, lst)
            got = fn.label("listed")
            f.op("cond_br", ok, got, make)
            fn.place(make)
            f.op("list.alloc", lst, fn.const("i32", n))
            f.op("list.resize", lst, fn.const("i32", n))
            f.op("global.store.ref", lst, fn.cache_global)
            f.op("br", got)
            fn.place(got)
            f.op("list.get.ref", self.cb, lst, fn.const("i32", k))
            nz = f.reg("i")
            f.op("cmp.nz.ref", nz, self.cb)
            f.op("cond_br", nz, have, rec)
        else:                          # ($async form: no global) recorded per call
            f.op("br", rec)
        fn.place(rec)
        f.op("call.import", "hal.command_buffer.create", [fn.dev], [self.cb])
        saved = self._enter(record=True)
        try:
            reads = fn.read_backs
            fn._bind(self.body, self.loop_vars)
            fn.block(self.body)
            if fn.read_backs != reads:
                raise _NoReplay()
            self.slots, self.constants = len(fn.slots), len(fn.constant_table)
            size = self.slab.size
        finally:
            self._leave(saved)
        f.call("command_buffer.finalize", [self.cb])
        if fn.cache_global is not None:
            f.op("list.set.ref", lst, fn.const("i32", k), self.cb)
        f.op("br", have)
        fn.place(have)
        self.slab.size = size
        self.slab.finish()
        return True

    def replay(self) -> None:
        """Emit one iteration: the body's host scalars and yielded buffers,
        then one execute of the recording with this iteration's tables."""
        fn, f = self.fn, self.fn.f
        saved = self._enter(record=False)
        try:
            fn.block(self.body)
            slots, table = list(fn.slots), list(fn.constant_table)
        finally:
            self._leave(saved)
        if len(slots) != self.slots or len(table) != self.constants:
            raise AssertionError(f"loop body replay binds {len(slots)} buffers and {len(table)} "
                                 f"constants, its recording {self.slots} and {self.constants}")
        fn.barrier()
        f.call("command_buffer.execute.slotted",
               [fn.cb, self.cb, list(slots), list(table)])
        fn.need_barrier = True
