"""Bit casts between float and integer banks (used for push constants)."""
from tensorvm.runtime.vm import BytecodeModule, Context
from tensorvm.vmfb.assembler import assemble

PROGRAM = '''
module @t
func @test_bitcast() -> () export {
entry:
  %x = const.f32 1.5
  %b = bitcast.f32.i32 %x
  %e = const.i32 1069547520
  %bad = cmp.ne.i32 %b, %e
  fail %bad, "f32 bits"
  %y = bitcast.i32.f32 %b
  %bad2 = cmp.ne.f32 %y, %x
  fail %bad2, "roundtrip f32"
  %d = const.f64 -2.25
  %db = bitcast.f64.i64 %d
  %de = const.i64 -4611123068473966592
  %bad3 = cmp.ne.i64 %db, %de
  fail %bad3, "f64 bits"
  %d2 = bitcast.i64.f64 %db
  %bad4 = cmp.ne.f64 %d2, %d
  fail %bad4, "roundtrip f64"
  ret
}'''


def test_bitcasts():
    ctx = Context([BytecodeModule.from_def(assemble(PROGRAM))])
    ctx.invoke("test_bitcast", [])
