"""GPU kernel rendering shared by OpenCL C and CUDA C.

One thread block (OpenCL work-group) runs per tensorvm workgroup; loop
kernels size the grid from the problem (``workgroup_plan`` with the GPU
budget, grids.py: the host code picks the GPU variants' counts), reductions
take a work-group per output (gpu_reduce.py), contractions and
convolutions keep the CPU's ``contraction_plan`` / ``convolution_plan``.  Inside a block the threads stride over the workgroup's tile of
the iteration space: loop kernels over its rows x columns, contractions over
its rows x N outputs in tiles staged through local/shared memory (each
thread a small register tile plus the fused epilogue; ``_contraction``),
sequential kinds on one thread.  Dynamic dims arrive as the CPU's i64 push
constants ``sN``, after the scalar ones.

``GpuTarget`` is the GPU form of c_style.py's one C-style renderer: it
sets the spellings GPU dialects share and renders the GPU plans; what
differs between the dialects (qualifiers, address spaces, index built-ins,
prologue, helper overrides) ``opencl.py`` and ``cuda.py`` set as data.
Kernel parameters follow the dialect's ``abi``, declared once in
vmfb/gpu_abi.py for the drivers too: the bindings as pointers (inputs
const), then -- where the ABI has binding offsets (OpenCL cannot offset a
cl_mem on the host) -- one byte offset per binding, then the push
constants as 32-bit words.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

from tensorvm.vmfb import gpu_abi

from . import gpu_mma, scalar
from .c_style import CStyleRenderer, contraction_operands, output_stores, workgroup_tile
from .grids import GPU_MARKER, GPU_WORK
from .gpu_reduce import find_tree_reduction, render_tree_reduction
from .body import BodyEmitter, contraction_epilogue, delinearize_decls, fused_store
from ..ir.symbolic import Dim
from .kernel import DYNAMIC_GUESS, Kernel, contraction_plan, workgroup_plan


class GpuTarget(CStyleRenderer):
    """The GPU dialects' common data and plans; subclasses override attributes."""
    name = "gpu"
    format = ""
    kernel_qualifier = "__kernel void"
    global_space = "__global "
    restrict = "restrict"
    group_id = "get_group_id(0)"
    local_id = "get_local_id(0)"
    local_size = "get_local_size(0)"
    abi = gpu_abi.OPENCL    # the kernel-argument layout (vmfb/gpu_abi.py)
    helper_qualifier = "static inline"
    table_prefix = "__constant "
    local_size_hint = 64
    f64_only = ()           # helpers that cannot be narrowed to float
    shared_space = "__local "
    barrier = "barrier(CLK_LOCAL_MEM_FENCE);"
    # Defined by the driver when it builds for a CPU device: contractions then
    # take their barrier-free vector form (gpu_gemm.py), others the tiled one.
    cpu_device_macro = None
    workgroup = "g_wg"

    # -- vectors (per-thread SIMD; widths () where a thread is scalar) ----------------
    # Matrix units (gpu_mma.py): the shared-array alignment their fragment
    # loads need, and per operand element the preprocessor condition under
    # which the device has them (None: it never does).
    mma_align = ""

    def mma_guard(self, element: str):
        return None

    def vector_widths(self, ctype: str) -> tuple:
        """Vector widths a thread may compute in for ``ctype``, widest first."""
        return ()

    def vector_type(self, ctype: str, width: int) -> str:
        return ctype if width == 1 else f"{ctype}{width}"

    def vector_splat(self, ctype: str, width: int, value: str) -> str:
        return value if width == 1 else f"(({ctype}{width})({value}))"

    def vector_load(self, width: int, pointer: str) -> str:
        return f"*({pointer})" if width == 1 else f"vload{width}(0, {pointer})"

    def vector_store(self, width: int, value: str, pointer: str) -> str:
        return f"*({pointer}) = {value};" if width == 1 else f"vstore{width}({value}, 0, {pointer});"

    def vector_sum(self, width: int, value: str) -> str:
        """The sum of a vector's lanes (pairwise)."""
        lanes = [f"{value}.s{k:x}" for k in range(width)] if width > 1 else [value]
        while len(lanes) > 1:
            lanes = [f"({a} + {b})" for a, b in zip(lanes[::2], lanes[1::2])]
        return lanes[0]

    # -- bindings: pointers (OpenCL: plus byte offsets), then push-constant words -------
    def binding(self, k, name, pointer):
        rs = self.restrict
        if not self.abi.binding_offsets:
            return [f"{pointer} {rs} {name}"], []
        cbyte = f"{self.global_space}{'const ' if 'const' in pointer else ''}uint8_t*"
        off = self.abi.offset_name(name)
        return [f"{pointer} {rs} {name}_base"], [
            f"  {pointer} {rs} {name} = ({pointer})(({cbyte}){name}_base + {off});"]

    def binding_tail(self, names) -> list:
        abi = self.abi
        return [f"{abi.offset_ctype} {abi.offset_name(n)}" for n, _ in names] if abi.binding_offsets else []

    def constant_word(self, word: int) -> str:
        return self.abi.constant_name(word)

    def constant_params(self, words: int) -> list:
        return [f"{self.abi.constant_ctype} {self.constant_word(i)}" for i in range(words)]

    def bitcast_f32(self, bits: str) -> str:
        return f"as_float((uint32_t){bits})"

    def bitcast_f64(self, bits: str) -> str:
        return f"as_double({bits})"

    def each_workgroup(self) -> list:
        return self._ids() + ["  if (g_lid == 0) {"]

    def first_item(self) -> list:
        return self._ids() + ["  if (g_wg == 0 && g_lid == 0) {"]

    def render_sequential(self, kernel):
        from .gpu_sort import render_parallel
        return render_parallel(self, kernel) or super().render_sequential(kernel)

    def render_attention(self, kernel):
        from .gpu_attention import render_tiled
        return render_tiled(self, kernel) or super().render_attention(kernel)

    def render_contraction(self, kernel):
        tiled = self._contraction(kernel)
        el = kernel.contraction.op.result.type.element
        if self.cpu_device_macro is None or not self.vector_widths(scalar.ctype(el)):
            return tiled
        from .gpu_gemm import render_contraction
        decls, source, count = render_contraction(self, kernel)
        return (tiled[0] + [d for d in decls if d not in tiled[0]],
                f"#ifdef {self.cpu_device_macro}\n{source}\n#else\n{tiled[1]}\n#endif", count)

    def render_convolution(self, kernel):
        from .gpu_conv import render_convolution
        return render_convolution(self, kernel)

    def render_loop(self, kernel):
        red = find_tree_reduction(kernel)
        tree = render_tree_reduction(self, kernel, red) if red is not None else None
        return tree or self._loop(kernel)

    def _ids(self):
        return [f"  const int64_t g_wg = (int64_t){self.group_id};",
                f"  const int64_t g_lid = (int64_t){self.local_id};",
                f"  const int64_t g_lsz = (int64_t){self.local_size};"]

    def _loop(self, kernel: Kernel):
        em = BodyEmitter({}, indent=2)
        params, setup = self.params(kernel, em)
        shape = kernel.shape
        rpw, chunk, chunks, count = workgroup_plan(kernel, GPU_WORK)
        head = [self.header(kernel, params)] + setup
        if not shape:
            return self.render_scalar_loop(kernel, em, head, count)
        rows, inner, last = math.prod(shape[:-1]), shape[-1], len(shape) - 1
        idx = tuple(f"i{k}" for k in range(len(shape)))
        vals = [em.value(v, idx) for v in kernel.outputs]
        out = head + self._ids()
        out += ["  " + x for x in workgroup_tile("g_wg", "g_", rpw, rows, chunk, chunks, inner)]
        out += [
            # whole rows: the width is a constant, so no division per element
            f"  const int64_t g_w = {inner if chunks == 1 else 'g_c1 - g_c0'};",
            "  const int64_t g_n = g_r1 > g_r0 && g_w > 0 ? (g_r1 - g_r0) * g_w : 0;",
        ]
        rowdecls = ["    " + s for s in delinearize_decls("row", shape[:-1], "i")]
        strided = ["  for (int64_t g_t = g_lid; g_t < g_n; g_t += g_lsz) {",
                   "    const int64_t row = g_r0 + g_t / g_w;", *rowdecls,
                   f"    {{ const int64_t i{last} = g_c0 + g_t % g_w;"]
        if self.cpu_device_macro is None:
            out += strided
        else:
            # one contiguous run per work-item, walked row segment by row
            # segment: the multi-index is computed once per row and the inner
            # loop runs over consecutive elements, which the device compiler
            # vectorises like any loop over an array
            out += [f"#ifdef {self.cpu_device_macro}",
                    "  const int64_t g_per = (g_n + g_lsz - 1) / g_lsz, g_t0 = g_lid * g_per;",
                    "  const int64_t g_t1 = g_t0 + g_per < g_n ? g_t0 + g_per : g_n;",
                    "  for (int64_t g_t = g_t0; g_t < g_t1;) {",
                    "    const int64_t row = g_r0 + g_t / g_w, g_s0 = g_t % g_w;",
                    "    const int64_t g_s1 = g_s0 + (g_t1 - g_t) < g_w ? g_s0 + (g_t1 - g_t) : g_w;",
                    "    g_t += g_s1 - g_s0;", *rowdecls,
                    f"    for (int64_t i{last} = g_c0 + g_s0; i{last} < g_c0 + g_s1; ++i{last}) {{",
                    "#else", *strided, "#endif"]
        out += em.lines
        out += ["    " + s for s in output_stores(em, kernel, vals, f"row * {inner} + i{last}")]
        return em.decls, "\n".join(out + ["  }}", "}"]), count

    def _contraction(self, kernel: Kernel):
        """Tiled contraction: the workgroup's rows x N outputs in TM x TN
        tiles, each computed by ``staged_product`` (A and B tiles staged in
        local / shared memory per K step, an RM x RN register tile per
        thread), then the fused epilogue.  The tile shape assumes
        ``local_size_hint`` threads; a driver that caps the local size below
        it gets the one-output-per-thread loop."""
        c = kernel.contraction
        L = self.local_size_hint
        plan = contraction_plan(c)
        rpw, count = plan.rows, plan.count
        item = 8 if c.op.result.type.element == "f64" else 4
        rows = c.B * c.M
        tiling = register_tiling(item, rpw if isinstance(rows, Dim) else min(rpw, rows), plan.cols, L)
        tm, tn = tiling.tm, tiling.tn
        em = BodyEmitter({}, indent=4)
        params, setup = self.params(kernel, em)
        simple = self._contraction_loop(kernel, BodyEmitter({}, indent=2), indent=2)
        ops = contraction_operands(c, em)
        ct, lhs, rhs, lsm, lsk, rsk, rsn, rows, st, _ = ops
        decls, store = contraction_epilogue(em, kernel, "g_b", "(g_m + g_i)", "g_col", "g_c[g_ri][g_rj]")
        gs = self.global_space
        kin = "" if isinstance(c.K, int) and c.K % _TK == 0 else f" && g_k0 + g_kk < {c.K}"
        nfull = isinstance(c.N, int) and c.N % tn == 0 and plan.cols % tn == 0
        nin = "" if nfull else f"g_n0 + g_jj < g_c1{kin}"
        nin = f"{nin} ? " if nin else ("" if not kin else f"g_k0 + g_kk < {c.K} ? ")
        zero = scalar.literal(c.accumulator_element, 0)
        a_load = (f"g_As[g_kk][g_ii] = g_ii < g_nr{kin} ? "
                  f"{ops.load(f'g_lp[g_ii * {lsm} + (g_k0 + g_kk) * {lsk}]')} : {zero};")
        b_load = (f"g_Bs[g_kk][g_jj] = {nin}{ops.load(f'g_rp[(g_k0 + g_kk) * {rsk} + (g_n0 + g_jj) * {rsn}]')}"
                  f"{f' : {zero}' if nin else ''};")
        body = [
            *_workgroup_block(plan, rows, c.N),
            "  for (int64_t g_r = g_r0; g_r < g_r1;) {",
            f"    const int64_t g_b = g_r / {c.M}, g_m = g_r % {c.M};",
            f"    int64_t g_nr = g_r1 - g_r < {tm} ? g_r1 - g_r : {tm};",
            f"    if (g_nr > {c.M} - g_m) g_nr = {c.M} - g_m;",
            f"    {gs}const {st}* g_lp = {lhs} + {c.batch_offset('lhs', 'g_b')} + g_m * {lsm};",
            f"    {gs}const {st}* g_rp = {rhs} + {c.batch_offset('rhs', 'g_b')};",
            f"    for (int64_t g_n0 = g_c0; g_n0 < g_c1; g_n0 += {tn}) {{",
            *staged_product(self, tiling, ct, zero, c.K, a_load, lsk == 1, b_load),
            "          if (g_i < g_nr && g_col < g_c1) {",
        ]
        body += ["            " + d for d in decls]
        body += ["    " + line for line in em.lines]
        body += ["            " + store, "          }", "        }", "      }", "    }",
                 "    g_r += g_nr;", "  }"]
        body = [tiling.declare(self, ct, lsk == 1)] + body
        out = [self.header(kernel, params)] + setup + self._ids()
        out += [f"  if (g_lsz != {L}) {{"] + ["  " + x for x in simple[1]] + ["    return;", "  }"]
        decls = em.decls + simple[0]
        if gpu_mma.applies(self, kernel):
            # matrix units where the device has them, this kernel where not
            mdecls, mbody = gpu_mma.render(self, kernel)
            decls += [d for d in mdecls if d not in decls]
            body = [f"#if {self.mma_guard(c.operand_element)}", *mbody, "#else", *body, "#endif"]
        out += body + ["}"]
        return decls, "\n".join(out), count

    def _contraction_loop(self, kernel: Kernel, em: BodyEmitter, indent: int = 0):
        """(decls, statements): each thread one output's full dot product plus
        the fused epilogue, threads striding the workgroup's rows x N."""
        c = kernel.contraction
        self.params(kernel, em)
        ops = contraction_operands(c, em)
        ct, lhs, rhs, lsm, lsk, rsk, rsn, rows, st, _ = ops
        plan = contraction_plan(c)
        bsz, msz, nsz = c.out_groups
        decls = (delinearize_decls("g_b", bsz, "e", 0) + delinearize_decls("g_m", msz, "e", len(bsz))
                 + delinearize_decls("g_nc", nsz, "e", len(bsz) + len(msz)))
        idx = tuple(f"e{k}" for k in range(len(bsz) + len(msz) + len(nsz)))
        store = fused_store(em, kernel, c.op.result, idx, scalar.rounded(c.op.result.type.element, "g_acc"))
        gs = self.global_space
        out = [
            *_workgroup_block(plan, rows, c.N),
            "  const int64_t g_w = g_c1 - g_c0;",
            "  const int64_t g_n = g_r1 > g_r0 && g_w > 0 ? (g_r1 - g_r0) * g_w : 0;",
            "  for (int64_t g_t = g_lid; g_t < g_n; g_t += g_lsz) {",
            "    const int64_t g_r = g_r0 + g_t / g_w, g_nc = g_c0 + g_t % g_w;",
            f"    const int64_t g_b = g_r / {c.M}, g_m = g_r % {c.M};",
            f"    {gs}const {st}* g_lp = {lhs} + {c.batch_offset('lhs', 'g_b')} + g_m * {lsm};",
            f"    {gs}const {st}* g_rp = {rhs} + {c.batch_offset('rhs', 'g_b')} + g_nc * {rsn};",
            f"    {ct} g_acc = {scalar.literal(c.accumulator_element, 0)};",
            f"    for (int64_t g_k = 0; g_k < {c.K}; ++g_k) "
            f"g_acc += {ops.load(f'g_lp[g_k * {lsk}]')} * {ops.load(f'g_rp[g_k * {rsk}]')};",
        ]
        out += ["    " + d for d in decls] + em.lines + ["    " + store, "  }"]
        return em.decls, out

    # -- whole program ---------------------------------------------------------------------
    def render_program(self, kernels: list):
        """(source, workgroup counts, needs_f64) for all kernels of a module."""
        needs_f64 = any(_uses_f64(k) for k in kernels)
        rendered = [self.render_kernel(k) for k in kernels]
        decls = self.program_decls(d for d, _, _ in rendered)
        funcs = [f for _, f, _ in rendered]
        counts = [n for _, _, n in rendered]
        funcs.append(f"{self.kernel_qualifier} {GPU_MARKER}(void) {{}}")   # grids.py
        source = (self.prologue(needs_f64) + self.helpers(needs_f64) + "\n".join(decls)
                  + "\n\n" + "\n\n".join(funcs) + "\n")
        return self.finish(source, needs_f64), counts, needs_f64


_TK = 16                  # K step of the staged tiles
_MAX_REGISTER_TILE = 16   # accumulators per thread
_MAX_SHARED_BYTES = 16384  # staged A + B tiles (OpenCL 1.2 guarantees 32 KiB of local memory)


def _stage(outer: str, n_outer: int, inner: str, n_inner: int, threads: int, stmt: str) -> list:
    """Loops copying an n_outer x n_inner tile with ``threads`` threads,
    consecutive threads on consecutive ``inner``; sizes are powers of two
    (or ``n_inner`` a multiple of ``threads``), so no division per element."""
    ind = "        "
    if n_inner >= threads:
        return [f"{ind}for (int {outer} = 0; {outer} < {n_outer}; ++{outer}) {{",
                f"{ind}  for (int {inner} = (int)g_lid; {inner} < {n_inner}; {inner} += {threads}) {{",
                f"{ind}    {stmt}", f"{ind}  }}", f"{ind}}}"]
    return [f"{ind}for (int {outer} = (int)g_lid / {n_inner}; {outer} < {n_outer}; "
            f"{outer} += {threads // n_inner}) {{",
            f"{ind}  const int {inner} = (int)g_lid % {n_inner};",
            f"{ind}  {stmt}", f"{ind}}}"]


def _workgroup_block(plan, rows, n) -> list:
    """C declarations of workgroup ``g_wg``'s output block under the
    contraction plan: rows [g_r0, g_r1) of B*M, columns [g_c0, g_c1)."""
    rpw, cpw, rb = plan.rows, plan.cols, plan.row_blocks
    if plan.col_blocks == 1:
        return [f"  const int64_t g_r0 = g_wg * {rpw};",
                f"  const int64_t g_r1 = g_r0 + {rpw} < {rows} ? g_r0 + {rpw} : {rows};",
                f"  const int64_t g_c0 = 0, g_c1 = {n};"]
    return [f"  const int64_t g_r0 = (g_wg % {rb}) * {rpw}, g_c0 = (g_wg / {rb}) * {cpw};",
            f"  const int64_t g_r1 = g_r0 + {rpw} < {rows} ? g_r0 + {rpw} : {rows};",
            f"  const int64_t g_c1 = g_c0 + {cpw} < {n} ? g_c0 + {cpw} : {n};"]


class Tiling(NamedTuple):
    """Threads TX x TY, each an RM x RN register tile of a TM x TN block tile."""
    tx: int
    ty: int
    rm: int
    rn: int

    @property
    def tm(self) -> int:
        return self.ty * self.rm

    @property
    def tn(self) -> int:
        return self.tx * self.rn

    def declare(self, target, ct: str, a_along_k: bool) -> str:
        """The staged tiles and the thread's (g_tx, g_ty); an A tile staged
        along K gets a padding column against bank conflicts."""
        sh, apad = target.shared_space, 1 if a_along_k and self.tm % 2 == 0 else 0
        return (f"  {sh}{ct} g_As[{_TK}][{self.tm + apad}];\n  {sh}{ct} g_Bs[{_TK}][{self.tn}];\n"
                + ("  const int g_tx = (int)g_lid, g_ty = 0;" if self.ty == 1 else
                   f"  const int g_tx = (int)(g_lid % {self.tx}), g_ty = (int)(g_lid / {self.tx});"))


def register_tiling(item: int, rows, cols, threads: int) -> Tiling:
    """The Tiling minimising the per-thread cost of covering ``rows`` x
    ``cols`` outputs (either may be symbolic) with TM x TN tiles: FMAs +
    local-memory reads per k, plus tile staging; TX a power of two, TX * TY
    = ``threads``, tiles of at most 16 KiB of ``item``-byte elements."""
    r = DYNAMIC_GUESS if isinstance(rows, Dim) else max(1, rows)
    n = DYNAMIC_GUESS if isinstance(cols, Dim) else max(1, cols)
    best = None
    tx = 1
    while tx <= threads:
        ty = threads // tx
        for rm in (1, 2, 4, 8):
            for rn in (1, 2, 4):
                tm, tn = ty * rm, tx * rn
                if rm * rn > _MAX_REGISTER_TILE or (tm + 1 + tn) * _TK * item > _MAX_SHARED_BYTES:
                    continue
                passes = -(-r // tm) * -(-n // tn)
                # A reads are broadcasts when all threads share the rows (ty == 1)
                cost = passes * (rm * rn + rn + rm * (1 if ty == 1 else 3)
                                 + 2 * (tm + tn) / threads)
                key = (cost, -rm * rn)
                if best is None or key < best[0]:
                    best = (key, Tiling(tx, ty, rm, rn))
        tx *= 2
    return best[1]


def staged_product(target, t: Tiling, ct: str, zero: str, K, a_stmt: str, a_along_k: bool,
                   b_stmt: str) -> list:
    """Statements computing a TM x TN block tile into each thread's
    ``g_c[RM][RN]`` over K: per step of _TK the block stages A (statement
    ``a_stmt`` setting ``g_As[g_kk][g_ii]`` for tile row ``g_ii`` and step
    column ``g_kk``, consecutive threads along K where ``a_along_k``) and B
    (``b_stmt`` setting ``g_Bs[g_kk][g_jj]``, tile column ``g_jj``), then each
    thread accumulates rows ty + i*TY, columns tx + j*TX (consecutive
    threads read and write consecutive columns).  Ends inside the loops
    over the register tile with ``g_i`` (tile row) and ``g_col`` (column,
    from ``g_n0``) declared: the caller writes the epilogue and closes
    three braces."""
    L = target.local_size_hint
    out = [f"      {ct} g_c[{t.rm}][{t.rn}];"]
    out += [f"      g_c[{i}][{j}] = {zero};" for i in range(t.rm) for j in range(t.rn)]
    out.append(f"      for (int64_t g_k0 = 0; g_k0 < {K}; g_k0 += {_TK}) {{")
    # consecutive threads stage consecutive elements in global memory
    out += (_stage("g_ii", t.tm, "g_kk", _TK, L, a_stmt) if a_along_k
            else _stage("g_kk", _TK, "g_ii", t.tm, L, a_stmt))
    out += _stage("g_kk", _TK, "g_jj", t.tn, L, b_stmt)
    out += [f"        {target.barrier}", "#pragma unroll",
            f"        for (int g_kk = 0; g_kk < {_TK}; ++g_kk) {{"]
    out += [f"          const {ct} g_a{i} = g_As[g_kk][{i if t.ty == 1 else f'g_ty + {i * t.ty}'}];"
            for i in range(t.rm)]
    out += [f"          const {ct} g_y{j} = g_Bs[g_kk][g_tx + {j * t.tx}];" for j in range(t.rn)]
    out += [f"          g_c[{i}][{j}] += g_a{i} * g_y{j};" for i in range(t.rm) for j in range(t.rn)]
    return out + [
        "        }", f"        {target.barrier}", "      }",
        "#pragma unroll", f"      for (int g_ri = 0; g_ri < {t.rm}; ++g_ri) {{",
        "#pragma unroll", f"        for (int g_rj = 0; g_rj < {t.rn}; ++g_rj) {{",
        f"          const int64_t g_i = g_ty + g_ri * {t.ty}, g_col = g_n0 + g_tx + g_rj * {t.tx};",
    ]


def _uses_f64(kernel: Kernel) -> bool:
    if kernel.custom is not None and any(re.search(r"\bdouble\b", s)
                                         for s in kernel.custom.sources.values()):
        return True                     # never narrow the user's doubles
    values = list(kernel.inputs) + list(kernel.outputs) + list(getattr(kernel, "constants", None) or ())
    block = getattr(kernel.root, "parent", None)
    for op in getattr(block, "operations", ()) or ():
        for o in op.walk():
            values += o.results
            for region in o.regions:
                for b in region.blocks:
                    values += b.arguments
    return any(getattr(v.type, "element", None) in ("f64", "complex<f64>") for v in values)
