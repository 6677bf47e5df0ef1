"""``!quant.uniform`` element types: parsed parameters and one canonical spelling.

In the IR a quantized element type stays a string (like every element type)
in MLIR's canonical spelling, so two spellings of one type compare equal:

    !quant.uniform<i8:f32, 1.000000e-01:-3>                    per tensor
    !quant.uniform<i8<-127:127>:f32:1, {1.000000e-01:-3,2.000000e-01:4}>   per axis

``storage<min:max>`` only when the range is not the storage type's full
range, ``:zero_point`` only when it is not 0, scales as ``%e`` (MLIR's
printer) unless that loses digits, then the shortest exact decimal.
Storage ``i8`` / ``u8`` is the IR element ``i8`` / ``ui8``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_QUANT = re.compile(
    r"^!quant\.uniform<\s*(?P<storage>(?:u|s?i)\d+)(?:\s*<\s*(?P<min>-?\d+)\s*:\s*(?P<max>-?\d+)\s*>)?\s*:\s*"
    r"(?P<expressed>\w+)\s*(?::\s*(?P<axis>-?\d+))?\s*,\s*(?P<params>.*)>$", re.S)
_PARAM = re.compile(r"^\s*(?P<scale>[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|nan))"
                    r"\s*(?::\s*(?P<zp>[-+]?\d+))?\s*$")


class QuantTypeError(ValueError):
    """Text that starts like a ``!quant.uniform`` type but is not one we read."""


@dataclass(frozen=True)
class QuantType:
    storage: str           # MLIR quant spelling: i8, u8, i4, i32, si8 ...
    storage_min: int
    storage_max: int
    expressed: str         # f32, f16, bf16, f64
    axis: int | None       # quantization dimension (None: per tensor)
    scales: tuple          # floats, one per slice along axis (one per tensor)
    zero_points: tuple     # ints, likewise

    @property
    def bits(self) -> int:
        return int(self.storage.lstrip("usi"))

    @property
    def unsigned(self) -> bool:
        return self.storage.startswith("u")

    @property
    def storage_element(self) -> str:
        """The IR element type of the storage integers."""
        return ("ui" + self.storage[1:]) if self.unsigned else self.storage.removeprefix("s")

    @property
    def per_axis(self) -> bool:
        return self.axis is not None

    def full_range(self) -> tuple:
        b = self.bits
        return (0, (1 << b) - 1) if self.unsigned else (-(1 << (b - 1)), (1 << (b - 1)) - 1)

    def same_params(self, other: "QuantType") -> bool:
        """Equal but for the quantization dimension (what shape ops may move)."""
        return (self.storage, self.storage_min, self.storage_max, self.expressed,
                self.scales, self.zero_points, self.per_axis) == \
            (other.storage, other.storage_min, other.storage_max, other.expressed,
             other.scales, other.zero_points, other.per_axis)

    def __str__(self) -> str:
        st = self.storage
        if (self.storage_min, self.storage_max) != self.full_range():
            st += f"<{self.storage_min}:{self.storage_max}>"
        items = [_scale_text(s) + (f":{z}" if z else "") for s, z in zip(self.scales, self.zero_points)]
        if self.axis is None:
            return f"!quant.uniform<{st}:{self.expressed}, {items[0]}>"
        return f"!quant.uniform<{st}:{self.expressed}:{self.axis}, {{{','.join(items)}}}>"


def _scale_text(s: float) -> str:
    e = f"{s:e}"
    return e if float(e) == s else repr(s)


def is_quantized(element) -> bool:
    return isinstance(element, str) and element.startswith("!quant.")


def parse(element: str) -> QuantType:
    """The parameters of a ``!quant.uniform`` element type (QuantTypeError
    for other ``!quant.`` types, e.g. sub-channel or calibrated forms)."""
    m = _QUANT.match(element)
    if m is None:
        raise QuantTypeError(f"'{element}' is not a !quant.uniform type this compiler reads")
    storage = m.group("storage")
    text = m.group("params").strip()
    per_axis = m.group("axis") is not None
    if per_axis:
        if not (text.startswith("{") and text.endswith("}")):
            raise QuantTypeError(f"'{element}': a per-axis type lists its scales in {{...}}")
        text = text[1:-1]
    scales, zps = [], []
    for item in text.split(","):
        p = _PARAM.match(item)
        if p is None:
            raise QuantTypeError(f"'{element}': cannot read the scale:zero_point '{item.strip()}'")
        scales.append(float(p.group("scale")))
        zps.append(int(p.group("zp") or 0))
    if not per_axis and len(scales) != 1:
        raise QuantTypeError(f"'{element}': a per-tensor type has one scale")
    q = QuantType(storage, 0, 0, m.group("expressed"), int(m.group("axis")) if per_axis else None,
                  tuple(scales), tuple(zps))
    lo, hi = q.full_range()
    if m.group("min") is not None:
        lo, hi = int(m.group("min")), int(m.group("max"))
    return QuantType(storage, lo, hi, q.expressed, q.axis, q.scales, q.zero_points)


def canonical(element: str) -> str:
    """``element``'s canonical spelling (unchanged if it is not one we read)."""
    try:
        return str(parse(element))
    except QuantTypeError:
        return element
