"""Element types shared by compiler and runtime.

Reflection metadata names element types with their MLIR spelling ("f32");
VM code passes the numeric id (an i32) to the ``hal`` module.  Ids are part of
the format: never renumber, only append.
"""
from __future__ import annotations

from typing import NamedTuple


class ElementType(NamedTuple):
    id: int
    name: str          # MLIR spelling
    numpy: str         # numpy / ml_dtypes dtype name
    byte_size: int     # bytes per element in a buffer (i1 is one byte)


ELEMENT_TYPES = tuple(ElementType(*row) for row in [
    (0, "i1", "bool", 1),
    (1, "i8", "int8", 1), (2, "i16", "int16", 2), (3, "i32", "int32", 4), (4, "i64", "int64", 8),
    (5, "ui8", "uint8", 1), (6, "ui16", "uint16", 2), (7, "ui32", "uint32", 4), (8, "ui64", "uint64", 8),
    (9, "f16", "float16", 2), (10, "bf16", "bfloat16", 2), (11, "f32", "float32", 4), (12, "f64", "float64", 8),
    (13, "complex<f32>", "complex64", 8), (14, "complex<f64>", "complex128", 16),
    (15, "f8E4M3FN", "float8_e4m3fn", 1), (16, "f8E5M2", "float8_e5m2", 1),
    (17, "f8E4M3FNUZ", "float8_e4m3fnuz", 1), (18, "f8E5M2FNUZ", "float8_e5m2fnuz", 1),
    (19, "f8E4M3B11FNUZ", "float8_e4m3b11fnuz", 1), (20, "f8E4M3", "float8_e4m3", 1),
    (21, "f8E3M4", "float8_e3m4", 1),
    (22, "si8", "int8", 1), (23, "si16", "int16", 2), (24, "si32", "int32", 4), (25, "si64", "int64", 8),
    (26, "i4", "int4", 1), (27, "ui4", "uint4", 1), (28, "i2", "int2", 1), (29, "ui2", "uint2", 1),
    (30, "f8E8M0FNU", "float8_e8m0fnu", 1),
    (31, "f4E2M1FN", "float4_e2m1fn", 1), (32, "f6E2M3FN", "float6_e2m3fn", 1),
    (33, "f6E3M2FN", "float6_e3m2fn", 1),
])
BY_ID = {t.id: t for t in ELEMENT_TYPES}
BY_NAME = {t.name: t for t in ELEMENT_TYPES}


def numpy_dtype(t: ElementType | str | int):
    """The numpy dtype for an element type (ml_dtypes for the extended floats)."""
    import numpy as np
    et = t if isinstance(t, ElementType) else (BY_NAME[t] if isinstance(t, str) else BY_ID[t])
    try:
        return np.dtype(et.numpy)
    except TypeError:
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, et.numpy))


def from_numpy(dtype) -> ElementType:
    """The element type of a numpy dtype (the canonical, unsigned-less name for ints)."""
    import numpy as np
    name = np.dtype(dtype).name
    for t in ELEMENT_TYPES:
        if t.numpy == name and not t.name.startswith("si"):
            return t
    raise KeyError(f"no tensorvm element type for numpy dtype {name}")
