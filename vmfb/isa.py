"""The VM instruction set: the one table every tool derives from.

The encoder, decoder, verifier, disassembler and assembler are generated from
``OPS``; nothing else in tensorvm may hard-code an opcode number or an operand
layout.  ``docs/isa.md`` is generated from this table as well.

Encoding of one instruction (all integers little-endian)::

    +--------+-----------------------------------------------+
    | opcode | operand fields, in table order, no padding     |
    |  u8    |                                               |
    +--------+-----------------------------------------------+

    reg     u16   bits 15..13 bank tag (BANKS index), bits 12..0 register index
    regs    u16 count, then count x reg (each tagged with its own bank)
    counts  u16 count, then count x u16 (segment sizes of variadic calls)
    i32     4 bytes two's complement        i64   8 bytes two's complement
    f32     4 bytes IEEE-754 binary32       f64   8 bytes IEEE-754 binary64
    block   u32 byte offset of the target instruction inside the function
    func / import / global / rodata / str / exe
            u32 index into the module's function / import / global /
            rodata / string / executable table

A register operand's bank tag must equal the bank the table gives for that
field (``any`` fields accept every bank); the verifier checks this.
"""
from __future__ import annotations

from typing import NamedTuple

# Register banks, in tag order.  The tag is the position in this tuple.
BANKS = ("i32", "i64", "f32", "f64", "ref")
BANK_TAG = {name: i for i, name in enumerate(BANKS)}
# Characters of calling-convention strings ("rI*r->r"): one per bank.
BANK_CHAR = {"i32": "i", "i64": "I", "f32": "f", "f64": "F", "ref": "r"}
CHAR_BANK = {c: b for b, c in BANK_CHAR.items()}
MAX_REGISTERS = 1 << 13

# Operand field kinds and their encoded sizes (None: variable length).
FIELD_KINDS = {
    "reg": 2, "regs": None, "counts": None,
    "i32": 4, "i64": 8, "f32": 4, "f64": 8,
    "block": 4, "func": 4, "import": 4, "global": 4,
    "rodata": 4, "str": 4, "exe": 4,
}


class Field(NamedTuple):
    """One operand: ``kind`` from FIELD_KINDS; for reg/regs the ``bank``
    (a BANKS name or ``any``) and ``role`` (``r`` read, ``w`` written)."""
    name: str
    kind: str
    bank: str | None = None
    role: str = "r"


class OpDef(NamedTuple):
    code: int
    mnemonic: str
    fields: tuple
    meaning: str
    # True for instructions that end a basic block (no fall-through).
    terminator: bool = False


def _r(name, bank):
    return Field(name, "reg", bank, "r")


def _w(name, bank):
    return Field(name, "reg", bank, "w")


_SPECS: list[tuple] = []


def _op(mnemonic, fields, meaning, terminator=False):
    _SPECS.append((mnemonic, tuple(fields), meaning, terminator))


# -- constants ---------------------------------------------------------------
for _b in ("i32", "i64", "f32", "f64"):
    _op(f"const.{_b}", [_w("dst", _b), Field("value", _b)], "dst = value")
_op("const.ref.null", [_w("dst", "ref")], "dst = null")
_op("const.ref.rodata", [_w("dst", "ref"), Field("rodata", "rodata")],
    "dst = read-only byte buffer of rodata[rodata] (zero-copy view of the file)")
_op("const.ref.str", [_w("dst", "ref"), Field("str", "str")], "dst = strings[str]")
_op("const.ref.executable", [_w("dst", "ref"), Field("exe", "exe")],
    "dst = executables[exe] (its variants, for hal.executable.load)")

# -- moves and selects ---------------------------------------------------------
for _b in BANKS:
    _op(f"mov.{_b}", [_w("dst", _b), _r("src", _b)], "dst = src")
for _b in BANKS:
    _op(f"select.{_b}", [_w("dst", _b), _r("cond", "i32"), _r("a", _b), _r("b", _b)],
        "dst = cond != 0 ? a : b")

# -- integer arithmetic (wrapping two's complement) ------------------------------
_INT_BINARY = [
    ("add", "a + b"), ("sub", "a - b"), ("mul", "a * b"),
    ("div.s", "a / b, signed, truncating; traps on b == 0"),
    ("div.u", "a / b, unsigned; traps on b == 0"),
    ("rem.s", "a % b, signed, sign of a; traps on b == 0"),
    ("rem.u", "a % b, unsigned; traps on b == 0"),
    ("and", "a & b"), ("or", "a | b"), ("xor", "a ^ b"),
    ("shl", "a << (b mod width)"), ("shr.s", "a >> (b mod width), arithmetic"),
    ("shr.u", "a >> (b mod width), logical"),
    ("min.s", "min(a, b), signed"), ("max.s", "max(a, b), signed"),
    ("min.u", "min(a, b), unsigned"), ("max.u", "max(a, b), unsigned"),
]
_INT_UNARY = [("neg", "-a"), ("not", "~a"), ("abs", "|a|")]
for _b in ("i32", "i64"):
    for _m, _mean in _INT_BINARY:
        _op(f"{_m}.{_b}", [_w("dst", _b), _r("a", _b), _r("b", _b)], f"dst = {_mean}")
    for _m, _mean in _INT_UNARY:
        _op(f"{_m}.{_b}", [_w("dst", _b), _r("a", _b)], f"dst = {_mean}")

# -- float arithmetic (IEEE, results rounded to the bank's width) ---------------
_FLOAT_BINARY = [
    ("add", "a + b"), ("sub", "a - b"), ("mul", "a * b"), ("div", "a / b"),
    ("rem", "fmod(a, b)"), ("min", "min(a, b), NaN if either is NaN"),
    ("max", "max(a, b), NaN if either is NaN"), ("pow", "a ** b"),
    ("atan2", "atan2(a, b)"),
]
_FLOAT_UNARY = [
    ("neg", "-a"), ("abs", "|a|"), ("sqrt", "sqrt(a)"), ("exp", "e ** a"),
    ("log", "ln(a)"), ("floor", "floor(a)"), ("ceil", "ceil(a)"),
    ("round", "round half to even"), ("sin", "sin(a)"), ("cos", "cos(a)"),
    ("tanh", "tanh(a)"),
]
for _b in ("f32", "f64"):
    for _m, _mean in _FLOAT_BINARY:
        _op(f"{_m}.{_b}", [_w("dst", _b), _r("a", _b), _r("b", _b)], f"dst = {_mean}")
    for _m, _mean in _FLOAT_UNARY:
        _op(f"{_m}.{_b}", [_w("dst", _b), _r("a", _b)], f"dst = {_mean}")

# -- comparisons (result 1 or 0 in an i32 register) -----------------------------
for _b in ("i32", "i64"):
    for _m, _mean in [("eq", "a == b"), ("ne", "a != b"),
                      ("lt.s", "a < b, signed"), ("le.s", "a <= b, signed"),
                      ("gt.s", "a > b, signed"), ("ge.s", "a >= b, signed"),
                      ("lt.u", "a < b, unsigned"), ("le.u", "a <= b, unsigned"),
                      ("gt.u", "a > b, unsigned"), ("ge.u", "a >= b, unsigned")]:
        _op(f"cmp.{_m}.{_b}", [_w("dst", "i32"), _r("a", _b), _r("b", _b)], f"dst = {_mean}")
for _b in ("f32", "f64"):
    for _m, _mean in [("eq", "a == b"), ("ne", "a != b (true if unordered)"),
                      ("lt", "a < b"), ("le", "a <= b"), ("gt", "a > b"),
                      ("ge", "a >= b"), ("nan", "a is NaN")]:
        fields = [_w("dst", "i32"), _r("a", _b)] + ([] if _m == "nan" else [_r("b", _b)])
        _op(f"cmp.{_m}.{_b}", fields, f"dst = {_mean}")
_op("cmp.eq.ref", [_w("dst", "i32"), _r("a", "ref"), _r("b", "ref")], "dst = a is b")
_op("cmp.nz.ref", [_w("dst", "i32"), _r("a", "ref")], "dst = a is not null")

# -- conversions ----------------------------------------------------------------
for _src, _dst, _name, _mean in [
    ("i32", "i64", "ext.i32.i64.s", "sign-extend"),
    ("i32", "i64", "ext.i32.i64.u", "zero-extend"),
    ("i64", "i32", "trunc.i64.i32", "keep the low 32 bits"),
    ("i32", "f32", "cast.i32.f32.s", "signed int to float"),
    ("i32", "f64", "cast.i32.f64.s", "signed int to float"),
    ("i64", "f32", "cast.i64.f32.s", "signed int to float"),
    ("i64", "f64", "cast.i64.f64.s", "signed int to float"),
    ("f32", "i32", "cast.f32.i32.s", "float to signed int, toward zero; traps if out of range or NaN"),
    ("f64", "i32", "cast.f64.i32.s", "float to signed int, toward zero; traps if out of range or NaN"),
    ("f32", "i64", "cast.f32.i64.s", "float to signed int, toward zero; traps if out of range or NaN"),
    ("f64", "i64", "cast.f64.i64.s", "float to signed int, toward zero; traps if out of range or NaN"),
    ("f32", "f64", "ext.f32.f64", "widen"),
    ("f64", "f32", "trunc.f64.f32", "round to nearest binary32"),
]:
    _op(_name, [_w("dst", _dst), _r("src", _src)], f"dst = {_mean}(src)")

# -- control flow -----------------------------------------------------------------
_op("br", [Field("target", "block")], "pc = target", terminator=True)
_op("cond_br", [_r("cond", "i32"), Field("if_true", "block"), Field("if_false", "block")],
    "pc = cond != 0 ? if_true : if_false", terminator=True)
_op("call", [Field("callee", "func"), Field("args", "regs", "any", "r"),
             Field("results", "regs", "any", "w")],
    "results = functions[callee](args)")
_op("call.import", [Field("callee", "import"), Field("segments", "counts"),
                    Field("args", "regs", "any", "r"),
                    Field("results", "regs", "any", "w")],
    "results = imports[callee](args); segments give the length of each "
    "variadic (*x) parameter of the import's signature, in order")
_op("ret", [Field("values", "regs", "any", "r")], "return values to the caller",
    terminator=True)
_op("fail", [_r("code", "i32"), Field("message", "str")],
    "raise VmTrap(code, strings[message]) unless code == 0, then continue",)
_op("yield", [Field("target", "block")],
    "suspend the invocation; when resumed, pc = target", terminator=True)

# -- globals ---------------------------------------------------------------------
for _b in BANKS:
    _op(f"global.load.{_b}", [_w("dst", _b), Field("global", "global")], "dst = globals[global]")
    _op(f"global.store.{_b}", [_r("src", _b), Field("global", "global")], "globals[global] = src")

# -- lists (ref-typed, growable, elements of any bank) -----------------------------
_op("list.alloc", [_w("dst", "ref"), _r("capacity", "i32")], "dst = new empty list")
_op("list.size", [_w("dst", "i32"), _r("list", "ref")], "dst = len(list)")
_op("list.resize", [_r("list", "ref"), _r("size", "i32")],
    "resize list; new elements are 0 / null")
for _b in BANKS:
    _op(f"list.get.{_b}", [_w("dst", _b), _r("list", "ref"), _r("index", "i32")],
        "dst = list[index]; traps when out of range")
    _op(f"list.set.{_b}", [_r("list", "ref"), _r("index", "i32"), _r("value", _b)],
        "list[index] = value; traps when out of range")

# -- byte buffers (rodata or VM-allocated, little-endian element access) ---------
_op("buffer.alloc", [_w("dst", "ref"), _r("length", "i64")], "dst = zeroed byte buffer")
_op("buffer.length", [_w("dst", "i64"), _r("buffer", "ref")], "dst = len(buffer)")
for _b in ("i32", "i64", "f32", "f64"):
    _op(f"buffer.load.{_b}", [_w("dst", _b), _r("buffer", "ref"), _r("offset", "i64")],
        "dst = buffer[offset : offset + size]; traps when out of bounds")
    _op(f"buffer.store.{_b}", [_r("buffer", "ref"), _r("offset", "i64"), _r("value", _b)],
        "buffer[offset : offset + size] = value; traps when out of bounds or read-only")

# -- bit casts (appended: opcodes are never renumbered) -------------------------------
for _src, _dst in (("f32", "i32"), ("i32", "f32"), ("f64", "i64"), ("i64", "f64")):
    _op(f"bitcast.{_src}.{_dst}", [_w("dst", _dst), _r("src", _src)],
        "dst = the bits of src reinterpreted (IEEE-754 <-> two's complement)")

OPS: tuple = tuple(
    OpDef(code, mnemonic, fields, meaning, terminator)
    for code, (mnemonic, fields, meaning, terminator) in enumerate(_SPECS)
)
assert len(OPS) <= 256, "opcodes are one byte"
BY_MNEMONIC = {op.mnemonic: op for op in OPS}
BY_CODE = OPS  # OPS[code] is the OpDef of that opcode
del _b, _m, _mean, _src, _dst, _name
