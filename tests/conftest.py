"""Shared pytest set-up: the fixture folders and helpers on sys.path."""
from __future__ import annotations

import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
for sub in ("", "models", "conformance"):
    p = str(HERE / sub) if sub else str(HERE)
    if p not in sys.path:
        sys.path.insert(0, p)

# TensorFlow loads its own LLVM, after which PoCL (the OpenCL tests) crashes
# or fails to build kernels in the same process; Keras imports TF whenever it
# is installed (keras.utils.set_random_seed seeds it too).  The TF frontend's
# tests run in a child with KERAS_BACKEND=tensorflow (test_frontend_tf.py);
# everywhere else TF is kept out of the test process.
if os.environ.get("KERAS_BACKEND") != "tensorflow":
    sys.modules.setdefault("tensorflow", None)
