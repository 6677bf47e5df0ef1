"""A convolution reading a zero pad of its input pads itself
(passes/fold.py: _pad_into_convolution): the same values on every device,
and the pads it must keep (nonzero or -0.0 value, interior or negative
padding, a padded batch dim, another reader, input dilation) stay."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from tensorvm import hal
from tvm_testing import compiled, run_text, simplified

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def _text(value="0.0", low="0, 0, 0, 0", high="0, 1, 1, 0", interior="0, 0, 0, 0",
          pad_shape="1x7x7x3", window="stride = [2, 2], pad = [[1, 0], [0, 1]]", out="1x3x3x3"):
    return f"""func.func @main(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x1x3xf32>) -> tensor<{out}xf32> {{
  %z = stablehlo.constant dense<{value}> : tensor<f32>
  %p = stablehlo.pad %x, %z, low = [{low}], high = [{high}], interior = [{interior}]
       : (tensor<1x6x6x3xf32>, tensor<f32>) -> tensor<{pad_shape}xf32>
  %0 = stablehlo.convolution(%p, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
       window = {{{window}}} {{batch_group_count = 1 : i64, feature_group_count = 3 : i64}}
       : (tensor<{pad_shape}xf32>, tensor<3x3x1x3xf32>) -> tensor<{out}xf32>
  return %0 : tensor<{out}xf32>
}}"""


def _reference(x, w, pad, stride):
    """Depthwise NHWC conv of ``x`` zero-padded by ``pad`` ((lo, hi) per spatial dim)."""
    xp = np.pad(x, ((0, 0), pad[0], pad[1], (0, 0)))
    oh = (xp.shape[1] - 3) // stride + 1
    ow = (xp.shape[2] - 3) // stride + 1
    out = np.zeros((1, oh, ow, 3), np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = xp[0, i * stride:i * stride + 3, j * stride:j * stride + 3, :]
            out[0, i, j] = np.einsum("hwc,hwc->c", patch, w[:, :, 0, :])
    return out.astype(np.float32)


def test_zero_pad_folds_and_values_match():
    text = _text()
    ops, counts = simplified(text)
    assert counts["pad into convolution"] == 1 and "pad" not in ops
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 6, 6, 3)).astype(np.float32)
    w = rng.standard_normal((3, 3, 1, 3)).astype(np.float32)
    ref = _reference(x, w, ((1, 1), (0, 2)), 2)      # the conv's own padding plus the pad's
    np.testing.assert_allclose(run_text(text, x, w), ref, rtol=1e-5, atol=1e-5)
    if hal.registry.driver_availability("opencl") is None:
        from tensorvm import runtime
        m = runtime.load_module(compiled(text, ("cpu", "opencl")), device="opencl")
        np.testing.assert_allclose(np.asarray(m.main(x, w)), ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kw", [
    {"value": "1.0"},                                             # not zero
    {"value": "-0.0"},                                            # not convolution's +0.0
    {"low": "0, -1, 0, 0", "high": "0, 2, 1, 0"},                  # negative (a slice)
    {"interior": "0, 1, 0, 0", "pad_shape": "1x12x7x3", "out": "1x6x3x3"},
    {"low": "1, 0, 0, 0", "pad_shape": "2x7x7x3", "out": "2x3x3x3"},   # batch dim padded
    {"window": "stride = [2, 2], pad = [[1, 0], [0, 1]], lhs_dilate = [2, 1]", "out": "1x6x3x3"},
])
def test_pads_that_stay(kw):
    text = _text(**kw)
    ops, counts = simplified(text)
    assert counts["pad into convolution"] == 0 and "pad" in ops


def test_pad_with_another_reader_stays():
    text = """func.func @main(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x1x3xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x7x7x3xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %x, %z, low = [0, 0, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0]
       : (tensor<1x6x6x3xf32>, tensor<f32>) -> tensor<1x7x7x3xf32>
  %0 = stablehlo.convolution(%p, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
       window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64}
       : (tensor<1x7x7x3xf32>, tensor<3x3x1x3xf32>) -> tensor<1x3x3x3xf32>
  return %0, %p : tensor<1x3x3x3xf32>, tensor<1x7x7x3xf32>
}"""
    ops, counts = simplified(text)
    assert counts["pad into convolution"] == 0 and "pad" in ops
