"""CPU GEMM kernels for few rows per batch: no packing, B read once.

A product with few rows per batch (a decode step's projections, a
classifier head, a batcher's small merged call) gains nothing from packing
B and is bound by reading it: these kernels stream B once for all the
call's rows, each output one FMA chain along K in K order where B's rows
are contiguous (the packed micro-kernel's bits, so a row's result does not
depend on how many rows its call has).  ``gemm.render`` picks them; they
fill the per-thread accumulator block ``cc`` (row stride ``step``) that
its fused epilogue reads.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .gemm import _Shape

GEMV_ROWS = 4  # fewer rows per batch than this: the unpacked row kernel
GEMV_STREAM_BYTES = 1 << 20  # B at least this big, rows contiguous: gemv_stream instead,
GEMV_STREAM_ROWS = 9  # for fewer rows per batch than this (all in one pass over B),
GEMV_COLS = 8192  # this many columns per block,
GEMV_KT = 8  # and this many rows of B side by side (4: 0.45-0.56 ms on 1x768x3072 from DRAM, 8: 0.41)


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
                "            for (int64_t i = 0; i < mb; ++i) {",
                f"              {vt} s; memcpy(&s, cc + i * step + j, {vb}); {vec} memcpy(cc + i * step + j, &s, {vb});",
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
    path's bits --, across K when its columns are)."""
    ct, vt, vl, vb = sh.ct, sh.vt, sh.vl, sh.vb
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
    if rsk == 1 and lsk == 1:
        # columns per pass, one K-vector chain each: 16 where 32 vector registers
        # hold them (a tied LM head from DRAM on one Zen 4 core: 17 -> 22 GB/s)
        w = 16 if sh.vb >= 64 else 8
        kv = K // vl * vl
        out = [
            "        int64_t j = 0;",
            f"        for (; j + {w} <= nb; j += {w}) {{",
            "          " + " ".join(f"{vt} s{q} = ({vt}){{0}};" for q in range(w)),
            f"          const {st}* restrict p = lb + (n0 + j) * {rsn};",
            f"          for (int64_t k = 0; k < {kv}; k += {vl}) {{",
            f"            {sh.vector_read('x', 'la + k')}",
        ]
        out += [f"            {{ {sh.vector_read('y', f'p + {q} * {rsn} + k')} s{q} += x * y; }}"
                for q in range(w)]
        out += ["          }"]
        for q in range(w):
            lanes = " + ".join(f"s{q}[{e}]" for e in range(vl))
            out.append(f"          {{ {ct} t = {lanes}; for (int64_t k = {kv}; k < {K}; ++k) "
                       f"t += {L('la[k]')} * {L(f'p[{q} * {rsn} + k]')}; cc[j + {q}] = t; }}")
        out += [
            "        }",
            "        for (; j < nb; ++j) {",
            f"          const {st}* restrict p = lb + (n0 + j) * {rsn};",
            f"          {ct} s[4] = {{0}};",
            f"          for (int64_t k = 0; k < {K}; ++k) s[k & 3] += {L('la[k]')} * {L('p[k]')};",
            "          cc[j] = (s[0] + s[1]) + (s[2] + s[3]);",
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
