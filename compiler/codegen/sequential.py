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

from ..errors import UnsupportedOpError
from ..ir.attributes import ints
from . import scalar
from .body import linearize


def emit_sequential(kernel, em, wg: str, outs: list) -> int:
    """Emit the statements of workgroup ``wg``; return the workgroup count."""
    fn = KINDS.get(kernel.kind)
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
    operands, indices, updates = op.operands[:n], op.operands[n], op.operands[n + 1:]
    dn = op.attr("scatter_dimension_numbers").fields
    uwd = tuple(dn.get("update_window_dims", ()))
    inserted = tuple(dn.get("inserted_window_dims", ()))
    in_batch = tuple(dn.get("input_batching_dims", ()))
    idx_batch = tuple(dn.get("scatter_indices_batching_dims", ()))
    to_operand = tuple(dn.get("scatter_dims_to_operand_dims", ()))
    ivd = dn.get("index_vector_dim", 0)
    shape = op.results[0].type.shape
    rank = len(shape)
    if any(d == 0 for d in shape):
        return 0
    em.open(f"if ({wg} == 0)")
    copy_in(em, outs, op.results, operands)
    ushape = updates[0].type.shape
    uidx = loops(em, ushape, "u")
    scatter_dims = [d for d in range(len(ushape)) if d not in uwd]
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
    em.open(f"if ({' && '.join(conds) or '1'})")
    cur = [load(em, o, r, full) for o, r in zip(outs, op.results)]
    upd = [em.value(u, uidx) for u in updates]
    new = em.region_call(op.regions[0].blocks[0], cur + upd)
    for o, r, v in zip(outs, op.results, new):
        store(em, o, r, full, v)
    em.close()
    close(em, len(ushape))
    em.close()
    return 1


def _add(a: str, b: str) -> str:
    if a == "0":
        return b
    return f"({a} + {b})"


KINDS = {
    "scatter": _scatter,
}
