"""Native loops: a ``stablehlo.while`` run as ONE CPU entry point.

A recurrent model's loop body is a handful of small dispatches (a GEMV and
its gates per time step).  Run by the VM, every step pays the interpreter,
an allocation and a command-buffer record per dispatch, ~20 us each, far
more than the kernels.  When a loop is simple enough the CPU variant gets
one more entry point that runs the whole loop in C: the condition and the
body's scalar host ops become C statements, each body dispatch is a direct
call of its kernel function (all of its workgroups), and loop-carried device
values are pointers into a double-buffered scratch (iteration parity picks
the half, so a step never overwrites what it reads).  The final carried
values are copied into the loop's result buffers.

A native loop is bounded like the VM loop it replaces: its last binding is
the call's bounds (``hal.call_bounds``: a stop word that ``cancel()`` sets
and the call's deadline in CLOCK_MONOTONIC ns, 0 = none), read every
iteration (the clock every ``CLOCK_EVERY``); a stopped loop returns
``RC_CANCELLED`` / ``RC_TIMED_OUT``.

A loop qualifies when: its host values are scalar i1/i32/i64 and none is
used after the loop; the condition is host scalar ops only; the body holds
only static dispatches and host scalar ops; every carried device value is
yielded as a body dispatch result, itself unchanged, or a value defined
outside the loop.  The host code keeps the VM loop for the variants that
lack the entry point (GPU targets), chosen at run time
(``hal.executable.has_entry``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..ir.attributes import ints
from ..ir.types import numpy_dtype

_CTYPE = {"i1": "int32_t", "i32": "int32_t", "i64": "int64_t"}
_UTYPE = {"i1": "uint32_t", "i32": "uint32_t", "i64": "uint64_t"}
_SCALAR_OPS = {"constant", "add", "subtract", "multiply", "maximum", "minimum", "and", "or",
               "xor", "not", "compare", "select", "convert", "reshape", "broadcast_in_dim"}
_CMP = {"LT": "<", "LE": "<=", "GT": ">", "GE": ">=", "EQ": "==", "NE": "!="}
ALIGN = 64
#: Iterations between two reads of the clock (the stop word is read every one).
CLOCK_EVERY = 16
#: Return codes of a loop stopped by its call's bounds: the runtime turns
#: them into CallCancelledError / CallTimeoutError (hal/loaders/cpu_c.py).
RC_CANCELLED, RC_TIMED_OUT = -2, -3
#: The clock the deadline is read against: Python's time.monotonic() on Linux.
CLOCK_C = """#include <time.h>
static inline uint64_t tvm_now_ns(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}"""


@dataclass
class NativeLoop:
    """One qualifying while op and the layout of its loop entry point.

    Bindings: ``dev_in`` (device values read from outside: invariants and
    initial carried values), then one output per ``changing`` position, then
    the scratch, then the call's bounds.  Push constants: ``host_in`` values, one
    or two words each."""
    op: object
    dev_in: list
    host_in: list
    changing: list                      # carried positions whose value changes
    host_pos: set = field(default_factory=set)    # carried positions held on the host
    host: set = field(default_factory=set)        # the function's host values
    scratch: dict = field(default_factory=dict)   # body dispatch result -> offset in a half
    half: int = 0
    entry: int = -1                     # entry point ordinal, set by the pipeline

    @property
    def name(self) -> str:
        return f"loop{self.entry}_native"

    @property
    def dispatches(self) -> list:
        body = self.op.regions[1].blocks[0]
        return [o for o in body.operations if o.name == "tvm.dispatch"]


def nbytes(t) -> int:
    return t.num_elements * numpy_dtype(t.element).itemsize


def _scalar_int(t) -> bool:
    return getattr(t, "element", None) in _CTYPE and t.is_static and t.num_elements == 1


def _scalar_op(op, host) -> bool:
    if op.short_name not in _SCALAR_OPS or len(op.results) != 1 or op.result not in host:
        return False
    if not all(_scalar_int(v.type) for v in (*op.operands, op.result)):
        return False
    if op.short_name == "compare":
        ct = getattr(op.attributes.get("compare_type"), "value", None)
        return ct in (None, "SIGNED") or (ct == "UNSIGNED" and op.operands[0].type.element == "i1")
    return True


def plan_native_loop(op, host) -> NativeLoop | None:
    """The layout of ``op``'s loop entry point, or None when it does not qualify."""
    cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
    inner = set(cond.arguments) | set(body.arguments)
    for blk in (cond, body):
        for o in blk.operations[:-1]:
            inner.update(o.results)
    for j, (v, r) in enumerate(zip(op.operands, op.results)):
        if r in host:
            if not _scalar_int(v.type) or r.uses or v not in host:
                return None
        elif v in host:
            return None
    for o in cond.operations[:-1]:
        if not _scalar_op(o, host):
            return None
    dev_in, host_in = [], []
    origin: dict = {}         # body device value -> "scratch" or the value it aliases

    def outer(v):
        if v in inner:
            return
        if v in host:
            if not _scalar_int(v.type):
                raise _NotNative
            if v not in host_in:
                host_in.append(v)
        elif v not in dev_in:
            dev_in.append(v)

    try:
        for o in cond.operations[:-1]:
            for v in o.operands:
                outer(v)
        for o in body.operations[:-1]:
            if o.name == "tvm.dispatch":
                if "tvm.dims" in o.attributes or not all(r.type.is_static for r in o.results):
                    return None
                for v in o.operands:
                    if v in host and not _scalar_int(v.type):
                        return None
                    outer(v)
                origin.update({r: "scratch" for r in o.results})
            elif (o.name == "stablehlo.reshape" and o.result not in host
                  and o.operands[0] not in host and o.result.type.is_static):
                outer(o.operands[0])              # an alias: same bytes, new shape
                origin[o.result] = origin.get(o.operands[0], o.operands[0])
            elif _scalar_op(o, host):
                for v in o.operands:
                    outer(v)
            else:
                return None
    except _NotNative:
        return None
    changing = []
    for j, (v, y) in enumerate(zip(op.operands, body.terminator.operands)):
        if op.results[j] in host:
            outer(y)
            continue
        src = origin.get(y, y)               # "scratch", a body argument, or an outer value
        if src is body.arguments[j]:
            continue
        if src == "scratch" or src not in inner:
            changing.append(j)
            outer(y)
        else:
            return None                       # a permutation of carried values
    for j, v in enumerate(op.operands):
        if op.results[j] in host:
            if v not in host_in:
                host_in.append(v)
        elif v not in dev_in:
            dev_in.append(v)
    loop = NativeLoop(op, dev_in, host_in, changing,
                      host_pos={j for j, r in enumerate(op.results) if r in host}, host=host)
    off = 0
    for o in body.operations:
        if o.name == "tvm.dispatch":
            for r in o.results:
                loop.scratch[r] = off
                off += (nbytes(r.type) + ALIGN - 1) // ALIGN * ALIGN
    loop.half = off
    return loop


class _NotNative(Exception):
    pass


def constant_words(v) -> int:
    return 2 if v.type.element == "i64" else 1


def render_native_loop(loop: NativeLoop, kernel_of, count_of) -> str:
    """C source of the loop entry point; ``kernel_of(dispatch)`` is the C name of
    a body dispatch's kernel, ``count_of(dispatch)`` its workgroup count."""
    op = loop.op
    cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
    lines = [f"int {loop.name}(const tvm_dispatch_state_t* st, uint32_t wg_begin, uint32_t wg_end) {{",
             "  if (wg_begin >= wg_end) return 0;"]
    ex: dict = {}                    # IR value -> C expression (a local variable)
    word = 0
    for k, v in enumerate(loop.host_in):
        ct = _CTYPE[v.type.element]
        if constant_words(v) == 2:
            val = f"(int64_t)((uint64_t)st->constants[{word}] | ((uint64_t)st->constants[{word + 1}] << 32))"
        else:
            val = f"(int32_t)st->constants[{word}]"
        word += constant_words(v)
        lines.append(f"  {ct} h{k} = {val};")
        ex[v] = f"h{k}"
    for k, v in enumerate(loop.dev_in):
        lines.append(f"  char* x{k} = (char*)st->bindings[{k}];")
        ex[v] = f"x{k}"
    n_in = len(loop.dev_in)
    for k, j in enumerate(loop.changing):
        lines.append(f"  char* out{k} = (char*)st->bindings[{n_in + k}];")
    lines.append(f"  char* scratch = (char*)st->bindings[{n_in + len(loop.changing)}];")
    # the call's bounds (see BOUNDS_DOC): a stop word set by cancel(), a CLOCK_MONOTONIC deadline
    lines.append(f"  const volatile uint32_t* stop = (const volatile uint32_t*)st->bindings[{n_in + len(loop.changing) + 1}];")
    lines.append("  const uint64_t deadline = ((const volatile uint64_t*)stop)[1];")
    # carried variables: c<j>, initialised from the operands
    for j, v in enumerate(op.operands):
        if j in loop.host_pos:
            lines.append(f"  {_CTYPE[v.type.element]} c{j} = {ex[v]};")
        else:
            lines.append(f"  char* c{j} = {ex[v]};")
    lines.append("  for (uint64_t it = 0;; ++it) {")
    for blk in (cond, body):
        for j, a in enumerate(blk.arguments):
            ex[a] = f"c{j}"
    tmp = [0]

    def scalar(o):
        tmp[0] += 1
        name = f"t{tmp[0]}"
        lines.append(f"    {_CTYPE[o.result.type.element]} {name} = {_scalar_expr(o, ex)};")
        ex[o.result] = name

    for o in cond.operations[:-1]:
        scalar(o)
    lines.append(f"    if (!{ex[cond.terminator.operands[0]]}) break;")
    lines.append(f"    if (*stop) return {RC_CANCELLED};")
    lines.append(f"    if (deadline && (it & {CLOCK_EVERY - 1}) == {CLOCK_EVERY - 1} && tvm_now_ns() > deadline) "
                 f"return {RC_TIMED_OUT};")
    lines.append(f"    char* half = scratch + (it & 1) * (uint64_t){loop.half};")
    for o in body.operations[:-1]:
        if o.name == "stablehlo.reshape" and o.result not in loop.host:
            ex[o.result] = ex[o.operands[0]]
            continue
        if o.name != "tvm.dispatch":
            scalar(o)
            continue
        for r in o.results:
            ex[r] = f"(half + {loop.scratch[r]})"
        count = count_of(o)
        if not count:
            continue
        push = set(ints(o.attributes.get("push_constants")))
        ptrs, lens, words = [], [], []
        for i, v in enumerate(o.operands):
            if i in push:
                if v.type.element == "i64":
                    words += [f"(uint32_t)(uint64_t){ex[v]}", f"(uint32_t)((uint64_t){ex[v]} >> 32)"]
                else:
                    words.append(f"(uint32_t){ex[v]}")
            elif v in loop.host:
                tmp[0] += 1                   # a host scalar read as a buffer: stored in a local
                st = {1: "uint8_t", 4: "int32_t", 8: "int64_t"}[nbytes(v.type)]
                lines.append(f"    int64_t u{tmp[0]} = 0; *({st}*)&u{tmp[0]} = ({st}){ex[v]};")
                ptrs.append(f"&u{tmp[0]}")
                lens.append(str(nbytes(v.type)))
            else:
                ptrs.append(ex[v])
                lens.append(str(nbytes(v.type)))
        for r in o.results:
            ptrs.append(ex[r])
            lens.append(str(nbytes(r.type)))
        lines.append("    {")
        lines.append(f"      void* b[] = {{{', '.join(ptrs) or '0'}}};")
        lines.append(f"      const uint64_t l[] = {{{', '.join(lens) or '0'}}};")
        lines.append(f"      const uint32_t w[] = {{{', '.join(words) or '0'}}};")
        lines.append(f"      const tvm_dispatch_state_t s = {{b, l, w, {{{count}, 1, 1}}}};")
        lines.append(f"      int rc = {kernel_of(o)}(&s, 0, {count});")
        lines.append("      if (rc) return rc;")
        lines.append("    }")
    ys = body.terminator.operands
    nexts = []
    for j, y in enumerate(ys):          # a parallel move: read every next value first
        if y is body.arguments[j]:
            continue
        ct = _CTYPE[y.type.element] if j in loop.host_pos else "char*"
        lines.append(f"    {ct} n{j} = {ex[y]};")
        nexts.append(j)
    for j in nexts:
        lines.append(f"    c{j} = n{j};")
    lines.append("  }")
    for k, j in enumerate(loop.changing):
        lines.append(f"  memcpy(out{k}, c{j}, {nbytes(op.results[j].type)});")
    lines.append("  return 0;")
    lines.append("}")
    return "\n".join(lines)


def _scalar_expr(o, ex) -> str:
    name = o.short_name
    el = o.result.type.element
    ct, ut = _CTYPE[el], _UTYPE[el]
    a = [ex[v] for v in o.operands]
    if name == "constant":
        x = int(np.asarray(o.attributes["value"].array).reshape(-1)[0])
        x = int(bool(x)) if el == "i1" else x & ((1 << (64 if el == "i64" else 32)) - 1)
        return f"({ct})({ut}){x}ULL"
    if name in ("reshape", "broadcast_in_dim"):
        return a[0]
    if name == "convert":
        src = o.operands[0].type.element
        if el == "i1":
            return f"({a[0]} != 0)"
        return f"({ct}){a[0]}" if src != "i1" else f"({ct})({a[0]} != 0)"
    if name in ("add", "subtract", "multiply"):
        sym = {"add": "+", "subtract": "-", "multiply": "*"}[name]
        r = f"({ct})(({ut}){a[0]} {sym} ({ut}){a[1]})"
        return f"({r} & 1)" if el == "i1" else r
    if name in ("maximum", "minimum"):
        cmp = ">" if name == "maximum" else "<"
        return f"({a[0]} {cmp} {a[1]} ? {a[0]} : {a[1]})"
    if name in ("and", "or", "xor"):
        sym = {"and": "&", "or": "|", "xor": "^"}[name]
        return f"({a[0]} {sym} {a[1]})"
    if name == "not":
        return f"(!{a[0]})" if el == "i1" else f"(~{a[0]})"
    if name == "compare":
        d = getattr(o.attributes.get("comparison_direction"), "value", None)
        return f"({a[0]} {_CMP[d]} {a[1]})"
    if name == "select":
        return f"({a[0]} ? {a[1]} : {a[2]})"
    raise AssertionError(name)


def binding_count(loop: NativeLoop) -> int:
    return len(loop.dev_in) + len(loop.changing) + 2


def constant_word_count(loop: NativeLoop) -> int:
    return sum(constant_words(v) for v in loop.host_in)
