"""CPU direct convolution kernels (descriptor: conv.py).

A workgroup takes a range of (output row n/oh, channel block) units.  Per
unit the valid kh range is clamped once; the row is walked in tiles of OWB
output columns x NB channels whose accumulators live in vector registers
(GCC vector extensions: AVX-512, AVX2 or NEON from one C source).  Interior
tiles run kh x kw x ic with vector loads of the filter row and broadcasts of
the input; border columns take one column at a time with the kw range
clamped (so the inner loops never test padding); channel tails and filters
whose output feature is not contiguous take a scalar loop.  Depthwise
convolutions vectorise over channels (input and filter rows loaded alike).
Each tile then runs the fused elementwise epilogue on its way to memory.
"""
from __future__ import annotations

from . import scalar
from .body import BodyEmitter, fused_store
from .conv import UNIT_CHANNELS, Convolution
from .kernel import Kernel, workgroup_plan

MAX_VECTORS = 4        # channel vectors per tile (NB = lanes x vectors <= UNIT_CHANNELS)
MAX_COLUMNS = 8        # output columns per tile


def _mul(var: str, k: int) -> str:
    return "0" if k == 0 else var if k == 1 else f"{var} * ({k})"


def _tile(span: int, lanes: int, registers: int):
    """(lanes, vectors, columns) of the register tile for ``span`` channels
    per group: the widest lane count (down to 4) dividing it, as many vectors
    as divide the rest, as many columns as the register file holds."""
    if span < 4:
        return None
    choices = [lanes >> s for s in range(3) if lanes >> s >= 4]
    lane = next((v for v in choices if span % v == 0), None)
    if lane is None:
        lane = next(v for v in choices if v <= span)
    per = span // lane
    most = min(MAX_VECTORS if registers >= 32 else 2, UNIT_CHANNELS // lane)
    vecs = next(v for v in range(min(most, per), 0, -1) if per % v == 0)
    cols = max(1, min(MAX_COLUMNS, (registers - vecs - 2) // vecs))
    return lane, vecs, cols


def render_convolution(kernel: Kernel, vector_bytes: int, pointer_decls):
    """(declarations, C source, workgroup count) of a direct convolution."""
    c: Convolution = kernel.convolution
    em = BodyEmitter({}, indent=6)
    head = pointer_decls(kernel, em)
    el = c.op.result.type.element
    ct = scalar.ctype(el)
    item = 4 if ct == "float" else 8
    x, w = em.bindings[c.lhs], em.bindings[c.rhs]
    sxn, sxh, sxw, sxc = c.x_strides
    skh, skw, ski, sko = c.w_strides
    dw = c.depthwise
    span = c.C if dw else c.OC // c.groups           # channels blocked together
    tile = _tile(span, vector_bytes // item, 32 if vector_bytes >= 64 else 16)
    if sko != 1 or (dw and sxc != 1):
        tile = None                                    # no contiguous channel row to load
    if tile is None:
        lane, vecs, cols, nb = 0, 0, 1, min(span, 16)
    else:
        lane, vecs, cols = tile
        nb = lane * vecs
    bpg = -(-span // nb)
    blocks = bpg if dw else bpg * c.groups
    units = c.N * c.OH * blocks
    count = workgroup_plan(kernel)[3]
    (sh, sw), (dh, dwl), (ph, pw) = c.stride, c.dilation, c.pad_lo
    # Output columns whose window lies inside the input for every kw.
    owi0 = max(0, -(-pw // sw))
    owi1 = min(c.OW, (c.W - 1 - (c.KW - 1) * dwl + pw) // sw + 1) if c.W - 1 - (c.KW - 1) * dwl + pw >= 0 else 0
    vt = f"tvm_cv{lane}{'f' if ct == 'float' else 'd'}"
    vb = lane * item
    decls = []
    if tile is not None:
        decls.append(f"#ifndef TVM_{vt}\n#define TVM_{vt}\n"
                     f"typedef {ct} {vt} __attribute__((vector_size({vb})));\n#endif")
    # fused epilogue at (n, oh, ow0 + i, o0 + j)
    rank = len(kernel.shape)
    where = {c.out_dims[0]: "n", c.out_dims[2]: "(ow0 + i)", c.out_dims[3]: "(oc0 + j)"}
    if c.out_dims[1] is not None:
        where[c.out_dims[1]] = "oh"
    idx = tuple(f"e{k}" for k in range(rank))
    store = fused_store(em, kernel, c.op.result, idx, "acc[i][j]")
    decls += em.decls
    channel = f"oc0 * ({sxc})" if dw else f"g * ({c.IC * sxc})"
    src = [f"int {kernel.name}(const tvm_dispatch_state_t* st, uint32_t wg_begin, uint32_t wg_end) {{"]
    src += head
    src += [
        f"  {ct} acc[{cols}][{nb}];",
        "  for (uint32_t wg = wg_begin; wg < wg_end; ++wg) {",
        f"    const int64_t u1 = ((int64_t)wg + 1) * {units} / {max(count, 1)};",
        f"    for (int64_t u = (int64_t)wg * {units} / {max(count, 1)}; u < u1; ++u) {{",
        f"      const int64_t row = u / {blocks}, blk = u % {blocks};",
        f"      const int64_t n = row / {c.OH}, oh = row % {c.OH};",
        f"      const int64_t g = blk / {bpg}, oc0 = g * {span} + (blk % {bpg}) * {nb};",
        f"      const int64_t nn = {span} - (blk % {bpg}) * {nb} < {nb} ? {span} - (blk % {bpg}) * {nb} : {nb};",
        f"      const int64_t ih0 = oh * {sh} - {ph};",
        f"      const int64_t kh0 = ih0 < 0 ? ({dh - 1} - ih0) / {dh} : 0;",
        f"      int64_t kh1 = ({c.H + dh - 1} - ih0) / {dh};",
        f"      if (kh1 > {c.KH}) kh1 = {c.KH};",
        f"      const int64_t xrow = n * {sxn} + ih0 * ({sxh}) + {channel};",
        f"      const {ct}* restrict wblk = {w} + {c.w_offset} + oc0 * ({sko});",
        "      for (int64_t ow0 = 0, nw = 1; ow0 < " + str(c.OW) + "; ow0 += nw) {",
    ]
    if tile is not None:
        src += [
            f"        if (nn == {nb} && ow0 >= {owi0} && ow0 + {cols} <= {owi1}) {{",
            f"          nw = {cols};",
            f"          const int64_t iw0 = ow0 * {sw} - {pw};",
        ]
        src += _vector_tile(c, "          ", ct, vt, vb, lane, vecs, cols, x, full_kw=True)
        rest = (owi1 - owi0) % cols if owi1 > owi0 else 0
        if rest > 1:           # the interior's last columns: one narrower register tile
            src += [f"        }} else if (nn == {nb} && ow0 >= {owi0} && ow0 + {rest} <= {owi1}) {{",
                    f"          nw = {rest};",
                    f"          const int64_t iw0 = ow0 * {sw} - {pw};"]
            src += _vector_tile(c, "          ", ct, vt, vb, lane, vecs, rest, x, full_kw=True)
        src.append("        } else {")
    else:
        src.append("        {")
    src += [
        "          nw = 1;",
        f"          const int64_t iw0 = ow0 * {sw} - {pw};",
        f"          const int64_t kw0 = iw0 < 0 ? ({dwl - 1} - iw0) / {dwl} : 0;",
        f"          int64_t kw1 = ({c.W + dwl - 1} - iw0) / {dwl};",
        f"          if (kw1 > {c.KW}) kw1 = {c.KW};",
    ]
    if tile is not None:
        src.append(f"          if (nn == {nb}) {{")
        src += _vector_tile(c, "            ", ct, vt, vb, lane, vecs, 1, x, full_kw=False)
        src.append("          } else {")
    else:
        src.append("          {")
    src += _scalar_column(c, "            ", ct, x)
    src += ["          }", "        }"]
    src += ["        for (int64_t i = 0; i < nw; ++i) {", "          for (int64_t j = 0; j < nn; ++j) {"]
    src += [f"            const int64_t e{k} = {where[k]};" for k in range(rank)]
    src += em.lines
    src += ["            " + store, "          }", "        }"]
    src += ["      }", "    }", "  }", "  return 0;", "}"]
    return decls, "\n".join(src), count


def _vector_tile(c: Convolution, ind, ct, vt, vb, lane, vecs, cols, x, full_kw):
    """Register tile of ``cols`` columns x ``vecs`` vectors at (ow0, oc0) into acc."""
    sxn, sxh, sxw, sxc = c.x_strides
    skh, skw, ski, _ = c.w_strides
    sw, dwl = c.stride[1], c.dilation[1]
    accs = [[f"c{i}_{v}" for v in range(vecs)] for i in range(cols)]
    out = [ind + " ".join(f"{vt} {a} = {{0}};" for row in accs for a in row)]
    out.append(f"{ind}for (int64_t kh = kh0; kh < kh1; ++kh) {{")
    out.append(f"{ind}  const {ct}* restrict xk = {x} + xrow + {_mul('kh', c.dilation[0] * sxh)} + iw0 * ({sxw});")
    out.append(f"{ind}  const {ct}* restrict wk = wblk + {_mul('kh', skh)};")
    lo, hi = ("0", str(c.KW)) if full_kw else ("kw0", "kw1")
    if c.depthwise and full_kw and c.KW <= 7:
        for kw in range(c.KW):           # unrolled: loads shared between kw and columns merge
            out.append(f"{ind}  {{")
            out += _depthwise_step(ind + "    ", ct, vt, vb, lane, vecs, accs, str(kw * dwl * sxw),
                                   str(kw * skw), sw * sxw)
            out.append(f"{ind}  }}")
    else:
        out.append(f"{ind}  for (int64_t kw = {lo}; kw < {hi}; ++kw) {{")
        xo, wo = _mul("kw", dwl * sxw), _mul("kw", skw)
        if c.depthwise:
            out += _depthwise_step(ind + "    ", ct, vt, vb, lane, vecs, accs, xo, wo, sw * sxw)
        else:
            out.append(f"{ind}    const {ct}* restrict xp = xk + {xo};")
            out.append(f"{ind}    const {ct}* restrict wp = wk + {wo};")
            out.append(f"{ind}    for (int64_t ic = 0; ic < {c.IC}; ++ic) {{")
            ys = [f"y{v}" for v in range(vecs)]
            out.append(f"{ind}      {vt} {', '.join(ys)};")
            out += [f"{ind}      memcpy(&y{v}, wp + {_mul('ic', ski)} + {v * lane}, {vb});" for v in range(vecs)]
            for i in range(cols):
                fmas = " ".join(f"{accs[i][v]} += a * y{v};" for v in range(vecs))
                out.append(f"{ind}      {{ const {ct} a = xp[{i * sw * sxw} + {_mul('ic', sxc)}]; {fmas} }}")
            out.append(f"{ind}    }}")
        out.append(f"{ind}  }}")
    out.append(f"{ind}}}")
    out += [f"{ind}memcpy(&acc[{i}][{v * lane}], &{accs[i][v]}, {vb});"
            for i in range(cols) for v in range(vecs)]
    return out


def _depthwise_step(ind, ct, vt, vb, lane, vecs, accs, xo, wo, col_stride):
    """One window tap of a depthwise tile: input rows times the filter row."""
    out = []
    for v in range(vecs):
        out.append(f"{ind}{vt} y{v}; memcpy(&y{v}, wk + {wo} + {v * lane}, {vb});")
    for i, row in enumerate(accs):
        for v, a in enumerate(row):
            out.append(f"{ind}{{ {vt} xv; memcpy(&xv, xk + {xo} + {i * col_stride + v * lane}, {vb}); "
                       f"{a} += xv * y{v}; }}")
    return out


def _scalar_column(c: Convolution, ind, ct, x):
    """One output column, ``nn`` channels, any strides: the tail path."""
    sxn, sxh, sxw, sxc = c.x_strides
    skh, skw, ski, sko = c.w_strides
    dwl = c.dilation[1]
    out = [f"{ind}for (int64_t j = 0; j < nn; ++j) acc[0][j] = 0;",
           f"{ind}for (int64_t kh = kh0; kh < kh1; ++kh) {{",
           f"{ind}  for (int64_t kw = kw0; kw < kw1; ++kw) {{",
           f"{ind}    const {ct}* restrict xp = {x} + xrow + {_mul('kh', c.dilation[0] * sxh)}"
           f" + (iw0 + {_mul('kw', dwl)}) * ({sxw});",
           f"{ind}    const {ct}* restrict wp = wblk + {_mul('kh', skh)} + {_mul('kw', skw)};"]
    if c.depthwise:
        out.append(f"{ind}    for (int64_t j = 0; j < nn; ++j) acc[0][j] += xp[{_mul('j', sxc)}] * wp[{_mul('j', sko)}];")
    else:
        out += [f"{ind}    for (int64_t ic = 0; ic < {c.IC}; ++ic) {{",
                f"{ind}      const {ct} a = xp[{_mul('ic', sxc)}];",
                f"{ind}      for (int64_t j = 0; j < nn; ++j) acc[0][j] += a * wp[{_mul('ic', ski)} + {_mul('j', sko)}];",
                f"{ind}    }}"]
    out += [f"{ind}  }}", f"{ind}}}"]
    return out
