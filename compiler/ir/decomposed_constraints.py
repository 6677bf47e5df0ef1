"""Spec-style verifier rules of ops that compile by decomposition
(einsum, unary_einsum, torch_index_select); ir/op_constraints.py adds them
to its ``RULES``.  The StableHLO spec lists these ops as legacy and states
no constraints; these are the ones their definitions imply."""
from __future__ import annotations

from ..errors import CompileError
from . import einsum_config
from .types import TensorType


def _fail(op, message: str):
    where = f"{op.location}: " if op.location is not None else ""
    raise CompileError(f"{where}error: '{op.name}' op {message}")


def _shapes(op):
    vals = list(op.operands) + list(op.results)
    if not all(isinstance(v.type, TensorType) for v in vals):
        return None
    return [v.type.shape for v in op.operands], [r.type.shape for r in op.results]


def _einsum(op):
    text = getattr(op.attributes.get("einsum_config"), "value", None)
    if not isinstance(text, str):
        _fail(op, "requires attribute 'einsum_config' (a string)")
    got = _shapes(op)
    if got is None:
        return
    ins, outs = got
    try:
        _, out_labels, sizes = einsum_config.parse(text, [len(s) for s in ins], ins)
    except ValueError as e:
        _fail(op, str(e))
    want = [sizes.get(l) for l in out_labels]
    res = outs[0] if outs else ()
    if len(res) != len(want) or any(a is not None and b is not None and a != b
                                    for a, b in zip(res, want)):
        shown = "x".join("?" if w is None else str(w) for w in want)
        _fail(op, f"result shape [{'x'.join('?' if d is None else str(d) for d in res)}] does "
                  f"not match einsum_config {text!r}, which gives [{shown}]")


def _torch_index_select(op):
    got = _shapes(op)
    if got is None or len(op.operands) != 2:
        return
    (xs, idx), outs = got
    dim = getattr(op.attributes.get("dim"), "value", None)
    nb = getattr(op.attributes.get("batch_dims"), "value", None)
    if not isinstance(dim, int) or not isinstance(nb, int):
        _fail(op, "requires integer attributes 'dim' and 'batch_dims'")
    rank = len(xs)
    d = dim + rank if dim < 0 else dim
    if not 0 <= d < rank:
        _fail(op, f"dim {dim} is out of range for an operand of rank {rank}")
    if not 0 <= nb <= min(d, len(idx)):
        _fail(op, f"batch_dims {nb} must be in [0, min(dim, index rank)] = [0, {min(d, len(idx))}]")
    el = op.operands[1].type.element
    if not el.lstrip("u").startswith("i") or el == "i1":
        _fail(op, f"index must be a tensor of integers, got element type {el}")
    want = tuple(xs[:d]) + tuple(idx[nb:]) + tuple(xs[d + 1:])
    res = outs[0] if outs else ()
    if len(res) != len(want) or any(a is not None and b is not None and a != b
                                    for a, b in zip(res, want)):
        _fail(op, f"result shape {list(res)} does not match operand[:dim] ++ index[batch_dims:] "
                  f"++ operand[dim + 1:] = {list(want)}")
    for k in range(nb):
        if xs[k] is not None and idx[k] is not None and xs[k] != idx[k]:
            _fail(op, f"batch dim {k} has size {xs[k]} in the operand and {idx[k]} in the index")


RULES = {"stablehlo.einsum": _einsum, "stablehlo.unary_einsum": _einsum,
         "stablehlo.torch_index_select": _torch_index_select}
