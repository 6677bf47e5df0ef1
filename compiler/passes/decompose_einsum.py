"""``stablehlo.einsum`` / ``unary_einsum`` and ``torch_index_select`` as
plain StableHLO (passes/decompose.py registers them).

einsum ``"<lhs>,<rhs>-><out>"`` (or ``"<in>-><out>"``; without ``->`` the
output is numpy's implicit one: the letters seen once, sorted; ``...``
stands for the dims no letter names, right-aligned):

1. a letter repeated within one operand takes the diagonal: ``select`` of
   the elements where the two ``iota``s agree, then a sum over one of the
   two dims;
2. a letter in one operand only and not in the output is summed there
   (``reduce``);
3. two operands: ``dot_general`` with the letters of both operands and the
   output as batch dims, those of both operands only as contracting dims;
4. a ``transpose`` into the output's order.

Operands are converted to the result's element type first (the verifier
allows e.g. i4 x i4 -> i8).

torch_index_select(operand, index, dim, batch_dims) is a ``gather`` of
size-1 slices along ``dim`` (``dim`` collapsed), the first ``batch_dims``
dims of both as gather batching dims: result shape
``operand[:dim] ++ index[batch_dims:] ++ operand[dim + 1:]``.
"""
from __future__ import annotations

from ..ir.attributes import BoolAttr, DenseArrayAttr, StructAttr
from ..ir import einsum_config
from ..ir.types import TensorType
from .op_builder import Builder

def _diagonal(b, x, labels):
    """``x`` with every repeated label reduced to its diagonal."""
    while True:
        seen = {}
        dup = None
        for i, l in enumerate(labels):
            if l in seen:
                dup = (seen[l], i)
                break
            seen[l] = i
        if dup is None:
            return x, labels
        i, j = dup
        shape = x.type.shape
        if shape[i] != shape[j]:
            b.fail(f"repeated index {labels[i]!r} over dims of sizes {shape[i]} and {shape[j]}")
        same = b.compare(b.iota(shape, i), b.iota(shape, j), "EQ")
        masked = b.select(same, x, b.splat(x, 0))
        x = b.reduce(masked, [j])
        labels = labels[:j] + labels[j + 1:]


def _sum_out(b, x, labels, keep):
    dims = [i for i, l in enumerate(labels) if l not in keep]
    return b.reduce(x, dims), [l for l in labels if l in keep]


def _einsum(op) -> list:
    b = Builder(op)
    text = getattr(op.attributes.get("einsum_config"), "value", None)
    if not isinstance(text, str):
        b.fail("without an einsum_config string")
    out_t = op.results[0].type
    types = [v.type for v in op.operands] + [out_t]
    if not all(isinstance(t, TensorType) and t.is_static for t in types):
        b.fail("with dynamic shapes")
    n = len(op.operands)
    el = out_t.element
    try:
        labels, out_labels, sizes = einsum_config.parse(
            text, [len(v.type.shape) for v in op.operands], [v.type.shape for v in op.operands])
    except ValueError as e:
        b.fail(str(e))
    xs = []
    for k, (v, ls) in enumerate(zip(op.operands, labels)):
        others = set(labels[1 - k]) if n == 2 else set()
        v, ls = _diagonal(b, b.convert(v, el), ls)
        v, ls = _sum_out(b, v, ls, set(out_labels) | others)
        xs.append((v, ls))
    if n == 1:
        v, ls = xs[0]
    else:
        (x, lx), (y, ly) = xs
        batch = [l for l in lx if l in ly and l in out_labels]
        contract = [l for l in lx if l in ly and l not in out_labels]
        lfree = [l for l in lx if l not in ly]
        rfree = [l for l in ly if l not in lx]
        ls = batch + lfree + rfree
        shape = tuple(sizes[l] for l in ls)
        v = b.op("stablehlo.dot_general", [x, y], TensorType(shape, el), {
            "dot_dimension_numbers": StructAttr("stablehlo.dot", {
                "lhs_batching_dimensions": tuple(lx.index(l) for l in batch),
                "rhs_batching_dimensions": tuple(ly.index(l) for l in batch),
                "lhs_contracting_dimensions": tuple(lx.index(l) for l in contract),
                "rhs_contracting_dimensions": tuple(ly.index(l) for l in contract)})})
    v = b.transpose(v, [ls.index(l) for l in out_labels])
    if v.type.shape != out_t.shape:
        b.fail(f"einsum_config {text!r} gives shape {list(v.type.shape)}, the result type is {out_t}")
    return [v]


def _torch_index_select(op) -> list:
    b = Builder(op)
    x, idx = b.operands("operand, index")
    out_t = op.results[0].type
    types = [x.type, idx.type, out_t]
    if not all(isinstance(t, TensorType) and t.is_static for t in types):
        b.fail("with dynamic shapes")
    rank, irank = len(x.type.shape), len(idx.type.shape)
    dim = int(getattr(op.attributes.get("dim"), "value", -1))
    nb = int(getattr(op.attributes.get("batch_dims"), "value", 0))
    if dim < 0:
        dim += rank
    if not 0 <= dim < rank:
        b.fail(f"dim {dim} outside the operand's rank {rank}")
    if not 0 <= nb <= min(dim, irank):
        b.fail(f"batch_dims {nb} must be within [0, min(dim, index rank)] = [0, {min(dim, irank)}]")
    if x.type.shape[:nb] != idx.type.shape[:nb]:
        b.fail(f"batch dims of operand {x.type} and index {idx.type} differ")
    if not idx.type.element.lstrip("u").startswith("i") or idx.type.element == "i1":
        b.fail(f"with index element type {idx.type.element} (an integer type expected)")
    shape = x.type.shape[:dim] + idx.type.shape[nb:] + x.type.shape[dim + 1:]
    if tuple(shape) != out_t.shape:
        b.fail(f"result type {out_t} (expected shape {list(shape)})")
    n_idx = irank - nb
    offset = tuple(range(nb, dim)) + tuple(range(dim + n_idx, len(shape)))
    sizes = tuple(1 if d == dim or d < nb else s for d, s in enumerate(x.type.shape))
    g = b.op("stablehlo.gather", [x, idx], out_t, {
        "dimension_numbers": StructAttr("stablehlo.gather", {
            "offset_dims": offset, "collapsed_slice_dims": (dim,),
            "operand_batching_dims": tuple(range(nb)),
            "start_indices_batching_dims": tuple(range(nb)),
            "start_index_map": (dim,), "index_vector_dim": irank}),
        "slice_sizes": DenseArrayAttr("i64", sizes),
        "indices_are_sorted": BoolAttr(False)})
    return [g]
