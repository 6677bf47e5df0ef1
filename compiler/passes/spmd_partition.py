"""Automatic SPMD partitioning of Shardy annotations outside manual regions.

A module exported by ``jax.jit(..., in_shardings=..., out_shardings=...)``
over a ``Mesh`` carries ``sdy.sharding`` argument/result attributes and
``sdy.sharding_constraint`` ops.  This pass (run after inlining, on each
public function) turns it into the program of one partition:

- a sharding is, per tensor dimension, the mesh axes it is split over
  (major first); a value's *local* type divides each split dimension by
  the product of its axes' sizes;
- arguments are received as shards: an argument's sharding is its
  ``sdy.sharding`` attribute, else the constraint applied directly to it;
- shardings flow forward through the rules below; an op no rule covers
  gets its operands resharded to replicated (``all_gather``) and runs
  whole, with a note in ``notes`` (``--print-stats``: ``spmd_reshards``);
- a ``sharding_constraint`` reshards to what it asks (gather the dims it
  does not split, ``dynamic_slice`` the dims it newly splits); a
  ``broadcast_in_dim`` or splat ``constant`` newly split (it meets a split
  operand) is rebuilt at the shard shape instead of sliced;
- results are resharded to the result's ``sdy.sharding`` attribute, else
  to the constraint that produced them, else to replicated.

Rules: elementwise ops (operands resharded to the first split operand's
sharding; a scalar predicate of ``select`` or scalar bounds of ``clamp``
stay whole), ``broadcast_in_dim`` (operand dims keep their axes unless
broadcast from size 1), ``reduce`` (local reduce; reduced dims that are
split leave a *partial* result, owed a reduction with the same body over the
partitions that differ only in those axes), ``dot_general`` (batch and free
dims keep their axes; a split contracting dim -> local dot on both operands'
shards, a partial result owed an add), ``transpose`` (axes permute),
``reshape`` (a split dim
keeps its axes when it starts at the same linear offset in the result and
the result dim divides or is divided by it evenly), ``convolution`` (batch
dim of the input split, kernel replicated).

A partial result is settled at its uses: a ``sharding_constraint`` or a
function result that wants one of its unsplit dims split over exactly the
partial's axes (same order) gets a ``reduce_scatter`` along that dim (each
partition receives only its shard, half the traffic of an all_reduce then a
slice); any other use (an op, a result wanted whole or split otherwise) gets
one ``all_reduce`` placed right after the producing op, shared by all those
uses.  Collectives are emitted with
the same helpers as the manual pass, so the lowering is shared.
"""
from __future__ import annotations

import numpy as np

from ..dialects import registry
from ..dialects import stablehlo as shlo
from ..dialects.sdy import Mesh, Sharding, parse_sharding
from ..dialects.stablehlo import device_layout
from ..errors import UnsupportedOpError
from ..ir.attributes import (ArrayAttr, DenseElementsAttr, IntAttr, StructAttr, TypeAttr,
                              UnitAttr)
from ..ir.clone import clone_region
from ..ir.core import Operation
from ..ir.types import FunctionType, TensorType
from .base import Pass
from .manual_partition import (_Emitter, _shard_index, _shard_of, _whole, first_free_handle,
                               module_meshes)


class PartitionSpmd(Pass):
    name = "partition-spmd"

    def __init__(self):
        self.notes: list[str] = []
        # function name -> how its arguments/results are laid out over the mesh
        # (``sharding_layout``); the pipeline puts it in the export's reflection
        self.layouts: dict = {}

    def run(self, module) -> None:
        meshes = module_meshes(module, erase=True)
        replicas, partitions = device_layout(module)
        manual = getattr(module, "had_manual_computations", False)
        next_handle = first_free_handle(module)
        for f in module.functions:
            name = getattr(f.attributes.get("sym_name"), "value", None)
            auto = (not manual and replicas == 1 and partitions > 1
                    and len(f.regions[0].blocks) == 1 and _annotated(f))
            if auto:
                part = _Partitioner(f, meshes, partitions, next_handle, self.notes)
                part.run()
                if part.layout is not None:
                    self.layouts[name] = part.layout
            elif manual and replicas == 1 and partitions > 1:
                # shard_map: every partition takes and returns whole arrays
                mesh = next((m for m in meshes.values() if m.size == partitions), None)
                if mesh is not None and len(f.regions[0].blocks) == 1:
                    block = f.regions[0].blocks[0]
                    rets = block.operations[-1].operands if block.operations else ()
                    self.layouts[name] = sharding_layout(
                        mesh, [_replicated(a.type) for a in block.arguments],
                        [_replicated(v.type) for v in rets])
            for op in list(f.walk()):
                if op.name == "sdy.sharding_constraint":
                    op.results[0].replace_all_uses_with(op.operands[0])
                    op.erase()
            for key in ("arg_attrs", "res_attrs"):
                a = f.attributes.get(key)
                if isinstance(a, ArrayAttr):
                    f.attributes[key] = ArrayAttr(tuple(
                        type(d)({k: v for k, v in d.entries.items() if k != "sdy.sharding"})
                        if hasattr(d, "entries") else d for d in a.elements))


def sharding_layout(mesh: Mesh, args, results) -> dict:
    """The ``sharding`` reflection of an export (docs/vmfb.md): the mesh and, per
    argument and result, the mesh axes each dimension is split over (major
    first; every list empty = replicated) or None for a non-tensor."""
    def plain(dims):
        return None if dims is None else [list(axes) for axes in dims]
    return {"mesh": {"axes": [[a, int(n)] for a, n in mesh.axes],
                     "device_ids": [int(d) for d in mesh.device_ids]},
            "args": [plain(d) for d in args], "results": [plain(d) for d in results]}


# elementwise ops whose listed operands may be scalars (the spec broadcasts them)
_SCALAR_OPERANDS = registry.with_trait(registry.SCALAR_OPERANDS)


def _replicated(t):
    return ((),) * len(t.shape) if isinstance(t, TensorType) else None


def _annotated(f) -> bool:
    if any(op.name == "sdy.sharding_constraint" for op in f.walk()):
        return True
    for key in ("arg_attrs", "res_attrs"):
        for d in getattr(f.attributes.get(key), "elements", ()):
            if "sdy.sharding" in getattr(d, "entries", {}):
                return True
    return False


def _attr_sharding(f, key, i, where):
    elems = getattr(f.attributes.get(key), "elements", ())
    if i < len(elems):
        a = getattr(elems[i], "entries", {}).get("sdy.sharding")
        if a is not None:
            return parse_sharding(getattr(a, "text", str(a)), where)
    return None


def _ints(op, key):
    a = op.attributes.get(key)
    return tuple(int(x) for x in (getattr(a, "values", None) or getattr(a, "elements", None) or ()))


class _Partitioner:
    def __init__(self, f, meshes, partitions, next_handle, notes):
        self.f, self.meshes, self.partitions = f, meshes, partitions
        self.next_handle, self.notes = next_handle, notes
        self.mesh = None
        self.layout = None      # sharding_layout of the arguments/results, once run
        self.arg_dims, self.result_dims = [], []
        self.sh = {}            # value -> per-dim axis tuples (local value's sharding)
        # value -> (axes, body region, defining op): a partial result (a dot's local sum
        # over a split contracting dim) whose reduction over ``axes`` is still owed;
        # settled by an all_reduce at its first use, or by a reduce_scatter when the
        # use wants a dim split over exactly those axes
        self.partial = {}
        self.scatters = set()   # reduce_scatter ops (consumers of partial values)
        self.out_of = {}        # value -> the sharding a constraint gave it

    # ---- shardings -------------------------------------------------------------------------
    def dims_of(self, s: Sharding, rank: int, where) -> tuple:
        m = s.mesh if isinstance(s.mesh, Mesh) else self.meshes.get(s.mesh)
        if m is None:
            raise UnsupportedOpError("sdy.sharding", f"refers to an undeclared mesh @{s.mesh}", where)
        if self.mesh is None:
            if m.size != self.partitions:
                raise UnsupportedOpError("sdy.sharding", f"over a {m.size}-device mesh in a module "
                                         f"of {self.partitions} partitions", where)
            self.mesh = m
        elif m != self.mesh:
            raise UnsupportedOpError("sdy.sharding", "over different meshes", where)
        dims = tuple(tuple(d) for d in s.dims) + ((),) * (rank - len(s.dims))
        return dims[:rank]

    def of(self, v):
        t = v.type
        return self.sh.get(v, ((),) * (len(t.shape) if isinstance(t, TensorType) else 0))

    def ways(self, axes) -> int:
        return int(np.prod([self.mesh.axis_size(a) for a in axes])) if axes else 1

    def local(self, t, dims):
        if not isinstance(t, TensorType) or not any(dims):
            return t
        shape = []
        for n, axes in zip(t.shape, dims):
            k = self.ways(axes)
            if n is None or n % k:
                return None
            shape.append(n // k)
        return TensorType(tuple(shape), t.element, t.encoding)

    def global_type(self, v):
        t, dims = v.type, self.of(v)
        if not any(dims):
            return t
        return TensorType(tuple(n * self.ways(a) for n, a in zip(t.shape, dims)), t.element,
                          t.encoding)

    def reshard(self, emit, v, want):
        if v in self.partial:
            v = self.scatter_or_settle(emit, v, want)
        have = self.of(v)
        if have == want:
            return v
        gt = self.global_type(v)
        gather = tuple(a if a and a != w else () for a, w in zip(have, want))
        if any(gather):
            keep = tuple(a if a == w else () for a, w in zip(have, want))
            mid_t = self.local(gt, keep)
            v = _whole(emit, v, mid_t, Sharding(self.mesh, gather), self.mesh,
                       {a for a, _ in self.mesh.axes}, self.partitions, self.next_handle)
            self.sh[v] = keep
            have = keep
        cut = tuple(w if w and not h else () for h, w in zip(have, want))
        if any(cut):
            t = self.local(gt, want)
            if t is None:
                raise UnsupportedOpError("sdy.sharding", f"{gt} does not split evenly as {want}",
                                         emit.loc)
            built = self.rebuild_at_shard(emit, v, gt, want, t)
            v = built if built is not None else _shard_of(
                emit, v, t, Sharding(self.mesh, cut), self.mesh,
                {a for a, _ in self.mesh.axes}, self.partitions)
        self.sh[v] = want
        return v

    def rebuild_at_shard(self, emit, v, gt, want, t):
        """``v`` rebuilt at its shard type ``t`` (split as ``want``) where that
        needs no slice of it: a splat constant is a splat of ``t``; a
        broadcast_in_dim is broadcast again to ``t`` from its operand split the
        same way (only along dims it does not broadcast; usually a scalar or a
        replicated vector, left whole). None: slice ``v``."""
        op = v.defining_op
        if op is None or v in self.partial:
            return None
        if op.name == "stablehlo.constant":
            a = op.attributes.get("value")
            if not isinstance(a, DenseElementsAttr) or not a.is_splat or any(self.of(v)):
                return None
            return emit.op("stablehlo.constant", [], t, {"value": DenseElementsAttr(
                t, np.broadcast_to(a.array.reshape(-1)[:1].reshape(()), t.shape))})
        if op.name != "stablehlo.broadcast_in_dim":
            return None
        x = op.operands[0]
        gx = self.global_type(x).shape
        x_want = []
        for i, d in enumerate(_ints(op, "broadcast_dimensions")):
            if gx[i] is None or gt.shape[d] is None:
                return None
            x_want.append(want[d] if gx[i] == gt.shape[d] else ())
        if self.local(self.global_type(x), tuple(x_want)) is None:
            return None
        xs = self.reshard(emit, x, tuple(x_want))
        return emit.op("stablehlo.broadcast_in_dim", [xs], t, dict(op.attributes))

    def scatter_or_settle(self, emit, v, want):
        """``v`` (partial over axes P) for a use that wants ``want``: a reduce_scatter
        along a dim ``want`` splits over exactly P (the dim not split yet, its size
        a multiple of P's), else the all_reduce."""
        axes, body, _ = self.partial[v]
        have, t = self.of(v), v.type
        k = self.ways(axes)
        for d, (h, w) in enumerate(zip(have, want)):
            if not h and tuple(w) == tuple(axes) and t.shape[d] is not None and t.shape[d] % k == 0:
                shape = list(t.shape)
                shape[d] //= k
                op = Operation("stablehlo.reduce_scatter", [v],
                               [TensorType(tuple(shape), t.element, t.encoding)],
                               {**self.group_attrs(axes), "scatter_dimension": IntAttr(d, "i64")},
                               [clone_region(body, {})], emit.loc)
                emit.block.insert_before(emit.anchor, op)
                self.scatters.add(op)
                new = op.results[0]
                self.sh[new] = tuple(w if i == d else a for i, a in enumerate(have))
                return new
        return self.settle(v)

    def settle(self, v):
        axes, body, op = self.partial.pop(v)
        return self.all_reduce_after(op, v, axes, body)

    def group_attrs(self, axes) -> dict:
        """replica_groups (the partitions that differ only in ``axes``, in shard
        order) and a fresh channel handle, flattened device ids."""
        others = [a for a, _ in self.mesh.axes if a not in axes]
        groups = {}
        for p in range(self.partitions):
            c = self.mesh.coordinates(p)
            groups.setdefault(tuple(c[a] for a in others), []).append(p)
        rows = [sorted(g, key=lambda p: _shard_index(self.mesh, axes, p))
                for _, g in sorted(groups.items())]
        handle = self.next_handle[0]
        self.next_handle[0] += 1
        return {"replica_groups": DenseElementsAttr(TensorType((len(rows), len(rows[0])), "i64"),
                                                    np.array(rows, np.int64)),
                "channel_handle": StructAttr("stablehlo.channel_handle",
                                             {"handle": handle, "type": 1}),
                "use_global_device_ids": UnitAttr()}

    def set_result(self, r, dims):
        t = self.local(r.type, dims)
        if t is None:
            return False
        r.type = t
        self.sh[r] = dims
        return True

    # ---- the walk --------------------------------------------------------------------------
    def run(self):
        f = self.f
        block = f.regions[0].blocks[0]
        first_mesh = next(iter(self.meshes.values()), None)
        for i, arg in enumerate(block.arguments):
            self.arg_dims.append(_replicated(arg.type))
            s = _attr_sharding(f, "arg_attrs", i, f.location)
            if s is None:
                cons = [u for u in _users(f, arg) if u.name == "sdy.sharding_constraint"]
                if cons:
                    s = parse_sharding(cons[0].attributes["sharding"].text, cons[0].location)
            if s is None or not isinstance(arg.type, TensorType):
                continue
            dims = self.dims_of(s, len(arg.type.shape), f.location)
            t = self.local(arg.type, dims)
            if t is None:
                raise UnsupportedOpError("sdy.sharding", f"argument {i} of type {arg.type} does "
                                         f"not split evenly as {dims}", f.location)
            arg.type = t
            self.sh[arg] = dims
            self.arg_dims[i] = dims
        if self.mesh is None and first_mesh is not None:
            self.mesh = first_mesh
        if self.mesh is None:
            return
        for op in list(block.operations):
            self.visit(op)
        self.layout = sharding_layout(self.mesh, self.arg_dims, self.result_dims)
        f.attributes["function_type"] = TypeAttr(FunctionType(
            tuple(a.type for a in block.arguments),
            tuple(v.type for v in block.operations[-1].operands)))

    def visit(self, op):
        emit = _Emitter(op.parent, op, op.location)
        n = op.name
        if n == "func.return":
            self.result_dims = [None] * len(op.operands)
            for i, v in enumerate(list(op.operands)):
                if not isinstance(v.type, TensorType):
                    continue
                s = _attr_sharding(self.f, "res_attrs", i, op.location)
                want = (self.dims_of(s, len(v.type.shape), op.location) if s is not None
                        else self.out_of.get(v, ((),) * len(v.type.shape)))
                op.set_operand(i, self.reshard(emit, v, want))
                self.result_dims[i] = want
            return
        if n == "sdy.sharding_constraint":
            v = op.operands[0]
            s = parse_sharding(op.attributes["sharding"].text, op.location)
            want = self.dims_of(s, len(v.type.shape), op.location)
            new = self.reshard(emit, v, want)
            op.results[0].replace_all_uses_with(new)
            self.out_of[new] = want
            op.erase()
            return
        if self.partial:                        # a use that needs the whole sum
            for inner in (op, *_nested(op)):
                for v in inner.operands:
                    if v in self.partial:
                        self.settle(v)
        if not any(any(self.of(v)) for v in op.operands) and not _captures_split(op, self):
            return                              # nothing split reaches it: runs as written
        rule = getattr(self, "rule_" + n.replace(".", "_"), None)
        if rule is None and n in shlo.ELEMENTWISE and not op.regions:
            rule = self.rule_elementwise
        if rule is not None and not _captures_split(op, self) and rule(op, emit):
            return
        self.fallback(op, emit)

    def fallback(self, op, emit):
        self.notes.append(f"{op.location}: {op.name} runs whole on every partition (operands "
                          f"all_gathered): no partitioning rule for it")
        for i, v in enumerate(list(op.operands)):
            op.set_operand(i, self.reshard(emit, v, ((),) * len(self.of(v))))
        for inner in _nested(op):
            for i, v in enumerate(list(inner.operands)):
                if any(self.of(v)):
                    inner.set_operand(i, self.reshard(emit, v, ((),) * len(self.of(v))))

    # ---- rules: each returns False to fall back --------------------------------------------
    def rule_elementwise(self, op, emit):
        # select's predicate and clamp's bounds may be scalars: those stay whole
        scalar = [op.name in _SCALAR_OPERANDS and isinstance(v.type, TensorType)
                  and not v.type.shape for v in op.operands]
        shapes = {tuple(t.shape) for t in [self.global_type(v) for v, s in
                                           zip(op.operands, scalar) if not s]
                  + [r.type for r in op.results] if isinstance(t, TensorType)}
        if len(shapes) != 1:
            return False
        want = next((self.of(v) for v in op.operands if any(self.of(v))), None)
        for i, v in enumerate(list(op.operands)):
            if not scalar[i]:
                op.set_operand(i, self.reshard(emit, v, want))
        return all(self.set_result(r, want) for r in op.results)

    def rule_stablehlo_broadcast_in_dim(self, op, emit):
        x, r = op.operands[0], op.results[0]
        bd = _ints(op, "broadcast_dimensions")
        have = self.of(x)
        out = [()] * len(r.type.shape)
        keep = list(have)
        for i, d in enumerate(bd):
            if have[i] and r.type.shape[d] == self.global_type(x).shape[i]:
                out[d] = have[i]
            else:
                keep[i] = ()
        op.set_operand(0, self.reshard(emit, x, tuple(keep)))
        return self.set_result(r, tuple(out))

    def rule_stablehlo_transpose(self, op, emit):
        perm = _ints(op, "permutation")
        have = self.of(op.operands[0])
        return self.set_result(op.results[0], tuple(have[p] for p in perm))

    def rule_stablehlo_reshape(self, op, emit):
        x, r = op.operands[0], op.results[0]
        gin, gout = self.global_type(x).shape, r.type.shape
        have = self.of(x)
        out = [()] * len(gout)
        keep = list(have)
        for d, axes in enumerate(have):
            if not axes:
                continue
            pre, k, n = int(np.prod(gin[:d])), self.ways(axes), gin[d]
            hit = None
            for e in range(len(gout)):
                m = gout[e]
                if int(np.prod(gout[:e])) == pre and not out[e] and m % k == 0 and (
                        m % n == 0 or n % m == 0):
                    hit = e         # merged with minor dims, or split with whole shards
                    break
            if hit is None:
                keep[d] = ()
            else:
                out[hit] = axes
        if tuple(keep) != have:
            self.notes.append(f"{op.location}: stablehlo.reshape: a split dim does not survive "
                              f"the reshape; its operand is all_gathered")
        op.set_operand(0, self.reshard(emit, x, tuple(keep)))
        return self.set_result(r, tuple(out))

    def rule_stablehlo_reduce(self, op, emit):
        if len(op.operands) != 2 or len(op.results) != 1:
            return False
        x, init, r = op.operands[0], op.operands[1], op.results[0]
        if any(self.of(init)):
            op.set_operand(1, self.reshard(emit, init, ()))
        dims = set(_ints(op, "dimensions"))
        have = self.of(x)
        split = [a for d, axes in enumerate(have) if d in dims for a in axes]
        out = tuple(axes for d, axes in enumerate(have) if d not in dims)
        if not self.set_result(r, out):
            return False
        if split:
            self.partial[r] = (tuple(split), op.regions[0], op)
        return True

    def all_reduce_after(self, op, r, axes, body_region):
        """Replace uses of ``r`` (but reduce_scatters of it) by an all_reduce of it over
        ``axes`` (body cloned), right after ``op``."""
        users = [(u, i) for u in _users(self.f, r) if u not in self.scatters
                 for i, v in enumerate(u.operands) if v is r]
        nxt = _next_op(op)
        emit = _Emitter(op.parent, nxt, op.location)
        new = Operation("stablehlo.all_reduce", [r], [r.type], self.group_attrs(axes),
                        [clone_region(body_region, {})], op.location)
        emit.block.insert_before(nxt, new)
        out = new.results[0]
        self.sh[out] = self.sh[r]
        for u, i in users:
            u.set_operand(i, out)
        return out

    def rule_stablehlo_dot_general(self, op, emit):
        lhs, rhs, r = op.operands[0], op.operands[1], op.results[0]
        dn = op.attributes["dot_dimension_numbers"].fields
        lb, rb = tuple(dn.get("lhs_batching_dimensions", ())), tuple(dn.get("rhs_batching_dimensions", ()))
        lc, rc = tuple(dn.get("lhs_contracting_dimensions", ())), tuple(dn.get("rhs_contracting_dimensions", ()))
        L, R = list(self.of(lhs)), list(self.of(rhs))
        lf = [d for d in range(len(L)) if d not in lb and d not in lc]
        rf = [d for d in range(len(R)) if d not in rb and d not in rc]
        used = set()

        def take(axes):
            if not axes or used & set(axes):
                return ()
            used.update(axes)
            return axes
        Lw, Rw = [()] * len(L), [()] * len(R)
        for a, b in zip(lb, rb):
            Lw[a] = Rw[b] = take(L[a] or R[b])
        for a, b in zip(lc, rc):
            Lw[a] = Rw[b] = take(L[a] or R[b])
        for a in lf:
            Lw[a] = take(L[a])
        for b in rf:
            Rw[b] = take(R[b])
        op.set_operand(0, self.reshard(emit, lhs, tuple(Lw)))
        op.set_operand(1, self.reshard(emit, rhs, tuple(Rw)))
        out = tuple([Lw[a] for a in lb] + [Lw[a] for a in lf] + [Rw[b] for b in rf])
        if not self.set_result(r, out):
            return False
        red = [x for a in lc for x in Lw[a]]
        if red:
            self.partial[r] = (tuple(red), _add_body(r.type.element, op.location), op)
        return True

    def rule_stablehlo_convolution(self, op, emit):
        x, w, r = op.operands[0], op.operands[1], op.results[0]
        dn = op.attributes.get("dimension_numbers")
        fields = getattr(dn, "fields", None)
        if not fields or "input_batch_dimension" not in fields:
            return False
        ib, ob = int(fields["input_batch_dimension"]), int(fields["output_batch_dimension"])
        if int(getattr(op.attributes.get("batch_group_count"), "value", 1) or 1) != 1:
            return False
        want = [()] * len(self.of(x))
        want[ib] = self.of(x)[ib]
        op.set_operand(0, self.reshard(emit, x, tuple(want)))
        op.set_operand(1, self.reshard(emit, w, ((),) * len(self.of(w))))
        out = [()] * len(r.type.shape)
        out[ob] = want[ib]
        return self.set_result(r, tuple(out))


def _add_body(element, loc):
    from ..ir.core import Block, Region
    st = TensorType((), element)
    b = Block([st, st])
    add = Operation("stablehlo.add", [b.arguments[0], b.arguments[1]], [st], {}, [], loc)
    b.append(add)
    b.append(Operation("stablehlo.return", [add.results[0]], [], {}, [], loc))
    return Region([b])


def _users(f, v):
    return [op for op in f.walk() if any(o is v for o in op.operands)]


def _nested(op):
    for reg in op.regions:
        for b in reg.blocks:
            for inner in b.operations:
                yield from inner.walk()


def _captures_split(op, p) -> bool:
    return any(any(p.of(v)) for inner in _nested(op) for v in inner.operands if v in p.sh)


def _next_op(op):
    ops = op.parent.operations
    return ops[ops.index(op) + 1]

