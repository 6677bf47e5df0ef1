"""The StableHLO spec's per-op constraints (shapes, dims attributes, element
types) on parsed IR: ``check_op(op)`` raises a located ``CompileError`` when
an op breaks one.  Structure (dominance, terminators, counts) stays in
``verifier.py``; this module is what the spec's "Constraints" sections and
the dialect's type constraints say.

Dynamic dims (``None``) are compatible with any size, so a rule only rejects
what is wrong for every size.  Ops without a rule here are not checked.
"""
from __future__ import annotations

from ..dialects.registry import ANY, OPS, POSITIVE
from ..errors import CompileError
from .attributes import DenseElementsAttr, IntAttr, StructAttr, ints
from .decomposed_constraints import RULES as DECOMPOSED_RULES
from .types import ELEMENT_TYPES, TensorType, UnrankedTensorType, is_complex, is_float, is_integer

_S = "stablehlo."


def _fail(op, message: str, location=None):
    """A CompileError at ``location`` (default: the op's)."""
    location = location or op.location
    where = f"{location}: " if location is not None else ""
    raise CompileError(f"{where}error: '{op.name}' op {message}")


def _shape(v):
    return v.type.shape if isinstance(v.type, TensorType) else None


def _el(v) -> str:
    return v.type.element if isinstance(v.type, TensorType) else ""


def _compat(a, b) -> bool:
    return a is None or b is None or a == b


def _compat_shapes(a, b) -> bool:
    return a is not None and b is not None and len(a) == len(b) and all(map(_compat, a, b))


def _compat_type(a, b) -> bool:
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return a.element == b.element and _compat_shapes(a.shape, b.shape)
    return a == b


def _compat_types(xs, ys) -> bool:
    xs, ys = list(xs), list(ys)
    return len(xs) == len(ys) and all(map(_compat_type, xs, ys))


def _attr_ints(op, key, default=()):
    a = op.attributes.get(key)
    return default if a is None else ints(a)


def _expect_result(op, dims, index=0):
    """Result ``index`` must be compatible with the inferred ``dims``."""
    got = _shape(op.results[index])
    if got is not None and not _compat_shapes(got, tuple(dims)):
        want = "x".join("?" if d is None else str(d) for d in dims)
        _fail(op, f"inferred shape '[{want}]' is incompatible with return type of operation "
                  f"'{op.results[index].type}' (failed to infer returned types)")


def _in_range(op, what, dims, rank):
    for d in dims:
        if not 0 <= d < rank:
            _fail(op, f"{what} contains invalid value {d} for rank {rank}")
    if len(set(dims)) != len(dims):
        _fail(op, f"{what} should not have duplicates")


# -- element types -------------------------------------------------------------------
def _quant(el: str) -> bool:
    return el.startswith("!quant.")


def _per_axis(el: str) -> bool:
    return _quant(el) and "{" in el


_FLOAT_OR_COMPLEX = ("cbrt", "cosine", "sine", "tan", "tanh", "exponential", "exponential_minus_one",
                     "log", "log_plus_one", "logistic", "rsqrt", "sqrt", "atan2")
_FLOAT = ("ceil", "floor", "round_nearest_afz", "round_nearest_even", "is_finite")
_INTEGER = ("popcnt", "count_leading_zeros", "shift_left", "shift_right_arithmetic",
            "shift_right_logical")
_INT_OR_BOOL = ("and", "or", "xor", "not")
_SAME_TYPE = ("add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power",
              "negate", "sign", "and", "or", "xor", "not", "popcnt", "count_leading_zeros",
              "shift_left", "shift_right_arithmetic", "shift_right_logical", "atan2") \
    + _FLOAT_OR_COMPLEX[:-1] + _FLOAT[:-1]
# Ops on which the spec allows per-tensor quantization only.
_NO_PER_AXIS = frozenset(_S + n for n in _SAME_TYPE + _FLOAT + (
    "abs", "clamp", "compare", "select", "pad", "slice", "dynamic_slice", "dynamic_update_slice",
    "reverse", "reduce_precision", "cholesky", "collective_permute", "reduce_scatter",
    "select_and_scatter", "batch_norm_grad", "batch_norm_inference", "batch_norm_training",
    "reduce", "reduce_window", "sort", "optimization_barrier")) - {_S + "add"}


def _kind_ok(kind: str, el: str) -> bool:
    if _quant(el):
        return kind not in ("integer", "int_or_bool")
    if kind == "float_or_complex":
        return is_float(el) or is_complex(el)
    if kind == "float":
        return is_float(el)
    if kind == "integer":
        return is_integer(el) and el != "i1"
    return is_integer(el)          # int_or_bool: i1 is an integer type here


def _bounds(t):
    """The ``#stablehlo.bounds<..>`` / ``type_extensions<bounds = [..]>`` of a
    tensor type, one entry (int or None) per dim, or None."""
    import re
    text = str(getattr(t, "encoding", None) or "")
    m = re.search(r"bounds\s*(?:<|=\s*\[)([^>\]]*)", text)
    if m is None:
        return None
    items = [x.strip() for x in m.group(1).split(",") if x.strip()]
    return [int(x) if x.lstrip("-").isdigit() else None for x in items]


def _within_bounds(op, tensors):
    """A static size never exceeds the bound another type gives that dim."""
    for v in tensors:
        b = _bounds(v.type)
        if b is None or len(b) != len(v.type.shape):
            continue
        for w in tensors:
            for k, (lim, d) in enumerate(zip(b, _shape(w) or ())):
                if lim is not None and d is not None and v.type.shape[k] is None and d > lim:
                    _fail(op, f"inferred type(s) '{v.type}' are incompatible with return type(s) of "
                              f"operation '{w.type}': dimension {k} ({d}) exceeds the bound {lim} "
                              f"(failed to infer returned types)")


def _elementwise(op):
    name = op.short_name
    tensors = [v for v in list(op.operands) + list(op.results) if isinstance(v.type, TensorType)]
    shapes = [_shape(v) for v in tensors]
    for v, s in zip(tensors[1:], shapes[1:]):
        if not _compat_shapes(shapes[0], s):
            _fail(op, f"requires compatible shapes for all operands and results, got "
                      f"'{tensors[0].type}' and '{v.type}'")
    _within_bounds(op, tensors)
    kind = ("float_or_complex" if name in _FLOAT_OR_COMPLEX else "float" if name in _FLOAT else
            "integer" if name in _INTEGER else "int_or_bool" if name in _INT_OR_BOOL else None)
    if kind is not None:
        for i, v in enumerate(op.operands):
            if not _kind_ok(kind, _el(v)):
                _fail(op, f"operand #{i} must be ranked tensor of {kind.replace('_', ' ')} "
                          f"values, but got '{v.type}'")
    if name == "is_finite" and op.results and _el(op.results[0]) != "i1":
        _fail(op, f"result #0 must be ranked tensor of bool values, but got '{op.results[0].type}'")
    if name in _SAME_TYPE:
        els = {_el(v) for v in tensors}
        if len(els) > 1 and not any(_quant(e) for e in els):
            _fail(op, "requires the same element type for all operands and results")


def _per_axis_check(op):
    for i, v in enumerate(list(op.operands) + list(op.results)):
        if _per_axis(_el(v)):
            what = f"operand #{i}" if i < len(op.operands) else f"result #{i - len(op.operands)}"
            _fail(op, f"{what} must be ranked tensor of per-tensor quantized or non-quantized "
                      f"values, but got '{v.type}'")


# -- shape rules ---------------------------------------------------------------------
def _broadcast_in_dim(op):
    if op.name == _S + "broadcast_in_dim":
        _single_bounded(op)
    xs, rs = _shape(op.operands[0]), _shape(op.results[0])
    dims = _attr_ints(op, "broadcast_dimensions")
    if xs is None or rs is None:
        return
    if _el(op.operands[0]) != _el(op.results[0]) and not _quant(_el(op.results[0])):
        _fail(op, "expects operand and result to have compatible element type")
    if len(dims) != len(xs):
        _fail(op, f"broadcast_dimensions size ({len(dims)}) does not match operand rank ({len(xs)})")
    _in_range(op, "broadcast_dimensions", dims, len(rs))
    for i, d in enumerate(dims):
        if xs[i] is not None and rs[d] is not None and xs[i] not in (1, rs[d]):
            _fail(op, f"size of operand dimension {i} ({xs[i]}) is not equal to 1 or size of "
                      f"result dimension {d} ({rs[d]})")


def _transpose(op):
    xs = _shape(op.operands[0])
    perm = _attr_ints(op, "permutation")
    if xs is None:
        return
    if sorted(perm) != list(range(len(xs))):
        _fail(op, f"permutation {list(perm)} is not a permutation of the operand dimensions")
    _expect_result(op, [xs[p] for p in perm])


def _reverse(op):
    xs = _shape(op.operands[0])
    if xs is not None:
        _in_range(op, "dimensions", _attr_ints(op, "dimensions"), len(xs))
        _expect_result(op, xs)


def _concatenate(op):
    shapes = [_shape(v) for v in op.operands]
    if not shapes:
        _fail(op, "expected 1 or more operands, but found 0")
    if any(s is None for s in shapes):
        return
    dim = _attr_ints(op, "dimension", (0,))[0]
    rank = len(shapes[0])
    if not 0 <= dim < rank:
        _fail(op, f"dimension {dim} is out-of-bounds for input rank {rank}")
    out = list(shapes[0])
    for i, s in enumerate(shapes[1:], start=1):
        if len(s) != rank:
            _fail(op, f"operands (0) and ({i}) do not match rank")
        for k in range(rank):
            if k != dim and not _compat(out[k], s[k]):
                _fail(op, f"shapes of operand (0) and ({i}) are not compatible at non-concat "
                          f"index {k}")
            if k != dim and out[k] is None:
                out[k] = s[k]
        out[dim] = None if out[dim] is None or s[dim] is None else out[dim] + s[dim]
    _expect_result(op, out)


def _slice(op):
    xs = _shape(op.operands[0])
    if xs is None:
        return
    start, limit = _attr_ints(op, "start_indices"), _attr_ints(op, "limit_indices")
    strides = _attr_ints(op, "strides", (1,) * len(xs))
    if not len(start) == len(limit) == len(strides) == len(xs):
        _fail(op, f"the number of elements in start_indices ({len(start)}), limit_indices "
                  f"({len(limit)}) and strides ({len(strides)}) must match the operand rank {len(xs)}")
    out = []
    for k, (a, b, s, d) in enumerate(zip(start, limit, strides, xs)):
        if a < 0 or s <= 0 or b < a or (d is not None and b > d):
            _fail(op, f"invalid slice [{a}:{b}:{s}] of dimension {k} (size {d})")
        out.append(-(-(b - a) // s))
    _expect_result(op, out)


def _pad(op):
    xs = _shape(op.operands[0])
    if xs is None:
        return
    lo, hi = _attr_ints(op, "edge_padding_low"), _attr_ints(op, "edge_padding_high")
    interior = _attr_ints(op, "interior_padding")
    if _shape(op.operands[1]) not in (None, ()):
        _fail(op, f"padding value type should be a rank-0 tensor, is rank {len(_shape(op.operands[1]))}")
    if not len(lo) == len(hi) == len(interior) == len(xs):
        _fail(op, f"edge_padding_low, edge_padding_high and interior_padding must have "
                  f"{len(xs)} elements (the operand rank)")
    if any(i < 0 for i in interior):
        _fail(op, "Interior padding cannot be negative")
    out = []
    for d, a, b, i in zip(xs, lo, hi, interior):
        n = None if d is None else a + b + d + max(d - 1, 0) * i
        if n is not None and n < 0:
            _fail(op, f"Padding result in negative size for dimension {len(out)}")
        out.append(n)
    _expect_result(op, out)


def _same_index_type(op, indices):
    """The start indices of dynamic_slice / dynamic_update_slice share one type."""
    if len({_el(v) for v in indices}) > 1:
        _fail(op, "start indices must have same element type (failed to infer returned types)")


def _dynamic_slice(op):
    xs = _shape(op.operands[0])
    if xs is None:
        return
    _same_index_type(op, op.operands[1:])
    sizes = _attr_ints(op, "slice_sizes")
    if len(op.operands) - 1 != len(xs):
        _fail(op, f"has mismatched number of start indices ({len(op.operands) - 1}) and the "
                  f"rank of operand ({len(xs)})")
    for i, v in enumerate(op.operands[1:], start=1):
        if _shape(v) not in (None, ()):
            _fail(op, f"start indices must be 0-dimensional tensors (operand #{i})")
    if len(sizes) != len(xs):
        _fail(op, f"has mismatched number of slice sizes ({len(sizes)}) and the rank of operand "
                  f"({len(xs)})")
    for k, (s, d) in enumerate(zip(sizes, xs)):
        if s < 0 or (d is not None and s > d):
            _fail(op, f"has slice size {s} of dimension {k} out of the bounds of the operand ({d})")
    _expect_result(op, sizes)


def _dynamic_update_slice(op):
    xs, us = _shape(op.operands[0]), _shape(op.operands[1])
    if xs is None or us is None:
        return
    if len(us) != len(xs):
        _fail(op, f"update rank ({len(us)}) does not match operand rank ({len(xs)})")
    if len(op.operands) - 2 != len(xs):
        _fail(op, f"expects number of start_indices ({len(op.operands) - 2}) to match the rank "
                  f"of operand ({len(xs)})")
    _same_index_type(op, op.operands[2:])
    for k, (u, d) in enumerate(zip(us, xs)):
        if u is not None and d is not None and u > d:
            _fail(op, f"expects size at dimension {k} of update to be in range [0, {d}], got {u}")
    _expect_result(op, xs)


def _iota(op):
    rs = _shape(op.results[0])
    d = _attr_ints(op, "iota_dimension", (0,))[0]
    if rs is not None and not 0 <= d < max(len(rs), 1):
        _fail(op, "iota dimension cannot go beyond the output rank")


def _single_bounded(op):
    """broadcast_in_dim / reshape (StablehloOps.td): the result is statically
    shaped or has one dynamic dimension, and that one bounded."""
    r = op.results[0].type if op.results else None
    if not isinstance(r, TensorType) or r.is_static:
        return
    bounds = _bounds(r) or ()
    dynamic = [k for k, d in enumerate(r.shape) if d is None]
    if len(dynamic) != 1 or len(bounds) != r.rank or bounds[dynamic[0]] is None:
        _fail(op, f"result #0 must be statically shaped or single bounded dimension tensor, but got '{r}'")


def _reshape(op):
    _single_bounded(op)
    xs, rs = _shape(op.operands[0]), _shape(op.results[0])
    if xs is None or rs is None or None in xs or None in rs:
        return
    n = m = 1
    for d in xs:
        n *= d
    for d in rs:
        m *= d
    if n != m:
        _fail(op, f"number of output elements ({m}) doesn't match expected number of elements ({n})")


def _get_dimension_size(op):
    xs = _shape(op.operands[0])
    d = _attr_ints(op, "dimension", (0,))[0]
    if xs is not None and not 0 <= d < len(xs):
        _fail(op, f"requires dimension attribute in range [0, {len(xs)}); found ({d})")


def _select(op):
    ps, ts, fs = (_shape(v) for v in op.operands[:3])
    if ts is None or fs is None:
        return
    if not _compat_shapes(ts, fs):
        _fail(op, "requires compatible types for non-predicate operands")
    if ps not in (None, ()) and not _compat_shapes(ps, ts):
        _fail(op, "requires the same shape for all operands")
    if _el(op.operands[0]) != "i1":
        _fail(op, f"operand #0 must be ranked tensor of bool values, but got '{op.operands[0].type}'")
    _expect_result(op, ts)
    el, rel = _el(op.operands[1]), _el(op.results[0])
    if rel and el != rel and not (_quant(el) or _quant(rel)):
        _fail(op, f"inferred type(s) '{op.operands[1].type}' are incompatible with return type(s) of "
                  f"operation '{op.results[0].type}' (failed to infer returned types)")


def _clamp(op):
    ms, xs, Ms = (_shape(v) for v in op.operands[:3])
    if xs is None:
        return
    for name, s in (("min", ms), ("max", Ms)):
        if s not in (None, ()) and not _compat_shapes(s, xs):
            _fail(op, f"{name} shape {list(s)} is not scalar and is not compatible to operand "
                      f"shape {list(xs)}")
    _expect_result(op, xs)


def _component(el: str) -> str:
    """The real element type of ``complex<T>`` (T), or ``el`` itself."""
    return el[len("complex<"):-1] if is_complex(el) else el


def _abs(op):
    """abs: complex<T> -> T, otherwise the operand's element type."""
    x, r = op.operands[0], op.results[0]
    want = _component(_el(x))
    if isinstance(r.type, TensorType) and _el(r) != want and not (_quant(want) or _quant(_el(r))):
        _fail(op, f"inferred type(s) '{TensorType(_shape(x), want)}' are incompatible with return "
                  f"type(s) of operation '{r.type}' (failed to infer returned types)")


def _real_imag(op):
    """real / imag: the result holds the operand's component type."""
    x, r = op.operands[0], op.results[0]
    want = _component(_el(x))
    if isinstance(r.type, TensorType) and _el(r) != want:
        _fail(op, f"inferred type(s) '{TensorType(_shape(x), want)}' are incompatible with return "
                  f"type(s) of operation '{r.type}' (failed to infer returned types)")


def _get_tuple_element(op):
    from .types import TupleType
    t = op.operands[0].type
    index = _attr_ints(op, "index", (0,))[0]
    if not isinstance(t, TupleType):
        return
    if index >= len(t.types):
        _fail(op, f"index {index} is out of bounds of operand with size {len(t.types)} "
                  f"(failed to infer returned types)")
    if op.results and op.results[0].type != t.types[index]:
        _fail(op, f"inferred type(s) '{t.types[index]}' are incompatible with return type(s) of "
                  f"operation '{op.results[0].type}'")


def _fft(op):
    xs = _shape(op.operands[0])
    if xs is None:
        return
    n = _attr_ints(op, "fft_length")
    kind = getattr(op.attributes.get("fft_type"), "value", "FFT")
    if not 1 <= len(n) <= 3:
        _fail(op, f"fft_length must contain 1 to 3 elements, got {len(n)}")
    if len(xs) < len(n):
        _fail(op, f"operand rank must not be less than fft rank of {len(n)} for operand of type "
                  f"{op.operands[0].type}")
    x_el, r_el = _el(op.operands[0]), _el(op.results[0])
    if kind in ("FFT", "IFFT"):
        if not is_complex(x_el):
            _fail(op, f"{kind} takes a complex tensor as input, but is given {op.operands[0].type}")
        _expect_result(op, xs)
        return
    tail = xs[len(xs) - len(n):]
    if kind == "RFFT":
        if x_el not in ("f32", "f64"):
            _fail(op, f"RFFT requires f32 or f64 input type, but is given '{x_el}'.")
        for a, b in zip(tail, n):
            if a is not None and a != b:
                _fail(op, f"RFFT requires innermost dimensions match fft_length. Got: "
                          f"{list(tail)} but wanted {list(n)}")
        if r_el and not is_complex(r_el):
            _fail(op, "RFFT produces a complex tensor")
        _expect_result(op, list(xs[:-1]) + [n[-1] // 2 + 1])
        return
    if not is_complex(x_el):                       # IRFFT
        _fail(op, f"IRFFT takes a complex tensor as input, but is given {op.operands[0].type}")
    if r_el and r_el != _component(x_el):
        _fail(op, f"IRFFT produces a '{_component(x_el)}' tensor, but the result is '{op.results[0].type}'")
    want = list(n[:-1]) + [n[-1] // 2 + 1]
    for a, b in zip(tail, want):
        if a is not None and a != b:
            _fail(op, f"IRFFT requires non-final dimensions match fft_length and final "
                      f"dimension match fft_length[-1] / 2 + 1. Got: {list(tail)} but wanted {want}")
    _expect_result(op, list(xs[:len(xs) - len(n)]) + list(n))


def _gather_dims(op):
    a = op.attributes.get("dimension_numbers")
    f = a.fields if isinstance(a, StructAttr) else {}
    g = {k: tuple(f.get(k, ())) for k in ("offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                          "start_indices_batching_dims", "start_index_map")}
    g["index_vector_dim"] = f.get("index_vector_dim", 0)
    return g


def _gather(op):
    xs, ix = _shape(op.operands[0]), _shape(op.operands[1])
    if xs is None or ix is None:
        return
    g = _gather_dims(op)
    if op.name == _S + "gather":
        sizes = _attr_ints(op, "slice_sizes")
    else:
        src = op.operands[2].defining_op
        value = src.attributes.get("value") if src is not None and src.name == _S + "constant" else None
        sizes = ints(value) if isinstance(value, DenseElementsAttr) else None
    ivd = g["index_vector_dim"]
    if not 0 <= ivd <= len(ix):
        _fail(op, f"index_vector_dim {ivd} is out of bounds for start indices with rank {len(ix)}")
    offs, coll, obatch = g["offset_dims"], g["collapsed_slice_dims"], g["operand_batching_dims"]
    if list(offs) != sorted(set(offs)):
        _fail(op, "expects offset_dims to be sorted and not to have duplicates")
    if list(coll) != sorted(set(coll)):
        _fail(op, "expects collapsed_slice_dims to be sorted and not to have duplicates")
    if list(obatch) != sorted(obatch):
        _fail(op, f"expects operand_batching_dims to be sorted, got: {list(obatch)}")
    _in_range(op, "collapsed_slice_dims", coll, len(xs))
    _in_range(op, "operand_batching_dims", obatch, len(xs))
    if set(coll) & set(obatch):
        _fail(op, "has overlapping collapsed_slice_dims and operand_batching_dims")
    _in_range(op, "start_indices_batching_dims", g["start_indices_batching_dims"], len(ix))
    if ivd in g["start_indices_batching_dims"]:
        _fail(op, "expects start_indices_batching_dims not to contain index_vector_dim")
    if len(obatch) != len(g["start_indices_batching_dims"]):
        _fail(op, "operand_batching_dims and start_indices_batching_dims must have the same size")
    for k, (a, b) in enumerate(zip(obatch, g["start_indices_batching_dims"])):
        if not _compat(xs[a], ix[b]):
            _fail(op, f"operand_batching_dims[{k}] and start_indices_batching_dims[{k}] must have "
                      f"compatible sizes, but got {xs[a]} and {ix[b]}")
    _in_range(op, "start_index_map", g["start_index_map"], len(xs))
    if set(g["start_index_map"]) & set(obatch):
        _fail(op, "has overlapping start_index_map and operand_batching_dims")
    index_size = ix[ivd] if ivd < len(ix) else 1
    if index_size is not None and len(g["start_index_map"]) != index_size:
        _fail(op, f"start_index_map size ({len(g['start_index_map'])}) is not equal to size of "
                  f"index dimension ({ivd}) of start_indices ({index_size})")
    if sizes is None:       # dynamic_gather with slice sizes known only at run time: their count
        count = (_shape(op.operands[2]) or (None,))[0] if len(op.operands) > 2 else None
        if count is None:
            return
        sizes = (None,) * count
    if len(sizes) != len(xs):
        _fail(op, f"slice_sizes size ({len(sizes)}) not equal to (implied) operand rank ({len(xs)})")
    for k, (s, d) in enumerate(zip(sizes, xs)):
        if s is not None and (s < 0 or (d is not None and s > d)):
            _fail(op, f"slice size ({s}) is out of bounds for operand dimension ({d}) at index {k}")
    for k in tuple(coll) + tuple(obatch):
        if sizes[k] is not None and sizes[k] > 1:
            _fail(op, f"slice_sizes collapsed dimension {k} should <= 1 but got {sizes[k]}")
    window = [s for k, s in enumerate(sizes) if k not in coll and k not in obatch]
    if len(window) != len(offs):
        _fail(op, f"offset_dims size ({len(offs)}) plus collapse_slice_dims size ({len(coll)}) "
                  f"plus operand_batching_dims size ({len(obatch)}) is not equal to operand rank "
                  f"({len(xs)})")
    batch = [d for k, d in enumerate(ix) if k != ivd]
    rank = len(batch) + len(offs)
    _in_range(op, "offset_dims", offs, rank)
    out, bi, wi = [], iter(batch), iter(window)
    for k in range(rank):
        out.append(next(wi) if k in offs else next(bi))
    _expect_result(op, out)


def _dot_general(op):
    ls, rs = _shape(op.operands[0]), _shape(op.operands[1])
    a = op.attributes.get("dot_dimension_numbers")
    if ls is None or rs is None or not isinstance(a, StructAttr):
        return
    f = a.fields
    lb, rb = tuple(f.get("lhs_batching_dimensions", ())), tuple(f.get("rhs_batching_dimensions", ()))
    lc, rc = tuple(f.get("lhs_contracting_dimensions", ())), tuple(f.get("rhs_contracting_dimensions", ()))
    if len(lb) != len(rb):
        _fail(op, "lhs and rhs should have the same number of batching dimensions")
    if len(lc) != len(rc):
        _fail(op, "lhs and rhs should have the same number of contracting dimensions")
    for what, dims, rank in (("lhs_batching_dimensions", lb, len(ls)), ("rhs_batching_dimensions", rb, len(rs)),
                             ("lhs_contracting_dimensions", lc, len(ls)),
                             ("rhs_contracting_dimensions", rc, len(rs))):
        _in_range(op, what, dims, rank)
    if set(lb) & set(lc) or set(rb) & set(rc):
        _fail(op, "has duplicated dimension from batching and contracting dimensions")
    for x, y in list(zip(lb, rb)) + list(zip(lc, rc)):
        if not _compat(ls[x], rs[y]):
            _fail(op, f"lhs dimension {x} ({ls[x]}) and rhs dimension {y} ({rs[y]}) should match")
    pc = op.attributes.get("precision_config")
    if pc is not None and len(getattr(pc, "elements", ())) > 2:
        _fail(op, "expects precision config to be empty or have <= 2 elements.")
    out = [ls[d] for d in lb] + [d for k, d in enumerate(ls) if k not in lb and k not in lc] \
        + [d for k, d in enumerate(rs) if k not in rb and k not in rc]
    _expect_result(op, out)


def _scatter(op):
    """Bounds of scatter's updates: window dims within the operand's, scatter
    dims equal to the indices' batch dims (dimension numbers: verifier.py)."""
    n = len(op.results)
    a = op.attributes.get("scatter_dimension_numbers")
    if not n or len(op.operands) != 2 * n + 1 or not isinstance(a, StructAttr):
        return
    xs, ix, us = _shape(op.operands[0]), _shape(op.operands[n]), _shape(op.operands[n + 1])
    if xs is None or ix is None or us is None:
        return
    f = a.fields
    uwd = tuple(f.get("update_window_dims", ()))
    if list(uwd) != sorted(set(uwd)) or any(not 0 <= d < len(us) for d in uwd):
        return                  # verifier.py reports the dimension numbers first
    skip = set(f.get("inserted_window_dims", ())) | set(f.get("input_batching_dims", ()))
    ivd = f.get("index_vector_dim", 0)
    window = [d for k, d in enumerate(xs) if k not in skip]
    for k, d in enumerate(uwd):
        if k < len(window) and 0 <= d < len(us) and us[d] is not None and window[k] is not None \
                and us[d] > window[k]:
            _fail(op, f"expects bounds of the window dimensions of updates to not exceed the bounds "
                      f"of the corresponding dimensions of operand. For dimension {d}, updates bound "
                      f"is {us[d]}, operand bound is {window[k]}.")
    scatter = [d for k, d in enumerate(us) if k not in uwd]
    batch = [d for k, d in enumerate(ix) if k != ivd]
    if len(scatter) == len(batch):
        for k, (u, i) in enumerate(zip(scatter, batch)):
            if not _compat(u, i):
                _fail(op, f"expects bounds of the scatter dimensions of updates to be same as the "
                          f"bounds of the corresponding dimensions of scatter indices. For scatter "
                          f"dimension {k}, updates bound is {u}, scatter_indices bound is {i}.")


def _reduce(op):
    n = len(op.operands) // 2
    shapes = [_shape(v) for v in op.operands[:n]]
    if not n or any(s is None for s in shapes):
        return
    for i, s in enumerate(shapes[1:], start=1):
        if not _compat_shapes(shapes[0], s):
            _fail(op, f"expects all inputs to have compatible shapes. Shape at input-index {i} is "
                      f"not compatible with shape at input-index 0")
    dims = _attr_ints(op, "dimensions")
    _in_range(op, "dimensions", dims, len(shapes[0]))
    if op.regions and op.regions[0].blocks:
        args = op.regions[0].blocks[0].arguments
        if len(args) != 2 * n:
            _fail(op, f"Reduction-region must take {2 * n} parameters, but takes {len(args)} parameter(s)")
        term = op.regions[0].blocks[0].terminator
        if term is not None and len(term.operands) != n:
            _fail(op, f"Reduction-region here must produce {n} tensors, but produces "
                      f"{len(term.operands)} instead")
    out = [d for k, d in enumerate(shapes[0]) if k not in dims]
    for i in range(min(n, len(op.results))):
        _expect_result(op, out, i)


def _window(op, rank, prefix="window_dimensions"):
    """Window attributes of reduce_window / select_and_scatter: sizes and positivity."""
    win = _attr_ints(op, prefix)
    if len(win) != rank:
        _fail(op, f"expects window-dimensions size == input rank, but got window-dimensions size: "
                  f"{len(win)} and input: {rank}")
    out = []
    for key, label in (("window_strides", "stride"), ("base_dilations", "base dilation factor"),
                       ("window_dilations", "window dilation factor")):
        vals = _attr_ints(op, key, (1,) * rank)
        if len(vals) != rank:
            _fail(op, f"expects {key.replace('_', '-')} to have same dimension-size as size of "
                      f"window dimensions ({rank}), but got: {len(vals)}.")
        for k, v in enumerate(vals):
            if v <= 0:
                _fail(op, f"expects window to have positive {label} for {k}-th window dimension, "
                          f"but got {v}.")
        out.append(vals)
    for k, v in enumerate(win):
        if v <= 0:
            _fail(op, f"expects window to have positive value for {k}-th window dimension, but got {v}.")
    pad = op.attributes.get("padding")
    pads = [(0, 0)] * rank
    if isinstance(pad, DenseElementsAttr):
        shape = tuple(pad.array.shape)
        if shape != (rank, 2) and not (rank == 0 and pad.array.size == 0):
            _fail(op, f"expects padding-entries to have same dimension-size as size of window "
                      f"dimensions ({rank}), but got: {shape[0] if shape else 0}.")
        pads = [tuple(int(x) for x in row) for row in pad.array.reshape(-1, 2)] if rank else []
    return win, out[0], out[1], out[2], pads


def _window_output(xs, win, strides, base, wdil, pads):
    out = []
    for d, w, s, b, wd, (lo, hi) in zip(xs, win, strides, base, wdil, pads):
        if d is None:
            out.append(None)
            continue
        dilated = (d - 1) * b + 1 if d else 0
        padded = dilated + lo + hi
        eff = (w - 1) * wd + 1
        out.append(max(0, (padded - eff) // s + 1) if padded >= eff else 0)
    return out


def _reduce_window(op):
    n = len(op.operands) // 2
    shapes = [_shape(v) for v in op.operands[:n]]
    if not n or any(s is None for s in shapes):
        return
    win, strides, base, wdil, pads = _window(op, len(shapes[0]))
    for i, s in enumerate(shapes[1:], start=1):
        if not _compat_shapes(shapes[0], s):
            _fail(op, f"expects all inputs to have compatible shapes. Shape at input-index {i} is "
                      f"not compatible with shape at input-index 0")
    out = _window_output(shapes[0], win, strides, base, wdil, pads)
    for i in range(min(n, len(op.results))):
        _expect_result(op, out, i)


def _select_and_scatter(op):
    xs, ss = _shape(op.operands[0]), _shape(op.operands[1])
    if xs is None or ss is None:
        return
    rank = len(xs)
    if _el(op.operands[1]) != _el(op.operands[0]) and not _quant(_el(op.operands[0])):
        want = TensorType(ss, _el(op.operands[0]))
        _fail(op, f"expects source-type to be '{want}', but got '{op.operands[1].type}'")
    win = _attr_ints(op, "window_dimensions")
    if len(win) != rank:
        _fail(op, f"expects window-dimensions size == operand rank, but got window-dimensions size: "
                  f"{len(win)} and operand-type: '{op.operands[0].type}' with rank = {rank}.")
    strides = _attr_ints(op, "window_strides", (1,) * rank)
    if len(win) != rank or len(strides) != rank:
        _fail(op, f"window_dimensions and window_strides must have {rank} elements (the operand rank)")
    for k, (w, s) in enumerate(zip(win, strides)):
        if w <= 0 or s <= 0:
            _fail(op, f"expects window to have positive value for {k}-th window dimension")
    pad = op.attributes.get("padding")
    pads = [(0, 0)] * rank
    if isinstance(pad, DenseElementsAttr):
        if tuple(pad.array.shape) != (rank, 2):
            _fail(op, f"expects the shape of padding-attribute to be {{{rank}, 2}}, but got "
                      f"{{{', '.join(map(str, pad.array.shape))}}}.")
        pads = [tuple(int(x) for x in row) for row in pad.array.reshape(-1, 2)]
    want = _window_output(xs, win, strides, (1,) * rank, (1,) * rank, pads)
    if not _compat_shapes(ss, tuple(want)):
        _fail(op, f"expects source-type to be {list(want)}, but got {op.operands[1].type}")
    if _shape(op.operands[2]) not in (None, ()):
        _fail(op, "init value must be a 0-dimensional tensor")
    _expect_result(op, xs)


def _convolution(op):
    xs, ks = _shape(op.operands[0]), _shape(op.operands[1])
    a = op.attributes.get("dimension_numbers")
    if xs is None or ks is None or not isinstance(a, StructAttr):
        return
    f = a.fields
    if len(xs) != len(ks):
        _fail(op, f"expects convolution arguments to have same number of dimensions. Got: "
                  f"{op.operands[0].type} and {op.operands[1].type}.")
    n = len(xs)
    ins = (f.get("input_batch_dimension"), f.get("input_feature_dimension")) + tuple(f.get("input_spatial_dimensions", ()))
    kern = (f.get("kernel_input_feature_dimension"), f.get("kernel_output_feature_dimension")) + \
        tuple(f.get("kernel_spatial_dimensions", ()))
    outs = (f.get("output_batch_dimension"), f.get("output_feature_dimension")) + \
        tuple(f.get("output_spatial_dimensions", ()))
    if None in ins + kern + outs:
        return
    spatial = len(ins) - 2
    if not len(kern) - 2 == len(outs) - 2 == spatial:
        _fail(op, f"expects the same size for input, kernel and output spatial-dimensions, but got "
                  f"{spatial}, {len(kern) - 2}, and {len(outs) - 2} resp.")
    for what, dims in (("input", ins), ("kernel", kern), ("output", outs)):
        if len(dims) != n or any(not 0 <= d < n for d in dims) or len(set(dims)) != len(dims):
            _fail(op, f"expects input, kernel, and output dimension-numbers to be in-range [0, {n}) "
                      f"and unique ({what})")
    for key in ("window_strides", "lhs_dilation", "rhs_dilation"):
        vals = _attr_ints(op, key, (1,) * spatial)
        if len(vals) != spatial:
            _fail(op, f"expects {key} to have {spatial} elements (the spatial rank), got {len(vals)}")
        if any(v <= 0 for v in vals):
            _fail(op, f"expects {key} to be positive, got {list(vals)}")
    fgc = _attr_ints(op, "feature_group_count", (1,))[0]
    bgc = _attr_ints(op, "batch_group_count", (1,))[0]
    if fgc > 1 and bgc > 1:
        _fail(op, "expects batch_group_count and feature_group_count not to be both greater than 1")
    for k, d in enumerate(kern[2:]):
        if ks[d] == 0:
            _fail(op, f"expects window to have positive value for {k}-th window dimension, but got 0.")
    in_f, k_in, k_out = xs[ins[1]], ks[kern[0]], ks[kern[1]]
    if in_f is not None and k_in is not None and in_f != k_in * fgc:
        _fail(op, f"expects input feature dimension ({in_f}) / feature_group_count = kernel input "
                  f"feature dimension ({k_in}). Got feature_group_count = {fgc}.")
    if k_out is not None and (k_out % fgc or k_out % bgc):
        _fail(op, f"expects output feature dimension size ({k_out}) to be a multiple of "
                  f"feature_group_count and batch_group_count")


def _while(op):
    types = [v.type for v in op.operands]
    if not _compat_types((r.type for r in op.results), types):
        _fail(op, "expects the result types to match the operand types")
    for i, region in enumerate(op.regions[:2]):
        if not region.blocks:
            continue
        block = region.blocks[0]
        if not _compat_types((a.type for a in block.arguments), types):
            _fail(op, f"expect operands to be compatible with {('condition', 'body')[i]} block "
                      f"arguments")
        term = block.terminator
        if term is None:
            continue
        got = [v.type for v in term.operands]
        if i == 0 and (len(got) != 1 or got[0] != TensorType((), "i1")):
            _fail(op, "expect condition block return a zero-ranked tensor of i1")
        if i == 1 and not _compat_types(got, types):
            _fail(op, "expect operands to be compatible with body block return types")


def _branches(op):
    want = [r.type for r in op.results]
    if op.name == _S + "case" and not op.regions:
        _fail(op, "expect at least one branch (failed to infer returned types)")
    pred = op.operands[0] if op.operands else None
    if pred is not None:
        el = "i1" if op.name == _S + "if" else "i32"
        if pred.type != TensorType((), el):
            _fail(op, f"operand should be a rank-0 tensor of {el}, got {pred.type}")
    for i, region in enumerate(op.regions):
        if not region.blocks:
            continue
        block = region.blocks[0]
        if block.arguments:
            _fail(op, f"expect branch {i} to have no arguments")
        term = block.terminator
        if term is not None and not _compat_types((v.type for v in term.operands), want):
            _fail(op, f"branch {i} returns {[str(v.type) for v in term.operands]}, the op's results "
                      f"are {[str(t) for t in want]}")


def _sort(op):
    shapes = [_shape(v) for v in op.operands]
    if not shapes or any(s is None for s in shapes):
        return
    for s in shapes[1:]:
        if not _compat_shapes(shapes[0], s):
            _fail(op, "requires the same shape for all operands")
    d = _attr_ints(op, "dimension", (-1,))[0]
    rank = len(shapes[0])
    if not -rank <= d < max(rank, 1):
        _fail(op, f"dimension attribute value must be in range [-{rank}, {rank}), but found {d}")
    if op.regions and op.regions[0].blocks:
        args = op.regions[0].blocks[0].arguments
        if len(args) != 2 * len(shapes):
            _fail(op, f"comparator block should have {2 * len(shapes)} arguments")
        for k, a in enumerate(args):
            want = TensorType((), _el(op.operands[k // 2]))
            if isinstance(a.type, TensorType) and not _quant(want.element) and a.type != want:
                _fail(op, f"comparator block argument #{k} should be of type '{want}' but got '{a.type}'")
        term = op.regions[0].blocks[0].terminator
        if term is not None and [v.type for v in term.operands] != [TensorType((), "i1")]:
            _fail(op, "comparator must return a tensor<i1>")


def _triangular_solve(op):
    a, b = _shape(op.operands[0]), _shape(op.operands[1])
    option = getattr(op.attributes.get("transpose_a"), "value", "NO_TRANSPOSE")
    if option not in ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"):
        _fail(op, f"Invalid transpose option value for triangular solve: {option} "
                  f"(failed to infer returned types)")
    if a is None or b is None:
        return
    if len(a) < 2:
        _fail(op, f"operand 'a' must have rank >= 2, but got {op.operands[0].type}")
    if not _compat(a[-1], a[-2]):
        _fail(op, f"two minor dimensions of operand 'a' must have equal size, but got "
                  f"{op.operands[0].type}")
    if len(b) != len(a):
        _fail(op, f"operands must have equal rank, but got {op.operands[0].type} and {op.operands[1].type}")
    left = bool(getattr(op.attributes.get("left_side"), "value", False))
    k = b[-2] if left else b[-1]
    if not _compat(k, a[-1]):
        _fail(op, f"shared dimension of operands 'a' and 'b' does not match, but got "
                  f"{op.operands[0].type} and {op.operands[1].type}")
    if not _compat_shapes(a[:-2], b[:-2]):
        _fail(op, f"batch dimensions of the operands must match, but got {op.operands[0].type} and "
                  f"{op.operands[1].type}")
    _expect_result(op, b)


def _cholesky(op):
    a = _shape(op.operands[0])
    if a is None:
        return
    if len(a) < 2:
        _fail(op, f"argument 'a' must have rank >= 2, got shape {list(a)}")
    if not _compat(a[-1], a[-2]):
        _fail(op, f"minor dimensions of 'a' must have equal size, got shape {list(a)}")
    _expect_result(op, a)


def _batch_norm(op):
    xs = _shape(op.operands[0])
    if xs is None:
        return
    fi = _attr_ints(op, "feature_index", (0,))[0]
    if not 0 <= fi < len(xs):
        _fail(op, f"expects feature_index to be smaller than the rank of operand type; got "
                  f"feature_index {fi}, and rank {len(xs)}.")
    vectors = op.operands[1:4] if op.name == _S + "batch_norm_grad" else op.operands[1:]
    if op.name == _S + "batch_norm_grad" and len(op.operands) > 4 and \
            _shape(op.operands[4]) is not None and not _compat_shapes(xs, _shape(op.operands[4])):
        _fail(op, "expects multi-dimensional operands to have compatible shapes "
                  "(failed to infer returned types)")
    for v in vectors:
        s = _shape(v)
        if s is not None and (len(s) != 1 or not _compat(s[0], xs[fi])):
            _fail(op, f"expects the size of scale/offset/mean/variance ({v.type}) to equal the "
                      f"feature dimension of the operand ({xs[fi]})")
    _expect_result(op, xs)


# -- regions and collectives ---------------------------------------------------------
def _promotable(src: str, dst: str) -> bool:
    """Whether a reduction may accumulate ``src`` elements in ``dst`` (same kind, not narrower)."""
    if src == dst:
        return True
    if _quant(src) or _quant(dst):
        qs, qd = _quant_params(src), _quant_params(dst)
        if qs is None or qd is None:       # quantized and not: never; forms we do not read: allowed
            return _quant(src) and _quant(dst) and (qs is None or qd is None)
        return qs[3] == qd[3] and _promotable(qs[0].lstrip("s"), qd[0].lstrip("s"))
    from .types import bit_width
    for kind in (is_float, is_complex):
        if kind(src) and kind(dst):
            return bit_width(dst) >= bit_width(src)
    if is_integer(src) and is_integer(dst) and src.startswith("ui") == dst.startswith("ui"):
        return bit_width(dst) >= bit_width(src)
    return False


def _reduction_region(op, region, inputs, inits, allowed=None):
    """The body of a reduction (reduce, reduce_window, scatter, all_reduce,
    reduce_scatter, select_and_scatter): 2N arguments, N tensor results typed
    like the accumulator arguments, shaped like the init values, element types
    promotable from the init values' and the inputs'.  ``allowed``: the dims
    the argument shapes must be a subsequence of (None: not checked)."""
    if not region.blocks:
        return
    block, n = region.blocks[0], len(inputs)
    args = block.arguments
    if len(args) != 2 * n:
        _fail(op, f"Reduction-region must take {2 * n} parameters, but takes {len(args)} parameter(s)")
    term = block.terminator
    rets = list(term.operands) if term is not None else []
    if not rets:
        _fail(op, "The reduction-region expected to return some value(s)")
    if len(rets) != n:
        _fail(op, f"Reduction-region here must produce {n} tensors, but produces {len(rets)} instead")
    for i, r in enumerate(rets):
        if not isinstance(r.type, TensorType):
            _fail(op, f"Reduction-region here must produce tensor-typed result(s), but produces "
                      f"'{r.type}' instead")
    for i, r in enumerate(rets):
        for k in (i, n + i):
            if not _compat_type(args[k].type, r.type):
                _fail(op, f"The type of reduction-region's parameter at index {k} is different than "
                          f"the corresponding result type: '{args[k].type}' vs '{r.type}'")
        init = inits[i] if inits is not None else TensorType((), _el(r))
        if not _compat_shapes(_shape(r), init.shape):
            _fail(op, f"The shape of reduction-region's result type at index {i} differs from the op's "
                      f"corresponding init-value type: '{r.type}' vs '{init}'")
        if inits is not None and not _promotable(init.element, _el(r)):
            _fail(op, f"The element-type of reduction-region's result type at index {i} is expected "
                      f"to be promotable from the op's corresponding init-value element-type: "
                      f"'{r.type}' vs '{init}'")
        arg = args[n + i]
        if not _promotable(_el(inputs[i]), _el(arg)):
            _fail(op, f"The element-type of reduction-region's argument at index {n + i} is expected "
                      f"to be promotable from '{_el(inputs[i])}', but got '{_el(arg)}'")
        shape = _shape(arg)
        if allowed is not None and shape is not None:
            if len(shape) > len(allowed):
                _fail(op, f"The rank of reduction-region's argument at index {n + i} is expected to "
                          f"be <= {len(allowed)}, got {len(shape)}")
            k = 0
            for d in allowed:
                if k < len(shape) and _compat(d, shape[k]):
                    k += 1
            if k != len(shape):
                _fail(op, f"The shape of reduction-region's argument at index {n + i} is not "
                          f"compatible with that of reduce-op's input-parameter at index {i}")


def _reduce_regions(op):
    if op.name == _S + "select_and_scatter":
        src, init = op.operands[1], op.operands[2]
        if len(op.regions) == 2:
            _select_region(op, op.regions[0], op.operands[0])
            _reduction_region(op, op.regions[1], [src], [init.type])
        return
    allowed = None
    if op.name in (_S + "reduce", _S + "reduce_window"):
        n = len(op.operands) // 2
        if not n:
            _fail(op, "requires at least 1 input value")
        inputs, inits = op.operands[:n], [v.type for v in op.operands[n:]]
        xs = _shape(inputs[0])
        if op.name == _S + "reduce_window":
            allowed = tuple(_attr_ints(op, "window_dimensions"))
        elif xs is not None:
            dims = _attr_ints(op, "dimensions")
            allowed = tuple(d for k, d in enumerate(xs) if k not in dims)
    elif op.name == _S + "scatter":      # the updates play the init values' part
        n = len(op.results)
        if not n or len(op.operands) != 2 * n + 1:
            return
        inputs, allowed = op.operands[:n], ()
        inits = [TensorType((), _el(u)) for u in op.operands[n + 1:]]
    else:           # all_reduce / reduce_scatter: one 2-argument body applied to each operand
        inputs, inits = op.operands[:1], None
    if op.regions:
        _reduction_region(op, op.regions[0], inputs, inits, allowed)


def _select_region(op, region, operand):
    if not region.blocks:
        return
    block = region.blocks[0]
    want = TensorType((), _el(operand))
    if len(block.arguments) != 2:
        _fail(op, f"expects the select-region to take 2 parameters, but takes {len(block.arguments)}")
    for i, a in enumerate(block.arguments):
        if not _compat_type(a.type, want):
            _fail(op, f"expects the type of select-region's parameter at index {i} to be '{want}', "
                      f"but got '{a.type}'")
    rets = list(block.terminator.operands) if block.terminator is not None else []
    if len(rets) != 1:
        _fail(op, f"expects select-region to return single value, but got: {len(rets)}")
    if rets[0].type != TensorType((), "i1"):
        _fail(op, f"expects the return-type of select-region to be tensor<i1>, but got: '{rets[0].type}'")


def _replica_groups(op):
    groups = op.attributes.get("replica_groups")
    if isinstance(groups, StructAttr) and groups.name == "stablehlo.replica_group_mesh_axes":
        mesh = groups.fields.get("mesh")
        name = getattr(mesh, "name", None)
        if name is not None and _symbol(op, name) is None:
            _fail(op, f"replica_groups: mesh symbol '{name}' not found")
    if isinstance(groups, DenseElementsAttr):
        arr = groups.array
        if arr.ndim != 2:
            _fail(op, "replica groups should be a rank 2 tensor")
        ids = [int(x) for x in arr.reshape(-1) if int(x) != -1 or op.name != _S + "all_reduce"]
        if arr.size == 0 and op.name in (_S + "all_reduce", _S + "reduce_scatter", _S + "all_gather"):
            _fail(op, "replica groups cannot be empty")
        seen = set()
        for r in ids:
            if r < 0:
                _fail(op, f"Invalid replica id {r}")
            if r in seen:
                _fail(op, f"replica id #{r} seen more than once")
            seen.add(r)
        for r in range(len(seen)) if op.name in (_S + "all_reduce", _S + "reduce_scatter", _S + "all_gather") else ():
            if r not in seen:
                _fail(op, f"replica id #{r} not seen in replica groups")
    handle = op.attributes.get("channel_handle")
    if op.attributes.get("use_global_device_ids") is not None:
        h = handle.fields.get("handle", 0) if isinstance(handle, StructAttr) else 0
        h = getattr(h, "value", h)
        if isinstance(h, int) and h <= 0:
            _fail(op, f"channel_id must be positive when useGlobalDeviceIds is set but got: {h}")


def _collective(op):
    _replica_groups(op)
    if op.name in (_S + "all_reduce", _S + "reduce_scatter"):
        _reduce_regions(op)
    if op.name == _S + "reduce_scatter" and op.operands and op.results:
        xs, rs = _shape(op.operands[0]), _shape(op.results[0])
        d = _attr_ints(op, "scatter_dimension", (0,))[0]
        if xs is None or rs is None:
            return
        if len(xs) != len(rs):
            _fail(op, "operand and result should have same rank")
        if d >= len(xs):
            _fail(op, "scatter dim should be less than operand/result rank")
        if rs[d] == 0:
            _fail(op, "result dimension size at scatter_dimension cannot be zero")
        if xs[d] == 0:
            _fail(op, "operand dimension size at scatter_dimension cannot be zero")
        if xs[d] is not None and rs[d] is not None and xs[d] % rs[d]:
            _fail(op, f"operand scatter dimension has size {xs[d]}, expected to be a multiple of "
                      f"result scatter dimension size {rs[d]}")
        for k, (a, b) in enumerate(zip(xs, rs)):
            if k != d and not _compat(a, b):
                _fail(op, f"non scatter dimensions should be same for operand ({a}) and result ({b})")
        if op.regions and op.regions[0].blocks and op.regions[0].blocks[0].terminator is not None:
            rets = op.regions[0].blocks[0].terminator.operands
            if len(rets) == 1 and _el(rets[0]) != _el(op.results[0]):
                _fail(op, f"result element-type is expected to be '{_el(rets[0])}', but got "
                          f"'{_el(op.results[0])}'")


def _rng(op):
    a, b, shape = op.operands[:3]
    for i, v in enumerate((a, b)):
        if _shape(v) not in (None, ()):
            _fail(op, f"operand #{i} must be 0D tensor of values, but got '{v.type}'")
    ss = _shape(shape)
    if ss is None or len(ss) != 1 or ss[0] is None:
        _fail(op, f"operand #2 must be statically shaped 1-dimensional tensor of integer values, "
                  f"but got '{shape.type}'")
    dist = str(getattr(op.attributes.get("rng_distribution"), "value", op.attributes.get("rng_distribution")))
    for i, v in enumerate((a, b)):
        el = _el(v)
        if not (is_float(el) or ("NORMAL" not in dist and is_integer(el))):
            _fail(op, f"operand #{i} must be 0D tensor of {'float' if 'NORMAL' in dist else 'integer or float'} "
                      f"values, but got '{v.type}'")
    dims = _const_ints(shape)
    if dims is not None:
        _expect_result(op, dims)
    else:
        _expect_result(op, [None] * ss[0])


def _rng_bit_generator(op):
    """rng_bit_generator: the output state is shaped like the initial state."""
    if op.operands and op.results:
        x, r = op.operands[0].type, op.results[0].type
        if isinstance(x, TensorType) and isinstance(r, TensorType) and \
                not _compat_shapes(x.shape, r.shape):
            _fail(op, f"output state shape must be compatible with initial state shape. Got: "
                      f"'{x}' and '{r}'")


def _broadcast(op):
    """broadcast: ``broadcast_sizes`` prepended to the operand's shape."""
    xs = _shape(op.operands[0])
    if xs is not None:
        _expect_result(op, tuple(_attr_ints(op, "broadcast_sizes")) + tuple(xs))


def _dynamic_pad(op):
    """dynamic_pad: one low/high/interior entry per operand dim; with constant
    padding, the result is the padded shape."""
    x, pv, *pads = op.operands
    xs = _shape(x)
    if xs is None or len(pads) != 3:
        return
    for v in pads:
        ps = _shape(v)
        if ps is not None and len(ps) == 1 and ps[0] is not None and ps[0] != len(xs):
            _fail(op, f"padding operands size ({ps[0]}) must match operand rank ({len(xs)})")
    low, high, interior = (_const_ints(v) for v in pads)
    if interior is not None:
        for d in interior:
            if d < 0:
                _fail(op, f"interior_padding must be non-negative, but got {d}")
    rs = _shape(op.results[0])
    if None in (low, high, interior) or rs is None or not len(low) == len(high) == len(interior) == len(xs):
        return
    for k, (d, lo, hi, it, r) in enumerate(zip(xs, low, high, interior, rs)):
        if d is None or r is None:
            continue
        want = d + lo + hi + max(d - 1, 0) * it
        if want != r:
            _fail(op, f"expected output dimension at index {k} to equal {want}, but got {r}")


def _map(op):
    shapes = [_shape(v) for v in op.operands]
    if not shapes or any(s is None for s in shapes):
        return
    for s in shapes[1:]:
        if not _compat_shapes(shapes[0], s):
            _fail(op, "expects all operands to have the same shape")
    if list(_attr_ints(op, "dimensions")) != list(range(len(shapes[0]))):
        _fail(op, "requires monotonically increasing dimension numbers covering all operand "
                  "dimensions")
    if op.regions and op.regions[0].blocks:
        block = op.regions[0].blocks[0]
        if len(block.arguments) != len(op.operands):
            _fail(op, f"expects number of operands to match the arity of map computation, but got: "
                      f"{len(op.operands)} and {len(block.arguments)}")
        for i, (a, v) in enumerate(zip(block.arguments, op.operands)):
            if not _compat_type(a.type, TensorType((), _el(v))):
                _fail(op, f"expects computation parameter {i} to be a 0-d tensor of the operand's "
                          f"element type, got '{a.type}'")
        rets = list(block.terminator.operands) if block.terminator is not None else []
        if len(rets) != 1 or _shape(rets[0]) != ():
            _fail(op, "computation must return a single 0-d tensor")
        _expect_result(op, shapes[0])


def _dynamic_broadcast_in_dim(op):
    _broadcast_in_dim(op)
    out = _shape(op.operands[1])
    rs = _shape(op.results[0])
    if out is None or len(out) != 1 or out[0] is None:
        _fail(op, f"op operand #1 must be statically shaped 1-dimensional tensor, got '{op.operands[1].type}'")
    if rs is not None and out[0] != len(rs):
        _fail(op, f"result rank ({len(rs)}) does not match the output_dimensions length ({out[0]})")
    xs = _shape(op.operands[0])
    values = _const_ints(op.operands[1])
    if values is not None and rs is not None and len(values) == len(rs):
        if any(v < 0 for v in values) or not _compat_shapes(rs, tuple(values)):
            _fail(op, f"output shape {list(values)} is incompatible with return type of operation "
                      f"'{op.results[0].type}'")
        for i, d in enumerate(_attr_ints(op, "broadcast_dimensions")):
            if xs is not None and i < len(xs) and 0 <= d < len(values) and \
                    xs[i] is not None and xs[i] not in (1, values[d]):
                _fail(op, f"size of operand dimension {i} ({xs[i]}) is not equal to 1 or value of "
                          f"shape at index {d} ({values[d]})")
    exp = _attr_ints(op, "known_expanding_dimensions")
    non = _attr_ints(op, "known_nonexpanding_dimensions")
    if len(set(exp) | set(non)) != len(exp) + len(non):
        _fail(op, "duplicate expansion hint for at least one operand dimension")
    for d in tuple(exp) + tuple(non):
        if xs is not None and not 0 <= d < len(xs):
            _fail(op, f"hint for expanding dimension {d} does not refer to a valid operand dimension")


def _symbol(op, name):
    """The op of the enclosing module with ``sym_name`` == name, or None."""
    top = op
    while top.parent is not None and top.parent.parent is not None and top.parent.parent.parent is not None:
        top = top.parent.parent.parent
    block = top.parent
    for o in (block.operations if block is not None else ()):
        sym = o.attributes.get("sym_name")
        if sym is not None and getattr(sym, "value", sym) == name:
            return o
    return None


_NAMESPACED = __import__("re").compile(r"^[A-Za-z_][\w$]*(\.[\w$]+)+$")


def _composite(op):
    name = getattr(op.attributes.get("name"), "value", "")
    if not _NAMESPACED.match(name):
        _fail(op, f"name must be a valid namespaced op name, got '{name}'")
    ref = op.attributes.get("decomposition")
    callee = getattr(ref, "name", None)
    if callee is None:
        return
    target = _symbol(op, callee)
    fty = getattr(target.attributes.get("function_type"), "type", None) if target is not None else None
    if fty is None:
        _fail(op, f"'{callee}' does not reference a valid function")
    if len(op.operands) != len(fty.inputs):
        _fail(op, f"has {len(op.operands)} operand(s), but decomposition has {len(fty.inputs)}")
    for i, (v, t) in enumerate(zip(op.operands, fty.inputs)):
        if v.type != t:
            _fail(op, f"operand at index {i} has type '{v.type}', but decomposition has type '{t}'")
    if len(op.results) != len(fty.results):
        _fail(op, f"has {len(op.results)} result(s), but decomposition has {len(fty.results)}")
    for i, (v, t) in enumerate(zip(op.results, fty.results)):
        if v.type != t:
            _fail(op, f"result at index {i} has type '{v.type}', but decomposition has type '{t}'")


def _all_to_all(op):
    _replica_groups(op)
    count = _attr_ints(op, "split_count", (1,))[0]
    groups = op.attributes.get("replica_groups")
    if isinstance(groups, DenseElementsAttr) and groups.array.ndim == 2 and \
            (groups.array.shape[0] == 0 or groups.array.shape[1] != count):
        _fail(op, f"group size of replica_groups must be {count} (failed to infer returned types)")
    split = _attr_ints(op, "split_dimension", (0,))[0]
    concat = _attr_ints(op, "concat_dimension", (0,))[0]
    if len(op.operands) != len(op.results):
        _fail(op, "op requires the same number of operands and results")
    for i, (x, r) in enumerate(zip(op.operands, op.results)):
        xs = _shape(x)
        if _el(x) != _el(r):
            _fail(op, f"op requires the same element type for operand and result at index {i}")
        if xs is None:
            continue
        if split >= len(xs) or concat >= len(xs):
            _fail(op, f"AllToAll split_dimension {split} / concat_dimension {concat} is out-of-bounds "
                      f"for input rank {len(xs)}")
        if xs[split] is not None and xs[split] % count:
            _fail(op, f"split dimension has size {xs[split]}, expected to be a multiple of "
                      f"split_count {count}")
        out = list(xs)
        out[split] = None if xs[split] is None else xs[split] // count
        out[concat] = None if out[concat] is None else out[concat] * count
        _expect_result(op, out, i)


def _all_gather(op):
    _replica_groups(op)
    d = _attr_ints(op, "all_gather_dim", (0,))[0]
    for x, r in zip(op.operands, op.results):
        xs, rs = _shape(x), _shape(r)
        if xs is None or rs is None:
            continue
        if d >= len(xs):
            _fail(op, "all_gather_dim must be a valid index of operand")
        if xs[d] == 0:
            _fail(op, "dimension size of operand at 'all_gather_dim' cannot be zero")
        if len(xs) != len(rs):
            _fail(op, "operand and result must have the same rank")
        if any(k != d and not _compat(a, b) for k, (a, b) in enumerate(zip(xs, rs))):
            _fail(op, "operand and result should have the same shape except for the dimension size "
                      "at 'all_gather_dim'")
        if xs[d] and rs[d] is not None and rs[d] % xs[d]:
            _fail(op, f"result gather dimension has size {rs[d]}, expected to be a multiple of "
                      f"operand gather dimension size {xs[d]}")


def _bitcast_convert(op):
    from .types import bit_width
    x, r = op.operands[0], op.results[0]
    xs, rs, xe, re_ = _shape(x), _shape(r), _el(x), _el(r)
    if xs is None or rs is None:
        return
    if _quant(xe) or _quant(re_):       # quantized: its storage type's width
        qx, qr = _quant_params(xe) if _quant(xe) else None, _quant_params(re_) if _quant(re_) else None
        if (_quant(xe) and qx is None) or (_quant(re_) and qr is None):
            return
        xe, re_ = (qx[0].lstrip("s") if qx else xe), (qr[0].lstrip("s") if qr else re_)
    if is_complex(xe) != is_complex(re_):
        _fail(op, "cannot convert between real and complex types")
    wx, wr = bit_width(xe), bit_width(re_)
    if wx == wr:
        if not _compat_shapes(xs, rs):
            _fail(op, "operand and result shapes must match except for the innermost dimension of "
                      "the shape with the smaller element type")
        return
    small, large, ws, wl = (rs, xs, wr, wx) if wr < wx else (xs, rs, wx, wr)
    if len(small) != len(large) + 1:
        _fail(op, f"rank of smaller element type ({len(small)}) should be 1 more than rank of larger "
                  f"element type ({len(large)}), but {len(small)} != {len(large)} + 1.")
    if not _compat_shapes(small[:-1], large):
        _fail(op, "operand and result shapes must match except for the innermost dimension of the "
                  "shape with the smaller element type")
    if small[-1] is not None and small[-1] * ws != wl:
        _fail(op, f"requires compatible bit widths. Got: '{x.type}' and '{r.type}', but "
                  f"{ws} * {small[-1]} != {wl}.")


def _dot(op):
    ls, rs = _shape(op.operands[0]), _shape(op.operands[1])
    if ls is None or rs is None:
        return
    if len(ls) not in (1, 2) or len(rs) not in (1, 2):
        _fail(op, "expected both lhs/rhs ranks to be either 1 or 2")
    if not _compat(ls[-1], rs[0]):
        _fail(op, f"expected lhs dimension {len(ls) - 1} ({ls[-1]}) to match rhs dimension 0 ({rs[0]})")
    pc = op.attributes.get("precision_config")
    if pc is not None and len(getattr(pc, "elements", ())) > 2:
        _fail(op, "'precision_config' failed to satisfy constraint")
    _expect_result(op, list(ls[:-1]) + list(rs[1:]))


def _const_ints(v):
    src = v.defining_op
    value = src.attributes.get("value") if src is not None and src.name == _S + "constant" else None
    return ints(value) if isinstance(value, DenseElementsAttr) else None


def _output_shape_operand(op, index):
    """Checks of an ``output_shape`` operand (1-D, static, one entry per result dim)."""
    v, rs = op.operands[index], _shape(op.results[0])
    ss = _shape(v)
    if ss is None or len(ss) != 1 or ss[0] is None:
        _fail(op, f"op operand #{index} must be statically shaped 1-dimensional tensor, got '{v.type}'")
    if rs is not None and ss[0] != len(rs):
        _fail(op, f"result should have a rank equal to the number of elements in output_shape")
    dims = _const_ints(v)
    if dims is not None and rs is not None:
        if not _compat_shapes(rs, tuple(d if d >= 0 else -1 for d in dims)) or any(d < 0 for d in dims):
            _fail(op, f"output shape {list(dims)} is incompatible with return type of operation "
                      f"'{op.results[0].type}'")
    return dims


def _dynamic_reshape(op):
    x = op.operands[0]
    if _el(x) != _el(op.results[0]) and not _quant(_el(x)):
        _fail(op, "expects operand and result to have compatible element type")
    dims = _output_shape_operand(op, 1)
    xs, rs = _shape(x), _shape(op.results[0])
    if xs is not None and None not in xs:
        n = 1
        for d in xs:
            n *= d
        if rs is not None and None not in rs:
            m = 1
            for d in rs:
                m *= d
            if m != n:
                _fail(op, f"number of output elements ({m}) doesn't match expected number of elements ({n})")
        if dims is not None and all(d >= 0 for d in dims):
            m = 1
            for d in dims:
                m *= d
            if m != n:
                _fail(op, f"output_shape is incompatible with input type of operation: input has {n} "
                          f"elements, but output_shape has {m}")


def _dynamic_iota(op):
    _iota(op)
    _output_shape_operand(op, 0)


def _set_dimension_size(op):
    xs = _shape(op.operands[0])
    d = _attr_ints(op, "dimension", (0,))[0]
    if xs is None:
        return
    if d >= len(xs):
        _fail(op, f"requires dimension attribute in range [0, {len(xs)}); found ({d})")
    if _shape(op.operands[1]) not in (None, ()):
        _fail(op, "size operand must be a 0-dimensional tensor")
    out = list(xs)
    size = _const_ints(op.operands[1])
    out[d] = size[0] if size else None
    _expect_result(op, out)


# The dot algorithms some hardware implements: (lhs, rhs, accumulation) precision
# types -> the allowed num_primitive_operations, with one component per side and
# precise accumulation (f8 inputs, ``"f8"`` here, may also accumulate imprecisely).
KNOWN_DOT_ALGORITHMS = {
    ("f8", "f8", "f32"): (1,), ("bf16", "bf16", "f32"): (1, 3, 6, 9), ("bf16", "bf16", "bf16"): (1,),
    ("f16", "f16", "f16"): (1,), ("f16", "f16", "f32"): (1,), ("tf32", "tf32", "f32"): (1, 3),
    ("f32", "f32", "f32"): (1,), ("f64", "f64", "f64"): (1,),
}


def dot_algorithm_error(fields: dict) -> str | None:
    """Why a ``#stablehlo.dot_algorithm`` is not a known one (None: it is)."""
    def field(key, default=None):
        v = fields.get(key, default)
        v = getattr(v, "type", v)
        return str(getattr(v, "element", getattr(v, "value", v)))
    lhs, rhs, acc = (field(k) for k in ("lhs_precision_type", "rhs_precision_type", "accumulation_type"))
    counts = [fields.get(k, 1) for k in ("lhs_component_count", "rhs_component_count",
                                         "num_primitive_operations")]
    counts = [getattr(c, "value", c) for c in counts]
    imprecise = field("allow_imprecise_accumulation", False) in ("True", "true", "1")
    if not all(isinstance(c, int) for c in counts):
        return None
    key = ("f8", "f8", acc) if lhs == rhs and lhs.startswith("f8") else (lhs, rhs, acc)
    if counts[:2] != [1, 1] or counts[2] not in KNOWN_DOT_ALGORITHMS.get(key, ()) or \
            (imprecise and key[0] != "f8"):
        return (f"dot algorithm not known to be supported on any hardware: {{lhs:'{lhs}', "
                f"rhs:'{rhs}', accum:'{acc}', lhs_components:{counts[0]}, rhs_components:"
                f"{counts[1]}, primitive_ops:{counts[2]}, imprecise:{int(imprecise)}}}")
    return None


def _dot_algorithm(op):
    alg = op.attributes.get("algorithm")
    if not isinstance(alg, StructAttr):
        return
    pc = op.attributes.get("precision_config")
    if pc is not None and any(getattr(e, "value", "DEFAULT") != "DEFAULT" for e in getattr(pc, "elements", ())):
        _fail(op, "must specify DEFAULT precision config when algorithm is set.")
    problem = dot_algorithm_error(alg.fields)     # the parser reports it where the attribute is
    if problem is not None:
        _fail(op, problem)


def _dot_general_all(op):
    _dot_general(op)
    _dot_algorithm(op)
    _dot_general_quant(op)


def _conv_window(op):
    """Padding, window reversal and element types of convolution / dynamic_conv."""
    a = op.attributes.get("dimension_numbers")
    xs, ks = _shape(op.operands[0]), _shape(op.operands[1])
    if not isinstance(a, StructAttr) or xs is None or ks is None:
        return
    spatial = len(a.fields.get("input_spatial_dimensions", ()))
    pad = op.attributes.get("padding")
    if isinstance(pad, DenseElementsAttr) and pad.array.size:
        shape = tuple(pad.array.shape)
        if len(shape) != 2 or shape[1] != 2:
            _fail(op, f"expects the shape of padding-attribute to be {{N, 2}}, but got "
                      f"{{{', '.join(map(str, shape))}}}.")
        if shape[0] != spatial:
            _fail(op, f"expects padding-entries to have same dimension-size as size of window "
                      f"dimensions ({spatial}), but got: {shape[0]}.")
    if op.name == _S + "dynamic_conv" and len(op.operands) > 2:
        ps = _shape(op.operands[2])
        if ps is not None and ps != (spatial, 2):
            _fail(op, f"expects padding to be of shape [{spatial}, 2], but got [{', '.join(map(str, ps))}]")
    rev = op.attributes.get("window_reversal")
    if rev is not None:
        n = len(getattr(rev, "values", ()) or getattr(rev, "elements", ()) or
                (rev.array.reshape(-1) if isinstance(rev, DenseElementsAttr) else ()))
        if n != spatial:
            _fail(op, f"expects window-reversal to have same dimension-size as size of window "
                      f"dimensions ({spatial}), but got: {n}.")
    bgc = _attr_ints(op, "batch_group_count", (1,))[0]
    b = a.fields.get("input_batch_dimension")
    if isinstance(b, int) and 0 <= b < len(xs) and xs[b] is not None and bgc > 0 and xs[b] % bgc:
        _fail(op, f"expects input batch dimension ({xs[b]}) to be divisible by batch_group_count. "
                  f"Got batch_group_count = {bgc}.")
    pc = op.attributes.get("precision_config")
    if pc is not None and len(getattr(pc, "elements", ())) > 2:
        _fail(op, "expects precision config to be empty or have <= 2 elements.")
    le, ke = _el(op.operands[0]), _el(op.operands[1])
    if le != ke and not (_quant(le) or _quant(ke)):
        _fail(op, f"expects lhs and rhs to have compatible element type. Got: '{le}' and '{ke}'")


def _conv_all(op):
    _conv_window(op)
    _convolution(op)
    _conv_quant(op)


def _dynamic_root(op):
    """collective_broadcast / collective_reduce: data operands, plus a root
    operand (rank-1 i32, one entry per data operand) with has_dynamic_root."""
    kind = op.short_name
    dynamic = op.attributes.get("has_dynamic_root") is not None and \
        getattr(op.attributes.get("has_dynamic_root"), "value", True) is not False
    if not dynamic and not op.operands:
        _fail(op, f"{kind} requires at least one data operand")
    if dynamic:
        if len(op.operands) < 2:
            _fail(op, f"{kind} with has_dynamic_root=true requires at least two operands (data + root)")
        root = op.operands[-1]
        if _shape(root) is None or len(_shape(root)) != 1 or _el(root) != "i32":
            _fail(op, f"last operand of {kind} with has_dynamic_root=true must be a rank-1 i32 tensor")
        if _shape(root)[0] not in (None, len(op.operands) - 1):
            _fail(op, f"last operand of {kind} with has_dynamic_root=true must have the same number "
                      f"of elements as data operands")
    _replica_groups(op)
    if kind == "collective_reduce" and op.regions:
        data = op.operands[:-1] if dynamic else op.operands
        _reduction_region(op, op.regions[0], data[:1], None)


def _collective_permute(op):
    pairs = op.attributes.get("source_target_pairs")
    if not isinstance(pairs, DenseElementsAttr):
        return
    arr = pairs.array
    if arr.ndim != 2:
        _fail(op, f"expect source_target_pairs attribute to be of rank 2, but got rank {arr.ndim}")
    if arr.shape[1] != 2:
        _fail(op, f"expect source_target_pairs attribute of shape (N, 2), but got "
                  f"({', '.join(map(str, arr.shape))})")
    if (arr < 0).any():
        _fail(op, "replica ids in source_target_pairs must be >= 0")
    for col, what in ((0, "sources"), (1, "targets")):
        ids = [int(x) for x in arr[:, col]]
        if len(set(ids)) != len(ids):
            _fail(op, f"duplicate {what} not allowed")


def _token_results(op):
    """infeed / recv: tensors then one token; infeed's layout per tensor result."""
    from .types import TokenType
    res = [r.type for r in op.results]
    if not res:
        _fail(op, "result is expected to be at least of size 1, but got 0")
    if any(not isinstance(t, TensorType) for t in res[:-1]):
        bad = next(t for t in res[:-1] if not isinstance(t, TensorType))
        _fail(op, f"all elements of result types, except the last element, are expected to be of "
                  f"tensor type, but got '{bad}'")
    if not isinstance(res[-1], TokenType):
        _fail(op, f"last element of result types is expected to be of token type, but got '{res[-1]}'")
    layout = op.attributes.get("layout")
    if op.short_name == "infeed" and layout is not None:
        items = getattr(layout, "elements", ())
        if len(items) != len(res) - 1:
            _fail(op, f"layout-attribute size must be {len(res) - 1} (which is the number of "
                      f"op-results - 1 (for token result)), but got {len(items)}")
        for item in items:
            if not hasattr(item, "elements"):
                _fail(op, f"layout-attribute expected to have elements of type array, but got {item}")
            for leaf in item.elements:
                if not isinstance(getattr(leaf, "value", None), int):
                    _fail(op, f"layout-attribute's leaf elements are expected to be of type integer, "
                              f"but got {leaf}")
    _channel_type(op)


def _channel_type(op):
    """send / recv: the channel type matches is_host_transfer."""
    if op.short_name in ("recv", "send"):
        handle = op.attributes.get("channel_handle")
        host = getattr(op.attributes.get("is_host_transfer"), "value", False)
        ctype = handle.fields.get("type") if isinstance(handle, StructAttr) else None
        ctype = getattr(ctype, "value", ctype)
        if isinstance(ctype, int):
            if not host and ctype != 1:
                _fail(op, "channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false")
            want = 3 if op.short_name == "recv" else 2
            if host and ctype != want:
                _fail(op, f"channel_type should be {('DEVICE_TO_HOST', 'HOST_TO_DEVICE')[want - 2]} "
                          f"when is_host_transfer is true")


# -- quantized types -------------------------------------------------------------------
def _quant_params(el: str):
    """(storage, lo, hi, expressed, axis or None, [(scale, zero point)]) of a
    ``!quant.uniform`` element type, or None when it is not one we read."""
    from . import quant
    try:
        q = quant.parse(el)
    except quant.QuantTypeError:
        return None
    return q.storage, q.storage_min, q.storage_max, q.expressed, q.axis, list(zip(q.scales, q.zero_points))


def _quant_types(op):
    """Every quantized operand/result type is well formed: zero points within the
    storage range, the quantized dimension inside the shape, one scale per slice."""
    for i, v in enumerate(list(op.operands) + list(op.results)):
        el = _el(v)
        if not _quant(el):
            continue
        q = _quant_params(el)
        if q is None:
            continue
        storage, lo, hi, expressed, axis, params = q
        what = f"operand #{i}" if i < len(op.operands) else f"result #{i - len(op.operands)}"
        bad = storage.startswith("s") or any(not lo <= zp <= hi for _, zp in params)   # si8: not signless
        shape = _shape(v)
        if axis is not None and shape is not None:
            bad = bad or not 0 <= axis < len(shape) or \
                (shape[axis] is not None and len(params) != shape[axis])
        if bad:
            _fail(op, f"{what} must be ranked tensor of well-formed quantized values, but got '{v.type}'")


def _scale_range(expressed: str):
    """(smallest positive, largest finite) value of a float type, or None."""
    import numpy as np
    try:
        import ml_dtypes
        dtype = {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "f32": np.float32, "f64": np.float64}.get(expressed)
        info = ml_dtypes.finfo(dtype) if dtype is not None else None
    except ImportError:
        dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}.get(expressed)
        info = np.finfo(dtype) if dtype is not None else None
    return None if info is None else (float(info.smallest_subnormal), float(info.max))


def _signature_quant(op):
    """Quantized types written in a function's signature are well formed where
    they are written: quantized dimension non-negative, scales representable in
    the expressed type."""
    fty = getattr(op.attributes.get("function_type"), "type", None)
    for t in (*getattr(fty, "inputs", ()), *getattr(fty, "results", ())):
        el = getattr(t, "element", "")
        q = _quant_params(el) if isinstance(el, str) and _quant(el) else None
        if q is None:
            continue
        if q[4] is not None and q[4] < 0:
            _fail(op, f"illegal quantized dimension: {q[4]} (in '{t}')")
        bounds = _scale_range(q[3])
        for scale, _ in q[5]:
            if bounds is not None and not bounds[0] <= scale <= bounds[1]:
                _fail(op, f"scale {scale:e} out of expressed type range [{bounds[0]:e}, {bounds[1]:e}] "
                          f"(in '{t}')")


def _same_quant(op, x, r):
    """Shape ops keep the quantization of their operand (per-tensor: same scale
    and zero point; per-axis: the same scales on the moved axis)."""
    qx, qr = _quant_params(_el(x)), _quant_params(_el(r))
    if qx is None or qr is None:
        return
    if qx[4] is None and qr[4] is None:
        if qx[5] != qr[5]:
            _fail(op, "expect same quantization scale and zero_point")
        return
    if (qx[4] is None) != (qr[4] is None):
        _fail(op, "expect same quantization scale and zero_point")
    axis_x, axis_r = qx[4], qr[4]
    if op.name == _S + "transpose":
        perm = _attr_ints(op, "permutation")
        if axis_r < len(perm) and perm[axis_r] != axis_x:
            _fail(op, f"operand quantization_dimension {axis_x} is not same as permutation[{axis_r}] = "
                      f"{perm[axis_r]}")
    if op.name in (_S + "broadcast_in_dim", _S + "dynamic_broadcast_in_dim"):
        dims = _attr_ints(op, "broadcast_dimensions")
        if axis_x < len(dims) and dims[axis_x] != axis_r:
            _fail(op, f"result quantization_dimension {axis_r} not same as broadcast_dimensions"
                      f"[{axis_x}] = {dims[axis_x]}")
        px = qx[5] * len(qr[5]) if len(qx[5]) == 1 else qx[5]     # a size-1 axis broadcasts its scale
        if len(px) == len(qr[5]):
            for k, ((sx, zx), (sr, zr)) in enumerate(zip(px, qr[5])):
                if sx != sr:
                    _fail(op, f"mismatch result scale {k} ({sr:e}) and operand scale {k} ({sx:e})")
                if zx != zr:
                    _fail(op, f"mismatch result zero_point {k} ({zr}) and operand zero_point {k} ({zx})")
        return
    if qx[5] != qr[5] and len(qx[5]) == len(qr[5]):
        _fail(op, "expect same quantization scales and zero_points")
    if op.name == _S + "reshape":
        xs, rs = _shape(x), _shape(r)
        if xs is not None and rs is not None and axis_r < len(rs) and axis_x < len(xs):
            if xs[axis_x] != rs[axis_r]:
                _fail(op, "expect same quantization dimension size for operand and result")
            before = [1, 1]
            for k, (shape, axis) in enumerate(((xs, axis_x), (rs, axis_r))):
                for d in shape[:axis]:
                    before[k] = None if d is None or before[k] is None else before[k] * d
            if None not in before and before[0] != before[1]:
                _fail(op, "product of dimensions before quantization dimension must match between "
                          "operand and result")


def _add_quant(op):
    """add on quantized tensors (spec add C2-C7): all quantized or none, one
    storage and one expressed type, per-axis operands keep the result's axis."""
    tensors = [v for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    quant = [_quant(_el(v)) for v in tensors]
    if not any(quant):
        return
    if not all(quant):
        _fail(op, "expects all operands and results to be either quantized or non-quantized")
    qs = [_quant_params(_el(v)) for v in tensors]
    if any(q is None for q in qs):
        return
    if len({q[0] for q in qs}) > 1:
        _fail(op, "mismatched operands and result quantization storage types")
    if len({q[3] for q in qs}) > 1:
        _fail(op, "mismatched operands and result quantization expressed types")
    *ins, out = qs
    if out[4] is None and any(q[4] is not None for q in ins):
        _fail(op, "result is not per_axis quantized but lhs or rhs are")
    for name, q in zip(("lhs", "rhs"), ins):
        if q[4] is not None and q[4] != out[4]:
            _fail(op, f"quantization_dimension of {name} and result are not same")


def _quant_contraction(op, rhs_out_dim, result_out_dim, rhs_contracting=None):
    """dot_general (spec C14-C20) and convolution (C28-C34) on quantized
    tensors: rhs quantized whenever anything is; lhs and result quantized
    alike; storage and expressed types agree; per-axis axes where the
    contraction allows them.  ``rhs_contracting`` given (dot_general): the
    rhs zero points must be 0 and its axis not contracted."""
    lhs, rhs, res = op.operands[0], op.operands[1], op.results[0]
    le, re_, oe = _el(lhs), _el(rhs), _el(res)
    if not any(map(_quant, (le, re_, oe))):
        return
    if not _quant(re_) or _quant(le) != _quant(oe):
        _fail(op, "rhs should be quantized for quantized operations and "
                  "is_quantized(lhs)=is_quantized(result) should hold")
    qr = _quant_params(re_)
    if qr is None:
        return
    if rhs_contracting is not None:
        if qr[4] is None and any(zp != 0 for _, zp in qr[5]):
            _fail(op, "Zero point of rhs should be 0")
        if qr[4] is not None and any(zp != 0 for _, zp in qr[5]):
            _fail(op, "Zero points of rhs should be 0")
        if qr[4] is not None and qr[4] in rhs_contracting:
            _fail(op, "Quantization dimension of rhs should not be in the contracting dimension of rhs")
    elif qr[4] is not None and rhs_out_dim is not None and qr[4] != rhs_out_dim:
        _fail(op, "quantization dimension of rhs should be same with kernel_output_feature_dimension")
    qo = _quant_params(oe) if _quant(oe) else None
    if rhs_contracting is None and qo is not None and qo[4] is not None and \
            result_out_dim is not None and qo[4] != result_out_dim:
        _fail(op, "quantization dimension of result should be same with output_feature_dimension")
    if _quant(le):
        ql = _quant_params(le)
        if ql is None or qo is None:
            return
        if ql[0] != qr[0]:
            _fail(op, "mismatched lhs and rhs quantization storage types")
        if not ql[3] == qr[3] == qo[3]:
            _fail(op, "mismatched lhs, rhs and result quantization expressed types")
        if qr[4] is None and qo[4] is not None:
            _fail(op, "mismatched rhs and result quantization granularity")
    elif not le == qr[3] == oe:
        _fail(op, "mismatched rhs quantization expressed type and lhs and result element type")


def _dot_general_quant(op):
    a = op.attributes.get("dot_dimension_numbers")
    rc = tuple(a.fields.get("rhs_contracting_dimensions", ())) if isinstance(a, StructAttr) else ()
    _quant_contraction(op, None, None, rc)


def _conv_quant(op):
    a = op.attributes.get("dimension_numbers")
    f = a.fields if isinstance(a, StructAttr) else {}
    _quant_contraction(op, f.get("kernel_output_feature_dimension"), f.get("output_feature_dimension"))


def _uniform_quantize(op):
    x, r = op.operands[0], op.results[0]
    q = _quant_params(_el(r))
    want = _el(x)
    if _quant(want):                  # requantization keeps the expressed type
        qx = _quant_params(want)
        want = qx[3] if qx is not None else None
    if q is not None and want is not None and q[3] != want:
        _fail(op, f"Expressed type of result expected to be '{want}', but got '{q[3]}'")


def _shape_op(rule):
    def check(op):
        if op.operands and op.results:
            _same_quant(op, op.operands[0], op.results[0])
        rule(op)
    return check


def _custom_call(op):
    """Layouts, output/operand aliases and backend_config of custom_call."""
    from .attributes import DictAttr, StringAttr
    from .types import TupleType
    ol, rl = op.attributes.get("operand_layouts"), op.attributes.get("result_layouts")
    if (ol is None) != (rl is None):
        _fail(op, "Layout attributes should be specified for either both operands and results or none.")
    if ol is not None:
        results = [r.type for r in op.results]
        if len(results) == 1 and isinstance(results[0], TupleType):
            results = list(results[0].types)
        for what, types, layouts in (("operand", [v.type for v in op.operands], ol),
                                     ("result", results, rl)):
            items = getattr(layouts, "elements", ())
            if len(types) != len(items):
                _fail(op, f"Number of {what}s must match the number of {what} layouts, "
                          f"{len(types)} != {len(items)}")
            for i, (t, lay) in enumerate(zip(types, items)):
                if isinstance(t, TupleType):
                    _fail(op, "Tuple types are not fully supported with layout constraints yet")
                perm = ints(lay) if isinstance(lay, DenseElementsAttr) else ()
                if not isinstance(t, TensorType):
                    if perm:
                        _fail(op, f"Only tensor types can have non-empty layout: {what} #{i} of type "
                                  f"'{t}' has layout {list(perm)}")
                    continue
                if sorted(perm) != list(range(t.rank)):
                    _fail(op, f"incorrect layout {list(perm)} for type '{t}', layout must be a "
                              f"permutation of [0, {t.rank})")
    aliases = op.attributes.get("output_operand_aliases")
    for alias in getattr(aliases, "elements", ()):
        if not isinstance(alias, StructAttr):
            continue
        f = alias.fields
        idx = f.get("operand_index", 0)
        idx = getattr(idx, "value", idx)
        if not 0 <= idx < len(op.operands):
            _fail(op, f"expects operandIndex in the output_operand_alias attribute to be in range "
                      f"[0, {len(op.operands)}); got: {idx}.")

        def walk(t, path, what):
            for k in path:
                if not isinstance(t, TupleType) or not 0 <= k < len(t.types):
                    _fail(op, f"{what} in the output_operand_alias attribute out of bounds")
                t = t.types[k]
            return t
        out_types = [r.type for r in op.results]
        out = out_types[0] if len(out_types) == 1 else TupleType(tuple(out_types))
        o = walk(out, tuple(f.get("output_tuple_indices", ())), "output_tuple_indices")
        x = walk(op.operands[idx].type, tuple(f.get("operand_tuple_indices", ())), "operand_tuple_indices")
        if o != x:
            _fail(op, f"shapes mismatch in the output_operand_alias attribute: operand part has type "
                      f"'{x}' and output part has type '{o}'")
    version = getattr(op.attributes.get("api_version"), "value", None)
    config = op.attributes.get("backend_config")
    if config is not None and isinstance(version, int):
        if version == 4 and not isinstance(config, DictAttr):
            _fail(op, "backend_config for api_version API_VERSION_TYPED_FFI must be a dictionary attribute.")
        if version in (1, 2, 3) and not isinstance(config, StringAttr):
            names = {1: "API_VERSION_ORIGINAL", 2: "API_VERSION_STATUS_RETURNING",
                     3: "API_VERSION_STATUS_RETURNING_UNIFIED"}
            _fail(op, f"backend_config for api_version {names[version]} must be a string attribute.")


# -- CHLO ------------------------------------------------------------------------------
_C = "chlo."
_CHLO_SAME_ELEMENT = ("broadcast_add", "broadcast_subtract", "broadcast_multiply", "broadcast_divide",
                      "broadcast_remainder", "broadcast_maximum", "broadcast_minimum", "broadcast_power",
                      "broadcast_atan2", "broadcast_and", "broadcast_or", "broadcast_xor",
                      "broadcast_shift_left", "broadcast_shift_right_arithmetic",
                      "broadcast_shift_right_logical", "broadcast_next_after", "broadcast_polygamma",
                      "broadcast_zeta")


def _element_kind(el: str):
    """An element type up to quantization parameters (storage, expressed)."""
    q = _quant_params(el) if _quant(el) else None
    return (q[0], q[3]) if q is not None else el


def _chlo_same_element(op):
    kinds = {_element_kind(_el(v)) for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
    if len(kinds) > 1:
        _fail(op, "requires compatible element types for all operands and results")


def _chlo_asin_acos_kernel(op):
    """ChloOps.td: HLO_AnyComplexTensor operand, the same type as result."""
    for v in (*op.operands, *op.results):
        if isinstance(v.type, TensorType) and not is_complex(_el(v)):
            _fail(op, f"operand #0 must be ranked tensor of complex values, but got '{v.type}'")
    _chlo_same_element(op)


def _chlo_mulhi(op):
    for i, v in enumerate(op.operands):
        el = _el(v)
        if not is_integer(el) or el in ("i1", "ui1"):
            _fail(op, f"operand #{i} must be ranked tensor of 2/4/8/16/32/64-bit integer values, "
                      f"but got '{v.type}'")


def _chlo_constant_like(op):
    value = op.attributes.get("value")
    vt = getattr(value, "type", None)
    vt = getattr(vt, "element", vt)
    if op.results and isinstance(vt, str) and isinstance(op.results[0].type, TensorType) and \
            vt != _el(op.results[0]):
        _fail(op, f"value's type doesn't match element return type: '{vt}' vs '{op.results[0].type}'")


def _chlo_top_k(op):
    xs = _shape(op.operands[0]) if op.operands else None
    k = _attr_ints(op, "k", (None,))[0]
    if xs is None:
        return
    if not xs:
        _fail(op, "operand's rank must be at least 1 (failed to infer returned types)")
    if k is not None and xs[-1] is not None and xs[-1] < k:
        _fail(op, f"operand's last dimension must be at least {k} (failed to infer returned types)")


def _chlo_scan(op):
    """scan: per-step slices of the inputs along ``dimension`` plus the carries
    are the body's arguments."""
    seg = _attr_ints(op, "operandSegmentSizes", (len(op.operands), 0))
    n_in = seg[0]
    inputs, inits = op.operands[:n_in], op.operands[n_in:]
    if len(op.regions) != 1 or not op.regions[0].blocks:
        return
    args = op.regions[0].blocks[0].arguments
    if len(args) != len(op.operands):
        _fail(op, f"expects {len(op.operands)} arguments in the body, but got {len(args)}")
    dim = _attr_ints(op, "dimension", (0,))[0]
    size = op.attributes.get("scan_dim_size")
    size = _attr_ints(op, "scan_dim_size")[0] if size is not None else None
    for i, v in enumerate(inputs):
        xs = _shape(v)
        if xs is None:
            continue
        if not 0 <= dim < len(xs):
            _fail(op, f"scan dimension of operand {i} is out of bounds")
        if size is not None and xs[dim] is not None and xs[dim] != size:
            _fail(op, f"invalid scan dimension size of operand {i}")
        step = TensorType(xs[:dim] + xs[dim + 1:], _el(v))
        if not _compat_type(step, args[i].type):
            _fail(op, f"operand and body argument {i} are incompatible")
    for j, v in enumerate(inits, start=len(inputs)):
        if not _compat_type(v.type, args[j].type):
            _fail(op, f"operand and body argument {j} are incompatible")


_ASYNC_OPS = frozenset(_S + n for n in (
    "all_reduce", "all_gather", "all_to_all", "collective_permute", "reduce_scatter",
    "collective_broadcast", "slice", "dynamic_slice"))


def _future(types) -> str:
    return "!stablehlo.future<" + ", ".join(str(t) for t in types) + ">"


def _same_text(a, b) -> bool:
    return "".join(str(a).split()) == "".join(str(b).split())


def _async_start(op):
    """async_start wraps one collective (or slice) op: its region takes the
    operands and returns what the ``!stablehlo.future`` result holds."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        _fail(op, "requires one region")
    block = op.regions[0].blocks[0]
    body = [o for o in block.operations if o is not block.terminator]
    if len(body) != 1:
        _fail(op, "region must contain exactly one operation and a return")
    if body[0].name not in _ASYNC_OPS:
        _fail(op, f"region must contain a collective or slice operation, got '{body[0].name}'")
    if len(op.operands) != len(block.arguments):
        _fail(op, f"number of operands ({len(op.operands)}) must match number of region arguments "
                  f"({len(block.arguments)})")
    for i, (v, a) in enumerate(zip(op.operands, block.arguments)):
        if not _compat_type(v.type, a.type):
            _fail(op, f"operand type '{v.type}' at index {i} must match region argument type '{a.type}'")
    term = block.terminator
    if term is not None and len(op.results) == 1:
        want = _future(v.type for v in term.operands)
        if not _same_text(want, op.results[0].type):
            _fail(op, f"inferred type(s) '{want}' are incompatible with return type(s) of operation "
                      f"'{op.results[0].type}'")


def _async_done(op):
    """async_done yields the types its ``!stablehlo.future`` operand holds."""
    if len(op.operands) == 1 and str(op.operands[0].type).startswith("!stablehlo.future<"):
        got = _future(r.type for r in op.results)
        if not _same_text(got, op.operands[0].type):
            inner = str(op.operands[0].type)[len("!stablehlo.future<"):-1]
            _fail(op, f"inferred type(s) '{inner}' are incompatible with return type(s) of operation "
                      f"'{', '.join(str(r.type) for r in op.results)}'")


RULES = {}
for _n in set(_SAME_TYPE + _FLOAT + ("abs", "compare", "complex", "real", "imag", "convert",
                                      "bitcast_convert", "reduce_precision")) - {"bitcast_convert"}:
    RULES[_S + _n] = _elementwise
RULES.pop(_S + "convert", None)
RULES[_S + "add"] = lambda op: (_elementwise(op), _add_quant(op))
for _n in ("real", "imag"):
    RULES[_S + _n] = lambda op: (_elementwise(op), _real_imag(op))
RULES[_S + "abs"] = lambda op: (_elementwise(op), _abs(op))
RULES.update({
    _S + "broadcast_in_dim": _broadcast_in_dim, _S + "transpose": _transpose, _S + "reverse": _reverse,
    _S + "concatenate": _concatenate, _S + "slice": _slice, _S + "pad": _pad,
    _S + "dynamic_slice": _dynamic_slice, _S + "dynamic_update_slice": _dynamic_update_slice,
    _S + "iota": _iota, _S + "reshape": _reshape, _S + "get_dimension_size": _get_dimension_size,
    _S + "select": _select, _S + "clamp": _clamp, _S + "fft": _fft, _S + "gather": _gather,
    _S + "dynamic_gather": _gather, _S + "dot_general": _dot_general, _S + "reduce": _reduce,
    _S + "reduce_window": _reduce_window, _S + "select_and_scatter": _select_and_scatter,
    _S + "convolution": _convolution, _S + "dynamic_conv": _convolution, _S + "while": _while,
    _S + "if": _branches, _S + "case": _branches, _S + "sort": _sort,
    _S + "triangular_solve": _triangular_solve, _S + "cholesky": _cholesky,
    _S + "batch_norm_inference": _batch_norm, _S + "batch_norm_training": _batch_norm,
    _S + "batch_norm_grad": _batch_norm,
    _S + "all_reduce": _collective, _S + "reduce_scatter": _collective, _S + "rng": _rng, _S + "map": _map,
    _S + "dynamic_broadcast_in_dim": _dynamic_broadcast_in_dim,
    _S + "composite": _composite, _S + "all_to_all": _all_to_all, _S + "all_gather": _all_gather,
    _S + "bitcast_convert": _bitcast_convert, _S + "reduce_precision": _elementwise,
    _S + "dot": _dot, _S + "dynamic_reshape": _dynamic_reshape, _S + "dynamic_iota": _dynamic_iota,
    _S + "set_dimension_size": _set_dimension_size, _S + "dot_general": _dot_general_all,
    _S + "convolution": _conv_all, _S + "dynamic_conv": _conv_all,
    _S + "collective_broadcast": _dynamic_root, _S + "collective_reduce": _dynamic_root,
    _S + "collective_permute": _collective_permute, _S + "infeed": _token_results,
    _S + "recv": _token_results, _S + "uniform_quantize": _uniform_quantize,
    _S + "custom_call": _custom_call, _S + "async_start": _async_start,
    _S + "async_done": _async_done,
    _C + "_asin_acos_kernel": _chlo_asin_acos_kernel,
    _C + "scan": _chlo_scan, _C + "mulhi": _chlo_mulhi, _C + "constant_like": _chlo_constant_like,
    _C + "top_k": _chlo_top_k, _S + "broadcast": _broadcast, _S + "dynamic_pad": _dynamic_pad,
    _S + "get_tuple_element": _get_tuple_element, _S + "send": _channel_type,
    _S + "rng_bit_generator": _rng_bit_generator, "func.func": _signature_quant,
    **{_C + n: _chlo_same_element for n in _CHLO_SAME_ELEMENT},
})
for _n in ("reshape", "transpose", "broadcast_in_dim", "dynamic_broadcast_in_dim"):
    RULES[_S + _n] = _shape_op(RULES[_S + _n])
RULES[_S + "scatter"] = _scatter
RULES.update(DECOMPOSED_RULES)
for _n in ("reduce", "reduce_window", "select_and_scatter", "scatter"):
    RULES[_S + _n] = (lambda shape_rule: lambda op: (_reduce_regions(op), shape_rule(op)))(RULES[_S + _n])


_PRECISIONS = ("DEFAULT", "HIGH", "HIGHEST")


def _precision_config(op):
    """``precision_config``: an array of #stablehlo<precision ...> values."""
    from .attributes import EnumAttr
    for e in getattr(op.attributes.get("precision_config"), "elements", ()):
        if not isinstance(e, EnumAttr) or e.value not in _PRECISIONS:
            _fail(op, f"attribute 'precision_config' failed to satisfy constraint: each element must "
                      f"be #stablehlo<precision {'|'.join(_PRECISIONS)}>, got {e}")


def _result_accuracy(op):
    """``result_accuracy`` of the transcendental ops: tolerances are
    non-negative, and all zero unless the mode is TOLERANCE."""
    acc = op.attributes.get("result_accuracy")
    if not isinstance(acc, StructAttr):
        return
    f = acc.fields
    tol = {k: getattr(f.get(k, 0), "value", f.get(k, 0)) for k in ("atol", "rtol", "ulps")}
    mode = f.get("mode")
    mode = str(getattr(mode, "text", mode) or "DEFAULT")
    mode = mode.rsplit("<", 1)[-1].rstrip(">").strip() if "<" in mode else mode
    if any(not isinstance(v, (int, float)) or v < 0 for v in tol.values()):
        _fail(op, f"Negative tolerance for ResultAccuracyAttr: {tol}")
    if mode in ("DEFAULT", "HIGHEST") and any(tol.values()):
        _fail(op, f"Invalid tolerances for ResultAccuracyAttr with mode {mode}, must be all zero.")


def _int_attrs(op, d):
    """The dialect's ``ConfinedAttr<I64Attr / I32Attr, [IntPositive / IntNonNegative]>``
    attributes (registry ``int_attrs``).  Reported where MLIR reports them: at
    the attribute dictionary of a pretty form that holds the attribute (its
    generated parser checks inherent attributes there), else at the op."""
    for key, bits, pred in d.int_attrs:
        a = op.attributes.get(key)
        if a is None:
            continue
        ok = isinstance(a, IntAttr) and a.type == f"i{bits}" and \
            -(1 << (bits - 1)) <= a.value < (1 << (bits - 1)) and \
            (a.value > 0 if pred == POSITIVE else a.value >= 0)
        if not ok:
            _fail(op, f"attribute '{key}' failed to satisfy constraint: {bits}-bit signless integer "
                      f"attribute whose value is {pred}", (op.attr_locations or {}).get(key))


_HLO_ELEMENTS = ("f4/f6/f8/f16/bf16/f32/f64, i1, 2/4/8/16/32/64-bit signless or unsigned integer, "
                 "complex or quantized")


def _value_types(op, d):
    """The dialect's type constraints common to every op: tensors are ranked
    (``RankedTensorOf``) unless the op's definition takes ``TensorOf``
    (registry ``unranked``), and hold StableHLO's element types (not, e.g.,
    the ``i10`` that MLIR's builtin types allow)."""
    allowed = d.unranked
    n = len(op.operands)
    for i, v in enumerate(list(op.operands) + list(op.results)):
        t = v.type
        if not isinstance(t, (TensorType, UnrankedTensorType)):
            continue
        what = f"operand #{i}" if i < n else f"result #{i - n}"
        may_be_unranked = allowed == ANY or (allowed and (i >= n or i in allowed))
        if isinstance(t, UnrankedTensorType) and not may_be_unranked:
            _fail(op, f"{what} must be ranked tensor of {_HLO_ELEMENTS} values, but got '{t}'")
        if t.element not in ELEMENT_TYPES and not t.element.startswith("!quant."):
            _fail(op, f"{what} must be {'' if may_be_unranked else 'ranked '}tensor of "
                      f"{_HLO_ELEMENTS} values, but got '{t}'")


def check_op(op) -> None:
    """Raise CompileError (located at ``op``) if ``op`` breaks a spec constraint."""
    if "tvm.shape_operands" in op.attributes:
        return      # passes/dynamism.py's form of a dynamism custom call: not a spec op
    d = OPS.get(op.name)
    if d is not None and op.dialect in ("stablehlo", "chlo"):
        _int_attrs(op, d)
        _value_types(op, d)
    if op.name in _NO_PER_AXIS:
        _per_axis_check(op)
    if op.name.startswith(_S):
        _quant_types(op)
        if "result_accuracy" in op.attributes:
            _result_accuracy(op)
        if "precision_config" in op.attributes:
            _precision_config(op)
    rule = RULES.get(op.name)
    if rule is None:
        return
    try:
        rule(op)
    except CompileError:
        raise
    except (IndexError, TypeError, ValueError, AttributeError, KeyError) as e:
        _fail(op, f"has malformed operands or attributes ({type(e).__name__}: {e})")
