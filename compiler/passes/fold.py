"""Algebraic simplification and constant folding before dispatch formation.

Every rewrite here is exact: the simplified program computes bit for bit
what the original did (so no ``x + 0.0 -> x`` for floats, where ``-0.0 + 0.0``
is ``+0.0``; ``x + (-0.0)`` and ``x - 0.0`` are the exact float identities).

Rewrites:
- identities: ``x * 1``, ``x / 1``, ``x - 0``, ``x + 0`` (integers; floats
  only for ``-0.0``), ``x & ~0``, ``x | 0``, ``negate(negate(x))``, a
  ``convert``, ``reshape``, ``transpose`` (identity permutation),
  ``broadcast_in_dim`` (same shape, dims in order), ``slice`` (whole
  tensor), ``pad`` (no padding), ``reverse`` (no dims) or one-operand
  ``concatenate`` that does nothing;
- chains: ``transpose(transpose(x))`` is one transpose (or nothing),
  ``reshape(reshape(x))`` one reshape, ``broadcast_in_dim`` of a
  ``broadcast_in_dim`` one broadcast, ``convert(convert(x))`` through a
  type that holds every value of x one convert (or none, back to x's type);
- constant folding of shape ops and exact arithmetic on constants, within a
  size budget: a folded constant has at most as many elements as its
  operands together, or ``FOLD_BUDGET``, so folding never grows the module
  much; a ``broadcast_in_dim`` that expands is never folded (it stays a
  broadcast that fuses into its consumers for free).
- a returned ``broadcast_in_dim`` that only adds unit dims is a ``reshape``
  (an alias of its operand's buffer, not a copy).

A splat constant seen through broadcasts and reshapes counts as a constant
for the identities (JAX writes ``x * 1`` as a multiply by a broadcast 1).

``convert(reduce_window(convert(x), init))`` back to x's type, with a
``maximum`` or ``minimum`` body (also ``reduce``), is the same op on x: the
widening holds every value and the order, and the init converts exactly
(torchax's max-pool under 64-bit types widens f32 to f64 around it).

A ``convolution`` whose input is a zero ``pad`` used by it alone pads
itself instead (convolution padding is zeros by definition): no pad
dispatch, no padded copy of the input.  The CPU kernels skip padded taps,
so an inf or NaN weight at one no longer makes a NaN: the one way this
rewrite's result can differ in bits.

One layout rewrite, exact as well: a ``convolution`` whose filter is a
constant used only by it gets that constant stored with the output feature
innermost ((spatial..., i, o), the dimension numbers updated).  torch exports
OIHW filters; the CPU and GPU kernels read an output-channel row per filter
tap, which an OIHW filter would have to be repacked into on every call.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..dialects.registry import INT_OR_BOOL, OPS, ORDER_PICK, REDUCER, has
from ..ir.attributes import DenseArrayAttr, DenseElementsAttr, ints
from ..ir.core import Block, Operation, Region
from ..ir.types import TensorType, bit_width, is_float, is_integer, is_unsigned, numpy_dtype
from . import strength
from .base import Pass
from .known_values import all_ones as _all_ones, constant_array as _constant_array
from .known_values import is_value as _is, same_type as _same_type, splat as _splat
from .known_values import static as _static

FOLD_BUDGET = 4096          # elements a folded constant may have beyond its operands' size

# -- identities and chains: each returns the value replacing op's result, or None


def _identity(op):
    name, ops = op.name, op.operands
    el = op.result.type.element if isinstance(op.result.type, TensorType) else None
    if el is None:
        return None
    decl = OPS.get(name)
    match = _identity_match(decl.identity, el) if decl is not None and len(ops) == 2 else None
    if match is not None:
        for x, k in ((ops[0], ops[1]), (ops[1], ops[0])):
            if match(k) and _same_type(x, op.result):
                return x
    if name == "stablehlo.divide" and (is_float(el) or is_integer(el)) and _is(ops[1], 1):
        return ops[0]
    if name == "stablehlo.subtract" and (_is(ops[1], "+0.0") if is_float(el) else
                                         (is_integer(el) and _is(ops[1], 0))):
        return ops[0]
    if name == "stablehlo.select" and len(ops) == 3:
        pred = _splat(ops[0])                   # one predicate for every element
        if pred is not None:
            chosen = ops[1] if bool(pred) else ops[2]
            if _same_type(chosen, op.result):
                return chosen
    if name == "stablehlo.negate":
        inner = ops[0].defining_op
        if inner is not None and inner.name == "stablehlo.negate" and is_float(el):
            return inner.operands[0]
    if decl is not None and decl.noop is not None and len(ops) >= 1 \
            and _same_type(ops[0], op.result) and _static(op.result.type) and decl.noop(op):
        return ops[0]       # (the declaration's noop rule: an identity permutation, no padding)
    return None


def _identity_match(ident, el):
    """A test ``k -> bool`` that ``k`` is a splat of a binary op's declared
    identity ``ident`` for element type ``el`` (None: no exact identity)."""
    if ident is None:
        return None
    if ident == -1 or (ident == 1 and el == "i1"):
        return _all_ones
    if ident == 0 and is_float(el):
        return lambda k: _is(k, "-0.0")         # x + (+0.0) turns -0.0 into +0.0
    if ident == 1 or is_integer(el):
        return lambda k: _is(k, ident)
    return None


def _holds_every_value(src: str, mid: str) -> bool:
    """Every value of element type `src` converts to `mid` and back unchanged."""
    if src == mid:
        return True
    if is_float(src) and is_float(mid):
        order = ("f8E4M3FN", "f8E5M2", "bf16", "f16", "f32", "f64")
        if src in ("bf16", "f16") and mid in ("bf16", "f16"):
            return False
        return src in order and mid in order and order.index(src) < order.index(mid)
    if is_integer(src) and is_integer(mid):
        ws, wm = bit_width(src), bit_width(mid)
        if is_unsigned(src) == is_unsigned(mid):
            return wm >= ws
        return not is_unsigned(mid) and wm > ws     # unsigned into a wider signed
    if src == "i1":
        return is_integer(mid) or is_float(mid)
    if is_integer(src) and is_float(mid):
        mant = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}.get(mid, 0)
        return bit_width(src) - (0 if is_unsigned(src) else 1) <= mant
    return False


def _chain(op):
    """A rewrite of `op` over its producer of the same kind: (new op) or a value."""
    name = op.name
    src = op.operands[0] if op.operands else None
    inner = src.defining_op if src is not None else None
    if inner is None or inner.name != name or len(inner.results) != 1:
        return None
    x = inner.operands[0]
    if name == "stablehlo.transpose":
        p_in = ints(inner.attributes.get("permutation"))
        p_out = ints(op.attributes.get("permutation"))
        perm = tuple(p_in[i] for i in p_out)
        if perm == tuple(range(len(perm))) and _same_type(x, op.result):
            return x
        return Operation(name, [x], [op.result.type],
                         {"permutation": DenseArrayAttr("i64", perm)}, [], op.location)
    if name == "stablehlo.reshape" and _static(op.result.type):
        if _same_type(x, op.result):
            return x
        return Operation(name, [x], [op.result.type], {}, [], op.location)
    if name == "stablehlo.broadcast_in_dim" and _static(op.result.type):
        d_in = ints(inner.attributes.get("broadcast_dimensions"))
        d_out = ints(op.attributes.get("broadcast_dimensions"))
        dims = tuple(d_out[i] for i in d_in)
        return Operation(name, [x], [op.result.type],
                         {"broadcast_dimensions": DenseArrayAttr("i64", dims)}, [], op.location)
    if name == "stablehlo.convert":
        src_el, mid_el = x.type.element, src.type.element
        if _holds_every_value(src_el, mid_el):     # the first convert kept x's value
            if _same_type(x, op.result):
                return x
            return Operation(name, [x], [op.result.type], {}, [], op.location)
    return None


# -- constant folding -----------------------------------------------------------------

def _fold_transpose(op, a):
    return np.transpose(a, ints(op.attributes["permutation"]))


def _fold_broadcast(op, a):
    shape = op.result.type.shape
    dims = ints(op.attributes["broadcast_dimensions"])
    view = [1] * len(shape)
    for i, d in enumerate(dims):
        view[d] = a.shape[i]
    return np.broadcast_to(a.reshape(view), shape)


def _fold_slice(op, a):
    idx = tuple(slice(b, e, s) for b, e, s in zip(ints(op.attributes["start_indices"]),
                                                  ints(op.attributes["limit_indices"]),
                                                  ints(op.attributes["strides"])))
    return a[idx]


_COMPARE = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
            "GT": np.greater, "GE": np.greater_equal}


def _fold_compare(op, arrays):
    """IEEE (FLOAT), SIGNED and UNSIGNED compares of matching element types;
    TOTALORDER (-0 < +0, NaNs ordered) is left to the kernel."""
    d, c = op.attributes.get("comparison_direction"), op.attributes.get("compare_type")
    fn = _COMPARE.get(getattr(d, "value", None))
    el = op.operands[0].type.element
    kind = getattr(c, "value", None)
    natural = "FLOAT" if is_float(el) else ("UNSIGNED" if is_unsigned(el) or el == "i1"
                                            else "SIGNED")
    if fn is None or (kind is not None and kind != natural) \
            or not (is_float(el) or is_integer(el) or el == "i1") or el not in ("f32", "f64") \
            and is_float(el):
        return None
    return fn(*arrays)


# the registry's fold rules: (numpy ufunc, element kinds it folds exactly)
_FOLDS = [(d.name, getattr(np, d.fold[0]), d.fold[1].split("+")) for d in OPS.values() if d.fold]
_EXACT_FLOAT = {n: fn for n, fn, kinds in _FOLDS if "float" in kinds}
_WRAPPING_INT = {n: fn for n, fn, kinds in _FOLDS if "int" in kinds}


def _fold(op):
    """The constant `op` computes from constant operands, within the budget; else None."""
    t = op.result.type if len(op.results) == 1 else None
    if not _static(t) or not op.operands:
        return None
    arrays = [_constant_array(v) for v in op.operands]
    if any(a is None for a in arrays):
        return None
    size = int(np.prod(t.shape, dtype=np.int64))
    operand_size = sum(a.size for a in arrays)
    if size > operand_size and (op.name == "stablehlo.broadcast_in_dim" or size > FOLD_BUDGET):
        return None
    el, dtype = t.element, numpy_dtype(t.element)
    name, a = op.name, arrays[0]
    with np.errstate(all="ignore"):
        if name == "stablehlo.reshape":
            out = a.reshape(t.shape)
        elif name == "stablehlo.transpose":
            out = _fold_transpose(op, a)
        elif name == "stablehlo.broadcast_in_dim":
            out = _fold_broadcast(op, a)
        elif name == "stablehlo.slice":
            out = _fold_slice(op, a)
        elif name == "stablehlo.concatenate":
            out = np.concatenate(arrays, axis=int(op.attributes["dimension"].value))
        elif name == "stablehlo.convert":
            src = op.operands[0].type.element
            if not ((is_float(src) or is_integer(src) or src == "i1") and (is_float(el) or el == "i1")
                    or (is_integer(src) and is_integer(el))):
                return None              # float -> int rounding and overflow: leave to the kernel
            out = (a != 0) if el == "i1" else a.astype(dtype)
        elif name == "stablehlo.compare":
            out = _fold_compare(op, arrays)
            if out is None:
                return None
        elif is_float(el) and name in _EXACT_FLOAT and el in ("f32", "f64"):
            out = _EXACT_FLOAT[name](*arrays)
        elif is_integer(el) and name in _WRAPPING_INT \
                and (el != "i1" or OPS[name].elements == INT_OR_BOOL):     # i1: logical ops only
            out = _WRAPPING_INT[name](*arrays)
        else:
            return None
    out = np.ascontiguousarray(np.asarray(out, dtype=dtype).reshape(t.shape))
    return Operation("stablehlo.constant", [], [t], {"value": DenseElementsAttr(t, out)}, [],
                     op.location)


def _narrowed_order_reduction(op):
    """``convert(r(convert(x), init))`` as ``r(x, init')`` when ``r`` is a
    one-input reduce / reduce_window whose body is a maximum or minimum of its
    two arguments (module docstring); else None."""
    if op.name != "stablehlo.convert" or not _static(op.result.type):
        return None
    r = op.operands[0].defining_op
    if r is None or not has(r.name, REDUCER) \
            or len(r.operands) != 2 or len(r.results) != 1 or len(r.result.uses) != 1:
        return None
    wide, init = r.operands
    widen = wide.defining_op
    if widen is None or widen.name != "stablehlo.convert":
        return None
    x = widen.operands[0]
    el = x.type.element
    if el != op.result.type.element or not _holds_every_value(el, wide.type.element):
        return None
    (body,) = r.regions[0].blocks
    ops = body.operations
    if len(ops) != 2 or not has(ops[0].name, ORDER_PICK) or ops[1].name != "stablehlo.return" \
            or list(ops[0].operands) != body.arguments or list(ops[1].operands) != [ops[0].result]:
        return None
    start = _constant_array(init)
    if start is None or start.size != 1:
        return None
    narrow = start.astype(numpy_dtype(el))
    if not (narrow.astype(start.dtype) == start).all():
        return None
    scalar = TensorType((), el)
    init2 = Operation("stablehlo.constant", [], [scalar],
                      {"value": DenseElementsAttr(scalar, np.ascontiguousarray(narrow.reshape(())))},
                      [], init.defining_op.location)
    blk = Block([scalar, scalar])
    pick = blk.append(Operation(ops[0].name, list(blk.arguments), [scalar], {}, [], ops[0].location))
    blk.append(Operation("stablehlo.return", [pick.result], [], {}, [], ops[1].location))
    op.parent.insert_before(op, init2)
    return Operation(r.name, [x, init2.result], [op.result.type], dict(r.attributes),
                     [Region([blk])], r.location)


def _returned_relabel(op):
    """A returned ``broadcast_in_dim`` that only adds unit dims (dims in
    order, as many elements as its operand) is a ``reshape``: the output
    then aliases its operand's buffer, where the broadcast was a copy
    dispatch of its own (GPT-2's ``logits[None]``: 25 MB, 20 ms a call).
    Only returned ones: elsewhere it fuses into its readers for free, and
    broadcast chains stay mergeable."""
    if op.name != "stablehlo.broadcast_in_dim" or not _static(op.result.type) \
            or not _static(op.operands[0].type) \
            or not any(u.name == "func.return" for u, _ in op.result.uses):
        return None
    dims = list(ints(op.attributes.get("broadcast_dimensions")))
    if dims != sorted(dims) or op.operands[0].type.num_elements != op.result.type.num_elements:
        return None
    return Operation("stablehlo.reshape", [op.operands[0]], [op.result.type], {}, [], op.location)


def _filter_layout(op):
    """The convolution ``op`` as one whose constant filter has the output
    feature innermost (module docstring), or None when it already has or
    the filter is not a constant of its own."""
    if op.name != "stablehlo.convolution" or len(op.operands) != 2:
        return None
    rhs = op.operands[1]
    w = _constant_array(rhs)
    dn = op.attributes.get("dimension_numbers")
    if w is None or w.ndim < 2 or len(rhs.uses) != 1 or dn is None or w.strides == (0,) * w.ndim:
        return None
    f = dn.fields
    spatial = tuple(f["kernel_spatial_dimensions"])
    order = spatial + (f["kernel_input_feature_dimension"], f["kernel_output_feature_dimension"])
    if order == tuple(range(w.ndim)):
        return None
    t = TensorType(tuple(rhs.type.shape[d] for d in order), rhs.type.element)
    filt = Operation("stablehlo.constant", [], [t],
                     {"value": DenseElementsAttr(t, np.ascontiguousarray(np.transpose(w, order)))},
                     [], rhs.defining_op.location)
    op.parent.insert_before(op, filt)
    ns = len(spatial)
    fields = dict(f, kernel_spatial_dimensions=tuple(range(ns)),
                  kernel_input_feature_dimension=ns, kernel_output_feature_dimension=ns + 1)
    attrs = dict(op.attributes, dimension_numbers=type(dn)(dn.name, fields))
    return Operation(op.name, [op.operands[0], filt.result], [op.result.type], attrs, [],
                     op.location)


def _pad_into_convolution(op):
    """The convolution ``op`` reading a zero ``pad`` of its input (used by
    it alone) as one that pads itself: StableHLO's convolution padding is
    zeros, so the two are the same computation, and the pad's dispatch and
    its copy of the input go (Keras' 'same' padding of a strided conv, as
    ``pad`` then ``convolution``: 4 dispatches of mobilenet_v2).  Only
    non-negative, non-interior padding of the spatial dims by +0.0 (or
    integer 0), with no input dilation (padding applies after it).  Exact
    by StableHLO's definition; the CPU kernels skip a padded tap where the
    explicit pad added 0 * w, which differs only for an inf or NaN weight
    at such a tap (NaN there) or a -0.0 sum."""
    if op.name != "stablehlo.convolution" or len(op.operands) != 2:
        return None
    lhs, rhs = op.operands
    p = lhs.defining_op
    if p is None or p.name != "stablehlo.pad" or len(lhs.uses) != 1 or not _static(lhs.type):
        return None
    el = lhs.type.element
    zero = _splat(p.operands[1]) if is_float(el) or is_integer(el) else None
    if zero is None or zero != 0 or np.signbit(zero):
        return None
    lo, hi, interior = (list(ints(p.attributes.get(k))) for k in
                        ("edge_padding_low", "edge_padding_high", "interior_padding"))
    dn = op.attributes.get("dimension_numbers")
    if dn is None or any(interior) or min(lo + hi) < 0:
        return None
    spatial = list(dn.fields["input_spatial_dimensions"])
    if any(lo[d] or hi[d] for d in range(len(lo)) if d not in spatial):
        return None
    ns = len(spatial)
    ldil = op.attributes.get("lhs_dilation")
    if ldil is not None and any(x != 1 for x in ints(ldil)):
        return None
    old = op.attributes.get("padding")
    pad = np.array(ints(old) if old is not None and len(ints(old)) else [0] * (2 * ns),
                   np.int64).reshape(ns, 2)
    pad += np.array([[lo[d], hi[d]] for d in spatial], np.int64)
    attrs = dict(op.attributes, padding=DenseElementsAttr(TensorType((ns, 2), "i64"), pad))
    return Operation(op.name, [p.operands[0], rhs], [op.result.type], attrs, [], op.location)


_RULES = (("identity", _identity), ("chain", _chain), ("constant", _fold),
          ("narrowed order reduction", _narrowed_order_reduction),
          ("filter layout", _filter_layout), ("pad into convolution", _pad_into_convolution),
          ("returned relabel", _returned_relabel), *strength.RULES)


class AlgebraicSimplification(Pass):
    """Exact identities, op chains, constant folding (see the module docstring)
    and strength reduction (strength.py);
    ``counts`` says how many rewrites of each kind ran, for --print-stats."""
    name = "simplify"

    def __init__(self):
        self.counts: Counter = Counter()

    def run(self, module) -> None:
        for f in module.functions:
            for region in f.regions:
                for block in region.blocks:
                    self._run_on_block(block)

    def _run_on_block(self, block) -> None:
        for op in list(block.operations):
            for region in op.regions:
                for b in region.blocks:
                    self._run_on_block(b)
            if op.regions or len(op.results) != 1 or op.name == "stablehlo.constant":
                continue
            for kind, rule in _RULES:
                new = rule(op)
                if new is None:
                    continue
                if isinstance(new, Operation):
                    block.insert_before(op, new)
                    new = new.result
                op.result.replace_all_uses_with(new)
                op.erase()
                self.counts[kind] += 1
                break
