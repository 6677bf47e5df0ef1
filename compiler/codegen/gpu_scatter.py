"""Parallel scatter for the GPU targets.

The sequential kernel (sequential.py) has item 0 copy the operand and apply
every update in order.  Here all items of the work-group copy the operand
(strided), meet at a barrier, then each applies a strided share of the
updates: without synchronisation where ``unique_indices`` promises no two
updates meet (any combiner), with an atomic add where the combiner is
``add`` on i32 / ui32 / f32 (OpenCL: ``atomic_add``, f32 by a
compare-and-swap loop; CUDA: ``atomicAdd``; the order of the f32 additions
then varies from run to run, as on XLA's GPU backend).  Other combiners
keep the sequential kernel.  The scatter stays one work-group: updates of
other work-groups could land before the copy of the element they update
(a dispatch has no grid-wide barrier).
"""
from __future__ import annotations

from math import prod

from . import scalar
from .index_maps import delinearize_decls, linearize
from .lane_reduce import combiner
from .sequential import scatter_target

# (target name, element) -> atomic add of value V at pointer P, as a statement
_ATOMIC_ADD = {
    ("opencl", "i32"): "atomic_add((volatile __global int*)({p}), {v});",
    ("opencl", "ui32"): "atomic_add((volatile __global uint*)({p}), {v});",
    ("opencl", "f32"): ("{{ volatile __global int* g_ap = (volatile __global int*)({p}); "
                        "int g_old = *g_ap, g_was; do {{ g_was = g_old; g_old = atomic_cmpxchg(g_ap, g_was, "
                        "as_int(as_float(g_was) + ({v}))); }} while (g_old != g_was); }}"),
    ("cuda", "i32"): "atomicAdd((int*)({p}), {v});",
    ("cuda", "ui32"): "atomicAdd((unsigned int*)({p}), {v});",
    ("cuda", "f32"): "atomicAdd((float*)({p}), {v});",
}


def render_scatter(target, kernel):
    """(decls, source, workgroup count) of the work-group-parallel scatter, or None."""
    from .gpu_sort import _kernel_start, _static
    op = kernel.root
    if len(op.results) != 1 or not _static(op):
        return None
    x, _, upd = op.operands
    shape, ushape = tuple(op.result.type.shape), tuple(upd.type.shape)
    el = op.result.type.element
    unique = getattr(op.attributes.get("unique_indices"), "value", False)
    atomic = None if unique else _ATOMIC_ADD.get((target.name, el))
    if not prod(shape) or not unique and (atomic is None or combiner(op) != "stablehlo.add"):
        return None
    em, out = _kernel_start(target, kernel, [])
    em.open(f"for (int64_t g_t = g_lid; g_t < {prod(shape)}; g_t += g_lsz)")
    for d in delinearize_decls("g_t", shape, "g_c"):
        em.line(d)
    em.line(f"o0[g_t] = {em.store_expr(el, em.value(x, [f'g_c{k}' for k in range(len(shape))]))};")
    em.close()
    # the copy is seen by the whole work-group before any update (CUDA's
    # __syncthreads orders global memory too)
    em.line(target.barrier.replace("CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE"))
    em.open(f"for (int64_t g_u = g_lid; g_u < {prod(ushape)}; g_u += g_lsz)")
    for d in delinearize_decls("g_u", ushape, "g_v"):
        em.line(d)
    uidx = [f"g_v{k}" for k in range(len(ushape))]
    full, cond = scatter_target(em, op, uidx)
    em.open(f"if ({cond})")
    lin = linearize(full, shape)
    u = em.value(upd, uidx)
    if atomic is not None:
        em.line(atomic.format(p=f"o0 + {lin}", v=u))
    else:
        cur = em.tmp(scalar.ctype(el), em.load_expr(el, f"o0[{lin}]"))
        new, = em.region_call(op.regions[0].blocks[0], [cur, u])
        em.line(f"o0[{lin}] = {em.store_expr(el, new)};")
    em.close()
    em.close()
    return em.decls, "\n".join(out + em.lines + ["}"]), 1
