"""Sequential kernel kinds: ops whose workgroups each run a small program.

Scatter with combiners, sort, top-k, cholesky, triangular_solve have no
per-output-element pull form (or one far too costly).  Each kind here emits,
through a ``BodyEmitter``, the portable C statements one workgroup runs
(plain C: loops, scalars, math.h; no VLAs, no malloc) and returns the
workgroup count; the target renderer wraps them in its workgroup loop (CPU)
or maps the workgroup id to a work-group (GPU).  Operands are still *pulled*
through ``BodyEmitter.value`` so producers fuse; outputs are written through
the output pointers ``outs`` and may be read back (they are the scratch).

Workgroups split independent rows / batches where the op has them; an op
that must see all of its data (scatter) runs as one workgroup.
"""
from __future__ import annotations

from ..dialects.registry import implementation
from ..errors import UnsupportedOpError
from ..ir.symbolic import cdiv
from . import scalar
from .body import linearize
from .kernel import DYNAMIC_GUESS
from .update_window import WINDOW_KIND, emit_update_window


def emit_sequential(kernel, em, wg: str, outs: list) -> int:
    """Emit the statements of workgroup ``wg``; return the workgroup count."""
    fn = emit_update_window if kernel.kind == WINDOW_KIND else \
        implementation(kernel.root.name, "program", __package__)
    if fn is None:
        raise UnsupportedOpError(kernel.root.name, "no sequential kernel lowering")
    return fn(kernel, em, wg, outs)


def loops(em, shape, prefix="i") -> tuple:
    """Open one loop per dim of ``shape``; return the index variables."""
    idx = []
    for d in shape:
        v = em.fresh(prefix)
        em.open(f"for (int64_t {v} = 0; {v} < {d}; ++{v})")
        idx.append(v)
    return tuple(idx)


def close(em, n: int) -> None:
    for _ in range(n):
        em.close()


def store(em, out: str, value, idx, expr: str) -> None:
    t = value.type
    em.line(f"{out}[{linearize(idx, t.shape)}] = {em.store_expr(t.element, expr)};")


def load(em, out: str, value, idx) -> str:
    t = value.type
    raw = f"{out}[{linearize(idx, t.shape)}]"
    return em.tmp(scalar.ctype(t.element), em.load_expr(t.element, raw))


def copy_in(em, outs, results, sources) -> None:
    """outs[j] <- sources[j] elementwise (pulled), over the results' shape."""
    shape = results[0].type.shape
    idx = loops(em, shape)
    for o, r, s in zip(outs, results, sources):
        store(em, o, r, idx, em.value(s, idx))
    close(em, len(shape))


# -- scatter ---------------------------------------------------------------------------------
def _scatter(kernel, em, wg, outs) -> int:
    op = kernel.root
    n = len(op.results)
    operands, updates = op.operands[:n], op.operands[n + 1:]
    shape = op.results[0].type.shape
    if any(d == 0 for d in shape):
        return 0
    em.open(f"if ({wg} == 0)")
    # a dispatch that updates its operand's buffer (passes/scatter_in_place.py)
    # has nothing to copy when the host shares the two
    from .gpu_scatter import IN_PLACE_ATTR
    shared = em.bindings.get(operands[0]) if n == 1 and IN_PLACE_ATTR in getattr(
        op.parent_op, "attributes", {}) else None
    if shared is not None:
        em.open(f"if ((const void*){shared} != (const void*){outs[0]})")
    copy_in(em, outs, op.results, operands)
    if shared is not None:
        em.close()
    ushape = updates[0].type.shape
    uidx = loops(em, ushape, "u")
    full, cond = scatter_target(em, op, uidx)
    em.open(f"if ({cond})")
    cur = [load(em, o, r, full) for o, r in zip(outs, op.results)]
    upd = [em.value(u, uidx) for u in updates]
    new = em.region_call(op.regions[0].blocks[0], cur + upd)
    for o, r, v in zip(outs, op.results, new):
        store(em, o, r, full, v)
    em.close()
    close(em, len(ushape))
    em.close()
    return 1


def scatter_target(em, op, uidx):
    """(operand multi-index, in-bounds condition) of the update element at
    ``uidx`` of scatter ``op`` (C expressions; the condition "1" when static)."""
    n = len(op.results)
    indices = op.operands[n]
    dn = op.attr("scatter_dimension_numbers").fields
    uwd = tuple(dn.get("update_window_dims", ()))
    inserted = tuple(dn.get("inserted_window_dims", ()))
    in_batch = tuple(dn.get("input_batching_dims", ()))
    idx_batch = tuple(dn.get("scatter_indices_batching_dims", ()))
    to_operand = tuple(dn.get("scatter_dims_to_operand_dims", ()))
    ivd = dn.get("index_vector_dim", 0)
    shape = op.results[0].type.shape
    rank = len(shape)
    scatter_dims = [d for d in range(len(uidx)) if d not in uwd]
    sidx = [uidx[d] for d in scatter_dims]
    irank = indices.type.rank

    def start(k):
        iidx = sidx[:ivd] + [str(k)] + sidx[ivd:] if ivd < irank else sidx
        return em.tmp("int64_t", f"(int64_t){em.value(indices, iidx)}")

    full = ["0"] * rank
    for k, d in enumerate(to_operand):
        full[d] = start(k)
    for b, d in enumerate(in_batch):
        ds = idx_batch[b]
        full[d] = _add(full[d], sidx[ds if ds < ivd else ds - 1])
    wpos = [d for d in range(rank) if d not in inserted and d not in in_batch]
    for k, d in enumerate(wpos):
        full[d] = _add(full[d], uidx[uwd[k]])
    full = [em.tmp("int64_t", e) for e in full]
    conds = [f"{e} >= 0 && {e} < {shape[d]}" for d, e in enumerate(full)
             if not (e.isdigit() and int(e) < shape[d])]
    return full, " && ".join(conds) or "1"


def _add(a: str, b: str) -> str:
    if a == "0":
        return b
    return f"({a} + {b})"


# -- rows: sort, top_k ---------------------------------------------------------------------------
def _row_plan(em, wg, shape, dim, cost):
    """Open the loop over this workgroup's rows of ``shape`` along ``dim``;
    return (count, row index tuple with None at ``dim``, base, stride)."""
    from .kernel import WORKGROUP_WORK
    outer = [d for k, d in enumerate(shape) if k != dim]
    rows = 1
    for d in outer:
        rows *= d
    if rows == 0 or shape[dim] == 0:
        return 0, None, None, None
    if not isinstance(cost, int):
        cost = DYNAMIC_GUESS * DYNAMIC_GUESS
    rpw = max(1, WORKGROUP_WORK // max(1, cost))
    count = cdiv(rows, rpw)             # an expression when rows are dynamic
    r = em.fresh("row")
    em.open(f"for (int64_t {r} = (int64_t){wg} * {rpw}; {r} < {rows} && {r} < ((int64_t){wg} + 1) * {rpw}; ++{r})")
    sub = em._delinearize(r, tuple(outer))
    idx = list(sub[:dim]) + [None] + list(sub[dim:])
    stride = 1
    for d in shape[dim + 1:]:
        stride *= d
    base = em.tmp("int64_t", _lin_without(idx, shape))
    return count, idx, base, stride


def _lin_without(idx, shape):
    expr = "0"
    for i, d in zip(idx, shape):
        i = "0" if i is None else i
        expr = i if expr == "0" else f"({expr}) * {d} + {i}"
    return expr


def _at(idx, j):
    return tuple(j if i is None else i for i in idx)


def _raw(em, out, v, base, stride, j):
    t = v.type
    off = f"{base} + ({j}) * {stride}" if stride != 1 else f"{base} + {j}"
    return f"{out}[{off}]", t


def _get(em, out, v, base, stride, j):
    raw, t = _raw(em, out, v, base, stride, j)
    return em.tmp(scalar.ctype(t.element), em.load_expr(t.element, raw))


def _put(em, out, v, base, stride, j, expr):
    raw, t = _raw(em, out, v, base, stride, j)
    em.line(f"{raw} = {em.store_expr(t.element, expr)};")


def _sort(kernel, em, wg, outs) -> int:
    """Stable binary-insertion sort of each row, in place in the outputs."""
    op = kernel.root
    from .gpu_sort import SORTED_HALVES, emit_merge_rows
    if SORTED_HALVES in op.attributes:          # rows of two sorted halves (passes/split_sorts.py)
        return emit_merge_rows(kernel, em, wg, outs)
    shape = op.results[0].type.shape
    dim = op.attributes["dimension"].value
    n = shape[dim]
    g = n if isinstance(n, int) else DYNAMIC_GUESS
    count, idx, base, stride = _row_plan(em, wg, shape, dim, g * max(1, g.bit_length()) * 4)
    if not count:
        return 0
    res = op.results
    j = em.fresh("j")
    em.open(f"for (int64_t {j} = 0; {j} < {n}; ++{j})")
    for o, r, x in zip(outs, res, op.operands):
        _put(em, o, r, base, stride, j, em.value(x, _at(idx, j)))
    em.close()
    body = op.regions[0].blocks[0]
    i = em.fresh("i")
    em.open(f"for (int64_t {i} = 1; {i} < {n}; ++{i})")
    xs = [em.var(scalar.ctype(r.type.element), _get(em, o, r, base, stride, i)) for o, r in zip(outs, res)]
    lo, hi = em.var("int64_t", "0"), em.var("int64_t", i)
    em.open(f"while ({lo} < {hi})")
    mid = em.tmp("int64_t", f"{lo} + ({hi} - {lo}) / 2")
    ys = [_get(em, o, r, base, stride, mid) for o, r in zip(outs, res)]
    args = [a for pair in zip(xs, ys) for a in pair]
    before, = em.region_call(body, args)
    em.line(f"if ({before}) {hi} = {mid}; else {lo} = {mid} + 1;")
    em.close()
    k = em.fresh("k")
    em.open(f"for (int64_t {k} = {i}; {k} > {lo}; --{k})")
    for o, r in zip(outs, res):
        src, _ = _raw(em, o, r, base, stride, f"{k} - 1")
        dst, _ = _raw(em, o, r, base, stride, k)
        em.line(f"{dst} = {src};")
    em.close()
    for o, r, x in zip(outs, res, xs):
        _put(em, o, r, base, stride, lo, x)
    em.close()
    em.close()
    return count


def _greater(el, a, b):
    from ..ir.types import is_float
    if is_float(el):
        k = "32" if scalar.ctype(el) == "float" else "64"
        return f"(tvm_totalorder{k}({a}) > tvm_totalorder{k}({b}))"
    return f"({a} > {b})"


def _top_k(kernel, em, wg, outs) -> int:
    """Per row: the k largest (total order), earlier index first on ties."""
    op = kernel.root
    x = op.operands[0]
    shape = x.type.shape
    dim = len(shape) - 1
    n, k = shape[-1], op.results[0].type.shape[-1]
    count, idx, _, _ = _row_plan(em, wg, shape, dim, n * (max(1, k) if isinstance(k, int) else k))
    if not count or (isinstance(k, int) and k == 0):
        return count if k else 0
    oshape = op.results[0].type.shape
    obase = em.tmp("int64_t", _lin_without(idx, oshape))
    vals, inds = op.results
    el = x.type.element
    filled = em.var("int64_t", "0")
    j = em.fresh("j")
    em.open(f"for (int64_t {j} = 0; {j} < {n}; ++{j})")
    v = em.value(x, _at(idx, j))
    raw, _ = _raw(em, outs[0], vals, obase, 1, f"{filled} - 1")
    last = em.load_expr(el, raw)     # inline: only read once filled > 0
    em.open(f"if ({filled} < {k} || {_greater(el, v, last)})")
    p = em.var("int64_t", f"{filled} < {k} ? {filled} : {k - 1}")
    em.open(f"while ({p} > 0)")
    prev = _get(em, outs[0], vals, obase, 1, f"{p} - 1")
    em.line(f"if (!{_greater(el, v, prev)}) break;")
    for o, r in zip(outs, (vals, inds)):
        em.line(f"{_raw(em, o, r, obase, 1, p)[0]} = {_raw(em, o, r, obase, 1, f'{p} - 1')[0]};")
    em.line(f"--{p};")
    em.close()
    _put(em, outs[0], vals, obase, 1, p, v)
    _put(em, outs[1], inds, obase, 1, p, f"({scalar.ctype(inds.type.element)}){j}")
    em.line(f"if ({filled} < {k}) ++{filled};")
    em.close()
    em.close()
    em.close()
    return count


# -- linear algebra: triangular_solve, cholesky -----------------------------------------------
def _batch_plan(em, wg, shape, cost):
    """Loop over this workgroup's matrices (all dims but the last two)."""
    from .kernel import WORKGROUP_WORK
    batch = 1
    for d in shape[:-2]:
        batch *= d
    if batch == 0 or shape[-1] == 0 or shape[-2] == 0:
        return 0, None
    if not isinstance(cost, int):
        cost = DYNAMIC_GUESS ** 3
    per = max(1, WORKGROUP_WORK // max(1, cost))
    b = em.fresh("bt")
    em.open(f"for (int64_t {b} = (int64_t){wg} * {per}; {b} < {batch} && {b} < ((int64_t){wg} + 1) * {per}; ++{b})")
    return cdiv(batch, per), em._delinearize(b, tuple(shape[:-2]))


def _triangular_solve(kernel, em, wg, outs) -> int:
    op = kernel.root
    a, b = op.operands
    x = op.result
    el = x.type.element
    ct = scalar.ctype(el)
    left = op.attributes["left_side"].value
    lower = op.attributes["lower"].value
    unit = op.attributes["unit_diagonal"].value
    trans = getattr(op.attributes.get("transpose_a"), "value", "NO_TRANSPOSE")
    m = a.type.shape[-1]
    rows, cols = x.type.shape[-2:]
    count, bidx = _batch_plan(em, wg, x.type.shape, m * m * max(rows, cols))
    if not count:
        return 0
    bidx = tuple(bidx)
    at = lambda i, j: bidx + (i, j)   # noqa: E731

    def A(i, k):            # op(a)[i, k]
        if trans == "NO_TRANSPOSE":
            return em.value(a, at(i, k))
        v = em.value(a, at(k, i))
        return em.tmp(ct, scalar.unary("conj", el, v)) if trans == "ADJOINT" and el.startswith("complex") else v
    eff_lower = lower != (trans != "NO_TRANSPOSE")
    copy_idx = loops(em, (rows, cols), "c")
    store(em, outs[0], x, at(*copy_idx), em.value(b, at(*copy_idx)))
    close(em, 2)
    X = lambda i, j: load(em, outs[0], x, at(i, j))   # noqa: E731
    # left: op(a) X = B, solve rows of X per column; right: X op(a) = B, columns per row.
    forward = eff_lower if left else not eff_lower
    other = em.fresh("c")
    em.open(f"for (int64_t {other} = 0; {other} < {cols if left else rows}; ++{other})")
    i = em.fresh("i")
    em.open(f"for (int64_t {i} = 0; {i} < {m}; ++{i})" if forward
            else f"for (int64_t {i} = {m - 1}; {i} >= 0; --{i})")
    pos = (i, other) if left else (other, i)
    acc = em.var(ct, X(*pos))
    k = em.fresh("k")
    em.open(f"for (int64_t {k} = 0; {k} < {i}; ++{k})" if forward
            else f"for (int64_t {k} = {i} + 1; {k} < {m}; ++{k})")
    coef = A(i, k) if left else A(k, i)
    xv = X(*((k, other) if left else (other, k)))
    em.line(f"{acc} = {scalar.binary('subtract', el, acc, scalar.binary('multiply', el, coef, xv))};")
    em.close()
    res = acc if unit else scalar.binary("divide", el, acc, A(i, i))
    store(em, outs[0], x, at(*pos), res)
    em.close()
    em.close()
    em.close()
    return count


def _cholesky(kernel, em, wg, outs) -> int:
    """Cholesky-Banachiewicz on the chosen triangle; the other one is zeroed."""
    op = kernel.root
    a = op.operands[0]
    x = op.result
    el = x.type.element
    if el.startswith("complex"):
        raise UnsupportedOpError("stablehlo.cholesky", "complex element types")
    ct = scalar.ctype(el)
    lower = getattr(op.attributes.get("lower"), "value", False)
    n = a.type.shape[-1]
    count, bidx = _batch_plan(em, wg, x.type.shape, n * n * n)
    if not count:
        return 0
    bidx = tuple(bidx)
    tr = (lambda i, j: (i, j)) if lower else (lambda i, j: (j, i))   # L[i, j] position
    at = lambda i, j: bidx + tr(i, j)   # noqa: E731
    i, j = em.fresh("i"), em.fresh("j")
    em.open(f"for (int64_t {i} = 0; {i} < {n}; ++{i})")
    em.open(f"for (int64_t {j} = 0; {j} < {n}; ++{j})")
    em.open(f"if ({j} > {i})")
    store(em, outs[0], x, at(i, j), scalar.literal(el, 0))
    em.close()
    em.open("else")
    acc = em.var(ct, em.value(a, at(i, j)))
    k = em.fresh("k")
    em.open(f"for (int64_t {k} = 0; {k} < {j}; ++{k})")
    em.line(f"{acc} -= {load(em, outs[0], x, at(i, k))} * {load(em, outs[0], x, at(j, k))};")
    em.close()
    f = "f" if ct == "float" else ""
    em.line(f"if ({i} == {j}) {acc} = sqrt{f}({acc}); else {acc} = {acc} / {load(em, outs[0], x, at(j, j))};")
    store(em, outs[0], x, at(i, j), acc)
    close(em, 4)
    return count
