"""Encoder, decoder, disassembler and assembler agree on every opcode of isa.OPS."""
import math
import random
import struct

import pytest

from tensorvm.vmfb import isa
from tensorvm.vmfb.assembler import assemble, disassemble_module
from tensorvm.vmfb.bytecode import (Instruction, NaNBits, decode_function, disassemble,
                                    encode)
from tensorvm.vmfb.errors import VerificationError, VmfbError
from tensorvm.vmfb.model import (EntryPoint, ExecutableDef, ExecutableVariant, FunctionDef,
                                 GlobalDef, ImportDef, ModuleDef, Param, RodataDef, Signature)


def _reg(rng, bank):
    bank = rng.choice(isa.BANKS) if bank == "any" else bank
    return (bank, rng.choice([0, 1, 2, rng.randrange(isa.MAX_REGISTERS)]))


def _f32(rng):
    return struct.unpack("<f", struct.pack("<f", rng.uniform(-1e30, 1e30)))[0]


_SCALARS = {
    "i32": lambda rng: rng.choice([0, -1, 2**31 - 1, -2**31, rng.randrange(-2**31, 2**31)]),
    "i64": lambda rng: rng.choice([0, -1, 2**63 - 1, -2**63, rng.randrange(-2**63, 2**63)]),
    "f32": lambda rng: rng.choice([0.0, -0.0, 1.5, math.inf, -math.inf, _f32(rng),
                                   NaNBits(0x7FC00000, 32), NaNBits(0xFF800001, 32)]),
    "f64": lambda rng: rng.choice([0.0, -2.5, 1e300, math.inf, rng.uniform(-1e9, 1e9),
                                   NaNBits(0x7FF8000000000000, 64), NaNBits(0x7FF0000000000002, 64)]),
}


def generate(op, rng, module: ModuleDef):
    """Operands for ``op`` plus the module entries they need (callees, ...)."""
    vals, params = [], None
    for f in op.fields:
        k = f.kind
        if k == "reg":
            vals.append(_reg(rng, f.bank))
        elif k == "regs" and f.role == "r" and params is not None:
            vals.append(tuple(r for p, n in params
                              for r in [_reg(rng, p.bank) for _ in range(n)]))
        elif k == "regs":
            vals.append(tuple(_reg(rng, f.bank) for _ in range(rng.randrange(4))))
        elif k == "counts":
            vals.append(tuple(n for p, n in params if p.variadic))
        elif k in _SCALARS:
            vals.append(_SCALARS[k](rng))
        elif k == "block":
            vals.append(rng.choice([0, 3]))
        elif k in ("func", "import"):
            params = [(Param(rng.choice(isa.BANKS), k == "import" and rng.random() < .5), 0)
                      for _ in range(rng.randrange(4))]
            params = [(p, rng.randrange(3) if p.variadic else 1) for p, _ in params]
            vals.append(None)      # patched below once the results are known
        else:
            table = {"global": module.globals, "rodata": module.rodata,
                     "exe": module.executables, "str": module.strings}[k]
            vals.append(rng.randrange(len(table)))
    for i, f in enumerate(op.fields):
        if f.kind in ("func", "import"):
            results = vals[-1] if op.fields[-1].role == "w" else ()
            sig = str(Signature(tuple(p for p, _ in params),
                                tuple(Param(b) for b, _ in results)))
            if f.kind == "func":
                ret = encode("ret", tuple((b, 0) for b, _ in results))
                regs = {b: 1 + sum(p.bank == b for p, _ in params) for b in isa.BANKS}
                module.functions.append(FunctionDef(f"callee{len(module.functions)}", sig, regs, ret))
                vals[i] = len(module.functions) - 1
            else:
                module.imports.append(ImportDef("mod", f"fn{len(module.imports)}", sig))
                vals[i] = len(module.imports) - 1
    return tuple(vals)


def _same(a, b):
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, NaNBits) and a.bits == b.bits
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b) or (isinstance(a, int) and a == b)


def _base_module():
    return ModuleDef(
        name="all_ops",
        globals=[GlobalDef(f"g_{b}", b, None if b == "ref" else 0) for b in isa.BANKS],
        rodata=[RodataDef("r0", b"\x01\x02"), RodataDef("weird name", b"", 16)],
        strings=["hello", "quote \" and \n newline", "hello"],
        executables=[ExecutableDef("exe0", [ExecutableVariant(
            "cpu-c-x86_64", {"features": []}, [EntryPoint("e", 1, 0)], b"\0")])])


@pytest.mark.parametrize("seed", range(3))
def test_every_opcode_round_trips(seed):
    rng = random.Random(seed)
    module = _base_module()
    cases = []
    for op in isa.OPS:
        operands = generate(op, rng, module)
        code = encode(op.mnemonic, *operands)
        (ins,) = decode_function(code)
        assert ins.pc == 0 and ins.op is op
        assert _same(operands, ins.operands), (op.mnemonic, operands, ins.operands)
        assert encode(op.mnemonic, *ins.operands) == code
        assert op.mnemonic in disassemble(code, module)
        cases.append((op, operands, code))
    for op, operands, code in cases:
        results = ()
        if op.mnemonic == "ret":
            results = tuple(Param(b) for b, _ in operands[0])
        used = {b: 1 + max([i for bank, i in _regs_of(op, operands) if bank == b], default=-1)
                for b in isa.BANKS}
        if rng.random() < .3:
            used["f64"] += 5       # declared more than used: printed as registers(...)
        module.functions.append(FunctionDef(f"op_{op.code}", str(Signature((), results)),
                                            used, code, exported=rng.random() < .5))
    text = disassemble_module(module)
    again = assemble(text, base=ModuleDef("x", executables=module.executables))
    assert again.name == module.name
    assert again.strings == module.strings
    assert [(i.module, i.name, i.signature) for i in again.imports] == \
        [(i.module, i.name, i.signature) for i in module.imports]
    for a, b in zip(module.functions, again.functions, strict=True):
        assert bytes(a.code) == bytes(b.code), (a.name, text)
        assert (a.name, a.signature, a.registers, a.exported) == \
            (b.name, b.signature, b.registers, b.exported)
    assert disassemble_module(again) == text


def _regs_of(op, operands):
    for f, v in zip(op.fields, operands):
        if f.kind == "reg":
            yield v
        elif f.kind == "regs":
            yield from v


def test_table_field_kinds_are_known():
    for op in isa.OPS:
        for f in op.fields:
            assert f.kind in isa.FIELD_KINDS
            if f.kind in ("reg", "regs"):
                assert f.bank in isa.BANKS + ("any",) and f.role in "rw"


def test_decode_sequence_and_pcs():
    code = encode("const.i32", ("i32", 0), 7) + encode("br", 0) + encode("ret", [("i32", 0)])
    ins = decode_function(code)
    assert [i.pc for i in ins] == [0, 7, 12]
    assert isinstance(ins[0], Instruction) and ins[2].operands == ((("i32", 0),),)
    assert decode_function(memoryview(code)) == ins


def test_encode_accepts_bare_index_and_unsigned_spelling():
    assert encode("const.i32", 3, 0xFFFFFFFF) == encode("const.i32", ("i32", 3), -1)
    assert decode_function(encode("const.f32", 0, 1e39))[0].operands[1] == math.inf


@pytest.mark.parametrize("mnemonic, operands, message", [
    ("nope", (), "unknown mnemonic"),
    ("add.i32", (0, 1), "takes 3 operands"),
    ("add.i32", (("f32", 0), 1, 2), "needs a i32 register"),
    ("const.i32", (0, 2**32), "does not fit"),
    ("mov.i32", (0, isa.MAX_REGISTERS), "register index"),
    ("br", (-1,), "not in"),
    ("ret", ([("bogus", 0)],), "unknown bank"),
    ("const.f32", (0, "x"), "needs a number"),
])
def test_encode_errors(mnemonic, operands, message):
    with pytest.raises(VmfbError, match=message):
        encode(mnemonic, *operands)


def test_decode_errors_are_vmfb_errors():
    good = encode("call.import", 1, [2], [("ref", 1), ("ref", 2)], [("i32", 0)])
    for n in range(1, len(good)):
        with pytest.raises(VerificationError, match="truncated") as e:
            decode_function(good[:n], "f")
        assert e.value.pc == 0 and e.value.function == "f"
    with pytest.raises(VerificationError, match="unknown opcode 255"):
        decode_function(encode("br", 0) + b"\xff")
    bad_tag = bytes([isa.BY_MNEMONIC["ret"].code]) + struct.pack("<HH", 1, 7 << 13)
    with pytest.raises(VerificationError, match="bad bank tag 7"):
        decode_function(bad_tag)
    wrong_bank = bytes([isa.BY_MNEMONIC["mov.i32"].code]) + struct.pack("<HH", 0, 4 << 13)
    with pytest.raises(VerificationError, match="needs a i32 register"):
        decode_function(wrong_bank)


def _first_defect(blob: bytes):
    """The encoding of docs/isa.md read straight from isa.OPS, one instruction
    at a time: (pc, message) of the first defect decode_function must report,
    or (None, mnemonics) for a valid blob."""
    pc, names = 0, []
    while pc < len(blob):
        if blob[pc] >= len(isa.OPS):
            return pc, f"unknown opcode {blob[pc]}"
        op = isa.OPS[blob[pc]]
        pos = pc + 1

        def u16():
            nonlocal pos
            if pos + 2 > len(blob):
                raise EOFError
            pos += 2
            return struct.unpack_from("<H", blob, pos - 2)[0]

        for f in op.fields:
            try:
                if f.kind in ("reg", "regs", "counts"):
                    n = 1 if f.kind == "reg" else u16()
                    for _ in range(n):
                        v = u16()
                        if f.kind == "counts":
                            continue
                        if v >> 13 >= len(isa.BANKS):
                            return pc, f"field '{f.name}': bad bank tag {v >> 13}"
                        if f.bank != "any" and isa.BANKS[v >> 13] != f.bank:
                            return pc, (f"field '{f.name}' needs a {f.bank} register, "
                                        f"encoded bank is {isa.BANKS[v >> 13]}")
                else:
                    pos += isa.FIELD_KINDS[f.kind]
                    if pos > len(blob):
                        raise EOFError
            except EOFError:
                return pc, (f"{op.mnemonic}: operand '{f.name}' truncated by the end of the "
                            f"code ({len(blob)} bytes)")
        names.append(op.mnemonic)
        pc = pos
    return None, names


def test_decode_random_bytes_raises_the_exact_defect():
    """Random bytes (biased to real opcodes) decode to exactly the instructions
    the ISA's encoding gives, or raise VerificationError at the pc and with the
    message of the first defect, never another error."""
    rng = random.Random(1)
    seen = set()
    for _ in range(3000):
        blob = bytes(rng.randrange(len(isa.OPS) + 8) if k == 0 or rng.random() < .3
                     else rng.randrange(256) for k in range(rng.randrange(1, 24)))
        pc, want = _first_defect(blob)
        if pc is None:
            assert [i.op.mnemonic for i in decode_function(blob, "f")] == want, blob.hex()
            seen.add("valid")
            continue
        with pytest.raises(VerificationError) as e:
            decode_function(blob, "f")
        assert type(e.value) is VerificationError and (e.value.function, e.value.pc) == ("f", pc)
        assert str(e.value) == f"in function 'f' at pc {pc}: {want}", blob.hex()
        seen.add(next(k for k in ("unknown opcode", "truncated", "bad bank tag", "register")
                      if k in want))
    assert seen == {"valid", "unknown opcode", "truncated", "bad bank tag", "register"}, seen


def test_disassembly_reads_streamed_rodata_only_as_far_as_it_prints():
    """A compile's rodata may be a streamed payload (keep_source disassembles
    the module it built): the listing shows its size and first bytes."""
    import numpy as np
    from tensorvm.vmfb.disasm import disassemble_module as listing
    from tensorvm.vmfb.model import ModuleDef, RodataDef
    from tensorvm.vmfb.payload import Pieces
    m = ModuleDef("m")
    m.rodata.append(RodataDef("w", Pieces.of([np.arange(3, dtype=np.uint8), b"\x07\x08"])))
    assert '; rodata @w: 5 bytes, begins hex"0001"' in listing(m, max_rodata_bytes=2)
    assert 'rodata @w = hex"0001020708"' in listing(m)
