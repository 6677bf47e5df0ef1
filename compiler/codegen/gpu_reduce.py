"""Work-group tree reductions for the GPU targets.

A loop kernel whose outputs are a ``reduce`` (with its fused epilogue) of
at least ``MIN_REDUCED`` elements per output gets one work-group per output
(a few for short rows): the items stride over the reduced elements
(neighbouring items read neighbouring elements of a contiguous row), each
folds its share into a private accumulator, then the work-group combines
the accumulators pairwise in local / shared memory, one barrier per level,
and item 0 applies the epilogue and stores.  The tree's shape depends only
on the local size, so results are deterministic.  Item 0 starts from the
reduce's init and the others from the combiner's identity (its init too for
idempotent combiners), so the init counts once.  A reduction to a few
outputs over many elements is split into two such dispatches first
(passes/split_reductions.py).  Kernels whose reduced operand needs another
reduction, a contraction or a window keep the one-item-per-output loop.
"""
from __future__ import annotations

import math
from ..dialects import registry as R
from ..dialects.stablehlo import HEAVY, SEQUENTIAL
from . import scalar
from .body import BodyEmitter, nested_row_reductions
from .c_style import output_stores
from .index_maps import delinearize_decls
from .lane_reduce import combiner

MIN_REDUCED = 256        # reduced elements per output below which one item does an output
GROUP_ELEMENTS = 4096    # reduced elements per work-group (short rows: several per group)


def find_tree_reduction(kernel):
    """The reduce op a tree kernel serves for ``kernel``, or None."""
    shape = tuple(kernel.shape)
    if kernel.kind != "loop" or kernel.contraction is not None or kernel.convolution is not None \
            or not shape and not kernel.outputs or not all(type(d) is int for d in shape):
        return None
    if any(tuple(v.type.shape) != shape for v in kernel.outputs):
        return None
    block = getattr(kernel.root, "parent", None)
    best, best_n = None, MIN_REDUCED - 1
    for op in getattr(block, "operations", ()) or ():
        if op.name != "stablehlo.reduce" or len(op.operands) != 2:
            continue
        if tuple(op.results[0].type.shape) != shape or not _simple(op, block) \
                or not all(type(d) is int for d in op.operands[0].type.shape):
            continue
        c = combiner(op)
        if not R.is_combiner(c):
            continue
        n = op.operands[0].type.num_elements // max(1, math.prod(shape))
        if n > best_n:
            best, best_n = op, n
    return best


def _simple(op, block) -> bool:
    """No reduction, contraction or window among the reduced operand's
    producers inside the dispatch (each would be recomputed per item)."""
    seen, todo = set(), [op.operands[0]]
    while todo:
        v = todo.pop()
        d = v.defining_op
        if d is None or id(d) in seen or d.parent is not block:
            continue
        seen.add(id(d))
        if d.name in HEAVY or d.name in SEQUENTIAL or d.regions:
            return False
        todo += list(d.operands)
    return True


def render_tree_reduction(target, kernel, red):
    """(decls, kernel source, workgroup count) of the tree kernel for ``red``."""
    em = BodyEmitter({}, indent=2)
    params, setup = target.params(kernel, em)
    if nested_row_reductions(red, em.bindings):
        return None
    shape = tuple(kernel.shape)
    outputs = math.prod(shape)
    x, init = red.operands
    xshape = tuple(x.type.shape)
    from ..ir.attributes import ints
    dims = sorted(ints(red.attr("dimensions")))
    rshape = [xshape[d] for d in dims]
    reduced = math.prod(rshape)
    per = max(1, GROUP_ELEMENTS // reduced)          # outputs per work-group
    count = -(-outputs // per) if outputs else 0
    el = red.results[0].type.element
    ct = scalar.ctype(el)
    c = combiner(red)
    L = target.local_size_hint
    body = red.regions[0].blocks[0]
    out = [target.header(kernel, params), f"  {target.shared_space}{ct} g_red[{L}];"]
    out += setup + target._ids()
    out += ["  int64_t g_p = 1;", "  while (g_p < g_lsz) g_p <<= 1;",
            f"  const int64_t g_o1 = g_wg * {per} + {per} < {outputs} ? g_wg * {per} + {per} : {outputs};",
            # one output per group: a block, no loop around the barriers
            f"  for (int64_t g_o = g_wg * {per}; g_o < g_o1; ++g_o) {{" if per > 1 else
            "  { const int64_t g_o = g_wg;"]
    idx = tuple(f"i{k}" for k in range(len(shape)))
    em.depth = 2
    for d in delinearize_decls("g_o", shape, "i"):
        em.line(d)
    start = em.value(init, ())
    if not R.has(c, R.IDEMPOTENT):
        start = f"(g_lid == 0 ? {start} : {scalar.literal(el, R.identity(c))})"
    acc = em.var(ct, start)
    em.open(f"for (int64_t g_r = g_lid; g_r < {reduced}; g_r += g_lsz)")
    for d in delinearize_decls("g_r", rshape, "g_k"):
        em.line(d)
    it, ks = iter(idx), iter(f"g_k{k}" for k in range(len(dims)))
    src = tuple(next(ks) if k in dims else next(it) for k in range(len(xshape)))
    new, = em.region_call(body, [acc, em.value(x, src)])
    em.line(f"{acc} = {new};")
    em.close()
    em.line(f"g_red[g_lid] = {acc};")
    em.line(target.barrier)
    em.open("for (int64_t g_s = g_p >> 1; g_s > 0; g_s >>= 1)")
    em.open("if (g_lid < g_s && g_lid + g_s < g_lsz)")
    both, = em.region_call(body, ["g_red[g_lid]", "g_red[g_lid + g_s]"])
    em.line(f"g_red[g_lid] = {both};")
    em.close()
    em.line(target.barrier)
    em.close()
    em.open("if (g_lid == 0)")
    em.line(f"const {ct} g_total = g_red[0];")
    em.bind(red.results[0], idx, "g_total")
    vals = [em.value(v, idx) for v in kernel.outputs]
    for line in output_stores(em, kernel, vals, "g_o"):
        em.line(line)
    em.close()
    if per > 1:
        em.line(target.barrier)     # g_red[0] read before the next output overwrites it
    out += em.lines + ["  }", "}"]
    return em.decls, "\n".join(out), count
