"""Parallel sort and top_k for the GPU targets.

Sorts: a row of up to ``block_capacity`` elements is sorted by one
work-group in local / shared memory (bitonic network: every item
compare-exchanges pairs, one barrier per step).  Ties are broken by the
element's original position, which makes the comparator a strict total
order (what the network needs) and the sort stable.  A longer row is split
by GPU compiles (passes/split_sorts.py) into sorts of blocks and a chain of
sorts whose operand halves are already sorted, marked ``SORTED_HALVES``:
such a sort is a merge, one dispatch of many work-groups per doubling.
Each item writes a run of ``MERGE_RUN`` positions: a binary search on the
diagonal finds how many left elements precede the run (merge path), then
two cursors merge it (left before right on ties, so stable).  CPU variants
of the same module merge each row with two cursors (``emit_merge_rows``).

top_k: one work-group per row; each item keeps the k largest of its strided
share in private memory, then the work-group merges the lists pairwise in
local memory, one barrier per level (larger first in total order, the
earlier index first on ties, as sequential.py's kernel).

Anything else (a dynamic sort / top_k dimension, complex elements, short
rows, run-time k) keeps the sequential kernel (sequential.py): the
renderers return None.  Other dims may be dynamic (the count an expression).
"""
from __future__ import annotations

from math import prod

from . import scalar
from .body import BodyEmitter
from .index_maps import delinearize_decls, linearize
from .sequential import _at, _greater, _put, _row_plan

SORTED_HALVES = "tvm.sorted_halves"   # attribute: each half of every sorted row is already sorted
LOCAL_BYTES = 16384     # local memory a sort or top_k work-group may take (OpenCL 1.2 has >= 32 KiB)
MAX_BLOCK = 2048        # elements a work-group sorts in local memory, at most
MIN_BLOCK = 64          # shorter rows keep the sequential kernel (several rows per work-group)
MERGE_WORK = 1024       # elements per work-group in a merge dispatch
MERGE_RUN = 8           # consecutive elements an item merges
MAX_K = 32              # top_k: longest private list per item
_WIDE = ("double", "int64_t", "uint64_t")


def sort_dim(op) -> int:
    rank = op.results[0].type.rank
    d = op.attributes["dimension"].value
    return d % rank if rank else 0


def block_capacity(elements) -> int:
    """Largest power of two of elements (of these operand types, plus the
    original position) one work-group sorts in local memory."""
    per = 4 + sum(8 if scalar.ctype(e) in _WIDE else 4 for e in elements)
    p = MAX_BLOCK
    while p > 1 and p * per > LOCAL_BYTES:
        p //= 2
    return p


def _static(op, dim=None) -> bool:
    """Static dims (only ``dim`` where given: the others may be symbols, the
    work-group count an expression) and no complex results."""
    return all(type(d) is int for v in list(op.operands) + list(op.results)
               for k, d in enumerate(v.type.shape) if dim is None or k == dim) \
        and not any(v.type.element.startswith("complex") for v in op.results)


def _empty(shape) -> bool:
    return any(type(d) is int and d == 0 for d in shape)


def _pairs(first, second) -> list:
    """Comparator arguments (lhs0, rhs0, lhs1, rhs1, ...)."""
    return [a for pair in zip(first, second) for a in pair]


def _kernel_start(target, kernel, shared):
    em = BodyEmitter({}, indent=1)
    params, setup = target.params(kernel, em)
    out = [target.header(kernel, params)] + [f"  {target.shared_space}{d};" for d in shared]
    return em, out + setup + target._ids()


# -- sort --------------------------------------------------------------------------------------
def render_sort(target, kernel):
    """(decls, source, workgroup count) of a parallel sort kernel, or None."""
    op = kernel.root
    shape = tuple(op.results[0].type.shape)
    dim = sort_dim(op)
    n = shape[dim]
    if not _static(op, dim) or _empty(shape):
        return None
    if SORTED_HALVES in op.attributes:
        return _merge(target, kernel, op, shape, dim) if _static(op) else None
    p = 1
    while p < n:
        p *= 2
    if n < MIN_BLOCK or p > block_capacity([r.type.element for r in op.results]):
        return None
    return _block_sort(target, kernel, op, shape, dim, p)


def _block_sort(target, kernel, op, shape, dim, p):
    """One work-group per row: a bitonic network over the row padded to
    ``p`` in local memory (padding sorts last)."""
    n = shape[dim]
    cts = [scalar.ctype(r.type.element) for r in op.results]
    em, out = _kernel_start(target, kernel, [f"{ct} g_s{k}[{p}]" for k, ct in enumerate(cts)]
                            + [f"int g_si[{p}]"])
    outer = tuple(d for k, d in enumerate(shape) if k != dim)
    for d in delinearize_decls("g_wg", outer, "g_q"):
        em.line(d)
    q = [f"g_q{k}" for k in range(len(outer))]

    def at(j):
        return tuple(q[:dim]) + (j,) + tuple(q[dim:])
    em.open(f"for (int64_t g_t = g_lid; g_t < {p}; g_t += g_lsz)")
    em.line(f"const int64_t g_j = g_t < {n} ? g_t : {n - 1};")    # padding: a copy of the last element
    for k, x in enumerate(op.operands):
        em.line(f"g_s{k}[g_t] = {em.value(x, at('g_j'))};")
    em.line("g_si[g_t] = (int)g_t;")
    em.close()
    em.line(target.barrier)
    body = op.regions[0].blocks[0]
    em.open(f"for (int g_size = 2; g_size <= {p}; g_size <<= 1)")
    em.open("for (int g_str = g_size >> 1; g_str > 0; g_str >>= 1)")
    em.open(f"for (int g_t = (int)g_lid; g_t < {p // 2}; g_t += (int)g_lsz)")
    em.line("const int g_a = ((g_t & ~(g_str - 1)) << 1) | (g_t & (g_str - 1)), g_b = g_a + g_str;")
    em.line("const int g_ia = g_si[g_a], g_ib = g_si[g_b];")
    xa = [f"g_s{k}[g_a]" for k in range(len(cts))]
    xb = [f"g_s{k}[g_b]" for k in range(len(cts))]
    ba, = em.region_call(body, _pairs(xb, xa))
    ab, = em.region_call(body, _pairs(xa, xb))
    # b goes first: a real element before padding, by the comparator, or by position on ties
    em.line(f"const int g_first = g_ib < {n} && (g_ia >= {n} || ({ba}) || (!({ab}) && g_ib < g_ia));")
    em.open("if (g_first == ((g_a & g_size) == 0))")     # ascending runs where bit g_size is clear
    for k, ct in enumerate(cts):
        em.line(f"const {ct} g_x{k} = g_s{k}[g_a]; g_s{k}[g_a] = g_s{k}[g_b]; g_s{k}[g_b] = g_x{k};")
    em.line("g_si[g_a] = g_ib; g_si[g_b] = g_ia;")
    em.close()
    em.close()
    em.line(target.barrier)
    em.close()
    em.close()
    em.open(f"for (int64_t g_t = g_lid; g_t < {n}; g_t += g_lsz)")
    for k, r in enumerate(op.results):
        em.line(f"o{k}[{linearize(at('g_t'), shape)}] = {em.store_expr(r.type.element, f'g_s{k}[g_t]')};")
    em.close()
    return em.decls, "\n".join(out + em.lines + ["}"]), prod(outer)


def _merge(target, kernel, op, shape, dim):
    """Merge path: each item writes ``MERGE_RUN`` consecutive positions of a
    row whose halves are sorted; where its run starts it finds by binary
    search on the diagonal (how many left elements precede that position),
    then it merges the run with two cursors."""
    n = shape[dim]
    w = n // 2
    outer = tuple(d for k, d in enumerate(shape) if k != dim)
    per_row = -(-n // MERGE_RUN)
    runs, per_group = prod(outer) * per_row, MERGE_WORK // MERGE_RUN
    em, out = _kernel_start(target, kernel, [])
    em.open(f"for (int64_t g_t = g_wg * {per_group} + g_lid; "
            f"g_t < {runs} && g_t < (g_wg + 1) * {per_group}; g_t += g_lsz)")
    em.line(f"const int64_t g_row = g_t / {per_row}, g_d = (g_t % {per_row}) * {MERGE_RUN};")
    for d in delinearize_decls("g_row", outer, "g_q"):
        em.line(d)
    q = [f"g_q{k}" for k in range(len(outer))]

    def at(j):
        return tuple(q[:dim]) + (j,) + tuple(q[dim:])
    # left elements [0, a) and right ones [w, w + g_d - a) fill positions [0, g_d):
    # a is the first left index whose element goes after the right one facing it
    lo = em.var("int64_t", f"g_d > {w} ? g_d - {w} : 0")
    hi = em.var("int64_t", f"g_d < {w} ? g_d : {w}")
    em.open(f"while ({lo} < {hi})")
    mid = em.tmp("int64_t", f"({lo} + {hi}) >> 1")
    left = [em.value(x, at(mid)) for x in op.operands]
    right = [em.value(x, at(f"({w - 1} + g_d - {mid})")) for x in op.operands]
    first, = em.region_call(op.regions[0].blocks[0], _pairs(right, left))
    em.line(f"if (!({first})) {lo} = {mid} + 1; else {hi} = {mid};")
    em.close()
    i, j = em.var("int64_t", lo), em.var("int64_t", f"{w} + g_d - {lo}")
    k = em.fresh("k")
    em.open(f"for (int64_t {k} = g_d; {k} < g_d + {MERGE_RUN} && {k} < {n}; ++{k})")
    _merge_step(em, op, at, i, j, w, n,
                lambda r, e, v: em.line(f"o{r}[{linearize(at(k), shape)}] = {em.store_expr(e, v)};"))
    em.close()
    em.close()
    return em.decls, "\n".join(out + em.lines + ["}"]), -(-runs // per_group)


def _merge_step(em, op, at, i: str, j: str, w: int, n: int, write) -> None:
    """One output of a two-cursor merge of a row's halves (left cursor ``i``
    in [0, w), right ``j`` in [w, n)): the right element goes first only if
    it sorts strictly before the left one (stable); ``write(result index,
    element type, value)`` stores it."""
    li = em.tmp("int64_t", f"{i} < {w} ? {i} : {w - 1}")
    rj = em.tmp("int64_t", f"{j} < {n} ? {j} : {n - 1}")
    left = [em.value(x, at(li)) for x in op.operands]
    right = [em.value(x, at(rj)) for x in op.operands]
    rl, = em.region_call(op.regions[0].blocks[0], _pairs(right, left))
    take = em.tmp("int", f"{i} >= {w} || ({j} < {n} && ({rl}))")
    for r, (res, a, b) in enumerate(zip(op.results, left, right)):
        write(r, res.type.element, f"({take} ? {b} : {a})")
    em.line(f"if ({take}) ++{j}; else ++{i};")


def emit_merge_rows(kernel, em, wg: str, outs: list) -> int:
    """Sequential form of a ``SORTED_HALVES`` sort (CPU variants, and GPU
    ones the parallel merge does not take): two cursors per row."""
    op = kernel.root
    shape = op.results[0].type.shape
    dim = sort_dim(op)
    n = shape[dim]
    w = n // 2
    count, idx, base, stride = _row_plan(em, wg, shape, dim, n if isinstance(n, int) else n * 2)
    if not count:
        return 0
    i, j = em.var("int64_t", "0"), em.var("int64_t", str(w))
    k = em.fresh("k")
    em.open(f"for (int64_t {k} = 0; {k} < {n}; ++{k})")
    _merge_step(em, op, lambda e: _at(idx, e), i, j, w, n,
                lambda r, e, v: _put(em, outs[r], op.results[r], base, stride, k, v))
    em.close()
    em.close()
    return count


# -- top_k -------------------------------------------------------------------------------------
def render_top_k(target, kernel):
    """(decls, source, workgroup count) of a work-group-per-row top_k, or None."""
    op = kernel.root
    x = op.operands[0]
    if len(op.operands) != 1 or not x.type.shape or not _static(op, x.type.rank - 1):
        return None
    shape = tuple(x.type.shape)
    n, k = shape[-1], op.results[0].type.shape[-1]
    el = x.type.element
    ct = scalar.ctype(el)
    L = target.local_size_hint
    item = (8 if ct in _WIDE else 4) + 4
    if not 0 < k <= min(n, MAX_K) or n < MIN_BLOCK or L * k * item > LOCAL_BYTES or _empty(shape):
        return None
    vals, inds = op.results
    it = scalar.ctype(inds.type.element)
    em, out = _kernel_start(target, kernel, [f"{ct} g_tv[{L * k}]", f"int g_ti[{L * k}]"])
    for d in delinearize_decls("g_wg", shape[:-1], "g_q"):
        em.line(d)
    q = tuple(f"g_q{j}" for j in range(len(shape) - 1))
    em.line(f"{ct} g_pv[{k}]; int g_pi[{k}]; int g_cnt = 0;")

    def scan(start, step):          # g_pv / g_pi: the k largest of this item's share, largest first
        em.open(f"for (int64_t g_j = {start}; g_j < {n}; g_j += {step})")
        v = em.value(x, q + ("g_j",))
        # an item's indices rise, so on ties the list's earlier entry stays first
        em.open(f"if (g_cnt < {k} || {_greater(el, v, 'g_pv[g_cnt - 1]')})")
        em.line(f"int g_s = g_cnt < {k} ? g_cnt : {k - 1};")
        em.line(f"while (g_s > 0 && {_greater(el, v, 'g_pv[g_s - 1]')}) "
                "{ g_pv[g_s] = g_pv[g_s - 1]; g_pi[g_s] = g_pi[g_s - 1]; --g_s; }")
        em.line(f"g_pv[g_s] = {v}; g_pi[g_s] = (int)g_j;")
        em.line(f"if (g_cnt < {k}) ++g_cnt;")
        em.close()
        em.close()

    def store():
        em.open("if (g_lid == 0)")
        em.line(f"for (int g_c = 0; g_c < {k}; ++g_c) {{ o0[g_wg * {k} + g_c] = "
                f"{em.store_expr(vals.type.element, 'g_pv[g_c]')}; "
                f"o1[g_wg * {k} + g_c] = {em.store_expr(inds.type.element, f'({it})g_pi[g_c]')}; }}")
        em.close()
    cpu = target.cpu_device_macro
    if cpu is not None:
        # A CPU device runs a work-group's items one after another: there one
        # item scanning the row is the fast form (PoCL, 32 x 32768, k = 8:
        # ~1 ms, against 4-8 ms for the private lists and the tree).
        em.lines.append(f"#ifdef {cpu}")
        em.open("if (g_lid == 0)")
        scan("0", "1")
        em.close()
        store()
        em.lines.append("#else")
    scan("g_lid", "g_lsz")
    em.line(f"for (int g_c = g_cnt; g_c < {k}; ++g_c) {{ g_pv[g_c] = g_pv[0]; g_pi[g_c] = -1; }}")
    em.line(f"for (int g_c = 0; g_c < {k}; ++g_c) "
            f"{{ g_tv[g_lid * {k} + g_c] = g_pv[g_c]; g_ti[g_lid * {k} + g_c] = g_pi[g_c]; }}")
    em.line(target.barrier)
    em.line("int64_t g_w = 1;")
    em.line("while (g_w < g_lsz) g_w <<= 1;")
    em.open("for (int64_t g_s = g_w >> 1; g_s > 0; g_s >>= 1)")
    em.open("if (g_lid < g_s && g_lid + g_s < g_lsz)")
    em.line(f"{ct} g_nv[{k}]; int g_ni[{k}]; int g_ia = 0, g_ib = 0;")
    em.open(f"for (int g_c = 0; g_c < {k}; ++g_c)")      # g_ia + g_ib == g_c < k: both in range
    em.line(f"const {ct} g_av = g_pv[g_ia], g_bv = g_tv[(g_lid + g_s) * {k} + g_ib];")
    em.line(f"const int g_ai = g_pi[g_ia], g_bi = g_ti[(g_lid + g_s) * {k} + g_ib];")
    em.line(f"const int g_tb = g_bi >= 0 && (g_ai < 0 || {_greater(el, 'g_bv', 'g_av')} "
            f"|| (!{_greater(el, 'g_av', 'g_bv')} && g_bi < g_ai));")
    em.line("if (g_tb) { g_nv[g_c] = g_bv; g_ni[g_c] = g_bi; ++g_ib; } "
            "else { g_nv[g_c] = g_av; g_ni[g_c] = g_ai; ++g_ia; }")
    em.close()
    em.line(f"for (int g_c = 0; g_c < {k}; ++g_c) {{ g_pv[g_c] = g_nv[g_c]; g_pi[g_c] = g_ni[g_c]; "
            f"g_tv[g_lid * {k} + g_c] = g_nv[g_c]; g_ti[g_lid * {k} + g_c] = g_ni[g_c]; }}")
    em.close()
    em.line(target.barrier)
    em.close()
    store()
    if cpu is not None:
        em.lines.append("#endif")
    return em.decls, "\n".join(out + em.lines + ["}"]), prod(shape[:-1])


def render_parallel(target, kernel):
    """The parallel kernel for a sort / top_k / scatter kernel, or None."""
    if kernel.kind == "sort":
        return render_sort(target, kernel)
    if kernel.kind == "top_k":
        return render_top_k(target, kernel)
    if kernel.kind == "scatter":
        from .gpu_scatter import render_scatter
        return render_scatter(target, kernel)
    return None
