"""Native loops: a ``stablehlo.while`` and everything inside it run as ONE CPU entry point.

A decoding or recurrent loop's body is a handful of small dispatches plus
host scalar math.  Run by the VM, every step pays the interpreter, an
allocation and a command-buffer record per dispatch, ~20 us each, far more
than the kernels.  When a loop qualifies, the CPU variant gets one more entry
point that runs the whole loop in C (native_loop_c.py renders it): the
condition and the body's host scalar ops (integer and float) become C
statements, each dispatch is a direct call of its kernel function (all of its
workgroups), nested ``while`` / ``if`` / ``case`` become C loops and branches,
and a device scalar the host branches on (a predicate computed by a kernel, a
``case`` index) is read straight from its buffer: on a CPU device, device
memory is host memory.

Memory.  Every value a loop's iteration produces (a dispatch result, a nested
loop's result, a copied carry) has a slot in that loop's *half*; the loop owns
two halves in the call's scratch and iteration parity picks the one it writes,
so a step never overwrites what it reads.  A carried value that would survive
into the next iteration from the half about to be reused (a value passed
along unchanged by an ``if`` arm, or a permutation of carried values) is
copied into its carry slot first; a nested loop's results are copied out of
its halves into the enclosing half when it exits.  The root loop's final
carried values are copied into the loop's result buffers; its host results
that are used afterwards are stored into small result buffers the VM reads.

A native loop is bounded like the VM loop it replaces: its last binding is
the call's bounds (``hal.call_bounds``: a stop word that ``cancel()`` sets
and the call's deadline in CLOCK_MONOTONIC ns, 0 = none), read every
iteration of every loop (the clock every ``CLOCK_EVERY``); a stopped loop
returns ``RC_CANCELLED`` / ``RC_TIMED_OUT`` (vmfb/cpu_abi.py).

A loop qualifies when every value inside it is a static-shape device value or
a host scalar of a supported type, and every op is a static dispatch, a
device reshape (an alias), a supported host scalar op, a device constant, or a
nested while / if / case that qualifies the same way.  GPU variants get the
same entry point as one persistent kernel launch (codegen/gpu_loop.py
renders this plan); the host code keeps the VM loop for variants that lack
the entry point, chosen at run time (``hal.executable.has_entry``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tensorvm.vmfb.cpu_abi import LOOP_STATS_BYTES

from ..dialects.registry import BRANCH, FLOAT, FLOAT_OR_COMPLEX, INT_OR_BOOL, NATIVE_SCALAR, OPS, has
from ..ir.attributes import ints
from ..ir.types import numpy_dtype
from ..passes.dispatch import shape_view_source
from .donation import same_bytes, update_chain, updated_operand

#: C type of a host scalar in a native loop, by element type (i1 held as 0/1).
CTYPE = {"i1": "int32_t", "i32": "int32_t", "i64": "int64_t", "ui32": "uint32_t",
         "ui64": "uint64_t", "f32": "float", "f64": "double"}
#: C type of one element in memory (a buffer, a push-constant word pair).
STORAGE = {"i1": "uint8_t", "i32": "int32_t", "i64": "int64_t", "ui32": "uint32_t",
           "ui64": "uint64_t", "f32": "float", "f64": "double"}
ALIGN = 64
#: Iterations between two reads of the clock (the stop word is read every one).
CLOCK_EVERY = 16


@dataclass
class Frame:
    """One while op of a native region: where its two halves sit in the
    scratch, and the slot of each value an iteration produces."""
    op: object
    slots: dict = field(default_factory=dict)   # produced device value -> offset in a half
    carry: dict = field(default_factory=dict)   # device position -> carry slot offset
    results: dict = field(default_factory=dict)  # device position -> slot in the parent's half
    state: dict = field(default_factory=dict)    # in-place position -> offset after the halves
    # (id(dispatch), operand) -> slot of a host scalar a kernel reads as a
    # buffer: the GPU form (codegen/gpu_loop.py) stores it there; C uses a local
    staged: dict = field(default_factory=dict)
    state_bytes: int = 0
    half: int = 0
    offset: int = 0                              # of the first half in the scratch

    @property
    def size(self) -> int:
        return 2 * self.half + self.state_bytes

    def slot(self, nbytes_: int) -> int:
        """A slot in each half."""
        off = self.half
        self.half += _aligned(nbytes_)
        return off

    def state_slot(self, nbytes_: int) -> int:
        """A slot after the halves, kept across iterations."""
        off = self.state_bytes
        self.state_bytes += _aligned(nbytes_)
        return off


def _aligned(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


@dataclass
class InPlaceUpdate:
    """A dispatch that is one ``dynamic_update_slice`` of a carried state:
    run as a strided copy of the (materialized) update into the state's own
    buffer, instead of a kernel writing a whole new copy of the state."""
    dest: int                # dispatch operand index of the updated state
    update: int              # dispatch operand index of the update
    starts: list             # per dim: ("const", int) or ("operand", index)
    shape: tuple             # of the state
    update_shape: tuple
    item: int                # bytes per element


@dataclass
class NativeLoop:
    """One qualifying root while op and the layout of its loop entry point.

    Bindings: ``dev_in`` (device values read from outside: invariants and
    initial carried values), then one output per ``changing`` position, then
    one 8-byte result buffer per ``host_out`` position, then the scratch, then
    the call's bounds.  Push constants: ``host_in`` values, one or two words
    each."""
    op: object
    dev_in: list
    host_in: list
    changing: list                      # device positions whose value may change
    host_out: list                      # host positions used after the loop
    frames: list                        # Frame per while op, the root first
    host: set = field(default_factory=set)        # the function's host values
    in_place: dict = field(default_factory=dict)  # id(dispatch) -> InPlaceUpdate
    entry: int = -1                     # entry point ordinal, set by the pipeline

    @property
    def name(self) -> str:
        return f"loop{self.entry}_native"

    @property
    def scratch_bytes(self) -> int:
        """The scratch binding's size: the stats record, then every frame."""
        return LOOP_STATS_BYTES + sum(f.size for f in self.frames)

    @property
    def dispatches(self) -> list:
        return [o for o in self.op.walk() if o.name == "tvm.dispatch"]


def nbytes(t) -> int:
    return t.num_elements * numpy_dtype(t.element).itemsize


def scalar_type(t) -> bool:
    """A host scalar a native loop holds in a C variable."""
    return getattr(t, "element", None) in CTYPE and t.is_static and t.num_elements == 1


def _float(el: str) -> bool:
    return el in ("f32", "f64")


def _scalar_op(op, host) -> bool:
    if not has(op.name, NATIVE_SCALAR) or len(op.results) != 1 \
            or op.result not in host:
        return False
    if not all(scalar_type(v.type) for v in (*op.operands, op.result)):
        return False
    el = op.result.type.element
    name = op.short_name
    family = OPS[op.name].elements      # host ops on floats (sqrt) or on ints and bools (and)
    if family in (FLOAT, FLOAT_OR_COMPLEX) and not _float(el):
        return False
    if family == INT_OR_BOOL and _float(el):
        return False
    if name == "compare":
        ct = getattr(op.attributes.get("compare_type"), "value", None)
        src = op.operands[0].type.element
        if _float(src):
            return ct in (None, "FLOAT")
        return ct in (None, "SIGNED", "UNSIGNED")
    return True


class _NotNative(Exception):
    pass


class _Planner:
    """Walks a root while op: checks every op and lays out the scratch."""

    def __init__(self, host):
        self.host = host
        self.inner: set = set()
        self.dev_in: list = []
        self.host_in: list = []
        self.frames: list = []
        self.in_place: dict = {}

    def use(self, v) -> None:
        if v in self.inner:
            return
        if v in self.host:
            if not scalar_type(v.type):
                raise _NotNative
            if v not in self.host_in:
                self.host_in.append(v)
        else:
            if not getattr(v.type, "is_static", False):
                raise _NotNative
            if v not in self.dev_in:
                self.dev_in.append(v)

    def upload(self, v) -> None:
        """An outer host value read as device bytes: the VM uploads it."""
        if v in self.inner or not v.type.is_static:
            raise _NotNative
        if v not in self.dev_in:
            self.dev_in.append(v)

    def define(self, values) -> None:
        for v in values:
            if v in self.host:
                if not scalar_type(v.type):
                    raise _NotNative
            elif not getattr(v.type, "is_static", False) or not hasattr(v.type, "element"):
                raise _NotNative
            self.inner.add(v)

    def predicate(self, v) -> None:
        """A branch condition or case index: a host scalar, or a device scalar read."""
        if not scalar_type(v.type):
            raise _NotNative
        self.use(v)

    def loop(self, op, parent: Frame | None) -> Frame:
        frame = Frame(op)
        self.frames.append(frame)
        cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
        for v, r in zip(op.operands, op.results):
            if getattr(v.type, "element", None) is None or (r in self.host and v not in self.host):
                raise _NotNative              # a token, or a device init of a host position
            if v in self.host and r not in self.host:
                self.upload(v)                # a host init of a device position
            else:
                self.use(v)
        for blk in (cond, body):
            self.define(blk.arguments)
        self.block(cond, frame)
        self.predicate(cond.terminator.operands[0])
        self.block(body, frame)
        for y in body.terminator.operands:
            self.use(y)
        for j, chain in in_place_chains(op, self.host).items():
            frame.state[j] = frame.state_slot(nbytes(op.results[j].type))
            self.in_place.update(chain)
        for j, r in enumerate(op.results):
            if r not in self.host and j not in frame.state:
                frame.carry[j] = frame.slot(nbytes(r.type))
                if parent is not None:
                    frame.results[j] = parent.slot(nbytes(r.type))
        self.define(op.results)
        return frame

    def block(self, block, frame: Frame) -> None:
        for o in block.operations[:-1]:
            self.operation(o, frame)

    def operation(self, o, frame: Frame) -> None:
        name = o.name
        if name == "tvm.dispatch":
            if "tvm.dims" in o.attributes:
                raise _NotNative
            push = set(ints(o.attributes.get("push_constants")))
            for i, v in enumerate(o.operands):
                if v in self.host and not scalar_type(v.type):
                    self.upload(v)
                else:
                    self.use(v)
                    if v in self.host and i not in push:
                        frame.staged[(id(o), i)] = frame.slot(8)
            self.define(o.results)
            for r in o.results:
                frame.slots[r] = frame.slot(nbytes(r.type))
        elif name == "stablehlo.reshape" and o.result not in self.host \
                and o.operands[0] not in self.host:
            self.use(o.operands[0])
            self.define(o.results)          # an alias: same bytes, new shape
        elif name == "stablehlo.constant" and o.result not in self.host:
            self.use(o.result)              # module rodata, bound from outside
        elif name == "stablehlo.while":
            self.loop(o, frame)
        elif has(name, BRANCH):
            self.predicate(o.operands[0])
            for region in o.regions:
                blk = region.blocks[0]
                self.block(blk, frame)
                for y in blk.terminator.operands:
                    self.use(y)
            self.define(o.results)
        elif _scalar_op(o, self.host):
            for v in o.operands:
                self.use(v)
            self.define(o.results)
        else:
            raise _NotNative


def plan_native_loop(op, host) -> NativeLoop | None:
    """The layout of ``op``'s loop entry point, or None when it does not qualify."""
    if not any(o.name == "tvm.dispatch" for o in op.walk()):
        return None         # host scalars only: no executable to hold an entry point
    planner = _Planner(host)
    try:
        planner.loop(op, None)
    except _NotNative:
        return None
    body = op.regions[1].blocks[0]
    changing = [j for j, (r, y) in enumerate(zip(op.results, body.terminator.operands))
                if r not in host and y is not body.arguments[j]]
    host_out = [j for j, r in enumerate(op.results) if r in host and r.uses]
    off = 0
    for f in planner.frames:
        f.offset = off
        off += f.size
    return NativeLoop(op, planner.dev_in, planner.host_in, changing, host_out, planner.frames,
                      host=host, in_place=planner.in_place)


# -- carried state updated in place ---------------------------------------------------------

def in_place_chains(op, host) -> dict:
    """Carried device positions of while ``op`` that the body only updates
    with ``dynamic_update_slice`` dispatches (a KV cache written one step at a
    time): {position: {id(dispatch): InPlaceUpdate}}.  Such a position lives
    in one state buffer of the loop, and each update writes into it, which is
    safe when nothing reads the value an update replaces after that update
    (donation.update_chain)."""
    body = op.regions[1].blocks[0]
    order = {id(o): k for k, o in enumerate(body.operations)}

    def update(d, i):
        upd = as_update(d, host)
        return upd if upd is not None and upd.dest == i else None
    out = {}
    for j, arg in enumerate(body.arguments):
        if arg in host or op.results[j] in host:
            continue
        end = body.terminator.operands[j]
        chain, last = update_chain(arg, body, order, update)
        if chain and last is end and _only_yielded_at(end, body, j):
            out[j] = chain
    return out


def _only_yielded_at(v, body, j) -> bool:
    return [k for k, y in enumerate(body.terminator.operands) if same_bytes(y, v)] == [j]


def as_update(d, host) -> InPlaceUpdate | None:
    """The InPlaceUpdate of dispatch ``d`` when its region is one
    dynamic_update_slice of an operand by another operand (through shape-only
    ops) at constant or operand start indices, and reads its state operand
    nowhere else."""
    found = updated_operand(d)
    if found is None:
        return None
    k, dus = found
    upd = shape_view_source(dus.operands[1])
    args = list(d.regions[0].blocks[0].arguments)
    if upd not in args:
        return None
    u = args.index(upd)
    if same_bytes(d.operands[u], d.operands[k]) or same_bytes(d.operands[k], d.operands[u]):
        return None
    if not d.results[0].type.is_static or not upd.type.is_static:
        return None
    starts = []
    for s in dus.operands[2:]:
        if s in args:
            starts.append(("operand", args.index(s)))
        elif s.defining_op is not None and s.defining_op.name == "stablehlo.constant":
            starts.append(("const", int(np.asarray(s.defining_op.attributes["value"].array).reshape(-1)[0])))
        else:
            return None
    item = numpy_dtype(dus.result.type.element).itemsize
    return InPlaceUpdate(k, u, starts, tuple(dus.result.type.shape),
                         tuple(dus.operands[1].type.shape), item)


def constant_words(v) -> int:
    return 2 if v.type.element in ("i64", "ui64", "f64") else 1


def binding_count(loop: NativeLoop) -> int:
    return len(loop.dev_in) + len(loop.changing) + len(loop.host_out) + 2


def constant_word_count(loop: NativeLoop) -> int:
    return sum(constant_words(v) for v in loop.host_in)


def render_native_loop(loop: NativeLoop, kernel_of, count_of) -> str:
    """C source of the loop entry point (see native_loop_c.py)."""
    from .native_loop_c import render
    return render(loop, kernel_of, count_of)
