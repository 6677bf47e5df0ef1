"""Per-op result-dim rules of the symbolic shape analysis (passes/shapes.py).

A rule takes the analysis ``S`` and an op and returns, per result, a tuple
of dims (int | Dim | None for "not derivable"), or None to trust the
declared type.  Rules unify operand dims that the op requires to be equal.
"""
from __future__ import annotations

from ..dialects.registry import OPS
from ..dialects.stablehlo.movement import padded_size
from ..errors import UnsupportedOpError
from ..ir.attributes import ints
from ..ir.symbolic import Dim, cdiv, make, shape_product
from ..ir.types import TensorType


def _tensor(v) -> bool:
    return isinstance(v.type, TensorType)


def elementwise(S, op):
    shaped = [v for v in op.operands if _tensor(v) and v.type.rank > 0]
    if not shaped:
        return [() for _ in op.results]
    base = S.dims(shaped[0])
    for v in shaped[1:]:
        for a, b in zip(base, S.dims(v)):
            S.unify(a, b)
    base = S.dims(shaped[0])
    return [base for _ in op.results]


def same_as_first(S, op):
    d = S.dims(op.operands[0])
    return [d if _tensor(r) and r.type.rank == len(d) else None for r in op.results]


def generic(S, op):
    """Same-rank results take the first operand's dims where undeclared."""
    for region in op.regions:
        for b in region.blocks:
            S.run_block(b)
    if op.operands and _tensor(op.operands[0]):
        return same_as_first(S, op)
    return None


def broadcast_in_dim(S, op):
    x = op.operands[0]
    xd = S.dims(x)
    out = [None] * op.result.type.rank
    for k, d in enumerate(ints(op.attr("broadcast_dimensions"))):
        if not (isinstance(xd[k], int) and xd[k] == 1):
            out[d] = xd[k]
    return [tuple(out)]


def from_shape_operand(index):
    def rule(S, op):
        shape = op.operands[index]
        return [tuple(S.element(shape, k) for k in range(op.result.type.rank))]
    return rule


def reshape(S, op):
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


def transpose(S, op):
    d = S.dims(op.operands[0])
    return [tuple(d[p] for p in ints(op.attr("permutation")))]


def concatenate(S, op):
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


def pad(S, op):
    x = S.dims(op.operands[0])
    lo, hi, interior = (ints(op.attr(n)) for n in ("edge_padding_low", "edge_padding_high",
                                                     "interior_padding"))
    return [tuple(padded_size(d, lo[k], hi[k], interior[k]) for k, d in enumerate(x))]


def dynamic_pad(S, op):
    x = S.dims(op.operands[0])
    lo, hi, interior = (S.elements(op.operands[i]) for i in (2, 3, 4))
    S.params[op] = {"low": lo, "high": hi, "interior": interior}
    return [tuple(padded_size(d, lo[k], hi[k], interior[k]) for k, d in enumerate(x))]


def real_dynamic_slice(S, op):
    start, limit, strides = (S.elements(op.operands[i]) for i in (1, 2, 3))
    S.params[op] = {"start": start, "strides": strides}
    return [tuple(cdiv(make("-", limit[k], start[k]), strides[k]) for k in range(len(start)))]


def reduce(S, op):
    n = len(op.operands) // 2
    first = S.dims(op.operands[0])
    for v in op.operands[1:n]:
        for a, b in zip(first, S.dims(v)):
            S.unify(a, b)
    dims = set(ints(op.attr("dimensions")))
    out = tuple(d for k, d in enumerate(S.dims(op.operands[0])) if k not in dims)
    return [out] * len(op.results)


def dot_general(S, op):
    lhs, rhs = (S.dims(v) for v in op.operands)
    dn = op.attr("dot_dimension_numbers").fields
    lb, rb = dn.get("lhs_batching_dimensions", ()), dn.get("rhs_batching_dimensions", ())
    lc, rc = dn.get("lhs_contracting_dimensions", ()), dn.get("rhs_contracting_dimensions", ())
    for a, b in list(zip(lb, rb)) + list(zip(lc, rc)):
        S.unify(lhs[a], rhs[b])
    lhs, rhs = (S.dims(v) for v in op.operands)
    out = [lhs[d] for d in lb]
    out += [lhs[d] for d in range(len(lhs)) if d not in lb and d not in lc]
    out += [rhs[d] for d in range(len(rhs)) if d not in rb and d not in rc]
    return [tuple(out)]


def dot(S, op):
    lhs, rhs = (S.dims(v) for v in op.operands)
    S.unify(lhs[-1], rhs[0])
    return [tuple(lhs[:-1]) + tuple(rhs[1:])]


def gather(S, op):
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


def reduce_window(S, op):
    from .dynamism import window_operands
    x = S.dims(op.operands[0])
    r = len(x)
    dyn = window_operands(op)
    if dyn is not None:     # a dynamic_reduce_window's window as host values
        win, strides, bdil, wdil, p = (S.elements(v) for v in dyn)
        S.params[op] = {"window_dimensions": win, "window_strides": strides,
                        "base_dilations": bdil, "window_dilations": wdil, "padding": p}
    else:
        win = ints(op.attr("window_dimensions"))
        strides = _or(op, "window_strides", r, 1)
        bdil = _or(op, "base_dilations", r, 1)
        wdil = _or(op, "window_dilations", r, 1)
        p = ints(op.attr("padding")) if op.attr("padding") is not None else ()
    out = []
    for k, d in enumerate(x):
        lo, hi = (p[2 * k], p[2 * k + 1]) if p else (0, 0)
        span = make("+", padded_size(d, lo, hi, make("-", bdil[k], 1)), 0)
        wspan = make("+", make("*", make("-", win[k], 1), wdil[k]), 1)
        out.append(make("+", make("/", make("-", span, wspan), strides[k]), 1))
    return [tuple(out)] * len(op.results)


def rng_bit_generator(S, op):
    """A dynamic_rng_bit_generator's output shape comes from its host operand."""
    if len(op.operands) < 2:
        return None
    return [S.dims(op.operands[0]), S.elements(op.operands[1])]


def top_k(S, op):
    """The operand's dims with k (attribute, or dynamic_top_k's host operand) last."""
    x = S.dims(op.operands[0])
    k = S.element(op.operands[1], 0) if len(op.operands) > 1 else \
        getattr(op.attributes.get("k"), "value", None)
    d = x[:-1] + (k,)
    return [d, d]


def convolution(S, op):
    lhs, rhs = (S.dims(v) for v in op.operands[:2])
    dn = op.attr("dimension_numbers").fields
    lsp, ksp, osp = (tuple(dn[k]) for k in ("input_spatial_dimensions",
                                           "kernel_spatial_dimensions", "output_spatial_dimensions"))
    ns = len(lsp)
    if op.name == "stablehlo.dynamic_conv":
        pads = S.elements(op.operands[2])
        S.params[op] = {"padding": pads}
    else:
        pads = ints(op.attr("padding")) if op.attr("padding") is not None else (0,) * (2 * ns)
        pads = pads or (0,) * (2 * ns)
    strides, ldil, rdil = (_or(op, n, ns, 1) for n in ("window_strides", "lhs_dilation",
                                                       "rhs_dilation"))
    gb = getattr(op.attributes.get("batch_group_count"), "value", 1)
    out = [None] * op.result.type.rank
    out[dn["output_batch_dimension"]] = make("/", lhs[dn["input_batch_dimension"]], gb)
    out[dn["output_feature_dimension"]] = rhs[dn["kernel_output_feature_dimension"]]
    for s in range(ns):
        span = padded_size(lhs[lsp[s]], pads[2 * s], pads[2 * s + 1], ldil[s] - 1)
        w = make("+", make("*", make("-", rhs[ksp[s]], 1), rdil[s]), 1)
        out[osp[s]] = make("+", make("/", make("-", span, w), strides[s]), 1)
    return [tuple(out)]


def _or(op, name, n, default):
    v = ints(op.attr(name)) if op.attr(name) is not None else ()
    return tuple(v) if v else (default,) * n


def while_(S, op):
    init = [S.dims(v) if _tensor(v) else () for v in op.operands]
    for region in op.regions:
        b = region.blocks[0]
        S.bind_block_args(b, init)
        S.run_block(b)
    body_ret = op.regions[1].blocks[0].terminator
    for v, d in zip(body_ret.operands, init):
        if _tensor(v) and S.dims(v) != tuple(S.resolve(x) for x in d):
            got = S.dims(v)
            for a, b in zip(got, d):
                S.unify(a, b)
            if S.dims(v) != tuple(S.resolve(x) for x in d):
                raise UnsupportedOpError(op.name, "with dynamic dims: a loop-carried value "
                                         "changes shape between iterations", op.location)
    return [tuple(S.resolve(x) for x in d) for d in init]


def branches(S, op):
    outs = None
    for region in op.regions:
        b = region.blocks[0]
        S.run_block(b)
        got = [S.dims(v) if _tensor(v) else () for v in b.terminator.operands]
        if outs is None:
            outs = got
            continue
        for r, x, y in zip(op.results, outs, got):
            for k, (a, c) in enumerate(zip(x, y)):
                S.unify(a, c)
                if _tensor(r) and r.type.shape[k] is None and S.resolve(a) != S.resolve(c):
                    raise UnsupportedOpError(op.name, "with dynamic dims: branches yield "
                                             "different shapes", op.location)
    return [tuple(S.resolve(x) for x in d) for d in outs]


def dispatch(S, op):
    b = op.regions[0].blocks[0]
    S.bind_block_args(b, [S.dims(v) if _tensor(v) else () for v in op.operands])
    S.run_block(b)
    return [S.dims(v) for v in b.terminator.operands]


def nothing(S, op):
    return None


def _map(S, op):
    generic(S, op)
    return elementwise(S, op)


# the registry names each op's rule (dialects/registry.py); tvm.dispatch is ours
_BY_NAME = {"broadcast_in_dim": broadcast_in_dim, "shape_operand_0": from_shape_operand(0),
            "shape_operand_1": from_shape_operand(1), "reshape": reshape,
            "transpose": transpose, "concatenate": concatenate, "pad": pad,
            "dynamic_pad": dynamic_pad, "real_dynamic_slice": real_dynamic_slice,
            "reduce": reduce, "dot_general": dot_general, "dot": dot, "gather": gather,
            "reduce_window": reduce_window, "convolution": convolution, "while": while_,
            "rng_bit_generator": rng_bit_generator, "top_k": top_k,
            "branches": branches, "nothing": nothing, "elementwise": elementwise,
            "map": _map, "same_as_first": same_as_first}
RULES = {d.name: _BY_NAME[d.shape] for d in OPS.values() if d.shape is not None}
RULES["tvm.dispatch"] = dispatch
