"""Inline every ``func.call`` into its caller, then drop private functions.

StableHLO has no recursion: the call graph is checked for cycles first (a
located error naming the cycle), then functions are inlined callees first, so
each body is copied once it is itself call-free (linear in the inlined size,
never exponential)."""
from __future__ import annotations

from ..errors import CompileError
from ..ir.clone import clone_op
from .base import Pass


def symbol(op, key: str):
    a = op.attributes.get(key)
    return getattr(a, "name", None) or getattr(a, "value", None)


def visibility(f) -> str:
    v = f.attributes.get("sym_visibility")
    return getattr(v, "value", v) or "public"


def _where(op) -> str:
    return f"{op.location}: " if op.location is not None else ""


def callees_first(funcs: dict, calls: dict) -> list:
    """Function names ordered so every callee precedes its callers (iterative
    depth-first search); CompileError at the call that closes a cycle."""
    order, state = [], {}           # state: 1 on the current path, 2 finished
    for root in funcs:
        if state.get(root):
            continue
        state[root] = 1
        stack, path = [(root, iter(calls[root]))], [root]
        while stack:
            name, it = stack[-1]
            call = next(it, None)
            if call is None:
                stack.pop()
                path.pop()
                state[name] = 2
                order.append(name)
                continue
            callee = symbol(call, "callee")
            if callee not in funcs:
                raise CompileError(f"{_where(call)}error: call to unknown function @{callee}")
            if state.get(callee) == 1:
                cycle = " -> ".join(f"@{n}" for n in path[path.index(callee):] + [callee])
                raise CompileError(f"{_where(call)}error: recursive call ({cycle}); recursion "
                                   f"is not supported")
            if not state.get(callee):
                state[callee] = 1
                stack.append((callee, iter(calls[callee])))
                path.append(callee)
    return order


class InlineCalls(Pass):
    name = "inline"

    def run(self, module) -> None:
        funcs = {symbol(f, "sym_name"): f for f in module.functions}
        calls = {n: [op for op in f.walk() if op.name == "func.call"] for n, f in funcs.items()}
        for name in callees_first(funcs, calls):
            for call in calls[name]:
                self._inline(call, funcs)
        if any(visibility(f) != "private" for f in module.functions):
            for f in module.functions:
                if visibility(f) == "private":
                    f.drop_all_references()
                    module.body.operations.remove(f)

    @staticmethod
    def _inline(call, funcs) -> None:
        name = symbol(call, "callee")
        callee = funcs[name]
        if len(callee.regions[0].blocks) != 1:
            raise CompileError(f"{_where(call)}error: @{name}: functions with several blocks "
                               f"are not supported")
        body = callee.regions[0].blocks[0]
        mapping = dict(zip(body.arguments, call.operands))
        for inner in body.operations[:-1]:
            call.parent.insert_before(call, clone_op(inner, mapping))
        for res, val in zip(call.results, body.operations[-1].operands):
            res.replace_all_uses_with(mapping.get(val, val))
        call.erase()
