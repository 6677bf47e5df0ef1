"""The GPU targets' fused attention (codegen/attention.py's pattern):
FlashAttention's scheme on one work-group per (batch, block of ``BR``
query rows).

The block's q rows are staged in local memory once; then per tile of
``BC`` keys the work-group stages the K and V tiles, each item computes
some of the BR x BC scores (q . k, then the scale / mask / bias epilogue
pulled through the body emitter at the score's index), each row's item
takes the tile max, rescales its running sum by exp(m_old - m_new),
turns the tile's scores into exp(x - m_new) and folds the guard's side
reductions, and the items update the BR x Dv accumulator (rescaled by the
same factor) from the probabilities and the V tile.  Every loop strides
by the local size, so any local size works; barriers separate the phases.
Out-of-range keys (N not a multiple of BC) get probability 0, and rows
past M are computed at a clamped row and not stored.
"""
from __future__ import annotations

from . import scalar
from .attention import Indices, emit_rows, finish, prepare, score, side_updates

LOCAL_BYTES = 24576         # local memory a work-group's tiles may take (OpenCL 1.2 has >= 32 KiB)
TILES = (32, 16, 8, 4, 2, 1)


def tiles(a, size: int) -> tuple | None:
    """(BR, BC): the largest square tile whose staged q, K, V, scores and
    accumulator fit ``LOCAL_BYTES`` (neither past the problem's size)."""
    for t in TILES:
        br, bc = min(t, _pow2(a.M)), min(t, _pow2(a.N))
        words = br * a.D + bc * a.D + bc * a.Dv + br * bc + br * a.Dv + 3 * br
        if size * words + 8 * br * len(a.sides) <= LOCAL_BYTES:
            return br, bc
    return None


def _pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def render_tiled(target, kernel):
    """(decls, source, workgroup count) of the tiled attention, or None
    where its tiles do not fit local memory (the plain plan then)."""
    a, em, params, setup = prepare(target, kernel)
    el = a.pv.result.type.element
    ct = scalar.ctype(el)
    t = tiles(a, 8 if el == "f64" else 4)
    if t is None:
        return None
    br, bc = t
    D, Dv, M, N = a.D, a.Dv, a.M, a.N
    blocks = -(-M // br)
    sh, bar = target.shared_space, target.barrier
    zero, inf = scalar.literal(el, 0), scalar.literal(el, float("-inf"))
    shared = [f"{ct} a_q[{br}][{D}]", f"{ct} a_k[{bc}][{D}]", f"{ct} a_v[{bc}][{Dv}]",
              f"{ct} a_s[{br}][{bc}]", f"{ct} a_o[{br * Dv}]", f"{ct} a_m[{br}]", f"{ct} a_l[{br}]",
              f"{ct} a_alpha[{br}]"]
    shared += [f"{scalar.ctype(r.result.type.element)} a_side{k}[{br}]" for k, r in enumerate(a.sides)]
    em.depth = 1
    em.line(f"const int64_t a_b = g_wg / {blocks}, a_r0 = (g_wg % {blocks}) * {br};")
    ix = Indices(a, "a_b")
    for line in ix.decls:
        em.line(line)

    def each(n, *decls):
        em.open(f"for (int64_t a_t = g_lid; a_t < {n}; a_t += g_lsz)")
        for d in decls:
            em.line(d)

    clamp_i = f"const int64_t a_i = a_r0 + a_r < {M} ? a_r0 + a_r : {M - 1};"
    each(br * D, f"const int64_t a_r = a_t / {D}, a_d = a_t % {D};", clamp_i)
    em.line(f"a_q[a_r][a_d] = {em.value(a.qk.operands[0], ix.q('a_i', 'a_d'))};")
    em.close()
    each(br * Dv)
    em.line(f"a_o[a_t] = {zero};")
    em.close()
    each(br)
    em.line(f"a_m[a_t] = {inf}; a_l[a_t] = {zero};")
    for k, red in enumerate(a.sides):
        em.line(f"a_side{k}[a_t] = {em.value(red.operands[1], ())};")
    em.close()
    em.line(bar)
    em.open(f"for (int64_t a_c0 = 0; a_c0 < {N}; a_c0 += {bc})")
    clamp_j = f"const int64_t a_j = a_c0 + a_c < {N} ? a_c0 + a_c : {N - 1};"
    each(bc * D, f"const int64_t a_c = a_t / {D}, a_d = a_t % {D};", clamp_j)
    em.line(f"a_k[a_c][a_d] = {em.value(a.qk.operands[1], ix.k('a_j', 'a_d'))};")
    em.close()
    each(bc * Dv, f"const int64_t a_c = a_t / {Dv}, a_d = a_t % {Dv};", clamp_j)
    em.line(f"a_v[a_c][a_d] = a_c0 + a_c < {N} ? {em.value(a.pv.operands[1], ix.v('a_j', 'a_d'))} : {zero};")
    em.close()
    em.line(bar)
    each(br * bc, f"const int64_t a_r = a_t / {bc}, a_c = a_t % {bc};", clamp_i, clamp_j)
    x = score(em, a, ix, "a_i", "a_j", lambda d: f"a_q[a_r][{d}]", lambda d: f"a_k[a_c][{d}]")
    em.line(f"a_s[a_r][a_c] = {x};")
    em.close()
    em.line(bar)
    each(br, "const int64_t a_r = a_t;", clamp_i,
         f"const int64_t a_n = {N} - a_c0 < {bc} ? {N} - a_c0 : {bc};",
         f"const {ct} a_mold = a_m[a_r];", f"{ct} a_mx = a_mold;")
    em.line("for (int64_t a_c = 0; a_c < a_n; ++a_c) a_mx = a_s[a_r][a_c] > a_mx ? a_s[a_r][a_c] : a_mx;")
    if a.sides:
        em.open("for (int64_t a_c = 0; a_c < a_n; ++a_c)")
        side_updates(em, a, ix, [f"a_side{k}[a_r]" for k in range(len(a.sides))],
                     "a_s[a_r][a_c]", "a_i", "(a_c0 + a_c)")
        em.close()
    exp = lambda e: scalar.unary("exponential", el, e)     # noqa: E731
    em.line(f"const {ct} a_al = a_mx == {inf} ? {scalar.literal(el, 1)} : {exp('a_mold - a_mx')};")
    em.line(f"{ct} a_sum = a_l[a_r] * a_al;")
    em.open(f"for (int64_t a_c = 0; a_c < {bc}; ++a_c)")
    em.line(f"const {ct} a_p = a_c < a_n && a_mx != {inf} ? {exp('a_s[a_r][a_c] - a_mx')} : {zero};")
    em.line("a_s[a_r][a_c] = a_p; a_sum += a_p;")
    em.close()
    em.line("a_l[a_r] = a_sum; a_m[a_r] = a_mx; a_alpha[a_r] = a_al;")
    em.close()
    em.line(bar)
    each(br * Dv, f"const int64_t a_r = a_t / {Dv}, a_d = a_t % {Dv};",
         f"{ct} a_acc = a_o[a_t] * a_alpha[a_r];")
    em.line(f"for (int64_t a_c = 0; a_c < {bc}; ++a_c) a_acc += a_s[a_r][a_c] * a_v[a_c][a_d];")
    em.line("a_o[a_t] = a_acc;")
    em.close()
    em.line(bar)
    em.close()
    each(br * Dv, f"const int64_t a_r = a_t / {Dv}, a_d = a_t % {Dv}, a_i = a_r0 + a_r;")
    em.open(f"if (a_i < {M})")
    finish(em, kernel, a, ix, [f"a_side{k}[a_r]" for k in range(len(a.sides))],
           "a_i", "a_d", "a_o[a_t]", "a_l[a_r]")
    em.close()
    em.close()
    out = [target.header(kernel, params)] + setup + target._ids()
    cpu = target.cpu_device_macro
    if cpu is not None:
        # A CPU device runs a work-group's items one after another, where
        # barriers and local tiles only cost: there each item takes rows of
        # the block and walks their keys (the CPU variants' plan).
        a2, em2, _, _ = prepare(target, kernel)
        em2.depth = 1
        emit_rows(em2, kernel, a2, "g_wg", br, blocks, "g_lid", "g_lsz", (target, target.vector_widths(ct)))
        out += [f"#ifdef {cpu}", *em2.lines, "#else"]
        em.decls += [d for d in em2.decls if d not in em.decls]
    out += [f"  {sh}{d};" for d in shared] + em.lines + (["#endif"] if cpu is not None else [])
    return em.decls, "\n".join(out + ["}"]), a.B * blocks
