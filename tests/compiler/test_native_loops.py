"""Native loops (codegen/native_loop.py): a qualifying while runs as one CPU
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


def test_loop_whose_counter_is_used_after_stays_in_the_vm():
    text = """
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
    res = compile_text(text, CompileOptions(keep_source=True))
    assert "_native(" not in res.stats["c_source"]
    i, v = runtime.load_module(res.vmfb, device="local-sync").main(np.arange(4, dtype=np.float32))
    assert int(np.asarray(i)) == 3
    np.testing.assert_array_equal(np.asarray(v), np.arange(4, dtype=np.float32) * 8)
