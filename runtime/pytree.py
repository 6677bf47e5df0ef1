"""Nested arguments and results of an export, rebuilt without the framework.

A frontend (``tensorvm.compiler.frontends``) flattens a model's pytrees
(JAX's nested tuples/lists/dicts of arrays) into the module's flat tensor
list and records the nesting in the function's reflection as plain data:

    {"t": "leaf"} | {"t": "none"}
    {"t": "tuple" | "list", "c": [child, ...]}
    {"t": "dict", "k": [key, ...], "c": [child, ...]}          (JAX's key order)
    {"t": "namedtuple", "name": str, "k": [field, ...], "c": [...]}

``flatten`` turns a call's positional arguments into the flat list the VM
takes (checking the structure, so a wrong nesting names where it differs);
``unflatten`` rebuilds the results.  No jax import: a deployed runtime has
none.
"""
from __future__ import annotations

import collections

from .errors import InvalidArgumentError

KINDS = ("leaf", "none", "tuple", "list", "dict", "namedtuple")


def check(spec, where="pytree") -> int:
    """Validate a spec read from a module; the number of leaves it holds."""
    if not isinstance(spec, dict) or spec.get("t") not in KINDS:
        raise ValueError(f"{where}: not a pytree node: {spec!r}")
    t = spec["t"]
    if t == "leaf":
        return 1
    if t == "none":
        return 0
    children = spec.get("c")
    if not isinstance(children, list):
        raise ValueError(f"{where}: a {t} node needs a child list 'c'")
    if t in ("dict", "namedtuple"):
        keys = spec.get("k")
        if not isinstance(keys, list) or len(keys) != len(children):
            raise ValueError(f"{where}: a {t} node needs one key per child")
    return sum(check(c, f"{where}.c[{i}]") for i, c in enumerate(children))


def flatten(spec, value, out: list, path: str = "args") -> list:
    """Append ``value``'s leaves to ``out`` in the spec's order."""
    t = spec["t"]
    if t == "leaf":
        out.append(value)
    elif t == "none":
        if value is not None:
            raise InvalidArgumentError(f"{path}: expected None, got {type(value).__name__}")
    elif t == "dict":
        if not isinstance(value, collections.abc.Mapping):
            raise InvalidArgumentError(f"{path}: expected a dict with keys {spec['k']}, "
                                       f"got {type(value).__name__}")
        if set(value) != set(spec["k"]):
            missing = [k for k in spec["k"] if k not in value]
            extra = [k for k in value if k not in spec["k"]]
            raise InvalidArgumentError(f"{path}: dict keys differ from the export's "
                                       f"(missing {missing}, unexpected {extra})")
        for k, c in zip(spec["k"], spec["c"]):
            flatten(c, value[k], out, f"{path}[{k!r}]")
    else:                                   # tuple, list, namedtuple
        if not isinstance(value, (tuple, list)) or len(value) != len(spec["c"]):
            n = len(value) if isinstance(value, (tuple, list)) else type(value).__name__
            raise InvalidArgumentError(f"{path}: expected a {t} of {len(spec['c'])} items, "
                                       f"got {n}")
        for i, (c, v) in enumerate(zip(spec["c"], value)):
            flatten(c, v, out, f"{path}[{i}]")
    return out


def unflatten(spec, leaves):
    """The nested value of ``spec`` built from the iterator ``leaves``."""
    t = spec["t"]
    if t == "leaf":
        return next(leaves)
    if t == "none":
        return None
    children = [unflatten(c, leaves) for c in spec["c"]]
    if t == "tuple":
        return tuple(children)
    if t == "list":
        return children
    if t == "dict":
        return dict(zip(spec["k"], children))
    return _namedtuple(spec["name"], tuple(spec["k"]))(*children)


def render(spec, leaves) -> str:
    """The nesting as text, each leaf shown by the next string of ``leaves``."""
    t = spec["t"]
    if t == "leaf":
        return next(leaves)
    if t == "none":
        return "None"
    parts = [render(c, leaves) for c in spec["c"]]
    if t == "dict":
        return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(spec["k"], parts)) + "}"
    if t == "namedtuple":
        return f"{spec['name']}(" + ", ".join(f"{k}={p}" for k, p in zip(spec["k"], parts)) + ")"
    if t == "list":
        return "[" + ", ".join(parts) + "]"
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


_NAMEDTUPLES: dict = {}


def _namedtuple(name, fields):
    """One class per (name, fields), so results of repeated calls compare equal."""
    cls = _NAMEDTUPLES.get((name, fields))
    if cls is None:
        cls = _NAMEDTUPLES[(name, fields)] = collections.namedtuple(name, fields)
    return cls
