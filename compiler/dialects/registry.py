"""The op registry: every op tensorvm knows, each declared once.

The declarations live with their dialect (``dialects/func.py``,
``dialects/chlo.py``, ``dialects/stablehlo/<family>.py``; the fields are
described in ``dialects/opdef.py``); this module collects them into ``OPS``
and is what the rest of the compiler asks.  It covers the op lists of
``StablehloOps.td`` / ``ChloOps.td`` (tests/compiler/test_op_registry.py
fails when one lacks an entry) plus the ``func`` ops.  A second declaration
of a name is an error at import, so no declaration silently wins.
"""
from __future__ import annotations

import importlib
from typing import Optional

from . import chlo, func, stablehlo
from .opdef import (  # noqa: F401  (the trait vocabulary, re-exported for the registry's readers)
    ANY, CARRY, CONSTANT, DECOMPOSED, ELEMENT_FAMILIES, ELEMENTWISE, FLOAT, FLOAT_OR_COMPLEX, HEAVY, HOST,
    ALIAS, BRANCH, BROADCAST, CHEAP, CONDITIONAL, EFFECTFUL, PURE_REGIONS, REDUCER, SCALAR_OPERANDS, SELECTION, EXACT_FLOAT, IDEMPOTENT, SCALAR_CALL, VECTOR, LOOP, NATIVE_SCALAR, ORDER_PICK, STRIDED, TRAITS, VIEW,
    INDEX_REMAP, INT_OR_BOOL, INTEGER, KEEPS_ELEMENT, LOWERINGS, MOVE, NON_NEGATIVE, OWN, POSITIVE,
    PRETTY, REJECTED, SAME_ELEMENT, SEQUENTIAL, STRUCTURED, OpDef, select)


def _collect(*groups) -> dict:
    ops = {}
    for group in groups:
        for d in group:
            if d.name in ops:
                raise ValueError(f"op registry: {d.name} is declared twice")
            ops[d.name] = d
    return ops


OPS = _collect(func.OPS, chlo.OPS, stablehlo.OPS)


def lookup(name: str) -> Optional[OpDef]:
    return OPS.get(name)


def names(**where) -> frozenset:
    """Names of the ops whose fields equal ``where`` (``names(lowering=HOST)``)."""
    return select(OPS.values(), **where)


def rejected_reason(name: str) -> Optional[str]:
    """Why ``name`` does not compile, when the registry rejects it."""
    d = OPS.get(name)
    return d.reason if d is not None and d.lowering == REJECTED else None


def has(name: str, trait: str) -> bool:
    """Whether op ``name`` is declared with ``trait`` (opdef.TRAITS)."""
    d = OPS.get(name)
    return d is not None and trait in d.traits


def with_trait(trait: str) -> frozenset:
    """Names of the ops declared with ``trait``."""
    return frozenset(n for n, d in OPS.items() if trait in d.traits)


def identity(name: str) -> Optional[int]:
    """The identity a reduction tree starts from for combiner ``name`` (None:
    none declared)."""
    d = OPS.get(name)
    return d.identity if d is not None else None


def is_combiner(name: Optional[str]) -> bool:
    """Whether a reduction whose body applies ``name`` may combine its
    elements in any order (idempotent, or with a declared identity)."""
    return name is not None and (has(name, IDEMPOTENT) or identity(name) is not None)


def atomic(name: Optional[str]) -> Optional[str]:
    """The device atomic that applies combiner ``name`` in memory (None: none)."""
    d = OPS.get(name) if name is not None else None
    return d.atomic if d is not None else None


def terminates(name: str) -> bool:
    """Whether op ``name`` ends its block (MLIR's Terminator trait)."""
    d = OPS.get(name)
    return d is not None and d.terminator


def implementation(name: str, field: str, package: str):
    """The function op ``name`` names in ``field`` (``rewrite``, ``pull``,
    ``program``: ``"module:function"`` of ``package``), imported when asked
    (the declarations never import passes or codegen), or None."""
    d = OPS.get(name)
    spec = getattr(d, field, None) if d is not None else None
    if spec is None:
        return None
    module, fn = spec.split(":")
    return getattr(importlib.import_module(f"{package}.{module}"), fn)
