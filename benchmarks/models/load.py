"""Load the real-model benchmark set with numpy alone (no Keras, Flax or JAX).

    import sys; sys.path.insert(0, "benchmarks/models")
    import load
    for case in load.cases():                       # "resnet50", "flax_cnn_dyn_b16", ...
        text, args, expected = load.load_case(case)  # args = weights + inputs, call order
        load.assert_matches(case, results, expected)

Each model is `<name>.mlir` (StableHLO from jax.export, weights as arguments),
`<name>.npz` (inputs and the library's outputs per run) and its entry in
`manifest.json`, whose weight specs regenerate every weight exactly (see
export.py for the rule). A model with several runs (the symbolic-batch CNN at
two batch sizes) gives one case per run: `<name>_<run>`.
"""
from __future__ import annotations

import functools
import json
import pathlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent

# |got - want| <= RTOL * |want| + REL_TO_MAX * max|want|, per output: float32
# kernels that sum in another order differ by a few ulps of the LARGEST value
# an output holds, not of each element.
RTOL, REL_TO_MAX = 1e-4, 1e-4

# Named subsets of the models (`run.py --transformers`): HuggingFace
# transformers through torchax, keras_hub's GPT-2 generate loop, and the JAX
# KV-cache decoder with an early exit.
GROUPS = {"transformers": ("hf_bert", "hf_gpt2", "hf_t5", "hf_llama", "hf_vit",
                           "kh_gpt2_generate", "jax_kv_decode")}


@functools.lru_cache(maxsize=1)
def manifest() -> dict:
    return json.loads((HERE / "manifest.json").read_text())


def models() -> list[str]:
    return list(manifest()["models"])


def regenerate_weight(spec: dict, seed: int, i: int) -> np.ndarray:
    """Weight i of a model: mean + std * N(0, 1) from Generator([seed, i]); a
    tensor with std 0 is the constant `mean`."""
    shape = tuple(spec["shape"])
    if spec["std"] == 0.0:
        return np.full(shape, spec["mean"], np.float32)
    noise = np.random.default_rng([seed, i]).standard_normal(shape)
    return (spec["mean"] + spec["std"] * noise).astype(np.float32)


@functools.lru_cache(maxsize=None)
def weights(name: str) -> tuple[np.ndarray, ...]:
    w = manifest()["models"][name]["weights"]
    return tuple(regenerate_weight(s, w["seed"], i) for i, s in enumerate(w["tensors"]))


def cases(group: str | None = None) -> list[str]:
    """One benchmark/test case per (model, run); of the models in GROUPS[group] if given."""
    out = []
    for name, entry in manifest()["models"].items():
        if group is not None and name not in GROUPS[group]:
            continue
        runs = list(entry["runs"])
        out += [name] if runs == ["default"] else [f"{name}_{r}" for r in runs]
    return out


def split_case(case: str) -> tuple[str, str]:
    m = manifest()["models"]
    if case in m:
        return case, "default"
    name, _, run = case.rpartition("_")
    if name in m and run in m[name]["runs"]:
        return name, run
    raise KeyError(f"no model case {case!r}; have {cases()}")


def load(name: str, run: str = "default") -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    """(mlir_text, args, expected) of one run of model `name`; args are the
    regenerated weights followed by the inputs."""
    entry = manifest()["models"][name]
    text = (HERE / entry["mlir"]).read_text()
    spec = entry["runs"][run]
    with np.load(HERE / entry["npz"]) as z:
        inputs = [np.asarray(z[f"{run}_in{k}"]) for k in range(len(spec["inputs"]))]
        expected = [np.asarray(z[f"{run}_out{k}"]) for k in range(len(spec["outputs"]))]
    return text, list(weights(name)) + inputs, expected


def load_case(case: str):
    return load(*split_case(case))


def mismatch(got, want, rel_to_max: float = REL_TO_MAX) -> str | None:
    """Why `got` (a list of arrays) does not match `want`, or None: shapes and
    dtypes exactly, integers exactly, floats within the magnitude-scaled tolerance
    (``rel_to_max``: looser for models computed in bf16)."""
    if len(got) != len(want):
        return f"{len(got)} results, expected {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        g = np.asarray(g)
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"out{k}: {g.dtype}{list(g.shape)}, expected {w.dtype}{list(w.shape)}"
        if w.dtype.kind in "biu":
            if not np.array_equal(g, w):
                return f"out{k}: {int(np.sum(g != w))} of {w.size} values differ"
            continue
        w = w.astype(np.float64)
        scale = float(np.max(np.abs(w))) if w.size else 0.0
        err = np.abs(g.astype(np.float64) - w)
        bound = RTOL * np.abs(w) + rel_to_max * scale
        if not np.all(err <= bound):  # also catches NaN
            return (f"out{k}: max abs err {np.nanmax(err):.3g} vs output magnitude {scale:.3g} "
                    f"(relative {np.nanmax(err) / max(scale, 1e-30):.3g} > {rel_to_max:g})")
    return None


def assert_matches(case: str, got, want) -> None:
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    bad = mismatch(got, want)
    if bad:
        raise AssertionError(f"{case}: {bad}")
