"""Self-checking assembly programs: branches, calls, globals, lists, buffers, fail."""
import pytest

from tensorvm.runtime.errors import VmTrap
from tensorvm.runtime.vm import BytecodeModule, Context
from tensorvm.vmfb.assembler import assemble

from vmasm import context_for, exported_tests

PROGRAM = """
module @control
global @counter : i32 = 5
global @scale : f64 = 2.5
global @wide : i64
global @table : ref
rodata @bytes = hex"01020304050607080000803f"

func @__init() -> () export {
entry:
  %c = global.load.i32 @counter
  %ten = const.i32 10
  %c2 = add.i32 %c, %ten
  global.store.i32 %c2, @counter
  %l = const.i32 0
  %lst = list.alloc %l
  global.store.ref %lst, @table
  ret
}
func @test_init_ran_once() -> () export {
entry:
  %c = global.load.i32 @counter
  expect.i32 %c, 15
  %s = global.load.f64 @scale
  expect.f64 %s, 2.5
  %w = global.load.i64 @wide
  expect.i64 %w, 0
  %t = global.load.ref @table
  %nz = cmp.nz.ref %t
  expect.i32 %nz, 1
  ret
}
func @test_loop() -> () export {
entry:
  %i = const.i32 0
  %n = const.i32 10
  %sum = const.i32 0
  br loop
loop:
  %one = const.i32 1
  %sum = add.i32 %sum, %i
  %i = add.i32 %i, %one
  %c = cmp.lt.s.i32 %i, %n
  cond_br %c, loop, done
done:
  expect.i32 %i, 10
  expect.i32 %sum, 45
  ret
}
func @fib(%n: i32) -> (i32) {
entry:
  %two = const.i32 2
  %small = cmp.lt.s.i32 %n, %two
  cond_br %small, base, rec
base:
  ret %n
rec:
  %one = const.i32 1
  %a = sub.i32 %n, %one
  %b = sub.i32 %n, %two
  %fa = call @fib(%a)
  %fb = call @fib(%b)
  %r = add.i32 %fa, %fb
  ret %r
}
func @divmod(%a: i64, %b: i64) -> (i64, i64) {
entry:
  %q = div.s.i64 %a, %b
  %r = rem.s.i64 %a, %b
  ret %q, %r
}
func @test_calls() -> () export {
entry:
  %n = const.i32 15
  %f = call @fib(%n)
  expect.i32 %f, 610
  %a = const.i64 47
  %b = const.i64 5
  %q, %r = call @divmod(%a, %b)
  expect.i64 %q, 9
  expect.i64 %r, 2
  ret
}
func @deep(%n: i32) -> (i32) export {
entry:
  %z = const.i32 0
  %done = cmp.eq.i32 %n, %z
  cond_br %done, out, more
out:
  ret %z
more:
  %one = const.i32 1
  %m = sub.i32 %n, %one
  %r = call @deep(%m)
  %r = add.i32 %r, %one
  ret %r
}
func @test_select() -> () export {
entry:
  %t = const.i32 7
  %z = const.i32 0
  %a = const.f32 1.5
  %b = const.f32 -1.5
  %x = select.f32 %t, %a, %b
  expect.f32 %x, 1.5
  %y = select.f32 %z, %a, %b
  expect.f32 %y, -1.5
  %i = const.i64 3
  %j = const.i64 4
  %k = select.i64 %z, %i, %j
  expect.i64 %k, 4
  %n = const.ref.null
  %s = const.ref.str "hello"
  %r = select.ref %t, %s, %n
  %same = cmp.eq.ref %r, %s
  expect.i32 %same, 1
  %nz = cmp.nz.ref %n
  expect.i32 %nz, 0
  %mv = mov.ref %s
  %same2 = cmp.eq.ref %mv, %s
  expect.i32 %same2, 1
  ret
}
func @test_lists() -> () export {
entry:
  %cap = const.i32 4
  %l = list.alloc %cap
  %sz = list.size %l
  expect.i32 %sz, 0
  %three = const.i32 3
  list.resize %l, %three
  %sz = list.size %l
  expect.i32 %sz, 3
  %zero = const.i32 0
  %one = const.i32 1
  %two = const.i32 2
  %e0 = list.get.i32 %l, %zero
  expect.i32 %e0, 0
  %v = const.i64 -77
  list.set.i64 %l, %one, %v
  %g = list.get.i64 %l, %one
  expect.i64 %g, -77
  %f = const.f64 0.5
  list.set.f64 %l, %two, %f
  %gf = list.get.f64 %l, %two
  expect.f64 %gf, 0.5
  %inner = list.alloc %zero
  list.set.ref %l, %zero, %inner
  %gi = list.get.ref %l, %zero
  %same = cmp.eq.ref %gi, %inner
  expect.i32 %same, 1
  list.resize %l, %one
  %sz = list.size %l
  expect.i32 %sz, 1
  ret
}
func @test_buffers() -> () export {
entry:
  %n = const.i64 16
  %b = buffer.alloc %n
  %len = buffer.length %b
  expect.i64 %len, 16
  %z = const.i64 0
  %init = buffer.load.i64 %b, %z
  expect.i64 %init, 0
  %off = const.i64 4
  %v = const.i32 -2
  buffer.store.i32 %b, %off, %v
  %g = buffer.load.i32 %b, %off
  expect.i32 %g, -2
  %off8 = const.i64 8
  %f = const.f64 6.25
  buffer.store.f64 %b, %off8, %f
  %gf = buffer.load.f64 %b, %off8
  expect.f64 %gf, 6.25
  %h = const.f32 0.75
  buffer.store.f32 %b, %z, %h
  %gh = buffer.load.f32 %b, %z
  expect.f32 %gh, 0.75
  %q = const.i64 1234567890123
  buffer.store.i64 %b, %off8, %q
  %gq = buffer.load.i64 %b, %off8
  expect.i64 %gq, 1234567890123
  %ro = const.ref.rodata @bytes
  %rl = buffer.length %ro
  expect.i64 %rl, 12
  %w = buffer.load.i32 %ro, %z
  expect.i32 %w, 67305985
  %fo = buffer.load.f32 %ro, %off8
  expect.f32 %fo, 1.0
  ret
}
func @list_get(%i: i32) -> (i32) export {
entry:
  %two = const.i32 2
  %l = list.alloc %two
  list.resize %l, %two
  %v = list.get.i32 %l, %i
  ret %v
}
func @list_type_confusion() -> (i32) export {
entry:
  %one = const.i32 1
  %zero = const.i32 0
  %l = list.alloc %one
  list.resize %l, %one
  %s = const.ref.str "not an int"
  list.set.ref %l, %zero, %s
  %v = list.get.i32 %l, %zero
  ret %v
}
func @buffer_load(%off: i64) -> (i32) export {
entry:
  %n = const.i64 8
  %b = buffer.alloc %n
  %v = buffer.load.i32 %b, %off
  ret %v
}
func @rodata_store() -> () export {
entry:
  %ro = const.ref.rodata @bytes
  %z = const.i64 0
  %v = const.i32 1
  buffer.store.i32 %ro, %z, %v
  ret
}
func @null_list() -> (i32) export {
entry:
  %n = const.ref.null
  %s = list.size %n
  ret %s
}
func @check(%code: i32) -> () export {
entry:
  fail %code, "custom failure message"
  ret
}
func @yielder(%x: i32) -> (i32) export {
entry:
  %one = const.i32 1
  %x = add.i32 %x, %one
  yield after
after:
  %x = add.i32 %x, %one
  ret %x
}
"""


@pytest.fixture(scope="module")
def ctx():
    return context_for(PROGRAM)


@pytest.mark.parametrize("name", exported_tests(PROGRAM))
def test_program(ctx, name):
    assert ctx.invoke(name, []) == []


def test_globals_are_per_context():
    a, b = context_for(PROGRAM), context_for(PROGRAM)
    assert a.invoke("test_init_ran_once", []) == []
    assert b.invoke("test_init_ran_once", []) == []


def test_deep_recursion_traps_at_fixed_depth(ctx):
    assert ctx.invoke("deep", [900]) == [900]
    with pytest.raises(VmTrap, match="stack overflow") as e:
        ctx.invoke("deep", [100000])
    assert e.value.function == "deep"
    small = Context([BytecodeModule.from_def(assemble(PROGRAM.replace("expect.", "; expect.")))],
                    max_depth=10)
    assert small.invoke("deep", [9]) == [9]
    with pytest.raises(VmTrap, match="exceeds 10 frames"):
        small.invoke("deep", [10])


def test_fail_message_and_code(ctx):
    assert ctx.invoke("check", [0]) == []
    with pytest.raises(VmTrap) as e:
        ctx.invoke("check", [42])
    t = e.value
    assert (t.code, t.message, t.function, t.pc) == (42, "custom failure message", "check", 0)
    assert "custom failure message" in str(t) and "'check'" in str(t) and "pc 0" in str(t)


def test_wrong_expectation_fails():
    bad = "module @m\nfunc @test_x() -> () export {\nentry:\n  %a = const.i32 1\n" \
          "  expect.i32 %a, 2\n  ret\n}\n"
    with pytest.raises(VmTrap, match="check 1: %a != 2"):
        context_for(bad).invoke("test_x", [])


@pytest.mark.parametrize("fn,args,match", [
    ("list_get", [2], "list index 2 out of range"),
    ("list_get", [-1], "list index -1 out of range"),
    ("list_type_confusion", [], "not i32"),
    ("buffer_load", [5], "out of bounds"),
    ("buffer_load", [-1], "out of bounds"),
    ("rodata_store", [], "read-only"),
    ("null_list", [], "null list"),
])
def test_ref_misuse_traps(ctx, fn, args, match):
    with pytest.raises(VmTrap, match=match) as e:
        ctx.invoke(fn, args)
    assert e.value.function == fn and e.value.pc is not None


def test_yield_resumes(ctx):
    inv = ctx.begin_invoke("yielder", [1])
    sus = inv.step()
    assert sus is not None and sus.is_ready and inv.state == "suspended"
    assert inv.step() is None and inv.results == [3] and inv.state == "done"
    assert ctx.invoke("yielder", [10]) == [12]


def test_lookup_and_arguments(ctx):
    h = ctx.lookup("control.deep")
    assert h.signature == "i->i" and ctx.invoke(h, [3]) == [3]
    with pytest.raises(KeyError):
        ctx.lookup("missing")
    from tensorvm.runtime.errors import InvalidArgumentError
    with pytest.raises(InvalidArgumentError, match="takes 1 arguments"):
        ctx.invoke("deep", [])
    with pytest.raises(InvalidArgumentError, match="argument 0"):
        ctx.invoke("deep", ["x"])
    with pytest.raises(InvalidArgumentError, match="argument 0"):
        ctx.invoke("deep", [1 << 40])
