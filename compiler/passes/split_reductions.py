"""Large reductions to few outputs split in two, for GPU targets.

A reduce kernel gives each output element to one work-group (gpu.py), so a
sum of 2^24 elements to a scalar would run on one work-group of a GPU with
thousands.  Where a reduce has few outputs, reduces its operand's trailing
dims, and more than ``SPLIT_MIN`` elements feed each output, it becomes a
reduce of the operand reshaped to [outputs..., G, R/G] over the last dim
(G work-groups per output, the producers fused into it) and a reduce of
those partials over G: two dispatches, in a fixed order, so the result is
deterministic.  Only combiners that may be reassociated are split (those
of ``lane_reduce``: StableHLO leaves a reduction's order open).
"""
from __future__ import annotations

from ..codegen.lane_reduce import combiner
from ..dialects.registry import is_combiner
from ..ir.attributes import DenseArrayAttr, ints
from ..ir.clone import clone_region
from ..ir.types import TensorType
from .base import Pass
from .op_builder import Builder

SPLIT_MIN = 1 << 16      # reduced elements per output from which a reduce is split
PART = 1 << 14           # elements per partial
MAX_GROUPS = 4096        # partials per output
MAX_OUTPUTS = 64         # more outputs than this already fill a GPU's work-groups


class SplitLargeReductions(Pass):
    """``enabled``: the compile has a GPU target (a no-op otherwise)."""
    name = "split-large-reductions"

    def __init__(self, enabled: bool = False):
        self.enabled = enabled

    def run(self, module) -> None:
        if not self.enabled:
            return
        for op in [o for o in module.walk() if o.name == "stablehlo.reduce"]:
            groups = _groups(op)
            if groups:
                _split(op, groups)


def _groups(op) -> int:
    """G for a reduce worth splitting (0: leave it)."""
    if len(op.operands) != 2 or not is_combiner(combiner(op)):
        return 0
    shape = op.operands[0].type.shape
    if not all(type(d) is int for d in shape):
        return 0
    dims = sorted(ints(op.attr("dimensions")))
    if not dims or dims != list(range(len(shape) - len(dims), len(shape))):
        return 0
    keep = len(shape) - len(dims)
    outputs = reduced = 1
    for d in shape[:keep]:
        outputs *= d
    for d in shape[keep:]:
        reduced *= d
    if reduced < SPLIT_MIN or outputs > MAX_OUTPUTS:
        return 0
    g = 1           # partials of about PART elements: wide first pass, short second one
    while reduced % (g * 2) == 0 and reduced // (g * 2) >= PART and g < MAX_GROUPS:
        g *= 2
    return g if g >= 16 else 0


def _split(op, g: int) -> None:
    x, init = op.operands
    keep = x.type.rank - len(ints(op.attr("dimensions")))
    outer = tuple(x.type.shape[:keep])
    el = x.type.element
    reduced = x.type.num_elements // max(1, _product(outer))
    b = Builder(op)
    x2 = b.op("stablehlo.reshape", [x], TensorType(outer + (g, reduced // g), el))
    body = op.regions[0]
    part = b.op("stablehlo.reduce", [x2, init], TensorType(outer + (g,), op.result.type.element),
                {"dimensions": DenseArrayAttr("i64", (keep + 1,))}, [clone_region(body, {})])
    total = b.op("stablehlo.reduce", [part, init], op.result.type,
                 {"dimensions": DenseArrayAttr("i64", (keep,))}, [clone_region(body, {})])
    op.result.replace_all_uses_with(total)
    op.erase()


def _product(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n
