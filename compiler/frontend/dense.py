"""Decoding the bodies of ``dense<...>`` literals into numpy arrays.

Literal lists are checked against the tensor shape by comparing their
bracket skeleton (``[[,],[,]]``) with the one the shape implies, then
converted with vectorised numpy casts; hex blobs go through ``frombuffer``.
"""
from __future__ import annotations

import re

import numpy as np

from ..ir.types import is_complex, is_float, numpy_dtype

_VALUE = re.compile(r"[-+]?(?:0x[0-9a-fA-F]+|inf|nan|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
                    r"|true|false")
_NOT_SKELETON = re.compile(r"[^\[\],()]+")
_BAD_CHARS = re.compile(r"[^\s\[\],()0-9a-fA-FxX.+\-einftrulsa]")


#: Largest constant a literal may declare (its tensor type's byte size): checked
#: before a literal's elements are decoded or materialised, so a huge type is a
#: located error rather than a MemoryError in a later pass.  A splat holds one
#: value (a read-only broadcast view), so it parses at any size, as in MLIR;
#: compiling one above the limit is refused (pipeline.py).
MAX_CONSTANT_BYTES = 1 << 31


class DenseError(ValueError):
    """The literal does not fit the tensor type; the message says why."""


def check_size(element: str, shape) -> None:
    """DenseError when a constant of ``shape`` x ``element`` exceeds MAX_CONSTANT_BYTES."""
    nbytes = _size(shape) * np.dtype(numpy_dtype(element)).itemsize
    if nbytes > MAX_CONSTANT_BYTES:
        raise DenseError(f"constant of {nbytes} bytes exceeds the {MAX_CONSTANT_BYTES}-byte "
                         f"limit on constants")


def _splat(value, element: str, shape) -> np.ndarray:
    """One value seen as a read-only array of ``shape`` (nothing materialised)."""
    try:
        return np.broadcast_to(value, shape)
    except ValueError:                   # more elements than numpy can index
        check_size(element, shape)
        raise DenseError(f"a splat of shape {tuple(shape)} is too large to hold") from None


def _skeleton(shape) -> str:
    s = ""
    for d in reversed(shape):
        s = "[" + ",".join([s] * d) + "]"
    return s


def _size(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def decode_hex(hexdigits: str, element: str, shape) -> np.ndarray:
    """A ``dense<"0x...">`` blob: little-endian raw element bytes."""
    dtype = np.dtype(numpy_dtype(element))
    n = _size(shape)
    if len(hexdigits) != 2 * dtype.itemsize or n <= 1:     # not a splat
        check_size(element, shape)
    try:
        raw = bytes.fromhex(hexdigits)
    except ValueError:
        raise DenseError("malformed hex string in dense literal") from None
    if element == "i1":
        if len(raw) == n:
            return np.frombuffer(raw, np.uint8).astype(bool).reshape(shape)
        if len(raw) == 1 and n > 1:
            return _splat(np.bool_(raw[0] != 0), element, shape)
        if len(raw) == (n + 7) // 8:
            bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
            return bits[:n].astype(bool).reshape(shape)
    elif len(raw) == n * dtype.itemsize:
        return np.frombuffer(raw, dtype).reshape(shape)
    elif len(raw) == dtype.itemsize:
        return _splat(np.frombuffer(raw, dtype)[0], element, shape)
    raise DenseError(f"hex literal has {len(raw)} bytes but a tensor of {n} x {element} "
                     f"needs {n * dtype.itemsize}")


def _ints(values, dtype) -> np.ndarray:
    if any("x" in v for v in values):
        return np.array([int(v, 16) if "x" in v else int(v) for v in values],
                        dtype=object).astype(np.int64 if dtype.kind == "i" else np.uint64).astype(dtype)
    arr = np.array(values)
    try:
        return arr.astype(np.int64).astype(dtype)
    except (OverflowError, ValueError):
        try:
            return arr.astype(np.uint64).astype(dtype)
        except (OverflowError, ValueError):
            raise DenseError(f"integer literal out of range for {dtype}") from None


def _from_decimal(values, dtype) -> np.ndarray:
    f64 = np.array(values).astype(np.float64)
    out = f64.astype(dtype)
    if dtype.name == "float8_e8m0fnu":       # no zero: MLIR rounds 0 to the smallest value
        out.view(np.uint8)[f64 == 0] = 0
    return out


def _floats(values, dtype) -> np.ndarray:
    hexes = [i for i, v in enumerate(values) if "x" in v]
    if not hexes:
        return _from_decimal(values, dtype)
    bits = np.dtype(f"u{dtype.itemsize}")
    out = np.zeros(len(values), dtype)
    dec = [i for i, v in enumerate(values) if "x" not in v]
    if dec:
        out[dec] = _from_decimal([values[i] for i in dec], dtype)
    raw = np.array([int(values[i], 16) for i in hexes], dtype=np.uint64).astype(bits)
    out.view(bits)[hexes] = raw
    return out


def convert_values(values: list, element: str) -> np.ndarray:
    """Literal tokens (strings) to a 1-D array of ``element``'s dtype."""
    dtype = np.dtype(numpy_dtype(element))
    if element == "i1":
        arr = np.array(values)
        ok = np.isin(arr, ("true", "false", "0", "1"))
        if not ok.all():
            raise DenseError(f"expected true or false in i1 literal, got {arr[~ok][0]}")
        return (arr == "true") | (arr == "1")
    if any(v in ("true", "false") for v in values):
        raise DenseError(f"boolean literal in a tensor of {element}")
    if is_complex(element):
        if len(values) % 2:
            raise DenseError("complex literal needs (real, imag) pairs")
        part = np.dtype("f4" if element == "complex<f32>" else "f8")
        pairs = _floats(values, part).reshape(-1, 2)
        out = np.empty(len(pairs), dtype)
        out.real = pairs[:, 0]
        out.imag = pairs[:, 1]
        return out
    if is_float(element):
        return _floats(values, dtype)
    if any("." in v or "n" in v for v in values):
        raise DenseError(f"floating-point literal in a tensor of {element}")
    if element in _SUB_BYTE_BITS:
        return _sub_byte_ints(values, element, dtype)
    return _ints(values, dtype)


_SUB_BYTE_BITS = {"i2": 2, "i4": 4, "ui2": 2, "ui4": 4}


def _sub_byte_ints(values, element, dtype) -> np.ndarray:
    """Literals of i2/i4/ui2/ui4: like MLIR, a signless value may be given
    signed or unsigned (i4: -8..15; 15 is the pattern of -1), an unsigned
    one only as 0..2^N-1."""
    bits = _SUB_BYTE_BITS[element]
    ints = np.array([int(v, 16) if "x" in v.lower() else int(v) for v in values], dtype=object)
    lo = 0 if element.startswith("ui") else -(1 << (bits - 1))
    hi = (1 << bits) - 1
    bad = [int(v) for v in ints if not lo <= v <= hi]
    if bad:
        raise DenseError(f"integer literal {bad[0]} out of range for {element} ({lo}..{hi})")
    return (ints.astype(np.int64) & hi).astype(np.uint8).view(dtype)


def decode_literal(body: str, element: str, shape) -> np.ndarray:
    """A ``dense<[...]>`` or splat body to an array of ``shape``."""
    bad = _BAD_CHARS.search(body)
    if bad:
        raise DenseError(f"unexpected {bad.group()!r} in dense literal")
    if not body:
        if _size(shape) != 0:
            raise DenseError("empty dense literal for a non-empty tensor")
        return np.zeros(shape, numpy_dtype(element))
    values = _VALUE.findall(body)
    skel = _NOT_SKELETON.sub("", body).replace("(,)", "")
    per = 2 if is_complex(element) else 1
    if skel:                       # not a splat: every element is materialised
        check_size(element, shape)
    if not skel:
        if len(values) != per:
            raise DenseError("expected one value in a splat dense literal")
        return _splat(convert_values(values, element)[0], element, shape)
    n = _size(shape)
    if len(values) != n * per:      # first: the skeleton string grows with the shape
        raise DenseError(f"dense literal has {len(values) // per} values, expected {n} "
                         f"for the shape {tuple(shape)}")
    if skel != _skeleton(shape):
        raise DenseError(f"dense literal does not match the shape {tuple(shape)}")
    if n == 0:
        return np.zeros(shape, numpy_dtype(element))
    return convert_values(values, element).reshape(shape)
