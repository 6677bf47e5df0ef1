"""Fused straight-line functions (runtime/vm/fused.py): ``Context.invoke`` runs
them as one generated Python function; the results, traps (function and pc),
native errors and suspensions must be exactly the interpreter's, which
``begin_invoke(...).run()`` still uses."""
import threading

import pytest

from tensorvm.runtime.errors import VmTrap
from tensorvm.runtime.vm import Context, NativeModule, Suspend

from vmasm import context_for, module_for


class Ready:
    is_signaled = True

    def wait(self, timeout_s):
        pass


class Native(NativeModule):
    name = "n"

    def functions(self):
        return {
            "id": ("r->r", lambda st, x: x),
            "add": ("ii->i", lambda st, a, b: a + b),
            "sum": ("i*i->i", lambda st, base, xs: base + sum(xs)),
            "pause": ("i->i", lambda st, x: Suspend(Ready(), 1000, then=lambda: x + 1)),
            "big": ("->i", lambda st: 1 << 40),
            "boom": ("i->", self.boom),
            "trap": ("->", self.trap),
            "two": ("->ir", lambda st: (5, "five")),
        }

    def boom(self, st, x):
        raise KeyError(f"native failure {x}")

    def trap(self, st):
        raise VmTrap("native trap")


PROGRAM = """
module @m
import @n.id(r) -> (r)
import @n.add(i, i) -> (i)
import @n.sum(i, *i) -> (i)
import @n.pause(i) -> (i)
import @n.big() -> (i)
import @n.boom(i) -> ()
import @n.trap() -> ()
import @n.two() -> (i, r)

func @mix(%x: i32, %y: i64, %f: f32, %s: ref) -> (i32, i64, f32, ref, i32) export {
entry:
  %one = const.i32 1
  %a = add.i32 %x, %one
  %a = mul.i32 %a, %a
  %b = ext.i32.i64.s %a
  %b = add.i64 %b, %y
  %g = const.f32 0.5
  %h = mul.f32 %f, %g
  %t = call.import @n.id(%s)
  %u = call.import @n.add(%a, %x)
  %v = call.import @n.sum(%u, [%a, %one, %x])
  %n, %str = call.import @n.two()
  %v = add.i32 %v, %n
  %m = mov.i32 %v
  ret %m, %b, %h, %t, %a
}
func @divide(%x: i32, %y: i32) -> (i32) export {
entry:
  %q = div.s.i32 %x, %y
  ret %q
}
func @failing(%code: i32) -> () export {
entry:
  %one = const.i32 1
  fail %code, "custom failure"
  ret
}
func @suspends(%x: i32) -> (i32, i32) export {
entry:
  %k = const.i32 100
  %a = add.i32 %x, %k
  %b = call.import @n.pause(%a)
  %c = add.i32 %b, %x
  ret %c, %a
}
func @big() -> (i32) export {
entry:
  %b = call.import @n.big()
  ret %b
}
func @boom(%x: i32) -> () export {
entry:
  %one = const.i32 1
  call.import @n.boom(%x)
  ret
}
func @trap() -> () export {
entry:
  call.import @n.trap()
  ret
}
func @forward(%x: i32) -> (i32) export {
entry:
  br done
done:
  ret %x
}
func @loop(%x: i32) -> (i32) export {
entry:
  %zero = const.i32 0
  %one = const.i32 1
  br head
head:
  %more = cmp.ne.i32 %x, %zero
  cond_br %more, body, out
body:
  %x = sub.i32 %x, %one
  br head
out:
  ret %x
}
func @guarded(%x: i32) -> (i32, i32) export {
entry:
  %k = const.i32 10
  %y = add.i32 %x, %k
  cond_br %x, hot, cold
cold:
  %y = call @twice(%y)
  br hot
hot:
  %z = call.import @n.add(%y, %k)
  ret %z, %y
}
func @twice(%x: i32) -> (i32) {
entry:
  %y = add.i32 %x, %x
  ret %y
}
"""


@pytest.fixture
def ctx():
    return context_for(PROGRAM, natives=[Native()])


def both(ctx, name, args):
    """(fused outcome, interpreter outcome): results or (type, str, function, pc)."""
    out = []
    for run in (lambda: ctx.invoke(name, args), lambda: ctx.begin_invoke(name, args).run()):
        try:
            out.append(run())
        except Exception as e:   # noqa: BLE001
            out.append((type(e), str(e), getattr(e, "function", None), getattr(e, "pc", None),
                        tuple(getattr(e, "__notes__", ()))))
    return out


def fused_of(ctx, name):
    return ctx.lookup(name).target.fused


def test_only_straight_line_hot_paths_are_fused(ctx):
    assert fused_of(ctx, "mix") is not None and fused_of(ctx, "suspends") is not None
    assert fused_of(ctx, "forward") is not None and fused_of(ctx, "guarded") is not None
    assert fused_of(ctx, "loop") is None                 # a backward branch
    assert ctx.invoke("loop", [3]) == [0]
    assert both(ctx, "forward", [3]) == [[3], [3]]


LOOP_ON_FALSE_EDGE = """
module @m
import @n.add(i, i) -> (i)
func @back(%x: i32) -> (i32) export {
entry:
  %one = const.i32 1
  br head
head:
  %x = sub.i32 %x, %one
  %done = cmp.le.s.i32 %x, %one
  cond_br %done, out, head
out:
  %z = call.import @n.add(%x, %one)
  ret %z
}
"""


def test_a_loop_on_the_false_edge_is_not_fused():
    """A ``cond_br`` whose true edge goes forward and whose false edge goes
    back is a loop: fusing its forward edge made the false edge deopt into
    resume_after_import with the back edge's site, a raw TypeError (issue 37;
    the module fuzzer found it by mutating a branch target)."""
    ctx = context_for(LOOP_ON_FALSE_EDGE, natives=[Native()])
    assert fused_of(ctx, "back") is None
    assert both(ctx, "back", [5]) == [[2], [2]]
    assert both(ctx, "back", [1]) == [[1], [1]]


def test_a_false_guard_finishes_in_the_interpreter(ctx):
    """``cond_br`` on the hot path: true stays fused, false resumes the
    interpreter at the branch with the live registers (the cold block makes
    a VM call, which the fused function cannot)."""
    assert both(ctx, "guarded", [1]) == [[21, 11], [21, 11]]
    assert both(ctx, "guarded", [0]) == [[30, 20], [30, 20]]
    assert both(ctx, "guarded", [-5]) == [[15, 5], [15, 5]]


def test_results_match_the_interpreter(ctx):
    s = object()
    for args in ([3, 10, 1.5, s], [-(1 << 31), -(1 << 63), -0.0, None], [46341, 1, 3e38, s]):
        fused, interp = both(ctx, "mix", args)
        assert fused == interp
    assert ctx.invoke("mix", [3, 10, 1.5, s]) == [16 + 3 + 16 + 1 + 3 + 5, 26, 0.75, s, 16]


def test_traps_name_function_and_pc(ctx):
    fused, interp = both(ctx, "divide", [1, 0])
    assert fused == interp and fused[0] is VmTrap and fused[2] == "divide"
    assert fused[3] == ctx.lookup("divide").target.function.pcs[0]
    fused, interp = both(ctx, "failing", [7])
    assert fused == interp and fused[0] is VmTrap and "custom failure" in fused[1]
    assert fused[2] == "failing" and fused[3] == ctx.lookup("failing").target.function.pcs[1]
    assert both(ctx, "failing", [0]) == [[], []]


def test_native_errors_match_the_interpreter(ctx):
    fused, interp = both(ctx, "boom", [4])
    assert fused[0] is KeyError and fused[:4] == interp[:4]
    assert "n.boom" in " ".join(fused[4]) and "'boom'" in " ".join(fused[4])
    fused, interp = both(ctx, "trap", [])
    assert fused == interp and fused[2] == "trap" and fused[3] == 0
    fused, interp = both(ctx, "big", [])
    assert fused == interp and fused[0] is VmTrap and "returned" in fused[1]


def test_suspension_hands_the_frame_to_the_interpreter(ctx):
    assert ctx.invoke("suspends", [5]) == [105 + 1 + 5, 105]
    assert both(ctx, "suspends", [-3]) == [[97 + 1 - 3, 97]] * 2


def test_bytecode_import_is_not_fused():
    lib = module_for("""
module @n
func @add(%a: i32, %b: i32) -> (i32) export {
entry:
  %c = add.i32 %a, %b
  ret %c
}
""")
    app = module_for("""
module @app
import @n.add(i, i) -> (i)
func @f(%x: i32) -> (i32) export {
entry:
  %y = call.import @n.add(%x, %x)
  ret %y
}
""")
    ctx = Context([lib, app])
    assert ctx.lookup("app.f").target.fused is None
    assert ctx.lookup("n.add").target.fused is not None
    assert ctx.invoke("app.f", [21]) == [42]


def test_many_threads_call_one_fused_function(ctx):
    s = object()
    errors, barrier = [], threading.Barrier(8)

    def worker(k):
        barrier.wait()
        for i in range(300):
            x = k * 1000 + i
            try:
                got = ctx.invoke("mix", [x, i, 2.0, s])
                want = ctx.begin_invoke("mix", [x, i, 2.0, s]).run()
                if got != want or ctx.invoke("suspends", [x]) != [x + 100 + 1 + x, x + 100]:
                    errors.append((k, i, got, want))
            except Exception as e:   # noqa: BLE001
                errors.append(e)
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors


def _chain(n: int) -> str:
    """A function keeping ``n`` values live across ``n`` native calls, then
    suspending (a deopt that must restore every one of them)."""
    body = ["  %k = const.i32 7", "  %unused = const.i32 99", "  %a0 = mov.i32 %x"]
    for i in range(1, n + 1):
        body.append(f"  %a{i} = call.import @n.add(%a{i - 1}, %k)")
    body.append(f"  %p = call.import @n.pause(%a{n})")
    total = "%p"
    for i in range(n + 1):
        body.append(f"  %s{i} = add.i32 {total}, %a{i}")
        total = f"%s{i}"
    body.append(f"  ret {total}, %unused")
    return ("module @c\nimport @n.add(i, i) -> (i)\nimport @n.pause(i) -> (i)\n"
            "func @chain(%x: i32) -> (i32, i32) export {\nentry:\n" + "\n".join(body) + "\n}\n")


def test_deopt_restores_every_live_register_and_text_stays_linear(monkeypatch):
    """Each deopt site passes its frame, not a list of the live registers:
    the generated text grows linearly with the function (it grew with
    sites x live registers, 320 ms of compile() for MobileNetV2's main)."""
    import builtins

    from tensorvm.runtime.vm import fused
    sizes = []

    def spy(src, *a, **k):
        sizes.append(len(src))
        return builtins.compile(src, *a, **k)
    monkeypatch.setattr(fused, "compile", spy, raising=False)
    for n in (50, 200):
        ctx = context_for(_chain(n), natives=[Native()])
        x = 3
        a = [x + 7 * i for i in range(n + 1)]
        want = [a[n] + 1 + sum(a), 99]
        assert ctx.invoke("chain", [x]) == want == ctx.begin_invoke("chain", [x]).run()
    assert len(sizes) == 2 and sizes[1] < 4.5 * sizes[0]


class PlainNative(NativeModule):
    """``p.id`` declared plain: fused calls take its result unchecked."""
    name = "p"
    plain = frozenset({"id", "touch"})

    def __init__(self, ids=lambda st, x: x):
        self.ids = ids

    def functions(self):
        return {"id": ("r->r", self.ids), "touch": ("r->", lambda st, x: None)}


class NotPlain(PlainNative):
    plain = frozenset()


PLAIN_PROGRAM = """
module @q
import @p.id(r) -> (r)
import @p.touch(r) -> ()
func @f(%x: ref) -> (ref) export {
entry:
  %y = call.import @p.id(%x)
  call.import @p.touch(%y)
  ret %y
}
"""


def test_plain_imports_are_fused_unchecked_only_with_plain_targets():
    """A call of an import some NativeModule declares plain has no result
    check in the fused text; binding it to a module that does not declare it
    plain (another module of that name) leaves the function to the interpreter."""
    s = object()
    ctx = context_for(PLAIN_PROGRAM, natives=[PlainNative()])
    plan = ctx.lookup("f").target.function.fused
    assert plan.plain_sites == (0, 1)
    assert ctx.lookup("f").target.fused is not None and ctx.invoke("f", [s]) == [s]
    other = context_for(PLAIN_PROGRAM, natives=[NotPlain()])
    assert other.lookup("f").target.fused is None and other.invoke("f", [s]) == [s]


def test_a_deopt_builds_only_the_ops_the_interpreter_runs():
    """A fused function's interpreter ops are built at their first run: the
    deopt on a false guard pays for its branch, not for the whole function
    (MobileNetV2's main: ~1000 argument-check instructions before its guard)."""
    ctx = context_for(PROGRAM, natives=[Native()])
    assert ctx.invoke("guarded", [0]) == [30, 20]              # deopts at the guard
    fn = ctx.lookup("guarded").target.function
    stubs = [op.__qualname__.startswith("_stub") for op in fn.ops]
    assert stubs[:2] == [True, True]       # const and add ran fused: never built
    assert not any(stubs[3:])              # the cold block and the hot one ran here
    assert ctx.begin_invoke("guarded", [0]).run() == [30, 20]  # the stubs build and run
    assert ctx.begin_invoke("guarded", [1]).run() == [21, 11]
    assert not any(op.__qualname__.startswith("_stub") for op in fn.ops)
