"""Kernel index arithmetic (codegen/index_maps.py): reshapes map group by
group and split digits fold back into offsets, so elementwise kernels behind
reshapes have no division or modulo in their innermost loop, and every
reshape still reads the right elements."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.compiler.codegen.index_maps import Split, delinearize, linearize, reshape_index
from tvm_testing import innermost_loop_bodies, run_text


def _tmp(expr):
    return "T"


def test_reshape_of_unit_dims_is_the_identity():
    assert reshape_index(("i0", "i1"), (1, 64, 512), (64, 512), _tmp) == ("0", "i0", "i1")
    assert reshape_index(("i0", "i1", "i2"), (64, 512), (64, 1, 512), _tmp) == ("i0", "i2")


def test_split_and_merge_combine_without_division():
    # [64, 128] read as [64, 2, 64] (heads split): one multiply-add
    assert reshape_index(("i0", "i1", "i2"), (64, 128), (64, 2, 64), _tmp) == ("i0", "(i1) * 64 + i2")
    # [64, 2, 64] read as [64, 128] (heads merged): digits of i1 ...
    src = reshape_index(("i0", "i1"), (64, 2, 64), (64, 128), _tmp)
    assert src == ("i0", "(i1 / 64)", "(i1 % 64)")
    # ... that a load folds back into i1
    assert linearize(src, (64, 2, 64)) == "(i0) * 128 + i1"


def test_digits_fold_only_when_they_match_the_shape():
    d = delinearize("L", (4, 6))
    assert isinstance(d[0], Split) and d[0].size is None and d[1].size == 6
    assert linearize(d, (4, 6)) == "L"
    assert linearize((d[1], d[0]), (6, 4)) == "((L % 6)) * 4 + (L / 6)"     # transposed: no fold
    assert linearize(d, (4, 7)) != "L"
    assert linearize(("0", *delinearize("L", (3, 1, 5))), (1, 3, 1, 5)) == "L"


GELU_BEHIND_RESHAPE = """func.func @main(%x: tensor<1x64x512xf32>) -> tensor<64x512xf32> {
  %r = stablehlo.reshape %x : (tensor<1x64x512xf32>) -> tensor<64x512xf32>
  %c3 = stablehlo.constant dense<3.0> : tensor<f32>
  %k = stablehlo.broadcast_in_dim %c3, dims = [] : (tensor<f32>) -> tensor<64x512xf32>
  %p = stablehlo.power %r, %k : tensor<64x512xf32>
  %t = stablehlo.tanh %p : tensor<64x512xf32>
  %y = stablehlo.add %t, %r : tensor<64x512xf32>
  return %y : tensor<64x512xf32>
}"""

HEADS_MERGED = """func.func @main(%x: tensor<2x4x8x16xf32>, %b: tensor<128xf32>) -> tensor<2x8x128xf32> {
  %t = stablehlo.transpose %x, dims = [0, 2, 1, 3] : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
  %e = stablehlo.exponential %t : tensor<2x8x4x16xf32>
  %r = stablehlo.reshape %e : (tensor<2x8x4x16xf32>) -> tensor<2x8x64xf32>
  %r2 = stablehlo.reshape %x : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
  %r3 = stablehlo.reshape %r2 : (tensor<2x8x4x16xf32>) -> tensor<2x8x64xf32>
  %s = stablehlo.add %r, %r3 : tensor<2x8x64xf32>
  %w = stablehlo.concatenate %s, %s, dim = 2 : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x128xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [2] : (tensor<128xf32>) -> tensor<2x8x128xf32>
  %y = stablehlo.multiply %w, %bb : tensor<2x8x128xf32>
  return %y : tensor<2x8x128xf32>
}"""


def test_elementwise_kernel_behind_reshape_has_no_division_in_its_inner_loop():
    src = compile_text(GELU_BEHIND_RESHAPE, CompileOptions(keep_source=True)).stats["c_source"]
    bodies = innermost_loop_bodies(src)
    assert bodies
    for body in bodies:
        text = "\n".join(body)
        assert " / " not in text and " % " not in text and "powf" not in text, text


def test_gelu_values():
    x = np.random.default_rng(0).standard_normal((1, 64, 512)).astype(np.float32)
    got = run_text(GELU_BEHIND_RESHAPE, x)
    r = x.reshape(64, 512).astype(np.float64)
    np.testing.assert_allclose(got, np.tanh(r ** 3) + r, rtol=2e-6, atol=2e-6)


def test_merged_heads_values():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 4, 8, 16)).astype(np.float32)
    b = rng.standard_normal(128).astype(np.float32)
    got = run_text(HEADS_MERGED, x, b)
    s = np.exp(x.transpose(0, 2, 1, 3)).reshape(2, 8, 64) + x.reshape(2, 8, 64)
    np.testing.assert_allclose(got, np.concatenate([s, s], 2) * b, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("src, dst, perm", [
    ((6, 4), (4, 6), None), ((2, 3, 4), (4, 3, 2), None), ((1, 6, 1, 4), (3, 8), None),
    ((24,), (2, 1, 3, 4), None), ((2, 12), (2, 3, 4), (2, 0, 1)), ((3, 8), (2, 12), (1, 0)),
    ((5, 1, 7), (35,), None),
])
def test_reshape_values(src, dst, perm):
    n = int(np.prod(src))
    out_shape = tuple(dst[p] for p in perm) if perm else dst
    fmt = "x".join(map(str, src)) + "xf32"
    dfmt = "x".join(map(str, dst)) + "xf32"
    ofmt = "x".join(map(str, out_shape)) + "xf32"
    tail = (f"  %t = stablehlo.transpose %n, dims = [{', '.join(map(str, perm))}] : "
            f"(tensor<{dfmt}>) -> tensor<{ofmt}>\n  return %t : tensor<{ofmt}>" if perm
            else f"  return %n : tensor<{ofmt}>")
    text = f"""func.func @main(%x: tensor<{fmt}>) -> tensor<{ofmt}> {{
  %r = stablehlo.reshape %x : (tensor<{fmt}>) -> tensor<{dfmt}>
  %n = stablehlo.negate %r : tensor<{dfmt}>
{tail}
}}"""
    x = np.arange(n, dtype=np.float32).reshape(src)
    want = -x.reshape(dst)
    if perm:
        want = want.transpose(perm)
    np.testing.assert_array_equal(run_text(text, x), want)


HEADS_AFTER_TRANSPOSE = """func.func @main(%x: tensor<2x4x8x16xf32>) -> tensor<16x64xf32> {
  %t = stablehlo.transpose %x, dims = [0, 2, 1, 3] : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
  %r = stablehlo.reshape %t : (tensor<2x8x4x16xf32>) -> tensor<16x64xf32>
  %y = stablehlo.negate %r : tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}"""


def test_heads_merged_after_a_transpose_walk_contiguous_runs():
    # the innermost index (h * 16 + d) is walked as two loops, so the source
    # is read in runs of 16 without a division per element
    src = compile_text(HEADS_AFTER_TRANSPOSE, CompileOptions(keep_source=True)).stats["c_source"]
    text = "\n".join(line for b in innermost_loop_bodies(src) for line in b)
    assert "pi1" in text and "i1 /" not in text and "i1 %" not in text      # (i0: per row)
    x = np.random.default_rng(4).standard_normal((2, 4, 8, 16)).astype(np.float32)
    np.testing.assert_array_equal(run_text(HEADS_AFTER_TRANSPOSE, x),
                                  -x.transpose(0, 2, 1, 3).reshape(16, 64))
