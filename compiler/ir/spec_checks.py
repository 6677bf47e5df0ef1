"""The spec's per-op constraints on parsed IR, as the op declarations state
them: ``check_op(op)`` runs the dialect-wide type rules (constrained integer
attributes, ranked tensors of StableHLO element types, well-formed quantized
types, precision and accuracy attributes) and then the op's own declared
rules (``verify``, ``elements``, ``same_type``, ``per_axis``; see
dialects/opdef.py), raising a located ``CompileError``.  Structure
(dominance, terminators, counts) stays in ``verifier.py``.  No op is named
here: every per-op rule lives with the op's declaration.
"""
from __future__ import annotations

from ..dialects.checks import element_family, fail, per_axis_check, same_element_type
from ..dialects.quant_checks import quant_types
from ..dialects.registry import ANY, OPS, POSITIVE
from ..errors import CompileError
from .attributes import IntAttr, StructAttr
from .types import ELEMENT_TYPES, TensorType, UnrankedTensorType


_PRECISIONS = ("DEFAULT", "HIGH", "HIGHEST")


def _precision_config(op):
    """``precision_config``: an array of #stablehlo<precision ...> values."""
    from .attributes import EnumAttr
    for e in getattr(op.attributes.get("precision_config"), "elements", ()):
        if not isinstance(e, EnumAttr) or e.value not in _PRECISIONS:
            fail(op, f"attribute 'precision_config' failed to satisfy constraint: each element must "
                     f"be #stablehlo<precision {'|'.join(_PRECISIONS)}>, got {e}")


def _result_accuracy(op):
    """``result_accuracy`` of the transcendental ops: tolerances are
    non-negative, and all zero unless the mode is TOLERANCE."""
    acc = op.attributes.get("result_accuracy")
    if not isinstance(acc, StructAttr):
        return
    f = acc.fields
    tol = {k: getattr(f.get(k, 0), "value", f.get(k, 0)) for k in ("atol", "rtol", "ulps")}
    mode = f.get("mode")
    mode = str(getattr(mode, "text", mode) or "DEFAULT")
    mode = mode.rsplit("<", 1)[-1].rstrip(">").strip() if "<" in mode else mode
    if any(not isinstance(v, (int, float)) or v < 0 for v in tol.values()):
        fail(op, f"Negative tolerance for ResultAccuracyAttr: {tol}")
    if mode in ("DEFAULT", "HIGHEST") and any(tol.values()):
        fail(op, f"Invalid tolerances for ResultAccuracyAttr with mode {mode}, must be all zero.")


def _int_attrs(op, d):
    """The dialect's ``ConfinedAttr<I64Attr / I32Attr, [IntPositive / IntNonNegative]>``
    attributes (registry ``int_attrs``).  Reported where MLIR reports them: at
    the attribute dictionary of a pretty form that holds the attribute (its
    generated parser checks inherent attributes there), else at the op."""
    for key, bits, pred in d.int_attrs:
        a = op.attributes.get(key)
        if a is None:
            continue
        ok = isinstance(a, IntAttr) and a.type == f"i{bits}" and \
            -(1 << (bits - 1)) <= a.value < (1 << (bits - 1)) and \
            (a.value > 0 if pred == POSITIVE else a.value >= 0)
        if not ok:
            fail(op, f"attribute '{key}' failed to satisfy constraint: {bits}-bit signless integer "
                     f"attribute whose value is {pred}", (op.attr_locations or {}).get(key))


_HLO_ELEMENTS = ("f4/f6/f8/f16/bf16/f32/f64, i1, 2/4/8/16/32/64-bit signless or unsigned integer, "
                 "complex or quantized")


def _value_types(op, d):
    """The dialect's type constraints common to every op: tensors are ranked
    (``RankedTensorOf``) unless the op's definition takes ``TensorOf``
    (registry ``unranked``), and hold StableHLO's element types (not, e.g.,
    the ``i10`` that MLIR's builtin types allow)."""
    allowed = d.unranked
    n = len(op.operands)
    for i, v in enumerate(list(op.operands) + list(op.results)):
        t = v.type
        if not isinstance(t, (TensorType, UnrankedTensorType)):
            continue
        what = f"operand #{i}" if i < n else f"result #{i - n}"
        may_be_unranked = allowed == ANY or (allowed and (i >= n or i in allowed))
        if isinstance(t, UnrankedTensorType) and not may_be_unranked:
            fail(op, f"{what} must be ranked tensor of {_HLO_ELEMENTS} values, but got '{t}'")
        if t.element not in ELEMENT_TYPES and not t.element.startswith("!quant."):
            fail(op, f"{what} must be {'' if may_be_unranked else 'ranked '}tensor of "
                     f"{_HLO_ELEMENTS} values, but got '{t}'")


def check_op(op) -> None:
    """Raise CompileError (located at ``op``) if ``op`` breaks a constraint its
    declaration states: the dialect-wide type rules, then its ``verify``
    rules, then its element family and same-type traits."""
    if "tvm.shape_operands" in op.attributes:
        return      # passes/dynamism.py's form of a dynamism custom call: not a spec op
    d = OPS.get(op.name)
    if d is not None and op.dialect in ("stablehlo", "chlo"):
        _int_attrs(op, d)
        _value_types(op, d)
    if d is not None and not d.per_axis:
        per_axis_check(op)
    if op.dialect == "stablehlo":
        quant_types(op)
        if "result_accuracy" in op.attributes:
            _result_accuracy(op)
        if "precision_config" in op.attributes:
            _precision_config(op)
    if d is None:
        return
    try:
        for rule in d.verify:
            rule(op)
        if d.elements is not None:
            element_family(op, d.elements)
        if d.same_type:
            same_element_type(op)
    except CompileError:
        raise
    except (IndexError, TypeError, ValueError, AttributeError, KeyError) as e:
        fail(op, f"has malformed operands or attributes ({type(e).__name__}: {e})")
