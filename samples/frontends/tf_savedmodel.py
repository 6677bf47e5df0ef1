"""A TensorFlow SavedModel (a Keras MobileNetV3Small on the TensorFlow
backend, random weights, written by ``model.export``) compiled with
``tensorvm-compile`` and checked against TensorFlow running the same
SavedModel.

    python samples/frontends/tf_savedmodel.py [--size 64] [--batch 2]

Needs ``pip install 'tensorvm[tf]'``.  TF's XLA bridge compiles one static
shape, so the SavedModel's unknown batch dim is fixed with ``--batch``.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile

import numpy as np

os.environ["KERAS_BACKEND"] = "tensorflow"      # Keras must build the model on TF
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check import compare, finish, timed  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=64, help="input height and width (>= 32)")
    p.add_argument("--batch", type=int, default=2)
    args = p.parse_args(argv)
    import keras
    import tensorflow as tf
    from tensorvm.compiler import cli
    from tensorvm.runtime import load_module

    keras.utils.set_random_seed(0)
    model = keras.applications.MobileNetV3Small(
        input_shape=(args.size, args.size, 3), weights=None, include_preprocessing=False,
        classifier_activation=None, classes=100)
    x = np.random.default_rng(0).uniform(-1, 1, (args.batch, args.size, args.size, 3))
    x = x.astype(np.float32)
    with tempfile.TemporaryDirectory() as d:
        saved = os.path.join(d, "mobilenet_v3_small")
        model.export(saved, verbose=False)
        vmfb = os.path.join(d, "mobilenet.vmfb")
        rc = timed("tensorvm-compile", cli.main, [saved, "--batch", str(args.batch), "-o", vmfb])
        if rc != 0:
            return rc
        print(f"module: {os.path.getsize(vmfb) / 1e6:.1f} MB ({model.count_params():,} "
              "parameters as constants)")
        module = load_module(vmfb)
        got = timed("tensorvm", module.main, x)
        loaded = tf.saved_model.load(saved)     # kept: it owns the variables serve reads
        want = loaded.serve(tf.constant(x))
    finish(compare("logits", got, want.numpy()))


if __name__ == "__main__":
    sys.exit(main())
