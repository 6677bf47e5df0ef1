"""Text assembly: the syntax of docs/internals.md 3., round trips, and errors."""
import random

import pytest

from tensorvm.vmfb.assembler import AssemblyError, assemble, disassemble_module
from tensorvm.vmfb.bytecode import decode_function
from tensorvm.vmfb.model import EntryPoint, ExecutableDef, ExecutableVariant, ModuleDef

DEMO = """\
module @demo
import @hal.fence.await(i, *r) -> (i)
import @hal.buffer_view.create(r, I, I, i32, *I) -> (ref)
global @counter : i32 = 0
global @scale : f32 = 0.5
global @dev : ref
rodata @table = hex"01 02 0304 05"
rodata @text = "hi" align 16
string "a message"                       ; optional, strings may also appear inline

func @add1(%x: i32) -> (i32) export {
entry:
  %one = const.i32 1
  %y = add.i32 %x, %one
  ret %y
}
func @test_loop() -> () export {
entry:
  %i = const.i32 0
  %n = const.i32 10
  br loop
loop:
  %one = const.i32 1
  %i = add.i32 %i, %one          ; registers are named, not SSA: reassigning is fine
  %c = cmp.lt.s.i32 %i, %n
  cond_br %c, loop, done
done:
  %bad = cmp.ne.i32 %i, %n
  fail %bad, "loop did not run 10 times"
  %m = const.ref.str "a message"
  %t = const.ref.rodata @table
  %e = const.ref.executable @exe
  %f = global.load.ref @dev
  %timeout = const.i32 100
  %r = call.import @hal.fence.await(%timeout, [%f, %f])
  %r2 = call.import @hal.fence.await(%timeout, [])
  %z = call @add1(%r)
  %a, %b = call @two(%z, %f)
  ret
}
func @two(%p: i32, %q: ref) -> (ref, i32) {
  ret %q, %p
}
"""


def _base():
    exe = ExecutableDef("exe", [ExecutableVariant("opencl-c", {}, [EntryPoint("k", 2, 1)], b"src")])
    return ModuleDef("base", executables=[exe])


def test_demo_assembles():
    m = assemble(DEMO, base=_base())
    assert m.name == "demo"
    assert [f.name for f in m.functions] == ["add1", "test_loop", "two"]
    add1, loop, two = m.functions
    assert add1.signature == "i->i" and add1.exported and not two.exported
    assert two.signature == "ir->ri"
    assert add1.registers == {"i32": 3, "i64": 0, "f32": 0, "f64": 0, "ref": 0}
    assert m.imports[0].module == "hal" and m.imports[0].name == "fence.await"
    assert m.imports[0].signature == "i*r->i" and m.imports[1].signature == "rIIi*I->r"
    assert m.strings == ["a message", "loop did not run 10 times"]
    assert bytes(m.rodata[0].data) == b"\x01\x02\x03\x04\x05" and m.rodata[1].alignment == 16
    assert m.globals[1].initial == 0.5 and m.globals[2].initial is None
    ins = decode_function(add1.code)
    assert [i.op.mnemonic for i in ins] == ["const.i32", "add.i32", "ret"]
    assert ins[1].operands == (("i32", 2), ("i32", 0), ("i32", 1))   # %x is the first i32
    by = {i.op.mnemonic: i for i in decode_function(loop.code)}
    loop_pc = decode_function(loop.code)[3].pc
    assert by["cond_br"].operands[1] == loop_pc                       # backward
    assert by["cond_br"].operands[2] == decode_function(loop.code)[7].pc   # forward
    imp = [i for i in decode_function(loop.code) if i.op.mnemonic == "call.import"]
    assert imp[0].operands[1] == (2,) and len(imp[0].operands[2]) == 3
    assert imp[1].operands[1] == (0,) and len(imp[1].operands[2]) == 1
    callee, args, results = by["call"].operands      # the last call: @two
    assert callee == 2 and [b for b, _ in args] == ["i32", "ref"]
    assert [b for b, _ in results] == ["ref", "i32"]
    assert m.executables[0].name == "exe" and len(_base().functions) == 0


def test_round_trip_is_stable():
    m = assemble(DEMO, base=_base())
    text = disassemble_module(m)
    again = assemble(text, base=_base())
    assert [bytes(f.code) for f in again.functions] == [bytes(f.code) for f in m.functions]
    assert [f.registers for f in again.functions] == [f.registers for f in m.functions]
    assert disassemble_module(again) == text
    assert "%i0 = const.i32 0" in text and "; executable @exe" in text


def test_explicit_registers_and_clauses():
    text = """
module @m version 3 requirements {"dtypes": ["f32"], "features": []}
func @f(%i0: i32, %r0: ref) -> (i32) export registers(i32=9) reflection {"args": [{"name": "x", "dtype": "i32", "shape": []}]} {
  br L1
L0:
  ret %i7
L1:
  %i7 = mov.i32 %i0
  br L0
}
"""
    m = assemble(text)
    f = m.functions[0]
    assert m.version == 3 and m.requirements["dtypes"] == ["f32"]
    assert f.registers["i32"] == 9 and f.registers["ref"] == 1
    assert f.reflection["args"][0]["name"] == "x"
    ins = decode_function(f.code)
    assert ins[2].operands == (("i32", 7), ("i32", 0))
    assert assemble(disassemble_module(m)).functions[0] == f


def test_named_mode_treats_bank_like_names_as_names():
    m = assemble("func @f(%a: f32) -> (i32) {\n  %r2 = const.i32 5\n  ret %r2\n}")
    assert decode_function(m.functions[0].code)[0].operands[0] == ("i32", 0)


def test_quoted_names_nan_payload_and_raw_targets():
    text = """
func @"my fn$async"() -> () {
  %F3 = const.f64 nan(0x7ff0000000000001)
  %f1 = const.f32 -inf
  br #0
}
"""
    m = assemble(text)
    assert m.functions[0].name == "my fn$async"
    ins = decode_function(m.functions[0].code)
    assert ins[0].operands[1].bits == 0x7FF0000000000001
    assert assemble(disassemble_module(m)).functions[0].code == m.functions[0].code


@pytest.mark.parametrize("text, message, line, column", [
    ("bogus @x", "expected a declaration", 1, 1),
    ("func @f() -> () {\n  %a = add.i32 %b, %b\n}", "used before it is defined", 2, 16),
    ("func @f() -> () {\n  %a = const.f32 1.0\n  %a = const.i32 1\n}", "is f32, cannot hold", 3, 3),
    ("func @f() -> () {\n  %a = const.i32 1\n  %b = add.f32 %a, %a\n}", "is i32, expected f32", 3, 16),
    ("func @f() -> () {\n  frob %a\n}", "unknown instruction 'frob'", 2, 3),
    ("func @f() -> () {\n  br nowhere\n}", "unknown label 'nowhere'", 2, 6),
    ("func @f() -> () {\n  call @g()\n}", "unknown function @g", 2, 8),
    ("func @f() -> (i32) {\n  ret\n}", "returns 1 values, ret gives 0", 2, 3),
    ("func @f() -> () {\nx:\nx:\n  ret\n}", "defined twice", 3, 1),
    ("func @f() -> () {\n  ret", "no closing", 1, 6),
    ("global @g : ref = 1", "starts null or takes an initializer", 1, 19),
    ("global @g : i32\nglobal @g : i32", "already defined", 2, 8),
    ("global @g : i32 = 2147483648", "does not fit in i32", 1, 19),
    ("rodata @r = hex\"00\" align 3", "power of two", 1, 27),
    ("rodata @r = hex\"123\"", "even number", 1, 13),
    ("string \"unterminated", "bad string literal", 1, 8),
    ("import @nodot(i) -> ()", "@module.function", 1, 8),
    ("import @m.f(i, *r) -> ()\nfunc @f() -> () {\n  %r0 = const.ref.null\n"
     "  call.import @m.f(%r0, [])\n}", "expected i32", 4, 20),
    ("import @m.f(i, *r) -> ()\nfunc @f() -> () {\n  %i0 = const.i32 1\n"
     "  call.import @m.f(%i0, %i0)\n}", "variadic", 4, 25),
    ("func @f() -> () {\n  %x = ret\n}", "writes no register", 2, 3),
    ("func @f() -> () {\n  %a = const.i32 1.5\n}", "expected an integer", 2, 18),
    ("func @f() -> () {\n  %a = const.f32 nan(0x1)\n}", "not a f32 NaN", 2, 18),
    ("func @f() -> () {\n  %a = const.ref.executable @nope\n}", "unknown executable", 2, 29),
    ("func @f(%i1: i32) -> () {\n  ret\n}", "is register 0", 1, 9),
    ("func @f() -> () {\n  %i1 = const.f32 1.0\n}", "fixes bank and index", 2, 3),
    ("func @f() -> () registers(i32=0) {\n  %a = const.i32 1\n}", "declares 0 i32", None, None),
    ("func @f() -> () {\n  %a = const.i32 1 2\n}", "unexpected", 2, 20),
])
def test_errors_name_line_and_column(text, message, line, column):
    with pytest.raises(AssemblyError, match=message) as e:
        assemble(text)
    assert (e.value.line, e.value.column) == (line, column), str(e.value)
    if line is not None:
        assert str(e.value).startswith(f"line {line}:{column}: ")


def test_mutated_text_raises_only_assembly_errors():
    """1,500 mutants of a module's text: each assembles to a module that
    round-trips through disassembly, or raises exactly AssemblyError placed at a
    line and column of the mutated text."""
    rng = random.Random(5)
    alphabet = list("%@#[](){},=:*;\"-0123456789abcxyzIiFfr. \n") + \
        ["->", 'hex"', "nan(", "call ", "ret", "%i0", "#99"]
    texts = [DEMO, disassemble_module(assemble(DEMO, base=_base()))]
    outcomes = {AssemblyError: 0, None: 0}
    for _ in range(1500):
        t = list(rng.choice(texts))
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(t))
            r = rng.random()
            if r < .4:
                t[i] = rng.choice(alphabet)
            elif r < .7:
                del t[i]
            else:
                t.insert(i, rng.choice(alphabet))
        text = "".join(t)
        try:
            m = assemble(text, base=_base())
        except AssemblyError as e:
            lines = text.split("\n")
            assert type(e) is AssemblyError and e.line is not None, (text, e)
            assert 1 <= e.line <= len(lines) and 1 <= e.column <= len(lines[e.line - 1]) + 1, \
                (text, e.line, e.column)
            assert str(e) == f"line {e.line}:{e.column}: {e.message}" and e.message
            outcomes[AssemblyError] += 1
            continue
        again = disassemble_module(m)
        assert disassemble_module(assemble(again, base=_base())) == again, text
        outcomes[None] += 1
    assert outcomes[AssemblyError] > 1000 and outcomes[None] > 50, outcomes


def test_ref_global_initializers_round_trip():
    """``= call @import(kind @name, ...)`` names imports, earlier globals,
    rodata declared anywhere (a disassembly lists it after the globals) and
    base executables; the text re-assembles to the same tables."""
    from tensorvm.vmfb.model import Initializer
    base = ModuleDef("m", executables=[ExecutableDef("kernels", [])])
    text = ("module @m\nimport @hal.device.get() -> (r)\nimport @hal.executable.load(r, r) -> (r)\n"
            "import @hal.allocator.import(r, r) -> (r)\n"
            "global @dev : ref = call @hal.device.get()\n"
            "global @exe : ref = call @hal.executable.load(global @dev, executable @kernels)\n"
            "global @k : ref = call @hal.allocator.import(global #0, rodata @consts)\n"
            "global @plain : ref\n"
            'rodata @consts = hex"00ff"\n')
    m = assemble(text, base=base)
    assert [g.initial for g in m.globals] == [
        Initializer(0, ()), Initializer(1, (("global", 0), ("executable", 0))),
        Initializer(2, (("global", 0), ("rodata", 0))), None]
    again = assemble(disassemble_module(m), base=base)
    assert again.globals == m.globals
    for bad, message in [("global @g : ref = call @hal.nope()", "unknown import"),
                         ("global @g : ref = call @hal.device.get(string @x)", "operand kind"),
                         ("global @g : ref = call @hal.device.get(rodata @none)",
                          "unknown rodata")]:
        with pytest.raises(AssemblyError, match=message):
            assemble("import @hal.device.get() -> (r)\n" + bad)
