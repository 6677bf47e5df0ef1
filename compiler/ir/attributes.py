"""IR attributes: small immutable value objects.

Passes read them through the helpers at the bottom (``ints``) rather than
poking at the classes, so the parser may normalise spellings freely.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .types import TensorType, Type


class Attribute:
    """Base class of IR attributes."""


@dataclass(frozen=True)
class IntAttr(Attribute):
    value: int
    type: str = "i64"


@dataclass(frozen=True)
class FloatAttr(Attribute):
    value: float
    type: str = "f32"


@dataclass(frozen=True)
class BoolAttr(Attribute):
    value: bool


@dataclass(frozen=True)
class StringAttr(Attribute):
    value: str


@dataclass(frozen=True)
class UnitAttr(Attribute):
    pass


@dataclass(frozen=True)
class ArrayAttr(Attribute):
    elements: tuple


@dataclass(frozen=True)
class DenseArrayAttr(Attribute):
    """``array<i64: 1, 2>``."""
    element: str
    values: tuple


@dataclass(frozen=True, eq=False)
class DenseElementsAttr(Attribute):
    """``dense<...> : tensor<...>``: ``array`` has the tensor's numpy dtype
    and shape (a splat may be a broadcast, read-only view)."""
    type: TensorType
    array: np.ndarray

    @property
    def is_splat(self) -> bool:
        a = self.array
        if a.size == 0:
            return False
        if a.strides == (0,) * a.ndim:
            return True
        head = a.flat[:64]                 # most big constants (weights) differ at once
        return bool(np.all(head == head[0])) and bool(np.all(a == a.flat[0]))


@dataclass(frozen=True)
class DictAttr(Attribute):
    entries: dict = field(default_factory=dict)


@dataclass(frozen=True)
class SymbolRefAttr(Attribute):
    name: str                  # without the leading @
    nested: tuple = ()


@dataclass(frozen=True)
class TypeAttr(Attribute):
    type: Type


@dataclass(frozen=True)
class EnumAttr(Attribute):
    """``#stablehlo<comparison_direction LT>`` -> EnumAttr("stablehlo", "comparison_direction", "LT")."""
    dialect: str
    kind: str
    value: str


@dataclass(frozen=True)
class StructAttr(Attribute):
    """``#stablehlo.dot<lhs_batching_dimensions = [0], ...>`` ->
    StructAttr("stablehlo.dot", {"lhs_batching_dimensions": (0,), ...}).
    Field values are Python ints, tuples of ints, or Attributes."""
    name: str
    fields: dict


@dataclass(frozen=True)
class OpaqueAttr(Attribute):
    """An attribute the IR does not model, kept as its source text."""
    text: str


def ints(attr) -> tuple:
    """The attribute as a tuple of Python ints (dense arrays, arrays of
    IntAttr, 1-D dense elements, plain tuples)."""
    if attr is None:
        return ()
    if isinstance(attr, DenseArrayAttr):
        return tuple(int(v) for v in attr.values)
    if isinstance(attr, ArrayAttr):
        return tuple(int(e.value) if isinstance(e, (IntAttr, BoolAttr)) else int(e)
                     for e in attr.elements)
    if isinstance(attr, DenseElementsAttr):
        return tuple(int(v) for v in np.asarray(attr.array).reshape(-1))
    if isinstance(attr, (tuple, list)):
        return tuple(int(v) for v in attr)
    if isinstance(attr, IntAttr):
        return (attr.value,)
    raise TypeError(f"attribute {attr!r} is not a list of integers")
