"""StableHLO's dynamism custom calls (the ops JAX emits for symbolic shapes,
after StableHLO's dynamism spec) rewritten into the ops whose kernels they
share, before inlining (passes/canonicalize.py calls ``rewrite``):

- ``@stablehlo.dynamic_reduce_window(inputs..., inits..., window_dimensions,
  window_strides, base_dilations, window_dilations, padding)`` with its body
  in ``called_computations[0]`` becomes ``stablehlo.reduce_window``: the
  window operands become attributes when they are constants; otherwise they
  stay as its last five operands, read on the host (``tvm.shape_operands``;
  shape analysis turns them into symbolic window sizes, strides and padding
  for the kernel: a cumulative sum over a symbolic length has a window of
  that length).
- ``@stablehlo.dynamic_rng_bit_generator(state, output_shape)`` becomes
  ``rng_bit_generator`` with ``output_shape`` as a host operand.
- ``@stablehlo.dynamic_top_k(operand, k)`` becomes ``chlo.top_k`` with ``k``
  as a host operand (the result's last dim).
- ``@ApproxTopK(inputs..., inits...)`` and ``@stablehlo.dynamic_approx_top_k(
  inputs..., inits..., k, result shapes...)`` become what XLA runs for them
  off TPU: a stable ``sort`` of the inputs along ``reduction_dim`` with the
  comparator of ``called_computations[0]``, then the first k (or, without
  ``aggregate_to_topk``, the result's size) along that dim (``slice``, or
  ``real_dynamic_slice`` for a run-time k).

Anything else these calls may carry (a missing body, a malformed backend
config, a state or window operand of the wrong rank) raises
``UnsupportedOpError`` naming the call.
"""
from __future__ import annotations

import numpy as np

from ..dialects.stablehlo.reduction import SHAPE_OPERANDS_ATTR, window_operands
from ..errors import UnsupportedOpError
from ..ir.attributes import (BoolAttr, DenseArrayAttr, DenseElementsAttr, DictAttr,
                             IntAttr, SymbolRefAttr)
from ..ir.core import Block, Operation, Region
from ..ir.types import TensorType

TARGETS = ("stablehlo.dynamic_reduce_window", "stablehlo.dynamic_rng_bit_generator",
           "stablehlo.dynamic_top_k", "stablehlo.dynamic_approx_top_k", "ApproxTopK")
_WINDOW = ("window_dimensions", "window_strides", "base_dilations", "window_dilations")


def rewrite(op, module, target: str) -> None:
    """Replace custom call ``op`` (to ``target``, one of TARGETS)."""
    _RULES[target](op, module, target)


def _fail(op, target, why):
    raise UnsupportedOpError(f"custom_call @{target}", why, op.location)


def _constant(v):
    p = v.defining_op
    if p is not None and p.name == "stablehlo.constant" and isinstance(p.attr("value"), DenseElementsAttr):
        return np.asarray(p.attr("value").array)
    return None


def _body(op, module, target, returns="stablehlo.return") -> Region:
    """A region holding a copy of the function named by ``called_computations[0]``."""
    calls = op.attributes.get("called_computations")
    names = [e.name for e in getattr(calls, "elements", ()) if isinstance(e, SymbolRefAttr)]
    fn = module.lookup(names[0]) if names else None
    if fn is None or not fn.regions or len(fn.regions[0].blocks) != 1:
        _fail(op, target, "needs its body as a one-block function in called_computations")
    src = fn.regions[0].blocks[0]
    block = Block([a.type for a in src.arguments])
    mapping = dict(zip(src.arguments, block.arguments))
    from ..ir.clone import clone_op
    for inner in src.operations:
        if inner is src.terminator:
            block.append(Operation(returns, [mapping.get(v, v) for v in inner.operands], [], {},
                                   [], inner.location))
        else:
            block.append(clone_op(inner, mapping))
    return Region([block])


def _insert(op, name, operands, types, attrs, regions=()):
    new = Operation(name, list(operands), list(types), attrs, list(regions), op.location)
    op.parent.insert_before(op, new)
    return new


def _replace(op, values) -> None:
    for old, new in zip(op.results, values):
        old.replace_all_uses_with(new)
    op.erase()


# -- reduce_window ---------------------------------------------------------------------------
def _reduce_window(op, module, target):
    n = len(op.results)
    if n == 0 or len(op.operands) != 2 * n + 5:
        _fail(op, target, f"with {len(op.operands)} operands for {n} results (inputs, init "
                          "values and five window operands expected)")
    rank = op.results[0].type.rank
    params = op.operands[2 * n:]
    for name, v, shape in zip(_WINDOW + ("padding",), params, [(rank,)] * 4 + [(rank, 2)]):
        if not isinstance(v.type, TensorType) or tuple(v.type.shape) != shape:
            _fail(op, target, f"{name} operand of type {v.type} (expected shape {shape})")
    attrs = {}
    consts = [_constant(v) for v in params]
    if all(c is not None for c in consts):
        for name, c in zip(_WINDOW, consts):
            attrs[name] = DenseArrayAttr("i64", tuple(int(x) for x in c.reshape(-1)))
        attrs["padding"] = DenseElementsAttr(TensorType((rank, 2), "i64"),
                                             np.asarray(consts[4], np.int64).reshape(rank, 2))
        operands = op.operands[:2 * n]
    else:
        operands = op.operands
        attrs[SHAPE_OPERANDS_ATTR] = DenseArrayAttr("i64", tuple(range(2 * n, 2 * n + 5)))
    new = _insert(op, "stablehlo.reduce_window", operands, [r.type for r in op.results], attrs,
                  [_body(op, module, target)])
    _replace(op, new.results)


# -- rng_bit_generator ------------------------------------------------------------------------
def _rng_bit_generator(op, module, target):
    if len(op.operands) != 2 or len(op.results) != 2:
        _fail(op, target, "takes (initial_state, output_shape) and returns (output_state, output)")
    shape = op.operands[1]
    if not isinstance(shape.type, TensorType) or shape.type.rank != 1 \
            or shape.type.shape[0] != op.results[1].type.rank:
        _fail(op, target, f"output_shape of type {shape.type} for a rank-"
                          f"{op.results[1].type.rank} output")
    attrs = {k: v for k, v in op.attributes.items() if k == "rng_algorithm"}
    attrs[SHAPE_OPERANDS_ATTR] = DenseArrayAttr("i64", (1,))
    new = _insert(op, "stablehlo.rng_bit_generator", op.operands,
                  [r.type for r in op.results], attrs)
    _replace(op, new.results)


# -- top_k --------------------------------------------------------------------------------------
def _top_k(op, module, target):
    if len(op.operands) != 2 or len(op.results) != 2:
        _fail(op, target, "takes (operand, k) and returns (values, indices)")
    x, k = op.operands
    if not isinstance(k.type, TensorType) or k.type.rank != 0:
        _fail(op, target, f"k of type {k.type} (a scalar integer expected)")
    attrs = {SHAPE_OPERANDS_ATTR: DenseArrayAttr("i64", (1,))}
    c = _constant(k)
    if c is not None:
        attrs = {"k": IntAttr(int(c))}
    new = _insert(op, "chlo.top_k", [x] if c is not None else [x, k],
                  [r.type for r in op.results], attrs)
    _replace(op, new.results)


def top_k_operand(op):
    """The run-time k operand of a chlo.top_k made from dynamic_top_k, else None."""
    if op.name == "chlo.top_k" and SHAPE_OPERANDS_ATTR in op.attributes:
        return op.operands[1]
    return None


# -- approx top k -------------------------------------------------------------------------------
def _approx_top_k(op, module, target):
    n = len(op.results)
    config = op.attributes.get("mhlo.backend_config")
    if not isinstance(config, DictAttr):
        _fail(op, target, "needs mhlo.backend_config as a dictionary (reduction_dim, top_k, ...)")
    cfg = config.entries
    dim = getattr(cfg.get("reduction_dim"), "value", None)
    dynamic = target != "ApproxTopK"
    if n == 0 or len(op.operands) < 2 * n + (1 if dynamic else 0) or not isinstance(dim, int):
        _fail(op, target, f"with {len(op.operands)} operands for {n} results and reduction_dim "
                          f"{dim}")
    inputs = op.operands[:n]
    rank = inputs[0].type.rank
    if dim < 0:
        dim += rank
    if not 0 <= dim < rank:
        _fail(op, target, f"reduction_dim {dim} of a rank-{rank} operand")
    aggregate = getattr(cfg.get("aggregate_to_topk"), "value", True)
    sort = _insert(op, "stablehlo.sort", inputs, [v.type for v in inputs],
                   {"dimension": IntAttr(dim), "is_stable": BoolAttr(True)},
                   [_body(op, module, target)])
    size = op.results[0].type.shape[dim]
    if size is not None and all(inputs[0].type.shape[d] is not None
                                for d in range(rank) if d != dim):
        results = [_insert(op, "stablehlo.slice", [v], [r.type],
                           {"start_indices": DenseArrayAttr("i64", (0,) * rank),
                            "limit_indices": DenseArrayAttr("i64", tuple(
                                size if d == dim else v.type.shape[d] for d in range(rank))),
                            "strides": DenseArrayAttr("i64", (1,) * rank)}).results[0]
                   for v, r in zip(sort.results, op.results)]
    else:
        if size is None and not (dynamic and aggregate):
            _fail(op, target, "with a dynamic result size along reduction_dim and no "
                              "aggregate_to_topk k")
        k = op.operands[2 * n] if size is None else _const(op, TensorType((), "i64"),
                                                             np.array(size, np.int64))
        i64 = TensorType((rank,), "i64")
        zeros = _const(op, i64, np.zeros(rank, np.int64))
        ones = _const(op, i64, np.ones(rank, np.int64))
        limit = _limits(op, inputs[0], dim, k)
        results = [_insert(op, "stablehlo.real_dynamic_slice", [v, zeros, limit, ones], [r.type],
                           {}).results[0] for v, r in zip(sort.results, op.results)]
    _replace(op, results)


def _const(op, typ, arr):
    return _insert(op, "stablehlo.constant", [], [typ],
                   {"value": DenseElementsAttr(typ, arr)}).results[0]


def _limits(op, x, dim, k):
    """i64[rank]: x's dims with ``k`` at ``dim``."""
    one = TensorType((1,), "i64")
    parts = []
    for d in range(x.type.rank):
        if d == dim:
            v = k
        else:
            v = _insert(op, "stablehlo.get_dimension_size", [x], [TensorType((), "i32")],
                        {"dimension": IntAttr(d)}).results[0]
        if v.type.element != "i64":
            v = _insert(op, "stablehlo.convert", [v], [TensorType((), "i64")], {}).results[0]
        parts.append(_insert(op, "stablehlo.reshape", [v], [one], {}).results[0])
    return _insert(op, "stablehlo.concatenate", parts, [TensorType((x.type.rank,), "i64")],
                   {"dimension": IntAttr(0)}).results[0]


_RULES = {"stablehlo.dynamic_reduce_window": _reduce_window,
          "stablehlo.dynamic_rng_bit_generator": _rng_bit_generator,
          "stablehlo.dynamic_top_k": _top_k,
          "stablehlo.dynamic_approx_top_k": _approx_top_k,
          "ApproxTopK": _approx_top_k}

__all__ = ["TARGETS", "SHAPE_OPERANDS_ATTR", "rewrite", "window_operands", "top_k_operand"]
