"""Matrix-unit contraction for f16/bf16 operands: the block's output tile
computed by warp-level 16x16x16 matrix multiply-accumulates (CUDA's WMMA
on tensor cores), f32 accumulators, the fused epilogue applied per element.

A block of ``local_size_hint`` threads (whole warps) owns a BM x BN output
tile at a time; per K step of TK it stages A (BM x TK) and B (TK x BN) as raw
16-bit elements in shared memory -- zero-filled past the edges, so any M, N,
K, stride and batch layout goes through the same fragments -- and each warp
multiplies its WM x WN fragments.  The accumulators go back through a
shared f32 tile, from which every thread applies the fused epilogue to the
outputs it owns (``contraction_epilogue``), as the f32 tiled kernel does.

The target supplies the fragment spellings (``mma_*`` methods) and the
preprocessor condition under which the device has matrix units for the
element type (``mma_guard``); the kernel is rendered under that condition
with the scalar tiled kernel as the other branch, so one module serves
devices with and without matrix units (nvcc compiles the branch of the
architecture it builds for).  Accumulating in f32 with one rounding at the
result is the contraction's contract for narrow operands on every target
(kernel.Contraction.accumulator_element); only the summation order differs.
"""
from __future__ import annotations

from .body import BodyEmitter, contraction_epilogue
from .c_style import contraction_operands
from .kernel import NARROW, Kernel, contraction_plan

FRAGMENT = 16        # m = n = k of one matrix multiply-accumulate
TK = 32              # K step staged per barrier pair (two fragment steps)
WARP = 32
_A_PAD, _B_PAD, _C_PAD = 8, 8, 4    # row padding: 16-byte aligned rows, fewer bank conflicts


def tile_shape(c, warps: int):
    """(warps along M, warps along N, fragments per warp along M, along N):
    tall tiles (64 x 64 with four warps) unless the product has at most one
    fragment of rows, then one fragment row and the warps side by side."""
    rows = c.B * c.M if isinstance(c.M, int) and isinstance(c.B, int) else None
    if rows is not None and rows <= FRAGMENT:
        return 1, warps, 1, 2
    wm = 2 if warps % 2 == 0 else 1
    return wm, warps // wm, 2, 2


def applies(target, kernel: Kernel) -> bool:
    c = kernel.contraction
    return (c is not None and c.operand_element in NARROW
            and c.op.operands[1].type.element == c.operand_element
            and target.mma_guard(c.operand_element) is not None
            and target.local_size_hint % WARP == 0)


def render(target, kernel: Kernel):
    """(declarations, kernel body statements) of the
    matrix-unit form, the body to be placed after the kernel's header and
    ids (gpu.py ``render_contraction`` guards it with ``mma_guard``)."""
    c = kernel.contraction
    el = c.operand_element
    threads = target.local_size_hint
    warps = threads // WARP
    wm_n, wn_n, fm, fn = tile_shape(c, warps)
    bm, bn = wm_n * fm * FRAGMENT, wn_n * fn * FRAGMENT
    lda, ldb, ldc = TK + _A_PAD, bn + _B_PAD, bn + _C_PAD
    plan = contraction_plan(c)
    em = BodyEmitter({}, indent=4)
    target.params(kernel, em)
    ops = contraction_operands(c, em)
    _, lhs, rhs, lsm, lsk, rsk, rsn, rows, st, _ = ops
    decls, store = contraction_epilogue(em, kernel, "g_b", "(g_m + g_i)", "g_col", "g_Cs[g_i][g_j]")
    gs, sh = target.global_space, target.shared_space
    from .gpu import _stage, _workgroup_block
    kin = "" if isinstance(c.K, int) and c.K % TK == 0 else f" && g_k0 + g_kk < {c.K}"
    a_load = (f"g_As[g_ii][g_kk] = g_ii < g_nr{kin} ? "
              f"g_lp[g_ii * {lsm} + (g_k0 + g_kk) * {lsk}] : ({st})0;")
    b_load = (f"g_Bs[g_kk][g_jj] = g_n0 + g_jj < g_c1{kin} ? "
              f"g_rp[(g_k0 + g_kk) * {rsk} + (g_n0 + g_jj) * {rsn}] : ({st})0;")
    frag_a, frag_b = [f"g_fa{i}" for i in range(fm)], [f"g_fb{j}" for j in range(fn)]
    acc = [[f"g_fc{i}_{j}" for j in range(fn)] for i in range(fm)]
    body = [
        f"  {sh}{target.mma_align} {st} g_As[{bm}][{lda}];",
        f"  {sh}{target.mma_align} {st} g_Bs[{TK}][{ldb}];",
        f"  {sh}{target.mma_align} float g_Cs[{bm}][{ldc}];",
        f"  const int g_warp = (int)(g_lid / {WARP});",
        f"  const int g_wm = (g_warp / {wn_n}) * {fm * FRAGMENT}, g_wn = (g_warp % {wn_n}) * {fn * FRAGMENT};",
        *target.mma_declare(el, frag_a, frag_b, [a for row in acc for a in row]),
        *_workgroup_block(plan, rows, c.N),
        "  for (int64_t g_r = g_r0; g_r < g_r1;) {",
        f"    const int64_t g_b = g_r / {c.M}, g_m = g_r % {c.M};",
        f"    int64_t g_nr = g_r1 - g_r < {bm} ? g_r1 - g_r : {bm};",
        f"    if (g_nr > {c.M} - g_m) g_nr = {c.M} - g_m;",
        f"    {gs}const {st}* g_lp = {lhs} + {c.batch_offset('lhs', 'g_b')} + g_m * {lsm};",
        f"    {gs}const {st}* g_rp = {rhs} + {c.batch_offset('rhs', 'g_b')};",
        f"    for (int64_t g_n0 = g_c0; g_n0 < g_c1; g_n0 += {bn}) {{",
        *["      " + target.mma_zero(a) for row in acc for a in row],
        f"      for (int64_t g_k0 = 0; g_k0 < {c.K}; g_k0 += {TK}) {{",
    ]
    body += (_stage("g_ii", bm, "g_kk", TK, threads, a_load) if lsk == 1
             else _stage("g_kk", TK, "g_ii", bm, threads, a_load))
    body += _stage("g_kk", TK, "g_jj", bn, threads, b_load)
    body += [f"        {target.barrier}",
             f"        for (int g_kk = 0; g_kk < {TK}; g_kk += {FRAGMENT}) {{"]
    body += ["          " + target.mma_load(el, frag_a[i], f"&g_As[g_wm + {i * FRAGMENT}][g_kk]", lda)
             for i in range(fm)]
    body += ["          " + target.mma_load(el, frag_b[j], f"&g_Bs[g_kk][g_wn + {j * FRAGMENT}]", ldb)
             for j in range(fn)]
    body += ["          " + target.mma_step(acc[i][j], frag_a[i], frag_b[j])
             for i in range(fm) for j in range(fn)]
    body += ["        }", f"        {target.barrier}", "      }"]
    body += ["      " + target.mma_store(f"&g_Cs[g_wm + {i * FRAGMENT}][g_wn + {j * FRAGMENT}]", acc[i][j], ldc)
             for i in range(fm) for j in range(fn)]
    body += [
        f"      {target.barrier}",
        f"      for (int g_t = (int)g_lid; g_t < {bm * bn}; g_t += {threads}) {{",
        f"        const int g_i = g_t / {bn}, g_j = g_t % {bn};",
        "        const int64_t g_col = g_n0 + g_j;",
        "        if (g_i < g_nr && g_col < g_c1) {",
    ]
    body += ["          " + d for d in decls]
    body += ["  " + line for line in em.lines]
    body += ["          " + store, "        }", "      }", f"      {target.barrier}", "    }",
             "    g_r += g_nr;", "  }"]
    return em.decls, body
