"""Costly values with several readers (passes/shared_values.py): fused once
into the one kernel their readers lead into, materialized when readers need
them at different indices or in different kernels."""
from __future__ import annotations

import numpy as np

from tensorvm.compiler.api import CompileOptions, compile_text
from tvm_testing import run_text

# (exp of x*x: an op whose operands are all buffers is recomputed per reader anyway)
SAME_INDEX = """func.func @main(%x: tensor<8x64xf32>) -> tensor<64x8xf32> {
  %m = stablehlo.multiply %x, %x : tensor<8x64xf32>
  %e = stablehlo.exponential %m : tensor<8x64xf32>
  %a = stablehlo.multiply %e, %x : tensor<8x64xf32>
  %d = stablehlo.divide %a, %e : tensor<8x64xf32>
  %s = stablehlo.add %d, %e : tensor<8x64xf32>
  %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<8x64xf32>) -> tensor<64x8xf32>
  return %t : tensor<64x8xf32>
}"""

TWO_INDICES = """func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = stablehlo.multiply %x, %x : tensor<8x8xf32>
  %e = stablehlo.exponential %m : tensor<8x8xf32>
  %t = stablehlo.transpose %e, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = stablehlo.add %e, %t : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}"""

TWO_KERNELS = """func.func @main(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8xf32>) {
  %m = stablehlo.multiply %x, %x : tensor<8x64xf32>
  %e = stablehlo.exponential %m : tensor<8x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  %n = stablehlo.negate %e : tensor<8x64xf32>
  return %n, %r : tensor<8x64xf32>, tensor<8xf32>
}"""


def _stats(text):
    return compile_text(text, CompileOptions(keep_source=True)).stats


def test_value_read_at_one_index_is_computed_once_in_one_kernel():
    stats = _stats(SAME_INDEX)
    assert stats["dispatches"]["main"] == 1
    src = stats["c_source"]
    assert src[src.index("int d0_"):].count("tvm_expf(") == 1
    x = np.random.default_rng(0).standard_normal((8, 64)).astype(np.float32)
    e = np.exp(x * x)
    np.testing.assert_allclose(run_text(SAME_INDEX, x), (e * x / e + e).T, rtol=3e-6)


def test_value_read_at_two_indices_or_by_two_kernels_is_materialized():
    assert _stats(TWO_INDICES)["dispatches"]["main"] == 2
    assert _stats(TWO_KERNELS)["dispatches"]["main"] == 3
    x = np.random.default_rng(1).standard_normal((8, 8)).astype(np.float32)
    e = np.exp(x * x)
    np.testing.assert_allclose(run_text(TWO_INDICES, x), e + e.T, rtol=2e-6)


LAYER_NORM = """func.func @main(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s1 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>
  %s2 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>
  %m = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>
  %n = stablehlo.constant dense<0.03125> : tensor<4xf32>
  %mean1 = stablehlo.multiply %s1, %n : tensor<4xf32>
  %mean2 = stablehlo.multiply %s2, %n : tensor<4xf32>
  %b1 = stablehlo.broadcast_in_dim %mean1, dims = [0] : (tensor<4xf32>) -> tensor<4x32xf32>
  %b2 = stablehlo.broadcast_in_dim %mean2, dims = [0] : (tensor<4xf32>) -> tensor<4x32xf32>
  %c1 = stablehlo.subtract %x, %b1 : tensor<4x32xf32>
  %c2 = stablehlo.subtract %x, %b2 : tensor<4x32xf32>
  %sq = stablehlo.multiply %c1, %c1 : tensor<4x32xf32>
  %v = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>
  %vm = stablehlo.multiply %v, %n : tensor<4xf32>
  %r = stablehlo.rsqrt %vm : tensor<4xf32>
  %m2 = stablehlo.add %r, %m : tensor<4xf32>
  %rb = stablehlo.broadcast_in_dim %m2, dims = [0] : (tensor<4xf32>) -> tensor<4x32xf32>
  %y = stablehlo.multiply %c2, %rb : tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}"""


def _dispatch_count(text, row_fusion):
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.base import PassPipeline
    from tensorvm.compiler.pipeline import ir_passes
    module = parse_module(text)
    PassPipeline(ir_passes(row_fusion=row_fusion)).run(module)
    return sum(op.name == "tvm.dispatch" for op in module.functions[0].regions[0].blocks[0].operations)


def test_identical_reductions_merge_and_the_centred_value_is_recomputed():
    # CSE merges the two sums (not the maximum); x - mean, a cheap chain over
    # buffers, is recomputed by its two readers instead of being materialized:
    # sum, max, variance, normalize; with row fusion (CPU-only) one row kernel
    assert _dispatch_count(LAYER_NORM, row_fusion=False) == 4
    assert _dispatch_count(LAYER_NORM, row_fusion=True) == 1
    x = np.random.default_rng(2).standard_normal((4, 32)).astype(np.float32)
    c = x - x.mean(1, keepdims=True)
    want = c * (1 / np.sqrt((c * c).mean(1, keepdims=True)) + x.max(1, keepdims=True))
    np.testing.assert_allclose(run_text(LAYER_NORM, x), want, rtol=2e-5, atol=2e-6)


ROPE_TABLE = """func.func @main(%x: tensor<2x32x4x16xf32>, %f: tensor<32x16xf32>) -> tensor<2x32x4x16xf32> {
  %s = stablehlo.sine %f : tensor<32x16xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [1, 3] : (tensor<32x16xf32>) -> tensor<2x32x4x16xf32>
  %y = stablehlo.multiply %x, %sb : tensor<2x32x4x16xf32>
  return %y : tensor<2x32x4x16xf32>
}"""


def test_a_libm_call_under_a_broadcast_is_computed_once():
    # sin is a scalar libm call per element: its [32, 16] table is a buffer
    # rather than recomputed for each of the 8 (batch, head) copies
    stats = _stats(ROPE_TABLE)
    assert stats["dispatches"]["main"] == 2
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 32, 4, 16)).astype(np.float32)
    f = rng.uniform(0, 40, (32, 16)).astype(np.float32)
    want = x * np.sin(f.astype(np.float64))[None, :, None, :]
    np.testing.assert_allclose(run_text(ROPE_TABLE, x, f), want, rtol=1e-5, atol=1e-6)
