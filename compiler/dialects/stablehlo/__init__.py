"""The StableHLO dialect: its op declarations, one module per family
(elementwise, movement, contraction, reduction, control, collectives, linalg,
random), and the op groups passes and codegen consult (which ops are
elementwise, which move data, which are heavy).  The groups are derived from
the declarations of this dialect and CHLO; declare an op in its family
module, not here."""
from __future__ import annotations

from .. import chlo
from .. import opdef as D
from . import collectives, contraction, control, elementwise, linalg, movement, random, reduction

#: StableHLO's declarations, family by family.
OPS = (elementwise.OPS + movement.OPS + contraction.OPS + reduction.OPS + control.OPS
       + collectives.OPS + linalg.OPS + random.OPS)
_KERNEL_DIALECTS = OPS + chlo.OPS

P = "stablehlo."

UNARY_ELEMENTWISE = set(D.select(_KERNEL_DIALECTS, lowering=D.ELEMENTWISE, arity=1))
BINARY_ELEMENTWISE = set(D.select(_KERNEL_DIALECTS, lowering=D.ELEMENTWISE, arity=2))
TERNARY_ELEMENTWISE = set(D.select(_KERNEL_DIALECTS, lowering=D.ELEMENTWISE, arity=3))
# map applies its region per element (codegen/pull_ops.py).
ELEMENTWISE = set(D.select(_KERNEL_DIALECTS, lowering=D.ELEMENTWISE))

# Ops whose element at an index is one element of an operand (or a constant):
# they fuse into consumers as index remapping.
INDEX_REMAP = set(D.select(_KERNEL_DIALECTS, fusion=D.INDEX_REMAP))

# Ops that do real work per output element: they root their own dispatch
# unless their single consumer can take them as an epilogue.
HEAVY = set(D.select(_KERNEL_DIALECTS, fusion=D.HEAVY))

# Ops whose workgroups run a sequential program that writes its outputs
# directly (codegen/sequential.py): they always root a dispatch and their
# results always live in buffers.  Their operands may still be fused (pulled).
SEQUENTIAL = set(D.select(_KERNEL_DIALECTS, fusion=D.SEQUENTIAL))

# Everything the loop-kernel emitter knows how to compute.
KERNEL_OPS = ELEMENTWISE | INDEX_REMAP | HEAVY | SEQUENTIAL | set(D.select(_KERNEL_DIALECTS, fusion=D.CONSTANT))

# Ops that carry no computation of their own at the host level.
SIDE_EFFECT_FREE = KERNEL_OPS | {"func.call"}


def device_layout(module) -> tuple:
    """(replicas, partitions) from the module's ``mhlo.num_replicas`` /
    ``mhlo.num_partitions`` (1 where absent or not a positive int)."""
    attrs = getattr(module, "attributes", None) or {}
    out = []
    for key in ("mhlo.num_replicas", "mhlo.num_partitions"):
        a = attrs.get(key)
        v = getattr(a, "value", a)
        out.append(int(v) if isinstance(v, int) and v > 0 else 1)
    return tuple(out)
