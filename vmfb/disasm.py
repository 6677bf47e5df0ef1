"""ModuleDef -> assembly text that re-assembles to identical bytecode.

Registers print as ``%<bank char><index>`` (``%i0``, ``%I2``, ``%r3``), which
the assembler pins to that exact register; labels as ``L<pc>``; references by
name where the name resolves back uniquely, ``#index`` otherwise.  Tables are
printed in order, so every index survives the round trip.  Executables cannot
be declared in assembly: they are listed as comments, and re-assembly needs
them in ``base`` (``assemble(text, base=ModuleDef(name, executables=...))``).
"""
from __future__ import annotations

import json

from .bytecode import (INITIALIZER_TABLES, block_starts, decode_function, format_float,
                       format_instruction, format_symbol, module_namer)
from .errors import VmfbError
from .isa import BANKS, BANK_CHAR
from .model import Initializer, ModuleDef, parse_signature
from .payload import as_bytes
from .payload import Payload


def _json(obj) -> str:
    try:
        return json.dumps(obj, ensure_ascii=False)
    except (TypeError, ValueError) as e:
        raise VmfbError(f"cannot print {obj!r} as JSON: {e}") from None


def _params(params) -> str:
    return "(" + ", ".join(str(p) for p in params) + ")"


def _initializer(init: Initializer, name_of) -> str:
    """``call @import(kind @name, ...)``: names where they resolve back uniquely."""
    args = ", ".join(f"{k} {name_of(INITIALIZER_TABLES[k], i)}" for k, i in init.args)
    return f"call {name_of('import', init.call)}({args})"


def disassemble_module(module: ModuleDef, max_rodata_bytes: int | None = None) -> str:
    """Assembly text for ``module``.  ``max_rodata_bytes`` elides larger
    rodata into comments (for dumps; such text no longer round-trips)."""
    out = []
    head = f"module {format_symbol(module.name)}"
    if module.version != 1:
        head += f" version {module.version}"
    if module.requirements:
        head += f" requirements {_json(module.requirements)}"
    out.append(head)
    for imp in module.imports:
        if "." in imp.module:
            raise VmfbError(f"import module name {imp.module!r} contains '.', "
                            f"which assembly cannot spell")
        sig = parse_signature(imp.signature)
        out.append(f"import {format_symbol(imp.full_name)}{_params(sig.args)}"
                   f" -> {_params(sig.results)}")
    name_of = module_namer(module)
    for g in module.globals:
        line = f"global {format_symbol(g.name)} : {g.bank}"
        if g.initial.__class__ is Initializer:
            line += " = " + _initializer(g.initial, name_of)
        elif g.initial is not None:
            line += " = " + (str(int(g.initial)) if g.bank in ("i32", "i64")
                             else format_float(float(g.initial), g.bank))
        out.append(line)
    for r in module.rodata:
        size = len(r.data)
        align = f" align {r.alignment}" if r.alignment != 64 else ""
        if max_rodata_bytes is not None and size > max_rodata_bytes:
            out.append(f"; rodata {format_symbol(r.name)}: {size} bytes{align}, "
                       f"begins hex\"{_head(r.data, max_rodata_bytes).hex()}\"")
        else:
            out.append(f"rodata {format_symbol(r.name)} = hex\"{_head(r.data, size).hex()}\"{align}")
    for s in module.strings:
        out.append(f"string {_json(s)}")
    for e in module.executables:
        formats = ", ".join(v.format for v in e.variants)
        out.append(f"; executable {format_symbol(e.name)}: {len(e.variants)} variant(s): {formats}")

    def signature_of(kind, index):
        table = module.functions if kind == "func" else module.imports
        try:
            return parse_signature(table[index].signature)
        except (IndexError, VmfbError):
            return None

    for fn in module.functions:
        out.append("")
        out.extend(_function(fn, name_of, signature_of))
    return "\n".join(out) + "\n"


def _function(fn, name_of, signature_of) -> list:
    sig = parse_signature(fn.signature, allow_variadic=False)
    nth = {b: 0 for b in BANKS}
    args = []
    for p in sig.args:
        args.append(f"%{BANK_CHAR[p.bank]}{nth[p.bank]}: {p.bank}")
        nth[p.bank] += 1
    instructions = decode_function(fn.code, fn.name)
    used = dict(nth)
    for ins in instructions:
        for f, v in zip(ins.op.fields, ins.operands):
            regs = (v,) if f.kind == "reg" else v if f.kind == "regs" else ()
            for bank, index in regs:
                used[bank] = max(used[bank], index + 1)
    head = f"func {format_symbol(fn.name)}({', '.join(args)})"
    head += " -> (" + ", ".join(p.bank for p in sig.results) + ")"
    if fn.exported:
        head += " export"
    declared = {b: int(fn.registers.get(b, 0)) for b in BANKS}
    if any(declared[b] != used[b] for b in BANKS):
        head += " registers(" + ", ".join(f"{b}={declared[b]}" for b in BANKS if declared[b]) + ")"
    if fn.reflection is not None:
        head += f" reflection {_json(fn.reflection)}"
    lines = [head + " {"]
    labels = set(block_starts(instructions))
    label_of = lambda pc: f"L{pc}" if pc in labels else f"#{pc}"  # noqa: E731
    for ins in instructions:
        if ins.pc in labels:
            lines.append(f"L{ins.pc}:")
        lines.append("  " + format_instruction(ins, name_of, label_of, signature_of))
    lines.append("}")
    return lines


def _head(data, n: int) -> bytes:
    """The first ``n`` bytes of rodata ``data``: bytes-like, or a streamed
    payload (vmfb/payload.py) read only as far as needed."""
    if not isinstance(data, Payload):
        return bytes(memoryview(data).cast("B")[:n])
    out = bytearray()
    for piece in data.iter_pieces():
        if len(out) >= n:
            break
        out += memoryview(piece).cast("B")[:n - len(out)]
    return bytes(out)
