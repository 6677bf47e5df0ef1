"""A value that several ops read stays fused when all of them end up in one
kernel and read it at one index.

Dispatch formation materializes a costly value with several readers, so it
is not recomputed per reader.  But when every path from the value goes
through fused same-shape elementwise ops into one and the same op (which
reads it once per element it computes: a root, a reshape, a reduce's loop
body), the value is needed at one index per evaluation of that op, and the
body emitter computes it once there (it caches values per index).  torch's erf (an exact GELU) reads ``|x|``, ``exp(-x*x)`` and the
ratio several times each: they were five dispatches of 64 x 512 elements
each writing and reading memory; now one kernel.  ``converging`` applies
the same test forward to a heavy op's forked epilogue (an exact GELU or a
SiLU of a product plus bias), which then stays in the product's kernel.
"""
from __future__ import annotations

from ..dialects import stablehlo as shlo

_MAX_DEPTH = 64
_MAX_CONVERGING = 512      # ops a forked epilogue may span before it is a buffer


def _same_index_reader(user, value) -> bool:
    return (user.name in shlo.ELEMENTWISE and len(user.results) == 1
            and user.result.type.shape == value.type.shape)


def _holds_heavy(value, mat, depth=0) -> bool:
    """Whether computing fused ``value`` runs a heavy op (reduce, dot, ...)."""
    op = value.defining_op
    if value in mat or op is None:
        return False
    if op.name in shlo.HEAVY or depth > _MAX_DEPTH:
        return True
    return any(_holds_heavy(v, mat, depth + 1) for v in op.operands)


def keep_fused(ops, mat, shared) -> None:
    """Removes from ``mat`` the values of ``shared`` (materialized only
    because several ops read them) whose readers all lead, through same-index
    elementwise ops, into one dispatch root (module docstring).  Walks the
    block backwards, so a value's readers are settled before the value."""
    sink = {}          # fused value -> the root op it ends in, or None: several / not same-index

    def sink_of(value):
        """The one op all reading paths of ``value`` lead into through fused
        same-index elementwise ops, or None."""
        roots = set()
        for user, _ in value.uses:
            if _same_index_reader(user, value) and user.result not in mat:
                s = sink.get(user.result)
                if s is None:
                    return None
                roots.add(s)
            elif _same_index_reader(user, value) or sum(v is value for v in user.operands) == 1:
                roots.add(user)          # reads it at one index per element it computes
            else:
                return None
            if len(roots) > 1:
                return None
        return next(iter(roots), None)

    for op in reversed(ops):
        if len(op.results) != 1:
            continue
        v = op.result
        if v in mat and v not in shared:
            continue
        s = sink_of(v)
        if v in shared:
            if s is None or op.name not in shlo.ELEMENTWISE \
                    or any(_holds_heavy(x, mat) for x in op.operands):
                continue
            mat.discard(v)
        sink[v] = s


def converging(value, mat, shared) -> set | None:
    """The fused values between ``value`` and the one op every reading path
    of it leads into through same-index elementwise ops (each read once
    per element of that op: the body emitter computes ``value`` once), or
    None where the paths end in several ops or leave same-index
    elementwise ops.  Values on the way that are materialized only for
    having several readers (``shared``) count as fused: the caller takes
    them out of ``mat``; any other materialized one ends a path."""
    between, ends, todo, seen = set(), set(), [value], {value}
    while todo:
        v = todo.pop()
        for user, _ in v.uses:
            if not _same_index_reader(user, v):
                return None
            r = user.result
            if r in seen:
                continue
            seen.add(r)
            users = {u for u, _ in r.uses}
            if (r in mat and r not in shared) or not users \
                    or not all(_same_index_reader(u, r) for u in users):
                ends.add(user)
            else:
                between.add(r)
                todo.append(r)
            if len(ends) > 1 or len(between) > _MAX_CONVERGING:
                return None
    return between if len(ends) == 1 else None
