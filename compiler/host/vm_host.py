"""Host program codegen: each exported function becomes a VM function (built
in memory with vmfb.builder, no assembly text) that checks its arguments,
allocates, submits one command buffer of dispatches (one barrier between
schedule levels) and returns buffer views.

Each context fetches the device, loads the executables and imports the
constants (zero-copy on the CPU) through ref-global initializers (vmfb 1.3,
run when it registers the module, no ``__init`` function): the constants of
straight-line functions as one packed segment (``@__consts``, addressed by
offset), those of functions with control flow one global each.  The first
call of a static-shape function ``f`` calls ``@__record_f``, which records
``f``'s command buffer against binding-table *slots* (arguments, the
transient slab, results) and keeps it in ``@__cb_f``: a load does not pay
for recording (nor for verifying and lowering the recorder) of functions
it may never call.  Two threads making the first call at once both record;
either command buffer serves every call.  A call then only checks
arguments, allocates, submits the recorded command buffer with this call's
binding table, awaits and wraps the results.  Functions with dynamic
shapes take host_program.py, which keeps the command buffer recorded for
the last argument dims in ``@__dcb_f``.

Every export ``f`` also gets ``f$async(args..., wait_fence, signal_fence)``
(IREE's coarse-fences ABI): the submission waits on ``wait_fence`` before
touching the inputs and signals ``signal_fence`` when the results are
ready; the function returns the (not yet ready) result views at once.
"""
from __future__ import annotations

import json

import numpy as np

from tensorvm.vmfb import element_types, hal_imports, host_transfers
from tensorvm.vmfb.builder import FunctionBuilder, build_functions, table_index
from tensorvm.vmfb.model import (ExecutableDef, ExecutableVariant, GlobalDef, ImportDef,
                                 Initializer, ModuleDef, RodataDef, parse_signature)
from tensorvm.vmfb.payload import Pieces

from ..ir.types import TokenType
from ..passes.inline import symbol
from ..passes.memory import ALIGNMENT as PACK_ALIGNMENT, FunctionPlan
from .donation import aliases
from ..codegen.grids import VariantCounts, count_register, gpu_flag
from .host_constants import HostConstantPool

#: hal module functions generated code may import: name -> calling
#: convention (vmfb/hal_imports.py, the declaration the runtime binds too).
HAL_IMPORTS = hal_imports.SIGNATURES

ASYNC_SUFFIX = "$async"

#: The module a host call (custom_kernels.HostCall) is imported from; the
#: runtime binds its functions at load time (runtime/custom_calls.py).
HOST_CALL_MODULE = "custom"


def host_call_imports(functions) -> dict:
    """``{name: calling convention}`` of the host calls the functions make:
    buffer views in, buffer views out (``"rr->r"``)."""
    from ..custom_kernels import HOST_CALL_ATTR
    out = {}
    for func in functions:
        for op in func.walk():
            if HOST_CALL_ATTR in op.attributes:
                out[op.attributes[HOST_CALL_ATTR].value] = \
                    "r" * len(op.operands) + "->" + "r" * len(op.results)
    return out


class _FunctionAsm(FunctionBuilder):
    """One function's body, built in memory (vmfb.builder): registers are
    names (``%t3``), operands follow the ISA table; constants are
    materialised once each."""

    def __init__(self, name: str = "", nargs: int = 0, nresults: int = 0, exported: bool = False):
        super().__init__(name, [(f"%a{i}", "ref") for i in range(nargs)], ["ref"] * nresults,
                         exported)
        self.consts: dict = {}
        self.const_values: dict = {}   # register -> (bank, value): every constant emitted
        self.n = 0

    def reg(self, prefix="t") -> str:
        self.n += 1
        return f"%{prefix}{self.n}"

    def const(self, bank: str, value) -> str:
        key = (bank, value)
        if key not in self.consts:
            r = self.reg("c")
            self.op(f"const.{bank}", r, float(value) if bank in ("f32", "f64") else int(value))
            self.consts[key] = r
            self.const_values[r] = key
        return self.consts[key]

    def call(self, name: str, args: list, results: int = 0) -> list[str]:
        """Call ``hal.<name>``: a list among ``args`` is a variadic run."""
        outs = [self.reg() for _ in range(results)]
        self.op("call.import", "hal." + name, args, outs)
        return outs


def _element_id(t) -> int:
    return element_types.BY_NAME[t.element].id


def _reflection_entry(name, t) -> dict:
    if isinstance(t, TokenType):
        return {"name": name, "kind": host_transfers.TOKEN_KIND}
    return {"name": name, "dtype": t.element,
            "shape": ["?" if d is None else int(d) for d in t.shape]}


def _note_quantized(func, args, results) -> None:
    """Arguments and results that were quantized cross the API as their
    storage integers ("dtype"); "quantized" keeps the type they stand for."""
    from ..passes.quantized import SIGNATURE_ATTR
    sig = func.attributes.get(SIGNATURE_ATTR)
    if sig is None:
        return
    for entries, names in zip((args, results), sig.elements):
        for e, n in zip(entries, names.elements):
            if n.value:
                e["quantized"] = n.value


def _arg_names(func) -> list[str]:
    n = len(func.regions[0].blocks[0].arguments)
    names = [f"arg{i}" for i in range(n)]
    arg_attrs = func.attributes.get("arg_attrs")
    for i, d in enumerate(getattr(arg_attrs, "elements", ()) or ()):
        info = getattr(d, "entries", {}).get("jax.arg_info") if d is not None else None
        if info is not None and getattr(info, "value", None):
            names[i] = info.value
    return names


def _constant_bytes(array) -> np.ndarray:
    """A constant's bytes as a flat uint8 view (a copy only when it is not
    C-contiguous, e.g. a splat's broadcast view)."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


def _segment_pieces(pack: list):
    """The pieces of the shared constant segment: arrays' views as they
    are, Pieces (constants packed as they are written) flattened."""
    for p in pack:
        if isinstance(p, Pieces):
            yield from p.iter_pieces()
        else:
            yield p


def generate_module(name, functions, plans: dict, executable, entry_of: dict,
                    workgroups: dict, packed: dict | None = None) -> tuple[ModuleDef, dict]:
    """(the ModuleDef, built in memory: no assembly text; reflection per function).

    ``executable`` is (format, target, entry points, data); ``entry_of`` and
    ``workgroups`` map dispatch ops to entry ordinals and workgroup counts;
    ``packed``: id(constant op) -> a function returning its bytes' pieces
    in another layout of the same size (codegen/packed_weights.py).
    """
    packed = packed or {}
    mdef = ModuleDef(name=name)
    # The constants of straight-line functions share one rodata segment,
    # imported once (bindings address them by offset): a load checks, imports
    # and stores one buffer, not one per constant.  Functions with control
    # flow (host_program.py) hold each of theirs as a buffer of its own.
    # Constants reach the writer as views of their arrays (vmfb.payload.Pieces),
    # never copied into one buffer: a module's weights are held once.
    const_index: dict = {}           # id(op) -> own rodata index (global @__c<i>)
    pack_offset: dict = {}           # id(op) -> offset in the packed segment
    pack, pack_len = [], 0
    for func in functions:
        general = getattr(plans[id(func)], "general", False)
        for op in plans[id(func)].constants:
            if id(op) in const_index or id(op) in pack_offset:
                continue
            array = op.attr("value").array
            data = (Pieces(array.nbytes, packed[id(op)]) if id(op) in packed
                    else _constant_bytes(array))
            if general:
                const_index[id(op)] = len(mdef.rodata)
                mdef.rodata.append(RodataDef(f"c{len(mdef.rodata)}", data))
            else:
                pack_offset[id(op)] = pack_len
                pad = -len(data) % PACK_ALIGNMENT
                pack += [data, bytes(pad)] if pad else [data]
                pack_len += len(data) + pad
    own = len(mdef.rodata)
    if pack_len:
        pieces = (lambda: _segment_pieces(pack)) if packed else pack
        mdef.rodata.append(RodataDef("constants", Pieces(pack_len, pieces), PACK_ALIGNMENT))
    fmt, target, entries, data = executable
    if entries:
        mdef.executables.append(ExecutableDef("kernels", [ExecutableVariant(fmt, target, entries, data)]))

    # Device state as ref-global initializers (vmfb 1.3): the context calls
    # these imports at registration, with no __init function to decode,
    # verify, lower and run at every load.  (name, import, operands) each.
    inits = [("__device", "device.get", ())]
    if entries:
        inits.append(("__exe", "executable.load", (("global", "__device"),
                                                   ("executable", "kernels"))))
    for i, ro in enumerate(mdef.rodata):
        inits.append((f"__c{i}" if i < own else "__consts", "allocator.import",
                      (("global", "__device"), ("rodata", ro.name))))
    host_consts, plain, builders = HostConstantPool(), [], []

    reflections = {}
    for func in functions:
        fname = symbol(func, "sym_name")
        plan = plans[id(func)]
        host = _HostFunction(func, plan, pack_offset, entry_of, workgroups, bool(entries))
        reflections[fname], reflections[fname + ASYNC_SUFFIX] = host.reflection()
        if getattr(plan, "general", False):
            plain.append("__dcb_" + fname)
            builders.append(_general_export(fname, func, plan, const_index, entry_of, workgroups,
                                            False, host_consts, "__dcb_" + fname))
            builders.append(_general_export(fname + ASYNC_SUFFIX, func, plan, const_index,
                                            entry_of, workgroups, True, host_consts))
            continue
        if host.static:
            plain.append(f"__cb_{fname}")
            builders.append(host.record_function(f"__record_{fname}"))
        builders.append(host.export(fname, asynchronous=False))
        builders.append(host.export(fname + ASYNC_SUFFIX, asynchronous=True))

    for ro_name, g, data in host_consts.rodata():      # host_constants.py
        mdef.rodata.append(RodataDef(ro_name, data))
        inits.append((g, "allocator.import", (("global", "__device"), ("rodata", ro_name))))

    # Only the HAL functions the code calls are imported: every import is
    # checked, linked and bound at each load.
    called = {c for _, c, _ in inits} | {
        ops[0][4:] for b in builders for m, ops in b.body
        if m == "call.import" and ops[0].startswith("hal.")}
    mdef.imports += [ImportDef("hal", n, str(parse_signature(c))) for n, c in HAL_IMPORTS.items()
                     if n in called]
    mdef.imports += [ImportDef(HOST_CALL_MODULE, n, str(parse_signature(c)))
                     for n, c in host_call_imports(functions).items()]
    for g, call, args in inits:
        mdef.globals.append(GlobalDef(g, "ref", Initializer(
            table_index(mdef, "import", "hal." + call),
            tuple((k, table_index(mdef, "exe" if k == "executable" else k, n)) for k, n in args))))
    mdef.globals += [GlobalDef(g, "ref") for g in plain]
    return build_functions(mdef, builders), reflections


def _general_export(name, func, plan, const_index, entry_of, workgroups, asynchronous,
                    host_consts, cache_global=None):
    """A function with control flow (host_program.py).  Its ``$async`` form
    awaits the wait fence first (the invocation suspends, it does not block)
    and signals the signal fence after its last submission completed."""
    from .host_program import GeneralFunction
    nargs = len(func.regions[0].blocks[0].arguments)
    nres = len(func.regions[0].blocks[0].terminator.operands)
    f = _FunctionAsm(name, nargs + (2 if asynchronous else 0), nres, exported=True)
    if asynchronous:
        f.call("fence.await", [f.const("i32", -1), [f"%a{nargs}"]], 1)
    GeneralFunction(f, func, const_index, plan, entry_of, workgroups, _arg_names(func),
                    _element_id, cache_global, host_consts).emit()
    if asynchronous:
        ret = f.body.pop()
        f.call("fence.signal", [f"%a{nargs + 1}"])
        f.body.append(ret)
    return f


class _HostFunction:
    """The host code of one function: its argument checks, allocations,
    command recording (by slot or direct) and the two exported forms."""

    def __init__(self, func, plan: FunctionPlan, pack_offset, entry_of, workgroups, has_exe):
        """``pack_offset``: each constant's offset in the packed segment."""
        self.func, self.plan = func, plan
        self.block = func.regions[0].blocks[0]
        self.ret = self.block.terminator
        self.pack_offset, self.entry_of, self.workgroups = pack_offset, entry_of, workgroups
        self.has_exe = has_exe
        self.names = _arg_names(func)
        self.donors = aliases(func)   # result index -> donated argument index (donation.py)
        types = [a.type for a in self.block.arguments] + [v.type for v in self.ret.operands]
        self.static = not getattr(plan, "general", False) and \
            all(d is not None for t in types for d in t.shape)
        if getattr(plan, "general", False):
            return
        # Per-call buffers, in binding-table order: args, slab, results, copy targets.
        self.per_call = [("arg", i) for i in range(len(self.block.arguments))]
        if plan.slab_size:
            self.per_call.append(("slab", 0))
        self.per_call += [("result", j) for j in range(len(plan.result_sizes))]
        self.copies = []      # (src key, src offset, dst key, size) for returned args/constants
        self.outputs = []     # per result: (key, offset, size)
        for v, s in zip(self.ret.operands, plan.results):
            if s is not None:
                self.outputs.append((("result", s.index), s.offset, s.size))
                continue
            src = plan.storage[v]
            key = ("copy", len(self.copies))
            self.copies.append(((src.kind, src.index), self._offset(src), key, src.size))
            self.per_call.append(key)
            self.outputs.append((key, 0, src.size))
        self.slot = {k: i for i, k in enumerate(self.per_call)}

    def reflection(self):
        args = [_reflection_entry(self.names[i], a.type)
                for i, a in enumerate(self.block.arguments)]
        results = [_reflection_entry(f"result{i}", v.type)
                   for i, v in enumerate(self.ret.operands)]
        _note_quantized(self.func, args, results)
        for j, i in self.donors.items():
            args[i]["donated_to"] = j
            results[j]["donor"] = i
        fences = [{"name": "wait_fence", "kind": "fence"}, {"name": "signal_fence", "kind": "fence"}]
        return {"args": args, "results": results}, {"args": args + fences, "results": results}

    # -- recording -------------------------------------------------------------------
    def _refs(self, f, storage):
        """``ref_of`` for ``_record_commands``: a constant key's rodata
        reference (loaded once per function), any other key's ``storage(key)``."""
        consts = {}

        def ref_of(key):
            if key[0] == "constant":
                if key not in consts:
                    consts[key] = self._constant(f, key[1])
                return consts[key], None
            return storage(key)
        return ref_of

    def _record_commands(self, f, cb, ref_of):
        """Emit the dispatches/barriers/copies into ``cb``; ``ref_of(key)`` gives
        (buffer register or None, slot) for a storage key."""
        plan, wgs = self.plan, self.workgroups
        exe = gpu = None
        if self.has_exe:
            exe = f.reg("exe")
            f.op("global.load.ref", exe, "__exe")
            if any(isinstance(wgs[id(d)], VariantCounts) for d in plan.dispatches):
                gpu = gpu_flag(f, exe)       # counts differ between CPU and GPU variants
        one = f.const("i32", 1)
        levels = [lv for lv in plan.levels if any(wgs[id(d)] for d in lv)]
        for n, level in enumerate(levels):
            if n:
                f.call("command_buffer.barrier", [cb])
            for d in level:
                count = wgs[id(d)]
                if not count:
                    continue
                regs, slots, spans = [], [], []
                for v in list(d.operands) + list(d.results):
                    s = plan.storage[v]
                    reg, slot = ref_of((s.kind, s.index))
                    regs.append(reg)
                    slots.append(slot)
                    spans += [f.const("i64", self._offset(s)), f.const("i64", s.size)]
                head = [cb, exe, f.const("i32", self.entry_of[id(d)]),
                        count_register(f, count, gpu, lambda c: f.const("i32", c)),
                        one, one, []]
                if any(s is not None for s in slots):
                    regs = [r or self._null(f) for r in regs]
                    slots = [f.const("i32", -1 if s is None else s) for s in slots]
                    f.call("command_buffer.dispatch.indirect",
                           head + [_list(regs), _list(slots), _list(spans)])
                else:
                    f.call("command_buffer.dispatch", head + [_list(regs), _list(spans)])
        copies = [c for c in self.copies if c[3]]
        if copies and levels:
            f.call("command_buffer.barrier", [cb])
        for src, off, dst, size in copies:
            (sreg, sslot), (dreg, dslot) = ref_of(src), ref_of(dst)
            if sslot is None and dslot is None:
                f.call("command_buffer.copy", [cb, sreg, f.const("i64", off), dreg,
                                               f.const("i64", 0), f.const("i64", size)])
            else:
                f.call("command_buffer.copy.indirect",
                       [cb, sreg or self._null(f), f.const("i32", -1 if sslot is None else sslot),
                        f.const("i64", off), dreg or self._null(f),
                        f.const("i32", -1 if dslot is None else dslot), f.const("i64", 0),
                        f.const("i64", size)])
        f.call("command_buffer.finalize", [cb])

    @staticmethod
    def _null(f):
        if ("null", None) not in f.consts:
            r = f.reg("null")
            f.op("const.ref.null", r)
            f.consts[("null", None)] = r
        return f.consts[("null", None)]

    def _offset(self, s) -> int:
        """Storage ``s``'s byte offset in its buffer (a constant's includes
        its place in the packed segment)."""
        if s.kind == "constant":
            return s.offset + self.pack_offset[id(self.plan.constants[s.index])]
        return s.offset

    @staticmethod
    def _constant(f, index):
        """The register holding the packed constants' buffer (one load per function)."""
        if ("consts", None) not in f.consts:
            r = f.reg("k")
            f.op("global.load.ref", r, "__consts")
            f.consts[("consts", None)] = r
        return f.consts[("consts", None)]

    def record_function(self, name) -> _FunctionAsm:
        """``@__record_f() -> (cb)``: the command buffer over binding slots."""
        f = _FunctionAsm(name, 0, 1)
        dev = f.reg("dev")
        f.op("global.load.ref", dev, "__device")
        cb, = f.call("command_buffer.create", [dev], 1)
        self._record_commands(f, cb, self._refs(f, lambda key: (None, self.slot[key])))
        f.op("ret", [cb])
        return f

    # -- the exported forms ------------------------------------------------------------
    def export(self, name, asynchronous: bool) -> _FunctionAsm:
        nargs = len(self.block.arguments)
        f = _FunctionAsm(name, nargs + (2 if asynchronous else 0), len(self.ret.operands),
                         exported=True)
        plan = self.plan
        dev = f.reg("dev")
        f.op("global.load.ref", dev, "__device")
        bufs = {}
        args = self.block.arguments
        if self.static and args and not any(isinstance(a.type, TokenType) for a in args):
            # One call checks them all (a model's hundreds of weights cost one
            # instruction, not two each); the views go to the binding table.
            spec = json.dumps([[self.names[i], _element_id(a.type), list(a.type.shape)]
                               for i, a in enumerate(args)], separators=(",", ":"))
            nm = f.reg("n")
            f.op("const.ref.str", nm, spec)
            f.call("buffer_view.check_args", [nm, _list([f"%a{i}" for i in range(len(args))])])
            bufs.update({("arg", i): f"%a{i}" for i in range(len(args))})
        for i, a in enumerate(args if not bufs else ()):
            nm = f.reg("n")
            f.op("const.ref.str", nm, self.names[i])
            dims = [f.const("i64", d) for d in a.type.shape]
            bufs[("arg", i)], = f.call("buffer_view.checked_buffer",
                                       [f"%a{i}", nm, f.const("i32", _element_id(a.type)),
                                        _list(dims)], 1)
        sizes = {("slab", 0): plan.slab_size}
        sizes.update({("result", j): s for j, s in enumerate(plan.result_sizes)})
        sizes.update({dst: size for _, _, dst, size in self.copies})
        donated = {("result", plan.results[j].index): i for j, i in self.donors.items()
                   if plan.results[j] is not None}
        for key in self.per_call:
            if key in donated:            # the result takes over the donated argument's buffer
                bufs[key], = f.call("buffer_view.buffer", [f"%a{donated[key]}"], 1)
            elif key[0] != "arg":         # (results: where the host reads them back cheaply)
                bufs[key], = f.call("allocator.allocate.result" if key[0] == "result"
                                    else "allocator.allocate", [dev, f.const("i64", sizes[key])], 1)
        if self.static:
            cb = f.reg("cb")
            slot = "__cb_" + self.func_name
            f.op("global.load.ref", cb, slot)
            recorded = f.reg("has")         # recorded on the first call, then replayed
            f.op("cmp.nz.ref", recorded, cb)
            f.op("cond_br", recorded, "cb_ready", "cb_record")
            f.label("cb_record")
            f.op("call", "__record_" + self.func_name, [], [cb])
            f.op("global.store.ref", cb, slot)
            f.op("br", "cb_ready")
            f.label("cb_ready")
            table = _list([bufs[k] for k in self.per_call])
            if asynchronous:
                f.call("device.queue.execute.indirect",
                       [dev, f"%a{nargs}", f"%a{nargs + 1}", cb, table])
            else:   # submit + wait in one call (the device may run it on this thread)
                f.call("device.queue.execute.indirect.wait",
                       [dev, cb, f.const("i32", -1), table])
        else:
            if asynchronous:
                wait, fence = f"%a{nargs}", f"%a{nargs + 1}"
            else:
                wait = self._null(f)
                fence, = f.call("fence.create", [dev], 1)
            cb, = f.call("command_buffer.create", [dev], 1)
            self._record_commands(f, cb, self._refs(f, lambda key: (bufs[key], None)))
            f.call("device.queue.execute", [dev, wait, fence, [cb]])
            if not asynchronous:
                f.call("fence.await", [f.const("i32", -1), [fence]], 1)
        views = []
        for v, (key, off, size) in zip(self.ret.operands, self.outputs):
            dims = [f.const("i64", d) for d in v.type.shape]
            view, = f.call("buffer_view.create", [bufs[key], f.const("i64", off),
                                                  f.const("i64", size),
                                                  f.const("i32", _element_id(v.type)),
                                                  _list(dims)], 1)
            views.append(view)
        f.op("ret", views)
        return f

    @property
    def func_name(self) -> str:
        return symbol(self.func, "sym_name")


def _list(regs) -> list:
    """A variadic run of registers (vmfb.builder: a list among a call's arguments)."""
    return list(regs)
