"""Decompositions of ops that wrap other ops or set shapes:

- ``stablehlo.cross-replica-sum`` (the legacy all-reduce TensorFlow's
  bridge emits) is an ``all_reduce`` whose body adds, with its
  ``replica_groups`` (cross-replica mode);
- ``stablehlo.async_start`` runs its called computation in place: the
  region's ops are copied before it (block arguments bound to its
  operands) and each ``async_done`` of its future forwards the values the
  region returns.  The runtime schedules by data flow anyway, so nothing is
  lost by not deferring.  A future that reaches anything but
  ``async_done`` (a return, a call) raises UnsupportedOpError.
- ``stablehlo.set_dimension_size``: setting a static dim to its own size
  forwards the operand; setting a dynamic (or bounded, ``?``) result dim
  keeps the first ``size`` elements along it (``real_dynamic_slice``, the
  size clamped to the operand's).  A static result dim that would be set to
  another size, or to one known only at run time, has no meaning without a
  padded bounded type, and raises UnsupportedOpError saying so.
"""
from __future__ import annotations

from ..dialects.registry import terminates
from ..errors import UnsupportedOpError
from ..ir.attributes import IntAttr
from ..ir.clone import clone_op
from ..ir.core import Block, Region
from ..ir.types import TensorType
from .op_builder import Builder


def _cross_replica_sum(op) -> list:
    b = Builder(op)
    t = b.operands("operand")[0].type
    if not isinstance(t, TensorType):
        b.fail(f"on {t}")
    s = TensorType((), t.element)
    body = Block([s, s])
    inner = Builder(op, body)
    inner.ops("stablehlo.return", [inner.binary("add", *body.arguments)], [])
    attrs = {k: v for k, v in op.attributes.items() if k == "replica_groups"}
    if "replica_groups" not in attrs:
        b.fail("without replica_groups")
    return [b.op("stablehlo.all_reduce", [op.operands[0]], op.results[0].type, attrs,
                 [Region([body])])]


def inline_async(op) -> None:
    """Run ``async_start``'s computation in place and forward its
    ``async_done``s (see the module docstring)."""
    b = Builder(op)
    region = op.regions[0] if op.regions else None
    if region is None or len(region.blocks) != 1:
        b.fail("without a one-block called computation")
    block = region.blocks[0]
    if len(block.arguments) != len(op.operands):
        b.fail(f"whose computation takes {len(block.arguments)} arguments for "
               f"{len(op.operands)} operands")
    dones = []
    for r in op.results:
        for user, _ in list(r.uses):
            if user.name != "stablehlo.async_done":
                b.fail(f"whose future is used by {user.name} (only async_done is lowered)")
            if user not in dones:
                dones.append(user)
    mapping = dict(zip(block.arguments, op.operands))
    values = None
    for inner in block.operations:
        if terminates(inner.name):
            values = [mapping.get(v, v) for v in inner.operands]
            break
        op.parent.insert_before(op, clone_op(inner, mapping))
    if values is None:
        b.fail("whose computation does not end in a return")
    for done in dones:
        if len(done.results) != len(values):
            raise UnsupportedOpError(
                done.name, f"with {len(done.results)} results for a computation returning "
                           f"{len(values)}", done.location)
        for old, new in zip(done.results, values):
            old.replace_all_uses_with(new)
        done.erase()
    op.erase()


def _set_dimension_size(op) -> list:
    b = Builder(op)
    x, size = b.operands("operand, size")
    out_t = op.results[0].type
    if not isinstance(x.type, TensorType) or not isinstance(out_t, TensorType):
        b.fail(f"on {x.type}")
    rank = len(x.type.shape)
    d = int(getattr(op.attributes.get("dimension"), "value", -1))
    if not 0 <= d < rank:
        b.fail(f"dimension {d} outside the operand's rank {rank}")
    src = size.defining_op
    arr = getattr(src.attributes.get("value"), "array", None) if src is not None and \
        src.name == "stablehlo.constant" else None
    known = int(arr.reshape(-1)[0]) if arr is not None and arr.size == 1 else None
    if out_t.shape[d] is not None:
        if known is not None and known == x.type.shape[d] == out_t.shape[d] and \
                x.type.shape == out_t.shape:
            return [x]
        b.fail(f"setting static dim {d} of {x.type} to size "
               f"{known if known is not None else 'known at run time'}: only a dynamic or bounded "
               "result dim ('?') can hold a size other than its own; give the result type a '?' "
               "there")
    s = b.convert(b.reshape(size, ()) if size.type.shape != () else size, "i64")
    full = b.convert(b.op("stablehlo.get_dimension_size", [x], TensorType((), "i32"),
                          {"dimension": IntAttr(d, "i64")}), "i64") if x.type.shape[d] is None \
        else b.scalar("i64", x.type.shape[d])
    s = b.binary("maximum", b.binary("minimum", s, full), b.scalar("i64", 0))
    limits = []
    for k in range(rank):
        if k == d:
            limits.append(b.reshape(s, (1,)))
        elif x.type.shape[k] is not None:
            limits.append(b.const(TensorType((1,), "i64"), x.type.shape[k]))
        else:
            g = b.op("stablehlo.get_dimension_size", [x], TensorType((), "i32"), {"dimension": IntAttr(k, "i64")})
            limits.append(b.reshape(b.convert(g, "i64"), (1,)))
    lim = b.op("stablehlo.concatenate", limits, TensorType((rank,), "i64"), {"dimension": IntAttr(0, "i64")})
    zeros = b.const(TensorType((rank,), "i64"), 0)
    ones = b.const(TensorType((rank,), "i64"), 1)
    res_t = TensorType(out_t.shape, out_t.element)      # the bound is not needed past here
    return [b.op("stablehlo.real_dynamic_slice", [x, zeros, lim, ones], res_t)]
