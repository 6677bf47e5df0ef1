"""The Keras 3 frontend (JAX backend): a CNN and a transformer block, weights
baked in or passed as arguments, and a model reloaded from a .keras file."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("KERAS_BACKEND", "jax")
keras = pytest.importorskip("keras", reason="the Keras frontend needs keras 3 "
                                            "(pip install 'tensorvm[keras]')")
if keras.backend.backend() != "jax":
    pytest.skip("keras was imported with another backend in this process", allow_module_level=True)

from tensorvm.compiler.frontends.from_keras import compile_keras  # noqa: E402
from tensorvm.runtime import load_module  # noqa: E402

from frontend_models import keras_cnn, keras_transformer, rand  # noqa: E402


def test_cnn_weights_baked_in():
    model = keras_cnn()
    x = rand(2, 16, 16, 3)
    mod = load_module(compile_keras(model, x))
    np.testing.assert_allclose(np.asarray(mod.main(x)), np.asarray(model(x, training=False)),
                               rtol=1e-4, atol=1e-6)


def test_transformer_weights_as_arguments(tmp_path):
    model = keras_transformer()
    path = tmp_path / "block.keras"
    model.save(path)
    x = rand(2, 8, 32)
    mod = load_module(compile_keras(str(path), x, weights="arguments"))
    trainable = [np.asarray(v.value) for v in model.trainable_variables]
    got = mod.main(trainable, [], x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(model(x, training=False)),
                               rtol=1e-4, atol=1e-5)


def test_cli_compiles_a_saved_keras_file_for_any_batch(tmp_path):
    from tensorvm.compiler import cli
    model = keras_cnn()
    model.save(tmp_path / "cnn.keras")
    assert cli.main([str(tmp_path / "cnn.keras"), "-o", str(tmp_path / "cnn.vmfb")]) == 0
    mod = load_module(str(tmp_path / "cnn.vmfb"))
    x = rand(3, 16, 16, 3)                     # the declared input's batch is symbolic
    np.testing.assert_allclose(np.asarray(mod.main(x)), np.asarray(model(x, training=False)),
                               rtol=1e-4, atol=1e-6)
