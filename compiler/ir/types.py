"""IR types: tensors with symbolic dims, tuples, tokens, functions.

Element types are plain strings in MLIR spelling ("f32", "i1", "ui8", "bf16",
"complex<f32>", "f8E4M3FN", "index"); ``numpy_dtype`` maps them to numpy /
ml_dtypes.  A dynamic dimension is ``None`` in ``TensorType.shape``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

INTEGER_TYPES = ("i1", "i2", "i4", "i8", "i16", "i32", "i64",
                 "si8", "si16", "si32", "si64",
                 "ui2", "ui4", "ui8", "ui16", "ui32", "ui64")
FLOAT_TYPES = ("f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ",
               "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E4M3", "f8E3M4", "f4E2M1FN",
               "f6E2M3FN", "f6E3M2FN", "f8E8M0FNU", "tf32")
COMPLEX_TYPES = ("complex<f32>", "complex<f64>")
# The element types StableHLO's tensors hold (and ``index``, for shape values).
ELEMENT_TYPES = frozenset(INTEGER_TYPES + FLOAT_TYPES + COMPLEX_TYPES + ("index",))
# MLIR's builtin integer types of any width (``i10``, ``si3``, ``ui24``): they
# parse and print, and the verifier rejects them where an op needs one of
# StableHLO's element types, as MLIR does.
_ANY_WIDTH_INTEGER = re.compile(r"(?:s|u)?i([1-9][0-9]{0,7})")
MAX_INTEGER_WIDTH = (1 << 24) - 1


def is_builtin_integer(element: str) -> bool:
    """``iN`` / ``siN`` / ``uiN`` for any width MLIR allows (1 .. 2^24 - 1)."""
    m = _ANY_WIDTH_INTEGER.fullmatch(element)
    return m is not None and int(m.group(1)) <= MAX_INTEGER_WIDTH

_NUMPY_NAMES = {
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "si8": "int8", "si16": "int16", "si32": "int32", "si64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
    "f16": "float16", "f32": "float32", "f64": "float64",
    "complex<f32>": "complex64", "complex<f64>": "complex128",
    "index": "int64",
}
_ML_DTYPES_NAMES = {
    "bf16": "bfloat16", "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
    "f8E4M3FNUZ": "float8_e4m3fnuz", "f8E5M2FNUZ": "float8_e5m2fnuz",
    "f8E4M3B11FNUZ": "float8_e4m3b11fnuz", "f8E4M3": "float8_e4m3",
    "f8E3M4": "float8_e3m4", "f4E2M1FN": "float4_e2m1fn", "f6E2M3FN": "float6_e2m3fn",
    "f6E3M2FN": "float6_e3m2fn", "f8E8M0FNU": "float8_e8m0fnu",
    "i2": "int2", "i4": "int4", "ui2": "uint2", "ui4": "uint4",
}


def numpy_dtype(element: str) -> np.dtype:
    """The numpy dtype that holds elements of MLIR type ``element``."""
    if element in _NUMPY_NAMES:
        return np.dtype(_NUMPY_NAMES[element])
    if element in _ML_DTYPES_NAMES:
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, _ML_DTYPES_NAMES[element]))
    raise KeyError(element)


def is_integer(element: str) -> bool:
    return element in INTEGER_TYPES or element == "index"


def is_unsigned(element: str) -> bool:
    return element.startswith("ui")


def is_float(element: str) -> bool:
    return element in FLOAT_TYPES


def is_complex(element: str) -> bool:
    return element.startswith("complex<")


def bit_width(element: str) -> int:
    if element == "i1":
        return 1
    if element == "index":
        return 64
    if is_complex(element):
        return 2 * bit_width(element[8:-1])
    return numpy_dtype(element).itemsize * 8 if element not in ("i2", "i4", "ui2", "ui4") \
        else int(element.lstrip("ui"))


class Type:
    """Base class of IR types."""


@dataclass(frozen=True)
class TensorType(Type):
    shape: tuple          # ints, None for a dynamic dim
    element: str
    encoding: object = None   # bounds or other encodings; rarely used

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return all(d is not None for d in self.shape)

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape:
            if d is None:
                raise ValueError("dynamic tensor has no static element count")
            n *= d
        return n

    def __str__(self) -> str:
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        enc = f", {getattr(self.encoding, 'text', self.encoding)}" if self.encoding is not None else ""
        return f"tensor<{dims}{self.element}{enc}>"


@dataclass(frozen=True)
class UnrankedTensorType(Type):
    """``tensor<*xT>``: a tensor of unknown rank.  It parses, verifies (only
    where an op's definition allows unranked operands, e.g. custom_call and
    most CHLO ops) and prints; compiling one is an UnsupportedOpError."""
    element: str

    def __str__(self) -> str:
        return f"tensor<*x{self.element}>"


@dataclass(frozen=True)
class ScalarType(Type):
    """A non-tensor builtin type (i32, f32, index ...), e.g. in attributes."""
    element: str

    def __str__(self) -> str:
        return self.element


@dataclass(frozen=True)
class TupleType(Type):
    types: tuple

    def __str__(self) -> str:
        return "tuple<" + ", ".join(map(str, self.types)) + ">"


@dataclass(frozen=True)
class TokenType(Type):
    def __str__(self) -> str:
        return "!stablehlo.token"


@dataclass(frozen=True)
class FunctionType(Type):
    inputs: tuple
    results: tuple

    def __str__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        outs = ", ".join(map(str, self.results))
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"({ins}) -> {outs}"
        return f"({ins}) -> ({outs})"


@dataclass(frozen=True)
class OpaqueType(Type):
    """A type the IR does not model (kept verbatim so it can be printed)."""
    text: str

    def __str__(self) -> str:
        return self.text
