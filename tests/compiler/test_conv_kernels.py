"""Direct CPU convolution kernels (codegen/cpu_conv.py) against
jax.lax.conv_general_dilated: the layouts, strides, dilations, groups,
depthwise and fused epilogues JAX and torch exports produce, and the edge
tiles (columns and channels not a multiple of the register tile)."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from tvm_testing import NCHW, NHWC, jax_conv, run_text, window_reversal_case  # noqa: E402

jax = pytest.importorskip("jax")
jnp = jax.numpy

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

_conv = jax_conv


def _check(f, *args, device="local-sync", rtol=1e-4, atol=1e-4):
    text = jax.jit(f).lower(*args).as_text()
    got = run_text(text, *args, device=device)
    np.testing.assert_allclose(got, np.asarray(jax.jit(f)(*args)), rtol=rtol, atol=atol)
    return text


def _rand(*shape, seed=0, dtype=np.float32):
    return np.random.RandomState(seed + sum(shape)).randn(*shape).astype(dtype)


def test_3x3_same_stride1_bias_relu():
    x, w, b = _rand(1, 12, 12, 16), _rand(3, 3, 16, 32), _rand(32)
    _check(lambda x, w, b: jax.nn.relu(_conv(x, w) + b), x, w, b)


def test_stride2_valid():
    x, w = _rand(2, 13, 11, 8), _rand(3, 3, 8, 16)
    _check(lambda x, w: _conv(x, w, (2, 2), "VALID"), x, w)


def test_pointwise_1x1():
    # 24 channels: 3 vectors of 8 lanes on AVX-512, no scalar channel tail.
    x, w = _rand(1, 10, 10, 96), _rand(1, 1, 96, 24)
    _check(lambda x, w: _conv(x, w, padding="VALID"), x, w)


@pytest.mark.parametrize("stride", [(1, 1), (2, 2)])
def test_pointwise_on_a_short_row_is_one_tile(stride):
    """A 1x1 filter over 7-wide rows (ResNet-50's last stage, its stride-2
    projection too) runs each row as one tile of fewer channels, with a
    residual add and relu on the way out."""
    h = 7 * stride[0]
    x, w, r = _rand(1, h, h, 96), _rand(1, 1, 96, 128), _rand(1, 7, 7, 128)
    _check(lambda x, w, r: jax.nn.relu(_conv(x, w, stride, padding="VALID") + r), x, w, r)
    _check(lambda x, w, r: jax.nn.relu(_conv(x, w, stride, padding="VALID") + r), x, w, r,
           device="local-task")


def test_dilated():
    x, w = _rand(1, 14, 15, 8), _rand(3, 3, 8, 16)
    _check(lambda x, w: _conv(x, w, rdil=(2, 3)), x, w)


@pytest.mark.parametrize("groups,oc", [(2, 32), (4, 8), (3, 6)])
def test_grouped(groups, oc):
    x, w = _rand(1, 9, 10, 4 * groups), _rand(3, 3, 4, oc)
    _check(lambda x, w: _conv(x, w, groups=groups), x, w)


@pytest.mark.parametrize("stride", [(1, 1), (2, 2)])
def test_depthwise_bias_relu6(stride):
    c = 38                                     # one 32-channel block and a 6-channel tail
    x, w, b = _rand(1, 15, 13, c), _rand(3, 3, 1, c), _rand(c)
    _check(lambda x, w, b: jax.nn.relu6(_conv(x, w, stride, groups=c) + b), x, w, b)


@pytest.mark.parametrize("shape,stride,rdil", [((1, 6, 15, 13), (1, 1), (1, 1)),
                                               ((2, 5, 17, 20), (2, 2), (1, 1)),
                                               ((1, 3, 9, 150), (1, 3), (2, 2))])   # 150 columns: two tiles
def test_depthwise_nchw_planar(shape, stride, rdil):
    c = shape[1]
    x, w, b = _rand(*shape), _rand(c, 1, 3, 3), _rand(c)
    _check(lambda x, w, b: jax.nn.relu6(_conv(x, w, stride, rdil=rdil, groups=c, dn=NCHW) + b[:, None, None]),
           x, w, b)


def test_depthwise_channel_multiplier():
    x, w = _rand(1, 8, 8, 4), _rand(3, 3, 1, 8)        # 2 filters per channel: grouped path
    _check(lambda x, w: _conv(x, w, groups=4), x, w)


def test_nchw_oihw_layout():
    x, w, b = _rand(2, 8, 11, 9), _rand(12, 8, 3, 3), _rand(12)
    _check(lambda x, w, b: _conv(x, w, (1, 2), ((1, 1), (2, 0)), dn=NCHW) + b[:, None, None], x, w, b)


def test_nchw_packed_blocks_and_tail():
    # OIHW filters are packed per channel block: 70 channels = one 64 block + a 6 tail.
    x, w = _rand(2, 5, 7, 9), _rand(70, 5, 3, 3)
    _check(lambda x, w: jax.nn.relu(_conv(x, w, dn=NCHW)), x, w, device="local-task")


def test_odd_edges_bn_residual():
    # OW 13 (not a multiple of the column tile), OC 19 (not of the vector width),
    # asymmetric padding; epilogue: batch-norm affine and a residual add.
    x, w = _rand(1, 9, 13, 7), _rand(3, 3, 7, 19)
    scale, shift, res = _rand(19, seed=1), _rand(19, seed=2), _rand(1, 9, 13, 19, seed=3)
    _check(lambda x, w, s, t, r: _conv(x, w, padding=((1, 1), (0, 2))) * s + t + r, x, w, scale, shift, res)


def test_1d():
    x, w = _rand(2, 17, 6), _rand(5, 6, 16)
    _check(lambda x, w: jax.lax.conv_general_dilated(x, w, (2,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")),
           x, w)


def test_f64_valid():
    x, w = _rand(1, 7, 9, 8, dtype=np.float64), _rand(3, 3, 8, 16, dtype=np.float64)
    text = jax.jit(lambda x, w: _conv(x, w, padding="VALID")).lower(
        x.astype(np.float32), w.astype(np.float32)).as_text().replace("f32", "f64")
    win = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(1, 2))   # n, oh, ow, c, kh, kw
    ref = np.einsum("nhwckl,klco->nhwo", win, w)
    np.testing.assert_allclose(run_text(text, x, w), ref, rtol=1e-12, atol=1e-12)


def test_local_task_splits_rows_and_blocks():
    x, w, r = _rand(2, 16, 16, 64), _rand(3, 3, 64, 128), _rand(2, 16, 16, 128, seed=4)
    _check(lambda x, w, r: jax.nn.relu(_conv(x, w) + r), x, w, r, device="local-task")


@pytest.mark.parametrize("padding", [((-1, 0), (-2, 1)),       # negative padding crops
                                     ((2, 2), (2, 2)),         # 5x5 on 4x3: every tile touches padding
                                     ((0, 0), (60, 60))])      # more edge tiles than unrolled: clamped columns
def test_padding_extremes(padding):
    x, w = _rand(1, 4, 3, 8), _rand(5, 5, 8, 16) if padding[0][0] == 2 else _rand(3, 3, 8, 16)
    if padding[1][0] == 60:
        x = _rand(1, 4, 5, 8)
    _check(lambda x, w: _conv(x, w, padding=padding), x, w)


def test_other_output_layout_and_batch_groups():
    x, w = _rand(2, 7, 6, 8), _rand(3, 3, 8, 16)
    _check(lambda x, w: _conv(x, w, dn=("NHWC", "HWIO", "NCHW")), x, w)
    # batch_group_count (weight gradients) keeps the generic loop kernel
    xb, wb = _rand(4, 6, 6, 3), _rand(3, 3, 3, 8)
    _check(lambda x, w: jax.lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=NHWC,
                                                     batch_group_count=2), xb, wb)


def test_window_reversal():
    text, args, want = window_reversal_case()
    np.testing.assert_allclose(run_text(text, *args), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("cpu", ["haswell", "generic"])
def test_narrow_vector_targets(cpu):
    # 32-byte vectors and 16 registers (AVX2 / SSE2 builds): other tile shapes.
    from tensorvm import compiler, runtime
    x, w, d = _rand(1, 9, 11, 24), _rand(3, 3, 24, 40), _rand(3, 3, 1, 24)
    f = lambda x, w, d: (_conv(x, w, (2, 1)), jax.nn.relu6(_conv(x, d, groups=24)))
    text = jax.jit(f).lower(x, w, d).as_text()
    got = runtime.load_module(compiler.compile_str(text, cpu=cpu), device="local-sync").main(x, w, d)
    for g, want in zip(got, jax.jit(f)(x, w, d)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(want), rtol=1e-4, atol=1e-4)


def test_direct_kernel_is_used():
    from tensorvm.compiler.api import CompileOptions, compile_text
    x, w = _rand(1, 12, 12, 16), _rand(3, 3, 16, 32)
    text = jax.jit(lambda x, w: _conv(x, w)).lower(x, w).as_text()
    src = compile_text(text, CompileOptions(keep_source=True)).stats["c_source"]
    assert "typedef float tvm_cv" in src and "kh0" in src
