"""JAX-exported models compile and match JAX on both CPU drivers."""
from __future__ import annotations

import numpy as np
import pytest
from tvm_testing import compiled
from fixtures import MODELS, load_model

from tensorvm import runtime

RUNNABLE = list(MODELS)
DEVICES = ["local-sync", "local-task"]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", RUNNABLE)
def test_model_matches_jax(name, device):
    text, inputs, expected = load_model(name)
    m = runtime.load_module(compiled(text), device=device)
    outs = m.main(*inputs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    assert len(outs) == len(expected)
    for got, want in zip(outs, expected):
        got = np.asarray(got)
        assert got.shape == want.shape and got.dtype == want.dtype
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(got, want, rtol=2e-4, atol=1e-5)
        else:
            np.testing.assert_array_equal(got, want)


def test_results_are_independent_of_inputs():
    """Results never alias argument memory, even when a function returns its input."""
    text = """
    func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %0 = stablehlo.add %a, %a : tensor<4xf32>
      return %a, %0 : tensor<4xf32>, tensor<4xf32>
    }"""
    x = np.arange(4, dtype=np.float32)
    m = runtime.load_module(compiled(text), device="local-sync")
    same, doubled = m.main(x)
    x[:] = 100
    np.testing.assert_array_equal(np.asarray(same), [0, 1, 2, 3])
    np.testing.assert_array_equal(np.asarray(doubled), [0, 2, 4, 6])
