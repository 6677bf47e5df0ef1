"""Windowed and indexing ops against independent numpy references:
convolution (groups, dilations, padding, reversal), reduce_window,
select_and_scatter, gather/scatter with batching dims, dynamic slices, fft."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from tvm_testing import run_text  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def _conv_ref(x, w, stride, pad, ldil, rdil, fg):
    """NHWC x HWIO -> NHWC, by explicit loops over dilated/padded input."""
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    xd = np.zeros((n, (h - 1) * ldil[0] + 1, (wd - 1) * ldil[1] + 1, c), x.dtype)
    xd[:, ::ldil[0], ::ldil[1], :] = x
    xp = np.zeros((n, xd.shape[1] + pad[0][0] + pad[0][1], xd.shape[2] + pad[1][0] + pad[1][1], c), x.dtype)
    xp[:, pad[0][0]:pad[0][0] + xd.shape[1], pad[1][0]:pad[1][0] + xd.shape[2], :] = xd
    ekh, ekw = (kh - 1) * rdil[0] + 1, (kw - 1) * rdil[1] + 1
    oh = (xp.shape[1] - ekh) // stride[0] + 1
    ow = (xp.shape[2] - ekw) // stride[1] + 1
    out = np.zeros((n, oh, ow, co), np.float64)
    per = co // fg
    for o in range(co):
        g = o // per
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, i * stride[0]:i * stride[0] + ekh:rdil[0], j * stride[1]:j * stride[1] + ekw:rdil[1],
                           g * ci:(g + 1) * ci]
                out[:, i, j, o] = np.einsum("nhwc,hwc->n", patch, w[:, :, :, o])
    return out.astype(x.dtype)


@pytest.mark.parametrize("stride,pad,ldil,rdil,fg", [
    ((1, 1), ((0, 0), (0, 0)), (1, 1), (1, 1), 1),
    ((2, 1), ((1, 2), (0, 1)), (1, 1), (2, 1), 1),
    ((1, 2), ((1, 1), (1, 1)), (2, 1), (1, 1), 2),
])
def test_convolution_matches_loops(stride, pad, ldil, rdil, fg):
    rng = np.random.RandomState(0)
    x = rng.randn(2, 6, 5, 4).astype(np.float32)
    w = rng.randn(3, 2, 4 // fg, 6).astype(np.float32)
    ref = _conv_ref(x, w, stride, pad, ldil, rdil, fg)
    oshape = "x".join(map(str, ref.shape))
    t = f"""func.func @main(%x: tensor<2x6x5x4xf32>, %w: tensor<3x2x{4 // fg}x6xf32>) -> tensor<{oshape}xf32> {{
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
       window = {{stride = [{stride[0]}, {stride[1]}], pad = [[{pad[0][0]}, {pad[0][1]}], [{pad[1][0]}, {pad[1][1]}]],
                 lhs_dilate = [{ldil[0]}, {ldil[1]}], rhs_dilate = [{rdil[0]}, {rdil[1]}]}}
       {{batch_group_count = 1 : i64, feature_group_count = {fg} : i64}}
       : (tensor<2x6x5x4xf32>, tensor<3x2x{4 // fg}x6xf32>) -> tensor<{oshape}xf32>
  return %0 : tensor<{oshape}xf32>
}}"""
    np.testing.assert_allclose(run_text(t, x, w), ref, rtol=1e-5, atol=1e-5)


def test_reduce_window_base_dilation_and_padding():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = """func.func @main(%x: tensor<3x4xf32>) -> tensor<3x3xf32> {
  %init = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>,
      base_dilations = array<i64: 2, 1>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>}
     : (tensor<3x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  %1 = stablehlo.pad %0, %init, low = [0, 0], high = [1, 1], interior = [0, 0] : (tensor<2x2xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %1 : tensor<3x3xf32>
}"""
    # reference: dilate rows by 2 with init-valued holes, pad cols by 1 with init, window sums (+1 init)
    xd = np.full((5, 4), 1.0, np.float32)
    xd[::2] = x
    xp = np.full((5, 6), 1.0, np.float32)
    xp[:, 1:5] = xd
    ref = np.full((3, 3), 1.0, np.float32)
    for i in range(2):
        for j in range(2):
            ref[i, j] = 1.0 + xp[2 * i:2 * i + 2, 3 * j:3 * j + 3].sum()
    np.testing.assert_allclose(run_text(t, x), ref)


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("window", [3, 5])   # 9 taps: the unrolled tree; 25: the tap loop
def test_pooling_keeps_nans_and_signed_zeros(op, window):
    """A max/min pool with padding: NaN wins, +0 is above -0 for max (below
    for min), padding reads as the init, on either lowering of the window."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 7, 7)).astype(np.float32)
    x[0, 0, 0], x[0, 3, 3], x[1, 2, 2], x[1, 2, 3] = np.nan, 0.0, 0.0, -0.0
    x[1, 5, :] = -0.0
    init = "0xFF800000" if op == "maximum" else "0x7F800000"
    pad = window // 2
    t = f"""func.func @main(%x: tensor<2x7x7xf32>) -> tensor<2x4x4xf32> {{
  %init = stablehlo.constant dense<{init}> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.{op} %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }}) {{window_dimensions = array<i64: 1, {window}, {window}>, window_strides = array<i64: 1, 2, 2>,
      padding = dense<[[0, 0], [{pad}, {pad}], [{pad}, {pad}]]> : tensor<3x2xi64>}}
     : (tensor<2x7x7xf32>, tensor<f32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}}"""
    fill = -np.inf if op == "maximum" else np.inf
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)), constant_values=fill)
    pick = np.fmax if op == "maximum" else np.fmin
    ref = np.empty((2, 4, 4), np.float32)
    for n in range(2):
        for i in range(4):
            for j in range(4):
                win = xp[n, 2 * i:2 * i + window, 2 * j:2 * j + window].ravel()
                if np.isnan(win).any():
                    ref[n, i, j] = np.nan
                    continue
                best = win[0]
                for v in win[1:]:       # +0 vs -0 by sign bit
                    if v == best:
                        best = v if (np.signbit(best) if op == "maximum" else np.signbit(v)) else best
                    else:
                        best = pick(best, v)
                ref[n, i, j] = best
    got = run_text(t, x)
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    ok = ~np.isnan(ref)
    assert np.array_equal(got[ok], ref[ok]) and np.array_equal(np.signbit(got[ok]), np.signbit(ref[ok]))


@pytest.mark.parametrize("window,stride,lo,hi,init", [
    (3, 2, 1, 1, "0xFF800000"),   # ResNet's pool: edge taps read the edge element once more
    (2, 2, 0, 3, "0xFF800000"),   # the last windows lie wholly in the padding: init
    (3, 1, 2, 0, "0.5"),          # an init that is not the identity takes part in each window
    (2, 3, 1, 2, "-1.0"),         # stride past the window
])
def test_max_pool_padding_edges(window, stride, lo, hi, init):
    """NHWC max pools whose padding either lets edge taps read the nearest
    edge element (every window meets the operand) or leaves some windows with
    no element at all; relu fused in front, so the pulled producer is read at
    the clamped positions too."""
    x = np.random.default_rng(5).standard_normal((1, 7, 6, 5)).astype(np.float32)
    oh = (7 + lo + hi - window) // stride + 1
    ow = (6 + lo + hi - window) // stride + 1
    t = f"""func.func @main(%x: tensor<1x7x6x5xf32>) -> tensor<1x{oh}x{ow}x5xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<1x7x6x5xf32>
  %r = stablehlo.maximum %x, %z : tensor<1x7x6x5xf32>
  %init = stablehlo.constant dense<{init}> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%r, %init) ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }}) {{window_dimensions = array<i64: 1, {window}, {window}, 1>,
      window_strides = array<i64: 1, {stride}, {stride}, 1>,
      padding = dense<[[0, 0], [{lo}, {hi}], [{lo}, {hi}], [0, 0]]> : tensor<4x2xi64>}}
     : (tensor<1x7x6x5xf32>, tensor<f32>) -> tensor<1x{oh}x{ow}x5xf32>
  return %0 : tensor<1x{oh}x{ow}x5xf32>
}}"""
    fill = np.float32(float.fromhex("-inf") if init.startswith("0x") else float(init))
    xp = np.pad(np.maximum(x, 0), ((0, 0), (lo, hi), (lo, hi), (0, 0)), constant_values=fill)
    ref = np.empty((1, oh, ow, 5), np.float32)
    for i in range(oh):
        for j in range(ow):
            win = xp[0, i * stride:i * stride + window, j * stride:j * stride + window]
            ref[0, i, j] = np.maximum(win.max(axis=(0, 1)), fill)
    np.testing.assert_array_equal(run_text(t, x), ref)


@pytest.mark.parametrize("dtype,lo,hi,interior", [
    ("f32", (0, 1, 2, 0), (0, 2, 1, 0), (0, 0, 0, 0)),   # Keras's ZeroPadding2D before a pool
    ("i32", (1, 0, 3, 0), (0, 1, 0, 2), (0, 0, 0, 0)),   # the channels padded too
    ("f32", (0, -1, 1, 0), (0, 1, -2, 0), (0, 0, 0, 0)), # cropping: the branch form
    ("f32", (0, 1, 0, 0), (0, 0, 1, 0), (0, 1, 0, 0)),   # interior padding: the branch form
])
def test_pad_pulled_into_a_pool_and_an_add(dtype, lo, hi, interior):
    """A pad read by a 2x2/1 max pool and by an add of itself with an iota:
    every position of the padded tensor matches numpy, on the CPU's
    clamped-read-and-blend form and the branch form alike."""
    rng = np.random.default_rng(7)
    np_t = {"f32": np.float32, "i32": np.int32}[dtype]
    x = (rng.standard_normal((1, 5, 4, 3)) * 10).astype(np_t)
    xp = x
    if any(interior):
        shape = [d + (d - 1) * k for d, k in zip(x.shape, interior)]
        xp = np.full(shape, -3, np_t)
        xp[tuple(slice(None, None, k + 1) for k in interior)] = x
    widths = [(max(a, 0), max(b, 0)) for a, b in zip(lo, hi)]
    xp = np.pad(xp, widths, constant_values=-3)
    xp = xp[tuple(slice(-a if a < 0 else 0, (b if b < 0 else None)) for a, b in zip(lo, hi))]
    ps = "x".join(map(str, xp.shape))
    qs = "x".join(map(str, (xp.shape[0], xp.shape[1] - 1, xp.shape[2] - 1, xp.shape[3])))
    ty = dtype
    lit = "-3.0" if dtype == "f32" else "-3"
    t = f"""func.func @main(%x: tensor<1x5x4x3x{ty}>) -> (tensor<{qs}x{ty}>, tensor<{ps}x{ty}>) {{
  %c = stablehlo.constant dense<{lit}> : tensor<{ty}>
  %p = stablehlo.pad %x, %c, low = [{", ".join(map(str, lo))}], high = [{", ".join(map(str, hi))}], interior = [{", ".join(map(str, interior))}] : (tensor<1x5x4x3x{ty}>, tensor<{ty}>) -> tensor<{ps}x{ty}>
  %r = "stablehlo.reduce_window"(%p, %c) ({{
    ^bb0(%a: tensor<{ty}>, %b: tensor<{ty}>):
      %s = stablehlo.maximum %a, %b : tensor<{ty}>
      stablehlo.return %s : tensor<{ty}>
  }}) {{window_dimensions = array<i64: 1, 2, 2, 1>}} : (tensor<{ps}x{ty}>, tensor<{ty}>) -> tensor<{qs}x{ty}>
  %i = stablehlo.iota dim = 3 : tensor<{ps}x{ty}>
  %s = stablehlo.add %p, %i : tensor<{ps}x{ty}>
  return %r, %s : tensor<{qs}x{ty}>, tensor<{ps}x{ty}>
}}"""
    pool, added = run_text(t, x)
    ref = np.maximum.reduce([xp[:, i:i + xp.shape[1] - 1, j:j + xp.shape[2] - 1, :]
                             for i in range(2) for j in range(2)])
    np.testing.assert_array_equal(pool, np.maximum(ref, np_t(-3)))
    np.testing.assert_array_equal(added, xp + np.arange(xp.shape[3], dtype=np_t))


def test_select_and_scatter_max_pool_gradient():
    rng = np.random.RandomState(1)
    x = rng.permutation(24).astype(np.float32).reshape(4, 6)
    src = rng.randn(2, 2).astype(np.float32)
    t = """func.func @main(%x: tensor<4x6xf32>, %s: tensor<2x2xf32>) -> tensor<4x6xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %zero) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}
     : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}"""
    ref = np.zeros_like(x)
    for i in range(2):
        for j in range(2):
            win = x[2 * i:2 * i + 2, 3 * j:3 * j + 3]
            a, b = np.unravel_index(np.argmax(win), win.shape)
            ref[2 * i + a, 3 * j + b] += src[i, j]
    np.testing.assert_allclose(run_text(t, x, src), ref)


def test_gather_and_scatter_with_batching_dims():
    rng = np.random.RandomState(2)
    x = rng.randn(3, 5).astype(np.float32)
    ids = np.array([[4, 0], [1, 1], [2, 9]], np.int32)     # 9: clamped by gather
    t = """func.func @main(%x: tensor<3x5xf32>, %i: tensor<3x2xi32>) -> (tensor<3x2xf32>, tensor<3x5xf32>) {
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<
        collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0],
        start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}
     : (tensor<3x5xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = "stablehlo.scatter"(%x, %i, %g) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1],
        input_batching_dims = [0], scatter_indices_batching_dims = [0],
        scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}
     : (tensor<3x5xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x5xf32>
  return %g, %s : tensor<3x2xf32>, tensor<3x5xf32>
}"""
    g, s = run_text(t, x, ids)
    clamped = np.minimum(ids, 4)
    ref_g = np.take_along_axis(x, clamped, axis=1)
    np.testing.assert_allclose(g, ref_g)
    ref_s = x.copy()
    for b in range(3):
        for k in range(2):
            if ids[b, k] < 5:            # scatter skips out-of-bounds updates
                ref_s[b, ids[b, k]] += ref_g[b, k]
    np.testing.assert_allclose(s, ref_s, rtol=1e-6)


def test_dynamic_update_slice_clamps_start():
    x = np.zeros((4, 4), np.int32)
    u = np.ones((2, 3), np.int32)
    t = """func.func @main(%x: tensor<4x4xi32>, %u: tensor<2x3xi32>, %a: tensor<i64>, %b: tensor<i64>) -> tensor<4x4xi32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %a, %b : (tensor<4x4xi32>, tensor<2x3xi32>, tensor<i64>, tensor<i64>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}"""
    out = run_text(t, x, u, np.int64(7), np.int64(-3))
    ref = x.copy()
    ref[2:4, 0:3] = 1
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("kind,shape,length,dtype", [
    ("FFT", (3, 8), (8,), np.complex64), ("IFFT", (2, 4, 6), (4, 6), np.complex128),
    ("RFFT", (3, 10), (10,), np.float64), ("IRFFT", (2, 3, 5), (3, 8), np.complex128),
])
def test_fft_matches_numpy(kind, shape, length, dtype):
    rng = np.random.RandomState(3)
    x = rng.randn(*shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = (x + 1j * rng.randn(*shape)).astype(dtype)
    axes = tuple(range(-len(length), 0))
    ref = {"FFT": lambda: np.fft.fftn(x, axes=axes), "IFFT": lambda: np.fft.ifftn(x, axes=axes),
           "RFFT": lambda: np.fft.rfftn(x, axes=axes),
           "IRFFT": lambda: np.fft.irfftn(x, s=length, axes=axes)}[kind]()
    el = {np.complex64: "complex<f32>", np.complex128: "complex<f64>", np.float64: "f64"}
    out_el = {"RFFT": "complex<f64>", "IRFFT": "f64"}.get(kind, el[dtype])
    ishape = "x".join(map(str, shape)) + "x" + el[dtype]
    oshape = "x".join(map(str, ref.shape)) + "x" + out_el
    t = f"""func.func @main(%x: tensor<{ishape}>) -> tensor<{oshape}> {{
  %0 = stablehlo.fft %x, type = {kind}, length = [{", ".join(map(str, length))}] : (tensor<{ishape}>) -> tensor<{oshape}>
  return %0 : tensor<{oshape}>
}}"""
    tol = 1e-4 if dtype == np.complex64 else 1e-10
    np.testing.assert_allclose(run_text(t, x), ref, rtol=tol, atol=tol)
