"""CPU GEMM kernels: packed, register-blocked.

A workgroup range covers rectangles of the (B*M) x N output (consecutive
workgroups of a column block merge, see ``rectangle_loop``).  Each
rectangle is cut into MC x NB blocks; per KC slice of K the block packs B
as [NR-column panel][k][NR] once and sweeps its MB-row blocks of A over it
(BLIS's loop order: B is packed once per MC rows, not per MB rows), the
sweep prefetching the B rows the next packing reads; A rows
with unit K stride are read in place, others packed as [MR-row
panel][k][MR] (zero padded, so edge tiles run the same micro-kernel and any
operand strides -- a transposed lhs or rhs -- cost only the packing); an
MR x NR micro-kernel (GCC vector extensions: the same C builds for AVX2,
AVX-512 or NEON; MR and
NR per vector width, ``_TILES``) adds each tile's product into a per-thread
MC x NB accumulator, which the fused epilogue reads when K is done.  The
micro-kernel is a function of its own, its accumulators and B vectors in
registers (benchmarks/gemm_roofline.py: 0.9-1.0 of OpenBLAS on one Zen 4
core for BERT-base's shapes).  Products with few rows per batch (a GEMV)
skip packing: one row against B streams B once with several independent
FMA chains; a B stored N x K is read as dot products (``gemm_rows``).
Buffers are static thread-local scratch of fixed size.

N and K must be static (they fix the register blocking and the packed
panels); B and M may be symbols (a dynamic batch): the kernel then reads
them from push constants, its tiles stay fixed and the GEMV-or-packed and
read-B-in-place choices that depend on M are made at run time.
"""
from __future__ import annotations

import numpy as np

from tensorvm.vmfb.cpu_abi import declarator

from . import scalar
from .body import contraction_epilogue
from .cpu_body import CpuBodyEmitter
from .gemm_rows import (DOT_ALL_K, DOT_ROWS, GEMV_COLS, GEMV_ROWS, GEMV_STREAM_BYTES, GEMV_STREAM_ROWS,
                        column_gemv, dot_columns, dot_pass_rows, dot_rows, gemv_panels, gemv_row, gemv_stream,
                        panel_offset)
from ..ir.symbolic import cdiv
from .kernel import CONTRACTION_WORK, NARROW, ContractionPlan, Kernel, contraction_plan

KC = 128      # K slice packed per step: a B micro-panel (16 KB at AVX-512's 32 columns)
              # stays in L1 beside A's rows, and the packed block, A's rows, the
              # accumulators and the next slice's prefetch fit L2 together (256:
              # 88-91 GFLOP/s on BERT-base's products, 128 with the prefetch: 93-96)
MB = 128      # rows of a packed block (A's panels)
MC = 1024     # rows one packed B panel serves, MC / MB blocks of A in turn (the
              # accumulator block: 1 MiB; 2048^3 at 91 -> 101 GFLOP/s with 128)
NB = 256      # columns of a packed block (f32; f64 uses half)
DIRECT_B_ROWS = 64  # up to this many rows per batch: B read in place, not packed
PANEL_BYTES = 64  # a constant B's panels in a module of several tile widths: one cache line
SWEEP = True  # 9-64 rows against a big B: K outermost (_swept_rows); False: the block order (A/B timing)
SWEEP_SLICE_BYTES = 1 << 18  # B bytes per K slice of a swept rectangle (128 KB: no faster, 512 KB: slower)
BATCHED_ROWS_BYTES = 1 << 18  # B bytes per workgroup of few-row batches that each read their own B
STREAM_STRIP = 512  # columns per workgroup at least for few rows against a big B (gemm_rows.gemv_stream):
                    # 32 (1 x 3072 x 768 from DRAM, local-task) 538 us, 512: 382 (claims of 2.5 KB of each row)


def cpu_plan(c):
    """The packed GEMM's workgroup tiling: column strips of all rows up to
    MC rows (``contraction_plan``'s ``strip_rows``).  Few rows against B's
    contiguous rows (up to DIRECT_B_ROWS: B streams from DRAM, read in
    place) get strips of STREAM_STRIP columns at least, so that a worker's
    claim reads long runs of each row of B (strips of a million
    multiply-adds were 64-160 columns, 256-640 B runs: two workers ran
    16 x 768 x 3072 from DRAM in 1.54 ms, one in 1.18; with wide strips
    0.84 ms); from GEMV_STREAM_ROWS rows up at most a quarter of N, so
    that the workers still split the product.

    A symbolic row count (a dynamic batch) gets the same strips, at most
    a quarter of N, over row blocks of MC rows, unless DIRECT_B_ROWS rows
    would be one workgroup's work (the static rule's test): the
    generic dynamic plan's blocks of 8 rows by all N columns left a
    decode step's 1 to 16 rows to one worker (a 16-sequence step on
    local-task 45.7 ms against 35 for the static export)."""
    rows = c.B * c.M
    if _batched_rows(c):
        rpw = max(1, BATCHED_ROWS_BYTES // _b_bytes(c)) * c.M
        count = cdiv(rows, rpw)
        return ContractionPlan(rpw, c.N, count, 1, count)
    if not isinstance(rows, int) and isinstance(c.N, int) and isinstance(c.K, int) \
            and c.K * c.N * DIRECT_B_ROWS >= 2 * CONTRACTION_WORK and c.N >= 64:
        cols = _quarter_strip(c)
        row_blocks, col_blocks = cdiv(rows, MC), -(-c.N // cols)
        return ContractionPlan(MC, cols, row_blocks, col_blocks, row_blocks * col_blocks)
    if not isinstance(rows, int) or rows > DIRECT_B_ROWS or c.rhs_strides[2] != 1:
        return contraction_plan(c, strip_rows=MC)
    if rows < GEMV_STREAM_ROWS:
        return contraction_plan(c, col_block=STREAM_STRIP, strip_rows=MC)
    # B read in place by the micro-kernel: wide strips, but four of them at least
    # (the workers split a dispatch of 4 workgroups or more)
    return contraction_plan(c, col_block=_quarter_strip(c), strip_rows=MC)


def _quarter_strip(c) -> int:
    """Columns of a strip of few rows against a big B: STREAM_STRIP at most,
    and at most a quarter of N (whole 32-column tiles), so the workers
    still split the product."""
    return min(STREAM_STRIP, max(32, c.N // 4 // 32 * 32))


def _b_bytes(c) -> int:
    """Bytes of one batch's B (K x N of the operands' element)."""
    return c.K * c.N * (2 if _narrow(c) else 8 if c.operand_element == "f64" else 4)


def _batched_rows(c) -> bool:
    """Few rows per batch against a small B of each batch's own (a decode
    step's q . k^T and scores . v over each sequence's cache): bound by
    reading B, not by multiply-adds, so workgroups are cut by B's bytes
    (BATCHED_ROWS_BYTES): by multiply-adds a 16-sequence step's 192 heads
    were two workgroups, 6.3 MB of cache each, and ran on one worker."""
    if not (isinstance(c.M, int) and c.M < GEMV_ROWS and isinstance(c.K, int) and isinstance(c.N, int)):
        return False
    own = any(run[2] for run in c.batch_runs) if c.batch_runs else bool(c.rhs_strides[0])
    return own and _b_bytes(c) <= BATCHED_ROWS_BYTES


def applies(kernel: Kernel) -> bool:
    """A float contraction whose N and K are static (B and M may be symbols);
    f16/bf16 operands are converted to f32 as they are packed."""
    c = kernel.contraction
    return (c is not None and all(isinstance(d, int) for d in (c.N, c.K))
            and c.accumulator_element in ("f32", "f64"))


def _narrow(c) -> bool:
    """f16/bf16 operands: every tile packed (converted), no operand read in place."""
    return c.operand_element in NARROW


def packable(kernel: Kernel) -> bool:
    """Whether the kernel could read its B from compile-time panels
    (``pack_panels``): B a whole K x N matrix (or one per batch, a static
    batch) stored row- or column-major, and column blocks that start on a
    multiple of the widest vector, so that no variant's B vector straddles
    two panels (``panel_width`` then needs N whole panels).  M may be a
    symbol (the GEMV-or-packed choice stays per call: both read the
    panels)."""
    c = kernel.contraction
    if kernel.kind != "contraction" or not applies(kernel) or len(c.batch_runs) > 1 or c.K == 0 \
            or _narrow(c) or c.offsets[1]:
        return False
    w = PANEL_BYTES // (4 if c.op.result.type.element == "f32" else 8)
    b_r, rsk, rsn = c.rhs_strides
    if (rsk, rsn) not in ((c.N, 1), (1, c.K)):
        return False
    if packed_batches(c) != 1 and (packed_batches(c) == 0 or b_r != c.K * c.N):
        return False
    plan = cpu_plan(c)
    return plan.col_blocks == 1 or plan.cols % w == 0


def panel_width(kernel: Kernel, vector_widths) -> int:
    """Columns per compile-time panel of a packable kernel's B, for a
    module whose CPU variants have these vector widths (bytes); 0 when N
    is not a whole number of them.  One tile width (one variant, or
    variants that agree): the micro-tile's, so that a tile reads one
    contiguous k x NR panel, as B packed at run time; several (or N not
    whole tiles): PANEL_BYTES, the widest vector, which every variant's
    vectors tile (one copy serves all of them).  Any width works for any variant whose vectors start on
    its multiples: a tile across two panels takes its vectors' offsets."""
    c = kernel.contraction
    ct = scalar.ctype(c.op.result.type.element)
    tiles = {_Shape(ct, vb, c.N).nr for vb in vector_widths}
    line = PANEL_BYTES // (4 if ct == "float" else 8)
    candidates = (*tiles, line) if len(tiles) == 1 else (line,)
    return next((w for w in candidates if c.N % w == 0), 0)


def packed_batches(c) -> int:
    """How many K x N matrices a packable contraction's B holds (0: a
    symbolic number, which is not packable)."""
    if (isinstance(c.B, int) and c.B == 1) or not c.rhs_strides[0]:
        return 1
    return c.B if isinstance(c.B, int) else 0


def pack_panels(array, c, w: int, piece_bytes: int = 1 << 22):
    """A function returning a fresh iterator over the bytes of B (``array``,
    the constant a packable contraction ``c`` reads) as panels of ``w``
    columns (``panel_width``), [batch][N / w][K][w]: each panel read
    sequentially by the tiles over its columns.  The pieces are made as
    the writer asks (``piece_bytes`` each), never the whole matrix at once;
    the function's ``nbytes`` is their total."""
    K, N = c.K, c.N
    (_, _, rsn), item = c.rhs_strides, array.dtype.itemsize
    per = max(1, piece_bytes // (K * w * item))            # panels per piece
    flat = array.reshape(-1)

    def pieces():
        for b in range(packed_batches(c)):
            part = flat[b * K * N:(b + 1) * K * N]
            kn = part.reshape(K, N) if rsn == 1 else part.reshape(N, K).T
            for p0 in range(0, N // w, per):
                p1 = min(N // w, p0 + per)
                blk = kn[:, p0 * w:p1 * w].reshape(K, p1 - p0, w).transpose(1, 0, 2)
                yield np.ascontiguousarray(blk).reshape(-1).view(np.uint8)
    pieces.nbytes = packed_batches(c) * K * N * item
    return pieces


def rectangle_loop(plan, rows, n) -> list[str]:
    """C lines opening a loop over the rectangles (rows [r0, r1) x columns
    [c0, c1)) that workgroups [wg_begin, wg_end) cover under ``plan``;
    consecutive workgroups of one column block (and whole column blocks)
    merge, so a worker's share is packed and blocked as one piece."""
    rpw, cpw, rb_n = plan.rows, plan.cols, plan.row_blocks
    if plan.col_blocks == 1:
        return [
            "  for (int64_t once = wg_begin < wg_end; once; once = 0) {",
            f"    const int64_t r0 = (int64_t)wg_begin * {rpw};",
            f"    const int64_t r1 = (int64_t)wg_end * {rpw} < {rows} ? (int64_t)wg_end * {rpw} : {rows};",
            f"    const int64_t c0 = 0, c1 = {n};",
        ]
    return [
        "  for (int64_t wg = wg_begin; wg < wg_end;) {",
        f"    const int64_t rb = wg % {rb_n}, cb = wg / {rb_n};",
        "    int64_t r0, r1, c0 = cb * %d, c1;" % cpw,
        f"    if (rb == 0 && wg + {rb_n} <= (int64_t)wg_end) {{",
        f"      const int64_t nb = ((int64_t)wg_end - wg) / {rb_n};",
        f"      r0 = 0; r1 = {rows}; c1 = (cb + nb) * {cpw}; wg += nb * {rb_n};",
        "    } else {",
        f"      const int64_t nr = {rb_n} - rb < (int64_t)wg_end - wg ? {rb_n} - rb : (int64_t)wg_end - wg;",
        f"      r0 = rb * {rpw}; r1 = (rb + nr) * {rpw}; c1 = c0 + {cpw}; wg += nr;",
        "    }",
        f"    if (r1 > {rows}) r1 = {rows};",
        f"    if (c1 > {n}) c1 = {n};",
    ]


#: vector bytes -> (MR rows, NR vectors) of the micro-tile
_TILES = {64: (8, 2), 32: (6, 2), 16: (4, 2)}


class _Shape:
    """Register blocking for one element type and vector width, and the
    micro-kernels of that blocking (one per combination of operand strides)."""

    def __init__(self, ct: str, vector_bytes: int, n: int, element: str | None = None):
        item = 4 if ct == "float" else 8
        self.ct, self.vb = ct, vector_bytes
        self.vl = vector_bytes // item
        # rows x vectors per micro-tile: accumulators + B vectors + a broadcast
        # fit the registers (AVX-512: 32 zmm, 8 x 2 measured best on Zen 4
        # beside 12 x 2, 14 x 2, 6 x 4, 8 x 3; AVX2: 16 ymm, 6 x 2 (BLIS's
        # Haswell / Zen shape): 12 accumulators, 2 B vectors, a broadcast
        # = 15, where 4 x 3 needs all 16 and GCC 12 then folds B's loads into
        # every FMA, 16 loads per 12 FMAs: on Zen 3, 1024^3 52 -> 70
        # GFLOP/s, 64 x 128 x 512 33 -> 60; 16-byte vectors: 4 x 2, SSE's
        # mul + add needs a temporary)
        self.mr, nv = _TILES.get(vector_bytes, (4, 2))
        self.nv = max(1, min(nv, -(-n // self.vl)))     # narrow outputs: fewer vectors per row
        self.nr = self.nv * self.vl
        self.nb = (NB if item == 4 else NB // 2) // self.nr * self.nr     # whole panels
        self.mb = MB // self.mr * self.mr
        self.mc = MC // self.mb * self.mb          # rows per B panel: whole A blocks
        self.vt = f"tvm_v{self.vl}{'f' if ct == 'float' else 'd'}"
        self.vu = self.vt + "_u"      # the same vector at any element alignment
        self.tag = f"{'f32' if item == 4 else 'f64'}_{self.mr}x{self.nv}v{self.vl}"
        self.panel = 0                # columns of B's compile-time panels (render)
        self.micro = {}               # (ars, aks, bks, split) -> (name, C function)
        # f16/bf16 operands (None: the compute type): the packing and the row
        # kernels read them through ``scalar_read`` / ``vector_read``, converting
        self.element = element

    @property
    def item_bytes(self) -> int:
        """Bytes of one stored operand element."""
        return 2 if self.element else self.vb // self.vl

    @property
    def st(self) -> str:
        """C type the operands' elements are stored as."""
        return scalar.STORAGE_TYPE[self.element] if self.element else self.ct

    def scalar_read(self, expr: str) -> str:
        """An operand element as the compute type."""
        return CpuBodyEmitter.load_expr(self.element, expr) if self.element else expr

    def vector_read(self, var: str, ptr: str) -> str:
        """A statement declaring vector ``var`` of the ``vl`` elements at ``ptr``."""
        if not self.element:
            return f"{self.vt} {var}; memcpy(&{var}, {ptr}, {self.vb});"
        return f"const {self.vt} {var} = {self._widen_name}({ptr});"

    @property
    def _widen_name(self) -> str:
        return f"tvm_{self.element}_v{self.vl}"

    def _widen_decls(self) -> list[str]:
        """``vt tvm_<el>_v<vl>(const uint16_t*)``: vl 16-bit elements widened
        to a vector of f32 (bf16: the bits moved up 16, any ISA; f16: F16C /
        AVX-512 conversions where the variant has them, GCC 12 converting
        _Float16 vectors one element at a time)."""
        if not self.element:
            return []
        vt, vl, name = self.vt, self.vl, self._widen_name
        head = f"static inline {vt} {name}(const uint16_t* p) {{"
        if self.element == "bf16":
            return [f"typedef uint16_t tvm_h{vl} __attribute__((vector_size({2 * vl})));",
                    f"typedef uint32_t tvm_w{vl} __attribute__((vector_size({4 * vl})));",
                    "\n".join([head, f"  tvm_h{vl} h; memcpy(&h, p, {2 * vl});",
                               f"  const tvm_w{vl} w = __builtin_convertvector(h, tvm_w{vl}) << 16;",
                               f"  {vt} r; memcpy(&r, &w, {4 * vl}); return r;", "}"])]
        fast = {16: ("defined(__AVX512F__)", "__m512 f = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)p));"),
                8: ("defined(__F16C__)", "__m256 f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)p));"),
                4: ("defined(__F16C__)", "__m128 f = _mm_cvtph_ps(_mm_loadl_epi64((const __m128i*)p));")}
        body = [f"  {vt} r; for (int e = 0; e < {vl}; ++e) r[e] = tvm_f16_to_f32(p[e]); return r;"]
        if vl in fast:
            cond, line = fast[vl]
            body = [f"#if {cond}", f"  {line}", f"  {vt} r; memcpy(&r, &f, {4 * vl}); return r;",
                    "#else", *body, "#endif"]
        return ["#if defined(__F16C__) || defined(__AVX512F__)\n#include <immintrin.h>\n#endif",
                "\n".join([head, *body, "}"])]

    @property
    def scratch(self) -> str:
        return f"tvm_gemm_scratch_{self.ct}"

    def call(self, a: str, ars, aks, b: str, bks, tail: str, boffs=(), prefetch=()) -> str:
        """A call of the micro-kernel for A at ``a`` (row stride ``ars``, k
        stride ``aks``) and B at ``b`` (k stride ``bks``); int strides are
        compiled into the micro-kernel, others passed.  ``boffs``: the
        offsets of B's vectors 1.. from ``b`` when they are not contiguous
        (a constant's compile-time panels, ``pack_panels``).  ``prefetch``:
        (first row, row stride in bytes, bytes per row, rows) that the
        micro-kernel prefetches into L2 a line per k step."""
        key = tuple(x if isinstance(x, int) else None for x in (ars, aks, bks)) + (bool(boffs), bool(prefetch))
        name = self.kernel(key, lambda: self._micro_kernel(key))
        runtime = [str(x) for x, k in zip((ars, aks, bks), key) if k is None]
        return f"{name}(kc, {a}, {b}, {', '.join(runtime + list(boffs) + list(prefetch) + [tail])}"

    def kernel(self, key, make) -> str:
        """The name of a helper function of this blocking (``make()``:
        (name, C)), declared once among ``decls``."""
        if key not in self.micro:
            self.micro[key] = make()
        return self.micro[key][0]

    def _micro_kernel(self, key):
        """(name, C) of the MR x NR micro-kernel: C[MR][NR] (+)= A . B over kc.
        Not inlined: in the blocked loop nest GCC spilled its B vectors to
        the stack (every FMA then read memory: half the FMA rate)."""
        ct, vt, vu, mr, nv, vl = self.ct, self.vt, self.vu, self.mr, self.nv, self.vl
        names = ("ars", "aks", "bks")
        *key, split, pf = key
        split = split and nv > 1
        name = (f"tvm_gemm_{self.tag}_" + "_".join("r" if k is None else str(k) for k in key)
                + ("_p" if split else "") + ("_f" if pf else ""))
        params = "".join(f", int64_t {n}" for n, k in zip(names, key) if k is None)
        params += "".join(f", int64_t bo{h}" for h in range(1, nv if split else 1))
        if pf:
            params += ", const char* pp, int64_t pstride, int64_t pbytes, int64_t prows"
        ars, aks, bks = (n if k is None else str(k) for n, k in zip(names, key))
        boff = [f"bo{h}" if split and h else str(h * vl) for h in range(nv)]
        acc = [[f"c{i}_{h}" for h in range(nv)] for i in range(mr)]
        body = [
            f"static __attribute__((noinline)) void {name}(int64_t kc, const {ct}* restrict a, "
            f"const {ct}* restrict b{params}, {ct}* restrict c, int first) {{",
            "  " + " ".join(f"{vt} {x};" for row in acc for x in row),
            "  if (first) {",
            "    " + " ".join(f"{x} = ({vt}){{0}};" for row in acc for x in row),
            "  } else {",
        ]
        body += [f"    {acc[i][h]} = *(const {vu}*)(c + {i * self.nb + h * vl});"
                 for i in range(mr) for h in range(nv)]
        body += ["  }"]
        if pf:      # a line of the rows to prefetch per k step: a burst before the call mostly missed
            body += ["  int64_t pl = 0;"]
        body += [f"  for (int64_t k = 0; k < kc; ++k, a += {aks}, b += {bks}) {{"]
        if pf:
            body += ["    if (prows > 0) { __builtin_prefetch(pp + pl, 0, 2); pl += 64;",
                     "      if (pl >= pbytes) { pl = 0; pp += pstride; --prows; } }"]
        tail_pf = ["  for (; prows > 0; --prows, pl = 0, pp += pstride)",
                   "    for (; pl < pbytes; pl += 64) __builtin_prefetch(pp + pl, 0, 2);"] if pf else []
        body += [f"    const {vt} y{h} = *(const {vu}*)(b + {boff[h]});" for h in range(nv)]
        for i in range(mr):
            body.append(f"    {{ const {ct} x = a[{i} * {ars}]; "
                        + " ".join(f"{acc[i][h]} += x * y{h};" for h in range(nv)) + " }")
        body += ["  }", *tail_pf]
        body += [f"  *({vu}*)(c + {i * self.nb + h * vl}) = {acc[i][h]};"
                 for i in range(mr) for h in range(nv)]
        body += ["}"]
        return name, "\n".join(body)

    @property
    def transpose(self) -> str:
        """Name of the in-register VL x VL transpose (``transpose_decl``)."""
        return f"tvm_transpose_{self.vl}{'f' if self.ct == 'float' else 'd'}"

    def transpose_decl(self) -> str:
        """``void name(vt r[VL])``: rows to columns in log2(VL) rounds of
        interleaving row i with row i + VL/2 (low halves to row 2i, high
        halves to row 2i + 1); the packing of a B stored N x K (a tied LM
        head, q . k^T) loads VL rows of K and stores VL columns, where a
        scalar copy ran at under one element per cycle."""
        vl, vt = self.vl, self.vt
        half = vl // 2
        lo = ", ".join(f"{i}, {vl + i}" for i in range(half))
        hi = ", ".join(f"{half + i}, {vl + half + i}" for i in range(half))
        rounds = vl.bit_length() - 1
        # __builtin_shufflevector: GCC 12+ and clang alike
        body = [f"static inline __attribute__((always_inline)) void {self.transpose}({vt}* r) {{",
                f"  for (int round = 0; round < {rounds}; ++round) {{",
                f"    {vt} t[{vl}];",
                f"    for (int i = 0; i < {half}; ++i) {{",
                f"      t[2 * i] = __builtin_shufflevector(r[i], r[i + {half}], {lo});",
                f"      t[2 * i + 1] = __builtin_shufflevector(r[i], r[i + {half}], {hi});",
                "    }",
                f"    for (int i = 0; i < {vl}; ++i) r[i] = t[i];",
                "  }",
                "}"]
        return "\n".join(body)

    def decls(self) -> list[str]:
        """File-scope declarations (deduplicated per executable): the vector
        types, the thread-local scratch and the micro-kernels called."""
        ct, vt, vb = self.ct, self.vt, self.vb
        size = MB * KC + KC * NB + MC * NB     # the f32 block sizes bound f64's too
        return [f"typedef {ct} {vt} __attribute__((vector_size({vb})));",
                *self._widen_decls(),
                f"typedef {ct} {self.vu} __attribute__((vector_size({vb}), "
                f"aligned({4 if ct == 'float' else 8}), may_alias));",
                # weak: one copy for all of a module's translation units
                f"__thread {ct} {self.scratch}[{size}] "
                f"__attribute__((aligned(64), weak, visibility(\"hidden\")));",
                self.transpose_decl(),
                *(f for _, f in self.micro.values())]


def render(kernel: Kernel, vector_bytes: int, pointer_decls):
    """(decls, C source, workgroup count) of a static contraction kernel;
    ``pointer_decls(kernel, em)`` declares the bindings (the CPU ABI's)."""
    c = kernel.contraction
    ct = scalar.ctype(c.accumulator_element)
    sh = _Shape(ct, vector_bytes, c.N, c.operand_element if _narrow(c) else None)
    st = sh.st
    sh.panel = kernel.packed_rhs
    em = CpuBodyEmitter({}, indent=5)
    head = pointer_decls(kernel, em)
    plan = cpu_plan(c)
    rows = c.B * c.M
    # GEMV-or-packed: known at compile time for a static M, else per call
    column = c.N == 1 and c.lhs_strides[1] == 1     # one output column: column_gemv
    # B bigger than the caches, rows contiguous: the few-row kernel streams it
    stream = (c.rhs_strides[2] == 1 and not kernel.packed_rhs and not column
              and c.K * c.N * sh.item_bytes >= GEMV_STREAM_BYTES)
    # A and B rows both along K (B stored N x K): dot products for up to DOT_ROWS - 1 rows,
    # and long ones at any row count (the same bits at each)
    dot = (c.rhs_strides[1] == 1 and c.lhs_strides[2] == 1 and not kernel.packed_rhs
           and not column and not stream)
    dot_all = dot and c.K >= DOT_ALL_K
    few_rows = GEMV_STREAM_ROWS if stream else DOT_ROWS if dot else GEMV_ROWS
    gemv = True if dot_all else c.M < few_rows if isinstance(c.M, int) else f"({c.M}) < {few_rows}"
    if column:
        gemv = False
    if _narrow(c):                  # column_gemv reads A as f32 vectors
        column = False
    acc = "cc[i * step + j]"       # step: the column block, cc's row stride
    idx_decls, store = contraction_epilogue(em, kernel, "b", "(m0 + i)", "(n0 + j)", acc)
    src = [declarator(kernel.name) + " {"]
    src += head
    # the opaque asm keeps the thread-local address in a register: GCC would
    # otherwise recompute it (a __tls_get_addr call) inside the k loop
    src += [f"  {ct}* sp = {sh.scratch}; __asm__(\"\" : \"+r\"(sp));",
            f"  {ct}* restrict ap = sp;",
            f"  {ct}* restrict bp = ap + {MB * KC};",
            f"  {ct}* restrict cc = bp + {KC * NB};"]
    if isinstance(gemv, str):
        src.append(f"  const int gemv = {gemv};")
    # column block (and cc's row stride) and rows per pass of the row kernels:
    # the rows streaming B (gemv_stream) take all of them at once over wider blocks
    if stream:
        wide, few = GEMV_COLS, few_rows - 1
    elif dot:
        wide, few = dot_columns(c, sh), dot_pass_rows(c, sh)
        few = few if dot_all else min(few_rows - 1, few)
    else:
        wide, few = sh.nb, 1
    step, cap = ((wide, few) if gemv else (sh.nb, sh.mc)) if isinstance(gemv, bool) else \
        (f"(gemv ? {wide} : {sh.nb})", f"(gemv ? {few} : {sh.mc})")
    src.append(f"  const int64_t step = {step};")
    src += rectangle_loop(plan, rows, c.N)
    src += [
        "    for (int64_t r = r0; r < r1;) {",
        f"      const int64_t b = r / {c.M}, m0 = r % {c.M};",
        f"      int64_t mb = r1 - r < {c.M} - m0 ? r1 - r : {c.M} - m0;",
        f"      if (mb > {cap}) mb = {cap};",
        f"      const {st}* restrict la = {em.bindings[c.lhs]} + {c.batch_offset('lhs', 'b')} "
        f"+ m0 * {c.lhs_strides[1]};",
        f"      const {st}* restrict lb = {em.bindings[c.rhs]} + {c.batch_offset('rhs', 'b')};",
    ]
    panels = kernel.packed_rhs       # B's panels packed at compile time (pack_panels)
    epilogue = ["        for (int64_t i = 0; i < mb; ++i) {",
                "          for (int64_t j = 0; j < nb; ++j) {",
                *("            " + d for d in idx_decls), *("  " + line for line in em.lines),
                "            " + store, "          }", "        }"]
    swept = _sweeps(c, sh, gemv, stream and not panels)
    if swept:
        src += [f"      if ({swept}) {{", *_swept_rows(c, sh, epilogue), "      } else"]
    src += ["      for (int64_t n0 = c0; n0 < c1; n0 += step) {",
            "        const int64_t nb = c1 - n0 < step ? c1 - n0 : step;"]
    row = gemv_panels if panels else gemv_stream if stream else dot_rows if dot else gemv_row
    if column:
        src += column_gemv(c, sh)
    elif gemv is True:
        src += row(c, sh)
    elif gemv is False:
        src += _packed_block(c, sh, panels)
    else:
        src += ["        if (gemv) {", *row(c, sh), "        } else {",
                *_packed_block(c, sh, panels), "        }"]
    src += epilogue
    src += ["      }", "      r += mb;", "    }", "  }", "  return 0;", "}"]
    return em.decls + sh.decls(), "\n".join(src), plan.count


def _sweeps(c, sh: _Shape, gemv, big_b: bool) -> str:
    """C condition (or "") for ``_swept_rows``: B too big for the caches
    with contiguous rows, read in place (up to DIRECT_B_ROWS rows), A's rows
    contiguous, and the accumulators of all the rectangle's columns fit
    the scratch."""
    if not SWEEP or not big_b or gemv is True or _narrow(c) or c.lhs_strides[2] != 1 or c.K == 0 \
            or (isinstance(c.M, int) and c.M > DIRECT_B_ROWS):
        return ""
    cond = [f"mb * (c1 - c0 + {sh.nb}) <= {MC * NB}"]
    if not isinstance(c.M, int):
        cond.append(f"mb <= {DIRECT_B_ROWS}")
    if isinstance(gemv, str):
        cond.append("!gemv")
    return " && ".join(cond)


def _swept_rows(c, sh: _Shape, epilogue) -> list[str]:
    """Statements computing the mb rows x [c0, c1) rectangle with K
    outermost: each slice of K is swept over all the rectangle's column
    blocks (accumulators for all of them in ``cc``, block after block) before
    the next, so B is read a slice of whole rows at a time, the next slice
    prefetched while this one is computed: one sequential stream where
    block-by-block sweeps read 1 KB runs 12 KB apart (a core reads those at
    13-15 GB/s, whole rows at 23).  Each output still sums K in order in one
    FMA chain, so its bits are the block order's.  Slices of about
    SWEEP_SLICE_BYTES (16 to KC rows)."""
    ct, nr, item = sh.ct, sh.nr, sh.item_bytes
    rsk = c.rhs_strides[1]
    calls = f"((nb + {nr - 1}) / {nr}) * ((mb + {sh.mr - 1}) / {sh.mr})"
    return [
        f"        {ct}* const ccs = cc;",
        f"        int64_t ks = {SWEEP_SLICE_BYTES} / ((c1 - c0) * {item});",
        f"        ks = ks < 16 ? 16 : ks > {KC} ? {KC} : ks / 16 * 16;",
        f"        for (int64_t k0 = 0; k0 < {c.K}; k0 += ks) {{",
        f"          const int64_t kc = {c.K} - k0 < ks ? {c.K} - k0 : ks;",
        f"          for (int64_t n0 = c0; n0 < c1; n0 += {sh.nb}) {{",
        f"            const int64_t nb = c1 - n0 < {sh.nb} ? c1 - n0 : {sh.nb};",
        f"            {ct}* restrict cb = ccs + (n0 - c0) / {sh.nb} * mb * {sh.nb};",
        f"            {{ const int64_t jp = nb / {nr} * {nr}, jn = nb - jp;   /* the edge panel */",
        "              if (jn) {",
        *["  " + line for line in _pack_b(c, sh, False)],
        "              } }",
        "            const char* pf = 0; int64_t pf_left = 0;",
        f"            const int64_t pf_bytes = nb * {item};",
        f"            if (k0 + ks < {c.K}) {{",
        f"              pf = (const char*)(lb + (k0 + ks) * {rsk} + n0);",
        f"              pf_left = {c.K} - k0 - ks < ks ? {c.K} - k0 - ks : ks;",
        "            }",
        f"            const int64_t pf_per = (pf_left + {calls} - 1) / ({calls});",
        "            const int64_t sm0 = 0, sb = mb;",
        f"            const {sh.st}* restrict sa = la;",
        f"            for (int64_t ip = 0; ip < sb; ip += {sh.mr}) {{",
        f"              const int64_t in = sb - ip < {sh.mr} ? sb - ip : {sh.mr};",
        f"              if (in < {sh.mr}) {{",
        *["  " + line for line in _pack_a(c, sh)],
        "              }",
        "            }",
        f"            for (int64_t jp = 0; jp < nb; jp += {nr}) {{",
        f"              const int fb = nb - jp >= {nr};",
        f"              for (int64_t ip = 0; ip < sb; ip += {sh.mr}) {{",
        f"                const int fa = sb - ip >= {sh.mr};",
        *["  " + line for line in _micro_calls(sh, c, True, True, False, True, acc="cb")],
        "              }",
        "            }",
        "          }",
        "        }",
        f"        for (int64_t n0 = c0; n0 < c1; n0 += {sh.nb}) {{",
        f"          const int64_t nb = c1 - n0 < {sh.nb} ? c1 - n0 : {sh.nb};",
        f"          {ct}* restrict cc = ccs + (n0 - c0) / {sh.nb} * mb * {sh.nb};",
        *epilogue,
        "        }",
    ]


def _micro_calls(sh: _Shape, c, direct_a: bool, direct_b: bool, panels: bool = False,
                 prefetch: bool = False, acc: str = "cc") -> list[str]:
    """The micro-kernel call for tile (ip, jp): full tiles of an operand
    read directly (``fa`` / ``fb``) are passed in place with their strides,
    the rest from the packed panels (``panels``: B read directly is the
    constant's compile-time panels, each of its vectors in one panel);
    ``prefetch``: each call prefetches its share, the next ``pf_per`` rows
    of B's prefetch (``_prefetch_setup``), a line per k step."""
    (_, lsm, lsk), (_, rsk, _) = c.lhs_strides, c.rhs_strides
    a_pk, a_dir = ("ap + ip * kc", 1, sh.mr), (f"sa + ip * {lsm} + k0 * {lsk}", lsm, lsk)
    b_pk, b_dir = ("bp + jp * kc", sh.nr), (f"lb + k0 * {rsk} + n0 + jp", rsk)
    boffs = ()
    if panels:
        b_dir = (f"lb + {panel_offset(sh, c, 'n0 + jp')} + k0 * {sh.panel}", sh.panel)
        boffs = tuple(f"{panel_offset(sh, c, f'n0 + jp + {h * sh.vl}')} - "
                      f"({panel_offset(sh, c, 'n0 + jp')})" for h in range(1, sh.nv))
    tail = f"{acc} + (sm0 + ip) * {sh.nb} + jp, k0 == 0);"
    stride = c.rhs_strides[1] * sh.item_bytes
    pf = ("pf", str(stride), "pf_bytes", "pr") if prefetch else ()
    out = ["              const int64_t pr = pf_per < pf_left ? pf_per : pf_left;"] if prefetch else []
    first = len(out)
    for fa, fb in ((True, True), (True, False), (False, True)):
        if (fa and not direct_a) or (fb and not direct_b):
            continue
        cond = " && ".join(x for x, on in (("fa", fa), ("fb", fb)) if on)
        out.append(f"              {'else ' if len(out) > first else ''}if ({cond}) "
                   + sh.call(*(a_dir if fa else a_pk), *(b_dir if fb else b_pk), tail,
                             boffs if fb else (), pf))
    out.append(f"              {'else ' if len(out) > first else ''}" + sh.call(*a_pk, *b_pk, tail, (), pf))
    if prefetch:
        out.append(f"              pf += pr * {stride}; pf_left -= pr;")
    return out


def _pack_b(c, sh: _Shape, panels: bool) -> list[str]:
    """Statements packing B's tile (jp, jn columns) of the K slice into ``bp``
    (zero padded), along the operand's unit-stride dimension."""
    ct, nr = sh.ct, sh.nr
    st, L = sh.st, sh.scalar_read
    rsk, rsn = c.rhs_strides[1:]
    if panels:       # only edge tiles: copied from the panels, zero padded
        return [
            "            /* B: compile-time panels (packed_weights.py) */",
            "            for (int64_t k = 0; k < kc; ++k) {",
            f"              {ct}* restrict d = bp + jp * kc + k * {nr};",
            f"              for (int64_t j = 0; j < {nr}; ++j)",
            f"                d[j] = j < jn ? lb[{panel_offset(sh, c, 'n0 + jp + j')} + (k0 + k) * {sh.panel}] : 0;",
            "            }",
        ]
    elif rsn == 1 or rsk != 1 or _narrow(c):
        return [
            "            for (int64_t k = 0; k < kc; ++k) {",
            f"              const {st}* restrict s = lb + (k0 + k) * {rsk} + (n0 + jp) * {rsn};",
            f"              {ct}* restrict d = bp + jp * kc + k * {nr};",
            (f"              if (jn == {nr}) {{ " + " ".join(
                f"{{ {sh.vector_read('v', f's + {h * sh.vl}')} memcpy(d + {h * sh.vl}, &v, {sh.vb}); }}"
                for h in range(sh.nv)) + " }" if _narrow(c) and rsn == 1 else
             f"              if (jn == {nr}) for (int64_t j = 0; j < {nr}; ++j) d[j] = {L(f's[j * {rsn}]')};"),
            f"              else for (int64_t j = 0; j < {nr}; ++j) d[j] = j < jn ? {L(f's[j * {rsn}]')} : 0;",
            "            }",
        ]
    else:
        vl, vt, vu = sh.vl, sh.vt, sh.vu
        return [
            f"            {ct}* restrict d = bp + jp * kc;",
            "            int64_t kv = 0;",
            f"            if (jn == {nr}) for (; kv + {vl} <= kc; kv += {vl}) {{",
            *[line for h in range(sh.nv) for line in (
                f"              {{ {vt} r[{vl}];",
                f"                for (int t = 0; t < {vl}; ++t) r[t] = *(const {vu}*)"
                f"(lb + k0 * {rsk} + kv + (n0 + jp + {h * vl} + t) * {rsn});",
                f"                {sh.transpose}(r);",
                f"                for (int t = 0; t < {vl}; ++t) *({vu}*)(d + (kv + t) * {nr} + {h * vl}) = r[t];",
                "              }")],
            "            }",
            "            for (int64_t j = 0; j < jn; ++j) {",
            f"              const {ct}* restrict s = lb + k0 * {rsk} + (n0 + jp + j) * {rsn};",
            f"              for (int64_t k = kv; k < kc; ++k) d[k * {nr} + j] = s[k];",
            "            }",
            f"            for (int64_t j = jn; j < {nr}; ++j) for (int64_t k = 0; k < kc; ++k) d[k * {nr} + j] = 0;",
        ]


def _pack_a(c, sh: _Shape) -> list[str]:
    """Statements packing A's rows (ip, in rows) of the K slice into ``ap``
    (zero padded)."""
    ct, mr = sh.ct, sh.mr
    st, L = sh.st, sh.scalar_read
    lsm, lsk = c.lhs_strides[1:]
    if lsk == 1 and lsm != 1:
        return [
            f"            {ct}* restrict d = ap + ip * kc;",
            f"            if (in == {mr}) {{",
            f"              const {st}* restrict s = sa + ip * {lsm} + k0;",
            "              int64_t k = 0;",
            # 16-bit rows: widened a vector at a time, then spread over the panel
            *([f"              for (; k + {sh.vl} <= kc; k += {sh.vl}) {{",
               *[f"                {{ {sh.vector_read('v', f's + {i * lsm} + k')} "
                 f"for (int e = 0; e < {sh.vl}; ++e) d[(k + e) * {mr} + {i}] = v[e]; }}"
                 for i in range(mr)],
               "              }"] if _narrow(c) else []),
            "              for (; k < kc; ++k) {",
            *[f"                d[k * {mr} + {i}] = {L(f's[{i * lsm} + k]')};" for i in range(mr)],
            "              }",
            "            } else {",
            "            for (int64_t i = 0; i < in; ++i) {",
            f"              const {st}* restrict s = sa + (ip + i) * {lsm} + k0;",
            f"              for (int64_t k = 0; k < kc; ++k) d[k * {mr} + i] = {L('s[k]')};",
            "            }",
            f"            for (int64_t i = in; i < {mr}; ++i) for (int64_t k = 0; k < kc; ++k) d[k * {mr} + i] = 0;",
            "            }",
        ]
    else:
        return [
            "            for (int64_t k = 0; k < kc; ++k) {",
            f"              const {st}* restrict s = sa + ip * {lsm} + (k0 + k) * {lsk};",
            f"              {ct}* restrict d = ap + ip * kc + k * {mr};",
            f"              for (int64_t i = 0; i < {mr}; ++i) d[i] = i < in ? {L(f's[i * {lsm}]')} : 0;",
            "            }",
        ]


def _packed_block(c, sh: _Shape, panels: bool = False) -> list[str]:
    """Statements accumulating the mb x nb block at (m0, n0) into ``cc``.
    An operand reused by few tiles is read in place instead of packed (B
    when there are few rows per batch, A when N is at most two panels
    wide); edge tiles are still packed, zero padded.  ``panels``: B is a
    constant packed at compile time (``pack_panels``), read in place
    whatever M is; only its edge tiles are copied."""
    mr, nr = sh.mr, sh.nr
    st = sh.st
    (_, lsm, lsk), (_, _, rsn) = c.lhs_strides, c.rhs_strides
    # B in place: decided here for a static M, by a run-time test otherwise
    direct_b = panels or rsn == 1 and not _narrow(c) and (
        c.M <= DIRECT_B_ROWS if isinstance(c.M, int) else f"({c.M}) <= {DIRECT_B_ROWS}")
    pack_b_when = ("" if direct_b is False else f"jn < {nr}" if direct_b is True
                   else f"jn < {nr} || !({direct_b})")
    direct_a = (c.N <= 2 * nr or lsk == 1) and not _narrow(c)
    prefetch = not panels and rsn == 1
    if c.K == 0:
        return [f"        for (int64_t i = 0; i < mb * {sh.nb}; ++i) cc[i] = 0;"]
    pack_b, pack_a = _pack_b(c, sh, panels), _pack_a(c, sh)
    return [
        f"        for (int64_t k0 = 0; k0 < {c.K}; k0 += {KC}) {{",
        f"          const int64_t kc = {c.K} - k0 < {KC} ? {c.K} - k0 : {KC};",
        f"          for (int64_t jp = 0; jp < nb; jp += {nr}) {{",
        f"            const int64_t jn = nb - jp < {nr} ? nb - jp : {nr};",
        *([f"            if ({pack_b_when}) {{", *pack_b, "            }"] if pack_b_when else pack_b),
        "          }",
        # the B panel serves every MB-row block of A in the mb rows (BLIS's
        # loop order: B packed once per MC rows, not once per A block)
        *(_prefetch_setup(c, sh) if prefetch else []),
        f"          for (int64_t sm0 = 0; sm0 < mb; sm0 += {sh.mb}) {{",
        f"          const int64_t sb = mb - sm0 < {sh.mb} ? mb - sm0 : {sh.mb};",
        f"          const {st}* restrict sa = la + sm0 * {lsm};",
        f"          for (int64_t ip = 0; ip < sb; ip += {mr}) {{",
        f"            const int64_t in = sb - ip < {mr} ? sb - ip : {mr};",
        *([f"            if (in < {mr}) {{", *pack_a, "            }"] if direct_a else pack_a),
        "          }",
        f"          for (int64_t jp = 0; jp < nb; jp += {nr}) {{",
        f"            const int fb = {direct_b if isinstance(direct_b, str) else int(direct_b)} && nb - jp >= {nr};",
        f"            for (int64_t ip = 0; ip < sb; ip += {mr}) {{",
        f"              const int fa = {int(direct_a)} && sb - ip >= {mr};",
        *_micro_calls(sh, c, direct_a, direct_b is not False, panels, prefetch),
        "            }",
        "          }",
        "          }",
        "        }",
    ]


def _prefetch_setup(c, sh: _Shape) -> list[str]:
    """Statements choosing the rows of B the sweep of this K slice
    prefetches into L2: the next slice of this block's columns, or the
    first slice of the next column block.  B comes from DRAM (a model's
    weights do not fit the caches) and the packing otherwise waits on it,
    with the FMA units idle, for 7-15% of a 128-row product.  B read in
    place (few rows) waits the same way, on every micro-kernel's rows:
    prefetched, 16 x 768 x 3072 from DRAM on one Zen 4 core went from 2.9
    to 1.5 ms, 64 rows from 4.4 to 3.4 ms.  Spread over
    the sweep's micro-kernel calls (of the first MB rows), and inside each
    call over its k steps, a line per step: a burst of prefetches before
    each call mostly missed (16 x 768 x 3072 from DRAM: 1.35 -> 1.18 ms,
    16 x 3072 x 768 1.44 -> 0.98 ms; the 16-sequence decode step's layer
    products 58.7 -> 40.5 ms on one thread)."""
    item, rsk = sh.item_bytes, c.rhs_strides[1]
    calls = (f"((nb + {sh.nr - 1}) / {sh.nr}) * (((mb < {sh.mb} ? mb : {sh.mb}) + {sh.mr - 1}) / {sh.mr})")
    return [
        "          const char* pf = 0; int64_t pf_left = 0, pf_bytes = 0;",
        f"          if (k0 + {KC} < {c.K}) {{",
        f"            pf = (const char*)(lb + (k0 + {KC}) * {rsk} + n0);",
        f"            pf_left = {c.K} - k0 - {KC} < {KC} ? {c.K} - k0 - {KC} : {KC}; pf_bytes = nb * {item};",
        f"          }} else if (n0 + {sh.nb} < c1) {{",
        f"            pf = (const char*)(lb + n0 + {sh.nb});",
        f"            pf_left = {min(KC, c.K)};",
        f"            pf_bytes = (c1 - n0 - {sh.nb} < {sh.nb} ? c1 - n0 - {sh.nb} : {sh.nb}) * {item};",
        "          }",
        f"          const int64_t pf_per = (pf_left + {calls} - 1) / ({calls});",
    ]
