"""vmfb.builder: functions built in memory encode as the same text assembled."""
import pytest

from tensorvm.vmfb.assembler import assemble
from tensorvm.vmfb.builder import FunctionBuilder, build_functions
from tensorvm.vmfb.errors import VmfbError
from tensorvm.vmfb.model import GlobalDef, ImportDef, ModuleDef

TEXT = """\
module @m
import @hal.fence.await(i, *r) -> (i)
global @g : ref
func @helper() -> (ref) {
entry:
  %r = global.load.ref @g
  ret %r
}
func @main(%a: ref, %n: i64) -> (i32, ref) export {
entry:
  %c = const.i32 -1
  %x = call @helper()
  %s = const.ref.str "hello"
  br next
next:
  %w = call.import @hal.fence.await(%c, [%a, %x])
  %k = cmp.nz.ref %x
  cond_br %k, done, next
done:
  fail %k, "failed"
  ret %w, %x
}
"""


def _built() -> ModuleDef:
    m = ModuleDef(name="m", imports=[ImportDef("hal", "fence.await", "i*r->i")],
                  globals=[GlobalDef("g", "ref")])
    helper = FunctionBuilder("helper", results=["ref"])
    helper.label("entry")
    helper.op("global.load.ref", "%r", "g")
    helper.op("ret", ["%r"])
    main = FunctionBuilder("main", [("%a", "ref"), ("%n", "i64")], ["i32", "ref"], exported=True)
    main.label("entry")
    main.op("const.i32", "%c", -1)
    main.op("call", "helper", [], ["%x"])
    main.op("const.ref.str", "%s", "hello")
    main.op("br", "next")
    main.label("next")
    main.op("call.import", "hal.fence.await", ["%c", ["%a", "%x"]], ["%w"])
    main.op("cmp.nz.ref", "%k", "%x")
    main.op("cond_br", "%k", "done", "next")
    main.label("done")
    main.op("fail", "%k", "failed")
    main.op("ret", ["%w", "%x"])
    return build_functions(m, [helper, main])


def test_builder_matches_the_assembler():
    built, text = _built(), assemble(TEXT)
    assert built.strings == text.strings == ["hello", "failed"]
    for b, t in zip(built.functions, text.functions):
        assert (b.name, b.signature, b.exported, b.registers) == \
            (t.name, t.signature, t.exported, t.registers)
        assert bytes(b.code) == bytes(t.code)


@pytest.mark.parametrize("ops, message", [
    ([("add.i32", "%y", "%x", "%x")], "used before it is defined"),
    ([("const.i64", "%y", 1), ("ret", ["%y"])], "is i64, expected i32"),
    ([("const.i32", "%y", 1), ("const.f32", "%y", 1.0)], "cannot hold a f32"),
    ([("br", "nowhere")], "unknown label"),
    ([("global.load.ref", "%r", "missing")], "unknown global @missing"),
    ([("const.i32", "%y")], "takes 2 operands"),
])
def test_builder_errors_name_the_defect(ops, message):
    fb = FunctionBuilder("f", results=["i32"])
    for op in ops:
        fb.op(*op)
    with pytest.raises(VmfbError, match=message):
        build_functions(ModuleDef(name="m"), [fb])


def test_variadic_run_must_be_a_list():
    m = ModuleDef(name="m", imports=[ImportDef("hal", "fence.await", "i*r->i")])
    fb = FunctionBuilder("f", [("%a", "ref")])
    fb.op("const.i32", "%c", 0)
    fb.op("call.import", "hal.fence.await", ["%c", "%a"], ["%w"])
    with pytest.raises(VmfbError, match=r"variadic \*ref run must be a list"):
        build_functions(m, [fb])
