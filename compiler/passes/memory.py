"""Scheduling and memory planning for a function made of dispatches.

Scheduling: a dispatch's level is one more than the deepest level of the
dispatches it reads; dispatches of one level are independent and run
concurrently, with one execution barrier between levels (barriers only where
data flows).

A dispatch that updates a donated value in place (host/donation.py)
also waits for every other reader of the value it overwrites, and the
values of such an update chain share the storage of its end.  So do a
large GPU scatter's operand and result (passes/scatter_in_place.py: the
operand is a transient only that scatter reads): the result takes the
operand's slab range, which stays live until the result's last reader.

Memory: transient values share one slab per invocation.  A value occupies its
slab range from the level that writes it to the last level that reads it;
a later value may reuse the range only from a strictly later level, so the
barrier between levels orders the last read before the next write.  Values
the function returns get buffers of their own (the caller keeps them).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..codegen.gpu_scatter import IN_PLACE_ATTR
from ..host.donation import dispatch_donors, in_place_operand, readers
from ..ir.types import TensorType, numpy_dtype

ALIGNMENT = 64


def byte_size(t: TensorType) -> int:
    item = numpy_dtype(t.element).itemsize
    return max(1, t.num_elements * item) if t.num_elements else 0


@dataclass
class Storage:
    kind: str            # "arg", "constant", "result", "slab"
    index: int = 0       # arg / constant / result ordinal
    offset: int = 0      # byte offset inside the buffer
    size: int = 0        # byte length


@dataclass
class FunctionPlan:
    levels: list = field(default_factory=list)       # [[dispatch op, ...], ...]
    storage: dict = field(default_factory=dict)      # Value -> Storage
    constants: list = field(default_factory=list)    # constant ops that live in rodata
    results: list = field(default_factory=list)      # per returned value: Storage or None (copy)
    result_sizes: list = field(default_factory=list)
    slab_size: int = 0

    @property
    def dispatch_count(self) -> int:
        return sum(len(level) for level in self.levels)

    @property
    def dispatches(self) -> list:
        return [d for level in self.levels for d in level]


def _root(value, alias_of):
    while value in alias_of:
        value = alias_of[value]
    return value


def plan_function(func) -> FunctionPlan:
    block = func.regions[0].blocks[0]
    ret = block.terminator
    plan = FunctionPlan()
    alias_of = {}
    for i, a in enumerate(block.arguments):
        plan.storage[a] = Storage("arg", i, 0, byte_size(a.type))
    level_of = {}
    in_place = _in_place_states(func)      # id(dispatch) -> the state it updates in place
    for op in block.operations[:-1]:
        if op.name == "stablehlo.constant":
            plan.storage[op.result] = Storage("constant", len(plan.constants), 0,
                                              byte_size(op.result.type))
            plan.constants.append(op)
        elif op.name == "stablehlo.reshape":
            alias_of[op.result] = op.operands[0]
        elif op.name == "tvm.dispatch":
            deps = [level_of.get(_root(v, alias_of), -1) for v in op.operands]
            state = in_place.get(id(op))
            if state is not None:     # after every other reader of the value it overwrites
                deps += [level_of.get(id(u), -1) for u, _ in readers(state) if u is not op]
            level = 1 + max(deps, default=-1)
            level_of_op = level
            while len(plan.levels) <= level:
                plan.levels.append([])
            plan.levels[level].append(op)
            for r in op.results:
                level_of[r] = level_of_op
            level_of[id(op)] = level_of_op
        else:
            raise AssertionError(f"unexpected top-level op {op.name} after dispatch formation")

    # Returned dispatch results get their own buffers.
    result_roots = {}
    for v in ret.operands:
        root = _root(v, alias_of)
        if root in level_of and root not in result_roots:
            result_roots[root] = len(result_roots)
            plan.storage[root] = Storage("result", result_roots[root], 0, byte_size(root.type))
    plan.result_sizes = [byte_size(r.type) for r in result_roots]
    # The values of an in-place update chain live in the storage of its end.
    for op in reversed(plan.dispatches):
        state = in_place.get(id(op))
        if state is not None and op.result in plan.storage and state.defining_op is not None:
            plan.storage[state] = plan.storage[op.result]

    # Last level that reads each transient value (through aliases); a value
    # updated in place lives as long as its update's result.
    last_use = {}
    for level, ops in enumerate(plan.levels):
        for op in ops:
            for v in op.operands:
                root = _root(v, alias_of)
                last_use[root] = max(last_use.get(root, -1), level)
    for op in reversed(plan.dispatches):
        state = in_place.get(id(op))
        if state is not None:
            last_use[state] = max(last_use.get(state, -1), last_use.get(op.result, level_of[id(op)]))
    live: list = []   # (offset, size, last level)
    for level, ops in enumerate(plan.levels):
        for op in ops:
            state = in_place.get(id(op))
            for r in op.results:
                if r in plan.storage:
                    continue
                if state is not None and getattr(plan.storage.get(state), "kind", None) == "slab":
                    plan.storage[r] = plan.storage[state]     # updated in place
                    continue
                size = _align(byte_size(r.type))
                end = last_use.get(r, level)
                offset = _first_fit([x for x in live if x[2] >= level], size)
                live.append((offset, size, end))
                plan.storage[r] = Storage("slab", 0, offset, byte_size(r.type))
                plan.slab_size = max(plan.slab_size, offset + size)
    for alias, _ in alias_of.items():
        root = _root(alias, alias_of)
        if root in plan.storage:
            s = plan.storage[root]
            plan.storage[alias] = Storage(s.kind, s.index, s.offset, s.size)
    for v in ret.operands:
        s = plan.storage.get(v)
        plan.results.append(s if s is not None and s.kind == "result" else None)
    return plan


def _in_place_states(func) -> dict:
    """{id(dispatch): the operand it updates in place} for the dispatches of
    donated update chains (host/donation.py) and the scatters marked
    ``IN_PLACE_ATTR`` (passes/scatter_in_place.py)."""
    donors = dispatch_donors(func)
    ops = func.regions[0].blocks[0].operations
    return {id(op): op.operands[k] for op in ops
            if (IN_PLACE_ATTR in op.attributes or id(op) in donors)
            and (k := in_place_operand(op)) is not None}


def _align(n: int) -> int:
    return (n + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


def _first_fit(busy, size) -> int:
    """Lowest aligned offset where [offset, offset+size) misses every busy range."""
    candidates = sorted({0} | {off + sz for off, sz, _ in busy})
    for c in candidates:
        if all(c + size <= off or c >= off + sz for off, sz, _ in busy):
            return c
    return max((off + sz for off, sz, _ in busy), default=0)
