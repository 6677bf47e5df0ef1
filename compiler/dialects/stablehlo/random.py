"""StableHLO random-number ops (rng, rng_bit_generator)."""
from __future__ import annotations

from ...ir.types import TensorType, is_float, is_integer
from ..checks import compat_shapes, const_ints, element_of, expect_result, fail, shape_of
from ..opdef import STRUCTURED, DECOMPOSED, SEQUENTIAL, OWN, EFFECTFUL, defop


def _rng(op):
    a, b, shape = op.operands[:3]
    for i, v in enumerate((a, b)):
        if shape_of(v) not in (None, ()):
            fail(op, f"operand #{i} must be 0D tensor of values, but got '{v.type}'")
    ss = shape_of(shape)
    if ss is None or len(ss) != 1 or ss[0] is None:
        fail(op, f"operand #2 must be statically shaped 1-dimensional tensor of integer values, "
                 f"but got '{shape.type}'")
    dist = str(getattr(op.attributes.get("rng_distribution"), "value", op.attributes.get("rng_distribution")))
    for i, v in enumerate((a, b)):
        el = element_of(v)
        if not (is_float(el) or ("NORMAL" not in dist and is_integer(el))):
            fail(op, f"operand #{i} must be 0D tensor of {'float' if 'NORMAL' in dist else 'integer or float'} "
                     f"values, but got '{v.type}'")
    dims = const_ints(shape)
    if dims is not None:
        expect_result(op, dims)
    else:
        expect_result(op, [None] * ss[0])


def _rng_bit_generator(op):
    """rng_bit_generator: the output state is shaped like the initial state."""
    if op.operands and op.results:
        x, r = op.operands[0].type, op.results[0].type
        if isinstance(x, TensorType) and isinstance(r, TensorType) and \
                not compat_shapes(x.shape, r.shape):
            fail(op, f"output state shape must be compatible with initial state shape. Got: "
                     f"'{x}' and '{r}'")


# -- shape rules (opdef ``shape``; dialects/dims.py) ----------------------------------------

def _dims_rng_bit_generator(S, op):
    """A dynamic_rng_bit_generator's output shape comes from its host operand."""
    if len(op.operands) < 2:
        return None
    return [S.dims(op.operands[0]), S.elements(op.operands[1])]


OPS = (
    defop('stablehlo.rng', DECOMPOSED, syntax=OWN, reason='rng_bit_generator (THREE_FRY, a fixed key per op) bits mapped to [a, b) or Box-Muller normals', verify=(_rng,), rewrite='decompose_rng:_rng'),
    defop('stablehlo.rng_bit_generator', STRUCTURED, fusion=SEQUENTIAL, syntax=OWN, shape=_dims_rng_bit_generator, verify=(_rng_bit_generator,), traits=(EFFECTFUL,), program='sequential_rng:rng_bit_generator'),
)
