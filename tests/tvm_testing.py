"""Helpers shared by the end-to-end tests (importable once tests/ is on sys.path)."""
from __future__ import annotations

import functools


@functools.lru_cache(maxsize=None)
def compiled(text: str, targets: tuple = ("cpu",)) -> bytes:
    """Compile once per distinct (MLIR text, targets) for the whole session."""
    from tensorvm import compiler
    return compiler.compile_str(text, targets=list(targets))


def run_text(text: str, *args, name: str = "main", device: str = "local-sync"):
    """Compile MLIR text, call export ``name`` through the runtime and return
    numpy results (one array, or a tuple for several results)."""
    import numpy as np

    from tensorvm import runtime
    out = runtime.load_module(compiled(text), device=device)[name](*args)
    if isinstance(out, tuple):
        return tuple(np.asarray(o) for o in out)
    return np.asarray(out)



def assert_poly_model_runs(module, name, runs):
    """A batch-polymorphic model matches JAX at every stored batch size."""
    from fixtures import assert_matches

    for batch, (inputs, expected) in runs.items():
        assert all(e.shape[0] == batch for e in expected)
        assert_matches(f"{name}", module.main(*inputs), expected)
