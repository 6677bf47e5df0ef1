"""StableHLO ops with reduction or comparator regions (reduce,
reduce_window, select_and_scatter, scatter, sort, map) and batch norm, with
the typing of their regions."""
from __future__ import annotations

from ...ir.attributes import DenseElementsAttr, StructAttr, ints
from ...ir.symbolic import make
from ...ir.types import TensorType, is_complex, is_float, is_integer
from ..opdef import (
    ELEMENTWISE, STRUCTURED, DECOMPOSED, HEAVY, SEQUENTIAL, OWN, NON_NEGATIVE, REDUCER, PURE_REGIONS, defop)
from ..checks import (
    S, attr_ints, compat, compat_shapes, compat_type, dims_attr, element_of, expect_result,
    fail, fail_structure, in_range, is_quant, rank_of, shape_of)
from ..dims import attr_or, dims_elementwise, dims_generic, dims_same_as_first
from ..quant_checks import quant_params
from .movement import padded_size


def _scatter(op):
    """Bounds of scatter's updates: window dims within the operand's, scatter
    dims equal to the indices' batch dims (dimension numbers: verifier.py)."""
    n = len(op.results)
    a = op.attributes.get("scatter_dimension_numbers")
    if not n or len(op.operands) != 2 * n + 1 or not isinstance(a, StructAttr):
        return
    xs, ix, us = shape_of(op.operands[0]), shape_of(op.operands[n]), shape_of(op.operands[n + 1])
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
            fail(op, f"expects bounds of the window dimensions of updates to not exceed the bounds "
                     f"of the corresponding dimensions of operand. For dimension {d}, updates bound "
                     f"is {us[d]}, operand bound is {window[k]}.")
    scatter = [d for k, d in enumerate(us) if k not in uwd]
    batch = [d for k, d in enumerate(ix) if k != ivd]
    if len(scatter) == len(batch):
        for k, (u, i) in enumerate(zip(scatter, batch)):
            if not compat(u, i):
                fail(op, f"expects bounds of the scatter dimensions of updates to be same as the "
                         f"bounds of the corresponding dimensions of scatter indices. For scatter "
                         f"dimension {k}, updates bound is {u}, scatter_indices bound is {i}.")


def _reduce(op):
    n = len(op.operands) // 2
    shapes = [shape_of(v) for v in op.operands[:n]]
    if not n or any(s is None for s in shapes):
        return
    for i, s in enumerate(shapes[1:], start=1):
        if not compat_shapes(shapes[0], s):
            fail(op, f"expects all inputs to have compatible shapes. Shape at input-index {i} is "
                     f"not compatible with shape at input-index 0")
    dims = attr_ints(op, "dimensions")
    in_range(op, "dimensions", dims, len(shapes[0]))
    if op.regions and op.regions[0].blocks:
        args = op.regions[0].blocks[0].arguments
        if len(args) != 2 * n:
            fail(op, f"Reduction-region must take {2 * n} parameters, but takes {len(args)} parameter(s)")
        term = op.regions[0].blocks[0].terminator
        if term is not None and len(term.operands) != n:
            fail(op, f"Reduction-region here must produce {n} tensors, but produces "
                     f"{len(term.operands)} instead")
    out = [d for k, d in enumerate(shapes[0]) if k not in dims]
    for i in range(min(n, len(op.results))):
        expect_result(op, out, i)


def _window(op, rank, prefix="window_dimensions"):
    """Window attributes of reduce_window / select_and_scatter: sizes and positivity."""
    win = attr_ints(op, prefix)
    if len(win) != rank:
        fail(op, f"expects window-dimensions size == input rank, but got window-dimensions size: "
                 f"{len(win)} and input: {rank}")
    out = []
    for key, label in (("window_strides", "stride"), ("base_dilations", "base dilation factor"),
                       ("window_dilations", "window dilation factor")):
        vals = attr_ints(op, key, (1,) * rank)
        if len(vals) != rank:
            fail(op, f"expects {key.replace('_', '-')} to have same dimension-size as size of "
                     f"window dimensions ({rank}), but got: {len(vals)}.")
        for k, v in enumerate(vals):
            if v <= 0:
                fail(op, f"expects window to have positive {label} for {k}-th window dimension, "
                         f"but got {v}.")
        out.append(vals)
    for k, v in enumerate(win):
        if v <= 0:
            fail(op, f"expects window to have positive value for {k}-th window dimension, but got {v}.")
    pad = op.attributes.get("padding")
    pads = [(0, 0)] * rank
    if isinstance(pad, DenseElementsAttr):
        shape = tuple(pad.array.shape)
        if shape != (rank, 2) and not (rank == 0 and pad.array.size == 0):
            fail(op, f"expects padding-entries to have same dimension-size as size of window "
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
    shapes = [shape_of(v) for v in op.operands[:n]]
    if not n or any(s is None for s in shapes):
        return
    win, strides, base, wdil, pads = _window(op, len(shapes[0]))
    for i, s in enumerate(shapes[1:], start=1):
        if not compat_shapes(shapes[0], s):
            fail(op, f"expects all inputs to have compatible shapes. Shape at input-index {i} is "
                     f"not compatible with shape at input-index 0")
    out = _window_output(shapes[0], win, strides, base, wdil, pads)
    for i in range(min(n, len(op.results))):
        expect_result(op, out, i)


def _select_and_scatter(op):
    xs, ss = shape_of(op.operands[0]), shape_of(op.operands[1])
    if xs is None or ss is None:
        return
    rank = len(xs)
    if element_of(op.operands[1]) != element_of(op.operands[0]) and not is_quant(element_of(op.operands[0])):
        want = TensorType(ss, element_of(op.operands[0]))
        fail(op, f"expects source-type to be '{want}', but got '{op.operands[1].type}'")
    win = attr_ints(op, "window_dimensions")
    if len(win) != rank:
        fail(op, f"expects window-dimensions size == operand rank, but got window-dimensions size: "
                 f"{len(win)} and operand-type: '{op.operands[0].type}' with rank = {rank}.")
    strides = attr_ints(op, "window_strides", (1,) * rank)
    if len(win) != rank or len(strides) != rank:
        fail(op, f"window_dimensions and window_strides must have {rank} elements (the operand rank)")
    for k, (w, s) in enumerate(zip(win, strides)):
        if w <= 0 or s <= 0:
            fail(op, f"expects window to have positive value for {k}-th window dimension")
    pad = op.attributes.get("padding")
    pads = [(0, 0)] * rank
    if isinstance(pad, DenseElementsAttr):
        if tuple(pad.array.shape) != (rank, 2):
            fail(op, f"expects the shape of padding-attribute to be {{{rank}, 2}}, but got "
                     f"{{{', '.join(map(str, pad.array.shape))}}}.")
        pads = [tuple(int(x) for x in row) for row in pad.array.reshape(-1, 2)]
    want = _window_output(xs, win, strides, (1,) * rank, (1,) * rank, pads)
    if not compat_shapes(ss, tuple(want)):
        fail(op, f"expects source-type to be {list(want)}, but got {op.operands[1].type}")
    if shape_of(op.operands[2]) not in (None, ()):
        fail(op, "init value must be a 0-dimensional tensor")
    expect_result(op, xs)


def _sort(op):
    shapes = [shape_of(v) for v in op.operands]
    if not shapes or any(s is None for s in shapes):
        return
    for s in shapes[1:]:
        if not compat_shapes(shapes[0], s):
            fail(op, "requires the same shape for all operands")
    d = attr_ints(op, "dimension", (-1,))[0]
    rank = len(shapes[0])
    if not -rank <= d < max(rank, 1):
        fail(op, f"dimension attribute value must be in range [-{rank}, {rank}), but found {d}")
    if op.regions and op.regions[0].blocks:
        args = op.regions[0].blocks[0].arguments
        if len(args) != 2 * len(shapes):
            fail(op, f"comparator block should have {2 * len(shapes)} arguments")
        for k, a in enumerate(args):
            want = TensorType((), element_of(op.operands[k // 2]))
            if isinstance(a.type, TensorType) and not is_quant(want.element) and a.type != want:
                fail(op, f"comparator block argument #{k} should be of type '{want}' but got '{a.type}'")
        term = op.regions[0].blocks[0].terminator
        if term is not None and [v.type for v in term.operands] != [TensorType((), "i1")]:
            fail(op, "comparator must return a tensor<i1>")


def _batch_norm(op):
    xs = shape_of(op.operands[0])
    if xs is None:
        return
    fi = attr_ints(op, "feature_index", (0,))[0]
    if not 0 <= fi < len(xs):
        fail(op, f"expects feature_index to be smaller than the rank of operand type; got "
                 f"feature_index {fi}, and rank {len(xs)}.")
    vectors = op.operands[1:4] if op.name == S + "batch_norm_grad" else op.operands[1:]
    if op.name == S + "batch_norm_grad" and len(op.operands) > 4 and \
            shape_of(op.operands[4]) is not None and not compat_shapes(xs, shape_of(op.operands[4])):
        fail(op, "expects multi-dimensional operands to have compatible shapes "
                 "(failed to infer returned types)")
    for v in vectors:
        s = shape_of(v)
        if s is not None and (len(s) != 1 or not compat(s[0], xs[fi])):
            fail(op, f"expects the size of scale/offset/mean/variance ({v.type}) to equal the "
                     f"feature dimension of the operand ({xs[fi]})")
    expect_result(op, xs)


def _promotable(src: str, dst: str) -> bool:
    """Whether a reduction may accumulate ``src`` elements in ``dst`` (same kind, not narrower)."""
    if src == dst:
        return True
    if is_quant(src) or is_quant(dst):
        qs, qd = quant_params(src), quant_params(dst)
        if qs is None or qd is None:       # quantized and not: never; forms we do not read: allowed
            return is_quant(src) and is_quant(dst) and (qs is None or qd is None)
        return qs[3] == qd[3] and _promotable(qs[0].lstrip("s"), qd[0].lstrip("s"))
    from ...ir.types import bit_width
    for kind in (is_float, is_complex):
        if kind(src) and kind(dst):
            return bit_width(dst) >= bit_width(src)
    if is_integer(src) and is_integer(dst) and src.startswith("ui") == dst.startswith("ui"):
        return bit_width(dst) >= bit_width(src)
    return False


def reduction_region(op, region, inputs, inits, allowed=None):
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
        fail(op, f"Reduction-region must take {2 * n} parameters, but takes {len(args)} parameter(s)")
    term = block.terminator
    rets = list(term.operands) if term is not None else []
    if not rets:
        fail(op, "The reduction-region expected to return some value(s)")
    if len(rets) != n:
        fail(op, f"Reduction-region here must produce {n} tensors, but produces {len(rets)} instead")
    for i, r in enumerate(rets):
        if not isinstance(r.type, TensorType):
            fail(op, f"Reduction-region here must produce tensor-typed result(s), but produces "
                     f"'{r.type}' instead")
    for i, r in enumerate(rets):
        for k in (i, n + i):
            if not compat_type(args[k].type, r.type):
                fail(op, f"The type of reduction-region's parameter at index {k} is different than "
                         f"the corresponding result type: '{args[k].type}' vs '{r.type}'")
        init = inits[i] if inits is not None else TensorType((), element_of(r))
        if not compat_shapes(shape_of(r), init.shape):
            fail(op, f"The shape of reduction-region's result type at index {i} differs from the op's "
                     f"corresponding init-value type: '{r.type}' vs '{init}'")
        if inits is not None and not _promotable(init.element, element_of(r)):
            fail(op, f"The element-type of reduction-region's result type at index {i} is expected "
                     f"to be promotable from the op's corresponding init-value element-type: "
                     f"'{r.type}' vs '{init}'")
        arg = args[n + i]
        if not _promotable(element_of(inputs[i]), element_of(arg)):
            fail(op, f"The element-type of reduction-region's argument at index {n + i} is expected "
                     f"to be promotable from '{element_of(inputs[i])}', but got '{element_of(arg)}'")
        shape = shape_of(arg)
        if allowed is not None and shape is not None:
            if len(shape) > len(allowed):
                fail(op, f"The rank of reduction-region's argument at index {n + i} is expected to "
                         f"be <= {len(allowed)}, got {len(shape)}")
            k = 0
            for d in allowed:
                if k < len(shape) and compat(d, shape[k]):
                    k += 1
            if k != len(shape):
                fail(op, f"The shape of reduction-region's argument at index {n + i} is not "
                         f"compatible with that of reduce-op's input-parameter at index {i}")


def reduce_regions(op):
    if op.name == S + "select_and_scatter":
        src, init = op.operands[1], op.operands[2]
        if len(op.regions) == 2:
            _select_region(op, op.regions[0], op.operands[0])
            reduction_region(op, op.regions[1], [src], [init.type])
        return
    allowed = None
    if op.name in (S + "reduce", S + "reduce_window"):
        n = len(op.operands) // 2
        if not n:
            fail(op, "requires at least 1 input value")
        inputs, inits = op.operands[:n], [v.type for v in op.operands[n:]]
        xs = shape_of(inputs[0])
        if op.name == S + "reduce_window":
            allowed = tuple(attr_ints(op, "window_dimensions"))
        elif xs is not None:
            dims = attr_ints(op, "dimensions")
            allowed = tuple(d for k, d in enumerate(xs) if k not in dims)
    elif op.name == S + "scatter":      # the updates play the init values' part
        n = len(op.results)
        if not n or len(op.operands) != 2 * n + 1:
            return
        inputs, allowed = op.operands[:n], ()
        inits = [TensorType((), element_of(u)) for u in op.operands[n + 1:]]
    else:           # all_reduce / reduce_scatter: one 2-argument body applied to each operand
        inputs, inits = op.operands[:1], None
    if op.regions:
        reduction_region(op, op.regions[0], inputs, inits, allowed)


def _select_region(op, region, operand):
    if not region.blocks:
        return
    block = region.blocks[0]
    want = TensorType((), element_of(operand))
    if len(block.arguments) != 2:
        fail(op, f"expects the select-region to take 2 parameters, but takes {len(block.arguments)}")
    for i, a in enumerate(block.arguments):
        if not compat_type(a.type, want):
            fail(op, f"expects the type of select-region's parameter at index {i} to be '{want}', "
                     f"but got '{a.type}'")
    rets = list(block.terminator.operands) if block.terminator is not None else []
    if len(rets) != 1:
        fail(op, f"expects select-region to return single value, but got: {len(rets)}")
    if rets[0].type != TensorType((), "i1"):
        fail(op, f"expects the return-type of select-region to be tensor<i1>, but got: '{rets[0].type}'")


def _map(op):
    shapes = [shape_of(v) for v in op.operands]
    if not shapes or any(s is None for s in shapes):
        return
    for s in shapes[1:]:
        if not compat_shapes(shapes[0], s):
            fail(op, "expects all operands to have the same shape")
    if list(attr_ints(op, "dimensions")) != list(range(len(shapes[0]))):
        fail(op, "requires monotonically increasing dimension numbers covering all operand "
                 "dimensions")
    if op.regions and op.regions[0].blocks:
        block = op.regions[0].blocks[0]
        if len(block.arguments) != len(op.operands):
            fail(op, f"expects number of operands to match the arity of map computation, but got: "
                     f"{len(op.operands)} and {len(block.arguments)}")
        for i, (a, v) in enumerate(zip(block.arguments, op.operands)):
            if not compat_type(a.type, TensorType((), element_of(v))):
                fail(op, f"expects computation parameter {i} to be a 0-d tensor of the operand's "
                         f"element type, got '{a.type}'")
        rets = list(block.terminator.operands) if block.terminator is not None else []
        if len(rets) != 1 or shape_of(rets[0]) != ():
            fail(op, "computation must return a single 0-d tensor")
        expect_result(op, shapes[0])


def _check_scatter(v, op, func):
    """The StableHLO constraints on scatter's operands and dimension numbers
    that the lowering relies on (index in range, sorted/unique, ranks add up)."""
    n = len(op.results)
    if n == 0 or len(op.operands) != 2 * n + 1:
        fail_structure(op, f"takes N inputs, the indices and N updates for N results; got "
                  f"{len(op.operands)} operands for {n} results")
    inputs, indices, updates = op.operands[:n], op.operands[n], op.operands[n + 1:]
    ranked = (*inputs, indices, *updates)
    if any(getattr(v.type, "shape", None) is None for v in ranked):
        fail_structure(op, "operands must be ranked tensors")
    if any(v.type.shape != inputs[0].type.shape for v in inputs) or \
            any(r.type.shape != inputs[0].type.shape for r in op.results):
        fail_structure(op, "inputs and results must all have the same shape")
    if any(u.type.shape != updates[0].type.shape for u in updates):
        fail_structure(op, "updates must all have the same shape")
    if not is_integer(str(getattr(indices.type, "element", ""))):
        fail_structure(op, f"scatter_indices must be integers, got {indices.type}")
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1 or \
            len(op.regions[0].blocks[0].arguments) != 2 * n:
        fail_structure(op, f"needs one update computation region whose block takes {2 * n} arguments")
    dn = getattr(op.attr("scatter_dimension_numbers"), "fields", None)
    if not isinstance(dn, dict):
        fail_structure(op, "needs a scatter_dimension_numbers attribute")
    R, I, U = inputs[0].type.rank, indices.type.rank, updates[0].type.rank

    def dims(key, bound, of, ordered=False):
        """StableHLO's checks of a dims list, in its order and words."""
        v = dn.get(key, ())
        if not isinstance(v, (tuple, list)) or not all(
                isinstance(d, int) and not isinstance(d, bool) for d in v):
            fail_structure(op, f"{key} must be a list of integers, got {v!r}")
        v = tuple(v)
        if ordered and list(v) != sorted(v):
            fail_structure(op, f"Expects {key} to be sorted; got: {list(v)}.")
        if len(set(v)) != len(v):
            fail_structure(op, f"Expects {key} to not repeat; got: {list(v)}.")
        for d in v:
            if d < 0 or d >= bound:
                fail_structure(op, f"Expects each element of {key} to be in range [0, rank-of('{of}')) "
                          f"i.e. [0, {bound}). got: {d}.")
        return v

    ivd = dn.get("index_vector_dim", 0)
    if not isinstance(ivd, int) or isinstance(ivd, bool) or not 0 <= ivd <= I:
        fail_structure(op, f"Expects index_vector_dim to be in range [0, rank-of('scatter_indices')] "
                  f"i.e. [0, {I}]. got: {ivd!r}.")
    uwd = dims("update_window_dims", U, "updates", True)
    inserted = dims("inserted_window_dims", R, "operand", True)
    in_batch = dims("input_batching_dims", R, "operand", True)
    idx_batch = dims("scatter_indices_batching_dims", I, "scatter_indices")
    to_operand = dims("scatter_dims_to_operand_dims", R, "operand")
    if set(inserted) & set(in_batch) or set(to_operand) & set(in_batch):
        fail_structure(op, "input_batching_dims overlaps inserted_window_dims or "
                  "scatter_dims_to_operand_dims")
    if len(idx_batch) != len(in_batch) or ivd in idx_batch:
        fail_structure(op, "scatter_indices_batching_dims must pair with input_batching_dims and "
                  "exclude index_vector_dim")
    if R != len(uwd) + len(inserted) + len(in_batch):
        fail_structure(op, f"input rank {R} != update_window_dims + inserted_window_dims + "
                  f"input_batching_dims ({len(uwd)} + {len(inserted)} + {len(in_batch)})")
    scatter_rank = I - (1 if ivd < I else 0)
    if U != len(uwd) + scatter_rank:
        fail_structure(op, f"updates rank {U} != update_window_dims ({len(uwd)}) + scatter "
                  f"dimensions of the indices ({scatter_rank})")
    vec = indices.type.shape[ivd] if ivd < I else 1
    if isinstance(vec, int) and len(to_operand) != vec:
        fail_structure(op, f"scatter_dims_to_operand_dims has {len(to_operand)} entries but the "
                  f"index vector has {vec}")



def _reduce_dims(v, op, func):
    rank = rank_of(op.operands)
    if rank is None:
        return
    if len(op.operands) % 2 or not op.regions:
        fail_structure(op, "takes N inputs and N init values and one body region")
    dims = dims_attr(op, "dimensions", rank)
    want = [d for k, d in enumerate(op.operands[0].type.shape) if k not in dims]
    for r in op.results:
        got = getattr(r.type, "shape", None)
        if got is not None and (len(got) != len(want) or any(
                a is not None and b is not None and a != b for a, b in zip(got, want))):
            fail_structure(op, f"result {r.type} does not match the input "
                               f"{op.operands[0].type} reduced over dimensions {list(dims)}")


def _sort_dims(v, op, func):
    rank = rank_of(op.operands)
    if rank is None:
        return
    dims_attr(op, "dimension", rank, length=1)
    if len(op.regions) != 1 or not op.regions[0].blocks:
        fail_structure(op, "needs one comparator region")


# -- shape rules (opdef ``shape``; dialects/dims.py) ----------------------------------------

def _dims_reduce(S, op):
    n = len(op.operands) // 2
    first = S.dims(op.operands[0])
    for v in op.operands[1:n]:
        for a, b in zip(first, S.dims(v)):
            S.unify(a, b)
    dims = set(ints(op.attr("dimensions")))
    out = tuple(d for k, d in enumerate(S.dims(op.operands[0])) if k not in dims)
    return [out] * len(op.results)


#: Attribute marking the operands of an op rewritten from a dynamism custom
#: call that carry shapes / window parameters as values (passes/dynamism.py).
SHAPE_OPERANDS_ATTR = "tvm.shape_operands"


def window_operands(op):
    """(window dims, strides, base dilations, window dilations, padding) operands
    of a reduce_window that carries them as values, else None."""
    if op.name != "stablehlo.reduce_window" or SHAPE_OPERANDS_ATTR not in op.attributes:
        return None
    return tuple(op.operands[len(op.results) * 2:])


def _dims_reduce_window(S, op):
    x = S.dims(op.operands[0])
    r = len(x)
    dyn = window_operands(op)
    if dyn is not None:     # a dynamic_reduce_window's window as host values
        win, strides, bdil, wdil, p = (S.elements(v) for v in dyn)
        S.params[op] = {"window_dimensions": win, "window_strides": strides,
                        "base_dilations": bdil, "window_dilations": wdil, "padding": p}
    else:
        win = ints(op.attr("window_dimensions"))
        strides = attr_or(op, "window_strides", r, 1)
        bdil = attr_or(op, "base_dilations", r, 1)
        wdil = attr_or(op, "window_dilations", r, 1)
        p = ints(op.attr("padding")) if op.attr("padding") is not None else ()
    out = []
    for k, d in enumerate(x):
        lo, hi = (p[2 * k], p[2 * k + 1]) if p else (0, 0)
        span = make("+", padded_size(d, lo, hi, make("-", bdil[k], 1)), 0)
        wspan = make("+", make("*", make("-", win[k], 1), wdil[k]), 1)
        out.append(make("+", make("/", make("-", span, wspan), strides[k]), 1))
    return [tuple(out)] * len(op.results)


def _dims_map(S, op):
    dims_generic(S, op)
    return dims_elementwise(S, op)


OPS = (
    defop('stablehlo.batch_norm_grad', DECOMPOSED, reason='the spec decomposition: broadcast_in_dim along feature_index, elementwise ops, add-reduce over the other dims', int_attrs=(('feature_index', 64, NON_NEGATIVE),), verify=(_batch_norm,), per_axis=False, rewrite='decompose_norm:_grad'),
    defop('stablehlo.batch_norm_inference', DECOMPOSED, reason='the spec decomposition: broadcast_in_dim along feature_index, elementwise ops, add-reduce over the other dims', int_attrs=(('feature_index', 64, NON_NEGATIVE),), verify=(_batch_norm,), per_axis=False, rewrite='decompose_norm:_inference'),
    defop('stablehlo.batch_norm_training', DECOMPOSED, reason='the spec decomposition: broadcast_in_dim along feature_index, elementwise ops, add-reduce over the other dims', int_attrs=(('feature_index', 64, NON_NEGATIVE),), verify=(_batch_norm,), per_axis=False, rewrite='decompose_norm:_training'),
    defop('stablehlo.map', ELEMENTWISE, min_operands=1, regions=1, region_return=True, shape=_dims_map, verify=(_map,), traits=(PURE_REGIONS,), pull='pull_ops:map_op'),
    defop('stablehlo.reduce', STRUCTURED, fusion=HEAVY, min_operands=2, regions=1, region_return=True, syntax=OWN, shape=_dims_reduce, verify=(reduce_regions, _reduce,), per_axis=False, structure=(_reduce_dims,), traits=(REDUCER, PURE_REGIONS), parser='parse_reduce'),
    defop('stablehlo.reduce_window', STRUCTURED, fusion=HEAVY, min_operands=2, regions=1, region_return=True, shape=_dims_reduce_window, verify=(reduce_regions, _reduce_window,), per_axis=False, traits=(REDUCER, PURE_REGIONS), pull='pull_ops:reduce_window'),
    defop('stablehlo.scatter', STRUCTURED, fusion=SEQUENTIAL, regions=1, region_return=True, shape=dims_same_as_first, verify=(reduce_regions, _scatter,), structure=(_check_scatter,), traits=(PURE_REGIONS,), program='sequential:_scatter'),
    defop('stablehlo.select_and_scatter', STRUCTURED, fusion=HEAVY, operands=3, results=1, regions=2, region_return=True, shape=dims_same_as_first, verify=(reduce_regions, _select_and_scatter,), per_axis=False, traits=(PURE_REGIONS,), pull='pull_ops:select_and_scatter'),
    defop('stablehlo.sort', STRUCTURED, fusion=SEQUENTIAL, min_operands=1, regions=1, region_return=True, shape=dims_same_as_first, verify=(_sort,), per_axis=False, structure=(_sort_dims,), traits=(PURE_REGIONS,), program='sequential:_sort'),
)
