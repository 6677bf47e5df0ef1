"""Parallel scatter for the GPU targets.

The sequential kernel (sequential.py) has item 0 copy the operand and apply
every update in order.  Here the updates are applied by many items at once,
where their order cannot matter (``parallel_updates``): without
synchronisation where ``unique_indices`` promises no two updates meet (any
combiner), else with an atomic read-modify-write where the combiner is
commutative and associative (``registry.is_combiner``) on a 32-bit element (i32, ui32,
f32): the device's atomic where it has one (OpenCL ``atomic_add`` /
``atomic_min`` / ...; CUDA ``atomicAdd`` / ``atomicMin`` / ...), else a
compare-and-swap loop around the scatter's own body (f32 min / max / add on
OpenCL, multiply).  The order of f32 combines then varies from run to run,
as on XLA's GPU backend.  Other scatters keep the sequential kernel.

Without a grid-wide barrier, the copy of the operand must be done before
any work-group updates it.  A dispatch that passes/scatter_in_place.py
marked ``IN_PLACE_ATTR`` has its result in the operand's own buffer: its
kernel skips the copy and spreads the updates over a grid of
``ceil(updates / GPU_WORK)`` work-groups.  It checks that the two bindings
are one buffer (a host path may not share them): where they differ, the
first work-group copies, meets the others of its group at a barrier and
applies all the updates, and the other work-groups return.  Unmarked
scatters run that way on one work-group.
"""
from __future__ import annotations

from math import prod

from . import scalar
from .grids import GPU_WORK
from .index_maps import delinearize_decls, linearize
from .lane_reduce import combiner
from ..dialects.registry import atomic, is_combiner
from .sequential import scatter_target

#: Attribute of a ``tvm.dispatch`` rooted at a scatter: the operand index
#: (binding) whose buffer its result shares (passes/scatter_in_place.py).
IN_PLACE_ATTR = "tvm.scatter_in_place"
#: Elements an atomic compare-and-swap covers, and their C names in casts.
_ATOMIC_TYPES = {"opencl": {"i32": "int", "ui32": "uint", "f32": "float"},
                 "cuda": {"i32": "int", "ui32": "unsigned int", "f32": "float"}}
#: The devices' own atomic read-modify-writes, by the combiner's declared
#: ``atomic`` name: target -> (spelling, elements); CUDA adds f32 ``add``.
_NATIVE = {"opencl": (lambda a: f"atomic_{a}", ("i32", "ui32")),
           "cuda": (lambda a: f"atomic{a.capitalize()}", ("i32", "ui32"))}
_NATIVE_F32 = {"cuda": ("add",)}
# compare-and-swap: target -> (function, pointer type to {t}, bits of a float, float of bits)
_CAS = {"opencl": ("atomic_cmpxchg", "volatile __global {t}*", "as_int({})", "as_float({})"),
        "cuda": ("atomicCAS", "{t}*", "__float_as_int({})", "__int_as_float({})")}


def parallel_updates(op) -> bool:
    """Whether scatter ``op``'s updates may run on many items in any order."""
    from .gpu_sort import _static
    if len(op.results) != 1 or not _static(op) or not prod(op.result.type.shape):
        return False
    if getattr(op.attributes.get("unique_indices"), "value", False):
        return True
    return op.result.type.element in ("i32", "ui32", "f32") and is_combiner(combiner(op))


def render_scatter(target, kernel):
    """(decls, source, workgroup count) of the parallel scatter, or None."""
    from .gpu_sort import _kernel_start
    op = kernel.root
    if not parallel_updates(op):
        return None
    x, _, upd = op.operands
    shape, ushape = tuple(op.result.type.shape), tuple(upd.type.shape)
    el = op.result.type.element
    unique = getattr(op.attributes.get("unique_indices"), "value", False)
    if not unique and target.name not in _CAS:       # no atomics known: the sequential kernel
        return None
    em, out = _kernel_start(target, kernel, [])
    # the operand's and the result's bindings may be one buffer: not restrict
    out = [line.replace(f" {target.restrict} ", " ") for line in out]
    dispatch = op.parent_op
    marked = IN_PLACE_ATTR in getattr(dispatch, "attributes", {}) and x in em.bindings
    count = max(1, -(-prod(ushape) // GPU_WORK)) if marked else 1
    gs = target.global_space
    if marked:
        em.line(f"const int g_inplace = ({gs}const uint8_t*){em.bindings[x]} == "
                f"({gs}const uint8_t*)o0;")
        em.open("if (!g_inplace)")
        em.line("if (g_wg != 0) return;")
    em.open(f"for (int64_t g_t = g_lid; g_t < {prod(shape)}; g_t += g_lsz)")
    for d in delinearize_decls("g_t", shape, "g_c"):
        em.line(d)
    em.line(f"o0[g_t] = {em.store_expr(el, em.value(x, [f'g_c{k}' for k in range(len(shape))]))};")
    em.close()
    # the copy is seen by the whole work-group before any update (CUDA's
    # __syncthreads orders global memory too)
    em.line(target.barrier.replace("CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE"))
    if marked:
        em.close()
        em.line("const int64_t g_first = g_inplace ? g_wg * g_lsz + g_lid : g_lid;")
        em.line(f"const int64_t g_step = g_inplace ? g_lsz * {count} : g_lsz;")
    else:
        em.line("const int64_t g_first = g_lid, g_step = g_lsz;")
    em.open(f"for (int64_t g_u = g_first; g_u < {prod(ushape)}; g_u += g_step)")
    for d in delinearize_decls("g_u", ushape, "g_v"):
        em.line(d)
    uidx = [f"g_v{k}" for k in range(len(ushape))]
    full, cond = scatter_target(em, op, uidx)
    em.open(f"if ({cond})")
    at = f"o0 + {linearize(full, shape)}"
    u = em.value(upd, uidx)
    if unique:
        cur = em.tmp(scalar.ctype(el), em.load_expr(el, f"*({at})"))
        new, = em.region_call(op.regions[0].blocks[0], [cur, u])
        em.line(f"*({at}) = {em.store_expr(el, new)};")
    else:
        _atomic_update(target, em, op, el, at, u)
    em.close()
    em.close()
    return em.decls, "\n".join(out + em.lines + ["}"]), count


def _atomic_update(target, em, op, el, at, u) -> None:
    """Combine ``u`` into the element at pointer ``at`` atomically."""
    t = _ATOMIC_TYPES[target.name][el]
    name = atomic(combiner(op))
    spell, elements = _NATIVE[target.name]
    if name is not None and (el in elements or
                             (el == "f32" and name in _NATIVE_F32.get(target.name, ()))):
        em.line(f"{spell(name)}(({'volatile ' if target.name == 'opencl' else ''}"
                f"{target.global_space}{t}*)({at}), {u});")
        return
    cas, pointer, to_bits, from_bits = _CAS[target.name]
    bits = _ATOMIC_TYPES[target.name]["i32"] if el == "f32" else t
    ct = scalar.ctype(el)
    pointer = pointer.format(t=bits)
    em.open("")
    em.line(f"{pointer} g_ap = ({pointer})({at});")
    em.line(f"{bits} g_old = *g_ap;")
    em.open("for (;;)")
    em.line(f"const {bits} g_was = g_old;")
    cur = em.tmp(ct, from_bits.format("g_was") if el == "f32" else "g_was")
    new, = em.region_call(op.regions[0].blocks[0], [cur, u])
    new = em.tmp(ct, new)
    em.line(f"g_old = {cas}(g_ap, g_was, {to_bits.format(new) if el == 'f32' else new});")
    em.line("if (g_old == g_was) break;")
    em.close()
    em.close()
