"""Modules whose dispatch operands are rewritten (for the robustness tests).

``mutate_dispatches(data, kind)`` decodes every function of a compiled
module, rewrites the operands of each ``hal.command_buffer.dispatch[.indirect]``
call (drop or add a binding, add a push constant, swap the entry ordinal,
...), re-encodes the functions (branch targets remapped) and writes the
module again, so every checksum is valid and the mutant reaches the verifier
and the HAL like a genuine module would.
"""
from __future__ import annotations

from dataclasses import replace

from tensorvm.vmfb.bytecode import Instruction, decode_function, encode
from tensorvm.vmfb.isa import BY_MNEMONIC
from tensorvm.vmfb.container import read_module, write_module

KINDS = ("drop_binding", "extra_binding", "extra_constant", "drop_constant", "entry_swap",
         "entry_out_of_range", "huge_workgroups", "long_range")
_DISPATCH = ("command_buffer.dispatch", "command_buffer.dispatch.indirect")


def _split(args, segments, indirect):
    """(fixed args, constants, buffers, slots, ranges) of a dispatch call."""
    head, rest = list(args[:6]), list(args[6:])
    runs, pos = [], 0
    for n in segments:
        runs.append(rest[pos:pos + n])
        pos += n
    if indirect:
        consts, buffers, slots, ranges = runs
    else:
        (consts, buffers, ranges), slots = runs, []
    return head, consts, buffers, slots, ranges


def _registers(instrs, bank):
    regs = set()
    for ins in instrs:
        for f, v in zip(ins.op.fields, ins.operands):
            if f.kind == "reg" and v[0] == bank:
                regs.add(v)
            elif f.kind == "regs":
                regs.update(r for r in v if r[0] == bank)
    return sorted(regs)


def _const_values(instrs, mnemonic):
    """{register: value} for registers set only by one ``const.*`` instruction."""
    vals, bad = {}, set()
    for ins in instrs:
        if ins.op.mnemonic == mnemonic:
            reg, v = ins.operands
            if reg in vals:
                bad.add(reg)
            vals[reg] = v
    return {r: v for r, v in vals.items() if r not in bad}


def _mutate_call(kind, ins, instrs, indirect, n_entries):
    callee, segments, args, results = ins.operands
    head, consts, buffers, slots, ranges = _split(args, segments, indirect)
    i32 = _const_values(instrs, "const.i32")
    i64 = _const_values(instrs, "const.i64")
    if kind == "drop_binding" and buffers:
        buffers, ranges = buffers[:-1], ranges[:-2]
        slots = slots[:-1]
    elif kind == "extra_binding" and buffers:
        buffers, ranges = buffers + buffers[-1:], ranges + ranges[-2:]
        slots = slots + slots[-1:]
    elif kind == "extra_constant":
        consts = consts + [head[2]]
    elif kind == "drop_constant" and consts:
        consts = consts[:-1]
    elif kind in ("entry_swap", "entry_out_of_range"):
        want = (head[2] in i32 and i32[head[2]]) or 0
        pick = [r for r, v in i32.items() if (v >= n_entries if kind == "entry_out_of_range"
                                               else 0 <= v < n_entries and v != want)]
        if not pick:
            return None
        head[2] = pick[0]
    elif kind == "huge_workgroups":
        big = [r for r, v in i32.items() if v < 0 or v > 1 << 20]
        if not big:
            return None
        head[3] = big[0]
    elif kind == "long_range" and ranges:
        now = i64.get(ranges[-1])
        longer = [r for r, v in i64.items() if now is not None and v > now]
        if not longer:
            return None
        ranges = ranges[:-1] + [max(longer, key=lambda r: i64[r])]
    else:
        return None
    runs = [consts, buffers, slots, ranges] if indirect else [consts, buffers, ranges]
    new_args = tuple(head) + tuple(r for run in runs for r in run)
    return ins._replace(operands=(callee, tuple(len(r) for r in runs), new_args, results))


def _reencode(instrs):
    sizes = [len(encode(i.op.mnemonic, *i.operands)) for i in instrs]
    new_pc, pc = {}, 0
    for ins, n in zip(instrs, sizes):
        new_pc[ins.pc] = pc
        pc += n
    out = []
    for ins in instrs:
        ops = tuple(new_pc[v] if f.kind == "block" else v
                    for f, v in zip(ins.op.fields, ins.operands))
        out.append(encode(ins.op.mnemonic, *ops))
    return b"".join(out)


def mutate_dispatches(data: bytes, kind: str) -> bytes | None:
    """``data`` with every dispatch rewritten by ``kind`` (None if no dispatch
    could be rewritten that way).  ``entry_*`` kinds also need an i32 constant
    in the function holding a suitable ordinal (they may add one)."""
    mdef = read_module(data)
    targets = {i for i, imp in enumerate(mdef.imports)
               if imp.module == "hal" and imp.name in _DISPATCH}
    n_entries = max((len(v.entry_points) for e in mdef.executables for v in e.variants),
                    default=0)
    changed, functions = False, []
    for fdef in mdef.functions:
        instrs = decode_function(fdef.code)
        if kind in ("entry_swap", "entry_out_of_range", "huge_workgroups"):
            instrs, regs = _with_constant(instrs, fdef, n_entries, kind)
            fdef = replace(fdef, registers=regs)
        new, hit = [], False
        for ins in instrs:
            if ins.op.mnemonic == "call.import" and ins.operands[0] in targets:
                indirect = mdef.imports[ins.operands[0]].name.endswith("indirect")
                m = _mutate_call(kind, ins, instrs, indirect, n_entries)
                if m is not None:
                    ins, hit = m, True
            new.append(ins)
        if hit:
            changed = True
            fdef = replace(fdef, code=_reencode(new))
        functions.append(fdef)
    if not changed:
        return None
    return write_module(replace(mdef, functions=functions))


def _with_constant(instrs, fdef, n_entries, kind):
    """(instrs with a ``const.i32`` in a fresh register prepended that the
    entry/workgroup mutations can use, the function's new register counts)."""
    if not any(i.op.mnemonic == "call.import" for i in instrs):
        return instrs, fdef.registers
    value = {"entry_swap": 0 if n_entries < 2 else 1, "entry_out_of_range": n_entries,
             "huge_workgroups": 0x7FFFFFFF}[kind]
    regs = dict(fdef.registers)
    reg = ("i32", regs.get("i32", 0))
    regs["i32"] = reg[1] + 1
    return [Instruction(-1, BY_MNEMONIC["const.i32"], (reg, value))] + instrs, regs
