"""Decompositions of the ops that carry no kernel of their own (CHLO's
implicitly broadcasting forms and predicates, constants), run by
``canonicalize-ops`` before inlining.  Each rewrite builds plain StableHLO
(or elementwise CHLO) before the op and forwards its results; the ops it
emits are final (the pass does not revisit them).

- ``chlo.broadcast_<op>``: each operand whose shape differs from the
  result's is ``broadcast_in_dim``-ed to it (the lower-rank operand along
  ``broadcast_dimensions`` when given, else numpy-style along the trailing
  result dims; size-1 dims stretch), then the elementwise op runs.  Dynamic
  result dims are computed at run time from the operands'
  ``get_dimension_size`` (a size-1 dim takes the other operand's size) and
  reach a ``dynamic_broadcast_in_dim``.
- ``chlo.is_inf`` / ``is_pos_inf`` / ``is_neg_inf``: ``compare`` of
  ``abs(x)`` / ``x`` with +inf / -inf.
- ``chlo.constant`` is ``stablehlo.constant``; ``chlo.constant_like`` a splat
  of its value in the operand's shape (broadcast at run time when dynamic).
"""
from __future__ import annotations

import numpy as np

from ..dialects.registry import OPS, implementation
from ..ir.attributes import DenseArrayAttr, DenseElementsAttr, EnumAttr, IntAttr
from ..ir.types import TensorType
from .op_builder import Builder, replace

# chlo.broadcast_<x> -> the elementwise op it broadcasts (each declaration's ``broadcasts``)
BROADCAST_OPS = {n: d.broadcasts for n, d in OPS.items() if d.broadcasts}


def _tensor(b, v, what):
    if not isinstance(v.type, TensorType):
        b.fail(f"with {what} of type {v.type} (a ranked tensor expected)")
    return v.type


def _dim_size(b, v, d):
    """The runtime size of dim ``d`` of ``v`` as a tensor<i64> (a constant
    when static)."""
    n = v.type.shape[d]
    if n is not None:
        return b.scalar("i64", n)
    s = b.op("stablehlo.get_dimension_size", [v], TensorType((), "i32"), {"dimension": IntAttr(d, "i64")})
    return b.convert(s, "i64")


def broadcast_to(b, v, shape, dims, out_shape_value=None):
    """``v`` broadcast along ``dims`` to ``shape`` (static), or with the
    runtime extents ``out_shape_value`` (tensor<Rxi64>) when ``shape`` has
    dynamic dims."""
    if v.type.shape == tuple(shape) and tuple(dims) == tuple(range(len(shape))):
        return v
    if all(n is not None for n in shape):
        return b.bcast(v, shape, dims)
    return b.op("stablehlo.dynamic_broadcast_in_dim", [v, out_shape_value],
                TensorType(tuple(shape), v.type.element),
                {"broadcast_dimensions": DenseArrayAttr("i64", tuple(int(d) for d in dims))})


def _broadcast_elementwise(op) -> list:
    b = Builder(op)
    target = BROADCAST_OPS[op.name]
    out_t = _tensor(b, op.results[0], "a result")
    rank = len(out_t.shape)
    bd = op.attributes.get("broadcast_dimensions")
    bd = None if bd is None else tuple(int(x) for x in getattr(bd, "values", ()))
    maps = []
    for i, v in enumerate(op.operands):
        t = _tensor(b, v, f"operand #{i}")
        r = len(t.shape)
        if r > rank:
            b.fail(f"operand #{i} of rank {r} is above the result's rank {rank}")
        if r == rank:
            dims = tuple(range(rank))
        elif bd is not None and len(bd) == r and op.name != "chlo.broadcast_select":
            dims = bd
        elif bd is not None and op.name != "chlo.broadcast_select":
            b.fail(f"broadcast_dimensions {list(bd)} do not name one result dim per dim of "
                   f"operand #{i} ({t})")
        else:
            dims = tuple(range(rank - r, rank))
        if any(not 0 <= d < rank for d in dims) or len(set(dims)) != len(dims):
            b.fail(f"broadcast_dimensions {list(dims)} outside the result's rank {rank} or repeated")
        for k, d in enumerate(dims):
            n, m = t.shape[k], out_t.shape[d]
            if n is not None and m is not None and n not in (1, m):
                b.fail(f"operand #{i} dim {k} of size {n} does not broadcast to result dim {d} "
                       f"of size {m} ({t} -> {out_t})")
        maps.append(dims)
    shape_value = None
    if not out_t.is_static:
        extents = []
        for d in range(rank):
            if out_t.shape[d] is not None:
                extents.append(b.scalar("i64", out_t.shape[d]))
                continue
            size = None
            for v, dims in zip(op.operands, maps):
                if d not in dims:
                    continue
                k = dims.index(d)
                if v.type.shape[k] == 1:
                    continue
                s = _dim_size(b, v, k)
                if size is None:
                    size = s
                else:    # numpy: a size-1 dim takes the other's size
                    one = b.scalar("i64", 1)
                    size = b.select(b.compare(size, one, "EQ"), s, size)
            extents.append(size if size is not None else b.scalar("i64", 1))
        shape_value = b.op("stablehlo.concatenate", [b.reshape(e, (1,)) for e in extents],
                           TensorType((rank,), "i64"), {"dimension": IntAttr(0, "i64")})
    args = []
    for v, dims in zip(op.operands, maps):
        args.append(broadcast_to(b, v, out_t.shape, dims, shape_value))
    attrs = {}
    if target == "stablehlo.compare":
        for key, kind in (("comparison_direction", "comparison_direction"),
                          ("compare_type", "comparison_type")):
            a = op.attributes.get(key)
            if a is not None:
                attrs[key] = EnumAttr("stablehlo", kind, getattr(a, "value", a))
        if "comparison_direction" not in attrs:
            b.fail("without a comparison_direction")
    return [b.op(target, args, out_t, attrs)]


def _is_inf(op) -> list:
    b = Builder(op)
    x = op.operands[0]
    t = _tensor(b, x, "an operand")
    el = t.element
    if not el.startswith(("f", "bf")):
        b.fail(f"on element type {el} (a float type expected)")
    if not t.is_static:
        b.fail("with dynamic shapes")
    inf = b.splat(x, np.inf)
    if op.name == "chlo.is_inf":
        return [b.compare(b.unary("abs", x), inf, "EQ")]
    if op.name == "chlo.is_pos_inf":
        return [b.compare(x, inf, "EQ")]
    return [b.compare(x, b.splat(x, -np.inf), "EQ")]


def _constant(op) -> list:
    b = Builder(op)
    value = op.attributes.get("value")
    if not isinstance(value, DenseElementsAttr):
        b.fail(f"with value {value} (a dense elements attribute expected)")
    return [b.op("stablehlo.constant", [], op.results[0].type, {"value": value})]


def _constant_like(op) -> list:
    b = Builder(op)
    out_t = _tensor(b, op.results[0], "a result")
    value = op.attributes.get("value")
    if isinstance(value, DenseElementsAttr):
        if value.array.size != 1:
            b.fail(f"with a non-scalar value of type {value.type}")
        scalar = value.array.reshape(-1)[0]
    elif hasattr(value, "value") and isinstance(value.value, (int, float, bool, complex)):
        scalar = value.value
    else:
        b.fail(f"with value {value} (a scalar attribute expected)")
    if out_t.is_static:
        return [b.const(out_t, scalar)]
    x = op.operands[0]
    r = len(out_t.shape)
    extents = [b.reshape(_dim_size(b, x, d), (1,)) for d in range(r)]
    shape_value = b.op("stablehlo.concatenate", extents, TensorType((r,), "i64"),
                       {"dimension": IntAttr(0, "i64")})
    return [broadcast_to(b, b.scalar(out_t.element, scalar), out_t.shape, (), shape_value)]


def rewrite_of(name: str):
    """The function rewriting op ``name``: its declaration's ``rewrite``
    (``"module:function"`` of a module of this package), or None."""
    return implementation(name, "rewrite", __package__)


def decompose(op) -> bool:
    """Rewrite ``op`` when it has a decomposition here; True when it had."""
    fn = rewrite_of(op.name)
    if fn is None:
        return False
    replace(op, fn(op))
    return True
