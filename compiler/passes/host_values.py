"""Decide which small tensors are computed by the host VM, not by kernels.

Loop counters, trip counts, predicates and other scalar integer work would
each cost a dispatch (and a device round trip to branch on).  A value is a
*host value* when it is tiny (HOST_MAX_ELEMENTS elements at most, static
shape), of a type the VM holds in a register bank, and made by an op the VM
can evaluate from other host values (constants included).  Loop-carried
values of ``stablehlo.while`` are host values when their initial value and
the body's next value both are (a fixed point, starting optimistic).

Host ops are tagged with the unit attribute ``tvm.host``; everything else
runs in dispatches.  Host values feeding kernels travel as push constants.
"""
from __future__ import annotations

from ..dialects.registry import BRANCH, LOOP, has, names, with_trait
from ..ir.attributes import DenseElementsAttr, UnitAttr
from ..ir.types import TensorType
from .base import Pass

HOST_MAX_ELEMENTS = 8
HOST_ELEMENTS = {"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f32", "f64"}
# ops whose small results may be computed on the host (the registry's host_value)
HOST_OPS = set(names(host_value=True))
# host control flow with regions (the registry's loop and branch traits)
REGION_OPS = with_trait(LOOP) | with_trait(BRANCH)
HOST_ATTR = "tvm.host"


def small(t) -> bool:
    return (isinstance(t, TensorType) and t.is_static and t.element in HOST_ELEMENTS
            and t.num_elements <= HOST_MAX_ELEMENTS)


def _host_op(op, host: set, needed=frozenset()) -> bool:
    if op.name not in HOST_OPS or not all(small(r.type) for r in op.results):
        return False
    if op.name == "stablehlo.constant":
        return isinstance(op.attributes.get("value"), DenseElementsAttr)
    if op.name == "stablehlo.get_dimension_size":
        return True          # the operand's shape is known to the host
    # Shape math stays on the host even from device inputs (they are read back).
    return all(v in host or (v in needed and small(v.type)) for v in op.operands)


def shape_needed(block) -> set:
    """Small values the host needs for shapes (operands of dynamic ops and
    shape assertions) and, backwards through host ops, what they are made of."""
    from .shapes import shape_operands
    needed = set()
    ops = [op for op in _walk_ops(block)]
    for op in ops:
        for i in shape_operands(op):
            if i < len(op.operands) and small(op.operands[i].type):
                needed.add(op.operands[i])
    for op in reversed(ops):
        if op.name in HOST_OPS and any(r in needed for r in op.results) \
                and op.name != "stablehlo.get_dimension_size":
            needed.update(v for v in op.operands if small(v.type))
    return needed


def _walk_ops(block):
    for op in block.operations:
        yield from op.walk()


def analyze_block(block, host_args) -> set:
    """The host values defined in ``block`` (and nested regions), given which
    of its arguments are host values.  Pure: nothing is tagged."""
    host = {a for a, h in zip(block.arguments, host_args) if h}
    needed = shape_needed(block)
    return _demote(_analyze(block, host, needed), needed)


def _demote(host: set, needed=frozenset()) -> set:
    """Drop non-scalar values whose every reader runs on the device: computing
    them on the host would only add an upload (kernels take scalars as push
    constants and recompute broadcasts for free)."""
    changed = True
    while changed:
        changed = False
        for v in list(host):
            op = v.defining_op
            if op is None or op.name == "stablehlo.constant" or v.type.rank == 0 or v in needed:
                continue
            if op.name in REGION_OPS:
                continue
            readers = [u for u, _ in v.uses]
            if readers and all(u.name not in REGION_OPS and not any(r in host for r in u.results)
                               for u in readers):
                host.difference_update(op.results)
                changed = True
    return host


def _analyze(block, host: set, needed=frozenset()) -> set:
    for op in block.operations:
        if op.name == "stablehlo.while":
            _analyze_while(op, host, needed)
        elif has(op.name, BRANCH):
            branch_sets = []
            for region in op.regions:
                inner = _analyze(region.blocks[0], set(host), needed)
                host |= inner
                branch_sets.append(inner)
            ret_ok = [all(v in s for s in branch_sets for v in [r.blocks[0].terminator.operands[i]
                                                                  for r in op.regions])
                      for i in range(len(op.results))]
            for r, ok in zip(op.results, ret_ok):
                if ok and small(r.type):
                    host.add(r)
        elif _host_op(op, host, needed):
            host.update(op.results)
    return host


def _analyze_while(op, host: set, needed=frozenset()) -> None:
    cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carried = [i for i, v in enumerate(op.operands) if v in host and small(v.type)]
    while True:
        flags = [i in carried for i in range(len(op.operands))]
        body_host = _analyze(body, set(host) | {a for a, f in zip(body.arguments, flags) if f},
                             needed)
        keep = [i for i in carried if body.terminator.operands[i] in body_host]
        if keep == carried:
            break
        carried = keep
    flags = [i in carried for i in range(len(op.operands))]
    host |= _analyze(cond, set(host) | {a for a, f in zip(cond.arguments, flags) if f}, needed)
    host |= body_host
    host.update(op.results[i] for i in carried)


class TagHostValues(Pass):
    """Tags host ops with ``tvm.host`` (see the module docstring)."""
    name = "tag-host-values"

    def run(self, module) -> None:
        for f in module.functions:
            block = f.regions[0].blocks[0]
            host = analyze_block(block, [False] * len(block.arguments))
            for op in f.walk():
                if op is f:
                    continue
                if (op.results and all(r in host for r in op.results) and op.name not in REGION_OPS
                        and op.name != "stablehlo.constant"):
                    op.attributes[HOST_ATTR] = UnitAttr()


def is_host(value) -> bool:
    op = value.defining_op
    if op is not None:
        return HOST_ATTR in op.attributes
    return False
