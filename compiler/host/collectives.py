"""Collective ops in host code: calls of ``hal.channel.collective`` on the channel.

all_reduce, all_gather, reduce_scatter, all_to_all, collective_permute,
collective_broadcast and collective_reduce run between dispatches: the host
program submits the commands recorded so far and waits for them (the
operands must be computed), then calls the channel with buffer views of the
operands and of freshly allocated results, and records on into a new command
buffer.  ``replica_id`` / ``partition_id`` are host values read from the
channel (``hal.channel.replica_id`` / ``partition_id``).

The op's attributes become the contract integers of vmfb/collectives.py:
the process-group mode from ``channel_handle`` and ``use_global_device_ids``
(StableHLO spec), the reduction from the body when it is one recognised
binary op of its two arguments (anything else is an UnsupportedOpError that
names the body's op), and the groups (``replica_groups`` or
``source_target_pairs``) as ``[group size, ids...]``.
"""
from __future__ import annotations

import numpy as np

from tensorvm.vmfb import collectives as contract

from ..dialects.registry import INT_OR_BOOL, OPS
from ..errors import UnsupportedOpError
from ..ir.attributes import DenseElementsAttr, ints

_S = "stablehlo."
COLLECTIVE_OPS = frozenset(_S + k for k, _ in contract.KINDS)
ID_OPS = frozenset((_S + "replica_id", _S + "partition_id"))
CHANNEL_OPS = COLLECTIVE_OPS | ID_OPS

_BODY_REDUCTION = {_S + "add": "sum", _S + "multiply": "prod", _S + "minimum": "min",
                   _S + "maximum": "max", _S + "and": "and", _S + "or": "or", _S + "xor": "xor"}


def uses_channel(func) -> bool:
    return any(op.name in CHANNEL_OPS for op in func.walk())


def channel_id(op) -> int:
    h = op.attributes.get("channel_handle")
    v = getattr(h, "fields", {}).get("handle", 0) if h is not None else 0
    return int(getattr(v, "value", v))


def mode_of(op) -> str:
    """The spec's process-group mode of a collective."""
    cid, glob = channel_id(op), op.attributes.get("use_global_device_ids") is not None
    if op.name in (_S + "all_to_all", _S + "collective_permute", _S + "collective_broadcast"):
        return "cross_replica" if cid <= 0 else "cross_partition"
    if glob:
        return "flattened_ids"
    return "cross_replica" if cid <= 0 else "cross_replica_and_partition"


def reduction_of(op) -> str:
    """The reduction a collective's body computes, when it is one binary op."""
    if not op.regions:
        return "none"
    block = op.regions[0].blocks[0]
    body = block.operations[:-1]
    ret = block.terminator
    if len(body) == 1 and len(ret.operands) == 1 and ret.operands[0] is body[0].result:
        inner = body[0]
        kind = _BODY_REDUCTION.get(inner.name)
        args = set(block.arguments[:2])
        if kind is not None and len(inner.operands) == 2 and set(inner.operands) == args:
            el = block.arguments[0].type.element
            if OPS[inner.name].elements == INT_OR_BOOL and el.startswith(("f", "bf", "complex")):
                kind = None
            if kind is not None:
                return kind
    names = ", ".join(o.name for o in body) or "no op"
    raise UnsupportedOpError(op.name, f"with a reduction body of {names}: only one of "
                             f"{', '.join(sorted(_BODY_REDUCTION))} of its two arguments is "
                             f"supported", op.location)


def _groups(op) -> list:
    attr = op.attributes.get("source_target_pairs" if op.name == _S + "collective_permute"
                             else "replica_groups")
    if attr is None:
        return [0]
    arr = np.asarray(attr.array) if isinstance(attr, DenseElementsAttr) else np.asarray(ints(attr))
    if arr.ndim != 2:
        arr = arr.reshape(-1, 2 if op.name == _S + "collective_permute" else max(1, arr.size))
    return [int(arr.shape[1])] + [int(x) for x in arr.reshape(-1)]


def _params(op) -> list:
    a = op.attributes
    if op.name in (_S + "all_gather",):
        return [ints(a.get("all_gather_dim"))[0]]
    if op.name == _S + "reduce_scatter":
        return [ints(a.get("scatter_dimension"))[0]]
    if op.name == _S + "all_to_all":
        return [ints(a.get(k))[0] for k in ("split_dimension", "concat_dimension", "split_count")]
    if op.name == _S + "collective_broadcast":
        return [1 if a.get("has_dynamic_root") is not None else 0]
    return []


def emit_collective(g, op) -> None:
    """Host code for one collective op of GeneralFunction ``g``."""
    from .host_program import Dev, Host
    f = g.f
    kind = op.name[len(_S):]
    codes = [contract.KIND_ID[kind], contract.MODE_ID[mode_of(op)],
             contract.REDUCTION_ID[reduction_of(op)]]
    g.read_backs += 1                  # the commands so far must be done: not one recording
    views = []
    for v in op.operands:
        val = g.env[v]
        if isinstance(val, Host):
            val = g.to_device(val)
        views.append(_view(g, val.buf, v))
    outs = []
    for r in op.results:
        buf = g.allocate(r.type, r)
        outs.append(buf)
        g.env[r] = Dev(buf, r.type, True)
    g.flush()
    out_views = [_view(g, b, r) for b, r in zip(outs, op.results)]
    ch = _channel(g)
    lst = lambda bank, xs: [f.const(bank, x) for x in xs]   # noqa: E731
    f.call("channel.collective", [ch] + [f.const("i32", c) for c in codes] +
           [lst("i64", _params(op)), lst("i64", _groups(op)),
            views, out_views])


def emit_id(g, op):
    """``replica_id`` / ``partition_id``: a ui32 host value from the channel."""
    from .host_program import Host
    which = "replica_id" if op.name.endswith("replica_id") else "partition_id"
    r, = g.f.call(f"channel.{which}", [_channel(g)], 1)
    return Host([r], op.result.type)


def _channel(g) -> str:
    ch, = g.f.call("channel.get", [], 1)
    return ch


def _view(g, buf, v) -> str:
    f = g.f
    dims = [g.dim(d) for d in g.dims_of(v)]
    view, = f.call("buffer_view.create", [buf, f.const("i64", 0), g.nbytes(v),
                                          f.const("i32", g.element_id(v.type)),
                                          dims], 1)
    return view
