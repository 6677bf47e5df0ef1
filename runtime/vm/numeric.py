"""Scalar semantics of the VM: wrapping integers, binary32 rounding, IEEE floats.

Registers hold Python ints (i32/i64, always the signed value in range) and
floats (f32 registers hold values exactly representable in binary32).  Python
raises where IEEE returns inf/NaN (``1.0 / 0.0``, ``math.log(0)``); these
helpers return the IEEE result instead.  Helpers that must trap raise
``VmTrap`` without a location; the interpreter adds function and pc.
"""
from __future__ import annotations

import math
import struct

from ..errors import VmTrap

INF = math.inf
NAN = math.nan
_F32 = struct.Struct("<f")
_pack_f32, _unpack_f32 = _F32.pack, _F32.unpack
_copysign = math.copysign


def wrap32(x: int) -> int:
    return ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def wrap64(x: int) -> int:
    return ((x + 0x8000000000000000) & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000


def f32(x: float) -> float:
    """Round a double to the nearest binary32 (overflow gives +-inf)."""
    try:
        return _unpack_f32(_pack_f32(x))[0]
    except OverflowError:
        return _copysign(INF, x)


def int_to_f32(a: int) -> float:
    """Correctly rounded (half to even) int -> binary32, without double rounding."""
    if -(1 << 53) <= a <= (1 << 53):
        return f32(float(a))
    mag = -a if a < 0 else a
    shift = mag.bit_length() - 24
    q, rem = divmod(mag, 1 << shift)
    half = 1 << (shift - 1)
    if rem > half or (rem == half and q & 1):
        q += 1
    return f32(_copysign(float(q << shift), a))


# -- integer division (traps on zero) ----------------------------------------

def _zero():
    raise VmTrap("integer division by zero")


def _div_trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def divs32(a, b):
    if b == 0:
        _zero()
    return wrap32(_div_trunc(a, b))


def divs64(a, b):
    if b == 0:
        _zero()
    return wrap64(_div_trunc(a, b))


def rems32(a, b):
    if b == 0:
        _zero()
    r = abs(a) % abs(b)
    return -r if a < 0 else r


rems64 = rems32   # the remainder is always in range


def divu32(a, b):
    if b == 0:
        _zero()
    return wrap32((a & 0xFFFFFFFF) // (b & 0xFFFFFFFF))


def divu64(a, b):
    if b == 0:
        _zero()
    return wrap64((a & 0xFFFFFFFFFFFFFFFF) // (b & 0xFFFFFFFFFFFFFFFF))


def remu32(a, b):
    if b == 0:
        _zero()
    return wrap32((a & 0xFFFFFFFF) % (b & 0xFFFFFFFF))


def remu64(a, b):
    if b == 0:
        _zero()
    return wrap64((a & 0xFFFFFFFFFFFFFFFF) % (b & 0xFFFFFFFFFFFFFFFF))


# -- float -> int conversions (trap when out of range or NaN) -----------------

def _f2i(x: float, lo: int, hi: int, what: str) -> int:
    if x != x:
        raise VmTrap(f"cannot convert NaN to {what}")
    if x in (INF, -INF):
        raise VmTrap(f"cannot convert {x} to {what}")
    t = math.trunc(x)
    if t < lo or t > hi:
        raise VmTrap(f"{x!r} is out of range for {what}")
    return t


def f2i32(x):
    return _f2i(x, -(1 << 31), (1 << 31) - 1, "i32")


def f2i64(x):
    return _f2i(x, -(1 << 63), (1 << 63) - 1, "i64")


# -- IEEE float arithmetic -------------------------------------------------------

def fdiv(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        if a != a or a == 0.0:
            return NAN
        return _copysign(INF, a) * _copysign(1.0, b)


def frem(a, b):
    try:
        return math.fmod(a, b)
    except ValueError:          # fmod(x, 0), fmod(inf, y)
        return NAN


def fmin(a, b):
    if a != a or b != b:
        return NAN
    if a == b:                  # -0.0 < +0.0
        return a if _copysign(1.0, a) < 0 else b
    return a if a < b else b


def fmax(a, b):
    if a != a or b != b:
        return NAN
    if a == b:
        return b if _copysign(1.0, a) < 0 else a
    return a if a > b else b


def _odd_int(b):
    return b == b and abs(b) != INF and b == math.floor(b) and math.fmod(b, 2.0) != 0.0


def fpow(a, b):
    try:
        return math.pow(a, b)
    except OverflowError:
        return -INF if (a < 0 and _odd_int(b)) else INF
    except ValueError:
        if a == 0.0:            # 0 ** negative
            return _copysign(INF, a) if _odd_int(b) else INF
        return NAN


def fsqrt(a):
    try:
        return math.sqrt(a)
    except ValueError:
        return NAN


def fexp(a):
    try:
        return math.exp(a)
    except OverflowError:
        return INF


def flog(a):
    try:
        return math.log(a)
    except ValueError:
        return -INF if a == 0.0 else NAN


def _integral(fn, a):
    if a != a or a in (INF, -INF):
        return a
    r = float(fn(a))
    return _copysign(0.0, a) if r == 0.0 else r


def ffloor(a):
    return _integral(math.floor, a)


def fceil(a):
    return _integral(math.ceil, a)


def fround(a):
    return _integral(round, a)      # round() on floats is half-to-even


def _periodic(fn):
    def apply(a):
        try:
            return fn(a)
        except ValueError:      # sin(inf)
            return NAN
    return apply


fsin = _periodic(math.sin)
fcos = _periodic(math.cos)
ftanh = math.tanh
fatan2 = math.atan2


# -- bit casts ---------------------------------------------------------------------
_I32 = struct.Struct("<i")
_F64 = struct.Struct("<d")
_I64 = struct.Struct("<q")


def f32_bits(x: float) -> int:
    return _I32.unpack(_pack_f32(x))[0]


def bits_f32(x: int) -> float:
    return _unpack_f32(_I32.pack(x))[0]


def f64_bits(x: float) -> int:
    return _I64.unpack(_F64.pack(x))[0]


def bits_f64(x: int) -> float:
    return _F64.unpack(_I64.pack(x))[0]
