"""Kernel IR: what one dispatch computes, independent of the target.

A ``Kernel`` names its bindings (captured inputs, then outputs), the root op
whose results it stores, the iteration space (the root's result shape) and,
where it applies, a contraction (a dot_general with strided operands whose
consumers form an elementwise epilogue).  Targets render it: the CPU as a
loop nest over a range of workgroups, GPUs as one work-group per workgroup
whose work items stride over its tile (gpu.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..custom_kernels import KERNEL_ATTR
from ..dialects import registry
from ..dialects import stablehlo as shlo
from ..ir.attributes import ints
from ..ir.symbolic import Dim, cdiv

# Guess for a dynamic dim's size when sizing work per workgroup at compile time.
DYNAMIC_GUESS = 64

# Work (element-ops) a CPU workgroup should carry: big enough to amortise a
# worker hand-off, small enough to balance across workers.
WORKGROUP_WORK = 1 << 15

# Multiply-adds a contraction workgroup should carry: a worker hand-off costs
# tens of microseconds, so a GEMM under a few million MACs (the digits MLP's
# 450x64x64) stays below the drivers' inline threshold and runs on one thread.
CONTRACTION_WORK = 1 << 20

# Operand types a contraction reads as 16 bits and multiplies in f32.
NARROW = ("f16", "bf16")


@dataclass
class Contraction:
    """dot_general as batched (B x M x K) . (B x K x N) over strided buffers."""
    op: object
    lhs: object
    rhs: object
    B: int
    M: int
    N: int
    K: int
    lhs_strides: tuple   # (batch, m, k) element strides (batch: None when split, see below)
    rhs_strides: tuple   # (batch, k, n)
    out_groups: tuple    # (batch dims, m dims, n dims) sizes, in result order
    # the batch index as runs (size, lhs stride, rhs stride), outer first: one
    # run when the batch dims collapse on both operands, several when they do
    # not (attention's batch x heads over a [batch, seq, heads, dim] layout)
    batch_runs: tuple = ()
    # element offsets of the operands' first elements in their buffers (a slice read in place)
    offsets: tuple = (0, 0)

    @property
    def operand_element(self) -> str:
        """The element type both operands store (f16/bf16: ``NARROW``)."""
        return self.op.operands[0].type.element

    @property
    def accumulator_element(self) -> str:
        """The element type products accumulate in: f32 for narrow operands
        (one rounding, at the result, as XLA and IREE do), else the result's."""
        return "f32" if self.operand_element in NARROW else self.op.result.type.element

    def batch_offset(self, side: str, b: str) -> str:
        """C expression: the element offset of batch ``b`` in the ``side``
        ("lhs" or "rhs") operand."""
        col = 1 if side == "lhs" else 2
        base = self.offsets[col - 1]
        at = f"{base} + " if base else ""
        if len(self.batch_runs) <= 1:
            stride = (self.lhs_strides if side == "lhs" else self.rhs_strides)[0]
            return f"{at}{b} * {stride}"
        terms, inner = [], 1
        for run in reversed(self.batch_runs):
            q = b if inner == 1 else f"({b} / {inner})"
            idx = q if inner * run[0] == self.B else f"({q} % {run[0]})"
            terms.append(f"{idx} * {run[col]}")
            inner *= run[0]
        return "(" + at + " + ".join(reversed(terms)) + ")"


@dataclass
class Kernel:
    name: str
    inputs: list          # region block arguments, binding order
    outputs: list         # yielded values (all results of ``root``)
    root: object
    shape: tuple          # iteration space
    work: int             # estimated element-ops per output element
    contraction: Contraction | None = None
    convolution: object = None    # conv.Convolution: a direct convolution kernel applies
    kind: str = "loop"    # "loop", "contraction", or a sequential kind (sequential.py)
    constants: list = None    # block arguments passed as push constants (0-d host values)
    dims: tuple = ()          # shape symbols (Dim) passed as i64 push constants after those
    custom: object = None     # kind "custom": the user's CustomKernel (custom_kernels.py)
    packed_rhs: int = 0       # B a constant stored as panels this many columns wide (packed_weights.py)

    @property
    def num_bindings(self) -> int:
        return len(self.inputs) + len(self.outputs)

    @property
    def num_constant_words(self) -> int:
        """32-bit push-constant words (64-bit values take two, low word first)."""
        return sum(2 if v.type.element in ("i64", "ui64", "f64") else 1
                   for v in self.constants or ()) + 2 * len(self.dims)

    def dynamic_bindings(self):
        """(binding, bytes of its static part, its dynamic dims) for each binding
        whose shape depends on this kernel's dims: what a dispatch's buffers
        must be checked against once the dims are known (static shapes the HAL
        checks by ``binding_bytes``)."""
        from ..ir.types import numpy_dtype
        known = set(self.dims)
        for k, v in enumerate((*self.inputs, *self.outputs)):
            shape = tuple(getattr(v.type, "shape", ()))
            dyn = [d for d in shape if type(d) is not int]
            if not dyn or not all(d.symbols() <= known for d in dyn):
                continue
            try:
                size = numpy_dtype(v.type.element).itemsize
            except (KeyError, AttributeError, TypeError):
                continue
            for d in shape:
                if type(d) is int:
                    size *= d
            yield k, size, dyn

    def binding_shapes(self) -> list | None:
        """The entry point's ``binding_shapes`` (docs/vmfb.md): per binding None
        or [bytes of the static part, [each dynamic dim in postfix over the
        i64 push constants "$word"]], so the HAL checks dynamic bindings of
        kernels that cannot check themselves (GPU) before launching them."""
        words = self.num_constant_words - 2 * len(self.dims)
        word_of = {sym: f"${words + 2 * i}" for i, sym in enumerate(self.dims)}
        out = [None] * self.num_bindings
        for k, size, dyn in self.dynamic_bindings():
            out[k] = [size, [_postfix(d, word_of) for d in dyn]]
        return out if any(out) else None


def _postfix(d, word_of) -> list:
    """``d`` (a Dim or int) as a postfix token list: ints, "$word", operators."""
    if type(d) is int:
        return [d]
    if d.is_symbol:
        return [word_of[d]]
    a, b = d.args
    return [*_postfix(a, word_of), *_postfix(b, word_of), d.op]


def build_kernel(dispatch, customs=None) -> Kernel:
    """The Kernel of a ``tvm.dispatch`` (``customs``: the declared custom
    kernels by name, for dispatches of a ``custom_call``)."""
    block = dispatch.regions[0].blocks[0]
    outs = list(block.terminator.operands)
    root = outs[0].defining_op
    work, row_reductions = 1, 0
    for op in block.operations:
        if op.name == "stablehlo.reduce" and op is not root \
                and tuple(op.operands[0].type.shape) == tuple(outs[0].type.shape) \
                and tuple(ints(op.attr("dimensions"))) == (len(outs[0].type.shape) - 1,):
            row_reductions += 1       # fused row reduction: one pass per row, not per element
        elif op.name == "stablehlo.reduce":
            shape = op.operands[0].type.shape
            for d in ints(op.attr("dimensions")):
                work *= _size_guess(shape[d])
        elif op.name == "stablehlo.reduce_window" and "window_dimensions" in op.attributes:
            for w in ints(op.attr("window_dimensions")):     # a pooling reads each tap
                work *= _size_guess(w)
        elif op.name == "stablehlo.dot_general":
            dn = op.attr("dot_dimension_numbers").fields
            for d in dn.get("lhs_contracting_dimensions", ()):
                work *= _size_guess(op.operands[0].type.shape[d])
        elif op.name == "stablehlo.convolution":
            dn = op.attr("dimension_numbers").fields
            kshape = op.operands[1].type.shape
            for d in (dn["kernel_input_feature_dimension"], *dn["kernel_spatial_dimensions"]):
                work *= _size_guess(kshape[d])
    work += row_reductions
    push = set(ints(dispatch.attributes.get("push_constants")))
    inputs = [a for i, a in enumerate(block.arguments) if i not in push]
    consts = [a for i, a in enumerate(block.arguments) if i in push]
    kernel = Kernel(dispatch.attributes["name"].value, inputs, outs, root,
                    tuple(outs[0].type.shape), work, constants=consts,
                    dims=tuple(dispatch.attributes.get("tvm.dims", ())))
    if KERNEL_ATTR in root.attributes:
        kernel.kind, kernel.custom = "custom", (customs or {})[root.attributes[KERNEL_ATTR].value]
        return kernel
    if root.name in shlo.SEQUENTIAL:
        kernel.kind = root.short_name
        return kernel
    from .attention import ATTENTION, kernel_pv
    if ATTENTION in getattr(kernel_pv(kernel), "attributes", {}):
        kernel.kind = "attention"      # (passes/fuse_attention.py; rendered by codegen/attention.py)
        return kernel
    kernel.contraction = _find_contraction(root, set(inputs))
    if kernel.contraction is not None:
        kernel.kind = "contraction"
    elif len(outs) == 1:
        from .conv import find_convolution
        kernel.convolution = find_convolution(root, set(inputs))
    return kernel


def epilogue_root(root, name):
    """The ``name`` op reached from ``root`` through same-shape elementwise
    ops (a heavy dispatch root's fused epilogue), or None."""
    op = root
    while op is not None and op.name != name:
        if op.name not in shlo.ELEMENTWISE or len(op.results) != 1:
            return None
        shape = op.result.type.shape
        nxt = [v.defining_op for v in op.operands
               if v.type.shape == shape and v.defining_op is not None
               and _reaches(v.defining_op, name)]
        if not nxt:
            return None
        op = nxt[0]     # a forked epilogue's branches all lead to the one heavy op
    return op


class StoreView(NamedTuple):
    """How a transposing kernel output is stored (``store_view``)."""
    perm: tuple           # the transpose's permutation
    shape: tuple          # the output's shape
    mid: tuple | None     # the shape a reshape gives the value first, or None


def store_view(v):
    """(value, StoreView or None): a kernel output ``v`` that is a transpose
    (of a single-use reshape) of ``value`` is stored as ``value``'s elements
    at permuted places: a heavy op's result written in its consumer's layout
    (attention's head merge, passes/dispatch.py); else (v, None)."""
    op = v.defining_op
    if op is None or op.name != "stablehlo.transpose":
        return v, None
    src, mid = op.operands[0], None
    r = src.defining_op
    if r is not None and r.name == "stablehlo.reshape" and len(src.uses) == 1:
        src, mid = r.operands[0], tuple(src.type.shape)
    return src, StoreView(tuple(ints(op.attr("permutation"))), tuple(v.type.shape), mid)


def _find_contraction(root, captured) -> Contraction | None:
    """The dot_general reached from ``root`` (or the value a transposing
    root stores, ``store_view``) through same-shape elementwise ops, if its
    operands are captured buffers (or transposes of them) and its layout is
    strided."""
    src = store_view(root.results[0])[0].defining_op if len(root.results) == 1 else root
    dot = epilogue_root(src, "stablehlo.dot_general") if src is not None else None
    if dot is None:
        return None
    lhs, rhs = dot.operands
    lhs_buf, ls, lo = _strided_view(lhs, captured)
    rhs_buf, rs, ro = _strided_view(rhs, captured)
    if lhs_buf is None or rhs_buf is None:
        return None
    el, op_el = dot.result.type.element, lhs.type.element
    if rhs.type.element != op_el or not (
            el in ("f32", "f64") and op_el == el or op_el in NARROW and el in (op_el, "f32")):
        return None
    dn = dot.attr("dot_dimension_numbers").fields
    lb, rb = tuple(dn.get("lhs_batching_dimensions", ())), tuple(dn.get("rhs_batching_dimensions", ()))
    lc, rc = tuple(dn.get("lhs_contracting_dimensions", ())), tuple(dn.get("rhs_contracting_dimensions", ()))
    lfree = tuple(d for d in range(lhs.type.rank) if d not in lb and d not in lc)
    rfree = tuple(d for d in range(rhs.type.rank) if d not in rb and d not in rc)
    runs = _batch_runs(lb, rb, lhs.type.shape, ls, rhs.type.shape, rs)
    k_l = _collapse(lc, lhs.type.shape, ls)
    k_r = _collapse(rc, rhs.type.shape, rs)
    gm = _collapse(lfree, lhs.type.shape, ls)
    gn = _collapse(rfree, rhs.type.shape, rs)
    if runs is None or k_l is None or k_r is None or gm is None or gn is None:
        return None
    B = 1
    for run in runs:
        B = B * run[0]
    one = len(runs) <= 1
    b_l = (runs[0][1] if runs else 0) if one else None
    b_r = (runs[0][2] if runs else 0) if one else None
    M, N, K = gm[0], gn[0], k_l[0]
    sizes = lambda dims, shape: tuple(shape[d] for d in dims)
    return Contraction(dot, lhs_buf, rhs_buf, B, M, N, K,
                       (b_l, gm[1], k_l[1]), (b_r, k_r[1], gn[1]),
                       (sizes(lb, lhs.type.shape), sizes(lfree, lhs.type.shape),
                        sizes(rfree, rhs.type.shape)), tuple(runs), (lo, ro))


def _strided_view(v, captured):
    """(buffer, element strides of ``v`` in it, element offset) for a dot
    operand: a captured buffer itself, or a view of one (``view_source``);
    else (None, None, 0)."""
    if v in captured:
        return v, row_major_strides(v.type.shape), 0
    src, strides, offset = view_source(v, lambda op: True)
    if src is not v and src in captured and strides is not None:
        return src, strides, offset
    return None, None, 0


def view_source(v, usable):
    """(source, element strides of ``v`` in the source's row-major buffer,
    element offset of ``v``'s first element there) when ``v`` is a chain of
    views of the source made by ops ``usable(op)`` accepts: transposes
    (strides permuted), broadcasts that add dims or expand unit dims in
    order (stride 0 there), reshapes that only split dims, static slices
    (strides scaled, the start added to the offset: a decode step's layer
    of a KV cache); strides None when a shape is not static.  Otherwise
    (v, its own row-major strides, 0)."""
    op = v.defining_op
    if op is None or not (registry.has(op.name, registry.VIEW) or op.name == "stablehlo.slice") \
            or not usable(op):
        return v, (row_major_strides(v.type.shape) if v.type.is_static else None), 0
    inner = op.operands[0]
    src, st, offset = view_source(inner, usable)
    if st is None or not v.type.is_static:
        return src, None, 0
    shape, ishape = v.type.shape, inner.type.shape
    if op.name == "stablehlo.slice":
        start = ints(op.attr("start_indices"))
        step = ints(op.attr("strides")) or (1,) * len(start)
        return src, tuple(s * k for s, k in zip(st, step)), offset + sum(s * b for s, b in zip(st, start))
    if op.name == "stablehlo.transpose":
        return src, tuple(st[p] for p in ints(op.attr("permutation"))), offset
    if op.name == "stablehlo.broadcast_in_dim":
        dims = list(ints(op.attr("broadcast_dimensions")))
        if dims != sorted(dims):
            return v, row_major_strides(shape), 0
        out = [0] * len(shape)
        for k, d in enumerate(dims):
            out[d] = st[k] if ishape[k] == shape[d] else 0
        return src, tuple(out), offset
    out, d = [], len(shape)                 # a reshape: each inner dim split into a group
    for k in reversed(range(len(ishape))):
        size, stride = 1, st[k]
        while d > 0 and size < ishape[k]:
            d -= 1
            out.append(stride * size)
            size *= shape[d]
        if size != ishape[k]:
            return v, row_major_strides(shape), 0
    while d > 0:                            # leading unit dims
        d -= 1
        if shape[d] != 1:
            return v, row_major_strides(shape), 0
        out.append(0)
    return src, tuple(reversed(out)), offset


def _size_guess(d) -> int:
    return DYNAMIC_GUESS if isinstance(d, Dim) else max(1, d)


def _reaches(op, name) -> bool:
    """Whether an ``name`` op is reached from ``op`` backwards through
    same-shape elementwise ops (each op visited once: a forked epilogue
    meets itself again many times)."""
    todo, seen = [op], {id(op)}
    while todo:
        o = todo.pop()
        if o.name == name:
            return True
        if o.name not in shlo.ELEMENTWISE:
            continue
        for v in o.operands:
            d = v.defining_op
            if d is not None and id(d) not in seen and v.type.shape == o.result.type.shape:
                seen.add(id(d))
                todo.append(d)
    return False


def row_major_strides(shape):
    out, s = [], 1
    for d in reversed(shape):
        out.append(s)
        s *= d
    return tuple(reversed(out))


def _batch_runs(lb, rb, lshape, ls, rshape, rs):
    """The paired batch dims as maximal runs (size, lhs stride, rhs stride)
    that are uniformly strided in both operands, outer first; several runs
    only for static sizes (their offsets are compiled as mixed-radix
    constants); None when a dynamic batch does not collapse."""
    pairs = [(dl, dr) for dl, dr in zip(lb, rb) if lshape[dl] != 1]
    runs = []
    for dl, dr in pairs:
        size = lshape[dl]
        if runs:
            s, sl, sr = runs[-1]
            if sl == ls[dl] * size and sr == rs[dr] * size:
                runs[-1] = (s * size, ls[dl], rs[dr])
                continue
        runs.append((size, ls[dl], rs[dr]))
    if len(runs) > 1 and any(isinstance(r[0], Dim) for r in runs):
        return None
    return runs


def _collapse(dims, shape, strides):
    """(size, stride) of ``dims`` viewed as one dimension, or None when they
    are not one uniformly strided run in the buffer."""
    dims = [d for d in dims if shape[d] != 1]
    if not dims:
        return (1, 0)
    size = 1
    for d in dims:
        size *= shape[d]
    for a, b in zip(dims, dims[1:]):
        if strides[a] != strides[b] * shape[b]:
            return None
    return (size, strides[dims[-1]])


class ContractionPlan(NamedTuple):
    """How workgroups tile a contraction's (B*M rows) x N outputs: workgroup
    ``wg`` covers row block ``wg % row_blocks`` (``rows`` rows) and column
    block ``wg // row_blocks`` (``cols`` columns; ``cols == N`` when columns
    are not split, always so for dynamic shapes)."""
    rows: object
    cols: object
    row_blocks: object
    col_blocks: int
    count: object


def contraction_plan(c: Contraction, row_block: int = 8, col_block: int = 32,
                     strip_rows: int = 0) -> ContractionPlan:
    """The workgroup tiling of a contraction (see ``ContractionPlan``).

    Rows come in multiples of ``row_block``; when even that many rows carry
    much more than a workgroup's work (few rows, large K * N), columns are
    split too, in multiples of ``col_block``, so that a GEMV-like or
    few-row product still spreads over workers.  ``strip_rows`` (the CPU's
    packed GEMM: the rows one packed B panel serves): a static product of
    at most that many rows whose columns are split has workgroups of all
    its rows, column strips, so that any run of workgroups a thread claims
    packs each B panel once (row blocks of a strip split between claims
    packed it once per claim: BERT-base's 128-row products).  The counts
    of a module's CPU and GPU variants may differ (grids.py)."""
    rows = c.B * c.M
    work = CONTRACTION_WORK
    if any(isinstance(d, Dim) for d in (c.B, c.M, c.N, c.K)):
        kn = _size_guess(c.K) * _size_guess(c.N)
        rpw = max(row_block, work // kn // row_block * row_block or row_block)
        if not isinstance(rows, Dim):
            rpw = max(row_block, min(rows, rpw))
        count = cdiv(rows, rpw)
        return ContractionPlan(rpw, c.N, count, 1, count)
    rpw = max(row_block, min(rows, work // max(1, c.K * c.N) // row_block * row_block or row_block))
    row_blocks = -(-rows // rpw) if rows else 0
    if rpw * c.K * c.N <= 2 * work or c.N <= col_block:
        return ContractionPlan(rpw, c.N, row_blocks, 1, row_blocks)
    if rows <= strip_rows:
        cpw = max(col_block, work // max(1, max(rows, row_block) * c.K) // col_block * col_block)
        if cpw < c.N:
            cb = -(-c.N // cpw)
            return ContractionPlan(rows, cpw, 1, cb, cb)
    cpw = max(col_block, work // max(1, rpw * c.K) // col_block * col_block)
    if cpw >= c.N:
        return ContractionPlan(rpw, c.N, row_blocks, 1, row_blocks)
    cb = -(-c.N // cpw)
    return ContractionPlan(rpw, cpw, row_blocks, cb, row_blocks * cb)


def workgroup_plan(kernel: Kernel, budget: int = WORKGROUP_WORK):
    """(rows per workgroup, inner chunk, chunks per row, workgroup count) for
    a loop kernel; rows are all dims but the last; about ``budget`` element-ops
    per workgroup (GPU grids pass a smaller one: gpu.py).  Target independent,
    like ``contraction_plan``."""
    shape = kernel.shape
    if not shape:
        return 1, 1, 1, 1
    if kernel.convolution is not None:
        from .conv import convolution_plan
        return convolution_plan(kernel, WORKGROUP_WORK)
    if any(isinstance(d, Dim) for d in shape):
        return _dynamic_workgroup_plan(kernel, budget)
    inner = shape[-1]
    rows = 1
    for d in shape[:-1]:
        rows *= d
    if rows == 0 or inner == 0:
        return 1, max(inner, 1), 1, 0
    per_row = inner * kernel.work
    if per_row >= budget and inner > 1:
        chunk = max(16, budget // max(kernel.work, 1))
        chunk = min(inner, (chunk + 15) // 16 * 16)
        chunks = -(-inner // chunk)
        return 1, chunk, chunks, rows * chunks
    rpw = max(1, budget // per_row)
    return rpw, inner, 1, -(-rows // rpw)


def _dynamic_workgroup_plan(kernel: Kernel, budget: int):
    """workgroup_plan when some dims are symbols: the tiling (rows per
    workgroup, chunk) is chosen from the static part and a guess for the
    symbols; the counts are expressions the host evaluates at run time."""
    shape = kernel.shape
    inner = shape[-1]
    rows = 1
    for d in shape[:-1]:
        rows = rows * d
    per_row = _size_guess(inner) * kernel.work
    if isinstance(inner, Dim) or (per_row >= budget and inner > 1):
        chunk = max(16, budget // max(kernel.work, 1))
        chunk = (chunk + 15) // 16 * 16
        if not isinstance(inner, Dim):
            chunk = min(inner, chunk)
        chunks = cdiv(inner, chunk)
        return 1, chunk, chunks, rows * chunks
    rpw = max(1, budget // per_row)
    return rpw, inner, 1, cdiv(rows, rpw)
