"""StableHLO ops on host values: element lists of VM registers.

Shape manipulation (reshape, broadcast, slice, concatenate) is done at
compile time on the register lists; arithmetic becomes one VM instruction per
element with StableHLO's integer semantics (x/0 == -1, x%0 == x, shifts past
the width give 0 or the sign) and narrow integers kept sign/zero extended.
"""
from __future__ import annotations

import numpy as np

from ..dialects.registry import OPS, ORDER_PICK, has
from ..errors import UnsupportedOpError
from ..ir.attributes import ints
from ..ir.types import bit_width, is_float, is_unsigned

_BANK = {"i1": "i32", "i8": "i32", "i16": "i32", "i32": "i32", "ui8": "i32", "ui16": "i32",
         "ui32": "i32", "i64": "i64", "ui64": "i64", "f32": "f32", "f64": "f64"}


def emit_host_op(g, op):
    from .host_program import Host
    t = op.result.type
    el = t.element
    bank = _BANK[el]
    handler = _handler(op.name)
    if handler is None:
        raise UnsupportedOpError(op.name, "in host code", op.location)
    regs = handler(g, op, el, bank)
    return Host(regs, t)


def _vals(g, v):
    if hasattr(g, "host_value"):
        return g.host_value(v).regs          # device shape inputs are read back
    return g.env[v].regs


def _op_constant(g, op, el, bank):
    arr = np.asarray(op.attributes["value"].array).reshape(-1)
    out = []
    for x in arr:
        if bank in ("f32", "f64"):
            out.append(g.const(bank, float(x)))
        elif el == "i1":
            out.append(g.const(bank, int(bool(x))))
        else:
            v = int(x)
            if el in ("ui32",) and v >= 1 << 31:
                v -= 1 << 32
            if el == "ui64" and v >= 1 << 63:
                v -= 1 << 64
            out.append(g.const(bank, v))
    return out


def _index_map(src_shape, dst_shape, fn):
    """For each dst element (row-major), the flat src index ``fn`` maps it to."""
    out = []
    for idx in np.ndindex(*dst_shape) if dst_shape else [()]:
        src = fn(idx)
        out.append(int(np.ravel_multi_index(src, src_shape)) if src_shape else 0)
    return out


def _op_reshape(g, op, el, bank):
    return list(_vals(g, op.operands[0]))


def _op_broadcast_in_dim(g, op, el, bank):
    x = op.operands[0]
    dims = ints(op.attr("broadcast_dimensions"))
    regs = _vals(g, x)
    shape = x.type.shape
    m = _index_map(shape, op.result.type.shape,
                   lambda idx: tuple(0 if shape[k] == 1 else idx[d] for k, d in enumerate(dims)))
    return [regs[i] for i in m]


def _op_slice(g, op, el, bank):
    x = op.operands[0]
    start = ints(op.attr("start_indices"))
    strides = ints(op.attr("strides")) or (1,) * len(start)
    regs = _vals(g, x)
    m = _index_map(x.type.shape, op.result.type.shape,
                   lambda idx: tuple(s + i * st for i, s, st in zip(idx, start, strides)))
    return [regs[i] for i in m]


def _op_concatenate(g, op, el, bank):
    d = ints(op.attr("dimension"))[0]
    parts = [np.array(_vals(g, v), dtype=object).reshape(v.type.shape) for v in op.operands]
    return list(np.concatenate(parts, axis=d).reshape(-1))


def _op_convert(g, op, el, bank):
    src = op.operands[0].type.element
    sb = _BANK[src]
    out = []
    for r in _vals(g, op.operands[0]):
        out.append(_convert_one(g, r, src, sb, el, bank))
    return out


def _convert_one(g, r, src, sb, dst, db):
    if el_eq(src, dst):
        return r
    if dst == "i1":
        zero = g.const(sb, 0.0 if sb in ("f32", "f64") else 0)
        return g.binop(f"cmp.ne.{sb}", r, zero, "i32")
    if sb == db and not is_float(src):
        return g.normalize(r, dst)
    if not is_float(src) and not is_float(dst):        # i32 <-> i64 banks
        if sb == "i32":
            op = "ext.i32.i64.u" if is_unsigned(src) else "ext.i32.i64.s"
            return g._bits(r, op, "i64")
        return g.normalize(g._bits(r, "trunc.i64.i32", "i32"), dst)
    if not is_float(src):                                # int -> float
        if is_unsigned(src) and sb == "i64":
            raise UnsupportedOpError("stablehlo.convert", "ui64 -> float in host code")
        if is_unsigned(src) and sb == "i32":   # zero-extended: a non-negative i64
            r, sb = g._bits(r, "ext.i32.i64.u", "i64"), "i64"
        return g._bits(r, f"cast.{sb}.{db}.s", db)
    if not is_float(dst):                                # float -> int
        if is_unsigned(dst) or bit_width(dst) < 32:
            raise UnsupportedOpError("stablehlo.convert", f"{src} -> {dst} in host code")
        return g._bits(r, f"cast.{sb}.{db}.s", db)
    return g._bits(r, "ext.f32.f64" if sb == "f32" else "trunc.f64.f32", db)


def el_eq(a, b) -> bool:
    return a == b


# VM mnemonics of the binary ops: each declaration's ``host_binary``
# (integer, float) pair (dialects/opdef.py), by short name.
_INT_BIN = {d.name.removeprefix("stablehlo."): d.host_binary[0]
            for d in OPS.values() if d.host_binary and d.host_binary[0]}
_FLOAT_BIN = {d.name.removeprefix("stablehlo."): d.host_binary[1]
              for d in OPS.values() if d.host_binary and d.host_binary[1]}


def _binary(g, op, el, bank):
    name = op.short_name
    a, b = (_vals(g, v) for v in op.operands)
    out = []
    for x, y in zip(a, b):
        if bank in ("f32", "f64"):
            if name not in _FLOAT_BIN:
                raise UnsupportedOpError(op.name, f"on {el} in host code")
            out.append(g.binop(f"{_FLOAT_BIN[name]}.{bank}", x, y, bank))
            continue
        u = is_unsigned(el)
        sym = OPS[op.name].c_infix
        if name in _INT_BIN and not name.startswith("shift"):
            r = g.binop(f"{_INT_BIN[name]}.{bank}", x, y, bank)
        elif has(op.name, ORDER_PICK):
            r = g.binop(f"{name[:3]}.{'u' if u else 's'}.{bank}", x, y, bank)
        elif sym in ("/", "%"):
            zero = g.const(bank, 0)
            isz = g.binop(f"cmp.eq.{bank}", y, zero, "i32")
            safe = g.new(bank)
            g.op(f"select.{bank}", safe, isz, g.const(bank, 1), y)
            kind = "div" if sym == "/" else "rem"
            q = g.binop(f"{kind}.{'u' if u else 's'}.{bank}", x, safe, bank)
            r = g.new(bank)
            g.op(f"select.{bank}", r, isz, g.const(bank, -1) if kind == "div" else x, q)
        elif name.startswith("shift"):
            width = 64 if bank == "i64" else 32
            w = bit_width(el)
            big = g.binop(f"cmp.ge.u.{bank}", y, g.const(bank, w), "i32")
            sh = g.binop(f"{_INT_BIN[name]}.{bank}", x, y, bank)
            if name == "shift_right_arithmetic":
                fill = g.binop(f"shr.s.{bank}", x, g.const(bank, width - 1), bank)
            else:
                fill = g.const(bank, 0)
            r = g.new(bank)
            g.op(f"select.{bank}", r, big, fill, sh)
        else:
            raise UnsupportedOpError(op.name, f"on {el} in host code")
        out.append(g.normalize(r, el))
    return out


def _unary(g, op, el, bank):
    name = op.short_name
    out = []
    for x in _vals(g, op.operands[0]):
        if name == "not":
            r = g.binop(f"xor.{bank}", x, g.const(bank, 1 if el == "i1" else -1), bank)
        elif OPS[op.name].host_unary is not None:
            mn = OPS[op.name].host_unary
            r = g.new(bank)
            g.op(f"{mn}.{bank}", r, x)
        else:
            raise UnsupportedOpError(op.name, "in host code")
        out.append(g.normalize(r, el) if bank in ("i32", "i64") else r)
    return out


_CMP = {"EQ": "eq", "NE": "ne", "LT": "lt", "LE": "le", "GT": "gt", "GE": "ge"}


def _op_compare(g, op, el, bank):
    a, b = op.operands
    src = a.type.element
    sb = _BANK[src]
    direction = getattr(op.attr("comparison_direction"), "value", None)
    ctype = getattr(op.attr("compare_type"), "value", None)
    if ctype == "TOTALORDER":
        raise UnsupportedOpError(op.name, "TOTALORDER in host code")
    d = _CMP[direction]
    if sb in ("i32", "i64") and d not in ("eq", "ne"):
        unsigned = is_unsigned(src) or src == "i1" or ctype == "UNSIGNED"
        d = f"{d}.{'u' if unsigned else 's'}"
    return [g.binop(f"cmp.{d}.{sb}", x, y, "i32") for x, y in zip(_vals(g, a), _vals(g, b))]


def _op_select(g, op, el, bank):
    p, a, b = op.operands
    ps = _vals(g, p)
    out = []
    for k, (x, y) in enumerate(zip(_vals(g, a), _vals(g, b))):
        r = g.new(bank)
        g.op(f"select.{bank}", r, ps[0] if len(ps) == 1 else ps[k], x, y)
        out.append(r)
    return out


def _op_clamp(g, op, el, bank):
    lo, x, hi = (_vals(g, v) for v in op.operands)
    out = []
    for k, v in enumerate(x):
        a = lo[0] if len(lo) == 1 else lo[k]
        b = hi[0] if len(hi) == 1 else hi[k]
        if bank in ("f32", "f64"):
            m = g.binop(f"max.{bank}", v, a, bank)
            out.append(g.binop(f"min.{bank}", m, b, bank))
        else:
            s = "u" if is_unsigned(el) else "s"
            m = g.binop(f"max.{s}.{bank}", v, a, bank)
            out.append(g.binop(f"min.{s}.{bank}", m, b, bank))
    return out


def _op_get_dimension_size(g, op, el, bank):
    x = op.operands[0]
    d = ints(op.attr("dimension"))[0]
    size = g.dims_of(x)[d] if hasattr(g, "dims_of") else x.type.shape[d]
    if size is None:
        raise UnsupportedOpError(op.name, "of a dynamic dimension in host code")
    if isinstance(size, int):
        return [g.const(bank, size)]
    r = g.dim(size)                       # a symbolic dim, computed at run time
    return [r if bank == "i64" else g._bits(r, "trunc.i64.i32", "i32")]


def _op_channel_id(g, op, el, bank):
    from .collectives import emit_id
    return emit_id(g, op).regs


_op_replica_id = _op_partition_id = _op_channel_id


def _handler(full_name: str):
    """The emitter of host op ``full_name``: ``_op_<name>`` of this module,
    else ``_unary`` for ``not`` and the ops declaring ``host_unary``, else
    ``_binary`` for the other binary ops the registry marks ``host_value``."""
    name, d = full_name.removeprefix("stablehlo."), OPS.get(full_name)
    fn = globals().get(f"_op_{name}")
    if fn is None and d is not None and (d.host_unary or name == "not"):
        fn = _unary
    if fn is None and d is not None and d.host_value and d.arity == 2:
        fn = _binary
    return fn


for _d in OPS.values():
    if _d.host_value and _handler(_d.name) is None:
        raise RuntimeError(f"registry: {_d.name} is a host-value op without a host lowering")
