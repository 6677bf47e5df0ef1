"""A Keras application (MobileNetV3Small, random weights) compiled with
``compile_keras`` through Keras 3's JAX backend and checked against Keras.

    KERAS_BACKEND=jax python samples/frontends/keras_mobilenet.py [--size 64]

Needs ``pip install 'tensorvm[keras]'``.  The weights are baked into the
module (``weights="constants"``), so ``main`` takes only the image batch.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys

import numpy as np

os.environ.setdefault("KERAS_BACKEND", "jax")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check import compare, finish, timed  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=64, help="input height and width (>= 32)")
    args = p.parse_args(argv)
    import keras
    from tensorvm.compiler.frontends import compile_keras
    from tensorvm.runtime import load_module

    keras.utils.set_random_seed(0)
    model = keras.applications.MobileNetV3Small(
        input_shape=(args.size, args.size, 3), weights=None, include_preprocessing=False,
        classifier_activation=None, classes=100)
    x = np.random.default_rng(0).uniform(-1, 1, (2, args.size, args.size, 3)).astype(np.float32)
    vmfb = timed("compile_keras", compile_keras, model, x)
    print(f"module: {len(vmfb) / 1e6:.1f} MB ({model.count_params():,} parameters as constants)")
    module = load_module(vmfb)
    got = timed("tensorvm", module.main, x)
    finish(compare("logits", got, model(x, training=False)))


if __name__ == "__main__":
    sys.exit(main())
