"""GPU loops: a qualifying ``stablehlo.while`` runs as ONE kernel launch on
OpenCL and CUDA devices (the GPU form of host/native_loop.py's entry point).

A loop's plan (which loops qualify, the two-half scratch, in-place updates,
the bindings) is native_loop.py's, shared with the CPU variants; this module
only renders it for a GPU dialect.  The entry point is a persistent
single-block kernel, launched as one workgroup:

* every item runs the same host scalar code (private copies of the same
  values: the control flow is uniform, so barriers are legal everywhere);
* a dispatch of the body becomes a loop over its workgroups calling the
  kernel's *step* function -- the kernel rendered by the dialect's own plan
  with the workgroup id as a parameter (``group_id`` = ``tvm_wg``) -- so the
  block's items run each workgroup's body in turn; a barrier with global and
  local fences follows each dispatch (and separates the workgroups of a
  kernel that uses local memory);
* local/shared arrays a plan declares (tree reductions, staged tiles, sort
  and attention blocks) are carved out of one arena the loop kernel declares
  (OpenCL allows ``__local`` variables at kernel scope only);
* copies (carried values, in-place ``dynamic_update_slice``, results) are
  strided over the items, then a barrier;
* a device scalar the host branches on is a plain load after the barrier;
* on CPU devices (``TVM_CPU_DEVICE``) the kernel declares one item
  (``reqd_work_group_size``, which the OpenCL loader honours) and its
  barriers are empty: PoCL would run the items in turn anyway.

The entry keeps the CPU entry's name and binding layout, so the host code's
run-time choice (``executable.has_entry``) is unchanged.  A loop this module
cannot compose (a custom kernel, a host scalar read as a buffer, local
memory over the budget, f64 host math in a program without f64, a body
dispatch of more than MAX_WORKGROUPS workgroups) gets an
empty placeholder entry instead, keeping the ordinals of the loops after it,
and the VM loop runs it as before.

Bounds: the bounds binding is a copy uploaded with the launch and a device
has no CLOCK_MONOTONIC, so a GPU loop does not read it; cancel() and the
deadline are checked by the VM before and after the launch
(docs/decisions.md).
"""
from __future__ import annotations

import re

from tensorvm.vmfb.cpu_abi import LOOP_STATS_BYTES
from tensorvm.vmfb.model import EntryPoint

from ..host.native_loop import (CTYPE, STORAGE, NativeLoop, binding_count, constant_word_count,
                                constant_words, nbytes)
from ..host.native_loop_c import _Renderer, push_words
from ..ir.attributes import ints
from .c_style import storage

#: Per dialect: the barrier with global + local fences, the local pointer
#: qualifier, the arena declaration, the step functions' qualifier, bit casts.
DIALECTS = {
    "opencl": {
        "sync": "barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)",
        "local_ptr": "__local ",
        "arena": "__local ulong",
        "step": "static void",
        "prelude": ["static inline uint tvm_nl_f32_bits(float x) { return as_uint(x); }",
                    "#define tvm_now_ns() ((uint64_t)0)"],
        "prelude64": ["static inline ulong tvm_nl_f64_bits(double x) { return as_ulong(x); }"],
    },
    "cuda": {
        "sync": "__syncthreads()",
        "local_ptr": "",
        "arena": "__shared__ unsigned long long",
        "step": "static __device__ void",
        "prelude": ["static __device__ __forceinline__ uint32_t tvm_nl_f32_bits(float x) "
                    "{ return __float_as_uint(x); }",
                    "static __device__ __forceinline__ uint64_t tvm_nl_f64_bits(double x) "
                    "{ return (uint64_t)__double_as_longlong(x); }",
                    "#define tvm_now_ns() ((uint64_t)0)"],
        "prelude64": [],
    },
}
#: Items of a loop kernel on a CPU device, where its barriers (SYNC) are
#: empty.  PoCL runs a work-group's items in turn on one core, so each
#: barrier region cost a pass over them (64 items: lstm 0.91, gru 1.00 ms;
#: 4: 0.36 / 0.30 ms), and it compiles a kernel with barriers in loops
#: slowly (kh_gpt2_generate's first load 12.5 s with 4 items, 6.5 s with
#: one and no barriers, at the same speed per call)
CPU_DEVICE_ITEMS = 1
#: The most workgroups a body dispatch may have: one block runs them in
#: turn, so a loop whose body has device-sized dispatches keeps the VM loop
#: (the loop models' bodies have at most 16: decode steps, recurrent cells)
MAX_WORKGROUPS = 64
#: Local (shared) memory the arena may take: OpenCL 1.2 guarantees 32 KiB,
#: CUDA's static shared memory is 48 KiB.
LOCAL_LIMIT = {"opencl": 32768, "cuda": 49152}
#: The loop kernels' barrier: a macro, empty where one item runs the loop
SYNC = "TVM_LOOP_SYNC"
_SHARED = "TVM_SHARED "        # the step plans' shared-array qualifier, rewritten into the arena
_SIZES = {"float": 4, "double": 8, "int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2,
          "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8, "int": 4, "char": 1}
_DECL = re.compile(r"^(\s*)" + _SHARED + r"((?:const )?\w+) (\w+)((?:\[\d+\])+);\s*$")


class NotComposable(Exception):
    """The loop has something its GPU form cannot run inside one launch."""


def step_name(kernel) -> str:
    return f"{kernel.name}_step"


class _StepMixin:
    """A dialect's renderer with the workgroup id as a parameter and the
    kernel as a plain function (see the module docstring)."""
    group_id = "tvm_wg"
    shared_space = _SHARED
    barrier = f"{SYNC}();"

    def mma_guard(self, element: str):
        # the arena aligns arrays to 16 bytes, fragment loads need 32; a
        # loop body's products are decode-sized, so the f32 tiles serve
        return None

    def header(self, kernel, params) -> str:
        d = DIALECTS[self.name]
        extra = [f"{d['local_ptr']}uint8_t* tvm_lmem", "int64_t tvm_wg"]
        return f"{d['step']} {step_name(kernel)}({', '.join(list(params) + extra)}) {{"


def _step_target(target):
    cls = type(f"{type(target).__name__}Step", (_StepMixin, type(target)), {})
    return cls()


def render_step(step, kernel):
    """(decls, step function source, workgroup count, local bytes) of ``kernel``."""
    if kernel.kind == "custom":
        raise NotComposable(f"custom kernel {kernel.name}")
    decls, source, count = step.render_kernel(kernel)
    lines, used = [], 0
    for line in source.split("\n"):
        m = _DECL.match(line)
        if m is None:
            if _SHARED in line:
                raise NotComposable(f"a local array of {kernel.name}: {line.strip()}")
            lines.append(line)
            continue
        ind, ct, name, dims = m.groups()
        ct = ct.replace("const ", "")
        if ct not in _SIZES:
            raise NotComposable(f"a local array of {ct} in {kernel.name}")
        sizes = [int(x) for x in re.findall(r"\[(\d+)\]", dims)]
        n = _SIZES[ct]
        for s in sizes:
            n *= s
        lp = DIALECTS[step.name]["local_ptr"]
        rest = "".join(f"[{s}]" for s in sizes[1:])
        lines.append(f"{ind}{lp}{ct} (*{name}){rest} = ({lp}{ct} (*){rest})(tvm_lmem + {used});"
                     if rest else f"{ind}{lp}{ct}* {name} = ({lp}{ct}*)(tvm_lmem + {used});")
        used += (n + 15) // 16 * 16
    return decls, "\n".join(lines), count, used


class _GpuLoop(_Renderer):
    """native_loop_c's renderer, spelled for one GPU dialect."""

    def __init__(self, target, loop: NativeLoop, kernel_of, count_of, local_of):
        super().__init__(loop, lambda d: step_name(kernel_of(d)), count_of)
        self.target = target
        self.kernel_obj = kernel_of
        self.local_of = local_of
        self.dialect = DIALECTS[target.name]
        self.space = target.global_space
        self.f64 = True               # the program enables f64 (add_loops sets it)
        self.staged = {k: off for f in loop.frames for k, off in f.staged.items()}

    def render(self) -> str:
        loop, t, gs = self.loop, self.target, self.space
        if any(v.type.element == "f64" for v in self._host_values()) and not self.f64:
            raise NotComposable("f64 host math in a program without f64")
        nb = binding_count(loop)
        names = [(f"tvm_b{k}", f"{gs}uint8_t*") for k in range(nb)]
        params, setup = [], []
        for k, (name, pointer) in enumerate(names):
            p, s = t.binding(k, name, pointer)
            params += p
            setup += s
        words = constant_word_count(loop)
        params += t.binding_tail(names) + t.constant_params(words)
        out = [f"{t.kernel_qualifier} {loop.name}({', '.join(params)}) {{"] + setup
        if t.cpu_device_macro is not None:      # a CPU device: a few items (the module docstring)
            out[:0] = [f"#ifdef {t.cpu_device_macro}",
                       f"__attribute__((reqd_work_group_size({CPU_DEVICE_ITEMS}, 1, 1)))", "#endif"]
        self.lines = out
        arena = max([self.local_of(d) for d in loop.dispatches] + [0])
        if arena > LOCAL_LIMIT[t.name]:
            raise NotComposable(f"{arena} bytes of local memory")
        lp = self.dialect["local_ptr"]
        if arena:
            self.emit(f"{self.dialect['arena']} tvm_arena[{(arena + 7) // 8}];")
            self.emit(f"{lp}uint8_t* const tvm_lmem = ({lp}uint8_t*)tvm_arena;")
        else:
            self.emit(f"{lp}uint8_t* const tvm_lmem = 0;")
        self.emit(f"const int64_t tvm_lid = (int64_t){t.local_id}, tvm_lsz = (int64_t){t.local_size};")
        word = 0
        for k, v in enumerate(loop.host_in):
            el = v.type.element
            self.emit(f"{CTYPE[el]} h{k} = ({CTYPE[el]}){t.push_constant(el, word)};")
            self.ex[v] = f"h{k}"
            word += constant_words(v)
        b = 0
        for k, v in enumerate(loop.dev_in):
            self.emit(f"{gs}char* x{k} = ({gs}char*)tvm_b{b};")
            (self.uploaded if v in self.host else self.ex)[v] = f"x{k}"
            b += 1
        outs = []
        for k, _ in enumerate(loop.changing):
            self.emit(f"{gs}char* out{k} = ({gs}char*)tvm_b{b};")
            outs.append(f"out{k}")
            b += 1
        houts = []
        for k, _ in enumerate(loop.host_out):
            self.emit(f"{gs}char* hout{k} = ({gs}char*)tvm_b{b};")
            houts.append(f"hout{k}")
            b += 1
        # the scratch starts with the CPU entry's stats record; the bounds
        # binding (b + 1) is not read on a GPU (the module docstring)
        self.emit(f"{gs}char* scratch = ({gs}char*)tvm_b{b} + {LOOP_STATS_BYTES};")
        # no device clock: native_loop_c's counters and timers compile away
        self.emit("const int tvm_measure = 0;")
        self.emit("uint64_t tvm_n_it = 0, tvm_n_inner = 0, tvm_n_disp = 0, tvm_k_ns = 0;")
        self.emit("(void)tvm_lmem; (void)tvm_measure; (void)tvm_n_it; (void)tvm_n_inner; "
                  "(void)tvm_n_disp; (void)tvm_k_ns;")
        self.while_loop(loop.op)
        for name, j in zip(outs, loop.changing):
            r = loop.op.results[j]
            self.emit(self.copy(name, self.ex[r], nbytes(r.type)))
        for name, j in zip(houts, loop.host_out):
            r = loop.op.results[j]
            st = STORAGE[r.type.element]
            self.emit(f"if (tvm_lid == 0) *({gs}{st}*){name} = ({st}){self.ex[r]};")
        out.append("}")
        return "\n".join(out)

    def _host_values(self):
        for o in self.loop.op.walk():
            for v in o.results:
                if v in self.host:
                    yield v
            for region in o.regions:
                for blk in region.blocks:
                    yield from (a for a in blk.arguments if a in self.host)

    # -- native_loop_c's hooks ---------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        return "l" + super().fresh(prefix)      # apart from the parameters (c0, c1, ...)

    def copy(self, dst: str, src: str, size) -> str:
        """A copy strided over the block's items, then a barrier."""
        gs, q = self.space, self.fresh("q")
        return (f"{{ {gs}uint8_t* {q}d = ({gs}uint8_t*)({dst}); "
                f"{gs}const uint8_t* {q}s = ({gs}const uint8_t*)({src}); "
                f"const int64_t {q}n = (int64_t)({size}); "
                f"if ((((uint64_t){q}d | (uint64_t){q}s | (uint64_t){q}n) & 3) == 0) "
                f"for (int64_t {q} = tvm_lid; {q} < {q}n / 4; {q} += tvm_lsz) "
                f"(({gs}uint32_t*){q}d)[{q}] = (({gs}const uint32_t*){q}s)[{q}]; "
                f"else for (int64_t {q} = tvm_lid; {q} < {q}n; {q} += tvm_lsz) {q}d[{q}] = {q}s[{q}]; "
                f"{SYNC}(); }}")

    def iteration_checks(self) -> None:
        pass                    # no bounds on the device (the module docstring)

    def call_kernel(self, o, count) -> None:
        """The kernel's step over its workgroups, then a barrier."""
        if type(count) is not int:
            raise NotComposable("a dynamic workgroup count")
        if count > MAX_WORKGROUPS:
            raise NotComposable(f"{count} workgroups in one dispatch: work for a whole device")
        kernel, gs = self.kernel_obj(o), self.space
        push = set(ints(o.attributes.get("push_constants")))
        staged = False
        if len(kernel.inputs) != len(o.operands) - len(push) or len(kernel.outputs) != len(o.results):
            raise NotComposable(f"{kernel.name}'s bindings are not its operands")
        args, words = [], []
        ins = iter(kernel.inputs)
        for i, v in enumerate(o.operands):
            if i in push:
                words += push_words(v, self.ex[v])
                continue
            if v in self.host and v not in self.uploaded:     # stored in its slot for the kernel
                st, ptr = STORAGE[v.type.element], f"({self.half} + {self.staged[(id(o), i)]})"
                self.emit(f"if (tvm_lid == 0) *({gs}{st}*){ptr} = ({st}){self.ex[v]};")
                staged = True
            else:
                ptr = self.uploaded.get(v, self.ex.get(v))
            args.append(f"({gs}const {storage(next(ins))}*)({ptr})")
        for r, kv in zip(o.results, kernel.outputs):
            args.append(f"({gs}{storage(kv)}*)({self.ex[r]})")
        names = [(f"p{k}", "") for k in range(len(args))]
        args += ["0"] * len(self.target.binding_tail(names))
        args += [f"(uint32_t)({w})" for w in words]
        g = self.fresh("g")
        sync = f"{SYNC}();"
        if staged:
            self.emit(sync)
        between = f" {sync}" if self.local_of(o) and count > 1 else ""
        self.emit(f"for (int64_t {g} = 0; {g} < {count}; ++{g}) "
                  f"{{ {step_name(kernel)}({', '.join(args + ['tvm_lmem', g])});{between} }}")
        self.emit(sync)


def add_loops(target, source: str, kernels: list, counts: list, needs_f64: bool,
              loops, entry_of) -> tuple:
    """(source with the loops' kernels, their entry points in order): one
    loop kernel per composable loop, an empty placeholder per other loop."""
    if not loops:
        return source, []
    step = _step_target(target)
    steps: dict = {}            # kernel index -> (decls, function, local bytes)

    def step_of(d):
        i = entry_of[id(d)]
        if i not in steps:
            decls, fn, count, used = render_step(step, kernels[i])
            if str(count) != str(counts[i]):
                raise NotComposable(f"{kernels[i].name}'s step tiles differently")
            steps[i] = (decls, fn, used)
        return steps[i]

    funcs, entries, needed = [], [], []
    for lp in loops:
        try:
            for d in lp.dispatches:
                if id(d) not in lp.in_place:
                    step_of(d)
            r = _GpuLoop(target, lp, lambda d: kernels[entry_of[id(d)]],
                         lambda d: counts[entry_of[id(d)]], lambda d: step_of(d)[2])
            r.f64 = needs_f64
            text = r.render()
        except NotComposable:
            funcs.append(f"{target.kernel_qualifier} {lp.name}_vm(void) {{}}")
            entries.append(EntryPoint(f"{lp.name}_vm", 0, 0))
            continue
        needed += [entry_of[id(d)] for d in lp.dispatches if id(d) not in lp.in_place]
        funcs.append(text)
        entries.append(EntryPoint(lp.name, binding_count(lp), constant_word_count(lp)))
    d = DIALECTS[target.name]
    sync = [f"#define {SYNC}() {d['sync']}"]
    if target.cpu_device_macro is not None:
        sync = [f"#ifdef {target.cpu_device_macro}", f"#define {SYNC}()", "#else", *sync, "#endif"]
    head = d["prelude"] + (d["prelude64"] if needs_f64 else []) + sync
    decls = [x for x in target.program_decls(steps[i][0] for i in dict.fromkeys(needed))
             if x not in source]
    extra = "\n".join(head + decls) + "\n\n" + "\n\n".join(
        [steps[i][1] for i in dict.fromkeys(needed)] + funcs) + "\n"
    if not needs_f64:
        extra = target.finish(extra, False)
    return source + "\n" + extra, entries
