"""Strength reduction before fusion: costly element ops of constant operands
become cheap ones.

``AlgebraicSimplification`` (fold.py) runs these rules beside its exact
identities and counts each kind for ``--print-stats``.  The contract is
weaker than fold.py's bit-exactness, and stated per rule: special values
(NaN, infinities, signed zeros) give exactly what the original op gives,
and finite results stay within a few ulp (docs/decisions.md, "Strength
reduction").

- ``power(x, n)``, ``n`` a small integer constant (-2 <= n <= 4):
  multiplies by binary powering (``x^3 = (x*x)*x``), of ``1/x`` for
  negative ``n`` (``x^-3`` would be 2.5 ulp off; ``1/x^3`` overflows
  where the result is a subnormal); ``x^0`` is 1, ``x^1`` is x.  ``x^2``
  and ``x^-1`` are one correctly rounded op (exact against a correctly
  rounded ``pow``); longer chains are within 2 ulp and are made for f32 /
  f64 only (a narrow float would round every step to its own width).  Integers too, for ``n >= 0`` (wrapping
  multiplication is associative: exact).
- ``power(x, m + 1/2)`` (0 <= m <= 3) as ``|x|^m * (sqrt(x) + 0.0)`` and
  ``power(x, -1/2)`` as ``rsqrt(x + 0.0)``; the ``+ 0.0`` turns the -0 that
  ``sqrt(-0)`` gives into ``pow``'s +0, and a select gives ``pow(-inf, k)``
  (+inf, or +0 for negative k) where ``sqrt(-inf)`` is NaN.
- ``divide(x, c)`` as ``multiply(x, 1/c)`` when ``1/c`` is exact in the
  element type (``c = ±2^k``): both round the same real number, so the
  result is bit-exact.  Other constants keep their divide (XLA inverts
  every constant; a divide vectorises, and exact results are worth more
  than the few cycles).
- ``log(exp(x))`` is ``x``: the value the original computes except where
  ``exp`` overflows, underflows or rounds to 1 and the original loses x
  entirely (XLA makes the same rewrite).  ``exp(log(x))`` stays: for x < 0
  it is NaN, not x.
"""
from __future__ import annotations

import math

import numpy as np

from ..ir.types import TensorType, is_float, is_integer, numpy_dtype
from .known_values import same_type, splat, splat_like
from .op_builder import Builder

MAX_INT_POWER = 4        # largest n of power(x, n) expanded into multiplies
MAX_NEGATIVE_POWER = 2   # largest -n: (1/x)^n grows 1/x's rounding n-fold
MAX_HALF_POWER = 3       # largest m of power(x, m + 1/2)
WIDE_FLOATS = ("f32", "f64")


def _element(op):
    t = op.result.type if len(op.results) == 1 else None
    return t.element if isinstance(t, TensorType) else None


def _ipow(b: Builder, x, n: int):
    """x^n (n >= 1) by binary powering: multiplies, fewest roundings first."""
    result, base = None, x
    while n:
        if n & 1:
            result = base if result is None else b.binary("multiply", result, base)
        n >>= 1
        if n:
            base = b.binary("multiply", base, base)
    return result


def _by_constant(op, name):
    """(x, c, element type, k) of ``name(x, c)`` whose c is a splat k of the
    result's type; else None."""
    if op.name != name or len(op.operands) != 2:
        return None
    x, c = op.operands
    el = _element(op)
    k = splat(c)
    if el is None or k is None or not same_type(x, op.result) or not same_type(c, op.result):
        return None
    return x, c, el, k


def reduce_power(op):
    """``power(x, k)`` for a constant k with a cheap form (module docstring); else None."""
    found = _by_constant(op, "stablehlo.power")
    if found is None:
        return None
    x, c, el, k = found
    if is_integer(el) and el != "i1":
        n = int(k)
        if 0 <= n <= MAX_INT_POWER:
            return splat_like(c, 1, op) if n == 0 else _ipow(Builder(op), x, n)
        return None
    if not is_float(el) or not math.isfinite(float(k)):
        return None
    k = float(k)
    wide = el in WIDE_FLOATS
    if k == int(k) and -MAX_NEGATIVE_POWER <= k <= MAX_INT_POWER:
        n = int(k)
        if n == 0:
            return splat_like(c, 1.0, op)
        if not wide and abs(n) > (1 if n < 0 else 2):
            return None
        b = Builder(op)
        base = x if n > 0 else b.binary("divide", splat_like(c, 1.0, op), x)
        return _ipow(b, base, abs(n))
    twice = 2 * k
    if twice != int(twice) or not (-1 <= twice <= 2 * MAX_HALF_POWER + 1):
        return None
    m = int(k - 0.5)
    if m >= 1 and not wide:
        return None
    b = Builder(op)
    if k < 0:       # -1/2
        r = b.unary("rsqrt", b.binary("add", x, splat_like(c, 0.0, op)))
    else:
        r = b.binary("add", b.unary("sqrt", x), splat_like(c, 0.0, op))
        if m:
            r = b.binary("multiply", _ipow(b, b.unary("abs", x), m), r)
    at_minus_inf = b.compare(x, splat_like(c, -np.inf, op), "EQ")
    return b.select(at_minus_inf, splat_like(c, np.inf if k > 0 else 0.0, op), r)


def reciprocal_multiply(op):
    """``divide(x, c)`` as ``multiply(x, 1/c)`` when ``1/c`` is exact; else None."""
    found = _by_constant(op, "stablehlo.divide")
    if found is None or not is_float(found[2]):
        return None
    x, c, el, k = found
    k = float(k)
    if k == 0 or not math.isfinite(k):
        return None
    mantissa, _ = math.frexp(k)
    with np.errstate(over="ignore"):
        inv = np.asarray(1.0 / k).astype(numpy_dtype(el))
    if abs(mantissa) != 0.5 or float(inv) * k != 1.0:      # not ±2^k, or 1/c not representable
        return None
    return Builder(op).binary("multiply", x, splat_like(c, float(inv), op))


def log_of_exp(op):
    """``log(exp(x))`` as ``x`` (module docstring); else None."""
    if op.name != "stablehlo.log" or not is_float(_element(op) or ""):
        return None
    inner = op.operands[0].defining_op
    if inner is None or inner.name != "stablehlo.exponential" or inner.attributes.get("result_accuracy"):
        return None
    x = inner.operands[0]
    return x if same_type(x, op.result) else None


#: (kind counted in --print-stats, rule): each returns the value replacing
#: the op's result (ops it needs are inserted before the op), or None.
RULES = (("power", reduce_power), ("reciprocal multiply", reciprocal_multiply),
         ("log of exp", log_of_exp))
