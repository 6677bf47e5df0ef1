"""Keras 3 models on the TensorFlow backend, compiled with compile_tf
(directly, weights as arguments, or from their SavedModel export) and
compared with TensorFlow's own output (tf_cases.py calls ``check``; as a
script it prints one JSON line per model).

    KERAS_BACKEND=tensorflow python tf_keras_check.py TMPDIR MODEL:direct|arguments|savedmodel ...
"""
from __future__ import annotations

import json
import os
import sys
import time

import numpy as np


def build(name):
    """(model, example input) of the named real model, random weights."""
    import keras
    from frontend_models import keras_cnn, keras_transformer, rand
    keras.utils.set_random_seed(0)
    if name == "mobilenet_v2":
        model = keras.applications.MobileNetV2(weights=None, input_shape=(96, 96, 3), alpha=0.35,
                                               classifier_activation=None)
        return model, rand(1, 96, 96, 3)
    if name == "bert":
        import keras_hub
        model = keras_hub.models.BertBackbone(vocabulary_size=100, num_layers=2, num_heads=2,
                                              hidden_dim=32, intermediate_dim=64,
                                              max_sequence_length=16)
        rng = np.random.default_rng(0)
        x = {"token_ids": rng.integers(0, 100, (2, 16)).astype("int32"),
             "segment_ids": rng.integers(0, 2, (2, 16)).astype("int32"),
             "padding_mask": np.ones((2, 16), "int32")}
        x["padding_mask"][1, 10:] = 0
        return model, x
    if name == "cnn":
        return keras_cnn(), rand(2, 16, 16, 3)
    if name == "transformer":
        return keras_transformer(), rand(2, 8, 32)
    if name == "two_inputs":          # a functional model called with a list of inputs
        a, b = keras.Input((4,)), keras.Input((3,))
        out = keras.layers.Dense(2)(keras.layers.Concatenate()([a, b]))
        return keras.Model([a, b], out), [rand(2, 4), rand(2, 3, seed=1)]
    raise SystemExit(f"unknown model {name}")


def check(name, via, tmp):
    """The comparison of one model compiled ``via`` one path, as a dict."""
    import tensorflow as tf
    from tensorvm.compiler.frontends import compile_tf
    from tensorvm.runtime import load_module
    model, x = build(name)
    ref = tf.nest.map_structure(lambda t: np.asarray(t), model(x, training=False))
    args = tuple(x) if isinstance(x, list) else (x,)      # main takes a list's items in turn
    start = time.perf_counter()
    if via == "savedmodel":
        path = os.path.join(tmp, name)
        model.export(path, verbose=False)
        vmfb = compile_tf(path, *args)
    elif via == "arguments":
        vmfb = compile_tf(model, *args, weights="arguments")
    else:
        vmfb = compile_tf(model, *args)
    compile_s = time.perf_counter() - start
    mod = load_module(vmfb)
    if via == "arguments":            # compile_keras's convention: (trainable, non_trainable, x)
        got = mod.main([np.asarray(v.numpy()) for v in model.trainable_variables],
                       [np.asarray(v.numpy()) for v in model.non_trainable_variables], *args)
    else:
        got = mod.main(*args)
    ref_leaves, got_leaves = tf.nest.flatten(ref), tf.nest.flatten(got)
    return {
        "model": name, "via": via, "compile_s": round(compile_s, 2),
        "max_abs": max(float(np.abs(np.asarray(g) - r).max()) for g, r in zip(got_leaves, ref_leaves)),
        "ref_max": max(float(np.abs(r).max()) for r in ref_leaves),
        "shapes_match": len(got_leaves) == len(ref_leaves) and
        all(np.asarray(g).shape == r.shape for g, r in zip(got_leaves, ref_leaves))}


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    for item in sys.argv[2:]:
        print(json.dumps(check(*item.split(":"), sys.argv[1])), flush=True)
