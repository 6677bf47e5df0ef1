"""CPU GEMM kernels that read B in place: no packing, B read once.

A product with few rows per batch (a decode step's projections, a
classifier head, a batcher's small merged call) gains nothing from packing
B and is bound by reading it: these kernels stream B once for all the
call's rows, each output one FMA chain along K in K order where B's rows
are contiguous (the packed micro-kernel's bits, so a row's result does not
depend on how many rows its call has).  A B stored N x K (torch's Linear
weights, a tied LM head) is read as dot products instead, at few rows and,
for long K, at any number (packing it is a transpose).  ``gemm.render``
picks them; they fill the per-thread accumulator block ``cc`` (row stride
``step``) that its fused epilogue reads.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .gemm import _Shape

GEMV_ROWS = 4  # fewer rows per batch than this: the unpacked row kernel
GEMV_STREAM_BYTES = 1 << 20  # B at least this big, rows contiguous: gemv_stream instead,
GEMV_STREAM_ROWS = 9  # for fewer rows per batch than this (all in one pass over B),
GEMV_COLS = 8192  # this many columns per block,
GEMV_KT = 8  # and this many rows of B side by side (4: 0.45-0.56 ms on 1x768x3072 from DRAM, 8: 0.41),
GEMV_PF_ROWS = 32  # with B prefetched this many rows ahead (one Zen 4 core from DRAM,
                   # 1 x 3072 x 768: none 517 us, 8: 479, 16: 385, 32: 337, 64: 386)
DOT_ROWS = 33  # fewer rows per batch than this, B stored N x K: dot products (dot_rows), B read once,
DOT_ALL_K = 512  # and any number of rows from this K up (against packing, 128 rows: K = 64 0.9x, 256 0.9x,
                 # 768 1.1-1.2x the speed)
DOT_BLOCK_BYTES = 384 << 10  # B rows per column block of dot_rows: two blocks fit L2
DOT_PASS_BYTES = 512 << 10  # and A's rows of one pass over B beside them


def panel_offset(sh: _Shape, c, col: str) -> str:
    """C expression: the element offset of column ``col``'s k = 0 entry in
    a B packed as panels of ``sh.panel`` columns ([N / W][K][W])."""
    w = sh.panel
    return f"({col}) / {w} * {c.K * w} + ({col}) % {w}"


def column_gemv(c, sh: _Shape) -> list[str]:
    """Statements computing the mb rows at m0 of a one-column product (N ==
    1) whose A rows are contiguous: an axpy per k along M, which vectorises,
    where the packed path would pad the single column to a whole panel (an
    attention's probabilities times V in a decode step: 15/16 of its work
    was padding)."""
    ct, vt, vl, vb = sh.ct, sh.vt, sh.vl, sh.vb
    (_, _, lsk), (_, rsk, _) = c.lhs_strides, c.rhs_strides
    K = c.K
    return [
        "        /* one output column: axpy along M (gemm_rows.column_gemv) */",
        "        int64_t i = 0;",
        f"        for (; i + {vl} <= mb; i += {vl}) {{",        # a vector of rows, two k chains
        f"          {vt} s = ({vt}){{0}}, t = ({vt}){{0}};",
        f"          const {ct}* restrict a = la + i;",
        "          int64_t k = 0;",
        f"          for (; k + 2 <= {K}; k += 2) {{",
        f"            {vt} y, z; memcpy(&y, a + k * {lsk}, {vb}); memcpy(&z, a + (k + 1) * {lsk}, {vb});",
        f"            s += lb[k * {rsk}] * y; t += lb[(k + 1) * {rsk}] * z;",
        "          }",
        f"          if (k < {K}) {{ {vt} y; memcpy(&y, a + k * {lsk}, {vb}); s += lb[k * {rsk}] * y; }}",
        "          s += t;",
        f"          for (int e = 0; e < {vl}; ++e) cc[(i + e) * {sh.nb}] = s[e];",
        "        }",
        "        for (; i < mb; ++i) {",
        f"          {ct} s = 0;",
        f"          for (int64_t k = 0; k < {K}; ++k) s += lb[k * {rsk}] * la[i + k * {lsk}];",
        f"          cc[i * {sh.nb}] = s;",
        "        }",
    ]


def gemv_panels(c, sh: _Shape) -> list[str]:
    """``gemv_row`` for a B stored as compile-time panels: each output's
    FMA chain in K order (the packed micro-kernel's bits), up to eight
    vectors of columns side by side, each read from its panel (column starts
    are multiples of a vector; a vector never crosses a panel)."""
    vl = sh.vl
    return ["        /* one row against B's compile-time panels (gemm_rows.gemv_panels) */",
            "        int64_t j = 0;",
            *row_sweeps(sh, c, 8, lambda q: "lb + " + panel_offset(sh, c, f"n0 + j + {q * vl}"),
                         sh.panel, to_end=True)]


def row_sweeps(sh, c, widest: int, column, step, to_end: bool = False) -> list[str]:
    """Passes over one row's columns, ``widest`` vectors at a time, then
    half as many, down to one: each output one FMA chain in K order (the
    packed micro-kernel's bits), and even a narrow row keeps independent
    chains side by side.  ``column(q)``: the C pointer to vector q's column
    at k = 0; ``step``: its stride along K; ``to_end``: the one-vector pass
    runs to the end of the row (panels: their vectors never cross it)."""
    ct, vt, vl, vb = sh.ct, sh.vt, sh.vl, sh.vb
    (_, _, lsk), K = c.lhs_strides, c.K
    out, n = [], widest
    while n:
        cond = "j < nb" if to_end and n == 1 else f"j + {n * vl} <= nb"
        out += [f"        for (; {cond}; j += {n * vl}) {{",
                "          " + " ".join(f"{vt} s{q} = ({vt}){{0}};" for q in range(n)),
                *[f"          const {sh.st}* restrict p{q} = {column(q)};" for q in range(n)],
                f"          for (int64_t k = 0; k < {K}; ++k) {{",
                f"            const {ct} x0 = {sh.scalar_read(f'la[k * {lsk}]')};"]
        out += [f"            {{ {sh.vector_read('y', f'p{q} + k * {step}')} s{q} += x0 * y; }}"
                for q in range(n)]
        out += ["          }"]
        out += [f"          memcpy(cc + j + {q * vl}, &s{q}, {vb});" for q in range(n)]
        out += ["        }"]
        n //= 2
    return out


def gemv_stream(c, sh: _Shape) -> list[str]:
    """Statements computing the mb rows at m0 (under GEMV_STREAM_ROWS),
    columns [n0, n0 + nb), into ``cc`` (row stride ``step``) when B's rows
    are contiguous and B is too big for the caches: B streams once for all
    the rows."""
    ct, vt, vl, vb = sh.ct, sh.vt, sh.vl, sh.vb
    st, L = sh.st, sh.scalar_read
    (_, lsm, lsk), (_, rsk, _) = c.lhs_strides, c.rhs_strides
    K = c.K
    # K outer, GEMV_KT rows of B at a time: each row streams as one run
    # of up to GEMV_COLS columns and ``cc`` is read and written once per
    # GEMV_KT rows (one Zen 4 core, B from DRAM: 26-30 GB/s, against 11
    # for the 1 KB runs of column-strip chains and 15-20 for one row at a
    # time).  Each output is still one FMA chain in K order -- the packed
    # micro-kernel's bits, so a row's result does not depend on how many
    # rows its call has (a batcher's merged call answers each request as
    # a call of its own)
    fma = "__builtin_fmaf" if ct == "float" else "__builtin_fma"

    def rows(n, k):
        qs = [f"          const {st}* restrict q{t} = p + ({k} + {t}) * {rsk};" for t in range(n)]
        x = lambda t: L(f"la[i * {lsm} + ({k} + {t}) * {lsk}]")  # noqa: E731
        vec = " ".join(f"s += {x(t)} * y{t};" for t in range(n))
        tail = " ".join(f"t = {fma}({x(t)}, {L(f'q{t}[j]')}, t);" for t in range(n))
        return [*qs,
                f"          for (int64_t j = 0; j < nv; j += {vl}) {{",
                "            " + " ".join(sh.vector_read(f"y{t}", f"q{t} + j") for t in range(n)),
                # the same columns GEMV_PF_ROWS rows of B on (past B's end: a no-op)
                *([f"            __builtin_prefetch(q{t} + {GEMV_PF_ROWS * rsk} + j, 0, 2);" for t in range(n)]
                  if n > 1 and GEMV_PF_ROWS else []),
                "            for (int64_t i = 0; i < mb; ++i) {",
                f"              {vt} s; memcpy(&s, cc + i * step + j, {vb}); {vec} "
                f"memcpy(cc + i * step + j, &s, {vb});",
                "            }",
                "          }",
                "          for (int64_t i = 0; i < mb; ++i) for (int64_t j = nv; j < nb; ++j) {",
                f"            {ct} t = cc[i * step + j]; {tail} cc[i * step + j] = t;",
                "          }"]
    return [
        f"        const {st}* restrict p = lb + n0;",
        f"        const int64_t nv = nb / {vl} * {vl};",
        "        for (int64_t i = 0; i < mb; ++i) for (int64_t j = 0; j < nb; ++j) cc[i * step + j] = 0;",
        "        int64_t k = 0;",
        f"        for (; k + {GEMV_KT} <= {K}; k += {GEMV_KT}) {{", *rows(GEMV_KT, "k"), "        }",
        f"        for (; k < {K}; ++k) {{", *rows(1, "k"), "        }",
    ]


def gemv_row(c, sh: _Shape) -> list[str]:
    """Statements computing row m0 (mb == 1), columns [n0, n0 + nb) into
    ``cc`` without packing: B streams once, with independent FMA chains
    (vectors across N when B's rows are contiguous -- then with the packed
    path's bits --; B stored N x K with A's row along K takes ``dot_rows``)."""
    ct, vt, vl = sh.ct, sh.vt, sh.vl
    st, L = sh.st, sh.scalar_read
    (_, _, lsk), (_, rsk, rsn) = c.lhs_strides, c.rhs_strides
    K = c.K
    if rsn == 1:
        # one FMA chain per output along K, in K order: the bits the packed
        # micro-kernel computes, so a row's result does not depend on how
        # many rows its call has (a batcher's merged call answers each
        # request as a call of its own); independent chains across columns
        out = ["        int64_t j = 0;", f"        const {st}* restrict p = lb + n0;"]
        out += row_sweeps(sh, c, 16 if sh.vb >= 64 else 8, lambda q: f"p + j + {q * vl}", rsk)
        out += [
            # the last columns as lanes of a zero-padded vector: a scalar loop
            # would be vectorised as products, then in-order adds (no FMA)
            "        if (j < nb) {",
            f"          {vt} s = ({vt}){{0}};",
            f"          const {st}* restrict pj = p + j;",
            f"          for (int64_t k = 0; k < {K}; ++k) {{ {vt} y = ({vt}){{0}}; "
            f"for (int64_t e = 0; e < nb - j; ++e) y[e] = {L(f'pj[k * {rsk} + e]')}; "
            f"s += {L(f'la[k * {lsk}]')} * y; }}",
            "          for (int64_t e = 0; e < nb - j; ++e) cc[j + e] = s[e];",
            "        }",
        ]
        return out
    return [
        "        for (int64_t j = 0; j < nb; ++j) {",
        f"          const {st}* restrict p = lb + (n0 + j) * {rsn};",
        f"          {ct} s[4] = {{0}};",
        f"          for (int64_t k = 0; k < {K}; ++k) s[k & 3] += {L(f'la[k * {lsk}]')} * {L(f'p[k * {rsk}]')};",
        "          cc[j] = (s[0] + s[1]) + (s[2] + s[3]);",
        "        }",
    ]


def dot_rows(c, sh: _Shape) -> list[str]:
    """Statements computing the mb rows at m0 (``dot_pass_rows`` at most), columns
    [n0, n0 + nb), into ``cc`` (row stride ``step``) when A's and B's rows
    both run along K (B stored N x K: a tied LM head, torch's Linear
    weights, q . k^T): dot products read B once for all the rows, where
    packing would transpose it into panels first (a tied head's 154 MB per
    call).  Columns go in groups of one vector's lanes, each group's B rows
    serving the rows 4, then 2, then 1 at a time (``dot_kernel``)."""
    vl = sh.vl
    (_, lsm, _), (_, _, rsn) = c.lhs_strides, c.rhs_strides
    fns = {r: sh.kernel(("dot", r), lambda r=r: dot_kernel(sh, r)) for r in _dot_blocks(vl)}
    # rows r at a time from the most the vector allows down to 1: each size
    # takes whole blocks of r from where the larger ones stopped (de<r>)
    starts = dict(zip(fns, ["0", *(f"de{r}" for r in fns)]))
    calls = " + ".join(f"(nb + {vl // r - 1}) / {vl // r} * ((de{r} - {starts[r]}) / {r})" for r in fns)
    out = ["        /* A and B rows along K: dot products (gemm_rows.dot_rows) */",
           *[f"        const int64_t de{r} = {starts[r]} + (mb - {starts[r]}) / {r} * {r};" for r in fns],
           # while this block's B serves row after row from L2, the next block's comes in:
           # the next columns, or after the last ones the next batch's first (attention's
           # q . k^T of one row per batch: 192 of them in a 16-sequence decode step)
           "        const int64_t pn = n0 + step < c1 ? (c1 - n0 - step < step ? c1 - n0 - step : step) "
           f": m0 + mb == {c.M} && r + mb < r1 ? (c1 - c0 < step ? c1 - c0 : step) : 0;",
           f"        const int64_t pf_per = (pn + ({calls}) - 1) / ({calls});",
           f"        const {sh.st}* pf = !pn ? lb : n0 + step < c1 ? lb + (n0 + step) * {rsn} : "
           f"lb + ({c.batch_offset('rhs', '(b + 1)')} - {c.batch_offset('rhs', 'b')}) + c0 * {rsn};",
           "        int64_t pf_left = pn;"]
    for r in fns:
        w = vl // r
        out += [f"        for (int64_t i = {starts[r]}; i < de{r}; i += {r})",
                f"          for (int64_t j = 0; j < nb; j += {vl}) {{",
                f"            const int64_t gn = nb - j < {vl} ? nb - j : {vl};",
                f"            for (int64_t q = 0; q < gn; q += {w}) {{",
                "              const int64_t pr = pf_per < pf_left ? pf_per : pf_left;",
                f"              {fns[r]}({c.K}, la + i * {lsm}, {lsm}, lb + (n0 + j + q) * {rsn}, {rsn}, "
                f"gn - q < {w} ? gn - q : {w}, cc + i * step + j + q, step, pf, pr);",
                f"              pf += pr * {rsn}; pf_left -= pr;",
                "            }",
                "          }"]
    return out


def dot_columns(c, sh: _Shape) -> int:
    """Columns per block of ``dot_rows``: B rows of DOT_BLOCK_BYTES at most
    (a whole number of vectors), so that the block the rows read from L2
    and the next one, prefetched meanwhile, both fit there."""
    rows = DOT_BLOCK_BYTES // max(1, c.K * sh.item_bytes) // sh.vl * sh.vl
    return max(sh.vl, min(sh.nb, rows))


def dot_pass_rows(c, sh: _Shape) -> int:
    """Rows of A per pass of ``dot_rows`` over B: DOT_PASS_BYTES of them (a
    multiple of 4), read from L2 for every column group."""
    return max(4, min(256, DOT_PASS_BYTES // max(1, c.K * sh.item_bytes) // 4 * 4))


def _dot_blocks(vl: int) -> tuple:
    """Rows per ``dot_kernel`` call: 4, 2 and 1, each with vl / rows columns."""
    return tuple(r for r in (4, 2, 1) if r <= vl)


def lane_sums(sh: _Shape, accs: list[str], out: str) -> list[str]:
    """Statements declaring vector ``out`` whose lane q is the sum of the
    lanes of vector ``accs[q]`` (vl of them): log2(vl) rounds, each adding
    the low and high halves of every output's lanes in pairs of vectors
    (2 shuffles and an add per pair).  Each output's lanes meet in the same
    tree however the accumulators are grouped, so a dot product's bits do
    not depend on which outputs share its call."""
    vt, vl = sh.vt, sh.vl
    lines, cur, g, rnd = [], list(accs), vl, 0
    while g > 1:
        h = g // 2
        lo = [base + ch * g + e for base in (0, vl) for ch in range(vl // g) for e in range(h)]
        nxt = []
        for p in range(0, len(cur), 2):
            name = f"{out}{rnd}_{p // 2}" if g > 2 else out
            a, b = cur[p], cur[p + 1]
            lines.append(f"const {vt} {name} = __builtin_shufflevector({a}, {b}, {', '.join(map(str, lo))}) + "
                         f"__builtin_shufflevector({a}, {b}, {', '.join(str(x + h) for x in lo)});")
            nxt.append(name)
        cur, g, rnd = nxt, h, rnd + 1
    return lines


# A vector kept in a register: GCC 12 otherwise folds one operand's loads
# into every FMA that uses it (4 x 4 dot products: 20 loads per 16 FMAs,
# 43 GFLOP/s on one Zen 4 core where 8 loads reach the FMA rate)
IN_REG = """#ifndef TVM_IN_REG
#if defined(__x86_64__) || defined(__i386__)
#define TVM_IN_REG(v) __asm__("" : "+v"(v))
#elif defined(__aarch64__)
#define TVM_IN_REG(v) __asm__("" : "+w"(v))
#else
#define TVM_IN_REG(v) ((void)0)
#endif
#endif"""


def dot_kernel(sh: _Shape, rows: int) -> tuple[str, str]:
    """(name, C function) computing ``rows`` x (vl / rows) dot products of
    length K: A's rows at ``a`` (stride ``ars``) against B's rows at ``b``
    (stride ``brs``), the first ``cn`` columns stored to ``out`` (row
    stride ``ostep``).  Each output is a vector of partial sums over K in
    K order, its lanes added by ``lane_sums``, then the scalar tail in K
    order: the same bits at any row count.  Not inlined, as the
    micro-kernel (its accumulators stay in registers)."""
    ct, vt, vl, st = sh.ct, sh.vt, sh.vl, sh.st
    cols = vl // rows
    fma = "__builtin_fmaf" if ct == "float" else "__builtin_fma"
    name = f"tvm_dot_{'f32' if ct == 'float' else 'f64'}{'_' + sh.element if sh.element else ''}_v{vl}_{rows}x{cols}"
    acc = [f"s{r}_{q}" for r in range(rows) for q in range(cols)]
    body = [IN_REG,
            f"static __attribute__((noinline)) void {name}(int64_t K, const {st}* restrict a, int64_t ars, "
            f"const {st}* restrict b, int64_t brs, int64_t cn, {ct}* restrict out, int64_t ostep, "
            f"const {st}* pf, int64_t pfr) {{",
            # columns past cn read the last one (valid memory), their sums dropped
            *[f"  const {st}* restrict b{q} = b + ({q} < cn ? {q} : cn - 1) * brs;" for q in range(cols)],
            "  " + " ".join(f"{vt} {x} = ({vt}){{0}};" for x in acc),
            f"  const int64_t kv = K / {vl} * {vl};",
            f"  for (int64_t k = 0; k < kv; k += {vl}) {{",
            *[f"    {sh.vector_read(f'x{r}_', f'a + {r} * ars + k')} {vt} x{r} = x{r}_; TVM_IN_REG(x{r});"
              for r in range(rows)],
            *[f"    {sh.vector_read(f'y{q}_', f'b{q} + k')} {vt} y{q} = y{q}_; TVM_IN_REG(y{q});"
              for q in range(cols)],
            *[f"    s{r}_{q} += x{r} * y{q};" for r in range(rows) for q in range(cols)],
            # one line of each of the pfr rows at pf (the next column block's B) per step
            "    for (int64_t p = 0; p < pfr; ++p) __builtin_prefetch(pf + p * brs + k, 0, 2);",
            "  }",
            *["  " + x for x in lane_sums(sh, acc, "t")],
            f"  for (int r = 0; r < {rows}; ++r)",
            "    for (int64_t q = 0; q < cn; ++q) {",
            f"      const {st}* restrict bq = b + q * brs;",
            f"      {ct} v = t[r * {cols} + q];",
            f"      for (int64_t k = kv; k < K; ++k) "
            f"v = {fma}({sh.scalar_read('a[r * ars + k]')}, {sh.scalar_read('bq[k]')}, v);",
            "      out[r * ostep + q] = v;",
            "    }",
            "}"]
    return name, "\n".join(body)
