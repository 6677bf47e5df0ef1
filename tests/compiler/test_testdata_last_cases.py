"""The last two StableHLO testdata shapes that failed (issue 35): a
complex128 ``bitcast_convert`` to its own type, and an f32 ``top_k`` over
NaNs of both signs and infinities (total order: -NaN < -inf < ... < inf < NaN).
Written here as small programs of our own; the conformance runner covers the
suite files themselves."""
from __future__ import annotations

import numpy as np
import pytest
from tvm_testing import compiled

from tensorvm import hal, runtime

DEVICES = ["local-sync", "local-task"] + (
    ["opencl"] if hal.registry.driver_availability("opencl") is None else [])

BITCAST_C128 = """func.func @main(%x: tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>> {
  %0 = stablehlo.bitcast_convert %x : (tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>>
  return %0 : tensor<2x3xcomplex<f64>>
}"""



def run_text(text, *args, device):
    targets = ("cpu", "opencl") if device == "opencl" else ("cpu",)
    out = runtime.load_module(compiled(text, targets), device=device).main(*args)
    return tuple(np.asarray(o) for o in out) if isinstance(out, tuple) else np.asarray(out)


TOP_K_F32 = """func.func @main(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %v, %i = chlo.top_k(%x, k = 5) : tensor<5xf32> -> (tensor<5xf32>, tensor<5xi32>)
  return %v, %i : tensor<5xf32>, tensor<5xi32>
}"""


@pytest.mark.parametrize("device", DEVICES)
def test_complex128_bitcast_to_itself(device):
    rng = np.random.RandomState(0)
    x = (rng.randn(2, 3) + 1j * rng.randn(2, 3)).astype(np.complex128)
    got = run_text(BITCAST_C128, x, device=device)
    assert got.dtype == np.complex128
    assert got.view(np.uint64).tolist() == x.view(np.uint64).tolist()


@pytest.mark.parametrize("device", DEVICES)
def test_f32_top_k_orders_signed_nans_totally(device):
    bits = np.array([0x7F800000, 0x7FC00000, 0xFFC00000, 0xFF800000, 0x40400000], np.uint32)
    v, i = run_text(TOP_K_F32, bits.view(np.float32), device=device)
    assert i.tolist() == [1, 0, 4, 3, 2]
    assert v.view(np.uint32).tolist() == [0x7FC00000, 0x7F800000, 0x40400000, 0xFF800000, 0xFFC00000]
