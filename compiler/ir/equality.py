"""Structural equality of IR (used by round-trip tests and pass checks).

Two modules are equal when their ops match one to one (names, attributes,
result types, regions) and operands refer to corresponding values.  Dense
elements compare bitwise (NaN equals NaN, -0.0 differs from 0.0).
"""
from __future__ import annotations

import math

import numpy as np

from . import attributes as A


def _bytes(arr: np.ndarray) -> bytes:
    return np.ascontiguousarray(arr).tobytes()


def value_equal(a, b) -> bool:
    """Equality of attribute values and struct fields (ints, tuples, None, attrs)."""
    if isinstance(a, A.Attribute) or isinstance(b, A.Attribute):
        return attr_equal(a, b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(value_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def attr_equal(a, b) -> bool:
    """Deep equality of two attributes."""
    if type(a) is not type(b):
        return False
    if isinstance(a, A.DenseElementsAttr):
        return (a.type == b.type and a.array.dtype == b.array.dtype
                and a.array.shape == b.array.shape and _bytes(a.array) == _bytes(b.array))
    if isinstance(a, A.ArrayAttr):
        return len(a.elements) == len(b.elements) and all(
            attr_equal(x, y) for x, y in zip(a.elements, b.elements))
    if isinstance(a, A.DictAttr):
        return dicts_equal(a.entries, b.entries)
    if isinstance(a, A.StructAttr):
        return a.name == b.name and a.fields.keys() == b.fields.keys() and all(
            value_equal(v, b.fields[k]) for k, v in a.fields.items())
    if isinstance(a, A.FloatAttr):
        return a.type == b.type and value_equal(a.value, b.value)
    if isinstance(a, A.DenseArrayAttr):
        return a.element == b.element and value_equal(tuple(a.values), tuple(b.values))
    return a == b


def dicts_equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(attr_equal(v, b[k]) for k, v in a.items())


class _Diff(Exception):
    pass


def _ops(a_ops, b_ops, vmap, path):
    if len(a_ops) != len(b_ops):
        raise _Diff(f"{path}: {len(a_ops)} ops vs {len(b_ops)}")
    for i, (x, y) in enumerate(zip(a_ops, b_ops)):
        where = f"{path}/{i}:{x.name}"
        if x.name != y.name:
            raise _Diff(f"{where}: op name {x.name} vs {y.name}")
        if not dicts_equal(x.attributes, y.attributes):
            keys = sorted(set(x.attributes) | set(y.attributes))
            bad = [k for k in keys if k not in x.attributes or k not in y.attributes
                   or not attr_equal(x.attributes[k], y.attributes[k])]
            k = bad[0]
            raise _Diff(f"{where}: attribute '{k}': {x.attributes.get(k)!r} vs "
                        f"{y.attributes.get(k)!r}")
        if len(x.operands) != len(y.operands):
            raise _Diff(f"{where}: {len(x.operands)} operands vs {len(y.operands)}")
        for j, (u, v) in enumerate(zip(x.operands, y.operands)):
            if vmap.get(id(u)) is not v:
                raise _Diff(f"{where}: operand {j} refers to a different value")
        if [r.type for r in x.results] != [r.type for r in y.results]:
            raise _Diff(f"{where}: result types {[str(r.type) for r in x.results]} vs "
                        f"{[str(r.type) for r in y.results]}")
        for u, v in zip(x.results, y.results):
            vmap[id(u)] = v
        if len(x.regions) != len(y.regions):
            raise _Diff(f"{where}: {len(x.regions)} regions vs {len(y.regions)}")
        for r, (ra, rb) in enumerate(zip(x.regions, y.regions)):
            if len(ra.blocks) != len(rb.blocks):
                raise _Diff(f"{where}: region {r} has {len(ra.blocks)} blocks vs {len(rb.blocks)}")
            for bi, (ba, bb) in enumerate(zip(ra.blocks, rb.blocks)):
                if [v.type for v in ba.arguments] != [v.type for v in bb.arguments]:
                    raise _Diff(f"{where}: region {r} block {bi} argument types differ")
                for u, v in zip(ba.arguments, bb.arguments):
                    vmap[id(u)] = v
            for bi, (ba, bb) in enumerate(zip(ra.blocks, rb.blocks)):
                _ops(ba.operations, bb.operations, vmap, f"{where}/r{r}b{bi}")


def module_diff(a, b) -> str | None:
    """A description of the first difference between modules, or None."""
    if a.name != b.name:
        return f"module name {a.name!r} vs {b.name!r}"
    if not dicts_equal(a.attributes, b.attributes):
        return "module attributes differ"
    try:
        _ops(a.body.operations, b.body.operations, {}, "module")
    except _Diff as e:
        return str(e)
    return None


def modules_equal(a, b) -> bool:
    return module_diff(a, b) is None
