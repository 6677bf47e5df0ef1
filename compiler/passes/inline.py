"""Inline every ``func.call`` into its caller, then drop private functions.

StableHLO has no recursion; a call chain deeper than MAX_DEPTH is reported
as (probable) recursion instead of looping forever."""
from __future__ import annotations

from ..errors import CompileError
from ..ir.clone import clone_op
from .base import Pass

MAX_DEPTH = 64


def symbol(op, key: str):
    a = op.attributes.get(key)
    return getattr(a, "name", None) or getattr(a, "value", None)


def visibility(f) -> str:
    v = f.attributes.get("sym_visibility")
    return getattr(v, "value", v) or "public"


class InlineCalls(Pass):
    name = "inline"

    def run(self, module) -> None:
        funcs = {symbol(f, "sym_name"): f for f in module.functions}
        for f in module.functions:
            for _ in range(MAX_DEPTH):
                calls = [op for op in f.walk() if op.name == "func.call"]
                if not calls:
                    break
                for call in calls:
                    self._inline(call, funcs)
            else:
                raise CompileError(f"@{symbol(f, 'sym_name')}: calls nest deeper than "
                                   f"{MAX_DEPTH} levels (recursion is not supported)")
        if any(visibility(f) != "private" for f in module.functions):
            for f in module.functions:
                if visibility(f) == "private":
                    f.drop_all_references()
                    module.body.operations.remove(f)

    @staticmethod
    def _inline(call, funcs) -> None:
        name = symbol(call, "callee")
        callee = funcs.get(name)
        if callee is None:
            raise CompileError(f"{call.location}: call to unknown function @{name}")
        if len(callee.regions[0].blocks) != 1:
            raise CompileError(f"@{name}: functions with several blocks are not supported")
        body = callee.regions[0].blocks[0]
        mapping = dict(zip(body.arguments, call.operands))
        for inner in body.operations[:-1]:
            call.parent.insert_before(call, clone_op(inner, mapping))
        for res, val in zip(call.results, body.operations[-1].operands):
            res.replace_all_uses_with(mapping.get(val, val))
        call.erase()
