"""Long sorts split into block sorts and merges (for GPU targets, and with
short blocks for CPU-only compiles: ``CPU_BLOCK``), and top_k over few long
rows into partial top_k and a sort of the candidates, for GPU targets.

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

A ``chlo.top_k`` (static k) over fewer than ``TOPK_ROWS`` rows of at least
``TOPK_MIN`` elements takes one work-group per row; it becomes a top_k over
the rows cut into G parts ([..., G, n/G]: G times the work-groups), the
parts' indices offset to the row's, the G * k candidates sorted (largest
first in total order, stable: on ties the earlier part, then the earlier
index, as top_k wants) and the first k sliced off.
"""
from __future__ import annotations

from ..codegen.gpu_sort import MAX_K, SORTED_HALVES, block_capacity, sort_dim
from ..ir.attributes import BoolAttr, DenseArrayAttr, IntAttr
from ..ir.clone import clone_region
from ..ir.core import Block, Region
from ..ir.types import TensorType, is_float
from .base import Pass
from .op_builder import Builder


#: CPU-only compiles: rows longer than CPU_MIN are split into blocks of at
#: most CPU_BLOCK.  The CPU sequential sort is a binary insertion sort (no
#: scratch memory in a kernel), quadratic in moves: a 2^18-element row took
#: 16 s; as short blocks and linear two-cursor merges it is n log n.
CPU_MIN, CPU_BLOCK = 4096, 64


class SplitLongSorts(Pass):
    """``gpu``: the compile has a GPU target (blocks a work-group sorts in
    local memory, and top_k split for GPUs); else CPU-sized blocks of long
    sorts only."""
    name = "split-long-sorts"

    def __init__(self, gpu: bool = False):
        self.gpu = gpu

    def run(self, module) -> None:
        ops = list(module.walk())
        for op, block in [(o, _block(o, self.gpu)) for o in ops if o.name == "stablehlo.sort"]:
            if block:
                _split(op, block)
        for op, parts in [(o, _parts(o)) for o in ops if self.gpu and o.name == "chlo.top_k"]:
            if parts:
                _split_top_k(op, parts)


def _block(op, gpu: bool = True) -> int:
    """B for a sort worth splitting (0: leave it)."""
    if SORTED_HALVES in op.attributes or not op.results or not op.regions:
        return 0
    shape = op.results[0].type.shape
    if not shape or not all(type(d) is int for v in op.operands for d in v.type.shape) \
            or any(v.type.element.startswith("complex") for v in op.results):
        return 0
    n = shape[sort_dim(op)]
    cap = block_capacity([r.type.element for r in op.results]) if gpu else CPU_BLOCK
    if n <= (cap if gpu else CPU_MIN):
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


TOPK_ROWS = 16          # rows from which top_k keeps one work-group per row
TOPK_MIN = 1 << 15      # elements per part, at least (shorter rows: the extra dispatches cost more)
TOPK_GROUPS = 1024      # rows * parts, at most


def _parts(op) -> int:
    """G for a top_k worth splitting (0: leave it)."""
    if len(op.operands) != 1 or len(op.results) != 2:
        return 0
    x = op.operands[0]
    shape, k = x.type.shape, op.results[0].type.shape[-1] if op.results[0].type.shape else 0
    if not shape or not all(type(d) is int for d in shape) or type(k) is not int \
            or not 0 < k <= MAX_K or x.type.element.startswith("complex"):
        return 0
    n, rows = shape[-1], 1
    for d in shape[:-1]:
        rows *= d
    if rows >= TOPK_ROWS:
        return 0
    cap = block_capacity([x.type.element, op.results[1].type.element])
    g = 1
    while n % (2 * g) == 0 and n // (2 * g) >= TOPK_MIN and rows * 2 * g <= TOPK_GROUPS \
            and 2 * g * k <= cap:
        g *= 2
    return g if g > 1 else 0


def _split_top_k(op, g: int) -> None:
    x = op.operands[0]
    vt, it = op.results[0].type, op.results[1].type
    lead, n, k = tuple(x.type.shape[:-1]), x.type.shape[-1], vt.shape[-1]
    b = Builder(op)
    parts = b.ops("chlo.top_k", [b.reshape(x, lead + (g, n // g))],
                  [TensorType(lead + (g, k), vt.element), TensorType(lead + (g, k), it.element)],
                  dict(op.attributes))
    offset = b.binary("multiply", b.iota(lead + (g, k), len(lead), it.element),
                      b.splat(TensorType(lead + (g, k), it.element), n // g))
    values = b.reshape(parts[0], lead + (g * k,))
    indices = b.reshape(b.binary("add", parts[1], offset), lead + (g * k,))
    body = Block([TensorType((), vt.element)] * 2 + [TensorType((), it.element)] * 2)
    inner = Builder(op, body)
    first = inner.compare(body.arguments[0], body.arguments[1], "GT",
                          "TOTALORDER" if is_float(vt.element) else None)
    inner.ops("stablehlo.return", [first], [])
    ranked = b.ops("stablehlo.sort", [values, indices], [values.type, indices.type],
                   {"dimension": IntAttr(len(lead)), "is_stable": BoolAttr(True)}, [Region([body])])
    cut = {"start_indices": DenseArrayAttr("i64", (0,) * (len(lead) + 1)),
           "limit_indices": DenseArrayAttr("i64", lead + (k,)),
           "strides": DenseArrayAttr("i64", (1,) * (len(lead) + 1))}
    for r, v in zip(op.results, ranked):
        r.replace_all_uses_with(b.op("stablehlo.slice", [v], r.type, cut))
    op.erase()
