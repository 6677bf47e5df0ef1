"""Dispatch-region formation: group tensor ops into ``tvm.dispatch`` ops.

Every value is either *materialized* (it lives in a buffer: function
arguments, large constants, dispatch results) or *fused* (recomputed inside
the kernels that read it).  A value is materialized when
  - the function returns it;
  - a heavy op (reduce, dot_general, convolution, ...) makes it, unless its
    single consumer is an elementwise op of the same shape, which then takes
    it as an epilogue; the epilogue chain goes on through single-consumer,
    same-shape elementwise ops (and through a fork whose branches meet again
    in one such op: an exact GELU, a SiLU) and ends where anything else
    reads it: a heavy
    op is only ever the ROOT of a dispatch, never a producer recomputed per
    consumer element, and a dispatch holds at most one heavy op;
  - several ops read it and recomputing it is not trivially cheap, unless
    all its readers lead through same-index elementwise ops into one
    dispatch, which then computes it once (shared_values.py);
  - a dot_general or a convolution reads it (their kernels want strided
    buffers); a dot_general operand made by a transpose stays fused and the
    transpose's input is materialized instead (read with permuted strides);
  - a broadcast expands it by ``RECOMPUTE_EXPANSION`` or more and it is made
    by a costly fused op (a transcendental or a division; from 2 repeats on
    for a scalar libm call such as sin): computed once into a small buffer
    instead of once per element of the broadcast;
  - it is a reshape of a materialized value (a free alias, no dispatch);
  - a custom kernel or host call (custom_kernels.py) reads or makes it: a
    custom kernel roots a dispatch of its own, a host call stays outside.
Each op that makes a materialized value roots one dispatch; the dispatch's
region holds the root and, transitively, every fused producer (cheap
producers may be copied into several dispatches).  Outside, the function
keeps only dispatches, large constants, alias reshapes and the return.
"""
from __future__ import annotations

from ..custom_kernels import HOST_CALL_ATTR, KERNEL_ATTR
from ..host.collectives import COLLECTIVE_OPS
from ..host.host_transfer import HOST_TRANSFER_OPS, TOKEN_OPS
from ..dialects import registry
from ..dialects import stablehlo as shlo
from ..errors import UnsupportedOpError
from ..ir.attributes import DenseArrayAttr, StringAttr, ints
from ..ir.clone import clone_op
from ..ir.core import Block, Operation, Region
from ..ir.types import TensorType
from .base import Pass
from .recompute_costs import RECOMPUTE_EXPANSION, cheap, costly, expansion, inlinable_constant
from .host_values import HOST_ATTR, REGION_OPS, analyze_block
from .shapes import is_shape_assertion, shape_operands
from .row_fusion import row_broadcast, bound_rows, row_fusible
from .shared_values import converging, keep_fused

# ops the host program runs itself (channel and queue calls, tokens): never in a kernel
HOST_RUN_OPS = COLLECTIVE_OPS | HOST_TRANSFER_OPS | TOKEN_OPS

_RESHAPES = registry.with_trait(registry.ALIAS)

class FormDispatchRegions(Pass):
    """``row_fusion``: fuse row reductions into the kernels that read them
    back per row (row_fusion.py); for CPU-only compiles."""
    name = "form-dispatch-regions"

    def __init__(self, row_fusion: bool = False):
        self.row_fusion = row_fusion
        self.rows = set()

    def run(self, module) -> None:
        self.counter = 0    # per module: every function's kernels share one executable
        for f in module.functions:
            self.run_on_function(f)

    def run_on_function(self, func) -> None:
        block = func.regions[0].blocks[0]
        self.host = analyze_block(block, [False] * len(block.arguments))
        self.run_on_block(block)

    def run_on_block(self, block) -> None:
        """Forms dispatches in ``block`` and, first, in the regions of its
        control-flow ops; host ops and control flow stay outside kernels."""
        ret = block.terminator
        ops = [op for op in block.operations[:-1] if op.name != "tvm.dispatch"]
        formed = [op for op in block.operations[:-1] if op.name == "tvm.dispatch"]
        for op in ops:
            if op.name in REGION_OPS:
                for region in op.regions:
                    for b in region.blocks:
                        self.run_on_block(b)
                continue
            if (HOST_ATTR in op.attributes or is_shape_assertion(op) or HOST_CALL_ATTR in op.attributes
                    or op.name in HOST_RUN_OPS):
                continue
            if op.name not in shlo.KERNEL_OPS and KERNEL_ATTR not in op.attributes:
                raise UnsupportedOpError(op.name, registry.rejected_reason(op.name) or "",
                                         op.location)
            for r in op.results:
                if not isinstance(r.type, TensorType):
                    raise UnsupportedOpError(op.name, f"result type {r.type}", op.location)
        mat = self._materialized(block, ops, ret, formed)
        for op in ops:
            if op.name in REGION_OPS or HOST_ATTR in op.attributes or is_shape_assertion(op) \
                    or HOST_CALL_ATTR in op.attributes or op.name in HOST_RUN_OPS:
                continue
            if self._is_root(op, mat):
                self._form(op, mat, block)

    # -- which values live in buffers ---------------------------------------------
    def _materialized(self, block, ops, ret, formed=()) -> set:
        mat = set(block.arguments)
        mat.update(ret.operands)
        for op in formed:       # dispatches formed by an earlier pass (fuse_attention.py)
            mat.update(op.operands)
            mat.update(op.results)
        for op in ops:
            if op.name in _STRIDED_OPERANDS:
                mat.update(_strided_source(op, v, block) for v in op.operands)
            if op.name in REGION_OPS:
                mat.update(op.operands)
                mat.update(_captured_by_regions(op, block))
            if KERNEL_ATTR in op.attributes or HOST_CALL_ATTR in op.attributes \
                    or op.name in HOST_RUN_OPS:
                mat.update(op.operands)     # user code / the channel reads and writes
                mat.update(op.results)      # whole buffers
        if _in_loop_body(block):  # a loop's state update: the native loop writes it in place
            for op in ops:
                if op.name == "stablehlo.dynamic_update_slice":
                    src = shape_view_source(op.operands[1])
                    if src not in self.host:
                        mat.add(src)
        for op in ops:          # device values the host reads (read back) live in buffers
            if HOST_ATTR in op.attributes or is_shape_assertion(op):
                reads = op.operands
            else:
                reads = [op.operands[i] for i in shape_operands(op) if i < len(op.operands)]
            mat.update(v for v in reads if v not in self.host)
        forced, shared = set(mat), set()    # (shared: materialized for having several readers)
        for op in ops:
            if op.name in REGION_OPS or HOST_ATTR in op.attributes or is_shape_assertion(op) \
                    or HOST_CALL_ATTR in op.attributes or KERNEL_ATTR in op.attributes \
                    or op.name in HOST_RUN_OPS:
                continue
            res = op.results
            if op.name == "stablehlo.constant":
                if not inlinable_constant(op):
                    mat.update(res)
                continue
            if op.name in _RESHAPES and op.operands[0] in mat:
                mat.update(res)          # alias: same buffer, new shape
                continue
            users = {u for r in res for u, _ in r.uses}
            if op.name in shlo.SEQUENTIAL:
                mat.update(res)
            elif op.name in shlo.HEAVY and self.row_fusion and row_fusible(op, ret):
                self.rows.add(op)
            elif op.name in shlo.HEAVY and not self._epilogue_fusible(op, ret):
                mat.update(res)
            elif len(users) > 1 and not cheap(op, mat):
                mat.update(res)
                shared.update(res)
        self._bound_recompute(ops, mat, shared - forced)
        keep_fused(ops, mat, shared - forced)
        bound_rows(ops, mat, self.rows)
        return mat

    def _bound_recompute(self, ops, mat, shared) -> None:
        """Materializes what fusion would otherwise recompute: the end of each
        heavy op's epilogue chain, and costly values under a wide broadcast.
        Runs in program order, so each op sees its operands' final state.
        An epilogue that forks and meets again in one op (an exact GELU
        reads x + bias twice, a SiLU x * sigmoid(x)) stays in the heavy
        op's kernel, its shared values computed once per element there."""
        tainted = {}      # fused value -> the heavy op its computation holds
        for op in ops:
            if op.name in REGION_OPS or HOST_ATTR in op.attributes or is_shape_assertion(op) \
                    or HOST_CALL_ATTR in op.attributes:
                continue
            if registry.has(op.name, registry.BROADCAST) and op.name != "stablehlo.broadcast":
                src = op.operands[0]
                cost = costly(src, mat) if src not in mat else 0
                if cost and expansion(src, op.result) >= RECOMPUTE_EXPANSION[cost] \
                        and not (self.rows and row_broadcast(op, op.result.type.shape)):
                    mat.add(src)        # (a row kernel computes a row broadcast's source once a row)
            heavy_in = [v for v in op.operands if v in tainted and v not in mat]
            rooted = all(r in mat for r in op.results)
            if op.name in shlo.HEAVY:
                mat.update(heavy_in)            # a heavy op reads buffers, never recomputes one
                if not rooted and op not in self.rows:
                    tainted.update((r, op) for r in op.results)
                continue
            if not heavy_in:
                continue
            epilogue = (op.name in shlo.ELEMENTWISE and len(op.results) == 1
                        and all(v.type.shape == op.result.type.shape for v in heavy_in))
            if _stores_transposed(op):
                mat.update(op.results)          # the heavy op's dispatch stores it permuted
                continue
            if _feeds_stored_transpose(op):
                tainted.update((r, tainted[heavy_in[0]]) for r in op.results)
                continue
            if not epilogue:
                mat.update(heavy_in)
                continue
            source = tainted[heavy_in[-1]]      # one heavy op per dispatch
            mat.update(v for v in heavy_in if tainted[v] is not source)
            if not rooted:
                tainted[op.result] = source
                if len({u for u, _ in op.result.uses}) > 1:
                    # the epilogue forks: fused where the branches meet again in
                    # one op; else a buffer, or each branch's dispatch would redo
                    # the heavy op
                    between = converging(op.result, mat, shared)
                    if between is None:
                        mat.add(op.result)
                    else:
                        mat.difference_update(between)

    @staticmethod
    def _epilogue_fusible(op, ret) -> bool:
        if len(op.results) != 1:
            return False
        r = op.result
        if len(r.uses) != 1 or r in ret.operands:
            return False
        user = r.uses[0][0]
        return (user.name in shlo.ELEMENTWISE and len(user.results) == 1
                and user.result.type.shape == r.type.shape) \
            or _stores_transposed(user) or _feeds_stored_transpose(user)

    @staticmethod
    def _is_root(op, mat) -> bool:
        if op.name == "stablehlo.constant":
            return False
        if op.name in _RESHAPES and op.operands[0] in mat:
            return False
        return any(r in mat for r in op.results)

    # -- building the region ---------------------------------------------------------
    def _form(self, root, mat, block) -> None:
        captures: list = []
        fused: list = []
        seen = set()

        in_fused = set()

        def inputs(producer):
            skip = shape_operands(producer)     # read on the host, not in the kernel
            for i, operand in enumerate(producer.operands):
                if i not in skip:
                    yield operand
            for region in producer.regions:
                for inner in region.blocks[0].operations:
                    for operand in inner.operands:
                        if _outside(operand, producer):
                            yield operand

        def visit(start):
            """Depth-first over the producers of ``start`` (captures in
            pre-order, fused ops in post-order), with an explicit stack so a
            chain of any length fits."""
            work = [(start, None)]
            while work:
                v, pending = work[-1]
                if pending is None:
                    work.pop()
                    if v in seen:
                        continue
                    seen.add(v)
                    producer = v.defining_op
                    if (v in mat or producer is None or producer.parent is not block
                            or producer.name in REGION_OPS or HOST_ATTR in producer.attributes):
                        captures.append(v)
                        continue
                    work.append((v, inputs(producer)))
                    continue
                operand = next(pending, None)
                if operand is not None:
                    work.append((operand, None))
                    continue
                work.pop()
                producer = v.defining_op
                if id(producer) not in in_fused:
                    in_fused.add(id(producer))
                    fused.append(producer)

        skip = shape_operands(root)
        for i, operand in enumerate(root.operands):
            if i not in skip:
                visit(operand)
        order = {id(op): i for i, op in enumerate(block.operations)}
        fused.sort(key=lambda op: order[id(op)])

        body = Block([v.type for v in captures])
        mapping = dict(zip(captures, body.arguments))
        for op in fused + [root]:
            body.append(clone_op(op, mapping))
        body.append(Operation("tvm.yield", [mapping[r] for r in root.results]))
        name = f"d{self.counter}_{root.short_name}"
        self.counter += 1
        push = () if KERNEL_ATTR in root.attributes else tuple(   # (user ABI: buffers only)
                     i for i, v in enumerate(captures)
                     if v in self.host and v.type.rank == 0 and not (
                         v.defining_op is not None and v.defining_op.name == "stablehlo.constant"))
        attrs = {"name": StringAttr(name)}
        if push:
            attrs["push_constants"] = DenseArrayAttr("i64", push)
        dispatch = Operation("tvm.dispatch", captures, [r.type for r in root.results],
                             attrs, [Region([body])], root.location)
        block.insert_before(root, dispatch)
        for old, new in zip(root.results, dispatch.results):
            old.replace_all_uses_with(new)
        if root.name == "stablehlo.rng_bit_generator" or KERNEL_ATTR in root.attributes:
            root.erase()     # pure (state in, state out; a kernel's effect is its results),
            #                  though DCE keeps these
        for r in root.results:
            if r in mat:
                mat.discard(r)
        mat.update(dispatch.results)


_STRIDED_OPERANDS = registry.with_trait(registry.STRIDED)


def _feeds_stored_transpose(op) -> bool:
    """A reshape whose one reader is a ``_stores_transposed`` transpose."""
    if op.name != "stablehlo.reshape" or len(op.result.uses) != 1:
        return False
    return _stores_transposed(op.result.uses[0][0])


def _stores_transposed(op) -> bool:
    """Transpose ``op`` of a dot_general's result (or of its epilogue, or a
    reshape of either) that
    the product's dispatch stores directly in the transposed layout
    (codegen/kernel.py ``store_view``): attention's head merge before the
    output projection, which would otherwise be a copy dispatch.  Only when
    the last dim stays last (rows are still stored contiguously), the value
    transposed has no other reader, and not every reader of the transpose
    is a dot_general (those read it through permuted strides anyway)."""
    if op.name != "stablehlo.transpose" or op.result.type.element not in ("f32", "f64"):
        return False
    from ..codegen.kernel import epilogue_root, store_view
    perm = tuple(ints(op.attr("permutation")))
    if not perm or perm[-1] != len(perm) - 1 or perm == tuple(range(len(perm))):
        return False
    src, view = store_view(op.result)
    if len(src.uses) != 1 or not src.type.is_static or len(op.operands[0].uses) != 1 \
            or (view.mid is not None and src.type.shape[-1] != view.mid[-1]):
        return False
    users = [u for u, _ in op.result.uses]
    if users and all(u.name == "stablehlo.dot_general" for u in users):
        return False
    prod = src.defining_op
    return prod is not None and epilogue_root(prod, "stablehlo.dot_general") is not None


def _strided_source(op, value, block):
    """The buffer a strided-operand op reads ``value`` from: a dot_general
    reads a transpose's input with permuted strides, and a broadcast that
    adds batch dims (grouped-query attention's key/value heads repeated)
    with stride 0 (codegen's ``_find_contraction``), so neither costs a
    dispatch of its own."""
    if op.name != "stablehlo.dot_general":
        return value
    from ..codegen.kernel import view_source
    src, strides, _ = view_source(value, lambda p: p.parent is block and HOST_ATTR not in p.attributes)
    if src is not value and _collapsible(op, value, strides):
        return src
    return value


def _collapsible(dot, value, strides) -> bool:
    """Whether the contraction kernel can read dot operand ``value`` through
    ``strides`` (permuted, 0 for broadcast dims): its contracting and free
    dims must each be one uniformly strided run with no broadcast (its
    batch dims may be several runs).  Otherwise the view is materialized (a
    cheap copy) rather than leaving the dot to the scalar loop kernel (the
    LSTM/GRU input projection: 25x slower)."""
    from ..codegen.kernel import _collapse
    if strides is None:
        return False     # a dynamic extent has no static stride: materialize the view
    side = "lhs" if dot.operands[0] is value else "rhs"
    dn = dot.attr("dot_dimension_numbers").fields
    batch = tuple(dn.get(f"{side}_batching_dimensions", ()))
    contract = tuple(dn.get(f"{side}_contracting_dimensions", ()))
    free = tuple(d for d in range(value.type.rank) if d not in batch and d not in contract)
    shape = value.type.shape
    # batch dims may be several strided runs (a static shape: Contraction.batch_runs)
    return all(strides[d] or shape[d] == 1 for d in (*contract, *free)) and \
        all(_collapse(dims, shape, strides) is not None for dims in (contract, free))


def _outside(value, op) -> bool:
    """True when ``value`` is defined outside ``op``'s regions."""
    node = value.owner
    while node is not None:
        if node is op:
            return False
        node = node.parent
    return True


def _captured_by_regions(op, block) -> set:
    """Values of ``block`` read inside ``op``'s regions (they must live in buffers
    or host registers, not be fused)."""
    out = set()
    for inner in op.walk():
        if inner is op:
            continue
        for v in inner.operands:
            owner = v.owner
            home = owner.parent if hasattr(owner, "results") else owner
            if home is block:
                out.add(v)
    return out


def _in_loop_body(block) -> bool:
    """``block`` is (inside) the body of a ``stablehlo.while``."""
    region = block.parent
    while region is not None and region.parent is not None:
        owner = region.parent
        if owner.name == "stablehlo.while" and region is owner.regions[1]:
            return True
        region = owner.parent.parent if owner.parent is not None else None
    return False


def shape_view_source(v):
    """The value ``v`` relabels: reshapes and broadcasts that only add unit
    dims keep the bytes and their order (a dynamic_update_slice's update is
    often its source with the slice's unit dims added)."""
    while True:
        op = v.defining_op
        if op is None:
            return v
        if op.name == "stablehlo.reshape":
            v = op.operands[0]
        elif (op.name == "stablehlo.broadcast_in_dim"
              and op.operands[0].type.num_elements == op.result.type.num_elements
              and list(ints(op.attr("broadcast_dimensions"))) == sorted(ints(op.attr("broadcast_dimensions")))):
            v = op.operands[0]
        else:
            return v
