"""Host codegen for functions with control flow or host scalar work.

``while`` / ``if`` / ``case`` become VM branches.  Host values (see
passes/host_values.py) live in VM registers, one per element; device values
live in buffers.  Dispatches are recorded into a command buffer that is only
submitted when the host must read a device value (a predicate computed on the
device) and at the end, so a loop with a host-side counter records all its
iterations' dispatches without waiting on the device.  Static straight-line
functions take the faster path in vm_host.py instead.

A function without control flow or read-backs (a dynamic-shape model: its
host work is shape arithmetic) records its command buffer against
binding-table slots once per set of argument dims and keeps the latest in a
global; a call with the same dims only allocates and submits it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..custom_kernels import HOST_CALL_ATTR
from ..dialects.registry import ALIAS, BRANCH, has
from ..errors import UnsupportedOpError
from ..ir.attributes import ints
from ..ir.types import bit_width, is_unsigned, numpy_dtype
from ..ir.symbolic import Dim, make, shape_product
from ..passes import shapes as shape_analysis
from ..passes.host_values import HOST_ATTR, REGION_OPS, analyze_block
from .collectives import COLLECTIVE_OPS, emit_collective
from .host_transfer import (HOST_TRANSFER_OPS, TOKEN_OPS, Tok, emit_host_transfer, emit_token,
                            is_token, uses_tokens)
from .donation import dispatch_donors
from ..codegen.grids import VariantCounts, count_register, gpu_flag
from .host_constants import constant_bytes
from .host_slab import Slab, SlabBuf, offset_of, returned_values
from .host_control import ControlFlow
from .host_regs import BANK as _BANK, I64 as _I64, Dev, Host
from .native_loop import plan_native_loop


@dataclass
class GeneralPlan:
    """What vm_host needs from a general function (mirrors FunctionPlan)."""
    constants: list
    dispatches: list
    general: bool = True
    loops: dict = None       # id(while op) -> NativeLoop (native_loop.py)

    @property
    def dispatch_count(self) -> int:
        return len(self.dispatches)

    slab_size: int = 0


def plan_general(func) -> GeneralPlan:
    """Dispatches (in nesting order) and rodata constants of a general function."""
    block = func.regions[0].blocks[0]
    host = analyze_block(block, [False] * len(block.arguments))
    consts, dispatches, loops = [], [], {}
    inside = set()                 # ops of a native loop: not roots of their own
    for op in func.walk():
        if op.name == "tvm.dispatch":
            dispatches.append(op)
        elif op.name == "stablehlo.while" and id(op) not in inside:
            loop = plan_native_loop(op, host)
            if loop is not None:
                loops[id(op)] = loop
                inside.update(id(o) for o in op.walk())
        elif (op.name == "stablehlo.constant" and op.result not in host
              and not _inside_dispatch(op)):
            consts.append(op)
    return GeneralPlan(consts, dispatches, loops=loops)


def _inside_dispatch(op) -> bool:
    block = op.parent
    while block is not None and block.parent is not None:
        owner = block.parent.parent
        if owner is None:
            return False
        if owner.name == "tvm.dispatch":
            return True
        block = owner.parent
    return False


def needs_general_path(func) -> bool:
    for op in func.walk():
        if op.name in REGION_OPS or HOST_ATTR in op.attributes \
                or HOST_CALL_ATTR in op.attributes or op.name in COLLECTIVE_OPS:
            return True
    if uses_tokens(func):
        return True
    return shape_analysis.has_dynamic(func)     # dynamic dims: sizes computed at run time


def _nbytes(t) -> int:
    return t.num_elements * numpy_dtype(t.element).itemsize


class GeneralFunction(ControlFlow):
    """Emits one function's VM assembly (see the module docstring)."""

    def __init__(self, asm, func, const_index, plan, entry_of, workgroups, names, element_id,
                 cache_global=None, host_consts=None):
        self.f = asm
        self._args = (func, const_index, plan, entry_of, workgroups, names, element_id, None,
                      host_consts)
        self.host_consts = host_consts     # compile-time host values as rodata (host_constants.py)
        self.func = func
        self.donors = dispatch_donors(func)
        self.const_index = const_index
        self.plan = plan
        self.entry_of = entry_of
        self.workgroups = workgroups
        self.names = names
        self.element_id = element_id
        self.env: dict = {}
        self.labels = 0
        block = func.regions[0].blocks[0]
        self.host = analyze_block(block, [False] * len(block.arguments))
        self.shapes = shape_analysis.lookup(func)
        self.dim_cache: dict = {}
        self.cache_global = cache_global   # global for the recorded-command-buffer cache
        self.slots = None          # cached mode: buffer registers by binding-table slot
        self.direct = set()        # registers bound directly (module constants)
        self.record = True         # False: commands come from the cache, not recorded
        self.force_native = False  # native loops without the VM-loop fallback (cached mode)
        self.read_backs = 0
        self.slab = None           # cached mode: this path's transients (host_slab.py)
        self.constant_table = None # a replayed loop body: its push constants' registers
        self.returned = returned_values(func)

    # -- small helpers ------------------------------------------------------------------
    def label(self, prefix: str) -> str:
        self.labels += 1
        return f"{prefix}{self.labels}"

    def place(self, name: str) -> None:
        self.f.label(name)
        self.f.consts = {}            # constants are per block (no dominance across blocks)
        self.dim_cache = {}
        self.need_barrier = True

    def const(self, bank, value):
        if bank in ("f32", "f64"):
            value = repr(float(value))
            if value in ("inf", "-inf", "nan"):
                value = value.replace("inf", "inf").replace("nan", "nan")
        return self.f.const(bank, value)

    def new(self, bank) -> str:
        return self.f.reg(bank[0] if bank != "ref" else "v")

    def op(self, mnemonic: str, *operands) -> None:
        """One instruction, operands in ISA-table order (vmfb.builder)."""
        self.f.op(mnemonic, *operands)

    def binop(self, mnemonic, a, b, bank) -> str:
        r = self.new(bank)
        self.op(mnemonic, r, a, b)
        return r

    # -- entry ------------------------------------------------------------------------------
    def emit(self):
        if self.cache_global is not None and self._straight_line():
            loops = self._native_loops()
            if not loops:
                self._emit_cached()
                return
            # cached only where the loaded variant runs every loop natively (a
            # GPU variant may lack a loop's entry point, codegen/gpu_loop.py:
            # it then takes the general path)
            f = self.f
            exe = f.reg("exe")
            f.op("global.load.ref", exe, "__exe")
            every = self.const("i32", 1)
            for lp in loops:
                nm = f.reg("n")
                f.op("const.ref.str", nm, lp.name)
                has, = f.call("executable.has_entry", [exe, nm], 1)
                every = self.binop("and.i32", every, has, "i32")
            cached, general = self.label("cached"), self.label("general")
            f.op("cond_br", every, cached, general)
            outer = dict(f.consts)
            self.place(cached)
            self.force_native = True
            self._emit_cached()
            self.place(general)
            f.consts, self.force_native, self.env = dict(outer), False, {}
            self.slots, self.record = None, True
        self._prologue()
        self.cb = self.f.reg("cb")
        self.f.op("call.import", "hal.command_buffer.create", [self.dev], [self.cb])
        self.need_barrier = False
        self.block(self.func.regions[0].blocks[0])
        outs = self._results()
        self.flush(reopen=False)
        self._return(outs)

    def _prologue(self) -> None:
        """Argument checks, their buffers, the executable."""
        f = self.f
        block = self.func.regions[0].blocks[0]
        self.dev = f.reg("dev")
        f.op("global.load.ref", self.dev, "__device")
        for i, a in enumerate(block.arguments):
            if is_token(a.type):            # no data: the API checked it is a Token
                self.env[a] = Tok(a.type)
                continue
            nm = f.reg("n")
            f.op("const.ref.str", nm, self.names[i])
            dims = [f.const("i64", d if isinstance(d, int) else -1) for d in self.dims_of(a)]
            f.call("buffer_view.assert", [f"%a{i}", nm, f.const("i32", self.element_id(a.type)),
                                          list(dims)])
            buf, = f.call("buffer_view.buffer", [f"%a{i}"], 1)
            self.env[a] = Dev(buf, a.type, False)
        self.exe = self.gpu = None
        if self.plan.dispatches:
            self.exe = f.reg("exe")
            f.op("global.load.ref", self.exe, "__exe")
            if any(isinstance(self.workgroups.get(id(d)), VariantCounts) for d in self.plan.dispatches):
                self.gpu = gpu_flag(f, self.exe)     # counts differ between CPU and GPU variants

    def _results(self) -> list:
        """The returned values as fresh device buffers (uploads, copies)."""
        block = self.func.regions[0].blocks[0]
        outs = []
        for v in block.terminator.operands:
            val = self.env[v]
            if isinstance(val, Tok):
                outs.append(val)
                continue
            dv = self.to_device(val) if isinstance(val, Host) else val
            if not dv.fresh or isinstance(dv.buf, SlabBuf):
                dv = self.copy(dv, v)
            outs.append(dv)
        return outs

    def _return(self, outs) -> None:
        views = [self._null() if isinstance(dv, Tok) else self._view(dv.buf, v)
                 for v, dv in zip(self.func.regions[0].blocks[0].terminator.operands, outs)]
        self.f.op("ret", views)

    # -- recorded command buffers cached by argument dims -------------------------------------
    def _straight_line(self) -> bool:
        """No control flow but native loops (one dispatch each) and no device
        value read back to the host: every command (counts, push constants,
        sizes) is then a function of the arguments' dims alone, so one
        recording serves every call with them."""
        native = self.plan.loops or {}

        def flat(block) -> bool:
            for op in block.operations:
                if has(op.name, BRANCH) or op.name in COLLECTIVE_OPS \
                        or op.name in HOST_TRANSFER_OPS:
                    return False
                if op.name == "stablehlo.while" and id(op) not in native:
                    return False
                if op.name != "stablehlo.while" and not all(
                        flat(b) for r in op.regions for b in r.blocks):
                    return False
            return True
        if not flat(self.func.regions[0].blocks[0]):
            return False
        probe = GeneralFunction(type(self.f)(), *self._args)
        probe.force_native = True
        probe._emit_cached()
        return probe.read_backs == 0

    def _native_loops(self) -> list:
        """The native loops of this function's top-level whiles."""
        native = self.plan.loops or {}
        return [native[id(op)] for op in self.func.regions[0].blocks[0].operations
                if op.name == "stablehlo.while" and id(op) in native]

    def _key_dims(self) -> list:
        """Registers with every dynamic dim of every argument (the cache key)."""
        regs = []
        for i, a in enumerate(self.func.regions[0].blocks[0].arguments):
            for k, d in enumerate(() if is_token(a.type) else self.dims_of(a)):
                if not isinstance(d, int):
                    r, = self.f.call("buffer_view.dim", [f"%a{i}", self.const("i32", k)], 1)
                    regs.append(r)
        return regs

    def _emit_cached(self) -> None:
        """The function twice: a hit path that takes the command buffer
        recorded for these argument dims from ``@cache_global`` (a list
        [command buffer, dims...], replaced as a whole, so concurrent callers
        never see a buffer with another call's key) and only allocates, and a
        miss path that records against binding-table slots and publishes the
        entry.  Both submit with this call's buffers as the binding table."""
        f = self.f
        self._prologue()
        keys = self._key_dims()
        entry = f.reg("ce")
        f.op("global.load.ref", entry, self.cache_global)
        hit, check, miss = self.label("hit"), self.label("check"), self.label("miss")
        nz = f.reg("i")
        f.op("cmp.nz.ref", nz, entry)
        f.op("cond_br", nz, check, miss)
        consts = dict(f.consts)         # what dominates the check, the hit and the miss
        self.place(check)
        same = self.const("i32", 1)
        for j, r in enumerate(keys):
            k = f.reg("I")
            f.op("list.get.i64", k, entry, self.const("i32", j + 1))
            same = self.binop("and.i32", same, self.binop("cmp.eq.i64", k, r, "i32"), "i32")
        f.op("cond_br", same, hit, miss)
        env = dict(self.env)
        for path in (hit, miss):
            self.place(path)
            self.env, self.slots, self.record = dict(env), [], path == miss
            f.consts = dict(consts)     # a constant made on one path is unset on the others
            self.cb = f.reg("cb")
            if self.record:
                f.op("call.import", "hal.command_buffer.create", [self.dev], [self.cb])
            else:
                f.op("list.get.ref", self.cb, entry, self.const("i32", 0))
            self.need_barrier = False
            self.slab = Slab(f, self.dev)
            self.block(self.func.regions[0].blocks[0])
            outs = self._results()
            self.slab.finish()
            self.slab = None
            if self.record:
                f.call("command_buffer.finalize", [self.cb])
                n = self.const("i32", len(keys) + 1)
                lst = f.reg("cl")
                f.op("list.alloc", lst, n)
                f.op("list.resize", lst, n)
                f.op("list.set.ref", lst, self.const("i32", 0), self.cb)
                for j, r in enumerate(keys):
                    f.op("list.set.i64", lst, self.const("i32", j + 1), r)
                f.op("global.store.ref", lst, self.cache_global)
            f.call("device.queue.execute.indirect.wait",
                   [self.dev, self.cb, self.const("i32", -1), list(self.slots)])
            self._return(outs)

    def _binding(self, buf: str):
        """(buffer register or null, slot) of a command's buffer: module
        constants bind directly, everything else through a table slot."""
        if self.slots is None:
            return buf, None
        if buf in self.direct:
            return buf, -1
        if buf not in self.slots:
            self.slots.append(buf)
        return self._null(), self.slots.index(buf)

    def _null(self) -> str:
        if ("null", None) not in self.f.consts:
            r = self.f.reg("null")
            self.f.op("const.ref.null", r)
            self.f.consts[("null", None)] = r
        return self.f.consts[("null", None)]

    # -- device work ------------------------------------------------------------------------
    def allocate(self, t, value=None, transient: bool = False, result: bool = False) -> str:
        """A buffer for a value of type ``t``; a ``transient`` one (never
        returned) of static size is a range of the call's slab when there is
        one; a ``result`` (returned) one comes from ``allocator.allocate.result``
        (the host reads it back: opencl places it in shared host memory)."""
        if transient and self.slab is not None and t.is_static:
            buf = self.slab.reserve(t)
            if buf is not None:
                return buf
        if value is not None and not t.is_static:
            n = self.nbytes(value)
            four = self.const("i64", 4)
            up = self.binop("add.i64", n, self.const("i64", 3), "i64")
            up = self.binop("mul.i64", self.binop("div.s.i64", up, four, "i64"), four, "i64")
            size = self.binop("max.s.i64", up, four, "i64")
        else:
            size = self.f.const("i64", max(4, (_nbytes(t) + 3) // 4 * 4))  # 32-bit loads stay in range
        buf, = self.f.call("allocator.allocate.result" if result else "allocator.allocate",
                           [self.dev, size], 1)
        return buf

    # -- dynamic dims -----------------------------------------------------------------------
    def dims_of(self, v) -> tuple:
        if self.shapes is not None and v in self.shapes.raw:
            return self.shapes.dims(v)
        return tuple(v.type.shape)

    def nbytes(self, v) -> str:
        """Register with the byte size of IR value ``v`` (computed when dynamic)."""
        item = numpy_dtype(v.type.element).itemsize
        return self.dim(make("*", shape_product(self.dims_of(v)), item))

    def dim(self, d) -> str:
        """An i64 register holding dim expression ``d`` (int or Dim)."""
        if not isinstance(d, Dim):
            return self.const("i64", int(d))
        hit = self.dim_cache.get(d)
        if hit is not None:
            return hit
        if d.is_symbol:
            r = self._symbol(d)
        else:
            a, b = (self.dim(x) for x in d.args)
            if d.op in ("/", "%") and isinstance(d.args[1], int) and d.args[1] > 0:
                r = self.binop(("div.s.i64" if d.op == "/" else "rem.s.i64"), a, b, "i64")
            elif d.op in ("/", "%"):               # a zero divisor gives 0, as in Dim folding
                zero = self.binop("cmp.eq.i64", b, self.const("i64", 0), "i32")
                safe = self.new("i64")
                self.op("select.i64", safe, zero, self.const("i64", 1), b)
                q = self.binop(("div.s.i64" if d.op == "/" else "rem.s.i64"), a, safe, "i64")
                r = self.new("i64")
                self.op("select.i64", r, zero, self.const("i64", 0), q)
            else:
                mn = {"+": "add.i64", "-": "sub.i64", "*": "mul.i64", "max": "max.s.i64",
                      "min": "min.s.i64"}[d.op]
                r = self.binop(mn, a, b, "i64")
        self.dim_cache[d] = r
        return r

    def _symbol(self, s) -> str:
        kind, v, k = self.shapes.defs[s]
        if kind == "unknown":
            raise UnsupportedOpError(v.name, f"with dynamic dims: cannot derive dim {k} of its "
                                     f"result {v.results[0].type}", v.location)
        if kind == "arg":
            r, = self.f.call("buffer_view.dim", [f"%a{v}", self.const("i32", k)], 1)
            return r
        hv = self.host_value(v)
        el = v.type.element
        bank = _BANK.get(el)
        r = hv.regs[k]
        if bank == "i32":
            return self._bits(r, "ext.i32.i64.u" if is_unsigned(el) else "ext.i32.i64.s", "i64")
        if bank == "i64":
            return r
        raise UnsupportedOpError("shape operand", f"of element type {el}")

    def host_value(self, v) -> "Host":
        """``v`` in registers: a device value is read back (once per block)."""
        val = self.env[v]
        if isinstance(val, Host):
            return val
        key = ("read back", v)
        hit = self.dim_cache.get(key)
        if hit is None:
            hit = self.dim_cache[key] = self.read_back(val)
        return hit

    def barrier(self) -> None:
        if self.need_barrier:
            if self.record:
                self.f.call("command_buffer.barrier", [self.cb])
            self.need_barrier = False

    def flush(self, reopen: bool = True) -> None:
        f = self.f
        f.call("command_buffer.finalize", [self.cb])
        # submit-and-wait in one call: the device may run it on this thread
        f.call("device.queue.execute.indirect.wait", [self.dev, self.cb, f.const("i32", -1), []])
        if reopen:
            f.op("call.import", "hal.command_buffer.create", [self.dev], [self.cb])
        self.need_barrier = False

    def copy(self, dv: Dev, value=None) -> Dev:
        out = self.allocate(dv.type, value)
        self.barrier()
        n = _nbytes(dv.type) if dv.type.is_static else self.nbytes(value)
        size = n if isinstance(n, str) else self.f.const("i64", n)
        src_off, dst_off = (self.f.const("i64", offset_of(b)) for b in (dv.buf, out))
        if n and self.slots is not None:
            (src, ss), (dst, ds) = self._binding(dv.buf), self._binding(out)
            if self.record:
                self.f.call("command_buffer.copy.indirect",
                            [self.cb, src, self.const("i32", ss), src_off, dst, self.const("i32", ds),
                             dst_off, size])
        elif n:
            self.f.call("command_buffer.copy", [self.cb, dv.buf, src_off, out, dst_off, size])
        self.need_barrier = True
        return Dev(out, dv.type, True)

    def to_device(self, hv: Host) -> Dev:
        """Upload a host value: bytes built in a VM buffer, imported as a HAL buffer
        (a value known at compile time: the module's rodata, host_constants.py)."""
        f = self.f
        el = hv.type.element
        item = numpy_dtype(el).itemsize
        n = max(4, (len(hv.regs) * item + 3) // 4 * 4)
        data = None if self.host_consts is None else \
            constant_bytes(f.const_values, hv.regs, el, n)
        if data is not None:
            k = f.reg("k")
            f.op("global.load.ref", k, self.host_consts.global_for(data))
            self.direct.add(k)
            return Dev(k, hv.type, False)
        vb = f.reg("vb")
        f.op("buffer.alloc", vb, f.const("i64", n))
        bank = _BANK[el]
        if item >= 4:
            for k, r in enumerate(hv.regs):
                f.op(f"buffer.store.{bank}", vb, f.const("i64", k * item), r)
        else:
            per = 4 // item                      # narrow elements packed into 32-bit words
            mask = f.const("i32", (1 << (8 * item)) - 1)
            for w in range(0, len(hv.regs), per):
                word = None
                for j, r in enumerate(hv.regs[w:w + per]):
                    part = self.binop("and.i32", r, mask, "i32")
                    if j:
                        part = self.binop("shl.i32", part, f.const("i32", 8 * item * j), "i32")
                    word = part if word is None else self.binop("or.i32", word, part, "i32")
                f.op("buffer.store.i32", vb, f.const("i64", w * item), word)
        buf, = f.call("allocator.import", [self.dev, vb], 1)
        return Dev(buf, hv.type, True)

    def read_back(self, dv: Dev) -> Host:
        """Wait for the device and load a small device value into registers."""
        self.read_backs += 1
        self.flush()
        el = dv.type.element
        bank = _BANK.get(el)
        if bank is None:
            raise UnsupportedOpError("read back", f"of element type {el}")
        item = numpy_dtype(el).itemsize
        regs = []
        for k in range(dv.type.num_elements):
            off = self.f.const("i64", k * item)
            if bank in ("i64", "f64"):
                w, = self.f.call("buffer.load.i64", [dv.buf, off], 1)
                regs.append(w if bank == "i64" else self._bits(w, "bitcast.i64.f64", "f64"))
            else:
                w, = self.f.call("buffer.load.i32", [dv.buf, off], 1)
                if bank == "f32":
                    regs.append(self._bits(w, "bitcast.i32.f32", "f32"))
                else:
                    regs.append(self.normalize(w, el))
        return Host(regs, dv.type)

    def _bits(self, r, mnemonic, bank):
        out = self.new(bank)
        self.op(mnemonic, out, r)
        return out

    def dispatch(self, op) -> None:
        push = set(ints(op.attributes.get("push_constants")))
        f = self.f
        consts, bufs, spans = [], [], []
        for i, v in enumerate(op.operands):
            val = self.env[v]
            if i in push:
                if self.record or self.constant_table is not None:   # else the recording has them
                    consts += self.push_words(val)
                continue
            if isinstance(val, Host):
                val = self.to_device(val)
            bufs.append(val.buf)
            spans += [f.const("i64", offset_of(val.buf)), self.nbytes(v)]
        for sym in op.attributes.get("tvm.dims", ()) \
                if self.record or self.constant_table is not None else ():   # shape symbols, i64 each
            consts += self.push_words(Host([self.dim(sym)], _I64))
        outs = []
        donor = self.donors.get(id(op))
        for r in op.results:
            # a donated argument's buffer, updated in place (donation.py)
            buf = self.env[self.func.regions[0].blocks[0].arguments[donor]].buf \
                if donor is not None else self.allocate(r.type, r, transient=r not in self.returned,
                                                        result=r in self.returned)
            outs.append(Dev(buf, r.type, True))
            bufs.append(buf)
            spans += [f.const("i64", offset_of(buf)), self.nbytes(r)]
        count = self.workgroups[id(op)]
        if count:
            wg = None if not self.record else count_register(
                f, count, self.gpu, lambda c: f.const("i32", c) if isinstance(c, int)
                else self._bits(self.dim(c), "trunc.i64.i32", "i32"))
            self._emit_dispatch(self.entry_of[id(op)], wg, consts, bufs, spans)
        for r, o in zip(op.results, outs):
            self.env[r] = o

    def _emit_dispatch(self, entry: int, wg, consts, bufs, spans) -> None:
        """One dispatch of ``entry`` over ``wg`` workgroups: recorded directly,
        against binding-table slots, or (a cache hit, nothing recorded) only
        claiming its buffers' slots in the order the recording did."""
        f = self.f
        self.barrier()
        table = self.constant_table
        if not self.record:
            for b in bufs:
                self._binding(b)
            if table is not None:         # a replayed loop body: its varying constants
                table += [c for c in consts if c not in f.const_values]
        else:
            one = f.const("i32", 1)
            head = [self.cb, self.exe, f.const("i32", entry), wg, one, one,
                    list(consts)]
            if self.slots is None:
                f.call("command_buffer.dispatch",
                       head + [list(bufs), list(spans)])
            else:
                binds = [self._binding(b) for b in bufs]
                name = "command_buffer.dispatch.indirect"
                if table is not None:     # recording a loop body: constants not known here are slots
                    name = "command_buffer.dispatch.slotted"
                    cslots = []
                    for c in consts:
                        cslots.append(self.const("i32", -1 if c in f.const_values else len(table)))
                        if c not in f.const_values:
                            table.append(c)
                    head.append(cslots)
                f.call(name,
                       head + [list(b for b, _ in binds),
                               [self.const("i32", k) for _, k in binds],
                               list(spans)])
        self.need_barrier = True

    def push_words(self, hv: Host) -> list:
        el = hv.type.element
        bank = _BANK[el]
        r = hv.regs[0]
        if bank == "i32":
            return [r]
        if bank == "f32":
            return [self._bits(r, "bitcast.f32.i32", "i32")]
        if bank == "f64":
            r = self._bits(r, "bitcast.f64.i64", "i64")
        lo = self._bits(r, "trunc.i64.i32", "i32")
        hi64 = self.binop("shr.u.i64", r, self.const("i64", 32), "i64")
        return [lo, self._bits(hi64, "trunc.i64.i32", "i32")]

    # -- blocks and ops ---------------------------------------------------------------------
    def block(self, block) -> None:
        for op in block.operations[:-1]:
            self.operation(op)

    def operation(self, op) -> None:
        name = op.name
        if name == "tvm.dispatch":
            self.dispatch(op)
        elif name == "stablehlo.while":
            self.while_loop(op)
        elif name == "stablehlo.if":
            self.branches(op, self.predicate(op.operands[0]), op.regions)
        elif name == "stablehlo.case":
            self.case(op)
        elif name == "stablehlo.constant" and op.result not in self.host:
            k = self.f.reg("k")
            self.f.op("global.load.ref", k, f"__c{self.const_index[id(op)]}")
            self.direct.add(k)
            self.env[op.result] = Dev(k, op.result.type, False)
        elif shape_analysis.is_shape_assertion(op):
            self.shape_assertion(op)
        elif HOST_CALL_ATTR in op.attributes:
            self.host_call(op)
        elif name in COLLECTIVE_OPS:
            emit_collective(self, op)
        elif name in HOST_TRANSFER_OPS:
            emit_host_transfer(self, op)
        elif name in TOKEN_OPS:
            emit_token(self, op)
        elif has(name, ALIAS) \
                and not isinstance(self.env.get(op.operands[0]), Host) and op.result not in self.host:
            src = self.env[op.operands[0]]
            self.env[op.result] = Dev(src.buf, op.result.type, src.fresh)
        elif len(op.results) == 1 and op.result in self.host:
            from .host_ops import emit_host_op
            self.env[op.result] = emit_host_op(self, op)
        elif name == "stablehlo.reshape" and isinstance(self.env.get(op.operands[0]), Host):
            # A host value reshaped for a device consumer: same elements, uploaded.
            self.env[op.result] = self.to_device(Host(self.env[op.operands[0]].regs, op.result.type))
        else:
            raise UnsupportedOpError(name, "in host code", op.location)

    def host_call(self, op) -> None:
        """A ``HostCall``: wait for the device, call the function bound at load
        time with the operands' buffer views, check what it returned."""
        from .vm_host import HOST_CALL_MODULE
        self.read_backs += 1              # the call reads device values on the host
        self.flush()
        f = self.f
        name = op.attributes[HOST_CALL_ATTR].value
        views = []
        for v in op.operands:
            val = self.env[v]
            dv = self.to_device(val) if isinstance(val, Host) else val
            views.append(self._view(dv.buf, v))
        outs = [f.reg("hc") for _ in op.results]
        f.op("call.import", f"{HOST_CALL_MODULE}.{name}", views, outs)
        for k, (r, view) in enumerate(zip(op.results, outs)):
            nm = f.reg("n")
            f.op("const.ref.str", nm, f"result #{k} of host call {name}")
            dims = [self.dim(d) for d in self.dims_of(r)]
            f.call("buffer_view.assert", [view, nm, f.const("i32", self.element_id(r.type)),
                                          list(dims)])
            buf, = f.call("buffer_view.buffer", [view], 1)
            self.env[r] = Dev(buf, r.type, True)

    def _view(self, buf: str, v) -> str:
        dims = [self.dim(d) for d in self.dims_of(v)]
        view, = self.f.call("buffer_view.create", [buf, self.f.const("i64", 0), self.nbytes(v),
                                                   self.f.const("i32", self.element_id(v.type)),
                                                   list(dims)], 1)
        return view

    def shape_assertion(self, op) -> None:
        """``custom_call @shape_assertion``: fail with its message when false."""
        ok = self.predicate(op.operands[0])
        bad = self.binop("cmp.eq.i32", ok, self.const("i32", 0), "i32")
        msg = getattr(op.attributes.get("error_message"), "value", None) or "shape assertion failed"
        self.op("fail", bad, " ".join(str(msg).split()))

    def predicate(self, v) -> str:
        val = self.env[v]
        if isinstance(val, Dev):
            val = self.read_back(val)
        return val.regs[0]

    def normalize(self, r, el) -> str:
        """Canonical register form of a narrow integer (sign/zero extended)."""
        w = bit_width(el)
        if w >= 32:
            return r
        if el == "i1" or is_unsigned(el):
            mask = 1 if el == "i1" else (1 << w) - 1
            return self.binop("and.i32", r, self.const("i32", mask), "i32")
        s = self.const("i32", 32 - w)
        t = self.binop("shl.i32", r, s, "i32")
        return self.binop("shr.s.i32", t, s, "i32")


def literal_elements(attr) -> list:
    return list(np.asarray(attr.array).reshape(-1))
