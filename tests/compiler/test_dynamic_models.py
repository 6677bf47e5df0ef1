"""A batch-polymorphic JAX model (jax.export, symbolic batch) run at several
batch sizes from ONE compiled module against JAX's outputs."""
import pathlib
import sys

import numpy as np
import pytest

from tensorvm.compiler import compile_str
from tensorvm.runtime import load_module
from tensorvm.runtime.errors import VmTrap

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "models"))
from fixtures import POLY_MODELS, load_poly_model, tolerance  # noqa: E402


@pytest.mark.parametrize("name", POLY_MODELS)
@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_poly_model_matches_jax_at_every_batch(name, device):
    text, runs = load_poly_model(name)
    assert "tensor<?x" in text and len(runs) >= 3
    module = load_module(compile_str(text), device=device)
    for batch, (inputs, expected) in runs.items():
        out = module.main(*inputs)
        outs = out if isinstance(out, (list, tuple)) else [out]
        for a, e in zip(outs, expected):
            a = np.asarray(a)
            assert a.shape == e.shape and a.shape[0] == batch
            np.testing.assert_allclose(a, e, err_msg=f"{name} batch {batch}", **tolerance(name))


def test_poly_model_shape_assertion_message():
    text, _ = load_poly_model("mlp_batch_poly")
    module = load_module(compile_str(text), device="local-sync")
    with pytest.raises(VmTrap, match="Expected value >= 1 for dimension variable 'b'"):
        module.main(np.zeros((0, 64), np.float32))
