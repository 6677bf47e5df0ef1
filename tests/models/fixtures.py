"""Load the committed model fixtures: StableHLO text, inputs and JAX's outputs.

    from fixtures import load_model, MODELS          # with tests/models on sys.path
    text, inputs, expected = load_model("transformer_block")

Each model is `<name>.mlir` (StableHLO text written by JAX, weights as constants)
plus `<name>.npz` holding `arg0..argN` (inputs, in call order) and `out0..outM`
(JAX's results, in result order). `manifest.json` (written by export_models.py)
records shapes, dtypes, op counts and the tolerance to compare with. Needs numpy
only; no JAX.
"""
from __future__ import annotations

import json
import pathlib
import re

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent


def _manifest() -> dict:
    return json.loads((HERE / "manifest.json").read_text())


MODELS: tuple[str, ...] = tuple(_manifest()["models"])


def _numbered(npz, prefix: str) -> list[np.ndarray]:
    keys = [k for k in npz.files if re.fullmatch(prefix + r"\d+", k)]
    keys.sort(key=lambda k: int(k[len(prefix):]))
    if [int(k[len(prefix):]) for k in keys] != list(range(len(keys))):
        raise ValueError(f"{prefix}* keys are not numbered 0..N-1: {keys}")
    return [np.asarray(npz[k]) for k in keys]


def load_model(name: str) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    """Return (mlir_text, inputs, expected) for fixture `name`."""
    path = HERE / f"{name}.mlir"
    if not path.exists():
        raise KeyError(f"no model fixture {name!r}; have {sorted(MODELS)}")
    text = path.read_text()
    npz_path = HERE / f"{name}.npz"
    if not npz_path.exists():
        return text, [], []
    with np.load(npz_path) as npz:
        return text, _numbered(npz, "arg"), _numbered(npz, "out")


POLY_MODELS: tuple[str, ...] = tuple(_manifest().get("poly_models", {}))


def load_poly_model(name: str) -> tuple[str, dict]:
    """Return (mlir_text, {batch: (inputs, expected)}) for a batch-polymorphic
    fixture (`arg_b<B>_<k>` / `out_b<B>_<k>` in its npz)."""
    text = (HERE / f"{name}.mlir").read_text()
    runs: dict = {}
    with np.load(HERE / f"{name}.npz") as npz:
        for key in npz.files:
            m = re.fullmatch(r"(arg|out)_b(\d+)_(\d+)", key)
            if m:
                entry = runs.setdefault(int(m.group(2)), ({}, {}))
                entry[m.group(1) == "out"][int(m.group(3))] = np.asarray(npz[key])
    return text, {b: ([a[k] for k in sorted(a)], [o[k] for k in sorted(o)])
                  for b, (a, o) in sorted(runs.items())}


def tolerance(name: str) -> dict:
    """{'rtol': ..., 'atol': ...} to use with np.testing.assert_allclose for `name`."""
    m = _manifest()
    entry = m["models"].get(name) or m.get("poly_models", {})[name]
    return dict(entry["tolerance"])


def assert_matches(name: str, actual, expected, tol: dict | None = None) -> None:
    """Compare results (one array-like or a sequence) with JAX's, with the
    model's tolerance unless ``tol`` gives one."""
    tol = tolerance(name) if tol is None else tol
    actual = actual if isinstance(actual, (list, tuple)) else [actual]
    if len(actual) != len(expected):
        raise AssertionError(f"{name}: {len(actual)} results, expected {len(expected)}")
    for i, (a, e) in enumerate(zip(actual, expected)):
        a = np.asarray(a)
        if a.shape != e.shape or a.dtype != e.dtype:
            raise AssertionError(f"{name} out{i}: got {a.dtype}{list(a.shape)}, expected {e.dtype}{list(e.shape)}")
        if e.dtype.kind in "biu":
            np.testing.assert_array_equal(a, e, err_msg=f"{name} out{i}")
        else:
            np.testing.assert_allclose(a, e, err_msg=f"{name} out{i}", equal_nan=True, **tol)


_OP_LINE = re.compile(r'^\s*(?:%[^=]*=\s*)?"?([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)+|return|call)\b')
_APPLIES = re.compile(r"\bapplies\s+([a-z_]+\.[a-z0-9_]+)")


def op_counts(text: str) -> dict[str, int]:
    """Counts of operations by name in MLIR text (pretty or generic form).

    Pretty `return` / `call` are counted as func.return / func.call; the region op named
    by a compact `stablehlo.reduce ... applies stablehlo.add` is counted too.
    """
    counts: dict[str, int] = {}
    for line in text.splitlines():
        m = _OP_LINE.match(line)
        names = [m.group(1)] if m else []
        names += _APPLIES.findall(line)
        for op in names:
            op = {"return": "func.return", "call": "func.call"}.get(op, op)
            counts[op] = counts.get(op, 0) + 1
    return dict(sorted(counts.items()))
