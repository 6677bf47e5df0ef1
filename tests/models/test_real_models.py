"""The real-model set (benchmarks/models: Keras, keras_hub, Flax, HuggingFace (torchax) and JAX models
exported by jax.export, weights as arguments) compiles and matches the
library's own outputs on every CPU driver, and on OpenCL where it is present.

Needs numpy only: the weights are regenerated from the manifest by load.py.
"""
from __future__ import annotations

import pathlib
import sys

import pytest
from tvm_testing import compiled

from tensorvm import hal, runtime

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "models"))
import load as model_set  # noqa: E402

DEVICES = ["local-sync", "local-task"] + (["opencl"] if "opencl" in hal.available_drivers() else [])
# Measured on 2 CPUs (compile + one call): every (model, driver) pair takes under
# ~4 s except these, marked slow (deselect with -m "not slow"); the whole file
# takes ~80 s with them, ~20 s without.
SLOW = {("resnet50", d) for d in DEVICES}                      # 4-17 s: 23.6M weights
SLOW |= {(m, "opencl") for m in ("mobilenet_v2", "bert_tiny", "gpt2_tiny", "gpt2_greedy")}  # ~8 s OpenCL builds
# The transformer and decoding set (run.py --transformers) is a CPU benchmark:
# checked on the CPU drivers only (OpenCL builds of it take 11-36 s each); the
# two slowest compiles (5-6 s) are marked slow, the other five take ~22 s.
CPU_ONLY = set(model_set.GROUPS["transformers"])
SLOW |= {(m, d) for m in ("hf_t5", "kh_gpt2_generate") for d in DEVICES}


def _params():
    for case in model_set.cases():
        for device in DEVICES:
            if device == "opencl" and model_set.split_case(case)[0] in CPU_ONLY:
                continue
            slow = (model_set.split_case(case)[0], device) in SLOW
            yield pytest.param(case, device, id=f"{case}-{device}",
                               marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("case, device", list(_params()))
def test_real_model_matches_library(case, device):
    text, args, expected = model_set.load_case(case)
    targets = ("cpu", "opencl") if device == "opencl" else ("cpu",)
    module = runtime.load_module(compiled(text, targets), device=device)
    model_set.assert_matches(case, module.main(*args), expected)


def test_symbolic_batch_model_is_one_module_for_every_batch():
    """The symbolic-batch CNN's text has a `?` batch dim and serves both stored
    batch sizes from one loaded module."""
    name = "flax_cnn_dyn"
    runs = model_set.manifest()["models"][name]["runs"]
    assert len(runs) >= 2
    text, _, _ = model_set.load(name, next(iter(runs)))
    assert "tensor<?x32x32x3xf32>" in text
    module = runtime.load_module(compiled(text), device="local-sync")
    for run in runs:
        _, args, expected = model_set.load(name, run)
        model_set.assert_matches(f"{name}_{run}", module.main(*args), expected)


def test_weights_regenerate_from_the_manifest():
    """Weights are a pure function of the manifest: constant tensors stay constant
    and the random ones have the recorded mean/std."""
    entry = model_set.manifest()["models"]["mobilenet_v2"]["weights"]
    ws = model_set.weights("mobilenet_v2")
    assert len(ws) == len(entry["tensors"])
    for w, spec in zip(ws, entry["tensors"]):
        assert list(w.shape) == spec["shape"] and w.dtype.name == "float32"
        if spec["std"] == 0.0:
            assert (w == spec["mean"]).all()
        elif w.size > 1000:
            assert abs(float(w.std()) - spec["std"]) < 0.1 * spec["std"]


def test_xla_engine_compiles_and_times_the_set():
    """benchmarks/xla_engine.py, run.py's XLA columns: its worker process
    compiles the committed text with XLA:CPU (a symbolic batch refined to the
    inputs' shapes; a while loop with an EOS exit), its first result matches
    the library's, and it returns per-call times through jax's fast path."""
    pytest.importorskip("jax")
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "benchmarks"))
    import xla_engine
    prepare = dict(xla_engine.xla_engines())["XLA 1T"]
    try:
        for case in ("flax_cnn_dyn_b1", "jax_kv_decode"):
            text, args, expected = model_set.load_case(case)
            info: dict = {}
            fn = prepare({"text": text, "inputs": args}, info)
            model_set.assert_matches(case, info["first_result"], expected)
            model_set.assert_matches(case, fn(*args), expected)
            assert info["xla_call"] == "jit fast path"
            times = info["sample"](0.05, 3, 1)
            assert len(times) >= 3 and min(times) > 0
            info["release"]()
        with pytest.raises(xla_engine.XlaError):      # reported, the worker lives on
            prepare({"text": "func.func @main(", "inputs": []}, {})
        info = {}
        prepare({"text": text, "inputs": args}, info)
        model_set.assert_matches(case, info["first_result"], expected)
    finally:
        xla_engine.close_workers()
