"""The window kernel of a donated in-place update.

A dispatch whose result takes over a donated argument's storage
(donation.py: its region's root is a ``dynamic_update_slice`` of that
argument) runs with its output buffer *being* the argument's.  The elements
outside the update window are already in place, so the kernel writes only
the window: the update's elements (pulled, so the ops that compute them fuse)
at the clamped start indices.  A KV cache written at one position per
decode call then costs its window, not a pass over the whole cache.

Workgroups split the window's rows (every dim but the last); each writes one
contiguous run of the last dim.
"""
from __future__ import annotations

from .body import delinearize, linearize
from .pull_ops import clamped_start

#: Kernel kind of such a dispatch (kernel.Kernel.kind), set by the pipeline
#: for the dispatches ``donation.dispatch_donors`` names.
WINDOW_KIND = "update_window"


def emit_update_window(kernel, em, wg: str, outs: list) -> int:
    """Emit workgroup ``wg``'s statements; return the workgroup count."""
    dus = kernel.root
    state, upd = dus.operands[:2]
    shape, ushape = tuple(state.type.shape), tuple(upd.type.shape)
    rank = len(shape)
    rows = 1
    for d in ushape[:-1]:
        rows *= d
    if rows == 0 or (rank and ushape[-1] == 0):
        return 0
    starts = [clamped_start(em, v, shape[k] - ushape[k]) for k, v in enumerate(dus.operands[2:])]
    outer = delinearize(wg, ushape[:-1]) if rank > 1 else ()
    outer = tuple(em.tmp("int64_t", str(i)) for i in outer)
    inner = ()
    if rank:
        j = em.fresh("j")
        em.open(f"for (int64_t {j} = 0; {j} < {ushape[-1]}; ++{j})")
        inner = (j,)
    idx = outer + inner
    at = linearize([f"({s} + {i})" for s, i in zip(starts, idx)], shape)
    el = dus.result.type.element
    em.line(f"{outs[0]}[{at}] = {em.store_expr(el, em.value(upd, idx))};")
    if rank:
        em.close()
    return rows
