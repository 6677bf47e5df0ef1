"""C source of a native loop's entry point (native_loop.py plans the layout).

One C function per root while: host scalars are C locals, device values are
``char*`` into the bindings or the scratch, dispatches are direct kernel calls
over all their workgroups, nested whiles are ``for`` loops and if / case are
C branches.  See native_loop.py for the memory rules this code follows.
"""
from __future__ import annotations

import math

import numpy as np

from tensorvm.vmfb.cpu_abi import (BOUNDS_DEADLINE, BOUNDS_MEASURE, LOOP_STATS_BYTES,
                                   LOOP_STATS_FIELDS, RC_CANCELLED, RC_TIMED_OUT, declarator)

from ..dialects.registry import BRANCH, OPS, ORDER_PICK, VIEW, has
from ..ir.attributes import ints
from .native_loop import CLOCK_EVERY, CTYPE, STORAGE, NativeLoop, constant_words, nbytes

_UNSIGNED = {"i1": "uint32_t", "i32": "uint32_t", "i64": "uint64_t", "ui32": "uint32_t",
             "ui64": "uint64_t"}
_MIN = {"i32": "INT32_MIN", "i64": "INT64_MIN"}
_CMP = {"LT": "<", "LE": "<=", "GT": ">", "GE": ">=", "EQ": "==", "NE": "!="}

#: Helpers every native loop's translation unit declares (bit casts for push
#: constants and float loads, the clock for deadlines).
PRELUDE_C = """#include <time.h>
static inline uint64_t tvm_now_ns(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}
static inline uint32_t tvm_nl_f32_bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline float tvm_nl_f32_of(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
static inline uint64_t tvm_nl_f64_bits(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static inline double tvm_nl_f64_of(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }"""


def render(loop: NativeLoop, kernel_of, count_of) -> str:
    return _Renderer(loop, kernel_of, count_of).render()


class _Renderer:
    def __init__(self, loop: NativeLoop, kernel_of, count_of):
        self.loop = loop
        self.host = loop.host
        self.kernel_of, self.count_of = kernel_of, count_of
        self.frames = {id(f.op): f for f in loop.frames}
        self.slots = {r: off for f in loop.frames for r, off in f.slots.items()}
        self.lines: list[str] = []
        self.depth = 1
        self.ex: dict = {}            # IR value -> C expression
        self.uploaded: dict = {}      # host value -> its bytes in a binding (a device init)
        self.n = 0
        self.half = None              # C name of the current frame's half being written

    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, line: str) -> None:
        self.lines.append("  " * self.depth + line)

    # -- the entry point ---------------------------------------------------------------------
    def render(self) -> str:
        loop = self.loop
        out = [declarator(loop.name) + " {"]
        self.lines = out
        self.emit("if (wg_begin >= wg_end) return 0;")
        word = 0
        for k, v in enumerate(loop.host_in):
            el = v.type.element
            w0 = f"st->constants[{word}]"
            w64 = f"((uint64_t){w0} | ((uint64_t)st->constants[{word + 1}] << 32))"
            val = {"f32": f"tvm_nl_f32_of({w0})", "f64": f"tvm_nl_f64_of({w64})"}.get(
                el, f"({CTYPE[el]}){w64 if constant_words(v) == 2 else w0}")
            word += constant_words(v)
            self.emit(f"{CTYPE[el]} h{k} = {val};")
            self.ex[v] = f"h{k}"
        b = 0
        for k, v in enumerate(loop.dev_in):
            self.emit(f"char* x{k} = (char*)st->bindings[{b}];")
            (self.uploaded if v in self.host else self.ex)[v] = f"x{k}"
            b += 1
        outs, houts = [], []
        for k, _ in enumerate(loop.changing):
            self.emit(f"char* out{k} = (char*)st->bindings[{b}];")
            outs.append(f"out{k}")
            b += 1
        for k, _ in enumerate(loop.host_out):
            self.emit(f"char* hout{k} = (char*)st->bindings[{b}];")
            houts.append(f"hout{k}")
            b += 1
        # the scratch starts with the loop's stats record (vmfb/cpu_abi.py: LOOP_STATS_*)
        self.emit(f"uint64_t* const tvm_prof = (uint64_t*)st->bindings[{b}];")
        self.emit(f"char* scratch = (char*)st->bindings[{b}] + {LOOP_STATS_BYTES};")
        # the call's bounds (cpu_abi.BOUNDS_*): a stop word set by cancel(), a CLOCK_MONOTONIC
        # deadline, and whether a tracer asks for the stats record
        self.emit(f"const volatile uint32_t* stop = (const volatile uint32_t*)st->bindings[{b + 1}];")
        self.emit(f"const uint64_t deadline = ((const volatile uint64_t*)stop)[{BOUNDS_DEADLINE}];")
        self.emit(f"const int tvm_measure = ((const volatile uint64_t*)stop)[{BOUNDS_MEASURE}] != 0;")
        self.emit("const uint64_t tvm_t_entry = tvm_measure ? tvm_now_ns() : 0;")
        self.emit("uint64_t tvm_n_it = 0, tvm_n_inner = 0, tvm_n_disp = 0, tvm_k_ns = 0;")
        self.emit("uint64_t tick = 0;")
        self.emit("(void)scratch; (void)tick;")
        self.while_loop(loop.op)
        for name, j in zip(outs, loop.changing):
            self.emit(f"memcpy({name}, {self.ex[loop.op.results[j]]}, {nbytes(loop.op.results[j].type)});")
        for name, j in zip(houts, loop.host_out):
            r = loop.op.results[j]
            self.emit(f"*({STORAGE[r.type.element]}*){name} = ({STORAGE[r.type.element]}){self.ex[r]};")
        self.emit("if (tvm_measure) {")
        stored = {"iterations": "tvm_n_it", "inner_iterations": "tvm_n_inner",
                  "dispatches": "tvm_n_disp", "kernel_ns": "tvm_k_ns",
                  "total_ns": "tvm_now_ns() - tvm_t_entry"}
        for field, word in LOOP_STATS_FIELDS.items():
            self.emit(f"  tvm_prof[{word}] = {stored[field]};")
        self.emit("}")
        self.emit("return 0;")
        out.append("}")
        return "\n".join(out)

    # -- control flow ------------------------------------------------------------------------
    def while_loop(self, op) -> None:
        frame = self.frames[id(op)]
        cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
        region, it = self.fresh("R"), self.fresh("it")
        half = frame.half
        self.emit(f"{self.space}char* const {region} = scratch + {frame.offset}; (void){region};")
        carried = []
        for j, v in enumerate(op.operands):
            c = self.fresh("c")
            init = self.ex[v] if op.results[j] in self.host else self.uploaded.get(v, self.ex.get(v))
            if j in frame.state:                 # updated in place: the loop's own copy
                self.emit(f"{self.space}char* {c} = {region} + {2 * half + frame.state[j]};")
                self.emit(self.copy(c, init, nbytes(v.type)))
            else:
                self.emit(f"{self._decl(op.results[j])} {c} = {init};")
            carried.append(c)
        self.emit(f"for (uint64_t {it} = 0;; ++{it}) {{")
        self.depth += 1
        outer_half = self.half
        h, o = self.fresh("H"), self.fresh("O")
        self.half = h
        self.emit(f"{self.space}char* const {h} = {region} + ({it} & 1) * (uint64_t){half}; (void){h};")
        self.emit(f"{self.space}char* const {o} = {region} + (({it} & 1) ^ 1) * (uint64_t){half}; (void){o};")
        for blk in (cond, body):
            for a, c in zip(blk.arguments, carried):
                self.ex[a] = c
        self.block(cond)
        self.emit(f"if (!{self.read(cond.terminator.operands[0])}) break;")
        self.emit("++tvm_n_it;" if op is self.loop.op else "++tvm_n_inner;")
        self.iteration_checks()
        self.block(body)
        nexts = []
        for j, y in enumerate(body.terminator.operands):   # a parallel move: read every next value first
            if y is body.arguments[j]:
                continue
            n = self.fresh("n")
            self.emit(f"{self._decl(op.results[j])} {n} = {self.ex[y]};")
            if j in frame.carry and half:
                size = nbytes(op.results[j].type)
                self.emit(f"if ({n} >= {o} && {n} < {o} + {half}) "
                          f"{{ {self.copy(f'{h} + {frame.carry[j]}', n, size)} {n} = {h} + {frame.carry[j]}; }}")
            nexts.append((j, n))
        for j, n in nexts:
            self.emit(f"{carried[j]} = {n};")
        self.depth -= 1
        self.emit("}")
        self.half = outer_half
        for j, r in enumerate(op.results):
            if j in frame.results and frame.size:    # a nested loop: its scratch is reused
                size = nbytes(r.type)
                slot = f"{outer_half} + {frame.results[j]}"
                self.emit(f"if ({carried[j]} >= {region} && {carried[j]} < {region} + {frame.size}) "
                          f"{{ {self.copy(slot, carried[j], size)} {carried[j]} = {slot}; }}")
            self.ex[r] = carried[j]

    def branches(self, op) -> None:
        outs = []
        for r in op.results:
            y = self.fresh("y")
            self.emit(f"{self._decl(r)} {y};")
            outs.append(y)
        sel = self.read(op.operands[0])
        arms = op.regions
        for k, region in enumerate(arms):
            blk = region.blocks[0]
            if op.name == "stablehlo.if":
                head = f"if ({sel}) {{" if k == 0 else "} else {"
            elif k < len(arms) - 1:
                head = f"{'' if k == 0 else '} else '}if ({sel} == {k}) {{"
            else:
                head = "} else {" if k else "{"
            self.emit(head)
            self.depth += 1
            self.block(blk)
            for y, v in zip(outs, blk.terminator.operands):
                self.emit(f"{y} = {self.ex[v]};")
            self.depth -= 1
        self.emit("}")
        for r, y in zip(op.results, outs):
            self.ex[r] = y

    # -- ops -------------------------------------------------------------------------------
    def block(self, block) -> None:
        for o in block.operations[:-1]:
            name = o.name
            if name == "tvm.dispatch":
                self.dispatch(o)
            elif name == "stablehlo.while":
                self.while_loop(o)
            elif has(name, BRANCH):
                self.branches(o)
            elif name == "stablehlo.constant" and o.result not in self.host:
                pass                                    # bound from outside (dev_in)
            elif name == "stablehlo.reshape" and o.result not in self.host:
                self.ex[o.result] = self.ex[o.operands[0]]
            else:
                t = self.fresh("t")
                self.emit(f"{CTYPE[o.result.type.element]} {t} = {scalar_expr(o, self.ex)};")
                self.ex[o.result] = t

    def dispatch(self, o) -> None:
        upd = self.loop.in_place.get(id(o))
        if upd is not None:
            self.update_in_place(o, upd)
            return
        for r in o.results:
            self.ex[r] = f"({self.half} + {self.slots[r]})"
        count = self.count_of(o)
        if count:
            self.call_kernel(o, count)

    def call_kernel(self, o, count) -> None:
        """Run dispatch ``o``'s kernel over its ``count`` workgroups."""
        push = set(ints(o.attributes.get("push_constants")))
        ptrs, lens, words = [], [], []
        for i, v in enumerate(o.operands):
            if i in push:
                words += push_words(v, self.ex[v])
            elif v in self.uploaded:
                ptrs.append(self.uploaded[v])
                lens.append(str(nbytes(v.type)))
            elif v in self.host:
                u = self.fresh("u")              # a host scalar read as a buffer: stored in a local
                st = STORAGE[v.type.element]
                self.emit(f"int64_t {u}[1]; *({st}*){u} = ({st}){self.ex[v]};")
                ptrs.append(u)
                lens.append(str(nbytes(v.type)))
            else:
                ptrs.append(self.ex[v])
                lens.append(str(nbytes(v.type)))
        for r in o.results:
            ptrs.append(self.ex[r])
            lens.append(str(nbytes(r.type)))
        self.emit("{")
        self.emit(f"  void* b[] = {{{', '.join(ptrs) or '0'}}};")
        self.emit(f"  const uint64_t l[] = {{{', '.join(lens) or '0'}}};")
        self.emit(f"  const uint32_t w[] = {{{', '.join(words) or '0'}}};")
        self.emit(f"  const tvm_dispatch_state_t s = {{b, l, w, {{{count}, 1, 1}}}};")
        self.emit("  const uint64_t t0 = tvm_measure ? tvm_now_ns() : 0;")
        self.emit(f"  int rc = {self.kernel_of(o)}(&s, 0, {count});")
        self.emit("  if (rc) return rc;")
        self.emit("  if (tvm_measure) tvm_k_ns += tvm_now_ns() - t0;")
        self.emit("  ++tvm_n_disp;")
        self.emit("}")

    def update_in_place(self, o, upd) -> None:
        """dynamic_update_slice into the state's buffer: one memcpy per
        contiguous run of the update (starts clamped as StableHLO says)."""
        dest, src = self.ex[o.operands[upd.dest]], self.ex[o.operands[upd.update]]
        self.ex[o.result] = dest
        self.emit(f"/* {self.kernel_of(o)}: updated in place */")
        self.emit("{ const uint64_t t0 = tvm_measure ? tvm_now_ns() : 0;")
        self.depth += 1
        shape, ushape = upd.shape, upd.update_shape
        rank = len(shape)
        starts = []
        for k, (kind, x) in enumerate(upd.starts):
            s = self.fresh("s")
            val = str(x) if kind == "const" else self.read(o.operands[x])
            hi = shape[k] - ushape[k]
            self.emit(f"int64_t {s} = (int64_t){val}; {s} = {s} < 0 ? 0 : {s} > {hi} ? {hi} : {s};")
            starts.append(s)
        k = rank                       # dims k.. form one contiguous run in both
        while k > 0 and (k == rank or ushape[k] == shape[k]):
            k -= 1
        run = int(np.prod(ushape[k:], dtype=np.int64)) * upd.item if rank else upd.item
        strides = [int(np.prod(shape[d + 1:], dtype=np.int64)) for d in range(rank)]
        ustrides = [int(np.prod(ushape[d + 1:], dtype=np.int64)) for d in range(rank)]
        idx = [self.fresh("q") for _ in range(k)]
        for d, q in enumerate(idx):
            self.emit(f"for (int64_t {q} = 0; {q} < {ushape[d]}; ++{q}) {{")
            self.depth += 1
        dst_off = " + ".join([f"({starts[d]} + {idx[d]}) * {strides[d]}" for d in range(k)]
                             + [f"{starts[d]} * {strides[d]}" for d in range(k, rank)]) or "0"
        src_off = " + ".join(f"{idx[d]} * {ustrides[d]}" for d in range(k)) or "0"
        self.emit(self.copy(f"{dest} + ({dst_off}) * {upd.item}", f"{src} + ({src_off}) * {upd.item}", run))
        for _ in idx:
            self.depth -= 1
            self.emit("}")
        self.emit("if (tvm_measure) tvm_k_ns += tvm_now_ns() - t0;")
        self.emit("++tvm_n_disp;")
        self.depth -= 1
        self.emit("}")

    # -- what a GPU form (codegen/gpu_loop.py) spells differently ---------------------------
    #: address space of the device pointers (OpenCL: ``__global ``)
    space = ""

    def copy(self, dst: str, src: str, size) -> str:
        """A statement copying ``size`` bytes between device buffers."""
        return f"memcpy({dst}, {src}, {size});"

    def iteration_checks(self) -> None:
        """The call's bounds, read once per iteration: cancel() and the deadline."""
        self.emit(f"if (*stop) return {RC_CANCELLED};")
        self.emit(f"if (deadline && (++tick & {CLOCK_EVERY - 1}) == 0 && tvm_now_ns() > deadline) "
                  f"return {RC_TIMED_OUT};")

    def read(self, v) -> str:
        """A host scalar's C expression; a device scalar is loaded from its buffer."""
        if v in self.host:
            return self.ex[v]
        el = v.type.element
        load = f"(*({self.space}const {STORAGE[el]}*)({self.ex[v]}))"
        return f"({load} != 0)" if el == "i1" else f"({CTYPE[el]}){load}"

    def _decl(self, v) -> str:
        return CTYPE[v.type.element] if v in self.host else f"{self.space}char*"


def push_words(v, x: str) -> list:
    """The push-constant words of host scalar ``v`` held in C expression ``x``."""
    el = v.type.element
    if el == "f32":
        return [f"tvm_nl_f32_bits({x})"]
    if el == "f64":
        x = f"tvm_nl_f64_bits({x})"
    elif constant_words(v) == 1:
        return [f"(uint32_t){x}"]
    return [f"(uint32_t)(uint64_t){x}", f"(uint32_t)((uint64_t){x} >> 32)"]


def _float_literal(x: float, el: str) -> str:
    if math.isnan(x):
        return "NAN" if el == "f64" else "(float)NAN"
    if math.isinf(x):
        s = "-" if x < 0 else ""
        return f"({s}INFINITY)" if el == "f64" else f"(float)({s}INFINITY)"
    return f"({CTYPE[el]}){float(x).hex()}"


def scalar_expr(o, ex) -> str:
    """C expression of host scalar op ``o`` (StableHLO's integer semantics:
    x/0 == -1, x%0 == x, MIN/-1 == MIN)."""
    name = o.short_name
    el = o.result.type.element
    ct = CTYPE[el]
    fl = el in ("f32", "f64")
    suffix = "f" if el == "f32" else ""
    ut = _UNSIGNED.get(el, ct)
    a = [ex[v] for v in o.operands]
    if name == "constant":
        x = np.asarray(o.attributes["value"].array).reshape(-1)[0]
        if fl:
            return _float_literal(float(x), el)
        x = int(x)
        x = int(bool(x)) if el == "i1" else x & ((1 << (64 if "64" in el else 32)) - 1)
        return f"({ct})({ut}){x}ULL"
    decl = OPS[o.name]
    sym = decl.c_infix
    if has(o.name, VIEW):                      # a host scalar reshaped or broadcast
        return a[0]
    if name == "convert":
        src = o.operands[0].type.element
        x = f"({a[0]} != 0)" if src == "i1" else a[0]
        return f"({x} != 0)" if el == "i1" else f"({ct}){x}"
    if sym in ("+", "-", "*"):
        if fl:
            return f"({a[0]} {sym} {a[1]})"
        r = f"({ct})(({ut}){a[0]} {sym} ({ut}){a[1]})"
        return f"({r} & 1)" if el == "i1" else r
    if sym in ("/", "%"):
        if fl:
            return f"({a[0]} / {a[1]})" if sym == "/" else f"{decl.c_fn}{suffix}({a[0]}, {a[1]})"
        zero = f"({ct})-1" if sym == "/" else a[0]
        op = sym
        if el in _MIN:
            special = f"({a[0]}) == {_MIN[el]} && ({a[1]}) == -1 ? " + \
                (a[0] if sym == "/" else f"({ct})0") + " : "
        else:
            special = ""
        return f"(({a[1]}) == 0 ? {zero} : {special}({ct})({a[0]} {op} {a[1]}))"
    if has(o.name, ORDER_PICK):
        cmp = ">" if name == "maximum" else "<"
        pick = f"({a[0]} {cmp} {a[1]} ? {a[0]} : {a[1]})"
        return f"(({a[0]}) != ({a[0]}) ? {a[0]} : ({a[1]}) != ({a[1]}) ? {a[1]} : {pick})" if fl else pick
    if sym in ("&", "|", "^"):
        return f"({a[0]} {sym} {a[1]})"
    if name == "not":
        return f"(!{a[0]})" if el == "i1" else f"(~{a[0]})"
    if name == "negate":
        return f"(-{a[0]})" if fl else f"({ct})(0 - ({ut}){a[0]})"
    if name == "abs":
        return f"fabs{suffix}({a[0]})" if fl else f"({a[0]} < 0 ? ({ct})(0 - ({ut}){a[0]}) : {a[0]})"
    if name == "sign":
        if fl:
            return f"({a[0]} > 0 ? ({ct})1 : {a[0]} < 0 ? ({ct})-1 : {a[0]})"
        return f"({ct})(({a[0]} > 0) - ({a[0]} < 0))"
    if name == "compare":
        d = getattr(o.attributes.get("comparison_direction"), "value", None)
        x, y = a
        if getattr(o.attributes.get("compare_type"), "value", None) == "UNSIGNED":
            src = _UNSIGNED[o.operands[0].type.element]
            x, y = f"({src}){x}", f"({src}){y}"
        return f"({x} {_CMP[d]} {y})"
    if name == "select":
        return f"({a[0]} ? {a[1]} : {a[2]})"
    if name == "rsqrt":
        return f"(({ct})1 / sqrt{suffix}({a[0]}))"
    if decl.c_fn is not None:
        return f"{decl.c_fn}{suffix}({a[0]})"
    raise AssertionError(name)
