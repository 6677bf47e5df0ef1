"""Row kernels (passes/row_fusion.py, CPU loop hoisting): layer norm, RMS
norm and softmax fuse their row reductions into the kernel that reads them,
each reduction runs once per row outside the innermost loop, and values read
at other indices still come from buffers."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm.compiler.api import CompileOptions, compile_text
from tvm_testing import run_text


def _t(shape, el="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{el}>"


def layer_norm(shape):
    x, r = _t(shape), _t(shape[:-1])
    n = len(shape)
    keep = ", ".join(map(str, range(n - 1)))
    return f"""func.func @main(%x: {x}, %g: {_t(shape[-1:])}) -> {x} {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %inv = stablehlo.constant dense<{1.0 / shape[-1]!r}> : {r}
  %eps = stablehlo.constant dense<1.0e-5> : {r}
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [{n - 1}] : ({x}, tensor<f32>) -> {r}
  %mean = stablehlo.multiply %s, %inv : {r}
  %mb = stablehlo.broadcast_in_dim %mean, dims = [{keep}] : ({r}) -> {x}
  %c = stablehlo.subtract %x, %mb : {x}
  %sq = stablehlo.multiply %c, %c : {x}
  %v = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [{n - 1}] : ({x}, tensor<f32>) -> {r}
  %vm = stablehlo.multiply %v, %inv : {r}
  %ve = stablehlo.add %vm, %eps : {r}
  %rs = stablehlo.rsqrt %ve : {r}
  %rb = stablehlo.broadcast_in_dim %rs, dims = [{keep}] : ({r}) -> {x}
  %y = stablehlo.multiply %c, %rb : {x}
  %gb = stablehlo.broadcast_in_dim %g, dims = [{n - 1}] : ({_t(shape[-1:])}) -> {x}
  %o = stablehlo.multiply %y, %gb : {x}
  return %o : {x}
}}"""


def _layer_norm_ref(x, g):
    x = x.astype(np.float64)
    c = x - x.mean(-1, keepdims=True)
    return c / np.sqrt((c * c).mean(-1, keepdims=True) + 1e-5) * g


def _nested_for(src, header) -> bool:
    """Whether the loop opened by the line holding ``header`` holds another loop."""
    lines = src.splitlines()
    start = next(i for i, line in enumerate(lines) if header in line)
    depth = 0
    for line in lines[start:]:
        depth += line.count("{") - line.count("}")
        if line is not lines[start] and "for (" in line:
            return True
        if depth <= 0:
            return False
    return False


def _stats(text):
    return compile_text(text, CompileOptions(keep_source=True)).stats


@pytest.mark.parametrize("shape", [(4, 32), (2, 3, 100), (7,), (5, 1, 13)])
def test_layer_norm_is_one_row_kernel(shape):
    text = layer_norm(shape)
    stats = _stats(text)
    assert stats["dispatches"]["main"] == 1
    src = stats["c_source"]
    loop = f"for (int64_t i{len(shape) - 1} = c0;"          # the element loop: no reduction inside
    assert loop in src and not _nested_for(src, loop)
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    g = rng.standard_normal(shape[-1:]).astype(np.float32)
    np.testing.assert_allclose(run_text(text, x, g), _layer_norm_ref(x, g), rtol=1e-4, atol=1e-5)


SOFTMAX = """func.func @main(%x: tensor<6x40xf32>) -> tensor<6x40xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<6x40xf32>, tensor<f32>) -> tensor<6xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<6xf32>) -> tensor<6x40xf32>
  %d = stablehlo.subtract %x, %mb : tensor<6x40xf32>
  %e = stablehlo.exponential %d : tensor<6x40xf32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<6x40xf32>, tensor<f32>) -> tensor<6xf32>
  %k = stablehlo.reshape %s : (tensor<6xf32>) -> tensor<6x1xf32>
  %sb = stablehlo.broadcast_in_dim %k, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x40xf32>
  %y = stablehlo.divide %e, %sb : tensor<6x40xf32>
  return %y : tensor<6x40xf32>
}"""


def test_softmax_rows():
    # exp(x - max) is read by the row sum's loop and by the output loop (two
    # indices of one row): it stays a buffer, so two dispatches
    assert _stats(SOFTMAX)["dispatches"]["main"] == 2
    x = np.random.default_rng(1).standard_normal((6, 40)).astype(np.float32) * 4
    x[2, 5] = -np.inf
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(run_text(SOFTMAX, x), e / e.sum(1, keepdims=True), rtol=2e-6, atol=1e-7)


RMS_THEN_TRANSPOSE = """func.func @main(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16x8xf32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sq = stablehlo.multiply %x, %x : tensor<8x16xf32>
  %s = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %r = stablehlo.rsqrt %s : tensor<8xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %y = stablehlo.multiply %x, %rb : tensor<8x16xf32>
  %t = stablehlo.transpose %y, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %y, %t, %r : tensor<8x16xf32>, tensor<16x8xf32>, tensor<8xf32>
}"""


def test_rowed_values_read_at_other_indices_come_from_buffers():
    x = np.random.default_rng(2).standard_normal((8, 16)).astype(np.float32)
    y, t, r = run_text(RMS_THEN_TRANSPOSE, x)
    want_r = 1 / np.sqrt((x.astype(np.float64) ** 2).sum(1))
    np.testing.assert_allclose(r, want_r, rtol=2e-6)
    np.testing.assert_allclose(y, x * want_r[:, None], rtol=2e-6)
    np.testing.assert_array_equal(t, y.T)


DYNAMIC_LAYER_NORM = """func.func @main(%x: tensor<?x48xf32>, %g: tensor<48xf32>) -> tensor<?x48xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %inv = stablehlo.constant dense<0.020833333> : tensor<f32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<f32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x48xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %c48 = stablehlo.constant dense<48> : tensor<1xi32>
  %keep = stablehlo.concatenate %n1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %full = stablehlo.concatenate %n1, %c48, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %invk = stablehlo.dynamic_broadcast_in_dim %inv, %keep, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x48xf32>, tensor<f32>) -> tensor<?xf32>
  %sk = stablehlo.dynamic_broadcast_in_dim %s, %keep, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
  %mean = stablehlo.multiply %sk, %invk : tensor<?x1xf32>
  %mb = stablehlo.dynamic_broadcast_in_dim %mean, %full, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x48xf32>
  %c = stablehlo.subtract %x, %mb : tensor<?x48xf32>
  %sq = stablehlo.multiply %c, %c : tensor<?x48xf32>
  %v = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x48xf32>, tensor<f32>) -> tensor<?xf32>
  %vk = stablehlo.dynamic_broadcast_in_dim %v, %keep, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
  %vm = stablehlo.multiply %vk, %invk : tensor<?x1xf32>
  %epsk = stablehlo.dynamic_broadcast_in_dim %eps, %keep, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
  %ve = stablehlo.add %vm, %epsk : tensor<?x1xf32>
  %r = stablehlo.rsqrt %ve : tensor<?x1xf32>
  %rb = stablehlo.dynamic_broadcast_in_dim %r, %full, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x48xf32>
  %y = stablehlo.multiply %c, %rb : tensor<?x48xf32>
  %gb = stablehlo.dynamic_broadcast_in_dim %g, %full, dims = [1] : (tensor<48xf32>, tensor<2xi32>) -> tensor<?x48xf32>
  %o = stablehlo.multiply %y, %gb : tensor<?x48xf32>
  return %o : tensor<?x48xf32>
}"""


def test_layer_norm_with_a_dynamic_batch_is_one_row_kernel():
    """JAX's symbolic-batch export: row broadcasts are dynamic_broadcast_in_dim.
    Its reductions fuse into the kernels reading them back, as the static
    layer norm's do (they were five dispatches: each reduce and each step
    on the row values); the centred value stays a buffer (two dispatches:
    a dynamic broadcast is not recomputed per reader)."""
    assert _stats(DYNAMIC_LAYER_NORM)["dispatches"]["main"] == 2
    rng = np.random.default_rng(2)
    g = rng.standard_normal(48).astype(np.float32)
    for rows in (1, 5, 33):
        x = (rng.standard_normal((rows, 48)) * 3 + 1).astype(np.float32)
        np.testing.assert_allclose(run_text(DYNAMIC_LAYER_NORM, x, g), _layer_norm_ref(x, g),
                                   rtol=1e-4, atol=1e-5)
