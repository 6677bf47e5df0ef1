"""Attention's merged batch dims, split back before dispatch formation.

torch exports multi-head attention as ``bmm``: the (batch, heads) dims of
the head-split transposes are merged into one by a reshape before each
``dot_general`` (``[B, S, H, D] -> transpose -> [B, H, S, D] -> reshape ->
[B*H, S, D]``), and the result is split again after it.  A merged dim over
a transposed layout is not one strided run, so the transpose had to be
materialized (T5: three copies per attention).  Here a ``dot_general``
whose only batch dim is such a merge reads the unmerged value instead,
with the merged dims as batch dims of their own, and its result is
reshaped back (a relabel of the same bytes).  The transpose then feeds the
dot directly, which reads it through permuted strides (dispatch.py's
``_strided_source``; several batch runs are one contraction's
``batch_runs``).

Only static shapes, one batch dim leading both operands, and only when one
operand's merge has a transpose under it (otherwise nothing is gained).
The rewrite is exact: the same products summed in the same order.

torch's scaled-dot-product attention also scales q and k by a constant
(each by d^-1/4) between the head split and the product; that multiply
made the split a copy.  ``hoist_operand_scale`` moves a constant scale of
a ``dot_general`` operand, seen through reshapes, transposes and
broadcasts, to the
product's result (q*s . k*s = (q . k)*s^2, rounded once more), where it
fuses into the softmax that reads it; the operands are then views.
"""
from __future__ import annotations

import math

import numpy as np

from ..dialects.registry import VIEW, with_trait
from ..ir.attributes import DenseArrayAttr, DenseElementsAttr, StructAttr
from ..ir.core import Operation
from ..ir.types import TensorType, is_float, numpy_dtype
from .base import Pass
from .known_values import splat

_DOT = "stablehlo.dot_general"


def _merge(v):
    """(source value, the dims merged into v's leading dim) when ``v`` is a
    reshape of a static value that merges its leading dims and keeps the
    rest; else None."""
    op = v.defining_op
    if op is None or op.name != "stablehlo.reshape":
        return None
    src = op.operands[0]
    if not (src.type.is_static and v.type.is_static) or not v.type.shape:
        return None
    rest = v.type.shape[1:]
    k = src.type.rank - len(rest)
    if k < 2 or tuple(src.type.shape[k:]) != tuple(rest):
        return None
    lead = tuple(src.type.shape[:k])
    return (src, lead) if math.prod(lead) == v.type.shape[0] else None


def _over_transpose(v) -> bool:
    """A transpose, or a broadcast of one (grouped-query attention's repeated
    key/value heads): a view the contraction reads through strides."""
    op = v.defining_op
    if op is not None and op.name == "stablehlo.broadcast_in_dim":
        op = op.operands[0].defining_op
    return op is not None and op.name == "stablehlo.transpose"


def _refinement(leads) -> tuple | None:
    """The coarsest split of the merged dim that refines every one of
    ``leads`` (all of one product): the union of their running products,
    each dividing the next; None when there is none."""
    cuts = sorted({math.prod(lead[:i + 1]) for lead in leads for i in range(len(lead))})
    out, prev = [], 1
    for c in cuts:
        if c % prev:
            return None
        out.append(c // prev)
        prev = c
    return tuple(out)


def _unmerged(dot, side: int, lead: tuple, merges: list):
    """Operand ``side`` of ``dot`` with its leading dim split as ``lead``:
    the merge's source when it is split so, else a reshape of the source
    (or of the operand) that splits dims: a strided view, never a copy."""
    m = merges[side]
    v = m[0] if m is not None else dot.operands[side]
    if m is not None and m[1] == lead:
        return v
    t = TensorType(lead + tuple(dot.operands[side].type.shape[1:]), v.type.element)
    new = Operation("stablehlo.reshape", [v], [t], {}, [], dot.location)
    dot.parent.insert_before(dot, new)
    return new.result


def split_merged_batch(dot) -> bool:
    """Rewrite one ``dot_general`` (see the module docstring); True if done."""
    dn = dot.attributes.get("dot_dimension_numbers")
    if dn is None or not dot.result.type.is_static:
        return False
    f = dn.fields
    lb, rb = tuple(f.get("lhs_batching_dimensions", ())), tuple(f.get("rhs_batching_dimensions", ()))
    if lb != (0,) or rb != (0,):
        return False
    merges = [_merge(v) for v in dot.operands]
    if not any(m is not None and _over_transpose(m[0]) for m in merges) \
            or any(not v.type.is_static for v in dot.operands):
        return False
    lead = _refinement([m[1] for m in merges if m is not None])
    if lead is None:
        return False
    k = len(lead)
    lhs, rhs = (_unmerged(dot, s, lead, merges) for s in (0, 1))
    shift = lambda dims: tuple(d + k - 1 for d in dims)
    fields = dict(f, lhs_batching_dimensions=tuple(range(k)), rhs_batching_dimensions=tuple(range(k)),
                  lhs_contracting_dimensions=shift(f.get("lhs_contracting_dimensions", ())),
                  rhs_contracting_dimensions=shift(f.get("rhs_contracting_dimensions", ())))
    out_t = dot.result.type
    attrs = dict(dot.attributes, dot_dimension_numbers=StructAttr(dn.name, fields))
    new = Operation(_DOT, [lhs, rhs], [TensorType(lead + tuple(out_t.shape[1:]), out_t.element)],
                    attrs, [], dot.location)
    dot.parent.insert_before(dot, new)
    for user in [u for u in _users(dot.result) if u.name == "stablehlo.reshape"]:
        # a reshape of the result reshapes the new result directly (or is it)
        if user.result.type == new.result.type:
            user.result.replace_all_uses_with(new.result)
            user.erase()
        else:
            user.set_operand(0, new.result)
    if _users(dot.result):
        back = Operation("stablehlo.reshape", [new.result], [out_t], {}, [], dot.location)
        dot.parent.insert_before(dot, back)
        dot.result.replace_all_uses_with(back.result)
    dot.erase()
    return True


# reshapes, transposes and broadcasts: the ops the registry declares views
_RELABEL = with_trait(VIEW)


def _operand_scale(v):
    """(multiply op, its scaled operand, the scale) when ``v`` is, through
    single-use reshapes, transposes and broadcasts, a single-use multiply of a value by
    a splat constant; else None."""
    while True:
        op = v.defining_op
        if op is None or len(v.uses) != 1:
            return None
        if op.name in _RELABEL:
            v = op.operands[0]
            continue
        if op.name != "stablehlo.multiply":
            return None
        for x, c in (op.operands, reversed(op.operands)):
            s = splat(c)
            if s is not None and splat(x) is None:
                return op, x, s
        return None


def hoist_operand_scale(dot) -> bool:
    """Move constant scales of ``dot``'s operands to its result (see the
    module docstring); True if one moved."""
    out_t = dot.result.type
    if not is_float(out_t.element) or not out_t.is_static:
        return False
    found = [f for f in (_operand_scale(v) for v in dot.operands) if f is not None]
    if not found:
        return False
    scale = 1.0
    for mul, x, s in found:
        scale *= float(s)
        mul.result.replace_all_uses_with(x)
        mul.erase()
    scalar = TensorType((), out_t.element)
    c = Operation("stablehlo.constant", [], [scalar], {"value": DenseElementsAttr(
        scalar, np.full((), scale, dtype=numpy_dtype(out_t.element)))}, [], dot.location)
    b = Operation("stablehlo.broadcast_in_dim", [c.result], [out_t],
                  {"broadcast_dimensions": DenseArrayAttr("i64", ())}, [], dot.location)
    users = list(dot.result.uses)
    m = Operation("stablehlo.multiply", [dot.result, b.result], [out_t], {}, [], dot.location)
    nxt = _next(dot)
    for op in (c, b, m):
        dot.parent.insert_before(nxt, op)
    for u, i in users:
        u.set_operand(i, m.result)
    return True


def _next(op):
    ops = op.parent.operations
    return ops[ops.index(op) + 1]


def _users(v) -> list:
    return list(dict.fromkeys(op for op, _ in v.uses))


class SplitMergedBatch(Pass):
    """``split_merged_batch`` on every ``dot_general``; ``count`` says how many
    were rewritten."""
    name = "split-batch"

    def __init__(self):
        self.count = 0

    def run(self, module) -> None:
        for f in module.functions:
            for op in list(f.walk()):
                if op.name == _DOT and op.parent is not None:
                    hoist_operand_scale(op)
                    if split_merged_batch(op):
                        self.count += 1
