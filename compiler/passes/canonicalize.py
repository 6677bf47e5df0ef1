"""Op-level canonicalization before inlining: ops that carry no computation
of their own are rewritten into ones the rest of the compiler knows.

- ``stablehlo.composite`` becomes a ``func.call`` of its ``decomposition``
  (the inliner then inlines it, as StableHLO allows);
- ``stablehlo.optimization_barrier`` forwards its operands (values are
  never re-ordered across dispatches anyway: the schedule follows data);
- ``get_tuple_element(tuple(...))`` folds to the tuple's operand;
- ``custom_call @Sharding`` and the SPMD shard/full-shape markers JAX emits
  for single-device programs forward their operand (markers that change the
  shape, GSPMD's manual sharding, are refused by name);
- ``stablehlo.dot`` (the legacy matrix/vector product TensorFlow's XLA
  bridge still emits) becomes the ``dot_general`` that contracts the lhs's
  last dimension with the rhs's first;
- the dynamism custom calls JAX emits for symbolic shapes
  (``@stablehlo.dynamic_reduce_window`` / ``_rng_bit_generator`` / ``_top_k``
  / ``_approx_top_k``, and ``@ApproxTopK``) become the ops whose kernels they
  share (passes/dynamism.py);
- ``chlo.mulhi`` (high half of an integer product) becomes StableHLO integer
  ops: a widened multiply and shift up to 32 bits, 32-bit halves for 64;
- ``dynamic_conv`` / ``dynamic_gather`` / ``dynamic_pad`` whose padding,
  slice-size or edge operands are constants (and whose types are static)
  become ``convolution`` / ``gather`` / ``pad`` with those values as
  attributes; the general dynamic path handles the rest;
- ``chlo.scan`` becomes a ``stablehlo.while`` over the scan dimension: each
  step slices the inputs at the position (``dynamic_slice`` + ``reshape``),
  runs a copy of the body on them and the carries, and writes the per-step
  outputs into their accumulators (``dynamic_update_slice``); ``is_reverse``
  walks the positions from the end;
- ``chlo.ragged_dot`` with a ragged non-contracting lhs dimension (the rows
  of group g, by ``group_sizes``, multiply rhs group g) becomes one
  ``dot_general`` against every group, a mask selecting each row's own group
  (rows past the last group get zero) and a sum over the group dimension.
  Ragged contracting / batch dimensions raise UnsupportedOpError.

The rest (CHLO's broadcasting forms, einsum, batch norm, rng, ...) are in
passes/decompose.py.
"""
from __future__ import annotations

from ..dialects.registry import OPS
from ..errors import UnsupportedOpError
from ..ir.attributes import SymbolRefAttr
from ..ir.core import Operation
from . import dynamism
from .base import Pass
from .decompose import decompose
from .decompose_host import inline_async

IDENTITY_CUSTOM_CALLS = ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
                         "mhlo.sharding")


def _sym(op, key):
    a = op.attributes.get(key)
    return getattr(a, "name", None) or getattr(a, "value", None)


class CanonicalizeOps(Pass):
    name = "canonicalize-ops"

    def run(self, module) -> None:
        self.module = module
        for f in list(module.functions):
            for op in [o for o in f.walk() if o.name == "stablehlo.async_start"]:
                inline_async(op)
            ops = list(f.walk())
            for op in reversed([o for o in ops if o.name == "chlo.scan"]):   # inner first
                _lower_scan(op)
            for op in ops:
                if op.name != "chlo.scan":
                    self._rewrite(op)

    def _rewrite(self, op) -> None:
        name = op.name
        if name == "stablehlo.composite":
            callee = _sym(op, "decomposition")
            if callee is None:
                raise UnsupportedOpError(name, "composite without a decomposition", op.location)
            call = Operation("func.call", list(op.operands), [r.type for r in op.results],
                             {"callee": SymbolRefAttr(callee)}, [], op.location)
            op.parent.insert_before(op, call)
            for old, new in zip(op.results, call.results):
                old.replace_all_uses_with(new)
            op.erase()
        elif name == "stablehlo.optimization_barrier":
            self._forward(op, op.operands)
        elif name == "stablehlo.get_tuple_element":
            src = op.operands[0].defining_op
            if src is not None and src.name == "stablehlo.tuple":
                i = op.attributes["index"].value
                self._forward(op, [src.operands[i]])
                if not any(r.uses for r in src.results):
                    src.erase()
        elif name == "stablehlo.custom_call" and _sym(op, "call_target_name") in IDENTITY_CUSTOM_CALLS:
            if [v.type for v in op.operands] != [r.type for r in op.results]:
                # GSPMD-style shard_map (no Shardy): the markers change shapes
                raise UnsupportedOpError(f"custom_call @{_sym(op, 'call_target_name')}",
                                         "between a global and a per-shard shape (GSPMD "
                                         "manual sharding; export with Shardy, JAX's "
                                         "default, to get sdy.manual_computation)", op.location)
            self._forward(op, op.operands)
        elif name == "stablehlo.custom_call" and _sym(op, "call_target_name") in dynamism.TARGETS:
            dynamism.rewrite(op, self.module, _sym(op, "call_target_name"))
        elif name == "stablehlo.dot":
            _dot_to_dot_general(op)
        elif name == "chlo.mulhi":
            self._forward(op, [_mulhi(op)])
        elif name == "chlo.ragged_dot":
            self._forward(op, [_ragged_dot(op)])
        elif static_form(name) is not None:
            _to_static_form(op)
        else:
            decompose(op)

    @staticmethod
    def _forward(op, values) -> None:
        for old, new in zip(op.results, values):
            old.replace_all_uses_with(new)
        op.erase()


def _lower_scan(op) -> None:
    import numpy as np

    from ..ir.attributes import DenseArrayAttr, DenseElementsAttr, EnumAttr
    from ..ir.clone import clone_op
    from ..ir.core import Block, Region
    from ..ir.types import TensorType, numpy_dtype
    loc = op.location
    seg = op.attributes.get("operandSegmentSizes")
    n_init = None
    if seg is not None and len(getattr(seg, "values", ())) == 2:
        n_init = int(seg.values[1])
    body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    if n_init is None or body is None or len(op.regions[0].blocks) != 1:
        raise UnsupportedOpError(op.name, "needs operandSegmentSizes and a one-block body", loc)
    n_in = len(op.operands) - n_init
    n_out = len(op.results) - n_init
    inputs, inits = list(op.operands[:n_in]), list(op.operands[n_in:])
    dim = int(getattr(op.attributes.get("dimension"), "value", 0))
    rev = op.attributes.get("is_reverse")
    reverse = bool(getattr(rev, "value", False))
    types = [v.type for v in list(op.operands) + list(op.results)]
    if body is not None:        # the step's reshapes need static types (StableHLO's reshape)
        types += [a.type for a in body.arguments]
    if not all(isinstance(t, TensorType) and t.is_static for t in types):
        raise UnsupportedOpError(op.name, "with dynamic shapes", loc)
    if n_out < 0 or len(body.arguments) != n_in + n_init:
        raise UnsupportedOpError(op.name, "with a body that does not match its operands", loc)
    out_types = [r.type for r in op.results[:n_out]]
    lengths = {v.type.shape[dim] for v in inputs} | {t.shape[dim] for t in out_types}
    if len(lengths) != 1:
        raise UnsupportedOpError(op.name, "without one length along the scan dimension", loc)
    n = lengths.pop()
    idx_t = TensorType((), "i64")

    def emit(block, anchor, name, operands, typ, attrs=None):
        new = Operation(name, list(operands), [typ], attrs or {}, [], loc)
        if anchor is None:
            block.append(new)
        else:
            block.insert_before(anchor, new)
        return new.results[0]

    def const(block, anchor, typ, value):
        arr = np.full(typ.shape, value, dtype=numpy_dtype(typ.element))
        return emit(block, anchor, "stablehlo.constant", [], typ, {"value": DenseElementsAttr(typ, arr)})

    outer = op.parent
    accs = [const(outer, op, t, 0) for t in out_types]
    state = [const(outer, op, idx_t, 0)] + inits + accs + inputs
    state_types = [v.type for v in state]
    k = 1 + n_init

    cond_b = Block(state_types)
    lim = const(cond_b, None, idx_t, n)
    lt = emit(cond_b, None, "stablehlo.compare", [cond_b.arguments[0], lim], TensorType((), "i1"),
              {"comparison_direction": EnumAttr("stablehlo", "comparison_direction", "LT"),
               "compare_type": EnumAttr("stablehlo", "comparison_type", "SIGNED")})
    cond_b.append(Operation("stablehlo.return", [lt], [], {}, [], loc))

    b = Block(state_types)
    args = b.arguments
    i = args[0]
    pos = emit(b, None, "stablehlo.subtract", [const(b, None, idx_t, n - 1), i], idx_t) if reverse else i
    zero = const(b, None, idx_t, 0)
    mapping = {}
    for j, src in enumerate(args[k + n_out:]):
        shape = src.type.shape
        starts = [pos if d == dim else zero for d in range(len(shape))]
        sizes = tuple(1 if d == dim else s for d, s in enumerate(shape))
        sl = emit(b, None, "stablehlo.dynamic_slice", [src] + starts, TensorType(sizes, src.type.element),
                  {"slice_sizes": DenseArrayAttr("i64", sizes)})
        mapping[body.arguments[j]] = emit(b, None, "stablehlo.reshape", [sl], body.arguments[j].type)
    for j in range(n_init):
        mapping[body.arguments[n_in + j]] = args[1 + j]
    ret = None
    for inner in body.operations:
        if inner.name == "stablehlo.return":
            ret = inner
            break
        b.append(clone_op(inner, mapping))
    if ret is None or len(ret.operands) != n_out + n_init:
        raise UnsupportedOpError(op.name, "body must return its outputs then its carries", loc)
    vals = [mapping.get(v, v) for v in ret.operands]
    new_accs = []
    for j, t in enumerate(out_types):
        acc = args[k + j]
        upd_t = TensorType(tuple(1 if d == dim else s for d, s in enumerate(t.shape)), t.element)
        upd = emit(b, None, "stablehlo.reshape", [vals[j]], upd_t)
        starts = [pos if d == dim else zero for d in range(len(t.shape))]
        new_accs.append(emit(b, None, "stablehlo.dynamic_update_slice", [acc, upd] + starts, t))
    nxt = emit(b, None, "stablehlo.add", [i, const(b, None, idx_t, 1)], idx_t)
    b.append(Operation("stablehlo.return", [nxt] + vals[n_out:] + new_accs + list(args[k + n_out:]),
                       [], {}, [], loc))

    loop = Operation("stablehlo.while", state, state_types, {}, [Region([cond_b]), Region([b])], loc)
    outer.insert_before(op, loop)
    res = loop.results
    for old, new in zip(op.results, list(res[k:k + n_out]) + list(res[1:k])):
        old.replace_all_uses_with(new)
    op.erase()


def _dot_to_dot_general(op) -> None:
    """``dot`` (operands of rank 1 or 2) as a ``dot_general``, in place."""
    from ..ir.attributes import StructAttr
    ranks = [len(getattr(v.type, "shape", ()) or ()) for v in op.operands]
    if len(ranks) != 2 or not all(r in (1, 2) for r in ranks):
        raise UnsupportedOpError(op.name, f"with operand ranks {ranks} (1 or 2 expected)",
                                 op.location)
    op.name = "stablehlo.dot_general"
    op.attributes["dot_dimension_numbers"] = StructAttr("stablehlo.dot", {
        "lhs_batching_dimensions": (), "rhs_batching_dimensions": (),
        "lhs_contracting_dimensions": (ranks[0] - 1,), "rhs_contracting_dimensions": (0,)})


def _ragged_dot(op):
    """chlo.ragged_dot (ragged lhs non-contracting dimension) from StableHLO
    ops, built before ``op``."""
    import numpy as np

    from ..ir.attributes import DenseArrayAttr, DenseElementsAttr, EnumAttr, IntAttr, StructAttr
    from ..ir.core import Block, Region
    from ..ir.types import TensorType, numpy_dtype
    loc = op.location
    dn = op.attributes.get("ragged_dot_dimension_numbers")
    f = getattr(dn, "fields", None)
    if f is None or len(op.operands) != 3:
        raise UnsupportedOpError(op.name, "without ragged_dot_dimension_numbers", loc)
    lhs, rhs, sizes = op.operands
    out_t = op.results[0].type
    if not all(isinstance(t, TensorType) and t.is_static for t in (lhs.type, rhs.type, sizes.type, out_t)):
        raise UnsupportedOpError(op.name, "with dynamic shapes", loc)
    lb, rb = tuple(f.get("lhs_batching_dimensions", ())), tuple(f.get("rhs_batching_dimensions", ()))
    lc, rc = tuple(f.get("lhs_contracting_dimensions", ())), tuple(f.get("rhs_contracting_dimensions", ()))
    lr, rg = tuple(f.get("lhs_ragged_dimensions", ())), tuple(f.get("rhs_group_dimensions", ()))
    if len(lr) != 1 or len(rg) != 1 or lr[0] in lc or lr[0] in lb:
        raise UnsupportedOpError(op.name, "with a ragged contracting or batch dimension", loc)
    if len(sizes.type.shape) != 1:
        raise UnsupportedOpError(op.name, "with group_sizes of rank other than 1", loc)
    ragged, group = lr[0], rg[0]
    lfree = [d for d in range(len(lhs.type.shape)) if d not in lb and d not in lc]
    rfree = [d for d in range(len(rhs.type.shape)) if d not in rb and d not in rc]
    el = out_t.element
    i64 = "i64"

    def emit(block, name, operands, typ, attrs=None, regions=()):
        new = Operation(name, list(operands), [typ], attrs or {}, list(regions), loc)
        if block is None:
            op.parent.insert_before(op, new)
        else:
            block.append(new)
        return new.results[0]

    def const(typ, value, block=None):
        arr = np.full(typ.shape, value, dtype=numpy_dtype(typ.element))
        return emit(block, "stablehlo.constant", [], typ, {"value": DenseElementsAttr(typ, arr)})

    def cmp(a, b, direction, shape):
        return emit(None, "stablehlo.compare", [a, b], TensorType(shape, "i1"),
                    {"comparison_direction": EnumAttr("stablehlo", "comparison_direction", direction),
                     "compare_type": EnumAttr("stablehlo", "comparison_type", "SIGNED")})

    def bcast(v, shape, dims):
        return emit(None, "stablehlo.broadcast_in_dim", [v], TensorType(shape, v.type.element),
                    {"broadcast_dimensions": DenseArrayAttr("i64", tuple(dims))})

    def iota(shape, d):
        return emit(None, "stablehlo.iota", [], TensorType(shape, i64), {"iota_dimension": IntAttr(d, "i64")})

    def reduce_sum(v, dim):
        t = v.type
        s = TensorType((), t.element)
        blk = Block([s, s])
        blk.append(Operation("stablehlo.return", [emit(blk, "stablehlo.add", list(blk.arguments), s)],
                             [], {}, [], loc))
        shape = tuple(x for d, x in enumerate(t.shape) if d != dim)
        return emit(None, "stablehlo.reduce", [v, const(s, 0)], TensorType(shape, t.element),
                    {"dimensions": DenseArrayAttr("i64", (dim,))}, [Region([blk])])

    # the dot against every group: batch dims, lhs free dims, rhs free dims
    shape = tuple([lhs.type.shape[d] for d in lb] + [lhs.type.shape[d] for d in lfree] +
                  [rhs.type.shape[d] for d in rfree])
    dot = emit(None, "stablehlo.dot_general", [lhs, rhs], TensorType(shape, el), {
        "dot_dimension_numbers": StructAttr("stablehlo.dot", {
            "lhs_batching_dimensions": lb, "rhs_batching_dimensions": rb,
            "lhs_contracting_dimensions": lc, "rhs_contracting_dimensions": rc})})
    r_pos = len(lb) + lfree.index(ragged)
    g_pos = len(lb) + len(lfree) + rfree.index(group)
    n_groups = sizes.type.shape[0]
    # group g covers rows [ends[g] - sizes[g], ends[g]); ends = inclusive cumsum
    sz = sizes if sizes.type.element == i64 else emit(None, "stablehlo.convert", [sizes], TensorType((n_groups,), i64))
    gg = (n_groups, n_groups)
    upto = cmp(iota(gg, 1), iota(gg, 0), "LE", gg)        # [g, h]: h <= g
    picked = emit(None, "stablehlo.select", [upto, bcast(sz, gg, [1]), const(TensorType(gg, i64), 0)],
                  TensorType(gg, i64))
    ends = reduce_sum(picked, 1)
    starts = emit(None, "stablehlo.subtract", [ends, sz], TensorType((n_groups,), i64))
    rows = iota(shape, r_pos)
    inside = emit(None, "stablehlo.and", [cmp(rows, bcast(starts, shape, [g_pos]), "GE", shape),
                                         cmp(rows, bcast(ends, shape, [g_pos]), "LT", shape)],
                  TensorType(shape, "i1"))
    masked = emit(None, "stablehlo.select", [inside, dot, const(TensorType(shape, el), 0)], TensorType(shape, el))
    out = reduce_sum(masked, g_pos)
    if out.type.shape != out_t.shape:
        raise UnsupportedOpError(op.name, f"result type {out_t} (expected shape {out.type.shape})", loc)
    return out


def static_form(name):
    """A dynamic op's declared ``static_form`` (dialects/opdef.py), or None."""
    d = OPS.get(name)
    return d.static_form if d is not None else None


def _constant_array(value):
    src = value.defining_op
    if src is None or src.name != "stablehlo.constant":
        return None
    arr = getattr(src.attributes.get("value"), "array", None)
    return None if arr is None else arr.astype("int64")


def _to_static_form(op) -> bool:
    """Rewrite ``op`` into its static form when its shape operands are
    constants and every type is static; True when rewritten."""
    from ..ir.attributes import DenseArrayAttr, DenseElementsAttr
    from ..ir.types import TensorType
    static, kept, consts = static_form(op.name)
    consts = dict(consts)
    if len(op.operands) != kept + len(consts):
        return False
    if not all(isinstance(v.type, TensorType) and v.type.is_static
               for v in list(op.operands) + list(op.results)):
        return False
    attrs = dict(op.attributes)
    for i, key in consts.items():
        arr = _constant_array(op.operands[i])
        if arr is None:
            return False
        if key == "padding":
            attrs[key] = DenseElementsAttr(TensorType(arr.shape, "i64"), arr)
        else:
            attrs[key] = DenseArrayAttr("i64", tuple(int(x) for x in arr.reshape(-1)))
    new = Operation(static, list(op.operands[:kept]), [r.type for r in op.results], attrs, [],
                    op.location)
    op.parent.insert_before(op, new)
    for old, res in zip(op.results, new.results):
        old.replace_all_uses_with(res)
    op.erase()
    return True


def _mulhi(op):
    """The high half of lhs * rhs (same integer type), built before ``op``."""
    import numpy as np

    from ..ir.attributes import DenseElementsAttr
    from ..ir.types import TensorType, bit_width, is_unsigned, numpy_dtype
    a, b = op.operands
    t = a.type
    el = getattr(t, "element", "")
    if not isinstance(t, TensorType) or not t.is_static or not el.lstrip("u").startswith("i"):
        raise UnsupportedOpError(op.name, f"on {t}", op.location)
    width, unsigned = bit_width(el), is_unsigned(el)

    def emit(name, operands, typ=None):
        new = Operation("stablehlo." + name, list(operands), [typ or operands[0].type], {}, [], op.location)
        op.parent.insert_before(op, new)
        return new.results[0]

    def const(value, typ):
        arr = np.full(typ.shape, value, dtype=numpy_dtype(typ.element))
        c = Operation("stablehlo.constant", [], [typ], {"value": DenseElementsAttr(typ, arr)}, [], op.location)
        op.parent.insert_before(op, c)
        return c.results[0]
    if width < 64:
        wide = TensorType(t.shape, "ui64" if unsigned else "i64")
        x, y = emit("convert", [a], wide), emit("convert", [b], wide)
        shift = "shift_right_logical" if unsigned else "shift_right_arithmetic"
        hi = emit(shift, [emit("multiply", [x, y]), const(width, wide)])
        return emit("convert", [hi], t)
    mask, k32 = const(0xFFFFFFFF, t), const(32, t)
    lo_a, hi_a = emit("and", [a, mask]), emit("shift_right_logical", [a, k32])
    lo_b, hi_b = emit("and", [b, mask]), emit("shift_right_logical", [b, k32])
    ll, lh = emit("multiply", [lo_a, lo_b]), emit("multiply", [lo_a, hi_b])
    hl, hh = emit("multiply", [hi_a, lo_b]), emit("multiply", [hi_a, hi_b])
    mid = emit("add", [emit("add", [emit("shift_right_logical", [ll, k32]), emit("and", [lh, mask])]),
                       emit("and", [hl, mask])])
    hi = emit("add", [emit("add", [hh, emit("shift_right_logical", [lh, k32])]),
                      emit("add", [emit("shift_right_logical", [hl, k32]),
                                   emit("shift_right_logical", [mid, k32])])])
    if not unsigned:   # two's complement: subtract b where a < 0 and a where b < 0
        k63 = const(63, t)
        hi = emit("subtract", [hi, emit("and", [emit("shift_right_arithmetic", [a, k63]), b])])
        hi = emit("subtract", [hi, emit("and", [emit("shift_right_arithmetic", [b, k63]), a])])
    return hi
