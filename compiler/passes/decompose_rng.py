"""``stablehlo.rng`` from ``rng_bit_generator`` (THREE_FRY) bits.

The spec leaves the bits implementation-defined; tensorvm's are
deterministic: the key is a fixed constant mixed with a CRC of the op's
source location (two rng ops on different lines draw different streams),
the counter starts at 0, so a compiled function returns the same numbers
on every call.

- UNIFORM, floats: 23 (f32 and narrower, computed in f32) or 52 (f64)
  random mantissa bits under exponent 0 give ``u`` in [1, 2); the result is
  ``a + (b - a) * (u - 1)``, and a value that rounds up to ``b`` becomes
  the float just below ``b``, so the interval stays half-open.
- UNIFORM, integers (and i1): ``a + bits mod (b - a)`` with 64-bit bits and
  arithmetic, wrapped to the result type (``b <= a`` is undefined by the
  spec; it gives ``a``).
- NORMAL: Box-Muller, ``mu + sigma * sqrt(-2 log(1 - u1)) * cos(2 pi u2)``
  from two uniforms per element.

The result type must be static (the shape operand a constant the verifier
matched); passes/decompose.py registers it."""
from __future__ import annotations

import zlib

import numpy as np

from ..ir.attributes import DenseArrayAttr, EnumAttr
from ..ir.types import TensorType
from .op_builder import Builder

_KEY = 0x7E15_0A5E_EDC0_FFEE


def _bits(b, shape, element, seed):
    """Random bits of ``shape`` as ``element`` (ui32 or ui64)."""
    key = (_KEY ^ seed) & 0xFFFFFFFFFFFFFFFF
    state = b.dense(TensorType((2,), "ui64"), np.array([key, 0], np.uint64))
    _, bits = b.ops("stablehlo.rng_bit_generator", [state],
                    [TensorType((2,), "ui64"), TensorType(tuple(shape), element)],
                    {"rng_algorithm": EnumAttr("stablehlo", "rng_algorithm", "THREE_FRY")})
    return bits


def _unit(b, bits, wide):
    """Uniform [0, 1) floats (f32, or f64 when ``wide``) from ``bits``."""
    shape = bits.type.shape
    if wide:
        mant = b.binary("shift_right_logical", bits, b.const(TensorType(shape, "ui64"), 12))
        one = b.binary("or", mant, b.const(TensorType(shape, "ui64"), 0x3FF0000000000000))
        fel = "f64"
    else:
        mant = b.binary("shift_right_logical", bits, b.const(TensorType(shape, "ui32"), 9))
        one = b.binary("or", mant, b.const(TensorType(shape, "ui32"), 0x3F800000))
        fel = "f32"
    u = b.op("stablehlo.bitcast_convert", [one], TensorType(shape, fel))
    return b.binary("subtract", u, b.const(TensorType(shape, fel), 1.0))


def _below(b, c, a):
    """The float just below ``c`` (toward ``a < c``): ``next_after`` for f32
    and f64; for the 16-bit floats (which the C code computes in f32) one
    unit in the last place of the bits themselves."""
    el = c.type.element
    if el not in ("f16", "bf16"):
        return b.op("chlo.next_after", [c, a], c.type)
    ut = TensorType(c.type.shape, "ui16")
    bits = b.op("stablehlo.bitcast_convert", [c], ut)
    one = b.const(ut, 1)
    zero = b.splat(c, 0)
    out = b.select(b.compare(c, zero, "GT"), b.binary("subtract", bits, one),
                   b.select(b.compare(c, zero, "LT"), b.binary("add", bits, one), b.const(ut, 0x8001)))
    return b.op("stablehlo.bitcast_convert", [out], c.type)


def _rng(op) -> list:
    b = Builder(op)
    lo, hi, _ = b.operands("a, b, shape")
    out_t = op.results[0].type
    if not isinstance(out_t, TensorType) or not out_t.is_static:
        b.fail(f"with result type {out_t}: the shape must be a compile-time constant "
               "(a static result type)")
    dist = getattr(op.attributes.get("rng_distribution"), "value", None)
    if dist not in ("UNIFORM", "NORMAL"):
        b.fail(f"with rng_distribution {dist!r} (UNIFORM or NORMAL expected)")
    el = out_t.element
    shape = out_t.shape
    is_float = el.startswith(("f", "bf"))
    if not is_float and not (el.lstrip("u").startswith("i")):
        b.fail(f"on element type {el}")
    if dist == "NORMAL" and not is_float:
        b.fail(f"NORMAL on element type {el} (a float type expected)")
    seed = zlib.crc32(str(op.location).encode())
    wide = el == "f64"

    def full(v, element=el):
        return b.bcast(v if v.type.element == element else b.convert(v, element), shape, [])
    if dist == "UNIFORM" and is_float:
        u = _unit(b, _bits(b, shape, "ui64" if wide else "ui32", seed), wide)
        fel = u.type.element
        a, c = full(lo, fel), full(hi, fel)
        r = b.convert(b.binary("add", a, b.binary("multiply", b.binary("subtract", c, a), u)), el)
        co = full(hi)
        return [b.select(b.compare(r, co, "LT"), r, _below(b, co, full(lo)))]
    if dist == "UNIFORM":
        bits = _bits(b, shape, "ui64", seed)
        a, c = full(lo, "i64"), full(hi, "i64")
        span = b.binary("subtract", c, a)
        span = b.binary("maximum", span, b.const(span.type, 1))
        off = b.binary("remainder", bits, b.convert(span, "ui64"))
        r = b.binary("add", a, b.convert(off, "i64"))
        if el == "i1":
            return [b.compare(r, b.const(r.type, 0), "NE")]
        return [b.convert(r, el)]
    both = _bits(b, (2,) + tuple(shape), "ui64" if wide else "ui32", seed)
    u = _unit(b, both, wide)
    fel = u.type.element
    n = len(shape)
    halves = []
    for k in (0, 1):
        s = b.op("stablehlo.slice", [u], TensorType((1,) + tuple(shape), fel), {
            "start_indices": DenseArrayAttr("i64", (k,) + (0,) * n),
            "limit_indices": DenseArrayAttr("i64", (k + 1,) + tuple(shape)),
            "strides": DenseArrayAttr("i64", (1,) * (n + 1))})
        halves.append(b.reshape(s, shape))
    u1, u2 = halves
    one = b.const(u1.type, 1.0)
    radius = b.unary("sqrt", b.binary("multiply", b.const(u1.type, -2.0),
                                      b.unary("log", b.binary("subtract", one, u1))))
    angle = b.binary("multiply", b.const(u2.type, 2 * np.pi), u2)
    z = b.binary("multiply", radius, b.unary("cosine", angle))
    mu, sigma = full(lo, fel), full(hi, fel)
    return [b.convert(b.binary("add", mu, b.binary("multiply", sigma, z)), el)]
