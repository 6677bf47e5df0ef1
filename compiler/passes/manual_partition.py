"""Shardy manual computations (``shard_map``) as per-partition code.

A module exported from JAX over a device mesh has ``mhlo.num_partitions``
= the mesh size and runs as that many partitions (runtime ``partitions=N``),
each executing the same program.  Its ``sdy.manual_computation`` ops hold
bodies written for one device's shard.  This pass expands each in place:

- every operand is cut to this partition's shard: a ``dynamic_slice`` at
  offsets looked up by ``partition_id`` in a constant table (the shard index
  along the dimension's manual axes, major first, from the mesh position of
  the device; ``device_ids`` respected);
- the body is inlined on those shards; its collectives (``psum``,
  ``all_gather``, ...) are the ones JAX wrote, over the same device ids;
- every result dimension split over manual axes is put back together with
  an ``all_gather`` along it among the partitions that differ only in those
  axes (ordered by shard index); dimensions not split are, by shard_map's
  contract, the same on each of them.

Non-manual mesh axes are not partitioned: the code runs replicated over
them, which computes the same values.  The module-level ``sdy.mesh`` ops,
``sdy.sharding_constraint`` (an annotation) and the ``sdy.sharding``
argument attributes are dropped: automatic (GSPMD/Shardy) partitioning is
not done, so unannotated code runs whole on every partition.
"""
from __future__ import annotations

import re

import numpy as np

from ..dialects.sdy import Mesh, parse_mesh, parse_sharding
from ..dialects.stablehlo import device_layout
from ..errors import CompileError, UnsupportedOpError
from ..ir.attributes import (ArrayAttr, DenseArrayAttr, DenseElementsAttr, IntAttr, OpaqueAttr,
                             StructAttr, UnitAttr)
from ..ir.clone import clone_op
from ..ir.core import Operation
from ..ir.types import TensorType
from .base import Pass

_ITEM = re.compile(r"<(?:[^<>]|<[^<>]*>)*>")


class PartitionManualComputations(Pass):
    name = "partition-manual"

    def run(self, module) -> None:
        meshes = module_meshes(module, erase=False)
        if not any(op.name == "sdy.manual_computation" for op in module.walk()):
            return              # annotations only: the partition-spmd pass reads them
        module.had_manual_computations = True
        layout = device_layout(module)
        next_handle = first_free_handle(module)
        for f in list(module.functions):
            ops = list(f.walk())
            for op in ops:
                if op.name == "sdy.sharding_constraint":
                    op.results[0].replace_all_uses_with(op.operands[0])
                    op.erase()
            for op in reversed([o for o in ops if o.name == "sdy.manual_computation"]):
                _expand(op, meshes, layout, next_handle)


def module_meshes(module, erase: bool) -> dict:
    """The module's ``sdy.mesh`` ops as {name: Mesh} (erased with ``erase``)."""
    meshes = {}
    for op in list(module.body.operations):
        if op.name == "sdy.mesh":
            meshes[op.attributes["sym_name"].value] = parse_mesh(
                op.attributes["mesh"].text, op.location)
            if erase:
                op.erase()
    return meshes


def first_free_handle(module) -> list:
    """``[h]``: one past the largest channel handle in the module (a counter to bump)."""
    handles = [0]
    for f in list(module.functions):
        for op in f.walk():
            h = op.attributes.get("channel_handle")
            if isinstance(h, StructAttr):
                handles.append(int(h.fields.get("handle", 0)))
    return [max(handles) + 1]


def _shardings(attr, count: int, what: str, op) -> list:
    if isinstance(attr, ArrayAttr):
        texts = [getattr(a, "text", None) for a in attr.elements]
    elif isinstance(attr, OpaqueAttr):             # generic form: #sdy.sharding_per_value<[...]>
        body = attr.text.split("<", 1)[1] if "<" in attr.text else ""
        texts = _ITEM.findall(body[body.find("[") + 1:])
    else:
        texts = []
    if len(texts) != count or any(t is None for t in texts):
        raise CompileError(f"{op.location}: error: '{op.name}' op needs {count} {what}, one per "
                           f"{'operand' if what == 'in_shardings' else 'result'}")
    return [parse_sharding(t, op.location) for t in texts]


def _expand(op, meshes: dict, layout: tuple, next_handle: list) -> None:
    loc = op.location
    manual = {a.value for a in getattr(op.attributes.get("manual_axes"), "elements", ())}
    ins = _shardings(op.attributes.get("in_shardings"), len(op.operands), "in_shardings", op)
    outs = _shardings(op.attributes.get("out_shardings"), len(op.results), "out_shardings", op)
    block = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    if block is None or len(block.arguments) != len(op.operands):
        raise CompileError(f"{loc}: error: '{op.name}' op needs a body with one argument per operand")
    mesh = None
    for s in ins + outs:
        m = s.mesh if isinstance(s.mesh, Mesh) else meshes.get(s.mesh)
        if m is None:
            raise CompileError(f"{loc}: error: '{op.name}' op refers to an undeclared mesh @{s.mesh}")
        if mesh is not None and m != mesh:
            raise UnsupportedOpError(op.name, "with shardings over different meshes", loc)
        mesh = m
    replicas, partitions = layout
    if mesh is None:                    # no operands or results: nothing is partitioned
        mesh = Mesh((), (0,))
    unknown = manual - {a for a, _ in mesh.axes}
    if unknown:
        raise CompileError(f"{loc}: error: '{op.name}' op: manual axes {sorted(unknown)} are not "
                           f"axes of the mesh")
    if manual and (replicas != 1 or partitions != mesh.size):
        raise UnsupportedOpError(op.name, f"over a {mesh.size}-device mesh in a module of "
                                 f"{replicas} replicas x {partitions} partitions (each mesh "
                                 f"device must be one partition: mhlo.num_partitions = "
                                 f"{mesh.size}, mhlo.num_replicas = 1)", loc)
    parent = op.parent
    emit = _Emitter(parent, op, loc)
    mapping = {}
    for x, arg, s in zip(op.operands, block.arguments, ins):
        mapping[arg] = _shard_of(emit, x, arg.type, s, mesh, manual, partitions)
    ret = None
    for inner in list(block.operations):
        if inner.name == "sdy.return":
            ret = inner
            break
        parent.insert_before(op, clone_op(inner, mapping))
    if ret is None or len(ret.operands) != len(op.results):
        raise CompileError(f"{loc}: error: '{op.name}' op body must end in sdy.return of "
                           f"{len(op.results)} values")
    for r, v, s in zip(op.results, ret.operands, outs):
        r.replace_all_uses_with(_whole(emit, mapping.get(v, v), r.type, s, mesh, manual,
                                       partitions, next_handle))
    op.erase()


def _split(s, mesh: Mesh, manual: set, rank: int) -> list:
    """Per dimension: the manual axes it is split over, major first."""
    dims = list(s.dims) + [()] * (rank - len(s.dims))
    return [tuple(a for a in d if a in manual) for d in dims[:rank]]


def _shard_index(mesh: Mesh, axes, device: int) -> int:
    c, i = mesh.coordinates(device), 0
    for a in axes:
        i = i * mesh.axis_size(a) + c[a]
    return i


def _check(gt, lt, split, mesh, what, loc):
    if not (isinstance(gt, TensorType) and isinstance(lt, TensorType) and gt.is_static
            and lt.is_static and len(gt.shape) == len(lt.shape)):
        raise UnsupportedOpError("sdy.manual_computation", f"{what} of type {gt} / {lt}: "
                                 f"static tensors of one rank are needed", loc)
    for d, axes in enumerate(split):
        k = int(np.prod([mesh.axis_size(a) for a in axes])) if axes else 1
        if gt.shape[d] != lt.shape[d] * k:
            raise CompileError(f"{loc}: error: 'sdy.manual_computation' op {what}: dimension "
                               f"{d} is {gt.shape[d]} globally and {lt.shape[d]} per shard, "
                               f"split {k} ways over {list(axes)}")


def _shard_of(emit, x, local_t, s, mesh, manual, partitions):
    split = _split(s, mesh, manual, len(local_t.shape) if isinstance(local_t, TensorType) else 0)
    _check(x.type, local_t, split, mesh, "operand", emit.loc)
    if not any(split):
        return x
    pid = emit.partition_index()
    offsets = []
    for d, axes in enumerate(split):
        if not axes:
            offsets.append(emit.constant(np.zeros((), np.int64)))
            continue
        table = np.array([_shard_index(mesh, axes, p) * local_t.shape[d]
                          for p in range(partitions)], np.int64)
        row = emit.op("stablehlo.dynamic_slice", [emit.constant(table), pid],
                      TensorType((1,), "i64"), {"slice_sizes": DenseArrayAttr("i64", (1,))})
        offsets.append(emit.op("stablehlo.reshape", [row], TensorType((), "i64")))
    return emit.op("stablehlo.dynamic_slice", [x, *offsets], local_t,
                   {"slice_sizes": DenseArrayAttr("i64", tuple(local_t.shape))})


def _whole(emit, v, global_t, s, mesh, manual, partitions, next_handle):
    split = _split(s, mesh, manual, len(global_t.shape) if isinstance(global_t, TensorType) else 0)
    _check(global_t, v.type, split, mesh, "result", emit.loc)
    shape = list(v.type.shape)
    for d, axes in enumerate(split):
        if not axes:
            continue
        groups = {}
        others = [a for a, _ in mesh.axes if a not in axes]
        for p in range(partitions):
            c = mesh.coordinates(p)
            groups.setdefault(tuple(c[a] for a in others), []).append(p)
        rows = [sorted(g, key=lambda p: _shard_index(mesh, axes, p)) for _, g in sorted(groups.items())]
        shape[d] = global_t.shape[d]
        handle = next_handle[0]
        next_handle[0] += 1
        v = emit.op("stablehlo.all_gather", [v], TensorType(tuple(shape), global_t.element), {
            "all_gather_dim": IntAttr(d, "i64"),
            "replica_groups": DenseElementsAttr(TensorType((len(rows), len(rows[0])), "i64"),
                                                np.array(rows, np.int64)),
            "channel_handle": StructAttr("stablehlo.channel_handle", {"handle": handle, "type": 1}),
            "use_global_device_ids": UnitAttr()})
    return v


class _Emitter:
    """Ops inserted before ``anchor``; one partition index per expansion."""

    def __init__(self, block, anchor, loc):
        self.block, self.anchor, self.loc = block, anchor, loc
        self._pid = None

    def op(self, name, operands, typ, attrs=None):
        new = Operation(name, list(operands), [typ], attrs or {}, [], self.loc)
        self.block.insert_before(self.anchor, new)
        return new.results[0]

    def constant(self, arr: np.ndarray):
        t = TensorType(tuple(arr.shape), "i64")
        return self.op("stablehlo.constant", [], t, {"value": DenseElementsAttr(t, arr)})

    def partition_index(self):
        if self._pid is None:
            pid = self.op("stablehlo.partition_id", [], TensorType((), "ui32"))
            self._pid = self.op("stablehlo.convert", [pid], TensorType((), "i64"))
        return self._pid
