"""Quantized tensors become their storage integers plus float code (the first pass).

A value of ``tensor<...x!quant.uniform<i8:f32, s:z>>`` becomes a value of
its storage type ``tensor<...xi8>`` (function arguments and results
included: such a module takes and returns the storage integers). What each
op means on quantized tensors is spelled out with the StableHLO spec's
``dequantize`` / ``quantize`` (spec "Quantization computations"):

- ``dequantize(x) = (convert(x, expressed) - zero_point) * scale``
  (the subtraction in the expressed type, so ``x - zp`` cannot overflow the
  storage type);
- ``quantize(x) = convert(round_nearest_even(clamp(min, x / scale + zp, max)), storage)``;
- per-axis types broadcast their scales and zero points along the
  quantization dimension.

Rewrites, per op:

- ``uniform_quantize`` (float -> quant: ``quantize``; quant -> quant:
  ``quantize(dequantize(x))``), ``uniform_dequantize``: the formulas;
- ``bitcast_convert`` to or from a quantized type: the storage value itself
  (or a bitcast between storage types); ``constant``: its storage values;
- ops that only move or pick elements (transpose, reshape, broadcast_in_dim,
  slice, concatenate, reverse, pad, gather, dynamic_slice, select, max, min,
  clamp ...) whose quantized operands and results have the same scales and
  zero points: run on the storage integers unchanged (exact: dequantize is
  monotonic and these ops create no new values); with differing parameters
  they take the general path;
- ``compare``: compares the dequantized operands (``compare_type`` FLOAT);
- every other op (add, multiply, dot_general, convolution, ...): the spec's
  ``dequantize_op_quantize`` (the quantized operands dequantized, the op on
  the expressed type, quantized results quantized; a float operand next to a
  quantized one is the hybrid form and is used as is);
- control flow, calls and returns carry the storage values through.

Ops with a region computing on quantized values (reduce, sort, scatter ...),
integer-only ops on quantized operands and dynamic shapes raise
UnsupportedOpError naming the quantized element type.
"""
from __future__ import annotations

import numpy as np

from ..errors import UnsupportedOpError
from ..ir import quant
from ..ir.attributes import ArrayAttr, DenseArrayAttr, DenseElementsAttr, EnumAttr, StringAttr, TypeAttr
from ..dialects import registry as R
from ..ir.core import Operation
from ..ir.types import FunctionType, TensorType, TupleType, numpy_dtype
from .base import Pass

#: Attribute on a function whose signature had quantized types:
#: ArrayAttr((ArrayAttr(args), ArrayAttr(results))) of StringAttr, "" where not
#: quantized (read by the reflection writer).
SIGNATURE_ATTR = "tensorvm.quantized_signature"

# How each op treats quantized values: its declaration's ``quant`` and
# ``elements`` traits (dialects/opdef.py).
_CARRY = R.names(quant=R.CARRY)
_MOVE = R.names(quant=R.MOVE)
_INTEGER_ONLY = R.names(elements=R.INTEGER) | R.names(elements=R.INT_OR_BOOL)


def _storage_type(t):
    if isinstance(t, TensorType) and quant.is_quantized(t.element):
        return TensorType(t.shape, _parse(t.element).storage_element, t.encoding)
    if isinstance(t, TupleType):
        return TupleType(tuple(_storage_type(x) for x in t.types))
    return t


def _parse(element: str) -> quant.QuantType:
    try:
        return quant.parse(element)
    except quant.QuantTypeError as e:
        raise UnsupportedOpError("quantized element type", str(e)) from None


def _has_quant(t) -> bool:
    if isinstance(t, TensorType):
        return quant.is_quantized(t.element)
    if isinstance(t, TupleType):
        return any(_has_quant(x) for x in t.types)
    return False


def module_has_quantized(module) -> bool:
    for op in module.walk():
        for v in (*op.operands, *op.results,
                  *(a for r in op.regions for b in r.blocks for a in b.arguments)):
            if _has_quant(v.type):
                return True
        ft = op.attributes.get("function_type")
        if isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType) and \
                any(_has_quant(t) for t in (*ft.type.inputs, *ft.type.results)):
            return True
    return False


class DecomposeQuantized(Pass):
    name = "decompose-quantized"

    def run(self, module) -> None:
        if not module_has_quantized(module):
            return
        for f in module.functions:
            _Rewriter().function(f)
        for op in module.walk():      # what no rule above covers: a typed error, not a codegen crash
            for v in (*op.operands, *op.results):
                if _has_quant(v.type):
                    raise UnsupportedOpError(op.name, f"quantized element type in {v.type} is not "
                                                      f"supported here", op.location)


class _Rewriter:
    def __init__(self):
        self.orig: dict = {}          # Value -> its quantized element type (QuantType)

    # -- values ------------------------------------------------------------------------
    def retype(self, v) -> None:
        """``v`` holds storage integers from now on; remember what it meant."""
        if isinstance(v.type, TensorType) and quant.is_quantized(v.type.element):
            self.orig[v] = _parse(v.type.element)
        v.type = _storage_type(v.type)

    def function(self, f) -> None:
        ft = f.attributes.get("function_type")
        if isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType):
            fty = ft.type
            if any(_has_quant(t) for t in (*fty.inputs, *fty.results)):
                def names(ts):
                    return ArrayAttr(tuple(StringAttr(t.element if isinstance(t, TensorType) and
                                                      quant.is_quantized(t.element) else "") for t in ts))
                f.attributes[SIGNATURE_ATTR] = ArrayAttr((names(fty.inputs), names(fty.results)))
                f.attributes["function_type"] = TypeAttr(FunctionType(
                    tuple(_storage_type(t) for t in fty.inputs), tuple(_storage_type(t) for t in fty.results)))
        for r in f.regions:
            self.region(r)

    def region(self, region) -> None:
        for b in region.blocks:
            for a in b.arguments:
                self.retype(a)
            for op in list(b.operations):
                self.op(op)

    # -- ops ---------------------------------------------------------------------------
    def op(self, op) -> None:
        qin = [self.orig.get(v) for v in op.operands]
        quant_results = [isinstance(r.type, TensorType) and quant.is_quantized(r.type.element)
                         for r in op.results]
        if not any(qin) and not any(quant_results) and not any(_has_quant(r.type) for r in op.results):
            for r in op.regions:
                self.region(r)
            return
        name = op.name
        if name in _CARRY:
            for r in op.results:
                self.retype(r)
            for r in op.regions:
                self.region(r)
            return
        if op.regions:
            el = next(str(q) for q in (*qin, *(_parse(r.type.element) if q else None
                                              for r, q in zip(op.results, quant_results))) if q)
            raise UnsupportedOpError(name, f"quantized element type {el} in an op with a region "
                                           f"is not supported", op.location)
        for r in op.results:
            if isinstance(r.type, TensorType) and not r.type.is_static and quant_results[r.index]:
                raise UnsupportedOpError(name, f"quantized element type {r.type.element} with a "
                                               f"dynamic shape is not supported", op.location)
        if name == "stablehlo.constant":
            self.retype(op.result)
            return
        if name == "stablehlo.uniform_quantize":
            x = op.operands[0]
            f = self.dequantize(op, x, qin[0]) if qin[0] else x
            self.replace(op, [self.quantize(op, f, _parse(op.result.type.element), op.result.type.shape)])
            return
        if name == "stablehlo.uniform_dequantize":
            self.replace(op, [self.dequantize(op, op.operands[0], qin[0])])
            return
        if name == "stablehlo.bitcast_convert":
            q = _parse(op.result.type.element) if quant_results[0] else None
            if q is not None and qin[0] is not None and q.same_params(qin[0]):
                self.replace(op, [op.operands[0]])
            else:                   # storage -> storage: kept, its result means something else
                self.retype(op.result)
            return
        if name in _INTEGER_ONLY:
            el = next(str(q) for q in qin if q)
            raise UnsupportedOpError(name, f"on quantized element type {el} (an integer-only op)",
                                     op.location)
        if name in _MOVE and self._same_params(op, qin, quant_results):
            for r in op.results:
                self.retype(r)
            return
        if name == "stablehlo.compare":
            for i, v in enumerate(list(op.operands)):
                if qin[i]:
                    op.set_operand(i, self.dequantize(op, v, qin[i]))
            op.attributes["compare_type"] = EnumAttr("stablehlo", "comparison_type", "FLOAT")
            return
        self.dequantize_op_quantize(op, qin, quant_results)

    def _same_params(self, op, qin, quant_results) -> bool:
        qs = [q for q in qin if q] + [_parse(r.type.element) for r, q in zip(op.results, quant_results) if q]
        if not all(quant_results) and op.name != "stablehlo.get_dimension_size":
            return False
        return all(q.same_params(qs[0]) for q in qs)

    def dequantize_op_quantize(self, op, qin, quant_results) -> None:
        operands = [self.dequantize(op, v, q) if q else v for v, q in zip(op.operands, qin)]
        types = [TensorType(r.type.shape, _parse(r.type.element).expressed) if q else r.type
                 for r, q in zip(op.results, quant_results)]
        fop = Operation(op.name, operands, types, dict(op.attributes), [], op.location)
        op.parent.insert_before(op, fop)
        outs = [self.quantize(op, fr, _parse(r.type.element), r.type.shape) if q else fr
                for fr, r, q in zip(fop.results, op.results, quant_results)]
        self.replace(op, outs)

    # -- building ----------------------------------------------------------------------
    def emit(self, anchor, name, operands, typ, attrs=None):
        new = Operation(name, list(operands), [typ], attrs or {}, [], anchor.location)
        anchor.parent.insert_before(anchor, new)
        return new.results[0]

    def replace(self, op, values) -> None:
        for r, v in zip(op.results, values):
            if isinstance(r.type, TensorType) and quant.is_quantized(r.type.element):
                self.orig[v] = _parse(r.type.element)
            r.replace_all_uses_with(v)
        op.erase()

    def params(self, anchor, q: quant.QuantType, values, element: str, shape):
        """``values`` (one per tensor, or one per slice along the axis) as a
        ``shape`` x ``element`` tensor: a constant and a broadcast_in_dim."""
        if q.per_axis:
            arr = np.asarray(values, dtype=numpy_dtype(element))
            ct = TensorType((len(values),), element)
            dims = (q.axis,)
        else:
            arr = np.asarray(values[0], dtype=numpy_dtype(element))
            ct = TensorType((), element)
            dims = ()
        c = self.emit(anchor, "stablehlo.constant", [], ct, {"value": DenseElementsAttr(ct, arr)})
        return self.emit(anchor, "stablehlo.broadcast_in_dim", [c], TensorType(tuple(shape), element),
                         {"broadcast_dimensions": DenseArrayAttr("i64", dims)})

    def dequantize(self, anchor, x, q: quant.QuantType):
        shape = x.type.shape
        if any(d is None for d in shape):
            raise UnsupportedOpError(anchor.name, f"quantized element type {q} with a dynamic shape "
                                                  f"is not supported", anchor.location)
        ft = TensorType(tuple(shape), q.expressed)
        f = self.emit(anchor, "stablehlo.convert", [x], ft)
        if any(q.zero_points):
            f = self.emit(anchor, "stablehlo.subtract",
                          [f, self.params(anchor, q, q.zero_points, q.expressed, shape)], ft)
        return self.emit(anchor, "stablehlo.multiply",
                         [f, self.params(anchor, q, q.scales, q.expressed, shape)], ft)

    def quantize(self, anchor, x, q: quant.QuantType, shape):
        ft = TensorType(tuple(shape), q.expressed)
        if x.type.element != q.expressed:
            x = self.emit(anchor, "stablehlo.convert", [x], ft)
        f = self.emit(anchor, "stablehlo.divide", [x, self.params(anchor, q, q.scales, q.expressed, shape)], ft)
        if any(q.zero_points):
            f = self.emit(anchor, "stablehlo.add",
                          [f, self.params(anchor, q, q.zero_points, q.expressed, shape)], ft)
        scalar = TensorType((), q.expressed)
        lo, hi = (self.emit(anchor, "stablehlo.constant", [], scalar,
                            {"value": DenseElementsAttr(scalar, np.asarray(v, numpy_dtype(q.expressed)))})
                  for v in (q.storage_min, q.storage_max))
        f = self.emit(anchor, "stablehlo.clamp", [lo, f, hi], ft)
        f = self.emit(anchor, "stablehlo.round_nearest_even", [f], ft)
        return self.emit(anchor, "stablehlo.convert", [f], TensorType(tuple(shape), q.storage_element))
