"""Imports: native modules (variadic runs, Suspend, errors), linking, cross-module calls."""
import threading

import pytest

from tensorvm.runtime.errors import LinkError, VmTrap
from tensorvm.runtime.vm import Context, NativeModule, Suspend

from vmasm import context_for, exported_tests, module_for


class Event:
    """A waitable: wait(timeout_s) raises on failure or timeout."""

    def __init__(self, error=None):
        self.ev, self.error, self.waits = threading.Event(), error, 0

    @property
    def is_signaled(self):
        return self.ev.is_set()

    def wait(self, timeout_s):
        self.waits += 1
        if not self.ev.wait(timeout_s):
            raise TimeoutError(f"not signalled within {timeout_s}s")
        if self.error:
            raise self.error


class ProbeModule(NativeModule):
    name = "test"

    def __init__(self):
        self.events = []

    def create_state(self, context):
        return {"context": context, "calls": 0}

    def functions(self):
        return {
            "sum": ("i*i->i", self.sum),
            "pack": ("r*I*r->Ir", self.pack),
            "scale": ("fF->F", lambda st, a, b: a * b),
            "wait": ("ri->i", self.wait),
            "wait_then": ("i->i", self.wait_then),
            "boom": ("->", self.boom),
            "bad_result": ("->i", lambda st: "nope"),
            "wrong_count": ("->ii", lambda st: 1),
            "state_calls": ("->i", self.state_calls),
        }

    def sum(self, state, base, values):
        assert isinstance(values, list)
        return base + sum(values)

    def pack(self, state, tag, dims, refs):
        return len(dims) * 1000 + sum(dims), [tag] + refs

    def wait(self, state, ev, timeout_ms):
        return Suspend(ev, timeout_ms)

    def wait_then(self, state, x):
        ev = Event()
        ev.ev.set()
        return Suspend(ev, 1000, then=lambda: x * 2)

    def boom(self, state):
        raise KeyError("native failure")

    def state_calls(self, state):
        state["calls"] += 1
        return state["calls"]


PROGRAM = """
module @user
import @test.sum(i, *i) -> (i)
import @test.pack(r, *I, *r) -> (I, r)
import @test.scale(f, F) -> (F)
import @test.wait(r, i) -> (i)
import @test.wait_then(i) -> (i)
import @test.boom() -> ()
import @test.bad_result() -> (i)
import @test.wrong_count() -> (i, i)
import @test.state_calls() -> (i)

func @test_variadic() -> () export {
entry:
  %b = const.i32 100
  %x = const.i32 1
  %y = const.i32 2
  %s = call.import @test.sum(%b, [%x, %y, %x])
  expect.i32 %s, 104
  %e = call.import @test.sum(%b, [])
  expect.i32 %e, 100
  %t = const.ref.str "tag"
  %d0 = const.i64 3
  %d1 = const.i64 4
  %n, %l = call.import @test.pack(%t, [%d0, %d1], [%t, %t])
  expect.i64 %n, 2007
  %sz = list.size %l
  expect.i32 %sz, 3
  %f = const.f32 1.5
  %g = const.f64 4.0
  %h = call.import @test.scale(%f, %g)
  expect.f64 %h, 6.0
  ret
}
func @test_suspend_then() -> () export {
entry:
  %x = const.i32 21
  %y = call.import @test.wait_then(%x)
  expect.i32 %y, 42
  ret
}
func @wait(%ev: ref, %timeout: i32) -> (i32) export {
entry:
  %r = call.import @test.wait(%ev, %timeout)
  %seven = const.i32 7
  %r = add.i32 %r, %seven
  ret %r
}
func @boom() -> () export {
entry:
  call.import @test.boom()
  ret
}
func @bad_result() -> (i32) export {
entry:
  %r = call.import @test.bad_result()
  ret %r
}
func @wrong_count() -> (i32) export {
entry:
  %a, %b = call.import @test.wrong_count()
  ret %a
}
func @calls() -> (i32) export {
entry:
  %r = call.import @test.state_calls()
  ret %r
}
"""


@pytest.fixture
def ctx():
    return context_for(PROGRAM, natives=[ProbeModule()])


@pytest.mark.parametrize("name", exported_tests(PROGRAM))
def test_program(ctx, name):
    assert ctx.invoke(name, []) == []


def test_suspend_waits_then_resumes(ctx):
    ev = Event()
    inv = ctx.begin_invoke("wait", [ev, -1])
    sus = inv.step()
    assert isinstance(sus, Suspend) and sus.waitable is ev and not sus.is_ready
    assert inv.state == "suspended"
    done = []
    t = threading.Thread(target=lambda: done.append(inv.step()))   # resumed elsewhere
    ev.ev.set()
    t.start()
    t.join(5)
    assert done == [None] and inv.results == [7]


def test_sync_invoke_blocks_on_suspend(ctx):
    ev = Event()
    threading.Timer(0.05, ev.ev.set).start()
    assert ctx.invoke("wait", [ev, 5000]) == [7]


def test_suspend_timeout_is_a_trap(ctx):
    with pytest.raises(VmTrap, match="timed out after 20 ms") as e:
        ctx.invoke("wait", [Event(), 20])
    assert e.value.function == "wait" and e.value.pc == 0


def test_wait_failure_propagates_with_its_type(ctx):
    ev = Event(error=OSError("device lost"))
    ev.ev.set()
    with pytest.raises(OSError, match="device lost"):
        ctx.invoke("wait", [ev, 1000])


def test_native_error_propagates_with_its_type(ctx):
    with pytest.raises(KeyError) as e:
        ctx.invoke("boom", [])
    notes = " ".join(getattr(e.value, "__notes__", []))
    assert "test.boom" in notes and "'boom'" in notes


def test_native_result_checked(ctx):
    with pytest.raises(VmTrap, match="returned 'nope' for i32"):
        ctx.invoke("bad_result", [])
    with pytest.raises(VmTrap, match="returned 1 values"):
        ctx.invoke("wrong_count", [])


def test_native_state_is_per_context():
    m = ProbeModule()
    a = context_for(PROGRAM, natives=[m])
    b = context_for(PROGRAM, natives=[m])
    assert a.invoke("calls", []) == [1] and a.invoke("calls", []) == [2]
    assert b.invoke("calls", []) == [1]


def test_native_function_invoked_directly(ctx):
    assert ctx.invoke("test.sum", [1, [2, 3]]) == [6]
    assert ctx.invoke("test.wait_then", [4]) == [8]


LIB = """
module @lib
func @twice(%x: i32) -> (i32) export {
entry:
  %y = add.i32 %x, %x
  ret %y
}
"""
APP = """
module @app
import @lib.twice(i) -> (i)
func @test_cross_module() -> () export {
entry:
  %x = const.i32 21
  %y = call.import @lib.twice(%x)
  expect.i32 %y, 42
  ret
}
"""


def test_bytecode_to_bytecode_import():
    ctx = Context([module_for(LIB), module_for(APP)])
    assert ctx.invoke("test_cross_module", []) == []


def test_link_errors_name_both_sides():
    with pytest.raises(LinkError, match="no module 'lib'"):
        Context([module_for(APP)])
    with pytest.raises(LinkError, match="has no export 'twice'"):
        Context([module_for(LIB.replace("@twice", "@thrice")), module_for(APP)])
    bad = APP.replace("@lib.twice(i) -> (i)", "@lib.twice(I) -> (i)").replace(
        "%x = const.i32 21", "%x = const.i64 21")
    with pytest.raises(LinkError, match="with signature 'I->i' but module 'lib' exports it "
                                        "with signature 'i->i'"):
        Context([module_for(LIB), module_for(bad)])
    with pytest.raises(LinkError, match="already"):
        Context([module_for(LIB), module_for(LIB)])
