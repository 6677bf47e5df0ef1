"""Shape-rule helpers the op declarations share (an op's ``shape`` field,
dialects/opdef.py), and the rules several families use.

A rule ``rule(S, op)`` gets the symbolic shape analysis ``S``
(passes/shapes.py: ``S.dims(v)``, ``S.element(v, k)``, ``S.elements(v)``,
``S.unify(a, b)``, ``S.resolve(d)``, ``S.run_block(b)``,
``S.bind_block_args(b, dims)``, ``S.params``) and returns, per result, a
tuple of dims (int | Dim | None for "not derivable"), or None to trust the
declared type.  Rules unify operand dims the op requires to be equal.
"""
from __future__ import annotations

from ..ir.attributes import ints
from ..ir.types import TensorType


def tensor(v) -> bool:
    return isinstance(v.type, TensorType)


def attr_or(op, name, n, default):
    """Integer array attribute ``name`` of ``op``, or ``default`` n times."""
    v = ints(op.attr(name)) if op.attr(name) is not None else ()
    return tuple(v) if v else (default,) * n


def dims_elementwise(S, op):
    """Every shaped operand and every result share one shape."""
    shaped = [v for v in op.operands if tensor(v) and v.type.rank > 0]
    if not shaped:
        return [() for _ in op.results]
    base = S.dims(shaped[0])
    for v in shaped[1:]:
        for a, b in zip(base, S.dims(v)):
            S.unify(a, b)
    base = S.dims(shaped[0])
    return [base for _ in op.results]


def dims_same_as_first(S, op):
    """Results of operand 0's rank have its dims."""
    d = S.dims(op.operands[0])
    return [d if tensor(r) and r.type.rank == len(d) else None for r in op.results]


def dims_generic(S, op):
    """Same-rank results take the first operand's dims where undeclared (the
    rule of an op that declares none)."""
    for region in op.regions:
        for b in region.blocks:
            S.run_block(b)
    if op.operands and tensor(op.operands[0]):
        return dims_same_as_first(S, op)
    return None


def dims_from_operand(index):
    """The result's dims are the host values of shape operand ``index``."""
    def rule(S, op):
        shape = op.operands[index]
        return [tuple(S.element(shape, k) for k in range(op.result.type.rank))]
    return rule


def dims_declared(S, op):
    """The declared result type holds the dims (static attributes)."""
    return None
