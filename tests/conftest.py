"""Shared pytest set-up: fixture folders on sys.path, compiled-module cache."""
from __future__ import annotations

import functools
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
for sub in ("models", "conformance"):
    p = str(HERE / sub)
    if p not in sys.path:
        sys.path.insert(0, p)


@functools.lru_cache(maxsize=None)
def compiled(text: str) -> bytes:
    """Compile once per distinct MLIR text for the whole session."""
    from tensorvm import compiler
    return compiler.compile_str(text, targets=["cpu"])
