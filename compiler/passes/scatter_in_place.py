"""Large GPU scatters update their operand's buffer in place, over many
work-groups (for compiles with a GPU target; runs after dispatch formation).

A scatter kernel copies its operand into its result, then applies the
updates; with no grid-wide barrier in a dispatch, both ran on one
work-group (codegen/gpu_scatter.py).  Here, a dispatch rooted at a scatter
whose updates can be applied in any order by many work-groups
(``gpu_scatter.parallel_updates``) and that has at least ``MIN_UPDATES``
update elements is marked ``IN_PLACE_ATTR`` = the binding that holds the
scatter's operand.  The operand must then be a value only this dispatch
reads, made by a dispatch of its own, or a donated argument whose buffer
the scatter's result takes over (host/donation.py): where it is neither
(an argument, a constant, a value read elsewhere or returned), a copy
dispatch is put in front that makes one.  The memory plan (passes/memory.py) gives the result
the operand's storage, so the copy is the operand's own kernel and the
scatter dispatch's grid covers only the updates.  Only functions of
straight-line dispatches (the static plan) are changed: the general host
path (control flow, dynamic shapes) allocates every result a buffer of its
own, and its scatters keep the one-work-group kernel, with no copy
dispatch.  The kernel stays correct where a host does not share the
storage anyway: it compares the two pointers and, where they differ,
copies and updates on its first work-group.
"""
from __future__ import annotations

from math import prod

from ..codegen.gpu_scatter import IN_PLACE_ATTR, parallel_updates
from ..host.donation import dispatch_donors
from ..host.host_program import needs_general_path
from ..ir.attributes import IntAttr, StringAttr
from ..ir.core import Block, Operation, Region
from .base import Pass

#: Fewer update elements than this keep the one-work-group kernel (a copy
#: dispatch and a grid cost more than they save).
MIN_UPDATES = 4096


class ScattersInPlace(Pass):
    name = "scatters-in-place"

    def run(self, module) -> None:
        copies = 0
        for f in module.functions:
            if needs_general_path(f):
                continue
            for d in [o for o in f.regions[0].blocks[0].operations if o.name == "tvm.dispatch"]:
                k = _scatter_operand(d)
                if k is None:
                    continue
                v = d.operands[k]
                d.attributes[IN_PLACE_ATTR] = IntAttr(k, "i64")
                fresh = len(v.uses) == 1 and getattr(v.defining_op, "name", None) == "tvm.dispatch"
                # (a donated argument: the mark makes ``d`` an update of its chain)
                if not fresh and (v.defining_op is not None or id(d) not in dispatch_donors(f)):
                    d.set_operand(k, _copy(d, v, copies).result)
                    copies += 1


def _scatter_operand(d):
    """The operand index of dispatch ``d`` that holds its root scatter's
    operand, where ``d`` should update it in place; else None."""
    block = d.regions[0].blocks[0]
    outs = list(block.terminator.operands)
    root = outs[0].defining_op if outs else None
    if root is None or root.name != "stablehlo.scatter" or len(root.results) != 1 \
            or len(outs) != 1 or not parallel_updates(root):
        return None
    if prod(root.operands[2].type.shape) < MIN_UPDATES:
        return None
    x = root.operands[0]
    if x not in block.arguments or len(x.uses) != 1:
        return None          # computed in the kernel, or read there besides
    return block.arguments.index(x)


def _copy(d, v, n):
    """A dispatch before ``d`` whose result is a copy of ``v``."""
    body = Block([v.type])
    (a,) = body.arguments
    # a same-type convert: an elementwise loop kernel that stores its input
    cp = Operation("stablehlo.convert", [a], [v.type])
    body.append(cp)
    body.append(Operation("tvm.yield", [cp.result]))
    name = f"{d.attributes['name'].value}_copy{n}"
    copy = Operation("tvm.dispatch", [v], [v.type], {"name": StringAttr(name)},
                     [Region([body])], d.location)
    d.parent.insert_before(d, copy)
    return copy
