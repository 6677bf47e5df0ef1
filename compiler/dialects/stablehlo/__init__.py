"""StableHLO ops grouped the way passes and codegen consult them: which ops
are elementwise, which move data, which are heavy, which the compiler
accepts.  The sets are derived from the op registry (dialects/registry.py),
where each op is declared once; add an op there, not here."""
from __future__ import annotations

from . import registry as R

P = "stablehlo."

UNARY_ELEMENTWISE = set(R.names(lowering=R.ELEMENTWISE, arity=1))
BINARY_ELEMENTWISE = set(R.names(lowering=R.ELEMENTWISE, arity=2))
TERNARY_ELEMENTWISE = set(R.names(lowering=R.ELEMENTWISE, arity=3))
# map applies its region per element (codegen/pull_ops.py).
ELEMENTWISE = set(R.names(lowering=R.ELEMENTWISE))

# Ops whose element at an index is one element of an operand (or a constant):
# they fuse into consumers as index remapping.
INDEX_REMAP = set(R.names(fusion=R.INDEX_REMAP))

# Ops that do real work per output element: they root their own dispatch
# unless their single consumer can take them as an epilogue.
HEAVY = set(R.names(fusion=R.HEAVY))

# Ops whose workgroups run a sequential program that writes its outputs
# directly (codegen/sequential.py): they always root a dispatch and their
# results always live in buffers.  Their operands may still be fused (pulled).
SEQUENTIAL = set(R.names(fusion=R.SEQUENTIAL))

# Everything the loop-kernel emitter knows how to compute.
KERNEL_OPS = ELEMENTWISE | INDEX_REMAP | HEAVY | SEQUENTIAL | set(R.names(fusion=R.CONSTANT))

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
