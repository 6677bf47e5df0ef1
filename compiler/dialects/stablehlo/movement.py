"""StableHLO data-movement ops (broadcast, reshape, transpose, slice, pad,
concatenate, gather, iota, dynamic-shape forms) and their spec rules."""
from __future__ import annotations

from ...ir.attributes import DenseElementsAttr, StructAttr, ints
from ...ir.types import TensorType
from ...ir.symbolic import Dim, cdiv, make, shape_product
from ..opdef import (
    STRUCTURED, HOST, DECOMPOSED, INDEX_REMAP, CONSTANT, KEEPS_ELEMENT, OWN, NON_NEGATIVE, MOVE,
    ALIAS, VIEW, BROADCAST, NATIVE_SCALAR, CHEAP, defop)
from ..checks import (
    S, always, attr_ints, bounds_of, compat, compat_shapes, const_ints, dims_attr, element_of,
    expect_result, fail, fail_structure, in_range, is_quant, op_shapes, rank_of, shape_of)
from ..dims import dims_declared, dims_from_operand, dims_same_as_first
from ..quant_checks import keeps_quant


def _broadcast_in_dim(op):
    if op.name == S + "broadcast_in_dim":
        _single_bounded(op)
    xs, rs = shape_of(op.operands[0]), shape_of(op.results[0])
    dims = attr_ints(op, "broadcast_dimensions")
    if xs is None or rs is None:
        return
    if element_of(op.operands[0]) != element_of(op.results[0]) and not is_quant(element_of(op.results[0])):
        fail(op, "expects operand and result to have compatible element type")
    if len(dims) != len(xs):
        fail(op, f"broadcast_dimensions size ({len(dims)}) does not match operand rank ({len(xs)})")
    in_range(op, "broadcast_dimensions", dims, len(rs))
    for i, d in enumerate(dims):
        if xs[i] is not None and rs[d] is not None and xs[i] not in (1, rs[d]):
            fail(op, f"size of operand dimension {i} ({xs[i]}) is not equal to 1 or size of "
                     f"result dimension {d} ({rs[d]})")


def _transpose(op):
    xs = shape_of(op.operands[0])
    perm = attr_ints(op, "permutation")
    if xs is None:
        return
    if sorted(perm) != list(range(len(xs))):
        fail(op, f"permutation {list(perm)} is not a permutation of the operand dimensions")
    expect_result(op, [xs[p] for p in perm])


def _reverse(op):
    """reverse's dims: present, in range, unique (the one check of them)."""
    xs = shape_of(op.operands[0])
    if xs is not None:
        if "dimensions" not in op.attributes:
            fail_structure(op, "needs a dimensions attribute")
        in_range(op, "dimensions", attr_ints(op, "dimensions"), len(xs))
        expect_result(op, xs)


def _concatenate(op):
    shapes = [shape_of(v) for v in op.operands]
    if not shapes:
        fail(op, "expected 1 or more operands, but found 0")
    if any(s is None for s in shapes):
        return
    dim = attr_ints(op, "dimension", (0,))[0]
    rank = len(shapes[0])
    if not 0 <= dim < rank:
        fail(op, f"dimension {dim} is out-of-bounds for input rank {rank}")
    out = list(shapes[0])
    for i, s in enumerate(shapes[1:], start=1):
        if len(s) != rank:
            fail(op, f"operands (0) and ({i}) do not match rank")
        for k in range(rank):
            if k != dim and not compat(out[k], s[k]):
                fail(op, f"shapes of operand (0) and ({i}) are not compatible at non-concat "
                         f"index {k}")
            if k != dim and out[k] is None:
                out[k] = s[k]
        out[dim] = None if out[dim] is None or s[dim] is None else out[dim] + s[dim]
    expect_result(op, out)


def _slice(op):
    xs = shape_of(op.operands[0])
    if xs is None:
        return
    start, limit = attr_ints(op, "start_indices"), attr_ints(op, "limit_indices")
    strides = attr_ints(op, "strides", (1,) * len(xs))
    if not len(start) == len(limit) == len(strides) == len(xs):
        fail(op, f"the number of elements in start_indices ({len(start)}), limit_indices "
                 f"({len(limit)}) and strides ({len(strides)}) must match the operand rank {len(xs)}")
    out = []
    for k, (a, b, s, d) in enumerate(zip(start, limit, strides, xs)):
        if a < 0 or s <= 0 or b < a or (d is not None and b > d):
            fail(op, f"invalid slice [{a}:{b}:{s}] of dimension {k} (size {d})")
        out.append(-(-(b - a) // s))
    expect_result(op, out)


def padded_size(d, lo, hi, interior):
    """One dim of pad's result, ``lo + d + (d - 1) * interior + hi`` with no
    interior padding in an empty dim: ints, symbolic dims (ir/symbolic.py) or
    None for unknown.  The verifier and shape inference (its shape rule below)
    both read it."""
    if d is None:
        return None
    gaps = max(d - 1, 0) if isinstance(d, int) else make("-", d, 1)
    body = d if not interior else make("+", d, make("*", gaps, interior))
    return make("+", make("+", body, lo), hi)


def _pad(op):
    xs = shape_of(op.operands[0])
    if xs is None:
        return
    lo, hi = attr_ints(op, "edge_padding_low"), attr_ints(op, "edge_padding_high")
    interior = attr_ints(op, "interior_padding")
    if shape_of(op.operands[1]) not in (None, ()):
        fail(op, f"padding value type should be a rank-0 tensor, is rank {len(shape_of(op.operands[1]))}")
    if not len(lo) == len(hi) == len(interior) == len(xs):
        fail(op, f"edge_padding_low, edge_padding_high and interior_padding must have "
                 f"{len(xs)} elements (the operand rank)")
    if any(i < 0 for i in interior):
        fail(op, "Interior padding cannot be negative")
    out = [padded_size(*dims) for dims in zip(xs, lo, hi, interior)]
    for k, n in enumerate(out):
        if n is not None and n < 0:
            fail(op, f"Padding result in negative size for dimension {k}")
    expect_result(op, out)


def _same_index_type(op, indices):
    """The start indices of dynamic_slice / dynamic_update_slice share one type."""
    if len({element_of(v) for v in indices}) > 1:
        fail(op, "start indices must have same element type (failed to infer returned types)")


def _dynamic_slice(op):
    xs = shape_of(op.operands[0])
    if xs is None:
        return
    _same_index_type(op, op.operands[1:])
    sizes = attr_ints(op, "slice_sizes")
    if len(op.operands) - 1 != len(xs):
        fail(op, f"has mismatched number of start indices ({len(op.operands) - 1}) and the "
                 f"rank of operand ({len(xs)})")
    for i, v in enumerate(op.operands[1:], start=1):
        if shape_of(v) not in (None, ()):
            fail(op, f"start indices must be 0-dimensional tensors (operand #{i})")
    if len(sizes) != len(xs):
        fail(op, f"has mismatched number of slice sizes ({len(sizes)}) and the rank of operand "
                 f"({len(xs)})")
    for k, (s, d) in enumerate(zip(sizes, xs)):
        if s < 0 or (d is not None and s > d):
            fail(op, f"has slice size {s} of dimension {k} out of the bounds of the operand ({d})")
    expect_result(op, sizes)


def _dynamic_update_slice(op):
    xs, us = shape_of(op.operands[0]), shape_of(op.operands[1])
    if xs is None or us is None:
        return
    if len(us) != len(xs):
        fail(op, f"update rank ({len(us)}) does not match operand rank ({len(xs)})")
    if len(op.operands) - 2 != len(xs):
        fail(op, f"expects number of start_indices ({len(op.operands) - 2}) to match the rank "
                 f"of operand ({len(xs)})")
    _same_index_type(op, op.operands[2:])
    for k, (u, d) in enumerate(zip(us, xs)):
        if u is not None and d is not None and u > d:
            fail(op, f"expects size at dimension {k} of update to be in range [0, {d}], got {u}")
    expect_result(op, xs)


def _iota(op):
    rs = shape_of(op.results[0])
    d = attr_ints(op, "iota_dimension", (0,))[0]
    if rs is not None and not 0 <= d < max(len(rs), 1):
        fail(op, "iota dimension cannot go beyond the output rank")


def _single_bounded(op):
    """broadcast_in_dim / reshape (StablehloOps.td): the result is statically
    shaped or has one dynamic dimension, and that one bounded."""
    r = op.results[0].type if op.results else None
    if not isinstance(r, TensorType) or r.is_static:
        return
    bounds = bounds_of(r) or ()
    dynamic = [k for k, d in enumerate(r.shape) if d is None]
    if len(dynamic) != 1 or len(bounds) != r.rank or bounds[dynamic[0]] is None:
        fail(op, f"result #0 must be statically shaped or single bounded dimension tensor, but got '{r}'")


def _reshape(op):
    _single_bounded(op)
    xs, rs = shape_of(op.operands[0]), shape_of(op.results[0])
    if xs is None or rs is None or None in xs or None in rs:
        return
    n = m = 1
    for d in xs:
        n *= d
    for d in rs:
        m *= d
    if n != m:
        fail(op, f"number of output elements ({m}) doesn't match expected number of elements ({n})")


def _get_dimension_size(op):
    xs = shape_of(op.operands[0])
    d = attr_ints(op, "dimension", (0,))[0]
    if xs is not None and not 0 <= d < len(xs):
        fail(op, f"requires dimension attribute in range [0, {len(xs)}); found ({d})")


def _gather_dims(op):
    a = op.attributes.get("dimension_numbers")
    f = a.fields if isinstance(a, StructAttr) else {}
    g = {k: tuple(f.get(k, ())) for k in ("offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                          "start_indices_batching_dims", "start_index_map")}
    g["index_vector_dim"] = f.get("index_vector_dim", 0)
    return g


def _gather(op):
    xs, ix = shape_of(op.operands[0]), shape_of(op.operands[1])
    if xs is None or ix is None:
        return
    g = _gather_dims(op)
    if op.name == S + "gather":
        sizes = attr_ints(op, "slice_sizes")
    else:
        src = op.operands[2].defining_op
        value = src.attributes.get("value") if src is not None and src.name == S + "constant" else None
        sizes = ints(value) if isinstance(value, DenseElementsAttr) else None
    ivd = g["index_vector_dim"]
    if not 0 <= ivd <= len(ix):
        fail(op, f"index_vector_dim {ivd} is out of bounds for start indices with rank {len(ix)}")
    offs, coll, obatch = g["offset_dims"], g["collapsed_slice_dims"], g["operand_batching_dims"]
    if list(offs) != sorted(set(offs)):
        fail(op, "expects offset_dims to be sorted and not to have duplicates")
    if list(coll) != sorted(set(coll)):
        fail(op, "expects collapsed_slice_dims to be sorted and not to have duplicates")
    if list(obatch) != sorted(obatch):
        fail(op, f"expects operand_batching_dims to be sorted, got: {list(obatch)}")
    in_range(op, "collapsed_slice_dims", coll, len(xs))
    in_range(op, "operand_batching_dims", obatch, len(xs))
    if set(coll) & set(obatch):
        fail(op, "has overlapping collapsed_slice_dims and operand_batching_dims")
    in_range(op, "start_indices_batching_dims", g["start_indices_batching_dims"], len(ix))
    if ivd in g["start_indices_batching_dims"]:
        fail(op, "expects start_indices_batching_dims not to contain index_vector_dim")
    if len(obatch) != len(g["start_indices_batching_dims"]):
        fail(op, "operand_batching_dims and start_indices_batching_dims must have the same size")
    for k, (a, b) in enumerate(zip(obatch, g["start_indices_batching_dims"])):
        if not compat(xs[a], ix[b]):
            fail(op, f"operand_batching_dims[{k}] and start_indices_batching_dims[{k}] must have "
                     f"compatible sizes, but got {xs[a]} and {ix[b]}")
    in_range(op, "start_index_map", g["start_index_map"], len(xs))
    if set(g["start_index_map"]) & set(obatch):
        fail(op, "has overlapping start_index_map and operand_batching_dims")
    index_size = ix[ivd] if ivd < len(ix) else 1
    if index_size is not None and len(g["start_index_map"]) != index_size:
        fail(op, f"start_index_map size ({len(g['start_index_map'])}) is not equal to size of "
                 f"index dimension ({ivd}) of start_indices ({index_size})")
    if sizes is None:       # dynamic_gather with slice sizes known only at run time: their count
        count = (shape_of(op.operands[2]) or (None,))[0] if len(op.operands) > 2 else None
        if count is None:
            return
        sizes = (None,) * count
    if len(sizes) != len(xs):
        fail(op, f"slice_sizes size ({len(sizes)}) not equal to (implied) operand rank ({len(xs)})")
    for k, (s, d) in enumerate(zip(sizes, xs)):
        if s is not None and (s < 0 or (d is not None and s > d)):
            fail(op, f"slice size ({s}) is out of bounds for operand dimension ({d}) at index {k}")
    for k in tuple(coll) + tuple(obatch):
        if sizes[k] is not None and sizes[k] > 1:
            fail(op, f"slice_sizes collapsed dimension {k} should <= 1 but got {sizes[k]}")
    window = [s for k, s in enumerate(sizes) if k not in coll and k not in obatch]
    if len(window) != len(offs):
        fail(op, f"offset_dims size ({len(offs)}) plus collapse_slice_dims size ({len(coll)}) "
                 f"plus operand_batching_dims size ({len(obatch)}) is not equal to operand rank "
                 f"({len(xs)})")
    batch = [d for k, d in enumerate(ix) if k != ivd]
    rank = len(batch) + len(offs)
    in_range(op, "offset_dims", offs, rank)
    out, bi, wi = [], iter(batch), iter(window)
    for k in range(rank):
        out.append(next(wi) if k in offs else next(bi))
    expect_result(op, out)


def _broadcast(op):
    """broadcast: ``broadcast_sizes`` prepended to the operand's shape."""
    xs = shape_of(op.operands[0])
    if xs is not None:
        expect_result(op, tuple(attr_ints(op, "broadcast_sizes")) + tuple(xs))


def _dynamic_pad(op):
    """dynamic_pad: one low/high/interior entry per operand dim; with constant
    padding, the result is the padded shape."""
    x, pv, *pads = op.operands
    xs = shape_of(x)
    if xs is None or len(pads) != 3:
        return
    for v in pads:
        ps = shape_of(v)
        if ps is not None and len(ps) == 1 and ps[0] is not None and ps[0] != len(xs):
            fail(op, f"padding operands size ({ps[0]}) must match operand rank ({len(xs)})")
    low, high, interior = (const_ints(v) for v in pads)
    if interior is not None:
        for d in interior:
            if d < 0:
                fail(op, f"interior_padding must be non-negative, but got {d}")
    rs = shape_of(op.results[0])
    if None in (low, high, interior) or rs is None or not len(low) == len(high) == len(interior) == len(xs):
        return
    for k, (d, lo, hi, it, r) in enumerate(zip(xs, low, high, interior, rs)):
        if d is None or r is None:
            continue
        want = d + lo + hi + max(d - 1, 0) * it
        if want != r:
            fail(op, f"expected output dimension at index {k} to equal {want}, but got {r}")


def _dynamic_broadcast_in_dim(op):
    _broadcast_in_dim(op)
    out = shape_of(op.operands[1])
    rs = shape_of(op.results[0])
    if out is None or len(out) != 1 or out[0] is None:
        fail(op, f"op operand #1 must be statically shaped 1-dimensional tensor, got '{op.operands[1].type}'")
    if rs is not None and out[0] != len(rs):
        fail(op, f"result rank ({len(rs)}) does not match the output_dimensions length ({out[0]})")
    xs = shape_of(op.operands[0])
    values = const_ints(op.operands[1])
    if values is not None and rs is not None and len(values) == len(rs):
        if any(v < 0 for v in values) or not compat_shapes(rs, tuple(values)):
            fail(op, f"output shape {list(values)} is incompatible with return type of operation "
                     f"'{op.results[0].type}'")
        for i, d in enumerate(attr_ints(op, "broadcast_dimensions")):
            if xs is not None and i < len(xs) and 0 <= d < len(values) and \
                    xs[i] is not None and xs[i] not in (1, values[d]):
                fail(op, f"size of operand dimension {i} ({xs[i]}) is not equal to 1 or value of "
                         f"shape at index {d} ({values[d]})")
    exp = attr_ints(op, "known_expanding_dimensions")
    non = attr_ints(op, "known_nonexpanding_dimensions")
    if len(set(exp) | set(non)) != len(exp) + len(non):
        fail(op, "duplicate expansion hint for at least one operand dimension")
    for d in tuple(exp) + tuple(non):
        if xs is not None and not 0 <= d < len(xs):
            fail(op, f"hint for expanding dimension {d} does not refer to a valid operand dimension")


def _output_shape_operand(op, index):
    """Checks of an ``output_shape`` operand (1-D, static, one entry per result dim)."""
    v, rs = op.operands[index], shape_of(op.results[0])
    ss = shape_of(v)
    if ss is None or len(ss) != 1 or ss[0] is None:
        fail(op, f"op operand #{index} must be statically shaped 1-dimensional tensor, got '{v.type}'")
    if rs is not None and ss[0] != len(rs):
        fail(op, f"result should have a rank equal to the number of elements in output_shape")
    dims = const_ints(v)
    if dims is not None and rs is not None:
        if not compat_shapes(rs, tuple(d if d >= 0 else -1 for d in dims)) or any(d < 0 for d in dims):
            fail(op, f"output shape {list(dims)} is incompatible with return type of operation "
                     f"'{op.results[0].type}'")
    return dims


def _dynamic_reshape(op):
    x = op.operands[0]
    if element_of(x) != element_of(op.results[0]) and not is_quant(element_of(x)):
        fail(op, "expects operand and result to have compatible element type")
    dims = _output_shape_operand(op, 1)
    xs, rs = shape_of(x), shape_of(op.results[0])
    if xs is not None and None not in xs:
        n = 1
        for d in xs:
            n *= d
        if rs is not None and None not in rs:
            m = 1
            for d in rs:
                m *= d
            if m != n:
                fail(op, f"number of output elements ({m}) doesn't match expected number of elements ({n})")
        if dims is not None and all(d >= 0 for d in dims):
            m = 1
            for d in dims:
                m *= d
            if m != n:
                fail(op, f"output_shape is incompatible with input type of operation: input has {n} "
                         f"elements, but output_shape has {m}")


def _dynamic_iota(op):
    _iota(op)
    _output_shape_operand(op, 0)


def _set_dimension_size(op):
    xs = shape_of(op.operands[0])
    d = attr_ints(op, "dimension", (0,))[0]
    if xs is None:
        return
    if d >= len(xs):
        fail(op, f"requires dimension attribute in range [0, {len(xs)}); found ({d})")
    if shape_of(op.operands[1]) not in (None, ()):
        fail(op, "size operand must be a 0-dimensional tensor")
    out = list(xs)
    size = const_ints(op.operands[1])
    out[d] = size[0] if size else None
    expect_result(op, out)


def _torch_index_select(op):
    got = op_shapes(op)
    if got is None or len(op.operands) != 2:
        return
    (xs, idx), outs = got
    dim = getattr(op.attributes.get("dim"), "value", None)
    nb = getattr(op.attributes.get("batch_dims"), "value", None)
    if not isinstance(dim, int) or not isinstance(nb, int):
        fail(op, "requires integer attributes 'dim' and 'batch_dims'")
    rank = len(xs)
    d = dim + rank if dim < 0 else dim
    if not 0 <= d < rank:
        fail(op, f"dim {dim} is out of range for an operand of rank {rank}")
    if not 0 <= nb <= min(d, len(idx)):
        fail(op, f"batch_dims {nb} must be in [0, min(dim, index rank)] = [0, {min(d, len(idx))}]")
    el = op.operands[1].type.element
    if not el.lstrip("u").startswith("i") or el == "i1":
        fail(op, f"index must be a tensor of integers, got element type {el}")
    want = tuple(xs[:d]) + tuple(idx[nb:]) + tuple(xs[d + 1:])
    res = outs[0] if outs else ()
    if len(res) != len(want) or any(a is not None and b is not None and a != b
                                    for a, b in zip(res, want)):
        fail(op, f"result shape {list(res)} does not match operand[:dim] ++ index[batch_dims:] "
                 f"++ operand[dim + 1:] = {list(want)}")
    for k in range(nb):
        if xs[k] is not None and idx[k] is not None and xs[k] != idx[k]:
            fail(op, f"batch dim {k} has size {xs[k]} in the operand and {idx[k]} in the index")


def _check_constant(v, op, func):
    value = op.attributes.get("value")
    ty = getattr(value, "type", None)
    if ty is None:
        fail_structure(op, "needs a value attribute")
    if op.results and ty != op.results[0].type and not _quantized_storage(ty, op.results[0].type):
        fail_structure(op, f"value has type {ty} but the result is {op.results[0].type}")



def _quantized_storage(value_type, result_type) -> bool:
    """A quantized constant holds its storage values: ``dense<..> : tensor<2xi8>``
    for ``tensor<2x!quant.uniform<i8:f32, ..>>``."""
    el = getattr(result_type, "element", "")
    if not el.startswith("!quant."):
        return False
    storage = el.split("<", 1)[1].split(":", 1)[0].split("<", 1)[0].strip()
    return getattr(value_type, "shape", None) == result_type.shape and \
        value_type.element in (storage, storage.removeprefix("s"))




def _transpose_dims(v, op, func):
    rank = rank_of(op.operands)
    if rank is not None:
        dims_attr(op, "permutation", rank, length=rank)


def _broadcast_in_dim_dims(v, op, func):
    rank = rank_of(op.operands)
    if rank is not None:
        dims_attr(op, "broadcast_dimensions", rank_of(op.results), length=rank)


def _concatenate_dims(v, op, func):
    rank = rank_of(op.operands)
    if rank is None:
        return
    if op.attributes.get("dimension") is None:
        fail_structure(op, "needs a dimension attribute")
    dims_attr(op, "dimension", rank, length=1)
    if any(getattr(x.type, "rank", None) != rank for x in op.operands):
        fail_structure(op, "operands must all have the same rank")


def _iota_dims(v, op, func):
    dims_attr(op, "iota_dimension", rank_of(op.results), length=1)


def _slice_dims(v, op, func):
    rank = rank_of(op.operands)
    if rank is None:
        return
    for key in ("start_indices", "limit_indices"):
        dims_attr(op, key, None, length=rank, unique=False)
    dims_attr(op, "strides", None, length=rank, unique=False, required=False)


def _dynamic_slice_dims(v, op, func):
    rank = rank_of(op.operands)
    if rank is None:
        return
    if len(op.operands) != 1 + rank:
        fail_structure(op, f"takes the operand and {rank} start indices, got "
                           f"{len(op.operands)} operands")
    dims_attr(op, "slice_sizes", None, length=rank, unique=False)


def _dynamic_update_slice_dims(v, op, func):
    rank = rank_of(op.operands)
    if rank is not None and len(op.operands) != 2 + rank:
        fail_structure(op, f"takes the operand, the update and {rank} start indices, got "
                           f"{len(op.operands)} operands")


def _gather_numbers(v, op, func):
    if rank_of(op.operands) is not None and \
            not isinstance(getattr(op.attributes.get("dimension_numbers"), "fields", None), dict):
        fail_structure(op, "needs a dimension_numbers attribute")


# -- noop rules (opdef ``noop``): the result type equals operand 0's ---------------------------

def _rank(op):
    return len(op.results[0].type.shape)


def _noop_transpose(op):
    return attr_ints(op, "permutation") == tuple(range(_rank(op)))


def _noop_broadcast_in_dim(op):
    return attr_ints(op, "broadcast_dimensions") == tuple(range(_rank(op)))


def _noop_pad(op):
    return all(p == 0 for key in ("edge_padding_low", "edge_padding_high", "interior_padding")
               for p in attr_ints(op, key))


def _noop_reverse(op):
    return all(op.results[0].type.shape[d] == 1 for d in attr_ints(op, "dimensions"))


def _noop_concatenate(op):
    return len(op.operands) == 1


# -- shape rules (opdef ``shape``; dialects/dims.py) ----------------------------------------

def _dims_broadcast_in_dim(S, op):
    x = op.operands[0]
    xd = S.dims(x)
    out = [None] * op.result.type.rank
    for k, d in enumerate(ints(op.attr("broadcast_dimensions"))):
        if not (isinstance(xd[k], int) and xd[k] == 1):
            out[d] = xd[k]
    return [tuple(out)]


def _dims_reshape(S, op):
    src = S.dims(op.operands[0])
    out = op.result.type.shape
    if all(d is not None for d in out):
        return None
    a = [d for d in src if not (isinstance(d, int) and d == 1)]
    b = [k for k, d in enumerate(out) if d != 1]
    if len(a) == len(b) and all(out[k] is None or not isinstance(a[i], Dim) or True
                                for i, k in enumerate(b)):
        res = list(out)
        ok = True
        for i, k in enumerate(b):
            if out[k] is None:
                res[k] = a[i]
            elif isinstance(a[i], int) and a[i] != out[k]:
                ok = False
        if ok:
            return [tuple(res)]
    unknown = [k for k, d in enumerate(out) if d is None]
    if len(unknown) != 1:
        return None
    known = 1
    for d in out:
        if d is not None:
            known *= d
    total = shape_product(src)
    res = list(out)
    res[unknown[0]] = make("/", total, known) if known else 0
    return [tuple(res)]


def _dims_transpose(S, op):
    d = S.dims(op.operands[0])
    return [tuple(d[p] for p in ints(op.attr("permutation")))]


def _dims_concatenate(S, op):
    dim = ints(op.attr("dimension"))[0]
    parts = [S.dims(v) for v in op.operands]
    for p in parts[1:]:
        for k, (a, b) in enumerate(zip(parts[0], p)):
            if k != dim:
                S.unify(a, b)
    parts = [S.dims(v) for v in op.operands]
    out = list(parts[0])
    out[dim] = 0
    for p in parts:
        out[dim] = make("+", out[dim], p[dim])
    return [tuple(out)]


def _dims_pad(S, op):
    x = S.dims(op.operands[0])
    lo, hi, interior = (ints(op.attr(n)) for n in ("edge_padding_low", "edge_padding_high",
                                                     "interior_padding"))
    return [tuple(padded_size(d, lo[k], hi[k], interior[k]) for k, d in enumerate(x))]


def _dims_dynamic_pad(S, op):
    x = S.dims(op.operands[0])
    lo, hi, interior = (S.elements(op.operands[i]) for i in (2, 3, 4))
    S.params[op] = {"low": lo, "high": hi, "interior": interior}
    return [tuple(padded_size(d, lo[k], hi[k], interior[k]) for k, d in enumerate(x))]


def _dims_real_dynamic_slice(S, op):
    start, limit, strides = (S.elements(op.operands[i]) for i in (1, 2, 3))
    S.params[op] = {"start": start, "strides": strides}
    return [tuple(cdiv(make("-", limit[k], start[k]), strides[k]) for k in range(len(start)))]


def _dims_gather(S, op):
    x, idx = op.operands[:2]
    dn = op.attr("dimension_numbers").fields
    offset_dims = tuple(dn.get("offset_dims", ()))
    collapsed = set(dn.get("collapsed_slice_dims", ())) | set(dn.get("operand_batching_dims", ()))
    ivd = dn.get("index_vector_dim", 0)
    if op.name == "stablehlo.dynamic_gather":
        sizes = S.elements(op.operands[2])
        S.params[op] = {"slice_sizes": sizes}
    else:
        sizes = ints(op.attr("slice_sizes"))
    idims = S.dims(idx)
    batch = [d for k, d in enumerate(idims) if k != ivd]
    window = [s for k, s in enumerate(sizes) if k not in collapsed]
    out, bi, wi = [], iter(batch), iter(window)
    for k in range(op.result.type.rank):
        out.append(next(wi) if k in offset_dims else next(bi))
    return [tuple(out)]


OPS = (
    defop('stablehlo.broadcast', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, types=KEEPS_ELEMENT, keywords=(('sizes', 'broadcast_sizes', 'dims'),), verify=(_broadcast,), quant=MOVE, traits=(BROADCAST,)),
    defop('stablehlo.broadcast_in_dim', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, min_operands=1, types=KEEPS_ELEMENT, host_value=True, shape=_dims_broadcast_in_dim, keywords=(('dims', 'broadcast_dimensions', 'dims'),), verify=(keeps_quant, _broadcast_in_dim,), structure=(_broadcast_in_dim_dims,), quant=MOVE, traits=(VIEW, BROADCAST, NATIVE_SCALAR), noop=_noop_broadcast_in_dim, recompute=CHEAP),
    defop('stablehlo.concatenate', STRUCTURED, fusion=INDEX_REMAP, results=1, min_operands=1, types=KEEPS_ELEMENT, host_value=True, shape=_dims_concatenate, keywords=(('dim', 'dimension', 'int'),), int_attrs=(('dimension', 64, NON_NEGATIVE),), verify=(_concatenate,), structure=(_concatenate_dims,), quant=MOVE, noop=_noop_concatenate),
    defop('stablehlo.constant', STRUCTURED, fusion=CONSTANT, operands=0, results=1, syntax=OWN, host_value=True, shape=dims_declared, structure=(_check_constant,), traits=(NATIVE_SCALAR,)),
    defop('stablehlo.dynamic_broadcast_in_dim', STRUCTURED, fusion=INDEX_REMAP, min_operands=2, types=KEEPS_ELEMENT, shape=dims_from_operand(1), keywords=(('dims', 'broadcast_dimensions', 'dims'),), verify=(keeps_quant, _dynamic_broadcast_in_dim,), quant=MOVE, traits=(BROADCAST,), shape_operands=(1,)),
    defop('stablehlo.dynamic_gather', STRUCTURED, fusion=INDEX_REMAP, shape=_dims_gather, verify=(_gather,), shape_operands=(2,), static_form=('stablehlo.gather', 2, ((2, 'slice_sizes'),)), pull='pull_ops:gather'),
    defop('stablehlo.dynamic_iota', STRUCTURED, fusion=INDEX_REMAP, min_operands=1, shape=dims_from_operand(0), keywords=(('dim', 'iota_dimension', 'int'),), int_attrs=(('iota_dimension', 64, NON_NEGATIVE),), verify=(_dynamic_iota,), shape_operands=(0,)),
    defop('stablehlo.dynamic_pad', STRUCTURED, fusion=INDEX_REMAP, min_operands=5, shape=_dims_dynamic_pad, verify=(_dynamic_pad,), quant=MOVE, shape_operands=(2, 3, 4), static_form=('stablehlo.pad', 2, ((2, 'edge_padding_low'), (3, 'edge_padding_high'), (4, 'interior_padding')))),
    defop('stablehlo.dynamic_reshape', STRUCTURED, fusion=INDEX_REMAP, min_operands=2, types=KEEPS_ELEMENT, shape=dims_from_operand(1), verify=(_dynamic_reshape,), quant=MOVE, traits=(ALIAS,), shape_operands=(1,)),
    defop('stablehlo.dynamic_slice', STRUCTURED, fusion=INDEX_REMAP, min_operands=1, types=KEEPS_ELEMENT, shape=dims_declared, keywords=(('sizes', 'slice_sizes', 'dims'),), verify=(_dynamic_slice,), per_axis=False, structure=(_dynamic_slice_dims,), quant=MOVE, pull='pull_ops:dynamic_slice'),
    defop('stablehlo.dynamic_update_slice', STRUCTURED, fusion=INDEX_REMAP, min_operands=2, types=KEEPS_ELEMENT, shape=dims_same_as_first, verify=(_dynamic_update_slice,), per_axis=False, structure=(_dynamic_update_slice_dims,), quant=MOVE, pull='pull_ops:dynamic_update_slice'),
    defop('stablehlo.gather', STRUCTURED, fusion=INDEX_REMAP, operands=2, results=1, shape=_dims_gather, verify=(_gather,), structure=(_gather_numbers,), quant=MOVE, pull='pull_ops:gather'),
    defop('stablehlo.get_dimension_size', HOST, operands=1, results=1, host_value=True, shape=dims_declared, keywords=(('dim', 'dimension', 'int'),), int_attrs=(('dimension', 64, NON_NEGATIVE),), verify=(_get_dimension_size,), quant=MOVE),
    defop('stablehlo.iota', STRUCTURED, fusion=INDEX_REMAP, operands=0, results=1, shape=dims_declared, keywords=(('dim', 'iota_dimension', 'int'),), int_attrs=(('iota_dimension', 64, NON_NEGATIVE),), verify=(_iota,), structure=(_iota_dims,)),
    defop('stablehlo.pad', STRUCTURED, fusion=INDEX_REMAP, operands=2, results=1, min_operands=2, types=KEEPS_ELEMENT, shape=_dims_pad, keywords=(('low', 'edge_padding_low', 'dims'), ('high', 'edge_padding_high', 'dims'), ('interior', 'interior_padding', 'dims')), verify=(_pad,), per_axis=False, quant=MOVE, noop=_noop_pad),
    defop('stablehlo.real_dynamic_slice', STRUCTURED, fusion=INDEX_REMAP, min_operands=4, shape=_dims_real_dynamic_slice, quant=MOVE, shape_operands=(1, 2, 3)),
    defop('stablehlo.reshape', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, types=KEEPS_ELEMENT, host_value=True, shape=_dims_reshape, verify=(keeps_quant, _reshape,), quant=MOVE, traits=(ALIAS, VIEW, NATIVE_SCALAR), noop=always, recompute=CHEAP),
    defop('stablehlo.reverse', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, min_operands=1, types=KEEPS_ELEMENT, shape=dims_same_as_first, keywords=(('dims', 'dimensions', 'dims'),), verify=(_reverse,), per_axis=False, quant=MOVE, noop=_noop_reverse),
    defop('stablehlo.set_dimension_size', DECOMPOSED, syntax=OWN, reason='a static dim set to its own size forwards the operand; a dynamic or bounded result dim is a real_dynamic_slice of the first size elements', keywords=(('dim', 'dimension', 'int'),), int_attrs=(('dimension', 64, NON_NEGATIVE),), verify=(_set_dimension_size,), rewrite='decompose_host:_set_dimension_size'),
    defop('stablehlo.slice', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, min_operands=1, types=KEEPS_ELEMENT, syntax=OWN, host_value=True, shape=dims_declared, verify=(_slice,), per_axis=False, structure=(_slice_dims,), quant=MOVE, noop=always, recompute=CHEAP, parser='parse_slice'),
    defop('stablehlo.torch_index_select', DECOMPOSED, reason='gather of size-1 slices along dim, batch_dims as gather batching dims', verify=(_torch_index_select,), rewrite='decompose_einsum:_torch_index_select'),
    defop('stablehlo.transpose', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, min_operands=1, types=KEEPS_ELEMENT, shape=_dims_transpose, keywords=(('dims', 'permutation', 'dims'),), verify=(keeps_quant, _transpose,), structure=(_transpose_dims,), quant=MOVE, traits=(VIEW,), noop=_noop_transpose, recompute=CHEAP),
)
