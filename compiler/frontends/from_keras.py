"""Keras 3 frontend: a model (or a saved ``.keras`` file) through Keras's JAX backend.

Keras 3 models are backend-neutral: a model built under TensorFlow or
PyTorch, saved as ``.keras``, reloads under JAX.  This frontend needs the
JAX backend in this process (it sets ``KERAS_BACKEND=jax`` if Keras is not
imported yet) and exports ``model(inputs, training=False)`` with
``compile_jax``.  ``weights="constants"`` (default) bakes the variables into
the module; ``weights="arguments"`` makes them the first two arguments (the
trainable and non-trainable variable value lists, in ``model.*_variables``
order), as ``model.stateless_call`` takes them.  A model on the TensorFlow
backend (and SavedModels, ``tf.function``) goes through ``compile_tf``
(from_tf.py) instead.
"""
from __future__ import annotations

import os

from .common import Exported, FrontendError, require
from .from_jax import export_jax


def _keras():
    if "keras" not in __import__("sys").modules:
        os.environ.setdefault("KERAS_BACKEND", "jax")
    keras = require("keras", "keras")
    backend = keras.backend.backend()
    if backend != "jax":
        raise FrontendError(f"Keras runs on the '{backend}' backend in this process; the Keras "
                            "frontend exports through JAX: set KERAS_BACKEND=jax before keras is "
                            "imported (a model saved as .keras under any backend reloads there), or "
                            "compile the TensorFlow-backend model with compile_tf")
    return keras


def export_keras(model, *example_args, weights="constants", name=None) -> Exported:
    """``model`` (a ``keras.Model`` or a ``.keras`` path) exported for ``example_args``
    (default: the model's declared inputs, unknown dims symbolic)."""
    keras = _keras()
    if isinstance(model, (str, os.PathLike)):
        model = keras.saving.load_model(model, compile=False)
    if not isinstance(model, keras.Model):
        raise FrontendError(f"export_keras takes a keras.Model or a .keras path, got "
                            f"{type(model).__name__}")
    name = name or model.name
    if not example_args:
        example_args = input_specs(model)
    if weights == "constants":
        def program(*inputs):
            return model(*inputs, training=False)
        return export_jax(program, *example_args, name=name)
    if weights == "arguments":
        def stateless(trainable, non_trainable, *inputs):
            out, _ = model.stateless_call(trainable, non_trainable, *inputs, training=False)
            return out
        trainable = [v.value for v in model.trainable_variables]
        non_trainable = [v.value for v in model.non_trainable_variables]
        return export_jax(stateless, trainable, non_trainable, *example_args, name=name)
    raise FrontendError(f"weights must be 'constants' or 'arguments', got {weights!r}")


def compile_keras(model, *example_args, targets=("cpu",), weights="constants",
                  **options) -> bytes:
    """Compile a Keras 3 model to a .vmfb; ``main`` takes the model's inputs
    (preceded by the weight lists when ``weights="arguments"``)."""
    return export_keras(model, *example_args, weights=weights,
                        name=options.pop("module_name", None)).compile(targets, **options)


def input_specs(model) -> list:
    """Specs of the model's declared inputs: an unknown dim 0 is the batch
    symbol ``b`` (shared by all inputs), any other unknown dim its own symbol."""
    from .common import spec
    out = []
    for i, t in enumerate(model.inputs):
        dims = ["b" if d is None and j == 0 else f"d{i}_{j}" if d is None else d
                for j, d in enumerate(t.shape)]
        out.append(spec(tuple(dims), t.dtype))
    return out
