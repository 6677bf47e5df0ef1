"""Attention as one dispatch for GPU compiles (issue 36.2).

Scores, their scale / mask / bias, the softmax and the product with the
values (codegen/attention.py's ``match``) become one ``tvm.dispatch`` whose
root is the p.v dot_general, marked ``ATTENTION``: the GPU renders it as a
FlashAttention kernel (codegen/gpu_attention.py), the CPU variants of the
same module as a plain online-softmax loop.  Unfused, attention is 3-5
dispatches whose scores and probabilities ([batch, heads, seq, seq]) go
through memory.

The dispatch is formed here, before FormDispatchRegions (which leaves
formed dispatches alone and materializes what they read): it holds the
matched ops, the views (transposes, reshapes, broadcasts: GQA's repeated
key/value heads) and small constants they read, and a following transpose
that the product stores directly (the head merge, kernel.store_view).
Anything else the scores read (a mask or bias computed elsewhere) is
captured, so it lives in a buffer.
"""
from __future__ import annotations

from ..codegen.attention import ATTENTION, _between, dead, match
from ..dialects import registry
from ..ir.attributes import BoolAttr, StringAttr
from ..ir.clone import clone_op
from ..ir.core import Block, Operation, Region
from .base import Pass
from .dispatch import _feeds_stored_transpose, _stores_transposed
from .host_values import HOST_ATTR
from .recompute_costs import inlinable_constant

_VIEWS = registry.with_trait(registry.VIEW)


class FuseAttention(Pass):
    """``gpu``: the compile has a GPU target (otherwise nothing changes:
    CPU-only compiles keep their row kernels)."""
    name = "fuse-attention"

    def __init__(self, gpu: bool = False):
        self.gpu = gpu
        self.count = 0

    def run(self, module) -> None:
        if not self.gpu:
            return
        for op in list(module.walk()):
            if op.name == "stablehlo.dot_general" and op.parent is not None:
                a = match(op)
                if a is not None and not any(HOST_ATTR in o.attributes for o in _between(a.qk, op).values()):
                    self._form(a)

    def _form(self, a) -> None:
        block = a.pv.parent
        inside = dict(_between(a.qk, a.pv))
        root = a.pv
        user = root.result.uses[0][0] if len(root.result.uses) == 1 else None
        if user is not None and (_stores_transposed(user) or _feeds_stored_transpose(user)):
            inside[id(user)] = user
            root = user
            if user.name != "stablehlo.transpose":
                root = user.result.uses[0][0]
                inside[id(root)] = root
        captures, pulled = [], {}
        stack = [o for op in inside.values() for o in op.operands]
        while stack:
            v = stack.pop()
            d = v.defining_op
            if d is not None and (id(d) in inside or id(d) in pulled):
                continue
            if d is not None and d.parent is block and HOST_ATTR not in d.attributes \
                    and (d.name in _VIEWS or inlinable_constant(d) or d.name == "stablehlo.iota"):
                pulled[id(d)] = d
                stack.extend(d.operands)
            elif v not in captures:
                captures.append(v)
        if any(getattr(v.type, "rank", 0) == 0 for v in captures):
            return          # (host scalars would be push constants: left to the unfused path)
        order = {id(op): i for i, op in enumerate(block.operations)}
        ops = sorted([*inside.values(), *pulled.values()], key=lambda o: order[id(o)])
        body = Block([v.type for v in captures])
        mapping = dict(zip(captures, body.arguments))
        for op in ops:
            new = clone_op(op, mapping)
            if op is a.pv:
                new.attributes[ATTENTION] = BoolAttr(True)
            body.append(new)
        body.append(Operation("tvm.yield", [mapping[r] for r in root.results]))
        dispatch = Operation("tvm.dispatch", captures, [r.type for r in root.results],
                             {"name": StringAttr(f"a{self.count}_attention")}, [Region([body])],
                             root.location)
        self.count += 1
        block.insert_before(root, dispatch)
        for old, new in zip(root.results, dispatch.results):
            old.replace_all_uses_with(new)
        for op in ops:
            for u in {id(u): u for r in op.results for u, _ in r.uses if dead(u)}.values():
                u.erase()
        for op in reversed(ops):
            if not any(r.uses for r in op.results):
                op.erase()
