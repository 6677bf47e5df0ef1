"""Barrier-free vector contraction for GPU targets whose threads have
vectors (OpenCL), the variant a CPU device (PoCL) builds.

The shared-memory tiled contraction (gpu.py ``_contraction``) is right for
GPUs, but on a CPU OpenCL every barrier splits the kernel into work-item
loops and the register tile lives in memory across them.  Here a thread
owns RM rows x RN outputs and reads its operands straight from global
memory (the CPU caches do the staging), in one of two shapes:

- *columns*: the rhs is contiguous along N; RN vectors of VW consecutive
  columns, each k step RM scalar lhs loads and RN vector rhs loads;
- *dot*: both operands contiguous along K (attention's Q.K^T, x.W^T);
  RM x RN vector accumulators over k, summed across lanes at the end,
  a scalar tail for K not a multiple of VW.

Thread tiles (batch, row block, column block; column block fastest) are
split evenly over the workgroup count every target shares and the threads
of a workgroup stride over its range; rows and columns past the end are
computed on clamped indices and not stored.  Each tile's outputs go through
the fused epilogue (``contraction_epilogue``).
"""
from __future__ import annotations

from ..ir.symbolic import cdiv, make
from . import scalar
from .body import BodyEmitter, contraction_epilogue
from .c_style import contraction_operands
from .gpu_conv import thread_tiles
from .kernel import Kernel, contraction_plan

ROWS = 4            # RM


def _mul(var: str, k) -> str:
    return "0" if k == 0 else f"({var})" if k == 1 else f"({var}) * ({k})"


def shape(c, widths):
    """("columns" | "dot", VW, RN) for contraction ``c``."""
    (_, _, lsk), (_, rsk, rsn) = c.lhs_strides, c.rhs_strides
    n_ok = rsn == 1 and isinstance(c.N, int)
    vw = next((w for w in widths if n_ok and c.N % w == 0), 1)
    if vw >= 4 or (lsk != 1 or rsk != 1) or not widths:
        return "columns", vw, min(2 if vw > 1 else 4, -(-c.N // vw) if isinstance(c.N, int) else 4)
    return "dot", widths[0], 2


def render_contraction(target, kernel: Kernel):
    """(declarations, kernel source, workgroup count)."""
    c = kernel.contraction
    em = BodyEmitter({}, indent=4)
    params, setup = target.params(kernel, em)
    el = c.accumulator_element
    ops = contraction_operands(c, em)
    ct, lhs, rhs, lsm, lsk, rsk, rsn, _, st, _ = ops
    # f16/bf16 operands: scalar loads, each converted (no 16-bit vector loads)
    mode, vw, rn = shape(c, () if ops.narrow else target.vector_widths(ct))
    vt = target.vector_type(ct, vw)
    count = contraction_plan(c).count
    rm = ROWS if not isinstance(c.M, int) or c.M >= ROWS else max(1, c.M)
    ncols = rn * vw if mode == "columns" else rn          # outputs per tile row
    mblocks, nblocks = cdiv(c.M, rm), cdiv(c.N, ncols)
    tiles = make("*", make("*", c.B, mblocks), nblocks)
    gs = target.global_space
    zero = scalar.literal(el, 0)
    vzero = target.vector_splat(ct, vw, zero)
    decls, store = contraction_epilogue(em, kernel, "g_b", "g_m", "g_n", "g_res[g_i][g_j]")

    out = thread_tiles(target, kernel, params, setup, count, tiles) + [
        f"    const int64_t g_n0 = (g_t % {nblocks}) * {ncols}, g_m0 = ((g_t / {nblocks}) % {mblocks}) * {rm};",
        f"    const int64_t g_b = g_t / ({nblocks} * {mblocks});",
        f"    {gs}const {st}* g_bp = {rhs} + {c.batch_offset('rhs', 'g_b')};",
    ]
    for i in range(rm):
        out.append(f"    {gs}const {st}* g_ap{i} = {lhs} + {c.batch_offset('lhs', 'g_b')} + "
                   f"{_mul(f'g_m0 + {i} < {c.M} ? g_m0 + {i} : {c.M} - 1', lsm)};")
    if mode == "columns":
        for r in range(rn):
            out.append(f"    const int64_t g_ch{r} = g_n0 + {r * vw} < {c.N} ? g_n0 + {r * vw} : {c.N} - {vw};")
        out += [f"    {vt} g_a{i}_{r} = {vzero};" for i in range(rm) for r in range(rn)]
        out.append(f"    for (int64_t g_k = 0; g_k < {c.K}; ++g_k) {{")
        ak = _mul("g_k", lsk)
        out += [f"      const {ct} g_x{i} = {ops.load(f'g_ap{i}[{ak}]')};" for i in range(rm)]
        for r in range(rn):
            at = f"g_bp + {_mul('g_k', rsk)} + {_mul(f'g_ch{r}', rsn)}"
            out.append(f"      const {vt} g_y{r} = {ops.load(target.vector_load(vw, at))};")
        out += [f"      g_a{i}_{r} += g_x{i} * g_y{r};" for i in range(rm) for r in range(rn)]
        out += ["    }", f"    {ct} g_res[{rm}][{ncols}];"]
        for i in range(rm):
            out += ["    " + target.vector_store(vw, f"g_a{i}_{r}", f"&g_res[{i}][{r * vw}]")
                    for r in range(rn)]
    else:
        for j in range(rn):
            col = f"g_n0 + {j} < {c.N} ? g_n0 + {j} : {c.N} - 1"
            out.append(f"    {gs}const {ct}* g_bp{j} = g_bp + {_mul(col, rsn)};")
        out += [f"    {vt} g_a{i}_{j} = {vzero};" for i in range(rm) for j in range(rn)]
        out += ["    int64_t g_k = 0;",
                f"    for (; g_k + {vw} <= {c.K}; g_k += {vw}) {{"]
        out += [f"      const {vt} g_x{i} = {target.vector_load(vw, f'g_ap{i} + g_k')};" for i in range(rm)]
        out += [f"      const {vt} g_y{j} = {target.vector_load(vw, f'g_bp{j} + g_k')};" for j in range(rn)]
        out += [f"      g_a{i}_{j} += g_x{i} * g_y{j};" for i in range(rm) for j in range(rn)]
        out += ["    }", f"    {ct} g_res[{rm}][{ncols}];"]
        out += [f"    g_res[{i}][{j}] = {target.vector_sum(vw, f'g_a{i}_{j}')};"
                for i in range(rm) for j in range(rn)]
        out.append(f"    for (; g_k < {c.K}; ++g_k) {{")
        out += [f"      g_res[{i}][{j}] += g_ap{i}[g_k] * g_bp{j}[g_k];" for i in range(rm) for j in range(rn)]
        out.append("    }")
    out += [
        "#pragma unroll",
        f"    for (int g_i = 0; g_i < {rm}; ++g_i) {{",
        "      const int64_t g_m = g_m0 + g_i;",
        f"      if (g_m >= {c.M}) break;",
        "#pragma unroll",
        f"      for (int g_j = 0; g_j < {ncols}; ++g_j) {{",
        "        const int64_t g_n = g_n0 + g_j;",
        f"        if (g_n >= {c.N}) break;",
    ]
    out += ["        " + d for d in decls] + ["        " + line.strip() for line in em.lines]
    out += ["        " + store, "      }", "    }", "  }", "}"]
    return em.decls, "\n".join(out), count
