"""The CPU's body emitter: selects as bit blends instead of ``?:``, row
reductions in vector lanes (lane_reduce.py).

Loop if-conversion is off for GCC 12 (a miscompile, docs/decisions.md), so
a ``p ? a : b`` in a loop body is a branch and the loop stays scalar: an
attention mask (``select(mask, scores, -inf)``) or torch's erf polynomial
(selects between ranges) kept whole kernels scalar.  Both operands are
computed anyway (they are values, not side effects), so the select is the
mask blend ``(a & m) | (b & ~m)`` with ``m`` all ones where ``p`` holds,
which GCC vectorises without if-conversion.
"""
from __future__ import annotations

from . import scalar
from .body import BodyEmitter
from .lane_reduce import lanes_for

_UNSIGNED = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}


def _blend_c() -> str:
    out = []
    for w, u in _UNSIGNED.items():
        out.append(f"static inline {u} tvm_blend_u{w}(uint8_t p, {u} a, {u} b) {{ "
                   f"const {u} m = ({u})0 - ({u})(p != 0); return ({u})((a & m) | (b & ~m)); }}")
    for t, w in (("float", 32), ("double", 64)):
        u = _UNSIGNED[w]
        out.append(f"static inline {t} tvm_blend_{t}(uint8_t p, {t} a, {t} b) {{ {u} x, y; "
                   f"memcpy(&x, &a, sizeof x); memcpy(&y, &b, sizeof y); x = tvm_blend_u{w}(p, x, y); "
                   f"{t} o; memcpy(&o, &x, sizeof o); return o; }}")
    return "\n".join(out) + "\n"


#: The blend helpers, part of the CPU prologue.
BLEND_C = _blend_c()

# compute C type -> (helper, unsigned type to go through, or None for a helper of its own type)
_BLENDS = {"float": ("tvm_blend_float", None), "double": ("tvm_blend_double", None)}
for _w, _u in _UNSIGNED.items():
    for _t in (_u, _u[1:]):                       # uint32_t and int32_t
        _BLENDS[_t] = (f"tvm_blend_u{_w}", None if _t == _u else _u)


class CpuBodyEmitter(BodyEmitter):
    """BodyEmitter whose selects are branch-free blends (module docstring)
    and whose row reductions run in lanes (lane_reduce.py)."""

    def reduction_lanes(self, op) -> int:
        return lanes_for(op)

    def _pad(self, op, idx, low, interior):
        """A pad that only adds (no interior, no negative edge) as a read at
        the index clamped into the operand and a blend with the padding
        value: the read is of an element the pad's result holds anyway, and
        with no branch around it a loop over a dim the pad leaves alone
        vectorises (Keras's ZeroPadding2D pulled into the max pool after it:
        each tap's load sat under an ``if``)."""
        x = op.operands[0]
        shape, out = x.type.shape, op.result.type.shape
        ct = scalar.ctype(op.result.type.element)
        if op.name != "stablehlo.pad" or ct not in _BLENDS or any(
                type(v) is not int for v in (*shape, *out, *low, *interior)) or any(interior) \
                or any(lo < 0 or o - lo - d < 0 for lo, o, d in zip(low, out, shape)) \
                or any(d == 0 for d in shape):
            return super()._pad(op, idx, low, interior)
        conds, src = [], []
        for i, lo, d, o in zip(idx, low, shape, out):
            if lo == 0 and o == d:
                src.append(i)
                continue
            t = self.tmp("int64_t", f"({i} - {lo})" if lo else f"({i})")
            conds.append(f"({t} >= 0) & ({t} < {d})")
            src.append(self.tmp("int64_t", f"({t} < 0 ? 0 : ({t} > {d - 1} ? {d - 1} : {t}))"))
        if not conds:
            return [self.value(x, src)]
        inside = self.tmp("uint8_t", " & ".join(f"({c})" for c in conds))
        return [self.tmp(ct, self.select_expr(ct, inside, self.value(x, src),
                                              self.value(op.operands[1], ())))]

    def select_expr(self, ctype: str, p: str, a: str, b: str) -> str:
        blend = _BLENDS.get(ctype)
        if blend is None:                          # complex structs
            return super().select_expr(ctype, p, a, b)
        fn, via = blend
        if via is None:
            return f"{fn}({p}, {a}, {b})"
        return f"(({ctype}){fn}({p}, ({via})({a}), ({via})({b})))"
