"""Shared pytest set-up: the fixture folders and helpers on sys.path."""
from __future__ import annotations

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
for sub in ("", "models", "conformance"):
    p = str(HERE / sub) if sub else str(HERE)
    if p not in sys.path:
        sys.path.insert(0, p)
