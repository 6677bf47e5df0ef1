"""Pull forms of the windowed and data-dependent indexing ops.

Each handler computes the element of the op's result(s) at a multi-index
from operand elements pulled through ``BodyEmitter.value``, so the ops fuse
with producers and consumers and render on every C-like target.  Handlers
take ``(em, op, idx)`` and return one C expression per result.
"""
from __future__ import annotations

import itertools

from ..dialects import registry as R
from ..errors import UnsupportedOpError
from ..ir.attributes import ints
from . import scalar


def _attr_ints(op, name, n, default):
    v = ints(op.attributes.get(name)) if op.attributes.get(name) is not None else ()
    return tuple(v) if v else (default,) * n


def _padding(op, n):
    dyn = op.attributes.get("tvm.params")           # dynamic_conv: padding from the host
    if dyn is not None and "padding" in dyn:
        v = dyn["padding"]
        return [(v[2 * k], v[2 * k + 1]) for k in range(n)]
    p = op.attributes.get("padding")
    v = ints(p) if p is not None else ()
    if not v:
        return [(0, 0)] * n
    return [(v[2 * k], v[2 * k + 1]) for k in range(n)]


def clamped_start(em, v, hi):
    """int64 expression of scalar index value ``v`` clamped to [0, hi]
    (dynamic_slice and dynamic_update_slice start indices)."""
    s = em.tmp("int64_t", f"(int64_t){em.value(v, ())}")
    return em.tmp("int64_t", f"({s} < 0 ? 0 : ({s} > {hi} ? {hi} : {s}))")


def dynamic_slice(em, op, idx):
    x = op.operands[0]
    sizes = ints(op.attr("slice_sizes"))
    src = []
    for k, (i, v) in enumerate(zip(idx, op.operands[1:])):
        s = clamped_start(em, v, x.type.shape[k] - sizes[k])
        src.append(f"({i} + {s})")
    return [em.value(x, src)]


def dynamic_update_slice(em, op, idx):
    x, upd = op.operands[:2]
    el = op.result.type.element
    starts = [clamped_start(em, v, x.type.shape[k] - upd.type.shape[k])
              for k, v in enumerate(op.operands[2:])]
    conds = [f"{i} >= {s} && {i} < {s} + {upd.type.shape[k]}" for k, (i, s) in enumerate(zip(idx, starts))]
    r = em.var(scalar.ctype(el), scalar.literal(el, 0))
    em.open(f"if ({' && '.join(conds) or '1'})")
    em.line(f"{r} = {em.value(upd, [f'({i} - {s})' for i, s in zip(idx, starts)])};")
    em.close()
    em.open("else")
    em.line(f"{r} = {em.value(x, idx)};")
    em.close()
    return [r]


def gather(em, op, idx):
    x, starts = op.operands[:2]
    dn = op.attr("dimension_numbers").fields
    offset_dims = tuple(dn.get("offset_dims", ()))
    collapsed = tuple(dn.get("collapsed_slice_dims", ()))
    op_batch = tuple(dn.get("operand_batching_dims", ()))
    idx_batch = tuple(dn.get("start_indices_batching_dims", ()))
    index_map = tuple(dn.get("start_index_map", ()))
    ivd = dn.get("index_vector_dim", 0)
    dyn = op.attributes.get("tvm.params")           # dynamic_gather: sizes from the host
    sizes = dyn["slice_sizes"] if dyn is not None else ints(op.attr("slice_sizes"))
    shape = x.type.shape
    batch_idx = [i for d, i in enumerate(idx) if d not in offset_dims]
    irank = starts.type.rank
    full = ["0"] * len(shape)
    for k, d in enumerate(index_map):
        sidx = batch_idx[:ivd] + [str(k)] + batch_idx[ivd:] if ivd < irank else batch_idx
        s = em.tmp("int64_t", f"(int64_t){em.value(starts, sidx)}")
        hi = shape[d] - sizes[d]
        full[d] = em.tmp("int64_t", f"({s} < 0 ? 0 : ({s} > {hi} ? {hi} : {s}))")
    for b, d in enumerate(op_batch):
        ds = idx_batch[b]
        full[d] = _add(full[d], batch_idx[ds if ds < ivd else ds - 1])
    wpos = [d for d in range(len(shape)) if d not in collapsed and d not in op_batch]
    for k, d in enumerate(wpos):
        full[d] = _add(full[d], idx[offset_dims[k]])
    return [em.value(x, full)]


def _add(a, b):
    return b if a == "0" else f"({a} + {b})"


def _window_source(em, base, i, stride, w, wdil, pad_lo, bdil, dim, conds):
    """Index into the undilated, unpadded operand for window position ``w``
    of output ``i``; appends validity conditions to ``conds``."""
    p = f"{i} * {stride}" if stride != 1 else i
    if w != "0":
        p = f"{p} + {w} * {wdil}" if wdil != 1 else f"{p} + {w}"
    q = f"({p} - {pad_lo})" if pad_lo else f"({p})"
    q = em.tmp("int64_t", q)
    conds.append(f"{q} >= 0")
    if bdil != 1:
        conds.append(f"{q} % {bdil} == 0")
        q = em.tmp("int64_t", f"{q} / {bdil}")
    conds.append(f"{q} < {dim}")
    return q


MAX_TREE_TAPS = 16     # max/min windows up to this many taps reduce as a tree


def _idempotent(block) -> bool:
    """Whether the body is max or min of its two arguments: associative,
    commutative, and combining the init once more changes nothing."""
    ops = block.operations
    return (len(block.arguments) == 2 and len(ops) == 2 and R.has(ops[0].name, R.ORDER_PICK)
            and list(ops[0].operands) == list(block.arguments)
            and list(ops[1].operands) == [ops[0].result])


def _clamps(wdim, stride, bdil, wdil, pad, dim, out) -> bool:
    """Whether a max/min window's taps along one dim may read the nearest
    edge element instead of skipping a padded position: true when the taps
    are contiguous (no dilation) and every output's window holds at least
    one element of the operand, so the edge element is in the window and,
    the body being idempotent, reading it once more changes nothing.  The
    taps' loads then have no condition, and the loop over a dim without a
    window (NHWC pooling's channels) vectorises."""
    if any(type(v) is not int for v in (dim, out, *pad)) or out < 1 or bdil != 1 or wdil != 1:
        return False
    first_end = wdim - 1 - pad[0]                 # output 0's last tap
    last_start = (out - 1) * stride - pad[0]      # the last output's first tap
    return first_end >= 0 and last_start <= dim - 1


def _tap_load(em, x, src, conds, init) -> str:
    """``x`` at ``src``, or ``init`` where the tap's validity ``conds`` fail."""
    ct = scalar.ctype(x.type.element)
    if not conds:
        return em.tmp(ct, em.value(x, src))
    v = em.var(ct, init)
    em.open(f"if ({' && '.join(conds)})")
    em.line(f"{v} = {em.value(x, src)};")
    em.close()
    return v


def _tap_tree(em, op, idx, wdims, strides, bdil, wdil, pad, shape):
    """A max/min window (a pooling) as a balanced tree over its unrolled taps
    and the init: the taps are independent, so the result no longer waits on
    one serial chain of compares per tap.  Exact, the body being associative
    and commutative (also for NaNs and signed zeros)."""
    x, init = op.operands[:2]
    body = op.regions[0].blocks[0]
    vals = [em.value(init, ())]
    r = len(shape)
    out = op.results[0].type.shape
    clamp = [_clamps(wdims[d], strides[d], bdil[d], wdil[d], pad[d], shape[d], out[d])
             for d in range(r)]
    for tap in itertools.product(*(range(w) for w in wdims)):
        conds, src = [], []
        for d in range(r):
            if wdims[d] == 1 and strides[d] == 1 and bdil[d] == 1 and pad[d] == (0, 0):
                src.append(idx[d])
            elif clamp[d]:
                q = _window_source(em, None, idx[d], strides[d], str(tap[d]), 1, pad[d][0], 1,
                                   shape[d], [])
                src.append(em.tmp("int64_t", f"({q} < 0 ? 0 : ({q} > {shape[d] - 1} ? "
                                             f"{shape[d] - 1} : {q}))"))
            else:
                src.append(_window_source(em, None, idx[d], strides[d], str(tap[d]), wdil[d],
                                          pad[d][0], bdil[d], shape[d], conds))
        vals.append(_tap_load(em, x, src, conds, vals[0]))
    while len(vals) > 1:
        vals = [em.region_call(body, vals[k:k + 2])[0] if k + 1 < len(vals) else vals[k]
                for k in range(0, len(vals), 2)]
    return vals[0]


def _unrolled_window(em, op, idx, wdims, strides, bdil, wdil, pad, shape) -> list:
    """A window of few taps (an average pooling's sum) unrolled in the
    loop's order: the same chain of combines, so the same bits, with no
    inner loop left; device compilers that keep a short loop rolled (PoCL's
    LLVM) then vectorise the body like any elementwise one (PoCL, 2x2
    average pool of 16x32x32x16: 247 -> 32-50 us)."""
    n = len(op.results)
    inputs, inits = op.operands[:n], op.operands[n:2 * n]
    body = op.regions[0].blocks[0]
    init_vals = [em.value(v, ()) for v in inits]
    accs = init_vals
    for tap in itertools.product(*(range(w) for w in wdims)):
        conds, src = [], []
        for d in range(len(shape)):
            if wdims[d] == 1 and strides[d] == 1 and bdil[d] == 1 and pad[d] == (0, 0):
                src.append(idx[d])
                continue
            src.append(_window_source(em, None, idx[d], strides[d], str(tap[d]), wdil[d],
                                      pad[d][0], bdil[d], shape[d], conds))
        accs = em.region_call(body, accs + [_tap_load(em, v, src, conds, init)
                                            for v, init in zip(inputs, init_vals)])
    return accs


def reduce_window(em, op, idx):
    n = len(op.results)
    inputs, inits = op.operands[:n], op.operands[n:2 * n]
    shape = inputs[0].type.shape
    r = len(shape)
    dyn = op.attributes.get("tvm.params")
    if dyn is not None and "window_dimensions" in dyn:   # dynamic_reduce_window: host values
        wdims, strides, bdil, wdil = (tuple(dyn[k]) for k in (
            "window_dimensions", "window_strides", "base_dilations", "window_dilations"))
    else:
        wdims = ints(op.attr("window_dimensions"))
        strides = _attr_ints(op, "window_strides", r, 1)
        bdil = _attr_ints(op, "base_dilations", r, 1)
        wdil = _attr_ints(op, "window_dilations", r, 1)
    pad = _padding(op, r)
    taps = 1
    for d in range(r):
        taps *= wdims[d]
    if n == 1 and isinstance(taps, int) and 1 < taps <= MAX_TREE_TAPS \
            and _idempotent(op.regions[0].blocks[0]):
        return [_tap_tree(em, op, idx, wdims, strides, bdil, wdil, pad, shape)]
    if isinstance(taps, int) and taps <= MAX_TREE_TAPS:
        return _unrolled_window(em, op, idx, wdims, strides, bdil, wdil, pad, shape)
    accs = [em.var(scalar.ctype(v.type.element), em.value(v, ())) for v in inits]
    ws = []
    for d in range(r):
        if wdims[d] == 1:
            ws.append("0")
            continue
        w = em.fresh("w")
        em.open(f"for (int64_t {w} = 0; {w} < {wdims[d]}; ++{w})")
        ws.append(w)
    conds, src = [], []
    for d in range(r):
        if wdims[d] == 1 and strides[d] == 1 and bdil[d] == 1 and pad[d] == (0, 0):
            src.append(idx[d])
            continue
        src.append(_window_source(em, None, idx[d], strides[d], ws[d], wdil[d], pad[d][0], bdil[d],
                                  shape[d], conds))
    xs = []
    for v, init in zip(inputs, inits):
        ct = scalar.ctype(v.type.element)
        if conds:
            x = em.var(ct, em.value(init, ()))
            em.open(f"if ({' && '.join(conds)})")
            em.line(f"{x} = {em.value(v, src)};")
            em.close()
        else:
            x = em.value(v, src)
        xs.append(x)
    new = em.region_call(op.regions[0].blocks[0], accs + xs)
    for a, v in zip(accs, new):
        em.line(f"{a} = {v};")
    for w in ws:
        if w != "0":
            em.close()
    return accs


def select_and_scatter(em, op, idx):
    operand, source, init = op.operands
    shape = operand.type.shape
    r = len(shape)
    wdims = ints(op.attr("window_dimensions"))
    strides = _attr_ints(op, "window_strides", r, 1)
    pad = _padding(op, r)
    sel_body, sc_body = (reg.blocks[0] for reg in op.regions)
    el = op.result.type.element
    acc = em.var(scalar.ctype(el), em.value(init, ()))
    # Windows (source positions) whose span covers idx.
    wins = []
    for d in range(r):
        s, lo_pad, wd = strides[d], pad[d][0], wdims[d]
        lo = em.tmp("int64_t", f"({idx[d]} + {lo_pad - wd + 1})")
        lo = em.tmp("int64_t", f"({lo} <= 0 ? 0 : ({lo} + {s - 1}) / {s})")
        hi = em.tmp("int64_t", f"({idx[d]} + {lo_pad}) / {s}")
        hi = em.tmp("int64_t", f"({hi} < {source.type.shape[d] - 1} ? {hi} : {source.type.shape[d] - 1})")
        v = em.fresh("s")
        em.open(f"for (int64_t {v} = {lo}; {v} <= {hi}; ++{v})")
        wins.append(v)
    # Select within the window.
    oct_ = scalar.ctype(operand.type.element)
    best = em.var(oct_, scalar.literal(operand.type.element, 0))
    pos = [em.var("int64_t", "-1") for _ in range(r)]
    ws = []
    for d in range(r):
        w = em.fresh("w")
        em.open(f"for (int64_t {w} = 0; {w} < {wdims[d]}; ++{w})")
        ws.append(w)
    p = [em.tmp("int64_t", f"{wins[d]} * {strides[d]} + {ws[d]} - {pad[d][0]}") for d in range(r)]
    conds = [f"{p[d]} >= 0 && {p[d]} < {shape[d]}" for d in range(r)]
    em.open(f"if ({' && '.join(conds)})")
    val = em.value(operand, p)
    keep = em.var("int", "0")
    em.open(f"if ({pos[0]} >= 0)")
    k, = em.region_call(sel_body, [best, val])
    em.line(f"{keep} = {k};")
    em.close()
    em.open(f"if (!{keep})")
    em.line(f"{best} = {val};")
    for d in range(r):
        em.line(f"{pos[d]} = {p[d]};")
    em.close()
    em.close()
    for _ in ws:
        em.close()
    hit = " && ".join(f"{pos[d]} == {idx[d]}" for d in range(r))
    em.open(f"if ({hit})")
    new, = em.region_call(sc_body, [acc, em.value(source, wins)])
    em.line(f"{acc} = {new};")
    em.close()
    for _ in wins:
        em.close()
    return [acc]


def map_op(em, op, idx):
    return em.region_call(op.regions[0].blocks[0], [em.value(x, idx) for x in op.operands])


def pull_emitter(name: str):
    """The emitter op ``name`` declares (its ``pull``, ``"module:function"``
    of this package), or None."""
    return R.implementation(name, "pull", __package__)


def lower(em, op, idx):
    fn = pull_emitter(op.name)
    if fn is None:
        raise UnsupportedOpError(op.name, "no kernel lowering", op.location)
    return fn(em, op, idx)
