"""Deep copies of ops (with their regions) under a value mapping."""
from __future__ import annotations

from .core import Block, Operation, Region


def clone_op(op: Operation, mapping: dict) -> Operation:
    """A copy of ``op`` whose operands are looked up in ``mapping`` (values
    not in it are used as they are); results are added to ``mapping``."""
    new = Operation(op.name, [mapping.get(v, v) for v in op.operands],
                    [r.type for r in op.results], dict(op.attributes),
                    [clone_region(r, mapping) for r in op.regions], op.location)
    for old, res in zip(op.results, new.results):
        res.name = old.name
        mapping[old] = res
    return new


def clone_region(region: Region, mapping: dict) -> Region:
    new = Region()
    blocks = []
    for b in region.blocks:
        nb = Block([a.type for a in b.arguments], [a.name for a in b.arguments])
        for a, na in zip(b.arguments, nb.arguments):
            mapping[a] = na
        new.append(nb)
        blocks.append((b, nb))
    for b, nb in blocks:
        for op in b.operations:
            nb.append(clone_op(op, mapping))
    return new
