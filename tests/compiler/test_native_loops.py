"""Native loops (host/native_loop.py): a qualifying while runs as one CPU
entry point; it must compute what the VM loop computes, and variants without
the entry point (GPU targets) must still take the VM loop."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.runtime.modules import hal as hal_module

# A tiny RNN: h <- tanh(x[t] @ W + h), out[t] = h; plus a loop-invariant operand
# and a counter starting at `start` (a host value from outside the loop).
RNN = """
func.func @main(%x: tensor<5x2x3xf32>, %w: tensor<3x3xf32>, %h0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<5x2x3xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<5> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<5x2x3xf32>
  %r:5 = stablehlo.while(%i = %c0, %h = %h0, %xs = %x, %ww = %w, %out = %z) : tensor<i32>, tensor<2x3xf32>, tensor<5x2x3xf32>, tensor<3x3xf32>, tensor<5x2x3xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.dynamic_slice %xs, %i, %c0, %c0, sizes = [1, 2, 3] : (tensor<5x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x3xf32>
      %xt = stablehlo.reshape %s : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
      %m = stablehlo.dot_general %xt, %ww, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
      %a = stablehlo.add %m, %h : tensor<2x3xf32>
      %hn = stablehlo.tanh %a : tensor<2x3xf32>
      %u = stablehlo.reshape %hn : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
      %o = stablehlo.dynamic_update_slice %out, %u, %i, %c0, %c0 : (tensor<5x2x3xf32>, tensor<1x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<5x2x3xf32>
      %in = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %in, %hn, %xs, %ww, %o : tensor<i32>, tensor<2x3xf32>, tensor<5x2x3xf32>, tensor<3x3xf32>, tensor<5x2x3xf32>
    }
  return %r#1, %r#4 : tensor<2x3xf32>, tensor<5x2x3xf32>
}
"""


def _reference(x, w, h):
    outs = []
    for t in range(x.shape[0]):
        h = np.tanh(x[t] @ w + h)
        outs.append(h)
    return h, np.stack(outs)


def _inputs():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((5, 2, 3)).astype(np.float32),
            rng.standard_normal((3, 3)).astype(np.float32),
            rng.standard_normal((2, 3)).astype(np.float32))


@pytest.fixture(scope="module")
def compiled():
    return compile_text(RNN, CompileOptions(keep_source=True))


def test_loop_becomes_one_entry_point(compiled):
    assert "_native(const tvm_dispatch_state_t* st" in compiled.stats["c_source"]
    assert "executable.has_entry" in compiled.stats["vm_assembly"]


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_native_loop_matches_reference(compiled, device):
    x, w, h = _inputs()
    got = runtime.load_module(compiled.vmfb, device=device).main(x, w, h)
    for g, e in zip(got, _reference(x, w, h)):
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-5, atol=1e-6)


def test_variant_without_the_entry_takes_the_vm_loop(compiled, monkeypatch):
    calls = []

    def absent(state, exe, name):
        calls.append(name)
        return 0
    monkeypatch.setitem(hal_module.FUNCTIONS, "executable.has_entry", ("rr->i", absent))
    x, w, h = _inputs()
    got = runtime.load_module(compiled.vmfb, device="local-sync").main(x, w, h)
    assert calls
    for g, e in zip(got, _reference(x, w, h)):
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-5, atol=1e-6)


# x doubled three times; the counter is returned too
DOUBLING = """
    func.func @main(%x: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
      %c0 = stablehlo.constant dense<0> : tensor<i32>
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.constant dense<3> : tensor<i32>
      %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
        cond {
          %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
          stablehlo.return %p : tensor<i1>
        } do {
          %v2 = stablehlo.add %v, %v : tensor<4xf32>
          %i2 = stablehlo.add %i, %c1 : tensor<i32>
          stablehlo.return %i2, %v2 : tensor<i32>, tensor<4xf32>
        }
      return %r#0, %r#1 : tensor<i32>, tensor<4xf32>
    }
    """


def test_loop_whose_counter_is_used_after_runs_natively():
    """The final counter comes back through a host result buffer the VM reads."""
    res = compile_text(DOUBLING, CompileOptions(keep_source=True))
    assert "_native(" in res.stats["c_source"]
    i, v = runtime.load_module(res.vmfb, device="local-sync").main(np.arange(4, dtype=np.float32))
    assert int(np.asarray(i)) == 3
    np.testing.assert_array_equal(np.asarray(v), np.arange(4, dtype=np.float32) * 8)


# A greedy-decoding shape: the exit reads a device scalar (the argmax a
# kernel made), host f32 scalars feed the kernels, an `if` inside the body
# passes a carried value through unchanged on one arm, a nested loop refines
# it, and two carried values swap places every step.
DECODE_LIKE = """
func.func @main(%x: tensor<8xf32>, %stop: tensor<i32>) -> (tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<f32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %n = stablehlo.constant dense<20> : tensor<i32>
  %half = stablehlo.constant dense<0.5> : tensor<f32>
  %r:6 = stablehlo.while(%i = %c0, %v = %x, %a = %x, %b = %half, %go = %c1, %s = %half) : tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<f32>, tensor<i32>, tensor<f32>
    cond {
      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %g = stablehlo.compare NE, %go, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %p = stablehlo.and %lt, %g : tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %bb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
      %m = stablehlo.multiply %v, %bb : tensor<8xf32>
      %odd = stablehlo.remainder %i, %c2 : tensor<i32>
      %isodd = stablehlo.compare EQ, %odd, %c1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %w = "stablehlo.if"(%isodd) ({
        stablehlo.return %v : tensor<8xf32>
      }, {
        %k:2 = stablehlo.while(%j = %c0, %u = %m) : tensor<i32>, tensor<8xf32>
          cond {
            %q = stablehlo.compare LT, %j, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
            stablehlo.return %q : tensor<i1>
          } do {
            %u2 = stablehlo.add %u, %u : tensor<8xf32>
            %j2 = stablehlo.add %j, %c1 : tensor<i32>
            stablehlo.return %j2, %u2 : tensor<i32>, tensor<8xf32>
          }
        stablehlo.return %k#1 : tensor<8xf32>
      }) : (tensor<i1>) -> tensor<8xf32>
      %big = stablehlo.reduce(%w init: %b) applies stablehlo.maximum across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      %lim = stablehlo.convert %stop : (tensor<i32>) -> tensor<f32>
      %under = stablehlo.compare LT, %big, %lim, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %gon = stablehlo.convert %under : (tensor<i1>) -> tensor<i32>
      %s2 = stablehlo.add %s, %half : tensor<f32>
      %in = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %in, %w, %v, %b, %gon, %s2 : tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<f32>, tensor<i32>, tensor<f32>
    }
  return %r#0, %r#1, %r#2, %x, %r#5 : tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<f32>
}
"""


def _decode_like_reference(x, stop):
    i, v, a, b, go, s = 0, x.copy(), x.copy(), np.float32(0.5), 1, np.float32(0.5)
    while i < 20 and go != 0:
        m = v * s
        w = v if i % 2 == 1 else m * 4
        big = max(np.float32(b), w.max())
        gon = int(big < np.float32(stop))
        i, v, a, go, s = i + 1, w, v, gon, np.float32(s + np.float32(0.5))
    return i, v, a, x, s


@pytest.mark.parametrize("stop", [1000, 10 ** 6, 0])
def test_decode_shaped_loop_is_native_and_matches(stop):
    res = compile_text(DECODE_LIKE, CompileOptions(keep_source=True))
    src = res.stats["c_source"]
    assert src.count("_native(const tvm_dispatch_state_t* st") == 1   # the nested loop is inside it
    x = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    want = _decode_like_reference(x, stop)
    for device in ("local-sync", "local-task"):
        got = runtime.load_module(res.vmfb, device=device).main(x, np.int32(stop))
        assert int(np.asarray(got[0])) == want[0]
        for g, e in zip(got[1:], want[1:]):
            np.testing.assert_allclose(np.asarray(g), e, rtol=1e-6)


# A cache written one row per step (a KV cache): updated in the loop's own
# state buffer.  In HAZARD the old cache is read after the update, so that
# update must copy instead.
CACHE = """
func.func @main(%x: tensor<6x4xf32>, %c: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<6> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<4xf32>
  %r:3 = stablehlo.while(%i = %c0, %kv = %c, %acc = %z) : tensor<i32>, tensor<6x4xf32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %row = stablehlo.dynamic_slice %x, %i, %c0, sizes = [1, 4] : (tensor<6x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
      %t = stablehlo.tanh %row : tensor<1x4xf32>
      %kv2 = stablehlo.dynamic_update_slice %kv, %t, %i, %c0 : (tensor<6x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<6x4xf32>
      %s = stablehlo.reduce(%READ init: %z) applies stablehlo.add across dimensions = [0] : (tensor<6x4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %acc2 = stablehlo.add %acc, %s : tensor<4xf32>
      %in = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %in, %kv2, %acc2 : tensor<i32>, tensor<6x4xf32>, tensor<4xf32>
    }
  return %r#1, %r#2 : tensor<6x4xf32>, tensor<4xf32>
}
"""


def _cache_reference(x, c, read_new):
    c, acc = c.copy(), np.zeros(4, np.float32)
    for i in range(6):
        old = c.copy()
        c[i] = np.tanh(x[i])
        acc = acc + (c if read_new else old).sum(0)
    return c, acc


@pytest.mark.parametrize("read_new", [True, False], ids=["in-place", "hazard"])
def test_cache_update_in_place_only_when_safe(read_new):
    text = CACHE.replace("%READ", "%kv2" if read_new else "%kv")
    res = compile_text(text, CompileOptions(keep_source=True))
    assert ("updated in place" in res.stats["c_source"]) == read_new
    rng = np.random.default_rng(1)
    x, c = rng.standard_normal((6, 4)).astype(np.float32), rng.standard_normal((6, 4)).astype(np.float32)
    c_before = c.copy()
    got = runtime.load_module(res.vmfb, device="local-sync").main(x, c)
    for g, e in zip(got, _cache_reference(x, c_before, read_new)):
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(c, c_before)      # the caller's array is never written


def _hal_calls(monkeypatch) -> list:
    """Counts every call the VM makes into the hal module (each VM loop
    iteration records its dispatches through these)."""
    calls = []
    for name, (conv, fn) in list(hal_module.FUNCTIONS.items()):
        def counted(*a, _fn=fn, _name=name):
            calls.append(_name)
            return _fn(*a)
        monkeypatch.setitem(hal_module.FUNCTIONS, name, (conv, counted))
    return calls


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_no_vm_work_per_iteration(monkeypatch, device):
    """A data-dependent trip count (1 or 11 iterations, nested loop and if
    included) costs the VM the same calls: the iterations run natively."""
    vmfb = compile_text(DECODE_LIKE, CompileOptions()).vmfb
    x = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    counts = {}
    for stop, trips in ((0, 1), (10 ** 6, 11)):
        calls = _hal_calls(monkeypatch)
        m = runtime.load_module(vmfb, device=device)
        m.main(x, np.int32(stop))             # first call: records, binds
        calls.clear()
        i, *_ = m.main(x, np.int32(stop))
        assert int(np.asarray(i)) == trips
        counts[trips] = len(calls)
        monkeypatch.undo()
    assert counts[1] == counts[11]
    # the same program on the VM loop (no entry point) pays per iteration
    vm_counts = {}
    for stop, trips in ((0, 1), (10 ** 6, 11)):
        calls = _hal_calls(monkeypatch)
        monkeypatch.setitem(hal_module.FUNCTIONS, "executable.has_entry", ("rr->i", lambda *a: 0))
        m = runtime.load_module(vmfb, device=device)
        calls.clear()
        m.main(x, np.int32(stop))
        vm_counts[trips] = len(calls)
        monkeypatch.undo()
    assert vm_counts[11] > vm_counts[1] + 10


@pytest.mark.parametrize("text", ["DECODE_LIKE", "CACHE"])
def test_compile_time_host_values_are_not_uploaded_per_call(monkeypatch, text):
    """Host scalars known at compile time (a loop's initial counter, a fill
    value) are bound from module rodata (host/host_constants.py): a call
    imports no host buffer, and the values are right."""
    src = globals()[text].replace("%READ", "%kv")
    vmfb = compile_text(src, CompileOptions()).vmfb
    rng = np.random.default_rng(2)
    args = (np.linspace(0.5, 2.0, 8, dtype=np.float32), np.int32(5)) if text == "DECODE_LIKE" else \
        tuple(rng.standard_normal((6, 4)).astype(np.float32) for _ in range(2))
    want = [np.asarray(r) for r in runtime.load_module(vmfb, device="local-sync").main(*args)]
    calls = _hal_calls(monkeypatch)
    m = runtime.load_module(vmfb, device="local-sync")
    m.main(*args)
    calls.clear()
    got = m.main(*args)
    assert "allocator.import" not in calls and "allocator.allocate" in calls
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)
    expected = _decode_like_reference(*args) if text == "DECODE_LIKE" else \
        _cache_reference(*args, read_new=False)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-5, atol=1e-6)


def _decode_like_reference(x, stop):
    i, v, a, b, go, s = 0, x.copy(), x.copy(), np.float32(0.5), True, np.float32(0.5)
    while i < 20 and go:
        w = v if i % 2 else v * s * 4
        go = max(float(w.max()), float(b)) < float(stop)
        i, v, a, s = i + 1, w, v, s + np.float32(0.5)
    return i, v, a, x, s


PREFILL_THEN_LOOP = """
func.func @main(%x: tensor<8x8xf32>, %n: tensor<i32>) -> tensor<8x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %a = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = stablehlo.tanh %a : tensor<8x8xf32>
  %b = stablehlo.dot_general %t, %x, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %u = stablehlo.tanh %b : tensor<8x8xf32>
  %m = stablehlo.dot_general %u, %t, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %r:2 = stablehlo.while(%i = %c0, %w = %u) : tensor<i32>, tensor<8x8xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %p = stablehlo.dot_general %w, %m, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      %q = stablehlo.tanh %p : tensor<8x8xf32>
      %i2 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %i2, %q : tensor<i32>, tensor<8x8xf32>
    }
  return %r#1 : tensor<8x8xf32>
}"""


def test_transients_of_a_cached_loop_function_share_one_allocation(monkeypatch):
    """The prefill's intermediate values and the loop's state live in one
    slab allocated once per call (host/host_slab.py); the returned value
    keeps a buffer of its own, and the values are right on both CPU drivers."""
    vmfb = compile_text(PREFILL_THEN_LOOP, CompileOptions()).vmfb
    x = np.random.default_rng(4).standard_normal((8, 8)).astype(np.float32) * 0.3
    t = np.tanh(x @ x)
    u = np.tanh(t @ x)
    m, w = u @ t, u
    for _ in range(5):
        w = np.tanh(w @ m)
    for device in ("local-sync", "local-task"):
        calls = _hal_calls(monkeypatch)
        mod = runtime.load_module(vmfb, device=device)
        mod.main(x, np.int32(5))
        calls.clear()
        got = np.asarray(mod.main(x, np.int32(5)))
        monkeypatch.undo()
        np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-6)
        # the slab, the loop's returned state and its copy out (6 with one buffer per value)
        assert calls.count("allocator.allocate") <= 3


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_trace_has_each_native_loops_host_cost_per_iteration(compiled, device):
    """A native loop is one dispatch; with a tracer its event carries what the
    loop did inside: iterations, kernel calls, time in and outside kernels."""
    from tensorvm.hal.trace import Tracer, format_summary, summary
    per_iteration = compiled.stats["c_source"].count("++tvm_n_disp;")   # no nested loop in RNN
    tracer = Tracer()
    module = runtime.load_module(compiled.vmfb, device=device, trace=tracer)
    try:
        for _ in range(2):
            got = module.main(*_inputs())
    finally:
        module.device.tracer = None         # the device is shared per URI: stop tracing
    np.testing.assert_allclose(np.asarray(got[0]), _reference(*_inputs())[0], rtol=1e-5, atol=1e-6)
    loops = [e for e in tracer.spans("dispatch") if "iterations" in e.get("args", {})]
    assert len(loops) == 2 and all(e["name"].endswith("_native") for e in loops)
    for e in loops:
        a = e["args"]
        assert (a["iterations"], a["inner_iterations"]) == (5, 0)
        assert a["dispatches"] == 5 * per_iteration > 0
        assert 0 < a["kernel_us"] <= e["dur"] + 1
        assert a["host_us_per_iteration"] == pytest.approx(a["host_us"] / 5)
    row = summary(tracer)["dispatches"][loops[0]["name"]]
    assert (row["runs"], row["iterations"], row["dispatches"]) == (2, 10, 10 * per_iteration)
    text = format_summary(tracer)
    assert "native loops" in text and "10 iterations" in text and "us host/iteration" in text


def test_nested_loop_iterations_are_counted_apart():
    res = compile_text(DECODE_LIKE, CompileOptions(keep_source=True))
    from tensorvm.hal.trace import Tracer
    tracer = Tracer()
    x = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    module = runtime.load_module(res.vmfb, device="local-sync", trace=tracer)
    try:
        got = module.main(x, np.int32(1000))
    finally:
        module.device.tracer = None
    assert int(np.asarray(got[0])) == _decode_like_reference(x, 1000)[0]
    a, = [e["args"] for e in tracer.spans("dispatch") if "iterations" in e.get("args", {})]
    assert a["iterations"] == int(np.asarray(got[0])) and a["inner_iterations"] > a["iterations"]


def test_untraced_loop_does_not_measure(compiled, monkeypatch):
    """Without a tracer the bounds do not ask for stats: the loop reads no
    clock per kernel (its record is left as it was)."""
    from tensorvm.vmfb.cpu_abi import BOUNDS_MEASURE
    seen = []
    bounds = hal_module.FUNCTIONS["invocation.bounds"]

    def spy(state, device):
        buf = bounds[1](state, device)
        seen.append(int(buf.storage.view(np.uint64)[BOUNDS_MEASURE]))
        return buf
    monkeypatch.setitem(hal_module.FUNCTIONS, "invocation.bounds", (bounds[0], spy))
    runtime.load_module(compiled.vmfb, device="local-sync").main(*_inputs())
    assert seen == [0]
