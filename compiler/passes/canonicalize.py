"""Op-level canonicalization before inlining: ops that carry no computation
of their own are rewritten into ones the rest of the compiler knows.

- ``stablehlo.composite`` becomes a ``func.call`` of its ``decomposition``
  (the inliner then inlines it, as StableHLO allows);
- ``stablehlo.optimization_barrier`` forwards its operands (values are
  never re-ordered across dispatches anyway: the schedule follows data);
- ``get_tuple_element(tuple(...))`` folds to the tuple's operand;
- ``custom_call @Sharding`` and the SPMD shard/full-shape markers JAX emits
  for single-device programs forward their operand.
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

    @staticmethod
    def _forward(op, values) -> None:
        for old, new in zip(op.results, values):
            old.replace_all_uses_with(new)
        op.erase()
