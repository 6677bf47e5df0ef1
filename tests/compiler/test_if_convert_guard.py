"""GCC 12 miscompiles a reduction over a select when loop if-conversion is
on (docs/decisions.md): kernels that reduce are compiled without it, plain
elementwise kernels keep it so that their selects vectorise
(cpu.if_convert_guard)."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.compiler.codegen import cpu
from tensorvm.compiler.codegen.cpu_targets import resolve

MASKED = """
func.func @main(%w: tensor<Nx8x4xi1>, %x: tensor<Nx8x4xf32>) -> (tensor<f32>, tensor<Nx8x4xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zz = stablehlo.constant dense<0.0> : tensor<Nx8x4xf32>
  %s = stablehlo.select %w, %x, %zz : tensor<Nx8x4xi1>, tensor<Nx8x4xf32>
  %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<Nx8x4xf32>, tensor<f32>) -> tensor<f32>
  %e = stablehlo.exponential %x : tensor<Nx8x4xf32>
  %m = stablehlo.select %w, %e, %x : tensor<Nx8x4xi1>, tensor<Nx8x4xf32>
  return %r, %m : tensor<f32>, tensor<Nx8x4xf32>
}
"""


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_masked_sum_and_select_are_right(n):
    res = compile_text(MASKED.replace("N", str(n)), CompileOptions(keep_source=True))
    rng = np.random.default_rng(n)
    w = rng.integers(0, 2, (n, 8, 4)).astype(bool)
    x = rng.standard_normal((n, 8, 4)).astype(np.float32)
    r, m = runtime.load_module(res.vmfb, device="local-sync").main(w, x)
    np.testing.assert_allclose(np.asarray(r), np.where(w, x, 0).sum(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(m), np.where(w, np.exp(x), x), rtol=1e-6)
    src = res.stats["c_source"]
    if cpu._is_gcc12(resolve().compiler()):      # only the reducing kernel goes without
        assert src.count("no-tree-loop-if-convert") == 1
    else:
        assert "no-tree-loop-if-convert" not in src
