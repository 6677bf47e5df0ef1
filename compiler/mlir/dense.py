"""Decoding the bodies of ``dense<...>`` literals into numpy arrays.

Literal lists are checked against the tensor shape by comparing their
bracket skeleton (``[[,],[,]]``) with the one the shape implies, then
converted with vectorised numpy casts; hex blobs go through ``frombuffer``.
"""
from __future__ import annotations

import os
import re
import warnings

import numpy as np

from ..ir.types import is_complex, is_float, numpy_dtype

_VALUE = re.compile(r"[-+]?(?:0x[0-9a-fA-F]+|inf|nan|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
                    r"|true|false")
_NOT_SKELETON = re.compile(r"[^\[\],()]+")
_BAD_CHARS = re.compile(r"[^\s\[\],()0-9a-fA-FxX.+\-einftrulsa]")


#: Largest constant a module can hold (its tensor type's byte size): the
#: format's limit (sizes and offsets are i64 in the VM, sections 64-bit:
#: docs/vmfb.md), not 2 GiB.  A constant is also held in memory while it is
#: compiled, so one larger than this machine's memory is refused too
#: (``check_size``).  Checked before a literal's elements are decoded or
#: materialised, so a huge type is a located error rather than a MemoryError
#: in a later pass.  A splat holds one value (a read-only broadcast view), so
#: it parses at any size, as in MLIR; compiling one above the limits is
#: refused (pipeline.py).
MAX_CONSTANT_BYTES = 1 << 62


class DenseError(ValueError):
    """The literal does not fit the tensor type; the message says why."""


def check_size(element: str, shape) -> None:
    """DenseError when a constant of ``shape`` x ``element`` exceeds
    MAX_CONSTANT_BYTES or this machine's physical memory."""
    nbytes = _size(shape) * np.dtype(numpy_dtype(element)).itemsize
    if nbytes > MAX_CONSTANT_BYTES:
        raise DenseError(f"constant of {nbytes} bytes exceeds the {MAX_CONSTANT_BYTES}-byte "
                         f"limit on constants of the module format")
    memory = _physical_memory()
    if nbytes > memory:
        raise DenseError(f"constant of {nbytes} bytes exceeds the {memory} bytes of this "
                         f"machine's memory, which compiling it needs")


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return MAX_CONSTANT_BYTES


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
    """A short ``dense<"0x...">`` blob (long ones reach decode_raw decoded: source.py)."""
    try:
        raw = bytes.fromhex(hexdigits)
    except ValueError:
        raise DenseError("malformed hex string in dense literal") from None
    return decode_raw(raw, element, shape)


def decode_raw(raw, element: str, shape) -> np.ndarray:
    """Raw little-endian element bytes (a hex literal's or a resource blob's) as
    a read-only array of ``shape``: a view of ``raw``, not a copy (i1 excepted:
    one byte or one bit per element becomes numpy's bool)."""
    dtype = np.dtype(numpy_dtype(element))
    if dtype.byteorder == "=" or dtype.byteorder == ">":
        dtype = dtype.newbyteorder("<")
    n = _size(shape)
    nbytes = len(raw) if not isinstance(raw, memoryview) else raw.nbytes
    if nbytes != dtype.itemsize or n <= 1:                 # not a splat
        check_size(element, shape)
    if element == "i1":
        if nbytes == n:
            return np.frombuffer(raw, np.uint8).astype(bool).reshape(shape)
        if nbytes == 1 and n > 1:
            return _splat(np.bool_(bytes(raw)[0] != 0), element, shape)
        if nbytes == (n + 7) // 8:
            bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
            return bits[:n].astype(bool).reshape(shape)
    elif nbytes == n * dtype.itemsize:
        return _native(np.frombuffer(raw, dtype)).reshape(shape)
    elif nbytes == dtype.itemsize:
        return _splat(_native(np.frombuffer(raw, dtype))[0], element, shape)
    raise DenseError(f"hex literal has {nbytes} bytes but a tensor of {n} x {element} "
                     f"needs {n * dtype.itemsize}")


def _native(arr: np.ndarray) -> np.ndarray:
    """``arr`` in the host's byte order (a copy only on a big-endian host)."""
    return arr if arr.dtype.isnative else arr.astype(arr.dtype.newbyteorder("="))


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
    f64 = np.asarray(values).astype(np.float64)
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


#: Literal bodies longer than this try the bulk decimal path first.
BULK_LITERAL_CHARS = 1 << 16
_NOT_DECIMAL = re.compile(r"[^\s\[\](),0-9.eE+\-]")
_NOT_INTEGER = re.compile(r"[^\s\[\],0-9+\-]")
_NO_BRACKETS = str.maketrans("[]()", "    ")


def _bulk_decimal(body: str, element: str, shape):
    """A long literal of plain decimal numbers parsed by numpy in one call
    (``fromstring``, C speed, no string per element); None when the body
    needs the general path (hex or special values, 8-byte integers, a wrong
    count: that path says what is wrong)."""
    dtype = np.dtype(numpy_dtype(element))
    if is_float(element) or is_complex(element):
        if _NOT_DECIMAL.search(body):
            return None
        parse = np.float64
    elif dtype.kind in "iu" and dtype.itemsize <= 4 and element not in _SUB_BYTE_BITS:
        if _NOT_INTEGER.search(body):
            return None
        parse = np.int64
    else:
        return None
    per = 2 if is_complex(element) else 1
    n = _size(shape)
    if _NOT_SKELETON.sub("", body).replace("(,)", "") != _skeleton(shape):
        return None
    check_size(element, shape)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            flat = np.fromstring(body.translate(_NO_BRACKETS), dtype=parse, sep=",")
    except (ValueError, DeprecationWarning):
        return None
    if flat.size != n * per:
        return None
    if per == 2:
        pairs = flat.reshape(-1, 2)
        out = np.empty(n, dtype)
        out.real, out.imag = pairs[:, 0], pairs[:, 1]
        return out.reshape(shape)
    if parse is np.float64:
        return _from_decimal(flat, dtype).reshape(shape)
    return flat.astype(dtype).reshape(shape)


def decode_literal(body: str, element: str, shape) -> np.ndarray:
    """A ``dense<[...]>`` or splat body to an array of ``shape``."""
    if len(body) > BULK_LITERAL_CHARS:
        arr = _bulk_decimal(body, element, shape)
        if arr is not None:
            return arr
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
