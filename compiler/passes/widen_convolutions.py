"""f16/bf16 convolutions as f32 convolutions between converts.

The convolution plans (codegen/conv.py, cpu_conv.py, gpu_conv.py) compute in
f32 or f64; a convolution of f16/bf16 operands would otherwise run as the
generic loop, one scalar dot product per output (a 56x56x64 3x3 bf16
convolution: 128 ms against 2.3 ms in f32).  Each such op becomes
``convert(convolution(convert(lhs), convert(rhs)) : f32)`` to its result
type (none when the result is f32 already, ``preferred_element_type``):
products summed in f32 and rounded once, which is what XLA and IREE compute
for bf16 convolutions too.  The operand converts are elementwise dispatches
of their own (the plans read captured buffers); the result's convert fuses
into the convolution's epilogue.  f16/bf16 ``dot_general`` needs no such
rewrite: its plans convert while they pack (codegen/kernel.py ``NARROW``)."""
from __future__ import annotations

from ..codegen.kernel import NARROW
from ..ir.core import Operation
from ..ir.types import TensorType
from .base import Pass
from .op_builder import Builder, replace


def _narrow(v) -> bool:
    return isinstance(v.type, TensorType) and v.type.element in NARROW


class WidenNarrowConvolutions(Pass):
    name = "widen-narrow-convolutions"

    def run(self, module) -> None:
        for f in list(module.functions):
            for op in [o for o in f.walk() if o.name == "stablehlo.convolution"]:
                lhs, rhs = op.operands[:2]
                out = op.results[0]
                if not (_narrow(lhs) and _narrow(rhs)) or out.type.element not in (*NARROW, "f32"):
                    continue
                b = Builder(op)
                wide = Operation(op.name, [b.convert(lhs, "f32"), b.convert(rhs, "f32"), *op.operands[2:]],
                                 [TensorType(out.type.shape, "f32", out.type.encoding)],
                                 dict(op.attributes), [], op.location)
                op.parent.insert_before(op, wide)
                replace(op, [b.convert(wide.results[0], out.type.element)])
