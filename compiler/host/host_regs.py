"""What a value of the general host program is while it is emitted: host
scalars in VM registers (``Host``) or a device buffer in a ref register
(``Dev``), and the register bank each element type lives in."""
from __future__ import annotations

from dataclasses import dataclass

from ..ir.types import TensorType

#: VM register bank of a host scalar, by element type (narrow integers widen to i32).
BANK = {"i1": "i32", "i8": "i32", "i16": "i32", "i32": "i32", "ui8": "i32", "ui16": "i32",
        "ui32": "i32", "i64": "i64", "ui64": "i64", "f32": "f32", "f64": "f64"}
I64 = TensorType((), "i64")


@dataclass
class Host:
    regs: list          # one register per element (row-major)
    type: object


@dataclass
class Dev:
    buf: str            # register holding the HAL buffer
    type: object
    fresh: bool         # allocated by this invocation (safe to return as is)
