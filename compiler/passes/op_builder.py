"""A small IR builder for decompositions: new ops go just before an anchor
op (or at the end of a block), with the anchor's location, so an error in
a rewritten op still points at the source line."""
from __future__ import annotations

import numpy as np

from ..errors import UnsupportedOpError
from ..ir.attributes import DenseArrayAttr, DenseElementsAttr, EnumAttr, IntAttr
from ..ir.core import Block, Operation, Region
from ..ir.types import TensorType, is_unsigned, numpy_dtype


class Builder:
    def __init__(self, anchor, block=None):
        self.anchor = anchor
        self.block = block
        self.loc = anchor.location if anchor is not None else None

    def fail(self, why: str):
        raise UnsupportedOpError(self.anchor.name, why, self.loc)

    def operands(self, what: str) -> list:
        """The anchor's operands, which must be as many as the comma-separated
        names in ``what``."""
        n = len(what.split(","))
        if len(self.anchor.operands) != n:
            self.fail(f"with {len(self.anchor.operands)} operands ({what} expected)")
        return list(self.anchor.operands)

    # -- emitting ---------------------------------------------------------------
    def ops(self, name, operands, types, attrs=None, regions=()):
        new = Operation(name, list(operands), list(types), dict(attrs or {}), list(regions), self.loc)
        if self.block is not None:
            self.block.append(new)
        else:
            self.anchor.parent.insert_before(self.anchor, new)
        return new.results

    def op(self, name, operands, typ, attrs=None, regions=()):
        return self.ops(name, operands, [typ], attrs, regions)[0]

    def unary(self, name, x, typ=None):
        return self.op("stablehlo." + name, [x], typ or x.type)

    def binary(self, name, a, b, typ=None):
        return self.op("stablehlo." + name, [a, b], typ or a.type)

    def const(self, typ, value):
        return self.dense(typ, np.full(typ.shape, value, dtype=numpy_dtype(typ.element)))

    def dense(self, typ, arr):
        return self.op("stablehlo.constant", [], typ, {"value": DenseElementsAttr(typ, arr)})

    def scalar(self, element, value):
        return self.const(TensorType((), element), value)

    def splat(self, like, value, element=None):
        """A constant of ``like``'s static shape (element ``element``)."""
        t = like.type if hasattr(like, "type") else like
        return self.const(TensorType(t.shape, element or t.element), value)

    def compare(self, a, b, direction, compare_type=None):
        el = a.type.element
        if compare_type is None:
            compare_type = ("FLOAT" if el.startswith(("f", "bf")) else
                            "UNSIGNED" if is_unsigned(el) or el == "i1" else "SIGNED")
        return self.op("stablehlo.compare", [a, b], TensorType(a.type.shape, "i1"),
                       {"comparison_direction": EnumAttr("stablehlo", "comparison_direction", direction),
                        "compare_type": EnumAttr("stablehlo", "comparison_type", compare_type)})

    def select(self, pred, a, b):
        return self.op("stablehlo.select", [pred, a, b], a.type)

    def convert(self, x, element):
        if x.type.element == element:
            return x
        return self.op("stablehlo.convert", [x], TensorType(x.type.shape, element))

    def bcast(self, x, shape, dims):
        shape = tuple(shape)
        if x.type.shape == shape and tuple(dims) == tuple(range(len(shape))):
            return x
        return self.op("stablehlo.broadcast_in_dim", [x], TensorType(shape, x.type.element),
                       {"broadcast_dimensions": DenseArrayAttr("i64", tuple(int(d) for d in dims))})

    def reshape(self, x, shape):
        shape = tuple(shape)
        if x.type.shape == shape:
            return x
        return self.op("stablehlo.reshape", [x], TensorType(shape, x.type.element))

    def transpose(self, x, perm):
        perm = tuple(int(p) for p in perm)
        if perm == tuple(range(len(perm))):
            return x
        shape = tuple(x.type.shape[p] for p in perm)
        return self.op("stablehlo.transpose", [x], TensorType(shape, x.type.element),
                       {"permutation": DenseArrayAttr("i64", perm)})

    def iota(self, shape, dim, element="i64"):
        return self.op("stablehlo.iota", [], TensorType(tuple(shape), element),
                       {"iota_dimension": IntAttr(int(dim), "i64")})

    def reduce(self, x, dims, combiner="add", init=0):
        """``x`` reduced over ``dims`` with a binary StableHLO op."""
        dims = tuple(sorted(int(d) for d in dims))
        if not dims:
            return x
        t = x.type
        s = TensorType((), t.element)
        body = Block([s, s])
        Builder(self.anchor, body).ops("stablehlo.return", [
            Builder(self.anchor, body).binary(combiner, *body.arguments)], [])
        shape = tuple(n for d, n in enumerate(t.shape) if d not in dims)
        return self.op("stablehlo.reduce", [x, self.scalar(t.element, init)],
                       TensorType(shape, t.element),
                       {"dimensions": DenseArrayAttr("i64", dims)}, [Region([body])])


def replace(op, values) -> None:
    """Forward ``op``'s results to ``values`` and erase it."""
    for old, new in zip(op.results, values):
        old.replace_all_uses_with(new)
    op.erase()
