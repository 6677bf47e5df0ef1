"""StableHLO linear-algebra ops (cholesky, triangular_solve)."""
from __future__ import annotations

from ..opdef import STRUCTURED, SEQUENTIAL, defop
from ..checks import compat, compat_shapes, expect_result, fail, shape_of
from ..dims import dims_same_as_first


def _triangular_solve(op):
    a, b = shape_of(op.operands[0]), shape_of(op.operands[1])
    option = getattr(op.attributes.get("transpose_a"), "value", "NO_TRANSPOSE")
    if option not in ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"):
        fail(op, f"Invalid transpose option value for triangular solve: {option} "
                 f"(failed to infer returned types)")
    if a is None or b is None:
        return
    if len(a) < 2:
        fail(op, f"operand 'a' must have rank >= 2, but got {op.operands[0].type}")
    if not compat(a[-1], a[-2]):
        fail(op, f"two minor dimensions of operand 'a' must have equal size, but got "
                 f"{op.operands[0].type}")
    if len(b) != len(a):
        fail(op, f"operands must have equal rank, but got {op.operands[0].type} and {op.operands[1].type}")
    left = bool(getattr(op.attributes.get("left_side"), "value", False))
    k = b[-2] if left else b[-1]
    if not compat(k, a[-1]):
        fail(op, f"shared dimension of operands 'a' and 'b' does not match, but got "
                 f"{op.operands[0].type} and {op.operands[1].type}")
    if not compat_shapes(a[:-2], b[:-2]):
        fail(op, f"batch dimensions of the operands must match, but got {op.operands[0].type} and "
                 f"{op.operands[1].type}")
    expect_result(op, b)


def _cholesky(op):
    a = shape_of(op.operands[0])
    if a is None:
        return
    if len(a) < 2:
        fail(op, f"argument 'a' must have rank >= 2, got shape {list(a)}")
    if not compat(a[-1], a[-2]):
        fail(op, f"minor dimensions of 'a' must have equal size, got shape {list(a)}")
    expect_result(op, a)


OPS = (
    defop('stablehlo.cholesky', STRUCTURED, fusion=SEQUENTIAL, shape=dims_same_as_first, verify=(_cholesky,), per_axis=False, program='sequential:_cholesky'),
    defop('stablehlo.triangular_solve', STRUCTURED, fusion=SEQUENTIAL, shape=dims_same_as_first, verify=(_triangular_solve,), program='sequential:_triangular_solve'),
)
