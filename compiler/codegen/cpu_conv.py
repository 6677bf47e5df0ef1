"""CPU direct convolution kernels (descriptor: conv.py).

A workgroup takes a range of (output row n/oh, channel block) units,
row-major, or block-major where the filter outweighs the input rows it
meets (``_Render.blk_major``), so each byte of filter comes from memory
once per call and workers split the filter, not the rows.  Per unit the
valid kh range is clamped once; the row is walked in tiles of
``cols`` output columns x NB channels whose accumulators live in vector
registers (GCC vector extensions: AVX-512, AVX2 or NEON from one C source):
per tap, vector loads of the filter row and broadcasts of the input.  The
row's tiling is static, so tiles touching the padding know at compile time
which (column, kw) taps fall inside the input and emit only those (no
tests in the inner loops).  Channel tails and filters whose output feature
is not contiguous take a scalar per-column loop.  Depthwise convolutions
vectorise over channels (input and filter rows loaded alike).  Each tile
runs the fused elementwise epilogue on its way to memory.
"""
from __future__ import annotations

from tensorvm.vmfb.cpu_abi import declarator

from . import scalar
from .body import BodyEmitter
from .c_style import convolution_epilogue
from .conv import UNIT_CHANNELS, Convolution, workgroup_divisor
from .kernel import Kernel, workgroup_plan

MAX_VECTORS = 5        # channel vectors per tile (NB <= UNIT_CHANNELS + 16)
MAX_COLUMNS = 8        # output columns per tile
MAX_EDGE_TILES = 12    # more padding than this many tiles: edge columns one at a time
PACK_CHUNK = 16        # filter channels packed per pass: one 64-byte line of f32


def _mul(var: str, k: int) -> str:
    return "0" if k == 0 else var if k == 1 else f"{var} * ({k})"


def _tile(span: int, lanes: int, registers: int, width: int | None = None):
    """(vector lane counts, columns) of the register tile for ``span``
    channels per group.  The block (NB, their sum) divides ``span`` when some
    multiple of 4 does, so there is no channel tail; among those, the one
    whose vectors are fullest (fewest lanes per channel), then the widest:
    40 channels run as 16 + 16 + 8 lanes, 96 as 3 x 16.  ``width``: the
    output row of a 1x1 filter, taken as one tile when it is short."""
    if span < 4:
        return None
    sizes = [lanes >> s for s in range(3) if lanes >> s >= 4]
    most = MAX_VECTORS if registers >= 32 else 2

    def split(d):                      # greedy: full vectors, then one or two narrower
        out = []
        for v in sizes:
            while d >= v:
                out.append(v)
                d -= v
        return out if d == 0 else None
    best = None
    for d in range(4, min(span, UNIT_CHANNELS + 16) + 1, 4):
        parts = split(d) if span % d == 0 else None
        if parts and len(parts) <= most:
            key = (d / (len(parts) * lanes), d)
            if best is None or key > best[0]:
                best = (key, parts)
    if best is not None:
        parts = best[1]
    else:                              # no multiple of 4 divides span: a scalar channel tail
        d = min(span // sizes[-1] * sizes[-1], most * lanes)
        parts = split(d - d % sizes[-1]) or [sizes[-1]]
        while len(parts) > most:
            parts.pop()
    n = len(parts)
    cols = max(1, min(MAX_COLUMNS if n > 1 else 14, (registers - n - 2) // n))
    if width and width % cols and width <= MAX_COLUMNS and n > 1:
        # a short row (ResNet's 7x7 stage) of a 1x1 filter in one tile of
        # fewer channels rather than a full tile and an edge tile whose
        # filter loads feed one column each (3x3 filters measured slower so)
        for k in range(min(n - 1, (registers - 2) // (width + 1)), 0, -1):
            if span % (k * parts[0]) == 0:
                return parts[:1] * k, width
    return parts, cols


def _interior(c: Convolution):
    """[lo, hi) of the output columns whose window lies inside the input."""
    (sw, dw, pw) = c.stride[1], c.dilation[1], c.pad_lo[1]
    last = c.W - 1 - (c.KW - 1) * dw + pw
    lo = max(0, -(-pw // sw))
    hi = min(c.OW, last // sw + 1) if last >= 0 else 0
    return lo, max(lo, hi)


def _taps(c: Convolution, ow0: int, width: int):
    """Per kw, the tile columns whose input column is inside the input;
    None when every tap of every column is."""
    sw, dw, pw = c.stride[1], c.dilation[1], c.pad_lo[1]
    taps = [tuple(j for j in range(width) if 0 <= (ow0 + j) * sw - pw + kw * dw < c.W)
            for kw in range(c.KW)]
    return None if all(len(t) == width for t in taps) else taps


def _segments(c: Convolution, cols: int):
    """The row's static tiling: ("run", lo, hi) full interior tiles in a loop,
    ("tile", ow0, width, taps) single tiles, ("columns", lo, hi) columns one
    at a time with the kw range clamped at run time."""
    tiles = [(x, min(cols, c.OW - x)) for x in range(0, c.OW, cols)]
    lo, hi = _interior(c)
    out = []
    for x, width in tiles:
        taps = _taps(c, x, width)
        if taps is None and width == cols and out and out[-1][0] == "run" and out[-1][2] == x:
            out[-1] = ("run", out[-1][1], x + width)
        elif taps is None and width == cols:
            out.append(("run", x, x + width))
        else:
            out.append(("tile", x, width, taps))
    if sum(s[0] == "tile" for s in out) <= MAX_EDGE_TILES:
        return out
    # Padding wider than a few tiles: clamp edge columns one by one instead.
    run = lo + (hi - lo) // cols * cols
    out = [("columns", 0, lo)] if lo > 0 else []
    if run > lo:
        out.append(("run", lo, run))
    if hi > run:
        out.append(("tile", run, hi - run, None))
    if c.OW > hi:
        out.append(("columns", hi, c.OW))
    return out


class _Render:
    """C text of one direct convolution kernel (vector paths need ``tile``)."""

    def __init__(self, kernel: Kernel, vector_bytes: int, pointer_decls):
        c = self.c = kernel.convolution
        em = BodyEmitter({}, indent=6)
        self.head = pointer_decls(kernel, em)
        self.ct = scalar.ctype(c.op.result.type.element)
        item = 4 if self.ct == "float" else 8
        self.x, self.w = em.bindings[c.lhs], em.bindings[c.rhs]
        span = c.C if c.depthwise else c.OC // c.groups       # channels blocked together
        tile = _tile(span, vector_bytes // item, 32 if vector_bytes >= 64 else 16,
                     c.OW if c.KH == c.KW == 1 else None)
        if c.depthwise and (c.w_strides[3] != 1 or c.x_strides[3] != 1):
            tile = None                                    # no contiguous channel row to load
        self.tile = tile
        lanes, self.cols = tile or ([], 1)
        self.pieces = [(sum(lanes[:k]), l) for k, l in enumerate(lanes)]    # (channel offset, lanes)
        self.vecs = len(lanes)
        self.nb = sum(lanes) if tile else min(span, 16)
        self.item = item
        # Units run channel-block-major (each block's filter read once, kept
        # in cache over the rows) when a row-major pass would stream more
        # filter than block-major streams input: KW * NB > W, or a filter
        # larger than the input.  ResNet-50's 7x7 stage re-read its 4-8 MB
        # filters from memory once per output row (2 of its convolutions
        # took 17-19 ms in the model, 4.5 ms so).
        images = c.N if isinstance(c.N, int) else 1
        big_filter = not c.depthwise and (
            c.KW * self.nb > c.W or c.KH * c.KW * c.IC * c.OC > images * c.H * c.W * c.C)
        # A filter whose output feature is not contiguous (OIHW) is packed
        # per channel block into (kh, kw, i, nb) rows a vector load takes;
        # so is a block-major one: its rows then stream from one contiguous
        # block instead of a line every IC x OC elements (a 2-8 KB stride
        # the prefetchers did not cover: on an AVX2 Zen 3, 7x7x512 3x3
        # 21.7 -> 44.8 GFLOP/s, 14x14x256 36 -> 63, 28x28x128 42 -> 69).
        self.packed = tile is not None and (c.w_strides[3] != 1 or big_filter)
        self.blk_major = self.packed or big_filter
        self.ws = ((c.KW * c.IC * self.nb, c.IC * self.nb, self.nb, 1) if self.packed
                   else c.w_strides)
        self.span = span
        # Depthwise over planar (NCHW) input: vectors over output columns instead.
        self.planar = c.depthwise and c.x_strides[3] != 1 and c.x_strides[2] == 1
        self.lane = vector_bytes // item             # the planar kernel's vectors
        self.vt, self.vb = self.vtype(self.lane), self.lane * item
        # fused epilogue at (n, oh, ow0 + i, oc0 + j), the tile in acc[i][j]
        self.epilogue_body = convolution_epilogue(em, kernel, "n", "oh", "(ow0 + i)", "(oc0 + j)",
                                                  "acc[i][j]")
        self.decls = list(em.decls) + (["#include <stdlib.h>"] if self.packed or self.planar else [])
        used = sorted({l for _, l in self.pieces} | ({self.lane} if self.planar else set()))
        self.decls[:0] = [f"#ifndef TVM_{self.vtype(l)}\n#define TVM_{self.vtype(l)}\n"
                          f"typedef {self.ct} {self.vtype(l)} __attribute__((vector_size({l * item})));\n#endif"
                          for l in used]

    def vtype(self, lanes: int) -> str:
        return f"tvm_cv{lanes}{'f' if self.ct == 'float' else 'd'}"

    def epilogue(self, ind: str, width: str, channels: str = "nn") -> list[str]:
        return ([f"{ind}for (int64_t i = 0; i < {width}; ++i) {{",
                 f"{ind}  for (int64_t j = 0; j < {channels}; ++j) {{"]
                + [f"{ind}    {s}" for s in self.epilogue_body] + [f"{ind}  }}", f"{ind}}}"])

    def source(self, name: str, count: int) -> str:
        c, ct = self.c, self.ct
        sxn, sxh, sxw, sxc = c.x_strides
        bpg = -(-self.span // self.nb)
        blocks = bpg if c.depthwise else bpg * c.groups
        units = c.N * c.OH * blocks
        (sh, dh, ph), nb = (c.stride[0], c.dilation[0], c.pad_lo[0]), self.nb
        channel = f"oc0 * ({sxc})" if c.depthwise else f"g * ({c.IC * sxc})"
        src = [declarator(name) + " {"]
        src += self.head
        src += [
            f"  const int64_t wgs = {workgroup_divisor(count)};",
            f"  {ct} acc[{self.cols}][{nb}];",
            "  for (uint32_t wg = wg_begin; wg < wg_end; ++wg) {",
            f"    const int64_t u1 = ((int64_t)wg + 1) * {units} / wgs;",
            f"    for (int64_t u = (int64_t)wg * {units} / wgs; u < u1; ++u) {{",
            (f"      const int64_t blk = u / {c.N * c.OH}, row = u % {c.N * c.OH};" if self.blk_major
             else f"      const int64_t row = u / {blocks}, blk = u % {blocks};"),
            f"      const int64_t n = row / {c.OH}, oh = row % {c.OH};",
            f"      const int64_t g = blk / {bpg}, oc0 = g * {self.span} + (blk % {bpg}) * {nb};",
            f"      const int64_t nn = {self.span} - (blk % {bpg}) * {nb} < {nb} ? "
            f"{self.span} - (blk % {bpg}) * {nb} : {nb};",
            f"      const int64_t ih0 = oh * {sh} - {ph};",
            f"      const int64_t kh0 = ih0 < 0 ? ({dh - 1} - ih0) / {dh} : 0;",
            f"      int64_t kh1 = ({c.H + dh - 1} - ih0) / {dh};",
            f"      if (kh1 > {c.KH}) kh1 = {c.KH};",
            f"      const int64_t xrow = n * {sxn} + ih0 * ({sxh}) + {channel};",
        ]
        if self.packed:
            src += self.pack()
        else:
            src.append(f"      const {ct}* restrict wblk = {self.w} + ({c.w_offset} + oc0 * ({c.w_strides[3]}));")
        if self.tile is not None:
            src.append(f"      if (nn == {nb}) {{")
            for seg in _segments(c, self.cols):
                src += self.segment(seg, "        ")
            src.append("      } else {")
        else:
            src.append("      {")
        src += self.columns(0, c.OW, "        ", vector=False)
        src += ["      }", "    }", "  }"]
        src += ["  free(wpk);"] if self.packed else []
        src += ["  return 0;", "}"]
        if self.packed:       # one packed block per call, repacked when the block changes
            size = c.KH * c.KW * c.IC * self.nb
            at = src.index(f"  {ct} acc[{self.cols}][{nb}];")
            src[at + 1:at + 1] = [f"  {ct}* wpk = ({ct}*)malloc({size} * sizeof({ct}));",
                                  "  if (wpk == NULL) return 1;", "  int64_t packed = -1;"]
        return "\n".join(src)

    def pack(self) -> list[str]:
        """Pack the block's filter rows.  The (kh, kw, ic) loops run in the
        filter's memory order (largest stride outermost) and the block's
        channels innermost in cache-line chunks, so the reads advance
        PACK_CHUNK sequential streams and each chunk of writes fills a line
        (output channel innermost, an OIHW gather, ran at ~2 ns an element)."""
        c, ct = self.c, self.ct
        skh, skw, ski, sko = c.w_strides
        loops = sorted((("kh", c.KH, skh), ("kw", c.KW, skw), ("ic", c.IC, ski)),
                       key=lambda l: -abs(l[2]))
        chunk = min(PACK_CHUNK, self.nb)
        nest = " ".join(f"for (int64_t {v} = 0; {v} < {n}; ++{v})" for v, n, _ in loops)
        return [
            "      if (blk != packed) {",
            f"        for (int64_t j0 = 0; j0 < nn; j0 += {chunk}) {{",
            f"          const int64_t j1 = j0 + {chunk} < nn ? j0 + {chunk} : nn;",
            f"          {nest}",
            "            for (int64_t j = j0; j < j1; ++j)",
            f"              wpk[((kh * {c.KW} + kw) * {c.IC} + ic) * {self.nb} + j] = {self.w}[{c.w_offset}"
            f" + {_mul('kh', skh)} + {_mul('kw', skw)} + {_mul('ic', ski)} + (oc0 + j) * ({sko})];",
            "        }",
            "        packed = blk;",
            "      }",
            f"      const {ct}* restrict wblk = wpk;",
        ]

    def planar_source(self, name: str, count: int) -> str:
        """Depthwise over (n, c, h, w)-planar input: a unit is one output row
        of one channel, accumulated as vectors over output columns.  The
        channel's input plane is copied (once per workgroup call and plane;
        units run plane-major) into a zero-padded buffer whose rows are split
        into ``stride`` phases (phase r holds padded columns r, r + s, ...),
        so every tap (kw) is a contiguous load at a static offset and padding
        costs nothing in the inner loop; lanes past the row end are computed
        on zeros and not stored.  (Copying a row per tap instead stalls every
        vector load on store forwarding.)"""
        c, ct, vt, vb, lane = self.c, self.ct, self.vt, self.vb, self.lane
        sxn, sxh, sxw, sxc = c.x_strides
        skh, skw, _, sko = c.w_strides
        (sh, dh, ph), (sw, dwl, pw) = zip(c.stride, c.dilation, c.pad_lo)
        vecs = min(-(-c.OW // lane), 8)                  # column vectors per tile
        width = vecs * lane
        tiles = -(-c.OW // width)
        reach = (c.KW - 1) * dwl // sw
        qlen = tiles * width + reach + 1
        fills = []                                       # per phase: [lo, hi) of real columns
        for r in range(sw):
            lo = max(0, -(-(pw - r) // sw))
            hi = min(qlen, (c.W - 1 + pw - r) // sw + 1) if c.W - 1 + pw - r >= 0 else 0
            fills.append((lo, max(lo, hi)))
        units = c.N * c.C * c.OH
        accs = [f"c{v}" for v in range(vecs)]
        src = [declarator(name) + " {"]
        src += self.head
        src += [
            f"  const int64_t wgs = {workgroup_divisor(count)};",
            f"  {ct} acc[{width}][1];",
            f"  {ct}* buf = ({ct}*)calloc({c.H * sw * qlen}, sizeof({ct}));",
            "  if (buf == NULL) return 1;",
            "  int64_t plane = -1;",
            "  const int64_t nn = 1;",
            "  for (uint32_t wg = wg_begin; wg < wg_end; ++wg) {",
            f"    const int64_t u1 = ((int64_t)wg + 1) * {units} / wgs;",
            f"    for (int64_t u = (int64_t)wg * {units} / wgs; u < u1; ++u) {{",
            f"      const int64_t n = u / {c.C * c.OH}, oc0 = (u / {c.OH}) % {c.C}, oh = u % {c.OH};",
            f"      const int64_t ih0 = oh * {sh} - {ph};",
            f"      const int64_t kh0 = ih0 < 0 ? ({dh - 1} - ih0) / {dh} : 0;",
            f"      int64_t kh1 = ({c.H + dh - 1} - ih0) / {dh};",
            f"      if (kh1 > {c.KH}) kh1 = {c.KH};",
            f"      const {ct}* restrict wc = {self.w} + ({c.w_offset} + oc0 * ({sko}));",
            f"      if (u / {c.OH} != plane) {{",
            f"        plane = u / {c.OH};",
            f"        for (int64_t ih = 0; ih < {c.H}; ++ih) {{",
            f"          const {ct}* restrict xr = {self.x} + (n * {sxn} + oc0 * ({sxc}) + ih * ({sxh}));",
            f"          {ct}* restrict br = buf + ih * {sw * qlen};",
        ]
        for r, (lo, hi) in enumerate(fills):
            if hi > lo:
                src.append(f"          for (int64_t q = {lo}; q < {hi}; ++q) "
                           f"br[{r * qlen} + q] = xr[q * {sw} + {r - pw}];")
        src += [
            "        }",
            "      }",
            f"      for (int64_t t = 0; t < {tiles}; ++t) {{",
            f"        const int64_t ow0 = t * {width};",
            "        " + " ".join(f"{vt} {a} = {{0}};" for a in accs),
            "        for (int64_t kh = kh0; kh < kh1; ++kh) {",
            f"          const {ct}* restrict br = buf + (ih0 + {_mul('kh', dh)}) * {sw * qlen};",
        ]
        for kw in range(c.KW):
            r, qo = (kw * dwl) % sw, (kw * dwl) // sw
            src.append(f"          {{ const {ct} y = wc[{_mul('kh', skh)} + {kw * skw}];")
            for v, a in enumerate(accs):
                src.append(f"            {{ {vt} xv; memcpy(&xv, br + ow0 + {r * qlen + qo + v * lane}, {vb}); "
                           f"{a} += xv * y; }}")
            src.append("          }")
        src.append("        }")
        src += [f"        memcpy(&acc[{v * lane}][0], &{a}, {vb});" for v, a in enumerate(accs)]
        src.append(f"        const int64_t nw = {c.OW} - ow0 < {width} ? {c.OW} - ow0 : {width};")
        src += self.epilogue("        ", "nw", "1")
        src += ["      }", "    }", "  }", "  free(buf);", "  return 0;", "}"]
        return "\n".join(src)

    def segment(self, seg, ind: str) -> list[str]:
        c = self.c
        sw, pw = c.stride[1], c.pad_lo[1]
        if seg[0] == "columns":
            return self.columns(seg[1], seg[2], ind, vector=True)
        if seg[0] == "run":
            out = [f"{ind}for (int64_t ow0 = {seg[1]}; ow0 < {seg[2]}; ow0 += {self.cols}) {{"]
            width, taps = self.cols, None
        else:
            out = [f"{ind}{{", f"{ind}  const int64_t ow0 = {seg[1]};"]
            width, taps = seg[2], seg[3]
        out.append(f"{ind}  const int64_t iw0 = ow0 * {sw} - {pw};")
        out += self.vector_tile(ind + "  ", width, taps, clamped=False)
        out += self.epilogue(ind + "  ", str(width), str(self.nb))
        out.append(f"{ind}}}")
        return out

    def columns(self, lo: int, hi: int, ind: str, vector: bool) -> list[str]:
        """Output columns [lo, hi) one at a time, kw clamped per column."""
        if hi <= lo:
            return []
        dw = self.c.dilation[1]
        out = [f"{ind}for (int64_t ow0 = {lo}; ow0 < {hi}; ++ow0) {{",
               f"{ind}  const int64_t iw0 = ow0 * {self.c.stride[1]} - {self.c.pad_lo[1]};",
               f"{ind}  const int64_t kw0 = iw0 < 0 ? ({dw - 1} - iw0) / {dw} : 0;",
               f"{ind}  int64_t kw1 = ({self.c.W + dw - 1} - iw0) / {dw};",
               f"{ind}  if (kw1 > {self.c.KW}) kw1 = {self.c.KW};"]
        out += self.vector_tile(ind + "  ", 1, None, clamped=True) if vector else self.scalar_column(ind + "  ")
        out += self.epilogue(ind + "  ", "1")
        out.append(f"{ind}}}")
        return out

    def vector_tile(self, ind, cols, taps, clamped) -> list[str]:
        """``cols`` columns x ``vecs`` vectors at (ow0, oc0) into acc.  ``taps``
        (per kw, the columns inside the input) unrolls kw; ``clamped`` loops
        kw over [kw0, kw1)."""
        c, ct = self.c, self.ct
        sxn, sxh, sxw, sxc = c.x_strides
        skh, skw, ski, _ = self.ws
        sw, dwl = c.stride[1], c.dilation[1]
        accs = [[f"c{i}_{v}" for v in range(self.vecs)] for i in range(cols)]
        out = [ind + " ".join(f"{self.vtype(self.pieces[v][1])} {a} = {{0}};"
                              for row in accs for v, a in enumerate(row)),
               f"{ind}for (int64_t kh = kh0; kh < kh1; ++kh) {{",
               f"{ind}  const {ct}* restrict xk = {self.x} + (xrow + {_mul('kh', c.dilation[0] * sxh)}"
               f" + iw0 * ({sxw}));",
               f"{ind}  const {ct}* restrict wk = wblk + {_mul('kh', skh)};"]
        if taps is None and not clamped and c.depthwise and c.KW <= 7:
            taps = [tuple(range(cols))] * c.KW     # unrolled: loads shared between kw and columns merge
        if taps is not None:
            for kw, cols_in in enumerate(taps):
                if cols_in:
                    out += [f"{ind}  {{"] + self.tap(ind + "    ", accs, cols_in, str(kw * dwl * sxw),
                                                       str(kw * skw)) + [f"{ind}  }}"]
        elif (not clamped and not c.depthwise and dwl == 1 and sxw == c.IC * sxc
              and skw == c.IC * ski):
            # (kw, ic) is one run in both input and filter: one reduction loop over KW * IC
            out += self.tap(ind + "  ", accs, range(cols), "0", "0", c.KW * c.IC)
        else:
            lo, hi = ("kw0", "kw1") if clamped else ("0", str(c.KW))
            out.append(f"{ind}  for (int64_t kw = {lo}; kw < {hi}; ++kw) {{")
            out += self.tap(ind + "    ", accs, range(cols), _mul("kw", dwl * sxw), _mul("kw", skw))
            out.append(f"{ind}  }}")
        out.append(f"{ind}}}")
        out += [f"{ind}memcpy(&acc[{i}][{off}], &{accs[i][v]}, {l * self.item});"
                for i in range(cols) for v, (off, l) in enumerate(self.pieces)]
        return out

    def tap(self, ind, accs, cols_in, xo, wo, channels=None) -> list[str]:
        """One kw tap for the columns ``cols_in``: input offset ``xo`` from
        xk, filter offset ``wo`` from wk, over ``channels`` (IC) input channels."""
        c, ct = self.c, self.ct
        sxw, sxc = c.x_strides[2:]
        ski = self.ws[2]
        step = c.stride[1] * sxw
        vts = [(self.vtype(l), off, l * self.item) for off, l in self.pieces]
        if c.depthwise:
            out = [f"{ind}{vt} y{v}; memcpy(&y{v}, wk + {wo} + {off}, {vb});" for v, (vt, off, vb) in enumerate(vts)]
            for i in cols_in:
                for v, a in enumerate(accs[i]):
                    vt, off, vb = vts[v]
                    out.append(f"{ind}{{ {vt} xv; memcpy(&xv, xk + {xo} + {i * step + off}, {vb}); "
                               f"{a} += xv * y{v}; }}")
            return out
        out = [f"{ind}const {ct}* restrict xp = xk + {xo};",
               f"{ind}const {ct}* restrict wp = wk + {wo};",
               f"{ind}for (int64_t ic = 0; ic < {channels or c.IC}; ++ic) {{"]
        out += [f"{ind}  {vt} y{v}; memcpy(&y{v}, wp + {_mul('ic', ski)} + {off}, {vb});"
                for v, (vt, off, vb) in enumerate(vts)]
        for i in cols_in:
            fmas = " ".join(f"{accs[i][v]} += a * y{v};" for v in range(self.vecs))
            out.append(f"{ind}  {{ const {ct} a = xp[{i * step} + {_mul('ic', sxc)}]; {fmas} }}")
        out.append(f"{ind}}}")
        return out

    def scalar_column(self, ind) -> list[str]:
        """One output column, ``nn`` channels, any strides: the tail path."""
        c, ct = self.c, self.ct
        sxn, sxh, sxw, sxc = c.x_strides
        skh, skw, ski, sko = self.ws
        out = [f"{ind}for (int64_t j = 0; j < nn; ++j) acc[0][j] = 0;",
               f"{ind}for (int64_t kh = kh0; kh < kh1; ++kh) {{",
               f"{ind}  for (int64_t kw = kw0; kw < kw1; ++kw) {{",
               f"{ind}    const {ct}* restrict xp = {self.x} + (xrow + {_mul('kh', c.dilation[0] * sxh)}"
               f" + (iw0 + {_mul('kw', c.dilation[1])}) * ({sxw}));",
               f"{ind}    const {ct}* restrict wp = wblk + {_mul('kh', skh)} + {_mul('kw', skw)};"]
        if c.depthwise:
            out.append(f"{ind}    for (int64_t j = 0; j < nn; ++j) "
                       f"acc[0][j] += xp[{_mul('j', sxc)}] * wp[{_mul('j', sko)}];")
        else:
            out += [f"{ind}    for (int64_t ic = 0; ic < {c.IC}; ++ic) {{",
                    f"{ind}      const {ct} a = xp[{_mul('ic', sxc)}];",
                    f"{ind}      for (int64_t j = 0; j < nn; ++j) "
                    f"acc[0][j] += a * wp[{_mul('ic', ski)} + {_mul('j', sko)}];",
                    f"{ind}    }}"]
        out += [f"{ind}  }}", f"{ind}}}"]
        return out


def render_convolution(kernel: Kernel, vector_bytes: int, pointer_decls):
    """(declarations, C source, workgroup count) of a direct convolution."""
    r = _Render(kernel, vector_bytes, pointer_decls)
    count = workgroup_plan(kernel)[3]
    src = r.planar_source(kernel.name, count) if r.planar else r.source(kernel.name, count)
    return r.decls, src, count
