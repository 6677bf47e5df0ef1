"""CPU target: kernels rendered as C functions over a range of workgroups,
built into one shared object per module by the system C compiler."""
from __future__ import annotations

import math
import os
import re
import subprocess
import tempfile

from tensorvm.vmfb.cpu_abi import (CLAIM_RUNNER_C, PACKET_RUNNER_C, RC_BINDING_SHORT, STATE_C,
                                   TEAM_RUNNER_C, declarator)
from tensorvm.vmfb.model import EntryPoint

from ..dialects.registry import CONDITIONAL, has
from ..errors import CompileError
from . import custom, gemm, scalar, vector_math
from ..host import native_loop, native_loop_c
from .c_style import (CStyleRenderer, contraction_operands, helper_chunks, helper_name,
                      output_stores, workgroup_tile)
from .cpu_targets import CpuTarget, resolve
from .body import BodyEmitter, contraction_epilogue, delinearize_decls
from .index_maps import split_inner_loop
from .cpu_body import BLEND_C, CpuBodyEmitter
from .cpu_column_reduce import column_reduction, column_reduction_loops
from .kernel import Kernel, contraction_plan, workgroup_plan

#: The dispatch state every entry point reads (vmfb/cpu_abi.py declares it).
ABI = STATE_C

# NaN-propagating max/min written as straight-line bit blends: with loop
# if-conversion off (the GCC 12 workaround) a branchy helper would stop every
# epilogue that uses it from vectorising.
_BRANCH_FREE_MINMAX = {
    f"static inline {t} tvm_f{op}{sfx}({t} a, {t} b) {{": (t, u, op, nan, sfx)
    for t, u, nan, sfx in (("float", "uint32_t", "0x7FC00000u", "f"),
                            ("double", "uint64_t", "0x7FF8000000000000ull", ""))
    for op in ("max", "min")
}


# scalar.py's min/max-against-a-constant selects, rewritten as bit masks
_SELECT = re.compile(r"static inline (float|double) (tvm_sel\w+)\(\1 a, \1 c\) \{ return (.*) \? a : c; \}")


def _cpu_helper(line: str):
    """The CPU's replacement of a one-line scalar.HELPERS helper: None drops
    it (vector_math.py's vectorisable exp / tanh / erf take its place), a
    select or min/max becomes branch-free; ``line`` itself where it stays."""
    if any(line.startswith(f"static inline float {n}(") for n in vector_math.NAMES):
        return None
    sel = _SELECT.match(line)
    if sel:          # the same pick as a mask: vectorises without if-conversion
        t, name, cond = sel.groups()
        u = "uint32_t" if t == "float" else "uint64_t"
        return (f"static inline {t} {name}({t} a, {t} c) {{ {u} x, y; memcpy(&x, &a, sizeof x); "
                f"memcpy(&y, &c, sizeof y); const {u} m = ({u})0 - ({u})({cond}); "
                f"const {u} r = (x & m) | (y & ~m); {t} o; memcpy(&o, &r, sizeof o); return o; }}")
    key = next((k for k in _BRANCH_FREE_MINMAX if line.startswith(k)), None)
    if key is None:
        return line
    t, u, op, nan, _ = _BRANCH_FREE_MINMAX[key]
    cmp = ">" if op == "max" else "<"
    keep = "&" if op == "max" else "|"     # equal values: +0 wins max, -0 wins min
    return (f"{key} {u} x, y; memcpy(&x, &a, sizeof x); memcpy(&y, &b, sizeof y); "
            f"const {u} pick = ({u})0 - ({u})(a {cmp} b), same = ({u})0 - ({u})(a == b), "
            f"bad = ({u})0 - ({u})((a != a) | (b != b)); "
            f"{u} r = (x & pick) | (y & ~pick); r = (r & ~same) | ((x {keep} y) & same); "
            f"r = (r & ~bad) | ({nan} & bad); {t} o; memcpy(&o, &r, sizeof o); return o; }}")


#: Whether ``have`` bytes hold ``bytes`` x the ``n`` dims of ``d`` (each >= 0,
#: no 64-bit overflow): the entry check of bindings with dynamic shapes.
BINDING_CHECK_C = """static inline int tvm_binding_short(uint64_t have, uint64_t bytes, int n, const int64_t* d) {
  for (int i = 0; i < n; ++i) {
    if (d[i] < 0 || (d[i] && bytes > UINT64_MAX / (uint64_t)d[i])) return 1;
    bytes *= (uint64_t)d[i];
  }
  return bytes > have;
}
"""


def prologue() -> str:
    """The C prologue of CPU kernels."""
    return CpuRenderer().prologue(True)


MR = 4      # rows of a contraction register block
NT = 256    # columns of a contraction tile (accumulators stay in L1)


def dynamic_binding_checks(kernel: Kernel) -> list[str]:
    """C statements returning RC_BINDING_SHORT when a binding with a dynamic
    shape is shorter than that shape at this call's dims (push constants):
    dims and buffers come from the host program, so verified bytecode with
    inconsistent ones fails the dispatch instead of reading out of bounds."""
    out = []
    for k, size, dyn in kernel.dynamic_bindings():
        dims = ", ".join(f"(int64_t)({d})" for d in dyn)
        out.append(f"  {{ const int64_t d[] = {{{dims}}}; if (tvm_binding_short("
                   f"st->binding_lengths[{k}], {size}u, {len(dyn)}, d)) return {RC_BINDING_SHORT}; }}")
    return out


class CpuRenderer(CStyleRenderer):
    """The CPU target of the C-style renderer: kernels are functions of the
    CPU dispatch ABI (vmfb/cpu_abi.py) that run workgroups [wg_begin,
    wg_end) one after the other on the calling thread; bindings and push
    constants come from the dispatch state, selects are blends
    (cpu_body.py), contractions take gemm.py's micro-kernel, direct
    convolutions cpu_conv.py's."""
    name = "cpu"
    emitter = CpuBodyEmitter
    kernel_end = ("  return 0;", "}")

    def __init__(self, vector_bytes: int = 32):
        self.vector_bytes = vector_bytes

    def prologue(self, needs_f64: bool) -> str:
        return ("#include <stdint.h>\n#include <string.h>\n#include <math.h>\n" + ABI
                + self.helpers(needs_f64) + vector_math.C + BLEND_C + BINDING_CHECK_C)

    def helper_overrides(self) -> dict:
        out = {}
        for chunk in helper_chunks(scalar.HELPERS):
            name, line = helper_name(chunk), chunk.split("\n")[0]
            if name is None:
                continue
            new = _cpu_helper(line)
            if new != line:
                out[name] = new
        return out

    def header(self, kernel, params) -> str:
        return declarator(kernel.name) + " {"

    def binding(self, k, name, pointer):
        return [], [f"  {pointer} restrict {name} = ({pointer})st->bindings[{k}];"]

    def constant_word(self, word: int) -> str:
        return f"st->constants[{word}]"

    def push_constant_decl(self, name: str, element: str, word: int) -> str:
        # floats from their bit patterns through memcpy (C has no bit cast)
        if element in ("f32", "f64"):
            ct, u, n = ("float", "uint32_t", 4) if element == "f32" else ("double", "uint64_t", 8)
            bits = self.constant_word(word) if n == 4 else \
                f"(((uint64_t){self.constant_word(word + 1)} << 32) | {self.constant_word(word)})"
            return f"  {ct} {name}; {{ const {u} u = {bits}; memcpy(&{name}, &u, {n}); }}"
        return super().push_constant_decl(name, element, word)

    def entry_checks(self, kernel) -> list:
        return dynamic_binding_checks(kernel)

    def each_workgroup(self) -> list:
        return ["  for (uint32_t wg = wg_begin; wg < wg_end; ++wg) {"]

    def first_item(self) -> list:
        return ["  if (wg_begin < wg_end) {"]

    def pointer_decls(self, kernel: Kernel, em: BodyEmitter) -> list[str]:
        """The set-up statements of ``params`` (the CPU has no parameters
        beyond its ABI's): what gemm.py and cpu_conv.py open kernels with."""
        return self.params(kernel, em)[1]

    def render_custom(self, kernel):
        # the user function has the entry-point ABI itself: the entry passes it on
        ck = kernel.custom
        src = f"/* custom kernel '{ck.name}' */\n{ck.source('cpu')}"
        fn = f"{declarator(kernel.name)} {{\n  return {ck.entry}(st, wg_begin, wg_end);\n}}"
        return [src], fn, ck.workgroup_count()

    def render_convolution(self, kernel):
        from .cpu_conv import render_convolution
        return render_convolution(kernel, self.vector_bytes, self.pointer_decls)

    def render_contraction(self, kernel):
        if gemm.applies(kernel):
            return gemm.render(kernel, self.vector_bytes, self.pointer_decls)
        return self.render_blocked_contraction(kernel)

    def render_loop(self, kernel: Kernel):
        """C source of a loop kernel and its workgroup count."""
        em = self.emitter({}, indent=4)
        head = [self.header(kernel, ())] + self.pointer_decls(kernel, em)
        shape = kernel.shape
        rpw, chunk, chunks, count = workgroup_plan(kernel)
        if not shape:
            return self.render_scalar_loop(kernel, em, head, count)
        out = head
        rows, inner = math.prod(shape[:-1]), shape[-1]
        if column_reduction(kernel, chunk):
            return em.decls, "\n".join(out + column_reduction_loops(kernel, em, rpw, chunk, chunks)), count
        idx = tuple(f"i{k}" for k in range(len(shape)))
        last = idx[-1]
        b = split_inner_loop([(op.operands[0].type.shape, op.result.type.shape)
                              for op in kernel.root.parent.operations if op.name == "stablehlo.reshape"],
                             inner, chunk) if type(inner) is int and type(chunk) is int else 0
        if b:
            em.factors[last] = (f"q{last}", f"p{last}", b)
        row_lines = em.hoist_out_of((last, f"q{last}", f"p{last}"), 2)    # per-row values
        vals = [em.value(v, idx) for v in kernel.outputs]
        stores = output_stores(em, kernel, vals, f"row * {inner} + {last}")
        out += self.each_workgroup()
        out += ["    " + x for x in workgroup_tile("wg", "", rpw, rows, chunk, chunks, inner)]
        out.append("    for (int64_t row = r0; row < r1; ++row) {")
        out += ["      " + s for s in delinearize_decls("row", shape[:-1], "i")]
        out += ["  " + line for line in row_lines]
        if b:       # the innermost index as q * b + p: a reshape merging dims reads runs of b
            out += [f"      for (int64_t q{last} = c0 / {b}; q{last} < c1 / {b}; ++q{last}) {{",
                    f"      for (int64_t p{last} = 0; p{last} < {b}; ++p{last}) {{",
                    f"        const int64_t {last} = q{last} * {b} + p{last};"]
        else:
            out.append(f"      for (int64_t {last} = c0; {last} < c1; ++{last}) {{")
        out += ["  " + line for line in em.lines]
        out += ["        " + s for s in stores]
        out += ["      }"] * (2 if b else 1) + ["    }", "  }", *self.kernel_end]
        return em.decls, "\n".join(out), count

    def render_blocked_contraction(self, kernel: Kernel):
        """Register-blocked batched matmul with the elementwise epilogue fused."""
        c = kernel.contraction
        em = self.emitter({}, indent=5)
        head = self.pointer_decls(kernel, em)
        ops = contraction_operands(c, em)
        ct, lhs, rhs, lsm, lsk, rsk, rsn, rows, st, _ = ops
        plan = contraction_plan(c)
        nt = min(NT, max(1, plan.cols)) if isinstance(plan.cols, int) else NT
        idx_decls, store = contraction_epilogue(em, kernel, "b", "(m + i)", "(n0 + j)", "acc[i][j]")
        rn = f"(n0 + j) * {rsn}" if rsn != 1 else "n0 + j"
        src = [self.header(kernel, ())]
        src += head
        src += [f"  {ct} acc[{MR}][{nt}];"]
        src += gemm.rectangle_loop(plan, rows, c.N)
        src += [
            "    for (int64_t r = r0; r < r1;) {",
            f"      const int64_t b = r / {c.M}, m = r % {c.M};",
            f"      int64_t nr = {MR};",
            "      if (nr > r1 - r) nr = r1 - r;",
            f"      if (nr > {c.M} - m) nr = {c.M} - m;",
            f"      const {st}* restrict lp = {lhs} + {c.batch_offset('lhs', 'b')} + m * {lsm};",
            f"      for (int64_t n0 = c0; n0 < c1; n0 += {nt}) {{",
            f"        const int64_t nn = c1 - n0 < {nt} ? c1 - n0 : {nt};",
            "        for (int64_t i = 0; i < nr; ++i) for (int64_t j = 0; j < nn; ++j) acc[i][j] = 0;",
            f"        if (nr == {MR}) {{",
            f"          for (int64_t k = 0; k < {c.K}; ++k) {{",
            f"            const {st}* restrict rp = {rhs} + {c.batch_offset('rhs', 'b')} + k * {rsk};",
        ]
        src += [f"            const {ct} a{i} = {ops.load(f'lp[{i} * {lsm} + k * {lsk}]')};" for i in range(MR)]
        src += [
            "            for (int64_t j = 0; j < nn; ++j) {",
            f"              const {ct} y = {ops.load(f'rp[{rn}]')};",
        ]
        src += [f"              acc[{i}][j] += a{i} * y;" for i in range(MR)]
        src += [
            "            }",
            "          }",
            "        } else {",
            "          for (int64_t i = 0; i < nr; ++i) {",
            f"            for (int64_t k = 0; k < {c.K}; ++k) {{",
            f"              const {st}* restrict rp = {rhs} + {c.batch_offset('rhs', 'b')} + k * {rsk};",
            f"              const {ct} a = {ops.load(f'lp[i * {lsm} + k * {lsk}]')};",
            f"              for (int64_t j = 0; j < nn; ++j) acc[i][j] += a * {ops.load(f'rp[{rn}]')};",
            "            }",
            "          }",
            "        }",
        ]
        src += _epilogue_loops(em, idx_decls, store)
        return em.decls, "\n".join(src), plan.count


def _epilogue_loops(em: BodyEmitter, idx_decls, store) -> list[str]:
    """The fused epilogue over the nr x nn accumulator tile, closing the
    row-block loops every contraction kernel opens."""
    out = ["        for (int64_t i = 0; i < nr; ++i) {", "          for (int64_t j = 0; j < nn; ++j) {"]
    out += ["            " + d for d in idx_decls]
    out += ["  " + line for line in em.lines]
    out += ["            " + store, "          }", "        }", "      }", "      r += nr;",
            "    }", "  }", "  return 0;", "}"]
    return out


# -- building ----------------------------------------------------------------------------
def cpu_format(target: CpuTarget | None = None) -> str:
    return (target or resolve()).format


_WORKAROUNDS: dict = {}
_FMA_CHAIN_FLAGS: dict = {}     # compiler -> its -mtune-ctrl flags (_workarounds)


#: What a kernel that reduces carries on GCC 12 (see ``_workarounds``).
NO_IF_CONVERT = '__attribute__((optimize("no-tree-loop-if-convert")))\n'


def if_convert_guard(kernel: Kernel, cc: str) -> str:
    """GCC 12's loop if-conversion + vectorizer gives wrong sums for a
    reduction over a select with an unknown or small outer trip count
    (``sum(where(m, x, y))`` over a 3-D loop nest; see docs/decisions.md).
    The kernels that reduce (a region-holding op, a sequential kind, a
    contraction over a select) are compiled without if-conversion; plain
    elementwise kernels keep it, so their selects (erf-GELU, masks) vectorise."""
    if not _is_gcc12(cc):
        return ""
    if kernel.kind not in ("loop", "contraction"):
        return NO_IF_CONVERT
    if kernel.contraction is not None and gemm.applies(kernel):
        return ""     # its sums run in the micro-kernels on buffers; selects only in the epilogue
    ops = kernel.root.parent.operations if kernel.root.parent is not None else [kernel.root]
    for op in ops:
        if op.regions or (kernel.contraction is not None and has(op.name, CONDITIONAL)):
            return NO_IF_CONVERT
    return ""


def _workarounds(cc: str, arch: str) -> list:
    """File-level flags for known compiler behaviours (GCC 12's if-conversion
    miscompile is handled per kernel, by ``if_convert_guard``): on x86-64,
    GCC's tuning for AMD Zen splits a loop's lone FMA chain into a multiply
    and an add (``avoid_fma*_chains``), so a one-row kernel's sums rounded
    differently from the micro-kernel's FMAs and a row's result depended on
    how many rows its call had (a batcher's merged call, a GEMV against a
    GEMM); kept whole wherever the compiler knows the tuning names."""
    if arch != "x86_64":
        return []
    if cc not in _FMA_CHAIN_FLAGS:
        names = []
        for name in ("avoid_fma_chains", "avoid_fma256_chains", "avoid_fma512_chains"):
            try:
                ok = subprocess.run([cc, f"-mtune-ctrl=^{name}", "-x", "c", "-fsyntax-only", os.devnull],
                                    capture_output=True, timeout=30).returncode == 0
            except (OSError, subprocess.SubprocessError):
                ok = False
            if ok:
                names.append(f"^{name}")
        _FMA_CHAIN_FLAGS[cc] = [f"-mtune-ctrl={','.join(names)}"] if names else []
    return _FMA_CHAIN_FLAGS[cc]



def _is_gcc12(cc: str) -> bool:
    if cc not in _WORKAROUNDS:
        try:
            out = subprocess.run([cc, "-dumpfullversion", "-dumpversion"], capture_output=True,
                                 text=True, timeout=30).stdout.strip()
            probe = subprocess.run([cc, "--version"], capture_output=True, text=True,
                                   timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            out, probe = "", ""
        _WORKAROUNDS[cc] = out.split(".")[0] == "12" and "clang" not in probe.lower()
    return _WORKAROUNDS[cc]


#: Generated C per parallel translation unit: a module with more is split and
#: its units compiled concurrently (GCC is single-threaded; on MobileNetV2's
#: 110 kernels one unit is 90% of the compile).
TU_BYTES = 96 * 1024


def compile_jobs() -> int:
    """C compiler processes to run at once: this process's CPUs, or
    ``TENSORVM_COMPILE_JOBS``."""
    env = os.environ.get("TENSORVM_COMPILE_JOBS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def build_shared_object(source, cpu="host", kernels=()) -> tuple[bytes, dict]:
    """(shared object bytes, recorded target) of ``source`` (C text, or a list
    of translation units compiled concurrently and linked) built for ``cpu``
    (a CpuTarget, or a --cpu name on this machine's architecture); a C error
    is put on the custom kernel of ``kernels`` (if any) whose source fails on
    its own."""
    target = cpu if isinstance(cpu, CpuTarget) else resolve("host", cpu)
    cc = target.compiler()
    units = [source] if isinstance(source, str) else list(source)
    # -nostartfiles: no crtbegin/crtend, so no frame_dummy constructor or
    # .init_array/.fini_array, which the loader's trust check refuses.
    flags = ["-O3", "-std=gnu11", "-fPIC", "-nostartfiles", "-fno-math-errno",
             "-fno-trapping-math", "-fvisibility=hidden", *target.flags, *_workarounds(cc, target.arch)]
    with tempfile.TemporaryDirectory(prefix="tensorvm-") as tmp:
        so_path = os.path.join(tmp, "kernels.so")
        c_paths = []
        for i, text in enumerate(units):
            c_paths.append(os.path.join(tmp, f"kernels{i}.c"))
            with open(c_paths[-1], "w") as f:
                f.write(text)
        if len(units) == 1:
            failed = _run_cc([[cc, *flags, "-shared", c_paths[0], "-o", so_path, "-lm"]], 1)
        else:
            objects = [c[:-2] + ".o" for c in c_paths]
            failed = _run_cc([[cc, *flags, "-c", c, "-o", o] for c, o in zip(c_paths, objects)],
                             compile_jobs())
            if failed is None:
                failed = _run_cc([[cc, *flags, "-shared", *objects, "-o", so_path, "-lm"]], 1)
        if failed is not None:
            bad = custom.culprit(kernels, prologue(), cc, target.flags)
            if bad is not None:
                from ..custom_kernels import CustomKernelError
                raise CustomKernelError(bad[0].name, "its C source does not compile:\n" + bad[1])
            raise CompileError(f"C compiler failed on generated kernels for {target.arch} "
                               f"({' '.join([cc, *target.flags])}...):\n" + failed[-4000:])
        with open(so_path, "rb") as f:
            return f.read(), target.record()


def _run_cc(commands, jobs: int) -> str | None:
    """Run the compiler ``commands``, ``jobs`` at a time; the stderr of the
    first that fails (the rest are stopped), or None."""
    pending, running, failed = list(commands), [], None
    try:
        while (pending or running) and failed is None:
            while pending and len(running) < jobs:
                running.append(subprocess.Popen(pending.pop(0), stdout=subprocess.DEVNULL,
                                                stderr=subprocess.PIPE, text=True))
            proc = running.pop(0)
            err = proc.communicate()[1]
            if proc.returncode != 0:
                failed = err or f"exit status {proc.returncode}"
    finally:
        for proc in running:
            proc.kill()
            proc.communicate()
    return failed


def kernel_signature(name: str) -> str:
    """The C declarator of kernel ``name`` (the loader's entry point ABI)."""
    return declarator(name)


def translation_units(prologue_text: str, units: list, budget: int | None = None,
                      jobs: int | None = None) -> list[str]:
    """The C text of each translation unit for ``units``, a list of (decls,
    functions) that must stay together: at most ``jobs`` units of about equal
    size, one per ``budget`` bytes started (one for a module under it)."""
    sizes = [sum(map(len, funcs)) for _, funcs in units]
    n = min(jobs or compile_jobs(), len(units), max(1, -(-sum(sizes) // (budget or TU_BYTES))))
    bins = [[] for _ in range(max(1, n))]
    load = [0] * len(bins)
    for i in sorted(range(len(units)), key=lambda i: -sizes[i]):   # largest first
        j = load.index(min(load))
        bins[j].append(i)
        load[j] += sizes[i]
    out = []
    for members in bins:
        if not members:
            continue
        members.sort()                     # keep the module's order inside a unit
        decls, funcs = [], []
        seen = set()
        for i in members:
            decls += [x for x in units[i][0] if not (x in seen or seen.add(x))]
            funcs += units[i][1]
        out.append(prologue_text + "\n".join(decls) + "\n\n" + "\n\n".join(funcs) + "\n")
    return out


def build_cpu_executable(kernels: list[Kernel], cpu="host", loops=(), entry_of=None):
    """(shared object bytes, target, entry points, workgroup counts of the
    kernels, C source) for ``cpu`` (a CpuTarget or a --cpu name); ``loops`` (native_loop.NativeLoop) add one entry point each, after
    the kernels, calling the kernels of their body (``entry_of``: id(dispatch)
    -> kernel index)."""
    counts, entries = [], []
    target = cpu if isinstance(cpu, CpuTarget) else resolve("host", cpu)
    renderer = CpuRenderer(target.vector_bytes)
    rendered = []                        # per kernel: (decls, function)
    cc = target.compiler()
    for k in kernels:
        d, f, n = renderer.render_kernel(k)
        rendered.append((d, "__attribute__((visibility(\"default\")))\n" + if_convert_guard(k, cc) + f))
        counts.append(n)
        entries.append(EntryPoint(k.name, k.num_bindings, k.num_constant_words))
    groups = [(list(d), [f]) for d, f in rendered]     # one unit item per kernel
    for lp in loops:
        # A loop reaches its kernels through prototypes: they may sit in other
        # translation units (a greedy-decoding loop calls every kernel of the
        # model; sharing one unit made its C compile serial).
        body = sorted({entry_of[id(d)] for d in lp.dispatches})
        protos = [kernel_signature(kernels[i].name) + ";" for i in body]
        groups.append(([native_loop_c.PRELUDE_C, *protos], [
            "__attribute__((visibility(\"default\")))\n" + native_loop.render_native_loop(
                lp, lambda d: kernels[entry_of[id(d)]].name, lambda d: counts[entry_of[id(d)]])]))
        entries.append(EntryPoint(lp.name, native_loop.binding_count(lp),
                                  native_loop.constant_word_count(lp), loop_stats=True))
    groups.append(([], [PACKET_RUNNER_C, CLAIM_RUNNER_C, TEAM_RUNNER_C]))   # replays, splits, teams (cpu_abi.py)
    pro = prologue()
    units = translation_units(pro, groups)
    data, record = build_shared_object(units, target, kernels)
    return data, record, entries, counts, "".join(
        f"/* ---- translation unit {i + 1} of {len(units)} ---- */\n{u}" if len(units) > 1 else u
        for i, u in enumerate(units))
