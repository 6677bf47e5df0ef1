"""The frontend samples (samples/frontends/) run end to end and match their
framework: a flax ResNet, a Keras MobileNetV3Small, a torchvision
MobileNetV3-Small, a TensorFlow SavedModel of a Keras MobileNetV3Small.  Slow (each 30-80 s here): ``-m slow``, README."""
from __future__ import annotations

import importlib.machinery
import os
import pathlib
import subprocess
import sys

import pytest

SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "samples" / "frontends"


@pytest.mark.slow
@pytest.mark.parametrize("script, needs", [
    ("flax_resnet.py", ("jax", "flax")),
    ("keras_mobilenet.py", ("jax", "keras")),
    ("torchvision_mobilenet.py", ("torch", "torchax", "torchvision")),
    ("tf_savedmodel.py", ("tensorflow", "keras")),
])
def test_sample_matches_its_framework(script, needs):
    missing = [m for m in needs if importlib.machinery.PathFinder.find_spec(m) is None]
    if missing:
        pytest.skip(f"{script} needs {', '.join(missing)} (see samples/frontends/README.md)")
    r = subprocess.run([sys.executable, str(SAMPLES / script)], capture_output=True, text=True,
                       timeout=600, env={**os.environ, "KERAS_BACKEND": "jax"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "matches the framework" in r.stdout
