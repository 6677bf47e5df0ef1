"""What recomputing a fused value costs: the rules dispatch formation
(dispatch.py) materializes values by.

A value read by several ops, or repeated by a broadcast, is either
recomputed where it is read or written to a buffer once.  ``cheap`` says
which values each reader may recompute (one op over buffers, or a cheap op
over a short chain of cheap ops); ``costly`` grades what recomputing a
value runs (0 cheap, 1 costly, 2 a scalar libm call per element), and
``RECOMPUTE_EXPANSION`` the broadcast repeat from which each grade pays for
a buffer.
"""
from __future__ import annotations

from ..dialects import stablehlo as shlo
from ..dialects.registry import CHEAP, SCALAR_CALL, VECTOR, names
from ..ir.attributes import DenseElementsAttr
from .shapes import shape_operands

INLINE_CONSTANT_LIMIT = 16   # constants up to this many elements go into kernels

# A broadcast that repeats each element of a costly fused value this many
# times or more, by cost class (``costly``), reads that value from a buffer
# instead of recomputing it: batch-norm's rsqrt(var + eps) * gamma over a
# conv's output from 16 repeats on; a scalar libm call per element (RoPE's
# sin and cos of a [seq, dim] table under a [batch, seq, heads, dim]
# broadcast) from two.
RECOMPUTE_EXPANSION = {1: 16, 2: 2}

# Each op's declared ``recompute`` cost (dialects/opdef.py): ``cheap`` ops
# are recomputed under any broadcast; ``scalar_call`` ops run a scalar libm
# call per element on the CPU (codegen/vector_math.py vectorises exp, log,
# tanh, erf, logistic for f32); on f64 only ``vector`` ops (and cheap ones)
# still vectorise.
CHEAP_OPS = names(recompute=CHEAP)
SCALAR_CALLS = names(recompute=SCALAR_CALL)
_VECTOR_F64 = names(recompute=VECTOR)

# How many cheap ops deep a value recomputed by several readers may reach.
CHEAP_CHAIN = 5


def inlinable_constant(op) -> bool:
    if op.name != "stablehlo.constant":
        return False
    v = op.attributes.get("value")
    if not isinstance(v, DenseElementsAttr):
        return False
    return v.array.size <= INLINE_CONSTANT_LIMIT or v.is_splat


def cheap(op, mat, depth=0) -> bool:
    """Whether ``op`` may be recomputed by each reader: one op over buffers
    and constants, or a cheap op over short chains of cheap ops (``x -
    broadcast(sum * (1/n))``, a layer norm's centred value)."""
    if op.name == "stablehlo.iota" or inlinable_constant(op):
        return True
    if op.name in shlo.ELEMENTWISE or op.name in shlo.INDEX_REMAP:
        chain = depth < CHEAP_CHAIN and op.name in CHEAP_OPS
        host = shape_operands(op)     # a dynamic broadcast's shape: read on the host
        return all(i in host or v in mat or (v.defining_op is not None and (
            inlinable_constant(v.defining_op) or (chain and (
                heavy_or_epilogue(v.defining_op)      # a root, or its epilogue's end is
                or cheap(v.defining_op, mat, depth + 1)))))
            for i, v in enumerate(op.operands))
    return False


def heavy_or_epilogue(op) -> bool:
    """A heavy op, or an elementwise op over one (an epilogue): a reader
    outside its dispatch reads it from a buffer (``_bound_recompute``)."""
    return op.name in shlo.HEAVY or (op.name in shlo.ELEMENTWISE and any(
        v.defining_op is not None and v.defining_op.name in shlo.HEAVY for v in op.operands))


def costly(value, mat, depth=0) -> int:
    """How costly recomputing fused ``value`` per element is: 0 cheap, 1 a
    costly op (a division, a vectorised transcendental, a heavy op), 2 a
    scalar libm call per element (``SCALAR_CALLS``, f64 transcendentals)."""
    op = value.defining_op
    if value in mat or op is None or depth > 16:
        return 0
    if op.name in shlo.HEAVY:
        return 1
    if op.name in shlo.ELEMENTWISE and op.name not in CHEAP_OPS:
        f64 = any(getattr(r.type, "element", None) == "f64" for r in op.results)
        if op.name in SCALAR_CALLS or (f64 and op.name not in _VECTOR_F64):
            return 2
        return max([1] + [costly(v, mat, depth + 1) for v in op.operands])
    if op.name in shlo.ELEMENTWISE or op.name in shlo.INDEX_REMAP:
        return max([0] + [costly(v, mat, depth + 1) for v in op.operands])
    return 0


def expansion(src, result) -> int:
    """How many times a broadcast repeats each element of ``src`` (dynamic
    dims count as large)."""
    def size(t):
        n = 1
        for d in t.shape:
            n *= d if isinstance(d, int) else 1 << 10
        return n
    return size(result.type) // max(1, size(src.type))
