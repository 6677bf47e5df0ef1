"""The fast CPU kernels with a symbolic batch: one module, compiled once with
a ``?`` batch dim, takes the packed GEMM (codegen/gemm.py) or the direct
convolution (codegen/cpu_conv.py) kernel, and runs at several batch sizes
on both CPU drivers against numpy."""
import re

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.runtime import load_module

SIZES = (1, 3, 17, 64)
DEVICES = ("local-sync", "local-task")
rng = np.random.default_rng(0)


def _f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def _compile(src):
    """(vmfb bytes, generated C) of ``src``."""
    out = compile_text(src, CompileOptions(keep_source=True))
    return out.vmfb, out.stats["c_source"]


def _check(src, make_args, ref, fast_path: str, rtol=1e-4, atol=1e-4):
    data, c = _compile(src)
    found = fast_path.search(c) if hasattr(fast_path, "search") else fast_path in c
    assert found, "the fast kernel was not taken"
    assert "const int64_t s0 = " in c      # the batch is read at run time
    for device in DEVICES:
        mod = load_module(data, device=device)
        for n in SIZES:
            args = make_args(n)
            out = np.asarray(mod.main(*args))
            want = ref(*args)
            assert out.shape == want.shape, (device, n, out.shape, want.shape)
            np.testing.assert_allclose(out, want, rtol=rtol, atol=atol, err_msg=f"{device} n={n}")


@pytest.mark.parametrize("K,N", [(300, 70), (2048, 64), (64, 10)])
def test_dot_symbolic_rows_with_bias_epilogue(K, N):
    # rows < 4 take the GEMV kernel, up to 16 read B in place, more pack B:
    # all chosen per call from the one compiled kernel.
    src = f"""
func.func @main(%a: tensor<?x{K}xf32>, %b: tensor<{K}x{N}xf32>, %c: tensor<{N}xf32>) -> tensor<?x{N}xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x{K}xf32>, tensor<{K}x{N}xf32>) -> tensor<?x{N}xf32>
  %s = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x{K}xf32>) -> tensor<i32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %cn = stablehlo.constant dense<{N}> : tensor<1xi32>
  %sh = stablehlo.concatenate %s1, %cn, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %bb = stablehlo.dynamic_broadcast_in_dim %c, %sh, dims = [1] : (tensor<{N}xf32>, tensor<2xi32>) -> tensor<?x{N}xf32>
  %1 = stablehlo.add %0, %bb : tensor<?x{N}xf32>
  return %1 : tensor<?x{N}xf32>
}}"""
    b, c = _f32(K, N), _f32(N)
    _check(src, lambda n: (_f32(n, K), b, c), lambda a, b, c: a @ b + c, "tvm_gemm_f32")


def test_dot_symbolic_rows_transposed_rhs():
    # rhs stored (N, K): the GEMV kernel's K-vector form, B packed by columns.
    src = """
func.func @main(%a: tensor<?x96xf32>, %b: tensor<40x96xf32>) -> tensor<?x40xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<?x96xf32>, tensor<40x96xf32>) -> tensor<?x40xf32>
  return %0 : tensor<?x40xf32>
}"""
    b = _f32(40, 96)
    _check(src, lambda n: (_f32(n, 96), b), lambda a, b: a @ b.T, "tvm_gemm_f32")


def test_batched_dot_symbolic_batch():
    src = """
func.func @main(%a: tensor<?x5x24xf32>, %b: tensor<?x24x33xf32>) -> tensor<?x5x33xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x5x24xf32>, tensor<?x24x33xf32>) -> tensor<?x5x33xf32>
  return %0 : tensor<?x5x33xf32>
}"""
    _check(src, lambda n: (_f32(n, 5, 24), _f32(n, 24, 33)), lambda a, b: a @ b, "tvm_gemm_f32")


def _conv_nhwc(x, w, stride, pad):
    """numpy reference: NHWC input, HWIO filter, symmetric zero padding."""
    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    kh, kw = w.shape[:2]
    win = sliding_window_view(x, (kh, kw), axis=(1, 2))[:, ::stride, ::stride]   # n oh ow c kh kw
    return np.einsum("nhwcij,ijco->nhwo", win, w, optimize=True)


def test_conv_nhwc_symbolic_batch_bias_relu():
    src = """
func.func @main(%x: tensor<?x12x12x16xf32>, %w: tensor<3x3x16x32xf32>, %c: tensor<1x1x1x32xf32>) -> tensor<?x12x12x32xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x12x12x16xf32>, tensor<3x3x16x32xf32>) -> tensor<?x12x12x32xf32>
  %s = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x12x12x16xf32>) -> tensor<i32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %c12 = stablehlo.constant dense<12> : tensor<1xi32>
  %c32 = stablehlo.constant dense<32> : tensor<1xi32>
  %sh = stablehlo.concatenate %s1, %c12, %c12, %c32, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %cb = stablehlo.dynamic_broadcast_in_dim %c, %sh, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xf32>, tensor<4xi32>) -> tensor<?x12x12x32xf32>
  %1 = stablehlo.add %0, %cb : tensor<?x12x12x32xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1x1x1x32xf32>
  %zd = stablehlo.dynamic_broadcast_in_dim %zb, %sh, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xf32>, tensor<4xi32>) -> tensor<?x12x12x32xf32>
  %2 = stablehlo.maximum %1, %zd : tensor<?x12x12x32xf32>
  return %2 : tensor<?x12x12x32xf32>
}"""
    w, c = _f32(3, 3, 16, 32), _f32(1, 1, 1, 32)
    _check(src, lambda n: (_f32(n, 12, 12, 16), w, c),
           lambda x, w, c: np.maximum(_conv_nhwc(x, w, 1, 1) + c, 0),
           # rows of units, several per row where a unit's channels are fewer than 32 (AVX2)
           re.compile(r"wg \* \(\(?s0 \* 12\)( \* \d+\))? / wgs"))


def test_conv_nchw_oihw_symbolic_batch_stride2():
    # OIHW filter: the kernel packs it per channel block.
    src = """
func.func @main(%x: tensor<?x8x13x11xf32>, %w: tensor<20x8x3x3xf32>) -> tensor<?x20x6x5xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x13x11xf32>, tensor<20x8x3x3xf32>) -> tensor<?x20x6x5xf32>
  return %0 : tensor<?x20x6x5xf32>
}"""
    w = _f32(20, 8, 3, 3)
    ref = lambda x, w: _conv_nhwc(x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), 2, 0).transpose(0, 3, 1, 2)
    _check(src, lambda n: (_f32(n, 8, 13, 11), w), ref, "wgs")


def test_depthwise_nchw_symbolic_batch():
    # depthwise over planar input: the per-plane kernel (planar_source).
    src = """
func.func @main(%x: tensor<?x6x10x10xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<?x6x10x10xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 6 : i64} : (tensor<?x6x10x10xf32>, tensor<6x1x3x3xf32>) -> tensor<?x6x10x10xf32>
  return %0 : tensor<?x6x10x10xf32>
}"""
    w = _f32(6, 1, 3, 3)

    def ref(x, w):
        xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        win = sliding_window_view(xp, (3, 3), axis=(2, 3))        # n c h w kh kw
        return np.einsum("nchwij,cij->nchw", win, w[:, 0], optimize=True)
    _check(src, lambda n: (_f32(n, 6, 10, 10), w), ref, "calloc(")
