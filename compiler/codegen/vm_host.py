"""Host program codegen: each exported function becomes VM assembly that
checks its arguments, allocates, records one command buffer of dispatches
(one barrier between schedule levels), submits it and returns buffer views.

``__init`` runs once per context: it fetches the device, loads the
executables and imports the large constants (zero-copy on the CPU) into
globals, so calls do none of that work.
"""
from __future__ import annotations

import numpy as np

from tensorvm.vmfb import element_types
from tensorvm.vmfb.model import ExecutableDef, ExecutableVariant, ModuleDef, RodataDef

from ..passes.inline import symbol
from ..passes.memory import FunctionPlan

# hal module imports used by generated code: name -> calling convention.
HAL_IMPORTS = {
    "device.get": "->r",
    "executable.load": "rr->r",
    "allocator.allocate": "rI->r",
    "allocator.import": "rr->r",
    "buffer_view.assert": "rri*I->",
    "buffer_view.buffer": "r->r",
    "buffer_view.create": "rIIi*I->r",
    "command_buffer.create": "r->r",
    "command_buffer.dispatch": "rriiii*i*r*I->",
    "command_buffer.barrier": "r->",
    "command_buffer.copy": "rrIrII->",
    "command_buffer.finalize": "r->",
    "fence.create": "r->r",
    "fence.await": "i*r->i",
    "device.queue.execute": "rrr*r->",
}


def _asm_signature(conv: str) -> str:
    args, results = conv.split("->")
    items, i = [], 0
    while i < len(args):
        if args[i] == "*":
            items.append("*" + args[i + 1])
            i += 2
        else:
            items.append(args[i])
            i += 1
    return f"({', '.join(items)}) -> ({', '.join(results)})"


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _FunctionAsm:
    """Builds one function's body; constants are materialised once each."""

    def __init__(self):
        self.lines: list[str] = []
        self.consts: dict = {}
        self.n = 0

    def reg(self, prefix="t") -> str:
        self.n += 1
        return f"%{prefix}{self.n}"

    def emit(self, text: str) -> None:
        self.lines.append("  " + text)

    def const(self, bank: str, value) -> str:
        key = (bank, value)
        if key not in self.consts:
            r = self.reg("c")
            self.emit(f"{r} = const.{bank} {value}")
            self.consts[key] = r
        return self.consts[key]

    def call(self, name: str, args: list, results: int = 0) -> list[str]:
        outs = [self.reg() for _ in range(results)]
        lhs = (", ".join(outs) + " = ") if outs else ""
        self.emit(f"{lhs}call.import @hal.{name}({', '.join(args)})")
        return outs


def _element_id(t) -> int:
    return element_types.BY_NAME[t.element].id


def _reflection_entry(name, t) -> dict:
    return {"name": name, "dtype": t.element,
            "shape": ["?" if d is None else int(d) for d in t.shape]}


def _arg_names(func) -> list[str]:
    n = len(func.regions[0].blocks[0].arguments)
    names = [f"arg{i}" for i in range(n)]
    arg_attrs = func.attributes.get("arg_attrs")
    for i, d in enumerate(getattr(arg_attrs, "elements", ()) or ()):
        info = getattr(d, "entries", {}).get("jax.arg_info") if d is not None else None
        if info is not None and getattr(info, "value", None):
            names[i] = info.value
    return names


def generate_module(name, functions, plans: dict, executable, entry_of: dict,
                    workgroups: dict) -> tuple[ModuleDef, str]:
    """(ModuleDef with rodata + executables, assembly text for its functions).

    ``executable`` is (format, target, entry points, data); ``entry_of`` and
    ``workgroups`` map dispatch ops to entry ordinals and workgroup counts.
    """
    mdef = ModuleDef(name=name)
    const_index: dict = {}
    for func in functions:
        for op in plans[id(func)].constants:
            if id(op) in const_index:
                continue
            arr = np.ascontiguousarray(op.attr("value").array)
            const_index[id(op)] = len(mdef.rodata)
            mdef.rodata.append(RodataDef(f"c{len(mdef.rodata)}", arr.tobytes()))
    fmt, target, entries, data = executable
    if entries:
        mdef.executables.append(ExecutableDef("kernels", [ExecutableVariant(fmt, target, entries, data)]))

    text = [f"module @{name}"]
    text += [f"import @hal.{n}{_asm_signature(c)}" for n, c in HAL_IMPORTS.items()]
    text.append("global @__device : ref")
    if entries:
        text.append("global @__exe : ref")
    text += [f"global @__c{i} : ref" for i in range(len(mdef.rodata))]

    init = _FunctionAsm()
    dev, = init.call("device.get", [], 1)
    init.emit(f"global.store.ref {dev}, @__device")
    if entries:
        ref = init.reg("e")
        init.emit(f"{ref} = const.ref.executable @kernels")
        exe, = init.call("executable.load", [dev, ref], 1)
        init.emit(f"global.store.ref {exe}, @__exe")
    for i, ro in enumerate(mdef.rodata):
        r = init.reg("ro")
        init.emit(f"{r} = const.ref.rodata @{ro.name}")
        buf, = init.call("allocator.import", [dev, r], 1)
        init.emit(f"global.store.ref {buf}, @__c{i}")
    init.emit("ret")
    text += ["func @__init() -> () export {", "entry:"] + init.lines + ["}"]

    reflections = {}
    for func in functions:
        fname = symbol(func, "sym_name")
        body, refl = _function_body(func, plans[id(func)], const_index, entry_of, workgroups,
                                    bool(entries))
        reflections[fname] = refl
        nargs = len(func.regions[0].blocks[0].arguments)
        nres = len(func.regions[0].blocks[0].terminator.operands)
        params = ", ".join(f"%a{i}: ref" for i in range(nargs))
        text += [f"func @{fname}({params}) -> ({', '.join(['ref'] * nres)}) export {{", "entry:"]
        text += body + ["}"]
    return mdef, "\n".join(text) + "\n", reflections


def _function_body(func, plan: FunctionPlan, const_index, entry_of, workgroups, has_exe):
    block = func.regions[0].blocks[0]
    ret = block.terminator
    f = _FunctionAsm()
    names = _arg_names(func)
    dev = f.reg("dev")
    f.emit(f"{dev} = global.load.ref @__device")
    bufs = {}   # storage key -> register holding the buffer
    for i, a in enumerate(block.arguments):
        nm = f.reg("n")
        f.emit(f"{nm} = const.ref.str {_quote(names[i])}")
        dims = [f.const("i64", d) for d in a.type.shape]
        f.call("buffer_view.assert", [f"%a{i}", nm, f.const("i32", _element_id(a.type)),
                                      "[" + ", ".join(dims) + "]"])
        bufs[("arg", i)], = f.call("buffer_view.buffer", [f"%a{i}"], 1)
    for op in plan.constants:
        r = f.reg("k")
        f.emit(f"{r} = global.load.ref @__c{const_index[id(op)]}")
        bufs[("constant", plan.constants.index(op))] = r
    if plan.slab_size:
        bufs[("slab", 0)], = f.call("allocator.allocate", [dev, f.const("i64", plan.slab_size)], 1)
    for j, size in enumerate(plan.result_sizes):
        bufs[("result", j)], = f.call("allocator.allocate", [dev, f.const("i64", size)], 1)
    cb, = f.call("command_buffer.create", [dev], 1)
    exe = None
    if has_exe:
        exe = f.reg("exe")
        f.emit(f"{exe} = global.load.ref @__exe")
    one = f.const("i32", 1)
    levels = [lv for lv in plan.levels if any(workgroups[id(d)] for d in lv)]
    for n, level in enumerate(levels):
        if n:
            f.call("command_buffer.barrier", [cb])
        for d in level:
            count = workgroups[id(d)]
            if not count:
                continue
            regs, spans = [], []
            for v in list(d.operands) + list(d.results):
                s = plan.storage[v]
                regs.append(bufs[(s.kind, s.index)])
                spans += [f.const("i64", s.offset), f.const("i64", s.size)]
            f.call("command_buffer.dispatch",
                   [cb, exe, f.const("i32", entry_of[id(d)]), f.const("i32", count), one, one,
                    "[]", "[" + ", ".join(regs) + "]", "[" + ", ".join(spans) + "]"])
    # Returned arguments and constants are copied: results never alias inputs.
    out_regs, copies = [], []
    for v, s in zip(ret.operands, plan.results):
        if s is not None:
            out_regs.append((bufs[("result", s.index)], s.offset, s.size))
            continue
        src = plan.storage[v]
        dst, = f.call("allocator.allocate", [dev, f.const("i64", src.size)], 1)
        if src.size:
            copies.append((bufs[(src.kind, src.index)], src.offset, dst, src.size))
        out_regs.append((dst, 0, src.size))
    if copies:
        if levels:
            f.call("command_buffer.barrier", [cb])
        for src, off, dst, size in copies:
            f.call("command_buffer.copy", [cb, src, f.const("i64", off), dst,
                                           f.const("i64", 0), f.const("i64", size)])
    f.call("command_buffer.finalize", [cb])
    fence, = f.call("fence.create", [dev], 1)
    null = f.reg("null")
    f.emit(f"{null} = const.ref.null")
    f.call("device.queue.execute", [dev, null, fence, f"[{cb}]"])
    f.call("fence.await", [f.const("i32", -1), f"[{fence}]"], 1)
    views = []
    for v, (buf, off, size) in zip(ret.operands, out_regs):
        dims = [f.const("i64", d) for d in v.type.shape]
        view, = f.call("buffer_view.create", [buf, f.const("i64", off), f.const("i64", size),
                                              f.const("i32", _element_id(v.type)),
                                              "[" + ", ".join(dims) + "]"], 1)
        views.append(view)
    f.emit("ret " + ", ".join(views))
    refl = {"args": [_reflection_entry(names[i], a.type) for i, a in enumerate(block.arguments)],
            "results": [_reflection_entry(f"result{i}", v.type) for i, v in enumerate(ret.operands)]}
    return f.lines, refl
