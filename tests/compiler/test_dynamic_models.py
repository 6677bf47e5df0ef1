"""A batch-polymorphic JAX model (jax.export, symbolic batch) run at several
batch sizes from ONE compiled module against JAX's outputs."""
import numpy as np
import pytest
from fixtures import POLY_MODELS, load_poly_model
from tvm_testing import assert_poly_model_runs

from tensorvm.compiler import compile_str
from tensorvm.runtime import load_module
from tensorvm.runtime.errors import VmTrap


@pytest.mark.parametrize("name", POLY_MODELS)
@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_poly_model_matches_jax_at_every_batch(name, device):
    text, runs = load_poly_model(name)
    assert "tensor<?x" in text and len(runs) >= 3
    assert_poly_model_runs(load_module(compile_str(text), device=device), name, runs)


def test_poly_model_shape_assertion_message():
    text, _ = load_poly_model("mlp_batch_poly")
    module = load_module(compile_str(text), device="local-sync")
    with pytest.raises(VmTrap, match="Expected value >= 1 for dimension variable 'b'"):
        module.main(np.zeros((0, 64), np.float32))
