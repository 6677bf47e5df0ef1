"""Bytecode encoder, decoder and disassembler, all derived from ``isa.OPS``.

Nothing here knows a particular opcode: every instruction is handled by the
codec of its field kinds (``isa.FIELD_KINDS``), so adding a row to the ISA
table is enough for encode, decode and disassembly to support it.
"""
from __future__ import annotations

import json
import math
import re
import struct
from typing import Callable, NamedTuple

from . import isa
from .errors import VerificationError, VmfbError
from .isa import BANK_CHAR, BANK_TAG, BANKS, BY_CODE, BY_MNEMONIC, MAX_REGISTERS, OpDef

__all__ = ["Instruction", "NaNBits", "encode", "decode_function", "disassemble",
           "format_instruction", "module_namer", "format_float"]


class Instruction(NamedTuple):
    pc: int          # byte offset of this instruction in the function
    op: OpDef        # isa.OPS entry
    operands: tuple  # one per field, in table order (docs/internals.md 3.)


class NaNBits(float):
    """A NaN immediate that remembers its exact IEEE bit pattern.

    Python floats cannot be trusted to carry NaN payloads through f32
    conversions, so the decoder returns this (a real ``float``, NaN) for NaN
    immediates and the encoder writes ``bits`` back verbatim.
    """

    def __new__(cls, bits: int, width: int):
        self = super().__new__(cls, math.nan)
        self.bits, self.width = bits, width
        return self

    def __repr__(self) -> str:
        return f"nan(0x{self.bits:0{self.width // 4}x})"


# -- scalar field formats, derived from FIELD_KINDS --------------------------------
_INT_FORMAT = {1: "B", 2: "H", 4: "I", 8: "Q"}
_SIGNED = {"i32", "i64"}
_FLOAT = {"f32": "f", "f64": "d"}


def _scalar_format(kind: str, size: int) -> str:
    if kind in _FLOAT:
        fmt = "<" + _FLOAT[kind]
    elif kind in _SIGNED:
        fmt = "<" + _INT_FORMAT[size].lower()
    else:                       # reg and every index kind: unsigned
        fmt = "<" + _INT_FORMAT[size]
    assert struct.calcsize(fmt) == size, kind
    return fmt


_FORMATS = {k: struct.Struct(_scalar_format(k, n)) for k, n in isa.FIELD_KINDS.items()
            if n is not None}
_U16 = struct.Struct("<H")
_BITS = {"f32": struct.Struct("<I"), "f64": struct.Struct("<Q")}
_TAG_SHIFT = 13
_INDEX_MASK = MAX_REGISTERS - 1
_CANONICAL_NAN = {"f32": 0x7FC00000, "f64": 0x7FF8000000000000}


# -- encoding ------------------------------------------------------------------------
def _enc_reg(op, f, value) -> bytes:
    if isinstance(value, int) and not isinstance(value, bool) and f.bank != "any":
        bank, index = f.bank, value
    else:
        try:
            bank, index = value
        except (TypeError, ValueError):
            raise VmfbError(f"{op.mnemonic}: field '{f.name}' needs a (bank, index) "
                            f"register, got {value!r}") from None
    if bank not in BANK_TAG:
        raise VmfbError(f"{op.mnemonic}: field '{f.name}': unknown bank {bank!r}")
    if f.bank != "any" and bank != f.bank:
        raise VmfbError(f"{op.mnemonic}: field '{f.name}' needs a {f.bank} register, got {bank}")
    if not isinstance(index, int) or not 0 <= index < MAX_REGISTERS:
        raise VmfbError(f"{op.mnemonic}: field '{f.name}': register index {index!r} "
                        f"not in [0, {MAX_REGISTERS})")
    return _U16.pack(BANK_TAG[bank] << _TAG_SHIFT | index)


def _enc_list(op, f, values, item) -> bytes:
    if not isinstance(values, (list, tuple)):
        raise VmfbError(f"{op.mnemonic}: field '{f.name}' needs a list, got {values!r}")
    if len(values) > 0xFFFF:
        raise VmfbError(f"{op.mnemonic}: field '{f.name}' has {len(values)} items (max 65535)")
    return _U16.pack(len(values)) + b"".join(item(v) for v in values)


def _enc_count(op, f, v) -> bytes:
    if not isinstance(v, int) or not 0 <= v <= 0xFFFF:
        raise VmfbError(f"{op.mnemonic}: field '{f.name}': count {v!r} not in [0, 65535]")
    return _U16.pack(v)


def _enc_scalar(op, f, v) -> bytes:
    kind, s = f.kind, _FORMATS[f.kind]
    if kind in _FLOAT:
        if isinstance(v, NaNBits) and v.width == s.size * 8:
            return _BITS[kind].pack(v.bits)
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise VmfbError(f"{op.mnemonic}: field '{f.name}' needs a number, got {v!r}")
        try:
            return s.pack(float(v))
        except OverflowError:   # rounds past the largest finite binary32
            return s.pack(math.copysign(math.inf, v))
    if not isinstance(v, int) or isinstance(v, bool):
        raise VmfbError(f"{op.mnemonic}: field '{f.name}' needs an int, got {v!r}")
    bits = s.size * 8
    if kind in _SIGNED:
        if not -(1 << (bits - 1)) <= v < (1 << bits):
            raise VmfbError(f"{op.mnemonic}: field '{f.name}': {v} does not fit in {kind}")
        v = (v + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))   # wrap unsigned spellings
    elif not 0 <= v < (1 << bits):
        raise VmfbError(f"{op.mnemonic}: field '{f.name}': {v} not in [0, 2**{bits})")
    return s.pack(v)


def encode(mnemonic: str, *operands) -> bytes:
    """Encode one instruction; operands one per table field (internals 3.)."""
    op = BY_MNEMONIC.get(mnemonic)
    if op is None:
        raise VmfbError(f"unknown mnemonic {mnemonic!r}")
    if len(operands) != len(op.fields):
        raise VmfbError(f"{mnemonic} takes {len(op.fields)} operands "
                        f"({', '.join(f.name for f in op.fields)}), got {len(operands)}")
    out = [bytes((op.code,))]
    for f, v in zip(op.fields, operands):
        if f.kind == "reg":
            out.append(_enc_reg(op, f, v))
        elif f.kind == "regs":
            out.append(_enc_list(op, f, v, lambda r, f=f: _enc_reg(op, f, r)))
        elif f.kind == "counts":
            out.append(_enc_list(op, f, v, lambda c, f=f: _enc_count(op, f, c)))
        else:
            out.append(_enc_scalar(op, f, v))
    return b"".join(out)


# -- decoding ------------------------------------------------------------------------
class _Truncated(Exception):
    pass


def _u16(code, pos, end):
    if pos + 2 > end:
        raise _Truncated
    return _U16.unpack_from(code, pos)[0]


def _dec_reg(code, pos, end, f, where):
    v = _u16(code, pos, end)
    tag = v >> _TAG_SHIFT
    if tag >= len(BANKS):
        raise VerificationError(f"field '{f.name}': bad bank tag {tag}", *where)
    bank = BANKS[tag]
    if f.bank != "any" and bank != f.bank:
        raise VerificationError(f"field '{f.name}' needs a {f.bank} register, "
                                f"encoded bank is {bank}", *where)
    return (bank, v & _INDEX_MASK), pos + 2


def _dec_field(code, pos, end, f, where):
    kind = f.kind
    if kind == "reg":
        return _dec_reg(code, pos, end, f, where)
    if kind in ("regs", "counts"):
        n = _u16(code, pos, end)
        pos += 2
        items = []
        for _ in range(n):
            if kind == "regs":
                r, pos = _dec_reg(code, pos, end, f, where)
            else:
                r, pos = _u16(code, pos, end), pos + 2
            items.append(r)
        return tuple(items), pos
    s = _FORMATS[kind]
    if pos + s.size > end:
        raise _Truncated
    v = s.unpack_from(code, pos)[0]
    if kind in _FLOAT and v != v:
        v = NaNBits(_BITS[kind].unpack_from(code, pos)[0], s.size * 8)
    return v, pos + s.size


class _Slow(Exception):
    """The fast decoder met something the generic one must name or handle."""


_NBANKS = len(BANKS)
_RUNS: dict = {}                 # n -> Struct of n u16 (register and count lists)


def _run_struct(n: int) -> struct.Struct:
    st = _RUNS.get(n)
    if st is None:
        st = _RUNS[n] = struct.Struct(f"<{n}H")
    return st


def _fast_plan(op):
    """``op``'s operands as steps: ("fixed", Struct, [(index, field)] of
    registers, has_float) for a run of fixed-size fields (one unpack), or
    ("regs" / "counts", field) for a length-prefixed list."""
    steps, fmt, fields = [], "", []

    def close():
        if fields:
            regs = [(i, f) for i, f in enumerate(fields) if f.kind == "reg"]
            steps.append(("fixed", struct.Struct("<" + fmt), regs, len(fields),
                          any(f.kind in _FLOAT for f in fields)))
    for f in op.fields:
        if f.kind in ("regs", "counts"):
            close()
            fmt, fields = "", []
            steps.append((f.kind, f))
        else:
            fmt += _FORMATS[f.kind].format[1:]
            fields.append(f)
    close()
    return steps


_PLANS = [_fast_plan(op) for op in BY_CODE]


class _RegCache(dict):
    """Encoded register -> (bank, index) for a field taking bank ``want``
    ("any": every bank), filled as registers are met: one lookup per operand
    instead of shifts, masks and checks; an invalid one raises _Slow."""

    def __init__(self, want: str):
        super().__init__()
        self.want = want

    def __missing__(self, v):
        tag = v >> _TAG_SHIFT
        if tag >= _NBANKS or self.want not in ("any", BANKS[tag]):
            raise _Slow
        r = self[v] = (BANKS[tag], v & _INDEX_MASK)
        return r


_REG_CACHES = {b: _RegCache(b) for b in (*BANKS, "any")}


def _decode_fast(code, pos, end, steps):
    """(operands, next pos) of one instruction, or _Slow."""
    vals = []
    for step in steps:
        kind = step[0]
        if kind == "fixed":
            st, regs, n, has_float = step[1], step[2], step[3], step[4]
            if pos + st.size > end:
                raise _Slow
            got = list(st.unpack_from(code, pos))
            if has_float and any(x != x for x in got):
                raise _Slow                      # NaN payloads: the generic path keeps bits
            for i, f in regs:
                got[i] = _REG_CACHES[f.bank][got[i]]
            vals += got
            pos += st.size
        else:
            if pos + 2 > end:
                raise _Slow
            n = _U16.unpack_from(code, pos)[0]
            pos += 2
            if pos + 2 * n > end:
                raise _Slow
            items = _run_struct(n).unpack_from(code, pos) if n else ()
            pos += 2 * n
            f = step[1]
            if kind == "regs":
                items = tuple(map(_REG_CACHES[f.bank].__getitem__, items))
            vals.append(tuple(items))
    return tuple(vals), pos


def decode_function(code, function: str | None = None) -> list:
    """Decode a function's bytecode into Instructions.

    Raises VerificationError (a VmfbError) with the pc for an unknown opcode,
    a truncated operand or a register whose bank tag is invalid or does not
    match its field.  Branch targets and indices are not range-checked here
    (that is the runtime verifier's job).
    """
    code = memoryview(code).cast("B") if not isinstance(code, (bytes, bytearray)) else code
    end, pc, out = len(code), 0, []
    while pc < end:
        opcode = code[pc]
        if opcode >= len(BY_CODE):
            raise VerificationError(f"unknown opcode {opcode}", function, pc)
        op = BY_CODE[opcode]
        try:
            vals, pos = _decode_fast(code, pc + 1, end, _PLANS[opcode])
        except _Slow:                # the generic decoder names the defect
            where = (function, pc)
            pos, vals = pc + 1, []
            try:
                for f in op.fields:
                    v, pos = _dec_field(code, pos, end, f, where)
                    vals.append(v)
            except _Truncated:
                raise VerificationError(f"{op.mnemonic}: operand '{f.name}' truncated by the "
                                        f"end of the code ({end} bytes)", function, pc) from None
            vals = tuple(vals)
        out.append(Instruction(pc, op, vals))
        pc = pos
    return out


# -- text ------------------------------------------------------------------------------
_BARE_NAME = re.compile(r"[A-Za-z0-9_.$\-]+\Z")


def format_reg(reg) -> str:
    bank, index = reg
    return f"%{BANK_CHAR[bank]}{index}"


def format_symbol(name: str) -> str:
    """``@name``, quoted (JSON) when the name is not a bare identifier."""
    return "@" + (name if _BARE_NAME.match(name) else json.dumps(name, ensure_ascii=False))


def format_float(value: float, kind: str) -> str:
    """Shortest decimal that encodes back to the same bits in ``kind``."""
    if isinstance(value, NaNBits):
        if value.bits == _CANONICAL_NAN[kind]:
            return "nan"
        return f"nan(0x{value.bits:0{value.width // 4}x})"
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    s = _FORMATS[kind]
    target = s.pack(value)
    for digits in range(1, 18):
        text = f"{value:.{digits}g}"
        if s.pack(float(text)) == target:
            break
    else:
        text = repr(value)
    return text if any(c in text for c in ".en") else text + ".0"


# The name_of / resolve table of each ref-global initializer operand kind
# (model.INITIALIZER_OPERANDS): assembly calls the executables' table "exe".
INITIALIZER_TABLES = {"global": "global", "rodata": "rodata", "executable": "exe"}


def module_namer(module) -> Callable[[str, int], str]:
    """name_of(kind, index) for format_instruction: symbols from ``module``
    where they resolve back uniquely, ``#index`` otherwise."""
    tables = {}
    if module is not None:
        tables = {
            "func": [f.name for f in module.functions],
            "import": [None if "." in i.module else f"{i.module}.{i.name}" for i in module.imports],
            "global": [g.name for g in module.globals],
            "rodata": [r.name for r in module.rodata],
            "exe": [e.name for e in module.executables],
        }
        strings = list(module.strings)

    def name_of(kind: str, index: int) -> str:
        if module is not None and kind == "str":
            if index < len(strings) and strings.index(strings[index]) == index:
                return json.dumps(strings[index], ensure_ascii=False)
        names = tables.get(kind)
        if names is not None and index < len(names):
            name = names[index]
            if name is not None and names.count(name) == 1:
                return format_symbol(name)
        return f"#{index}"

    return name_of


def format_instruction(ins: Instruction, name_of=None, label_of=None, signature_of=None) -> str:
    """Assembly text for one instruction (the syntax of docs/internals.md 3.).

    ``name_of(kind, index)`` spells index operands, ``label_of(pc)`` branch
    targets, ``signature_of(kind, index)`` returns a model.Signature for a
    callee (needed to print variadic runs of call.import as ``[..]`` lists).
    """
    name_of = name_of or (lambda kind, i: f"#{i}")
    label_of = label_of or (lambda pc: f"#{pc}")
    lhs, rhs, callee, segments = [], [], None, None
    for f, v in zip(ins.op.fields, ins.operands):
        if f.role == "w" and f.kind in ("reg", "regs"):
            lhs.extend(format_reg(r) for r in (v if f.kind == "regs" else (v,)))
        elif f.kind == "reg":
            rhs.append(format_reg(v))
        elif f.kind == "counts":
            segments = v
        elif f.kind == "regs":
            if callee is None:
                rhs.extend(format_reg(r) for r in v)
            else:
                sig = signature_of(*callee) if signature_of and segments is not None else None
                rhs[-1] += "(" + _format_args(v, segments, sig) + ")"
        elif f.kind in ("i32", "i64"):
            rhs.append(str(v))
        elif f.kind in _FLOAT:
            rhs.append(format_float(v, f.kind))
        elif f.kind == "block":
            rhs.append(label_of(v))
        else:
            rhs.append(name_of(f.kind, v))
            if f.kind in ("func", "import"):
                callee = (f.kind, v)
    text = ins.op.mnemonic + (" " + ", ".join(rhs) if rhs else "")
    return (", ".join(lhs) + " = " + text) if lhs else text


def _format_args(regs, segments, sig) -> str:
    names = [format_reg(r) for r in regs]
    if segments is None:
        return ", ".join(names)
    variadic = [p.variadic for p in sig.args] if sig is not None else None
    if variadic is None or variadic.count(True) != len(segments) or \
            len(variadic) - len(segments) + sum(segments) != len(regs):
        return "<" + ", ".join(map(str, segments)) + "> " + ", ".join(names)
    out, pos, seg = [], 0, iter(segments)
    for is_var in variadic:
        if is_var:
            n = next(seg)
            out.append("[" + ", ".join(names[pos:pos + n]) + "]")
            pos += n
        else:
            out.append(names[pos])
            pos += 1
    return ", ".join(out)


def block_starts(instructions) -> list:
    """Sorted pcs that need a label: the entry and every branch target that
    falls on an instruction boundary."""
    pcs = {ins.pc for ins in instructions}
    targets = {0}
    for ins in instructions:
        for f, v in zip(ins.op.fields, ins.operands):
            if f.kind == "block" and v in pcs:
                targets.add(v)
    return sorted(targets)


def disassemble(code, module=None) -> str:
    """A listing of ``code``: pc column, labels ``L<pc>:`` at branch targets,
    one instruction per line; names from ``module`` when given."""
    from .model import parse_signature
    instructions = decode_function(code)
    labels = set(block_starts(instructions))
    name_of = module_namer(module)

    def signature_of(kind, index):
        table = module.functions if kind == "func" else module.imports
        try:
            return parse_signature(table[index].signature)
        except (IndexError, VmfbError):
            return None

    lines = []
    for ins in instructions:
        if ins.pc in labels:
            lines.append(f"L{ins.pc}:")
        text = format_instruction(ins, name_of, lambda pc: f"L{pc}" if pc in labels else f"#{pc}",
                                  signature_of if module is not None else None)
        lines.append(f"  {ins.pc:6d}  {text}")
    return "\n".join(lines) + ("\n" if lines else "")
