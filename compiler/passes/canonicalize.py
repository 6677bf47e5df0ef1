"""Op-level canonicalization before inlining: ops that carry no computation
of their own are rewritten into ones the rest of the compiler knows.

- ``stablehlo.composite`` becomes a ``func.call`` of its ``decomposition``
  (the inliner then inlines it, as StableHLO allows);
- ``stablehlo.optimization_barrier`` forwards its operands (values are
  never re-ordered across dispatches anyway: the schedule follows data);
- ``get_tuple_element(tuple(...))`` folds to the tuple's operand;
- ``custom_call @Sharding`` and the SPMD shard/full-shape markers JAX emits
  for single-device programs forward their operand;
- ``chlo.mulhi`` (high half of an integer product) becomes StableHLO integer
  ops: a widened multiply and shift up to 32 bits, 32-bit halves for 64.
"""
from __future__ import annotations

from ..errors import UnsupportedOpError
from ..ir.attributes import SymbolRefAttr
from ..ir.core import Operation
from .base import Pass

IDENTITY_CUSTOM_CALLS = ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
                         "mhlo.sharding")


def _sym(op, key):
    a = op.attributes.get(key)
    return getattr(a, "name", None) or getattr(a, "value", None)


class CanonicalizeOps(Pass):
    name = "canonicalize-ops"

    def run(self, module) -> None:
        for f in list(module.functions):
            for op in list(f.walk()):
                self._rewrite(op)

    def _rewrite(self, op) -> None:
        name = op.name
        if name == "stablehlo.composite":
            callee = _sym(op, "decomposition")
            if callee is None:
                raise UnsupportedOpError(name, "composite without a decomposition", op.location)
            call = Operation("func.call", list(op.operands), [r.type for r in op.results],
                             {"callee": SymbolRefAttr(callee)}, [], op.location)
            op.parent.insert_before(op, call)
            for old, new in zip(op.results, call.results):
                old.replace_all_uses_with(new)
            op.erase()
        elif name == "stablehlo.optimization_barrier":
            self._forward(op, op.operands)
        elif name == "stablehlo.get_tuple_element":
            src = op.operands[0].defining_op
            if src is not None and src.name == "stablehlo.tuple":
                i = op.attributes["index"].value
                self._forward(op, [src.operands[i]])
                if not any(r.uses for r in src.results):
                    src.erase()
        elif name == "stablehlo.custom_call" and _sym(op, "call_target_name") in IDENTITY_CUSTOM_CALLS:
            if len(op.operands) == len(op.results):
                self._forward(op, op.operands)
        elif name == "chlo.mulhi":
            self._forward(op, [_mulhi(op)])

    @staticmethod
    def _forward(op, values) -> None:
        for old, new in zip(op.results, values):
            old.replace_all_uses_with(new)
        op.erase()


def _mulhi(op):
    """The high half of lhs * rhs (same integer type), built before ``op``."""
    import numpy as np

    from ..ir.attributes import DenseElementsAttr
    from ..ir.types import TensorType, bit_width, is_unsigned, numpy_dtype
    a, b = op.operands
    t = a.type
    el = getattr(t, "element", "")
    if not isinstance(t, TensorType) or not t.is_static or not el.lstrip("u").startswith("i"):
        raise UnsupportedOpError(op.name, f"on {t}", op.location)
    width, unsigned = bit_width(el), is_unsigned(el)

    def emit(name, operands, typ=None):
        new = Operation("stablehlo." + name, list(operands), [typ or operands[0].type], {}, [], op.location)
        op.parent.insert_before(op, new)
        return new.results[0]

    def const(value, typ):
        arr = np.full(typ.shape, value, dtype=numpy_dtype(typ.element))
        c = Operation("stablehlo.constant", [], [typ], {"value": DenseElementsAttr(typ, arr)}, [], op.location)
        op.parent.insert_before(op, c)
        return c.results[0]
    if width < 64:
        wide = TensorType(t.shape, "ui64" if unsigned else "i64")
        x, y = emit("convert", [a], wide), emit("convert", [b], wide)
        shift = "shift_right_logical" if unsigned else "shift_right_arithmetic"
        hi = emit(shift, [emit("multiply", [x, y]), const(width, wide)])
        return emit("convert", [hi], t)
    mask, k32 = const(0xFFFFFFFF, t), const(32, t)
    lo_a, hi_a = emit("and", [a, mask]), emit("shift_right_logical", [a, k32])
    lo_b, hi_b = emit("and", [b, mask]), emit("shift_right_logical", [b, k32])
    ll, lh = emit("multiply", [lo_a, lo_b]), emit("multiply", [lo_a, hi_b])
    hl, hh = emit("multiply", [hi_a, lo_b]), emit("multiply", [hi_a, hi_b])
    mid = emit("add", [emit("add", [emit("shift_right_logical", [ll, k32]), emit("and", [lh, mask])]),
                       emit("and", [hl, mask])])
    hi = emit("add", [emit("add", [hh, emit("shift_right_logical", [lh, k32])]),
                      emit("add", [emit("shift_right_logical", [hl, k32]),
                                   emit("shift_right_logical", [mid, k32])])])
    if not unsigned:   # two's complement: subtract b where a < 0 and a where b < 0
        k63 = const(63, t)
        hi = emit("subtract", [hi, emit("and", [emit("shift_right_arithmetic", [a, k63]), b])])
        hi = emit("subtract", [hi, emit("and", [emit("shift_right_arithmetic", [b, k63]), a])])
    return hi
