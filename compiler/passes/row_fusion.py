"""Row kernels: a reduction over the last dim fused into the kernel that
reads it back per row (layer norm, RMS norm, softmax in one dispatch).

A row reduce ``r = reduce(x, dims=[last])`` whose result only comes back
to ``x``'s shape through row broadcasts (``broadcast_in_dim`` along the last
dim, after same-shape elementwise ops on the row values such as ``r / n``
or ``rsqrt(v / n + eps)``, and keep-dims reshapes or broadcasts) is not materialized: the
kernels that read those broadcasts compute it.  The CPU loop kernel walks
rows, and values whose index does not involve the innermost loop are
computed once per row, before that loop (codegen/cpu.py), so a row reduce
costs one pass over the row, from cache.

Rowed values (fused values whose computation holds a row reduce) may only
flow into row reduces, same-shape elementwise ops, row broadcasts and
keep-dims reshapes of the same row shape; anything else (a transpose, a
heavy op, another shape) reads them from a buffer, because it would read
them at an index whose row changes along the innermost loop and recompute
the reduction per element.

Only for CPU-only compiles (the pipeline's ``row_fusion``): a GPU work item
would recompute the row reduction for every element.
"""
from __future__ import annotations

from ..dialects import registry
from ..dialects import stablehlo as shlo
from ..ir.attributes import ints


def _rows_of_static_length(shape) -> bool:
    """Rows of a static length; their count may be symbolic (a dynamic batch)."""
    return bool(shape) and type(shape[-1]) is int


# (with a dynamic batch, row broadcasts and keep-dims reshapes carry their shape as an operand)
_RESHAPES = registry.with_trait(registry.ALIAS)


def _dims_broadcast(op) -> bool:
    """A broadcast_in_dim or dynamic_broadcast_in_dim (both carry broadcast_dimensions)."""
    return registry.has(op.name, registry.BROADCAST) and op.name != "stablehlo.broadcast"


def _row_shapes(x_shape):
    rows = tuple(x_shape[:-1])
    return rows, rows + (1,)


def row_broadcast(op, x_shape) -> bool:
    """``op`` broadcasts row values back to ``x_shape`` along the last dim."""
    if not _dims_broadcast(op) or tuple(op.result.type.shape) != tuple(x_shape):
        return False
    src = tuple(op.operands[0].type.shape)
    dims = ints(op.attr("broadcast_dimensions"))
    rows, keep = _row_shapes(x_shape)
    n = len(x_shape)
    return (src == rows and dims == tuple(range(n - 1))) or (src == keep and dims == tuple(range(n)))


def _row_level(op, x_shape) -> bool:
    """``op`` computes row values from row values: elementwise on the row
    shape, or a keep-dims reshape."""
    shape = tuple(op.results[0].type.shape) if len(op.results) == 1 else None
    if shape not in _row_shapes(x_shape):
        return False
    if op.name in shlo.ELEMENTWISE:
        return True
    src = tuple(op.operands[0].type.shape) if op.operands else None
    if _dims_broadcast(op):       # torch's keep-dims: [r] -> [r, 1]
        return src == _row_shapes(x_shape)[0] and ints(op.attr("broadcast_dimensions")) == tuple(
            range(len(src)))
    return op.name in _RESHAPES and src in _row_shapes(x_shape)


def row_fusible(op, ret) -> bool:
    """Whether reduce ``op`` may be fused into the kernels reading it back
    per row (module docstring)."""
    if op.name != "stablehlo.reduce" or len(op.operands) != 2 or len(op.results) != 1:
        return False
    x = op.operands[0]
    shape = tuple(x.type.shape)
    if not _rows_of_static_length(shape) or ints(op.attr("dimensions")) != (len(shape) - 1,):
        return False
    work, seen = [op.result], set()
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        if v in ret.operands:
            return False
        for user, _ in v.uses:
            if row_broadcast(user, shape):
                continue
            if not _row_level(user, shape):
                return False
            work.append(user.results[0])
    return True


def bound_rows(ops, mat, rows) -> None:
    """Materializes the rowed values read by anything but row reduces,
    same-shape elementwise ops, row broadcasts and keep-dims reshapes of
    their row shape (module docstring).  ``rows``: the fused row reduces."""
    if not rows:
        return
    level = {}            # fused rowed value -> ("row" | "elem", the row kernel's shape)
    for op in ops:
        ins = [(v, level[v]) for v in op.operands if v in level and v not in mat]
        if op in rows:
            x_shape = tuple(op.operands[0].type.shape)
            mat.update(v for v, (kind, xs) in ins
                       if not (v is op.operands[0] and kind == "elem" and xs == x_shape))
            if op.result not in mat:
                level[op.result] = ("row", x_shape)
            continue
        if not ins:
            continue
        x_shape = ins[0][1][1]
        kind = None
        if all(xs == x_shape for _, (_, xs) in ins):
            if row_broadcast(op, x_shape):
                kind = "elem"
            elif _row_level(op, x_shape):
                kind = "row"
            elif op.name in shlo.ELEMENTWISE and len(op.results) == 1 \
                    and tuple(op.result.type.shape) == x_shape:
                kind = "elem"
        if kind is None:
            mat.update(v for v, _ in ins)
            continue
        for r in op.results:
            if r not in mat:
                level[r] = (kind, x_shape)
