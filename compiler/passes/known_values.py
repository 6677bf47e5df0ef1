"""What the simplifier knows about a value: its constant array, or the one
value every element has (a splat seen through broadcasts and reshapes).

Shared by the exact simplifications (fold.py) and strength reduction
(strength.py), which both match operands that are constants in disguise:
JAX and torch write ``x * 1`` or ``x ** 3`` with a broadcast scalar.
"""
from __future__ import annotations

import numpy as np

from ..dialects.registry import ALIAS, BROADCAST, OPS, with_trait
from ..ir.attributes import DenseArrayAttr, DenseElementsAttr
from ..ir.core import Operation
from ..ir.types import TensorType, bit_width, is_integer, is_unsigned

# one-operand broadcasts and reshapes: a splat stays a splat through them
SHAPE_THROUGH = frozenset(n for n in with_trait(BROADCAST) | with_trait(ALIAS)
                          if not OPS[n].shape_operands)


def static(t) -> bool:
    return isinstance(t, TensorType) and all(isinstance(d, int) for d in t.shape)


def constant_array(v):
    """The array of `v` when a ``stablehlo.constant`` defines it; else None."""
    op = v.defining_op
    if op is not None and op.name == "stablehlo.constant":
        a = op.attributes.get("value")
        if isinstance(a, DenseElementsAttr):
            return np.asarray(a.array)
    return None


def splat(v):
    """The one value every element of `v` has, when `v` is a splat constant
    (possibly broadcast or reshaped); else None."""
    while True:
        op = v.defining_op
        if op is None:
            return None
        if op.name in SHAPE_THROUGH and op.operands:
            v = op.operands[0]
            continue
        a = constant_array(v)
        if a is None or a.size == 0:
            return None
        first = a.reshape(-1)[0]
        return first if bool(np.all(a == first)) else None


def is_value(v, value) -> bool:
    """Whether every element of `v` is `value` ("+0.0" / "-0.0" tell the zeros apart)."""
    s = splat(v)
    if s is None:
        return False
    if value == "-0.0":
        return bool(s == 0) and bool(np.signbit(s))
    if value == "+0.0":
        return bool(s == 0) and not bool(np.signbit(s))
    return bool(s == value)


def all_ones(v) -> bool:
    s = splat(v)
    if s is None:
        return False
    el = v.type.element
    if el == "i1":
        return bool(s)
    return is_integer(el) and int(s) == (-1 if not is_unsigned(el) else (1 << bit_width(el)) - 1)


def same_type(a, b) -> bool:
    return str(a.type) == str(b.type)


def splat_like(v, value, anchor):
    """A new value of `v`'s type whose every element is `value`, built before
    `anchor` the way `v` is (the same broadcasts and reshapes of a new
    constant), so it works for any shape `v` has; None when `v` is no splat."""
    op = v.defining_op
    if op is None:
        return None
    if op.name in SHAPE_THROUGH and op.operands:
        inner = splat_like(op.operands[0], value, anchor)
        if inner is None:
            return None
        new = Operation(op.name, [inner, *op.operands[1:]], [v.type], dict(op.attributes), [],
                        anchor.location)
    else:
        a = constant_array(v)
        if a is None or a.size == 0:
            return None
        scalar = TensorType((), v.type.element)
        new = Operation("stablehlo.constant", [], [scalar],
                        {"value": DenseElementsAttr(scalar, np.full((), value, dtype=a.dtype))},
                        [], anchor.location)
        if a.ndim:           # a full-size constant: a scalar broadcast instead
            anchor.parent.insert_before(anchor, new)
            new = Operation("stablehlo.broadcast_in_dim", [new.result], [v.type],
                            {"broadcast_dimensions": DenseArrayAttr("i64", ())}, [], anchor.location)
    anchor.parent.insert_before(anchor, new)
    return new.result
