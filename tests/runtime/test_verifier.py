"""The load-time verifier rejects each kind of bad bytecode (hand-built, not assembled)."""
import pytest

from tensorvm.runtime.vm import BytecodeModule
from tensorvm.vmfb.bytecode import encode
from tensorvm.vmfb.errors import VerificationError, VmfbError
from tensorvm.vmfb.model import (ExecutableDef, FunctionDef, GlobalDef, ImportDef, ModuleDef,
                                 RodataDef)

REGS = {"i32": 2, "i64": 1, "f32": 1, "f64": 0, "ref": 1}
RET = encode("ret", [])
I0, I1, I64, F0, R0 = ("i32", 0), ("i32", 1), ("i64", 0), ("f32", 0), ("ref", 0)


def fn(code, name="f", signature="->", registers=REGS, **kw):
    return FunctionDef(name, signature, dict(registers), code, **kw)


def module(*functions, **kw):
    kw.setdefault("globals", [GlobalDef("g", "i32", 1)])
    kw.setdefault("imports", [ImportDef("ext", "v", "i*I->i")])
    kw.setdefault("rodata", [RodataDef("r", b"abcd")])
    kw.setdefault("strings", ["s"])
    kw.setdefault("executables", [ExecutableDef("e", [])])
    return ModuleDef("m", functions=list(functions), **kw)


def rejects(mdef, match, function="f", pc=None):
    with pytest.raises(VerificationError, match=match) as e:
        BytecodeModule.from_def(mdef)
    assert e.value.function == function
    if pc is not None:
        assert e.value.pc == pc
    return e.value


def test_a_good_module_passes():
    code = (encode("const.i32", I0, 1) + encode("global.store.i32", I0, 0)
            + encode("call.import", 0, (2,), (I0, I64, I64), (I1,)) + RET)
    BytecodeModule.from_def(module(fn(code), fn(RET, name="h")))


def test_undecodable():
    rejects(module(fn(b"\xff" + RET)), "unknown opcode", pc=0)
    rejects(module(fn(encode("const.i32", I0, 1)[:-1])), "truncated", pc=0)
    bad_bank = bytearray(encode("mov.i32", I0, I1))
    bad_bank[2] = 0x20                     # dst tagged f32 in an i32 field
    rejects(module(fn(bytes(bad_bank) + RET)), "needs a i32 register", pc=0)


def test_register_out_of_range():
    rejects(module(fn(encode("mov.i32", I0, ("i32", 2)) + RET)), "i32 register 2 out of range",
            pc=0)
    rejects(module(fn(encode("ret", [("f64", 0)]), signature="->F")), "f64 register 0",
            pc=0)


def test_branch_targets():
    c = encode("const.i32", I0, 1)
    rejects(module(fn(c + encode("br", 3))), "branch target 3", pc=len(c))
    rejects(module(fn(c + encode("cond_br", I0, 0, 999))), "branch target 999", pc=len(c))
    rejects(module(fn(encode("yield", 1) + RET)), "branch target 1", pc=0)


def test_falling_off_the_end():
    rejects(module(fn(encode("const.i32", I0, 1))), "falls off the end", pc=0)
    rejects(module(fn(RET + encode("fail", I0, 0))), "falls off the end", pc=len(RET))
    rejects(module(fn(b"")), "no code")


def test_calls_match_callee_signature():
    callee = fn(encode("ret", [I0]), name="callee", signature="i->i")
    ok = encode("call", 1, (I0,), (I1,)) + RET
    BytecodeModule.from_def(module(fn(ok), callee))
    rejects(module(fn(encode("call", 1, (), (I1,)) + RET), callee), "0 values given, 1 expected")
    rejects(module(fn(encode("call", 1, (I64,), (I1,)) + RET), callee), "i64 register, i32")
    rejects(module(fn(encode("call", 1, (I0,), (F0,)) + RET), callee), "results: value 0")
    rejects(module(fn(encode("call", 7, (I0,), (I1,)) + RET), callee), "function index 7")


def test_import_calls_and_segments():
    ci = lambda seg, args, res=(I1,): fn(encode("call.import", 0, seg, args, res) + RET)
    rejects(module(ci((), (I0,))), "0 segment counts for 1 variadic")
    rejects(module(ci((2,), (I0, I64))), "2 values given, 3 expected")
    rejects(module(ci((1,), (I0, I0))), "value 1 is a i32 register, i64")
    rejects(module(ci((0,), (I0,), ())), "results: 0 values given, 1 expected")
    rejects(module(fn(encode("call.import", 3, (), (), ()) + RET)), "import index 3")
    BytecodeModule.from_def(module(ci((0,), (I0,))))


def test_table_indices_and_global_banks():
    rejects(module(fn(encode("global.load.i32", I0, 5) + RET)), "global index 5")
    rejects(module(fn(encode("global.load.f32", F0, 0) + RET)), "bank i32")
    rejects(module(fn(encode("const.ref.rodata", R0, 1) + RET)), "rodata index 1")
    rejects(module(fn(encode("const.ref.str", R0, 1) + RET)), "string index 1")
    rejects(module(fn(encode("fail", I0, 9) + RET)), "string index 9")
    rejects(module(fn(encode("const.ref.executable", R0, 2) + RET)), "executable index 2")


def test_ret_matches_signature():
    rejects(module(fn(RET, signature="->i")), "ret: 0 values given, 1 expected")
    rejects(module(fn(encode("ret", [I64]), signature="->i")), "i64 register, i32")


def test_function_tables():
    rejects(module(fn(RET, signature="iii->")), "3 i32 arguments but only 2")
    rejects(module(fn(RET, signature="*i->")), "variadic")
    rejects(module(fn(RET, signature="q->")), "bad signature")
    rejects(module(fn(RET, registers={"i32": -1})), "register count")
    rejects(module(fn(RET, registers={"x": 1})), "register counts")
    rejects(module(fn(RET, name="__init", signature="i->", exported=True)), "__init", "__init")
    rejects(module(fn(RET, exported=True), fn(RET, exported=True)), "exported twice")


def test_reflection_consistent_with_signature():
    good = {"args": [{"name": "x", "dtype": "f32", "shape": [2, "?"]}], "results": []}
    BytecodeModule.from_def(module(fn(RET, signature="r->", exported=True, reflection=good)))
    bad_count = {"args": [], "results": []}
    rejects(module(fn(RET, signature="r->", exported=True, reflection=bad_count)),
            "reflection lists 0 args")
    bad_dtype = {"args": [{"name": "x", "dtype": "f33", "shape": []}], "results": []}
    rejects(module(fn(RET, signature="r->", exported=True, reflection=bad_dtype)), "f33")
    bad_shape = {"args": [{"name": "x", "dtype": "f32", "shape": [-1]}], "results": []}
    rejects(module(fn(RET, signature="r->", exported=True, reflection=bad_shape)), "shape")
    scalar_shape = {"args": [{"name": "x", "dtype": "i32", "shape": [2]}], "results": []}
    rejects(module(fn(RET, signature="i->", exported=True, reflection=scalar_shape)), "no shape")
    for shape in (None, [True], [1.0], ["x"], "2"):     # the fast path defers to the named check
        entry = {"args": [{"name": "x", "dtype": "f32", "shape": shape}], "results": []}
        rejects(module(fn(RET, signature="r->", exported=True, reflection=entry)), "shape")
    unhashable = {"args": [{"name": "x", "dtype": ["f32"]}], "results": []}
    rejects(module(fn(RET, signature="r->", exported=True, reflection=unhashable)),
            "unknown dtype")
    no_shape = {"args": [{"name": "k", "dtype": "i32"}], "results": []}
    BytecodeModule.from_def(module(fn(RET, signature="i->", exported=True, reflection=no_shape)))


def test_globals_and_imports_tables():
    with pytest.raises(VerificationError, match="bad initial"):
        BytecodeModule.from_def(module(fn(RET), globals=[GlobalDef("g", "i32", 1.5)]))
    with pytest.raises(VerificationError, match="unknown bank"):
        BytecodeModule.from_def(module(fn(RET), globals=[GlobalDef("g", "u8")]))
    with pytest.raises(VmfbError, match="bad signature"):
        BytecodeModule.from_def(module(fn(RET), imports=[ImportDef("a", "b", "i")]))


def test_lazy_verification_checks_each_body_before_its_first_use():
    """``from_def(lazy=True)`` (what ``load_module`` does) verifies the tables
    at once and a function's bytecode only when it is first lowered: a bad
    body never runs, and one never called costs nothing."""
    good = fn(encode("const.i32", I0, 7) + encode("ret", [I0]), name="good", signature="->i",
              exported=True)
    bad = fn(b"\xff" + RET, name="bad", exported=True)
    m = BytecodeModule.from_def(module(good, bad), lazy=True)      # no error yet
    fgood, fbad = m.functions
    assert fgood.ops and fgood.fused is not None
    for _ in range(2):                          # a failed verification is not cached as done
        with pytest.raises(VerificationError, match="unknown opcode") as e:
            fbad.ops
        assert e.value.function == "bad"
    with pytest.raises(VerificationError, match="unknown opcode"):
        BytecodeModule.from_def(module(good, bad))                 # eager: at once
    with pytest.raises(VerificationError, match="bad signature"):  # tables: always at once
        BytecodeModule.from_def(module(fn(RET, signature="x")), lazy=True)


def test_load_module_verify_modes():
    from tensorvm import runtime
    from tensorvm.vmfb.container import write_module
    bad = module(fn(RET, name="__init", exported=True),
                 fn(b"\xff" + RET, name="main", exported=True), imports=[])
    m = runtime.load_module(bad, device="local-sync")
    with pytest.raises(VerificationError, match="unknown opcode"):
        m.main()
    with pytest.raises(VerificationError, match="unknown opcode"):
        runtime.load_module(write_module(bad), device="local-sync", verify="eager")
    with pytest.raises(ValueError, match="verify"):
        runtime.load_module(bad, device="local-sync", verify="never")


# -- ref-global initializers (vmfb 1.3) ------------------------------------------------
def _initialized(*inits, imports=None):
    """A module whose ref globals take ``inits`` (Initializer or None each)."""
    from tensorvm.vmfb.model import Initializer
    imports = imports or [ImportDef("hal", "device.get", "->r"),
                          ImportDef("hal", "allocator.import", "rr->r"),
                          ImportDef("ext", "v", "i*I->i")]
    globs = [GlobalDef(f"g{i}", "ref", init if init is None else Initializer(*init))
             for i, init in enumerate(inits)]
    return module(fn(RET), globals=globs, imports=imports)


def test_initializers_are_verified_at_load():
    ok = BytecodeModule.from_def(_initialized((0, ()), (1, (("global", 0), ("rodata", 0)))))
    assert ok.initializers == [(0, 0, ()), (1, 1, (("global", 0), ("rodata", 0)))]
    for inits, message in [
        ([(3, ())], "import index 3 out of range"),
        ([(2, ())], r"ext.v \(i\*I->i\) is not a call of 0 refs returning one ref"),
        ([(1, (("rodata", 0),))], "not a call of 1 refs"),
        ([(0, ()), (1, (("global", 1), ("rodata", 0)))], r"operand 0 \('global', 1\)"),
        ([None, (1, (("global", 0), ("rodata", 0)))], r"operand 0 \('global', 0\)"),
        ([(1, (("global", 0), ("rodata", 0)))], "operand 0"),      # not an earlier global
        ([(0, ()), (1, (("global", 0), ("rodata", 1)))], r"operand 1 \('rodata', 1\)"),
        ([(0, ()), (1, (("global", 0), ("executable", 5)))], "operand 1"),
        ([(0, ()), (1, (("global", 0), ("string", 0)))], "operand 1"),
    ]:
        with pytest.raises(VerificationError, match=message):
            BytecodeModule.from_def(_initialized(*inits))
