"""Arguments passed again as the same numpy arrays reuse their imported
views, and bound CPU programs re-patch only bindings whose address changed;
neither may change what a call computes."""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from tvm_testing import compiled

from tensorvm import runtime
from tensorvm.runtime.errors import InvalidArgumentError

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

TEXT = """
func.func @main(%w: tensor<4x8xf32>, %x: tensor<2x4xf32>) -> tensor<2x8xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  %1 = stablehlo.tanh %0 : tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}"""


@pytest.mark.parametrize("device", ["local-sync", "local-task://2"])
def test_same_array_sees_in_place_updates(device):
    f = runtime.load_module(compiled(TEXT), device=device).main
    rng = np.random.default_rng(0)
    w = rng.standard_normal((4, 8)).astype(np.float32)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(f(w, x)), np.tanh(x @ w), rtol=1e-5, atol=1e-6)
    w *= -2.0                         # same object, new contents
    x[:] = rng.standard_normal((2, 4))
    np.testing.assert_allclose(np.asarray(f(w, x)), np.tanh(x @ w), rtol=1e-5, atol=1e-6)


def test_alternating_arrays_rebind_every_call():
    f = runtime.load_module(compiled(TEXT), device="local-sync").main
    rng = np.random.default_rng(1)
    ws = [rng.standard_normal((4, 8)).astype(np.float32) for _ in range(3)]
    xs = [rng.standard_normal((2, 4)).astype(np.float32) for _ in range(2)]
    for k in range(7):
        w, x = ws[k % 3], xs[k % 2]
        np.testing.assert_allclose(np.asarray(f(w, x)), np.tanh(x @ w), rtol=1e-5, atol=1e-6)


def test_same_array_reshaped_in_place_is_checked_again():
    f = runtime.load_module(compiled(TEXT), device="local-sync").main
    w = np.ones((4, 8), np.float32)
    x = np.ones((2, 4), np.float32)
    f(w, x)
    w.shape = (8, 4)                  # same object and memory, other shape
    with pytest.raises(InvalidArgumentError, match="expected tensor<4x8xf32>"):
        f(w, x)
