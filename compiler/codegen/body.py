"""Element-wise body emission shared by every C-like target.

``BodyEmitter.value(v, idx)`` returns a C expression for the element of SSA
value ``v`` at the multi-index ``idx`` (a tuple of C int64 expressions),
emitting the statements it needs.  Producers are pulled through their index
maps (broadcast, transpose, slice, pad, ...), so fused ops cost no memory
traffic; reductions and contractions open loops in place.  Results are
cached per (value, index) inside lexical scopes, so a value read twice at
one index is computed once.
"""
from __future__ import annotations

import hashlib
import re
from typing import NamedTuple

from ..dialects import registry as R
from ..dialects import stablehlo as shlo
from ..errors import UnsupportedOpError
from ..ir.attributes import DenseElementsAttr, ints
from . import scalar, special_c
from .lane_reduce import emit_lane_reduction, nested_row_reductions
from .index_maps import delinearize, delinearize_decls, linearize, reshape_index  # noqa: F401
from .kernel import store_view

#: Ops whose operands are all read at the result's own index (no broadcast or
#: remapping): the ones _prefetch walks iteratively (convert and compare among them).
_SAME_INDEX = frozenset(shlo.UNARY_ELEMENTWISE) | frozenset(shlo.BINARY_ELEMENTWISE)


def _enum(attr, default=None):
    return getattr(attr, "value", attr) if attr is not None else default


class _Scope:
    __slots__ = ("cache", "parent")

    def __init__(self, parent=None):
        self.cache = {}
        self.parent = parent

    def get(self, key):
        s = self
        while s is not None:
            hit = s.cache.get(key)
            if hit is not None:
                return hit
            s = s.parent
        return None


class _Hoist(NamedTuple):
    """Where values that do not depend on the innermost loop go."""
    inner_names: set   # the loop variable and every name declared inside the loop
    lines: list        # statements before that loop
    depth: int
    scope: _Scope      # their scope
    inner: _Scope      # the loop body's top scope: values asked for there are hoisted


_NAME = re.compile(r"[A-Za-z_]\w*")


class BodyEmitter:
    """Emits C statements; ``bindings`` maps region block arguments to the
    name of the pointer that holds them."""

    def __init__(self, bindings: dict, indent: int = 1):
        self.bindings = bindings
        self.lines: list[str] = []
        self.decls: list[str] = []        # file-scope declarations (constant tables)
        self.depth = indent
        self.scope = _Scope()
        self.counter = 0
        self.hoist = None
        self.factors = {}     # loop index -> (q, p, b): walked as q * b + p (index_maps)

    def hoist_out_of(self, var, depth: int) -> list:
        """From now on, a value asked for at the current (loop body's top)
        scope whose index does not use ``var``, the innermost loop variable(s),
        is computed once before that loop instead: into the returned lines,
        at ``depth`` (a row's reductions and their broadcasts in a row kernel)."""
        outer = self.scope
        self.scope = _Scope(outer)
        names = {var} if isinstance(var, str) else set(var)
        self.hoist = _Hoist(names, [], depth, outer, self.scope)
        return self.hoist.lines

    # -- statements ---------------------------------------------------------------
    def fresh(self, prefix="t") -> str:
        self.counter += 1
        name = f"{prefix}{self.counter}"
        if self.hoist is not None:          # declared inside the loop values are hoisted out of
            self.hoist.inner_names.add(name)
        return name

    def line(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def tmp(self, ctype: str, expr: str) -> str:
        if _is_atom(expr):
            return expr
        name = self.fresh()
        self.line(f"const {ctype} {name} = {expr};")
        return name

    def var(self, ctype: str, init: str) -> str:
        name = self.fresh("v")
        self.line(f"{ctype} {name} = {init};")
        return name

    def open(self, header: str) -> None:
        self.line(header + " {")
        self.depth += 1
        self.scope = _Scope(self.scope)

    def close(self) -> None:
        self.depth -= 1
        self.line("}")
        self.scope = self.scope.parent

    def bind(self, value, idx, expr) -> None:
        self.scope.cache[(value, tuple(idx))] = expr

    def select_expr(self, ctype: str, p: str, a: str, b: str) -> str:
        """C for ``p ? a : b`` of compute type ``ctype`` (the CPU blends bits, cpu_body.py)."""
        return f"({p} ? {a} : {b})"

    # -- values ---------------------------------------------------------------------
    def value(self, v, idx) -> str:
        idx = tuple(idx)
        hit = self.scope.get((v, idx))
        if hit is not None:
            return hit
        h = self.hoist
        if h is not None and self.scope is h.inner \
                and h.inner_names.isdisjoint(_NAME.findall(" ".join(idx))):
            saved = self.lines, self.scope, self.depth
            self.lines, self.scope, self.depth, self.hoist = h.lines, h.scope, h.depth, None
            try:
                return self.value(v, idx)
            finally:
                (self.lines, self.scope, self.depth), self.hoist = saved, h
        if v in self.bindings:
            expr = self._load(v, idx)
            self.scope.cache[(v, idx)] = expr
            return expr
        op = v.defining_op
        if op is None:
            raise UnsupportedOpError("block argument", f"{v} is not bound in this kernel")
        if op.name in _SAME_INDEX:
            self._prefetch(op, idx)
        exprs = self._compute(op, idx)
        for r, e in zip(op.results, exprs):
            self.scope.cache[(r, idx)] = e
        return exprs[v.index]

    def _pending(self, x, idx):
        """The elementwise op defining ``x`` if its value at ``idx`` is still to compute."""
        d = x.defining_op
        if d is None or d.name not in _SAME_INDEX or x in self.bindings \
                or self.scope.get((x, idx)) is not None:
            return None
        return d

    def _prefetch(self, root, idx) -> None:
        """Compute the elementwise operands under ``root`` at ``idx`` deepest
        first, without recursion, in the order the recursive walk would emit
        them: a chain of thousands of elementwise ops then costs one level of
        Python stack, not one per op."""
        stack, seen = [(root, False)], set()
        while stack:
            op, ready = stack.pop()
            if ready:
                if op is not root and self.scope.get((op.results[0], idx)) is None:
                    for r, e in zip(op.results, self._compute(op, idx)):
                        self.scope.cache[(r, idx)] = e
                continue
            if id(op) in seen:
                continue
            seen.add(id(op))
            stack.append((op, True))
            for x in reversed(op.operands):
                d = self._pending(x, idx)
                if d is not None and id(d) not in seen:
                    stack.append((d, False))

    def _load(self, v, idx) -> str:
        ptr = self.bindings[v]
        el = v.type.element
        raw = f"{ptr}[{linearize(idx, v.type.shape)}]"
        return self.tmp(scalar.ctype(el), self.load_expr(el, raw))

    @staticmethod
    def load_expr(element: str, raw: str) -> str:
        """Compute-type expression for a stored element ``raw``."""
        if element == "f16":
            return f"tvm_f16_to_f32({raw})"
        if element == "bf16":
            return f"tvm_bf16_to_f32({raw})"
        if element in special_c.SMALL_FLOATS:
            return scalar.small_float_load(element, raw)
        if element in scalar.SUB_BYTE_INTS:
            return scalar.sub_byte_wrap(element, raw)
        return raw

    def store_expr(self, element: str, expr: str) -> str:
        if element == "f16":
            return f"tvm_f32_to_f16({expr})"
        if element == "bf16":
            return f"tvm_f32_to_bf16({expr})"
        if element in special_c.SMALL_FLOATS:
            return scalar.small_float_store(element, expr)
        if element in scalar.SUB_BYTE_INTS:
            return scalar.sub_byte_store(element, expr)
        return expr

    def _compute(self, op, idx) -> list:
        """``_compute_op`` with scalar-level UnsupportedOpErrors located at ``op``."""
        try:
            return self._compute_op(op, idx)
        except UnsupportedOpError as e:
            if e.location is not None or op.location is None:
                raise
            raise UnsupportedOpError(e.op_name, e.detail, op.location) from None

    def _compute_op(self, op, idx) -> list:
        name = op.name
        el = op.results[0].type.element if op.results else None
        ct = scalar.ctype(el) if el else None
        if name == "stablehlo.constant":
            return [self._constant(op, idx)]
        if name == "stablehlo.convert":
            src = op.operands[0].type.element
            return [self.tmp(ct, scalar.rounded(el, scalar.convert(src, el, self.value(op.operands[0], idx))))]
        if name == "stablehlo.compare":
            a, b = (self.value(x, idx) for x in op.operands)
            src = op.operands[0].type.element
            e = scalar.compare(_enum(op.attr("comparison_direction")),
                               _enum(op.attr("compare_type")), src, a, b)
            return [self.tmp("uint8_t", e)]
        # an exact_float op's float result needs no rounding; integers still wrap
        # (abs of i4's -8), and a NaN is quieted at the store as rounding would
        exact = el is not None and scalar.is_float(el) and R.has(name, R.EXACT_FLOAT)
        if name in shlo.UNARY_ELEMENTWISE:
            src = op.operands[0].type.element
            e = scalar.unary(op.short_name, src, self.value(op.operands[0], idx))
            return [self.tmp(ct, e if exact else scalar.rounded(el, e))]
        if name in shlo.BINARY_ELEMENTWISE:
            a, b = (self.value(x, idx) for x in op.operands)
            e = scalar.binary(op.short_name, el, a, b)
            return [self.tmp(ct, e if exact else scalar.rounded(el, e))]
        if name == "stablehlo.select":
            p, a, b = (self.value(x, _bcast(x, idx)) for x in op.operands)
            return [self.tmp(ct, self.select_expr(ct, p, a, b))]
        if name == "stablehlo.clamp":
            lo, x, hi = (self.value(v, _bcast(v, idx)) for v in op.operands)
            m = self.tmp(ct, scalar.binary("maximum", el, x, lo))
            return [self.tmp(ct, scalar.binary("minimum", el, m, hi))]
        handler = getattr(self, "_op_" + op.short_name, None)
        if op.dialect != "stablehlo" or handler is None:
            from .pull_ops import lower     # windowed / data-dependent pull forms
            return lower(self, op, idx)
        return handler(op, idx)

    # -- index remapping ops ------------------------------------------------------------
    def _op_broadcast_in_dim(self, op, idx):
        x = op.operands[0]
        dims = ints(op.attr("broadcast_dimensions"))
        src = tuple(_bcast_index(x.type.shape[k], op.result.type.shape[d], idx[d])
                    for k, d in enumerate(dims))
        return [self.value(x, src)]

    # dynamic forms: their dims are symbols in the types (passes/shapes.py)
    _op_dynamic_broadcast_in_dim = _op_broadcast_in_dim

    def _op_broadcast(self, op, idx):
        """The kept-for-compatibility form: ``broadcast_sizes`` are new leading
        dims, the operand's dims follow unchanged."""
        lead = len(ints(op.attr("broadcast_sizes")))
        return [self.value(op.operands[0], tuple(idx[lead:]))]

    def _op_dynamic_reshape(self, op, idx):
        return self._op_reshape(op, idx)

    def _op_dynamic_iota(self, op, idx):
        return self._op_iota(op, idx)

    def _op_real_dynamic_slice(self, op, idx):
        p = _params(op)
        src = tuple(_affine(i, st, s) for i, s, st in zip(idx, p["start"], p["strides"]))
        return [self.value(op.operands[0], src)]

    def _op_dynamic_pad(self, op, idx):
        p = _params(op)
        return self._pad(op, idx, p["low"], p["interior"])

    def _op_reshape(self, op, idx):
        x = op.operands[0]
        src, dst = x.type.shape, op.result.type.shape
        if src == dst:
            return [self.value(x, idx)]
        mapped = None
        if all(type(d) is int for d in (*src, *dst)):
            mapped = reshape_index(idx, src, dst, lambda e: self.tmp("int64_t", e), self.factors)
        if mapped is None:
            lin = self.tmp("int64_t", linearize(idx, dst))
            mapped = delinearize(lin, src)
        return [self.value(x, mapped)]

    _delinearize = staticmethod(delinearize)

    def _op_transpose(self, op, idx):
        perm = ints(op.attr("permutation"))
        src = [None] * len(perm)
        for i, p in enumerate(perm):
            src[p] = idx[i]
        return [self.value(op.operands[0], src)]

    def _op_slice(self, op, idx):
        start = ints(op.attr("start_indices"))
        strides = ints(op.attr("strides")) or (1,) * len(start)
        src = tuple(_affine(i, s, st) for i, s, st in zip(idx, strides, start))
        return [self.value(op.operands[0], src)]

    def _op_reverse(self, op, idx):
        dims = set(ints(op.attr("dimensions")))
        shape = op.result.type.shape
        src = tuple(f"({shape[k] - 1} - {i})" if k in dims else i for k, i in enumerate(idx))
        return [self.value(op.operands[0], src)]

    def _op_iota(self, op, idx):
        d = ints(op.attr("iota_dimension"))[0]
        el = op.result.type.element
        return [self.tmp(scalar.ctype(el), scalar.convert("i64", el, idx[d]))]

    def _op_pad(self, op, idx):
        return self._pad(op, idx, ints(op.attr("edge_padding_low")),
                         ints(op.attr("interior_padding")))

    def _pad(self, op, idx, low, interior):
        x, pad = op.operands[:2]
        el = op.result.type.element
        conds, src = [], []
        for k, i in enumerate(idx):
            t = f"({i} - {low[k]})" if low[k] else i
            step = interior[k] + 1
            dim = x.type.shape[k]
            if low[k] == 0 and interior[k] == 0 and op.result.type.shape[k] == dim:
                src.append(i)
                continue
            conds.append(f"{t} >= 0")
            if step != 1:
                conds.append(f"{t} % {step} == 0")
                src.append(f"({t} / {step})")
                conds.append(f"{t} / {step} < {dim}")
            else:
                src.append(t)
                conds.append(f"{t} < {dim}")
        if not conds:
            return [self.value(x, src)]
        pv = self.value(pad, ())
        r = self.var(scalar.ctype(el), pv)
        self.open(f"if ({' && '.join(conds)})")
        self.line(f"{r} = {self.value(x, src)};")
        self.close()
        return [r]

    def _op_concatenate(self, op, idx):
        d = ints(op.attr("dimension"))[0]
        el = op.result.type.element
        parts = [(v, v.type.shape[d]) for v in op.operands
                 if not isinstance(v.type.shape[d], int) or v.type.shape[d] > 0]
        r = self.var(scalar.ctype(el), scalar.literal(el, 0))
        offset = 0
        for n, (v, size) in enumerate(parts):
            src = list(idx)
            src[d] = f"({idx[d]} - {offset})" if offset else idx[d]
            cond = f"({idx[d]} < {offset + size})"
            last = n == len(parts) - 1
            self.open(("if " if n == 0 else "else if ") + cond if not last
                      else ("if (1)" if n == 0 else "else"))
            self.line(f"{r} = {self.value(v, src)};")
            self.close()
            offset += size
        return [r]

    # -- constants ------------------------------------------------------------------------
    def _constant(self, op, idx):
        attr = op.attr("value")
        el = op.result.type.element
        if not isinstance(attr, DenseElementsAttr):
            raise UnsupportedOpError("stablehlo.constant", f"value {attr!r}")
        arr = attr.array
        if arr.size == 0:
            return scalar.literal(el, 0)
        if attr.is_splat:
            return scalar.literal(el, _py(arr.flat[0], el))
        if scalar.is_complex(el):   # a static initializer needs constant braces, not _make()
            part = "f64" if el == "complex<f64>" else "f32"
            vals = ", ".join(f"{{{scalar.literal(part, complex(v).real)}, {scalar.literal(part, complex(v).imag)}}}"
                             for v in arr.reshape(-1))
        else:
            vals = ", ".join(scalar.literal(el, _py(v, el)) for v in arr.reshape(-1))
        # Named by content: every kernel of a module shares one file scope.
        name = "k_" + hashlib.sha1(f"{scalar.ctype(el)}[{vals}]".encode()).hexdigest()[:16]
        self.decls.append(f"#ifndef TVM_{name}\n#define TVM_{name}\n"
                          f"static const {scalar.ctype(el)} {name}[{arr.size}] = {{{vals}}};\n#endif")
        return self.tmp(scalar.ctype(el), f"{name}[{linearize(idx, arr.shape)}]")

    # -- reductions -------------------------------------------------------------------------
    def reduction_lanes(self, op) -> int:
        """Accumulator lanes for reduce ``op`` (0: one accumulator; the CPU
        splits row reductions into lanes, lane_reduce.py)."""
        return 0

    def _op_reduce(self, op, idx):
        for inner in nested_row_reductions(op, self.bindings):
            self.value(inner.result, idx)       # once, before this reduction's loop
        lanes = self.reduction_lanes(op)
        if lanes:
            return emit_lane_reduction(self, op, idx, lanes)
        n = len(op.operands) // 2
        inputs, inits = op.operands[:n], op.operands[n:]
        dims = ints(op.attr("dimensions"))
        body = op.regions[0].blocks[0]
        accs = [self.var(scalar.ctype(i.type.element), self.value(i, ())) for i in inits]
        shape = inputs[0].type.shape
        loop_vars = {}
        for d in dims:
            lv = self.fresh("r")
            loop_vars[d] = lv
            self.open(f"for (int64_t {lv} = 0; {lv} < {shape[d]}; ++{lv})")
        it = iter(idx)
        src = tuple(loop_vars[k] if k in loop_vars else next(it) for k in range(len(shape)))
        xs = [self.value(x, src) for x in inputs]
        new = self.region_call(body, accs + xs)
        for a, v in zip(accs, new):
            self.line(f"{a} = {v};")
        for _ in dims:
            self.close()
        return accs

    def region_call(self, block, args) -> list:
        """Evaluate a scalar region (reduce/sort bodies) on C expressions."""
        self.scope = _Scope(self.scope)
        for a, e in zip(block.arguments, args):
            self.bind(a, (), e)
        ret = block.terminator
        outs = [self.value(v, ()) for v in ret.operands]
        outs = [self.tmp(scalar.ctype(v.type.element), o) if not _is_atom(o) else o
                for v, o in zip(ret.operands, outs)]
        self.scope = self.scope.parent
        return outs

    def _op_dot_general(self, op, idx):
        lhs, rhs = op.operands
        dn = op.attr("dot_dimension_numbers").fields
        lb, rb = dn.get("lhs_batching_dimensions", ()), dn.get("rhs_batching_dimensions", ())
        lc, rc = dn.get("lhs_contracting_dimensions", ()), dn.get("rhs_contracting_dimensions", ())
        el = op.result.type.element
        ct = scalar.ctype(el)
        lfree = [d for d in range(lhs.type.rank) if d not in lb and d not in lc]
        rfree = [d for d in range(rhs.type.rank) if d not in rb and d not in rc]
        it = iter(idx)
        lidx, ridx = [None] * lhs.type.rank, [None] * rhs.type.rank
        for a, b in zip(lb, rb):
            lidx[a] = ridx[b] = next(it)
        for d in lfree:
            lidx[d] = next(it)
        for d in rfree:
            ridx[d] = next(it)
        acc = self.var(ct, scalar.literal(el, 0))
        for a, b in zip(lc, rc):
            lv = self.fresh("k")
            lidx[a] = ridx[b] = lv
            self.open(f"for (int64_t {lv} = 0; {lv} < {lhs.type.shape[a]}; ++{lv})")
        x = scalar.convert(lhs.type.element, el, self.value(lhs, lidx))
        y = scalar.convert(rhs.type.element, el, self.value(rhs, ridx))
        prod = scalar.binary("multiply", el, x, y)
        self.line(f"{acc} = {scalar.binary('add', el, acc, prod)};")
        for _ in lc:
            self.close()
        return [acc]


def _bcast_index(src_dim, dst_dim, i):
    """Operand index of a broadcast: 0 on expanded dims; a symbolic operand
    dim may be 1 at run time, so that case is decided in C."""
    if isinstance(src_dim, int):
        return "0" if src_dim == 1 else i
    if src_dim == dst_dim:
        return i
    return f"({src_dim} == 1 ? 0 : {i})"


def _params(op):
    p = op.attributes.get("tvm.params")
    if p is None:
        raise UnsupportedOpError(op.name, "shape parameters were not bound (shape analysis)")
    return p


def _bcast(v, idx):
    """Index for an operand that may be a rank-0 stand-in (select/clamp)."""
    return () if v.type.rank == 0 else idx


def _affine(i, stride, start):
    e = i if stride == 1 else f"{i} * {stride}"
    return f"({e} + {start})" if start else e


def _is_atom(expr: str) -> bool:
    return expr.replace("_", "a").isalnum() or _is_number(expr)


def _is_number(expr: str) -> bool:
    try:
        float(expr.rstrip("f"))
        return True
    except ValueError:
        return False


def _py(v, el):
    if el == "i1":
        return bool(v)
    if el.startswith("complex"):
        return complex(v)
    if el.startswith(("i", "si", "ui")):
        return int(v)
    return float(v)


def contraction_epilogue(em: "BodyEmitter", kernel, b: str, row: str, col: str, acc: str):
    """(index declarations, store statement) of a contraction's fused
    epilogue at batch ``b``, row ``row``, column ``col`` of the output, the dot
    product itself being the C expression ``acc``.  Shared by every target."""
    c = kernel.contraction
    bsz, msz, nsz = c.out_groups
    decls = (delinearize_decls(b, bsz, "e", 0)
             + delinearize_decls(row, msz, "e", len(bsz))
             + delinearize_decls(col, nsz, "e", len(bsz) + len(msz)))
    idx = tuple(f"e{k}" for k in range(len(bsz) + len(msz) + len(nsz)))
    # narrow operands accumulate in f32: the product rounds once, to its type
    return decls, fused_store(em, kernel, c.op.result, idx, scalar.rounded(c.op.result.type.element, acc))


def fused_store(em: "BodyEmitter", kernel, result, idx, acc: str) -> str:
    """Store statement of the kernel's output at ``idx`` with the heavy op's
    ``result`` there taken as the C expression ``acc`` (its epilogue pulled
    through ``em``; a transposing output stores at permuted places)."""
    em.bind(result, idx, acc)
    out_v = kernel.outputs[0]
    src, view = store_view(out_v)
    if view is None:
        at = linearize(idx, out_v.type.shape)
    else:
        mid = idx
        if view.mid is not None:
            tmp = lambda e: em.tmp("int64_t", e)
            mid = reshape_index(idx, view.mid, src.type.shape, tmp) or \
                delinearize(tmp(linearize(idx, src.type.shape)), view.mid)
        at = linearize([mid[p] for p in view.perm], view.shape)
    return f"o0[{at}] = {em.store_expr(out_v.type.element, em.value(src, idx))};"
