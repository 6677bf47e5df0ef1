"""GSPMD annotations (``mhlo.sharding``) into the Shardy form the partitioners read.

A module exported without Shardy carries XLA sharding strings
(compiler/dialects/gspmd.py) instead of ``sdy`` attributes.  This pass runs
first and rewrites them, so partition-manual and partition-spmd see what a
Shardy export would have given them:

- a mesh ``sdy.mesh @_gspmd_mesh`` derived from every tiled sharding in the
  module (axes ``_g0, _g1, ...``, device ``d`` at mesh position ``d``);
- ``mhlo.sharding`` on function arguments/results -> ``sdy.sharding``;
- ``custom_call @Sharding`` -> ``sdy.sharding_constraint`` (``{manual}`` ones,
  which only mark a manual region's edges, forward their operand);
- ``{maximal device=K}`` -> replicated: every partition computes the value
  (the same result, without moving it to device K first);
- GSPMD's shard_map (``@SPMDFullToShardShape`` / ``@SPMDShardToFullShape``
  around code written for one shard, fully manual): the first becomes this
  partition's shard of its operand (``dynamic_slice`` by ``partition_id``,
  the sharding its operand's ``@Sharding`` gave), the second an
  ``all_gather`` of the dims its sharding splits, both as partition-manual
  emits them; the module is then manual (its functions take and return
  whole arrays, like a Shardy shard_map).

Modules that already declare an ``sdy.mesh`` are left alone, as are
single-partition modules (canonicalize-ops forwards their markers).
"""
from __future__ import annotations

from ..dialects.gspmd import MESH_NAME, derive_mesh, parse_gspmd, sdy_dims, sdy_text
from ..dialects.sdy import Sharding
from ..dialects.stablehlo import device_layout
from ..errors import UnsupportedOpError
from ..ir.attributes import ArrayAttr, DictAttr, OpaqueAttr, StringAttr
from ..ir.core import Operation
from ..ir.types import TensorType
from .base import Pass
from .manual_partition import _Emitter, _shard_of, _whole, first_free_handle

MARKERS = ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape")


def _target(op):
    a = op.attributes.get("call_target_name")
    return getattr(a, "value", None) or getattr(a, "name", None)


def _text(attr):
    return getattr(attr, "value", None) if isinstance(attr, StringAttr) else None


class ImportGspmd(Pass):
    name = "import-gspmd"

    def __init__(self):
        self.notes: list[str] = []

    def run(self, module) -> None:
        if any(op.name == "sdy.mesh" for op in module.body.operations):
            return
        replicas, partitions = device_layout(module)
        found = []                       # (text, where)
        for f in module.functions:
            for key in ("arg_attrs", "res_attrs"):
                for d in getattr(f.attributes.get(key), "elements", ()):
                    t = _text(getattr(d, "entries", {}).get("mhlo.sharding"))
                    if t is not None:
                        found.append((t, f.location))
            for op in f.walk():
                if op.name == "stablehlo.custom_call" and _target(op) in MARKERS:
                    t = _text(op.attributes.get("mhlo.sharding"))
                    if t is not None:
                        found.append((t, op.location))
        if not found or partitions * replicas == 1:
            return
        if replicas != 1:
            raise UnsupportedOpError("mhlo.sharding", f"sharded over {partitions} partitions "
                                     f"x {replicas} replicas (one replica is supported)",
                                     found[0][1])
        parsed = {t: parse_gspmd(t, w) for t, w in found}
        self.mesh, self.names = derive_mesh([s for s in parsed.values() if s.kind == "tiled"],
                                            partitions, found[0][1])
        self.parsed, self.partitions = parsed, partitions
        axes = ", ".join(f'"{a}"={n}' for a, n in self.mesh.axes)
        mesh_op = Operation("sdy.mesh", [], [], {"sym_name": StringAttr(MESH_NAME),
                                                 "mesh": OpaqueAttr(f"<[{axes}]>")},
                            [], module.location)
        body = module.body
        if body.operations:
            body.insert_before(body.operations[0], mesh_op)
        else:
            body.append(mesh_op)
        manual = any(op.name == "stablehlo.custom_call" and _target(op) == "SPMDFullToShardShape"
                     for f in module.functions for op in f.walk())
        next_handle = first_free_handle(module)
        for f in module.functions:
            self._attrs(f, manual)
            ops = [op for op in f.walk()
                   if op.name == "stablehlo.custom_call" and _target(op) in MARKERS]
            # a FullToShard reads the @Sharding before it: those go first
            for op in sorted(ops, key=lambda o: _target(o) != "SPMDFullToShardShape"):
                self._marker(op, manual, next_handle)
        if manual:
            module.had_manual_computations = True

    def _dims(self, text, t, where):
        sh = self.parsed[text]
        if sh.kind == "maximal":
            self.notes.append(f"{where}: {{maximal device={sh.device}}} computed on every "
                              f"partition (replicated)")
        rank = len(t.shape) if isinstance(t, TensorType) else 0
        return sdy_dims(sh, rank, self.names, where)

    def _attrs(self, f, manual):
        block = f.regions[0].blocks[0] if f.regions and f.regions[0].blocks else None
        for key in ("arg_attrs", "res_attrs"):
            a = f.attributes.get(key)
            if not isinstance(a, ArrayAttr):
                continue
            if key == "arg_attrs":
                types = [v.type for v in block.arguments] if block else []
            else:
                fty = getattr(f.attributes.get("function_type"), "type", None)
                types = list(getattr(fty, "results", ()))
            out = []
            for i, d in enumerate(a.elements):
                entries = dict(getattr(d, "entries", {}) or {})
                t = _text(entries.pop("mhlo.sharding", None))
                if t is not None and not manual and i < len(types):
                    entries["sdy.sharding"] = OpaqueAttr(sdy_text(self._dims(t, types[i],
                                                                             f.location)))
                out.append(DictAttr(entries))
            f.attributes[key] = ArrayAttr(tuple(out))

    def _marker(self, op, manual, next_handle):
        name, where = _target(op), op.location
        text = _text(op.attributes.get("mhlo.sharding"))
        x, r = op.operands[0], op.results[0]
        emit = _Emitter(op.parent, op, where)
        axes = {a for a, _ in self.mesh.axes}
        if name == "SPMDFullToShardShape":
            src = x.defining_op
            stext = (_text(src.attributes.get("mhlo.sharding")) if src is not None
                     and src.name == "stablehlo.custom_call" and _target(src) == "Sharding"
                     else None)
            if stext is None:
                raise UnsupportedOpError("custom_call @SPMDFullToShardShape", "its operand has "
                                         "no @Sharding giving the global sharding", where)
            s = Sharding(self.mesh, tuple(self._dims(stext, x.type, where)))
            new = _shard_of(emit, x, r.type, s, self.mesh, axes, self.partitions)
        elif name == "SPMDShardToFullShape":
            if text is None:
                raise UnsupportedOpError("custom_call @SPMDShardToFullShape", "without an "
                                         "mhlo.sharding", where)
            s = Sharding(self.mesh, tuple(self._dims(text, r.type, where)))
            new = _whole(emit, x, r.type, s, self.mesh, axes, self.partitions, next_handle)
        elif manual or text is None or self.parsed[text].kind == "manual":
            new = x                     # a manual region's edge, or constraints of shard_map code
        else:
            new = emit.op("sdy.sharding_constraint", [x], x.type,
                          {"sharding": OpaqueAttr(sdy_text(self._dims(text, x.type, where)))})
        r.replace_all_uses_with(new)
        op.erase()
