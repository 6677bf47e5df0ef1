"""Long sorts split into block sorts and merges, for GPU targets.

A GPU work-group sorts a row that fits its local memory (codegen/gpu_sort.py);
a longer row would run on one work-group.  Where a sort's dimension has
n = B * 2^m elements with B of at most a work-group's capacity, the sort
becomes: the operands reshaped to [..., n/B, B, ...] and sorted along the
blocks (n/B rows: n/B work-groups), then for w = B, 2B, ..., n/2 the results
reshaped to [..., n/(2w), 2w, ...] and sorted again, marked
``SORTED_HALVES``: every row's halves are sorted, so the GPU kernel merges
them with one item per element; finally a reshape back.  Each op is still a
sort of its rows, so any target may ignore the mark (CPU variants merge with
two cursors).  Block sorts and merges are stable, so the result is the
stable sort whatever ``is_stable`` says.
"""
from __future__ import annotations

from ..codegen.gpu_sort import SORTED_HALVES, block_capacity, sort_dim
from ..ir.attributes import BoolAttr, IntAttr
from ..ir.clone import clone_region
from ..ir.types import TensorType
from .base import Pass
from .op_builder import Builder


class SplitLongSorts(Pass):
    """``enabled``: the compile has a GPU target (a no-op otherwise)."""
    name = "split-long-sorts"

    def __init__(self, enabled: bool = False):
        self.enabled = enabled

    def run(self, module) -> None:
        sorts = [o for o in module.walk() if o.name == "stablehlo.sort"] if self.enabled else []
        for op, block in [(o, _block(o)) for o in sorts]:
            if block:
                _split(op, block)


def _block(op) -> int:
    """B for a sort worth splitting (0: leave it)."""
    if SORTED_HALVES in op.attributes or not op.results or not op.regions:
        return 0
    shape = op.results[0].type.shape
    if not shape or not all(type(d) is int for v in op.operands for d in v.type.shape) \
            or any(v.type.element.startswith("complex") for v in op.results):
        return 0
    n = shape[sort_dim(op)]
    cap = block_capacity([r.type.element for r in op.results])
    if n <= cap:
        return 0
    b = n
    while b > cap and b % 2 == 0:
        b //= 2
    return b if b <= cap else 0


def _split(op, block: int) -> None:
    dim = sort_dim(op)
    shape = tuple(op.results[0].type.shape)
    n = shape[dim]
    b = Builder(op)
    attrs = {k: v for k, v in op.attributes.items() if k != "dimension"}
    attrs["dimension"] = IntAttr(dim + 1)
    values, w = list(op.operands), block
    halves = False
    while True:
        rows = shape[:dim] + (n // w, w) + shape[dim + 1:]
        values = [b.op("stablehlo.reshape", [v], TensorType(rows, v.type.element)) for v in values]
        extra = {SORTED_HALVES: BoolAttr(True)} if halves else {}
        values = b.ops("stablehlo.sort", values, [v.type for v in values], {**attrs, **extra},
                       [clone_region(op.regions[0], {})])
        if w == n:
            break
        w, halves = w * 2, True
    for r, v in zip(op.results, values):
        r.replace_all_uses_with(b.op("stablehlo.reshape", [v], r.type))
    op.erase()
