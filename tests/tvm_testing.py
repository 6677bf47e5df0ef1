"""Helpers shared by the end-to-end tests (importable once tests/ is on sys.path)."""
from __future__ import annotations

import functools


@functools.lru_cache(maxsize=None)
def compiled(text: str, targets: tuple = ("cpu",)) -> bytes:
    """Compile once per distinct (MLIR text, targets) for the whole session."""
    from tensorvm import compiler
    return compiler.compile_str(text, targets=list(targets))
