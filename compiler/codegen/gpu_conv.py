"""GPU direct convolution kernels (descriptor: conv.py), shared by the
OpenCL and CUDA renderers.

Implicit GEMM: the output is (pixels n/oh/ow) x (channels), the reduction
(kh, kw, ic).  A *thread tile* is RM pixels x RN channel vectors of VW
consecutive output channels of one group; the kernel's thread tiles are
numbered channel block fastest (neighbouring threads share their input
pixels and read neighbouring filter columns), split evenly over the
workgroup count every target shares (``convolution_plan``), and the threads
of a workgroup stride over its range.  Per tap a thread loads RM input
values and RN filter vectors and does RM x RN vector multiply-adds: each
filter vector loaded serves RM pixels, each input value RN x VW channels.

VW is the target's vector width (OpenCL: ``floatN`` with ``vloadN``, so a
CPU OpenCL such as PoCL gets SIMD; CUDA: 1, scalar per thread) where the
filter's output channel is contiguous and divides the group's channels.
Depthwise convolutions vectorise over channels for input and filter alike.
Padding is handled by clamping the input offset to a valid element and
selecting zero: no branch in the reduction, and windows that never leave
the input (no padding) skip even that.  Pixels and channels past the end
of the last tile are computed on clamped indices and not stored.  Each
tile's accumulators go through the fused elementwise epilogue on their
way to memory.  No barriers and no local memory: any local size works.
"""
from __future__ import annotations

from ..ir.symbolic import cdiv, make
from . import scalar
from .body import BodyEmitter
from .c_style import convolution_epilogue
from .conv import workgroup_divisor
from .kernel import Kernel, workgroup_plan

PIXELS = 4          # RM: output pixels per thread tile


def thread_tiles(target, kernel: Kernel, params, setup, count, tiles, prelude=()) -> list:
    """Kernel header and set-up (then ``prelude``), then the loop of each
    thread over its workgroup's share of ``tiles`` thread tiles (index
    ``g_t``; the loop's body and closing brace are the caller's): tiles split
    evenly over the ``count`` workgroups every target shares, threads
    striding over them."""
    wgs = workgroup_divisor(count)
    return [target.header(kernel, params)] + setup + target._ids() + list(prelude) + [
        f"  const int64_t g_wgs = {wgs}, g_tiles = {tiles};",
        "  const int64_t g_t1 = (g_wg + 1) * g_tiles / g_wgs;",
        "  for (int64_t g_t = g_wg * g_tiles / g_wgs + g_lid; g_t < g_t1; g_t += g_lsz) {"]


def _mul(var: str, k) -> str:
    return "0" if k == 0 else var if k == 1 else f"{var} * ({k})"


def tiling(c, widths) -> tuple:
    """(VW, RN, span): the vector width (from ``widths``, widest first), the
    vectors per thread tile and the channels one group's tiles cover."""
    span = c.C if c.depthwise else c.OC // c.groups
    contiguous = c.w_strides[3] == 1 and (not c.depthwise or c.x_strides[3] == 1)
    vw = next((w for w in widths if w > 1 and contiguous and span % w == 0), 1)
    rn = min(2 if vw > 1 else 4, -(-span // vw))
    return vw, rn, span


def render_convolution(target, kernel: Kernel):
    """(declarations, kernel source, workgroup count) of a direct
    convolution for the GPU ``target`` (a gpu.GpuTarget)."""
    c = kernel.convolution
    em = BodyEmitter({}, indent=5)
    params, setup = target.params(kernel, em)
    el = c.op.result.type.element
    ct = scalar.ctype(el)
    vw, rn, span = tiling(c, target.vector_widths(ct))
    vt = target.vector_type(ct, vw)
    pixels = c.N * c.OH * c.OW
    rm = PIXELS if not isinstance(pixels, int) or pixels >= PIXELS else max(1, pixels)
    count = workgroup_plan(kernel)[3]
    x, w = em.bindings[c.lhs], em.bindings[c.rhs]
    sxn, sxh, sxw, sxc = c.x_strides
    skh, skw, ski, sko = c.w_strides
    (sh, dh, ph), (sw, dw, pw) = zip(c.stride, c.dilation, c.pad_lo)
    cb = -(-span // (rn * vw))                   # channel blocks per group
    groups = 1 if c.depthwise else c.groups
    pblocks = cdiv(pixels, rm)
    tiles = make("*", pblocks, cb * groups)
    inside = (c.pad_lo == (0, 0) and (c.OH - 1) * sh + (c.KH - 1) * dh < c.H
              and (c.OW - 1) * sw + (c.KW - 1) * dw < c.W)
    gs = target.global_space
    zero = scalar.literal(el, 0)
    vzero = target.vector_splat(ct, vw, zero)

    # fused epilogue at (n, oh, ow, oc) with the tile's value in g_res[g_i][g_j]
    epilogue = convolution_epilogue(em, kernel, "g_n", "g_oh", "g_ow", "g_oc", "g_res[g_i][g_j]")

    staged = render_staged(target, kernel, count)
    out = thread_tiles(target, kernel, params, setup, count, tiles, staged[1] if staged else ()) + [
        f"    const int64_t g_cb = g_t % {cb}, g_pb = (g_t / {cb}) % {pblocks};",
        f"    const int64_t g_grp = g_t / ({cb} * {pblocks});",
        f"    const int64_t g_c0 = g_cb * {rn * vw};          /* first channel in the group */",
        f"    const int64_t g_p0 = g_pb * {rm};",
    ]
    body = []
    for i in range(rm):
        body += [
            f"    const int64_t g_q{i} = g_p0 + {i} < {pixels} ? g_p0 + {i} : {pixels} - 1;",
            f"    const int64_t g_ih{i} = ((g_q{i} / {c.OW}) % {c.OH}) * {sh} - {ph}, "
            f"g_iw{i} = (g_q{i} % {c.OW}) * {sw} - {pw};",
            f"    const int64_t g_x{i} = (g_q{i} / {c.OH * c.OW}) * {sxn} + "
            f"{_mul(f'g_ih{i}', sxh)} + {_mul(f'g_iw{i}', sxw)};",
        ]
    # per vector r: the channel offset its loads use (clamped into the group)
    for r in range(rn):
        off = f"g_c0 + {r * vw}"
        body.append(f"    const int64_t g_ch{r} = {off} < {span} ? {off} : {span - vw};")
    cin = "0" if c.depthwise else _mul("g_grp", c.IC * sxc)
    wgrp = _mul("g_grp", span * sko) if not c.depthwise else "0"
    body += [f"    {vt} g_a{i}_{r} = {vzero};" for i in range(rm) for r in range(rn)]
    body += [
        f"    for (int64_t g_kh = 0; g_kh < {c.KH}; ++g_kh) {{",
        f"      for (int64_t g_kw = 0; g_kw < {c.KW}; ++g_kw) {{",
        f"        {gs}const {ct}* g_wp = {w} + ({c.w_offset} + {_mul('g_kh', skh)} + {_mul('g_kw', skw)}"
        f" + {wgrp});",
    ]
    for i in range(rm):
        tap = f"g_x{i} + {_mul('g_kh', dh * sxh)} + {_mul('g_kw', dw * sxw)}"
        if inside:
            body.append(f"        const int64_t g_o{i} = {tap};")
        else:
            body += [f"        const int g_ok{i} = (uint64_t)(g_ih{i} + {_mul('g_kh', dh)}) < {c.H}"
                     f" && (uint64_t)(g_iw{i} + {_mul('g_kw', dw)}) < {c.W};",
                     f"        const int64_t g_o{i} = g_ok{i} ? {tap} : 0;"]
    if c.depthwise:
        # input and filter: a vector of channels at each tap
        for r in range(rn):
            at = "g_wp + " + _mul(f"g_ch{r}", sko)
            body.append(f"        const {vt} g_y{r} = {target.vector_load(vw, at)};" if vw > 1
                        else f"        const {ct} g_y{r} = *({at});")
            for i in range(rm):
                ld = (target.vector_load(vw, f"{x} + g_o{i} + g_ch{r}") if vw > 1
                      else f"{x}[g_o{i} + " + _mul(f"g_ch{r}", sxc) + "]")
                sel = ld if inside else f"(g_ok{i} ? {ld} : {vzero})"
                body.append(f"        g_a{i}_{r} += {sel} * g_y{r};")
    else:
        body.append(f"        for (int64_t g_ic = 0; g_ic < {c.IC}; ++g_ic) {{")
        for i in range(rm):
            ld = f"{x}[g_o{i} + {cin} + {_mul('g_ic', sxc)}]"
            sel = ld if inside else f"g_ok{i} ? {ld} : {zero}"
            body.append(f"          const {ct} g_v{i} = {sel};")
        for r in range(rn):
            at = f"g_wp + {_mul('g_ic', ski)} + {_mul(f'g_ch{r}', sko)}"
            body.append(f"          const {vt} g_y{r} = {target.vector_load(vw, at)};" if vw > 1
                        else f"          const {ct} g_y{r} = *({at});")
        body += [f"          g_a{i}_{r} += g_v{i} * g_y{r};" for i in range(rm) for r in range(rn)]
        body.append("        }")
    body += ["      }", "    }"]
    # accumulators -> g_res, then the epilogue per valid (pixel, channel)
    body.append(f"    {ct} g_res[{rm}][{rn * vw}];")
    for i in range(rm):
        for r in range(rn):
            body.append("    " + target.vector_store(vw, f"g_a{i}_{r}", f"&g_res[{i}][{r * vw}]")
                        if vw > 1 else f"    g_res[{i}][{r}] = g_a{i}_{r};")
    group_oc = "g_grp * " + str(span) + " + " if groups > 1 else ""
    body += [
        "#pragma unroll",
        f"    for (int g_i = 0; g_i < {rm}; ++g_i) {{",
        "      const int64_t g_p = g_p0 + g_i;",
        f"      if (g_p >= {pixels}) break;",
        f"      const int64_t g_n = g_p / {c.OH * c.OW}, g_oh = (g_p / {c.OW}) % {c.OH}, g_ow = g_p % {c.OW};",
        "#pragma unroll",
        f"      for (int g_j = 0; g_j < {rn * vw}; ++g_j) {{",
        f"        if (g_c0 + g_j >= {span}) break;",
        f"        const int64_t g_oc = {group_oc}g_c0 + g_j;",
    ]
    body += ["        " + s for s in epilogue]
    body += ["      }", "    }", "  }", "}"]
    decls = em.decls + [d for d in (staged[0] if staged else ()) if d not in em.decls]
    return decls, "\n".join(out + body), count


def render_staged(target, kernel: Kernel, count):
    """(declarations, statements) running the convolution as an implicit
    GEMM through gpu.py's staged tiles -- pixels x output channels, the
    reduction over (kh, kw, ic), A gathered from the input window by window
    (zero outside it), B read from the filter -- where the launch has the
    ``local_size_hint`` threads the tiles assume; they return, and other
    launches (a capped local size, CPU devices: ``cpu_device_macro``) fall
    through to the register-tiled kernel.  None for grouped convolutions."""
    from .gpu import _TK, register_tiling, staged_product
    c = kernel.convolution
    if c.groups != 1:
        return None
    L = target.local_size_hint
    em = BodyEmitter({}, indent=4)
    target.params(kernel, em)
    el = c.op.result.type.element
    ct, zero = scalar.ctype(el), scalar.literal(el, 0)
    x, w = em.bindings[c.lhs], em.bindings[c.rhs]
    sxn, sxh, sxw, sxc = c.x_strides
    skh, skw, ski, sko = c.w_strides
    (sh, dh, ph), (sw, dw, pw) = zip(c.stride, c.dilation, c.pad_lo)
    pixels, K = c.N * c.OH * c.OW, c.reduction
    rows = pixels // max(count, 1) if isinstance(pixels, int) and isinstance(count, int) else pixels
    t = register_tiling(8 if el == "f64" else 4, rows, c.OC, L)
    tap = (f"const int64_t g_sk = g_k0 + g_kk, g_skh = g_sk / {c.KW * c.IC}, "
           f"g_skw = (g_sk / {c.IC}) % {c.KW}, g_sic = g_sk % {c.IC};")
    a_stmt = (f"{{ {tap} const int64_t g_sp = g_m0 + g_ii; "
              f"const int64_t g_sih = ((g_sp / {c.OW}) % {c.OH}) * {sh} - {ph} + g_skh * {dh}, "
              f"g_siw = (g_sp % {c.OW}) * {sw} - {pw} + g_skw * {dw}; "
              f"g_As[g_kk][g_ii] = g_ii < g_nr && g_sk < {K} && (uint64_t)g_sih < {c.H} && "
              f"(uint64_t)g_siw < {c.W} ? {x}[(g_sp / {c.OH * c.OW}) * {sxn} + {_mul('g_sih', sxh)} + "
              f"{_mul('g_siw', sxw)} + {_mul('g_sic', sxc)}] : {zero}; }}")
    b_stmt = (f"{{ {tap} g_Bs[g_kk][g_jj] = g_sk < {K} && g_n0 + g_jj < {c.OC} ? "
              f"{w}[{c.w_offset} + {_mul('g_skh', skh)} + {_mul('g_skw', skw)} + {_mul('g_sic', ski)} + "
              f"{_mul('(g_n0 + g_jj)', sko)}] : {zero}; }}")
    epilogue = convolution_epilogue(em, kernel, "g_n", "g_oh", "g_ow", "g_col", "g_c[g_ri][g_rj]")
    guard = target.cpu_device_macro
    body = ([f"#ifndef {guard}"] if guard else []) + [
        t.declare(target, ct, sxc == 1),      # OpenCL: local arrays at the kernel's outer scope
        f"  if (g_lsz == {L}) {{",
        f"  const int64_t g_wgs = {workgroup_divisor(count)}, g_np = {pixels};",
        "  const int64_t g_p0 = g_wg * g_np / g_wgs, g_p1 = (g_wg + 1) * g_np / g_wgs;",
        f"  for (int64_t g_m0 = g_p0; g_m0 < g_p1; g_m0 += {t.tm}) {{",
        f"    const int64_t g_nr = g_p1 - g_m0 < {t.tm} ? g_p1 - g_m0 : {t.tm};",
        f"    for (int64_t g_n0 = 0; g_n0 < {c.OC}; g_n0 += {t.tn}) {{",
        *staged_product(target, t, ct, zero, K, a_stmt, sxc == 1, b_stmt),
        f"          if (g_i < g_nr && g_col < {c.OC}) {{",
        "            const int64_t g_p = g_m0 + g_i;",
        f"            const int64_t g_n = g_p / {c.OH * c.OW}, g_oh = (g_p / {c.OW}) % {c.OH}, "
        f"g_ow = g_p % {c.OW};",
    ]
    body += ["            " + s for s in epilogue]
    body += ["          }", "        }", "      }", "    }", "  }", "  return;", "  }"]
    return em.decls, body + ([f"#endif"] if guard else [])
