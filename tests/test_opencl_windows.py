"""Window reductions of few taps on the opencl driver (PoCL in CI) and the
CPU: the forms that are not a max/min tree are unrolled in the loop's order
(codegen/pull_ops.py: _unrolled_window)."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import hal, runtime
from tvm_testing import compiled

REASON = hal.registry.driver_availability("opencl")
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"opencl unavailable: {REASON}")


AVG_POOL = """func.func @main(%x: tensor<2x7x6x5xf32>, %i: tensor<2x7x6x5xi32>)
    -> (tensor<2x4x3x5xf32>, tensor<2x4x3x5xf32>, tensor<2x4x3x5xi32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %lo = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,
      padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}
     : (tensor<2x7x6x5xf32>, tensor<f32>) -> tensor<2x4x3x5xf32>
  %1:2 = "stablehlo.reduce_window"(%x, %i, %lo, %zi) ({
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
      %gt = stablehlo.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
      %k = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
      stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,
      padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}
     : (tensor<2x7x6x5xf32>, tensor<2x7x6x5xi32>, tensor<f32>, tensor<i32>)
       -> (tensor<2x4x3x5xf32>, tensor<2x4x3x5xi32>)
  return %0, %1#0, %1#1 : tensor<2x4x3x5xf32>, tensor<2x4x3x5xf32>, tensor<2x4x3x5xi32>
}"""


def test_small_windows_unrolled_match_numpy():
    """Windows of few taps that are not a max/min tree (a sum, a two-result
    arg-max) are unrolled in the loop's order (pull_ops._unrolled_window):
    padded taps give the init, the first of equal maxima keeps its index,
    and opencl matches local-sync bit for bit."""
    rng = np.random.default_rng(0)
    x = rng.integers(-4, 5, (2, 7, 6, 5)).astype(np.float32)     # ties for the arg-max
    idx = np.arange(x.size, dtype=np.int32).reshape(x.shape)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    sums = np.zeros((2, 4, 3, 5), np.float32)
    best = np.full((2, 4, 3, 5), -np.inf, np.float32)
    arg = np.zeros((2, 4, 3, 5), np.int32)
    for i in range(4):
        for j in range(3):
            sums[:, i, j] = xp[:, 2 * i:2 * i + 3, 2 * j:2 * j + 3].sum(axis=(1, 2))
            for di in range(3):
                for dj in range(3):
                    r, c = 2 * i + di - 1, 2 * j + dj - 1
                    if 0 <= r < 7 and 0 <= c < 6:
                        take = x[:, r, c] > best[:, i, j]
                        best[:, i, j] = np.where(take, x[:, r, c], best[:, i, j])
                        arg[:, i, j] = np.where(take, idx[:, r, c], arg[:, i, j])
    vmfb = compiled(AVG_POOL, ("cpu", "opencl"))
    outs = [[np.asarray(o) for o in runtime.load_module(vmfb, device=d).main(x, idx)]
            for d in ("local-sync", "opencl")]
    for got in outs:
        np.testing.assert_array_equal(got[0], sums)
        np.testing.assert_array_equal(got[1], best)
        np.testing.assert_array_equal(got[2], arg)
    for a, b in zip(*outs):
        assert a.tobytes() == b.tobytes()
